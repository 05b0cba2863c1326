// GET /api/v1/patterns (the pattern catalog) and GET /api/v1/metrics (render and cache
// counters since start).
#include "server/http/render_api.h"

#include <QJsonArray>

namespace imprint::http {

HttpResponse RenderApi::patterns() const
{
    QJsonArray list;
    for (const render::PatternInfo &info : m_patterns.catalog().patterns()) {
        QJsonArray variants;
        for (const render::PatternVariant &v : info.variants) {
            QJsonObject colors;
            for (auto it = v.colors.begin(); it != v.colors.end(); ++it)
                colors.insert(it.key(), it.value().name());
            variants.append(QJsonObject{{QStringLiteral("key"), v.key},
                                        {QStringLiteral("name"), v.name},
                                        {QStringLiteral("pattern"), info.key + QLatin1Char('-') + v.key},
                                        {QStringLiteral("colors"), colors}});
        }
        list.append(QJsonObject{
            {QStringLiteral("key"), info.key},
            {QStringLiteral("name"), info.name},
            {QStringLiteral("tileSize"), QJsonObject{{QStringLiteral("width"), info.tileSize.width()},
                                                     {QStringLiteral("height"), info.tileSize.height()}}},
            {QStringLiteral("defaultSize"), QJsonObject{{QStringLiteral("width"), info.defaultSize.width()},
                                                        {QStringLiteral("height"), info.defaultSize.height()}}},
            {QStringLiteral("variants"), variants},
        });
    }
    return HttpResponse::success(QJsonObject{{QStringLiteral("list"), list}, {QStringLiteral("count"), list.size()}})
        .withHeader("Cache-Control", "public, max-age=300");
}

namespace {

/// hits, misses and entries of a cache, plus its bound named as `capacityKey`.
QJsonObject cacheJson(const render::CacheStats &s, const QString &capacityKey)
{
    return QJsonObject{{QStringLiteral("hits"), double(s.hits)},
                       {QStringLiteral("misses"), double(s.misses)},
                       {QStringLiteral("entries"), double(s.entries)},
                       {capacityKey, double(s.capacity)}};
}

} // namespace

HttpResponse RenderApi::metrics() const
{
    const service::PatternRenderStats patterns = m_patterns.stats();
    const render::RenderContextStats context = m_renderContext.stats();
    QJsonObject images = cacheJson(context.images, QStringLiteral("capacityBytes"));
    images.insert(QStringLiteral("bytes"), double(context.images.bytes));
    QJsonObject text = cacheJson(context.textShaping, QStringLiteral("capacityPerThread"));
    text.remove(QStringLiteral("entries")); // held per render thread, not summed
    return HttpResponse::json(
               200,
               QJsonObject{
                   {QStringLiteral("renders"),
                    QJsonObject{{QStringLiteral("executed"), double(patterns.executed + m_pages.executed())},
                                {QStringLiteral("shared"), double(patterns.shared + m_pages.shared())}}},
                   {QStringLiteral("patternCache"),
                    QJsonObject{{QStringLiteral("hits"), double(patterns.hits)},
                                {QStringLiteral("misses"), double(patterns.misses)},
                                {QStringLiteral("bypass"), double(patterns.bypass)},
                                {QStringLiteral("entries"), patterns.entries},
                                {QStringLiteral("bytes"), double(patterns.bytes)},
                                {QStringLiteral("capacityBytes"), double(patterns.capacityBytes)}}},
                   // Signed URLs (docs/api.md): answers, revalidations, and refusals,
                   // which a spike of would show a leaked or guessed URL being tried.
                   {QStringLiteral("signedUrls"),
                    QJsonObject{{QStringLiteral("served"), double(m_signedServed.load())},
                                {QStringLiteral("notModified"), double(m_signedNotModified.load())},
                                {QStringLiteral("invalid"), double(m_signing.invalidCount())},
                                {QStringLiteral("expired"), double(m_signing.expiredCount())}}},
                   {QStringLiteral("renderCaches"),
                    QJsonObject{{QStringLiteral("images"), images},
                                {QStringLiteral("emoji"), cacheJson(context.emoji, QStringLiteral("capacity"))},
                                {QStringLiteral("textShaping"), text}}},
               })
        .withHeader("Cache-Control", "no-store");
}

} // namespace imprint::http
