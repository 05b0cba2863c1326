// Text shaped at another size than its own, then scaled to it. Qt 6.4 shapes and measures in
// whole pixels (QFontPrivate::engineForScript() rounds the size), so 22.5 px text came out
// 2 % wider and a pixel taller than Chromium's, and keeps each glyph's advance in 1/64 px,
// truncated, so every line came out short by about a 1/128 px a glyph. A run is laid out
// kShapingScale times larger, at a whole pixel size, in coordinates widened by the same
// ratio and then scaled to its exact size; glyphs are drawn from their QRawFont at the
// exact size. An inline paragraph is laid out at a whole multiple of its sizes (of at least
// kShapingScale) and scaled down.

#include "server/render/text/text_internal.h"

#include <QFontMetricsF>
#include <QHash>
#include <QRawFont>

#include <cmath>
#include <limits>

namespace imprint::render::text_detail {

namespace {

constexpr quint32 kOpszTag = 0x6f70737a; // 'opsz'

/// `s` with every px length that adds to the text's advances or to where a line breaks
/// (letter- and word-spacing, a px text-indent or a percentage's px part, tab-size as a
/// length) divided by `k`, the font size kept: a layout `k` times narrower that is the exact
/// one once widened back (what does not scale stays exact after scaling).
ComputedStyle narrowedStyle(const ComputedStyle &s, qreal k)
{
    ComputedStyle out = s;
    // A variable face's optical size stays the exact size's (CSS Fonts 4 §2.9: opsz follows
    // font-size), not the shaping size's: an explicit opsz setting wins as it would anyway.
    if (std::none_of(s.fontVariationSettings.begin(), s.fontVariationSettings.end(),
                     [](const FontVariation &v) { return v.tag == kOpszTag; }))
        out.fontVariationSettings.push_back({s.fontSize, kOpszTag});
    out.letterSpacing = float(s.letterSpacing / k);
    out.wordSpacing = float(s.wordSpacing / k);
    if (s.tabSizeIsLength)
        out.tabSize = float(s.tabSize / k);
    if (s.textIndent.type == Length::Type::Px)
        out.textIndent.value = float(s.textIndent.value / k);
    out.textIndent.offset = float(s.textIndent.offset / k);
    return out;
}

/// The QRawFonts glyphs are drawn from at the exact size: each face Qt shaped with, at its
/// pixel size times `k`. QRawFont::setPixelSize() clones the font engine, and a new engine
/// starts with an empty glyph cache, so the clones are kept per thread (Qt's engines belong
/// to their thread, text_engine.h) and every render of a card draws with the same ones.
class ExactFonts
{
public:
    explicit ExactFonts(qreal k) : m_k(k) { }

    QRawFont operator()(const QRawFont &shaped)
    {
        thread_local std::vector<Entry> clones;
        for (const Entry &e : clones) {
            if (e.k == m_k && e.shaped == shaped)
                return e.exact;
        }
        if (clones.size() >= kMaxClones)
            clones.erase(clones.begin());
        QRawFont exact = shaped;
        exact.setPixelSize(shaped.pixelSize() * m_k);
        clones.push_back({shaped, m_k, exact});
        return exact;
    }

private:
    struct Entry {
        QRawFont shaped;
        qreal k;
        QRawFont exact;
    };
    static constexpr size_t kMaxClones = 64; // a card has a handful of fractional faces
    qreal m_k;
};

/// `line`'s glyphs widened by `k` about x = 0 and drawn at the exact size; their offsets
/// from the baseline (marks) scaled too, about the baseline `to` where `from` was.
void widenGlyphs(TextLine &line, qreal k, qreal from, qreal to, ExactFonts &exact)
{
    for (QGlyphRun &run : line.glyphRuns) {
        QList<QPointF> positions = run.positions();
        for (QPointF &p : positions)
            p = QPointF(p.x() * k, to + (p.y() - from) * k);
        run.setPositions(positions);
        run.setRawFont(exact(run.rawFont()));
    }
    line.left *= k;
    line.width *= k;
}

} // namespace

QFont metricsFontFor(const ComputedStyle &s, qreal *scale)
{
    QFont font = TextEngine::fontFor(s);
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0);
    const qreal whole = metricsPixelSize(s.fontSize);
    *scale = 1;
    if (whole != s.fontSize) {
        // Set, not left to Qt's rounding of the point size fontFor() asks for, so the
        // factor is the one the metrics were read at.
        font.setPixelSize(int(whole));
        *scale = s.fontSize / whole;
    }
    return font;
}

DecorationMetrics decorationMetricsAt(const ComputedStyle &s)
{
    qreal scale = 1;
    const QFontMetricsF fm(metricsFontFor(s, &scale));
    return decorationMetrics(fm, s.fontSize, scale);
}

std::shared_ptr<const TextBlock> shapeAtShapingSize(const ComputedStyle &s, const QString &raw, qreal width,
                                                    const std::vector<int> *lineLengths)
{
    const qreal whole = shapingPixelSize(s.fontSize);
    const qreal k = s.fontSize / whole;
    // Step: the run laid out at the whole size, the box narrowed by k (0 and max-content stay)
    ComputedStyle narrowed = narrowedStyle(s, k);
    narrowed.fontSize = float(whole);
    const std::shared_ptr<const TextBlock> shaped
        = shapeAtOwnSize(narrowed, raw, std::isfinite(width) ? width / k : width, lineLengths, k);
    auto block = std::make_shared<TextBlock>(*shaped);
    // Step: line boxes from the exact size's rounded metrics (CSS Inline 3 §4.2), the glyphs
    // scaled about the line's baseline
    const FontBox strut = fontBoxFor(s);
    ExactFonts exact(k);
    qreal top = 0;
    for (TextLine &line : block->lines) {
        const FontBox used = withUsedFonts(s, strut, line.glyphRuns, k);
        const qreal baseline = top + used.above;
        widenGlyphs(line, k, line.baseline, baseline, exact);
        line.top = top;
        line.height = used.above + used.below;
        line.baseline = baseline;
        top += line.height;
    }
    block->size = QSizeF(shaped->size.width() * k, top);
    block->firstBaseline = block->lines.empty() ? 0 : block->lines.front().baseline;
    block->lastBaseline = block->lines.empty() ? 0 : block->lines.back().baseline;
    block->decoration = decorationMetricsAt(s);
    return block;
}

namespace {

/// layoutInlineAtMixedSizes(): the paragraph laid out in coordinates scaled by 1 / `k`, each
/// Text item at its `shapingSizes` size, then scaled back by `k` with its glyphs at the
/// exact sizes.
InlineLayout layoutNarrowed(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width, qreal k,
                            const std::vector<int> *shapingSizes, const std::vector<int> *lineLengths)
{
    // Step: the paragraph k times narrower; spaced text runs get a narrowed copy of their node
    std::vector<InlineItem> narrow = items;
    std::vector<Node> spaced;
    spaced.reserve(items.size()); // the items point into it: no reallocation
    for (InlineItem &item : narrow) {
        item.edge /= k;
        item.margin /= k;
        item.size.setWidth(item.size.width() / k);
        if (item.kind == InlineItem::Kind::Text && item.node
            && (item.node->style.letterSpacing != 0 || item.node->style.wordSpacing != 0)) {
            Node &copy = spaced.emplace_back();
            copy.kind = Node::Kind::Text;
            copy.id = item.node->id;
            copy.text = item.node->text;
            copy.style = narrowedStyle(item.node->style, k);
            item.node = &copy;
        }
    }
    InlineLayout out = layoutInlineShaped(narrowedStyle(block, k), narrow, std::isfinite(width) ? width / k : width,
                                          shapingSizes, lineLengths, k);
    // Step: widened back; vertical positions are the exact size's already
    for (InlineLine &line : out.lines) {
        line.advance *= k;
        line.fixedWidth *= k;
    }
    for (std::vector<InlineFragment> &fragments : out.fragments) {
        for (InlineFragment &f : fragments)
            f.rect = QRectF(f.rect.x() * k, f.rect.y(), f.rect.width() * k, f.rect.height());
    }
    ExactFonts exact(k);
    for (size_t i = 0; i < out.text.size(); ++i) {
        std::shared_ptr<const TextBlock> &text = out.text[i];
        if (!text)
            continue;
        auto wide = std::make_shared<TextBlock>(*text);
        for (TextLine &line : wide->lines)
            widenGlyphs(line, k, line.baseline, line.baseline, exact);
        wide->size.setWidth(text->size.width() * k);
        wide->decoration = items[i].node ? decorationMetricsAt(items[i].node->style) : text->decoration.scaled(k);
        text = std::move(wide);
    }
    out.size.setWidth(out.size.width() * k);
    return out;
}

constexpr int kMaxUpscale = 50; // hundredths of an em of a whole size (0.7 × 21.6 px) are whole at 25

} // namespace

float largestTextSize(const std::vector<InlineItem> &items)
{
    float largest = 0;
    for (const InlineItem &item : items) {
        if (item.kind == InlineItem::Kind::Text && item.node)
            largest = std::max(largest, item.node->style.fontSize);
    }
    return largest;
}

int inlineShapingScale(const std::vector<InlineItem> &items)
{
    const qreal largest = largestTextSize(items);
    if (largest <= 0)
        return 1;
    const int most = int(std::min<qreal>(kMaxUpscale, std::floor(kMaxShapingSize / largest)));
    if (most <= 1)
        return 1;
    // The smallest factor from kShapingScale that makes every size whole, else the one that
    // comes nearest (the largest relative error of a shaped size), within kMaxShapingSize.
    int best = std::min(kShapingScale, most);
    qreal bestError = std::numeric_limits<qreal>::max();
    for (int m = best; m <= most; ++m) {
        qreal error = 0;
        for (const InlineItem &item : items) {
            if (item.kind != InlineItem::Kind::Text || !item.node || item.node->style.fontSize < 1)
                continue;
            const qreal scaled = qreal(item.node->style.fontSize) * m;
            error = std::max(error, std::abs(scaled - std::round(scaled)) / scaled);
        }
        if (error < bestError) {
            best = m;
            bestError = error;
        }
        if (error < 1e-6)
            break;
    }
    return best;
}

InlineLayout layoutInlineAtMixedSizes(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width,
                                      int m, const std::vector<int> *lineLengths)
{
    std::vector<int> sizes(items.size(), 0);
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].kind == InlineItem::Kind::Text && items[i].node)
            sizes[i] = std::max(1, int(std::lround(qreal(items[i].node->style.fontSize) * m)));
    }
    return layoutNarrowed(block, items, width, 1.0 / m, &sizes, lineLengths);
}

} // namespace imprint::render::text_detail
