#pragma once
// The render job routes (docs/api.md, "Jobs"; issue 31):
//   POST /api/v1/renders        one render or a batch (`items`), answered 202 with the job
//                               and Location: /api/v1/renders/{id}; Idempotency-Key honoured
//   GET  /api/v1/renders/{id}   the job's state, counts and per-item results
// and the other half of `Prefer: respond-async` on POST/GET /render (render.h), and the
// executor that renders one claimed item for service::JobRunner.
//
// Every item is read by RenderRoutes::pageRequestOf(), the parser of the synchronous page
// render, when the job is created (so a bad item is a 400 naming `items[N].field` before
// anything is queued) and again by the worker that renders it.

#include "server/http/auth.h"
#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/service/idempotency_service.h"
#include "server/service/job_service.h"
#include "server/service/page_render_service.h"

namespace imprint::http {

/// The job routes over JobService and the page render use case; every service must
/// outlive this.
class JobRoutes : public RouteModule
{
public:
    /// Sessions through `accounts`, API keys (the `render` scope) through `keys`,
    /// Idempotency-Key through `idempotency`; items render through `pages`; `settings`
    /// gives the public base URL of file URLs.
    JobRoutes(service::AccountService &accounts, service::ApiKeyService &keys,
              service::IdempotencyService &idempotency, service::JobService &jobs, service::PageRenderService &pages,
              RouteSettings settings);

    void registerRoutes(Router &router) override;

    /// Answers a page render of `fields` that prefers respond-async: authenticated as the
    /// synchronous render is (API key with the render scope), queued as a job of one item,
    /// 202 with Location and `Preference-Applied: respond-async`.
    void respondAsync(const HttpRequest &request, const QJsonObject &fields, Responder &&responder);

    /// Renders one claimed item (service::JobItemExecutor): the item read as at creation,
    /// rendered and stored by the page render use case. Called on a job worker thread.
    service::JobItemOutcome runItem(const store::ClaimedJobItem &item, const QJsonObject &request,
                                    const render::RenderCancellation &cancellation);

    /// The jobs' part of GET /metrics in the Prometheus text format: queued and running
    /// items and the age of the oldest queued one (the shared queue's, as this instance
    /// reads it), items this instance finished by outcome, and the time each took (from
    /// `runner`, which may be null: no workers here).
    QByteArray prometheusMetrics(const service::JobRunner *runner) const;
    /// The same as JSON: queued, running, done, failed, oldestQueuedAgeSeconds.
    QJsonObject jsonMetrics(const service::JobRunner *runner) const;

private:
    SessionRoute createJob, getJob;
    /// Queues `items` for the space of `session` (400 naming `items[N].field` for a bad
    /// item, 413 batch_too_large over the limit); 202 with the job.
    HttpResponse queue(const SessionContext &session, const HttpRequest &request, const QJsonArray &items,
                       bool single);
    /// The preset names `sizes: "all"` stands for in `item` (a page or inline render of the
    /// session's space): its template's declared sizes, else the seven built-ins; the
    /// render's own problem when its page or template cannot be read.
    Outcome<QJsonArray> everySize(const SessionContext &session, const QJsonObject &item);

    service::AccountService &m_accounts;
    service::ApiKeyService &m_keys;
    service::IdempotencyService &m_idempotency;
    service::JobService &m_jobs;
    service::PageRenderService &m_pages;
    RouteSettings m_settings;
};

} // namespace imprint::http
