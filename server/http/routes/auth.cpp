// POST /auth/login, POST /auth/logout, GET /auth/me and GET /tokens/verify: the session
// and token-introspection routes (auth.h). Each reads the request into a call of
// AccountService or ApiKeyService and writes its result as the response.
#include "server/http/routes/auth.h"

#include "server/http/json.h"
#include "server/service/json.h"

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

/// auth.loginRateLimit of `config`: {perSecond, burst}.
QJsonObject loginRateLimit(const store::Config &config)
{
    return config.json().value(QStringLiteral("auth")).toObject().value(QStringLiteral("loginRateLimit")).toObject();
}

} // namespace

AuthRoutes::AuthRoutes(service::AccountService &accounts, service::ApiKeyService &keys, const store::Config &config)
    : m_accounts(accounts)
    , m_keys(keys)
    , m_loginRate(loginRateLimit(config).value(QStringLiteral("perSecond")).toDouble(5),
                  loginRateLimit(config).value(QStringLiteral("burst")).toDouble(30))
{ }

void AuthRoutes::registerRoutes(Router &router)
{
    addRoutes(router, {
        throughResponder("POST", QStringLiteral("/auth/login"),
                         [this](HttpRequest &&r, Responder &&resp) { login(std::move(r), std::move(resp)); }),
        onServerThread("POST", QStringLiteral("/auth/logout"), [this](const HttpRequest &r) { return logout(r); }),
        onServerThread("GET", QStringLiteral("/auth/me"), [this](const HttpRequest &r) { return me(r); }),
        onServerThread("GET", QStringLiteral("/tokens/verify"),
                       [this](const HttpRequest &r) { return verifyToken(r); }),
    });
}

QJsonObject AuthRoutes::sessionJson(const store::SessionInfo &s)
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

void AuthRoutes::login(HttpRequest &&request, Responder &&responder)
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

HttpResponse AuthRoutes::logout(const HttpRequest &request)
{
    auto done = m_accounts.logout(sessionTokenOf(request));
    if (!done)
        return problemFor(done.error());
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), QStringLiteral("Logged out")}})
        .withHeader("Set-Cookie", sessionCookie(QString(), 0));
}

HttpResponse AuthRoutes::me(const HttpRequest &request)
{
    const auto session = authenticateSession(request, m_accounts);
    if (!session)
        return session.error();
    return HttpResponse::success(sessionJson(*session));
}

HttpResponse AuthRoutes::verifyToken(const HttpRequest &request)
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
