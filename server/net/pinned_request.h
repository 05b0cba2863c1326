#pragma once
// What every outbound request of the server shares (remote images, webhooks): a network
// thread whose QNetworkAccessManager uses no proxy (a proxy would resolve the name itself
// and defeat the address check of address_policy.h), and a request pinned to the address
// the caller checked.

#include <QHostAddress>
#include <QNetworkRequest>
#include <QString>
#include <QThread>
#include <QUrl>

class QNetworkAccessManager;

namespace imprint::net {

/// Moves `context` (a new QObject without parent) to `thread`, starts the thread and
/// creates on it, as a child of `context`, the QNetworkAccessManager it returns: no proxy,
/// replies not deleted automatically. Blocks until it exists.
QNetworkAccessManager *startNetworkThread(QThread &thread, QObject *context, const QString &name);

/// A request for `url` sent to `address`, an address of its host the caller checked: the
/// host named in Host and, for https, in SNI and the certificate check, so a second lookup
/// cannot swap the address (DNS rebinding). Without user info or fragment; redirects not
/// followed (the caller checks each hop), HTTP/1.1, no cookies, credential reuse or cache.
QNetworkRequest pinnedRequest(const QUrl &url, const QHostAddress &address);

} // namespace imprint::net
