// IdempotencyRepository (repositories.h): the SQL of the idempotency_keys table.
#include "server/store/repositories.h"

#include "server/store/sql.h"

#include <QCryptographicHash>
#include <QSqlQuery>
#include <QVariant>
#include <QtEndian>

#include <utility>

namespace imprint::store {

Result<std::optional<IdempotencyRepository::Entry>>
IdempotencyRepository::find(const QString &spaceId, const QString &key, const QString &route)
{
    QSqlQuery q(m_db.connection());
    const bool ran
        = sql::run(q,
                   QStringLiteral("SELECT request_hash, status, content_type, body, created_at"
                                  " FROM idempotency_keys WHERE space_id = ? AND idem_key = ? AND route = ?"),
                   spaceId, key, route);
    return sql::firstRow(q, ran, [](const QSqlQuery &r) {
        Entry e;
        e.requestHash = r.value(0).toString().toLatin1();
        e.status = r.value(1).toInt();
        e.contentType = r.value(2).toString().toLatin1();
        e.body = r.value(3).toString().toUtf8();
        e.createdAt = r.value(4).toLongLong();
        return e;
    });
}

Result<Done> IdempotencyRepository::insertRunning(const QString &spaceId, const QString &key, const QString &route,
                                                  const QByteArray &requestHash, qint64 now)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO idempotency_keys (space_id, idem_key, route, request_hash, status,"
                                     " content_type, body, created_at) VALUES (?, ?, ?, ?, 0, '', '', ?)"),
                      spaceId, key, route, QString::fromLatin1(requestHash), now);
}

Result<Done> IdempotencyRepository::complete(const QString &spaceId, const QString &key, const QString &route,
                                             int status, const QByteArray &contentType, const QByteArray &body)
{
    return sql::write(m_db,
                      QStringLiteral("UPDATE idempotency_keys SET status = ?, content_type = ?, body = ?"
                                     " WHERE space_id = ? AND idem_key = ? AND route = ?"),
                      status, QString::fromLatin1(contentType), QString::fromUtf8(body), spaceId, key, route);
}

Result<Done> IdempotencyRepository::remove(const QString &spaceId, const QString &key, const QString &route)
{
    return sql::write(m_db,
                      QStringLiteral("DELETE FROM idempotency_keys WHERE space_id = ? AND idem_key = ? AND route = ?"),
                      spaceId, key, route);
}

namespace {

/// The two int4 keys of the advisory lock of a claim: a constant class ("IDMP") and 32 bits
/// of the name's SHA-256 (two names sharing them only make one wait: a 409 and a retry).
std::pair<int, int> lockKeys(const QByteArray &name)
{
    const QByteArray digest = QCryptographicHash::hash(name, QCryptographicHash::Sha256);
    return {0x49444d50, qFromBigEndian<qint32>(digest.constData())};
}

} // namespace

Result<bool> IdempotencyRepository::tryLock(const QByteArray &name)
{
    if (m_db.isSqlite())
        return true;
    const auto [classId, objectId] = lockKeys(name);
    QSqlQuery q(m_db.connection());
    const bool ran = sql::run(q, QStringLiteral("SELECT pg_try_advisory_lock(?, ?)"), classId, objectId);
    if (!ran || !q.next())
        return ServiceError::database();
    return q.value(0).toBool();
}

void IdempotencyRepository::unlock(const QByteArray &name)
{
    if (m_db.isSqlite())
        return;
    const auto [classId, objectId] = lockKeys(name);
    QSqlQuery q(m_db.connection());
    // When the connection is gone the lock went with it: nothing is left to release.
    (void)sql::run(q, QStringLiteral("SELECT pg_advisory_unlock(?, ?)"), classId, objectId);
}

Result<Done> IdempotencyRepository::removeOlderThan(qint64 before)
{
    return sql::write(m_db, QStringLiteral("DELETE FROM idempotency_keys WHERE created_at < ?"), before);
}

} // namespace imprint::store
