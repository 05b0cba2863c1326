#include "server/common/rate_limiter.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <memory>

namespace imprint::common {

RateLimiter::RateLimiter(double ratePerSecond, double burst, Clock nowNs)
    : m_rate(ratePerSecond)
    , m_burst(std::max(1.0, burst))
    , m_now(std::move(nowNs))
{
    if (!m_now) {
        auto timer = std::make_shared<QElapsedTimer>();
        timer->start();
        m_now = [timer] { return timer->nsecsElapsed(); };
    }
    m_lastPruneNs = m_now();
}

int RateLimiter::acquire(const QString &key)
{
    if (m_rate <= 0)
        return 0;
    QMutexLocker lock(&m_mutex);
    const qint64 now = m_now();
    // Every minute, forget buckets that have refilled completely: they behave exactly
    // like a new bucket.
    if (now - m_lastPruneNs > 60'000'000'000LL) {
        m_lastPruneNs = now;
        for (auto it = m_buckets.begin(); it != m_buckets.end();) {
            if (it->tokens + double(now - it->lastNs) / 1e9 * m_rate >= m_burst)
                it = m_buckets.erase(it);
            else
                ++it;
        }
    }
    auto it = m_buckets.find(key);
    if (it == m_buckets.end())
        it = m_buckets.insert(key, Bucket{m_burst, now});
    Bucket &b = it.value();
    b.tokens = std::min(m_burst, b.tokens + double(now - b.lastNs) / 1e9 * m_rate);
    b.lastNs = now;
    if (b.tokens >= 1.0) {
        b.tokens -= 1.0;
        return 0;
    }
    return std::max(1, int(std::ceil((1.0 - b.tokens) / m_rate)));
}

} // namespace imprint::common
