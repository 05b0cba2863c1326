#include "server/http/idempotency.h"

#include "server/http/problem.h"

namespace imprint::http {

SessionHandler withIdempotency(service::IdempotencyService &service, const QString &route, SessionHandler handler)
{
    return [&service, route, handler = std::move(handler)](const SessionContext &session,
                                                           const HttpRequest &request) -> HttpResponse {
        bool present = false;
        for (const auto &h : request.headers)
            present = present || h.first == "idempotency-key";
        if (!present)
            return handler(session, request);
        const QString key = QString::fromLatin1(request.header("idempotency-key")).trimmed();
        if (!service::IdempotencyService::isValidKey(key))
            return fieldProblem(400, QStringLiteral("invalid_idempotency_key"), QStringLiteral("Idempotency-Key"),
                                QStringLiteral("Idempotency-Key must be 1 to 255 printable ASCII characters."));
        // What makes two requests "the same": the path names the resource (pages/{id}/…)
        // and the body what to create.
        const QByteArray asked = request.method + ' ' + request.path.toUtf8() + '\n' + request.body;
        auto begun = service.begin(session.spaceId, key, route, asked);
        if (!begun)
            return problemFor(begun.error());
        if (const auto *replay = std::get_if<service::IdempotentAnswer>(&*begun)) {
            HttpResponse r = HttpResponse::bytes(replay->status, replay->contentType, replay->body);
            return r.withHeader("Idempotent-Replayed", "true");
        }
        // The route's writes join the transaction begin() opened and commit with the
        // answer, or not at all.
        HttpResponse response = handler(session, request);
        const auto answered = service.finish(std::get<service::IdempotentRequest>(std::move(*begun)),
                                             {response.status, response.header("content-type"), response.body});
        return answered ? response : problemFor(answered.error());
    };
}

} // namespace imprint::http
