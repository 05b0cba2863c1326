// Outbound webhook requests under the address policy (webhook_sender.h).
#include "server/net/webhook_sender.h"

#include "server/net/address_policy.h"
#include "server/net/pinned_request.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QHostInfo>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QThread>
#include <QTimer>

#include <condition_variable>
#include <mutex>
#include <optional>

namespace imprint::net {

namespace {

/// Why `addresses` of `host` may not be connected to, or empty (allowlisted, or all public).
QString addressProblem(const QString &host, const QList<QHostAddress> &addresses, const QStringList &allowlist)
{
    if (allowlist.contains(host.toLower()))
        return {};
    for (const QHostAddress &a : addresses)
        if (const AddressClass c = classifyAddress(a); c != AddressClass::Public)
            return QStringLiteral("%1 is a %2 address, and %3 is not in webhooks.hostAllowlist")
                .arg(a.toString(), addressClassName(c), host);
    return {};
}

/// One attempt in flight, shared by the caller (waiting) and the network thread.
struct Attempt {
    std::mutex mutex;
    std::condition_variable done;
    std::optional<WebhookResponse> result;
    QElapsedTimer clock;
    // Network thread only:
    QPointer<QNetworkReply> reply;
    QTimer *timer = nullptr;
    QByteArray body;

    void finish(WebhookResponse r)
    {
        if (timer) {
            timer->stop();
            timer->deleteLater();
            timer = nullptr;
        }
        if (reply) {
            reply->disconnect();
            reply->abort();
            reply->deleteLater();
        }
        r.durationMs = clock.elapsed();
        std::lock_guard lock(mutex);
        if (!result) {
            result = std::move(r);
            done.notify_all();
        }
    }
};

WebhookResponse failure(const QString &error, bool refused = false)
{
    WebhookResponse r;
    r.error = error;
    r.refused = refused;
    return r;
}

} // namespace

QString webhookUrlProblem(const QUrl &url, const QStringList &hostAllowlist)
{
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return QStringLiteral("a webhook URL is an absolute http or https URL");
    if (url.host().isEmpty())
        return QStringLiteral("the URL has no host");
    if (!url.userInfo().isEmpty())
        return QStringLiteral("the URL may not carry a user name or password");
    QHostAddress literal;
    if (literal.setAddress(url.host()))
        return addressProblem(url.host(), {literal}, hostAllowlist);
    return {};
}

struct WebhookSender::Shared {
    WebhookPolicy policy;
    QThread thread;
    QObject *context = nullptr; ///< lives on `thread`
    QNetworkAccessManager *manager = nullptr; ///< created and used on `thread` only

    void start(const std::shared_ptr<Attempt> &a, const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers,
               const QByteArray &body);
    void send(const std::shared_ptr<Attempt> &a, const QUrl &url, const QHostAddress &address,
              const QList<QPair<QByteArray, QByteArray>> &headers, const QByteArray &body);
};

WebhookSender::WebhookSender(WebhookPolicy policy)
    : d(std::make_unique<Shared>())
{
    d->policy = std::move(policy);
    for (QString &h : d->policy.hostAllowlist)
        h = h.trimmed().toLower();
    d->context = new QObject;
    d->manager = startNetworkThread(d->thread, d->context, QStringLiteral("imprint-webhooks"));
}

WebhookSender::~WebhookSender()
{
    QMetaObject::invokeMethod(d->context, &QObject::deleteLater, Qt::QueuedConnection);
    d->thread.quit();
    d->thread.wait();
}

const WebhookPolicy &WebhookSender::policy() const
{
    return d->policy;
}

QString checkWebhookTarget(const QUrl &url, const QStringList &hostAllowlistIn)
{
    QStringList hostAllowlist;
    for (const QString &h : hostAllowlistIn)
        hostAllowlist.append(h.trimmed().toLower());
    if (const QString problem = webhookUrlProblem(url, hostAllowlist); !problem.isEmpty())
        return problem;
    QHostAddress literal;
    if (literal.setAddress(url.host()))
        return {};
    const QHostInfo info = QHostInfo::fromName(url.host());
    if (info.error() != QHostInfo::NoError || info.addresses().isEmpty())
        return QStringLiteral("the host %1 does not resolve").arg(url.host());
    return addressProblem(url.host(), info.addresses(), hostAllowlist);
}

WebhookResponse WebhookSender::post(const QUrl &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                                    const QByteArray &body)
{
    auto attempt = std::make_shared<Attempt>();
    attempt->clock.start();
    Shared *s = d.get();
    QMetaObject::invokeMethod(d->context, [s, attempt, url, headers, body] { s->start(attempt, url, headers, body); });
    std::unique_lock lock(attempt->mutex);
    // The network thread answers at the time limit; the grace covers a busy event loop.
    if (!attempt->done.wait_for(lock, std::chrono::milliseconds(d->policy.timeoutMs + 1000),
                                [&] { return attempt->result.has_value(); }))
        return failure(QStringLiteral("no answer within %1 ms").arg(d->policy.timeoutMs));
    return *attempt->result;
}

/// On the network thread: the time limit, the URL and the host's addresses checked, then send().
void WebhookSender::Shared::start(const std::shared_ptr<Attempt> &a, const QUrl &url,
                                  const QList<QPair<QByteArray, QByteArray>> &headers, const QByteArray &body)
{
    a->timer = new QTimer(context);
    a->timer->setSingleShot(true);
    std::weak_ptr<Attempt> weak = a;
    const int limit = policy.timeoutMs;
    QObject::connect(a->timer, &QTimer::timeout, context, [weak, limit] {
        if (const auto attempt = weak.lock())
            attempt->finish(failure(QStringLiteral("no answer within %1 ms").arg(limit)));
    });
    a->timer->start(policy.timeoutMs);
    if (const QString problem = webhookUrlProblem(url, policy.hostAllowlist); !problem.isEmpty())
        return a->finish(failure(problem, true));
    QHostAddress literal;
    if (literal.setAddress(url.host()))
        return send(a, url, literal, headers, body);
    QHostInfo::lookupHost(url.host(), context, [this, weak, url, headers, body](const QHostInfo &info) {
        const auto attempt = weak.lock();
        if (!attempt)
            return;
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty())
            return attempt->finish(failure(QStringLiteral("the host %1 does not resolve").arg(url.host())));
        if (const QString problem = addressProblem(url.host(), info.addresses(), policy.hostAllowlist);
            !problem.isEmpty())
            return attempt->finish(failure(problem, true));
        send(attempt, url, info.addresses().first(), headers, body);
    });
}

/// On the network thread: the POST to the checked `address`, the URL's host in Host (and
/// for https in SNI and the certificate check).
void WebhookSender::Shared::send(const std::shared_ptr<Attempt> &a, const QUrl &url, const QHostAddress &address,
                                 const QList<QPair<QByteArray, QByteArray>> &headers, const QByteArray &body)
{
    QNetworkRequest request = pinnedRequest(url, address);
    request.setRawHeader("User-Agent", "Imprint/" IMPRINT_VERSION " (webhooks)");
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    request.setTransferTimeout(policy.connectTimeoutMs);
    QNetworkReply *reply = manager->post(request, body);
    a->reply = reply;
    std::weak_ptr<Attempt> weak = a;
    const qint64 cap = policy.maxResponseBytes;
    QObject::connect(reply, &QIODevice::readyRead, context, [weak, reply, cap] {
        const auto attempt = weak.lock();
        if (!attempt)
            return;
        // Past the cap the rest is read and dropped: the status is what counts.
        const QByteArray chunk = reply->readAll();
        attempt->body += chunk.left(std::max<qint64>(0, cap - attempt->body.size()));
    });
    QObject::connect(reply, &QNetworkReply::finished, context, [weak, reply] {
        const auto attempt = weak.lock();
        if (!attempt)
            return;
        WebhookResponse r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = attempt->body;
        if (r.status == 0)
            r.error = reply->error() == QNetworkReply::OperationCanceledError
                          ? QStringLiteral("no progress within the connect timeout")
                          : reply->errorString();
        else if (!r.delivered())
            r.error = QStringLiteral("the endpoint answered %1").arg(r.status);
        attempt->finish(r);
    });
}

} // namespace imprint::net
