// The RenderApi: its settings, its services and the table of its routes. The handlers
// are in routes/ (render, content, files, meta).
#include "server/http/render_api.h"

#include "server/http/idempotency.h"

#include "server/service/content_validation.h"

#include <QRegularExpression>

namespace imprint::http {

namespace {

const QString kApi = QStringLiteral("/api/v1");

} // namespace

// ---------------------------------------------------------------- settings

RenderApiSettings RenderApiSettings::fromConfig(const store::Config &config)
{
    RenderApiSettings s;
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

// ---------------------------------------------------------------- RenderApi

RenderApi::RenderApi(const store::Database &db, store::Config config, QString dataDir, render::PatternCatalog catalog,
                     render::RenderContext &renderContext, net::RemoteImageFetcher *imageFetcher)
    : m_db(db)
    , m_config(config)
    , m_settings(RenderApiSettings::fromConfig(config))
    , m_dataDir(std::move(dataDir))
    , m_accounts(db, config)
    , m_keys(db)
    , m_content(service::contentService(db))
    , m_idempotency(db)
    , m_files(store::FileStore::forDataDir(db, config, m_dataDir))
    , m_rateLimiter(db, m_settings.rateLimitPerSecond, m_settings.rateLimitBurst)
    , m_patterns(db, config, std::move(catalog), m_files, m_settings.patternCacheBytes)
    , m_renderContext(renderContext)
    , m_imageFetcher(imageFetcher)
    , m_pages(db, config, m_files, renderContext,
              service::PageRenderSettings{m_settings.publishCacheEntries, m_settings.publishCacheTtlMs}, imageFetcher)
    , m_fontUploads(db, m_files)
    , m_assetUploads(db, config, m_files)
    , m_signing(db, m_dataDir)
{
    // A publish or delete through these routes is visible to the next render here at once;
    // other instances sharing a PostgreSQL database drop their copy when the change feed
    // tells them, or within the cache TTL while the feed is down.
    m_content.setSnapshotListener([this](const QString &pageId) { m_pages.forgetPublished(pageId); });
    if (!db.isSqlite()) {
        m_changes = std::make_unique<store::ChangeFeed>(
            db.settings(),
            [this](const QString &kind, const QString &id) {
                if (kind == QLatin1String("page"))
                    m_pages.forgetPublished(id);
            },
            [this](bool live) { m_pages.setPublishFeedLive(live); });
    }
}

RenderApi::~RenderApi() = default;

void RenderApi::setWriteBehind(service::WriteBehind *writer)
{
    m_keys.setWriteBehind(writer);
    m_pages.setWriteBehind(writer);
    m_patterns.setWriteBehind(writer);
}

void RenderApi::registerRoutes(Router &router)
{
    m_router = &router;
    auto renderRoute = [this](HttpRequest &&r, Responder &&resp) { handleRender(std::move(r), std::move(resp)); };
    router.addWithResponder("POST", kApi + QStringLiteral("/render"), renderRoute);
    router.addWithResponder("GET", kApi + QStringLiteral("/render"), renderRoute);
    router.add("GET", kApi + QStringLiteral("/patterns"), [this](const HttpRequest &) { return patterns(); });
    router.addOffloaded("GET", kApi + QStringLiteral("/files/{name}"),
                        [this](const HttpRequest &r) { return file(r); });
    router.add("GET", kApi + QStringLiteral("/metrics"), [this](const HttpRequest &r) { return metrics(r); });
    router.add("GET", kApi + QStringLiteral("/openapi.json"),
               [this](const HttpRequest &r) { return HttpResponse::json(200, openApiDocument(baseUrlFor(r))); });

    // Content is managed by the roles the content use case names (every role: members are
    // the editors); key management is stricter (api.cpp). An API key with the "content"
    // scope may call them too (pipelines that publish). Content routes parse and validate
    // templates and markup: on the workers, never on the server thread.
    auto contentRoute = [this](SessionHandler handler) {
        return withSessionOrKey(m_accounts, m_keys, service::ContentService::editorRoles(), QStringLiteral("content"),
                                std::move(handler));
    };
    // The routes that create take an Idempotency-Key, so a client may retry them safely.
    auto once = [this](const QString &route, SessionHandler handler) {
        return withIdempotency(m_idempotency, route, std::move(handler));
    };
    router.addOffloaded(
        "GET", kApi + QStringLiteral("/templates"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return listTemplates(s, r); }));
    router.addOffloaded(
        "POST", kApi + QStringLiteral("/templates"),
        contentRoute(once(QStringLiteral("POST /templates"),
                          [this](const SessionContext &s, const HttpRequest &r) { return createTemplate(s, r); })));
    router.addOffloaded(
        "GET", kApi + QStringLiteral("/templates/{id}"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return getTemplate(s, r); }));
    router.addOffloaded(
        "PUT", kApi + QStringLiteral("/templates/{id}"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return updateTemplate(s, r); }));
    router.addOffloaded(
        "DELETE", kApi + QStringLiteral("/templates/{id}"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return deleteTemplate(s, r); }));
    router.addOffloaded(
        "GET", kApi + QStringLiteral("/pages"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return listPages(s, r); }));
    router.addOffloaded(
        "POST", kApi + QStringLiteral("/pages"),
        contentRoute(once(QStringLiteral("POST /pages"),
                          [this](const SessionContext &s, const HttpRequest &r) { return createPage(s, r); })));
    router.addOffloaded("GET", kApi + QStringLiteral("/pages/{id}"),
                        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return getPage(s, r); }));
    router.addOffloaded(
        "PUT", kApi + QStringLiteral("/pages/{id}"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return updatePage(s, r); }));
    router.addOffloaded(
        "DELETE", kApi + QStringLiteral("/pages/{id}"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return deletePage(s, r); }));
    router.addOffloaded(
        "POST", kApi + QStringLiteral("/pages/{id}/publish"),
        contentRoute(once(QStringLiteral("POST /pages/{id}/publish"),
                          [this](const SessionContext &s, const HttpRequest &r) { return publishPage(s, r); })));

    // A space's fonts and images: content like templates (same roles, the "content" scope),
    // validated (decoded) on the workers.
    router.addOffloaded(
        "POST", kApi + QStringLiteral("/fonts"),
        contentRoute(once(QStringLiteral("POST /fonts"),
                          [this](const SessionContext &s, const HttpRequest &r) { return uploadFont(s, r); })));
    router.addOffloaded(
        "GET", kApi + QStringLiteral("/fonts"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return listFonts(s, r); }));
    router.addOffloaded(
        "DELETE", kApi + QStringLiteral("/fonts/{id}"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return deleteFont(s, r); }));
    router.addOffloaded(
        "POST", kApi + QStringLiteral("/assets"),
        contentRoute(once(QStringLiteral("POST /assets"),
                          [this](const SessionContext &s, const HttpRequest &r) { return uploadAsset(s, r); })));
    router.addOffloaded(
        "GET", kApi + QStringLiteral("/assets"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return listAssets(s, r); }));
    router.addOffloaded(
        "DELETE", kApi + QStringLiteral("/assets/{id}"),
        contentRoute([this](const SessionContext &s, const HttpRequest &r) { return deleteAsset(s, r); }));
}

QString RenderApi::baseUrlFor(const HttpRequest &request) const
{
    if (!m_settings.publicBaseUrl.isEmpty())
        return m_settings.publicBaseUrl;
    // The Host header as the client sent it, when it looks like host[:port]; otherwise a
    // relative URL (still fetchable from the same origin).
    static const QRegularExpression hostRe(QStringLiteral("^[A-Za-z0-9.\\-\\[\\]:]{1,255}$"));
    const QString host = QString::fromLatin1(request.header("host"));
    if (!hostRe.match(host).hasMatch())
        return {};
    return QStringLiteral("http://") + host;
}

} // namespace imprint::http
