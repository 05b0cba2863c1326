#pragma once
// Cross-origin resource sharing (the Fetch standard's CORS protocol,
// https://fetch.spec.whatwg.org/#http-cors-protocol) for the origins listed in
// `http.cors.origins`: which headers a preflight and an actual response carry. The
// server applies it to every route (HttpServer::handleRequest()).
//
// Credentials are never allowed (no Access-Control-Allow-Credentials): a browser page
// on another origin sends its API key or session token in `Authorization`, never the
// session cookie, so a listed origin cannot ride on a user's cookie.

#include "server/http/message.h"

#include <QByteArrayList>
#include <QStringList>

namespace imprint::http {

class CorsPolicy
{
public:
    /// No origin listed: no CORS headers anywhere, and OPTIONS is 405 as before.
    CorsPolicy() = default;
    /// `origins` as configured: exact origins ("https://app.example.com", compared
    /// byte for byte after dropping a trailing "/") and/or "*" (any origin).
    /// `maxAgeSeconds` is the preflight's Access-Control-Max-Age.
    CorsPolicy(const QStringList &origins, int maxAgeSeconds);

    /// Whether any origin is configured.
    bool enabled() const { return m_any || !m_origins.isEmpty(); }

    /// The Access-Control-Allow-Origin value for a request's `Origin` header: the
    /// origin itself when it is listed, "*" when only the wildcard admits it, empty (no
    /// CORS headers) when it is not admitted or there is no Origin.
    QByteArray allowOrigin(const QByteArray &origin) const;

    /// Whether `request` is a CORS preflight (Fetch, "CORS-preflight request"): OPTIONS with
    /// `Origin` and `Access-Control-Request-Method`.
    static bool isPreflight(const HttpRequest &request);

    /// The 204 answer to a preflight for a route that allows `methods`: with the CORS
    /// headers (Allow-Origin, Allow-Methods, Allow-Headers: Authorization, Content-Type,
    /// Max-Age, Vary: Origin) when the request's Origin is admitted, without them
    /// otherwise (the browser then refuses the actual request).
    HttpResponse preflight(const HttpRequest &request, const QByteArrayList &methods) const;

    /// The headers every actual response to `request` gets: Access-Control-Allow-Origin,
    /// Access-Control-Expose-Headers (so scripts can read Retry-After, Server-Timing, …)
    /// and Vary: Origin when its Origin is admitted; none otherwise.
    QList<QPair<QByteArray, QByteArray>> responseHeaders(const HttpRequest &request) const;

private:
    QByteArrayList m_origins;
    bool m_any = false;
    int m_maxAgeSeconds = 600;
};

} // namespace imprint::http
