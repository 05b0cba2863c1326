// The revocable secrets of a space (repositories.h): the SQL API keys and URL-signing keys
// share (RevocableSecretRepository), then what only one kind has.
#include "server/store/repositories.h"

#include "server/store/sql.h"

#include <QSqlQuery>
#include <QVariant>

#include <sqlite3.h>

namespace imprint::store {

using sql::kSpaceColumns;
using sql::orNull;
using sql::spaceFrom;

namespace {

// The creator's e-mail is joined for display; a key the CLI made has none.
const QString kCreatorJoin = QStringLiteral("LEFT JOIN users u ON u.id = k.created_by");

// What every secret row starts with (id, space, name) and, from column `creatorAt`, who made it
// (user id, joined e-mail) and when: the columns both kinds' select lists share.
template<typename Row>
Row secretFrom(const QSqlQuery &q, int creatorAt)
{
    Row k;
    k.id = q.value(0).toString();
    k.spaceId = q.value(1).toString();
    k.name = q.value(2).toString();
    k.createdBy = q.value(creatorAt).toString();
    k.createdByEmail = q.value(creatorAt + 1).toString();
    k.createdAt = q.value(creatorAt + 2).toLongLong();
    return k;
}

ApiKey apiKeyFrom(const QSqlQuery &q)
{
    ApiKey k = secretFrom<ApiKey>(q, 4);
    k.prefix = q.value(3).toString();
    k.expiresAt = q.value(7).toLongLong();
    k.lastUsedAt = q.value(8).toLongLong();
    k.revokedAt = q.value(9).toLongLong();
    k.scopes = q.value(10).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return k;
}

SigningKey signingKeyFrom(const QSqlQuery &q)
{
    SigningKey k = secretFrom<SigningKey>(q, 3);
    k.revokedAt = q.value(6).toLongLong();
    return k;
}
constexpr int kSigningKeyColumnCount = 7;

const SecretTable<ApiKey> kApiKeys{"api_keys",
                                   "k.id, k.space_id, k.name, k.prefix, k.created_by, u.email, k.created_at,"
                                   " k.expires_at, k.last_used_at, k.revoked_at, k.scopes",
                                   true, true, apiKeyFrom};
const SecretTable<SigningKey> kSigningKeys{
    "signing_keys", "k.id, k.space_id, k.name, k.created_by, u.email, k.created_at, k.revoked_at", false, false,
    signingKeyFrom};

} // namespace

// ---- what every kind shares

template<typename Row>
Result<int> RevocableSecretRepository<Row>::countActive(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    const QString sql = QStringLiteral("SELECT COUNT(*) FROM %1 WHERE space_id = ? AND revoked_at IS NULL")
                            .arg(QLatin1String(m_table.table));
    if (!m_table.expires)
        return sql::countOf(q, sql::run(q, sql, spaceId));
    return sql::countOf(q, sql::run(q, sql + QStringLiteral(" AND (expires_at IS NULL OR expires_at > ?)"), spaceId,
                                    nowMs()));
}

template<typename Row>
Result<QList<Row>> RevocableSecretRepository<Row>::listActive(const QString &spaceId, int offset, int limit)
{
    QSqlQuery q(m_db.connection());
    const QString select = QStringLiteral("SELECT %1 FROM %2 k %3 WHERE k.space_id = ? AND k.revoked_at IS NULL")
                               .arg(QLatin1String(m_table.columns), QLatin1String(m_table.table), kCreatorJoin);
    const QString page = QStringLiteral(" ORDER BY k.created_at DESC, k.id DESC LIMIT ? OFFSET ?");
    const bool ran = m_table.expires
        ? sql::run(q, select + QStringLiteral(" AND (k.expires_at IS NULL OR k.expires_at > ?)") + page, spaceId,
                   nowMs(), limit, offset)
        : sql::run(q, select + page, spaceId, limit, offset);
    return sql::allRows(q, ran, m_table.rowFrom);
}

template<typename Row>
Result<QList<Row>> RevocableSecretRepository<Row>::listAll(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    const bool ran
        = sql::run(q,
                   QStringLiteral("SELECT %1 FROM %2 k %3 WHERE k.space_id = ? ORDER BY k.created_at DESC, k.id DESC")
                       .arg(QLatin1String(m_table.columns), QLatin1String(m_table.table), kCreatorJoin),
                   spaceId);
    return sql::allRows(q, ran, m_table.rowFrom);
}

template<typename Row>
Result<bool> RevocableSecretRepository<Row>::revoke(const QString &spaceId, const QString &id, const QString &actor,
                                                    qint64 now)
{
    QSqlQuery q(m_db.connection());
    const auto revoked = sql::writeMatched(q,
                                           QStringLiteral("UPDATE %1 SET revoked_at = ?, revoked_by = ?"
                                                          " WHERE id = ? AND space_id = ? AND revoked_at IS NULL")
                                               .arg(QLatin1String(m_table.table)),
                                           now, actor, id, spaceId);
    if (revoked && *revoked && m_table.authenticates) {
        if (const auto bumped = bumpAuthGeneration(m_db); !bumped)
            return bumped.error();
    }
    return revoked;
}

template<typename Row>
Result<std::optional<Row>> RevocableSecretRepository<Row>::activeById(const QString &spaceId, const QString &id)
{
    QSqlQuery q(m_db.connection());
    return sql::firstRow(q, selectActiveById(q, spaceId, id), m_table.rowFrom);
}

template<typename Row>
bool RevocableSecretRepository<Row>::selectActiveById(QSqlQuery &q, const QString &spaceId, const QString &id,
                                                      const QString &extraColumns, const QString &join)
{
    const QString sql
        = QStringLiteral("SELECT %1%2 FROM %3 k %4 %5 WHERE k.id = ? AND k.revoked_at IS NULL %6")
              .arg(QLatin1String(m_table.columns), extraColumns, QLatin1String(m_table.table), kCreatorJoin, join,
                   spaceId.isEmpty() ? QString() : QStringLiteral("AND k.space_id = ?"));
    return spaceId.isEmpty() ? sql::run(q, sql, id) : sql::run(q, sql, id, spaceId);
}

template class RevocableSecretRepository<ApiKey>;
template class RevocableSecretRepository<SigningKey>;

// Each kind is the shared repository on its own table.
ApiKeyRepository::ApiKeyRepository(const Database &db)
    : RevocableSecretRepository(db, kApiKeys)
{ }

SigningKeyRepository::SigningKeyRepository(const Database &db)
    : RevocableSecretRepository(db, kSigningKeys)
{ }

// ---- api keys: scopes, a hashed token, an expiry and a last use

Result<Done> ApiKeyRepository::insert(const ApiKey &k, const QString &tokenHash)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO api_keys (id, space_id, name, prefix, token_hash, created_by,"
                                     " created_at, expires_at, scopes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                      k.id, k.spaceId, k.name, k.prefix, tokenHash, orNull(k.createdBy), k.createdAt,
                      orNull(k.expiresAt), k.scopes.join(QLatin1Char(' ')));
}

Result<std::optional<std::pair<ApiKey, Space>>> ApiKeyRepository::byTokenHash(const QString &tokenHash)
{
    // Every request with a bearer token runs this: a cached statement, its text built once,
    // selecting only what authenticating reads. Each column costs a conversion to a
    // QVariant per request, and the creator join (display only) a second table.
    static const QString kSql = QStringLiteral("SELECT k.id, k.space_id, k.expires_at, k.last_used_at, k.scopes, %1"
                                               " FROM api_keys k JOIN spaces s ON s.id = k.space_id"
                                               " WHERE k.token_hash = ? AND k.revoked_at IS NULL")
                                    .arg(kSpaceColumns);
    return sql::cachedFirstRow(
        m_db, kSql,
        [](const QSqlQuery &row) {
            ApiKey k;
            k.id = row.value(0).toString();
            k.spaceId = row.value(1).toString();
            k.expiresAt = row.value(2).toLongLong();
            k.lastUsedAt = row.value(3).toLongLong();
            k.scopes = row.value(4).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
            return std::make_pair(std::move(k), spaceFrom(row, 5));
        },
        tokenHash);
}

Result<qint64> ApiKeyRepository::authGeneration()
{
    static const QString kSql = QStringLiteral("SELECT value FROM auth_generation WHERE id = 1");
    // Read on every authenticated request: on SQLite through its own API, where QtSql's
    // exec and result record cost twice the statement (issue 35).
    if (sqlite3_stmt *statement = m_db.cachedSqliteStatement(kSql)) {
        const int rc = sqlite3_step(statement);
        const qint64 value = rc == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : 0; // no row before the first bump
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            qCWarning(lcDb) << "query failed:" << sqlite3_errmsg(sqlite3_db_handle(statement));
        sqlite3_reset(statement);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return ServiceError::database();
        noteDatabaseReached();
        return value;
    }
    const auto row = sql::cachedFirstRow(m_db, kSql, [](const QSqlQuery &q) { return q.value(0).toLongLong(); });
    if (!row)
        return row.error();
    return row->value_or(0); // no row before the first bump

}

Result<Done> bumpAuthGeneration(const Database &db)
{
    QSqlQuery q(db.connection());
    // An upsert (SQLite 3.24+, PostgreSQL 9.5+): the row is made by the first bump.
    return sql::write(q, QStringLiteral("INSERT INTO auth_generation (id, value) VALUES (1, 1)"
                                        " ON CONFLICT (id) DO UPDATE SET value = auth_generation.value + 1"));
}

Result<Done> ApiKeyRepository::touch(const QString &id, qint64 now)
{
    return sql::write(m_db, QStringLiteral("UPDATE api_keys SET last_used_at = ? WHERE id = ?"), now, id);
}

// ---- signing keys: the secret sealed with the server key

Result<Done> SigningKeyRepository::insert(const SigningKey &k, const QByteArray &sealedSecret)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO signing_keys (id, space_id, name, secret_box, created_by, created_at)"
                                     " VALUES (?, ?, ?, ?, ?, ?)"),
                      k.id, k.spaceId, k.name, QString::fromLatin1(sealedSecret.toBase64()), orNull(k.createdBy),
                      k.createdAt);
}

Result<std::optional<SigningKeySecret>> SigningKeyRepository::activeSecret(const QString &spaceId, const QString &id)
{
    QSqlQuery q(m_db.connection());
    const bool ran = selectActiveById(q, spaceId, id, QStringLiteral(", %1, k.secret_box").arg(kSpaceColumns),
                                      QStringLiteral("JOIN spaces s ON s.id = k.space_id"));
    return sql::firstRow(q, ran, [](const QSqlQuery &row) {
        SigningKeySecret out;
        out.key = signingKeyFrom(row);
        out.space = spaceFrom(row, kSigningKeyColumnCount);
        out.sealedSecret = QByteArray::fromBase64(row.value(kSigningKeyColumnCount + 4).toString().toLatin1());
        return out;
    });
}

} // namespace imprint::store
