#pragma once
// The I/O threads of an HttpServer (http.ioThreads > 1). One thread parsing and answering
// every connection was the bound of cheap requests (docs/performance.md, "Cached pattern
// renders"): so each I/O thread runs a Listener of its own, which never listens, and the
// server's listening socket, on the server's thread, hands the connections it accepts
// to them in turn. A connection stays on its thread for its whole life: its requests are
// parsed, framed, answered and written in order there.

#include "server/http/server.h"

#include <QThread>

#include <memory>
#include <vector>

namespace imprint::http {

/// `count` I/O threads with a Listener each; they stop when this is destroyed (their
/// connections closed there). Used from the server's thread only.
class IoThreads
{
public:
    /// Starts the threads for `server`, with its limits and connection budget.
    IoThreads(HttpServer *server, int count);
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
        Listener *listener = nullptr; ///< lives on `thread`, deleted there when it finishes
    };
    std::vector<Thread> m_threads;
    size_t m_next = 0;
};

} // namespace imprint::http
