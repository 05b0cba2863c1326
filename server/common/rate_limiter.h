#pragma once
// A token-bucket rate limiter per key (API key id, or client address for anonymous calls).

#include "server/common/clock.h"

#include <QHash>
#include <QMutex>
#include <QString>

namespace imprint::common {

/// Token buckets per key: each refills at `ratePerSecond` tokens per second up to `burst`
/// and starts full. Thread-safe. Buckets idle long enough to be full again are dropped
/// (once a minute) so the map stays small.
class RateLimiter
{
public:
    /// `ratePerSecond` ≤ 0 disables limiting; `burst` is at least 1. `nowNs` reads a
    /// monotonic clock in nanoseconds; the default is a QElapsedTimer started here.
    RateLimiter(double ratePerSecond, double burst, Clock nowNs = {});

    /// Takes one token for `key`. Returns 0 when allowed, else the whole seconds (≥ 1) to
    /// wait before a token is available: the Retry-After value of RFC 9110 §10.2.3.
    int acquire(const QString &key);

private:
    struct Bucket {
        double tokens = 0;
        qint64 lastNs = 0;
    };
    QMutex m_mutex;
    double m_rate;
    double m_burst;
    Clock m_now;
    QHash<QString, Bucket> m_buckets;
    qint64 m_lastPruneNs = 0;
};

} // namespace imprint::common
