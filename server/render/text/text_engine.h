#pragma once
// Text: shaping, line breaking, bidi and ellipsis for text runs (docs/templates.md), on Qt's
// QTextLayout (HarfBuzz shaping, Unicode line breaking UAX #14, bidi UAX #9, font
// fallback through QFontDatabase). One engine serves both the layout's measure callback
// and the painters, so the lines drawn are the lines measured.

#include "server/render/resources/cache_stats.h"
#include "server/render/style/font_units.h"
#include "server/render/text/text_measurer.h"

#include <QFont>
#include <QGlyphRun>
#include <QList>
#include <QSizeF>

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

namespace imprint::render {

/// One laid-out line of a TextBlock. All coordinates are px relative to the text box's
/// top-left corner (the LayoutBox borderBox of the text run).
struct TextLine {
    QList<QGlyphRun> glyphRuns; ///< visual order; positions are baseline points
    qreal left = 0; ///< x of the line's first ink column after alignment
    qreal width = 0; ///< advance width of the line's content (no trailing spaces)
    qreal top = 0; ///< top of the line box
    qreal height = 0; ///< line box height (the used line-height)
    qreal baseline = 0; ///< y of the alphabetic baseline
    int textStart = 0, textLength = 0; ///< the line's characters in the processed run (text-fit keeps the breaks)
    bool forcedBreak = false; ///< the line ends with a forced break (CSS Text 3 §5.1)
};

/// A run's decoration metrics from its primary font, px from the baseline (negative: above
/// it), as Blink's TextDecorationInfo places lines (decorationMetrics()). An underline
/// needs only the thickness: it starts max(1, ceil(thickness / 2)) below the baseline.
struct DecorationMetrics {
    qreal overlineOffset = 0; ///< the text's top: minus the rounded ascent
    qreal strikeOffset = 0; ///< the line-through's centre: two thirds of the ascent up from the top
    qreal autoThickness = 1; ///< `auto`: max(1, font size / 10)
    qreal fontThickness = 1; ///< `from-font`: the font's underline thickness, at least 1

    /// The metrics of the same run drawn `k` times as large (thicknesses still at least 1 px).
    DecorationMetrics scaled(qreal k) const
    {
        return {overlineOffset * k, strikeOffset * k, std::max<qreal>(1, autoThickness * k),
                std::max<qreal>(1, fontThickness * k)};
    }
};

/// A shaped, broken and aligned text run: immutable, shared between measure and paint.
struct TextBlock {
    std::vector<TextLine> lines;
    QSizeF size; ///< px: widest line, sum of line heights
    qreal firstBaseline = 0; ///< px from the top to the first line's baseline
    qreal lastBaseline = 0; ///< px from the top to the last line's baseline
    bool ellipsized = false; ///< an ellipsis replaced hidden text (text-overflow or line-clamp)
    /// `textFit: shrink-to-box`: the font size in px the run was fitted at (its computed
    /// size when it fit as it was); 0 for any other run. The html engine's page writes it,
    /// since Chromium has no such mode.
    float fittedFontSize = 0;
    DecorationMetrics decoration;
};

/// The text module. measure() is the layout's TextMeasurer; shape() gives the painters
/// the same lines as positioned glyph runs.
///
/// A render context owns one (server/render/render_context.h) and hands it to layout
/// and paint, so the lines drawn are the lines measured.
///
/// Thread safety: every public function may be called from any thread. Shaped results
/// are cached per thread (a bounded LRU of kCacheEntriesPerThread per thread), because
/// Qt's font engines — and so the QGlyphRuns that reference them — belong to the thread
/// that created them (QFontCache is thread-local); painting a QGlyphRun on another
/// thread would share the engine's glyph cache unsynchronised. Fonts come from
/// QFontDatabase, which is per process, so engines only differ in their counters.
class TextEngine final : public TextMeasurer
{
public:
    static constexpr int kCacheEntriesPerThread = 512; ///< a 1200×630 card has ~10–50 runs

    TextEngine() = default;
    TextEngine(const TextEngine &) = delete;
    TextEngine &operator=(const TextEngine &) = delete;

    /// Shaping cache hits and misses of this engine (a miss is a run shaped; a run placed
    /// from its max-content lines counts as a hit); capacity is per render thread.
    CacheStats stats() const;

    /// Lays `textRun` out within `maxWidth` px (kMaxContent: no wrapping; 0: min-content)
    /// and returns the size of its lines and the first baseline. Never fails: an empty
    /// run measures 0×0.
    TextMetrics measure(const Node &textRun, qreal maxWidth) override;

    /// An inline formatting context as one QTextLayout paragraph: every text item a
    /// format range of its own font, inline box edges and atomic inlines as invisible
    /// characters carrying their width (CSS Inline 3; see TextMeasurer::layoutInline()).
    InlineLayout layoutInline(const ComputedStyle &block, const std::vector<InlineItem> &items,
                              qreal maxWidth) override;

    /// The lines of `textRun` laid out in a box `width` px wide, aligned per text-align
    /// (CSS Text 3 §7.1), with text-overflow (CSS Overflow 3 §text-overflow) and
    /// line-clamp (CSS Overflow 4 §line-clamp) ellipses applied. Same width, same lines as
    /// measure(). Never null.
    std::shared_ptr<const TextBlock> shape(const Node &textRun, qreal width);

    /// The same for a style and text given directly (the text is the run's characters
    /// before white-space processing and text-transform).
    std::shared_ptr<const TextBlock> shape(const ComputedStyle &style, const QString &text, qreal width);

    /// The QFont a style selects: its font-family list followed by the installed fallback
    /// families (DejaVu Sans, Noto Sans, Noto Sans CJK, Noto Color Emoji), pixel size
    /// (fractional sizes kept), weight, style, letter- and word-spacing; hinting off so
    /// advances are the font's linear advances, as in Chromium.
    static QFont fontFor(const ComputedStyle &style);

    /// The used line-height in px (CSS Inline 3 §line-height): `normal` is the primary
    /// font's ascent + descent + line gap at the exact font size (a fractional one too), each
    /// rounded to whole px as Chromium does (20 px DejaVu Sans → 24 px, 22.5 px Noto Sans →
    /// 31 px); a number multiplies the font size; px as is.
    static qreal lineHeightFor(const ComputedStyle &style);

    /// The characters of `text` after CSS Text 3 §4.1.1 white-space collapsing (per
    /// `white-space`) and §2.1 text-transform; forced breaks become U+2028.
    static QString processText(const ComputedStyle &style, const QString &text);

    /// 1ch and 1ex in px for a style's font (CSS Values 4 §6.1.1), as Chromium measures
    /// them: the advance of "0" and the x-height (OS/2 sxHeight, else the "x" glyph's
    /// height) of the first available font of fontFor(style), letter-spacing left out;
    /// with its ascent and descent unrounded.
    static FontUnitSizes fontUnitSizes(const ComputedStyle &style);
    /// Each grapheme cluster's advance (px) in `style`'s font when `clusters` are shaped as
    /// one run, letter- and word-spacing left out (font_units.h, ClusterAdvanceMeasure);
    /// past 256 clusters each is measured alone (no kerning across them).
    static QList<qreal> clusterAdvances(const ComputedStyle &style, const QStringList &clusters);

    /// Drops every cached shaping result of the calling thread (tests, memory pressure).
    static void clearThreadCache();

private:
    std::atomic<quint64> m_hits{0}, m_misses{0};
};

} // namespace imprint::render
