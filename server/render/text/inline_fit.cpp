// text-fit (CSS Text 5 §text-fit-property) on a rich paragraph: a block container's text
// and inline elements laid out as one inline formatting context (inline_layout.cpp), as
// Chromium 156 draws it (Blink's fit_text_utils.cc). The lines are broken at the computed
// font sizes; a line's factor is what makes its text fill the inline size, the parts that
// are not text (inline box margins, borders and padding, atomic inlines, text-indent) kept
// as they are (LineFitter::MeasureScale()); `consistent` takes the smallest factor of the
// block (MeasurePerBlockScale()), `per-line` each line's own but the last and those ending
// in a forced break, `per-line-all` every line's. Every Text item on a line is then scaled
// by its line's factor, the breaks kept, each line laid out again at its scale.
//
// Imprint's shrink-to-box scales all the paragraph's text by one factor, wrapping anew,
// found by the bisection a run uses (text_fit.cpp).

#include "server/render/text/text_internal.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>

namespace imprint::render::text_detail {

namespace {

/// `items` with the font size of every Text item, inline box and br multiplied by `k`, and
/// the copies of their nodes it points to in `nodes`. Inline box edges and atomic inlines
/// keep their size (Blink scales the text of a line, not what is static in it); the
/// boxes' own fonts scale with their text, as their struts do in Blink's line builder.
std::vector<InlineItem> scaledItems(const std::vector<InlineItem> &items, qreal k, std::deque<Node> &nodes)
{
    std::vector<InlineItem> out = items;
    for (InlineItem &item : out) {
        if (!item.node || item.kind == InlineItem::Kind::Atomic)
            continue;
        Node &copy = nodes.emplace_back();
        copy.kind = item.node->kind;
        copy.tag = item.node->tag;
        copy.id = item.node->id;
        copy.text = item.node->text;
        copy.style = fitScaledStyle(item.node->style, k);
        item.node = &copy;
    }
    return out;
}

/// The factor that makes `line`'s text fill `width` px, what is not text kept (Blink
/// LineFitter::MeasureScale()); 0 when the line is left alone: within the epsilon, or
/// with no text to scale.
qreal lineFactor(const InlineLine &line, qreal width)
{
    if (std::abs(width - line.advance) < kFitEpsilon)
        return 0;
    const qreal flexible = line.advance - line.fixedWidth;
    if (flexible <= 0 || width - line.fixedWidth <= 0)
        return 0;
    return (width - line.fixedWidth) / flexible;
}

/// Each line's factor under `fit` (0: the line is left as laid out). `consistent` takes
/// the block's laid-out lines (Blink's MeasurePerBlockScale()), so under `justify` a line
/// but the last and those ending in a forced break is as wide as the box (CSS Text 3 §7.3)
/// and only the others set the factor (Chromium 156 then overflows the justified ones);
/// per-line targets measure each line before justification (LineFitter::MeasureScale()).
std::vector<qreal> lineScales(const TextFit &fit, bool justify, const std::vector<InlineLine> &lines, qreal width)
{
    std::vector<qreal> scales(lines.size(), 0);
    const auto lineScale = [&](size_t i) {
        const bool justified = justify && fit.target == TextFit::Target::Consistent && i + 1 < lines.size()
                               && !lines[i].forcedBreak;
        return justified ? 0 : lineFactor(lines[i], width);
    };
    if (fit.target == TextFit::Target::Consistent) {
        // Step: consistent, one factor for the block, the smallest (#valdef-text-fit-consistent)
        qreal k = 0;
        for (size_t i = 0; i < lines.size(); ++i) {
            const qreal own = lineScale(i);
            if (own > 0 && (k == 0 || own < k))
                k = own;
        }
        std::fill(scales.begin(), scales.end(), allowedFitScale(fit, k));
        return scales;
    }
    // Step: per-line skips the last line and forced-break lines (#valdef-text-fit-per-line)
    const bool all = fit.target == TextFit::Target::PerLineAll;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (all || (i + 1 < lines.size() && !lines[i].forcedBreak))
            scales[i] = allowedFitScale(fit, lineScale(i));
    }
    return scales;
}

/// Where line `i` of `from`, laid out at scale `k`, goes: its top at `top` and, when
/// `unscaled` is given (`line-height: normal`), its line box and every box on it taken
/// from the unscaled line times `k` (Blink's LineFitter scales the laid-out line's
/// height: 28 px at 24 px DejaVu Sans becomes 28·k, not the font's rounded metrics at
/// 24·k), else `from`'s own moved down.
struct LineMap {
    const InlineLine &source; // the line in `from`
    const InlineLine &vertical; // the line whose vertical geometry is scaled
    qreal k = 1;
    qreal top = 0; // where the vertical line's top goes
    qreal boxTop = 0, boxHeight = 0; // the placed line box
    qreal glyphShift = 0; // px the glyphs sit below their fragments' baselines
    /// `y` of the vertical line's paragraph mapped onto the placed line.
    qreal y(qreal v) const { return top + (v - vertical.top) * k; }
};

/// `map` of a line laid out with its scaled fonts' own boxes, its line box grown to the
/// block's strut `strut` times the line's factor `k` (Blink scales the root inline box's
/// unscaled metrics, where text with px spacing keeps its scaled font's: 20 px DejaVu Sans
/// × 2.717 is 51.62 px above the baseline, not the 50 px of 54.33 px text).
void growToScaledStrut(LineMap &map, const FontBox &strut, qreal k)
{
    const qreal ownAbove = map.vertical.baseline - map.vertical.top;
    const qreal above = std::max(ownAbove, strut.above * k);
    const qreal below = std::max(map.vertical.height - ownAbove, strut.below * k);
    map.top = map.boxTop + above - ownAbove;
    map.boxHeight = above + below;
    // Chromium 156 reports the boxes there but draws the text at its own ascent below the
    // line's top (measured: "Spaced OUT" grown ×2.717 inks rows 40-94, as unfitted at 54.33 px).
    map.glyphShift = ownAbove - above;
}

/// Line `i` of `from` into `out` as `map` places it: its line box, the fragments on it and
/// the Text items' glyphs on it (`blocks`: out's TextBlocks being built). `unscaled`: the
/// layout `map.vertical` is a line of (`from` itself when its own geometry is kept).
void appendLine(const std::vector<InlineItem> &items, const InlineLayout &from, const InlineLayout &unscaled, size_t i,
                const LineMap &map, InlineLayout &out, std::vector<std::shared_ptr<TextBlock>> &blocks)
{
    InlineLine line = map.source;
    line.top = map.boxTop;
    line.height = map.boxHeight;
    line.baseline = map.y(map.vertical.baseline);
    out.lines.push_back(line);
    for (size_t item = 0; item < from.fragments.size(); ++item) {
        // The fragments of the item on the line, paired in order with the unscaled line's.
        std::vector<const InlineFragment *> own, vertical;
        for (const InlineFragment &f : from.fragments[item])
            if (f.line == int(i))
                own.push_back(&f);
        for (const InlineFragment &f : unscaled.fragments[item])
            if (f.line == int(i))
                vertical.push_back(&f);
        const bool paired = own.size() == vertical.size();
        const bool atomic = items[item].kind == InlineItem::Kind::Atomic; // keeps its size
        qreal textBaseline = std::numeric_limits<qreal>::quiet_NaN();
        for (size_t n = 0; n < own.size(); ++n) {
            InlineFragment f = *own[n];
            const InlineFragment &v = paired ? *vertical[n] : f;
            f.baseline = paired ? map.y(v.baseline) : f.baseline + map.top - map.source.top;
            const qreal above = paired ? (v.baseline - v.rect.y()) * (atomic ? 1 : map.k) : f.baseline - f.rect.y();
            const qreal height = paired && !atomic ? v.rect.height() * map.k : f.rect.height();
            f.rect = QRectF(f.rect.x(), f.baseline - above, f.rect.width(), height);
            textBaseline = f.baseline;
            out.fragments[item].push_back(f);
        }
        const std::shared_ptr<const TextBlock> &text = from.text[item];
        if (!text)
            continue;
        if (!blocks[item]) {
            blocks[item] = std::make_shared<TextBlock>(*text);
            blocks[item]->lines.clear();
        }
        for (const TextLine &tl : text->lines) {
            if (tl.top != map.source.top)
                continue;
            const qreal baseline = std::isnan(textBaseline) ? tl.baseline : textBaseline + map.glyphShift;
            TextLine moved = movedLine(tl, baseline - tl.baseline);
            moved.top = line.top;
            moved.height = line.height;
            blocks[item]->lines.push_back(std::move(moved));
        }
    }
}

/// Whether line `i` of `layout` holds what keeps its own size there: an atomic inline,
/// or text with px letter- or word-spacing (Blink fits such a line through its font size,
/// LineFitter::FitLine(), its text at the scaled font's own metrics).
bool hasFixedPartsOn(const std::vector<InlineItem> &items, const InlineLayout &layout, size_t i)
{
    for (size_t item = 0; item < items.size(); ++item) {
        const InlineItem &it = items[item];
        const bool spaced = it.kind == InlineItem::Kind::Text && it.node
                            && (it.node->style.letterSpacing != 0 || it.node->style.wordSpacing != 0);
        if (it.kind != InlineItem::Kind::Atomic && !spaced)
            continue;
        for (const InlineFragment &f : layout.fragments[item])
            if (f.line == int(i))
                return true;
    }
    return false;
}

/// The fitted paragraph: line i of `layouts[pick[i]]` (at scale `scales[pick[i]]`),
/// stacked from the top; `layouts[0]` is the unscaled paragraph.
InlineLayout stackLines(const ComputedStyle &block, const std::vector<InlineItem> &items,
                        const std::vector<InlineLayout> &layouts,
                        const std::vector<qreal> &scales, const std::vector<size_t> &pick)
{
    const InlineLayout &base = layouts.front();
    // A number or length line-height gives a scaled line its box from the scaled fonts (a
    // number scales with them); `normal` scales the unscaled line's, as for a run.
    const bool scaleBoxes = block.lineHeight.type == LineHeight::Type::Normal;
    InlineLayout out;
    out.fragments.resize(base.fragments.size());
    out.text.resize(base.text.size());
    std::vector<std::shared_ptr<TextBlock>> blocks(base.text.size());
    const size_t visible = block.lineClamp > 0 ? std::min(pick.size(), size_t(block.lineClamp)) : pick.size();
    qreal top = 0, widest = 0, visibleHeight = 0;
    for (size_t i = 0; i < pick.size(); ++i) {
        const InlineLayout &from = layouts[pick[i]];
        // An atomic inline keeps its size, so a line with one takes the scaled fonts' boxes.
        const bool scaled = scaleBoxes && !hasFixedPartsOn(items, base, i);
        const InlineLayout &vertical = scaled ? base : from;
        const qreal k = scaled ? scales[pick[i]] : 1;
        LineMap map{from.lines[i], vertical.lines[i], k, top, top, vertical.lines[i].height * k};
        if (scaleBoxes && !scaled)
            growToScaledStrut(map, fontBoxFor(block), scales[pick[i]]);
        appendLine(items, from, vertical, i, map, out, blocks);
        top += out.lines.back().height;
        if (i < visible) {
            visibleHeight = top;
            widest = std::max(widest, out.lines.back().advance);
        }
    }
    for (size_t item = 0; item < blocks.size(); ++item) {
        if (!blocks[item])
            continue;
        blocks[item]->size = linesBounds(*blocks[item]).size();
        blocks[item]->firstBaseline = blocks[item]->lines.empty() ? 0 : blocks[item]->lines.front().baseline;
        out.text[item] = std::move(blocks[item]);
    }
    out.size = QSizeF(widest, visibleHeight);
    out.firstBaseline = out.lines.empty() ? 0 : out.lines.front().baseline;
    out.lastBaseline = out.lines.empty() ? 0 : out.lines[visible - 1].baseline;
    return out;
}

/// `layout` with each Text item's TextBlock recording the px font size it was fitted at
/// (its item's times `k`), which the html engine's page writes for Chromium.
InlineLayout withFittedSizes(InlineLayout layout, const std::vector<InlineItem> &items, qreal k)
{
    for (size_t i = 0; i < items.size() && i < layout.text.size(); ++i) {
        if (!layout.text[i] || !items[i].node)
            continue;
        auto text = std::make_shared<TextBlock>(*layout.text[i]);
        text->fittedFontSize = float(items[i].node->style.fontSize * k); // as fitScaledStyle() sizes it
        layout.text[i] = std::move(text);
    }
    return layout;
}

/// Imprint's shrink-to-box on a paragraph: the largest scale of all its text at which it,
/// wrapped anew, fits the block's content height, lineClamp and width (as a run does:
/// text_fit.cpp), inline box edges and atomic inlines kept.
InlineLayout shrinkInlineToBox(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width)
{
    const float boxHeight = inheritedStyle(block).textFitBoxHeight;
    const auto fits = [&](const InlineLayout &l) {
        const bool cut = std::any_of(l.text.begin(), l.text.end(), [](const auto &t) { return t && t->ellipsized; });
        return (boxHeight < 0 || l.size.height() <= boxHeight + kWidthEpsilon)
               && l.size.width() <= width + kWidthEpsilon && !cut;
    };
    InlineLayout base = layoutInlineUncached(block, items, width);
    if (fits(base) || block.fontSize <= 0)
        return withFittedSizes(std::move(base), items, 1);
    std::optional<InlineLayout> best;
    const qreal k = searchBoxScale(shrinkToBoxFloor(block), [&](qreal k) {
        std::deque<Node> nodes;
        InlineLayout l = layoutInlineUncached(fitScaledStyle(block, k), scaledItems(items, k, nodes), width);
        const bool fitting = fits(l);
        if (fitting || !best)
            best = std::move(l);
        return fitting;
    });
    return withFittedSizes(std::move(*best), items, k);
}

} // namespace

InlineLayout fitInlineUncached(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width)
{
    if (block.textFit.type == TextFit::Type::ShrinkToBox)
        return shrinkInlineToBox(block, items, width);
    // Step: lines at the computed font sizes, before text-overflow cuts what still
    // overflows (CSS Overflow 3), as for a run (text_fit.cpp)
    ComputedStyle unclipped = block;
    unclipped.textOverflow = TextOverflow::Clip;
    InlineLayout base = layoutInlineUncached(unclipped, items, width);
    const std::vector<qreal> scales
        = lineScales(block.textFit, block.textAlign == TextAlign::Justify, base.lines, width);
    if (std::all_of(scales.begin(), scales.end(), [](qreal k) { return k <= 0; }))
        return block.textOverflow == TextOverflow::Ellipsis ? layoutInlineUncached(block, items, width) : base;
    // Step: the paragraph laid out again at each line's factor, its lines breaking where
    // the unscaled ones did
    std::vector<int> lengths;
    lengths.reserve(base.lines.size());
    for (const InlineLine &line : base.lines)
        lengths.push_back(line.length);
    // The unscaled lines as drawn: text-overflow cuts what overflows there.
    std::vector<InlineLayout> layouts{block.textOverflow == TextOverflow::Ellipsis
                                          ? layoutInlineUncached(block, items, width, &lengths)
                                          : std::move(base)}; // by scale; the unscaled one first
    std::vector<qreal> layoutScale{1};
    std::vector<size_t> pick(scales.size(), 0);
    for (size_t i = 0; i < scales.size(); ++i) {
        const qreal k = scales[i] > 0 ? scales[i] : 1;
        auto it = std::find(layoutScale.begin(), layoutScale.end(), k);
        if (it == layoutScale.end()) {
            std::deque<Node> nodes;
            const std::vector<InlineItem> scaled = scaledItems(items, k, nodes);
            layouts.push_back(layoutInlineUncached(fitScaledStyle(block, k), scaled, width, &lengths));
            it = layoutScale.insert(layoutScale.end(), k);
        }
        pick[i] = size_t(it - layoutScale.begin());
    }
    return stackLines(block, items, layouts, layoutScale, pick);
}

} // namespace imprint::render::text_detail
