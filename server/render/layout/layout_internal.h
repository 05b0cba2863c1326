#pragma once
// Internals of the layout engine (layout.cpp, layout_flex.cpp, layout_block.cpp): the
// engine that lays one box out given its constraints, and the formatting contexts that
// place a container's children. Boxes are produced in local coordinates (a box's own
// border box at (0,0), children relative to their parent's border-box origin) so a
// result can be cached and reused wherever the box ends up; layoutDocument() moves the
// finished tree to page coordinates.

#include "server/render/layout/layout.h"

#include <array>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace imprint::render::detail {

/// Margins, border and padding of one box in px, percentages resolved against the
/// containing block's width (CSS Box 3 §5: vertical ones too). Auto margins are 0 here
/// and flagged in `marginAuto` (edge order top, right, bottom, left).
struct BoxEdges {
    QMarginsF margin;
    std::array<bool, 4> marginAuto{};
    QMarginsF border;
    QMarginsF padding;

    qreal paddingBorderWidth() const { return border.left() + border.right() + padding.left() + padding.right(); }
    qreal paddingBorderHeight() const { return border.top() + border.bottom() + padding.top() + padding.bottom(); }
    qreal marginWidth() const { return margin.left() + margin.right(); }
    qreal marginHeight() const { return margin.top() + margin.bottom(); }
};

/// What the parent formatting context decided for a box before laying it out. Every
/// size is a border-box size in px; -1 means "not decided": the box sizes itself from
/// its style and content.
struct LayoutRequest {
    qreal width = -1; ///< forced used width (flex item main/cross size, abspos width)
    qreal height = -1; ///< forced used height
    qreal cbWidth = -1; ///< containing block width for percentages (-1 indefinite)
    qreal cbHeight = -1; ///< containing block height for percentages (-1 indefinite)
    qreal availableWidth = -1; ///< width an auto-width block fills (margin box); -1 = max-content
    /// Whether a forced `height` is definite for the box's children's percentages (CSS
    /// Flexbox 1 §9.8: a flex item's content-sized height in an auto-height column is not).
    bool heightIsDefinite = true;
    /// Measure the height of the box's content (CSS Sizing 3 §5.1: a block's min-content
    /// and max-content heights): its own height, min-height and max-height do not apply.
    bool contentHeight = false;

    auto operator<=>(const LayoutRequest &) const = default;
};

/// Children placed by a formatting context, each with its index among the container's
/// children (so absolutely positioned boxes can be merged back in document order), in
/// coordinates relative to the container's border-box origin.
struct FormattingResult {
    std::vector<std::pair<int, LayoutBox>> boxes;
    qreal contentHeight = 0; ///< px, height of the content box the children need
    std::optional<qreal> baseline; ///< px from the container's border-box top
    /// The baseline of the last line box in the normal flow (CSS 2 §10.8.1, an
    /// inline-block's baseline), px from the container's border-box top; unset when the
    /// content has no line box. Flex and grid containers give their first baseline.
    std::optional<qreal> lastBaseline;
    /// The container's last baseline for `last baseline` alignment (LayoutBox::
    /// lastBaseline) when it differs from lastBaseline (flex containers); unset: lastBaseline.
    std::optional<qreal> alignmentLastBaseline;
    /// Block containers: static position of each abspos child (by child index), relative
    /// to the container's border-box origin: where its box would have started in flow.
    std::vector<std::pair<int, QPointF>> staticPositions;
};

enum class IntrinsicMode : quint8 { MinContent, MaxContent };

/// Lays boxes out and answers the size questions formatting contexts ask (intrinsic
/// widths, text metrics), caching every answer for the duration of one layoutDocument()
/// call: the flex algorithm asks the same question several times per item.
class LayoutEngine
{
public:
    explicit LayoutEngine(TextMeasurer &text)
        : m_text(text)
    { }

    /// Text metrics of `run` wrapped at `maxWidth` px (kMaxContent/0 as in TextMeasurer).
    TextMetrics measureText(const Node &run, qreal maxWidth);

    /// The inline formatting context of `container`'s children from index `first` on
    /// (`items` collected from them) in lines of `width` px, cached per width.
    const InlineLayout &layoutInline(const Node &container, int first, const std::vector<InlineItem> &items,
                                     qreal width);

    /// Lays out `node` (element or text run) under `request`; the returned box is at
    /// (0,0) with its children relative to it.
    LayoutBox layout(const Node &node, const LayoutRequest &request);

    /// Min-content or max-content contribution of `node` as a border-box width in px
    /// (CSS Sizing 3 §5.2): its content size clamped by its own width, min-width and
    /// max-width, percentages treated as auto; text runs give their text width.
    qreal intrinsicWidth(const Node &node, IntrinsicMode mode);

    /// Min-content or max-content size of `node`'s content as a border-box width in px
    /// (CSS Sizing 3 §5.1), before its own width, min-width and max-width apply.
    qreal contentIntrinsicWidth(const Node &node, IntrinsicMode mode);

    /// Max-content width in px of a multi-line column flex container with a definite
    /// height or max-height (Chromium's reading of CSS Flexbox 1 §9.9.1): its items
    /// broken into flex lines at that height, each line as wide as its widest item, the
    /// lines and column gaps summed. nullopt for any other box or for MinContent (the
    /// largest item, as for any column).
    std::optional<qreal> columnWrapContentWidth(const Node &node, const BoxEdges &e, IntrinsicMode mode);

    /// The border-box width in px an intrinsic size keyword gives `node` (CSS Sizing 3
    /// §3.2): its min-content or max-content size, or for fit-content
    /// min(max-content, max(min-content, `available`)) where `available` is the
    /// border-box width it may fill (kMaxContent when unbounded). nullopt for a length.
    std::optional<qreal> keywordWidth(const Node &node, const Length &size, qreal available);

    /// A box's width, min-width and max-width as border-box px in a containing block
    /// `cbWidth` px wide (-1 indefinite), intrinsic size keywords resolved against
    /// `available` (see keywordWidth()).
    struct WidthConstraints {
        std::optional<qreal> width; ///< nullopt when auto or an indefinite percentage
        qreal min = 0; ///< at least the padding and border (auto = 0 content)
        qreal max = kMaxContent; ///< kMaxContent when none
    };
    WidthConstraints widthConstraints(const Node &node, const BoxEdges &e, qreal cbWidth, qreal available);

    /// Margins, border and padding of `style` against a containing block `cbWidth` px
    /// wide (-1 = indefinite: percentages count as 0).
    static BoxEdges resolveEdges(const ComputedStyle &style, qreal cbWidth);

    // Border-box sizes from the style (CSS Sizing 3 §3, box-sizing applied). Specified
    // sizes are nullopt when auto or a percentage of an indefinite size; min sizes are
    // at least the padding+border (auto = 0 content), max sizes infinity when none.
    static std::optional<qreal> specifiedWidth(const ComputedStyle &s, const BoxEdges &e, qreal cbWidth);
    static std::optional<qreal> specifiedHeight(const ComputedStyle &s, const BoxEdges &e, qreal cbHeight);
    static qreal minWidth(const ComputedStyle &s, const BoxEdges &e, qreal cbWidth);
    static qreal maxWidth(const ComputedStyle &s, const BoxEdges &e, qreal cbWidth);
    static qreal minHeight(const ComputedStyle &s, const BoxEdges &e, qreal cbHeight);
    static qreal maxHeight(const ComputedStyle &s, const BoxEdges &e, qreal cbHeight);

    /// Preferred aspect ratio (width / height) of a box: the aspectRatio property, else an
    /// img's natural ratio; 0 when it has none.
    static qreal aspectRatio(const Node &node);
    /// Border-box height for a border-box width through the preferred aspect ratio, and
    /// the reverse (CSS Sizing 4 §5.1: the aspectRatio property applies to the
    /// box-sizing box, an img's natural ratio to its content box).
    static qreal heightFromRatio(const Node &node, const BoxEdges &e, qreal width);
    static qreal widthFromRatio(const Node &node, const BoxEdges &e, qreal height);
    /// Natural (intrinsic) content size of an img in px; empty when it has none.
    static QSizeF naturalSize(const Node &node);

    /// Border-box size of a replaced element (img) from its specified sizes and natural
    /// size/ratio (CSS 2 §10.3.2/§10.6.2 with min/max applied). `width`/`height` are
    /// already-decided border-box sizes or -1.
    QSizeF replacedSize(const Node &node, const BoxEdges &e, qreal width, qreal height, qreal cbWidth,
                        qreal cbHeight) const;

    /// An absolutely positioned box sized against a containing block (CSS Position 3
    /// §4.1, CSS 2 §10.3.7/§10.6.4), at (0,0), with its resolved insets and margins.
    struct AbsoluteBox {
        LayoutBox box;
        std::optional<qreal> left, right, top, bottom;
        QMarginsF margin;
        /// Border-box top-left in the coordinates of `cb` (the containing block's padding
        /// box): from the insets where given, else from `staticPosition`. With both
        /// `left` and `right` given the box is over-constrained and the containing
        /// block's `cbDirection` decides which one gives way (CSS 2 §10.3.7).
        QPointF position(const QRectF &cb, QPointF staticPosition, Direction cbDirection) const;
    };
    AbsoluteBox layoutAbsolute(const Node &child, QSizeF containingBlock);

private:
    LayoutBox layoutText(const Node &node, const LayoutRequest &request);
    LayoutBox layoutElement(const Node &node, const LayoutRequest &request);
    void layoutAbsoluteChildren(const Node &node, LayoutBox &box, FormattingResult &placed);

    TextMeasurer &m_text;
    std::map<std::pair<const Node *, qreal>, TextMetrics> m_textCache;
    /// Per node and IntrinsicMode: the contribution (intrinsicWidth()) and the content
    /// size (contentIntrinsicWidth()) once asked; one entry so one lookup serves both.
    struct IntrinsicWidths {
        std::optional<qreal> contribution;
        std::optional<qreal> content;
    };
    std::map<std::pair<const Node *, int>, IntrinsicWidths> m_intrinsicCache;
    std::map<std::tuple<const Node *, LayoutRequest>, LayoutBox> m_layoutCache;
    std::map<std::tuple<const Node *, int, qint64>, InlineLayout> m_inlineCache;
};

/// True for nodes that generate no box in a container: display:none elements and text
/// runs of collapsible white space only (CSS Text 3 §4.1.1, CSS Flexbox 1 §4).
bool generatesNoBox(const Node &node);

/// True for children that take part in their container's formatting context: they generate
/// a box and are in flow (a text run always is; the caller places out-of-flow elements).
inline bool isInFlowChild(const Node &child)
{
    return !generatesNoBox(child) && (child.isText() || !child.style.isOutOfFlow());
}

/// Calls `f(child, index)` for each child of `container` that isInFlowChild(), `index`
/// being its position among all the children (document order).
template<typename F>
void forEachInFlowChild(const Node &container, F &&f)
{
    for (int index = 0; index < int(container.children.size()); ++index) {
        const Node &child = *container.children[size_t(index)];
        if (isInFlowChild(child))
            f(child, index);
    }
}

/// A flex or grid item's `order` (CSS Flexbox 1 §5.4): 0 for a text run, an anonymous item.
inline int orderOf(const Node &child)
{
    return child.isText() ? 0 : child.style.order;
}

/// True for children that take part in their block container's inline formatting
/// context: text runs and in-flow display:inline / inline-block elements (CSS Display 3 §2).
bool isInlineLevel(const Node &node);

/// A run of consecutive inline-level children [first, last) of a block container (CSS 2
/// §9.2.1.1: it becomes an anonymous block). `formatsInline` when an element is among
/// them, so they are laid out as one paragraph; plain text keeps its own text box.
struct InlineRun {
    int first = 0;
    int last = 0;
    bool formatsInline = false;
};
std::vector<InlineRun> inlineRuns(const Node &container);

/// An inline formatting context laid out: boxes by child index, relative to the
/// container's border-box origin.
struct InlineResult {
    std::vector<std::pair<int, LayoutBox>> boxes;
    qreal height = 0; ///< px, sum of the line boxes
    qreal width = 0; ///< px, widest line
    std::optional<qreal> baseline; ///< first line's baseline from the container's border-box top
    std::optional<qreal> lastBaseline; ///< last (visible) line's baseline, likewise
};

/// Lays `run` of `container`'s children out as one paragraph `contentWidth` px wide whose
/// top-left is `origin` (container border-box coordinates). CSS Inline 3.
InlineResult layoutInlineChildren(LayoutEngine &engine, const Node &container, const InlineRun &run, qreal contentWidth,
                                  qreal percentHeight, QPointF origin);

/// The height in px of a `br` laid out as a box of its own (a flex item): one empty line
/// box of its style's strut, as Chromium lays out a br, which is text (its LayoutBR), in
/// the anonymous flex item that wraps it (CSS Flexbox 1 §4).
qreal lineBreakBoxHeight(LayoutEngine &engine, const Node &br, qreal contentWidth);

/// Min-content (lines broken at every opportunity) or max-content (unbroken) width in px of
/// `run`'s paragraph (CSS Sizing 3 §5.2 for inline content).
qreal inlineContentWidth(LayoutEngine &engine, const Node &container, const InlineRun &run, IntrinsicMode mode);

/// Clamps `size` between `minSize` and `maxSize`, min winning (CSS 2 §10.4).
inline qreal clampSize(qreal size, qreal minSize, qreal maxSize)
{
    return std::max(minSize, std::min(size, maxSize));
}

/// Offset of a position:relative box from its static place (CSS Position 3 §3.4): left
/// wins over right, top over bottom; percentages against the containing block.
QPointF relativeOffset(const ComputedStyle &style, qreal cbWidth, qreal cbHeight);

/// The content box a container's own layout settled for its flex or grid items, px.
struct ContentBox {
    qreal width = 0; ///< -1 while a grid sizes the container's intrinsic width
    qreal height = -1; ///< -1 when auto
    qreal percentHeight = -1; ///< basis of the items' percentage heights, -1 when indefinite
    qreal minHeight = 0; ///< an auto height's lower bound
    qreal maxHeight = kMaxContent; ///< an auto height's upper bound
};

/// What the flex and grid formatting contexts of one container start from: the engine
/// that lays out the items, the container with its style and edges, and its ContentBox.
class ContainerFormattingContext
{
protected:
    ContainerFormattingContext(LayoutEngine &engine, const Node &container, const BoxEdges &edges,
                               const ContentBox &box)
        : m_engine(engine)
        , m_container(container)
        , m_style(container.style)
        , m_edges(edges)
        , m_contentWidth(box.width)
        , m_contentHeight(box.height)
        , m_percentHeight(box.percentHeight)
        , m_minContentHeight(box.minHeight)
        , m_maxContentHeight(box.maxHeight)
    { }

    LayoutEngine &m_engine;
    const Node &m_container;
    const ComputedStyle &m_style;
    const BoxEdges &m_edges;
    const qreal m_contentWidth;
    const qreal m_contentHeight;
    const qreal m_percentHeight;
    const qreal m_minContentHeight;
    const qreal m_maxContentHeight;
};

/// Lays out the in-flow children of a flex container in its content box `box` (an auto
/// height between box.minHeight and box.maxHeight). `lineBreakHeight` (≥ 0) measures an
/// auto-height multi-line column's content height: its lines break at that content
/// height, as in place, and it is as tall as its longest line. CSS Flexbox 1 §9.
FormattingResult layoutFlexChildren(LayoutEngine &engine, const Node &container, const BoxEdges &edges,
                                    const ContentBox &box, qreal lineBreakHeight = -1);

/// Static position (CSS Flexbox 1 §4.1) of an absolutely positioned child of a flex
/// container: where it would sit as the container's sole flex item, as the offset of its
/// margin box within the container's content box of `contentSize` px.
QPointF flexStaticPosition(const ComputedStyle &container, const ComputedStyle &child, QSizeF contentSize,
                           QSizeF marginBoxSize);

/// Lays out the in-flow children of a grid container (CSS Grid 1 §8.5 placement, §11
/// sizing, §10 alignment) in its content box `box`, as layoutFlexChildren().
FormattingResult layoutGridChildren(LayoutEngine &engine, const Node &container, const BoxEdges &edges,
                                    const ContentBox &box);

/// The min-content or max-content width in px of a grid container's content box: its
/// column tracks sized under that constraint plus the gaps (CSS Grid 1 §11.1, §5.2).
qreal gridIntrinsicContentWidth(LayoutEngine &engine, const Node &container, IntrinsicMode mode);

/// Lays out the in-flow children of a display:block container as block boxes stacked
/// from the top of its `contentWidth` px wide content box (CSS 2 §9.4.1, §10.3.3);
/// percentage heights resolve against `percentHeight` (-1 when not definite).
FormattingResult layoutBlockChildren(LayoutEngine &engine, const Node &container, const BoxEdges &edges,
                                     qreal contentWidth, qreal percentHeight);

} // namespace imprint::render::detail
