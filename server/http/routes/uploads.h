#pragma once
// A space's uploaded fonts and images (docs/fonts-and-images.md): POST/GET /api/v1/fonts,
// DELETE /api/v1/fonts/{id}, POST/GET /api/v1/assets and DELETE /api/v1/assets/{id}.
// Content like templates (ContentAccess: the same roles, the "content" scope), validated
// (decoded) on the workers. The body of a POST is the file itself; validation, dedupe,
// quota and storage are the services' (service/upload_service.h).

#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/service/upload_service.h"

namespace imprint::http {

/// The font and asset routes over the upload use cases (the services must outlive this).
class UploadRoutes : public RouteModule
{
public:
    /// `access` guards every route; `settings` gives the base of the asset URLs
    /// (baseUrlFor()). The services must outlive this.
    UploadRoutes(ContentAccess access, service::FontService &fonts, service::AssetService &assets,
                 RouteSettings settings)
        : m_access(access)
        , m_fontUploads(fonts)
        , m_assetUploads(assets)
        , m_settings(std::move(settings))
    { }

    void registerRoutes(Router &router) override;

private:
    SessionRoute uploadFont, listFonts, deleteFont, uploadAsset, listAssets, deleteAsset;

    ContentAccess m_access;
    service::FontService &m_fontUploads;
    service::AssetService &m_assetUploads;
    RouteSettings m_settings;
};

} // namespace imprint::http
