// The network thread and pinned requests of server-side fetches (pinned_request.h).
#include "server/net/pinned_request.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>

namespace imprint::net {

QNetworkAccessManager *startNetworkThread(QThread &thread, QObject *context, const QString &name)
{
    thread.setObjectName(name);
    context->moveToThread(&thread);
    thread.start();
    QNetworkAccessManager *manager = nullptr;
    QMetaObject::invokeMethod(
        context,
        [context, &manager] {
            manager = new QNetworkAccessManager(context);
            manager->setProxy(QNetworkProxy::NoProxy);
            manager->setAutoDeleteReplies(false);
        },
        Qt::BlockingQueuedConnection);
    return manager;
}

QNetworkRequest pinnedRequest(const QUrl &url, const QHostAddress &address)
{
    QUrl target = url;
    target.setHost(address.toString());
    target.setUserInfo(QString());
    target.setFragment(QString());
    QNetworkRequest request(target);
    const bool https = url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0;
    QByteArray hostHeader = url.host(QUrl::FullyEncoded).toLatin1();
    if (hostHeader.contains(':'))
        hostHeader = '[' + hostHeader + ']';
    if (url.port() != -1 && url.port() != (https ? 443 : 80))
        hostHeader += ':' + QByteArray::number(url.port());
    request.setRawHeader("Host", hostHeader);
    if (https)
        request.setPeerVerifyName(url.host());
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::AuthenticationReuseAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    return request;
}

} // namespace imprint::net
