#pragma once
// Cooperative cancellation of one render: a wall-clock deadline and an explicit cancel
// (the client went away, the server is shutting down). Stages poll it at their natural
// boundaries (between pipeline stages, between display-list commands) and stop early;
// the pipeline then reports why. Work inside a third-party call (QtSvg rasterising one
// document, one libpng call) cannot be interrupted and finishes first.

#include <QDeadlineTimer>

#include <atomic>
#include <limits>
#include <memory>
#include <optional>

namespace imprint::render {

/// A shared, thread-safe cancellation state. Copies share one state, so the HTTP layer
/// can keep a copy to cancel while a worker thread polls another. A default-constructed
/// object never cancels and costs one null check to poll.
class RenderCancellation
{
public:
    /// Why a render stopped early.
    enum class Reason : int {
        Deadline = 1, ///< the wall-clock deadline passed
        ClientGone, ///< nobody waits for the result any more
        ShuttingDown, ///< the server is stopping
    };

    RenderCancellation() = default;

    /// A state that cancels itself `ms` milliseconds from now (ms <= 0: no deadline,
    /// cancelled only by cancel()).
    static RenderCancellation withDeadline(qint64 ms)
    {
        RenderCancellation c;
        c.m_state = std::make_shared<State>();
        if (ms > 0) {
            c.m_state->deadlineNs.store(QDeadlineTimer(ms).deadlineNSecs());
            c.m_deadlineMs = ms;
        }
        return c;
    }

    /// Cancels for `reason` (the first reason given wins). Thread-safe; no-op on a
    /// default-constructed object.
    void cancel(Reason reason) const
    {
        if (!m_state)
            return;
        int none = 0;
        m_state->reason.compare_exchange_strong(none, int(reason));
    }

    /// Why the render must stop, or std::nullopt while it may go on. Thread-safe.
    std::optional<Reason> reason() const
    {
        if (!m_state)
            return std::nullopt;
        if (const int r = m_state->reason.load(std::memory_order_relaxed))
            return Reason(r);
        if (deadline().hasExpired()) {
            cancel(Reason::Deadline);
            return Reason(m_state->reason.load());
        }
        return std::nullopt;
    }

    bool isCancelled() const { return reason().has_value(); }

    /// When the render must end (Forever when it has no deadline): work done for the
    /// render outside the pipeline, such as fetching its images, ends by then too.
    QDeadlineTimer deadline() const
    {
        const qint64 ns = m_state ? m_state->deadlineNs.load(std::memory_order_relaxed) : kNoDeadline;
        if (ns == kNoDeadline)
            return QDeadlineTimer(QDeadlineTimer::Forever);
        QDeadlineTimer t;
        t.setPreciseDeadline(0, ns);
        return t;
    }

    /// Moves the deadline `ms` later (a render that waited for a bounded engine's slot is
    /// not charged the wait: docs/templates.md, "Under load"). Thread-safe; the HTTP layer,
    /// whose timer answers 422 at the deadline, looks again when its timer fires. No-op
    /// without a deadline, or once cancelled.
    void extendDeadline(qint64 ms) const
    {
        if (!m_state || ms <= 0 || m_state->reason.load() != 0)
            return;
        qint64 ns = m_state->deadlineNs.load();
        while (ns != kNoDeadline && !m_state->deadlineNs.compare_exchange_weak(ns, ns + ms * 1000000)) {
        }
    }

    /// The deadline's length in ms as given to withDeadline(), 0 when none.
    qint64 deadlineMs() const { return m_deadlineMs; }

private:
    struct State {
        std::atomic<int> reason{0};
        std::atomic<qint64> deadlineNs{kNoDeadline}; // QDeadlineTimer::deadlineNSecs()
    };
    static constexpr qint64 kNoDeadline = std::numeric_limits<qint64>::max();
    std::shared_ptr<State> m_state;
    qint64 m_deadlineMs = 0;
};

} // namespace imprint::render
