#pragma once
// GET /api/v1/files/{sha256}.{ext}: stored renders and uploads by content address.

#include "server/http/route_module.h"
#include "server/store/file_store.h"

namespace imprint::http {

/// The stored-file route over the file store (which must outlive this).
class FileRoutes : public RouteModule
{
public:
    explicit FileRoutes(const store::FileStore &files);

    void registerRoutes(Router &router) override;

private:
    HttpResponse file(const HttpRequest &request) const;

    const store::FileStore &m_files;
};

} // namespace imprint::http
