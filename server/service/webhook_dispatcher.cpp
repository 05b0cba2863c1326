// The webhook delivery worker (webhook_dispatcher.h).
#include "server/service/webhook_dispatcher.h"

#include "server/net/webhook_sender.h"
#include "server/store/crypto.h"

#include <QDateTime>
#include <QLoggingCategory>
#include <QThreadPool>
#include <QUrl>

namespace imprint::service {

Q_LOGGING_CATEGORY(lcDispatch, "imprint.webhooks")

using store::nowMs;

WebhookDispatcher::WebhookDispatcher(const store::Database &db, WebhookService &webhooks, net::WebhookSender &sender)
    : m_db(db)
    , m_webhooks(webhooks)
    , m_sender(sender)
    , m_owner(store::randomId(QStringLiteral("wkr_")))
    // 10 ms to 30 s: a loopback receiver answers in milliseconds, a slow one near the time limit.
    , m_latencies({0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30})
{ }

WebhookDispatcher::~WebhookDispatcher()
{
    stop();
}

void WebhookDispatcher::start()
{
    if (m_thread)
        return;
    m_thread.reset(QThread::create([this] { run(); }));
    m_thread->setObjectName(QStringLiteral("imprint-webhook-worker"));
    m_thread->start();
}

bool WebhookDispatcher::stop(QDeadlineTimer deadline)
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    if (m_thread) {
        if (!m_thread->wait(deadline))
            return false;
        m_thread.reset();
    }
    return true;
}

void WebhookDispatcher::wake()
{
    {
        std::lock_guard lock(m_mutex);
        m_woken = true;
    }
    m_wake.notify_all();
}

WebhookDeliveryStats WebhookDispatcher::stats() const
{
    return {m_delivered.load(), m_retrying.load(), m_failed.load()};
}

qint64 WebhookDispatcher::nextAttemptAt(const WebhookSettings &settings, int roundAttempt, qint64 roundStartedAt,
                                        qint64 now)
{
    const qint64 deadline = roundStartedAt + settings.retryWindowMs;
    if (now >= deadline || settings.retryDelaysMs.isEmpty())
        return 0;
    const qint64 delay = settings.retryDelaysMs.at(std::clamp<qsizetype>(roundAttempt - 1, 0, settings.retryDelaysMs.size() - 1));
    return std::min(now + delay, deadline);
}

void WebhookDispatcher::run()
{
    const WebhookSettings &settings = m_webhooks.settings();
    QThreadPool pool;
    pool.setMaxThreadCount(settings.concurrency);
    for (;;) {
        {
            std::lock_guard lock(m_mutex);
            if (m_stopping)
                break;
            m_woken = false;
        }
        const qint64 now = nowMs();
        // The lease outlives the longest attempt, so no other instance takes the row meanwhile;
        // a worker killed mid-attempt leaves it, and the row is due again when it expires.
        const auto claimed = store::WebhookRepository(m_db).claimDue(m_owner, now, now + settings.timeoutMs + 60000,
                                                                    settings.concurrency);
        if (claimed) {
            // Each pair is captured whole: clang 15 (the sanitizer build) cannot capture
            // structured bindings.
            for (const auto &claim : *claimed)
                pool.start([this, claim] { attempt(claim.first, claim.second); });
            pool.waitForDone();
        }
        std::unique_lock lock(m_mutex);
        // A full batch may mean more are due: look again at once.
        if (claimed && claimed->size() == settings.concurrency)
            continue;
        m_wake.wait_for(lock, std::chrono::milliseconds(settings.pollMs), [this] { return m_stopping || m_woken; });
    }
}

void WebhookDispatcher::attempt(const store::WebhookDelivery &d, const store::WebhookEndpointSecret &e)
{
    const WebhookSettings &settings = m_webhooks.settings();
    store::WebhookOutcome outcome;
    outcome.attempt.attempt = d.attempts + 1;
    outcome.attempt.attemptedAt = nowMs();
    net::WebhookResponse response;
    if (e.endpoint.disabledAt > 0) {
        response.error = QStringLiteral("the webhook was deleted");
    } else if (const auto secret = m_webhooks.unseal(e.sealedSecret); !secret) {
        response.error = secret.error().message;
    } else {
        const qint64 timestamp = QDateTime::currentSecsSinceEpoch();
        response = m_sender.post(QUrl(e.endpoint.url),
                                 {{"webhook-id", d.id.toUtf8()},
                                  {"webhook-timestamp", QByteArray::number(timestamp)},
                                  {"webhook-signature", WebhookService::signature(*secret, d.id, timestamp, d.payload)}},
                                 d.payload);
        m_latencies.observe({response.delivered() ? QStringLiteral("delivered") : QStringLiteral("failed")},
                            double(response.durationMs) / 1000);
    }
    outcome.attempt.status = response.status;
    outcome.attempt.error = response.error;
    outcome.attempt.durationMs = response.durationMs;
    const qint64 next = e.endpoint.disabledAt > 0
        ? 0
        : nextAttemptAt(settings, d.roundAttempts + 1, d.roundStartedAt, nowMs());
    if (response.delivered()) {
        outcome.state = QStringLiteral("delivered");
        ++m_delivered;
    } else if (next > 0) {
        outcome.state = QStringLiteral("pending");
        outcome.nextAttemptAt = next;
        ++m_retrying;
    } else {
        outcome.state = QStringLiteral("failed");
        ++m_failed;
    }
    const auto recorded = store::WebhookRepository(m_db).finishAttempt(d.id, m_owner, outcome);
    if (!recorded || !*recorded)
        qCWarning(lcDispatch) << "the outcome of delivery" << d.id << "was not recorded (lease lost or database error)";
    else if (!response.delivered())
        qCInfo(lcDispatch).noquote() << "delivery" << d.id << "attempt" << outcome.attempt.attempt << "failed:"
                                     << response.error << "→" << outcome.state;
}

} // namespace imprint::service
