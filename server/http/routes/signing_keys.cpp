// POST /signing-keys, GET /signing-keys and DELETE /signing-keys/{id}: the URL-signing
// keys of the session's space (signing_keys.h). Name and paging rules are the service's.
#include "server/http/routes/signing_keys.h"

#include "server/http/json.h"
#include "server/http/route_helpers.h"
#include "server/service/json.h"

namespace imprint::http {

SigningKeyRoutes::SigningKeyRoutes(service::AccountService &accounts, service::SigningKeyService &signingKeys)
    : m_manager{accounts, service::SigningKeyService::managerRoles()}
    , m_signingKeys(signingKeys)
{ }

void SigningKeyRoutes::registerRoutes(Router &router)
{
    const auto manager = [this](SessionRoute SigningKeyRoutes::*handler) { return m_manager(this, handler); };
    addRoutes(router, {
        onServerThread("POST", QStringLiteral("/signing-keys"), manager(&SigningKeyRoutes::createSigningKey)),
        onServerThread("GET", QStringLiteral("/signing-keys"), manager(&SigningKeyRoutes::listSigningKeys)),
        onServerThread("DELETE", QStringLiteral("/signing-keys/{id}"), manager(&SigningKeyRoutes::revokeSigningKey)),
        onServerThread("POST", QStringLiteral("/signing-keys/{id}/sign"),
                       manager(&SigningKeyRoutes::signWithSigningKey)),
    });
}

HttpResponse SigningKeyRoutes::createSigningKey(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request, {QStringLiteral("name")}, QStringLiteral("a signing key"));
    if (!body)
        return body.error();
    const QJsonValue nameValue = body->value(QStringLiteral("name"));
    if (!nameValue.isString())
        return fieldProblem(
            400, nameValue.isUndefined() ? QStringLiteral("missing_field") : QStringLiteral("invalid_field"),
            QStringLiteral("name"), QStringLiteral("The field 'name' must be a string of 1 to 100 characters."));
    return createdSecret(m_signingKeys.create(session.spaceId, nameValue.toString(), session.actor), session,
                         service::signingKeyJson, QStringLiteral("secret"), &service::CreatedSigningKey::secret);
}

HttpResponse SigningKeyRoutes::listSigningKeys(const SessionContext &session, const HttpRequest &request)
{
    return pagedIndex(m_signingKeys, session.spaceId, request, service::signingKeyJson);
}

HttpResponse SigningKeyRoutes::revokeSigningKey(const SessionContext &session, const HttpRequest &request)
{
    return revokedSecret(m_signingKeys, session, request, QStringLiteral("Signing key revoked"));
}

} // namespace imprint::http
