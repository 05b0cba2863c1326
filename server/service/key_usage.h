#pragma once
// API key usage recorded off the request path (docs/performance.md, "Request path"):
// authenticating a token notes the time in memory, and a thread of its own writes every
// key's newest time to api_keys.last_used_at in one transaction at least once a second,
// and a last time when the recorder is destroyed (a clean stop of the server).

#include "server/store/database.h"

#include <QHash>
#include <QMutex>
#include <QString>
#include <QWaitCondition>

#include <atomic>
#include <memory>

class QThread;

namespace imprint::service {

/// Batches `last_used_at` writes of API keys. Thread-safe.
class KeyUsageRecorder
{
public:
    /// Writes to `db` (which must outlive it) every `flushIntervalMs` ms (≥ 10) on its own
    /// thread, which starts here.
    explicit KeyUsageRecorder(const store::Database &db, int flushIntervalMs = 1000);
    /// Stops the thread and writes what is still pending.
    ~KeyUsageRecorder();
    KeyUsageRecorder(const KeyUsageRecorder &) = delete;
    KeyUsageRecorder &operator=(const KeyUsageRecorder &) = delete;

    /// Notes that key `keyId` authenticated at `atMs` (epoch ms); the newest time wins.
    void keyUsed(const QString &keyId, qint64 atMs);

    /// The newest time not yet written for `keyId`, 0 when none: a key listing shows
    /// usage before it reaches the database.
    qint64 pending(const QString &keyId) const;

    /// Writes every pending time now, on the calling thread's connection, in one
    /// transaction. False when the database refused (the times stay pending).
    bool flush();

    /// Transactions written since start (tests, diagnostics).
    quint64 flushes() const { return m_flushes.load(); }

private:
    const store::Database &m_db;
    int m_intervalMs;
    mutable QMutex m_mutex;
    QWaitCondition m_wake;
    bool m_stopping = false;
    QHash<QString, qint64> m_pending;
    std::atomic<quint64> m_flushes{0};
    std::unique_ptr<QThread> m_thread;
};

} // namespace imprint::service
