#include "server/http/server.h"

#include "server/http/problem.h"

#include <QThread>

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <limits>

namespace imprint::http {

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

Listener::Listener(HttpServer *server, const ServerLimits &limits, ConnectionBudget &budget)
    : m_server(server)
    , m_limits(limits)
    , m_budget(budget)
    , m_sweepTimer(this)
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
    c.parser = std::make_unique<RequestParser>();
    c.lastActivityMs = m_clock.elapsed();
    c.peer = peer;
    m_connections.insert_or_assign(socket, std::move(c));
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
    // Deleted later, not at once: the disconnection may come from inside one of its
    // slots (a write that closes).
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    connect(socket, &QObject::destroyed, this, [this, socket, peer] {
        m_connections.erase(socket);
        m_budget.release(peer);
    });
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
    c.lastActivityMs = m_clock.elapsed();
    // Read even when nothing more is parsed (a refusal drains the client's upload, a
    // closing connection drops what follows its last request), or it would pile up.
    const QByteArray bytes = socket->readAll();
    if (c.rejecting || c.closing || bytes.isEmpty())
        return;
    readRequests(socket, bytes);
}

void Listener::readRequests(QTcpSocket *socket, const QByteArray &bytes)
{
    QByteArrayView rest(bytes);
    while (!rest.isEmpty()) {
        // Looked up again each time: answering a request may have run any code.
        auto it = m_connections.find(socket);
        if (it == m_connections.end())
            return;
        Connection &c = it->second;
        const qint64 now = m_clock.elapsed();
        if (c.requestStartMs < 0)
            c.requestStartMs = now;
        const RequestParser::Step step = c.parser->parse(rest);
        // The framing checks see every byte of a request before it is answered: those of
        // this request, or after a parse error all that arrived (a rule of theirs the
        // head breaks past the error is the answer the client gets, whatever the parser
        // stumbled on first).
        const QByteArrayView read = step.refusal ? rest : rest.first(step.consumed);
        const QByteArrayView start = read.first(std::min<qint64>(c.framing.headRoom(), read.size()));
        if (std::optional<HttpResponse> refusal = c.framing.feed(read.size(), start))
            return reject(socket, c, *refusal);
        if (step.refusal)
            return reject(socket, c, *step.refusal);
        rest = rest.sliced(step.consumed);
        if (!step.complete) {
            if (!c.parser->inRequest())
                c.requestStartMs = -1; // only empty lines between requests (RFC 9112 §2.2)
            else if (c.parser->awaitsContinue())
                sendContinue(socket, c);
            if (step.consumed == 0)
                return; // cannot happen without an error; never loop on it
            continue;
        }
        ParsedRequest request = c.parser->take();
        c.framing.reset();
        c.requestStartMs = -1;
        c.lastActivityMs = now;
        const quint64 sequence = c.nextRequest++;
        // RFC 9112 §9.6: nothing after a request that closes the connection is read.
        const bool closeAfter = !request.keepAlive;
        c.closing = closeAfter;
        m_server->serve(std::move(request), socket, sequence, closeAfter);
        if (closeAfter)
            return;
    }
}

void Listener::sendContinue(QTcpSocket *socket, Connection &c)
{
    c.parser->continueSent();
    // An earlier request still unanswered: its answer must come first, and the client
    // sends the body after a while without the interim answer (RFC 9110 §10.1.1).
    if (c.nextAnswer != c.nextRequest)
        return;
    socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    socket->flush();
}

void Listener::reject(QTcpSocket *socket, Connection &c, const HttpResponse &response)
{
    c.rejecting = true;
    // Set once the refusal is written: it may wait for an earlier request's answer.
    c.closeAtMs = std::numeric_limits<qint64>::max();
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
            // Deleted without our destroyed() slot having run: never left behind.
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
            // abort() emits disconnected() only for a connected socket: make sure it goes.
            // deleteLater twice is harmless.
            s->deleteLater();
        }
    }
}
} // namespace imprint::http
