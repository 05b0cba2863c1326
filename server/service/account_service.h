#pragma once
// The account use cases: spaces, users and memberships, the password policy, login (with
// its failed-login throttle) and sessions. The HTTP routes, the CLI and the demo seeding call these, never SQL.
// Thread-safe as far as the Database is (each thread uses its own connection); the
// Argon2 calls are slow, so HTTP code runs login and password changes on the worker pool.

#include "server/common/login_throttle.h"
#include "server/store/config.h"
#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/models.h"

#include <QList>

#include <optional>

namespace imprint::service {

using store::Done;
using store::ProblemCode;
using store::Result;
using store::ServiceError;

/// A successful login: the plaintext session token (returned once, stored hashed).
struct LoginResult {
    QString token;
    store::SessionInfo session;
};

/// Spaces, users, memberships, sessions.
class AccountService
{
public:
    /// Works on `db` (which must outlive it) with the plans and session lifetime of `config`.
    AccountService(const store::Database &db, store::Config config)
        : m_db(db)
        , m_config(std::move(config))
        , m_throttle(m_config.loginFailureLimit(), m_config.loginFailureWindowSeconds())
    { }

    /// New space. name: 1–64 of [A-Za-z0-9._-]; plan: a Config plan. Conflict if it exists.
    Result<store::Space> createSpace(const QString &name, const QString &plan, const QString &actor);
    /// Changes the plan of the space called `name`.
    Result<store::Space> setPlan(const QString &name, const QString &plan, const QString &actor);
    /// Every space, by name; Database on failure.
    Result<QList<store::Space>> listSpaces();
    /// The space called `name`; NotFound "space_not_found" (field "space") when none.
    Result<store::Space> spaceByName(const QString &name);

    /// Adds (or re-roles) the user `email` in space `spaceName`, creating the space on the
    /// config's spaces.defaultPlan when it does not exist (the CLI asks for that with
    /// --create-space) and the user with `password` when new (an existing
    /// user keeps their password). One transaction. Slow: hashes with Argon2id.
    /// *createdUser tells which case happened.
    Result<store::Membership> addUser(const QString &email, const QString &password, const QString &spaceName,
                                      store::Role role, const QString &actor, bool *createdUser = nullptr);
    /// Replaces the password of `email` and ends every session of that user except the one
    /// of `keepSessionToken` (a plaintext session token; empty, as from the CLI: all).
    /// Slow: hashes with Argon2id.
    Result<Done> setPassword(const QString &email, const QString &password, const QString &actor,
                             const QString &keepSessionToken = {});
    /// Memberships, of one space or (empty name) of all.
    Result<QList<store::Membership>> listUsers(const QString &spaceName);

    /// Whether a login as `email` from `clientAddress` may be tried now: TooManyAttempts
    /// "too_many_login_attempts" (retryAfterSeconds set) once the config's number of failed
    /// logins for that e-mail, or from that address, fell within its window; else Done.
    /// Cheap: a transport can ask before it queues the slow login().
    Result<Done> checkLoginAllowed(const QString &email, const QString &clientAddress);
    /// Checks checkLoginAllowed(), verifies the password (Argon2id, slow; spends the same
    /// time on unknown e-mails) and opens a session in `spaceName` or, when empty, the
    /// user's oldest space. Unauthorized with code "invalid_credentials" on any mismatch;
    /// every Unauthorized answer counts as a failure for the e-mail and the address, a
    /// success forgets the e-mail's failures. `clientAddress` is the peer's address (empty
    /// for in-process callers, which then share one address).
    Result<LoginResult> login(const QString &email, const QString &password, const QString &spaceName,
                              const QString &clientAddress = {});
    /// The live session of a plaintext session token; NotFound/Unauthorized when none.
    Result<store::SessionInfo> session(const QString &token);
    /// Ends the session of the token (no error when it did not exist).
    Result<Done> logout(const QString &token);

    /// The export limits of `plan` as the config names them; zero limits for a plan it no
    /// longer names (what GET /tokens/verify reports for it).
    store::PlanLimits planLimits(const QString &plan) const;

    /// Minimal password policy (8–1024 characters); Invalid on "password" otherwise.
    static std::optional<ServiceError> checkPassword(const QString &password);
    /// Normalised e-mail (trimmed, lower-case) or std::nullopt when it is not name@host.
    static std::optional<QString> normaliseEmail(const QString &email);

private:
    Result<LoginResult> verifyLogin(const QString &email, const QString &password, const QString &spaceName);

    const store::Database &m_db;
    store::Config m_config;
    // Per instance: the transport that takes logins keeps one AccountService for them.
    common::LoginThrottle m_throttle;
};

} // namespace imprint::service
