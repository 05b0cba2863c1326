#pragma once
// Templates and pages: GET/POST /api/v1/templates, GET/PUT/DELETE /api/v1/templates/{id},
// GET/POST /api/v1/pages, GET/PUT/DELETE /api/v1/pages/{id} and POST
// /api/v1/pages/{id}/publish, and a template's versions: GET /api/v1/templates/{id}/versions
// (paged, newest first), GET /api/v1/templates/{id}/versions/{n} (with its document) and
// POST /api/v1/templates/{id}/rollback ({"version": n}: version n's document saved again as
// the newest version; answers the template). Scoped to the caller's space, behind ContentAccess (a
// session of ContentService::editorRoles(), or an API key with the "content" scope). They
// parse and validate templates and markup: on the workers, never on the server thread.

#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/service/content_service.h"

namespace imprint::http {

/// The template and page routes over the content use case (the services must outlive this).
class ContentRoutes : public RouteModule
{
public:
    /// `access` guards every route (its services must outlive this, as `content` must).
    ContentRoutes(ContentAccess access, service::ContentService &content)
        : m_access(access)
        , m_content(content)
    { }

    void registerRoutes(Router &router) override;

private:
    SessionRoute listTemplates, createTemplate, getTemplate, updateTemplate, deleteTemplate;
    SessionRoute listPages, createPage, getPage, updatePage, deletePage, publishPage;
    SessionRoute listVersions, getVersion, rollback; // template versions (docs/api.md, "Template versions")

    ContentAccess m_access;
    service::ContentService &m_content;
};

} // namespace imprint::http
