// text-fit (CSS Text 5 §text-fit-property, https://drafts.csswg.org/css-text-5/#text-fit-property)
// as Chromium 156 draws it (Blink's core/layout/inline/fit_text_utils.cc: LineFitter and
// MeasurePerBlockScale): a run is broken into lines at its computed font size, then each
// line's text is scaled so the line fills the inline size, the breaks kept. `consistent`
// scales every line by the smallest factor; `per-line` each line by its own, except the
// last and those ending in a forced break; `per-line-all` every line by its own. The
// <percentage> caps growing (a maximum scale) and floors shrinking (a minimum scale).
// A line within 2 px of the inline size is left alone (Blink's epsilon, 2 × the device
// pixel ratio). The line-height scales with the text unless it is a length.
//
// Plus Imprint's `shrink-to-box` (docs/templates.md, "Text that fits its box"): the whole
// run shrinks, re-wrapping, until it fits its element's height (or maxHeight), lineClamp and
// width, found by a bounded bisection over the scale.

#include "server/render/text/text_internal.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace imprint::render::text_detail {

namespace {

constexpr int kBoxSearchSteps = 8; // bisections of shrink-to-box: the scale to 1/256
constexpr qreal kSmallestScale = 1.0 / 64; // shrink-to-box without a floor stops here

/// The part of a line's width that does not scale: fixed letter- and word-spacing (Blink's
/// HasFixedSpacing(): px spacing is the "static" size of LineFitter::MeasureScale()).
/// `text`: the processed run the line indexes, needed only for word-spacing.
qreal staticWidth(const ComputedStyle &s, const TextLine &line, QStringView text)
{
    qreal fixed = s.letterSpacing * line.textLength;
    if (s.wordSpacing != 0 && line.textStart >= 0 && line.textStart <= text.size()) {
        // At each word separator (CSS Text 3 §8.1) but the line's trailing ones, which hang.
        QStringView content
            = text.sliced(line.textStart, std::min<qsizetype>(line.textLength, text.size() - line.textStart));
        while (!content.isEmpty() && content.back().isSpace())
            content.chop(1);
        fixed += s.wordSpacing * qreal(content.count(u' ') + content.count(QChar(0xA0)));
    }
    return fixed;
}

/// The advance width of `line` in px: from its first glyph's origin to its last glyph's
/// advance, as Blink's line box inline size (Qt's natural width also counts the ink that
/// overhangs the last advance, a pixel at small sizes, which would skew a scale taken
/// from a short line).
qreal advanceWidth(const TextLine &line)
{
    qreal lo = std::numeric_limits<qreal>::max(), hi = std::numeric_limits<qreal>::lowest();
    for (const QGlyphRun &run : line.glyphRuns) {
        const QList<QPointF> positions = run.positions();
        const QList<QPointF> advances = run.rawFont().advancesForGlyphIndexes(run.glyphIndexes());
        for (qsizetype i = 0; i < positions.size() && i < advances.size(); ++i) {
            lo = std::min(lo, positions[i].x());
            hi = std::max(hi, positions[i].x() + advances[i].x());
        }
    }
    return hi > lo ? hi - lo : line.width;
}

/// The inline size Blink gives `line`: its advance width plus the letter-spacing after its
/// last letter (CSS Text 3 §8.2 adds it after every letter; Qt's positions leave the last out).
qreal inlineSize(const ComputedStyle &s, const TextLine &line)
{
    return advanceWidth(line) + s.letterSpacing;
}

/// The scale that makes `line` (of the processed run `text`) fill `width` px (Blink
/// LineFitter::MeasureScale()), or 0 when the line is left alone: within the epsilon, or
/// with nothing to scale.
qreal lineScale(const ComputedStyle &s, const TextLine &line, qreal width, QStringView text)
{
    const qreal lineWidth = inlineSize(s, line);
    if (std::abs(width - lineWidth) < kFitEpsilon)
        return 0;
    const qreal fixed = staticWidth(s, line, text);
    const qreal flexible = lineWidth - fixed;
    if (flexible <= 0 || width - fixed <= 0)
        return 0;
    return (width - fixed) / flexible;
}

/// `block` (shaped under `scaled`) with each line aligned again in the box by its inline
/// size (its advance width and the trailing letter-spacing), Blink's inline size of a fitted
/// line (CSS Text 3 §7.1). Only a fractional scaled size is realigned, as when this also
/// drew it at its exact size (now shapeAtShapingSize()'s job).
std::shared_ptr<const TextBlock> alignedByAdvance(std::shared_ptr<const TextBlock> block, const ComputedStyle &scaled,
                                                  qreal width)
{
    if (metricsPixelSize(scaled.fontSize) == scaled.fontSize || scaled.textAlign == TextAlign::Justify)
        return block;
    auto out = std::make_shared<TextBlock>(*block);
    const qreal factor = alignFactor(scaled.textAlign, scaled.direction);
    qreal widest = 0;
    for (size_t i = 0; i < out->lines.size(); ++i) {
        TextLine &line = out->lines[i];
        const qreal exactWidth = inlineSize(scaled, line);
        const qreal indent = i == 0 ? textIndentFor(scaled, width) : 0;
        const qreal avail = width - indent;
        qreal left = alignedLineLeft(avail, exactWidth, factor);
        if (scaled.direction != Direction::Rtl)
            left += indent;
        translateGlyphRuns(line.glyphRuns, QPointF(left - line.left, 0));
        line.left = left;
        line.width = exactWidth;
        widest = std::max(widest, line.width);
    }
    out->size.setWidth(widest);
    return out;
}

/// The run at scale `k` with the unscaled lines' breaks `lengths`.
std::shared_ptr<const TextBlock> shapeScaled(const ComputedStyle &s, const QString &raw, qreal width,
                                             const std::vector<int> &lengths, qreal k)
{
    // A fractional scaled size is laid out and drawn at its exact size (shapeAtShapingSize()).
    const ComputedStyle scaled = fitScaledStyle(s, k);
    return alignedByAdvance(shapeUncached(scaled, raw, width, &lengths), scaled, width);
}

/// The fitted run: line i of `base` at scale `scales[i]` (0: as laid out), stacked from
/// the top. Under `line-height: normal` a scaled line's box is the unscaled line's box
/// times its scale, baseline included (Blink's LineFitter asks the line builder to scale
/// the line's height, fit_text_utils.cc: 24 px at 20 px DejaVu Sans becomes 24·k, not the
/// font's rounded metrics at 20·k); a length stays and a number scales with the font.
std::shared_ptr<const TextBlock> composeLines(const ComputedStyle &s, const QString &raw, qreal width,
                                              const TextBlock &base, const std::vector<qreal> &scales)
{
    std::vector<int> lengths;
    lengths.reserve(base.lines.size());
    for (const TextLine &line : base.lines)
        lengths.push_back(line.textLength);
    std::vector<std::pair<qreal, std::shared_ptr<const TextBlock>>> shaped; // one layout per scale
    auto out = std::make_shared<TextBlock>(base);
    out->lines.clear();
    // A number or length line-height gives the scaled line its box from the scaled font
    // (a number scales with it); `normal` scales the unscaled line's box, fallback fonts'
    // contributions included.
    const bool ownBox = s.lineHeight.type != LineHeight::Type::Normal;
    // A run with px letter- or word-spacing is fitted through its font size (Blink's
    // LineFitter::FitLine(): HasFixedSpacing() leaves the paint-time scale), and its glyphs
    // sit at the scaled font's own rounded ascent below the line's top, not at the unscaled
    // baseline times the scale (Chromium 156, measured: 73 px, not 74.43, at 20 px × 3.92).
    const bool ownBaseline = ownBox || s.letterSpacing != 0 || s.wordSpacing != 0;
    qreal top = 0, widest = 0;
    for (size_t i = 0; i < base.lines.size(); ++i) {
        const TextLine &unscaled = base.lines[i];
        const qreal k = scales[i];
        TextLine line = unscaled;
        qreal height = unscaled.height, above = unscaled.baseline - unscaled.top;
        if (k > 0) {
            auto it = std::find_if(shaped.begin(), shaped.end(), [k](const auto &e) { return e.first == k; });
            if (it == shaped.end())
                it = shaped.insert(shaped.end(), {k, shapeScaled(s, raw, width, lengths, k)});
            const TextBlock &block = *it->second;
            if (i < block.lines.size())
                line = block.lines[i];
            if (i == 0) {
                out->decoration = block.decoration;
            }
            height = ownBox ? line.height : unscaled.height * k;
            above = ownBaseline ? line.baseline - line.top : (unscaled.baseline - unscaled.top) * k;
        }
        line = movedLine(std::move(line), top + above - line.baseline);
        line.top = top;
        line.height = height;
        top += height;
        widest = std::max(widest, line.width);
        out->lines.push_back(std::move(line));
    }
    out->size = QSizeF(widest, top);
    out->firstBaseline = out->lines.front().baseline;
    out->lastBaseline = out->lines.back().baseline;
    return out;
}

/// Imprint's shrink-to-box: the largest scale in [floor, 1] at which the run, wrapped
/// anew, fits its box: no taller than the element's content height, no line wider than
/// `width`, nothing cut by lineClamp or text-overflow. Bisection with a fixed number of
/// layouts (at most kBoxSearchSteps + 1), so its cost is bounded.
std::shared_ptr<const TextBlock> shrinkToBox(const ComputedStyle &s, const QString &raw, qreal width,
                                             std::shared_ptr<const TextBlock> base)
{
    const qreal boxHeight = s.textFitBoxHeight;
    const auto fits = [&](const TextBlock &b) {
        return (boxHeight < 0 || b.size.height() <= boxHeight + kWidthEpsilon)
               && b.size.width() <= width + kWidthEpsilon && !b.ellipsized;
    };
    const auto fittedAt = [&](const TextBlock &b, qreal k) { // the block, its fitted size recorded
        auto out = std::make_shared<TextBlock>(b);
        out->fittedFontSize = float(s.fontSize * k); // as fitScaledStyle() sizes it
        return std::shared_ptr<const TextBlock>(std::move(out));
    };
    if (fits(*base) || s.fontSize <= 0)
        return fittedAt(*base, 1);
    std::shared_ptr<const TextBlock> best;
    const qreal k = searchBoxScale(shrinkToBoxFloor(s), [&](qreal k) {
        // wrapped anew at scale k, aligned as a fitted line
        const ComputedStyle scaled = fitScaledStyle(s, k);
        auto block = alignedByAdvance(shapeUncached(scaled, raw, width), scaled, width);
        const bool fitting = fits(*block);
        if (fitting || !best)
            best = std::move(block);
        return fitting;
    });
    return fittedAt(*best, k);
}

} // namespace

ComputedStyle fitScaledStyle(const ComputedStyle &s, qreal k)
{
    ComputedStyle out = s;
    out.fontSize = float(s.fontSize * k);
    out.textFit = TextFit();
    return out;
}

qreal allowedFitScale(const TextFit &fit, qreal k)
{
    // Step: grow only grows, shrink only shrinks; the <percentage> limit (#valdef-text-fit-percentage)
    if (k <= 0 || (fit.type == TextFit::Type::Grow && k <= 1) || (fit.type == TextFit::Type::Shrink && k >= 1))
        return 0;
    if (fit.limit >= 0)
        k = fit.type == TextFit::Type::Grow ? std::min<qreal>(k, std::max(fit.limit, 1.f))
                                            : std::max<qreal>(k, std::min(fit.limit, 1.f));
    return k == 1 ? 0 : k;
}

TextLine movedLine(TextLine line, qreal dy)
{
    line.top += dy;
    line.baseline += dy;
    translateGlyphRuns(line.glyphRuns, QPointF(0, dy));
    return line;
}

qreal shrinkToBoxFloor(const ComputedStyle &s)
{
    qreal lo = kSmallestScale;
    if (s.textFit.limit >= 0)
        lo = std::max<qreal>(lo, std::min(s.textFit.limit, 1.f));
    if (s.textFit.floorPx > 0 && s.fontSize > 0)
        lo = std::max<qreal>(lo, std::min<qreal>(s.textFit.floorPx / s.fontSize, 1));
    return lo;
}

qreal searchBoxScale(qreal lo, const std::function<bool(qreal)> &fitsAt)
{
    // Step: the floor; when even it does not fit, the text overflows there as without textFit
    if (!fitsAt(lo) || lo >= 1)
        return lo;
    // Step: bisection over the scale, a fixed number of layouts
    qreal hi = 1;
    for (int step = 0; step < kBoxSearchSteps; ++step) {
        const qreal mid = (lo + hi) / 2;
        (fitsAt(mid) ? lo : hi) = mid;
    }
    return lo;
}

bool fitsText(const ComputedStyle &s, qreal width)
{
    return s.textFit.type != TextFit::Type::None && std::isfinite(width) && width > 0;
}

std::shared_ptr<const TextBlock> fitTextUncached(const ComputedStyle &s, const QString &raw, qreal width)
{
    if (s.textFit.type == TextFit::Type::ShrinkToBox)
        return shrinkToBox(s, raw, width, shapeUncached(s, raw, width));
    // Step: lines at the computed font size, breaks kept (#text-fit-property; Blink fits
    // laid-out lines), before text-overflow cuts what still overflows (CSS Overflow 3)
    ComputedStyle unclipped = s;
    unclipped.textOverflow = TextOverflow::Clip;
    // The per-line targets measure a line before justification (Blink's
    // LineFitter::MeasureScale()); `consistent` the laid-out, justified lines.
    const bool unjustified = s.textAlign == TextAlign::Justify && s.textFit.target != TextFit::Target::Consistent;
    if (unjustified)
        unclipped.textAlign = TextAlign::Start;
    auto base = shapeUncached(unclipped, raw, width);
    const auto asLaidOut = [&] {
        return s.textOverflow == TextOverflow::Ellipsis || unjustified ? shapeUncached(s, raw, width) : base;
    };
    if (base->lines.empty())
        return base;
    const QString processed = s.wordSpacing != 0 ? TextEngine::processText(s, raw) : QString();
    const size_t count = base->lines.size();
    std::vector<qreal> scales(count, 0);
    if (s.textFit.target == TextFit::Target::Consistent) {
        // Step: consistent, one scale for all lines, the smallest (#valdef-text-fit-consistent)
        qreal k = 0;
        for (const TextLine &line : base->lines) {
            const qreal li = lineScale(s, line, width, processed);
            if (li > 0 && (k == 0 || li < k))
                k = li;
        }
        std::fill(scales.begin(), scales.end(), allowedFitScale(s.textFit, k));
    } else {
        // Step: per-line skips the last and forced-break lines (#valdef-text-fit-per-line)
        const bool all = s.textFit.target == TextFit::Target::PerLineAll;
        for (size_t i = 0; i < count; ++i) {
            const TextLine &line = base->lines[i];
            if (all || (i + 1 < count && !line.forcedBreak))
                scales[i] = allowedFitScale(s.textFit, lineScale(s, line, width, processed));
        }
    }
    if (std::all_of(scales.begin(), scales.end(), [](qreal k) { return k <= 0; }))
        return asLaidOut();
    return composeLines(s, raw, width, *base, scales);
}

} // namespace imprint::render::text_detail
