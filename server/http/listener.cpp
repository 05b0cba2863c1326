#include "server/http/server.h"

#include "server/http/problem.h"

#include <QAbstractHttpServer>
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
} // namespace imprint::http
