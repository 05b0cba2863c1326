#pragma once
// Authentication helpers shared by all routes (DESIGN §4 "Auth"): API tokens for renders,
// dashboard sessions (cookie or Bearer) for key management, and the login throttle.
// Both authenticate functions touch the database: call them on any thread, never with
// the Responder (they only read the HttpRequest).

#include "server/http/message.h"
#include "server/store/services.h"

#include <QHash>
#include <QMutex>

#include <deque>
#include <initializer_list>

namespace imprint::http {

/// Name of the session cookie set by POST /auth/login.
inline constexpr char kSessionCookie[] = "imprint_session";

/// The API token of a request: `Authorization: Bearer <token>` or else `?api_token=`.
/// Empty when neither is present.
QString apiTokenOf(const HttpRequest &request);

/// Authenticates a render request by API token. 401 problem+json ("missing_token",
/// "invalid_token" — unknown or revoked —, "token_expired") otherwise. On success returns
/// the key and its space (id, name, plan) and has updated last_used_at. Issue 5 uses this.
Outcome<store::ApiKeyPrincipal> authenticateApiToken(const HttpRequest &request, store::ApiKeyService &keys);

/// The session token of a request: the `imprint_session` cookie, else a Bearer token
/// that looks like a session token (`ses_…`). Empty when neither.
QString sessionTokenOf(const HttpRequest &request);

/// Authenticates a dashboard request: 401 "not_logged_in" without a live session; when
/// `roles` is not empty, 403 "forbidden" if the session's role is not among them.
/// Returns the session with user, space (incl. plan) and role.
Outcome<store::SessionInfo> authenticateSession(const HttpRequest &request, store::AccountService &accounts,
                                                std::initializer_list<store::Role> roles = {});

/// Failed-login counter (issue 2: 10 failures per e-mail or per client address within
/// 15 minutes → 429 with Retry-After). In memory, per process; thread-safe.
class LoginThrottle
{
public:
    LoginThrottle(int limit, int windowSeconds) : m_limit(limit), m_windowMs(qint64(windowSeconds) * 1000) {}

    /// Seconds the caller must wait before trying (≥ 1), or 0 when a login may be tried.
    int retryAfterSeconds(const QString &email, const QString &address);
    /// Records one failed login for both keys.
    void recordFailure(const QString &email, const QString &address);
    /// Forgets the e-mail's failures after a successful login (the address's stay).
    void recordSuccess(const QString &email);

private:
    void prune(std::deque<qint64> &times, qint64 now) const;

    QMutex m_mutex;
    int m_limit;
    qint64 m_windowMs;
    QHash<QString, std::deque<qint64>> m_failures;  // "e:<email>" / "a:<address>" → times (ms)
};

} // namespace imprint::http
