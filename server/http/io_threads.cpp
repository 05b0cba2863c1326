#include "server/http/io_threads.h"

#include "server/http/problem.h"

#include <QHttpServerResponder>

#include <fcntl.h>
#include <unistd.h>

#include <mutex>

namespace imprint::http {

namespace {

QtMessageHandler g_previousMessageHandler = nullptr;

/// Qt 6.4's QAbstractHttpServer takes each connection through
/// QTcpServer::nextPendingConnection(), which warns "called while not listening" when the
/// server is closed, as an I/O thread's Listener always is: the main thread accepts and
/// hands it the connection (IoThreads::handOff()). One line a connection that reports
/// nothing wrong; dropped here, every other message goes to the handler installed before.
void dropNotListeningWarning(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg
        && message == QLatin1String("QTcpServer::nextPendingConnection() called while not listening"))
        return;
    g_previousMessageHandler(type, context, message);
}

} // namespace

IoFront::IoFront(HttpServer *server)
    : m_server(server)
{ }

void IoFront::start(const ServerLimits &limits, ConnectionBudget &budget, int listening)
{
    m_listener = new Listener(this, limits, budget);
    // bind() warns about a server that does not listen; this one is handed its
    // connections and must not accept any itself, so it listens only during bind().
    const int duplicate = listening >= 0 ? ::fcntl(listening, F_DUPFD_CLOEXEC, 0) : -1;
    const bool listens = duplicate >= 0 && m_listener->setSocketDescriptor(duplicate);
    if (!listens && duplicate >= 0)
        ::close(duplicate);
    bind(m_listener);
    m_listener->close();
}

bool IoFront::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    m_server->serve(request, socket, makeResponder(request, socket));
    return true;
}

void IoFront::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket)
{
    // handleRequest() answers everything itself; kept for completeness.
    Responder responder(m_server, makeResponder(request, socket), socket, false, "?");
    responder.send(problem(404, QStringLiteral("not_found"), QStringLiteral("No route.")));
}

IoThreads::IoThreads(HttpServer *server, int count, int listening)
{
    static std::once_flag installed;
    std::call_once(installed, [] { g_previousMessageHandler = qInstallMessageHandler(dropNotListeningWarning); });
    for (int i = 0; i < count; ++i) {
        Thread t;
        t.thread = std::make_unique<QThread>();
        t.thread->setObjectName(QStringLiteral("http-io-%1").arg(i));
        t.front = new IoFront(server);
        t.front->moveToThread(t.thread.get());
        QObject::connect(t.thread.get(), &QThread::finished, t.front, &QObject::deleteLater);
        t.thread->start();
        QMetaObject::invokeMethod(
            t.front, [front = t.front, server, listening] { front->start(server->limits(), server->budget(), listening); },
            Qt::BlockingQueuedConnection);
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
    Listener *listener = m_threads[m_next].front->listener();
    m_next = (m_next + 1) % m_threads.size();
    QMetaObject::invokeMethod(
        listener, [listener, descriptor] { listener->admit(descriptor); }, Qt::QueuedConnection);
}

bool IoThreads::allWritten() const
{
    for (const Thread &t : m_threads) {
        bool written = true;
        Listener *listener = t.front->listener();
        QMetaObject::invokeMethod(
            listener, [listener, &written] { written = listener->allWritten(); }, Qt::BlockingQueuedConnection);
        if (!written)
            return false;
    }
    return true;
}

} // namespace imprint::http
