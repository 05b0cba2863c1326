// CSS Grid Layout Level 1 (https://www.w3.org/TR/css-grid-1/): alignment (§10) and the
// whole run of the formatting context, placement (grid_placement.cpp) and track sizing
// (grid_track_sizing.cpp) in the spec's order; grid_formatting_context.h declares the
// steps.

#include "server/render/layout/alignment.h"
#include "server/render/layout/grid_formatting_context.h"

namespace imprint::render::detail::grid {

// ---------------------------------------------------------------------------------
// Alignment

void GridFormattingContext::alignTracks(Axis axis, qreal size)
{
    std::vector<Track> &tracks = m_tracks[axis];
    int visible = 0;
    for (const Track &t : tracks)
        visible += t.collapsed ? 0 : 1;
    const qreal free = size - sumBase(axis);
    ContentDistribution mode = ContentDistribution::Start;
    if (axis == ColumnAxis) {
        switch (m_style.justifyContent) {
        case JustifyContent::Left: mode = m_rtl ? ContentDistribution::End : ContentDistribution::Start; break;
        case JustifyContent::Right: mode = m_rtl ? ContentDistribution::Start : ContentDistribution::End; break;
        default: mode = contentDistribution(m_style.justifyContent); break;
        }
    } else {
        mode = contentDistribution(m_style.alignContent);
    }
    const Distribution d = distributeContent(mode, free, std::size_t(std::max(1, visible)));
    m_distributedGap[axis] = d.between;
    qreal cursor = d.offset;
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        tracks[i].position = cursor;
        if (tracks[i].collapsed)
            continue;
        cursor += tracks[i].base;
        // A gutter follows each visible track that has a visible track after it.
        for (std::size_t j = i + 1; j < tracks.size(); ++j) {
            if (!tracks[j].collapsed) {
                cursor += gap(axis) + d.between;
                break;
            }
        }
    }
}

namespace {

// 10.3–10.4 Where the free space `free` along `axis` puts an item after its start margin:
// auto margins take it first (§10.2), then justify-self / align-self. https://www.w3.org/TR/css-grid-1/#auto-margins
qreal selfAlignmentOffset(const GridItem &item, Axis axis, qreal free)
{
    if (item.autoMarginStart[axis] && item.autoMarginEnd[axis])
        return std::max<qreal>(0, free) / 2;
    if (item.autoMarginStart[axis])
        return std::max<qreal>(0, free);
    if (!item.autoMarginEnd[axis] && item.alignment[axis] == SelfAlignment::End)
        return free;
    if (!item.autoMarginEnd[axis] && item.alignment[axis] == SelfAlignment::Center)
        return free / 2;
    return 0;
}

// §11.1: each item's grid area along `axis`, from its tracks' final positions and sizes.
void setItemAreas(std::vector<GridItem> &items, const std::vector<Track> &tracks, Axis axis)
{
    for (GridItem &item : items) {
        const Track &first = tracks[item.start[axis]];
        const Track &last = tracks[item.end[axis] - 1];
        const qreal start = first.position, end = std::max(first.position, last.position + last.base);
        if (axis == ColumnAxis) {
            item.area.setLeft(start);
            item.area.setRight(end);
        } else {
            item.area.setTop(start);
            item.area.setBottom(end);
        }
    }
}

} // namespace

void GridFormattingContext::placeGridItems(FormattingResult &result)
{
    const QPointF origin(m_edges.border.left() + m_edges.padding.left(), m_edges.border.top() + m_edges.padding.top());
    const GridItem *baselineItem = nullptr;
    for (GridItem &item : m_items) {
        const Node &node = *item.node;
        const QRectF area = item.area;
        const BoxEdges &e = item.edges;
        // Row axis (inline, §10.3): the width, then the free space per justify-self.
        const qreal width = usedWidth(item, area.width());
        const qreal marginStart = m_rtl ? e.margin.right() : e.margin.left();
        const qreal marginEnd = m_rtl ? e.margin.left() : e.margin.right();
        const qreal freeX = area.width() - width - marginStart - marginEnd;
        const qreal x = marginStart + selfAlignmentOffset(item, ColumnAxis, freeX);

        // Column axis (block, §10.4): stretch a box of auto height, else its content height.
        LayoutRequest request;
        request.width = width;
        request.cbWidth = area.width();
        request.cbHeight = area.height();
        const bool autoMarginsY = item.autoMarginStart[RowAxis] || item.autoMarginEnd[RowAxis];
        const bool autoHeight = node.isText()
                                || (!LayoutEngine::specifiedHeight(node.style, e, area.height())
                                    && !node.style.height.isIntrinsic() && node.style.aspectRatio <= 0);
        if (item.alignment[RowAxis] == SelfAlignment::Stretch && autoHeight && !autoMarginsY && !node.isImage()) {
            qreal height = area.height() - (node.isText() ? 0 : e.marginHeight());
            if (!node.isText())
                height = clampSize(height, LayoutEngine::minHeight(node.style, e, area.height()),
                                   LayoutEngine::maxHeight(node.style, e, area.height()));
            request.height = std::max<qreal>(0, height);
        }
        LayoutBox box = m_engine.layout(node, request);
        const qreal height = box.borderBox.height();
        const qreal freeY = area.height() - height - e.marginHeight();
        const qreal y = e.margin.top() + selfAlignmentOffset(item, RowAxis, freeY);

        const qreal logicalX = area.left() + x;
        // direction: rtl runs the columns from the right edge of the content box.
        const qreal physicalX = m_rtl ? m_contentWidth - logicalX - width : logicalX;
        QPointF position = origin + QPointF(physicalX, area.top() + y);
        if (!node.isText())
            position += relativeOffset(node.style, area.width(), area.height());
        box.borderBox.moveTo(position);
        // The grid's first baseline: its first item in the first row (CSS Grid 1 §10.7).
        if (!baselineItem || item.start[RowAxis] < baselineItem->start[RowAxis]
            || (item.start[RowAxis] == baselineItem->start[RowAxis]
                && item.start[ColumnAxis] < baselineItem->start[ColumnAxis])) {
            baselineItem = &item;
            result.baseline = position.y() + box.firstBaseline;
            result.lastBaseline = box.lastLineBaseline ? result.baseline : std::nullopt;
        }
        result.boxes.emplace_back(item.index, std::move(box));
    }
}

// ---------------------------------------------------------------------------------

void GridFormattingContext::buildGrid()
{
    generateGridItems();
    resolveExplicitGrid(ColumnAxis);
    resolveExplicitGrid(RowAxis);
    runPlacementAlgorithm();
    buildTracks(ColumnAxis);
    buildTracks(RowAxis);
}

FormattingResult GridFormattingContext::run()
{
    buildGrid();

    // §11.1 Grid sizing algorithm: 1. the columns against the content box width, whose
    // gutters and content distribution then fix each item's area width, ...
    runTrackSizingAlgorithm(ColumnAxis, m_contentWidth, SizingConstraint::None);
    alignTracks(ColumnAxis, m_contentWidth);
    setItemAreas(m_items, m_tracks[ColumnAxis], ColumnAxis);
    // ... 2. then the rows against the content box height (indefinite when auto).
    runTrackSizingAlgorithm(RowAxis, m_contentHeight, SizingConstraint::None);
    m_usedContentHeight
        = m_contentHeight >= 0 ? m_contentHeight : clampSize(sumBase(RowAxis), m_minContentHeight, m_maxContentHeight);
    if (m_contentHeight < 0 && m_usedContentHeight > sumBase(RowAxis) + kEpsilon)
        stretchAutoTracks(RowAxis, m_usedContentHeight);
    alignTracks(RowAxis, m_usedContentHeight);
    setItemAreas(m_items, m_tracks[RowAxis], RowAxis);

    FormattingResult result;
    placeGridItems(result);
    result.contentHeight = m_usedContentHeight;
    return result;
}

qreal GridFormattingContext::intrinsicContentWidth()
{
    buildGrid();
    runTrackSizingAlgorithm(ColumnAxis, -1, m_constraint);
    return sumBase(ColumnAxis);
}

} // namespace imprint::render::detail::grid

namespace imprint::render::detail {

using grid::GridFormattingContext;
using grid::SizingConstraint;

FormattingResult layoutGridChildren(LayoutEngine &engine, const Node &container, const BoxEdges &edges,
                                    const ContentBox &box)
{
    GridFormattingContext context(engine, container, edges, box, SizingConstraint::None);
    return context.run();
}

qreal gridIntrinsicContentWidth(LayoutEngine &engine, const Node &container, IntrinsicMode mode)
{
    const BoxEdges edges = LayoutEngine::resolveEdges(container.style, -1);
    GridFormattingContext context(engine, container, edges, ContentBox{.width = -1},
                                  mode == IntrinsicMode::MinContent ? SizingConstraint::MinContent
                                                                    : SizingConstraint::MaxContent);
    return context.intrinsicContentWidth();
}

} // namespace imprint::render::detail
