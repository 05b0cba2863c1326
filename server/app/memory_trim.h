#pragma once
// Returns the malloc heap's free pages to the kernel at a steady pace while the server
// runs (docs/performance.md, "Memory").

#include <QMutex>
#include <QWaitCondition>

#include <memory>

class QThread;

namespace imprint::app {

/// Calls malloc_trim(0) every `intervalMs` on a thread of its own, so RSS holds what is
/// live plus what renders touched since the last call, not every page a fragmented
/// arena ever held: main.cpp keeps glibc from trimming by itself (its thresholds keep a
/// render's big buffers resident between renders), and without this the free space inside
/// the render threads' arenas grew for tens of thousands of renders. A no-op when
/// `intervalMs` ≤ 0 or the C library is not glibc.
class MemoryTrimmer
{
public:
    explicit MemoryTrimmer(int intervalMs = 1000);
    /// Stops the thread.
    ~MemoryTrimmer();
    MemoryTrimmer(const MemoryTrimmer &) = delete;
    MemoryTrimmer &operator=(const MemoryTrimmer &) = delete;

private:
    QMutex m_mutex;
    QWaitCondition m_wake;
    bool m_stopping = false;
    std::unique_ptr<QThread> m_thread;
};

} // namespace imprint::app
