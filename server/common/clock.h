#pragma once
// The clock the in-memory limiters (RateLimiter, LoginThrottle) read time through, so
// their tests move time by hand instead of sleeping.

#include <QtGlobal>

#include <functional>

namespace imprint::common {

/// A clock read as a count of its unit (each user says which: ms, ns); an empty one
/// means the user's default clock.
using Clock = std::function<qint64()>;

} // namespace imprint::common
