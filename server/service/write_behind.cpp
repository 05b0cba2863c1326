// Key usage and render-log rows written behind the request path (see write_behind.h).

#include "server/service/write_behind.h"

#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <QLoggingCategory>
#include <QThread>

#include <algorithm>

namespace imprint::service {

Q_LOGGING_CATEGORY(lcWriteBehind, "imprint.writebehind")

WriteBehind::WriteBehind(const store::Database &db, int flushIntervalMs)
    : m_db(db)
    , m_intervalMs(std::max(10, flushIntervalMs))
{
    m_thread.reset(QThread::create([this] {
        QMutexLocker lock(&m_mutex);
        while (!m_stopping) {
            m_wake.wait(&m_mutex, QDeadlineTimer(m_intervalMs));
            if (m_stopping || (m_keyUses.isEmpty() && m_renders.isEmpty() && m_answers.isEmpty()))
                continue;
            lock.unlock();
            flush();
            lock.relock();
        }
    }));
    m_thread->setObjectName(QStringLiteral("write-behind"));
    m_thread->start();
}

WriteBehind::~WriteBehind()
{
    {
        QMutexLocker lock(&m_mutex);
        m_stopping = true;
        m_wake.wakeAll();
    }
    m_thread->wait();
    if (!flush())
        qCWarning(lcWriteBehind) << "the last API key usage times and render-log rows could not be written";
}

void WriteBehind::keyUsed(const QString &keyId, qint64 atMs)
{
    QMutexLocker lock(&m_mutex);
    qint64 &at = m_keyUses[keyId];
    at = std::max(at, atMs);
}

qint64 WriteBehind::pendingKeyUse(const QString &keyId) const
{
    QMutexLocker lock(&m_mutex);
    return m_keyUses.value(keyId, 0);
}

namespace {

/// Appends `row` to `queue` (the caller holds the lock), stamped now when its createdAt is
/// 0 so that it keeps the time of the render, not of the flush; past `limit` waiting rows
/// drops it instead, counted in `dropped` and said once per 10 000.
template<typename Row>
void enqueue(QList<Row> &queue, Row row, int limit, std::atomic<quint64> &dropped, const char *what)
{
    if (queue.size() >= limit) {
        if (dropped.fetch_add(1) % 10000 == 0)
            qCWarning(lcWriteBehind) << what << "dropped: the database has refused writes for a while";
        return;
    }
    if (row.createdAt == 0)
        row.createdAt = store::nowMs();
    queue.append(std::move(row));
}

} // namespace

void WriteBehind::renderStored(store::RenderRecord record)
{
    QMutexLocker lock(&m_mutex);
    enqueue(m_renders, std::move(record), kMaxPendingRenders, m_droppedRenders, "render-log rows");
}

void WriteBehind::renderAnswered(store::RenderLogEntry entry)
{
    QMutexLocker lock(&m_mutex);
    enqueue(m_answers, std::move(entry), kMaxPendingRenders, m_droppedAnswers, "usage rows");
}

void WriteBehind::setUsageRetentionDays(int days)
{
    m_retentionDays = std::max(1, days);
}

void WriteBehind::pruneUsage()
{
    const qint64 now = store::nowMs();
    qint64 last = m_prunedAt.load();
    if ((last != 0 && now - last < 3600 * 1000) || !m_prunedAt.compare_exchange_strong(last, now))
        return;
    const qint64 before = now - qint64(m_retentionDays.load()) * 24 * 3600 * 1000;
    if (const auto pruned = store::UsageRepository(m_db).pruneBefore(before); !pruned)
        qCWarning(lcWriteBehind) << "pruning the render log failed; trying again in an hour";
}

bool WriteBehind::flush()
{
    QHash<QString, qint64> keyUses;
    QList<store::RenderRecord> renders;
    QList<store::RenderLogEntry> answers;
    {
        QMutexLocker lock(&m_mutex);
        keyUses.swap(m_keyUses);
        renders.swap(m_renders);
        answers.swap(m_answers);
    }
    if (keyUses.isEmpty() && renders.isEmpty() && answers.isEmpty())
        return true;
    bool ok = false;
    {
        store::Transaction tx(m_db);
        store::ApiKeyRepository keys(m_db);
        store::RenderRepository log(m_db);
        store::UsageRepository usage(m_db);
        ok = tx.isOpen();
        for (auto it = keyUses.cbegin(); ok && it != keyUses.cend(); ++it)
            ok = bool(keys.touch(it.key(), it.value()));
        for (auto it = renders.cbegin(); ok && it != renders.cend(); ++it)
            ok = bool(log.insert(*it));
        ok = ok && bool(usage.insertAll(answers));
        ok = ok && tx.commit();
    }
    if (ok) {
        ++m_flushes;
        pruneUsage();
        return true;
    }
    // Put everything back for the next attempt: newer key times noted meanwhile win, and
    // the failed rows go before the ones queued since, in render order.
    QMutexLocker lock(&m_mutex);
    for (auto it = keyUses.cbegin(); it != keyUses.cend(); ++it) {
        qint64 &at = m_keyUses[it.key()];
        at = std::max(at, it.value());
    }
    renders.append(std::move(m_renders));
    m_renders = std::move(renders);
    answers.append(std::move(m_answers));
    m_answers = std::move(answers);
    qCWarning(lcWriteBehind) << "writing API key usage times and render-log rows failed; retrying";
    return false;
}

} // namespace imprint::service
