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

bool prefersRespondAsync(const HttpRequest &request)
{
    // Preferences are comma-separated, each a token with an optional value and parameters.
    for (const QByteArray &preference : request.header("prefer").split(',')) {
        if (preference.split(';').first().split('=').first().trimmed().toLower() == "respond-async")
            return true;
    }
    return false;
}

} // namespace imprint::http
