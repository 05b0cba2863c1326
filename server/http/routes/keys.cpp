// POST /tokens/api-keys, GET /tokens/api-keys/index and DELETE /tokens/api-keys/{id}:
// API key management (keys.h). Each reads the request into a call of ApiKeyService and
// writes its result as the response.
#include "server/http/routes/keys.h"

#include "server/http/json.h"
#include "server/http/route_helpers.h"
#include "server/service/json.h"

#include <QDateTime>
#include <QJsonArray>

namespace imprint::http {

void KeyRoutes::registerRoutes(Router &router)
{
    addRoutes(router, {
        onServerThread("POST", QStringLiteral("/tokens/api-keys"), m_manager(this, &KeyRoutes::createKey)),
        onServerThread("GET", QStringLiteral("/tokens/api-keys/index"), m_manager(this, &KeyRoutes::listKeys)),
        onServerThread("DELETE", QStringLiteral("/tokens/api-keys/{id}"), m_manager(this, &KeyRoutes::revokeKey)),
    });
}

HttpResponse KeyRoutes::createKey(const SessionContext &session, const HttpRequest &request)
{
    const auto body
        = jsonObjectBody(request, {QStringLiteral("name"), QStringLiteral("expiresAt"), QStringLiteral("scopes")},
                         QStringLiteral("an API key"));
    if (!body)
        return body.error();
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
    return createdSecret(m_keys.create(session.spaceId, nameValue.toString(), expiresAt, session.actor, scopes),
                         session, service::keyJson, QStringLiteral("token"), &service::CreatedKey::token);
}

HttpResponse KeyRoutes::listKeys(const SessionContext &session, const HttpRequest &request)
{
    return pagedIndex(m_keys, session.spaceId, request, service::keyJson);
}

HttpResponse KeyRoutes::revokeKey(const SessionContext &session, const HttpRequest &request)
{
    return revokedSecret(m_keys, session, request, QStringLiteral("API key revoked"));
}

} // namespace imprint::http
