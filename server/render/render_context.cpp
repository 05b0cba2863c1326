#include "server/render/render_context.h"

#include "server/render/paint/geometry.h"

namespace imprint::render {

RenderContext::RenderContext(const RenderContextOptions &options)
    : m_images(options.imageCacheBytes)
    , m_emoji(options.emojiDirectory.isEmpty() ? emojiDirectoryFor(QString()) : options.emojiDirectory,
              options.emojiCacheEntries)
    , m_chromium(options.htmlChromium ? std::make_unique<ChromiumBrowser>([&] {
        // The browser itself runs no script unless templates may opt in.
        ChromiumOptions chromium = options.chromium;
        chromium.allowScript = options.htmlAllowScript;
        return chromium;
    }())
                                      : nullptr)
    , m_htmlAllowScript(options.htmlAllowScript)
{ }

RenderContextStats RenderContext::stats() const
{
    return RenderContextStats{m_images.stats(), m_emoji.stats(), m_text.stats(), canvasPoolStats()};
}

} // namespace imprint::render
