#pragma once
// Method + path-pattern routing for HttpServer: `/api/v1/tokens/api-keys/{id}` style
// patterns, 404 for unknown paths and 405 with `Allow` for known paths with another
// method (RFC 9110 §15.5.6), decided by the server, not by each handler.

#include "server/http/message.h"
#include "server/http/responder.h"

#include <QStringList>

#include <functional>
#include <vector>

namespace imprint::http {

/// A handler that answers through the Responder (now or later, e.g. via respondAsync).
using Handler = std::function<void(HttpRequest &&request, Responder &&responder)>;
/// A handler that computes its response right away on the server thread.
using SyncHandler = std::function<HttpResponse(const HttpRequest &request)>;

/// The route table. Not thread-safe: fill it before the server starts listening.
class Router
{
public:
    /// Registers a synchronous handler for `method` ("GET", ...) and `pattern`: segments
    /// separated by '/', `{name}` matches any one non-empty segment and lands in
    /// HttpRequest::pathParams. Literal segments win over `{name}` for the same path.
    void add(const QByteArray &method, const QString &pattern, SyncHandler handler);
    /// Same for a handler that answers through its Responder (async work). With
    /// `anyThread` it runs on whichever I/O thread parsed the request (server.h): it must
    /// touch only what is thread-safe, and hands the rest to onServerThread(); without,
    /// on the server's thread.
    void addWithResponder(const QByteArray &method, const QString &pattern, Handler handler, bool anyThread = false);
    /// add() for a handler that must not run on the server thread (it parses and validates
    /// user documents, or touches the database more than once): it runs on the worker pool
    /// through respondAsync(), with that pool's 503 when the queue is full.
    void addOffloaded(const QByteArray &method, const QString &pattern, SyncHandler handler);

    /// Result of looking a request up.
    struct Match {
        const Handler *handler = nullptr; ///< null: 404 or 405
        bool anyThread = false; ///< the handler may run on an I/O thread
        QHash<QString, QString> params;
        QByteArrayList allowed; ///< methods of the most literal pattern matching the path
        /// The most literal pattern matching the path (the one `handler` belongs to), e.g.
        /// "/api/v1/pages/{id}"; empty when none did. A label for /metrics.
        QString pattern;
    };
    /// Finds the route for (method, path). Path must be normalised (no trailing '/').
    Match match(const QByteArray &method, const QString &path) const;

    /// Every registered (method, pattern) pair in registration order, e.g.
    /// ("GET", "/api/v1/files/{name}") — for the OpenAPI document's completeness test.
    QList<QPair<QByteArray, QString>> routes() const;

private:
    struct Route {
        QByteArray method;
        QStringList segments;
        int literalCount = 0;
        /// Per segment: the parameter's name of a `{name}` segment, a null string for a
        /// literal one.
        QStringList paramNames;
        QString pattern; ///< "/" + segments, as Match::pattern gives it
        Handler handler;
        bool anyThread = false;
    };
    std::vector<Route> m_routes;
    /// Indices into m_routes by their number of segments: match() compares only those.
    std::vector<std::vector<size_t>> m_bySegmentCount;
};

} // namespace imprint::http
