// POST/GET /fonts, DELETE /fonts/{id}, POST/GET /assets and DELETE /assets/{id}: a space's
// uploaded font faces and images (uploads.h).
#include "server/http/routes/uploads.h"

#include "server/http/json.h"

namespace imprint::http {

namespace {

/// 201 for a new record, 200 when the same bytes were already stored (the existing one).
HttpResponse uploaded(const QJsonObject &data, bool created)
{
    QJsonObject body = data;
    body.insert(QStringLiteral("deduplicated"), !created);
    return HttpResponse::success(body, created ? 201 : 200);
}

} // namespace

void UploadRoutes::registerRoutes(Router &router)
{
    // Fonts and assets are the same routes: upload (with an Idempotency-Key) and list on
    // the collection, delete on one of it.
    struct Collection {
        QString path;
        SessionRoute UploadRoutes::*upload, UploadRoutes::*list, UploadRoutes::*remove;
    };
    for (const Collection &c :
         {Collection{QStringLiteral("/fonts"), &UploadRoutes::uploadFont, &UploadRoutes::listFonts,
                     &UploadRoutes::deleteFont},
          Collection{QStringLiteral("/assets"), &UploadRoutes::uploadAsset, &UploadRoutes::listAssets,
                     &UploadRoutes::deleteAsset}}) {
        addRoutes(router, {
            onWorkers("POST", c.path, m_access.once(QStringLiteral("POST ") + c.path, this, c.upload)),
            onWorkers("GET", c.path, m_access(this, c.list)),
            onWorkers("DELETE", c.path + QStringLiteral("/{id}"), m_access(this, c.remove)),
        });
    }
}

HttpResponse UploadRoutes::uploadFont(const SessionContext &session, const HttpRequest &request)
{
    service::FontUpload upload;
    upload.bytes = request.body;
    upload.contentType = QString::fromLatin1(request.header("content-type"));
    if (const auto family = request.queryValue(QStringLiteral("family")))
        upload.family = family->isNull() ? QStringLiteral("") : *family;
    if (const auto style = request.queryValue(QStringLiteral("style")))
        upload.style = style->isNull() ? QStringLiteral("") : *style;
    if (request.queryValue(QStringLiteral("weight"))) {
        const auto weight = queryInt(request, QStringLiteral("weight"), 400, 1, 1000);
        if (!weight)
            return weight.error();
        upload.weight = *weight;
    }
    auto result = m_fontUploads.upload(session.spaceId, upload);
    if (!result)
        return problemFor(result.error());
    return uploaded(m_fontUploads.describe(result->record), result->created);
}

HttpResponse UploadRoutes::listFonts(const SessionContext &session, const HttpRequest &request)
{
    return pagedIndex(m_fontUploads, session.spaceId, request,
                      [this](const store::FontRecord &font) { return m_fontUploads.describe(font); });
}

HttpResponse UploadRoutes::deleteFont(const SessionContext &session, const HttpRequest &request)
{
    return doneOr(m_fontUploads.remove(session.spaceId, request.pathParam(QStringLiteral("id"))),
                  QStringLiteral("Font deleted"));
}

HttpResponse UploadRoutes::uploadAsset(const SessionContext &session, const HttpRequest &request)
{
    auto result = m_assetUploads.upload(session.spaceId, session.session.membership.space.plan, request.body);
    if (!result)
        return problemFor(result.error());
    return uploaded(service::AssetService::json(result->record, baseUrlFor(request, m_settings)), result->created);
}

HttpResponse UploadRoutes::listAssets(const SessionContext &session, const HttpRequest &request)
{
    const QString base = baseUrlFor(request, m_settings);
    return pagedIndex(m_assetUploads, session.spaceId, request,
                      [&base](const store::AssetRecord &a) { return service::AssetService::json(a, base); });
}

HttpResponse UploadRoutes::deleteAsset(const SessionContext &session, const HttpRequest &request)
{
    return doneOr(m_assetUploads.remove(session.spaceId, request.pathParam(QStringLiteral("id"))),
                  QStringLiteral("Asset deleted"));
}

} // namespace imprint::http
