#pragma once
// Outbound webhook requests (docs/api.md, "Webhooks"): one POST per attempt, under the
// address policy of remote images (address_policy.h). The host is resolved once and every
// address it resolves to checked, unless the host is allowlisted; the request goes to the
// checked address (the URL's host in Host and, for https, in SNI and the certificate
// check), so a second lookup cannot swap in a private address (DNS rebinding). Redirects
// are not followed (an answer of 3xx is a failed attempt, as the Standard Webhooks
// specification's senders treat it). A connect (no progress) and a total time limit, and
// a cap on the answer body read. The network work runs on a thread of its own
// (QNetworkAccessManager is thread-affine); callers on any thread only wait.

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <memory>

namespace imprint::net {

/// What a webhook request may do (config keys in docs/deployment.md, "Webhooks").
struct WebhookPolicy {
    /// webhooks.hostAllowlist: hosts (names or IP literals, case-insensitive) that may
    /// resolve to loopback, private or other non-public addresses.
    QStringList hostAllowlist;
    int connectTimeoutMs = 5000; ///< webhooks.connectTimeoutMs: no progress for this long fails the attempt
    int timeoutMs = 15000; ///< webhooks.timeoutMs: the whole attempt
    qint64 maxResponseBytes = 64 * 1024; ///< webhooks.maxResponseBytes: answer body read at most, bytes
};

/// How one attempt ended.
struct WebhookResponse {
    int status = 0; ///< the HTTP status; 0 when there was no answer
    QString error; ///< empty for a 2xx; else one sentence on what went wrong
    bool refused = false; ///< the policy forbade the target (no request was sent)
    qint64 durationMs = 0; ///< from the call to the end, DNS included
    QByteArray body; ///< the answer's first maxResponseBytes bytes
    bool delivered() const { return status >= 200 && status < 300; }
};

/// Why `url` may not be a webhook target before any lookup, or empty: only http and https
/// with a host. An IP literal that is not public (and not allowlisted) is refused here too.
QString webhookUrlProblem(const QUrl &url, const QStringList &hostAllowlist);

/// webhookUrlProblem(), then `url`'s host resolved (blocking: not on an event loop that
/// serves) and every address checked as WebhookSender::post() does; empty when allowed,
/// else why not (a new endpoint is refused at once).
QString checkWebhookTarget(const QUrl &url, const QStringList &hostAllowlist);

/// Sends webhook requests. Thread-safe; not copyable.
class WebhookSender
{
public:
    struct Shared;
    explicit WebhookSender(WebhookPolicy policy);
    /// Stops the network thread; requests in flight end as failed.
    ~WebhookSender();
    WebhookSender(const WebhookSender &) = delete;
    WebhookSender &operator=(const WebhookSender &) = delete;

    /// POSTs `body` (Content-Type: application/json) with `headers` to `url` and blocks
    /// until the answer, a refusal or the time limit (at most policy().timeoutMs + 1 s).
    WebhookResponse post(const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers, const QByteArray &body);

    const WebhookPolicy &policy() const;

private:
    std::unique_ptr<Shared> d;
};

} // namespace imprint::net
