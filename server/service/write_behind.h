#pragma once
// Writes a request needs done but need not wait for (docs/performance.md, "Request path"):
// API key last-use times and the render log's rows. A request notes them in memory; a
// thread of its own writes everything pending in one transaction at least once per flush
// interval (auth.keyUsageFlushMs, 1 s), and a last time when the writer is destroyed (a
// clean stop of the server, after the last request was answered).

#include "server/store/database.h"
#include "server/store/models.h"
#include "server/store/usage_repository.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QString>
#include <QWaitCondition>

#include <atomic>
#include <memory>

class QThread;

namespace imprint::service {

/// Batches `api_keys.last_used_at` updates, `renders` and `render_log` inserts, and prunes
/// `render_log` rows past their retention. Thread-safe.
class WriteBehind
{
public:
    /// Rows held while the database refuses writes; past it new render rows are dropped
    /// (counted, logged) rather than let memory grow without bound.
    static constexpr int kMaxPendingRenders = 100000;

    /// Writes to `db` (which must outlive it) every `flushIntervalMs` ms (≥ 10) on its own
    /// thread, which starts here.
    explicit WriteBehind(const store::Database &db, int flushIntervalMs = 1000);
    /// Stops the thread and writes what is still pending.
    ~WriteBehind();
    WriteBehind(const WriteBehind &) = delete;
    WriteBehind &operator=(const WriteBehind &) = delete;

    /// Notes that key `keyId` authenticated at `atMs` (epoch ms); the newest time wins.
    void keyUsed(const QString &keyId, qint64 atMs);

    /// The newest time not yet written for `keyId`, 0 when none: a key listing shows
    /// usage before it reaches the database.
    qint64 pendingKeyUse(const QString &keyId) const;

    /// Queues the render-log row of a stored render; `record.createdAt` 0 is stamped now,
    /// so the row keeps the time of the render, not of the flush.
    void renderStored(store::RenderRecord record);

    /// Queues the usage row of an answered render request (docs/api.md, "Usage");
    /// `entry.createdAt` 0 is stamped now. Past kMaxPendingRenders waiting rows it is
    /// dropped and counted (droppedAnswers()): the request path never waits for the log.
    void renderAnswered(store::RenderLogEntry entry);

    /// Keeps `render_log` rows for `days` (≥ 1; usage.retentionDays, default 90): older
    /// ones are deleted at the first flush and then at most once an hour.
    void setUsageRetentionDays(int days);

    /// Writes everything pending now, on the calling thread's connection, in one
    /// transaction. False when the database refused (everything stays pending).
    bool flush();

    /// Transactions written since start (tests, diagnostics).
    quint64 flushes() const { return m_flushes.load(); }
    /// Render rows dropped because kMaxPendingRenders were waiting (diagnostics).
    quint64 droppedRenders() const { return m_droppedRenders.load(); }
    /// Usage rows dropped because kMaxPendingRenders were waiting (diagnostics).
    quint64 droppedAnswers() const { return m_droppedAnswers.load(); }

private:
    /// Deletes render_log rows past the retention, at most once an hour.
    void pruneUsage();

    const store::Database &m_db;
    int m_intervalMs;
    mutable QMutex m_mutex;
    QWaitCondition m_wake;
    bool m_stopping = false;
    QHash<QString, qint64> m_keyUses;
    QList<store::RenderRecord> m_renders;
    QList<store::RenderLogEntry> m_answers;
    std::atomic<int> m_retentionDays{90};
    std::atomic<qint64> m_prunedAt{0}; // epoch ms of the last prune
    std::atomic<quint64> m_flushes{0};
    std::atomic<quint64> m_droppedRenders{0};
    std::atomic<quint64> m_droppedAnswers{0};
    std::unique_ptr<QThread> m_thread;
};

} // namespace imprint::service
