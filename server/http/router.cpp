#include "server/http/router.h"

#include <QVarLengthArray>

#include <algorithm>

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
    for (const QString &s : r.segments) {
        const bool param = isParam(s);
        r.literalCount += param ? 0 : 1;
        r.paramNames.append(param ? s.mid(1, s.size() - 2) : QString());
    }
    r.pattern = QLatin1Char('/') + r.segments.join(QLatin1Char('/'));
    r.handler = std::move(handler);
    const size_t count = size_t(r.segments.size());
    if (m_bySegmentCount.size() <= count)
        m_bySegmentCount.resize(count + 1);
    m_bySegmentCount[count].push_back(m_routes.size());
    m_routes.push_back(std::move(r));
}

QList<QPair<QByteArray, QString>> Router::routes() const
{
    QList<QPair<QByteArray, QString>> out;
    for (const Route &r : m_routes)
        out.append({r.method, r.pattern});
    return out;
}

Router::Match Router::match(const QByteArray &method, const QString &path) const
{
    // The path names the resource of its most literal matching pattern: "/tokens/api-keys/index"
    // is the index, never the key "index", so DELETE on it is 405 (allowed: the index's
    // methods), not the key route's 404 (RFC 9110 §15.5.6).
    // Runs on every request: the path's segments are views (no copies), only the routes
    // with as many segments are compared, literal segments from the last one (routes
    // share their first ones: "api", "v1"), lengths before characters, and the parameters
    // are collected only for the route that answers.
    QVarLengthArray<QStringView, 8> segments;
    for (const QStringView segment : QStringView(path).tokenize(u'/', Qt::SkipEmptyParts))
        segments.append(segment);
    Match best;
    if (size_t(segments.size()) >= m_bySegmentCount.size())
        return best;
    QVarLengthArray<const Route *, 16> candidates;
    int mostLiterals = -1;
    for (const size_t index : m_bySegmentCount[size_t(segments.size())]) {
        const Route &r = m_routes[index];
        bool matches = true;
        for (qsizetype i = segments.size() - 1; i >= 0 && matches; --i)
            matches = !r.paramNames[i].isNull()
                      || (r.segments[i].size() == segments[i].size() && r.segments[i] == segments[i]);
        if (!matches)
            continue;
        mostLiterals = std::max(mostLiterals, r.literalCount);
        candidates.append(&r);
    }
    for (const Route *c : candidates) {
        if (c->literalCount != mostLiterals)
            continue;
        if (!best.allowed.contains(c->method))
            best.allowed.append(c->method);
        if (best.pattern.isEmpty())
            best.pattern = c->pattern;
        if (c->method == method && !best.handler) {
            best.handler = &c->handler;
            best.anyThread = c->anyThread;
            for (qsizetype i = 0; i < segments.size(); ++i)
                if (!c->paramNames[i].isNull())
                    best.params.insert(c->paramNames[i], segments[i].toString());
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
