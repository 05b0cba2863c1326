#pragma once
// Cache invalidation across instances sharing one PostgreSQL database (docs/deployment.md,
// "Several instances"): PostgreSQL LISTEN/NOTIFY on channel `imprint_changes`. A change is
// one payload "KIND:ID" (e.g. "page:pg_123"); every listening instance, the sender
// included, receives it once the sending transaction has committed.

#include "server/store/database.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>

class QThread;

namespace imprint::store {

class ChangeFeedWorker;

/// The LISTEN side: a dedicated connection on a thread of its own with an event loop (the
/// QPSQL driver delivers notifications through a socket notifier there). When the
/// connection drops it reconnects (every `retryMs`), and after each (re)connect it calls
/// the resync handler, because notifications sent while it was down are lost.
/// Handlers run on the feed's thread. Only for QPSQL databases.
class ChangeFeed
{
public:
    /// A notification: its kind ("page") and id.
    using Handler = std::function<void(const QString &kind, const QString &id)>;
    /// Called after the listen connection (re)opened and when it went down (`live` false).
    using LiveHandler = std::function<void(bool live)>;

    /// Starts listening with its own connection to `settings`' database. `checkMs` is how
    /// often the idle connection is probed (a dropped connection is noticed within it).
    ChangeFeed(DatabaseSettings settings, Handler onChange, LiveHandler onLive, int checkMs = 1000);
    ~ChangeFeed();
    ChangeFeed(const ChangeFeed &) = delete;
    ChangeFeed &operator=(const ChangeFeed &) = delete;

    /// True while the listen connection is open and subscribed.
    bool isLive() const { return m_counters->live.load(); }
    /// Notifications received on the channel since start (GET /metrics).
    quint64 notificationsReceived() const { return m_counters->notifications.load(); }
    /// Times the listen connection was opened and subscribed (1 + reconnects).
    quint64 connects() const { return m_counters->connects.load(); }

    /// Shared with the feed's thread, which writes them.
    struct Counters {
        std::atomic<bool> live{false};
        std::atomic<quint64> notifications{0};
        std::atomic<quint64> connects{0};
    };

    /// The channel name.
    static QString channel();

    /// Sends "kind:id" on `db` (this thread's connection) with pg_notify(); a no-op on
    /// SQLite. False when the statement failed (listeners then rely on their TTL).
    static bool notify(const Database &db, const QString &kind, const QString &id);

private:
    std::shared_ptr<Counters> m_counters;
    std::unique_ptr<QThread> m_thread;
};

} // namespace imprint::store
