// POST /tokens/api-keys, GET /tokens/api-keys/index and DELETE /tokens/api-keys/{id}:
// API key management, for the roles ApiKeyService::managerRoles() names (withSession()
// checks them, in api.cpp). Each reads the request into a call of ApiKeyService and writes its result
// as the response; name, expiry and paging rules are the service's.
#include "server/http/api.h"
#include "server/http/json.h"
#include "server/service/json.h"

#include <QDateTime>
#include <QJsonArray>

namespace imprint::http {

HttpResponse Api::createKey(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    if (auto e
        = rejectUnknownFields(*body, {QStringLiteral("name"), QStringLiteral("expiresAt"), QStringLiteral("scopes")},
                              QStringLiteral("an API key")))
        return *e;
    QStringList scopes{QStringLiteral("render")};
    if (const QJsonValue v = body->value(QStringLiteral("scopes")); !v.isUndefined() && !v.isNull()) {
        scopes.clear();
        for (const QJsonValue &s : v.toArray())
            scopes.append(s.toString());
        if (!v.isArray() || scopes.contains(QString()))
            return fieldProblem(
                400, QStringLiteral("invalid_field"), QStringLiteral("scopes"),
                QStringLiteral("The field 'scopes' must be an array of \"render\" and/or \"content\"."));
    }
    const QJsonValue nameValue = body->value(QStringLiteral("name"));
    if (!nameValue.isString())
        return problem(400, nameValue.isUndefined() ? QStringLiteral("missing_field") : QStringLiteral("invalid_field"),
                       QStringLiteral("The field 'name' must be a string of 1 to 100 characters."));
    qint64 expiresAt = 0;
    const QJsonValue expiresValue = body->value(QStringLiteral("expiresAt"));
    if (!expiresValue.isUndefined() && !expiresValue.isNull()) {
        const QDateTime when = QDateTime::fromString(expiresValue.toString(), Qt::ISODateWithMs);
        if (!expiresValue.isString() || !when.isValid())
            return problem(
                400, QStringLiteral("invalid_field"),
                QStringLiteral("The field 'expiresAt' must be an ISO-8601 date-time, e.g. 2030-01-31T00:00:00Z."));
        expiresAt = when.toMSecsSinceEpoch();
    }
    auto created = m_keys.create(session.spaceId, nameValue.toString(), expiresAt, session.actor, scopes);
    if (!created)
        return problemFor(created.error());
    store::ApiKey key = created->key;
    key.createdByEmail = session.session.membership.user.email;
    QJsonObject data = service::keyJson(key);
    data.insert(QStringLiteral("token"), created->token);
    return HttpResponse::success(data, 201).withHeader("Cache-Control", "no-store");
}

HttpResponse Api::listKeys(const SessionContext &session, const HttpRequest &request)
{
    using service::ApiKeyService;
    const auto page = queryInt(request, QStringLiteral("page"), 1, 1, ApiKeyService::kMaxPage);
    if (!page)
        return page.error();
    const auto perPage
        = queryInt(request, QStringLiteral("perPage"), ApiKeyService::kDefaultPerPage, 1, ApiKeyService::kMaxPerPage);
    if (!perPage)
        return perPage.error();
    auto result = m_keys.listPage(session.spaceId, *page, *perPage);
    if (!result)
        return problemFor(result.error());
    return pagedList(*result, service::keyJson);
}

HttpResponse Api::revokeKey(const SessionContext &session, const HttpRequest &request)
{
    // No body is required; one that is sent must still be valid JSON.
    if (const auto body = jsonObjectBody(request, true); !body)
        return body.error();
    auto done = m_keys.revoke(session.spaceId, request.pathParam(QStringLiteral("id")), session.actor);
    if (!done)
        return problemFor(done.error());
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), QStringLiteral("API key revoked")}});
}

} // namespace imprint::http
