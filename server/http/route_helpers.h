#pragma once
// What the route modules (server/http/routes/) share per request, written once: the
// settings of the "render" config section they read, the public base URL of a request,
// a member function as a SessionHandler, the guard of the content routes (session or
// "content" key, Idempotency-Key on the routes that create), the paged list answer of
// the key and upload indexes and the answer of a revoke or delete.

#include "server/http/auth.h"
#include "server/http/idempotency.h"
#include "server/http/json.h"
#include "server/service/content_service.h"
#include "server/service/idempotency_service.h"
#include "server/store/config.h"

#include <functional>

namespace imprint::http {

/// Tunables of the render, upload and meta routes, read from the config's "render" section.
struct RouteSettings {
    qint64 patternCacheBytes = 64LL * 1024 * 1024; ///< render.patternCacheBytes
    double rateLimitPerSecond = 20; ///< render.rateLimit.perSecond (0 = off)
    double rateLimitBurst = 40; ///< render.rateLimit.burst
    int publishCacheEntries = 1000; ///< render.publishCache.entries
    int publishCacheTtlMs = 5000; ///< render.publishCache.ttlMs (other instances' publishes)
    QString publicBaseUrl; ///< render.publicBaseUrl; empty = from the Host header
    int signedUrlMaxAgeSeconds = 86400; ///< render.signedUrl.maxAgeSeconds: max-age of a signed URL without exp

    /// The settings of `config` (missing keys keep the defaults above).
    static RouteSettings fromConfig(const store::Config &config);
};

/// The base of the URLs an answer names (stored files, assets, the OpenAPI servers entry):
/// render.publicBaseUrl when set, else "http://" + the request's Host header when it looks
/// like host[:port], else empty (a relative URL, still fetchable from the same origin).
QString baseUrlFor(const HttpRequest &request, const RouteSettings &settings);

/// Whether the request's Prefer header (RFC 7240 §2) holds the respond-async preference:
/// the client would rather have 202 and a job to poll than wait for the image.
bool prefersRespondAsync(const HttpRequest &request);

/// The type of a route handler that takes the session, so that a module declares its
/// handlers in one line (`SessionRoute createKey, listKeys;`) and names them as
/// `SessionRoute Module::*`.
using SessionRoute = HttpResponse(const SessionContext &session, const HttpRequest &request);

/// A route handler of `module` that takes the session: its member `handler`.
template<typename Module>
SessionHandler sessionMethod(Module *module, SessionRoute Module::*handler)
{
    return [module, handler](const SessionContext &s, const HttpRequest &r) { return (module->*handler)(s, r); };
}

/// The guard of a dashboard route: a session whose role is among `roles` (withSession()).
/// `accounts` must outlive the router.
struct SessionGuard {
    service::AccountService &accounts;
    std::vector<store::Role> roles;

    /// `module`'s `handler` behind the guard.
    template<typename Module>
    SyncHandler operator()(Module *module, SessionRoute Module::*handler) const
    {
        return withSession(accounts, roles, sessionMethod(module, handler));
    }
};

/// The guard of a space's content routes (templates, pages, fonts, assets): the roles the
/// content use case names (every role: members are the editors), or an API key with the
/// "content" scope (pipelines that publish). The services must outlive the router.
struct ContentAccess {
    service::AccountService &accounts;
    service::ApiKeyService &keys;
    service::IdempotencyService &idempotency;

    /// `module`'s `handler` behind the guard.
    template<typename Module>
    SyncHandler operator()(Module *module, SessionRoute Module::*handler) const
    {
        return guarded(sessionMethod(module, handler));
    }
    /// `module`'s `handler` behind the guard, taking an Idempotency-Key (the routes that
    /// create, so a client may retry them safely); `route` names it in the stored answers
    /// ("POST /pages").
    template<typename Module>
    SyncHandler once(const QString &route, Module *module, SessionRoute Module::*handler) const
    {
        return guarded(withIdempotency(idempotency, route, sessionMethod(module, handler)));
    }

private:
    SyncHandler guarded(SessionHandler handler) const
    {
        return withSessionOrKey(accounts, keys, service::ContentService::editorRoles(), QStringLiteral("content"),
                                std::move(handler));
    }
};

/// The answer of a paged index (GET /tokens/api-keys/index, /signing-keys, /fonts,
/// /assets): `page` and `perPage` from the query within the bounds `Service` declares
/// (kMaxPage, kDefaultPerPage, kMaxPerPage; 400 naming the parameter outside them), the
/// page of `spaceId` from service.listPage(), each item through `toJson`; the service's
/// error as its problem.
template<typename Service, typename ToJson>
HttpResponse pagedIndex(Service &service, const QString &spaceId, const HttpRequest &request, ToJson toJson)
{
    const auto page = queryInt(request, QStringLiteral("page"), 1, 1, Service::kMaxPage);
    if (!page)
        return page.error();
    const auto perPage
        = queryInt(request, QStringLiteral("perPage"), Service::kDefaultPerPage, 1, Service::kMaxPerPage);
    if (!perPage)
        return perPage.error();
    auto result = service.listPage(spaceId, *page, *perPage);
    if (!result)
        return problemFor(result.error());
    return pagedList(*result, toJson);
}

/// The 201 answer of a new secret of a space (an API key, a signing key), or the error of
/// `created` as its problem: the record as `toJson` writes it, with the creating user's
/// e-mail, plus the secret `secretOf` reads from *created (a data member pointer such as
/// &CreatedKey::token, or a function) as member `secretField`. The secret is in this
/// answer only: no cache may keep it.
template<typename Result, typename ToJson, typename SecretOf>
HttpResponse createdSecret(const Result &created, const SessionContext &session, ToJson toJson,
                           const QString &secretField, SecretOf secretOf)
{
    if (!created)
        return problemFor(created.error());
    auto record = created->key;
    record.createdByEmail = session.session.membership.user.email;
    QJsonObject data = toJson(record);
    data.insert(secretField, std::invoke(secretOf, *created));
    return HttpResponse::success(data, 201).withHeader("Cache-Control", "no-store");
}

/// 200 (or `status`) with `toJson(*result)` as its data when `result` succeeded, its
/// error as a problem otherwise.
template<typename Result, typename ToJson>
HttpResponse answerWith(const Result &result, ToJson toJson, int status = 200)
{
    if (!result)
        return problemFor(result.error());
    return HttpResponse::success(toJson(*result), status);
}

/// 200 {"list": [...], "count": n}, each item of `result` through `toJson` (the unpaged
/// indexes of templates and pages), or its error as a problem.
template<typename Result, typename ToJson>
HttpResponse listed(const Result &result, ToJson toJson)
{
    if (!result)
        return problemFor(result.error());
    QJsonArray items;
    for (const auto &item : *result)
        items.append(toJson(item));
    return HttpResponse::success(QJsonObject{{QStringLiteral("list"), items}, {QStringLiteral("count"), items.size()}});
}

/// The answer of a revoke or delete: 200 {"message": `message`} when `done` succeeded,
/// its error as a problem otherwise.
template<typename Result>
HttpResponse doneOr(const Result &done, const QString &message)
{
    if (!done)
        return problemFor(done.error());
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), message}});
}

/// The answer of DELETE on a revocable secret of the session's space (an API key, a
/// signing key) named by the path's {id}: revoked through `secrets.revoke()` by the
/// session's user, then as doneOr() with `message`. No body is required; one that is
/// sent must still be valid JSON (400 otherwise, and nothing revoked).
template<typename Service>
HttpResponse revokedSecret(Service &secrets, const SessionContext &session, const HttpRequest &request,
                           const QString &message)
{
    if (const auto body = jsonObjectBody(request, true); !body)
        return body.error();
    return doneOr(secrets.revoke(session.spaceId, request.pathParam(QStringLiteral("id")), session.actor), message);
}

} // namespace imprint::http
