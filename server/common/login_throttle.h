#pragma once
// Failed-login throttling: too many failures for one e-mail or from one client address
// within a sliding window block further attempts until the oldest failure leaves it.

#include "server/common/clock.h"

#include <QHash>
#include <QMutex>
#include <QString>

#include <deque>

namespace imprint::common {

/// Counts failed logins per e-mail and per client address over a sliding window of
/// `windowSeconds`; once either key has `limit` failures in the window, retryAfterSeconds()
/// is positive. In memory, per process; thread-safe.
class LoginThrottle
{
public:
    /// `nowMs` reads wall-clock milliseconds; the default is QDateTime::currentMSecsSinceEpoch.
    LoginThrottle(int limit, int windowSeconds, Clock nowMs = {});

    /// Seconds (≥ 1, rounded up) the caller must wait before trying, or 0 when a login may
    /// be tried now.
    int retryAfterSeconds(const QString &email, const QString &address);
    /// Records one failed login for both keys.
    void recordFailure(const QString &email, const QString &address);
    /// Forgets the e-mail's failures after a successful login (the address's stay, so one
    /// good account cannot be used to reset guessing on others from the same address).
    void recordSuccess(const QString &email);

private:
    void prune(std::deque<qint64> &times, qint64 now) const;

    QMutex m_mutex;
    int m_limit;
    qint64 m_windowMs;
    Clock m_now;
    QHash<QString, std::deque<qint64>> m_failures; // "e:<email>" / "a:<address>" → times (ms)
};

} // namespace imprint::common
