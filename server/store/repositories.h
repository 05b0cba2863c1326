#pragma once
// Repositories: the only code that runs SQL (docs/architecture.md). Each one works on the
// calling thread's connection of a Database. Methods report SQL failures by returning
// false / std::nullopt and logging the driver's message (never bound values, so no
// secrets reach the log); callers turn that into a 500 "database_error".

#include "server/store/database.h"
#include "server/store/models.h"

#include <QList>

#include <optional>

namespace imprint::store {

/// spaces
class SpaceRepository
{
public:
    explicit SpaceRepository(const Database &db)
        : m_db(db)
    { }
    bool insert(const Space &space);
    std::optional<Space> byName(const QString &name, bool *ok = nullptr);
    std::optional<Space> byId(const QString &id, bool *ok = nullptr);
    std::optional<QList<Space>> all();
    /// False when the update fails; *found says whether a row matched.
    bool setPlan(const QString &spaceId, const QString &plan, bool *found);

private:
    const Database &m_db;
};

/// users and memberships
class UserRepository
{
public:
    explicit UserRepository(const Database &db)
        : m_db(db)
    { }
    bool insert(const User &user);
    std::optional<User> byEmail(const QString &email, bool *ok = nullptr);
    bool setPasswordHash(const QString &userId, const QString &hash);
    /// Inserts or changes the role of (space, user).
    bool upsertMembership(const QString &spaceId, const QString &userId, Role role);
    /// Memberships of one user, oldest first.
    std::optional<QList<Membership>> membershipsOfUser(const QString &userId);
    /// Every membership, optionally of one space (CLI `user list`).
    std::optional<QList<Membership>> memberships(const QString &spaceId = {});

private:
    const Database &m_db;
};

/// sessions
class SessionRepository
{
public:
    explicit SessionRepository(const Database &db)
        : m_db(db)
    { }
    bool insert(const QString &id, const QString &tokenHash, const QString &userId, const QString &spaceId,
                qint64 expiresAt);
    /// The unexpired session whose token hashes to tokenHash, with membership joined.
    std::optional<SessionInfo> byTokenHash(const QString &tokenHash, qint64 now, bool *ok = nullptr);
    bool removeByTokenHash(const QString &tokenHash);
    bool removeExpired(qint64 now);

private:
    const Database &m_db;
};

/// api_keys
class ApiKeyRepository
{
public:
    explicit ApiKeyRepository(const Database &db)
        : m_db(db)
    { }
    bool insert(const ApiKey &key, const QString &tokenHash);
    /// Number of active (not revoked) keys of a space, expired ones included.
    std::optional<int> countActive(const QString &spaceId);
    /// One page of active keys of a space, newest first.
    std::optional<QList<ApiKey>> listActive(const QString &spaceId, int offset, int limit);
    /// Every key of a space, revoked ones too (CLI).
    std::optional<QList<ApiKey>> listAll(const QString &spaceId);
    /// The active key with this id in this space (spaceId empty = any space).
    std::optional<ApiKey> activeById(const QString &spaceId, const QString &id, bool *ok = nullptr);
    /// Marks the key revoked; *found is false when no active key matched.
    bool revoke(const QString &spaceId, const QString &id, const QString &actor, qint64 now, bool *found);
    /// The active key with this token hash and its space.
    std::optional<std::pair<ApiKey, Space>> byTokenHash(const QString &tokenHash, bool *ok = nullptr);
    bool touch(const QString &id, qint64 now);

private:
    const Database &m_db;
};

/// audit_log
class AuditRepository
{
public:
    explicit AuditRepository(const Database &db)
        : m_db(db)
    { }
    /// One row: who (actor: user id, "cli" or "system") did what to which target.
    bool append(const QString &spaceId, const QString &actor, const QString &action, const QString &target,
                const QString &detail = {});
    /// Number of rows with this action (tests, diagnostics).
    std::optional<int> count(const QString &action);

private:
    const Database &m_db;
};

} // namespace imprint::store
