// The render job queue's SQL (job_repository.h). Portable statements, except the claim's
// row lock: PostgreSQL takes it with FOR UPDATE SKIP LOCKED, SQLite has one writer at a
// time (BEGIN IMMEDIATE) and no such clause.
#include "server/store/job_repository.h"

#include "server/store/sql.h"

namespace imprint::store {

namespace {

const QString kItemColumns = QStringLiteral(
    "job_id, idx, space_id, request, state, attempts, lease_owner, lease_expires_at, queued_at, started_at, "
    "finished_at, file_sha256, file_ext, content_type, width, height, bytes, problem_code, problem, alt");

JobItemRecord itemFrom(const QSqlQuery &q)
{
    const auto text = [&q](int column) { return q.value(column).toString(); };
    const auto number = [&q](int column) { return q.value(column).toLongLong(); };
    return JobItemRecord{.jobId = text(0),
                         .index = int(number(1)),
                         .spaceId = text(2),
                         .request = text(3),
                         .state = text(4),
                         .attempts = int(number(5)),
                         .leaseOwner = text(6),
                         .leaseExpiresAt = number(7),
                         .queuedAt = number(8),
                         .startedAt = number(9),
                         .finishedAt = number(10),
                         .fileSha256 = text(11),
                         .fileExt = text(12),
                         .contentType = text(13),
                         .width = int(number(14)),
                         .height = int(number(15)),
                         .bytes = number(16),
                         .alt = text(19),
                         .problemCode = text(17),
                         .problem = text(18)};
}

const QString kJobColumns = QStringLiteral(
    "id, space_id, created_by, base_url, item_count, done_count, failed_count, created_at, finished_at");

JobRecord jobFrom(const QSqlQuery &q)
{
    return JobRecord{q.value(0).toString(), q.value(1).toString(),  q.value(2).toString(),
                     q.value(3).toString(), q.value(4).toInt(),      q.value(5).toInt(),
                     q.value(6).toInt(),    q.value(7).toLongLong(), q.value(8).toLongLong()};
}

} // namespace

Result<Done> JobRepository::insert(const JobRecord &job, const QStringList &requests)
{
    Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    QSqlQuery q(m_db.connection());
    if (!sql::run(q,
                  QStringLiteral("INSERT INTO jobs (id, space_id, created_by, base_url, item_count, done_count,"
                                 " failed_count, created_at, finished_at) VALUES (?, ?, ?, ?, ?, 0, 0, ?, NULL)"),
                  job.id, job.spaceId, sql::orNull(job.createdBy),
                  job.baseUrl.isNull() ? QStringLiteral("") : job.baseUrl, int(requests.size()), job.createdAt))
        return ServiceError::database();
    // One statement prepared once for every item: a batch of a thousand is one round trip
    // per row, not a parse per row.
    if (!q.prepare(QStringLiteral("INSERT INTO job_items (job_id, idx, space_id, request, state, attempts,"
                                  " queued_at) VALUES (?, ?, ?, ?, 'queued', 0, ?)")))
        return ServiceError::database();
    for (int i = 0; i < requests.size(); ++i) {
        q.bindValue(0, job.id);
        q.bindValue(1, i);
        q.bindValue(2, job.spaceId);
        q.bindValue(3, requests.at(i));
        q.bindValue(4, job.createdAt);
        if (!q.exec()) {
            qCWarning(lcDb) << "job item insert failed:" << q.lastError().text();
            noteFailureInTransaction(q);
            return ServiceError::database();
        }
    }
    if (!tx.commit())
        return ServiceError::database();
    return Done{};
}

Result<std::optional<JobRecord>> JobRepository::job(const QString &spaceId, const QString &id)
{
    return sql::selectOne(m_db, QStringLiteral("SELECT %1 FROM jobs WHERE id = ? AND space_id = ?").arg(kJobColumns),
                          jobFrom, id, spaceId);
}

Result<QList<JobItemRecord>> JobRepository::items(const QString &jobId)
{
    return sql::selectAll(m_db,
                          QStringLiteral("SELECT %1 FROM job_items WHERE job_id = ? ORDER BY idx").arg(kItemColumns),
                          itemFrom, jobId);
}

Result<QList<ClaimedJobItem>> JobRepository::claim(const QString &owner, qint64 nowMs, qint64 leaseMs, int limit)
{
    // An idle worker polls: a read first, so that polling an empty queue takes no write
    // lock (SQLite's is the whole database's).
    const QString claimable
        = QStringLiteral("i.state = 'queued' OR (i.state = 'running' AND i.lease_expires_at < ?)");
    const auto any = sql::cachedFirstRow(
        m_db, QStringLiteral("SELECT 1 FROM job_items i WHERE %1 LIMIT 1").arg(claimable),
        [](const QSqlQuery &) { return true; }, nowMs);
    if (!any)
        return any.error();
    if (!*any)
        return QList<ClaimedJobItem>();
    Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    QSqlQuery q(m_db.connection());
    // SKIP LOCKED: rows another instance is claiming right now are passed over rather
    // than waited for, and never claimed twice (its UPDATE commits before our lock).
    const QString lock = m_db.isSqlite() ? QString() : QStringLiteral(" FOR UPDATE OF i SKIP LOCKED");
    const bool ran = sql::run(
        q,
        QStringLiteral("SELECT i.job_id, i.idx, i.space_id, s.plan, i.request, i.attempts FROM job_items i"
                       " JOIN spaces s ON s.id = i.space_id"
                       " LEFT JOIN (SELECT space_id, COUNT(*) AS rendering FROM job_items"
                       " WHERE state = 'running' AND lease_expires_at >= ? GROUP BY space_id) r"
                       " ON r.space_id = i.space_id WHERE %1"
                       " ORDER BY COALESCE(r.rendering, 0), i.queued_at, i.job_id, i.idx LIMIT ?%2")
            .arg(claimable, lock),
        nowMs, nowMs, limit);
    auto rows = sql::allRows(q, ran, [&owner](const QSqlQuery &r) {
        return ClaimedJobItem{r.value(0).toString(), r.value(1).toInt(),     r.value(2).toString(),
                              r.value(3).toString(), r.value(4).toString(), r.value(5).toInt() + 1, owner};
    });
    if (!rows)
        return rows.error();
    for (const ClaimedJobItem &item : *rows) {
        if (!sql::run(q,
                      QStringLiteral("UPDATE job_items SET state = 'running', lease_owner = ?, lease_expires_at = ?,"
                                     " attempts = attempts + 1, started_at = ? WHERE job_id = ? AND idx = ?"),
                      owner, nowMs + leaseMs, nowMs, item.jobId, item.index))
            return ServiceError::database();
    }
    if (!tx.commit())
        return ServiceError::database();
    return *rows;
}

Result<bool> JobRepository::complete(const QString &owner, const JobItemRecord &r,
                                     const std::function<bool(const JobProgress &)> &inTransaction)
{
    Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    QSqlQuery q(m_db.connection());
    const bool done = r.state == QLatin1String("done");
    // The condition is what makes a result unique: a worker whose lease expired (and whose
    // item another claim took) matches no row here, whatever it rendered.
    const auto matched = sql::writeMatched(
        q,
        QStringLiteral("UPDATE job_items SET state = ?, lease_owner = NULL, lease_expires_at = NULL, finished_at = ?,"
                       " file_sha256 = ?, file_ext = ?, content_type = ?, width = ?, height = ?, bytes = ?,"
                       " problem_code = ?, problem = ?, alt = ?"
                       " WHERE job_id = ? AND idx = ? AND state = 'running' AND lease_owner = ?"),
        r.state, r.finishedAt, sql::orNull(r.fileSha256), sql::orNull(r.fileExt), sql::orNull(r.contentType),
        done ? QVariant(r.width) : QVariant(QMetaType::fromType<int>()),
        done ? QVariant(r.height) : QVariant(QMetaType::fromType<int>()), sql::orNull(r.bytes),
        sql::orNull(r.problemCode), sql::orNull(r.problem), sql::orNull(r.alt), r.jobId, r.index, owner);
    if (!matched)
        return matched.error();
    if (!*matched)
        return false;
    // The job's row lock orders concurrent completions of one job: the read below sees
    // every count committed before, so exactly one completion sees the last item counted.
    if (!sql::run(q,
                  done ? QStringLiteral("UPDATE jobs SET done_count = done_count + 1 WHERE id = ?")
                       : QStringLiteral("UPDATE jobs SET failed_count = failed_count + 1 WHERE id = ?"),
                  r.jobId))
        return ServiceError::database();
    const bool ran = sql::run(q, QStringLiteral("SELECT %1 FROM jobs WHERE id = ?").arg(kJobColumns), r.jobId);
    auto job = sql::firstRow(q, ran, jobFrom);
    if (!job || !*job)
        return ServiceError::database();
    JobProgress progress{**job, false};
    q.finish();
    if (progress.job.doneCount + progress.job.failedCount >= progress.job.itemCount && progress.job.finishedAt == 0) {
        progress.job.finishedAt = r.finishedAt;
        progress.jobFinished = true;
        if (!sql::run(q, QStringLiteral("UPDATE jobs SET finished_at = ? WHERE id = ?"), r.finishedAt, r.jobId))
            return ServiceError::database();
    }
    if (inTransaction && !inTransaction(progress))
        return ServiceError::database(); // the transaction rolls back: result and events alike
    if (!tx.commit())
        return ServiceError::database();
    return true;
}

Result<bool> JobRepository::release(const QString &jobId, int index, const QString &owner)
{
    return sql::writeMatched(m_db,
                             QStringLiteral("UPDATE job_items SET state = 'queued', lease_owner = NULL,"
                                            " lease_expires_at = NULL WHERE job_id = ? AND idx = ?"
                                            " AND state = 'running' AND lease_owner = ?"),
                             jobId, index, owner);
}

Result<JobQueueStats> JobRepository::stats()
{
    QSqlQuery q(m_db.connection());
    JobQueueStats s;
    if (!sql::run(q, QStringLiteral("SELECT state, COUNT(*) FROM job_items WHERE state IN ('queued', 'running')"
                                    " GROUP BY state")))
        return ServiceError::database();
    while (q.next())
        (q.value(0).toString() == QLatin1String("queued") ? s.queued : s.running) = q.value(1).toLongLong();
    if (!sql::run(q, QStringLiteral("SELECT MIN(queued_at) FROM job_items WHERE state = 'queued'")))
        return ServiceError::database();
    if (q.next())
        s.oldestQueuedAt = q.value(0).toLongLong();
    return s;
}

Result<int> JobRepository::unfinishedItems(const QString &spaceId)
{
    return sql::selectCount(
        m_db, QStringLiteral("SELECT COUNT(*) FROM job_items WHERE state IN ('queued', 'running') AND space_id = ?"),
        spaceId);
}

Result<qint64> JobRepository::deleteFinishedBefore(qint64 cutoffMs)
{
    QSqlQuery q(m_db.connection());
    // The items go with their job (ON DELETE CASCADE).
    if (!sql::run(q, QStringLiteral("DELETE FROM jobs WHERE finished_at IS NOT NULL AND finished_at < ?"), cutoffMs))
        return ServiceError::database();
    return qint64(q.numRowsAffected());
}

} // namespace imprint::store
