// Layout entry point and the per-box machinery shared by the formatting contexts:
// box-model resolution (CSS Box 3, CSS Sizing 3 incl. box-sizing), replaced elements,
// intrinsic widths, absolute and relative positioning (CSS Position 3). The flex
// algorithm lives in layout_flex.cpp, block stacking in layout_block.cpp.

#include "server/render/layout/layout.h"
#include "server/render/layout/layout_internal.h"

#include <algorithm>
#include <cmath>

namespace imprint::render {
namespace detail {

namespace {

qreal toBorderBox(qreal value, qreal paddingBorder, BoxSizing sizing)
{
    return sizing == BoxSizing::BorderBox ? std::max(value, paddingBorder) : std::max<qreal>(value, 0) + paddingBorder;
}

std::optional<qreal> resolveInset(const Length &l, qreal reference)
{
    if (l.isAuto() || l.isNone() || !l.isDefinite(reference))
        return std::nullopt;
    return l.resolve(reference);
}

} // namespace

bool generatesNoBox(const Node &node)
{
    if (!node.isText())
        return node.style.display == Display::None;
    const WhiteSpace ws = node.style.whiteSpace;
    if (ws == WhiteSpace::Pre || ws == WhiteSpace::PreWrap)
        return node.text.isEmpty();
    for (QChar c : node.text) {
        if (c != QLatin1Char(' ') && c != QLatin1Char('\t') && c != QLatin1Char('\n') && c != QLatin1Char('\r'))
            return false;
    }
    return true;
}

QPointF relativeOffset(const ComputedStyle &style, qreal cbWidth, qreal cbHeight)
{
    if (style.position != Position::Relative)
        return {};
    QPointF offset;
    if (auto left = resolveInset(style.inset[Left], cbWidth))
        offset.setX(*left);
    else if (auto right = resolveInset(style.inset[Right], cbWidth))
        offset.setX(-*right);
    if (auto top = resolveInset(style.inset[Top], cbHeight))
        offset.setY(*top);
    else if (auto bottom = resolveInset(style.inset[Bottom], cbHeight))
        offset.setY(-*bottom);
    return offset;
}

BoxEdges LayoutEngine::resolveEdges(const ComputedStyle &s, qreal cbWidth)
{
    BoxEdges e;
    auto lp = [cbWidth](const Length &l) { return qreal(l.resolve(float(cbWidth), 0)); };
    e.margin = QMarginsF(lp(s.margin[Left]), lp(s.margin[Top]), lp(s.margin[Right]), lp(s.margin[Bottom]));
    for (int i = 0; i < 4; ++i)
        e.marginAuto[i] = s.margin[i].isAuto();
    e.padding = QMarginsF(std::max<qreal>(0, lp(s.padding[Left])), std::max<qreal>(0, lp(s.padding[Top])),
                          std::max<qreal>(0, lp(s.padding[Right])), std::max<qreal>(0, lp(s.padding[Bottom])));
    auto bw = [&s](Edge edge) {
        return s.borderStyle[edge] == BorderStyle::None ? qreal(0) : std::max<qreal>(0, s.borderWidth[edge]);
    };
    e.border = QMarginsF(bw(Left), bw(Top), bw(Right), bw(Bottom));
    return e;
}

namespace {

/// A sizing property (width, height, min-/max-) as a border-box size against a containing
/// block side of `cb` px, the box's `margins` and `paddingBorder` on that axis; nullopt
/// when it does not resolve (auto, or a percentage of an indefinite side). `stretch` (CSS
/// Sizing 4 §3.1) is the containing block's size less the margins, a border-box size;
/// against an indefinite containing block it is auto.
inline std::optional<qreal> borderBoxSize(const Length &size, qreal cb, qreal margins, qreal paddingBorder,
                                          BoxSizing sizing)
{
    if (size.isStretch() && cb >= 0)
        return std::max<qreal>(cb - margins, paddingBorder);
    if (!size.isDefinite(float(cb)))
        return std::nullopt;
    return toBorderBox(size.resolve(float(cb)), paddingBorder, sizing);
}

/// borderBoxSize() of a box's horizontal sizing property `size` (width, min-width,
/// max-width), with the margins, padding, border and box-sizing of its style `s`, edges `e`.
std::optional<qreal> borderBoxWidth(const Length &size, const ComputedStyle &s, const BoxEdges &e, qreal cbWidth)
{
    return borderBoxSize(size, cbWidth, e.marginWidth(), e.paddingBorderWidth(), s.boxSizing);
}

/// As borderBoxWidth(), for a vertical sizing property (height, min-height, max-height).
std::optional<qreal> borderBoxHeight(const Length &size, const ComputedStyle &s, const BoxEdges &e, qreal cbHeight)
{
    return borderBoxSize(size, cbHeight, e.marginHeight(), e.paddingBorderHeight(), s.boxSizing);
}

} // namespace

std::optional<qreal> LayoutEngine::specifiedWidth(const ComputedStyle &s, const BoxEdges &e, qreal cbWidth)
{
    return borderBoxWidth(s.width, s, e, cbWidth);
}

std::optional<qreal> LayoutEngine::specifiedHeight(const ComputedStyle &s, const BoxEdges &e, qreal cbHeight)
{
    return borderBoxHeight(s.height, s, e, cbHeight);
}

qreal LayoutEngine::minWidth(const ComputedStyle &s, const BoxEdges &e, qreal cbWidth)
{
    return borderBoxWidth(s.minWidth, s, e, cbWidth).value_or(e.paddingBorderWidth());
}

qreal LayoutEngine::maxWidth(const ComputedStyle &s, const BoxEdges &e, qreal cbWidth)
{
    return borderBoxWidth(s.maxWidth, s, e, cbWidth).value_or(kMaxContent);
}

qreal LayoutEngine::minHeight(const ComputedStyle &s, const BoxEdges &e, qreal cbHeight)
{
    return borderBoxHeight(s.minHeight, s, e, cbHeight).value_or(e.paddingBorderHeight());
}

qreal LayoutEngine::maxHeight(const ComputedStyle &s, const BoxEdges &e, qreal cbHeight)
{
    return borderBoxHeight(s.maxHeight, s, e, cbHeight).value_or(kMaxContent);
}

QSizeF LayoutEngine::naturalSize(const Node &node)
{
    if (!node.isImage() || node.image.isNull())
        return {};
    return QSizeF(node.image.size());
}

qreal LayoutEngine::aspectRatio(const Node &node)
{
    if (node.style.aspectRatio > 0)
        return node.style.aspectRatio;
    const QSizeF natural = naturalSize(node);
    if (natural.width() > 0 && natural.height() > 0)
        return natural.width() / natural.height();
    return 0;
}

qreal LayoutEngine::heightFromRatio(const Node &node, const BoxEdges &e, qreal width)
{
    const qreal ratio = aspectRatio(node);
    if (ratio <= 0)
        return e.paddingBorderHeight();
    if (node.style.aspectRatio > 0 && node.style.boxSizing == BoxSizing::BorderBox)
        return std::max(width / ratio, e.paddingBorderHeight());
    return std::max<qreal>(0, width - e.paddingBorderWidth()) / ratio + e.paddingBorderHeight();
}

qreal LayoutEngine::widthFromRatio(const Node &node, const BoxEdges &e, qreal height)
{
    const qreal ratio = aspectRatio(node);
    if (ratio <= 0)
        return e.paddingBorderWidth();
    if (node.style.aspectRatio > 0 && node.style.boxSizing == BoxSizing::BorderBox)
        return std::max(height * ratio, e.paddingBorderWidth());
    return std::max<qreal>(0, height - e.paddingBorderHeight()) * ratio + e.paddingBorderWidth();
}

QSizeF LayoutEngine::replacedSize(const Node &node, const BoxEdges &e, qreal width, qreal height, qreal cbWidth,
                                  qreal cbHeight) const
{
    const ComputedStyle &s = node.style;
    const qreal pbw = e.paddingBorderWidth(), pbh = e.paddingBorderHeight();
    if (width < 0)
        width = specifiedWidth(s, e, cbWidth).value_or(-1);
    if (height < 0)
        height = specifiedHeight(s, e, cbHeight).value_or(-1);
    const qreal ratio = aspectRatio(node);
    const QSizeF natural = naturalSize(node);
    const qreal minW = minWidth(s, e, cbWidth), maxW = maxWidth(s, e, cbWidth);
    const qreal minH = minHeight(s, e, cbHeight), maxH = maxHeight(s, e, cbHeight);
    const bool widthGiven = width >= 0, heightGiven = height >= 0;
    if (!widthGiven && heightGiven) {
        width = ratio > 0 ? widthFromRatio(node, e, clampSize(height, minH, maxH)) : natural.width() + pbw;
    } else if (widthGiven && !heightGiven) {
        height = ratio > 0 ? heightFromRatio(node, e, clampSize(width, minW, maxW)) : natural.height() + pbh;
    } else if (!widthGiven && !heightGiven) {
        // Natural size, with min/max constraints keeping the ratio (CSS 2 §10.4's table,
        // resolved one axis at a time).
        width = natural.width() + pbw;
        height = natural.height() + pbh;
        if (ratio > 0) {
            const qreal w = clampSize(width, minW, maxW);
            if (w != width) {
                width = w;
                height = heightFromRatio(node, e, w);
            }
            const qreal h = clampSize(height, minH, maxH);
            if (h != height) {
                height = h;
                width = widthFromRatio(node, e, h);
            }
        }
    }
    width = clampSize(width, minW, maxW);
    height = clampSize(height, minH, maxH);
    return {width, height};
}

TextMetrics LayoutEngine::measureText(const Node &run, qreal maxWidth)
{
    const auto key = std::make_pair(&run, maxWidth);
    auto it = m_textCache.find(key);
    if (it != m_textCache.end())
        return it->second;
    // Measured at exactly the width the painter will shape at, so both get the same
    // lines; the text module absorbs floating-point noise in sums of advances.
    TextMetrics metrics = m_text.measure(run, maxWidth);
    m_textCache.emplace(key, metrics);
    return metrics;
}

std::optional<qreal> LayoutEngine::keywordWidth(const Node &node, const Length &size, qreal available)
{
    switch (size.type) {
    case Length::Type::MinContent: return contentIntrinsicWidth(node, IntrinsicMode::MinContent);
    case Length::Type::MaxContent: return contentIntrinsicWidth(node, IntrinsicMode::MaxContent);
    case Length::Type::FitContent:
        return std::min(contentIntrinsicWidth(node, IntrinsicMode::MaxContent),
                        std::max(contentIntrinsicWidth(node, IntrinsicMode::MinContent), available));
    default: return std::nullopt;
    }
}

LayoutEngine::WidthConstraints LayoutEngine::widthConstraints(const Node &node, const BoxEdges &e, qreal cbWidth,
                                                              qreal available)
{
    const ComputedStyle &s = node.style;
    WidthConstraints c;
    // The keywords already name border-box sizes: box-sizing does not apply to them.
    c.width = s.width.isIntrinsic() ? keywordWidth(node, s.width, available) : specifiedWidth(s, e, cbWidth);
    c.min = s.minWidth.isIntrinsic() ? *keywordWidth(node, s.minWidth, available) : minWidth(s, e, cbWidth);
    c.max = s.maxWidth.isIntrinsic() ? *keywordWidth(node, s.maxWidth, available) : maxWidth(s, e, cbWidth);
    return c;
}

std::optional<qreal> LayoutEngine::columnWrapContentWidth(const Node &node, const BoxEdges &e, IntrinsicMode mode)
{
    const ComputedStyle &s = node.style;
    // Its min-content width stays the largest item's (Chromium), so it still shrinks.
    if (mode != IntrinsicMode::MaxContent || s.display != Display::Flex || s.isRowDirection()
        || s.flexWrap == FlexWrap::NoWrap)
        return std::nullopt;
    // Lines break at the definite height, or at max-height when the height is auto
    // (§9.2 step 2: the available main space); without either there is one line.
    const qreal maxH = maxHeight(s, e, -1);
    const std::optional<qreal> height = specifiedHeight(s, e, -1);
    if (!height && maxH >= kMaxContent)
        return std::nullopt;
    const qreal available
        = std::max<qreal>(0, (height ? clampSize(*height, minHeight(s, e, -1), maxH) : maxH) - e.paddingBorderHeight());
    const qreal rowGap = s.rowGap.resolve(available, 0);
    // Collect flex lines as §9.3 step 5 would with each item's hypothetical outer main
    // size at its intrinsic width, then add the lines' cross sizes as the container's.
    qreal total = 0, lineCross = 0, lineMain = 0;
    int lines = 0, inLine = 0;
    for (const auto &child : node.children) {
        if (!isInFlowChild(*child))
            continue;
        const BoxEdges ce = child->isText() ? BoxEdges{} : resolveEdges(child->style, -1);
        const qreal width = intrinsicWidth(*child, mode);
        LayoutRequest request;
        request.width = width;
        request.cbHeight = available;
        const qreal outerMain = layout(*child, request).borderBox.height() + ce.marginHeight();
        if (inLine > 0 && lineMain + rowGap + outerMain > available) {
            total += lineCross;
            ++lines;
            lineCross = lineMain = 0;
            inLine = 0;
        }
        lineMain += (inLine > 0 ? rowGap : 0) + outerMain;
        lineCross = std::max(lineCross, width + ce.marginWidth());
        ++inLine;
    }
    if (inLine > 0) {
        total += lineCross;
        ++lines;
    }
    if (lines > 1)
        total += s.columnGap.resolve(-1, 0) * (lines - 1);
    return total;
}

qreal LayoutEngine::contentIntrinsicWidth(const Node &node, IntrinsicMode mode)
{
    if (node.isText())
        return intrinsicWidth(node, mode);
    // std::map references stay valid while the recursion below inserts other entries.
    IntrinsicWidths &cached = m_intrinsicCache[std::make_pair(&node, int(mode))];
    if (cached.content)
        return *cached.content;

    const ComputedStyle &s = node.style;
    const BoxEdges e = resolveEdges(s, -1);
    qreal result = 0;
    if (node.isImage()) {
        result = replacedSize(node, e, -1, -1, -1, -1).width();
    } else if (auto h = specifiedHeight(s, e, -1); h && s.aspectRatio > 0) {
        result = widthFromRatio(node, e, clampSize(*h, minHeight(s, e, -1), maxHeight(s, e, -1)));
    } else if (s.display == Display::Grid) {
        result = gridIntrinsicContentWidth(*this, node, mode) + e.paddingBorderWidth();
    } else if (auto columns = columnWrapContentWidth(node, e, mode)) {
        result = *columns + e.paddingBorderWidth();
    } else {
        // CSS Flexbox 1 §9.9.1 (as Chromium computes it): a single-line row sums its
        // items' contributions, a multi-line row's min-content is its largest item;
        // columns and blocks take the largest contribution.
        const bool flexRow = s.display == Display::Flex && s.isRowDirection();
        const bool sums = flexRow && !(mode == IntrinsicMode::MinContent && s.flexWrap != FlexWrap::NoWrap);
        qreal content = 0;
        int count = 0;
        std::vector<InlineRun> paragraphs;
        if (s.display != Display::Flex) {
            paragraphs = inlineRuns(node);
            std::erase_if(paragraphs, [](const InlineRun &r) { return !r.formatsInline; });
            for (const InlineRun &run : paragraphs)
                content = std::max(content, inlineContentWidth(*this, node, run, mode));
        }
        for (int index = 0; index < int(node.children.size()); ++index) {
            const auto &child = node.children[size_t(index)];
            if (!isInFlowChild(*child))
                continue;
            if (std::any_of(paragraphs.begin(), paragraphs.end(),
                            [index](const InlineRun &r) { return index >= r.first && index < r.last; }))
                continue;
            qreal contribution = intrinsicWidth(*child, mode);
            if (!child->isText()) {
                const BoxEdges ce = resolveEdges(child->style, -1);
                contribution += ce.marginWidth();
            }
            content = sums ? content + contribution : std::max(content, contribution);
            ++count;
        }
        if (sums && count > 1)
            content += s.columnGap.resolve(-1, 0) * (count - 1);
        result = content + e.paddingBorderWidth();
    }
    cached.content = result;
    return result;
}

qreal LayoutEngine::intrinsicWidth(const Node &node, IntrinsicMode mode)
{
    IntrinsicWidths &cached = m_intrinsicCache[std::make_pair(&node, int(mode))];
    if (cached.contribution)
        return *cached.contribution;

    qreal result = 0;
    if (node.isText()) {
        result = generatesNoBox(node)
                     ? 0
                     : measureText(node, mode == IntrinsicMode::MaxContent ? kMaxContent : 0).size.width();
    } else {
        const BoxEdges e = resolveEdges(node.style, -1);
        // CSS Sizing 3 §5.2: fit-content contributes its min-content size to a
        // min-content size and its max-content size to a max-content size.
        const WidthConstraints c = widthConstraints(node, e, -1, mode == IntrinsicMode::MinContent ? 0 : kMaxContent);
        const ComputedStyle &s = node.style;
        if (node.isImage() && mode == IntrinsicMode::MinContent && (s.width.isPercent() || s.maxWidth.isPercent())) {
            // CSS Sizing 3 §5.2.2: a replaced element sized by a percentage width or
            // max-width is compressible; its min-content contribution resolves the
            // percentage against zero (a 50 % image in a centred column does not make the
            // column as wide as the image's natural width, as Chromium lays it out).
            const auto zeroBased = [&](const Length &l) { return std::max<qreal>(0, l.offset) + e.paddingBorderWidth(); };
            qreal w = s.width.isPercent() ? zeroBased(s.width) : (c.width ? *c.width : contentIntrinsicWidth(node, mode));
            if (s.maxWidth.isPercent())
                w = std::min(w, zeroBased(s.maxWidth));
            result = clampSize(w, c.min, c.max);
        } else {
            result = clampSize(c.width ? *c.width : contentIntrinsicWidth(node, mode), c.min, c.max);
        }
    }
    cached.contribution = result;
    return result;
}

const InlineLayout &LayoutEngine::layoutInline(const Node &container, int first, const std::vector<InlineItem> &items,
                                               qreal width)
{
    const auto key = std::make_tuple(&container, first, std::isfinite(width) ? qint64(std::llround(width * 256)) : -1);
    auto cached = m_inlineCache.find(key);
    if (cached == m_inlineCache.end())
        cached = m_inlineCache.emplace(key, m_text.layoutInline(container.style, items, width)).first;
    return cached->second;
}

LayoutBox LayoutEngine::layout(const Node &node, const LayoutRequest &request)
{
    const auto key = std::make_tuple(&node, request);
    auto cached = m_layoutCache.find(key);
    if (cached != m_layoutCache.end())
        return cached->second;
    LayoutBox box = node.isText() ? layoutText(node, request) : layoutElement(node, request);
    m_layoutCache.emplace(key, box);
    return box;
}

LayoutBox LayoutEngine::layoutText(const Node &node, const LayoutRequest &request)
{
    LayoutBox box;
    box.node = &node;
    qreal width = request.width;
    if (width < 0)
        width = request.availableWidth >= 0 ? request.availableWidth : measureText(node, kMaxContent).size.width();
    const TextMetrics metrics = measureText(node, width);
    const qreal height = request.height >= 0 ? request.height : metrics.size.height();
    box.borderBox = QRectF(0, 0, width, height);
    box.firstBaseline = metrics.firstBaseline;
    if (metrics.size.height() > 0)
        box.lastLineBaseline = box.lastBaseline = metrics.lastBaseline;
    return box;
}

LayoutBox LayoutEngine::layoutElement(const Node &node, const LayoutRequest &request)
{
    const ComputedStyle &s = node.style;
    LayoutBox box;
    box.node = &node;
    const BoxEdges e = resolveEdges(s, request.cbWidth);
    box.border = e.border;
    box.padding = e.padding;

    // fit-content fills the width a block would fill, at most its max-content size.
    const WidthConstraints widths = widthConstraints(
        node, e, request.cbWidth, request.availableWidth >= 0 ? request.availableWidth - e.marginWidth() : kMaxContent);
    const qreal minW = widths.min, maxW = widths.max;
    qreal minH = request.contentHeight ? e.paddingBorderHeight() : minHeight(s, e, request.cbHeight);
    qreal maxH = request.contentHeight ? kMaxContent : maxHeight(s, e, request.cbHeight);

    qreal width = request.width;
    qreal height = request.height;
    if (node.isImage()) {
        const QSizeF size = replacedSize(node, e, width, height, request.cbWidth, request.cbHeight);
        width = width >= 0 ? width : size.width();
        height = height >= 0 ? height : size.height();
    }
    if (width < 0) {
        if (widths.width)
            width = clampSize(*widths.width, minW, maxW);
        else if (auto h = specifiedHeight(s, e, request.cbHeight); h && s.aspectRatio > 0)
            width = clampSize(widthFromRatio(node, e, clampSize(*h, minH, maxH)), minW, maxW);
        else if (request.availableWidth >= 0)
            width = clampSize(request.availableWidth - e.marginWidth(), minW, maxW);
        else
            width = clampSize(intrinsicWidth(node, IntrinsicMode::MaxContent), minW, maxW);
    }
    if (height < 0 && !request.contentHeight && (s.minHeight.isIntrinsic() || s.maxHeight.isIntrinsic())) {
        // A height's min-content and max-content sizes are both its content height at this
        // width (CSS Sizing 3 §5.1), so min-height/max-height keywords clamp to it. A
        // forced height was clamped by whoever forced it (the flex algorithm's column items).
        LayoutRequest content = request;
        content.width = width;
        content.contentHeight = true;
        const qreal contentHeight = layout(node, content).borderBox.height();
        if (s.minHeight.isIntrinsic())
            minH = contentHeight;
        if (s.maxHeight.isIntrinsic())
            maxH = contentHeight;
    }
    if (height < 0) {
        if (auto h = request.contentHeight ? std::nullopt : specifiedHeight(s, e, request.cbHeight))
            height = clampSize(*h, minH, maxH);
        else if (s.aspectRatio > 0)
            height = clampSize(heightFromRatio(node, e, width), minH, maxH);
    }

    const qreal contentWidth = std::max<qreal>(0, width - e.paddingBorderWidth());
    const qreal contentHeight = height >= 0 ? std::max<qreal>(0, height - e.paddingBorderHeight()) : -1;
    const bool forcedIndefinite
        = request.height >= 0 && !request.heightIsDefinite && !specifiedHeight(s, e, request.cbHeight);
    const qreal percentHeight = forcedIndefinite ? -1 : contentHeight;

    FormattingResult placed;
    if (!node.isImage()) {
        const ContentBox box{contentWidth, contentHeight, percentHeight,
                             std::max<qreal>(0, minH - e.paddingBorderHeight()),
                             std::max<qreal>(0, maxH - e.paddingBorderHeight())};
        if (node.tag == QLatin1String("br")) {
            placed.contentHeight = lineBreakBoxHeight(*this, node, contentWidth);
        } else if (s.display == Display::Grid) {
            placed = layoutGridChildren(*this, node, e, box);
        } else if (s.display != Display::Flex) { // inline-level boxes here are blockified (CSS Display 3 §2.7)
            placed = layoutBlockChildren(*this, node, e, contentWidth, percentHeight);
        } else {
            qreal lineBreakHeight = -1;
            if (request.contentHeight && !s.isRowDirection() && s.flexWrap != FlexWrap::NoWrap) {
                // Measuring a column wrap's content height: its lines still break where
                // they would in place, at its height or max-height (Chromium); the
                // content is then as tall as its longest line.
                const qreal ownMax = maxHeight(s, e, request.cbHeight);
                const auto own = specifiedHeight(s, e, request.cbHeight);
                const qreal limit = own ? clampSize(*own, minHeight(s, e, request.cbHeight), ownMax) : ownMax;
                if (limit < kMaxContent)
                    lineBreakHeight = std::max<qreal>(0, limit - e.paddingBorderHeight());
            }
            placed = layoutFlexChildren(*this, node, e, box, lineBreakHeight);
        }
    }
    if (height < 0)
        height = clampSize(placed.contentHeight + e.paddingBorderHeight(), minH, maxH);
    box.borderBox = QRectF(0, 0, width, height);
    // A box without a baseline of its own gets one synthesized from its border-box
    // bottom edge (CSS Align 3 §9.1), which is what baseline alignment then uses.
    box.firstBaseline = placed.baseline.value_or(height);
    box.lastLineBaseline = placed.lastBaseline;
    box.lastBaseline = placed.alignmentLastBaseline ? placed.alignmentLastBaseline : placed.lastBaseline;

    layoutAbsoluteChildren(node, box, placed);
    std::stable_sort(placed.boxes.begin(), placed.boxes.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    box.children.reserve(placed.boxes.size());
    for (auto &entry : placed.boxes)
        box.children.push_back(std::move(entry.second));
    return box;
}

LayoutEngine::AbsoluteBox LayoutEngine::layoutAbsolute(const Node &child, QSizeF cbSize)
{
    const qreal cbW = cbSize.width(), cbH = cbSize.height();
    const ComputedStyle &cs = child.style;
    const BoxEdges ce = resolveEdges(cs, cbW);
    AbsoluteBox result;
    result.left = resolveInset(cs.inset[Left], cbW);
    result.right = resolveInset(cs.inset[Right], cbW);
    result.top = resolveInset(cs.inset[Top], cbH);
    result.bottom = resolveInset(cs.inset[Bottom], cbH);
    const auto &left = result.left, &right = result.right, &top = result.top, &bottom = result.bottom;
    // The width shrink-to-fit would fill (CSS 2 §10.3.7); fit-content is that same size.
    const qreal available = cbW - left.value_or(0) - right.value_or(0) - ce.marginWidth();
    const WidthConstraints widths = widthConstraints(child, ce, cbW, available);
    const qreal minW = widths.min, maxW = widths.max;
    const qreal minH = minHeight(cs, ce, cbH), maxH = maxHeight(cs, ce, cbH);

    qreal width = -1, height = -1;
    if (child.isImage()) {
        // Replaced boxes keep their own size; opposing insets do not stretch them (CSS 2 §10.3.8).
        const QSizeF size = replacedSize(child, ce, -1, -1, cbW, cbH);
        width = size.width();
        height = size.height();
    }
    if (width < 0) {
        if (widths.width) {
            width = clampSize(*widths.width, minW, maxW);
        } else if (left && right) {
            width = clampSize(cbW - *left - *right - ce.marginWidth(), minW, maxW);
        } else {
            // Shrink-to-fit (CSS 2 §10.3.7).
            const qreal fit = std::min(std::max(intrinsicWidth(child, IntrinsicMode::MinContent), available),
                                       intrinsicWidth(child, IntrinsicMode::MaxContent));
            width = clampSize(fit, minW, maxW);
        }
    }
    if (height < 0) {
        if (auto h = specifiedHeight(cs, ce, cbH))
            height = clampSize(*h, minH, maxH);
        // A height keyword is the content height even between two insets (as Chromium).
        else if (top && bottom && !cs.height.isIntrinsic())
            height = clampSize(cbH - *top - *bottom - ce.marginHeight(), minH, maxH);
    }
    LayoutRequest request;
    request.width = width;
    request.height = height;
    request.cbWidth = cbW;
    request.cbHeight = cbH;
    result.box = layout(child, request);
    const QSizeF size = result.box.borderBox.size();

    result.margin = ce.margin;
    // Auto margins centre a box whose insets and size are all given (CSS 2 §10.3.7, §10.6.4).
    if (left && right && ce.marginAuto[Left] && ce.marginAuto[Right]) {
        const qreal free = cbW - *left - *right - size.width();
        result.margin.setLeft(free / 2);
        result.margin.setRight(free / 2);
    }
    if (top && bottom && ce.marginAuto[Top] && ce.marginAuto[Bottom]) {
        const qreal free = cbH - *top - *bottom - size.height();
        result.margin.setTop(free / 2);
        result.margin.setBottom(free / 2);
    }
    return result;
}

QPointF LayoutEngine::AbsoluteBox::position(const QRectF &cb, QPointF staticPosition, Direction cbDirection) const
{
    const QSizeF size = box.borderBox.size();
    QPointF p = staticPosition;
    if (left && right && cbDirection == Direction::Rtl)
        p.setX(cb.right() - *right - margin.right() - size.width());
    else if (left)
        p.setX(cb.left() + *left + margin.left());
    else if (right)
        p.setX(cb.right() - *right - margin.right() - size.width());
    if (top)
        p.setY(cb.top() + *top + margin.top());
    else if (bottom)
        p.setY(cb.bottom() - *bottom - margin.bottom() - size.height());
    return p;
}

// CSS Position 3 §4 with CSS Flexbox 1 §4.1 for the static position of a flex
// container's children. Only a container that containsAbsolutes() (positioned,
// transformed, filtered) is its abspos children's containing block; for the others this
// places them at their static position, and layoutDocument() moves them against their
// real containing block once every box is in page coordinates.
void LayoutEngine::layoutAbsoluteChildren(const Node &node, LayoutBox &box, FormattingResult &placed)
{
    const QRectF cb = QRectF(QPointF(0, 0), box.borderBox.size()).marginsRemoved(box.border);
    const QRectF content = cb.marginsRemoved(box.padding);
    const bool containing = node.style.containsAbsolutes();
    for (int index = 0; index < int(node.children.size()); ++index) {
        const Node &child = *node.children[index];
        if (child.isText() || generatesNoBox(child) || !child.style.isOutOfFlow())
            continue;
        AbsoluteBox abs = layoutAbsolute(child, cb.size());
        const QSizeF size = abs.box.borderBox.size();
        QPointF staticPos = content.topLeft();
        for (const auto &[childIndex, position] : placed.staticPositions) {
            if (childIndex == index)
                staticPos = position;
        }
        const QSizeF marginBox(size.width() + abs.margin.left() + abs.margin.right(),
                               size.height() + abs.margin.top() + abs.margin.bottom());
        if (node.style.display == Display::Flex) {
            staticPos += flexStaticPosition(node.style, child.style, content.size(), marginBox);
        } else if (node.style.display == Display::Grid && containing) {
            // CSS Grid 1 §9.1: a grid is its abspos children's containing block through
            // their grid area, whose auto lines are the padding edges: there they start.
            staticPos = node.style.direction == Direction::Rtl ? QPointF(cb.right() - marginBox.width(), cb.top())
                                                               : cb.topLeft();
        } else if (node.style.direction == Direction::Rtl) { // CSS 2 §10.3.7: the static position is the right edge
            staticPos.setX(content.right() - marginBox.width());
        }
        staticPos += QPointF(abs.margin.left(), abs.margin.top());
        abs.box.borderBox.moveTo(containing ? abs.position(cb, staticPos, node.style.direction) : staticPos);
        placed.boxes.emplace_back(index, std::move(abs.box));
    }
}

} // namespace detail

namespace {

void moveToPage(LayoutBox &box, QPointF parentOrigin)
{
    box.borderBox.translate(parentOrigin);
    for (QRectF &fragment : box.fragments)
        fragment.translate(parentOrigin);
    const QPointF origin = box.borderBox.topLeft();
    for (LayoutBox &child : box.children)
        moveToPage(child, origin);
}

// Re-places the abspos boxes whose parent is not positioned against their containing
// block: the padding box of the nearest ancestor that containsAbsolutes(), else the initial containing
// block (the viewport) (CSS Position 3 §2.1). Axes without insets keep the static
// position the parent's formatting context gave them.
void placeAgainstContainingBlocks(detail::LayoutEngine &engine, LayoutBox &box, const QRectF &containingBlock,
                                  Direction containingDirection)
{
    const bool positioned = box.node && !box.node->isText() && box.node->style.containsAbsolutes();
    const QRectF cb = positioned ? box.paddingBox() : containingBlock;
    const Direction cbDirection = positioned ? box.node->style.direction : containingDirection;
    for (LayoutBox &child : box.children) {
        if (!positioned && child.node && !child.node->isText() && child.node->style.isOutOfFlow()) {
            detail::LayoutEngine::AbsoluteBox abs = engine.layoutAbsolute(*child.node, cb.size());
            // The static position is found again with the box's real size and margins:
            // both are percentages of the real containing block, not of the parent.
            const QSizeF size = abs.box.borderBox.size();
            const QSizeF marginBox(size.width() + abs.margin.left() + abs.margin.right(),
                                   size.height() + abs.margin.top() + abs.margin.bottom());
            static const ComputedStyle kNoStyle;
            const ComputedStyle &parentStyle = box.node && !box.node->isText() ? box.node->style : kNoStyle;
            const QRectF content = box.contentBox();
            QPointF staticPosition;
            if (box.node && parentStyle.display == Display::Flex) {
                staticPosition
                    = content.topLeft()
                      + detail::flexStaticPosition(parentStyle, child.node->style, content.size(), marginBox);
            } else {
                // The margin edge the parent's flow found (CSS 2 §10.3.7, §10.6.4).
                const QMarginsF parentMargins
                    = detail::LayoutEngine::resolveEdges(child.node->style, box.paddingBox().width()).margin;
                staticPosition = child.borderBox.topLeft() - QPointF(parentMargins.left(), parentMargins.top());
                if (box.node && parentStyle.direction == Direction::Rtl)
                    staticPosition.setX(content.right() - marginBox.width());
            }
            staticPosition += QPointF(abs.margin.left(), abs.margin.top());
            const QPointF topLeft = abs.position(cb, staticPosition, cbDirection);
            child = std::move(abs.box);
            moveToPage(child, topLeft);
        }
        placeAgainstContainingBlocks(engine, child, cb, cbDirection);
    }
}

} // namespace

LayoutBox layoutDocument(const Node &root, QSizeF viewport, TextMeasurer &text, bool contentHeight)
{
    detail::LayoutEngine engine(text);
    detail::LayoutRequest request;
    request.cbWidth = viewport.width();
    request.cbHeight = viewport.height();
    request.availableWidth = viewport.width();
    const detail::BoxEdges edges = detail::LayoutEngine::resolveEdges(root.style, viewport.width());
    // The root fills the image, inside its own margins, unless its style says otherwise:
    // the template's size is the image's size. A height keyword asks for the content
    // height instead.
    if (!contentHeight && !root.isText() && !detail::LayoutEngine::specifiedHeight(root.style, edges, viewport.height())
        && !root.isImage() && root.style.aspectRatio <= 0 && !root.style.height.isIntrinsic())
        request.height = detail::clampSize(viewport.height() - edges.marginHeight(),
                                           detail::LayoutEngine::minHeight(root.style, edges, viewport.height()),
                                           detail::LayoutEngine::maxHeight(root.style, edges, viewport.height()));
    LayoutBox box = engine.layout(root, request);
    // The root's margins offset it in the image as in a browser's viewport (auto ones are
    // zero: CSS 2 §10.3.3 leaves nothing to share when the root fills the image).
    moveToPage(box, QPointF(edges.margin.left(), edges.margin.top()));
    placeAgainstContainingBlocks(engine, box, QRectF(QPointF(0, 0), viewport), root.style.direction);
    return box;
}

QSize contentSizedViewport(const Node &root, QSizeF maxViewport, int width, int height, TextMeasurer &text)
{
    detail::LayoutEngine engine(text);
    QSizeF size;
    if (width > 0) {
        // A known width: the root fills it as in layoutDocument(); only its height is asked.
        detail::LayoutRequest request;
        request.cbWidth = width;
        request.cbHeight = height > 0 ? height : maxViewport.height();
        request.availableWidth = width;
        if (height > 0)
            request.height = height;
        size = engine.layout(root, request).borderBox.size();
        size.setWidth(width);
        size.rheight() += std::max<qreal>(detail::LayoutEngine::resolveEdges(root.style, width).marginHeight(), 0);
    } else {
        const QSizeF cb(maxViewport.width(), height > 0 ? height : maxViewport.height());
        // The image ends at the root's margin edge, so a margin leaves space around it.
        const detail::BoxEdges edges = detail::LayoutEngine::resolveEdges(root.style, cb.width());
        size = engine.layoutAbsolute(root, cb).box.borderBox.size()
               + QSizeF(std::max<qreal>(edges.marginWidth(), 0), std::max<qreal>(edges.marginHeight(), 0));
    }
    if (height > 0)
        size.setHeight(height);
    const auto side = [](qreal value, qreal max) {
        return int(std::clamp<qreal>(std::ceil(value - 1.0 / 64), 1, std::max<qreal>(max, 1)));
    };
    return QSize(side(size.width(), maxViewport.width()), side(size.height(), maxViewport.height()));
}

} // namespace imprint::render
