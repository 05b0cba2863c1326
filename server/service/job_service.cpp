// Render jobs: creating and reading them (JobService) and working them (JobRunner),
// job_service.h.
#include "server/service/job_service.h"

#include "server/store/crypto.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSysInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

namespace imprint::service {

Q_LOGGING_CATEGORY(lcJobs, "imprint.jobs")

namespace {

const QString kDone = QStringLiteral("done");
const QString kFailed = QStringLiteral("failed");
// A full queue drains at the pace of the renders: a client should come back in a while,
// not at once.
constexpr int kQueueFullRetrySeconds = 30;
constexpr qint64 kPruneIntervalMs = 3600 * 1000;
constexpr qint64 kDayMs = 86400 * 1000LL;

} // namespace

JobSettings JobSettings::fromJson(const QJsonObject &jobs)
{
    JobSettings s;
    s.maxItems = std::max(1, jobs.value(QStringLiteral("maxItems")).toInt(s.maxItems));
    s.workers = std::max(0, jobs.value(QStringLiteral("workers")).toInt(s.workers));
    s.leaseMs = std::max(100, jobs.value(QStringLiteral("leaseMs")).toInt(s.leaseMs));
    s.pollMs = std::max(10, jobs.value(QStringLiteral("pollMs")).toInt(s.pollMs));
    s.maxAttempts = std::max(1, jobs.value(QStringLiteral("maxAttempts")).toInt(s.maxAttempts));
    s.maxQueuedPerSpace = std::max(0, jobs.value(QStringLiteral("maxQueuedPerSpace")).toInt(s.maxQueuedPerSpace));
    s.retentionDays = std::max(0, jobs.value(QStringLiteral("retentionDays")).toInt(s.retentionDays));
    return s;
}

QString jobState(const JobView &view)
{
    const store::JobRecord &j = view.job;
    if (j.doneCount + j.failedCount >= j.itemCount)
        return j.failedCount == 0 ? QStringLiteral("completed")
               : j.doneCount == 0 ? QStringLiteral("failed")
                                  : QStringLiteral("partial");
    if (j.doneCount + j.failedCount > 0)
        return QStringLiteral("running");
    for (const store::JobItemRecord &item : view.items) {
        if (item.state == QLatin1String("running"))
            return QStringLiteral("running");
    }
    return QStringLiteral("queued");
}

QJsonObject jobItemJson(const store::JobItemRecord &item, const QString &baseUrl)
{
    QJsonObject o{{QStringLiteral("index"), item.index},
                  {QStringLiteral("state"), item.state},
                  {QStringLiteral("attempts"), item.attempts}};
    if (item.state == kDone) {
        o.insert(QStringLiteral("file"),
                 QJsonObject{{QStringLiteral("url"), QStringLiteral("%1/api/v1/files/%2.%3")
                                                         .arg(baseUrl, item.fileSha256, item.fileExt)},
                             {QStringLiteral("contentType"), item.contentType},
                             {QStringLiteral("size"), double(item.bytes)},
                             {QStringLiteral("sha256"), item.fileSha256}});
        o.insert(QStringLiteral("width"), item.width);
        o.insert(QStringLiteral("height"), item.height);
        // As a synchronous JSON render answers it: null when the template has no `alt`.
        o.insert(QStringLiteral("alt"), item.alt.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(item.alt));
    } else if (item.state == kFailed) {
        o.insert(QStringLiteral("error"), QJsonDocument::fromJson(item.problem.toUtf8()).object());
    }
    if (item.finishedAt > 0)
        o.insert(QStringLiteral("finishedAt"), store::isoFromMs(item.finishedAt));
    return o;
}

QJsonObject jobJson(const JobView &view, const QString &baseUrl, bool withItems)
{
    const store::JobRecord &j = view.job;
    int running = 0;
    for (const store::JobItemRecord &item : view.items)
        running += item.state == QLatin1String("running") ? 1 : 0;
    const int unfinished = j.itemCount - j.doneCount - j.failedCount;
    QJsonObject o{
        {QStringLiteral("id"), j.id},
        {QStringLiteral("state"), jobState(view)},
        {QStringLiteral("counts"), QJsonObject{{QStringLiteral("total"), j.itemCount},
                                               {QStringLiteral("queued"), unfinished - running},
                                               {QStringLiteral("running"), running},
                                               {QStringLiteral("done"), j.doneCount},
                                               {QStringLiteral("failed"), j.failedCount}}},
        {QStringLiteral("createdAt"), store::isoFromMs(j.createdAt)},
        {QStringLiteral("finishedAt"), j.finishedAt > 0 ? QJsonValue(store::isoFromMs(j.finishedAt)) : QJsonValue()},
    };
    if (withItems) {
        QJsonArray items;
        for (const store::JobItemRecord &item : view.items)
            items.append(jobItemJson(item, baseUrl));
        o.insert(QStringLiteral("items"), items);
    }
    return o;
}

// ---------------------------------------------------------------- JobService

JobService::JobService(const store::Database &db, JobSettings settings)
    : m_db(db)
    , m_settings(settings)
{ }

store::Result<JobView> JobService::create(const QString &spaceId, const QString &createdBy, const QString &baseUrl,
                                          const QList<QJsonObject> &items)
{
    if (m_settings.maxQueuedPerSpace > 0) {
        // Checked before queueing, not under a lock: two jobs queued at the same moment may
        // pass the limit by one of them, which bounds the backlog all the same.
        const auto unfinished = store::JobRepository(m_db).unfinishedItems(spaceId);
        if (!unfinished)
            return unfinished.error();
        if (*unfinished + items.size() > m_settings.maxQueuedPerSpace)
            return store::ServiceError::tooManyAttempts(
                common::ProblemCode::JobQueueFull,
                QStringLiteral("This space has %1 renders queued or rendering; a job of %2 more would pass its limit "
                               "of %3 (jobs.maxQueuedPerSpace). Retry when some have finished.")
                    .arg(*unfinished)
                    .arg(items.size())
                    .arg(m_settings.maxQueuedPerSpace),
                kQueueFullRetrySeconds);
    }
    JobView view;
    view.job.id = store::randomId(QStringLiteral("job_"));
    view.job.spaceId = spaceId;
    view.job.createdBy = createdBy;
    view.job.baseUrl = baseUrl;
    view.job.itemCount = int(items.size());
    view.job.createdAt = store::nowMs();
    QStringList requests;
    requests.reserve(items.size());
    for (const QJsonObject &item : items)
        requests.append(QString::fromUtf8(QJsonDocument(item).toJson(QJsonDocument::Compact)));
    if (auto inserted = store::JobRepository(m_db).insert(view.job, requests); !inserted)
        return inserted.error();
    // The workers look for the job once it is committed (it may be part of an
    // Idempotency-Key's longer transaction).
    if (m_queued)
        store::afterCommit(m_db, m_queued);
    return view;
}

store::Result<JobView> JobService::get(const QString &spaceId, const QString &id)
{
    store::JobRepository jobs(m_db);
    auto job = jobs.job(spaceId, id);
    if (!job)
        return job.error();
    if (!*job)
        return store::ServiceError::notFound(common::ProblemCode::JobNotFound,
                                             QStringLiteral("No job %1 in this space.").arg(id));
    auto items = jobs.items(id);
    if (!items)
        return items.error();
    return JobView{**job, *items};
}

store::Result<store::JobQueueStats> JobService::stats()
{
    return store::JobRepository(m_db).stats();
}

store::Result<qint64> JobService::deleteExpired(qint64 nowMs)
{
    if (m_settings.retentionDays <= 0)
        return qint64(0);
    return store::JobRepository(m_db).deleteFinishedBefore(nowMs - m_settings.retentionDays * kDayMs);
}

// ---------------------------------------------------------------- JobRunner

JobRunner::JobRunner(const store::Database &db, JobSettings settings, JobItemExecutor executor,
                     std::function<qint64(const QString &)> deadlineMs, JobEvents *events)
    : m_db(db)
    , m_settings(settings)
    , m_executor(std::move(executor))
    , m_deadlineMs(std::move(deadlineMs))
    , m_events(events)
    // Which instance holds a lease is visible in the rows: host, process, and a random
    // part so that a restarted process with a reused pid is another owner.
    , m_instanceId(QStringLiteral("%1/%2/%3")
                       .arg(QSysInfo::machineHostName())
                       .arg(QCoreApplication::applicationPid())
                       .arg(store::randomBase62(6)))
    , m_runTimes({0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30})
{ }

JobRunner::~JobRunner()
{
    stop();
}

void JobRunner::start()
{
    if (!m_threads.empty())
        return;
    m_stopping = false;
    const int workers = std::max(1, m_settings.workers);
    m_inFlight.assign(size_t(workers), render::RenderCancellation());
    for (int slot = 0; slot < workers; ++slot) {
        m_threads.emplace_back(QThread::create([this, slot] { work(slot); }));
        m_threads.back()->setObjectName(QStringLiteral("job-worker-%1").arg(slot));
        m_threads.back()->start();
    }
}

bool JobRunner::stop(QDeadlineTimer deadline)
{
    {
        QMutexLocker lock(&m_mutex);
        m_stopping = true;
        for (const render::RenderCancellation &c : m_inFlight)
            c.cancel(render::RenderCancellation::Reason::ShuttingDown);
        ++m_wakeups;
        m_wake.wakeAll();
    }
    bool ended = true;
    for (const auto &thread : m_threads)
        ended = thread->wait(deadline) && ended;
    if (ended)
        m_threads.clear();
    return ended;
}

void JobRunner::wake()
{
    QMutexLocker lock(&m_mutex);
    ++m_wakeups;
    m_wake.wakeAll();
}

void JobRunner::work(int slot)
{
    while (!m_stopping) {
        quint64 seen = 0;
        {
            QMutexLocker lock(&m_mutex);
            seen = m_wakeups;
        }
        const QString owner = QStringLiteral("%1/%2").arg(m_instanceId).arg(++m_claims);
        const auto claimed = store::JobRepository(m_db).claim(owner, store::nowMs(), m_settings.leaseMs, 1);
        if (claimed && !claimed->isEmpty()) {
            for (const store::ClaimedJobItem &item : *claimed)
                process(slot, item);
            continue;
        }
        if (slot == 0)
            pruneIfDue();
        // Nothing to do (or the database is away): sleep until a job is queued here, or
        // the poll interval passed (a job queued by another instance, an expired lease).
        QMutexLocker lock(&m_mutex);
        if (!m_stopping && m_wakeups == seen)
            m_wake.wait(&m_mutex, QDeadlineTimer(m_settings.pollMs));
    }
}

void JobRunner::pruneIfDue()
{
    const qint64 now = store::nowMs();
    if (m_settings.retentionDays <= 0 || now - m_lastPruneMs < kPruneIntervalMs)
        return;
    m_lastPruneMs = now;
    const auto deleted = JobService(m_db, m_settings).deleteExpired(now);
    if (deleted && *deleted > 0)
        qCInfo(lcJobs, "deleted %lld jobs finished over %d days ago (jobs.retentionDays)", *deleted,
               m_settings.retentionDays);
}

void JobRunner::process(int slot, const store::ClaimedJobItem &item)
{
    const qint64 startedMs = store::nowMs();
    JobItemOutcome outcome;
    if (item.attempts > m_settings.maxAttempts) {
        // Claimed again and again without a result: its worker died each time (a render
        // that crashes the process). Failing it stops it from taking instances down forever.
        outcome.problem = QJsonObject{
            {QStringLiteral("type"), QStringLiteral("urn:imprint:problem:render_abandoned")},
            {QStringLiteral("title"), QStringLiteral("Internal Server Error")},
            {QStringLiteral("status"), 500},
            {QStringLiteral("code"), QStringLiteral("render_abandoned")},
            {QStringLiteral("detail"), QStringLiteral("The render was claimed %1 times and never finished: the "
                                                      "instances working it stopped.")
                                           .arg(item.attempts - 1)},
        };
    } else {
        const QJsonObject request = QJsonDocument::fromJson(item.request.toUtf8()).object();
        const auto cancellation = render::RenderCancellation::withDeadline(m_deadlineMs ? m_deadlineMs(item.plan) : 0);
        {
            QMutexLocker lock(&m_mutex);
            m_inFlight[size_t(slot)] = cancellation;
            if (m_stopping)
                cancellation.cancel(render::RenderCancellation::Reason::ShuttingDown);
        }
        outcome = m_executor(item, request, cancellation);
        QMutexLocker lock(&m_mutex);
        m_inFlight[size_t(slot)] = render::RenderCancellation();
    }
    if (outcome.kind == JobItemOutcome::Kind::Retry && (item.attempts < m_settings.maxAttempts || m_stopping)) {
        // Back in the queue for any instance; a stop does not spend an attempt's chance.
        if (!store::JobRepository(m_db).release(item.jobId, item.index, item.leaseOwner))
            qCWarning(lcJobs) << "could not put back" << item.jobId << item.index << "; its lease will expire";
        return;
    }
    record(item, outcome, startedMs);
}

void JobRunner::record(const store::ClaimedJobItem &item, const JobItemOutcome &outcome, qint64 startedMs)
{
    const bool done = outcome.kind == JobItemOutcome::Kind::Done;
    store::JobItemRecord r = done ? outcome.file : store::JobItemRecord();
    r.jobId = item.jobId;
    r.index = item.index;
    r.finishedAt = store::nowMs();
    r.attempts = item.attempts;
    r.state = done ? kDone : kFailed;
    if (!done) {
        r.problemCode = outcome.problem.value(QStringLiteral("code")).toString();
        r.problem = QString::fromUtf8(QJsonDocument(outcome.problem).toJson(QJsonDocument::Compact));
    }
    const auto recorded = store::JobRepository(m_db).complete(item.leaseOwner, r, [&](const store::JobProgress &p) {
        if (!m_events)
            return true;
        QJsonObject data = jobItemJson(r, p.job.baseUrl);
        data.insert(QStringLiteral("jobId"), item.jobId);
        if (!m_events->jobEvent(item.spaceId,
                                done ? QStringLiteral("render.completed") : QStringLiteral("render.failed"), data))
            return false;
        return !p.jobFinished
               || m_events->jobEvent(item.spaceId, QStringLiteral("batch.completed"),
                                     jobJson(JobView{p.job, {}}, p.job.baseUrl, false));
    });
    if (!recorded) {
        qCWarning(lcJobs) << "could not record" << item.jobId << item.index << "; its lease will expire";
        return;
    }
    if (!*recorded) {
        // Another claim took the item after our lease expired: its result is the one.
        qCInfo(lcJobs) << "lost the lease of" << item.jobId << item.index << "; result dropped";
        return;
    }
    m_runTimes.observe({r.state}, double(r.finishedAt - startedMs) / 1000.0);
}

} // namespace imprint::service
