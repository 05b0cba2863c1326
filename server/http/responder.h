#pragma once
// The answering side of one request: a move-only handle that writes an HttpResponse to
// the client's socket, now or later, from any thread, and never to a client that has gone
// (see server.h).

#include "server/http/message.h"
#include "server/render/cancellation.h"

#include <QPointer>
#include <QTcpSocket>

#include <functional>
#include <memory>
#include <utility>

namespace imprint::http {

class HttpServer;
class Listener;

/// Move-only. Lives on its socket's thread (the server's, or an I/O thread's) or on the
/// server's, never on a worker; send() from another thread than the socket's hands the
/// writing to the socket's thread. If the client disconnected, send() does nothing;
/// destroying a Responder without sending answers 500, so every path must send.
class Responder
{
public:
    /// Answers a request of `socket`. `what` ("GET /path", never the query string,
    /// which may carry api_token; escaped with common::logEscaped()) names the request in
    /// the access log. `sequence` is the request's place on its connection
    /// (Listener::requestCompleted()): its answer is written after those of every earlier
    /// request there (RFC 9112 §9.3.2).
    Responder(HttpServer *server, QTcpSocket *socket, bool closeAfter, QByteArray what, quint64 sequence = 0);
    /// A Responder without a socket: send() hands `sink` what it would write (the
    /// response with the added headers, without its body for HEAD), and a Responder
    /// destroyed unanswered hands it the 500 a client would get. For tests and the HTTP
    /// fuzz harness. Async work runs on `server`'s pools (null: answered 503
    /// `shutting_down`).
    explicit Responder(std::function<void(const HttpResponse &)> sink, HttpServer *server = nullptr);
    Responder(Responder &&other) noexcept;
    Responder &operator=(Responder &&other) noexcept;
    ~Responder();

    /// Writes `response` (status line, headers, Content-Length, body) if the socket is
    /// still connected, then closes the connection when the request asked for
    /// `Connection: close`. At most once; later calls are ignored. On a connection with
    /// pipelined requests the bytes wait until every earlier request's answer is written
    /// (RFC 9112 §9.3.2: responses in request order).
    void send(const HttpResponse &response);

    /// Answers a HEAD request (RFC 9110 §9.3.2): send() writes the status line and the
    /// headers, Content-Length included, of the GET answer, and no body.
    void setHeadOnly() { m_headOnly = true; }

    /// Headers send() adds to whatever response it writes, errors included (the CORS
    /// headers of the request's origin: a script must be able to read a 429 too).
    void addHeaders(const QList<QPair<QByteArray, QByteArray>> &headers) { m_extraHeaders += headers; }

    /// Names the request in /metrics: its method and the matched route's pattern
    /// (Router::Match::pattern). Until called, the route is "unmatched".
    void setRoute(const QByteArray &method, const QString &route)
    {
        m_method = method;
        m_route = route;
    }

    /// True while the client is connected and nothing was sent yet. Off the socket's
    /// thread only whether nothing was sent (send() looks at the socket where it lives).
    bool isConnected() const;

    /// The server this request came through (for respondAsync); null if it is gone.
    HttpServer *server() const;

private:
    friend class HttpServer;
    /// Whether this is the socket's thread (or there is no socket).
    bool atHome() const;
    /// Off the socket's thread: hands this Responder and `response` to it, where send()
    /// runs again, and returns true; on it, false.
    bool handHome(const HttpResponse &response);
    QPointer<HttpServer> m_server;
    /// A flag a move takes along and leaves false behind, so that only one of the
    /// Responders a request's was moved through answers it.
    struct MovedFlag {
        bool value = false;
        MovedFlag(bool v = false) : value(v) { }
        MovedFlag(MovedFlag &&other) noexcept : value(std::exchange(other.value, false)) { }
        MovedFlag &operator=(MovedFlag &&other) noexcept
        {
            value = std::exchange(other.value, false);
            return *this;
        }
        explicit operator bool() const { return value; }
    };
    MovedFlag m_forSocket; ///< made for a socket (not a sink), and not moved from
    QPointer<QTcpSocket> m_socket;
    /// The socket's listener and thread, where send() writes; null for a sink.
    QPointer<Listener> m_listener;
    QThread *m_home = nullptr;
    quint64 m_job = 0; ///< the respondAsync() job answering, 0 = none (Listener::asyncFinished)
    bool m_closeAfter = false;
    quint64 m_sequence = 0;
    bool m_sent = false;
    bool m_headOnly = false;
    QByteArray m_what;
    QList<QPair<QByteArray, QByteArray>> m_extraHeaders;
    QByteArray m_method;
    QString m_route = QStringLiteral("unmatched");
    qint64 m_startNs = 0;
    /// Set by the sink constructor; a shared_ptr because a moved-from one is null.
    std::shared_ptr<const std::function<void(const HttpResponse &)>> m_sink;
};

/// Runs `handler` with `request` and `responder` on the thread of the responder's server
/// (HttpServer::runOnServerThread), for a handler of a route run on any I/O thread whose
/// request turns out to need what only that thread may touch; with no server (a sink's
/// responder), at once.
void onServerThread(HttpRequest &&request, Responder &&responder,
                    std::function<void(HttpRequest &&, Responder &&)> handler);

/// The thread pools of an HttpServer: the workers (renders, most database work) and the
/// login pool (password hashing).
enum class WorkPool : quint8 { Workers, Logins };

/// Runs `work` on the server's bounded worker pool (size = cores) and sends its result
/// back on the socket's thread — only if the client is still connected. Callable on any
/// thread a Responder lives on. When the pool's
/// queue is full, answers at once with 503 problem+json and `Retry-After: 1` (docs/api.md).
/// `work` must not touch the Responder, Qt sockets or other main-thread objects; it may
/// use store::Database (each thread has its own connection). An exception thrown by
/// `work` becomes a 500 problem. This is the helper renders use.
void respondAsync(Responder responder, std::function<HttpResponse()> work);

/// respondAsync() for a render that polls `cancellation`: the server cancels it when the
/// client disconnects (ClientGone) or the server shuts down (ShuttingDown), and when its
/// deadline has passed and the worker still has not answered (a stage that cannot be
/// interrupted), answers for it at once with 422 `render_budget_exceeded` (field
/// `deadline`); the worker's late result is then dropped.
void respondAsync(Responder responder, std::function<HttpResponse()> work, render::RenderCancellation cancellation);

/// respondAsync() on the login pool (ServerLimits::loginThreads, its own queue and 503).
void respondOnLoginPool(Responder responder, std::function<HttpResponse()> work);

} // namespace imprint::http
