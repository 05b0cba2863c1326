#include "server/http/server.h"

#include "server/common/text.h"
#include "server/http/dispatch.h"
#include "server/http/io_threads.h"
#include "server/http/problem.h"
#include "server/http/response_log.h"

#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QLoggingCategory>
#include <QThread>

#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <memory>

namespace imprint::http {

Q_LOGGING_CATEGORY(lcAccess, "imprint.http.access")
Q_LOGGING_CATEGORY(lcHttp, "imprint.http")

namespace {

QByteArray methodName(QHttpServerRequest::Method m)
{
    switch (m) {
    case QHttpServerRequest::Method::Get: return "GET";
    case QHttpServerRequest::Method::Put: return "PUT";
    case QHttpServerRequest::Method::Delete: return "DELETE";
    case QHttpServerRequest::Method::Post: return "POST";
    case QHttpServerRequest::Method::Head: return "HEAD";
    case QHttpServerRequest::Method::Options: return "OPTIONS";
    case QHttpServerRequest::Method::Patch: return "PATCH";
    case QHttpServerRequest::Method::Connect: return "CONNECT";
    case QHttpServerRequest::Method::Trace: return "TRACE";
    default: return "UNKNOWN";
    }
}

qint64 nowNs()
{
    static QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.nsecsElapsed();
}

/// 503 `shutting_down` with `Retry-After: 1`: the answer to work the server will not do
/// because it is stopping.
HttpResponse shuttingDown()
{
    return problem(503, QStringLiteral("shutting_down"),
                   QStringLiteral("The server is shutting down; retry in a moment or on another instance."))
        .withHeader("Retry-After", "1");
}

/// Hands `work` to the responder's server, or answers shuttingDown() when it is gone.
void submit(Responder responder, std::function<HttpResponse()> work, render::RenderCancellation cancellation,
            WorkPool pool)
{
    HttpServer *server = responder.server();
    if (!server) {
        responder.send(shuttingDown());
        return;
    }
    server->respondAsync(std::move(responder), std::move(work), std::move(cancellation), pool);
}

} // namespace

// ---------------------------------------------------------------- Responder

Responder::Responder(HttpServer *server, QHttpServerResponder &&responder, QTcpSocket *socket, bool closeAfter,
                     QByteArray what, quint64 sequence)
    : m_server(server)
    , m_responder(std::make_unique<QHttpServerResponder>(std::move(responder)))
    , m_socket(socket)
    , m_listener(qobject_cast<Listener *>(socket ? socket->parent() : nullptr))
    , m_home(socket ? socket->thread() : nullptr)
    , m_closeAfter(closeAfter)
    , m_sequence(sequence)
    , m_what(std::move(what))
    , m_startNs(nowNs())
{ }

Responder::Responder(std::function<void(const HttpResponse &)> sink, HttpServer *server)
    : m_server(server)
    , m_startNs(nowNs())
    , m_sink(std::make_shared<const std::function<void(const HttpResponse &)>>(std::move(sink)))
{ }

Responder::Responder(Responder &&other) noexcept = default;
Responder &Responder::operator=(Responder &&other) noexcept = default;

Responder::~Responder()
{
    // A handler that forgot to answer must not leave the client hanging until the idle
    // timeout: say so, as a 500 (a bug on our side, never bad input).
    if ((m_responder && !m_sent && isConnected()) || (m_sink && !m_sent))
        send(problem(500, QStringLiteral("internal_error"), QStringLiteral("The request was not answered.")));
}

bool Responder::atHome() const
{
    return !m_home || QThread::currentThread() == m_home;
}

bool Responder::handHome(const HttpResponse &response)
{
    if (atHome())
        return false;
    // The socket is written where it lives: the answer travels there with the Responder.
    // A listener gone (its I/O thread stopped) has no client left to answer.
    if (Listener *listener = m_listener.data()) {
        auto moved = std::make_shared<Responder>(std::move(*this));
        QMetaObject::invokeMethod(
            listener, [moved, response] { moved->send(response); }, Qt::QueuedConnection);
    } else {
        m_sent = true;
    }
    return true;
}

HttpServer *Responder::server() const
{
    return m_server.data();
}

bool Responder::isConnected() const
{
    if (!atHome())
        return !m_sent && m_responder;
    return !m_sent && m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

void Responder::send(const HttpResponse &response)
{
    if (m_sink && !m_sent) {
        m_sent = true;
        HttpResponse written = response;
        written.headers += m_extraHeaders;
        if (m_headOnly)
            written.body.clear();
        (*m_sink)(written);
        return;
    }
    if (m_sent || !m_responder || handHome(response))
        return;
    m_sent = true;
    if (m_job && m_listener)
        m_listener->asyncFinished(m_socket.data(), m_job);
    const double ms = double(nowNs() - m_startNs) / 1e6;
    const QByteArray method = m_method.isEmpty() ? m_what.left(m_what.indexOf(' ')) : m_method;
    if (m_server)
        m_server->recordAnswer(method, m_route, response.status, ms / 1000.0);
    logResponseForTests(method, m_route, m_headOnly, response);
    // The bytes may have to wait for the answers of earlier pipelined requests on the
    // connection (Listener::writeInOrder()), so the write owns everything it needs.
    // Qt's responder only marked the request unanswered: the bytes are written below.
    m_responder.reset();
    auto write = [socket = m_socket, response, extraHeaders = m_extraHeaders, headOnly = m_headOnly, closeAfter = m_closeAfter,
                  what = m_what, ms] {
        if (!socket || socket->state() != QAbstractSocket::ConnectedState) {
            qCInfo(lcAccess).noquote() << what << response.status << "(client gone)" << QString::number(ms, 'f', 2)
                                       << "ms";
            return;
        }
        // The head in one write, not Qt's responder's four a header (docs/performance.md,
        // "The answer's head in one write"); the body straight from the response.
        socket->write(responseHead(response, extraHeaders, closeAfter));
        if (!headOnly && !response.body.isEmpty())
            socket->write(response.body);
        // Written now rather than when the event loop next sees the socket writable: a
        // poll and two wake-ups less an answer (docs/performance.md, "System calls").
        socket->flush();
        // After every earlier answer (writeInOrder), so none of them is cut off.
        if (closeAfter)
            socket->disconnectFromHost();
        qCInfo(lcAccess).noquote() << what << response.status << QString::number(ms, 'f', 2) << "ms";
    };
    if (m_listener && m_socket)
        m_listener->writeInOrder(m_socket.data(), m_sequence, std::move(write));
    else
        write();
}

void onServerThread(HttpRequest &&request, Responder &&responder,
                    std::function<void(HttpRequest &&, Responder &&)> handler)
{
    if (HttpServer *server = responder.server())
        server->runOnServerThread(std::move(request), std::move(responder), handler);
    else
        handler(std::move(request), std::move(responder));
}

void respondAsync(Responder responder, std::function<HttpResponse()> work)
{
    respondAsync(std::move(responder), std::move(work), render::RenderCancellation());
}

void respondAsync(Responder responder, std::function<HttpResponse()> work, render::RenderCancellation cancellation)
{
    submit(std::move(responder), std::move(work), std::move(cancellation), WorkPool::Workers);
}

void respondOnLoginPool(Responder responder, std::function<HttpResponse()> work)
{
    submit(std::move(responder), std::move(work), {}, WorkPool::Logins);
}

// ---------------------------------------------------------------- Listener

bool ConnectionBudget::admit(const QHostAddress &peer)
{
    const QMutexLocker lock(&m_mutex);
    if (m_open >= m_limits.maxConnections)
        return false;
    int &fromPeer = m_perAddress[peer];
    if (fromPeer >= m_limits.maxConnectionsPerAddress)
        return false;
    ++fromPeer;
    ++m_open;
    return true;
}

void ConnectionBudget::release(const QHostAddress &peer)
{
    const QMutexLocker lock(&m_mutex);
    --m_open;
    auto count = m_perAddress.find(peer);
    if (count != m_perAddress.end() && --*count <= 0)
        m_perAddress.erase(count);
}

int ConnectionBudget::open() const
{
    const QMutexLocker lock(&m_mutex);
    return m_open;
}

Listener::Listener(QAbstractHttpServer *front, const ServerLimits &limits, ConnectionBudget &budget)
    : m_front(front)
    , m_limits(limits)
    , m_budget(budget)
{
    m_clock.start();
    const int interval = std::clamp(std::min(limits.idleTimeoutMs, limits.requestTimeoutMs) / 4, 20, 1000);
    m_sweepTimer.setInterval(interval);
    connect(&m_sweepTimer, &QTimer::timeout, this, &Listener::sweep);
    m_sweepTimer.start();
}

void Listener::incomingConnection(qintptr socketDescriptor)
{
    if (m_handOff)
        m_handOff(socketDescriptor);
    else
        admit(socketDescriptor);
}

void Listener::admit(qintptr socketDescriptor)
{
    if (m_budget.open() >= m_limits.maxConnections) {
        // Closing at once (no response) costs nothing and frees the fd immediately.
        ::close(int(socketDescriptor));
        return;
    }
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(socketDescriptor)) {
        delete socket;
        ::close(int(socketDescriptor));
        return;
    }
    const QHostAddress peer = socket->peerAddress();
    if (!m_budget.admit(peer)) {
        delete socket; // closes the descriptor it took
        return;
    }
    // Without TCP_NODELAY a response written in two segments waits ~40 ms for the
    // client's delayed ACK (Nagle).
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    Connection c;
    c.socket = socket;
    c.framing = RequestFraming(m_limits.maxHeaderBytes, m_limits.maxBodyBytes, m_limits.maxUploadBytes);
    c.lastActivityMs = m_clock.elapsed();
    c.peer = peer;
    m_connections.insert_or_assign(socket, std::move(c));
    // Connected before QAbstractHttpServer's own readyRead slot (made when it takes the
    // pending connection), so the guard sees every chunk before the parser buffers it.
    connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
    connect(socket, &QTcpSocket::bytesWritten, this, [this, socket] {
        auto it = m_connections.find(socket);
        if (it == m_connections.end())
            return;
        it->second.lastActivityMs = m_clock.elapsed();
        if (it->second.rejecting && it->second.refusalWritten && socket->bytesToWrite() == 0) {
            // Half-close after the error response: the client sees EOF, while we keep
            // draining its upload so the kernel does not answer it with RST (which can
            // destroy the response before the client reads it).
            ::shutdown(int(socket->socketDescriptor()), SHUT_WR);
        }
    });
    // A render nobody waits for stops at its next poll instead of holding a worker.
    connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
        if (auto it = m_connections.find(socket); it != m_connections.end())
            for (const auto &[job, cancellation] : it->second.pendingAsync)
                cancellation.cancel(render::RenderCancellation::Reason::ClientGone);
    });
    connect(socket, &QObject::destroyed, this, [this, socket, peer] {
        m_connections.erase(socket);
        m_budget.release(peer);
    });
    addPendingConnection(socket);
}

bool Listener::allWritten() const
{
    for (const auto &[socket, c] : m_connections)
        if (c.socket && c.socket->bytesToWrite() > 0)
            return false;
    return true;
}

void Listener::onReadyRead(QTcpSocket *socket)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    Connection &c = it->second;
    const qint64 now = m_clock.elapsed();
    c.lastActivityMs = now;
    if (c.rejecting || c.closing) {
        socket->readAll();
        return;
    }
    // Inside the parser's read transaction, bytesAvailable() is what arrived since the
    // parser last read: exactly the new bytes.
    const qint64 available = socket->bytesAvailable();
    if (available <= 0)
        return;
    if (c.requestStartMs < 0)
        c.requestStartMs = now;
    // Only the start of the request is looked at (peeked, the parser still reads it).
    const qint64 room = c.framing.headRoom();
    const QByteArray start = room > 0 ? socket->peek(std::min(available, room)) : QByteArray();
    if (std::optional<HttpResponse> refusal = c.framing.feed(available, start))
        reject(socket, c, *refusal);
}

void Listener::reject(QTcpSocket *socket, Connection &c, const HttpResponse &response)
{
    c.rejecting = true;
    // Set once the refusal is written: it may wait for an earlier request's answer.
    c.closeAtMs = std::numeric_limits<qint64>::max();
    // Stop QAbstractHttpServer from parsing (and buffering) anything more on this socket.
    QObject::disconnect(socket, &QTcpSocket::readyRead, m_front, nullptr);
    if (socket->isTransactionStarted())
        socket->commitTransaction();
    socket->readAll();
    qCInfo(lcAccess).noquote() << "(request refused)" << response.status;
    // The refused request has its place in the connection's order like any other: the
    // answers to earlier pipelined requests go out before it, then the connection closes.
    writeInOrder(socket, c.nextRequest++, [this, socket = QPointer<QTcpSocket>(socket), bytes = rawResponse(response)] {
        if (!socket)
            return;
        if (auto it = m_connections.find(socket.data()); it != m_connections.end()) {
            it->second.refusalWritten = true;
            it->second.closeAtMs = m_clock.elapsed() + 2000;
        }
        socket->write(bytes);
    });
}

bool Listener::requestCompleted(QTcpSocket *socket, quint64 *sequence)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return false;
    Connection &c = it->second;
    const bool closeAfter = c.framing.closeAfterRequest();
    c.framing.reset();
    c.requestStartMs = -1;
    c.lastActivityMs = m_clock.elapsed();
    if (sequence)
        *sequence = c.nextRequest++;
    return closeAfter;
}

void Listener::stopReading(QTcpSocket *socket)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    it->second.closing = true;
    QObject::disconnect(socket, &QTcpSocket::readyRead, m_front, nullptr);
}

void Listener::writeInOrder(QTcpSocket *socket, quint64 sequence, std::function<void()> write)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end() || socket->state() != QAbstractSocket::ConnectedState) {
        write(); // nobody to keep an order for
        return;
    }
    if (sequence != it->second.nextAnswer) {
        it->second.heldAnswers.emplace(sequence, std::move(write));
        return;
    }
    write();
    // Then every held answer that is now next. A write may close the socket: its
    // Connection lives until the socket is destroyed (later, deleteLater), but is looked
    // up again rather than trusted.
    for (quint64 next = sequence + 1;; ++next) {
        it = m_connections.find(socket);
        if (it == m_connections.end())
            return;
        it->second.nextAnswer = next;
        auto held = it->second.heldAnswers.find(next);
        if (held == it->second.heldAnswers.end())
            return;
        std::function<void()> heldWrite = std::move(held->second);
        it->second.heldAnswers.erase(held);
        heldWrite();
    }
}

void Listener::asyncStarted(QTcpSocket *socket, quint64 job, const render::RenderCancellation &cancellation)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end() || socket->state() != QAbstractSocket::ConnectedState) {
        cancellation.cancel(render::RenderCancellation::Reason::ClientGone);
        return;
    }
    it->second.pendingAsync.emplace(job, cancellation);
}

void Listener::asyncFinished(QTcpSocket *socket, quint64 job)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    it->second.pendingAsync.erase(job);
    it->second.lastActivityMs = m_clock.elapsed();
}

void Listener::sweep()
{
    const qint64 now = m_clock.elapsed();
    QList<QPointer<QTcpSocket>> toAbort, toClose, toTimeOut;
    for (auto it = m_connections.begin(); it != m_connections.end();) {
        Connection &c = it->second;
        if (!c.socket) {
            // Deleted without our destroyed() slot firing: QAbstractHttpServer calls
            // socket->disconnect() (all signals) on a parse error.
            it = m_connections.erase(it);
            continue;
        }
        if (c.rejecting) {
            if (now >= c.closeAtMs)
                toAbort << c.socket;
        } else if (c.pendingAsync.empty()) {
            if (c.requestStartMs >= 0 && now - c.requestStartMs > m_limits.requestTimeoutMs)
                toTimeOut << c.socket;
            else if (c.requestStartMs < 0 && c.socket->bytesToWrite() == 0
                     && now - c.lastActivityMs > m_limits.idleTimeoutMs)
                toClose << c.socket;
        }
        ++it;
    }
    for (const auto &s : toTimeOut) {
        auto it = m_connections.find(s.data());
        if (s && it != m_connections.end())
            reject(s, it->second,
                   problem(408, QStringLiteral("request_timeout"),
                           QStringLiteral("The request did not arrive within %1 ms.").arg(m_limits.requestTimeoutMs)));
    }
    for (const auto &s : toClose) {
        if (s)
            s->disconnectFromHost();
    }
    for (const auto &s : toAbort) {
        if (s) {
            s->abort();
            // The HTTP server normally deletes it on disconnected(); after a parse error it
            // no longer listens, so make sure. deleteLater twice is harmless.
            s->deleteLater();
        }
    }
}

// ---------------------------------------------------------------- HttpServer

HttpServer::HttpServer(ServerLimits limits, QObject *parent)
    : QAbstractHttpServer(parent)
    , m_limits(limits)
    , m_budget(limits)
{
    m_pool.setMaxThreadCount((m_limits.workerThreads > 0 ? m_limits.workerThreads : QThread::idealThreadCount())
                             + std::max(0, m_limits.browserThreads));
    // Never retire worker threads: each keeps its own database connection.
    m_pool.setExpiryTimeout(-1);
    m_loginPool.setMaxThreadCount(std::max(1, m_limits.loginThreads));
    m_loginPool.setExpiryTimeout(-1);
}

HttpServer::~HttpServer()
{
    m_pool.clear();
    m_loginPool.clear();
    m_pool.waitForDone();
    m_loginPool.waitForDone();
    // Their Responders hand their 500 to the I/O threads, which stop after.
    m_pending.clear();
    m_ioThreads.reset();
}

common::Expected<quint16, QString> HttpServer::listen(const QHostAddress &address, quint16 port)
{
    auto *listener = new Listener(this, m_limits, m_budget);
    if (!listener->listen(address, port)) {
        const QString why = listener->errorString();
        delete listener;
        return why;
    }
    const int ioThreads = ioThreadsFor(m_limits.ioThreads);
    if (ioThreads > 1) {
        listener->setParent(this);
        m_ioThreads = std::make_unique<IoThreads>(this, ioThreads, int(listener->socketDescriptor()));
        listener->setHandOff([threads = m_ioThreads.get()](qintptr descriptor) { threads->handOff(descriptor); });
    } else {
        bind(listener);
    }
    m_listener = listener;
    return listener->serverPort();
}

int HttpServer::openConnections() const
{
    return m_budget.open();
}

bool HttpServer::allWritten() const
{
    if (m_ioThreads)
        return m_ioThreads->allWritten();
    return !m_listener || m_listener->allWritten();
}

bool HttpServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    serve(request, socket, makeResponder(request, socket));
    return true;
}

template <typename Task>
void HttpServer::postToServerThread(Task &&task)
{
    // The task holds move-only members (a Responder); Qt's queued call wants a copyable
    // functor, so the task is held once and the functor shares it.
    auto held = std::make_shared<std::decay_t<Task>>(std::forward<Task>(task));
    QMetaObject::invokeMethod(this, [held] { (*held)(); }, Qt::QueuedConnection);
}

void HttpServer::runOnServerThread(HttpRequest &&request, Responder &&responder, const Handler &handler)
{
    if (QThread::currentThread() == thread())
        return invoke(handler, std::move(request), std::move(responder));
    postToServerThread([request = std::move(request), responder = std::move(responder), handler]() mutable {
        invoke(handler, std::move(request), std::move(responder));
    });
}

void HttpServer::invoke(const Handler &handler, HttpRequest &&request, Responder &&responder)
{
    try {
        handler(std::move(request), std::move(responder));
    } catch (const std::exception &e) {
        // Exception texts may quote the request (a JSON parser's message, a value).
        qCWarning(lcHttp).noquote() << "handler threw:" << common::logEscaped(QString::fromUtf8(e.what()));
        responder.send(
            problem(500, QStringLiteral("internal_error"), QStringLiteral("The server failed to handle the request.")));
    }
}

void HttpServer::serve(const QHttpServerRequest &request, QTcpSocket *socket, QHttpServerResponder &&qtResponder)
{
    bool closeAfter = false;
    quint64 sequence = 0;
    auto *listener = qobject_cast<Listener *>(socket->parent());
    if (listener)
        closeAfter = listener->requestCompleted(socket, &sequence);

    HttpRequest req = toHttpRequest(methodName(request.method()), request.url(), request.headers(),
                                    request.body(), request.remoteAddress());
    if (!m_limits.trustedProxies.isEmpty()) {
        QList<QByteArray> forwardedFor;
        for (const auto &h : req.headers)
            if (h.first == "x-forwarded-for")
                forwardedFor.append(h.second);
        req.remoteAddress = m_limits.trustedProxies.clientAddress(req.remoteAddress, forwardedFor);
    }
    closeAfter = closeAfter || req.header("connection").toLower().contains("close");
    if (closeAfter && listener)
        listener->stopReading(socket);
    // The decoded path is the client's: "%0A" in it would start a forged access-log line.
    Responder responder(this, std::move(qtResponder), socket, closeAfter,
                        req.method + ' ' + common::logEscaped(req.path).toUtf8(), sequence);

    const Dispatch d = dispatch(req, request.url().path(QUrl::FullyEncoded), m_router, m_cors);
    if (!d.routePattern.isEmpty())
        responder.setRoute(d.routeMethod, d.routePattern);
    if (d.headOnly)
        responder.setHeadOnly();
    responder.addHeaders(d.extraHeaders);
    if (d.answer)
        return responder.send(*d.answer);
    // Only the routes made for it run on an I/O thread; the rest where they always ran.
    if (!d.anyThread && QThread::currentThread() != thread())
        return runOnServerThread(std::move(req), std::move(responder), *d.handler);
    invoke(*d.handler, std::move(req), std::move(responder));
}

void HttpServer::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket)
{
    // handleRequest() answers everything itself; kept for completeness.
    Responder responder(this, makeResponder(request, socket), socket, false, "?");
    responder.send(problem(404, QStringLiteral("not_found"), QStringLiteral("No route.")));
}

void HttpServer::respondAsync(Responder responder, std::function<HttpResponse()> work,
                              render::RenderCancellation cancellation, WorkPool pool)
{
    // The jobs' bookkeeping is this thread's: a handler on an I/O thread queues its job here.
    if (QThread::currentThread() != thread()) {
        postToServerThread([this, responder = std::move(responder), work = std::move(work),
                            cancellation = std::move(cancellation), pool]() mutable {
            respondAsync(std::move(responder), std::move(work), std::move(cancellation), pool);
        });
        return;
    }
    if (m_shuttingDown) {
        responder.send(shuttingDown());
        return;
    }
    const bool logins = pool == WorkPool::Logins;
    QThreadPool &threads = logins ? m_loginPool : m_pool;
    int &inFlight = logins ? m_loginsInFlight : m_inFlight;
    const int capacity = threads.maxThreadCount() + (logins ? m_limits.loginQueueLimit : m_limits.workerQueueLimit);
    if (inFlight >= capacity) {
        responder.send(
            problem(503, QStringLiteral("queue_full"), QStringLiteral("The server is busy; retry in a moment."))
                .withHeader("Retry-After", "1"));
        return;
    }
    const quint64 id = ++m_nextJob;
    // The connection stays open while the job runs, and a render nobody waits for stops
    // at its next poll instead of holding a worker: the listener sees to both, on its thread.
    responder.m_job = id;
    if (Listener *listener = responder.m_listener.data()) {
        const auto watch = [listener, socket = responder.m_socket, id, cancellation] {
            if (socket)
                listener->asyncStarted(socket.data(), id, cancellation);
        };
        if (responder.atHome())
            watch();
        else
            QMetaObject::invokeMethod(listener, watch, Qt::QueuedConnection);
    }
    Job job{std::move(responder), cancellation};
    // The worker may be inside a call that cannot be interrupted (QtSvg): the client still
    // gets its answer at the deadline, a little after the worker's own poll would have.
    if (cancellation.deadlineMs() > 0)
        answerAtDeadline(id, cancellation, cancellation.deadlineMs() + 250);
    // The Responder (and with it Qt's responder) never reaches the worker: it gets only
    // the job id and the work.
    m_pending.emplace(id, std::move(job));
    ++inFlight;
    threads.start([this, id, pool, work = std::move(work)]() mutable {
        HttpResponse response;
        try {
            response = work();
        } catch (const std::exception &e) {
            qCWarning(lcHttp).noquote() << "async work threw:" << common::logEscaped(QString::fromUtf8(e.what()));
            response = problem(500, QStringLiteral("internal_error"),
                               QStringLiteral("The server failed to handle the request."));
        } catch (...) {
            response = problem(500, QStringLiteral("internal_error"),
                               QStringLiteral("The server failed to handle the request."));
        }
        work = nullptr; // release captures on this thread, before the hand-back
        QMetaObject::invokeMethod(
            this,
            [this, id, pool, response = std::move(response)]() mutable { deliver(id, pool, std::move(response)); },
            Qt::QueuedConnection);
    });
}

void HttpServer::deliver(quint64 jobId, WorkPool pool, HttpResponse response)
{
    // Every job started is delivered exactly once, answered early or not.
    --(pool == WorkPool::Logins ? m_loginsInFlight : m_inFlight);
    answerEarly(jobId, response); // a no-op when the job was answered early
}

void HttpServer::answerEarly(quint64 jobId, const HttpResponse &response)
{
    auto it = m_pending.find(jobId);
    if (it == m_pending.end())
        return;
    Job job = std::move(it->second);
    m_pending.erase(it);
    job.responder.send(response); // on its socket's thread, where it ends the listener's watch
    checkDrained();
}

void HttpServer::shutdown(int graceMs)
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    m_flushBy = QDeadlineTimer(qint64(std::max(graceMs, 0)) + kShutdownFlushMs);
    if (m_listener)
        m_listener->close(); // no new connections; open ones finish their requests
    QTimer::singleShot(std::max(graceMs, 0), this, [this] {
        std::vector<quint64> ids;
        for (auto &[id, job] : m_pending) {
            job.cancellation.cancel(render::RenderCancellation::Reason::ShuttingDown);
            ids.push_back(id);
        }
        for (quint64 id : ids)
            answerEarly(id, shuttingDown());
        checkDrained();
    });
    checkDrained();
}

void HttpServer::answerAtDeadline(quint64 id, const render::RenderCancellation &cancellation, qint64 afterMs)
{
    QTimer::singleShot(std::chrono::milliseconds(std::max<qint64>(afterMs, 1)), this, [this, id, cancellation] {
        // The deadline may have moved (a render is not charged its wait for an engine's
        // slot): look again then.
        if (const qint64 left = cancellation.deadline().remainingTime(); left > 0 && !cancellation.isCancelled()) {
            if (m_pending.count(id))
                answerAtDeadline(id, cancellation, left + 250);
            return;
        }
        const qint64 deadline = cancellation.deadlineMs();
        answerEarly(id, fieldProblem(
                            422, QStringLiteral("render_budget_exceeded"), QStringLiteral("deadline"),
                            QStringLiteral("deadline: the render took longer than its deadline of %1 ms").arg(deadline)));
    });
}

void HttpServer::checkDrained()
{
    if (!m_shuttingDown || m_drained || !m_pending.empty())
        return;
    m_drained = true;
    // The last answers may still sit in socket buffers: quitting now would cut them off.
    // Wait until the kernel has them all, but not past the grace period and
    // kShutdownFlushMs: a client that does not read does not hold the process.
    auto *flush = new QTimer(this);
    connect(flush, &QTimer::timeout, this, [this, flush] {
        if (!allWritten() && !m_flushBy.hasExpired())
            return;
        flush->deleteLater();
        Q_EMIT drained();
    });
    flush->start(10);
}

int ioThreadsFor(int configured)
{
    if (configured > 0)
        return configured;
    // Parsing scales with cores until the workers, which render, need them more.
    return std::clamp(QThread::idealThreadCount(), 1, 4);
}

bool HttpServer::waitForWorkers(QDeadlineTimer deadline)
{
    // QThreadPool::waitForDone() takes milliseconds in Qt 6.4; -1 would wait for ever.
    const auto left = [&] {
        return deadline.isForever()
                   ? -1
                   : int(std::clamp<qint64>(deadline.remainingTime(), 0, std::numeric_limits<int>::max()));
    };
    const bool renders = m_pool.waitForDone(left());
    return m_loginPool.waitForDone(left()) && renders;
}

quint64 raiseOpenFileLimit()
{
    rlimit lim{};
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0)
        return 0;
    if (lim.rlim_cur < lim.rlim_max) {
        rlimit raised = lim;
        raised.rlim_cur = lim.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            return quint64(raised.rlim_cur);
    }
    return quint64(lim.rlim_cur);
}

} // namespace imprint::http
