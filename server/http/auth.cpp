#include "server/http/auth.h"

#include "server/http/json.h"

#include <algorithm>
#include <vector>

namespace imprint::http {

namespace {

/// 403 "forbidden" naming the roles that would do and the caller's.
HttpResponse forbidden(const store::SessionInfo &session, const std::vector<store::Role> &allowed)
{
    QStringList names;
    for (store::Role r : allowed)
        names << store::roleName(r);
    return problem(403, QStringLiteral("forbidden"),
                   QStringLiteral("This needs the role %1 in space '%2'; you are %3.")
                       .arg(names.join(QStringLiteral(" or ")), session.membership.space.name,
                            store::roleName(session.membership.role)));
}

/// The live session of `request` when its role is in `allowed` (any role when empty).
Outcome<store::SessionInfo> sessionWithRole(const HttpRequest &request, service::AccountService &accounts,
                                            const std::vector<store::Role> &allowed)
{
    auto session = accounts.session(sessionTokenOf(request));
    if (!session)
        return problemFor(session.error());
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), session->membership.role) == allowed.end())
        return forbidden(*session, allowed);
    return session.value();
}

} // namespace

QString apiTokenOf(const HttpRequest &request)
{
    const QString bearer = request.bearerToken();
    if (!bearer.isEmpty())
        return bearer;
    return request.queryValue(QStringLiteral("api_token")).value_or(QString());
}

Outcome<store::ApiKeyPrincipal> authenticateApiToken(const HttpRequest &request, service::ApiKeyService &keys)
{
    return authenticateApiToken(apiTokenOf(request), keys);
}

Outcome<store::ApiKeyPrincipal> authenticateApiToken(const QString &token, service::ApiKeyService &keys)
{
    auto result = keys.authenticate(token);
    if (!result)
        return problemFor(result.error()).withHeader("WWW-Authenticate", "Bearer");
    return result.value();
}

QString sessionTokenOf(const HttpRequest &request)
{
    const QString cookie = request.cookie(QString::fromLatin1(kSessionCookie));
    if (!cookie.isEmpty())
        return cookie;
    const QString bearer = request.bearerToken();
    if (bearer.startsWith(QLatin1String("ses_")))
        return bearer;
    return {};
}

Outcome<store::SessionInfo> authenticateSession(const HttpRequest &request, service::AccountService &accounts,
                                                std::initializer_list<store::Role> roles)
{
    return sessionWithRole(request, accounts, std::vector<store::Role>(roles));
}

SyncHandler withSession(service::AccountService &accounts, std::vector<store::Role> roles, SessionHandler handler)
{
    return [&accounts, allowed = std::move(roles), handler = std::move(handler)](const HttpRequest &request) {
        const auto session = sessionWithRole(request, accounts, allowed);
        if (!session)
            return session.error();
        const SessionContext context{session.value(), session->membership.space.id, session->membership.user.id};
        return handler(context, request);
    };
}

std::optional<HttpResponse> missingScope(const store::ApiKeyPrincipal &principal, const QString &scope)
{
    if (principal.scopes.contains(scope))
        return std::nullopt;
    return fieldProblem(403, QStringLiteral("missing_scope"), QStringLiteral("scopes"),
                        QStringLiteral("This API key lacks the '%1' scope.").arg(scope));
}

SyncHandler withSessionOrKey(service::AccountService &accounts, service::ApiKeyService &keys,
                             std::vector<store::Role> roles, QString scope, SessionHandler handler)
{
    SyncHandler bySession = withSession(accounts, std::move(roles), handler);
    return [&keys, scope = std::move(scope), handler = std::move(handler),
            bySession = std::move(bySession)](const HttpRequest &request) {
        // A session wins when both are sent; without either the answer stays the
        // session's 401 not_logged_in.
        if (!sessionTokenOf(request).isEmpty() || apiTokenOf(request).isEmpty())
            return bySession(request);
        const auto principal = authenticateApiToken(request, keys);
        if (!principal)
            return principal.error();
        if (auto refused = missingScope(*principal, scope))
            return *refused;
        // No session, but the key's space (with its plan) for the use cases that need it.
        store::SessionInfo keySpace;
        keySpace.membership.space = principal->space;
        const SessionContext context{keySpace, principal->space.id, principal->keyId};
        return handler(context, request);
    };
}

} // namespace imprint::http
