// Render jobs over HTTP (jobs.h): creating and reading them, Prefer: respond-async, and
// the executor that renders one item of a job through the page render use case.
#include "server/http/routes/jobs.h"

#include "server/http/idempotency.h"
#include "server/http/json.h"
#include "server/http/problem.h"
#include "server/http/routes/render.h"
#include "server/service/size_presets.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

#include <tuple>

namespace imprint::http {

namespace {

/// The problem+json object of a problem answer (without the envelope's `success`).
QJsonObject problemObject(const HttpResponse &r)
{
    QJsonObject o = QJsonDocument::fromJson(r.body).object();
    o.remove(QStringLiteral("success"));
    return o;
}

/// The problem of item `index` of a batch: its field as `items[N].field` (or `items[N]`),
/// its detail prefixed with the item, so the client knows which of a thousand to fix.
HttpResponse itemProblem(const HttpResponse &r, int index)
{
    const QJsonObject o = problemObject(r);
    const QString item = QStringLiteral("items[%1]").arg(index);
    const QString field = o.value(QStringLiteral("field")).toString();
    return fieldProblem(r.status, o.value(QStringLiteral("code")).toString(),
                        field.isEmpty() ? item : item + QLatin1Char('.') + field,
                        QStringLiteral("%1: %2").arg(item, o.value(QStringLiteral("detail")).toString()));
}

/// 202 with the job and its Location (RFC 9110 §15.3.3), also on an Idempotency-Key
/// replay, whose stored answer keeps only the body.
HttpResponse withLocation(HttpResponse r)
{
    if (r.status != 202 || !r.header("location").isEmpty())
        return r;
    const QString id = QJsonDocument::fromJson(r.body)
                           .object()
                           .value(QStringLiteral("data"))
                           .toObject()
                           .value(QStringLiteral("id"))
                           .toString();
    return r.withHeader("Location", "/api/v1/renders/" + id.toUtf8());
}

} // namespace

JobRoutes::JobRoutes(service::AccountService &accounts, service::ApiKeyService &keys,
                     service::IdempotencyService &idempotency, service::JobService &jobs,
                     service::PageRenderService &pages, RouteSettings settings)
    : m_accounts(accounts)
    , m_keys(keys)
    , m_idempotency(idempotency)
    , m_jobs(jobs)
    , m_pages(pages)
    , m_settings(std::move(settings))
{ }

void JobRoutes::registerRoutes(Router &router)
{
    // The guard of the synchronous renders: an API key with the render scope, or a
    // session of any role of the space.
    const auto guarded = [this](SessionHandler handler) {
        return withSessionOrKey(m_accounts, m_keys, {}, QStringLiteral("render"), std::move(handler));
    };
    SyncHandler create = guarded(withIdempotency(m_idempotency, QStringLiteral("POST /renders"),
                                                 sessionMethod(this, &JobRoutes::createJob)));
    addRoutes(router, {
        onWorkers("POST", QStringLiteral("/renders"),
                  [create](const HttpRequest &r) { return withLocation(create(r)); }),
        onWorkers("GET", QStringLiteral("/renders/{id}"), guarded(sessionMethod(this, &JobRoutes::getJob))),
    });
}

HttpResponse JobRoutes::createJob(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    if (!body->contains(QStringLiteral("items")))
        return queue(session, request, QJsonArray{*body}, true); // one render, as POST /render takes it
    if (auto e = rejectUnknownFields(*body, {QStringLiteral("items")}, QStringLiteral("a batch of renders")))
        return *e;
    const QJsonValue items = body->value(QStringLiteral("items"));
    if (!items.isArray() || items.toArray().isEmpty())
        return fieldProblem(400, QStringLiteral("invalid_field"), QStringLiteral("items"),
                            QStringLiteral("'items' must be a non-empty array of renders."));
    return queue(session, request, items.toArray(), false);
}

Outcome<QJsonArray> JobRoutes::everySize(const SessionContext &session, const QJsonObject &item)
{
    // Checked here only as far as finding its template needs: the full check of each
    // expanded item follows in queue().
    QJsonObject probe = item;
    probe.remove(QStringLiteral("sizes"));
    auto rq = RenderRoutes::pageRequestOf(probe);
    if (!rq)
        return rq.error();
    rq->spaceId = session.spaceId;
    const auto document = m_pages.templateDocument(*rq);
    if (!document)
        return problemFor(document.error());
    // The sizes the template says it is designed for; a template that names none is
    // shown everywhere, so every built-in preset.
    QList<service::NamedSize> sizes = service::declaredSizes(*document);
    if (sizes.isEmpty())
        sizes = service::builtinSizes();
    QJsonArray names;
    for (const service::NamedSize &s : sizes)
        names.append(s.name);
    return names;
}

HttpResponse JobRoutes::queue(const SessionContext &session, const HttpRequest &request, const QJsonArray &given,
                              bool single)
{
    // An item with `sizes` (preset names, docs/api.md "Size presets") is one item per size:
    // one page in every size it is shown at, in one job.
    QJsonArray items;
    for (int i = 0; i < given.size(); ++i) {
        const QJsonObject item = given.at(i).toObject();
        if (!item.contains(QStringLiteral("sizes"))) {
            items.append(given.at(i));
            continue;
        }
        QJsonValue sizesValue = item.value(QStringLiteral("sizes"));
        const QString field = single ? QStringLiteral("sizes") : QStringLiteral("items[%1].sizes").arg(i);
        if (sizesValue == QJsonValue(QStringLiteral("all")) && !item.contains(QStringLiteral("size"))) {
            auto every = everySize(session, item);
            if (!every)
                return single ? every.error() : itemProblem(every.error(), i);
            sizesValue = *every;
        }
        const QJsonArray sizes = sizesValue.toArray();
        const bool names = sizesValue.isArray() && !sizes.isEmpty()
                           && std::all_of(sizes.begin(), sizes.end(),
                                          [](const QJsonValue &v) { return v.isString() && !v.toString().isEmpty(); });
        if (!names || item.contains(QStringLiteral("size")))
            return fieldProblem(400, QStringLiteral("invalid_field"), field,
                                QStringLiteral("'sizes' must be \"all\" or a non-empty array of size preset "
                                               "names, without 'size'."));
        for (const QJsonValue &name : sizes) {
            QJsonObject one = item;
            one.remove(QStringLiteral("sizes"));
            one.insert(QStringLiteral("size"), name);
            items.append(one);
        }
    }
    const int limit = m_jobs.settings().maxItems;
    if (items.size() > limit) {
        HttpResponse r = fieldProblem(common::ProblemCode::BatchTooLarge, QStringLiteral("items"),
                                      QStringLiteral("A job takes at most %1 items; this one has %2.")
                                          .arg(limit)
                                          .arg(items.size()));
        QJsonObject o = QJsonDocument::fromJson(r.body).object();
        o.insert(QStringLiteral("limit"), limit);
        r.body = QJsonDocument(o).toJson(QJsonDocument::Compact);
        return r;
    }
    // Every item is checked before anything is queued: a batch is accepted whole or not.
    QList<QJsonObject> renders;
    renders.reserve(items.size());
    for (int i = 0; i < items.size(); ++i) {
        if (!items.at(i).isObject())
            return fieldProblem(400, QStringLiteral("invalid_field"), QStringLiteral("items[%1]").arg(i),
                                QStringLiteral("items[%1] must be a render object.").arg(i));
        const auto checked = RenderRoutes::pageRequestOf(items.at(i).toObject());
        if (!checked)
            return single ? checked.error() : itemProblem(checked.error(), i);
        // An inline template is checked as POST /render checks it before rendering: an
        // invalid one is this request's 400, not an item queued to fail (a worker renders
        // it later and would find the same). Not repeated per item in runItem(): the
        // render's own load checks it again, from its cache when seen before.
        if (checked->inlineTemplate) {
            if (auto invalid = service::PageRenderService::checkInlineTemplate(*checked->inlineTemplate)) {
                const HttpResponse refused = problemFor(*invalid);
                return single ? refused : itemProblem(refused, i);
            }
        }
        renders.append(items.at(i).toObject());
    }
    const QString baseUrl = baseUrlFor(request, m_settings);
    const auto job = m_jobs.create(session.spaceId, session.actor, baseUrl, renders);
    if (!job)
        return problemFor(job.error());
    return HttpResponse::success(service::jobJson(*job, baseUrl, false), 202)
        .withHeader("Location", "/api/v1/renders/" + job->job.id.toUtf8())
        .withHeader("Cache-Control", "no-store");
}

HttpResponse JobRoutes::getJob(const SessionContext &session, const HttpRequest &request)
{
    const auto job = m_jobs.get(session.spaceId, request.pathParam(QStringLiteral("id")));
    if (!job)
        return problemFor(job.error());
    // Polled until finished: no cache may answer for the job.
    return HttpResponse::success(service::jobJson(*job, baseUrlFor(request, m_settings), true))
        .withHeader("Cache-Control", "no-store");
}

void JobRoutes::respondAsync(const HttpRequest &request, const QJsonObject &fields, Responder &&responder)
{
    http::respondAsync(std::move(responder), [this, request, fields]() -> HttpResponse {
        const auto principal = authenticateApiToken(request, m_keys);
        if (!principal)
            return principal.error();
        if (auto refused = missingScope(*principal, QStringLiteral("render")))
            return *refused;
        store::SessionInfo keySpace;
        keySpace.membership.space = principal->space;
        HttpResponse r
            = queue(SessionContext{keySpace, principal->space.id, principal->keyId}, request, QJsonArray{fields}, true);
        return r.status == 202 ? r.withHeader("Preference-Applied", "respond-async") : r;
    });
}

service::JobItemOutcome JobRoutes::runItem(const store::ClaimedJobItem &item, const QJsonObject &request,
                                           const render::RenderCancellation &cancellation)
{
    service::JobItemOutcome outcome;
    auto parsed = RenderRoutes::pageRequestOf(request);
    if (!parsed) {
        outcome.problem = problemObject(parsed.error());
        return outcome;
    }
    service::PageRenderRequest &rq = *parsed;
    rq.spaceId = item.spaceId;
    rq.plan = item.plan;
    rq.cancellation = cancellation;
    const auto rendered = m_pages.render(rq);
    if (!rendered) {
        const HttpResponse r = problemFor(rendered.error());
        outcome.problem = problemObject(r);
        // What another attempt may get past: a busy or starting engine, a stop, a
        // database that is away. Everything else would fail the same way again.
        const bool transient = r.status == 503 || outcome.problem.value(QStringLiteral("code")) == "database_error";
        outcome.kind = transient ? service::JobItemOutcome::Kind::Retry : service::JobItemOutcome::Kind::Failed;
        return outcome;
    }
    const service::PageRenderOutcome &done = *rendered->outcome;
    if (!done.file) { // storeFile was set: only a fault of ours leaves it out
        outcome.problem = problemObject(problem(common::ProblemCode::StoreFailed, QStringLiteral("No file stored.")));
        return outcome;
    }
    outcome.kind = service::JobItemOutcome::Kind::Done;
    store::JobItemRecord &file = outcome.file;
    file.fileSha256 = done.file->sha256;
    file.fileExt = done.file->extension;
    file.bytes = done.file->size;
    file.contentType = done.result.contentType;
    file.width = done.result.size.width();
    file.height = done.result.size.height();
    file.alt = rendered->alt;
    return outcome;
}

namespace {

/// The queue's gauges now: queued, running, age of the oldest queued item (s); zeros when
/// the database cannot be read (the scrape still answers).
std::tuple<double, double, double> queueGauges(service::JobService &jobs)
{
    const auto stats = jobs.stats();
    if (!stats)
        return {0, 0, 0};
    const double age
        = stats->oldestQueuedAt > 0 ? double(std::max<qint64>(0, store::nowMs() - stats->oldestQueuedAt)) / 1000 : 0;
    return {double(stats->queued), double(stats->running), age};
}

} // namespace

QByteArray JobRoutes::prometheusMetrics(const service::JobRunner *runner) const
{
    const auto [queued, running, age] = queueGauges(m_jobs);
    QByteArray out = "# HELP imprint_job_items Render job items not finished yet, by state (every instance's).\n"
                     "# TYPE imprint_job_items gauge\n"
                     "imprint_job_items{state=\"queued\"} "
                     + common::prometheusNumber(queued) + "\nimprint_job_items{state=\"running\"} "
                     + common::prometheusNumber(running) + '\n';
    out += "# HELP imprint_job_oldest_queued_age_seconds Age of the oldest queued job item, 0 when none.\n"
           "# TYPE imprint_job_oldest_queued_age_seconds gauge\nimprint_job_oldest_queued_age_seconds "
           + common::prometheusNumber(age) + '\n';
    if (!runner)
        return out;
    out += "# HELP imprint_job_items_finished_total Job items this instance finished, by outcome.\n"
           "# TYPE imprint_job_items_finished_total counter\n";
    for (const char *outcome : {"done", "failed"})
        out += "imprint_job_items_finished_total{outcome=\"" + QByteArray(outcome) + "\"} "
               + common::prometheusNumber(double(runner->runTimes().count({QString::fromLatin1(outcome)}))) + '\n';
    out += runner->runTimes().prometheusText(
        "imprint_job_item_duration_seconds",
        "Time from claiming a job item to recording its result on this instance, by outcome.", {"outcome"});
    return out;
}

QJsonObject JobRoutes::jsonMetrics(const service::JobRunner *runner) const
{
    const auto [queued, running, age] = queueGauges(m_jobs);
    return QJsonObject{
        {QStringLiteral("queued"), queued},
        {QStringLiteral("running"), running},
        {QStringLiteral("oldestQueuedAgeSeconds"), age},
        {QStringLiteral("done"), runner ? double(runner->runTimes().count({QStringLiteral("done")})) : 0.0},
        {QStringLiteral("failed"), runner ? double(runner->runTimes().count({QStringLiteral("failed")})) : 0.0},
    };
}

} // namespace imprint::http
