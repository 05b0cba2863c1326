#pragma once
// The session and token-introspection routes: POST /api/v1/auth/login, POST
// /api/v1/auth/logout, GET /api/v1/auth/me and GET /api/v1/tokens/verify (which key and
// space a token is, so scripts can check a token without rendering). The rules (password
// check, failed-login throttle, session lifetime, token validity) are the services'.

#include "server/common/rate_limiter.h"
#include "server/http/auth.h"
#include "server/http/route_module.h"
#include "server/service/account_service.h"
#include "server/service/api_key_service.h"
#include "server/store/config.h"

namespace imprint::http {

/// The auth routes over the account and API key use cases (both must outlive this).
class AuthRoutes : public RouteModule
{
public:
    /// `config`'s auth.loginRateLimit (perSecond 5, burst 30) bounds the login attempts of
    /// one client address.
    AuthRoutes(service::AccountService &accounts, service::ApiKeyService &keys, const store::Config &config);

    void registerRoutes(Router &router) override;

    /// JSON form of a session: user {id, email}, space {id, name, plan}, role, expiresAt.
    static QJsonObject sessionJson(const store::SessionInfo &session);

private:
    void login(HttpRequest &&request, Responder &&responder);
    HttpResponse logout(const HttpRequest &request);
    HttpResponse me(const HttpRequest &request);
    HttpResponse verifyToken(const HttpRequest &request);

    service::AccountService &m_accounts;
    service::ApiKeyService &m_keys;
    /// Login attempts per client address, successful or not, checked before a password is
    /// hashed.
    common::RateLimiter m_loginRate;
};

} // namespace imprint::http
