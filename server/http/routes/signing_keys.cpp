// POST /signing-keys, GET /signing-keys and DELETE /signing-keys/{id}: the URL-signing
// keys of the session's space, for the roles SigningKeyService::managerRoles() names
// (withSession() checks them, in api.cpp). Name and paging rules are the service's.
#include "server/http/api.h"
#include "server/http/json.h"
#include "server/service/json.h"

#include <QJsonArray>

namespace imprint::http {

HttpResponse Api::createSigningKey(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    if (auto e = rejectUnknownFields(*body, {QStringLiteral("name")}, QStringLiteral("a signing key")))
        return *e;
    const QJsonValue nameValue = body->value(QStringLiteral("name"));
    if (!nameValue.isString())
        return fieldProblem(
            400, nameValue.isUndefined() ? QStringLiteral("missing_field") : QStringLiteral("invalid_field"),
            QStringLiteral("name"), QStringLiteral("The field 'name' must be a string of 1 to 100 characters."));
    auto created = m_signingKeys.create(session.spaceId, nameValue.toString(), session.actor);
    if (!created)
        return problemFor(created.error());
    store::SigningKey key = created->key;
    key.createdByEmail = session.session.membership.user.email;
    QJsonObject data = service::signingKeyJson(key);
    data.insert(QStringLiteral("secret"), created->secret);
    // The secret is in this answer only: no cache may keep it.
    return HttpResponse::success(data, 201).withHeader("Cache-Control", "no-store");
}

HttpResponse Api::listSigningKeys(const SessionContext &session, const HttpRequest &request)
{
    using service::SigningKeyService;
    const auto page = queryInt(request, QStringLiteral("page"), 1, 1, SigningKeyService::kMaxPage);
    if (!page)
        return page.error();
    const auto perPage = queryInt(request, QStringLiteral("perPage"), SigningKeyService::kDefaultPerPage, 1,
                                  SigningKeyService::kMaxPerPage);
    if (!perPage)
        return perPage.error();
    auto result = m_signingKeys.listPage(session.spaceId, *page, *perPage);
    if (!result)
        return problemFor(result.error());
    return pagedList(*result, service::signingKeyJson);
}

HttpResponse Api::revokeSigningKey(const SessionContext &session, const HttpRequest &request)
{
    if (const auto body = jsonObjectBody(request, true); !body)
        return body.error();
    auto done = m_signingKeys.revoke(session.spaceId, request.pathParam(QStringLiteral("id")), session.actor);
    if (!done)
        return problemFor(done.error());
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), QStringLiteral("Signing key revoked")}});
}

} // namespace imprint::http
