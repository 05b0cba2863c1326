#include "server/http/server.h"

#include "server/common/text.h"
#include "server/http/dispatch.h"
#include "server/http/io_threads.h"
#include "server/http/problem.h"

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


// ---------------------------------------------------------------- HttpServer

HttpResponse HttpServer::shuttingDownAnswer()
{
    return problem(503, QStringLiteral("shutting_down"),
                   QStringLiteral("The server is shutting down; retry in a moment or on another instance."))
        .withHeader("Retry-After", "1");
}

HttpServer::HttpServer(ServerLimits limits, QObject *parent)
    : QObject(parent)
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
    listener->setParent(this);
    const int ioThreads = ioThreadsFor(m_limits.ioThreads);
    if (ioThreads > 1) {
        m_ioThreads = std::make_unique<IoThreads>(this, ioThreads);
        listener->setHandOff([threads = m_ioThreads.get()](qintptr descriptor) { threads->handOff(descriptor); });
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

void HttpServer::serve(ParsedRequest &&parsed, QTcpSocket *socket, quint64 sequence, bool closeAfter)
{
    const RequestTarget target = readTarget(parsed.target);
    HttpRequest req = toHttpRequest(parsed.method, target, std::move(parsed.headers), parsed.body,
                                    socket->peerAddress());
    if (!m_limits.trustedProxies.isEmpty()) {
        QList<QByteArray> forwardedFor;
        for (const auto &h : req.headers)
            if (h.first == "x-forwarded-for")
                forwardedFor.append(h.second);
        req.remoteAddress = m_limits.trustedProxies.clientAddress(req.remoteAddress, forwardedFor);
    }
    // The decoded path is the client's: "%0A" in it would start a forged access-log line.
    Responder responder(this, socket, closeAfter, req.method + ' ' + common::logEscaped(req.path).toUtf8(), sequence);
    if (!target.valid) {
        return responder.send(fieldProblem(common::ProblemCode::BadRequest, QStringLiteral("target"),
                                           QStringLiteral("The request target is not a valid URI reference "
                                                          "(RFC 9112 §3.2).")));
    }

    const Dispatch d = dispatch(req, target.encodedPath, m_router, m_cors);
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
        responder.send(shuttingDownAnswer());
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
    // The Responder (and with it the socket) never reaches the worker: it gets only
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
            answerEarly(id, shuttingDownAnswer());
        checkDrained();
    });
    checkDrained();
}

void HttpServer::answerAtDeadline(quint64 id, const render::RenderCancellation &cancellation, qint64 afterMs)
{
    QTimer::singleShot(std::chrono::milliseconds(std::max<qint64>(afterMs, 1)), this, [this, id, cancellation] {
        // Every job's timer fires, most long after the job was delivered: those build no
        // 422 body (~90 k instructions a request, for an answer nobody would get).
        if (!m_pending.count(id))
            return;
        // The deadline may have moved (a render is not charged its wait for an engine's
        // slot): look again then.
        if (const qint64 left = cancellation.deadline().remainingTime(); left > 0 && !cancellation.isCancelled()) {
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
