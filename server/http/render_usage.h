#pragma once
// What the render routes note for GET /api/v1/usage (docs/api.md, "Usage"): one
// render_log row per render request answered, success, error or cache hit. The row goes to
// the write-behind queue (server/service/write_behind.h), never to the database on the
// request path, which serves ~10 000 cached renders a second.

#include "server/http/message.h"
#include "server/service/write_behind.h"

#include <QElapsedTimer>
#include <QString>

namespace imprint::http {

/// The render a request asked for, filled in as the route learns it.
struct RenderUsageNote {
    QString spaceId; ///< empty: an anonymous pattern render, which no space's usage counts
    QString keyId; ///< the API key, or a signed URL's signing key
    QString engine = QStringLiteral("unknown"); ///< the engine, once known
    QString format;
    bool cacheHit = false;
    qint64 bytes = -1; ///< the image's size; -1: the body's size of a successful answer
    QElapsedTimer timer; ///< started when the request reached the route
};

/// Notes answered renders into a WriteBehind; without one (tests, CLI) it does nothing.
class RenderUsageLog
{
public:
    /// Writes through `writer` (null: nothing), which must outlive this.
    void setWriter(service::WriteBehind *writer) { m_writer = writer; }

    /// Queues the row of `note` answered with `response`: its status, the problem+json
    /// `code` of an error, the duration since note.timer started. Nothing without a space.
    void record(const RenderUsageNote &note, const HttpResponse &response) const;

    /// record(), then `response` unchanged, for a `return` of a handler.
    HttpResponse answered(const RenderUsageNote &note, HttpResponse response) const
    {
        record(note, response);
        return response;
    }

private:
    service::WriteBehind *m_writer = nullptr;
};

} // namespace imprint::http
