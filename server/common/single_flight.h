#pragma once
// Single-flight: concurrent calls with the same key share one computation, so a burst of
// identical render requests costs one render.

#include <QHash>
#include <QString>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace imprint::common {

/// Concurrent run() calls with one key share one call of `compute`. Callers that join a
/// running computation block their thread until the leader finishes, so never call it on
/// an event-loop thread. Thread-safe. V must be copyable and default-constructible.
template<typename V>
class SingleFlight
{
public:
    /// Runs `compute` unless a call with `key` is already running, in which case waits for
    /// it and returns its value. *shared (if given) is set to true when the value came from
    /// another caller's computation. If the leader's `compute` throws, the exception goes to
    /// the leader and the waiting callers get V{}.
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
    };

    void finish(const QString &key, const std::shared_ptr<Call> &call, const std::optional<V> &value)
    {
        {
            std::lock_guard lock(m_mutex);
            m_calls.erase(key);
        }
        std::lock_guard lock(call->mutex);
        call->value = value ? *value : V{};
        call->done.notify_all();
    }

    struct KeyHash {
        size_t operator()(const QString &s) const { return qHash(s); }
    };
    std::mutex m_mutex;
    std::unordered_map<QString, std::shared_ptr<Call>, KeyHash> m_calls;
};

} // namespace imprint::common
