// The meta tags of a page (page_meta.h).
#include "server/service/page_meta.h"

#include "server/render/document/template.h"
#include "server/service/content_validation.h"
#include "server/service/size_presets.h"

#include <QUrlQuery>

namespace imprint::service {

QList<QPair<QString, QString>> PageMeta::tags() const
{
    QList<QPair<QString, QString>> out{{QStringLiteral("og:image"), imageUrl}};
    if (width > 0 && height > 0) {
        out.append({QStringLiteral("og:image:width"), QString::number(width)});
        out.append({QStringLiteral("og:image:height"), QString::number(height)});
    }
    out.append({QStringLiteral("og:image:type"), contentType});
    if (!alt.isEmpty())
        out.append({QStringLiteral("og:image:alt"), alt});
    out.append({QStringLiteral("twitter:card"), QStringLiteral("summary_large_image")});
    out.append({QStringLiteral("twitter:image"), imageUrl});
    if (!alt.isEmpty())
        out.append({QStringLiteral("twitter:image:alt"), alt});
    return out;
}

Result<PageMeta> PageMetaService::meta(const PageMetaRequest &request)
{
    const auto snapshot = m_content.published(request.spaceId, request.pageId);
    if (!snapshot)
        return snapshot.error();
    const QJsonObject &document = snapshot->tmpl.document;
    const auto tmpl = render::parseTemplate(document);
    if (!tmpl)
        return ServiceError::conflict(
            ProblemCode::InvalidStoredTemplate,
            QStringLiteral("The stored template no longer parses: %1").arg(tmpl.error().message));
    PageMeta meta;
    meta.pageId = request.pageId;
    meta.size = request.size.trimmed().toLower();
    meta.width = tmpl->width;
    meta.height = tmpl->height;
    if (!meta.size.isEmpty()) {
        const auto size = resolveSize(document, meta.size);
        if (!size)
            return size.error();
        meta.width = size->width();
        meta.height = size->height();
    }
    // The URL renders the published page as PNG, which every crawler reads.
    meta.contentType = QStringLiteral("image/png");
    if (const auto values = render::resolveVariables(*tmpl, snapshot->page.variables, {}))
        meta.alt = altText(*tmpl, *values);
    meta.templateVersion = snapshot->tmpl.version;
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("pageId"), request.pageId);
    if (!meta.size.isEmpty())
        query.addQueryItem(QStringLiteral("size"), meta.size);
    const QString url = request.baseUrl + QStringLiteral("/api/v1/render?") + query.toString(QUrl::FullyEncoded);
    const auto signedUrl = m_signing.signUrl(request.spaceId, request.signingKeyId, url, request.expiresInSeconds,
                                             request.nowSeconds);
    if (!signedUrl) {
        ServiceError e = signedUrl.error();
        if (e.field == QLatin1String("expires"))
            e.field = QStringLiteral("expiresInSeconds");
        else if (e.code == ProblemCode::SigningKeyNotFound)
            e.field = QStringLiteral("signingKey");
        return e;
    }
    meta.imageUrl = *signedUrl;
    return meta;
}

} // namespace imprint::service
