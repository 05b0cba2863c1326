// API key usage written behind the request path (see key_usage.h).

#include "server/service/key_usage.h"

#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <QLoggingCategory>
#include <QThread>

#include <algorithm>

namespace imprint::service {

Q_LOGGING_CATEGORY(lcKeyUsage, "imprint.keys")

KeyUsageRecorder::KeyUsageRecorder(const store::Database &db, int flushIntervalMs)
    : m_db(db)
    , m_intervalMs(std::max(10, flushIntervalMs))
{
    m_thread.reset(QThread::create([this] {
        QMutexLocker lock(&m_mutex);
        while (!m_stopping) {
            m_wake.wait(&m_mutex, QDeadlineTimer(m_intervalMs));
            if (m_stopping || m_pending.isEmpty())
                continue;
            lock.unlock();
            flush();
            lock.relock();
        }
    }));
    m_thread->setObjectName(QStringLiteral("key-usage"));
    m_thread->start();
}

KeyUsageRecorder::~KeyUsageRecorder()
{
    {
        QMutexLocker lock(&m_mutex);
        m_stopping = true;
        m_wake.wakeAll();
    }
    m_thread->wait();
    if (!flush())
        qCWarning(lcKeyUsage) << "the last API key usage times could not be written";
}

void KeyUsageRecorder::keyUsed(const QString &keyId, qint64 atMs)
{
    QMutexLocker lock(&m_mutex);
    qint64 &at = m_pending[keyId];
    at = std::max(at, atMs);
}

qint64 KeyUsageRecorder::pending(const QString &keyId) const
{
    QMutexLocker lock(&m_mutex);
    return m_pending.value(keyId, 0);
}

bool KeyUsageRecorder::flush()
{
    QHash<QString, qint64> batch;
    {
        QMutexLocker lock(&m_mutex);
        batch.swap(m_pending);
    }
    if (batch.isEmpty())
        return true;
    bool ok = false;
    {
        store::Transaction tx(m_db);
        store::ApiKeyRepository keys(m_db);
        ok = tx.isOpen();
        for (auto it = batch.cbegin(); ok && it != batch.cend(); ++it)
            ok = bool(keys.touch(it.key(), it.value()));
        ok = ok && tx.commit();
    }
    if (ok) {
        ++m_flushes;
        return true;
    }
    // Put the times back (newer ones noted meanwhile win) for the next attempt.
    QMutexLocker lock(&m_mutex);
    for (auto it = batch.cbegin(); it != batch.cend(); ++it) {
        qint64 &at = m_pending[it.key()];
        at = std::max(at, it.value());
    }
    qCWarning(lcKeyUsage) << "writing API key usage times failed; retrying";
    return false;
}

} // namespace imprint::service
