#pragma once
// Render jobs (migration 9, docs/api.md "Jobs"): the `jobs` and `job_items` tables and the
// queue over them. Items are claimed with a lease: on PostgreSQL the candidates are
// selected FOR UPDATE SKIP LOCKED, so instances sharing the database never claim the same
// row at once; on SQLite the claim runs in a BEGIN IMMEDIATE transaction, one writer at a
// time. A result is recorded only by the lease's owner while the item is still running
// (complete()), so an item re-run after its owner died is recorded once.

#include "server/store/database.h"
#include "server/store/errors.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace imprint::store {

/// A job: a batch of renders of one space. Times in epoch ms.
struct JobRecord {
    QString id; ///< "job_…"
    QString spaceId;
    QString createdBy; ///< user or API key id; empty when unknown
    QString baseUrl; ///< the public base URL of the creating request (file URLs of events)
    int itemCount = 0;
    int doneCount = 0; ///< items that rendered and stored their file
    int failedCount = 0; ///< items that ended with a problem
    qint64 createdAt = 0;
    qint64 finishedAt = 0; ///< 0 while items are still queued or running
};

/// One item of a job and its result.
struct JobItemRecord {
    QString jobId;
    int index = 0; ///< position in the job's `items`, from 0
    QString spaceId;
    QString request; ///< the item as the client sent it (JSON text)
    QString state; ///< "queued", "running", "done" or "failed"
    int attempts = 0; ///< claims so far
    QString leaseOwner; ///< while running: the claim that holds it
    qint64 leaseExpiresAt = 0; ///< while running: when another instance may take it (epoch ms)
    qint64 queuedAt = 0, startedAt = 0, finishedAt = 0;
    // done: the stored file
    QString fileSha256, fileExt, contentType;
    int width = 0, height = 0; ///< px of the image
    qint64 bytes = 0;
    QString alt; ///< the render's alt text (docs/templates.md, "Alt text"); empty when the template has none
    // failed: the problem
    QString problemCode; ///< its wire name
    QString problem; ///< the problem+json object, JSON text
};

/// An item handed to a worker by claim(): what it renders and the lease it holds.
struct ClaimedJobItem {
    QString jobId;
    int index = 0;
    QString spaceId;
    QString plan; ///< the space's plan now
    QString request; ///< JSON text
    int attempts = 0; ///< including this claim
    QString leaseOwner;
};

/// Unfinished items across every job, and the oldest queued one.
struct JobQueueStats {
    qint64 queued = 0, running = 0;
    qint64 oldestQueuedAt = 0; ///< epoch ms; 0 when nothing is queued
};

/// What complete() hands its in-transaction callback: the job's row after this item was
/// counted, and whether this item finished the job.
struct JobProgress {
    JobRecord job;
    bool jobFinished = false;
};

/// jobs and job_items
class JobRepository
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    explicit JobRepository(const Database &db)
        : m_db(db)
    { }

    /// Inserts `job` and one queued item per entry of `requests` (JSON text, in order) in
    /// one transaction.
    Result<Done> insert(const JobRecord &job, const QStringList &requests);
    /// Job `id` of space `spaceId`; std::nullopt when there is none in that space.
    Result<std::optional<JobRecord>> job(const QString &spaceId, const QString &id);
    /// The items of job `jobId`, by index.
    Result<QList<JobItemRecord>> items(const QString &jobId);

    /// Claims up to `limit` items for `owner` until `nowMs + leaseMs`: queued ones, and
    /// running ones whose lease expired before `nowMs` (their owner died). Fair between
    /// spaces: the items of the space with the fewest items rendering (live leases, every
    /// instance's) come first, then the oldest, so one space's large batch does not make
    /// another's single render wait for all of it. Each claim adds one to the item's attempts.
    Result<QList<ClaimedJobItem>> claim(const QString &owner, qint64 nowMs, qint64 leaseMs, int limit);
    /// Records `result` (state "done" or "failed" and its fields; the key fields are
    /// ignored) for the item `owner` holds, counts it on the job, and finishes the job when
    /// it was the last: one transaction, in which `inTransaction` runs last (on this
    /// thread's connection, so that what it writes commits or rolls back with the result).
    /// False, with nothing written, when the lease is no longer `owner`'s or the item is no
    /// longer running: another claim owns the item now. When `inTransaction` returns false
    /// (what it had to write failed) nothing is written either, and the error is Database.
    Result<bool> complete(const QString &owner, const JobItemRecord &result,
                          const std::function<bool(const JobProgress &)> &inTransaction);
    /// Puts the item back in the queue (a transient failure, a stop) while `owner` holds
    /// it; false when it does not.
    Result<bool> release(const QString &jobId, int index, const QString &owner);
    /// Queued and running items and the oldest queued one: index range reads, cheap however
    /// many finished items the table holds.
    Result<JobQueueStats> stats();
    /// The items of space `spaceId` not finished yet (queued or running).
    Result<int> unfinishedItems(const QString &spaceId);
    /// Deletes the jobs (and their items) that finished before `cutoffMs` (epoch ms); how
    /// many jobs went. Their stored files stay: other renders may share them.
    Result<qint64> deleteFinishedBefore(qint64 cutoffMs);

private:
    const Database &m_db;
};

} // namespace imprint::store
