// Usage rows of answered renders (render_usage.h).

#include "server/http/render_usage.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace imprint::http {

void RenderUsageLog::record(const RenderUsageNote &note, const HttpResponse &response) const
{
    if (!m_writer || note.spaceId.isEmpty())
        return;
    store::RenderLogEntry e;
    e.spaceId = note.spaceId;
    e.keyId = note.keyId;
    e.engine = note.engine.isEmpty() ? QStringLiteral("unknown") : note.engine;
    e.format = note.format;
    e.status = response.status;
    e.durationUs = note.timer.isValid() ? note.timer.nsecsElapsed() / 1000 : 0;
    // A 304 answers from the client's own cache.
    e.cacheHit = note.cacheHit || response.status == 304;
    if (response.status >= 400) {
        // Only error answers are parsed, and they are small problem+json objects.
        e.problemCode = QJsonDocument::fromJson(response.body).object().value(QStringLiteral("code")).toString();
        if (e.problemCode.isEmpty())
            e.problemCode = QStringLiteral("http_%1").arg(response.status);
    } else if (response.status < 300) {
        e.bytes = note.bytes >= 0 ? note.bytes : response.body.size();
    }
    m_writer->renderAnswered(std::move(e));
}

} // namespace imprint::http
