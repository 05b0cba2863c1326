// GET /api/v1/files/{sha256}.{ext}: stored renders by content address, immutable, with
// ETag revalidation (RFC 9110 §13.1.2) and headers that keep a stored SVG inert. On the
// workers: the bytes may come from the database (file_store.h).
#include "server/http/routes/files.h"

#include "server/http/problem.h"

namespace imprint::http {

FileRoutes::FileRoutes(const store::FileStore &files)
    : m_files(files)
{ }

void FileRoutes::registerRoutes(Router &router)
{
    // On the workers: the bytes may come from the database (file_store.h).
    addRoutes(router,
              {onWorkers("GET", QStringLiteral("/files/{name}"), [this](const HttpRequest &r) { return file(r); })});
}

HttpResponse FileRoutes::file(const HttpRequest &request) const
{
    const QString name = request.pathParam(QStringLiteral("name"));
    const int dot = name.lastIndexOf(QLatin1Char('.'));
    const QString sha = dot > 0 ? name.left(dot) : QString();
    const QString ext = dot > 0 ? name.mid(dot + 1) : QString();
    if (!store::FileStore::validName(sha, ext))
        return fieldProblem(
            404, QStringLiteral("file_not_found"), QStringLiteral("name"),
            QStringLiteral("File names are <sha256>.<png|webp|svg|jpeg|avif|pdf|gif|ttf|otf|woff|woff2>."));
    const QByteArray etag = '"' + sha.toLatin1() + '"';
    auto withCaching = [&](HttpResponse r) {
        return r.withHeader("ETag", etag)
            .withHeader("Cache-Control", "public, max-age=31536000, immutable")
            .withHeader("X-Content-Type-Options", "nosniff")
            // An SVG opened directly must not run script or load anything (stored XSS).
            .withHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    };
    // RFC 9110 §13.1.2: If-None-Match is a list of entity tags (or *); weak comparison.
    const QByteArray inm = request.header("if-none-match");
    if (!inm.isEmpty()) {
        for (QByteArray tag : inm.split(',')) {
            tag = tag.trimmed();
            if (tag.startsWith("W/"))
                tag = tag.mid(2);
            if (tag == "*" || tag == etag)
                // The name is the content's hash: a tag that matches one we could have sent
                // is current if the file is stored at all.
                if (m_files.contains(sha, ext))
                    return withCaching(HttpResponse{304, {}, {}});
        }
    }
    const auto bytes = m_files.read(sha, ext);
    if (!bytes)
        return problem(404, QStringLiteral("file_not_found"), QStringLiteral("No stored file %1.").arg(name));
    return withCaching(HttpResponse::bytes(200, store::FileStore::contentTypeOf(ext), *bytes));
}

} // namespace imprint::http
