// GET /api/v1/openapi.json (docs/api.md): the OpenAPI 3.1 description of every route, kept
// as data in resources/openapi/openapi.json (compiled into the binary) so it reads like
// the contract it is. The served document is that file with one change: `servers` names
// the URL the client reached (tst_openapi_lint checks that nothing else differs, so the
// repository's copy is what generators see). tst_render_api_server checks that every
// route the router knows is in it.
#include "server/http/routes/meta.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>

namespace imprint::http {

namespace {

QJsonObject loadDocument()
{
    QFile f(QStringLiteral(":/resources/openapi/openapi.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        qWarning("openapi: resource :/resources/openapi/openapi.json is missing");
        return QJsonObject{{QStringLiteral("openapi"), QStringLiteral("3.1.0")},
                           {QStringLiteral("paths"), QJsonObject()}};
    }
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

QJsonObject MetaRoutes::openApiDocument(const QString &serverUrl)
{
    static const QJsonObject document = loadDocument();
    QJsonObject doc = document;
    if (!serverUrl.isEmpty())
        doc.insert(QStringLiteral("servers"), QJsonArray{QJsonObject{{QStringLiteral("url"), serverUrl}}});
    return doc;
}

} // namespace imprint::http
