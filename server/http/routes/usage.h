#pragma once
// GET /api/v1/usage: the session space's render usage per hour or day, in total and per
// API key, engine, format or problem code (docs/api.md, "Usage"; issue 32), for the roles
// UsageService::viewerRoles() names (owners and admins). The figures are the use case's.

#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/service/usage_service.h"

namespace imprint::http {

/// The usage route over the account (sessions) and usage use cases (both must outlive
/// this).
class UsageRoutes : public RouteModule
{
public:
    UsageRoutes(service::AccountService &accounts, service::UsageService &usage)
        : m_viewer{accounts, service::UsageService::viewerRoles()}
        , m_usage(usage)
    { }

    void registerRoutes(Router &router) override;

private:
    SessionRoute usage;

    SessionGuard m_viewer;
    service::UsageService &m_usage;
};

} // namespace imprint::http
