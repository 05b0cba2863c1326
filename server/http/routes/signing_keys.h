#pragma once
// The URL-signing keys of the session's space: POST /api/v1/signing-keys, GET
// /api/v1/signing-keys, DELETE /api/v1/signing-keys/{id} (signing_keys.cpp) and POST
// /api/v1/signing-keys/{id}/sign (signing.cpp), for the roles
// SigningKeyService::managerRoles() names. Name, paging and signing rules are the service's.

#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/service/signing_key_service.h"

namespace imprint::http {

/// The signing-key routes over the account (sessions) and signing-key use cases (both
/// must outlive this).
class SigningKeyRoutes : public RouteModule
{
public:
    SigningKeyRoutes(service::AccountService &accounts, service::SigningKeyService &signingKeys);

    void registerRoutes(Router &router) override;

private:
    SessionRoute createSigningKey, listSigningKeys, revokeSigningKey, signWithSigningKey;

    SessionGuard m_manager;
    service::SigningKeyService &m_signingKeys;
};

} // namespace imprint::http
