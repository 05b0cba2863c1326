#pragma once
// The error type of the store layer and its result type. Services build errors through
// the named constructors so the (code, field) order cannot be mixed up between files.

#include "server/common/expected.h"

#include <QString>

namespace imprint::store {

/// True when this thread's last database call failed because PostgreSQL could not be
/// reached (connection refused, or broken and not re-opened; server/store/database.cpp).
bool databaseUnavailable();

/// Why a store or service call failed; the HTTP layer maps kinds to statuses (400, 401,
/// 403, 404, 409, 429, 402, 500) and passes `code`, `field` and `message` through to problem+json.
struct ServiceError {
    enum class Kind {
        Invalid,
        Unauthorized,
        Forbidden,
        NotFound,
        Conflict,
        TooManyAttempts,
        QuotaExceeded,
        Database,
        Unavailable
    };
    Kind kind = Kind::Database;
    QString code; ///< machine-readable, e.g. "invalid_name", "key_not_found"
    QString field; ///< the offending input field for Invalid, else empty
    QString message; ///< human-readable, safe to show (no secrets)
    int retryAfterSeconds = 0; ///< TooManyAttempts, Unavailable: how long to wait (≥ 1), else 0

    /// Bad input: `code` (e.g. "invalid_name") about input `field`.
    static ServiceError invalid(const QString &code, const QString &field, const QString &message)
    {
        return {Kind::Invalid, code, field, message};
    }
    /// Refused whoever asks: the request carries its own authorisation and it does not
    /// hold (a signed URL with a wrong or expired signature).
    static ServiceError forbidden(const QString &code, const QString &message)
    {
        return {Kind::Forbidden, code, {}, message};
    }
    /// A row that does not exist (or is not visible to the caller).
    static ServiceError notFound(const QString &code, const QString &message)
    {
        return {Kind::NotFound, code, {}, message};
    }
    /// A write that clashes with an existing row.
    static ServiceError conflict(const QString &code, const QString &message, const QString &field = {})
    {
        return {Kind::Conflict, code, field, message};
    }
    /// Refused until `seconds` (≥ 1) have passed, e.g. after too many failed logins.
    static ServiceError tooManyAttempts(const QString &code, const QString &message, int seconds)
    {
        return {Kind::TooManyAttempts, code, {}, message, seconds};
    }
    /// Over a limit of the space's plan (docs/api.md, "Plans": 402), naming the `field`.
    static ServiceError quotaExceeded(const QString &code, const QString &field, const QString &message)
    {
        return {Kind::QuotaExceeded, code, field, message};
    }
    /// The database failed; details go to the log, never to the caller. When it failed
    /// because PostgreSQL cannot be reached (restarting, down), the request is not at
    /// fault and may succeed later: 503 `database_unavailable` with Retry-After.
    static ServiceError database()
    {
        if (databaseUnavailable())
            return {Kind::Unavailable,
                    QStringLiteral("database_unavailable"),
                    {},
                    QStringLiteral("The database is unavailable; retry in a moment."),
                    2};
        return {Kind::Database,
                QStringLiteral("database_error"),
                {},
                QStringLiteral("The database could not complete the request.")};
    }
};

/// A service result: the value or a ServiceError.
template<typename T>
using Result = common::Expected<T, ServiceError>;

/// The success value of a call that returns nothing.
using Done = common::Done;

} // namespace imprint::store
