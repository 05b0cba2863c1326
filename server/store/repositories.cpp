#include "server/store/repositories.h"

#include "server/store/crypto.h"
#include "server/store/sql.h"

#include <QLoggingCategory>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QVariant>

namespace imprint::store {

using sql::kSpaceColumns;
using sql::orNull;
using sql::spaceFrom;

namespace {

const QString kUserColumns = QStringLiteral("u.id, u.email, u.password_hash, u.created_at");

User userFrom(const QSqlQuery &q, int at)
{
    return User{q.value(at).toString(), q.value(at + 1).toString(), q.value(at + 2).toString(),
                q.value(at + 3).toLongLong()};
}

Role roleFrom(const QVariant &v)
{
    Role role = Role::Member;
    parseRole(v.toString(), &role);
    return role;
}

Space firstSpace(const QSqlQuery &q)
{
    return spaceFrom(q, 0);
}

Membership membershipFrom(const QSqlQuery &q)
{
    return Membership{spaceFrom(q, 0), userFrom(q, 4), roleFrom(q.value(8))};
}

} // namespace

QString roleName(Role role)
{
    switch (role) {
    case Role::Owner: return QStringLiteral("owner");
    case Role::Admin: return QStringLiteral("admin");
    case Role::Member: return QStringLiteral("member");
    }
    return QStringLiteral("member");
}

bool parseRole(const QString &text, Role *role)
{
    for (Role r : {Role::Owner, Role::Admin, Role::Member}) {
        if (text == roleName(r)) {
            *role = r;
            return true;
        }
    }
    return false;
}

// ---- spaces

Result<Done> SpaceRepository::insert(const Space &s)
{
    return sql::write(m_db, QStringLiteral("INSERT INTO spaces (id, name, plan, created_at) VALUES (?, ?, ?, ?)"), s.id,
                      s.name, s.plan, s.createdAt);
}

Result<std::optional<Space>> SpaceRepository::byName(const QString &name)
{
    return sql::selectOne(m_db, QStringLiteral("SELECT %1 FROM spaces s WHERE s.name = ?").arg(kSpaceColumns),
                          firstSpace, name);
}

Result<std::optional<Space>> SpaceRepository::byId(const QString &id)
{
    return sql::selectOne(m_db, QStringLiteral("SELECT %1 FROM spaces s WHERE s.id = ?").arg(kSpaceColumns), firstSpace,
                          id);
}

Result<QList<Space>> SpaceRepository::all()
{
    return sql::selectAll(m_db, QStringLiteral("SELECT %1 FROM spaces s ORDER BY s.name").arg(kSpaceColumns),
                          firstSpace);
}

Result<bool> SpaceRepository::setPlan(const QString &spaceId, const QString &plan)
{
    QSqlQuery q(m_db.connection());
    const auto updated = sql::writeMatched(q, QStringLiteral("UPDATE spaces SET plan = ? WHERE id = ?"), plan, spaceId);
    if (updated && *updated) {
        if (const auto bumped = bumpAuthGeneration(m_db); !bumped)
            return bumped.error();
    }
    return updated;
}

// ---- users

Result<Done> UserRepository::insert(const User &u)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO users (id, email, password_hash, created_at, updated_at)"
                                     " VALUES (?, ?, ?, ?, ?)"),
                      u.id, u.email, u.passwordHash, u.createdAt, u.createdAt);
}

Result<std::optional<User>> UserRepository::byEmail(const QString &email)
{
    QSqlQuery q(m_db.connection());
    const bool ran = sql::run(q, QStringLiteral("SELECT %1 FROM users u WHERE u.email = ?").arg(kUserColumns), email);
    return sql::firstRow(q, ran, [](const QSqlQuery &row) { return userFrom(row, 0); });
}

Result<Done> UserRepository::setPasswordHash(const QString &userId, const QString &hash)
{
    return sql::write(m_db, QStringLiteral("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?"), hash,
                      nowMs(), userId);
}

Result<Done> UserRepository::upsertMembership(const QString &spaceId, const QString &userId, Role role)
{
    QSqlQuery q(m_db.connection());
    const auto updated
        = sql::writeMatched(q, QStringLiteral("UPDATE memberships SET role = ? WHERE space_id = ? AND user_id = ?"),
                            roleName(role), spaceId, userId);
    if (!updated)
        return updated.error();
    if (*updated)
        return Done{};
    QSqlQuery ins(m_db.connection());
    return sql::write(ins,
                      QStringLiteral("INSERT INTO memberships (space_id, user_id, role, created_at)"
                                     " VALUES (?, ?, ?, ?)"),
                      spaceId, userId, roleName(role), nowMs());
}

Result<QList<Membership>> UserRepository::membershipsOfUser(const QString &userId)
{
    return sql::selectAll(m_db,
                          QStringLiteral("SELECT %1, %2, m.role FROM memberships m"
                                         " JOIN spaces s ON s.id = m.space_id JOIN users u ON u.id = m.user_id"
                                         " WHERE m.user_id = ? ORDER BY m.created_at, s.name")
                              .arg(kSpaceColumns, kUserColumns),
                          membershipFrom, userId);
}

Result<QList<Membership>> UserRepository::memberships(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    const QString sql
        = QStringLiteral("SELECT %1, %2, m.role FROM memberships m"
                         " JOIN spaces s ON s.id = m.space_id JOIN users u ON u.id = m.user_id"
                         " %3 ORDER BY s.name, u.email")
              .arg(kSpaceColumns, kUserColumns, spaceId.isEmpty() ? QString() : QStringLiteral("WHERE m.space_id = ?"));
    const bool ran = spaceId.isEmpty() ? sql::run(q, sql) : sql::run(q, sql, spaceId);
    return sql::allRows(q, ran, membershipFrom);
}

// ---- sessions

Result<Done> SessionRepository::insert(const QString &id, const QString &tokenHash, const QString &userId,
                                       const QString &spaceId, qint64 expiresAt)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO sessions (id, token_hash, user_id, space_id, created_at, expires_at)"
                                     " VALUES (?, ?, ?, ?, ?, ?)"),
                      id, tokenHash, userId, spaceId, nowMs(), expiresAt);
}

Result<std::optional<SessionInfo>> SessionRepository::byTokenHash(const QString &tokenHash, qint64 now)
{
    // The membership join means a session dies with the user's membership. Every console
    // request runs this: a cached statement, its text built once.
    static const QString kSql = QStringLiteral("SELECT se.id, se.expires_at, %1, %2, m.role FROM sessions se"
                                               " JOIN memberships m ON m.space_id = se.space_id AND m.user_id = se.user_id"
                                               " JOIN spaces s ON s.id = se.space_id JOIN users u ON u.id = se.user_id"
                                               " WHERE se.token_hash = ? AND se.expires_at > ?")
                                    .arg(kSpaceColumns, kUserColumns);
    return sql::cachedFirstRow(
        m_db, kSql,
        [](const QSqlQuery &row) {
            return SessionInfo{.sessionId = row.value(0).toString(),
                               .expiresAt = row.value(1).toLongLong(),
                               .membership = {spaceFrom(row, 2), userFrom(row, 6), roleFrom(row.value(10))}};
        },
        tokenHash, now);
}

Result<Done> SessionRepository::removeByTokenHash(const QString &tokenHash)
{
    return sql::write(m_db, QStringLiteral("DELETE FROM sessions WHERE token_hash = ?"), tokenHash);
}

Result<Done> SessionRepository::removeForUser(const QString &userId, const QString &keepTokenHash)
{
    QSqlQuery q(m_db.connection());
    // No hash to keep is a null QString, which binds as NULL: `<> NULL` would match nothing.
    if (keepTokenHash.isEmpty())
        return sql::write(q, QStringLiteral("DELETE FROM sessions WHERE user_id = ?"), userId);
    return sql::write(q, QStringLiteral("DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?"), userId,
                      keepTokenHash);
}

Result<Done> SessionRepository::removeExpired(qint64 now)
{
    return sql::write(m_db, QStringLiteral("DELETE FROM sessions WHERE expires_at <= ?"), now);
}

// ---- audit

Result<Done> AuditRepository::append(const QString &spaceId, const QString &actor, const QString &action,
                                     const QString &target, const QString &detail)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO audit_log (id, space_id, actor, action, target, detail, created_at)"
                                     " VALUES (?, ?, ?, ?, ?, ?, ?)"),
                      randomId(QStringLiteral("aud_")), orNull(spaceId), actor, action, orNull(target), orNull(detail),
                      nowMs());
}

Result<int> AuditRepository::count(const QString &action)
{
    return sql::selectCount(m_db, QStringLiteral("SELECT COUNT(*) FROM audit_log WHERE action = ?"), action);
}

} // namespace imprint::store
