#include "server/http/api.h"

#include "server/http/json.h"
#include "server/service/json.h"
#include "server/store/database.h"

#include <QDateTime>
#include <QJsonArray>

namespace imprint::http {

namespace {

QByteArray sessionCookie(const QString &token, qint64 maxAgeSeconds)
{
    // HttpOnly: scripts cannot read it; SameSite=Strict: other sites cannot make the
    // browser send it (CSRF). No Secure flag: the default deployment is plain HTTP on
    // localhost; a TLS proxy in front may add it.
    return QByteArray(kSessionCookie) + '=' + token.toLatin1()
           + "; Path=/api/; Max-Age=" + QByteArray::number(maxAgeSeconds) + "; HttpOnly; SameSite=Strict";
}

const QString kApi = QStringLiteral("/api/v1");

} // namespace

Api::Api(const store::Database &db, store::Config config)
    : m_db(db)
    , m_config(config)
    , m_accounts(db, config)
    , m_keys(db)
    , m_throttle(config.loginFailureLimit(), config.loginFailureWindowSeconds())
{ }

void Api::registerRoutes(Router &router)
{
    // Key management is for a space's owners and admins.
    auto keyRoute = [this](SessionHandler handler) {
        return withSession(m_accounts, {store::Role::Owner, store::Role::Admin}, std::move(handler));
    };
    router.add("GET", kApi + QStringLiteral("/health"), [this](const HttpRequest &) { return health(); });
    router.addWithResponder("POST", kApi + QStringLiteral("/auth/login"),
                            [this](HttpRequest &&r, Responder &&resp) { login(std::move(r), std::move(resp)); });
    router.add("POST", kApi + QStringLiteral("/auth/logout"), [this](const HttpRequest &r) { return logout(r); });
    router.add("GET", kApi + QStringLiteral("/auth/me"), [this](const HttpRequest &r) { return me(r); });
    router.add("POST", kApi + QStringLiteral("/tokens/api-keys"),
               keyRoute([this](const SessionContext &s, const HttpRequest &r) { return createKey(s, r); }));
    router.add("GET", kApi + QStringLiteral("/tokens/api-keys/index"),
               keyRoute([this](const SessionContext &s, const HttpRequest &r) { return listKeys(s, r); }));
    router.add("DELETE", kApi + QStringLiteral("/tokens/api-keys/{id}"),
               keyRoute([this](const SessionContext &s, const HttpRequest &r) { return revokeKey(s, r); }));
    router.add("GET", kApi + QStringLiteral("/tokens/verify"), [this](const HttpRequest &r) { return verifyToken(r); });
}

QJsonObject Api::sessionJson(const store::SessionInfo &s)
{
    const store::Membership &m = s.membership;
    return QJsonObject{
        {QStringLiteral("user"),
         QJsonObject{{QStringLiteral("id"), m.user.id}, {QStringLiteral("email"), m.user.email}}},
        {QStringLiteral("space"), QJsonObject{{QStringLiteral("id"), m.space.id},
                                              {QStringLiteral("name"), m.space.name},
                                              {QStringLiteral("plan"), m.space.plan}}},
        {QStringLiteral("role"), store::roleName(m.role)},
        {QStringLiteral("expiresAt"), service::isoOrNull(s.expiresAt)},
    };
}

HttpResponse Api::health()
{
    const bool dbOk = m_db.ping();
    return HttpResponse::json(
        dbOk ? 200 : 503, QJsonObject{
                              {QStringLiteral("status"), dbOk ? QStringLiteral("ok") : QStringLiteral("degraded")},
                              {QStringLiteral("version"), QStringLiteral(IMPRINT_VERSION)},
                              {QStringLiteral("database"), dbOk ? QStringLiteral("ok") : QStringLiteral("unavailable")},
                          });
}

void Api::login(HttpRequest &&request, Responder &&responder)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return responder.send(body.error());
    const auto email = requiredString(*body, QStringLiteral("email"));
    if (!email)
        return responder.send(email.error());
    const auto password = requiredString(*body, QStringLiteral("password"));
    if (!password)
        return responder.send(password.error());
    const QJsonValue spaceValue = body->value(QStringLiteral("space"));
    if (!spaceValue.isUndefined() && !spaceValue.isNull() && !spaceValue.isString())
        return responder.send(
            problem(400, QStringLiteral("invalid_field"), QStringLiteral("The field 'space' must be a string.")));
    const QString space = spaceValue.toString();

    const QString normalised = email->trimmed().toLower();
    const QString address = request.remoteAddress.toString();
    if (const int wait = m_throttle.retryAfterSeconds(normalised, address); wait > 0) {
        return responder.send(problem(429, QStringLiteral("too_many_login_attempts"),
                                      QStringLiteral("Too many failed logins; retry in %1 s.").arg(wait))
                                  .withHeader("Retry-After", QByteArray::number(wait)));
    }
    // Argon2id verification takes ~0.1 s and 64 MiB: off the server thread.
    respondAsync(std::move(responder), [this, email = *email, password = *password, space, normalised, address] {
        auto result = m_accounts.login(email, password, space);
        if (!result) {
            if (result.error().kind == store::ServiceError::Kind::Unauthorized)
                m_throttle.recordFailure(normalised, address);
            return problemFor(result.error());
        }
        m_throttle.recordSuccess(normalised);
        const service::LoginResult &login = result.value();
        QJsonObject data = sessionJson(login.session);
        data.insert(QStringLiteral("token"), login.token);
        const qint64 maxAge = std::max<qint64>(0, (login.session.expiresAt - store::nowMs()) / 1000);
        return HttpResponse::success(data)
            .withHeader("Set-Cookie", sessionCookie(login.token, maxAge))
            .withHeader("Cache-Control", "no-store");
    });
}

HttpResponse Api::logout(const HttpRequest &request)
{
    auto done = m_accounts.logout(sessionTokenOf(request));
    if (!done)
        return problemFor(done.error());
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), QStringLiteral("Logged out")}})
        .withHeader("Set-Cookie", sessionCookie(QString(), 0));
}

HttpResponse Api::me(const HttpRequest &request)
{
    const auto session = authenticateSession(request, m_accounts);
    if (!session)
        return session.error();
    return HttpResponse::success(sessionJson(*session));
}

HttpResponse Api::createKey(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
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
    auto created = m_keys.create(session.spaceId, nameValue.toString(), expiresAt, session.actor);
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
    const auto page = queryInt(request, QStringLiteral("page"), 1, 1, 1000000);
    if (!page)
        return page.error();
    const auto perPage = queryInt(request, QStringLiteral("perPage"), 20, 1, 100);
    if (!perPage)
        return perPage.error();
    auto result = m_keys.listPage(session.spaceId, *page, *perPage);
    if (!result)
        return problemFor(result.error());
    QJsonArray list;
    for (const store::ApiKey &k : result->items)
        list.append(service::keyJson(k));
    return HttpResponse::success(QJsonObject{
        {QStringLiteral("list"), list},
        {QStringLiteral("count"), result->count},
        {QStringLiteral("pagesCount"), result->pagesCount},
        {QStringLiteral("page"), result->page},
        {QStringLiteral("perPage"), result->perPage},
    });
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

HttpResponse Api::verifyToken(const HttpRequest &request)
{
    const auto principal = authenticateApiToken(request, m_keys);
    if (!principal)
        return principal.error();
    const store::Space &space = principal->space;
    const auto limits = m_config.plan(space.plan).value_or(store::PlanLimits{});
    return HttpResponse::success(QJsonObject{
        {QStringLiteral("keyId"), principal->keyId},
        {QStringLiteral("space"), QJsonObject{{QStringLiteral("id"), space.id},
                                              {QStringLiteral("name"), space.name},
                                              {QStringLiteral("plan"), space.plan},
                                              {QStringLiteral("maxWidth"), limits.maxWidth},
                                              {QStringLiteral("maxHeight"), limits.maxHeight}}},
    });
}

} // namespace imprint::http
