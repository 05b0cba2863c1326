#include "server/http/io_threads.h"

namespace imprint::http {

IoThreads::IoThreads(HttpServer *server, int count)
{
    for (int i = 0; i < count; ++i) {
        Thread t;
        t.thread = std::make_unique<QThread>();
        t.thread->setObjectName(QStringLiteral("http-io-%1").arg(i));
        // Moved with its sweep timer (a child) before the thread runs: its timer, its
        // sockets and their slots are that thread's.
        t.listener = new Listener(server, server->limits(), server->budget());
        t.listener->moveToThread(t.thread.get());
        QObject::connect(t.thread.get(), &QThread::finished, t.listener, &QObject::deleteLater);
        t.thread->start();
        m_threads.push_back(std::move(t));
    }
}

IoThreads::~IoThreads()
{
    for (Thread &t : m_threads) {
        t.thread->quit();
        t.thread->wait();
    }
}

void IoThreads::handOff(qintptr descriptor)
{
    Listener *listener = m_threads[m_next].listener;
    m_next = (m_next + 1) % m_threads.size();
    QMetaObject::invokeMethod(
        listener, [listener, descriptor] { listener->admit(descriptor); }, Qt::QueuedConnection);
}

bool IoThreads::allWritten() const
{
    for (const Thread &t : m_threads) {
        bool written = true;
        Listener *listener = t.listener;
        QMetaObject::invokeMethod(
            listener, [listener, &written] { written = listener->allWritten(); }, Qt::BlockingQueuedConnection);
        if (!written)
            return false;
    }
    return true;
}

} // namespace imprint::http
