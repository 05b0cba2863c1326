#pragma once
// The error type of the store layer and its result type. Services build errors through
// the named constructors so the (code, field) order cannot be mixed up between files.

#include "server/common/expected.h"
#include "server/common/problem_code.h"

#include <QString>

namespace imprint::store {

/// True when this thread's last database call failed because PostgreSQL could not be
/// reached (connection refused, or broken and not re-opened; server/store/database.cpp).
bool databaseUnavailable();

using common::ProblemCode;

/// Why a store or service call failed: a ProblemCode of server/common/problem_code.h,
/// whose row gives the HTTP status; the HTTP layer passes `code`, `field` and `message`
/// through to problem+json.
struct ServiceError {
    /// The class of failure, derived from the code's status, for callers that react to
    /// it (retry, count a failed login) rather than report it.
    enum class Kind {
        Invalid, ///< 400
        Unauthorized, ///< 401
        Forbidden, ///< 403
        NotFound, ///< 404
        Conflict, ///< 409
        TooManyAttempts, ///< 429
        QuotaExceeded, ///< 402
        Database, ///< 500 (and any other status)
        Unavailable ///< 503
    };
    ProblemCode code = ProblemCode::DatabaseError; ///< machine-readable, e.g. InvalidName, KeyNotFound
    QString field; ///< the offending input field of a 4xx, else empty
    QString message; ///< human-readable, safe to show (no secrets)
    int retryAfterSeconds = 0; ///< TooManyAttempts, Unavailable: how long to wait (≥ 1), else 0

    /// The HTTP status of `code` (its row in the problem table).
    int status() const { return common::problemStatus(code); }
    /// The wire name of `code` ("invalid_name", ...).
    QString codeName() const { return common::problemCodeName(code); }
    /// The class of `code`'s status.
    Kind kind() const
    {
        switch (status()) {
        case 400:
        case 422: return Kind::Invalid;
        case 401: return Kind::Unauthorized;
        case 402: return Kind::QuotaExceeded;
        case 403: return Kind::Forbidden;
        case 404: return Kind::NotFound;
        case 409: return Kind::Conflict;
        case 429: return Kind::TooManyAttempts;
        case 503: return Kind::Unavailable;
        default: return Kind::Database;
        }
    }

    /// Bad input: `code` (a 400, e.g. InvalidName) about input `field`.
    static ServiceError invalid(ProblemCode code, const QString &field, const QString &message)
    {
        return {code, field, message};
    }
    /// Who asks is not known (a 401 code): no, a wrong or an expired credential.
    static ServiceError unauthorized(ProblemCode code, const QString &message) { return {code, {}, message}; }
    /// Refused whoever asks: the request carries its own authorisation and it does not
    /// hold (a signed URL with a wrong or expired signature).
    static ServiceError forbidden(ProblemCode code, const QString &message) { return {code, {}, message}; }
    /// A row that does not exist (or is not visible to the caller), optionally naming the
    /// input `field` that named it.
    static ServiceError notFound(ProblemCode code, const QString &message, const QString &field = {})
    {
        return {code, field, message};
    }
    /// A write that clashes with an existing row.
    static ServiceError conflict(ProblemCode code, const QString &message, const QString &field = {})
    {
        return {code, field, message};
    }
    /// Refused until `seconds` (≥ 1) have passed, e.g. after too many failed logins.
    static ServiceError tooManyAttempts(ProblemCode code, const QString &message, int seconds)
    {
        return {code, {}, message, seconds};
    }
    /// Over a limit of the space's plan (docs/api.md, "Plans": 402), naming the `field`.
    static ServiceError quotaExceeded(ProblemCode code, const QString &field, const QString &message)
    {
        return {code, field, message};
    }
    /// The database failed; details go to the log, never to the caller. When it failed
    /// because PostgreSQL cannot be reached (restarting, down), the request is not at
    /// fault and may succeed later: 503 `database_unavailable` with Retry-After.
    static ServiceError database()
    {
        if (databaseUnavailable())
            return {ProblemCode::DatabaseUnavailable,
                    {},
                    QStringLiteral("The database is unavailable; retry in a moment."),
                    2};
        return {ProblemCode::DatabaseError, {}, QStringLiteral("The database could not complete the request.")};
    }
};

/// A service result: the value or a ServiceError.
template<typename T>
using Result = common::Expected<T, ServiceError>;

/// The success value of a call that returns nothing.
using Done = common::Done;

} // namespace imprint::store
