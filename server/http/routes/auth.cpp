// GET /health, POST /auth/login, POST /auth/logout, GET /auth/me and GET /tokens/verify:
// the session and token-introspection routes. Each reads the request into a call of
// AccountService or ApiKeyService and writes its result as the response; the rules
// (password check, failed-login throttle, session lifetime, token validity) are the
// services'.
#include "server/http/api.h"
#include "server/http/json.h"
#include "server/service/json.h"
#include "server/store/database.h"

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

} // namespace

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

void Api::addHealthCheck(const QString &name, std::function<HealthCheck()> check)
{
    m_healthChecks.emplace_back(name, std::move(check));
}

HttpResponse Api::health()
{
    bool ok = m_db.ping();
    QJsonObject state{
        {QStringLiteral("version"), QStringLiteral(IMPRINT_VERSION)},
        {QStringLiteral("database"), ok ? QStringLiteral("ok") : QStringLiteral("unavailable")},
    };
    for (const auto &[name, check] : m_healthChecks) {
        const HealthCheck c = check();
        state.insert(name, c.state);
        ok = ok && c.healthy;
    }
    const bool dbOk = ok;
    state.insert(QStringLiteral("status"), ok ? QStringLiteral("ok") : QStringLiteral("degraded"));
    // The envelope of every other route, and the same members at the top level, where
    // probes written before it look (docs/api.md). A 503 is not a failed request of the
    // caller's, so it is no problem+json: load balancers read the status, people the state.
    QJsonObject body = state;
    body.insert(QStringLiteral("success"), dbOk);
    body.insert(QStringLiteral("data"), state);
    return HttpResponse::json(dbOk ? 200 : 503, body);
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

    const QString address = request.remoteAddress.toString();
    // Asked here first so that a throttled attempt never takes a worker: one address may
    // not keep the login pool busy, whatever e-mails it tries.
    if (const int wait = m_loginRate.acquire(address); wait > 0)
        return responder.send(problem(429, QStringLiteral("too_many_login_attempts"),
                                      QStringLiteral("Too many logins from this address; retry in %1 s.").arg(wait))
                                  .withHeader("Retry-After", QByteArray::number(wait)));
    if (const auto allowed = m_accounts.checkLoginAllowed(*email, address); !allowed)
        return responder.send(problemFor(allowed.error()));
    // Argon2id verification takes ~0.1 s and 64 MiB: off the server thread, on the login
    // pool so that renders and logins never wait for each other.
    respondOnLoginPool(std::move(responder), [this, email = *email, password = *password, space, address] {
        auto result = m_accounts.login(email, password, space, address);
        if (!result)
            return problemFor(result.error());
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

HttpResponse Api::verifyToken(const HttpRequest &request)
{
    const auto principal = authenticateApiToken(request, m_keys);
    if (!principal)
        return principal.error();
    const store::Space &space = principal->space;
    const store::PlanLimits limits = m_accounts.planLimits(space.plan);
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
