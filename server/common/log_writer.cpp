#include "server/common/log_writer.h"

#include "server/common/fd_io.h"

#include <QString>

#include <atomic>
#include <chrono>

namespace imprint::common {

namespace {

std::atomic<LogWriter *> g_current{nullptr};

} // namespace

LogWriter::LogWriter(int fd)
    : m_fd(fd)
{
    m_thread = std::thread([this] { run(); });
    g_current.store(this);
    m_previous = qInstallMessageHandler(&LogWriter::handle);
}

LogWriter::~LogWriter()
{
    qInstallMessageHandler(m_previous);
    g_current.store(nullptr);
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_one();
    m_drained.notify_all();
    m_thread.join(); // it writes what is left first
}

void LogWriter::handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    QByteArray line = qFormatLogMessage(type, context, message).toLocal8Bit();
    line.append('\n');
    LogWriter *writer = g_current.load();
    if (!writer) {
        writeAll(2, line); // an error writing standard error has nowhere to be reported
        return;
    }
    if (type == QtFatalMsg) {
        // Qt aborts when this returns: every earlier line first, then this one, now.
        writer->flush();
        writeAll(writer->m_fd, line);
        return;
    }
    writer->append(line, type != QtDebugMsg && type != QtInfoMsg);
}

void LogWriter::append(const QByteArray &line, bool urgent)
{
    std::unique_lock lock(m_mutex);
    m_drained.wait(lock, [this] { return m_pending.size() < kMaxPendingBytes || m_stop; });
    const bool first = m_pending.isEmpty();
    m_pending.append(line);
    m_appended += quint64(line.size());
    m_urgent = m_urgent || urgent || m_pending.size() >= kBatchBytes;
    // The writer is woken by a batch's first line and then gathers for kBatchMs: one wake-up
    // and one write a batch, not one a line.
    if (first || m_urgent)
        m_wake.notify_one();
}

void LogWriter::flush()
{
    std::unique_lock lock(m_mutex);
    const quint64 target = m_appended;
    if (m_written >= target)
        return;
    m_urgent = true;
    m_wake.notify_one();
    m_drained.wait(lock, [this, target] { return m_written >= target || m_stop; });
}

quint64 LogWriter::writes() const
{
    std::lock_guard lock(m_mutex);
    return m_writes;
}

void LogWriter::run()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || !m_pending.isEmpty(); });
        if (m_pending.isEmpty())
            return; // stopping, nothing left
        m_wake.wait_for(lock, std::chrono::milliseconds(kBatchMs), [this] { return m_stop || m_urgent; });
        QByteArray batch;
        batch.swap(m_pending);
        m_urgent = false;
        ++m_writes;
        lock.unlock();
        writeAll(m_fd, batch);
        lock.lock();
        m_written += quint64(batch.size());
        m_drained.notify_all();
    }
}

} // namespace imprint::common
