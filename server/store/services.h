#pragma once
// Account and API key services: the account, session and key rules on top of the
// repositories. Routes and CLI commands call these, never SQL. Thread-safe as far as the
// Database is (each thread uses its own connection); the Argon2 calls are slow, so HTTP
// code runs login and password changes on the worker pool.

#include "server/store/config.h"
#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/models.h"

#include <QList>

#include <optional>

namespace imprint::store {

/// A successful login: the plaintext session token (returned once, stored hashed).
struct LoginResult {
    QString token;
    SessionInfo session;
};

/// A new API key with its plaintext token (shown once, stored hashed).
struct CreatedKey {
    ApiKey key;
    QString token;
};

/// One page of the key list.
struct KeyPage {
    QList<ApiKey> items;
    int count = 0; ///< all active keys of the space
    int pagesCount = 0; ///< ceil(count / perPage), 0 when count is 0
    int page = 1;
    int perPage = 20;
};

/// Spaces, users, memberships, sessions.
class AccountService
{
public:
    AccountService(const Database &db, Config config)
        : m_db(db)
        , m_config(std::move(config))
    { }

    /// New space. name: 1–64 of [A-Za-z0-9._-]; plan: a Config plan. Conflict if it exists.
    Result<Space> createSpace(const QString &name, const QString &plan, const QString &actor);
    /// Changes the plan of the space called `name`.
    Result<Space> setPlan(const QString &name, const QString &plan, const QString &actor);
    Result<QList<Space>> listSpaces();
    Result<Space> spaceByName(const QString &name);

    /// Adds (or re-roles) the user `email` in space `spaceName`, creating the space on the
    /// free plan when it does not exist and the user with `password` when new (an existing
    /// user keeps their password). One transaction. Slow: hashes with Argon2id.
    /// *createdUser tells which case happened.
    Result<Membership> addUser(const QString &email, const QString &password, const QString &spaceName, Role role,
                               const QString &actor, bool *createdUser = nullptr);
    /// Replaces the password of `email`. Slow: hashes with Argon2id.
    Result<Done> setPassword(const QString &email, const QString &password, const QString &actor);
    /// Memberships, of one space or (empty name) of all.
    Result<QList<Membership>> listUsers(const QString &spaceName);

    /// Verifies the password (Argon2id, slow; spends the same time on unknown e-mails) and
    /// opens a session in `spaceName` or, when empty, the user's oldest space.
    /// Unauthorized with code "invalid_credentials" on any mismatch.
    Result<LoginResult> login(const QString &email, const QString &password, const QString &spaceName);
    /// The live session of a plaintext session token; NotFound/Unauthorized when none.
    Result<SessionInfo> session(const QString &token);
    /// Ends the session of the token (no error when it did not exist).
    Result<Done> logout(const QString &token);

    /// Minimal password policy (8–1024 characters); Invalid on "password" otherwise.
    static std::optional<ServiceError> checkPassword(const QString &password);
    /// Normalised e-mail (trimmed, lower-case) or std::nullopt when it is not name@host.
    static std::optional<QString> normaliseEmail(const QString &email);

private:
    const Database &m_db;
    Config m_config;
};

/// API keys of a space.
class ApiKeyService
{
public:
    explicit ApiKeyService(const Database &db)
        : m_db(db)
    { }

    /// New key named `name` (1–100 characters) expiring at `expiresAt` (epoch ms, 0 = never;
    /// must be in the future). Writes an audit row "api_key.create". actorUserId empty = CLI.
    Result<CreatedKey> create(const QString &spaceId, const QString &name, qint64 expiresAt,
                              const QString &actorUserId);
    /// Page `page` (≥ 1) of `perPage` (1–100) active keys, newest first.
    Result<KeyPage> listPage(const QString &spaceId, int page, int perPage);
    /// Every key of a space, revoked ones included (CLI).
    Result<QList<ApiKey>> listAll(const QString &spaceId);
    /// Revokes key `keyId` of `spaceId` (spaceId empty: of whatever space owns it — CLI only).
    /// NotFound "key_not_found" when no active key matches. Writes "api_key.revoke".
    Result<Done> revoke(const QString &spaceId, const QString &keyId, const QString &actor);
    /// The key and space of a plaintext token. Unauthorized with code "invalid_token"
    /// (unknown or revoked) or "token_expired". Updates last_used_at (at most once a second).
    Result<ApiKeyPrincipal> authenticate(const QString &token);

    /// Characters of the token kept as its display prefix ("imp_" + 6).
    static constexpr int kPrefixLength = 10;

private:
    const Database &m_db;
};

} // namespace imprint::store
