// Box alignment helpers (see alignment.h).

#include "server/render/layout/alignment.h"
#include "server/render/layout/layout_internal.h"

namespace imprint::render {

Distribution distributeContent(ContentDistribution mode, qreal freeSpace, std::size_t count)
{
    Distribution d;
    switch (mode) {
    case ContentDistribution::Start:
    case ContentDistribution::Stretch: break;
    case ContentDistribution::End: d.offset = freeSpace; break;
    case ContentDistribution::Center: d.offset = freeSpace / 2; break;
    case ContentDistribution::SpaceBetween:
        if (freeSpace > 0 && count > 1)
            d.between = freeSpace / qreal(count - 1);
        break;
    // Their fallback is `safe center` (CSS Box Alignment 3 §5.3): content that overflows
    // starts at the start edge rather than spilling past it, as Chromium lays it out.
    case ContentDistribution::SpaceAround:
        if (freeSpace > 0) {
            d.between = freeSpace / qreal(count);
            d.offset = d.between / 2;
        }
        break;
    case ContentDistribution::SpaceEvenly:
        if (freeSpace > 0) {
            d.between = freeSpace / qreal(count + 1);
            d.offset = d.between;
        }
        break;
    }
    return d;
}

ContentDistribution justifyContentDistribution(const ComputedStyle &container)
{
    // start/end are the writing mode's: against the main axis when it is reversed
    // (row-reverse, column-reverse). left/right are physical on a row, whose main axis
    // runs right to left when reversed (row-reverse in ltr, row in rtl); on a column
    // they act as start (CSS Box Alignment 3 §4.3).
    const bool flexReversed = container.flexDirection == FlexDirection::RowReverse
                              || container.flexDirection == FlexDirection::ColumnReverse;
    const auto startOr = [](bool end) { return end ? ContentDistribution::End : ContentDistribution::Start; };
    switch (container.justifyContent) {
    case JustifyContent::Start: return startOr(flexReversed);
    case JustifyContent::End: return startOr(!flexReversed);
    case JustifyContent::Left:
        return container.isRowDirection() ? startOr(isMainAxisReversed(container)) : startOr(flexReversed);
    case JustifyContent::Right:
        return container.isRowDirection() ? startOr(!isMainAxisReversed(container)) : startOr(flexReversed);
    default: return contentDistribution(container.justifyContent);
    }
}

ContentDistribution contentDistribution(JustifyContent value)
{
    switch (value) {
    case JustifyContent::Normal:
    case JustifyContent::Stretch:
    case JustifyContent::FlexStart:
    case JustifyContent::Start:
    case JustifyContent::Left: return ContentDistribution::Start;
    case JustifyContent::FlexEnd:
    case JustifyContent::End:
    case JustifyContent::Right: return ContentDistribution::End;
    case JustifyContent::Center: return ContentDistribution::Center;
    case JustifyContent::SpaceBetween: return ContentDistribution::SpaceBetween;
    case JustifyContent::SpaceAround: return ContentDistribution::SpaceAround;
    case JustifyContent::SpaceEvenly: return ContentDistribution::SpaceEvenly;
    }
    return ContentDistribution::Start;
}

ContentDistribution contentDistribution(AlignContent value)
{
    switch (value) {
    case AlignContent::FlexStart: return ContentDistribution::Start;
    case AlignContent::FlexEnd: return ContentDistribution::End;
    case AlignContent::Center: return ContentDistribution::Center;
    case AlignContent::SpaceBetween: return ContentDistribution::SpaceBetween;
    case AlignContent::SpaceAround: return ContentDistribution::SpaceAround;
    case AlignContent::SpaceEvenly: return ContentDistribution::SpaceEvenly;
    case AlignContent::Stretch: return ContentDistribution::Stretch;
    }
    return ContentDistribution::Start;
}

AlignItems usedAlignSelf(const ComputedStyle &container, const ComputedStyle &item)
{
    return item.alignSelf == AlignItems::Auto ? container.alignItems : item.alignSelf;
}

bool isMainAxisReversed(const ComputedStyle &container)
{
    if (container.isRowDirection()) // the inline axis: its start is the right edge in rtl
        return (container.flexDirection == FlexDirection::RowReverse) != (container.direction == Direction::Rtl);
    return container.flexDirection == FlexDirection::ColumnReverse;
}

bool isCrossAxisReversed(const ComputedStyle &container)
{
    const bool wrapReverse = container.flexWrap == FlexWrap::WrapReverse;
    if (container.isRowDirection())
        return wrapReverse;
    return wrapReverse != (container.direction == Direction::Rtl); // a column's cross axis is the inline axis
}

namespace detail {

QPointF flexStaticPosition(const ComputedStyle &container, const ComputedStyle &child, QSizeF contentSize,
                           QSizeF marginBoxSize)
{
    const bool row = container.isRowDirection();
    const bool reverse = isMainAxisReversed(container);
    const qreal mainFree
        = row ? contentSize.width() - marginBoxSize.width() : contentSize.height() - marginBoxSize.height();
    const qreal crossFree
        = row ? contentSize.height() - marginBoxSize.height() : contentSize.width() - marginBoxSize.width();
    // CSS Flexbox 1 §4.1: the static position is that of a sole flex item in the container.
    qreal main = distributeContent(justifyContentDistribution(container), mainFree, 1).offset;
    if (reverse)
        main = mainFree - main;
    qreal cross = 0;
    const AlignItems align = usedAlignSelf(container, child);
    switch (align) {
    case AlignItems::FlexEnd:
    case AlignItems::LastBaseline: cross = crossFree; break;
    case AlignItems::Center: cross = crossFree / 2; break;
    default: break;
    }
    if (isCrossAxisReversed(container))
        cross = crossFree - cross;
    return row ? QPointF(main, cross) : QPointF(cross, main);
}

} // namespace detail

} // namespace imprint::render
