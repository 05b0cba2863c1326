#pragma once
// Template versions (docs/api.md, "Template versions"): GET /api/v1/templates/{id}/versions
// (paged, newest first), GET /api/v1/templates/{id}/versions/{n} (with its document) and
// POST /api/v1/templates/{id}/rollback ({"version": n}: the document of version n saved
// again as the newest version; answers the template). Behind ContentAccess, as the other
// template routes; the rules are ContentService's.

#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/service/content_service.h"

namespace imprint::http {

/// The template-version routes over the content use case (the services must outlive this).
class TemplateVersionRoutes : public RouteModule
{
public:
    /// `access` guards every route (its services must outlive this, as `content` must).
    TemplateVersionRoutes(ContentAccess access, service::ContentService &content)
        : m_access(access)
        , m_content(content)
    { }

    void registerRoutes(Router &router) override;

private:
    SessionRoute listVersions, getVersion, rollback;

    ContentAccess m_access;
    service::ContentService &m_content;
};

} // namespace imprint::http
