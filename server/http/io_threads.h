#pragma once
// The I/O threads of an HttpServer (http.ioThreads > 1). Qt 6.4's QAbstractHttpServer
// parses and answers on the thread it lives on, and one thread was the bound of cheap
// requests (docs/performance.md, "Cached pattern renders"): so each I/O thread runs a
// QAbstractHttpServer of its own (an IoFront) with its own Listener, and the server's
// listening socket, on the server's thread, hands the connections it accepts to them in
// turn. A connection stays on its thread for its whole life: its requests are parsed,
// framed, answered and written in order there.

#include "server/http/server.h"

#include <QAbstractHttpServer>
#include <QThread>

#include <memory>
#include <vector>

namespace imprint::http {

/// The QAbstractHttpServer of one I/O thread: Qt's parser for the connections its
/// Listener admits, answering each request through HttpServer::serve(). Made by IoThreads.
class IoFront : public QAbstractHttpServer
{
    Q_OBJECT
public:
    /// Answers through `server`. Call start() on the thread it lives on.
    explicit IoFront(HttpServer *server);
    /// Makes its Listener (limits and budget of the server) and binds it. `listening` is
    /// the server's listening descriptor: bound to a duplicate of it only while bind()
    /// looks, the Listener passes Qt's check that it listens, and never accepts itself.
    void start(const ServerLimits &limits, ConnectionBudget &budget, int listening);
    Listener *listener() const { return m_listener; }

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    HttpServer *m_server;
    Listener *m_listener = nullptr;
};

/// `count` I/O threads with an IoFront each; they stop when this is destroyed (their
/// connections closed there). Used from the server's thread only.
class IoThreads
{
public:
    /// Starts the threads for `server`, whose listening socket is `listening`.
    IoThreads(HttpServer *server, int count, int listening);
    ~IoThreads();
    IoThreads(const IoThreads &) = delete;
    IoThreads &operator=(const IoThreads &) = delete;

    /// Gives the accepted connection `descriptor` to the next thread in turn.
    void handOff(qintptr descriptor);
    /// Whether every thread's sockets have handed all their bytes to the kernel (asks
    /// each thread and waits for its answer).
    bool allWritten() const;

private:
    struct Thread {
        std::unique_ptr<QThread> thread;
        IoFront *front = nullptr; ///< lives on `thread`, deleted there when it finishes
    };
    std::vector<Thread> m_threads;
    size_t m_next = 0;
};

} // namespace imprint::http
