#include "server/http/dispatch.h"

namespace imprint::http {

HttpRequest toHttpRequest(const QByteArray &method, const RequestTarget &target, HeaderList headers,
                          const QByteArray &body, const QHostAddress &remoteAddress)
{
    HttpRequest req;
    req.method = method;
    req.path = target.path;
    if (req.path.size() > 1 && req.path.endsWith(QLatin1Char('/')))
        req.path.chop(1);
    if (req.path.isEmpty())
        req.path = QStringLiteral("/");
    // A query string is application/x-www-form-urlencoded (WHATWG URL): "+" is a space,
    // as Python's httpx and requests, URLSearchParams and HTML forms write it; QUrlQuery
    // would keep it. A plus sign itself arrives as %2B. The items are decoded only when a
    // route reads them (HttpRequest::query(), queryValue()).
    req.encodedQuery = target.encodedQuery;
    if (req.encodedQuery.contains(QLatin1Char('+')))
        req.encodedQuery.replace(QLatin1Char('+'), QLatin1String("%20"));
    req.headers = std::move(headers);
    for (auto &h : req.headers)
        h.first = std::move(h.first).toLower();
    req.body = body;
    req.remoteAddress = remoteAddress;
    return req;
}

Dispatch dispatch(HttpRequest &req, const QString &encodedPath, const Router &router, const CorsPolicy &cors)
{
    Dispatch d;
    // Routes match decoded segments; an encoded "/" inside a segment would otherwise
    // split it, so `/pages/a%2Fb` reached `/pages/a/b`. No id or name contains "/".
    if (encodedPath.contains(QLatin1String("%2F"), Qt::CaseInsensitive)) {
        d.answer = problem(
            404, QStringLiteral("not_found"),
            QStringLiteral("No route for %1: a path segment may not contain an encoded \"/\".").arg(encodedPath));
        return d;
    }
    // CORS (cors.h): a preflight is answered here for every route, whatever its
    // authentication, because browsers send it without credentials; every other answer
    // to an admitted origin carries Access-Control-Allow-Origin.
    if (cors.enabled() && CorsPolicy::isPreflight(req)) {
        const Router::Match preflight = router.match("OPTIONS", req.path);
        QByteArrayList methods = preflight.allowed;
        if (!preflight.pattern.isEmpty()) {
            d.routeMethod = req.method;
            d.routePattern = preflight.pattern;
        }
        if (methods.isEmpty()) {
            d.answer = problem(404, QStringLiteral("not_found"), QStringLiteral("No route for %1.").arg(req.path));
            return d;
        }
        if (methods.contains("GET") && !methods.contains("HEAD"))
            methods.append("HEAD");
        d.answer = cors.preflight(req, methods);
        return d;
    }
    d.extraHeaders = cors.responseHeaders(req);
    Router::Match match = router.match(req.method, req.path);
    // HEAD is GET without the body (RFC 9110 §9.3.2) on every GET route, decided here
    // once: the handler runs as for GET, the Responder leaves the body out (of errors too).
    if (req.method == "HEAD") {
        d.headOnly = true;
        if (Router::Match get = router.match("GET", req.path); !match.handler && get.handler) {
            match = std::move(get);
            req.method = "GET";
        }
    }
    if (!match.pattern.isEmpty()) {
        d.routeMethod = req.method;
        d.routePattern = match.pattern;
    }
    if (!match.handler) {
        // Allow names HEAD wherever GET is allowed; only a refusal reads the list.
        if (match.allowed.contains("GET") && !match.allowed.contains("HEAD"))
            match.allowed.append("HEAD");
        if (match.allowed.isEmpty()) {
            d.answer = problem(404, QStringLiteral("not_found"), QStringLiteral("No route for %1.").arg(req.path));
        } else {
            d.answer
                = problem(405, QStringLiteral("method_not_allowed"),
                          QStringLiteral("%1 is not allowed on %2.").arg(QString::fromLatin1(req.method), req.path))
                      .withHeader("Allow", match.allowed.join(", "));
        }
        return d;
    }
    req.pathParams = std::move(match.params);
    d.handler = match.handler;
    d.anyThread = match.anyThread;
    return d;
}

} // namespace imprint::http
