#pragma once
// The counters every bounded cache of the render context reports (GET /api/v1/metrics).

#include <QtGlobal>

namespace imprint::render {

/// A snapshot of one cache. Counters only grow; entries and bytes are what it holds now.
struct CacheStats {
    quint64 hits = 0;
    quint64 misses = 0;
    qint64 entries = 0;
    qint64 bytes = 0; ///< bytes held, for caches bounded in bytes (0 otherwise)
    qint64 capacity = 0; ///< the bound: bytes for a byte-bounded cache, else entries
};

} // namespace imprint::render
