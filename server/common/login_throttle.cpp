#include "server/common/login_throttle.h"

#include <QDateTime>

#include <algorithm>

namespace imprint::common {

LoginThrottle::LoginThrottle(int limit, int windowSeconds, Clock nowMs)
    : m_limit(limit)
    , m_windowMs(qint64(windowSeconds) * 1000)
    , m_now(std::move(nowMs))
{
    if (!m_now)
        m_now = [] { return QDateTime::currentMSecsSinceEpoch(); };
}

void LoginThrottle::prune(std::deque<qint64> &times, qint64 now) const
{
    while (!times.empty() && now - times.front() >= m_windowMs)
        times.pop_front();
}

int LoginThrottle::retryAfterSeconds(const QString &email, const QString &address)
{
    QMutexLocker lock(&m_mutex);
    const qint64 now = m_now();
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
    const qint64 now = m_now();
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

} // namespace imprint::common
