#pragma once
// The webhook delivery worker (docs/api.md, "Webhooks"; docs/deployment.md): a thread that
// claims due deliveries from the outbox (WebhookRepository::claimDue(): FOR UPDATE SKIP
// LOCKED and a lease on PostgreSQL, so instances sharing the database never send one
// delivery at the same time), signs each as the Standard Webhooks specification says and
// POSTs it through the WebhookSender (address policy, time and size limits). A 2xx answer
// delivers it; anything else schedules the next attempt after the configured delays, until
// the retry window (24 h by default) is spent, then it has failed.

#include "server/common/histogram.h"
#include "server/service/webhook_service.h"

#include <QDeadlineTimer>
#include <QString>
#include <QThread>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace imprint::net {
class WebhookSender;
}

namespace imprint::service {

/// Counters since start.
struct WebhookDeliveryStats {
    quint64 delivered = 0; ///< attempts answered 2xx
    quint64 retrying = 0; ///< failed attempts with another one scheduled
    quint64 failed = 0; ///< deliveries given up (retry window spent, or endpoint deleted)
};

/// The worker. Start it once; stopping (or destroying) it waits for the attempts in flight.
class WebhookDispatcher
{
    Q_DISABLE_COPY(WebhookDispatcher)
public:
    /// Claims from `db` through `webhooks` (secrets, settings) and sends with `sender`; all
    /// three must outlive it.
    WebhookDispatcher(const store::Database &db, WebhookService &webhooks, net::WebhookSender &sender);
    ~WebhookDispatcher();

    /// Starts the worker thread.
    void start();
    /// Stops it after the attempts in flight end, waiting for them until `deadline`; true
    /// when the thread has ended. An attempt still running past it is retried when its
    /// lease runs out, if its process has ended meanwhile (webhooks are delivered at least once).
    bool stop(QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));
    /// Looks for due deliveries now instead of at the next poll (any thread).
    void wake();

    /// When the next attempt after the failed one number `roundAttempt` (1-based) of a
    /// round that started at `roundStartedAt` is due, from `now` (epoch ms), under
    /// `settings`; 0 when the retry window is spent (the delivery has failed). The last
    /// attempt falls on the window's end.
    static qint64 nextAttemptAt(const WebhookSettings &settings, int roundAttempt, qint64 roundStartedAt, qint64 now);

    WebhookDeliveryStats stats() const;
    /// Attempt latencies in seconds, by result ("delivered", "failed").
    const common::LabeledHistograms &latencies() const { return m_latencies; }

private:
    void run();
    /// Sends one claimed delivery and records its outcome.
    void attempt(const store::WebhookDelivery &delivery, const store::WebhookEndpointSecret &endpoint);

    const store::Database &m_db;
    WebhookService &m_webhooks;
    net::WebhookSender &m_sender;
    QString m_owner; ///< this instance's lease name
    std::unique_ptr<QThread> m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_woken = false;
    bool m_stopping = false;
    std::atomic<quint64> m_delivered{0}, m_retrying{0}, m_failed{0};
    common::LabeledHistograms m_latencies;
};

} // namespace imprint::service
