#pragma once
// Plain records of the account tables (docs/architecture.md). Timestamps are epoch milliseconds
// UTC (0 = unset), as stored.

#include <QString>

namespace imprint::store {

/// A tenant. plan is one of the Config plan names (free, pro, business).
struct Space {
    QString id;
    QString name;
    QString plan;
    qint64 createdAt = 0;
};

/// A dashboard account. email is stored lower-cased.
struct User {
    QString id;
    QString email;
    QString passwordHash;
    qint64 createdAt = 0;
};

/// Roles of a user in a space, strongest first (docs/api.md).
enum class Role { Owner, Admin, Member };

/// "owner", "admin", "member".
QString roleName(Role role);
/// Inverse of roleName(); false for anything else.
bool parseRole(const QString &text, Role *role);

/// A user's membership in a space, with the space and user joined in.
struct Membership {
    Space space;
    User user;
    Role role = Role::Member;
};

/// An API key record. The token itself is never stored; tokenHash is its SHA-256.
struct ApiKey {
    QString id;
    QString spaceId;
    QString name;
    QString prefix; ///< first characters of the token, for display
    QString createdBy; ///< user id, empty when made by the CLI
    QString createdByEmail; ///< joined for display, empty when unknown
    qint64 createdAt = 0;
    qint64 expiresAt = 0;
    qint64 lastUsedAt = 0;
    qint64 revokedAt = 0;
};

/// A live dashboard session, with whom and where it acts.
struct SessionInfo {
    QString sessionId;
    qint64 expiresAt = 0;
    Membership membership;
};

/// What an API token authenticates as: the key and its space (with plan).
struct ApiKeyPrincipal {
    QString keyId;
    Space space;
};

} // namespace imprint::store
