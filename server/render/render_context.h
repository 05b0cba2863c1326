#pragma once
// The render context (docs/architecture.md): everything a render reads that outlives one
// request — the text engine, the decoded-image cache, the emoji image sets — owned by
// whoever runs renders (the server's composition root, a CLI command, a test) and passed
// down the pipeline, so no stage reaches for process-wide state. Its caches are bounded
// and their counters are what GET /api/v1/metrics reports.

#include "server/render/backends/chromium/chromium_browser.h"
#include "server/render/paint/paint_resources.h"
#include "server/render/resources/cache_stats.h"
#include "server/render/resources/emoji.h"
#include "server/render/resources/image_cache.h"
#include "server/render/text/text_engine.h"

#include <QString>

#include <memory>

namespace imprint::render {

/// How a RenderContext is set up.
struct RenderContextOptions {
    /// Where the emoji sets are read from (emojiDirectoryFor()); empty: the server has no
    /// data directory, so $IMPRINT_EMOJI_DIR or the per-user default.
    QString emojiDirectory;
    qint64 imageCacheBytes = ImageCache::kDefaultCapacityBytes; ///< decoded-image cache bound, bytes
    int emojiCacheEntries = EmojiLibrary::kDefaultCapacity; ///< emoji image cache bound, images
    /// The html engine draws with headless Chromium (`render.html.browser: "chromium"`);
    /// false: with Qt's rich-text subset (backends/html.h).
    bool htmlChromium = false;
    ChromiumOptions chromium; ///< the browser's pool and bounds when htmlChromium
    /// Templates may run JavaScript in the html engine when they opt in (`"htmlScript": true`).
    bool htmlAllowScript = false;
};

/// The counters of every cache of a context.
struct RenderContextStats {
    CacheStats images; ///< decoded data: URL images (bounded in bytes)
    CacheStats emoji; ///< emoji set images (bounded in entries)
    CacheStats textShaping; ///< shaped text runs (bounded per render thread)
    CacheStats canvases; ///< free canvas pixel buffers kept for reuse (bounded in bytes, process-wide)
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

    /// The html engine's browser, or nullptr when the html engine is Qt's rich text.
    /// Started on first use.
    ChromiumBrowser *htmlBrowser() { return m_chromium.get(); }
    /// Whether a template may opt in to JavaScript in the html engine.
    bool htmlAllowScript() const { return m_htmlAllowScript; }

private:
    TextEngine m_text;
    ImageCache m_images;
    EmojiLibrary m_emoji;
    std::unique_ptr<ChromiumBrowser> m_chromium;
    bool m_htmlAllowScript = false;
};

} // namespace imprint::render
