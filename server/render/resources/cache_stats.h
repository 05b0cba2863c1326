#pragma once
// The counters every bounded cache of the render context reports (GET /api/v1/metrics),
// and the one thread-safe counted cache the resource caches are built on.

#include <QCache>
#include <QMutex>
#include <QMutexLocker>
#include <QString>
#include <QtGlobal>

#include <optional>

namespace imprint::render {

/// A snapshot of one cache. Counters only grow; entries and bytes are what it holds now.
struct CacheStats {
    quint64 hits = 0;
    quint64 misses = 0;
    qint64 entries = 0;
    qint64 bytes = 0; ///< bytes held, for caches bounded in bytes (0 otherwise)
    qint64 capacity = 0; ///< the bound: bytes for a byte-bounded cache, else entries
};

/// A QCache of `T` by string key behind one mutex, counting its hits and misses.
/// Bounded by total cost: bytes when `boundedInBytes` (each insert says its size),
/// else entries (cost 1 each). Values are copied out, so `T` should be cheap to copy
/// (implicitly shared or a shared pointer). Thread-safe.
template<typename T>
class CountedCache
{
public:
    CountedCache(qint64 capacity, bool boundedInBytes)
        : m_bytes(boundedInBytes)
        , m_cache(std::max<qint64>(capacity, 0))
    { }

    /// The value under `key` (a hit), or std::nullopt (a miss).
    std::optional<T> find(const QString &key)
    {
        QMutexLocker lock(&m_mutex);
        if (const T *hit = m_cache.object(key)) {
            ++m_hits;
            return *hit;
        }
        ++m_misses;
        return std::nullopt;
    }

    /// Keeps `value` under `key`; `cost` in the cache's unit (bytes, or 1 per entry).
    void insert(const QString &key, T value, qint64 cost = 1)
    {
        QMutexLocker lock(&m_mutex);
        m_cache.insert(key, new T(std::move(value)), cost);
    }

    qint64 capacity() const
    {
        QMutexLocker lock(&m_mutex);
        return m_cache.maxCost();
    }

    /// Changes the bound (entries beyond it are dropped, least recently used first).
    void setCapacity(qint64 capacity)
    {
        QMutexLocker lock(&m_mutex);
        m_cache.setMaxCost(std::max<qint64>(capacity, 0));
    }

    CacheStats stats() const
    {
        QMutexLocker lock(&m_mutex);
        CacheStats s;
        s.hits = m_hits;
        s.misses = m_misses;
        s.entries = m_cache.count();
        s.bytes = m_bytes ? m_cache.totalCost() : 0;
        s.capacity = m_cache.maxCost();
        return s;
    }

    /// Drops every entry; the counters stay.
    void clear()
    {
        QMutexLocker lock(&m_mutex);
        m_cache.clear();
    }

private:
    const bool m_bytes;
    mutable QMutex m_mutex;
    QCache<QString, T> m_cache;
    quint64 m_hits = 0, m_misses = 0;
};

} // namespace imprint::render
