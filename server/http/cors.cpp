#include "server/http/cors.h"

namespace imprint::http {

CorsPolicy::CorsPolicy(const QStringList &origins, int maxAgeSeconds)
    : m_maxAgeSeconds(std::max(0, maxAgeSeconds))
{
    for (QString o : origins) {
        o = o.trimmed();
        // "https://a.example/" is how people write an origin; the Origin header never
        // has the slash.
        while (o.endsWith(QLatin1Char('/')))
            o.chop(1);
        if (o == QLatin1String("*"))
            m_any = true;
        else if (!o.isEmpty())
            m_origins.append(o.toUtf8());
    }
}

QByteArray CorsPolicy::allowOrigin(const QByteArray &origin) const
{
    if (origin.isEmpty())
        return {};
    if (m_origins.contains(origin))
        return origin;
    return m_any ? QByteArray("*") : QByteArray();
}

bool CorsPolicy::isPreflight(const HttpRequest &request)
{
    return request.method == "OPTIONS" && !request.header("origin").isEmpty()
           && !request.header("access-control-request-method").isEmpty();
}

HttpResponse CorsPolicy::preflight(const HttpRequest &request, const QByteArrayList &methods) const
{
    HttpResponse r{204, {}, {}};
    const QByteArray allowed = allowOrigin(request.header("origin"));
    // Caches must keep answers for different origins apart, admitted or not.
    r.withHeader("Vary", "Origin");
    if (allowed.isEmpty())
        return r;
    return r.withHeader("Access-Control-Allow-Origin", allowed)
        .withHeader("Access-Control-Allow-Methods", methods.join(", "))
        .withHeader("Access-Control-Allow-Headers", "Authorization, Content-Type")
        .withHeader("Access-Control-Max-Age", QByteArray::number(m_maxAgeSeconds));
}

QList<QPair<QByteArray, QByteArray>> CorsPolicy::responseHeaders(const HttpRequest &request) const
{
    if (!enabled())
        return {};
    const QByteArray allowed = allowOrigin(request.header("origin"));
    if (allowed.isEmpty())
        return {{"Vary", "Origin"}};
    return {{"Access-Control-Allow-Origin", allowed},
            {"Access-Control-Expose-Headers", "Retry-After, Server-Timing, ETag, X-Cache, Content-Length"},
            {"Vary", "Origin"}};
}

} // namespace imprint::http
