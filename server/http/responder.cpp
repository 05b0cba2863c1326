#include "server/http/responder.h"

#include "server/http/problem.h"
#include "server/http/response_log.h"
#include "server/http/server.h"

#include <QElapsedTimer>
#include <QThread>

#include <charconv>

namespace imprint::http {

namespace {

qint64 nowNs()
{
    static QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.nsecsElapsed();
}

/// The access line's message, "GET /path 200 0.12 ms": `what` (method and escaped
/// path, UTF-8), the status, `note` (empty or starting with a space), the milliseconds
/// with two decimals and "ms", each part separated by one space as QDebug's stream put
/// them. One buffer: the stream, or QString's operator+, allocate for every part.
QByteArray accessLine(const QByteArray &what, int status, QByteArrayView note, double ms)
{
    QByteArray line;
    line.reserve(what.size() + note.size() + 32);
    char digits[16];
    const auto end = std::to_chars(digits, digits + sizeof digits, status).ptr;
    line.append(what).append(' ').append(digits, end - digits).append(note).append(' ');
    line.append(QByteArray::number(ms, 'f', 2)).append(" ms");
    return line;
}

/// Hands `work` to the responder's server, or answers shuttingDown() when it is gone.
void submit(Responder responder, std::function<HttpResponse()> work, render::RenderCancellation cancellation,
            WorkPool pool)
{
    HttpServer *server = responder.server();
    if (!server) {
        responder.send(HttpServer::shuttingDownAnswer());
        return;
    }
    server->respondAsync(std::move(responder), std::move(work), std::move(cancellation), pool);
}

} // namespace

// ---------------------------------------------------------------- Responder

Responder::Responder(HttpServer *server, QTcpSocket *socket, bool closeAfter, QByteArray what, quint64 sequence)
    : m_server(server)
    , m_forSocket(true)
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
    if ((m_forSocket && !m_sent && isConnected()) || (m_sink && !m_sent))
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
        return !m_sent && m_forSocket;
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
    if (m_sent || !m_forSocket || handHome(response))
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
    auto write = [socket = m_socket, response, extraHeaders = m_extraHeaders, headOnly = m_headOnly, closeAfter = m_closeAfter,
                  what = m_what, ms] {
        if (!socket || socket->state() != QAbstractSocket::ConnectedState) {
            qCInfo(lcAccess).noquote() << accessLine(what, response.status, " (client gone)", ms);
            return;
        }
        // The head in one write, not the four a header of the Qt responder it replaced
        // (docs/performance.md, "The answer's head in one write"); the body straight from
        // the response.
        socket->write(responseHead(response, extraHeaders, closeAfter));
        if (!headOnly && !response.body.isEmpty())
            socket->write(response.body);
        // Written now rather than when the event loop next sees the socket writable: a
        // poll and two wake-ups less an answer (docs/performance.md, "System calls").
        socket->flush();
        // After every earlier answer (writeInOrder), so none of them is cut off.
        if (closeAfter)
            socket->disconnectFromHost();
        // One piece, as QDebug would join them: its stream takes thousands of instructions
        // a request for five (docs/performance.md). Built only when the line is logged.
        qCInfo(lcAccess).noquote() << accessLine(what, response.status, {}, ms);
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
} // namespace imprint::http
