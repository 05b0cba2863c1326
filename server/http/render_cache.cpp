#include "server/http/render_cache.h"

#include <cmath>

namespace imprint::http {

std::optional<QByteArray> ByteLruCache::get(const QString &key)
{
    QMutexLocker lock(&m_mutex);
    auto it = m_index.find(key);
    if (it == m_index.end())
        return std::nullopt;
    m_list.splice(m_list.begin(), m_list, it.value());
    return it.value()->second;
}

void ByteLruCache::put(const QString &key, const QByteArray &value)
{
    QMutexLocker lock(&m_mutex);
    if (auto it = m_index.find(key); it != m_index.end()) {
        m_size -= it.value()->second.size();
        m_list.erase(it.value());
        m_index.erase(it);
    }
    if (value.size() > m_capacity)
        return;
    m_list.emplace_front(key, value);
    m_index.insert(key, m_list.begin());
    m_size += value.size();
    while (m_size > m_capacity && !m_list.empty()) {
        auto &last = m_list.back();
        m_size -= last.second.size();
        m_index.remove(last.first);
        m_list.pop_back();
    }
}

qint64 ByteLruCache::sizeBytes() const
{
    QMutexLocker lock(&m_mutex);
    return m_size;
}

int ByteLruCache::count() const
{
    QMutexLocker lock(&m_mutex);
    return int(m_list.size());
}

int RateLimiter::acquire(const QString &key)
{
    if (m_rate <= 0)
        return 0;
    QMutexLocker lock(&m_mutex);
    const qint64 now = m_clock.nsecsElapsed();
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

} // namespace imprint::http
