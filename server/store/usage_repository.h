#pragma once
// The render log (migration 13): one row per render request answered — stored or not,
// success, error or cache hit — and the sums GET /api/v1/usage reads from it
// (docs/api.md, "Usage"). Rows are written in batches behind the request path
// (server/service/write_behind.h) and pruned after the configured retention.

#include "server/store/database.h"
#include "server/store/errors.h"

#include <QList>
#include <QString>

namespace imprint::store {

/// One answered render request.
struct RenderLogEntry {
    QString spaceId;
    QString keyId; ///< the API key, or the signing key of a signed URL; empty: none
    QString engine; ///< satori, takumi, html, pattern; "unknown" when it failed before one was chosen
    QString format; ///< png, webp, svg, jpeg, avif, pdf
    int status = 200; ///< the HTTP status answered
    QString problemCode; ///< the problem+json `code` of an error answer; empty otherwise
    qint64 durationUs = 0; ///< from the request's arrival at the route to its answer, µs
    bool cacheHit = false; ///< answered from a cache (pattern cache, a reused render, 304)
    qint64 bytes = 0; ///< body bytes of a successful answer
    qint64 createdAt = 0; ///< epoch ms; 0 = when the row is inserted
};

/// One line of an aggregate: a bucket (its start, epoch ms; 0 without buckets) and a
/// group value (empty without grouping, "" also for a NULL key or code).
struct UsageRow {
    qint64 bucket = 0;
    QString group;
    qint64 renders = 0;
    qint64 errors = 0; ///< answers with status ≥ 400
    qint64 cacheHits = 0;
    qint64 bytes = 0;
    qint64 p50Us = -1; ///< nearest-rank percentiles of successful answers; -1: none
    qint64 p95Us = -1;
};

/// Errors of one problem code in one bucket.
struct UsageErrorRow {
    qint64 bucket = 0;
    QString code;
    qint64 count = 0;
};

/// What to group a usage aggregate by.
enum class UsageGroup { None, Key, Engine, Format, Code };

/// render_log. Portable SQL only: buckets are computed as created_at − created_at mod
/// size (UTC), percentiles with ROW_NUMBER()/COUNT() windows (SQLite ≥ 3.25, PostgreSQL).
class UsageRepository
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    explicit UsageRepository(const Database &db)
        : m_db(db)
    { }

    /// Appends `e` (created_at now when e.createdAt is 0).
    Result<Done> insert(const RenderLogEntry &e);
    /// Appends every row of `entries`, as insert() does each, within the caller's
    /// transaction (the write-behind's batch). On SQLite one statement is prepared for the
    /// batch and bound through SQLite's own calls: Qt's positional bindValue() cost 2 k
    /// instructions a value, half the row's cost at thousands of rows a second.
    Result<Done> insertAll(const QList<RenderLogEntry> &entries);
    /// Deletes the rows older than `beforeMs` (epoch ms); how many it deleted.
    Result<int> pruneBefore(qint64 beforeMs);

    /// The sums of space `spaceId`'s rows with from ≤ created_at < to (epoch ms), per
    /// bucket of `bucketMs` (0: one bucket, reported as 0) and per `group`, ordered by
    /// bucket then group.
    Result<QList<UsageRow>> aggregate(const QString &spaceId, qint64 fromMs, qint64 toMs, qint64 bucketMs,
                                      UsageGroup group);
    /// The error answers of that range per bucket and problem code.
    Result<QList<UsageErrorRow>> errorCodes(const QString &spaceId, qint64 fromMs, qint64 toMs, qint64 bucketMs);

private:
    const Database &m_db;
};

} // namespace imprint::store
