#pragma once
// Render jobs (docs/api.md, "Jobs"; issue 31): a batch of page or inline renders queued in
// the database and worked by every instance. JobService creates and reads jobs for the
// transports; JobRunner is the workers of one instance, which claim items with a lease
// (store::JobRepository), render each through an executor the composition root supplies
// (the page render use case behind the HTTP layer's request parser, so a job item is read
// exactly as a synchronous render is) and record each result once, announcing it to
// JobEvents inside the transaction that records it.

#include "server/common/histogram.h"
#include "server/render/cancellation.h"
#include "server/store/database.h"
#include "server/store/job_repository.h"

#include <QDeadlineTimer>
#include <QJsonObject>
#include <QMutex>
#include <QThread>
#include <QWaitCondition>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace imprint::service {

/// Receives what happens to jobs: "render.completed" and "render.failed" once per item
/// (data: the item as GET /renders/{id} shows it, plus `jobId`) and "batch.completed" once
/// per job (data: the job without its items). Called on a worker thread INSIDE the
/// database transaction that records the result, on that thread's connection, so rows the
/// receiver writes there (a webhook outbox) commit atomically with the result, and are
/// rolled back with it. Must be thread-safe and must not open a transaction of its own.
class JobEvents
{
public:
    virtual ~JobEvents() = default;
    /// One event of space `spaceId`: `type` as above, `data` its payload. Runs inside the
    /// transaction that records the result; false (its rows could not be written) rolls
    /// that transaction back, so the item is recorded only with its events.
    virtual bool jobEvent(const QString &spaceId, const QString &type, const QJsonObject &data) = 0;
};

/// The config's "jobs" section (docs/deployment.md, "Job workers").
struct JobSettings {
    int maxItems = 1000; ///< jobs.maxItems: items per job; more is 413 batch_too_large
    /// jobs.workers: items this instance renders at once; 0 = half the render pool (at
    /// least 1), so that jobs never take every thread from synchronous renders.
    int workers = 0;
    int leaseMs = 30000; ///< jobs.leaseMs: how long a claimed item is its worker's; longer than a render
    int pollMs = 500; ///< jobs.pollMs: how often an idle worker looks for items queued elsewhere
    int maxAttempts = 3; ///< jobs.maxAttempts: claims of one item before it fails render_abandoned
    /// jobs.maxQueuedPerSpace: a space's items not finished yet (queued or rendering, every
    /// instance's); a job that would pass it is 429 job_queue_full. 0: no limit.
    int maxQueuedPerSpace = 10000;
    /// jobs.retentionDays: a finished job (and its items) is deleted this many days after it
    /// finished, checked hourly by each instance's workers; 0 keeps jobs forever.
    int retentionDays = 30;

    /// The "jobs" section of `config` (missing keys keep the defaults above).
    static JobSettings fromJson(const QJsonObject &jobsSection);
};

/// A job and its items, as read.
struct JobView {
    store::JobRecord job;
    QList<store::JobItemRecord> items; ///< empty when not read
};

/// The state of a job as the API names it: "queued" (nothing started), "running",
/// "completed" (every item done), "failed" (every item failed) or "partial" (some of each).
QString jobState(const JobView &view);

/// The JSON of a job: id, state, counts (total, queued, running, done, failed), times, and
/// with `withItems` every item as jobItemJson() writes it; file URLs under `baseUrl`.
QJsonObject jobJson(const JobView &view, const QString &baseUrl, bool withItems);

/// The JSON of one item: index, state, attempts, and when done `file` (url, contentType,
/// size in bytes, sha256), `width` and `height` (px) and `alt` (the render's alt text or
/// null); when failed `error` (a problem object).
QJsonObject jobItemJson(const store::JobItemRecord &item, const QString &baseUrl);

/// Creates and reads jobs. Thread-safe.
class JobService
{
public:
    /// Works on `db`, which must outlive it.
    JobService(const store::Database &db, JobSettings settings);

    const JobSettings &settings() const { return m_settings; }

    /// Queues a job of `items` (each the JSON of one render, already validated by the
    /// transport) for space `spaceId`, created by `createdBy` (a user or key id) through a
    /// request whose public base URL is `baseUrl`. The new job, without its items; 429
    /// job_queue_full (Retry-After) when the space's unfinished items would pass
    /// jobs.maxQueuedPerSpace.
    store::Result<JobView> create(const QString &spaceId, const QString &createdBy, const QString &baseUrl,
                                  const QList<QJsonObject> &items);
    /// Job `id` of space `spaceId` with its items; job_not_found (404) when there is none
    /// in that space.
    store::Result<JobView> get(const QString &spaceId, const QString &id);
    /// Items per state across all jobs (every instance's, with PostgreSQL).
    store::Result<store::JobQueueStats> stats();
    /// Deletes the jobs that finished more than jobs.retentionDays before `nowMs` (epoch
    /// ms); how many went (0 when retention is off).
    store::Result<qint64> deleteExpired(qint64 nowMs);

    /// Called after a job was queued here (wakes this instance's workers at once; other
    /// instances find it by polling). May be empty.
    void setQueuedListener(std::function<void()> listener) { m_queued = std::move(listener); }

private:
    const store::Database &m_db;
    JobSettings m_settings;
    std::function<void()> m_queued;
};

/// How a worker's render of one item ended.
struct JobItemOutcome {
    enum class Kind : quint8 {
        Done, ///< rendered and stored: the file fields are set
        Failed, ///< a problem that another attempt would repeat (bad page, plan limit, …)
        Retry, ///< a transient problem (engine busy, database away, shutting down)
    };
    Kind kind = Kind::Failed;
    /// Done: the stored file (fileSha256, fileExt, contentType, bytes) and the image's
    /// width and height in px; the other members are the runner's to fill.
    store::JobItemRecord file;
    QJsonObject problem; ///< Failed, Retry: a problem+json object (code, status, detail, field)
};

/// Renders one claimed item: its JSON `request`, for the item's space and plan, stopping
/// when `cancellation` says so (the plan's deadline, or the runner stopping).
using JobItemExecutor = std::function<JobItemOutcome(const store::ClaimedJobItem &item, const QJsonObject &request,
                                                     const render::RenderCancellation &cancellation)>;

/// The job workers of one instance: `workers` threads that claim items, render them with
/// the executor and record their results. Stops (and puts its items back) when destroyed.
class JobRunner
{
public:
    /// `db` and `events` (may be null) must outlive this; `deadlineMs` gives the render
    /// deadline of a plan (ms, ≤ 0: none).
    JobRunner(const store::Database &db, JobSettings settings, JobItemExecutor executor,
              std::function<qint64(const QString &plan)> deadlineMs, JobEvents *events = nullptr);
    ~JobRunner();
    JobRunner(const JobRunner &) = delete;
    JobRunner &operator=(const JobRunner &) = delete;

    /// Starts the worker threads (no-op when running).
    void start();
    /// Stops them: renders in flight are cancelled and their items put back in the queue.
    /// Waits for the workers until `deadline`; true when every one has ended. One still in
    /// a render that does not look at its cancellation keeps its item claimed: once its
    /// process has ended the lease runs out (jobs.leaseMs) and another worker takes it.
    bool stop(QDeadlineTimer deadline = QDeadlineTimer(QDeadlineTimer::Forever));
    /// Wakes idle workers (a job was queued on this instance).
    void wake();

    /// Time each item took from claim to recorded result, by outcome ("done", "failed").
    const common::LabeledHistograms &runTimes() const { return m_runTimes; }
    /// This instance's lease owner prefix ("<host>/<pid>/<random>").
    QString instanceId() const { return m_instanceId; }

private:
    void work(int slot);
    /// Deletes expired jobs when an hour has passed since this instance last did (slot 0, idle).
    void pruneIfDue();
    void process(int slot, const store::ClaimedJobItem &item);
    void record(const store::ClaimedJobItem &item, const JobItemOutcome &outcome, qint64 startedMs);

    const store::Database &m_db;
    JobSettings m_settings;
    JobItemExecutor m_executor;
    std::function<qint64(const QString &)> m_deadlineMs;
    JobEvents *m_events = nullptr;
    QString m_instanceId;
    std::atomic<quint64> m_claims{0};
    std::atomic<bool> m_stopping{false};
    qint64 m_lastPruneMs = 0; // slot 0's only
    QMutex m_mutex; // guards m_wakeups, m_inFlight
    QWaitCondition m_wake;
    quint64 m_wakeups = 0;
    std::vector<render::RenderCancellation> m_inFlight; // per worker slot
    std::vector<std::unique_ptr<QThread>> m_threads;
    common::LabeledHistograms m_runTimes;
};

} // namespace imprint::service
