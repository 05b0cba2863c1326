#include "server/http/router.h"

namespace imprint::http {

namespace {

QStringList splitPath(const QString &path)
{
    return path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
}

bool isParam(const QString &segment)
{
    return segment.size() > 2 && segment.startsWith(QLatin1Char('{')) && segment.endsWith(QLatin1Char('}'));
}

} // namespace

void Router::add(const QByteArray &method, const QString &pattern, SyncHandler handler)
{
    addWithResponder(method, pattern, [handler = std::move(handler)](HttpRequest &&request, Responder &&responder) {
        responder.send(handler(request));
    });
}

void Router::addWithResponder(const QByteArray &method, const QString &pattern, Handler handler, bool anyThread)
{
    Route r;
    r.anyThread = anyThread;
    r.method = method.toUpper();
    r.segments = splitPath(pattern);
    for (const QString &s : r.segments)
        r.literalCount += isParam(s) ? 0 : 1;
    r.handler = std::move(handler);
    m_routes.push_back(std::move(r));
}

QList<QPair<QByteArray, QString>> Router::routes() const
{
    QList<QPair<QByteArray, QString>> out;
    for (const Route &r : m_routes)
        out.append({r.method, QLatin1Char('/') + r.segments.join(QLatin1Char('/'))});
    return out;
}

Router::Match Router::match(const QByteArray &method, const QString &path) const
{
    // The path names the resource of its most literal matching pattern: "/tokens/api-keys/index"
    // is the index, never the key "index", so DELETE on it is 405 (allowed: the index's
    // methods), not the key route's 404 (RFC 9110 §15.5.6).
    const QStringList segments = splitPath(path);
    struct Candidate {
        const Route *route;
        QHash<QString, QString> params;
    };
    std::vector<Candidate> candidates;
    int mostLiterals = -1;
    for (const Route &r : m_routes) {
        if (r.segments.size() != segments.size())
            continue;
        QHash<QString, QString> params;
        bool matches = true;
        for (int i = 0; i < segments.size() && matches; ++i) {
            if (isParam(r.segments[i]))
                params.insert(r.segments[i].mid(1, r.segments[i].size() - 2), segments[i]);
            else
                matches = r.segments[i] == segments[i];
        }
        if (!matches)
            continue;
        mostLiterals = std::max(mostLiterals, r.literalCount);
        candidates.push_back({&r, std::move(params)});
    }
    Match best;
    for (Candidate &c : candidates) {
        if (c.route->literalCount != mostLiterals)
            continue;
        if (!best.allowed.contains(c.route->method))
            best.allowed.append(c.route->method);
        if (best.pattern.isEmpty())
            best.pattern = QLatin1Char('/') + c.route->segments.join(QLatin1Char('/'));
        if (c.route->method == method && !best.handler) {
            best.handler = &c.route->handler;
            best.anyThread = c.route->anyThread;
            best.params = std::move(c.params);
        }
    }
    return best;
}

void Router::addOffloaded(const QByteArray &method, const QString &pattern, SyncHandler handler)
{
    addWithResponder(method, pattern, [handler = std::move(handler)](HttpRequest &&request, Responder &&responder) {
        respondAsync(std::move(responder), [handler, request = std::move(request)] { return handler(request); });
    });
}

} // namespace imprint::http
