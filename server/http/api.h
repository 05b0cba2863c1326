#pragma once
// The account, session, API key and signing key routes, plus /health: the table is in
// api.cpp, the handlers in routes/auth.cpp, routes/keys.cpp and routes/signing_keys.cpp.
// Api owns the services the routes call; keep it alive longer than the HttpServer whose
// router it fills (the server waits for its workers on destruction).

#include "server/common/rate_limiter.h"
#include "server/http/auth.h"
#include "server/http/router.h"
#include "server/service/account_service.h"
#include "server/service/api_key_service.h"
#include "server/service/signing_key_service.h"
#include "server/store/config.h"
#include "server/store/database.h"

#include <functional>
#include <utility>
#include <vector>

namespace imprint::http {

/// The services and policies behind the routes.
class Api
{
public:
    /// `dataDir` holds the server key that seals signing secrets (SigningKeyService).
    Api(const store::Database &db, store::Config config, const QString &dataDir);

    /// Adds every route of this module to `router`:
    /// GET /api/v1/health; POST /api/v1/auth/login, POST /api/v1/auth/logout,
    /// GET /api/v1/auth/me; POST /api/v1/tokens/api-keys,
    /// GET /api/v1/tokens/api-keys/index, DELETE /api/v1/tokens/api-keys/{id};
    /// GET /api/v1/tokens/verify (API-token introspection: which key and space a token
    /// is, so scripts can check a token without rendering); POST /api/v1/signing-keys,
    /// GET /api/v1/signing-keys, DELETE /api/v1/signing-keys/{id}.
    void registerRoutes(Router &router);

    const store::Config &config() const { return m_config; }
    const store::Database &database() const { return m_db; }
    service::AccountService &accounts() { return m_accounts; }
    service::ApiKeyService &keys() { return m_keys; }
    service::SigningKeyService &signingKeys() { return m_signingKeys; }

    /// JSON form of a session: user {id, email}, space {id, name, plan}, role, expiresAt.
    static QJsonObject sessionJson(const store::SessionInfo &session);

    /// A component's state as GET /health reports it.
    struct HealthCheck {
        QJsonObject state; ///< shown under the component's name
        bool healthy = true; ///< false: /health answers 503 "degraded"
    };
    /// Adds a component to GET /health's answer, as `name`. `check` is called on the
    /// thread that answers /health, each time; it must be cheap and thread-safe.
    void addHealthCheck(const QString &name, std::function<HealthCheck()> check);

private:
    HttpResponse health();
    void login(HttpRequest &&request, Responder &&responder);
    HttpResponse logout(const HttpRequest &request);
    HttpResponse me(const HttpRequest &request);
    HttpResponse createKey(const SessionContext &session, const HttpRequest &request);
    HttpResponse listKeys(const SessionContext &session, const HttpRequest &request);
    HttpResponse revokeKey(const SessionContext &session, const HttpRequest &request);
    HttpResponse verifyToken(const HttpRequest &request);
    HttpResponse createSigningKey(const SessionContext &session, const HttpRequest &request);
    HttpResponse listSigningKeys(const SessionContext &session, const HttpRequest &request);
    HttpResponse revokeSigningKey(const SessionContext &session, const HttpRequest &request);
    HttpResponse signWithSigningKey(const SessionContext &session, const HttpRequest &request);

    const store::Database &m_db;
    std::vector<std::pair<QString, std::function<HealthCheck()>>> m_healthChecks;
    store::Config m_config;
    service::AccountService m_accounts;
    service::ApiKeyService m_keys;
    service::SigningKeyService m_signingKeys;
    /// Login attempts per client address (`auth.loginRateLimit`: perSecond 5, burst 30),
    /// successful or not, checked before a password is hashed.
    common::RateLimiter m_loginRate;
};

} // namespace imprint::http
