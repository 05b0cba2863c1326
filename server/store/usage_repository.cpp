// render_log rows and their aggregates (usage_repository.h).

#include "server/store/usage_repository.h"

#include "server/store/sql.h"


#include <sqlite3.h>

namespace imprint::store {

namespace {

const QString kInsertRow = QStringLiteral(
    "INSERT INTO render_log (space_id, key_id, engine, format, status, problem_code,"
    " duration_us, cache_hit, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");

/// Binds `text` to parameter `at` of `statement` (1-based): NULL for a null text, as Qt's
/// driver binds it, and for an empty one when `emptyIsNull`, as sql::orNull() does.
/// SQLite's result code.
int bindText(sqlite3_stmt *statement, int at, const QString &text, bool emptyIsNull = false)
{
    if (text.isNull() || (emptyIsNull && text.isEmpty()))
        return sqlite3_bind_null(statement, at);
    // UTF-8, the encoding Qt's driver creates databases in: UTF-16 text is translated
    // again inside every step (about a third of a row's insert, issue 35).
    const QByteArray utf8 = text.toUtf8();
    return sqlite3_bind_text(statement, at, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
}

/// insertAll() on SQLite's own API, one statement for the batch (prepared once per
/// connection, Database::cachedSqliteStatement()). False when it failed (SQLite's message
/// logged), or could not start: `*ran` false then, and nothing was written.
bool insertAllOnSqlite(const Database &db, const QList<RenderLogEntry> &entries, bool *ran)
{
    *ran = false;
    sqlite3_stmt *statement = db.cachedSqliteStatement(kInsertRow);
    if (!statement)
        return false;
    *ran = true;
    const qint64 now = nowMs();
    int rc = SQLITE_DONE;
    for (const RenderLogEntry &e : entries) {
        rc = bindText(statement, 1, e.spaceId);
        rc = rc == SQLITE_OK ? bindText(statement, 2, e.keyId, true) : rc;
        rc = rc == SQLITE_OK ? bindText(statement, 3, e.engine) : rc;
        rc = rc == SQLITE_OK ? bindText(statement, 4, e.format) : rc;
        rc = rc == SQLITE_OK ? sqlite3_bind_int(statement, 5, e.status) : rc;
        rc = rc == SQLITE_OK ? bindText(statement, 6, e.problemCode, true) : rc;
        rc = rc == SQLITE_OK ? sqlite3_bind_int64(statement, 7, e.durationUs) : rc;
        rc = rc == SQLITE_OK ? sqlite3_bind_int(statement, 8, e.cacheHit ? 1 : 0) : rc;
        rc = rc == SQLITE_OK ? sqlite3_bind_int64(statement, 9, e.bytes) : rc;
        rc = rc == SQLITE_OK ? sqlite3_bind_int64(statement, 10, e.createdAt ? e.createdAt : now) : rc;
        rc = rc == SQLITE_OK ? sqlite3_step(statement) : rc;
        sqlite3_reset(statement);
        if (rc != SQLITE_DONE)
            break;
    }
    if (rc != SQLITE_DONE)
        qCWarning(lcDb) << "query failed:" << sqlite3_errmsg(sqlite3_db_handle(statement));
    else
        noteDatabaseReached();
    return rc == SQLITE_DONE;
}

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
        m_db, kInsertRow, e.spaceId, sql::orNull(e.keyId), e.engine, e.format, e.status, sql::orNull(e.problemCode), e.durationUs,
        e.cacheHit ? 1 : 0, e.bytes, e.createdAt ? e.createdAt : nowMs());
}

Result<Done> UsageRepository::insertAll(const QList<RenderLogEntry> &entries)
{
    if (entries.isEmpty())
        return Done{};
    bool ran = false;
    const bool written = insertAllOnSqlite(m_db, entries, &ran);
    if (ran)
        return written ? Result<Done>(Done{}) : Result<Done>(ServiceError::database());
    for (const RenderLogEntry &e : entries) {
        if (auto inserted = insert(e); !inserted)
            return inserted.error();
    }
    return Done{};
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
