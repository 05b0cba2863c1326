#pragma once
// The composition root of the HTTP service over one opened data directory: the use cases,
// built once (Services), the route modules of server/http/routes/ over them, and the
// HttpServer they fill. `imprint serve`, the local desktop mode (`imprint` alone) and the
// console tests build it here, so all three answer the same routes and render with the
// same emoji sets.

#include "server/app/commands/cli.h"
#include "server/http/render_metrics.h"
#include "server/http/route_helpers.h"
#include "server/http/routes/auth.h"
#include "server/http/routes/content.h"
#include "server/http/routes/files.h"
#include "server/http/routes/jobs.h"
#include "server/http/routes/keys.h"
#include "server/http/routes/meta.h"
#include "server/http/routes/page_meta.h"
#include "server/http/routes/render.h"
#include "server/http/routes/signing_keys.h"
#include "server/http/routes/uploads.h"
#include "server/http/routes/usage.h"
#include "server/http/routes/webhooks.h"
#include "server/http/server.h"
#include "server/net/remote_image_fetcher.h"
#include "server/net/webhook_sender.h"
#include "server/service/webhook_dispatcher.h"
#include "server/service/write_behind.h"

#include <memory>

namespace imprint::app {

/// The HTTP limits of `config` (its "http" section: connections, timeouts, body size,
/// worker queue, workerThreads where 0 = one per core).
http::ServerLimits serverLimits(const store::Config &config);

/// auth.keyUsageFlushMs of `config`: how often API key last-use times and render-log rows
/// are written (ms, default 1000; docs/deployment.md). A clean stop writes them regardless.
int keyUsageFlushMs(const store::Config &config);

/// The render context of a server with this environment: emoji sets from DATA/emoji when
/// they were unpacked there (render::emojiDirectoryFor()), the html engine of
/// render.html.* (Chromium by default when it is installed), and `fetcher` (when not null,
/// it must outlive the context) answering the html engine's requests for http(s) images
/// under the remote image policy (docs/remote-images.md).
render::RenderContextOptions renderContextOptions(const Environment &env, net::RemoteImageFetcher *fetcher = nullptr);

/// The remote image fetcher of a server with this environment: the policy of `config`'s
/// render section (render.imageHostAllowlist, render.remoteImages.*) and the disk cache
/// in DATA/cache/remote-images.
std::unique_ptr<net::RemoteImageFetcher> remoteImageFetcher(const Environment &env);

/// The use cases of the HTTP service, each built once over one database, and the route
/// modules that answer over them, each handed only the services it calls. The one place
/// that knows every service; tests that need the real route table without a server (the
/// OpenAPI completeness check, the HTTP fuzz harness) build it too. Keep it alive longer
/// than the HttpServer whose router it filled.
class Services
{
public:
    /// `dataDir` holds files/ (stored renders and uploads) and the key that seals signing
    /// secrets. `catalog` is the pattern catalog. Page renders use `renderContext`, whose
    /// cache counters GET /metrics reports; `imageFetcher` (may be null) fetches remote
    /// image sources. Both must outlive this. With PostgreSQL, other instances' publishes
    /// reach the publish cache through a change feed started here.
    Services(const store::Database &db, const store::Config &config, const QString &dataDir,
             render::PatternCatalog catalog, render::RenderContext &renderContext,
             net::RemoteImageFetcher *imageFetcher = nullptr);
    ~Services();
    Services(const Services &) = delete;
    Services &operator=(const Services &) = delete;

    /// Adds every module's routes to `router`.
    void registerRoutes(http::Router &router);

    /// API key last-use times and render-log rows go through `writer`
    /// (server/service/write_behind.h), which must outlive this.
    void setWriteBehind(service::WriteBehind *writer);
    /// The HTTP answer counts GET /metrics reports (HttpServer::requestMetrics()).
    void setRequestMetrics(const http::RequestMetrics *metrics) { m_meta.setRequestMetrics(metrics); }
    /// Adds a component to GET /health's answer (http::MetaRoutes::addHealthCheck()).
    void addHealthCheck(const QString &name, std::function<http::MetaRoutes::HealthCheck()> check)
    {
        m_meta.addHealthCheck(name, std::move(check));
    }

    /// The job routes, whose runItem() renders the items of this instance's JobRunner.
    http::JobRoutes &jobRoutes() { return m_jobRoutes; }
    service::JobService &jobs() { return m_jobs; }
    /// Reports `runner`'s counters in GET /metrics (with the shared queue's gauges).
    void setJobRunner(const service::JobRunner *runner);

    service::AccountService &accounts() { return m_accounts; }
    service::ApiKeyService &keys() { return m_keys; }
    service::SigningKeyService &signingKeys() { return m_signingKeys; }
    /// Webhook endpoints and the outbox: publish() events into it (docs/api.md, "Webhooks").
    service::WebhookService &webhooks() { return m_webhooks; }
    /// Starts the webhook delivery worker (`imprint serve` and the local desktop mode; the
    /// tests that only need the route table leave it stopped).
    void startWebhookDelivery() { m_webhookDispatcher.start(); }
    /// Stops it, waiting for the attempts in flight until `deadline`; true when it ended.
    bool stopWebhookDelivery(QDeadlineTimer deadline) { return m_webhookDispatcher.stop(deadline); }

private:
    http::RouteSettings m_settings;
    service::AccountService m_accounts;
    service::ApiKeyService m_keys;
    service::SigningKeyService m_signingKeys;
    service::ContentService m_content;
    service::IdempotencyService m_idempotency;
    store::FileStore m_files;
    service::RenderRateLimiter m_rateLimiter;
    service::PatternRenderService m_patterns;
    service::PageRenderService m_pages;
    service::FontService m_fonts;
    service::AssetService m_assets;
    http::RenderMetrics m_renderMetrics;
    // Webhooks: the outbound requests, the use cases, and the worker that delivers the outbox.
    service::WebhookSettings m_webhookSettings;
    net::WebhookSender m_webhookSender;
    service::WebhookService m_webhooks;
    service::WebhookDispatcher m_webhookDispatcher;
    service::JobService m_jobs;
    // With PostgreSQL: other instances' publishes (LISTEN/NOTIFY). Stopped first of all
    // (~Services()), before the caches its handlers touch are destroyed.
    std::unique_ptr<store::ChangeFeed> m_changes;
    service::PageMetaService m_pageMeta; // GET /pages/{id}/meta (issue 31)

    http::AuthRoutes m_auth;
    http::KeyRoutes m_keyRoutes;
    http::SigningKeyRoutes m_signingKeyRoutes;
    http::ContentRoutes m_contentRoutes;
    http::RenderRoutes m_render;
    http::FileRoutes m_fileRoutes;
    http::UploadRoutes m_uploads;
    http::WebhookRoutes m_webhookRoutes;
    http::MetaRoutes m_meta;
    http::JobRoutes m_jobRoutes;
    const service::JobRunner *m_jobRunner = nullptr; // this instance's workers, for /metrics
    http::PageMetaRoutes m_pageMetaRoutes; // issue 31: meta tags of a page
    service::UsageService m_usage; // issue 32: GET /usage from the render log
    http::UsageRoutes m_usageRoutes;
};

class Service
{
public:
    /// Builds every route of the service over `env` (which must outlive the Service) and
    /// points the emoji renderer at env.dataDir, so sets unpacked into DATA/emoji are
    /// used. The error says why when the compiled-in pattern catalog does not load.
    /// Listening is left to the caller (server().listen()).
    static common::Expected<std::unique_ptr<Service>, QString> create(const Environment &env);

    /// As create(), with the pattern catalog already loaded.
    Service(const Environment &env, render::PatternCatalog catalog);

    /// The use cases and route modules (the console tests reach accounts and keys here).
    Services &services() { return m_services; }
    /// Starts the html engine's browser in the background, when the html engine is
    /// Chromium; returns at once (renders meanwhile answer 503 engine_starting).
    void startEngines()
    {
        if (render::ChromiumBrowser *browser = m_renderContext.htmlBrowser())
            browser->start();
    }
    http::HttpServer &server() { return m_server; }

    /// After the server drained (a stop): cancels the job workers' renders, stops the
    /// webhook deliveries and waits until `deadline` for them and for the render pool. True
    /// when every worker has ended, so the destructors run without waiting; false when a
    /// render still runs that does not look at its cancellation (QtSvg drawing in this
    /// process) or a webhook attempt still waits for its endpoint.
    bool stopWorkers(QDeadlineTimer deadline);
    /// For a process that is stopping (`imprint serve`, after stopWorkers()): writes the
    /// pending key uses and render rows, and ends the html engine's browser, so that the
    /// process may end without its destructors from here on.
    void endNow();

private:
    // Declaration order matters: the server (and its worker pool) is destroyed before
    // the services its queued jobs still use.
    // Declared before the services that render with them: members are destroyed in reverse.
    // The fetcher comes before the context: the context's browser calls it until it is gone.
    // The write-behind goes last, after the server drained and the services are gone,
    // writing the last key usage times and render-log rows of a clean stop.
    std::unique_ptr<service::WriteBehind> m_writeBehind;
    std::unique_ptr<net::RemoteImageFetcher> m_imageFetcher;
    render::RenderContext m_renderContext;
    Services m_services;
    // What the job workers announce goes to the webhooks' outbox (issue 31); it outlives them.
    std::unique_ptr<service::JobEvents> m_jobEvents;
    // The job workers: stopped after the server drained (declared before it), putting
    // their items back in the queue, while the services they render through still exist.
    std::unique_ptr<service::JobRunner> m_jobRunner;
    http::HttpServer m_server;

    /// Starts this instance's job workers (jobs.workers, default half of `limits`' render pool).
    void startJobWorkers(const Environment &env, const http::ServerLimits &limits);
};

} // namespace imprint::app
