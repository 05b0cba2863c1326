#pragma once
// Service configuration: the defaults compiled into the binary
// (resources/config/default.json) deep-merged with DATA/config.json when present.
// Every key is listed in docs/deployment.md; the plan table in docs/api.md.

#include "server/common/expected.h"

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace imprint::store {

/// Export size limit of a plan (docs/api.md: 402 above it).
struct PlanLimits {
    int maxWidth = 0, maxHeight = 0; ///< px
    /// `plans.PLAN.assetBytes`: the sum of a space's uploaded images, bytes (402
    /// `asset_quota_exceeded` above it; docs/fonts-and-images.md).
    qint64 assetBytes = 0;
};

/// Read-only view of the merged configuration. Cheap to copy; build it once at start with
/// load() and hand copies to whoever needs one (render API, HTTP server, CLI).
class Config
{
public:
    /// Loads the compiled defaults and, if `dataDir/config.json` exists, merges it over
    /// them (objects merge key by key, everything else replaces). The error names a file
    /// that is not valid JSON, or the missing defaults.
    static common::Expected<Config, QString> load(const QString &dataDir);

    /// Only the compiled defaults (for tools and tests without a data directory).
    static Config defaults();

    /// Limits of `plan` ("free", "pro", "business"); std::nullopt for an unknown plan.
    std::optional<PlanLimits> plan(const QString &plan) const;
    /// Names of every configured plan, sorted.
    QStringList planNames() const;
    /// `spaces.defaultPlan` (default "pro"): the plan of a space created without one
    /// (`imprint space create NAME`, `imprint user add --create-space`). Pro, so that the
    /// standard 1200×630 card renders on a fresh self-hosted server.
    QString defaultPlan() const;

    /// Open-connection cap of the HTTP listener (connections beyond it are closed at once).
    int maxConnections() const;
    /// `http.maxConnectionsPerAddress` (default 256): open connections from one client
    /// address; beyond it that address's new connections are closed at once.
    int maxConnectionsPerAddress() const;
    /// `http.shutdownGraceMs` (default 5000): on SIGTERM, how long renders in flight may
    /// finish before they are cancelled and answered 503.
    int shutdownGraceMs() const;
    /// The wall-clock deadline of one render on `plan`, ms: `plans.PLAN.renderDeadlineMs`,
    /// else `render.deadlineMs` (default 10000).
    int renderDeadlineMs(const QString &plan) const;
    /// A keep-alive connection with no request in flight is closed after this, in ms.
    int idleTimeoutMs() const;
    /// A request whose headers/body have not fully arrived after this is dropped, in ms.
    int requestTimeoutMs() const;
    /// Largest accepted request body, in bytes (413 above it).
    qint64 maxBodyBytes() const;
    /// `http.maxUploadBytes`: the body limit of font and asset uploads (default 32 MiB).
    qint64 maxUploadBytes() const;
    /// Jobs that may wait for the worker pool before new ones get 503 + Retry-After.
    int workerQueueLimit() const;

    /// `http.cors.origins` (default none): the origins whose browser scripts may call the
    /// API, "*" for any; empty = no CORS headers.
    QStringList corsOrigins() const;
    /// `http.trustedProxies` (default none): addresses or CIDR subnets of reverse proxies
    /// whose X-Forwarded-For header names the client (a single string means one entry).
    QStringList trustedProxies() const;
    /// `http.cors.maxAgeSeconds` (default 600): how long a browser may cache a preflight.
    int corsMaxAgeSeconds() const;

    /// `http.metricsToken` (default empty): when set, GET /api/v1/metrics needs
    /// `Authorization: Bearer` with it.
    QString metricsToken() const;

    /// `database.maxConnections` (default 64): database connections one process keeps open
    /// at once, one per thread that queries (docs/deployment.md, "PostgreSQL"); 0 = no bound.
    int databaseMaxConnections() const;

    /// Lifetime of a dashboard session, in hours.
    int sessionLifetimeHours() const;
    /// Failed logins per e-mail or per client address tolerated within the window (429 after).
    int loginFailureLimit() const;
    /// Window of loginFailureLimit(), in seconds.
    int loginFailureWindowSeconds() const;

    /// `files.dir` (default empty): where stored renders, fonts and images live; relative
    /// paths are under the data directory. Empty = DATA/files with SQLite, the database's
    /// `blobs` table with PostgreSQL. Point it at a directory every instance mounts to keep
    /// files out of PostgreSQL (docs/deployment.md).
    QString filesDir() const;
    /// Byte budget of the pattern render memory cache (docs/architecture.md).
    qint64 patternCacheBytes() const;
    /// `render.imageHostAllowlist` (default none): hosts whose remote images may come from
    /// loopback, private or other non-public addresses (docs/remote-images.md); any host
    /// that resolves only to public addresses needs no entry. Lower case.
    QStringList imageHostAllowlist() const;
    /// `render.remoteImages.maxBytes` (default 10 MiB): body limit of one remote image.
    qint64 remoteImageMaxBytes() const;
    /// `render.remoteImages.timeoutMs` (default 5000): time limit of a render's remote
    /// image fetches, redirects included.
    int remoteImageTimeoutMs() const;
    /// `render.remoteImages.maxPixels` (default 40 000 000): width × height limit.
    qint64 remoteImageMaxPixels() const;
    /// `render.remoteImages.defaultMaxAgeSeconds` (default 300): how long an answer that
    /// states no freshness (no max-age, Expires or Last-Modified) is reused.
    int remoteImageDefaultMaxAgeSeconds() const;
    /// `render.remoteImages.memoryCacheBytes` (default 64 MiB) and `.diskCacheBytes`
    /// (default 256 MiB): the fetched-image cache bounds.
    qint64 remoteImageMemoryCacheBytes() const;
    qint64 remoteImageDiskCacheBytes() const;

    /// Overrides the connection cap (the `--max-connections` flag of `imprint serve`).
    void setMaxConnections(int value);

    /// The merged JSON, for diagnostics and for sections other modules own.
    const QJsonObject &json() const { return m_json; }

private:
    explicit Config(QJsonObject json);
    int httpInt(const char *key, int fallback) const;

    QJsonObject m_json;
    /// `plans` read once: every render asks for its plan's limits (plan()).
    QHash<QString, PlanLimits> m_plans;
};

} // namespace imprint::store
