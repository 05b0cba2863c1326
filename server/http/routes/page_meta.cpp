// GET /pages/{id}/meta (page_meta.h): the query read into a PageMetaRequest, the tags
// written as JSON or as HTML.
#include "server/http/routes/page_meta.h"

#include "server/http/auth.h"
#include "server/http/json.h"

#include <QDateTime>
#include <QUrlQuery>

namespace imprint::http {

namespace {

const QStringList kMetaFields = {QStringLiteral("signingKey"), QStringLiteral("size"),
                                 QStringLiteral("expiresInSeconds"), QStringLiteral("format"),
                                 QStringLiteral("api_token")};

/// The tags as HTML: one <meta> per line, og:* as `property`, twitter:* as `name` (what
/// each network's crawler reads), every attribute value escaped for a double-quoted
/// attribute (& < > ").
QByteArray metaHtml(const service::PageMeta &meta)
{
    QString html;
    for (const auto &[name, content] : meta.tags()) {
        const QString attribute = name.startsWith(QLatin1String("og:")) ? QStringLiteral("property")
                                                                        : QStringLiteral("name");
        html += QStringLiteral("<meta %1=\"%2\" content=\"%3\">\n")
                    .arg(attribute, name.toHtmlEscaped(), content.toHtmlEscaped());
    }
    return html.toUtf8();
}

QJsonObject metaJson(const service::PageMeta &meta)
{
    QJsonObject tags;
    for (const auto &[name, content] : meta.tags())
        tags.insert(name, content);
    return QJsonObject{
        {QStringLiteral("pageId"), meta.pageId},
        {QStringLiteral("size"), meta.size.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(meta.size)},
        {QStringLiteral("imageUrl"), meta.imageUrl},
        {QStringLiteral("width"), meta.width > 0 ? QJsonValue(meta.width) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("height"), meta.height > 0 ? QJsonValue(meta.height) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("contentType"), meta.contentType},
        {QStringLiteral("alt"), meta.alt.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(meta.alt)},
        {QStringLiteral("templateVersion"),
         meta.templateVersion > 0 ? QJsonValue(meta.templateVersion) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("tags"), tags},
        {QStringLiteral("html"), QString::fromUtf8(metaHtml(meta))},
    };
}

} // namespace

void PageMetaRoutes::registerRoutes(Router &router)
{
    addRoutes(router, {onWorkers("GET", QStringLiteral("/pages/{id}/meta"),
                                 withSessionOrKey(m_accounts, m_keys, service::SigningKeyService::managerRoles(),
                                                  QStringLiteral("render"),
                                                  sessionMethod(this, &PageMetaRoutes::pageMeta)))});
}

HttpResponse PageMetaRoutes::pageMeta(const SessionContext &session, const HttpRequest &request)
{
    QJsonObject query;
    for (const auto &[name, value] : request.query().queryItems(QUrl::FullyDecoded))
        query.insert(name, value);
    if (auto e = rejectUnknownFields(query, kMetaFields, QStringLiteral("a meta request")))
        return *e;
    service::PageMetaRequest rq;
    rq.spaceId = session.spaceId;
    rq.pageId = request.pathParam(QStringLiteral("id"));
    rq.signingKeyId = query.value(QStringLiteral("signingKey")).toString().trimmed();
    if (rq.signingKeyId.isEmpty())
        return fieldProblem(400, QStringLiteral("missing_field"), QStringLiteral("signingKey"),
                            QStringLiteral("Name the signing key that signs og:image: ?signingKey=sgk_…"));
    rq.size = query.value(QStringLiteral("size")).toString();
    const auto expires = queryInt(request, QStringLiteral("expiresInSeconds"), 0, 0,
                                  int(service::SigningKeyService::kMaxExpiresInSeconds));
    if (!expires)
        return expires.error();
    rq.expiresInSeconds = *expires;
    rq.nowSeconds = QDateTime::currentSecsSinceEpoch();
    rq.baseUrl = baseUrlFor(request, m_settings);
    const QString format = query.value(QStringLiteral("format")).toString().toLower();
    if (!format.isEmpty() && format != QLatin1String("json") && format != QLatin1String("html"))
        return fieldProblem(400, QStringLiteral("invalid_parameter"), QStringLiteral("format"),
                            QStringLiteral("'format' must be json or html."));
    const bool html = format == QLatin1String("html")
                      || (format.isEmpty() && request.header("accept").contains("text/html"));
    const auto meta = m_meta.meta(rq);
    if (!meta)
        return problemFor(meta.error());
    // The og:image URL is a credential for the page's image: no shared cache keeps it.
    if (html)
        return HttpResponse::bytes(200, "text/html; charset=utf-8", metaHtml(*meta))
            .withHeader("Cache-Control", "no-store");
    return HttpResponse::success(metaJson(*meta)).withHeader("Cache-Control", "no-store");
}

} // namespace imprint::http
