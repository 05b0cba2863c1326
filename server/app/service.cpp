#include "server/app/service.h"

#include "server/render/resources/emoji.h"
#include "server/render/resources/svg_sandbox.h"
#include "server/service/content_validation.h"

#include <QJsonObject>
#include <QThread>

#include <algorithm>

namespace imprint::app {

namespace {

/// The config's `render.html` object.
QJsonObject htmlConfig(const store::Config &config)
{
    return config.json().value(QStringLiteral("render")).toObject().value(QStringLiteral("html")).toObject();
}

/// Whether Chromium draws the html engine (docs/templates.md): `render.html.browser`
/// "chromium", or unset and Chromium installed (so a server without it still draws html
/// templates, on Qt's rich text); set to "chromium" without it installed, the engine
/// answers engine_unavailable with how to install it.
bool htmlOnChromium(const QJsonObject &html, const QString &executable)
{
    const QString browser = html.value(QStringLiteral("browser")).toString();
    return browser.isEmpty() ? render::ChromiumBrowser::isInstalled(executable) : browser == QLatin1String("chromium");
}

/// The html engine's pool (`render.html.pool`, else ChromiumOptions::defaultPool()), 0
/// when Chromium does not draw html.
int htmlBrowserPool(const store::Config &config)
{
    const QJsonObject html = htmlConfig(config);
    if (!htmlOnChromium(html, render::ChromiumOptions().executable))
        return 0;
    const int pool = html.value(QStringLiteral("pool")).toInt(0);
    return pool > 0 ? pool : render::ChromiumOptions::defaultPool();
}

} // namespace

http::ServerLimits serverLimits(const store::Config &config)
{
    const QJsonObject http = config.json().value(QStringLiteral("http")).toObject();
    const http::ServerLimits defaults;
    return {
        .maxConnections = config.maxConnections(),
        .maxConnectionsPerAddress = config.maxConnectionsPerAddress(),
        .idleTimeoutMs = config.idleTimeoutMs(),
        .requestTimeoutMs = config.requestTimeoutMs(),
        .maxBodyBytes = config.maxBodyBytes(),
        .maxUploadBytes = config.maxUploadBytes(),
        // Threads that parse and answer requests (0 = one per core, at most 4; `imprint
        // serve` warns about a value outside 0–64 and takes the nearest).
        .ioThreads = std::clamp(http.value(QStringLiteral("ioThreads")).toInt(0), 0, 64),
        // Render pool size (0 = cores); configurable so a test can make the queue overflow.
        .workerThreads = http.value(QStringLiteral("workerThreads")).toInt(0),
        // A configured worker count is taken as it is (a test makes the queue overflow).
        .browserThreads = http.value(QStringLiteral("workerThreads")).toInt(0) > 0 ? 0 : htmlBrowserPool(config),
        .workerQueueLimit = config.workerQueueLimit(),
        .loginThreads = http.value(QStringLiteral("loginThreads")).toInt(defaults.loginThreads),
        .loginQueueLimit = http.value(QStringLiteral("loginQueueLimit")).toInt(defaults.loginQueueLimit),
        // Checked by `imprint serve` before it gets here (an invalid entry stops it).
        .trustedProxies = http::TrustedProxies::parse(config.trustedProxies()).value_or(http::TrustedProxies()),
    };
}

int keyUsageFlushMs(const store::Config &config)
{
    return config.json().value(QStringLiteral("auth")).toObject().value(QStringLiteral("keyUsageFlushMs")).toInt(1000);
}

render::RenderContextOptions renderContextOptions(const Environment &env, net::RemoteImageFetcher *fetcher)
{
    render::RenderContextOptions options;
    // The sets unpacked into DATA/emoji (scripts/fetch-emoji DATA/emoji) win over the
    // per-user default.
    options.emojiDirectory = render::emojiDirectoryFor(env.dataDir);
    // The html engine (docs/templates.md): "chromium" (headless Chromium) or "qt" (Qt's
    // rich-text subset).
    const QJsonObject html = htmlConfig(env.config);
    options.htmlChromium = htmlOnChromium(html, options.chromium.executable);
    options.chromium.pool = html.value(QStringLiteral("pool")).toInt(options.chromium.pool);
    options.chromium.queue = html.value(QStringLiteral("queue")).toInt(options.chromium.queue);
    options.chromium.maxMemoryBytes
        = qint64(html.value(QStringLiteral("maxMemoryMb")).toInt(int(options.chromium.maxMemoryBytes >> 20))) << 20;
    options.chromium.maxLayerCost
        = std::max(0.0, html.value(QStringLiteral("maxLayerCost")).toDouble(options.chromium.maxLayerCost));
    options.htmlAllowScript = html.value(QStringLiteral("allowScript")).toBool(false);
    options.chromium.user = html.value(QStringLiteral("user")).toString(options.chromium.user);
    options.chromium.maxPerTenant = html.value(QStringLiteral("maxPerSpace")).toInt(options.chromium.maxPerTenant);
    options.chromium.queueTimeoutMs
        = html.value(QStringLiteral("queueTimeoutMs")).toInt(options.chromium.queueTimeoutMs);
    // The server starts the browser with itself (Service::startEngines()); a render that
    // comes before that first start ended is told to come back (503 engine_starting), never
    // held. A restart (crash, memory) is waited for within the render's deadline.
    options.chromium.waitForStart = false;
    if (fetcher) {
        // The page's http(s) images under the policy and cache of every remote image: the
        // allowlist, no private or loopback addresses, the byte, pixel and time limits.
        options.chromium.fetch
            = [fetcher](const QUrl &url, QDeadlineTimer deadline) -> common::Expected<QByteArray, QString> {
            const auto fetched = fetcher->fetch(url, deadline);
            if (!fetched)
                return QStringLiteral("%1: %2").arg(net::fetchErrorCodeName(fetched.error().kind),
                                                    fetched.error().message);
            return fetched->bytes;
        };
    }
    return options;
}

/// How untrusted SVG is drawn (`render.svg.*`, docs/deployment.md; issue 34 item 8): by the
/// sandboxed helper unless `render.svg.sandbox` is false.
render::SvgSandboxOptions svgSandboxOptions(const store::Config &config)
{
    const QJsonObject render = config.json().value(QStringLiteral("render")).toObject();
    const QJsonObject svg = render.value(QStringLiteral("svg")).toObject();
    render::SvgSandboxOptions options;
    options.enabled = svg.value(QStringLiteral("sandbox")).toBool(options.enabled);
    options.helper = svg.value(QStringLiteral("helper")).toString(options.helper);
    options.timeoutMs = std::max(1, svg.value(QStringLiteral("timeoutMs")).toInt(options.timeoutMs));
    options.maxMemoryMb = std::max(64, svg.value(QStringLiteral("maxMemoryMb")).toInt(options.maxMemoryMb));
    options.cacheBytes = qint64(svg.value(QStringLiteral("cacheBytes")).toDouble(double(options.cacheBytes)));
    // The browser's unprivileged account serves the helper too.
    options.user = render.value(QStringLiteral("html")).toObject().value(QStringLiteral("user")).toString(options.user);
    return options;
}

std::unique_ptr<net::RemoteImageFetcher> remoteImageFetcher(const Environment &env)
{
    const store::Config &config = env.config;
    const net::RemoteImagePolicy policy{
        .hostAllowlist = config.imageHostAllowlist(),
        .maxBytes = config.remoteImageMaxBytes(),
        .timeoutMs = config.remoteImageTimeoutMs(),
        .maxPixels = config.remoteImageMaxPixels(),
        .defaultMaxAgeSeconds = config.remoteImageDefaultMaxAgeSeconds(),
    };
    const net::RemoteImageCacheOptions cache{
        .directory = env.dataDir.isEmpty() ? QString() : env.dataDir + QStringLiteral("/cache/remote-images"),
        .memoryBytes = config.remoteImageMemoryCacheBytes(),
        .diskBytes = config.remoteImageDiskCacheBytes(),
    };
    return std::make_unique<net::RemoteImageFetcher>(policy, cache);
}

common::Expected<std::unique_ptr<Service>, QString> Service::create(const Environment &env)
{
    auto catalog = render::PatternCatalog::loadDefault();
    if (!catalog)
        return QStringLiteral("pattern catalog: %1").arg(catalog.error());
    return std::make_unique<Service>(env, std::move(*catalog));
}

// ---------------------------------------------------------------- Services

namespace {

/// The change feed of a PostgreSQL database (null with SQLite): another instance's publish
/// or page delete drops this instance's copy in `pages`' publish cache, and the cache
/// falls back to its TTL while the feed is down.
std::unique_ptr<store::ChangeFeed> changeFeed(const store::Database &db, service::PageRenderService &pages)
{
    if (db.isSqlite())
        return nullptr;
    return std::make_unique<store::ChangeFeed>(
        db.settings(),
        [&pages](const QString &kind, const QString &id) {
            if (kind == QLatin1String("page"))
                pages.forgetPublished(id);
        },
        [&pages](bool live) { pages.setPublishFeedLive(live); });
}

} // namespace

Services::Services(const store::Database &db, const store::Config &config, const QString &dataDir,
                   render::PatternCatalog catalog, render::RenderContext &renderContext,
                   net::RemoteImageFetcher *imageFetcher)
    : m_settings(http::RouteSettings::fromConfig(config))
    , m_accounts(db, config)
    , m_keys(db)
    , m_signingKeys(db, dataDir)
    , m_content(service::contentService(db))
    , m_idempotency(db)
    , m_files(store::FileStore::forDataDir(db, config, dataDir))
    , m_rateLimiter(db, m_settings.rateLimitPerSecond, m_settings.rateLimitBurst)
    , m_patterns(db, config, std::move(catalog), m_files, m_settings.patternCacheBytes)
    , m_pages(db, config, m_files, renderContext,
              service::PageRenderSettings{m_settings.publishCacheEntries, m_settings.publishCacheTtlMs}, imageFetcher)
    , m_fonts(db, m_files)
    , m_assets(db, config, m_files)
    , m_webhookSettings(service::WebhookSettings::fromConfig(config))
    , m_webhookSender(m_webhookSettings.policy())
    , m_webhooks(db, dataDir, m_webhookSettings)
    , m_webhookDispatcher(db, m_webhooks, m_webhookSender)
    , m_jobs(db, service::JobSettings::fromJson(config.json().value(QStringLiteral("jobs")).toObject()))
    , m_changes(changeFeed(db, m_pages))
    , m_pageMeta(m_content, m_signingKeys)
    , m_auth(m_accounts, m_keys, config)
    , m_keyRoutes(m_accounts, m_keys)
    , m_signingKeyRoutes(m_accounts, m_signingKeys)
    , m_contentRoutes(http::ContentAccess{m_accounts, m_keys, m_idempotency}, m_content)
    , m_render(config, m_settings, m_keys, m_rateLimiter, m_patterns, m_pages, m_signingKeys, m_renderMetrics)
    , m_fileRoutes(m_files)
    , m_uploads(http::ContentAccess{m_accounts, m_keys, m_idempotency}, m_fonts, m_assets, m_settings)
    , m_webhookRoutes(m_accounts, m_keys, m_webhooks)
    , m_meta(db, config, m_settings,
             http::MetricsSources{m_patterns, m_pages, renderContext, m_signingKeys, m_renderMetrics, imageFetcher,
                                  m_changes.get(), &m_webhookDispatcher})
    , m_jobRoutes(m_accounts, m_keys, m_idempotency, m_jobs, m_pages, m_settings)
    , m_pageMetaRoutes(m_settings, m_accounts, m_keys, m_pageMeta)
    , m_usage(db)
    , m_usageRoutes(m_accounts, m_usage)
{
    // An event published here is sent at once rather than at the next poll.
    m_webhooks.setPublishedHook([this] { m_webhookDispatcher.wake(); });
    // Prefer: respond-async on the synchronous page render queues a job of one item.
    m_render.setAsyncRender([this](const http::HttpRequest &request, const QJsonObject &fields,
                                   http::Responder &&responder) {
        m_jobRoutes.respondAsync(request, fields, std::move(responder));
    });
    m_meta.addMetrics(
        QStringLiteral("jobs"), [this] { return m_jobRoutes.prometheusMetrics(m_jobRunner); },
        [this] { return m_jobRoutes.jsonMetrics(m_jobRunner); });
    // A publish or delete through these routes is visible to the next render here at once;
    // other instances sharing a PostgreSQL database drop their copy when the change feed
    // tells them, or within the cache TTL while the feed is down.
    m_content.setSnapshotListener([this](const QString &pageId) { m_pages.forgetPublished(pageId); });
}

Services::~Services()
{
    m_changes.reset(); // its thread calls into m_pages until it stops
}

void Services::setWriteBehind(service::WriteBehind *writer)
{
    m_keys.setWriteBehind(writer);
    m_pages.setWriteBehind(writer);
    m_patterns.setWriteBehind(writer);
    m_render.setUsageLog(writer);
}

void Services::setJobRunner(const service::JobRunner *runner)
{
    m_jobRunner = runner;
}

void Services::registerRoutes(http::Router &router)
{
    for (http::RouteModule *module : std::initializer_list<http::RouteModule *>{
             &m_auth, &m_keyRoutes, &m_signingKeyRoutes, &m_contentRoutes, &m_render, &m_fileRoutes, &m_uploads,
             &m_webhookRoutes, &m_meta, &m_jobRoutes, &m_pageMetaRoutes, &m_usageRoutes})
        module->registerRoutes(router);
}

// ---------------------------------------------------------------- Service

Service::Service(const Environment &env, render::PatternCatalog catalog)
    : m_writeBehind(std::make_unique<service::WriteBehind>(*env.db, keyUsageFlushMs(env.config)))
    , m_imageFetcher(remoteImageFetcher(env))
    , m_renderContext(renderContextOptions(env, m_imageFetcher.get()))
    , m_services(*env.db, env.config, env.dataDir, std::move(catalog), m_renderContext, m_imageFetcher.get())
    , m_server(serverLimits(env.config))
{
    render::setSvgSandboxOptions(svgSandboxOptions(env.config));
    const http::ServerLimits limits = serverLimits(env.config);
    m_server.setCorsPolicy(http::CorsPolicy(env.config.corsOrigins(), env.config.corsMaxAgeSeconds()));
    m_writeBehind->setUsageRetentionDays(
        env.config.json().value(QStringLiteral("usage")).toObject().value(QStringLiteral("retentionDays")).toInt(90));
    m_services.setWriteBehind(m_writeBehind.get());
    if (render::ChromiumBrowser *browser = m_renderContext.htmlBrowser()) {
        // A render holds its slot at most its deadline plus the page's disposal (2 s):
        // one held far longer means the engine no longer answers, which /health must say.
        int longest = 0;
        for (const QString &plan : env.config.planNames())
            longest = std::max(longest, env.config.renderDeadlineMs(plan));
        longest = std::max(longest, env.config.renderDeadlineMs(QString()));
        const qint64 stalledAfterMs = qint64(longest) + 10000;
        m_services.addHealthCheck(QStringLiteral("htmlEngine"), [browser, stalledAfterMs] {
            const render::ChromiumBrowser::State s = browser->state();
            const bool stalled = s.oldestActiveMs > stalledAfterMs;
            http::MetaRoutes::HealthCheck c;
            c.healthy = !stalled;
            c.state = QJsonObject{
                {QStringLiteral("status"), stalled      ? QStringLiteral("stalled")
                                           : s.running  ? QStringLiteral("ok")
                                           : s.starting ? QStringLiteral("starting")
                                                        : QStringLiteral("idle")},
                {QStringLiteral("network"),
                 s.networkNamespace ? QStringLiteral("namespace") : QStringLiteral("proxy")},
                {QStringLiteral("sandbox"), s.sandboxed},
                {QStringLiteral("user"), s.user.isEmpty() ? QJsonValue() : QJsonValue(s.user)},
                {QStringLiteral("active"), s.active},
                {QStringLiteral("waiting"), s.waiting},
            };
            return c;
        });
    }
    m_services.setRequestMetrics(&m_server.requestMetrics());
    m_services.registerRoutes(m_server.router());
    m_services.startWebhookDelivery();
    startJobWorkers(env, limits);
}

bool Service::stopWorkers(QDeadlineTimer deadline)
{
    const bool jobs = !m_jobRunner || m_jobRunner->stop(deadline);
    const bool webhooks = m_services.stopWebhookDelivery(deadline);
    return m_server.waitForWorkers(deadline) && jobs && webhooks;
}

void Service::endNow()
{
    m_writeBehind->flush();
    if (render::ChromiumBrowser *browser = m_renderContext.htmlBrowser())
        browser->endNow();
}

namespace {

/// The job runner's events (render.completed, render.failed, batch.completed) as webhook
/// deliveries: publish() only inserts outbox rows, on the runner's thread inside the
/// transaction that records the item, so a result and its deliveries commit together.
class WebhookJobEvents final : public service::JobEvents
{
public:
    explicit WebhookJobEvents(service::WebhookService &webhooks)
        : m_webhooks(webhooks)
    { }
    bool jobEvent(const QString &spaceId, const QString &type, const QJsonObject &data) override
    {
        return m_webhooks.publish(spaceId, type, data).has_value();
    }

private:
    service::WebhookService &m_webhooks;
};

} // namespace

void Service::startJobWorkers(const Environment &env, const http::ServerLimits &limits)
{
    // Every instance works the queue (docs/deployment.md, "Job workers"): half the render
    // pool by default, so that a large batch never takes every thread from the
    // synchronous renders.
    service::JobSettings settings = m_services.jobs().settings();
    if (settings.workers == 0) {
        const int pool = limits.workerThreads > 0 ? limits.workerThreads : QThread::idealThreadCount();
        settings.workers = std::max(1, pool / 2);
    }
    const store::Config &config = env.config;
    m_jobEvents = std::make_unique<WebhookJobEvents>(m_services.webhooks());
    m_jobRunner = std::make_unique<service::JobRunner>(
        *env.db, settings,
        [this](const store::ClaimedJobItem &item, const QJsonObject &request,
               const render::RenderCancellation &cancellation) {
            return m_services.jobRoutes().runItem(item, request, cancellation);
        },
        [config](const QString &plan) { return qint64(config.renderDeadlineMs(plan)); }, m_jobEvents.get());
    m_services.jobs().setQueuedListener([runner = m_jobRunner.get()] { runner->wake(); });
    m_services.setJobRunner(m_jobRunner.get());
    m_jobRunner->start();
}

} // namespace imprint::app
