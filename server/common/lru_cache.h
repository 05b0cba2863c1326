#pragma once
// A least-recently-used map from a string key to bytes, bounded by the total size of the
// values rather than by the entry count, so a few huge renders cannot pin more memory than
// the configured budget while many small ones share it.

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QString>

#include <list>
#include <optional>

namespace imprint::common {

/// LRU map key → bytes whose values sum to at most capacityBytes(). An entry larger than
/// the whole budget is not kept. Thread-safe (one mutex; get() and put() are O(1)).
class ByteLruCache
{
public:
    /// `capacityBytes` ≤ 0 disables the cache (every get() misses, put() keeps nothing).
    explicit ByteLruCache(qint64 capacityBytes)
        : m_capacity(capacityBytes)
    { }

    /// The bytes under `key`, marking it most recently used; std::nullopt on a miss.
    std::optional<QByteArray> get(const QString &key);
    /// Inserts or replaces `key` as the most recently used entry, then evicts the least
    /// recently used entries until the total fits the budget.
    void put(const QString &key, const QByteArray &value);

    qint64 sizeBytes() const; ///< bytes currently held
    qint64 capacityBytes() const { return m_capacity; } ///< the budget, bytes
    int count() const; ///< entries currently held

private:
    using List = std::list<std::pair<QString, QByteArray>>;
    mutable QMutex m_mutex;
    qint64 m_capacity;
    qint64 m_size = 0;
    List m_list; // front = most recently used
    QHash<QString, List::iterator> m_index;
};

} // namespace imprint::common
