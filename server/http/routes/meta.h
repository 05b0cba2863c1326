#pragma once
// The routes about the service itself: GET /api/v1/health (the database and any component
// added with addHealthCheck()), GET /api/v1/metrics (request, render and cache counters
// since start, as JSON or in the Prometheus text format) and GET /api/v1/openapi.json
// (OpenAPI 3.1 of every route, openapi.cpp).

#include "server/http/render_metrics.h"
#include "server/http/request_metrics.h"
#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/render/pipeline.h"
#include "server/service/page_render_service.h"
#include "server/service/pattern_render_service.h"
#include "server/service/signing_key_service.h"
#include "server/service/webhook_dispatcher.h"
#include "server/store/change_feed.h"
#include "server/store/config.h"
#include "server/store/database.h"

#include <functional>
#include <utility>
#include <vector>

namespace imprint::net {
class RemoteImageFetcher;
}

namespace imprint::http {

/// What GET /metrics reads: the use cases' and caches' counters (each must outlive the
/// MetaRoutes; the pointers may be null: no such component).
struct MetricsSources {
    const service::PatternRenderService &patterns;
    const service::PageRenderService &pages;
    render::RenderContext &renderContext; ///< its cache counters
    const service::SigningKeyService &signing; ///< signed URLs refused (invalid, expired)
    const RenderMetrics &renders; ///< latencies and signed URLs served
    const net::RemoteImageFetcher *imageFetcher = nullptr; ///< remote image counters
    const store::ChangeFeed *changes = nullptr; ///< PostgreSQL's change feed
    const service::WebhookDispatcher *webhooks = nullptr; ///< webhook deliveries and attempt latencies
};

/// The health, metrics and OpenAPI routes.
class MetaRoutes : public RouteModule
{
public:
    /// `db` is pinged by /health; `config` gives the metrics token; `settings` the base
    /// URL of the OpenAPI document's server entry.
    MetaRoutes(const store::Database &db, store::Config config, RouteSettings settings, MetricsSources sources);

    void registerRoutes(Router &router) override;

    /// The HTTP answer counts GET /metrics reports in its Prometheus form (the server's,
    /// HttpServer::requestMetrics()); null = none. It must outlive this.
    void setRequestMetrics(const RequestMetrics *metrics) { m_requestMetrics = metrics; }

    /// A component's state as GET /health reports it.
    struct HealthCheck {
        QJsonObject state; ///< shown under the component's name
        bool healthy = true; ///< false: /health answers 503 "degraded"
    };
    /// Adds a component to GET /health's answer, as `name`. `check` is called on the
    /// thread that answers /health, each time; it must be cheap and thread-safe.
    void addHealthCheck(const QString &name, std::function<HealthCheck()> check);

    /// Adds a component's counters to GET /metrics: `prometheus` appends its families to
    /// the text format, `json` its object as member `name` of the JSON form. Both are called
    /// on the thread that answers /metrics, each time; they must be thread-safe.
    void addMetrics(const QString &name, std::function<QByteArray()> prometheus, std::function<QJsonObject()> json)
    {
        m_metricSections.push_back({name, std::move(prometheus), std::move(json)});
    }

    /// The OpenAPI 3.1 document of the whole service: the bytes of
    /// resources/openapi/openapi.json (openapi.cpp), JSON text.
    static QByteArray openApiDocument();

private:
    HttpResponse health() const;
    HttpResponse metrics(const HttpRequest &request) const;
    QByteArray prometheusMetrics() const;

    const store::Database &m_db;
    store::Config m_config;
    RouteSettings m_settings;
    MetricsSources m_sources;
    const RequestMetrics *m_requestMetrics = nullptr;
    std::vector<std::pair<QString, std::function<HealthCheck()>>> m_healthChecks;
    struct MetricsSection {
        QString name;
        std::function<QByteArray()> prometheus;
        std::function<QJsonObject()> json;
    };
    std::vector<MetricsSection> m_metricSections;
};

} // namespace imprint::http
