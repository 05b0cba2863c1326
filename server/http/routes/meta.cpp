// GET /health, GET /metrics (render and cache counters since start, as JSON or in the
// Prometheus text format) and GET /openapi.json (meta.h).
#include "server/http/routes/meta.h"

#include "server/http/problem.h"
#include "server/net/remote_image_fetcher.h"

#include <QJsonArray>

namespace imprint::http {

MetaRoutes::MetaRoutes(const store::Database &db, store::Config config, RouteSettings settings,
                       MetricsSources sources)
    : m_db(db)
    , m_config(std::move(config))
    , m_settings(std::move(settings))
    , m_sources(sources)
{ }

void MetaRoutes::registerRoutes(Router &router)
{
    addRoutes(router, {
        onServerThread("GET", QStringLiteral("/health"), [this](const HttpRequest &) { return health(); }),
        onServerThread("GET", QStringLiteral("/metrics"), [this](const HttpRequest &r) { return metrics(r); }),
        onServerThread("GET", QStringLiteral("/openapi.json"),
                       [](const HttpRequest &) {
                           return HttpResponse::bytes(200, "application/json", openApiDocument());
                       }),
    });
}

void MetaRoutes::addHealthCheck(const QString &name, std::function<HealthCheck()> check)
{
    m_healthChecks.emplace_back(name, std::move(check));
}

HttpResponse MetaRoutes::health() const
{
    bool ok = m_db.ping();
    QJsonObject state{
        {QStringLiteral("version"), QStringLiteral(IMPRINT_VERSION)},
        {QStringLiteral("database"), ok ? QStringLiteral("ok") : QStringLiteral("unavailable")},
    };
    for (const auto &[name, check] : m_healthChecks) {
        const HealthCheck c = check();
        state.insert(name, c.state);
        ok = ok && c.healthy;
    }
    const bool dbOk = ok;
    state.insert(QStringLiteral("status"), ok ? QStringLiteral("ok") : QStringLiteral("degraded"));
    // The envelope of every other route, and the same members at the top level, where
    // probes written before it look (docs/api.md). A 503 is not a failed request of the
    // caller's, so it is no problem+json: load balancers read the status, people the state.
    QJsonObject body = state;
    body.insert(QStringLiteral("success"), dbOk);
    body.insert(QStringLiteral("data"), state);
    return HttpResponse::json(dbOk ? 200 : 503, body);
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

QByteArray MetaRoutes::prometheusMetrics() const
{
    const service::PatternRenderStats patterns = m_sources.patterns.stats();
    QByteArray out = m_requestMetrics ? m_requestMetrics->prometheusText() : QByteArray();
    out += m_sources.renders.renderDurations.prometheusText(
        "imprint_render_duration_seconds",
        "Time a render took in the pipeline (parse, layout, paint, encode), by engine; pattern renders as "
        "\"pattern\". Renders reused from an identical one are not counted.",
        {"engine"});
    out += m_sources.renders.stageDurations.prometheusText(
        "imprint_render_stage_duration_seconds",
        "Time of each stage of a page render: auth (API token check), load (page and template), parse, layout, "
        "paint, encode, store (stored file and row, output=json). A render reused from an identical one counts "
        "only auth and load.",
        {"stage"});
    out += counterFamily("imprint_renders_executed_total", "Renders computed.", {},
                         {{{}, double(patterns.executed + m_sources.pages.executed())}});
    out += counterFamily("imprint_renders_shared_total", "Renders answered by an identical render.", {},
                         {{{}, double(patterns.shared + m_sources.pages.shared())}});
    out += counterFamily(
        "imprint_pattern_cache_lookups_total", "Pattern cache lookups by result.", "result",
        {{"hit", double(patterns.hits)}, {"miss", double(patterns.misses)}, {"bypass", double(patterns.bypass)}});
    out += counterFamily("imprint_signed_urls_total", "Signed render URL requests by outcome.", "result",
                         {{"served", double(m_sources.renders.signedServed.load())},
                          {"not_modified", double(m_sources.renders.signedNotModified.load())},
                          {"invalid", double(m_sources.signing.invalidCount())},
                          {"expired", double(m_sources.signing.expiredCount())}});
    // Webhooks (docs/api.md, "Webhooks"): attempts by what became of them, and their latency.
    if (m_sources.webhooks) {
        const service::WebhookDeliveryStats w = m_sources.webhooks->stats();
        out += counterFamily("imprint_webhook_deliveries_total",
                             "Webhook delivery attempts by outcome: delivered (2xx), retrying (failed, another "
                             "attempt scheduled), failed (given up).",
                             "status",
                             {{"delivered", double(w.delivered)},
                              {"retrying", double(w.retrying)},
                              {"failed", double(w.failed)}});
        out += m_sources.webhooks->latencies().prometheusText(
            "imprint_webhook_attempt_duration_seconds",
            "Time of a webhook delivery attempt (DNS, connect, answer), by result.", {"result"});
    }
    // PostgreSQL only (docs/deployment.md, "Several instances"): whether this instance
    // hears other instances' publishes right now, and how many it heard.
    if (m_sources.changes) {
        out += "# HELP imprint_change_feed_connected 1 while the LISTEN connection of the change feed is open, "
               "0 while publish caches fall back to their TTL.\n# TYPE imprint_change_feed_connected gauge\n"
               "imprint_change_feed_connected "
               + QByteArray(m_sources.changes->isLive() ? "1" : "0") + '\n';
        out += counterFamily("imprint_change_feed_notifications_total",
                             "Change notifications (publishes, page deletes) received from any instance.", {},
                             {{{}, double(m_sources.changes->notificationsReceived())}});
        out += counterFamily("imprint_change_feed_connects_total",
                             "Times the change feed's LISTEN connection was opened (1 + reconnects).", {},
                             {{{}, double(m_sources.changes->connects())}});
    }
    for (const MetricsSection &section : m_metricSections)
        out += section.prometheus();
    return out;
}

HttpResponse MetaRoutes::metrics(const HttpRequest &request) const
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

    const service::PatternRenderStats patterns = m_sources.patterns.stats();
    const render::RenderContextStats context = m_sources.renderContext.stats();
    QJsonObject images = cacheJson(context.images, QStringLiteral("capacityBytes"));
    images.insert(QStringLiteral("bytes"), double(context.images.bytes));
    QJsonObject text = cacheJson(context.textShaping, QStringLiteral("capacityPerThread"));
    text.remove(QStringLiteral("entries")); // held per render thread, not summed
    QJsonObject canvases = cacheJson(context.canvases, QStringLiteral("capacityBytes"));
    canvases.insert(QStringLiteral("bytes"), double(context.canvases.bytes));
    // Remote images (docs/remote-images.md): how often the network was spared or used.
    QJsonObject remote;
    if (m_sources.imageFetcher) {
        const net::RemoteImageStats s = m_sources.imageFetcher->stats();
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
         QJsonObject{{QStringLiteral("executed"), double(patterns.executed + m_sources.pages.executed())},
                     {QStringLiteral("shared"), double(patterns.shared + m_sources.pages.shared())}}},
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
         QJsonObject{{QStringLiteral("served"), double(m_sources.renders.signedServed.load())},
                     {QStringLiteral("notModified"), double(m_sources.renders.signedNotModified.load())},
                     {QStringLiteral("invalid"), double(m_sources.signing.invalidCount())},
                     {QStringLiteral("expired"), double(m_sources.signing.expiredCount())}}},
        {QStringLiteral("renderCaches"),
         QJsonObject{{QStringLiteral("images"), images},
                     {QStringLiteral("emoji"), cacheJson(context.emoji, QStringLiteral("capacity"))},
                     {QStringLiteral("textShaping"), text},
                     {QStringLiteral("canvases"), canvases}}},
    };
    if (m_sources.webhooks) {
        const service::WebhookDeliveryStats w = m_sources.webhooks->stats();
        body.insert(QStringLiteral("webhooks"), QJsonObject{{QStringLiteral("delivered"), double(w.delivered)},
                                                            {QStringLiteral("retrying"), double(w.retrying)},
                                                            {QStringLiteral("failed"), double(w.failed)}});
    }
    if (m_sources.changes)
        body.insert(QStringLiteral("changeFeed"),
                    QJsonObject{{QStringLiteral("connected"), m_sources.changes->isLive()},
                                {QStringLiteral("notifications"), double(m_sources.changes->notificationsReceived())},
                                {QStringLiteral("connects"), double(m_sources.changes->connects())}});
    for (const MetricsSection &section : m_metricSections)
        body.insert(section.name, section.json());
    return HttpResponse::json(200, body).withHeader("Cache-Control", "no-store");
}

} // namespace imprint::http
