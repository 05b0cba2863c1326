#pragma once
// The render routes:
//   POST/GET /api/v1/render    pattern renders and page renders (one path, told apart by
//                              `pattern` vs `pageId`; both or neither → 400); a GET with
//                              `sig` is a signed URL, authorised by its signature
//   GET  /api/v1/patterns      the pattern catalog
//
// Data flow: HttpRequest → RenderRoutes::Params (request DTO, parsed and validated on the
// server thread) → auth, rate limit, plan check → worker pool (respondAsync) → load
// page/template (publish cache or live rows) → render::render() → FileStore → HttpResponse.

#include "server/http/auth.h"
#include "server/http/render_metrics.h"
#include "server/http/render_usage.h"
#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/http/routes/render_params.h"
#include "server/service/api_key_service.h"
#include "server/service/page_render_service.h"
#include "server/service/pattern_render_service.h"
#include "server/service/render_rate_limiter.h"
#include "server/service/signing_key_service.h"
#include "server/store/config.h"

namespace imprint::http {

/// The render and pattern-catalog routes over the render use cases; every service and
/// `metrics` must outlive this.
class RenderRoutes : public RouteModule
{
public:
    /// `config` gives the render deadlines of the plans, `settings` the public base URL and
    /// the max-age of signed URLs; `keys` authenticates API tokens, `signing` signed URLs;
    /// the renders count into `metrics`.
    RenderRoutes(store::Config config, RouteSettings settings, service::ApiKeyService &keys,
                 service::RenderRateLimiter &rateLimiter, service::PatternRenderService &patterns,
                 service::PageRenderService &pages, service::SigningKeyService &signing, RenderMetrics &metrics);

    void registerRoutes(Router &router) override;

    /// What answers a page render that prefers respond-async (RFC 7240): the request,
    /// its fields as read, and its responder (server/http/routes/jobs.h queues a job).
    using AsyncRender = std::function<void(const HttpRequest &request, const QJsonObject &fields, Responder &&)>;
    /// Sets that handler; without one the preference is ignored (the image is answered).
    void setAsyncRender(AsyncRender handler) { m_asyncRender = std::move(handler); }

    /// Notes every render answered for a space (docs/api.md, "Usage") into `writer`
    /// (null: none), which must outlive this.
    void setUsageLog(service::WriteBehind *writer) { m_usage.setWriter(writer); }

    /// A page or inline render read from `fields` exactly as POST /render reads a body
    /// (a job item): the page render use case's request with storeFile set (spaceId, plan
    /// and cancellation left to the caller), or the 400 problem naming the field. A pattern
    /// render is refused (field `pattern`).
    static Outcome<service::PageRenderRequest> pageRequestOf(const QJsonObject &fields);

    using Params = RenderParams; // the parsed render request (render_params.h)

private:
    /// The route's handler, on any I/O thread: a pattern render from the query is
    /// answered there, everything else on the server's thread (onServerThread()).
    void handleRender(HttpRequest &&request, Responder &&responder);
    void answerRender(HttpRequest &&request, Responder &&responder);
    /// answerRender() for a request known to be no signed URL (no `sig` in a GET's query).
    void answerUnsigned(HttpRequest &&request, Responder &&responder);
    void renderPattern(const HttpRequest &request, const Params &params, Responder &&responder);
    void renderPage(const HttpRequest &request, const Params &params, Responder &&responder);
    void renderSigned(HttpRequest &&request, Responder &&responder);
    // The workers of signed and page renders; each fills in `note` (space, engine, cache
    // hit, image bytes) as it learns them, for the usage row of its answer.
    HttpResponse signedWork(const HttpRequest &request, const QList<QByteArray> &knownTags,
                            const render::RenderCancellation &cancellation, RenderUsageNote &note);
    HttpResponse pageWork(const Params &params, const store::ApiKeyPrincipal &principal, const QString &baseUrl,
                          const render::RenderCancellation &cancellation, RenderUsageNote &note);
    HttpResponse patterns() const;
    /// Records a page render's own stages (ms) in m_stageDurations; a reused render
    /// did only its load.
    void observeStages(const service::PageRender &rendered);
    QString baseUrlFor(const HttpRequest &request) const { return http::baseUrlFor(request, m_settings); }

    store::Config m_config;
    RouteSettings m_settings;
    service::ApiKeyService &m_keys;
    service::RenderRateLimiter &m_rateLimiter;
    service::PatternRenderService &m_patterns;
    service::PageRenderService &m_pages;
    service::SigningKeyService &m_signing; // verifies signed URLs; counts refusals for /metrics
    // The counters of RenderMetrics, under the names the handlers use.
    common::LabeledHistograms &m_renderDurations;
    common::LabeledHistograms &m_stageDurations;
    std::atomic<quint64> &m_signedServed;
    std::atomic<quint64> &m_signedNotModified;
    AsyncRender m_asyncRender;
    RenderUsageLog m_usage;
    RenderParamsMemo m_paramsMemo; // body-less GETs parsed once per query string
};

} // namespace imprint::http
