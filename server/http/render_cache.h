#pragma once
// Concurrency helpers of the render routes (DESIGN.md §6): a byte-bounded LRU for pattern
// renders, single-flight so identical concurrent renders are computed once, and a per-key
// token bucket for the render rate limit. All are thread-safe (renders run on the pool).

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QString>

#include <condition_variable>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace imprint::http {

/// LRU map from a key to encoded bytes, bounded by the sum of the values' sizes (bytes).
/// An entry larger than the whole budget is not kept. Thread-safe.
class ByteLruCache
{
public:
    /// `capacityBytes` ≤ 0 disables the cache (every get() misses, put() keeps nothing).
    explicit ByteLruCache(qint64 capacityBytes) : m_capacity(capacityBytes) {}

    /// The bytes under `key` (marking it most recently used), or std::nullopt.
    std::optional<QByteArray> get(const QString &key);
    /// Inserts or replaces `key`, then evicts least recently used entries until the total
    /// fits the budget.
    void put(const QString &key, const QByteArray &value);

    qint64 sizeBytes() const;      ///< bytes currently held
    qint64 capacityBytes() const { return m_capacity; }
    int count() const;             ///< entries currently held

private:
    using List = std::list<std::pair<QString, QByteArray>>;
    mutable QMutex m_mutex;
    qint64 m_capacity;
    qint64 m_size = 0;
    List m_list;                   // front = most recently used
    QHash<QString, List::iterator> m_index;
};

/// Single-flight: concurrent calls of run() with the same key share one computation
/// (DESIGN §6 "Identical concurrent renders are computed once"). Callers block their
/// (worker) thread until the leader finishes; never call it on the server thread.
template<typename V>
class SingleFlight
{
public:
    /// Runs `compute` unless a call with `key` is already running, in which case waits for
    /// it and returns its value. *shared (if given) tells which happened.
    V run(const QString &key, const std::function<V()> &compute, bool *shared = nullptr)
    {
        std::shared_ptr<Call> call;
        bool leader = false;
        {
            std::lock_guard lock(m_mutex);
            auto it = m_calls.find(key);
            if (it != m_calls.end()) {
                call = it->second;
            } else {
                call = std::make_shared<Call>();
                m_calls.emplace(key, call);
                leader = true;
            }
        }
        if (shared)
            *shared = !leader;
        if (!leader) {
            std::unique_lock lock(call->mutex);
            call->done.wait(lock, [&] { return call->value.has_value(); });
            return *call->value;
        }
        std::optional<V> value;
        try {
            value = compute();
        } catch (...) {
            finish(key, call, std::nullopt);
            throw;
        }
        finish(key, call, value);
        return *value;
    }

private:
    struct Call {
        std::mutex mutex;
        std::condition_variable done;
        std::optional<V> value;
        bool failed = false;
    };

    void finish(const QString &key, const std::shared_ptr<Call> &call, const std::optional<V> &value)
    {
        {
            std::lock_guard lock(m_mutex);
            m_calls.erase(key);
        }
        std::lock_guard lock(call->mutex);
        // A leader that threw leaves followers a default value; compute() of the render
        // routes never throws (errors are values), so this is only a safety net.
        call->value = value ? *value : V{};
        call->done.notify_all();
    }

    struct KeyHash {
        size_t operator()(const QString &s) const { return qHash(s); }
    };
    std::mutex m_mutex;
    std::unordered_map<QString, std::shared_ptr<Call>, KeyHash> m_calls;
};

/// Token buckets per key (API key id, or client address for anonymous calls): `rate`
/// tokens per second up to `burst`. Thread-safe. Buckets idle long enough to be full are
/// dropped so the map stays small.
class RateLimiter
{
public:
    /// rate ≤ 0 disables limiting.
    RateLimiter(double ratePerSecond, double burst) : m_rate(ratePerSecond), m_burst(std::max(1.0, burst)) { m_clock.start(); }

    /// Takes one token for `key`. Returns 0 when allowed, else the whole seconds (≥ 1) to
    /// wait before a token is available (the Retry-After value).
    int acquire(const QString &key);

private:
    struct Bucket {
        double tokens = 0;
        qint64 lastNs = 0;
    };
    QMutex m_mutex;
    double m_rate;
    double m_burst;
    QElapsedTimer m_clock;
    QHash<QString, Bucket> m_buckets;
    qint64 m_lastPruneNs = 0;
};

} // namespace imprint::http
