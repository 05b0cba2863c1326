#pragma once
// The one interface every route group implements (server/http/routes/: auth, keys,
// signing keys, content, render, files, uploads, meta), and the form its route table
// takes: data, one row per route, so that a module's registerRoutes() reads as the list of
// what it answers and adding a route adds a row. The modules hold only the use cases they
// call, by reference; the composition root (server/app/service.cpp) builds those once and
// hands them in (docs/architecture.md, "How to add a route").

#include "server/http/router.h"

#include <QList>

namespace imprint::http {

/// The prefix of every route of the API: "/api/v1".
inline QString apiPath(const QString &path)
{
    return QStringLiteral("/api/v1") + path;
}

/// One row of a route table: method, path under /api/v1 and the handler, with where it runs.
struct RouteEntry {
    /// Where the handler runs (Router::add, Router::addOffloaded, Router::addWithResponder).
    enum class Run : quint8 {
        ServerThread, ///< a SyncHandler answered on the server thread
        Workers, ///< a SyncHandler on the worker pool (it parses documents or touches rows)
        Responder, ///< a Handler that answers through its Responder, now or later
        AnyThread, ///< Responder, run on the I/O thread that parsed the request (thread-safe)
    };
    QByteArray method; ///< "GET", "POST", ...
    QString path; ///< under /api/v1, e.g. "/pages/{id}"
    Run run = Run::ServerThread;
    SyncHandler sync; ///< for ServerThread and Workers
    Handler async; ///< for Responder
};

/// A row answered on the server thread.
inline RouteEntry onServerThread(QByteArray method, QString path, SyncHandler handler)
{
    return {std::move(method), std::move(path), RouteEntry::Run::ServerThread, std::move(handler), {}};
}

/// A row answered on the worker pool.
inline RouteEntry onWorkers(QByteArray method, QString path, SyncHandler handler)
{
    return {std::move(method), std::move(path), RouteEntry::Run::Workers, std::move(handler), {}};
}

/// A row whose handler answers through its Responder.
inline RouteEntry throughResponder(QByteArray method, QString path, Handler handler)
{
    return {std::move(method), std::move(path), RouteEntry::Run::Responder, {}, std::move(handler)};
}

/// A row whose handler answers through its Responder on whichever I/O thread parsed the
/// request (Router::addWithResponder): for a hot route whose handler touches only
/// thread-safe use cases, and hands anything else to onServerThread().
inline RouteEntry onAnyThread(QByteArray method, QString path, Handler handler)
{
    return {std::move(method), std::move(path), RouteEntry::Run::AnyThread, {}, std::move(handler)};
}

/// Adds every row of `table` to `router`, in order (the order of one path's rows is the
/// order of the 405 answer's Allow header).
inline void addRoutes(Router &router, const QList<RouteEntry> &table)
{
    for (const RouteEntry &e : table) {
        switch (e.run) {
        case RouteEntry::Run::ServerThread:
            router.add(e.method, apiPath(e.path), e.sync);
            break;
        case RouteEntry::Run::Workers:
            router.addOffloaded(e.method, apiPath(e.path), e.sync);
            break;
        case RouteEntry::Run::Responder:
            router.addWithResponder(e.method, apiPath(e.path), e.async);
            break;
        case RouteEntry::Run::AnyThread:
            router.addWithResponder(e.method, apiPath(e.path), e.async, true);
            break;
        }
    }
}

/// A group of routes (server/http/routes/NAME.h). Keep a module alive longer than the
/// HttpServer whose router it filled: its handlers run on that server's pools.
class RouteModule
{
public:
    virtual ~RouteModule() = default;
    /// Adds this module's routes to `router` (before the server listens).
    virtual void registerRoutes(Router &router) = 0;
};

} // namespace imprint::http
