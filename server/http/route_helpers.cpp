// The settings the route modules read and the public base URL of a request
// (route_helpers.h).
#include "server/http/route_helpers.h"

#include <QRegularExpression>

namespace imprint::http {

RouteSettings RouteSettings::fromConfig(const store::Config &config)
{
    RouteSettings s;
    const QJsonObject r = config.json().value(QStringLiteral("render")).toObject();
    s.patternCacheBytes = config.patternCacheBytes();
    const QJsonObject rate = r.value(QStringLiteral("rateLimit")).toObject();
    s.rateLimitPerSecond = rate.value(QStringLiteral("perSecond")).toDouble(s.rateLimitPerSecond);
    s.rateLimitBurst = rate.value(QStringLiteral("burst")).toDouble(s.rateLimitBurst);
    const QJsonObject pub = r.value(QStringLiteral("publishCache")).toObject();
    s.publishCacheEntries = pub.value(QStringLiteral("entries")).toInt(s.publishCacheEntries);
    s.publishCacheTtlMs = pub.value(QStringLiteral("ttlMs")).toInt(s.publishCacheTtlMs);
    s.publicBaseUrl = r.value(QStringLiteral("publicBaseUrl")).toString();
    s.signedUrlMaxAgeSeconds = std::max(0, r.value(QStringLiteral("signedUrl"))
                                               .toObject()
                                               .value(QStringLiteral("maxAgeSeconds"))
                                               .toInt(s.signedUrlMaxAgeSeconds));
    while (s.publicBaseUrl.endsWith(QLatin1Char('/')))
        s.publicBaseUrl.chop(1);
    return s;
}

QString baseUrlFor(const HttpRequest &request, const RouteSettings &settings)
{
    if (!settings.publicBaseUrl.isEmpty())
        return settings.publicBaseUrl;
    // The Host header as the client sent it, when it looks like host[:port]; otherwise a
    // relative URL (still fetchable from the same origin).
    static const QRegularExpression hostRe(QStringLiteral("^[A-Za-z0-9.\\-\\[\\]:]{1,255}$"));
    const QString host = QString::fromLatin1(request.header("host"));
    if (!hostRe.match(host).hasMatch())
        return {};
    return QStringLiteral("http://") + host;
}

} // namespace imprint::http
