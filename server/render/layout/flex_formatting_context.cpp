// CSS Flexible Box Layout Level 1, §9 "Flex Layout Algorithm"
// (https://www.w3.org/TR/css-flexbox-1/#layout-algorithm), one member function per
// numbered step in the spec's order, the way Ladybird's FlexFormattingContext reads.
// Sizes are border-box sizes throughout (the spec's "outer" sizes add the margins);
// offsets are logical (from main-start / cross-start of the content box) until the
// final placement turns them into physical ones, which is where the -reverse values act.

#include "server/render/layout/alignment.h"
#include "server/render/layout/layout_internal.h"

#include <algorithm>
#include <cmath>

namespace imprint::render::detail {

namespace {

constexpr qreal kEpsilon = 0.001;

class FlexFormattingContext : ContainerFormattingContext
{
public:
    FlexFormattingContext(LayoutEngine &engine, const Node &container, const BoxEdges &edges, const ContentBox &box,
                          qreal lineBreakHeight)
        : ContainerFormattingContext(engine, container, edges, box)
        , m_lineBreakHeight(lineBreakHeight)
        , m_row(container.style.isRowDirection())
    { }

    FormattingResult run();

private:
    struct FlexItem {
        const Node *node = nullptr;
        int index = 0; // among the container's children
        BoxEdges edges;
        // Margins in flow-relative terms; the *Auto flags mark `auto` margins.
        qreal marginMainStart = 0, marginMainEnd = 0, marginCrossStart = 0, marginCrossEnd = 0;
        bool autoMainStart = false, autoMainEnd = false, autoCrossStart = false, autoCrossEnd = false;
        qreal paddingBorderMain = 0, paddingBorderCross = 0;
        std::optional<qreal> specifiedMain, specifiedCross;
        /// The cross size property is auto (or a percentage acting as auto), so the item
        /// may stretch (CSS Box Alignment 3 §6.1: an intrinsic size keyword does not).
        bool crossSizeAuto = true;
        qreal minMain = 0, maxMain = kMaxContent, minCross = 0, maxCross = kMaxContent;
        AlignItems alignSelf = AlignItems::Stretch;
        /// min-width/min-height auto whose automatic minimum is only measured if the
        /// item's line shrinks (see determineFlexBaseSizeAndHypotheticalMainSize()).
        bool automaticMinimumDeferred = false;

        qreal flexBaseSize = 0;
        qreal hypotheticalMainSize = 0;
        qreal targetMainSize = 0;
        bool frozen = false;
        qreal mainSize = 0;
        qreal hypotheticalCrossSize = 0;
        qreal crossSize = 0;
        qreal baseline = 0; // from the border-box cross-start edge (row containers)
        qreal lastBaseline = 0; // its last line's, likewise
        qreal mainOffset = 0; // border-box main-start from the content box's main-start
        qreal crossOffset = 0; // border-box cross-start from its line's cross-start

        qreal outerMargins(bool main) const
        {
            return main ? marginMainStart + marginMainEnd : marginCrossStart + marginCrossEnd;
        }
        qreal outerHypotheticalMainSize() const { return hypotheticalMainSize + outerMargins(true); }
        qreal outerFlexBaseSize() const { return flexBaseSize + outerMargins(true); }
        qreal outerTargetMainSize() const { return targetMainSize + outerMargins(true); }
        qreal outerMainSize() const { return mainSize + outerMargins(true); }
        qreal outerHypotheticalCrossSize() const { return hypotheticalCrossSize + outerMargins(false); }
        qreal outerCrossSize() const { return crossSize + outerMargins(false); }
    };

    struct FlexLine {
        std::vector<FlexItem *> items;
        qreal crossSize = 0;
        qreal crossOffset = 0; // line's cross-start from the content box's cross-start
        qreal maxBaseline = 0; // of its baseline-aligned items, from the line's cross-start
        // Of its last-baseline-aligned items: the largest distance from a last baseline to
        // the item's cross-end margin edge (they align at the line's cross end).
        qreal maxBelowLastBaseline = 0;
    };

    // 9.1 Generate anonymous flex items: each in-flow child element, and each text run, becomes a flex item. https://www.w3.org/TR/css-flexbox-1/#algo-anon-box
    void generateAnonymousFlexItems();
    // 9.2.2 Determine the available main and cross space for the flex items. https://www.w3.org/TR/css-flexbox-1/#algo-available
    void determineAvailableMainAndCrossSpace();
    // 9.2.3 Determine the flex base size and hypothetical main size of each item. https://www.w3.org/TR/css-flexbox-1/#algo-main-item
    void determineFlexBaseSizeAndHypotheticalMainSize(FlexItem &item);
    // 9.2.4 Determine the main size of the flex container. https://www.w3.org/TR/css-flexbox-1/#algo-main-container
    void determineMainSizeOfFlexContainer();
    // 9.3.5 Collect flex items into flex lines. https://www.w3.org/TR/css-flexbox-1/#algo-line-break
    void collectFlexItemsIntoFlexLines();
    // 9.3.6 Resolve the flexible lengths of all the flex items (§9.7). https://www.w3.org/TR/css-flexbox-1/#resolve-flexible-lengths
    void resolveFlexibleLengths(FlexLine &line);
    // 9.4.7 Determine the hypothetical cross size of each item. https://www.w3.org/TR/css-flexbox-1/#algo-cross-item
    void determineHypotheticalCrossSize(FlexItem &item);
    // 9.4.8 Calculate the cross size of each flex line. https://www.w3.org/TR/css-flexbox-1/#algo-cross-line
    void calculateCrossSizeOfEachFlexLine();
    // 9.4.9 Handle 'align-content: stretch'. https://www.w3.org/TR/css-flexbox-1/#algo-line-stretch
    void handleAlignContentStretch();
    // 9.4.10 Collapse visibility:collapse items (no such items here). https://www.w3.org/TR/css-flexbox-1/#algo-visibility
    void collapseVisibilityCollapseItems() { }
    // 9.4.11 Determine the used cross size of each flex item. https://www.w3.org/TR/css-flexbox-1/#algo-stretch
    void determineUsedCrossSizeOfEachItem();
    // 9.5.12 Distribute any remaining free space (main-axis auto margins, justify-content). https://www.w3.org/TR/css-flexbox-1/#algo-main-align
    void distributeRemainingFreeSpace();
    // 9.6.13 Resolve cross-axis auto margins. https://www.w3.org/TR/css-flexbox-1/#algo-cross-margins
    void resolveCrossAxisAutoMargins();
    // 9.6.14 Align all flex items along the cross-axis per align-self. https://www.w3.org/TR/css-flexbox-1/#algo-cross-align
    void alignAllFlexItemsAlongCrossAxis();
    // 9.6.15 Determine the flex container's used cross size. https://www.w3.org/TR/css-flexbox-1/#algo-cross-container
    void determineFlexContainerUsedCrossSize();
    // 9.6.16 Align all flex lines per align-content. https://www.w3.org/TR/css-flexbox-1/#algo-line-align
    void alignAllFlexLines();
    // Lays every item out at its used size and turns logical offsets into physical ones.
    void placeFlexItems(FormattingResult &result);

    // 4.5 Automatic minimum size of flex items (content-based minimum size). https://www.w3.org/TR/css-flexbox-1/#min-size-auto
    qreal automaticMinimumMainSize(const FlexItem &item);

    /// Border-box content size of `item` in the main axis given its cross size (row: the
    /// max-content width; column: the height when laid out that wide).
    qreal contentMainSize(const FlexItem &item, IntrinsicMode mode);
    /// Cross size (column containers: width) an item is measured at before its line is
    /// known: its definite cross size, the stretched size, or fit-content (§9.4 step 7).
    qreal crossSizeForMeasuring(const FlexItem &item, bool allowStretch);
    qreal fitContentCrossSize(const FlexItem &item);
    /// The item's cross size when it is definite before its line is known: specified, or
    /// stretched in a single-line container of definite cross size (§9.8 item 1).
    std::optional<qreal> definiteCrossSize(const FlexItem &item) const;
    LayoutRequest requestFor(qreal width, qreal height) const;
    bool isSingleLine() const { return m_style.flexWrap == FlexWrap::NoWrap; }
    bool isMainReverse() const { return isMainAxisReversed(m_style); }
    bool isCrossReverse() const { return isCrossAxisReversed(m_style); }
    /// align-self: stretch applies: the cross size property is auto and neither cross
    /// margin is (§9.4 step 11).
    bool isStretched(const FlexItem &item) const
    {
        return item.alignSelf == AlignItems::Stretch && item.crossSizeAuto && !item.autoCrossStart
               && !item.autoCrossEnd;
    }
    bool participatesInBaselineAlignment(const FlexItem &item) const
    {
        return m_row && item.alignSelf == AlignItems::Baseline && !item.autoCrossStart && !item.autoCrossEnd;
    }
    /// CSS Box Alignment 3 §9.3: `last baseline` aligns the items' last baselines, the
    /// group placed at the line's cross end.
    bool participatesInLastBaselineAlignment(const FlexItem &item) const
    {
        return m_row && item.alignSelf == AlignItems::LastBaseline && !item.autoCrossStart && !item.autoCrossEnd;
    }
    /// An item's last baseline from its cross-end margin edge, at cross size `cross`.
    static qreal belowLastBaseline(const FlexItem &item, qreal cross)
    {
        return cross + item.marginCrossEnd - item.lastBaseline;
    }

    const qreal m_lineBreakHeight; // -1, or where an auto-height column's lines break (content measurement)
    const bool m_row;

    std::vector<FlexItem> m_items;
    std::vector<FlexLine> m_lines;
    qreal m_mainGap = 0, m_crossGap = 0;
    qreal m_innerMainSize = -1; // container's content-box main size, -1 until known
    qreal m_innerCrossSize = -1; // container's content-box cross size, -1 until known
    qreal m_availableMainSpace = kMaxContent;
    qreal m_availableCrossSpace = kMaxContent;
};

FormattingResult FlexFormattingContext::run()
{
    generateAnonymousFlexItems();
    determineAvailableMainAndCrossSpace();
    for (FlexItem &item : m_items)
        determineFlexBaseSizeAndHypotheticalMainSize(item);
    determineMainSizeOfFlexContainer();
    collectFlexItemsIntoFlexLines();
    for (FlexLine &line : m_lines)
        resolveFlexibleLengths(line);
    for (FlexItem &item : m_items)
        determineHypotheticalCrossSize(item);
    calculateCrossSizeOfEachFlexLine();
    handleAlignContentStretch();
    collapseVisibilityCollapseItems();
    determineUsedCrossSizeOfEachItem();
    distributeRemainingFreeSpace();
    resolveCrossAxisAutoMargins();
    alignAllFlexItemsAlongCrossAxis();
    determineFlexContainerUsedCrossSize();
    alignAllFlexLines();

    FormattingResult result;
    placeFlexItems(result);
    result.contentHeight = m_row ? m_innerCrossSize : m_innerMainSize;
    return result;
}

LayoutRequest FlexFormattingContext::requestFor(qreal width, qreal height) const
{
    LayoutRequest request;
    request.width = width;
    request.height = height;
    request.cbWidth = m_contentWidth;
    request.cbHeight = m_percentHeight;
    return request;
}

void FlexFormattingContext::generateAnonymousFlexItems()
{
    const qreal cbWidth = m_contentWidth, cbHeight = m_percentHeight;
    // Out-of-flow children (§4.1) are placed by the caller once the container is sized.
    forEachInFlowChild(m_container, [&](const Node &child, int index) {
        FlexItem item;
        item.node = &child;
        item.index = index;
        const ComputedStyle &s = child.style;
        if (child.isText()) {
            // An anonymous item: no margins, padding or border, sized by its text.
            item.alignSelf = m_style.alignItems;
        } else {
            item.edges = LayoutEngine::resolveEdges(s, cbWidth);
            item.alignSelf = usedAlignSelf(m_style, s);
        }
        const BoxEdges &e = item.edges;
        const bool reverse = isMainReverse(), crossReverse = isCrossReverse();
        // Flow-relative edges: main-start is left/top, or right/bottom when reversed.
        const Edge mainStart = m_row ? (reverse ? Right : Left) : (reverse ? Bottom : Top);
        const Edge mainEnd = m_row ? (reverse ? Left : Right) : (reverse ? Top : Bottom);
        const Edge crossStart = m_row ? (crossReverse ? Bottom : Top) : (crossReverse ? Right : Left);
        const Edge crossEnd = m_row ? (crossReverse ? Top : Bottom) : (crossReverse ? Left : Right);
        auto marginOf = [&e](Edge edge) {
            switch (edge) {
            case Top: return e.margin.top();
            case Right: return e.margin.right();
            case Bottom: return e.margin.bottom();
            case Left: return e.margin.left();
            }
            return qreal(0);
        };
        item.marginMainStart = marginOf(mainStart);
        item.marginMainEnd = marginOf(mainEnd);
        item.marginCrossStart = marginOf(crossStart);
        item.marginCrossEnd = marginOf(crossEnd);
        item.autoMainStart = !child.isText() && e.marginAuto[mainStart];
        item.autoMainEnd = !child.isText() && e.marginAuto[mainEnd];
        item.autoCrossStart = !child.isText() && e.marginAuto[crossStart];
        item.autoCrossEnd = !child.isText() && e.marginAuto[crossEnd];
        item.paddingBorderMain = m_row ? e.paddingBorderWidth() : e.paddingBorderHeight();
        item.paddingBorderCross = m_row ? e.paddingBorderHeight() : e.paddingBorderWidth();
        if (!child.isText()) {
            // Intrinsic width keywords resolve here; fit-content fills the container's
            // content box width (the main size of a row, the cross size of a column).
            const LayoutEngine::WidthConstraints widths
                = m_engine.widthConstraints(child, e, cbWidth, m_contentWidth - e.marginWidth());
            const auto width = widths.width;
            const auto height = LayoutEngine::specifiedHeight(s, e, cbHeight);
            item.specifiedMain = m_row ? width : height;
            item.specifiedCross = m_row ? height : width;
            item.crossSizeAuto = !item.specifiedCross && !(m_row ? s.height : s.width).isIntrinsic();
            const qreal minW = widths.min, maxW = widths.max;
            const qreal minH = LayoutEngine::minHeight(s, e, cbHeight), maxH = LayoutEngine::maxHeight(s, e, cbHeight);
            item.minMain = m_row ? minW : minH;
            item.maxMain = m_row ? maxW : maxH;
            item.minCross = m_row ? minH : minW;
            item.maxCross = m_row ? maxH : maxW;
        }
        m_items.push_back(item);
    });
    // §5.4: flex items are laid out in order-modified document order (a text run is an
    // anonymous item of order 0).
    std::stable_sort(m_items.begin(), m_items.end(), [](const FlexItem &a, const FlexItem &b) {
        return orderOf(*a.node) < orderOf(*b.node);
    });
    m_mainGap = m_row ? m_style.columnGap.resolve(float(m_contentWidth), 0)
                      : m_style.rowGap.resolve(float(m_percentHeight), 0);
    m_crossGap = m_row ? m_style.rowGap.resolve(float(m_percentHeight), 0)
                       : m_style.columnGap.resolve(float(m_contentWidth), 0);
}

void FlexFormattingContext::determineAvailableMainAndCrossSpace()
{
    // The container's own width is always decided before its contents are laid out;
    // its height may be auto (indefinite: infinite space, sized by its content).
    m_innerMainSize = m_row ? m_contentWidth : m_contentHeight;
    m_innerCrossSize = m_row ? m_contentHeight : m_contentWidth;
    m_availableMainSpace = m_innerMainSize >= 0 ? m_innerMainSize : kMaxContent;
    m_availableCrossSpace = m_innerCrossSize >= 0 ? m_innerCrossSize : kMaxContent;
}

qreal FlexFormattingContext::fitContentCrossSize(const FlexItem &item)
{
    // Only column containers measure across (widths); the available width is definite.
    const qreal available = m_availableCrossSpace - item.outerMargins(false);
    const qreal minContent = m_engine.intrinsicWidth(*item.node, IntrinsicMode::MinContent);
    const qreal maxContent = m_engine.intrinsicWidth(*item.node, IntrinsicMode::MaxContent);
    return clampSize(std::min(std::max(minContent, available), maxContent), item.minCross, item.maxCross);
}

std::optional<qreal> FlexFormattingContext::definiteCrossSize(const FlexItem &item) const
{
    if (item.specifiedCross)
        return clampSize(*item.specifiedCross, item.minCross, item.maxCross);
    // A row's height counts only when definite for percentages too (§9.8), not when it
    // is merely what the parent ended up giving an auto-height row.
    const bool definiteContainerCross = m_row ? m_percentHeight >= 0 : m_innerCrossSize >= 0;
    if (isSingleLine() && definiteContainerCross && isStretched(item))
        return std::max(clampSize(m_innerCrossSize - item.outerMargins(false), item.minCross, item.maxCross),
                        item.paddingBorderCross);
    return std::nullopt;
}

qreal FlexFormattingContext::crossSizeForMeasuring(const FlexItem &item, bool allowStretch)
{
    if (item.specifiedCross)
        return clampSize(*item.specifiedCross, item.minCross, item.maxCross);
    // Chromium lays a column's stretched items out at their stretched width already
    // when sizing them along the main axis, so their text wraps the way it will be drawn.
    if (allowStretch && isStretched(item) && std::isfinite(m_availableCrossSpace))
        return clampSize(m_availableCrossSpace - item.outerMargins(false), item.minCross, item.maxCross);
    return fitContentCrossSize(item);
}

qreal FlexFormattingContext::contentMainSize(const FlexItem &item, IntrinsicMode mode)
{
    const Node &node = *item.node;
    // The content's size, not the item's contribution: min-/max-width clamp the
    // hypothetical main size, not the flex base size (§9.2 step 3E; Chromium agrees).
    if (m_row)
        return node.isText() ? m_engine.intrinsicWidth(node, mode) : m_engine.contentIntrinsicWidth(node, mode);
    const qreal width = crossSizeForMeasuring(item, isSingleLine());
    if (node.isText())
        return m_engine.measureText(node, width).size.height();
    LayoutRequest request = requestFor(width, -1);
    request.contentHeight = true;
    return m_engine.layout(node, request).borderBox.height();
}

qreal FlexFormattingContext::automaticMinimumMainSize(const FlexItem &item)
{
    // A scroll container (overflow other than visible) has no content-based minimum.
    if (!item.node->isText() && item.node->style.overflow != Overflow::Visible)
        return item.paddingBorderMain;
    // A replaced element with a ratio but no natural size (an inline <svg> sized by its
    // viewBox alone) fills its container but has no size to keep: Chromium shrinks it
    // with its siblings in a row and in a column alike, below its ratio's height (CSS
    // Sizing 3 §5.2.2's compressible replaced elements contribute no min-content size).
    if (item.node->ratioOnly)
        return item.paddingBorderMain;
    qreal contentSuggestion;
    const qreal ratio = item.node->isText() ? 0 : LayoutEngine::aspectRatio(*item.node);
    const auto cross = ratio > 0 ? definiteCrossSize(item) : std::nullopt;
    if (cross) {
        // Replaced/ratio boxes transfer a definite cross size through the ratio (§4.5).
        contentSuggestion = m_row ? LayoutEngine::widthFromRatio(*item.node, item.edges, *cross)
                                  : LayoutEngine::heightFromRatio(*item.node, item.edges, *cross);
    } else if (m_row) {
        // The min-content size of the content, not the item's contribution: its own
        // width (a length or a keyword) is the specified size suggestion below.
        contentSuggestion = m_engine.contentIntrinsicWidth(*item.node, IntrinsicMode::MinContent);
    } else {
        contentSuggestion = contentMainSize(item, IntrinsicMode::MinContent);
    }
    contentSuggestion = std::min(contentSuggestion, item.maxMain);
    if (item.specifiedMain)
        contentSuggestion = std::min(contentSuggestion, *item.specifiedMain);
    return std::max(contentSuggestion, item.paddingBorderMain);
}

void FlexFormattingContext::determineFlexBaseSizeAndHypotheticalMainSize(FlexItem &item)
{
    const Node &node = *item.node;
    const Length basis = node.isText() ? Length::autoLength() : node.style.flexBasis;
    const qreal ratio = node.isText() ? 0 : LayoutEngine::aspectRatio(node);
    bool baseIsSpecifiedSize = false;
    bool baseIsMaxContentText = false;
    // A percentage basis resolves against the container's inner main size only when that
    // is definite (§7.2.3): a column's auto height forced on it by its parent is not.
    const qreal basisReference = m_row ? m_innerMainSize : m_percentHeight;
    if (!basis.isAuto() && basis.isDefinite(float(basisReference))) {
        // A. A definite flex-basis, sized like width/height (box-sizing applies).
        const qreal value = basis.resolve(float(basisReference));
        item.flexBaseSize = node.style.boxSizing == BoxSizing::BorderBox
                                ? std::max(value, item.paddingBorderMain)
                                : std::max<qreal>(value, 0) + item.paddingBorderMain;
    } else if (basis.type == Length::Type::Content || basis.isIntrinsic()) {
        // flex-basis: content and the intrinsic keywords (§7.2.3, CSS Sizing 3 §3.2) size
        // the item from its content whatever its width says; a column's content height
        // is the same for all of them.
        item.flexBaseSize
            = m_row ? *m_engine.keywordWidth(node, basis.type == Length::Type::Content ? Length::maxContent() : basis,
                                             m_availableMainSpace - item.outerMargins(true))
                    : contentMainSize(item, IntrinsicMode::MaxContent);
    } else if (item.specifiedMain) {
        // flex-basis: auto takes the main size property when that is definite.
        item.flexBaseSize = *item.specifiedMain;
        baseIsSpecifiedSize = true;
    } else if (const auto cross = ratio > 0 ? definiteCrossSize(item) : std::nullopt) {
        // B. An aspect ratio with a definite cross size (a stretched one counts, §9.8).
        item.flexBaseSize = m_row ? LayoutEngine::widthFromRatio(node, item.edges, *cross)
                                  : LayoutEngine::heightFromRatio(node, item.edges, *cross);
    } else {
        // C–E. Content-sized: max-content main size (columns: laid out at the cross size).
        item.flexBaseSize = contentMainSize(item, IntrinsicMode::MaxContent);
        // A text run's min-content width (its automatic minimum) is at most this.
        baseIsMaxContentText = m_row && node.isText();
    }
    const bool autoMin = node.isText() || (m_row ? node.style.minWidth.isAuto() : node.style.minHeight.isAuto());
    if (autoMin && (baseIsSpecifiedSize || baseIsMaxContentText)) {
        // The automatic minimum is at most the specified size (§4.5), or a text run's
        // min-content width at most its max-content one, so it cannot change a
        // hypothetical main size taken from either; only a shrinking line needs it
        // (text does not grow), and measuring the content of every fixed-size item, or
        // shaping every title at min-content, costs layout time.
        item.minMain = item.paddingBorderMain;
        item.automaticMinimumDeferred = true;
    } else if (autoMin) {
        item.minMain = automaticMinimumMainSize(item);
    }
    if (!m_row && !node.isText()) {
        // A height's min-content and max-content sizes are both its content height at
        // its width (CSS Sizing 3 §5.1), so the keywords clamp a column item to it.
        if (node.style.minHeight.isIntrinsic())
            item.minMain = contentMainSize(item, IntrinsicMode::MinContent);
        if (node.style.maxHeight.isIntrinsic())
            item.maxMain = contentMainSize(item, IntrinsicMode::MaxContent);
    }
    item.hypotheticalMainSize = clampSize(item.flexBaseSize, item.minMain, item.maxMain);
}

void FlexFormattingContext::determineMainSizeOfFlexContainer()
{
    if (m_innerMainSize >= 0)
        return;
    // Only an auto-height column gets here: its height is its content's (max-content).
    // A multi-line one whose lines break at its max-height is as tall as its longest
    // line, as in Chromium (the lines are collected against that height below).
    const bool measuring = m_lineBreakHeight >= 0;
    const qreal limit = measuring ? m_lineBreakHeight : m_maxContentHeight;
    const bool breaksAtLimit = !isSingleLine() && limit < kMaxContent;
    qreal size = 0, longest = 0;
    for (std::size_t i = 0; i < m_items.size(); ++i) {
        const qreal outer = m_items[i].outerHypotheticalMainSize();
        if (breaksAtLimit && i && size + m_mainGap + outer > limit + kEpsilon) {
            longest = std::max(longest, size);
            size = outer;
        } else {
            size += outer + (i ? m_mainGap : 0);
        }
    }
    size = std::max(longest, size);
    // A measured content height keeps a line taller than the limit (one tall item).
    m_innerMainSize
        = measuring ? std::max(size, m_minContentHeight) : clampSize(size, m_minContentHeight, m_maxContentHeight);
    m_availableMainSpace = isSingleLine() ? m_innerMainSize : std::min(limit, kMaxContent);
}

void FlexFormattingContext::collectFlexItemsIntoFlexLines()
{
    if (isSingleLine()) {
        FlexLine line;
        for (FlexItem &item : m_items)
            line.items.push_back(&item);
        m_lines.push_back(std::move(line));
        return;
    }
    FlexLine line;
    qreal used = 0;
    for (FlexItem &item : m_items) {
        const qreal outer = item.outerHypotheticalMainSize();
        const qreal needed = line.items.empty() ? outer : used + m_mainGap + outer;
        if (!line.items.empty() && needed > m_availableMainSpace + kEpsilon) {
            m_lines.push_back(std::move(line));
            line = FlexLine();
            used = outer;
        } else {
            used = needed;
        }
        line.items.push_back(&item);
    }
    if (!line.items.empty() || m_lines.empty())
        m_lines.push_back(std::move(line));
}

void FlexFormattingContext::resolveFlexibleLengths(FlexLine &line)
{
    if (line.items.empty())
        return;
    const qreal gaps = m_mainGap * qreal(line.items.size() - 1);
    // 1. Determine the used flex factor.
    qreal sumHypothetical = gaps;
    for (const FlexItem *item : line.items)
        sumHypothetical += item->outerHypotheticalMainSize();
    const bool growing = sumHypothetical < m_innerMainSize;
    for (FlexItem *item : line.items) {
        if (!growing && item->automaticMinimumDeferred) {
            item->minMain = automaticMinimumMainSize(*item);
            item->automaticMinimumDeferred = false;
        }
    }
    auto flexFactor = [growing](const FlexItem &item) {
        if (item.node->isText())
            return growing ? qreal(0) : qreal(1);
        return qreal(growing ? item.node->style.flexGrow : item.node->style.flexShrink);
    };

    // 2. Size inflexible items.
    for (FlexItem *item : line.items) {
        item->frozen = false;
        item->targetMainSize = item->hypotheticalMainSize;
        if (flexFactor(*item) == 0 || (growing && item->flexBaseSize > item->hypotheticalMainSize)
            || (!growing && item->flexBaseSize < item->hypotheticalMainSize))
            item->frozen = true;
    }

    // 3. Calculate initial free space.
    auto freeSpace = [&]() {
        qreal used = gaps;
        for (const FlexItem *item : line.items)
            used += item->frozen ? item->outerTargetMainSize() : item->outerFlexBaseSize();
        return m_innerMainSize - used;
    };
    const qreal initialFreeSpace = freeSpace();

    // 4. Loop.
    for (;;) {
        // a. Check for flexible items.
        bool anyUnfrozen = false;
        qreal sumFactors = 0;
        for (const FlexItem *item : line.items) {
            if (!item->frozen) {
                anyUnfrozen = true;
                sumFactors += flexFactor(*item);
            }
        }
        if (!anyUnfrozen)
            break;
        // b. Calculate the remaining free space.
        qreal remaining = freeSpace();
        if (sumFactors < 1) {
            const qreal scaled = initialFreeSpace * sumFactors;
            if (std::abs(scaled) < std::abs(remaining))
                remaining = scaled;
        }
        // c. Distribute free space proportional to the flex factors.
        if (remaining != 0) {
            if (growing) {
                for (FlexItem *item : line.items) {
                    if (!item->frozen && sumFactors > 0)
                        item->targetMainSize = item->flexBaseSize + remaining * (flexFactor(*item) / sumFactors);
                }
            } else {
                // Shrink in proportion to the scaled flex shrink factor (inner base size × shrink).
                qreal sumScaled = 0;
                for (const FlexItem *item : line.items) {
                    if (!item->frozen)
                        sumScaled += (item->flexBaseSize - item->paddingBorderMain) * flexFactor(*item);
                }
                for (FlexItem *item : line.items) {
                    if (item->frozen)
                        continue;
                    const qreal scaled = (item->flexBaseSize - item->paddingBorderMain) * flexFactor(*item);
                    item->targetMainSize = sumScaled > 0
                                               ? item->flexBaseSize - std::abs(remaining) * (scaled / sumScaled)
                                               : item->flexBaseSize;
                }
            }
        } else {
            for (FlexItem *item : line.items) {
                if (!item->frozen)
                    item->targetMainSize = item->flexBaseSize;
            }
        }
        // d. Fix min/max violations (a content box never goes below zero).
        qreal totalViolation = 0;
        std::vector<qreal> violation(line.items.size(), 0);
        for (std::size_t i = 0; i < line.items.size(); ++i) {
            FlexItem *item = line.items[i];
            if (item->frozen)
                continue;
            const qreal clamped
                = std::max(clampSize(item->targetMainSize, item->minMain, item->maxMain), item->paddingBorderMain);
            violation[i] = clamped - item->targetMainSize;
            totalViolation += violation[i];
            item->targetMainSize = clamped;
        }
        // e. Freeze over-flexed items.
        for (std::size_t i = 0; i < line.items.size(); ++i) {
            FlexItem *item = line.items[i];
            if (item->frozen)
                continue;
            if (std::abs(totalViolation) < kEpsilon || (totalViolation > 0 && violation[i] > 0)
                || (totalViolation < 0 && violation[i] < 0))
                item->frozen = true;
        }
    }
    // 5. Set each item's used main size to its target main size.
    for (FlexItem *item : line.items)
        item->mainSize = item->targetMainSize;
}

void FlexFormattingContext::determineHypotheticalCrossSize(FlexItem &item)
{
    const Node &node = *item.node;
    if (m_row) {
        if (node.isText()) {
            const TextMetrics metrics = m_engine.measureText(node, item.mainSize);
            item.hypotheticalCrossSize = metrics.size.height();
            item.baseline = metrics.firstBaseline;
            item.lastBaseline = metrics.lastBaseline;
            return;
        }
        const qreal forcedHeight
            = item.specifiedCross ? clampSize(*item.specifiedCross, item.minCross, item.maxCross) : -1;
        const LayoutBox box = m_engine.layout(node, requestFor(item.mainSize, forcedHeight));
        item.hypotheticalCrossSize = box.borderBox.height();
        item.baseline = box.firstBaseline;
        // A box without a line box synthesizes its last baseline from its border edge (§9.1).
        item.lastBaseline = box.lastBaseline.value_or(box.borderBox.height());
        return;
    }
    // Column: a stretched item of a single-line container of definite width gets the
    // container's width in steps 8 and 11, which is its definite cross size (§9.8 item 1);
    // measuring it at fit-content would shape its text at min- and max-content for a size
    // nothing reads. Otherwise the width is fit-content unless definite; stretching
    // happens in step 11.
    if (const std::optional<qreal> definite = definiteCrossSize(item)) {
        item.hypotheticalCrossSize = *definite;
        return;
    }
    item.hypotheticalCrossSize = crossSizeForMeasuring(item, false);
}

void FlexFormattingContext::calculateCrossSizeOfEachFlexLine()
{
    // 1. A single-line container with a definite cross size gives its line that size.
    if (isSingleLine() && m_innerCrossSize >= 0) {
        m_lines.front().crossSize = m_innerCrossSize;
        for (FlexLine &line : m_lines) {
            for (const FlexItem *item : line.items) {
                if (participatesInBaselineAlignment(*item))
                    line.maxBaseline = std::max(line.maxBaseline, item->baseline + item->marginCrossStart);
                else if (participatesInLastBaselineAlignment(*item))
                    line.maxBelowLastBaseline = std::max(line.maxBelowLastBaseline,
                                                         belowLastBaseline(*item, item->hypotheticalCrossSize));
            }
        }
        return;
    }
    for (FlexLine &line : m_lines) {
        // 2.1 Baseline-aligned items: largest distance above plus largest below the
        // baseline, for the first-baseline group and the last-baseline group each.
        qreal maxAbove = 0, maxBelow = 0, maxAboveLast = 0, maxBelowLast = 0, largestOuter = 0;
        for (const FlexItem *item : line.items) {
            if (participatesInBaselineAlignment(*item)) {
                const qreal above = item->baseline + item->marginCrossStart;
                maxAbove = std::max(maxAbove, above);
                maxBelow = std::max(maxBelow, item->outerHypotheticalCrossSize() - above);
            } else if (participatesInLastBaselineAlignment(*item)) {
                const qreal below = belowLastBaseline(*item, item->hypotheticalCrossSize);
                maxBelowLast = std::max(maxBelowLast, below);
                maxAboveLast = std::max(maxAboveLast, item->outerHypotheticalCrossSize() - below);
            } else {
                // 2.2 Otherwise the largest outer hypothetical cross size.
                largestOuter = std::max(largestOuter, item->outerHypotheticalCrossSize());
            }
        }
        line.maxBaseline = maxAbove;
        line.maxBelowLastBaseline = maxBelowLast;
        line.crossSize = std::max({largestOuter, maxAbove + maxBelow, maxAboveLast + maxBelowLast});
    }
    // 3. A single-line container clamps its line to its own min/max cross size.
    if (isSingleLine() && m_row)
        m_lines.front().crossSize = clampSize(m_lines.front().crossSize, m_minContentHeight, m_maxContentHeight);
}

void FlexFormattingContext::handleAlignContentStretch()
{
    if (m_style.alignContent != AlignContent::Stretch || isSingleLine())
        return;
    qreal sum = m_crossGap * qreal(m_lines.size() - 1);
    for (const FlexLine &line : m_lines)
        sum += line.crossSize;
    // An auto-height row stretches its lines up to its min-height too: Chromium sizes the
    // container (the lines' sum clamped by min/max) before it distributes, where the
    // spec's step names only a definite cross size.
    const qreal inner = m_innerCrossSize >= 0 ? m_innerCrossSize
                        : m_row               ? clampSize(sum, m_minContentHeight, m_maxContentHeight)
                                              : -1;
    if (inner < 0 || sum >= inner)
        return;
    const qreal extra = (inner - sum) / qreal(m_lines.size());
    for (FlexLine &line : m_lines)
        line.crossSize += extra;
}

void FlexFormattingContext::determineUsedCrossSizeOfEachItem()
{
    for (FlexLine &line : m_lines) {
        for (FlexItem *item : line.items) {
            if (isStretched(*item)) {
                item->crossSize = clampSize(line.crossSize - item->outerMargins(false), item->minCross, item->maxCross);
                item->crossSize = std::max(item->crossSize, item->paddingBorderCross);
            } else {
                item->crossSize = item->hypotheticalCrossSize;
            }
        }
    }
}

void FlexFormattingContext::distributeRemainingFreeSpace()
{
    for (FlexLine &line : m_lines) {
        const std::size_t count = line.items.size();
        if (!count)
            continue;
        qreal used = m_mainGap * qreal(count - 1);
        int autoMargins = 0;
        for (const FlexItem *item : line.items) {
            used += item->outerMainSize();
            autoMargins += int(item->autoMainStart) + int(item->autoMainEnd);
        }
        qreal free = m_innerMainSize - used;
        // 1. Positive free space goes to auto margins first.
        if (free > 0 && autoMargins > 0) {
            const qreal share = free / autoMargins;
            for (FlexItem *item : line.items) {
                if (item->autoMainStart)
                    item->marginMainStart = share;
                if (item->autoMainEnd)
                    item->marginMainEnd = share;
            }
            free = 0;
        }
        // 2. Then justify-content (§8.2); with negative free space the distributed values
        // fall back to flex-start (space-between) or safe center (space-around/-evenly).
        const ContentDistribution distribution = justifyContentDistribution(m_style);
        const auto [offset, between] = distributeContent(distribution, free, count);
        qreal cursor = offset;
        // Safe center falls back to `start`, the writing mode's start edge, which is the
        // main-end side of a reversed container (CSS Box Alignment 3 §4.4, as Chromium).
        const bool reversed = m_style.flexDirection == FlexDirection::RowReverse
                              || m_style.flexDirection == FlexDirection::ColumnReverse;
        if (free < 0 && reversed
            && (distribution == ContentDistribution::SpaceAround || distribution == ContentDistribution::SpaceEvenly))
            cursor = free;
        for (FlexItem *item : line.items) {
            item->mainOffset = cursor + item->marginMainStart;
            cursor += item->outerMainSize() + m_mainGap + between;
        }
    }
}

void FlexFormattingContext::resolveCrossAxisAutoMargins()
{
    for (FlexLine &line : m_lines) {
        for (FlexItem *item : line.items) {
            if (!item->autoCrossStart && !item->autoCrossEnd)
                continue;
            const qreal free = line.crossSize - item->outerCrossSize();
            if (free > 0) {
                if (item->autoCrossStart && item->autoCrossEnd) {
                    item->marginCrossStart = free / 2;
                    item->marginCrossEnd = free / 2;
                } else if (item->autoCrossStart) {
                    item->marginCrossStart = free;
                } else {
                    item->marginCrossEnd = free;
                }
            } else if (item->autoCrossStart) {
                item->marginCrossStart = 0;
            }
        }
    }
}

void FlexFormattingContext::alignAllFlexItemsAlongCrossAxis()
{
    for (FlexLine &line : m_lines) {
        for (FlexItem *item : line.items) {
            if (item->autoCrossStart || item->autoCrossEnd) {
                item->crossOffset = item->marginCrossStart;
                continue;
            }
            const qreal free = line.crossSize - item->outerCrossSize();
            switch (item->alignSelf) {
            case AlignItems::Auto:
            case AlignItems::FlexStart:
            case AlignItems::Stretch: item->crossOffset = item->marginCrossStart; break;
            case AlignItems::FlexEnd: item->crossOffset = free + item->marginCrossStart; break;
            case AlignItems::Center: item->crossOffset = free / 2 + item->marginCrossStart; break;
            case AlignItems::Baseline:
                // Column containers have no shared baseline here: baseline acts as flex-start.
                item->crossOffset = participatesInBaselineAlignment(*item) ? line.maxBaseline - item->baseline
                                                                           : item->marginCrossStart;
                break;
            case AlignItems::LastBaseline:
                // Its last baseline as far from the line's cross end as the group's
                // farthest; in a column, the fallback: flex-end.
                item->crossOffset = participatesInLastBaselineAlignment(*item)
                                        ? line.crossSize - line.maxBelowLastBaseline - item->lastBaseline
                                        : free + item->marginCrossStart;
                break;
            }
        }
    }
}

void FlexFormattingContext::determineFlexContainerUsedCrossSize()
{
    if (m_innerCrossSize >= 0)
        return;
    qreal sum = m_crossGap * qreal(m_lines.size() - 1);
    for (const FlexLine &line : m_lines)
        sum += line.crossSize;
    // Only rows reach here (a column's width is decided before layout).
    m_innerCrossSize = clampSize(sum, m_minContentHeight, m_maxContentHeight);
}

void FlexFormattingContext::alignAllFlexLines()
{
    const std::size_t count = m_lines.size();
    qreal sum = m_crossGap * qreal(count - 1);
    for (const FlexLine &line : m_lines)
        sum += line.crossSize;
    const qreal free = m_innerCrossSize - sum;
    // A single-line container's line fills it (step 8), so align-content does nothing.
    const auto [offset, between]
        = isSingleLine() ? Distribution{} : distributeContent(contentDistribution(m_style.alignContent), free, count);
    qreal cursor = offset;
    for (FlexLine &line : m_lines) {
        line.crossOffset = cursor;
        cursor += line.crossSize + m_crossGap + between;
    }
}

void FlexFormattingContext::placeFlexItems(FormattingResult &result)
{
    const QPointF origin(m_edges.border.left() + m_edges.padding.left(), m_edges.border.top() + m_edges.padding.top());
    const qreal cbHeight = m_percentHeight;
    bool baselineFound = false, lastBaselineFound = false;
    for (const FlexLine &line : m_lines) {
        for (const FlexItem *item : line.items) {
            const qreal width = m_row ? item->mainSize : item->crossSize;
            const qreal height = m_row ? item->crossSize : item->mainSize;
            LayoutRequest request = requestFor(width, height);
            // §9.8: a stretched cross size, and a main size flexed in a container of
            // definite main size, are definite; a content-sized height is not.
            const bool stretched = isStretched(*item);
            request.heightIsDefinite
                = m_row ? (item->specifiedCross || stretched) : (item->specifiedMain || m_percentHeight >= 0);
            LayoutBox box = m_engine.layout(*item->node, request);
            const qreal main = isMainReverse() ? m_innerMainSize - item->mainOffset - item->mainSize : item->mainOffset;
            const qreal crossFromStart = line.crossOffset + item->crossOffset;
            const qreal cross = isCrossReverse() ? m_innerCrossSize - crossFromStart - item->crossSize : crossFromStart;
            QPointF position = origin + (m_row ? QPointF(main, cross) : QPointF(cross, main));
            if (!item->node->isText())
                position += relativeOffset(item->node->style, m_contentWidth, cbHeight);
            box.borderBox.moveTo(position);
            // The container's first baseline: its first line's baseline-aligned item, or
            // its first item (CSS Flexbox 1 §8.5).
            if (&line == &m_lines.front() && !baselineFound
                && (participatesInBaselineAlignment(*item) || !result.baseline)) {
                result.baseline = position.y() + box.firstBaseline;
                // An inline-block holding this container takes it as its last line's.
                result.lastBaseline = box.lastLineBaseline ? result.baseline : std::nullopt;
                baselineFound = participatesInBaselineAlignment(*item);
            }
            // The container's last baseline: its last line's last-baseline-aligned items',
            // or its last item's (CSS Flexbox 1 §8.5), synthesized where it has none.
            if (&line == &m_lines.back() && !lastBaselineFound) {
                result.alignmentLastBaseline = position.y() + box.lastBaseline.value_or(box.borderBox.height());
                lastBaselineFound = participatesInLastBaselineAlignment(*item);
            }
            result.boxes.emplace_back(item->index, std::move(box));
        }
    }
}

} // namespace

FormattingResult layoutFlexChildren(LayoutEngine &engine, const Node &container, const BoxEdges &edges,
                                    const ContentBox &box, qreal lineBreakHeight)
{
    FlexFormattingContext context(engine, container, edges, box, lineBreakHeight);
    return context.run();
}

} // namespace imprint::render::detail
