// GET /api/v1/openapi.json (docs/api.md): the OpenAPI 3.1 description of every route, kept
// as data in resources/openapi/openapi.json (compiled into the binary) so it reads like
// the contract it is. tst_render_api_server checks that every route the router knows is in it.
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
    QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
    // The two render operations share one response set, written once in the data file as
    // components.x-renderResponses; a Responses Object cannot be a $ref, so inline it.
    QJsonObject components = doc.value(QStringLiteral("components")).toObject();
    const QJsonObject shared = components.value(QStringLiteral("x-renderResponses")).toObject();
    components.remove(QStringLiteral("x-renderResponses"));
    doc.insert(QStringLiteral("components"), components);
    QJsonObject paths = doc.value(QStringLiteral("paths")).toObject();
    for (auto p = paths.begin(); p != paths.end(); ++p) {
        QJsonObject item = p.value().toObject();
        for (auto op = item.begin(); op != item.end(); ++op) {
            if (!op.value().isObject())
                continue;
            QJsonObject operation = op.value().toObject();
            if (operation.value(QStringLiteral("responses")).toObject().value(QStringLiteral("$ref")).toString()
                == QLatin1String("#/components/x-renderResponses")) {
                operation.insert(QStringLiteral("responses"), shared);
                op.value() = operation;
            }
        }
        p.value() = item;
    }
    doc.insert(QStringLiteral("paths"), paths);
    return doc;
}

} // namespace

QJsonObject MetaRoutes::openApiDocument(const QString &serverUrl)
{
    static const QJsonObject document = loadDocument();
    QJsonObject doc = document;
    QJsonObject info = doc.value(QStringLiteral("info")).toObject();
    info.insert(QStringLiteral("version"), QStringLiteral(IMPRINT_VERSION));
    doc.insert(QStringLiteral("info"), info);
    if (!serverUrl.isEmpty())
        doc.insert(QStringLiteral("servers"), QJsonArray{QJsonObject{{QStringLiteral("url"), serverUrl}}});
    return doc;
}

} // namespace imprint::http
