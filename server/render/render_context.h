#pragma once
// The render context (docs/architecture.md): everything a render reads that outlives one
// request — the text engine, the decoded-image cache, the emoji image sets — owned by
// whoever runs renders (the server's composition root, a CLI command, a test) and passed
// down the pipeline, so no stage reaches for process-wide state. Its caches are bounded
// and their counters are what GET /api/v1/metrics reports.

#include "server/render/paint/paint_resources.h"
#include "server/render/resources/cache_stats.h"
#include "server/render/resources/emoji.h"
#include "server/render/resources/image_cache.h"
#include "server/render/text/text_engine.h"

#include <QString>

namespace imprint::render {

/// How a RenderContext is set up.
struct RenderContextOptions {
    /// Where the emoji sets are read from (emojiDirectoryFor()); empty: the server has no
    /// data directory, so $IMPRINT_EMOJI_DIR or the per-user default.
    QString emojiDirectory;
    qint64 imageCacheBytes = ImageCache::kDefaultCapacityBytes; ///< decoded-image cache bound, bytes
    int emojiCacheEntries = EmojiLibrary::kDefaultCapacity; ///< emoji image cache bound, images
};

/// The counters of every cache of a context.
struct RenderContextStats {
    CacheStats images; ///< decoded data: URL images (bounded in bytes)
    CacheStats emoji; ///< emoji set images (bounded in entries)
    CacheStats textShaping; ///< shaped text runs (bounded per render thread)
};

/// The long-lived state renders share. Thread-safe: any number of threads may render
/// with one context at once. Not copyable; it must outlive every render that uses it.
class RenderContext
{
public:
    explicit RenderContext(const RenderContextOptions &options = {});
    RenderContext(const RenderContext &) = delete;
    RenderContext &operator=(const RenderContext &) = delete;

    TextEngine &text() { return m_text; }
    ImageCache &images() { return m_images; }
    EmojiLibrary &emoji() { return m_emoji; }
    /// The three as painting takes them.
    PaintResources paintResources() { return PaintResources{m_text, m_images, m_emoji}; }

    RenderContextStats stats() const;

private:
    TextEngine m_text;
    ImageCache m_images;
    EmojiLibrary m_emoji;
};

} // namespace imprint::render
