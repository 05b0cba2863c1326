// GET /api/v1/patterns (the pattern catalog) and GET /api/v1/metrics (render and cache
// counters since start, as JSON or in the Prometheus text format).
#include "server/http/problem.h"
#include "server/http/render_api.h"
#include "server/net/remote_image_fetcher.h"

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

namespace {

/// Whether `a` equals `b`, in time that depends on their lengths only (a token check a
/// timing attack cannot walk byte by byte).
bool sameBytes(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

/// One counter family with a sample per label value (or one unlabelled sample).
QByteArray counterFamily(const QByteArray &name, const QByteArray &help, const QByteArray &label,
                         const QList<QPair<QByteArray, double>> &samples)
{
    QByteArray out = "# HELP " + name + ' ' + help + "\n# TYPE " + name + " counter\n";
    for (const auto &[value, n] : samples)
        out += name + (label.isEmpty() ? QByteArray() : '{' + label + "=\"" + value + "\"}") + ' '
               + common::prometheusNumber(n) + '\n';
    return out;
}

} // namespace

QByteArray RenderApi::prometheusMetrics() const
{
    const service::PatternRenderStats patterns = m_patterns.stats();
    QByteArray out = m_requestMetrics ? m_requestMetrics->prometheusText() : QByteArray();
    out += m_renderDurations.prometheusText(
        "imprint_render_duration_seconds",
        "Time a render took in the pipeline (parse, layout, paint, encode), by engine; pattern renders as "
        "\"pattern\". Renders reused from an identical one are not counted.",
        {"engine"});
    out += m_stageDurations.prometheusText(
        "imprint_render_stage_duration_seconds",
        "Time of each stage of a page render: auth (API token check), load (page and template), parse, layout, "
        "paint, encode, store (stored file and row, output=json). A render reused from an identical one counts "
        "only auth and load.",
        {"stage"});
    out += counterFamily("imprint_renders_executed_total", "Renders computed.", {},
                         {{{}, double(patterns.executed + m_pages.executed())}});
    out += counterFamily("imprint_renders_shared_total", "Renders answered by an identical render.", {},
                         {{{}, double(patterns.shared + m_pages.shared())}});
    out += counterFamily(
        "imprint_pattern_cache_lookups_total", "Pattern cache lookups by result.", "result",
        {{"hit", double(patterns.hits)}, {"miss", double(patterns.misses)}, {"bypass", double(patterns.bypass)}});
    out += counterFamily("imprint_signed_urls_total", "Signed render URL requests by outcome.", "result",
                         {{"served", double(m_signedServed.load())},
                          {"not_modified", double(m_signedNotModified.load())},
                          {"invalid", double(m_signing.invalidCount())},
                          {"expired", double(m_signing.expiredCount())}});
    // PostgreSQL only (docs/deployment.md, "Several instances"): whether this instance
    // hears other instances' publishes right now, and how many it heard.
    if (m_changes) {
        out += "# HELP imprint_change_feed_connected 1 while the LISTEN connection of the change feed is open, "
               "0 while publish caches fall back to their TTL.\n# TYPE imprint_change_feed_connected gauge\n"
               "imprint_change_feed_connected "
               + QByteArray(m_changes->isLive() ? "1" : "0") + '\n';
        out += counterFamily("imprint_change_feed_notifications_total",
                             "Change notifications (publishes, page deletes) received from any instance.", {},
                             {{{}, double(m_changes->notificationsReceived())}});
        out += counterFamily("imprint_change_feed_connects_total",
                             "Times the change feed's LISTEN connection was opened (1 + reconnects).", {},
                             {{{}, double(m_changes->connects())}});
    }
    return out;
}

HttpResponse RenderApi::metrics(const HttpRequest &request) const
{
    const QByteArray token = m_config.metricsToken().toUtf8();
    if (!token.isEmpty()) {
        const QByteArray auth = request.header("authorization");
        const bool bearer = auth.left(7).toLower() == "bearer ";
        if (!bearer || !sameBytes(auth.mid(7).trimmed(), token))
            return problem(401, bearer ? QStringLiteral("invalid_token") : QStringLiteral("missing_token"),
                           QStringLiteral(
                               "GET /metrics needs the metrics token: Authorization: Bearer <http.metricsToken>."))
                .withHeader("WWW-Authenticate", "Bearer")
                .withHeader("Cache-Control", "no-store");
    }
    // The Prometheus text format when asked for by parameter or by Accept (what
    // Prometheus sends), JSON otherwise, as before.
    const auto format = request.queryValue(QStringLiteral("format"));
    if (format && *format != QLatin1String("prometheus") && *format != QLatin1String("json"))
        return fieldProblem(400, QStringLiteral("invalid_parameter"), QStringLiteral("format"),
                            QStringLiteral("'format' of /metrics must be prometheus or json."));
    const bool prometheus
        = format ? *format == QLatin1String("prometheus") : request.header("accept").contains("text/plain");
    if (prometheus)
        return HttpResponse::bytes(200, "text/plain; version=0.0.4; charset=utf-8", prometheusMetrics())
            .withHeader("Cache-Control", "no-store");

    const service::PatternRenderStats patterns = m_patterns.stats();
    const render::RenderContextStats context = m_renderContext.stats();
    QJsonObject images = cacheJson(context.images, QStringLiteral("capacityBytes"));
    images.insert(QStringLiteral("bytes"), double(context.images.bytes));
    QJsonObject text = cacheJson(context.textShaping, QStringLiteral("capacityPerThread"));
    text.remove(QStringLiteral("entries")); // held per render thread, not summed
    QJsonObject canvases = cacheJson(context.canvases, QStringLiteral("capacityBytes"));
    canvases.insert(QStringLiteral("bytes"), double(context.canvases.bytes));
    // Remote images (docs/remote-images.md): how often the network was spared or used.
    QJsonObject remote;
    if (m_imageFetcher) {
        const net::RemoteImageStats s = m_imageFetcher->stats();
        remote = QJsonObject{{QStringLiteral("requests"), double(s.requests)},
                             {QStringLiteral("memoryHits"), double(s.memoryHits)},
                             {QStringLiteral("diskHits"), double(s.diskHits)},
                             {QStringLiteral("downloads"), double(s.downloads)},
                             {QStringLiteral("notModified"), double(s.notModified)},
                             {QStringLiteral("failures"), double(s.failures)}};
    }
    QJsonObject body{
        {QStringLiteral("remoteImages"), remote},
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
        {QStringLiteral("signedUrls"), QJsonObject{{QStringLiteral("served"), double(m_signedServed.load())},
                                                   {QStringLiteral("notModified"), double(m_signedNotModified.load())},
                                                   {QStringLiteral("invalid"), double(m_signing.invalidCount())},
                                                   {QStringLiteral("expired"), double(m_signing.expiredCount())}}},
        {QStringLiteral("renderCaches"),
         QJsonObject{{QStringLiteral("images"), images},
                     {QStringLiteral("emoji"), cacheJson(context.emoji, QStringLiteral("capacity"))},
                     {QStringLiteral("textShaping"), text},
                     {QStringLiteral("canvases"), canvases}}},
    };
    if (m_changes)
        body.insert(QStringLiteral("changeFeed"),
                    QJsonObject{{QStringLiteral("connected"), m_changes->isLive()},
                                {QStringLiteral("notifications"), double(m_changes->notificationsReceived())},
                                {QStringLiteral("connects"), double(m_changes->connects())}});
    return HttpResponse::json(200, body).withHeader("Cache-Control", "no-store");
}

} // namespace imprint::http
