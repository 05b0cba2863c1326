// GET /api/v1/openapi.json (docs/api.md): the OpenAPI 3.1 description of every route, kept
// as data in resources/openapi/openapi.json (compiled into the binary) so it reads like
// the contract it is. The answer is that file's bytes, unchanged (issue 30: one source;
// its `servers` entry is "/", the origin the document was fetched from, and the order of
// its members, which some generators read, e.g. the first media type of an answer, is
// kept). tst_openapi_lint checks the served bytes against the repository's file, and
// tst_render_api_server that every route the router knows is in it.
#include "server/http/routes/meta.h"

#include <QFile>
#include <QLoggingCategory>

namespace imprint::http {

QByteArray MetaRoutes::openApiDocument()
{
    static const QByteArray document = [] {
        QFile f(QStringLiteral(":/resources/openapi/openapi.json"));
        if (!f.open(QIODevice::ReadOnly)) {
            qWarning("openapi: resource :/resources/openapi/openapi.json is missing");
            return QByteArray("{\"openapi\":\"3.1.0\",\"paths\":{}}");
        }
        return f.readAll();
    }();
    return document;
}

} // namespace imprint::http
