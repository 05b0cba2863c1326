// SigningKeyRepository (repositories.h): the SQL of the signing_keys table.
#include "server/store/repositories.h"

#include "server/store/sql.h"

#include <QSqlQuery>
#include <QVariant>

namespace imprint::store {

namespace {

const QString kColumns = QStringLiteral("g.id, g.space_id, g.name, g.created_by, u.email, g.created_at, g.revoked_at");
const QString kFrom = QStringLiteral("signing_keys g LEFT JOIN users u ON u.id = g.created_by");

SigningKey signingKeyFrom(const QSqlQuery &q)
{
    SigningKey k;
    k.id = q.value(0).toString();
    k.spaceId = q.value(1).toString();
    k.name = q.value(2).toString();
    k.createdBy = q.value(3).toString();
    k.createdByEmail = q.value(4).toString();
    k.createdAt = q.value(5).toLongLong();
    k.revokedAt = q.value(6).toLongLong();
    return k;
}

} // namespace

Result<Done> SigningKeyRepository::insert(const SigningKey &k, const QByteArray &sealedSecret)
{
    QSqlQuery q(m_db.connection());
    // NULL, not '', for a CLI-made key, as api_keys.created_by.
    const QVariant createdBy = k.createdBy.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(k.createdBy);
    return sql::write(q,
                      QStringLiteral("INSERT INTO signing_keys (id, space_id, name, secret_box, created_by, created_at)"
                                     " VALUES (?, ?, ?, ?, ?, ?)"),
                      k.id, k.spaceId, k.name, QString::fromLatin1(sealedSecret.toBase64()), createdBy, k.createdAt);
}

Result<int> SigningKeyRepository::countActive(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    return sql::countOf(
        q, sql::run(q, QStringLiteral("SELECT COUNT(*) FROM signing_keys WHERE space_id = ? AND revoked_at IS NULL"),
                    spaceId));
}

Result<QList<SigningKey>> SigningKeyRepository::listActive(const QString &spaceId, int offset, int limit)
{
    QSqlQuery q(m_db.connection());
    const bool ran = sql::run(q,
                              QStringLiteral("SELECT %1 FROM %2 WHERE g.space_id = ? AND g.revoked_at IS NULL"
                                             " ORDER BY g.created_at DESC, g.id DESC LIMIT ? OFFSET ?")
                                  .arg(kColumns, kFrom),
                              spaceId, limit, offset);
    return sql::allRows(q, ran, signingKeyFrom);
}

Result<QList<SigningKey>> SigningKeyRepository::listAll(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    const bool ran
        = sql::run(q,
                   QStringLiteral("SELECT %1 FROM %2 WHERE g.space_id = ? ORDER BY g.created_at DESC, g.id DESC")
                       .arg(kColumns, kFrom),
                   spaceId);
    return sql::allRows(q, ran, signingKeyFrom);
}

Result<std::optional<SigningKeySecret>> SigningKeyRepository::activeSecret(const QString &spaceId, const QString &id)
{
    QSqlQuery q(m_db.connection());
    const QString sql = QStringLiteral("SELECT %1, s.id, s.name, s.plan, s.created_at, g.secret_box FROM %2"
                                       " JOIN spaces s ON s.id = g.space_id WHERE g.id = ? AND g.revoked_at IS NULL %3")
                            .arg(kColumns, kFrom, spaceId.isEmpty() ? QString() : QStringLiteral("AND g.space_id = ?"));
    const bool ran = spaceId.isEmpty() ? sql::run(q, sql, id) : sql::run(q, sql, id, spaceId);
    return sql::firstRow(q, ran, [](const QSqlQuery &row) {
        SigningKeySecret out;
        out.key = signingKeyFrom(row);
        out.space = Space{row.value(7).toString(), row.value(8).toString(), row.value(9).toString(),
                          row.value(10).toLongLong()};
        out.sealedSecret = QByteArray::fromBase64(row.value(11).toString().toLatin1());
        return out;
    });
}

Result<bool> SigningKeyRepository::revoke(const QString &spaceId, const QString &id, const QString &actor, qint64 now)
{
    QSqlQuery q(m_db.connection());
    return sql::writeMatched(q,
                             QStringLiteral("UPDATE signing_keys SET revoked_at = ?, revoked_by = ?"
                                            " WHERE id = ? AND space_id = ? AND revoked_at IS NULL"),
                             now, actor, id, spaceId);
}

} // namespace imprint::store
