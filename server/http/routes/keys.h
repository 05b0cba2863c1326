#pragma once
// API key management: POST /api/v1/tokens/api-keys, GET /api/v1/tokens/api-keys/index and
// DELETE /api/v1/tokens/api-keys/{id}, for the roles ApiKeyService::managerRoles() names.
// Name, expiry, scope and paging rules are the service's.

#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/service/api_key_service.h"

namespace imprint::http {

/// The API key routes over the account (sessions) and API key use cases (both must
/// outlive this).
class KeyRoutes : public RouteModule
{
public:
    KeyRoutes(service::AccountService &accounts, service::ApiKeyService &keys)
        : m_manager{accounts, service::ApiKeyService::managerRoles()}
        , m_keys(keys)
    { }

    void registerRoutes(Router &router) override;

private:
    SessionRoute createKey, listKeys, revokeKey;

    SessionGuard m_manager;
    service::ApiKeyService &m_keys;
};

} // namespace imprint::http
