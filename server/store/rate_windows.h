#pragma once
// Fixed-window hit counters in the database, shared by every instance on it: the render
// rate limit across instances (service::RenderRateLimiter, docs/api.md "Rate limits").

#include "server/store/database.h"

#include <optional>

namespace imprint::store {

/// The `rate_windows` table (migration 8). Thread-safe (per-thread connections).
class RateWindows
{
public:
    explicit RateWindows(const Database &db)
        : m_db(db)
    { }

    /// Counts one hit of `key` in the window starting at `windowStartMs` (epoch ms) and
    /// returns the window's hits so far, this one included, in one atomic UPSERT;
    /// std::nullopt when the statement failed.
    std::optional<int> hit(const QString &key, qint64 windowStartMs) const;

    /// Deletes windows that started before `beforeMs`. False on failure.
    bool prune(qint64 beforeMs) const;

private:
    const Database &m_db;
};

} // namespace imprint::store
