// POST /signing-keys/{id}/sign: signs a render URL with one of the session's space's
// signing keys on the server, so that a client (the console) can hand out signed URLs
// without ever holding a secret, which the API shows once only. Owner/admin, as the
// other signing-key routes (signing_keys.h); the signing itself is SigningKeyService::signUrl().
#include "server/http/routes/signing_keys.h"
#include "server/http/json.h"

#include <QDateTime>

namespace imprint::http {

HttpResponse SigningKeyRoutes::signWithSigningKey(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    const auto url = requiredString(body, QStringLiteral("url"));
    if (!url)
        return url.error();
    // As every other JSON body: a member the route does not read is a mistake to hear about
    // (the OpenAPI document says additionalProperties: false; issue 30).
    if (auto e = rejectUnknownFields(*body, {QStringLiteral("url"), QStringLiteral("expiresInSeconds")},
                                     QStringLiteral("a sign request")))
        return *e;
    // At most the 10 years GET /pages/{id}/meta allows: a larger number made now + it
    // overflow into a negative, already expired `exp` (a schemathesis sweep).
    const QJsonValue expires = body->value(QStringLiteral("expiresInSeconds"));
    const qint64 most = service::SigningKeyService::kMaxExpiresInSeconds;
    if (!expires.isUndefined() && !expires.isNull()
        && (!expires.isDouble() || expires.toDouble() < 1 || expires.toDouble() > double(most)
            || expires.toDouble() != double(expires.toInteger())))
        return fieldProblem(400, QStringLiteral("invalid_field"), QStringLiteral("expiresInSeconds"),
                            QStringLiteral("The field 'expiresInSeconds' must be a whole number of seconds from 1 to "
                                           "%1 (10 years).")
                                .arg(most));
    auto signedUrl = m_signingKeys.signUrl(session.spaceId, request.pathParam(QStringLiteral("id")), *url,
                                           expires.toInteger(0), QDateTime::currentSecsSinceEpoch());
    if (!signedUrl)
        return problemFor(signedUrl.error());
    // Who can sign can render: the URL is a credential, so no cache keeps the answer.
    return HttpResponse::success(QJsonObject{{QStringLiteral("url"), *signedUrl}})
        .withHeader("Cache-Control", "no-store");
}

} // namespace imprint::http
