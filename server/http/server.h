#pragma once
// The HTTP server (docs/architecture.md): HTTP/1.1 on QTcpServer and QTcpSocket, the
// requests parsed with http-parser (request_parser.h), Qt HTTP Server not used.
//  - a Listener (QTcpServer subclass) sets TCP_NODELAY on every socket, caps open
//    connections, closes idle (30 s) and trickling (10 s) connections, runs the framing
//    checks (request_framing.h: head size 431, body size 413 as the bytes arrive,
//    smuggling 400) and parses each connection's requests, in order;
//  - handlers get an HttpRequest of their own and a Responder that checks the socket
//    (QPointer) before writing, so an answer may come later, from a worker, or never
//    reach a client that has gone;
//  - our Router answers 404 / 405 + Allow, and every error is problem+json.
// With http.ioThreads 1 everything here runs on the thread that owns the server; with more,
// an acceptor on that thread hands each connection to one of the I/O threads
// (io_threads.h), which parse its requests, write its answers and run the routes marked
// to run on any thread (Router::addWithResponder); every other handler, the job
// bookkeeping and the shutdown run on the server's thread. Workers only run the
// callables passed to respondAsync().

#include "server/http/cors.h"
#include "server/http/forwarded_for.h"
#include "server/http/request_framing.h"
#include "server/http/request_metrics.h"
#include "server/http/request_parser.h"
#include "server/http/responder.h"
#include "server/http/router.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QHash>
#include <QHostAddress>
#include <QLoggingCategory>
#include <QTcpServer>
#include <QThreadPool>
#include <QTimer>

#include <QMutex>

#include <functional>
#include <map>
#include <memory>
#include <unordered_map>

namespace imprint::http {

/// The access log (one line an answer) and the server's own messages.
Q_DECLARE_LOGGING_CATEGORY(lcAccess)
Q_DECLARE_LOGGING_CATEGORY(lcHttp)

/// Limits of one server; the defaults are those docs/api.md and docs/deployment.md state.
struct ServerLimits {
    int maxConnections = 1024; ///< open sockets; beyond it new ones are closed at once
    /// Open sockets from one peer address; beyond it that address's new ones are closed
    /// at once, so one client cannot take every slot of maxConnections.
    int maxConnectionsPerAddress = 256;
    int idleTimeoutMs = 30000; ///< keep-alive connection with nothing in flight
    int requestTimeoutMs = 10000; ///< from a request's first byte to its last
    qint64 maxBodyBytes = 1 << 20; ///< larger bodies get 413 as they arrive
    /// The body limit of a file upload (POST /api/v1/fonts and /api/v1/assets): a brand
    /// or CJK font file is several MiB, far over what any JSON request needs.
    qint64 maxUploadBytes = 32 << 20;
    qint64 maxHeaderBytes = 64 * 1024; ///< larger header blocks get 431
    /// Threads that read, parse and answer requests (http.ioThreads). 1: the server's own
    /// thread does it all, as one event loop; n > 1: n threads of their own, the server's
    /// thread accepting connections and handing them round-robin. 0 = ioThreadsFor().
    int ioThreads = 1;
    int workerThreads = 0; ///< 0 = QThread::idealThreadCount()
    /// Worker threads beyond workerThreads: as many as html renders the browser runs at
    /// once (render.html.pool, when Chromium draws html and http.workerThreads is not set). Such a render's thread waits on
    /// the browser, not on a core; without them, the cores' worth of threads held a
    /// space's html renders to the cores' count while the browser's slots stood free.
    int browserThreads = 0;
    int workerQueueLimit = 64; ///< queued (not yet running) jobs before 503
    /// Password checks (Argon2id, ~0.1 s and 64 MiB each) run on a pool of their own, so
    /// a flood of logins cannot hold the render workers, nor renders the logins.
    int loginThreads = 1;
    int loginQueueLimit = 16; ///< queued logins before 503
    /// Peers whose X-Forwarded-For names the client (http.trustedProxies; empty: none).
    /// The connection caps above count TCP peers; everything after the request head
    /// (rate limits, the login throttle) counts the client address this yields.
    TrustedProxies trustedProxies;
};

class HttpServer;
class IoThreads;

/// The open connections of one server, counted across all its I/O threads, for
/// ServerLimits::maxConnections and maxConnectionsPerAddress. Thread-safe.
class ConnectionBudget
{
public:
    explicit ConnectionBudget(const ServerLimits &limits)
        : m_limits(limits)
    { }
    /// Counts a new connection from `peer`, or refuses it (false) when it would exceed
    /// either bound.
    bool admit(const QHostAddress &peer);
    /// Uncounts a connection admit() counted.
    void release(const QHostAddress &peer);
    /// Connections counted now.
    int open() const;

private:
    ServerLimits m_limits;
    mutable QMutex m_mutex;
    int m_open = 0;
    QHash<QHostAddress, int> m_perAddress;
};

/// Accepts connections for an HttpServer and enforces ServerLimits on them. Created by
/// HttpServer::listen(); not for use on its own.
class Listener : public QTcpServer
{
    Q_OBJECT
public:
    /// A listener whose connections, counted in `budget`, have their requests answered by
    /// `server` (HttpServer::serve(), on this listener's thread).
    Listener(HttpServer *server, const ServerLimits &limits, ConnectionBudget &budget);

    /// Instead of serving accepted connections itself, passes their descriptors to
    /// `handOff` (the acceptor of several I/O threads; see IoThreads).
    void setHandOff(std::function<void(qintptr)> handOff) { m_handOff = std::move(handOff); }
    /// Takes the connected socket `socketDescriptor` (from incomingConnection() or a
    /// hand-off), or closes it when the budget is spent. On this listener's thread.
    void admit(qintptr socketDescriptor);

    /// Sockets currently open through this listener.
    int openConnections() const { return int(m_connections.size()); }
    /// Whether every open socket has handed all its response bytes to the kernel.
    bool allWritten() const;

    // Hooks for the Responder and HttpServer (same thread):
    /// Runs `write` (which writes the answer to request `sequence` of `socket`) once the
    /// answers of every earlier request on that connection are written: handlers answer
    /// pipelined requests in any order (a render on a worker, health at once), the client
    /// must get them in request order (RFC 9112 §9.3.2). Runs it at once when the
    /// connection is unknown (it is closing; the write then finds it disconnected).
    void writeInOrder(QTcpSocket *socket, quint64 sequence, std::function<void()> write);
    /// Job `job` will answer a request of `socket` later: the connection is not timed
    /// out meanwhile, and `cancellation` is cancelled (ClientGone) if the client goes.
    void asyncStarted(QTcpSocket *socket, quint64 job, const render::RenderCancellation &cancellation);
    void asyncFinished(QTcpSocket *socket, quint64 job); ///< ... and has been written (or dropped)

protected:
    void incomingConnection(qintptr socketDescriptor) override;

private:
    struct Connection {
        QPointer<QTcpSocket> socket;
        qint64 lastActivityMs = 0;
        qint64 requestStartMs = -1; ///< first byte of the request in progress, -1 = none
        RequestFraming framing; ///< the size checks of the request in progress
        std::unique_ptr<RequestParser> parser; ///< its requests, one after the other
        QHostAddress peer; ///< the client's address, for maxConnectionsPerAddress
        /// The jobs that will answer requests of this connection, by job id.
        std::map<quint64, render::RenderCancellation> pendingAsync;
        bool rejecting = false; ///< answered with an error; draining until closeAtMs
        bool refusalWritten = false; ///< ... and that error is written (after earlier answers)
        bool closing = false; ///< a request asked to close: later bytes are dropped
        qint64 closeAtMs = 0;
        quint64 nextRequest = 0; ///< the sequence number the next request gets
        quint64 nextAnswer = 0; ///< the sequence number whose answer is written next
        /// Answers written before an earlier one (pipelining), held until it is.
        std::map<quint64, std::function<void()>> heldAnswers;
    };

    void onReadyRead(QTcpSocket *socket);
    /// Frames, parses and hands to the server the requests in `bytes`, the connection's
    /// next ones; stops at a refusal and after a request that closes the connection.
    void readRequests(QTcpSocket *socket, const QByteArray &bytes);
    /// The request in progress waits for `100 Continue` (RFC 9110 §10.1.1): written now if
    /// every earlier request is answered (an interim answer cannot go before theirs).
    void sendContinue(QTcpSocket *socket, Connection &c);
    void reject(QTcpSocket *socket, Connection &c, const HttpResponse &response);
    void sweep();

    HttpServer *m_server;
    ServerLimits m_limits;
    ConnectionBudget &m_budget;
    std::function<void(qintptr)> m_handOff;
    std::unordered_map<QTcpSocket *, Connection> m_connections;
    QElapsedTimer m_clock;
    QTimer m_sweepTimer; ///< a child, so that moveToThread() takes it along (IoThreads)
};

/// The service's HTTP server. Fill router() first, then listen().
class HttpServer : public QObject
{
    Q_OBJECT
public:
    explicit HttpServer(ServerLimits limits = {}, QObject *parent = nullptr);
    ~HttpServer() override;

    /// The route table (fill before listen()).
    Router &router() { return m_router; }

    /// Listens on address:port (port 0 = ephemeral) through a Listener. Returns the bound
    /// port, or why not (e.g. address in use).
    common::Expected<quint16, QString> listen(const QHostAddress &address, quint16 port);

    /// Open client connections right now.
    int openConnections() const;

    /// See the free functions respondAsync() in responder.h. `pool` picks the workers.
    void respondAsync(Responder responder, std::function<HttpResponse()> work,
                      render::RenderCancellation cancellation = {}, WorkPool pool = WorkPool::Workers);

    /// Graceful shutdown: stops accepting connections, lets jobs in flight finish for up to
    /// `graceMs`, then cancels the rest (ShuttingDown) and answers them 503 `shutting_down`
    /// with `Retry-After`. Emits drained() once no job is waiting for an answer and the
    /// answers have left (at most kShutdownFlushMs past the grace for a slow reader).
    void shutdown(int graceMs);
    /// 503 `shutting_down` with `Retry-After: 1`: the answer to work the server will not do
    /// because it is stopping.
    static HttpResponse shuttingDownAnswer();
    /// How long past the grace period the last answers may take to reach the kernel.
    static constexpr int kShutdownFlushMs = 200;
    /// After drained(): waits until `deadline` for the workers still running a job whose
    /// answer was already sent (a render cancelled at the grace that has not looked at its
    /// cancellation yet). True when none runs any more.
    bool waitForWorkers(QDeadlineTimer deadline);
    /// Workers still running a job (render and login pools).
    int busyWorkers() const { return m_pool.activeThreadCount() + m_loginPool.activeThreadCount(); }
    /// Jobs whose client still waits for an answer.
    int pendingJobs() const { return int(m_pending.size()); }

    const ServerLimits &limits() const { return m_limits; }
    /// The connection counts of every listener of this server (IoThreads).
    ConnectionBudget &budget() { return m_budget; }

    /// The CORS policy of every route (http.cors.origins); the default sends no CORS
    /// headers. Set before listen().
    void setCorsPolicy(CorsPolicy policy) { m_cors = std::move(policy); }

    /// Counts and latencies of every answer written (GET /metrics reads them).
    const RequestMetrics &requestMetrics() const { return m_requestMetrics; }
    /// For the Responder: one answer was written (or its client had gone).
    void recordAnswer(const QByteArray &method, const QString &route, int status, double seconds)
    {
        m_requestMetrics.record(method, route, status, seconds);
    }

    /// Runs `handler` with `request` and `responder` on the server's thread: at once when
    /// called there, else queued to it (a route of an I/O thread handing over a request
    /// whose handling is not thread-safe).
    void runOnServerThread(HttpRequest &&request, Responder &&responder, const Handler &handler);

    /// Answers `request`, the one at place `sequence` among the requests of `socket`
    /// (Listener::writeInOrder()): routing, the handler, errors; the connection closes
    /// after the answer when `closeAfter`. On the socket's thread.
    void serve(ParsedRequest &&request, QTcpSocket *socket, quint64 sequence, bool closeAfter);

Q_SIGNALS:
    /// After shutdown(): every job has been answered.
    void drained();

private:
    /// One job on the worker pool whose client may still wait.
    struct Job {
        Responder responder;
        render::RenderCancellation cancellation;
    };
    void deliver(quint64 jobId, WorkPool pool, HttpResponse response);
    /// Answers job `jobId` with `response` now, if it still waits: from deliver(), or
    /// early (deadline, shutdown), when the worker's result is dropped as it arrives.
    void answerEarly(quint64 jobId, const HttpResponse &response);
    /// Answers job `id` 422 (field `deadline`) once its render's deadline has passed,
    /// looking first `afterMs` from now and again as long as the deadline has moved on.
    void answerAtDeadline(quint64 id, const render::RenderCancellation &cancellation, qint64 afterMs);
    void checkDrained();
    /// Runs `handler`, answering 500 when it throws (the exception's text logged).
    static void invoke(const Handler &handler, HttpRequest &&request, Responder &&responder);
    /// Runs `task` (a callable, move-only allowed) on this server's thread, queued.
    template <typename Task>
    void postToServerThread(Task &&task);
    /// Whether every listener's sockets have written all their bytes (asks the I/O
    /// threads, waiting for their answers).
    bool allWritten() const;

    ServerLimits m_limits;
    ConnectionBudget m_budget;
    CorsPolicy m_cors;
    RequestMetrics m_requestMetrics;
    Router m_router;
    QPointer<Listener> m_listener; ///< the one that listens (with I/O threads: accepts)
    std::unique_ptr<IoThreads> m_ioThreads; ///< with ServerLimits::ioThreads > 1
    QThreadPool m_pool;
    QThreadPool m_loginPool;
    int m_inFlight = 0;
    int m_loginsInFlight = 0;
    quint64 m_nextJob = 0;
    std::unordered_map<quint64, Job> m_pending;
    bool m_shuttingDown = false;
    bool m_drained = false;
    QDeadlineTimer m_flushBy; // shutdown(): the last answers wait for the kernel until then
};

/// The I/O threads `configured` (http.ioThreads) asks for: itself when positive, else (0)
/// one per core, at most 4.
int ioThreadsFor(int configured);

/// Raises this process's open-file soft limit (RLIMIT_NOFILE) to its hard limit so the
/// connection cap, not the fd limit, is what refuses clients. Returns the new soft limit
/// (or the unchanged one if raising failed).
quint64 raiseOpenFileLimit();

} // namespace imprint::http
