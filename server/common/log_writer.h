#pragma once
// Qt's log messages written by a thread of their own, so that the thread that logs (an HTTP
// I/O thread writing its access line) does not make a system call for every line: under a
// cached-render load the access log's write(2) per request was a sixth of the server's
// CPU (issue 35, docs/performance.md "The route's own work").

#include <QByteArray>
#include <QtGlobal>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace imprint::common {

/// While it lives, Qt's log messages are written to `fd` (standard error) as Qt's default
/// handler writes them — qFormatLogMessage(), so QT_MESSAGE_PATTERN and QT_LOGGING_RULES
/// apply, one line each — but by a thread of its own: the logging thread appends the line
/// to a buffer and goes on; the writer writes what has gathered in one write(2), at most
/// kBatchMs after the first line of a batch, at once for a warning or worse or when
/// kBatchBytes have gathered. Lines keep the order they were logged in. A fatal message is
/// written at once, after every earlier line. At most kMaxPendingBytes wait: past that the
/// logging thread waits for the writer (as it waited for its own write before). The
/// destructor writes what is left and puts the previous handler back. Lines not yet
/// written when the process crashes are lost (at most kBatchMs of them). One at a time
/// per process.
class LogWriter
{
public:
    static constexpr int kBatchMs = 20;
    static constexpr qsizetype kBatchBytes = 64 * 1024;
    static constexpr qsizetype kMaxPendingBytes = 4 * 1024 * 1024;

    explicit LogWriter(int fd = 2);
    ~LogWriter();
    LogWriter(const LogWriter &) = delete;
    LogWriter &operator=(const LogWriter &) = delete;

    /// Returns once every line logged before the call is written.
    void flush();
    /// write(2) calls made so far (tests: lines are batched).
    quint64 writes() const;

private:
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &message);
    void append(const QByteArray &line, bool urgent);
    void run();

    const int m_fd;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake; ///< the writer: lines, urgency or stop
    std::condition_variable m_drained; ///< logging threads: room, or their lines written
    QByteArray m_pending;
    quint64 m_appended = 0; ///< bytes appended since the start
    quint64 m_written = 0; ///< bytes written since the start
    quint64 m_writes = 0;
    bool m_urgent = false;
    bool m_stop = false;
    QtMessageHandler m_previous = nullptr;
    std::thread m_thread;
};

} // namespace imprint::common
