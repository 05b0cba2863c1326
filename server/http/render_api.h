#pragma once
// The render API:
//   POST/GET /api/v1/render       pattern renders and page renders (one path, told apart
//                                  by `pattern` vs `pageId`; both or neither → 400); a GET
//                                  with `sig` is a signed URL, authorised by its signature
//   GET  /api/v1/patterns         the pattern catalog
//   GET  /api/v1/files/{sha256}.{ext}  content-addressed stored renders
//   GET/POST /api/v1/templates, GET/PUT/DELETE /api/v1/templates/{id}
//   GET/POST /api/v1/pages, GET/PUT/DELETE /api/v1/pages/{id}, POST /api/v1/pages/{id}/publish
//   POST/GET /api/v1/fonts, DELETE /api/v1/fonts/{id}     a space's uploaded font faces
//   POST/GET /api/v1/assets, DELETE /api/v1/assets/{id}   a space's uploaded images
//   GET  /api/v1/metrics          render counters (renders.executed, cache hits, ...)
//   GET  /api/v1/openapi.json     OpenAPI 3.1 of every route (openapi.cpp)
// Route handlers live in routes/ (render, content, files, meta); render_api.cpp holds the
// route table and the settings.
//
// Data flow: HttpRequest → RenderApi::Params (request DTO, parsed and validated on the server
// thread) → auth, rate limit, plan check → worker pool (respondAsync) → load page/template
// (publish cache or live rows) → render::render() → FileStore → HttpResponse.

#include "server/common/histogram.h"
#include "server/common/lru_cache.h"
#include "server/common/rate_limiter.h"
#include "server/common/single_flight.h"
#include "server/http/auth.h"
#include "server/http/request_metrics.h"
#include "server/http/router.h"
#include "server/patterns/patterns.h"
#include "server/render/pipeline.h"
#include "server/service/account_service.h"
#include "server/service/api_key_service.h"
#include "server/service/content_service.h"
#include "server/service/idempotency_service.h"
#include "server/service/page_render_service.h"
#include "server/service/pattern_render_service.h"
#include "server/service/render_rate_limiter.h"
#include "server/service/signing_key_service.h"
#include "server/service/upload_service.h"
#include "server/store/change_feed.h"
#include "server/store/config.h"
#include "server/store/database.h"
#include "server/store/file_store.h"

#include <QCache>
#include <QJsonObject>

#include <atomic>
#include <memory>

namespace imprint::net {
class RemoteImageFetcher;
}

namespace imprint::http {

/// Tunables of the render API, read from the config's "render" section.
struct RenderApiSettings {
    qint64 patternCacheBytes = 64LL * 1024 * 1024; ///< render.patternCacheBytes
    double rateLimitPerSecond = 20; ///< render.rateLimit.perSecond (0 = off)
    double rateLimitBurst = 40; ///< render.rateLimit.burst
    int publishCacheEntries = 1000; ///< render.publishCache.entries
    int publishCacheTtlMs = 5000; ///< render.publishCache.ttlMs (other instances' publishes)
    QString publicBaseUrl; ///< render.publicBaseUrl; empty = from the Host header
    int signedUrlMaxAgeSeconds = 86400; ///< render.signedUrl.maxAgeSeconds: max-age of a signed URL without exp

    /// The settings of `config` (missing keys keep the defaults above).
    static RenderApiSettings fromConfig(const store::Config &config);
};

/// The render, content, file and meta routes and the state behind them (caches, counters). Keep it alive
/// longer than the HttpServer whose router it fills (jobs on the pool use it).
class RenderApi
{
public:
    /// `dataDir` holds files/ (stored renders). `catalog` is the pattern catalog
    /// (render::PatternCatalog::loadDefault() in the server). Page renders use
    /// `renderContext`, whose cache counters GET /api/v1/metrics reports; it must outlive this.
    /// `imageFetcher` (may be null; must outlive this) fetches remote image sources.
    RenderApi(const store::Database &db, store::Config config, QString dataDir, render::PatternCatalog catalog,
              render::RenderContext &renderContext, net::RemoteImageFetcher *imageFetcher = nullptr);
    ~RenderApi();

    /// The HTTP answer counts GET /metrics reports in its Prometheus form (the server's,
    /// HttpServer::requestMetrics()); null = none. It must outlive this.
    void setRequestMetrics(const RequestMetrics *metrics) { m_requestMetrics = metrics; }
    /// API key last-use times and render-log rows go through `writer`
    /// (server/service/write_behind.h), which must outlive this.
    void setWriteBehind(service::WriteBehind *writer);

    /// Adds every route listed at the top of this file to `router`.
    void registerRoutes(Router &router);

    /// The OpenAPI 3.1 document of the whole service (openapi.cpp). `serverUrl` goes to
    /// `servers[0].url` when not empty.
    static QJsonObject openApiDocument(const QString &serverUrl = {});

    struct Params; // the parsed render request (routes/render.cpp)

private:
    void handleRender(HttpRequest &&request, Responder &&responder);
    void renderPattern(const HttpRequest &request, const Params &params, Responder &&responder);
    void renderPage(const HttpRequest &request, const Params &params, Responder &&responder);
    void renderSigned(HttpRequest &&request, Responder &&responder);
    HttpResponse signedWork(const HttpRequest &request, const QList<QByteArray> &knownTags,
                            const render::RenderCancellation &cancellation);
    HttpResponse pageWork(const Params &params, const store::ApiKeyPrincipal &principal, const QString &baseUrl,
                          const render::RenderCancellation &cancellation);
    HttpResponse patterns() const;
    HttpResponse file(const HttpRequest &request) const;
    HttpResponse metrics(const HttpRequest &request) const;
    QByteArray prometheusMetrics() const;

    // templates and pages (routes/content.cpp)
    HttpResponse listTemplates(const SessionContext &session, const HttpRequest &request);
    HttpResponse createTemplate(const SessionContext &session, const HttpRequest &request);
    HttpResponse getTemplate(const SessionContext &session, const HttpRequest &request);
    HttpResponse updateTemplate(const SessionContext &session, const HttpRequest &request);
    HttpResponse deleteTemplate(const SessionContext &session, const HttpRequest &request);
    HttpResponse listPages(const SessionContext &session, const HttpRequest &request);
    HttpResponse createPage(const SessionContext &session, const HttpRequest &request);
    HttpResponse getPage(const SessionContext &session, const HttpRequest &request);
    HttpResponse updatePage(const SessionContext &session, const HttpRequest &request);
    HttpResponse deletePage(const SessionContext &session, const HttpRequest &request);
    HttpResponse publishPage(const SessionContext &session, const HttpRequest &request);

    // fonts and assets (routes/uploads.cpp)
    HttpResponse uploadFont(const SessionContext &session, const HttpRequest &request);
    HttpResponse listFonts(const SessionContext &session, const HttpRequest &request);
    HttpResponse deleteFont(const SessionContext &session, const HttpRequest &request);
    HttpResponse uploadAsset(const SessionContext &session, const HttpRequest &request);
    HttpResponse listAssets(const SessionContext &session, const HttpRequest &request);
    HttpResponse deleteAsset(const SessionContext &session, const HttpRequest &request);

    QString baseUrlFor(const HttpRequest &request) const;

    const store::Database &m_db;
    store::Config m_config;
    RenderApiSettings m_settings;
    QString m_dataDir;
    service::AccountService m_accounts;
    service::ApiKeyService m_keys;
    service::ContentService m_content;
    service::IdempotencyService m_idempotency;
    store::FileStore m_files;
    service::RenderRateLimiter m_rateLimiter;

    service::PatternRenderService m_patterns;
    render::RenderContext &m_renderContext;
    net::RemoteImageFetcher *m_imageFetcher = nullptr; ///< may be null; its counters are in GET /metrics
    service::PageRenderService m_pages;
    service::FontService m_fontUploads;
    service::AssetService m_assetUploads;
    service::SigningKeyService m_signing; // verifies signed URLs; counts refusals for /metrics
    std::atomic<quint64> m_signedServed{0};
    std::atomic<quint64> m_signedNotModified{0};
    // Render latency per engine ("pattern" for pattern renders), for /metrics.
    common::LabeledHistograms m_renderDurations;
    // Page renders per stage (auth, load, parse, layout, paint, encode, store), finer
    // buckets than the request histogram: most stages take well under a millisecond.
    common::LabeledHistograms m_stageDurations{
        {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}};
    /// Records a page render's own stages (ms) in m_stageDurations; a reused render
    /// did only its load.
    void observeStages(const service::PageRender &rendered);
    const RequestMetrics *m_requestMetrics = nullptr;

    Router *m_router = nullptr;
    // With PostgreSQL: other instances' publishes (LISTEN/NOTIFY). Last, so it stops
    // before the caches its handlers touch are destroyed.
    std::unique_ptr<store::ChangeFeed> m_changes;
};

} // namespace imprint::http
