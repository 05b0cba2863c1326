// render_log rows and their aggregates (usage_repository.h).

#include "server/store/usage_repository.h"

#include "server/store/sql.h"

namespace imprint::store {

namespace {

// The column a usage aggregate groups by; NULL keys and codes become "". A literal is cast
// to TEXT because PostgreSQL cannot group by a literal of unknown type.
QString groupExpression(UsageGroup group)
{
    switch (group) {
    case UsageGroup::Key:
        return QStringLiteral("COALESCE(key_id, '')");
    case UsageGroup::Engine:
        return QStringLiteral("engine");
    case UsageGroup::Format:
        return QStringLiteral("format");
    case UsageGroup::Code:
        return QStringLiteral("COALESCE(problem_code, '')");
    case UsageGroup::None:
        break;
    }
    return QStringLiteral("CAST('' AS TEXT)");
}

// The start of a row's bucket: plain integer arithmetic on the epoch-ms column (UTC), the
// same on both databases, where date functions are not. The size is one of the service's
// constants, never request text.
QString bucketExpression(qint64 bucketMs)
{
    if (bucketMs <= 0)
        return QStringLiteral("CAST(0 AS BIGINT)");
    return QStringLiteral("created_at - (created_at % %1)").arg(bucketMs);
}

} // namespace

Result<Done> UsageRepository::insert(const RenderLogEntry &e)
{
    // One row per render answered, written in batches by the write-behind thread: the
    // statement is prepared once per connection, not per row.
    return sql::cachedWrite(
        m_db,
        QStringLiteral("INSERT INTO render_log (space_id, key_id, engine, format, status, problem_code,"
                       " duration_us, cache_hit, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        e.spaceId, sql::orNull(e.keyId), e.engine, e.format, e.status, sql::orNull(e.problemCode), e.durationUs,
        e.cacheHit ? 1 : 0, e.bytes, e.createdAt ? e.createdAt : nowMs());
}

Result<int> UsageRepository::pruneBefore(qint64 beforeMs)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q, QStringLiteral("DELETE FROM render_log WHERE created_at < ?"), beforeMs))
        return ServiceError::database();
    return q.numRowsAffected();
}

Result<QList<UsageRow>> UsageRepository::aggregate(const QString &spaceId, qint64 fromMs, qint64 toMs,
                                                   qint64 bucketMs, UsageGroup group)
{
    // Percentiles by nearest rank over the successful answers of a (bucket, group): the
    // smallest duration whose rank among them reaches ceil(p · n / 100). ROW_NUMBER and
    // COUNT windows run on SQLite ≥ 3.25 and PostgreSQL alike; PERCENTILE_CONT does not.
    const QString statement
        = QStringLiteral(
              "SELECT b, g, COUNT(*), SUM(1 - ok), SUM(cache_hit), SUM(bytes),"
              " MIN(CASE WHEN ok = 1 AND rn >= (n * 50 + 99) / 100 THEN duration_us END),"
              " MIN(CASE WHEN ok = 1 AND rn >= (n * 95 + 99) / 100 THEN duration_us END)"
              " FROM (SELECT b, g, ok, cache_hit, bytes, duration_us,"
              " ROW_NUMBER() OVER (PARTITION BY b, g, ok ORDER BY duration_us) AS rn,"
              " COUNT(*) OVER (PARTITION BY b, g, ok) AS n"
              " FROM (SELECT %1 AS b, %2 AS g, CASE WHEN status < 400 THEN 1 ELSE 0 END AS ok,"
              " cache_hit, bytes, duration_us FROM render_log"
              " WHERE space_id = ? AND created_at >= ? AND created_at < ?) r) w"
              " GROUP BY b, g ORDER BY b, g")
              .arg(bucketExpression(bucketMs), groupExpression(group));
    const auto percentile = [](const QVariant &v) { return v.isNull() ? qint64(-1) : v.toLongLong(); };
    QSqlQuery q(m_db.connection());
    const bool ran = sql::run(q, statement, spaceId, fromMs, toMs);
    return sql::allRows(q, ran, [&](const QSqlQuery &r) {
        return UsageRow{r.value(0).toLongLong(), r.value(1).toString(), r.value(2).toLongLong(),
                        r.value(3).toLongLong(), r.value(4).toLongLong(), r.value(5).toLongLong(),
                        percentile(r.value(6)), percentile(r.value(7))};
    });
}

Result<QList<UsageErrorRow>> UsageRepository::errorCodes(const QString &spaceId, qint64 fromMs, qint64 toMs,
                                                         qint64 bucketMs)
{
    const QString statement = QStringLiteral("SELECT b, c, COUNT(*) FROM (SELECT %1 AS b,"
                                             " COALESCE(problem_code, 'unknown') AS c FROM render_log"
                                             " WHERE space_id = ? AND created_at >= ? AND created_at < ?"
                                             " AND status >= 400) r GROUP BY b, c ORDER BY b, c")
                                  .arg(bucketExpression(bucketMs));
    QSqlQuery q(m_db.connection());
    const bool ran = sql::run(q, statement, spaceId, fromMs, toMs);
    return sql::allRows(q, ran, [](const QSqlQuery &r) {
        return UsageErrorRow{r.value(0).toLongLong(), r.value(1).toString(), r.value(2).toLongLong()};
    });
}

} // namespace imprint::store
