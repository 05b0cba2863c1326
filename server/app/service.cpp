#include "server/app/service.h"

#include "server/render/resources/emoji.h"

#include <QJsonObject>

namespace imprint::app {

http::ServerLimits serverLimits(const store::Config &config)
{
    http::ServerLimits limits;
    limits.maxConnections = config.maxConnections();
    limits.maxConnectionsPerAddress = config.maxConnectionsPerAddress();
    limits.idleTimeoutMs = config.idleTimeoutMs();
    limits.requestTimeoutMs = config.requestTimeoutMs();
    limits.maxBodyBytes = config.maxBodyBytes();
    limits.maxUploadBytes = config.maxUploadBytes();
    limits.workerQueueLimit = config.workerQueueLimit();
    // Checked by `imprint serve` before it gets here (an invalid entry stops it).
    limits.trustedProxies
        = http::TrustedProxies::parse(config.trustedProxies(), nullptr).value_or(http::TrustedProxies());
    const QJsonObject http = config.json().value(QStringLiteral("http")).toObject();
    limits.loginThreads = http.value(QStringLiteral("loginThreads")).toInt(limits.loginThreads);
    limits.loginQueueLimit = http.value(QStringLiteral("loginQueueLimit")).toInt(limits.loginQueueLimit);
    // Render pool size (0 = cores); configurable so a test can make the queue overflow.
    limits.workerThreads
        = config.json().value(QStringLiteral("http")).toObject().value(QStringLiteral("workerThreads")).toInt(0);
    return limits;
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
    // rich-text subset). Unset: Chromium when it is installed, so a server without it
    // still draws html templates; set to "chromium" without it installed, the engine
    // answers engine_unavailable with how to install it.
    const QJsonObject html
        = env.config.json().value(QStringLiteral("render")).toObject().value(QStringLiteral("html")).toObject();
    const QString browser = html.value(QStringLiteral("browser")).toString();
    options.htmlChromium = browser.isEmpty() ? render::ChromiumBrowser::isInstalled(options.chromium.executable)
                                             : browser == QLatin1String("chromium");
    options.chromium.pool = html.value(QStringLiteral("pool")).toInt(options.chromium.pool);
    options.chromium.queue = html.value(QStringLiteral("queue")).toInt(options.chromium.queue);
    options.chromium.maxMemoryBytes
        = qint64(html.value(QStringLiteral("maxMemoryMb")).toInt(int(options.chromium.maxMemoryBytes >> 20))) << 20;
    options.htmlAllowScript = html.value(QStringLiteral("allowScript")).toBool(false);
    options.chromium.user = html.value(QStringLiteral("user")).toString(options.chromium.user);
    options.chromium.maxPerTenant = html.value(QStringLiteral("maxPerSpace")).toInt(options.chromium.maxPerTenant);
    options.chromium.queueTimeoutMs
        = html.value(QStringLiteral("queueTimeoutMs")).toInt(options.chromium.queueTimeoutMs);
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

std::unique_ptr<net::RemoteImageFetcher> remoteImageFetcher(const Environment &env)
{
    const store::Config &config = env.config;
    net::RemoteImagePolicy policy;
    policy.hostAllowlist = config.imageHostAllowlist();
    policy.maxBytes = config.remoteImageMaxBytes();
    policy.timeoutMs = config.remoteImageTimeoutMs();
    policy.maxPixels = config.remoteImageMaxPixels();
    policy.defaultMaxAgeSeconds = config.remoteImageDefaultMaxAgeSeconds();
    net::RemoteImageCacheOptions cache;
    if (!env.dataDir.isEmpty())
        cache.directory = env.dataDir + QStringLiteral("/cache/remote-images");
    cache.memoryBytes = config.remoteImageMemoryCacheBytes();
    cache.diskBytes = config.remoteImageDiskCacheBytes();
    return std::make_unique<net::RemoteImageFetcher>(policy, cache);
}

std::unique_ptr<Service> Service::create(const Environment &env, QString *error)
{
    auto catalog = render::PatternCatalog::loadDefault(error);
    if (!catalog) {
        *error = QStringLiteral("pattern catalog: %1").arg(*error);
        return nullptr;
    }
    return std::make_unique<Service>(env, std::move(*catalog));
}

Service::Service(const Environment &env, render::PatternCatalog catalog)
    : m_writeBehind(std::make_unique<service::WriteBehind>(*env.db, keyUsageFlushMs(env.config)))
    , m_imageFetcher(remoteImageFetcher(env))
    , m_renderContext(renderContextOptions(env, m_imageFetcher.get()))
    , m_api(*env.db, env.config, env.dataDir)
    , m_renderApi(*env.db, env.config, env.dataDir, std::move(catalog), m_renderContext, m_imageFetcher.get())
    , m_server(serverLimits(env.config))
{
    m_server.setCorsPolicy(http::CorsPolicy(env.config.corsOrigins(), env.config.corsMaxAgeSeconds()));
    m_api.keys().setWriteBehind(m_writeBehind.get());
    m_renderApi.setWriteBehind(m_writeBehind.get());
    m_api.registerRoutes(m_server.router());
    if (render::ChromiumBrowser *browser = m_renderContext.htmlBrowser()) {
        // A render holds its slot at most its deadline plus the page's disposal (2 s):
        // one held far longer means the engine no longer answers, which /health must say.
        int longest = 0;
        for (const QString &plan : env.config.planNames())
            longest = std::max(longest, env.config.renderDeadlineMs(plan));
        longest = std::max(longest, env.config.renderDeadlineMs(QString()));
        const qint64 stalledAfterMs = qint64(longest) + 10000;
        m_api.addHealthCheck(QStringLiteral("htmlEngine"), [browser, stalledAfterMs] {
            const render::ChromiumBrowser::State s = browser->state();
            const bool stalled = s.oldestActiveMs > stalledAfterMs;
            http::Api::HealthCheck c;
            c.healthy = !stalled;
            c.state = QJsonObject{
                {QStringLiteral("status"), stalled     ? QStringLiteral("stalled")
                                           : s.running ? QStringLiteral("ok")
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
    m_renderApi.setRequestMetrics(&m_server.requestMetrics());
    m_renderApi.registerRoutes(m_server.router());
}

} // namespace imprint::app
