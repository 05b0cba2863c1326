#pragma once
// Untrusted SVG is drawn out of process (issue 34, item 8). QtSvg 6.4 cannot be
// interrupted and has no cost limit of its own: a few kilobytes that pass the sanitiser
// (svg_sanitizer.h bounds elements, nesting and `<use>` expansion, not the pixels each
// element covers) kept a render thread busy for seconds past its deadline. So every SVG
// a user hands us — uploaded assets, data: URLs, remote images that are SVG, inline
// `<svg>` of templates — is drawn by `imprint-svg-raster` (server/svg_raster/), a small
// helper started per document with posix_spawn(3), with librsvg (issue 28: clipPath, mask
// and filter as browsers draw them; its text on the hermetic fontconfig configuration,
// whose FONTCONFIG_FILE the helper's environment keeps). It limits itself before it reads
// a byte of the document (RLIMIT_AS, RLIMIT_CPU, no core file, no new privileges, the
// unprivileged account when started as root, killed with its parent: PR_SET_PDEATHSIG),
// and the parent kills its process group at the deadline — the render's remaining deadline
// or the per-document bound, whichever comes first — or as soon as the render is cancelled
// (SvgRenderScope). Results, failures included (not a cancelled render's), are kept
// by content hash and size, so a card with the same icon twenty times starts one helper,
// and the next render of the card none.
//
// Trusted SVG stays in process: the emoji sets and pattern tiles Imprint ships, the
// satori engine's own document (user SVG never goes into it as markup when its bitmap is
// drawn here; see SvgOptions::inlineSvgAsVector) and the one-path documents of
// `clip-path: path()`.

#include "server/common/expected.h"
#include "server/render/cancellation.h"
#include "server/render/resources/cache_stats.h"
#include "server/render/resources/svg_raster.h"

#include <QDeadlineTimer>
#include <QImage>
#include <QString>

#include <functional>

namespace imprint::render {

/// How untrusted SVG is drawn (config `render.svg.*`, docs/deployment.md).
struct SvgSandboxOptions {
    bool enabled = true; ///< false: drawn in this process (bounded only by the sanitiser)
    QString helper; ///< the helper's path; empty: defaultSvgRasterHelper()
    int timeoutMs = 2000; ///< wall-clock bound of one document, ms
    int maxMemoryMb = 512; ///< the helper's address space (RLIMIT_AS), MiB
    QString user = QStringLiteral("imprint-browser"); ///< the account it runs as when the server runs as root
    qint64 cacheBytes = 16 * 1024 * 1024; ///< results kept by content hash and size
};

/// Sets the options of this process (the server at start, from its config). Thread-safe;
/// drops the cached results.
void setSvgSandboxOptions(const SvgSandboxOptions &options);

/// The options now in force (the defaults until setSvgSandboxOptions()).
SvgSandboxOptions svgSandboxOptions();

/// Where the helper is looked for when SvgSandboxOptions::helper is empty:
/// `imprint-svg-raster` next to this executable, else the one this build made.
QString defaultSvgRasterHelper();

/// The render on this thread, for the SVG documents drawn while it lives: a helper is
/// killed at its deadline, and as soon as it is cancelled (the client went away, the
/// server stops). The pipeline makes one per render; an inner one replaces the outer
/// until it ends.
class SvgRenderScope
{
public:
    /// The faces of a render's uploaded fonts that an inline svg document may name
    /// (text/font_set.h, svgRasterFonts()), for the helper's fontconfig.
    using FontsFor = std::function<QList<SvgRasterFont>(const QByteArray &svg)>;

    /// The image an emoji cluster of an inline svg's text is drawn with, as a data: URL of
    /// an SVG (the render's emoji set); empty when the set draws it from the font (Noto)
    /// or has no image for it.
    using EmojiFor = std::function<QString(QStringView cluster)>;

    /// `fontsFor`: this render's uploaded fonts (empty: none); `emojiFor`: its emoji images
    /// (empty: none).
    explicit SvgRenderScope(RenderCancellation cancellation, FontsFor fontsFor = {}, EmojiFor emojiFor = {});
    ~SvgRenderScope();
    SvgRenderScope(const SvgRenderScope &) = delete;
    SvgRenderScope &operator=(const SvgRenderScope &) = delete;

    /// This thread's render (one that never cancels outside a render).
    static RenderCancellation current();
    /// The faces of this thread's render's uploaded fonts that the inline svg document
    /// `svg` may name; none outside a render. An `img` of an SVG is given none, as in
    /// browsers (an image document does not see the page's fonts).
    static QList<SvgRasterFont> inlineSvgFonts(const QByteArray &svg);
    /// The image of `cluster` for this thread's render (EmojiFor); empty outside a render.
    static QString inlineSvgEmoji(QStringView cluster);

private:
    RenderCancellation m_previous;
    FontsFor m_previousFonts;
    EmojiFor m_previousEmoji;
};

/// `job` drawn under the options in force: from the cache, else in the helper with
/// librsvg (or in process with QtSvg, drawSvgJob(), when the sandbox is off). Errors (one
/// sentence, for the template's warning): the document's own (unreadable, too large), it
/// took longer than the bound or the render's deadline, it ran out of memory or CPU time,
/// or the helper could not start (the document is then not drawn at all: the sandbox
/// fails closed).
common::Expected<QImage, QString> rasteriseUntrustedSvg(const SvgRasterJob &job);

/// `job` drawn (with librsvg) in a helper started now, ended by `deadline` or `cancellation`
/// at the latest; nothing cached. `timedOut` (if given) tells whether it was ended so.
common::Expected<QImage, QString> rasteriseSvgInHelper(const SvgRasterJob &job, const SvgSandboxOptions &options,
                                                       QDeadlineTimer deadline, bool *timedOut = nullptr,
                                                       const RenderCancellation &cancellation = {});

/// The result cache's counters, and how many helpers this process has started.
CacheStats svgRasterCacheStats();
quint64 svgRasterHelpersStarted();

/// Drops every cached result (tests); the counters stay.
void clearSvgRasterCache();

} // namespace imprint::render
