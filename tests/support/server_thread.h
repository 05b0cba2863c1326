#pragma once
// A thread of its own for a test's server objects (a QHttpServer, a QTcpServer), so a test
// may block on its client calls while they answer: the image origin of the remote image
// suites (test_origin.h) and the webhook receiver of tst_webhooks.

#include <QObject>
#include <QThread>

#include <functional>

class ServerThread
{
public:
    ServerThread() { m_thread.start(); }
    /// Deletes what was made on the thread, there, then stops the thread.
    ~ServerThread()
    {
        QMetaObject::invokeMethod(
            &m_anchor, [this] { qDeleteAll(m_anchor.children()); }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    ServerThread(const ServerThread &) = delete;
    ServerThread &operator=(const ServerThread &) = delete;

    /// Runs `setUp` on the thread and waits for it; `owner` (an object living there) is the
    /// parent to give what it makes, which the destructor deletes on the thread.
    void run(const std::function<void(QObject *owner)> &setUp)
    {
        QMetaObject::invokeMethod(&m_anchor, [&] { setUp(&m_anchor); }, Qt::BlockingQueuedConnection);
    }

private:
    QThread m_thread;
    struct Anchor : QObject {
        explicit Anchor(QThread *t) { moveToThread(t); }
    } m_anchor{&m_thread};
};
