// POST/GET /fonts, DELETE /fonts/{id}, POST/GET /assets and DELETE /assets/{id}: a space's
// uploaded font faces and images (docs/fonts-and-images.md). The body of a POST is the
// file itself; validation, dedupe, quota and storage are the services'
// (service/upload_service.h).
#include "server/http/json.h"
#include "server/http/render_api.h"

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

HttpResponse RenderApi::uploadFont(const SessionContext &session, const HttpRequest &request)
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
    return uploaded(service::FontService::json(result->record), result->created);
}

HttpResponse RenderApi::listFonts(const SessionContext &session, const HttpRequest &request)
{
    using service::FontService;
    const auto page = queryInt(request, QStringLiteral("page"), 1, 1, FontService::kMaxPage);
    if (!page)
        return page.error();
    const auto perPage
        = queryInt(request, QStringLiteral("perPage"), FontService::kDefaultPerPage, 1, FontService::kMaxPerPage);
    if (!perPage)
        return perPage.error();
    auto result = m_fontUploads.listPage(session.spaceId, *page, *perPage);
    if (!result)
        return problemFor(result.error());
    return pagedList(*result, FontService::json);
}

HttpResponse RenderApi::deleteFont(const SessionContext &session, const HttpRequest &request)
{
    auto done = m_fontUploads.remove(session.spaceId, request.pathParam(QStringLiteral("id")));
    if (!done)
        return problemFor(done.error());
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), QStringLiteral("Font deleted")}});
}

HttpResponse RenderApi::uploadAsset(const SessionContext &session, const HttpRequest &request)
{
    auto result = m_assetUploads.upload(session.spaceId, session.session.membership.space.plan, request.body);
    if (!result)
        return problemFor(result.error());
    return uploaded(service::AssetService::json(result->record, baseUrlFor(request)), result->created);
}

HttpResponse RenderApi::listAssets(const SessionContext &session, const HttpRequest &request)
{
    using service::AssetService;
    const auto page = queryInt(request, QStringLiteral("page"), 1, 1, AssetService::kMaxPage);
    if (!page)
        return page.error();
    const auto perPage
        = queryInt(request, QStringLiteral("perPage"), AssetService::kDefaultPerPage, 1, AssetService::kMaxPerPage);
    if (!perPage)
        return perPage.error();
    auto result = m_assetUploads.listPage(session.spaceId, *page, *perPage);
    if (!result)
        return problemFor(result.error());
    const QString base = baseUrlFor(request);
    return pagedList(*result, [&base](const store::AssetRecord &a) { return AssetService::json(a, base); });
}

HttpResponse RenderApi::deleteAsset(const SessionContext &session, const HttpRequest &request)
{
    auto done = m_assetUploads.remove(session.spaceId, request.pathParam(QStringLiteral("id")));
    if (!done)
        return problemFor(done.error());
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), QStringLiteral("Asset deleted")}});
}

} // namespace imprint::http
