#pragma once
// GET /api/v1/pages/{id}/meta?signingKey=sgk_…[&size=NAME][&expiresInSeconds=N][&format=html]
// (docs/api.md, "Meta tags"): the ready-to-paste og:image / twitter:image tags of a
// published page, its image signed with the named signing key, as JSON, or as HTML
// <meta> lines with `Accept: text/html` or `format=html`. A session of an owner or admin
// (who may sign URLs, as POST /signing-keys/{id}/sign) or an API key with the `render`
// scope (which may render the page anyway). The use case is service::PageMetaService.

#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/service/page_meta.h"

namespace imprint::http {

/// The meta-tags route (the services must outlive this).
class PageMetaRoutes : public RouteModule
{
public:
    /// `settings` gives the public base URL of the signed og:image.
    PageMetaRoutes(RouteSettings settings, service::AccountService &accounts, service::ApiKeyService &keys,
                   service::PageMetaService &meta)
        : m_settings(std::move(settings))
        , m_accounts(accounts)
        , m_keys(keys)
        , m_meta(meta)
    { }

    void registerRoutes(Router &router) override;

private:
    SessionRoute pageMeta;

    RouteSettings m_settings;
    service::AccountService &m_accounts;
    service::ApiKeyService &m_keys;
    service::PageMetaService &m_meta;
};

} // namespace imprint::http
