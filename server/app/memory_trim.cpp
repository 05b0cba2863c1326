// Periodic malloc_trim (see memory_trim.h).

#include "server/app/memory_trim.h"

#include <QDeadlineTimer>
#include <QThread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace imprint::app {

MemoryTrimmer::MemoryTrimmer(int intervalMs)
{
#if defined(__GLIBC__)
    if (intervalMs <= 0)
        return;
    m_thread.reset(QThread::create([this, intervalMs] {
        QMutexLocker lock(&m_mutex);
        while (!m_stopping) {
            m_wake.wait(&m_mutex, QDeadlineTimer(intervalMs));
            if (m_stopping)
                break;
            lock.unlock();
            // Each arena is locked in turn while its free chunks are released with
            // MADV_DONTNEED; a render thread waits at most that long for malloc.
            malloc_trim(0);
            lock.relock();
        }
    }));
    m_thread->setObjectName(QStringLiteral("memory-trim"));
    m_thread->start(QThread::LowestPriority);
#else
    Q_UNUSED(intervalMs);
#endif
}

MemoryTrimmer::~MemoryTrimmer()
{
    if (!m_thread)
        return;
    {
        QMutexLocker lock(&m_mutex);
        m_stopping = true;
        m_wake.wakeAll();
    }
    m_thread->wait();
}

} // namespace imprint::app
