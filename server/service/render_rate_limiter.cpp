#include "server/service/render_rate_limiter.h"

#include <cmath>

namespace imprint::service {

RenderRateLimiter::RenderRateLimiter(const store::Database &db, double ratePerSecond, double burst)
    : m_db(db)
    , m_local(ratePerSecond, burst)
    , m_shared(!db.isSqlite() && ratePerSecond > 0)
{
    if (m_shared) {
        const double windowSeconds = std::max(1.0, std::ceil(std::max(1.0, burst) / ratePerSecond));
        m_windowMs = qint64(windowSeconds * 1000);
        m_limit = std::max(1, int(std::lround(ratePerSecond * windowSeconds)));
    }
}

int RenderRateLimiter::acquire(const QString &key)
{
    if (!m_shared)
        return m_local.acquire(key);
    const qint64 now = store::nowMs();
    const qint64 start = now - now % m_windowMs;
    const store::RateWindows windows(m_db);
    // Old windows go once a minute, by whichever request comes first.
    qint64 last = m_lastPruneMs.load();
    if (now - last > 60000 && m_lastPruneMs.compare_exchange_strong(last, now))
        windows.prune(start - m_windowMs);
    const auto hits = windows.hit(key, start);
    if (!hits)
        return m_local.acquire(key); // the database is down: each instance limits alone
    if (*hits <= m_limit)
        return 0;
    return int(std::max<qint64>(1, (start + m_windowMs - now + 999) / 1000));
}

} // namespace imprint::service
