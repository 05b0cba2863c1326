#pragma once
// The render rate limit (docs/api.md, "Rate limits"): render.rateLimit.perSecond and
// .burst per API key, signing key or client address. One instance (SQLite): a token bucket
// in memory. Instances sharing PostgreSQL: one counter per key and fixed window in the
// database, so the limit holds for the service as a whole, not per instance.

#include "server/common/rate_limiter.h"
#include "server/store/database.h"
#include "server/store/rate_windows.h"

#include <QString>

#include <atomic>

namespace imprint::service {

/// Thread-safe. With a shared database the window is ceil(burst / perSecond) seconds (at
/// least 1) and holds round(perSecond × window) renders (at least 1): the bucket's burst,
/// refilled all at once. When the database cannot count, the in-memory bucket decides.
class RenderRateLimiter
{
public:
    /// `ratePerSecond` ≤ 0 disables limiting.
    RenderRateLimiter(const store::Database &db, double ratePerSecond, double burst);

    /// Takes one render for `key`. 0 when allowed, else the whole seconds (≥ 1) to wait:
    /// the Retry-After value of RFC 9110 §10.2.3.
    int acquire(const QString &key);

    /// True when counts are shared through the database.
    bool isShared() const { return m_shared; }

private:
    const store::Database &m_db;
    common::RateLimiter m_local;
    bool m_shared = false;
    qint64 m_windowMs = 1000;
    int m_limit = 1;
    std::atomic<qint64> m_lastPruneMs{0};
};

} // namespace imprint::service
