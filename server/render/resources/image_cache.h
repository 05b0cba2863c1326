#pragma once
// The decoded-image cache of a render context (server/render/render_context.h).

#include "server/render/resources/cache_stats.h"
#include "server/render/resources/image_decoder.h"

#include <QImage>
#include <QString>

namespace imprint::render {

/// Decoded data: URL images, shared by the render threads of one context: the same
/// template renders again and again, and decoding (inflate, SVG drawing) costs far more
/// than the rest of its tree. Bounded in bytes (image pixels plus the URL kept as key);
/// an image over a quarter of the bound is decoded every time rather than evicting the
/// rest. Thread-safe.
class ImageCache
{
public:
    static constexpr qint64 kDefaultCapacityBytes = 32 * 1024 * 1024;

    explicit ImageCache(qint64 capacityBytes = kDefaultCapacityBytes);

    /// decodeDataUrlImage() of `url` (resources/image_decoder.h: data: URLs only, one
    /// format policy), from the cache when it was decoded before. The error when it does
    /// not decode; failures are not cached.
    ImageResult load(const QString &url);

    CacheStats stats() const { return m_cache.stats(); }
    /// Drops every image (tests, memory pressure); the counters stay.
    void clear() { m_cache.clear(); }

private:
    CountedCache<QImage> m_cache;
};

} // namespace imprint::render
