#include "server/http/auth.h"

#include "server/http/json.h"

#include <QDateTime>

namespace imprint::http {

QString apiTokenOf(const HttpRequest &request)
{
    const QString bearer = request.bearerToken();
    if (!bearer.isEmpty())
        return bearer;
    return request.queryValue(QStringLiteral("api_token")).value_or(QString());
}

Outcome<store::ApiKeyPrincipal> authenticateApiToken(const HttpRequest &request, store::ApiKeyService &keys)
{
    auto result = keys.authenticate(apiTokenOf(request));
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

Outcome<store::SessionInfo> authenticateSession(const HttpRequest &request, store::AccountService &accounts,
                                                std::initializer_list<store::Role> roles)
{
    auto session = accounts.session(sessionTokenOf(request));
    if (!session)
        return problemFor(session.error());
    if (roles.size() > 0 && std::find(roles.begin(), roles.end(), session->membership.role) == roles.end()) {
        QStringList names;
        for (store::Role r : roles)
            names << store::roleName(r);
        return problem(403, QStringLiteral("forbidden"),
                       QStringLiteral("This needs the role %1 in space '%2'; you are %3.")
                           .arg(names.join(QStringLiteral(" or ")), session->membership.space.name,
                                store::roleName(session->membership.role)));
    }
    return session.value();
}

void LoginThrottle::prune(std::deque<qint64> &times, qint64 now) const
{
    while (!times.empty() && now - times.front() >= m_windowMs)
        times.pop_front();
}

int LoginThrottle::retryAfterSeconds(const QString &email, const QString &address)
{
    QMutexLocker lock(&m_mutex);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 waitMs = 0;
    for (const QString &key : {QStringLiteral("e:") + email, QStringLiteral("a:") + address}) {
        auto it = m_failures.find(key);
        if (it == m_failures.end())
            continue;
        prune(*it, now);
        if (int(it->size()) >= m_limit)
            waitMs = std::max(waitMs, it->front() + m_windowMs - now);
        if (it->empty())
            m_failures.erase(it);
    }
    return waitMs > 0 ? int((waitMs + 999) / 1000) : 0;
}

void LoginThrottle::recordFailure(const QString &email, const QString &address)
{
    QMutexLocker lock(&m_mutex);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const QString &key : {QStringLiteral("e:") + email, QStringLiteral("a:") + address}) {
        auto &times = m_failures[key];
        prune(times, now);
        times.push_back(now);
    }
}

void LoginThrottle::recordSuccess(const QString &email)
{
    QMutexLocker lock(&m_mutex);
    m_failures.remove(QStringLiteral("e:") + email);
}

} // namespace imprint::http
