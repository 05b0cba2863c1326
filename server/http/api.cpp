// The Api: its services and the table of its routes. The handlers are in routes/auth.cpp
// (health, login, logout, me, token introspection), routes/keys.cpp (API key management)
// and routes/signing_keys.cpp (URL-signing keys).
#include "server/http/api.h"

namespace imprint::http {

namespace {

const QString kApi = QStringLiteral("/api/v1");

double loginRate(const store::Config &config, const char *key, double fallback)
{
    return config.json()
        .value(QStringLiteral("auth"))
        .toObject()
        .value(QStringLiteral("loginRateLimit"))
        .toObject()
        .value(QLatin1String(key))
        .toDouble(fallback);
}

} // namespace

Api::Api(const store::Database &db, store::Config config, const QString &dataDir)
    : m_db(db)
    , m_config(config)
    , m_accounts(db, config)
    , m_keys(db)
    , m_signingKeys(db, dataDir)
    , m_loginRate(loginRate(config, "perSecond", 5), loginRate(config, "burst", 30))
{ }

void Api::registerRoutes(Router &router)
{
    auto keyRoute = [this](SessionHandler handler) {
        return withSession(m_accounts, service::ApiKeyService::managerRoles(), std::move(handler));
    };
    router.add("GET", kApi + QStringLiteral("/health"), [this](const HttpRequest &) { return health(); });
    router.addWithResponder("POST", kApi + QStringLiteral("/auth/login"),
                            [this](HttpRequest &&r, Responder &&resp) { login(std::move(r), std::move(resp)); });
    router.add("POST", kApi + QStringLiteral("/auth/logout"), [this](const HttpRequest &r) { return logout(r); });
    router.add("GET", kApi + QStringLiteral("/auth/me"), [this](const HttpRequest &r) { return me(r); });
    router.add("POST", kApi + QStringLiteral("/tokens/api-keys"),
               keyRoute([this](const SessionContext &s, const HttpRequest &r) { return createKey(s, r); }));
    router.add("GET", kApi + QStringLiteral("/tokens/api-keys/index"),
               keyRoute([this](const SessionContext &s, const HttpRequest &r) { return listKeys(s, r); }));
    router.add("DELETE", kApi + QStringLiteral("/tokens/api-keys/{id}"),
               keyRoute([this](const SessionContext &s, const HttpRequest &r) { return revokeKey(s, r); }));
    router.add("GET", kApi + QStringLiteral("/tokens/verify"), [this](const HttpRequest &r) { return verifyToken(r); });

    auto signingKeyRoute = [this](SessionHandler handler) {
        return withSession(m_accounts, service::SigningKeyService::managerRoles(), std::move(handler));
    };
    router.add(
        "POST", kApi + QStringLiteral("/signing-keys"),
        signingKeyRoute([this](const SessionContext &s, const HttpRequest &r) { return createSigningKey(s, r); }));
    router.add(
        "GET", kApi + QStringLiteral("/signing-keys"),
        signingKeyRoute([this](const SessionContext &s, const HttpRequest &r) { return listSigningKeys(s, r); }));
    router.add(
        "DELETE", kApi + QStringLiteral("/signing-keys/{id}"),
        signingKeyRoute([this](const SessionContext &s, const HttpRequest &r) { return revokeSigningKey(s, r); }));
    router.add(
        "POST", kApi + QStringLiteral("/signing-keys/{id}/sign"),
        signingKeyRoute([this](const SessionContext &s, const HttpRequest &r) { return signWithSigningKey(s, r); }));
}

} // namespace imprint::http
