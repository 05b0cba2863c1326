#pragma once
// Authentication helpers shared by all routes: API tokens for renders,
// dashboard sessions (cookie or Bearer) for key management.
// Both authenticate functions touch the database: call them on any thread, never with
// the Responder (they only read the HttpRequest).

#include "server/http/message.h"
#include "server/http/router.h"
#include "server/service/account_service.h"
#include "server/service/api_key_service.h"

#include <initializer_list>
#include <vector>

namespace imprint::http {

/// Name of the session cookie set by POST /auth/login.
inline constexpr char kSessionCookie[] = "imprint_session";

/// The API token of a request: `Authorization: Bearer <token>` or else `?api_token=`.
/// Empty when neither is present.
QString apiTokenOf(const HttpRequest &request);

/// Authenticates a render request by API token. 401 problem+json ("missing_token",
/// "invalid_token" — unknown or revoked —, "token_expired") otherwise. On success returns
/// the key and its space (id, name, plan) and has updated last_used_at.
Outcome<store::ApiKeyPrincipal> authenticateApiToken(const HttpRequest &request, service::ApiKeyService &keys);
/// The same for a token already read with apiTokenOf().
Outcome<store::ApiKeyPrincipal> authenticateApiToken(const QString &token, service::ApiKeyService &keys);

/// Nothing when `principal`'s key carries `scope` (ApiKeyService::scopeNames()); else a
/// 403 `missing_scope` problem whose detail names the scope (field "scopes").
std::optional<HttpResponse> missingScope(const store::ApiKeyPrincipal &principal, const QString &scope);

/// The session token of a request: the `imprint_session` cookie, else a Bearer token
/// that looks like a session token (`ses_…`). Empty when neither.
QString sessionTokenOf(const HttpRequest &request);

/// Authenticates a dashboard request: 401 "not_logged_in" without a live session; when
/// `roles` is not empty, 403 "forbidden" if the session's role is not among them.
/// Returns the session with user, space (incl. plan) and role.
Outcome<store::SessionInfo> authenticateSession(const HttpRequest &request, service::AccountService &accounts,
                                                std::initializer_list<store::Role> roles = {});

/// What a session-guarded route handler is given: the live session, and for brevity the
/// space it acts in and the acting user's id (for audit rows).
struct SessionContext {
    store::SessionInfo session;
    QString spaceId;
    QString actor;
};

/// A route handler that runs only for an authenticated dashboard session.
using SessionHandler = std::function<HttpResponse(const SessionContext &session, const HttpRequest &request)>;

/// Wraps `handler` into a route handler that first authenticates the dashboard session
/// (authenticateSession(): 401 "not_logged_in", 403 "forbidden" when `roles` is not empty
/// and the session's role is not among them) and answers that problem instead of calling
/// `handler`. `roles` comes from the use case (e.g. ApiKeyService::managerRoles()).
/// `accounts` must outlive the router.
SyncHandler withSession(service::AccountService &accounts, std::vector<store::Role> roles, SessionHandler handler);

/// withSession() that also admits an API key carrying `scope` when the request has no
/// session token but an API token: the key's space is the context's space and its id the
/// actor (audit rows); `session` then holds only `membership.space` (the key's space, with its plan). A key without the scope is 403
/// `missing_scope`; an invalid key 401 as for renders. `keys` must outlive the router.
SyncHandler withSessionOrKey(service::AccountService &accounts, service::ApiKeyService &keys,
                             std::vector<store::Role> roles, QString scope, SessionHandler handler);

} // namespace imprint::http
