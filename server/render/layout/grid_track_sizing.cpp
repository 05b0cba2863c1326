// CSS Grid 1 §11: the grid sizing algorithm, one member function per numbered step
// (§11.3 track sizing, §11.4–§11.8), with the items' contributions (§6.6).

#include "server/render/layout/alignment.h"
#include "server/render/layout/grid_formatting_context.h"

namespace imprint::render::detail::grid {

// ---------------------------------------------------------------------------------
// Track sizing

qreal GridFormattingContext::usedWidth(const GridItem &item, qreal areaWidth)
{
    const Node &node = *item.node;
    if (node.isText()) {
        if (item.alignment[ColumnAxis] == SelfAlignment::Stretch)
            return std::max<qreal>(0, areaWidth);
        return std::min(m_engine.intrinsicWidth(node, IntrinsicMode::MaxContent),
                        std::max(m_engine.intrinsicWidth(node, IntrinsicMode::MinContent), areaWidth));
    }
    const BoxEdges &e = item.edges;
    const qreal available = areaWidth - e.marginWidth();
    const LayoutEngine::WidthConstraints c = m_engine.widthConstraints(node, e, areaWidth, available);
    if (c.width)
        return clampSize(*c.width, c.min, c.max);
    if (node.isImage()) {
        const QSizeF size = m_engine.replacedSize(node, e, -1, -1, areaWidth, -1);
        if (item.alignment[ColumnAxis] != SelfAlignment::Stretch)
            return size.width();
    }
    const bool autoMargins = item.autoMarginStart[ColumnAxis] || item.autoMarginEnd[ColumnAxis];
    if (item.alignment[ColumnAxis] == SelfAlignment::Stretch && !autoMargins)
        return clampSize(available, c.min, c.max);
    // §6.2 (CSS Box Alignment 3 §6.1): a box not stretched is fit-content sized.
    const qreal fit = std::min(m_engine.contentIntrinsicWidth(node, IntrinsicMode::MaxContent),
                               std::max(m_engine.contentIntrinsicWidth(node, IntrinsicMode::MinContent), available));
    return clampSize(fit, c.min, c.max);
}

qreal GridFormattingContext::contribution(const GridItem &item, Axis axis, Contribution kind,
                                          SizingConstraint constraint)
{
    const Node &node = *item.node;
    const BoxEdges &e = item.edges;
    const std::vector<Track> &tracks = m_tracks[axis];
    if (kind == Contribution::Minimum && !node.isText()) {
        // §6.6: the outer size the item's minimum size gives it; an auto minimum is the
        // content-based minimum when it spans an auto-min track and is not a scroll container.
        const ComputedStyle &s = node.style;
        const Length &minSize = axis == ColumnAxis ? s.minWidth : s.minHeight;
        const qreal margins = axis == ColumnAxis ? e.marginWidth() : e.marginHeight();
        if (!minSize.isAuto()) {
            if (axis == ColumnAxis) {
                const auto c = m_engine.widthConstraints(node, e, -1,
                                                         constraint == SizingConstraint::MinContent ? 0 : kMaxContent);
                return c.min + margins;
            }
            if (minSize.isIntrinsic())
                return contribution(item, axis, Contribution::MinContent, constraint);
            return LayoutEngine::minHeight(s, e, -1) + margins;
        }
        bool spansAutoMin = false, allFixedMax = true;
        qreal fixedMaxSum = spannedGaps(axis, item.start[axis], item.end[axis]);
        for (int t = item.start[axis]; t < item.end[axis]; ++t) {
            spansAutoMin |= tracks[t].function.min.type == TrackBreadth::Type::Auto;
            allFixedMax &= tracks[t].function.max.isFixed();
            if (tracks[t].function.max.isFixed())
                fixedMaxSum += fixedBreadth(tracks[t].function.max, axis);
        }
        // Spanning several tracks, one of them flexible, gives no content-based minimum.
        bool spansFlexible = false;
        for (int t = item.start[axis]; t < item.end[axis]; ++t)
            spansFlexible |= tracks[t].isFlexible();
        if (!spansAutoMin || s.overflow != Overflow::Visible || (spansFlexible && item.span[axis] > 1))
            return (axis == ColumnAxis ? e.paddingBorderWidth() : e.paddingBorderHeight()) + margins;
        qreal content = contribution(item, axis, Contribution::MinContent, constraint);
        // §6.6: clamped by the fixed max sizes of the tracks it spans, when all are fixed.
        if (allFixedMax)
            content = std::min(
                content, std::max(fixedMaxSum,
                                  (axis == ColumnAxis ? e.paddingBorderWidth() : e.paddingBorderHeight()) + margins));
        return content;
    }
    if (axis == ColumnAxis) {
        const IntrinsicMode mode
            = kind == Contribution::MaxContent ? IntrinsicMode::MaxContent : IntrinsicMode::MinContent;
        return m_engine.intrinsicWidth(node, mode) + (node.isText() ? 0 : e.marginWidth());
    }
    // Rows: the item's height at the width its (already sized) columns give it.
    const qreal areaWidth = m_tracks[ColumnAxis].empty() ? 0 : item.area.width();
    LayoutRequest request;
    request.width = usedWidth(item, areaWidth);
    request.cbWidth = areaWidth;
    request.cbHeight = -1;
    const LayoutBox box = m_engine.layout(node, request);
    return box.borderBox.height() + (node.isText() ? 0 : e.marginHeight());
}

void GridFormattingContext::runTrackSizingAlgorithm(Axis axis, qreal availableSpace, SizingConstraint constraint)
{
    initializeTrackSizes(axis);
    resolveIntrinsicTrackSizes(axis, constraint);
    maximizeTracks(axis, availableSpace, constraint);
    expandFlexibleTracks(axis, availableSpace, constraint);
    stretchAutoTracks(axis, availableSpace);
}

void GridFormattingContext::initializeTrackSizes(Axis axis)
{
    for (Track &t : m_tracks[axis]) {
        // Base size: a fixed min is resolved, an intrinsic one starts at zero.
        t.base = t.function.min.isFixed() ? fixedBreadth(t.function.min, axis) : 0;
        // Growth limit: a fixed max is resolved, intrinsic and flexible ones are infinite.
        t.limit = t.function.max.isFixed() ? fixedBreadth(t.function.max, axis) : kInfinity;
        t.limit = std::max(t.limit, t.base);
        t.infinitelyGrowable = false;
    }
}

void GridFormattingContext::resolveIntrinsicTrackSizes(Axis axis, SizingConstraint constraint)
{
    // Step 1 (shim baseline-aligned items) does nothing: baseline self-alignment acts as start here.
    sizeTracksToFitNonSpanningItems(axis, constraint);
    accommodateSpanningItems(axis, constraint);
    accommodateItemsCrossingFlexibleTracks(axis, constraint);
    // Step 5: a growth limit still infinite becomes the base size.
    for (Track &t : m_tracks[axis])
        if (std::isinf(t.limit))
            t.limit = t.base;
}

void GridFormattingContext::sizeTracksToFitNonSpanningItems(Axis axis, SizingConstraint constraint)
{
    std::vector<Track> &tracks = m_tracks[axis];
    std::vector<qreal> maxLimit(tracks.size(), -1);
    for (const GridItem &item : m_items) {
        if (item.span[axis] != 1)
            continue;
        Track &t = tracks[item.start[axis]];
        if (t.isFlexible() || t.collapsed)
            continue; // flexible tracks take their items in step 4
        switch (t.function.min.type) {
        case TrackBreadth::Type::MinContent:
            t.base = std::max(t.base, contribution(item, axis, Contribution::MinContent, constraint));
            break;
        case TrackBreadth::Type::MaxContent:
            t.base = std::max(t.base, contribution(item, axis, Contribution::MaxContent, constraint));
            break;
        case TrackBreadth::Type::Auto: {
            // Under a min-/max-content constraint the limited content contribution, else
            // the minimum contribution (§11.5 step 2).
            Contribution kind = constraint == SizingConstraint::MinContent   ? Contribution::MinContent
                                : constraint == SizingConstraint::MaxContent ? Contribution::MaxContent
                                                                             : Contribution::Minimum;
            qreal c = contribution(item, axis, kind, constraint);
            if (kind != Contribution::Minimum && t.function.max.isFixed())
                c = std::min(c, std::max(fixedBreadth(t.function.max, axis), t.base));
            t.base = std::max(t.base, c);
            break;
        }
        default: break;
        }
        const std::size_t i = std::size_t(item.start[axis]);
        switch (t.function.max.type) {
        case TrackBreadth::Type::MinContent:
            maxLimit[i] = std::max(maxLimit[i], contribution(item, axis, Contribution::MinContent, constraint));
            break;
        case TrackBreadth::Type::MaxContent:
        case TrackBreadth::Type::Auto:
            maxLimit[i] = std::max(maxLimit[i], contribution(item, axis, Contribution::MaxContent, constraint));
            break;
        case TrackBreadth::Type::FitContent:
            maxLimit[i] = std::max(maxLimit[i], std::min(contribution(item, axis, Contribution::MaxContent, constraint),
                                                         fixedBreadth(t.function.max, axis)));
            break;
        default: break;
        }
    }
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        if (maxLimit[i] >= 0)
            tracks[i].limit = maxLimit[i];
        if (tracks[i].limit < tracks[i].base)
            tracks[i].limit = tracks[i].base;
    }
}

namespace {
bool hasIntrinsicMin(const Track &t)
{
    return t.function.min.isIntrinsic();
}
bool hasContentMin(const Track &t)
{
    return t.function.min.type == TrackBreadth::Type::MinContent
           || t.function.min.type == TrackBreadth::Type::MaxContent;
}
bool hasMaxContentMin(const Track &t)
{
    return t.function.min.type == TrackBreadth::Type::MaxContent;
}
bool hasAutoOrMaxContentMin(const Track &t)
{
    return t.function.min.type == TrackBreadth::Type::MaxContent || t.function.min.type == TrackBreadth::Type::Auto;
}
bool hasIntrinsicMax(const Track &t)
{
    return t.function.max.isIntrinsic();
}
bool hasMaxContentMax(const Track &t)
{
    const auto type = t.function.max.type;
    return type == TrackBreadth::Type::MaxContent || type == TrackBreadth::Type::Auto
           || type == TrackBreadth::Type::FitContent;
}
bool isFlexibleTrack(const Track &t)
{
    return t.isFlexible();
}
} // namespace

GridFormattingContext::Contribution GridFormattingContext::minimumContribution(SizingConstraint constraint)
{
    return constraint == SizingConstraint::MinContent   ? Contribution::MinContent
           : constraint == SizingConstraint::MaxContent ? Contribution::MaxContent
                                                        : Contribution::Minimum;
}

void GridFormattingContext::accommodateSpanningItems(Axis axis, SizingConstraint constraint)
{
    int maxSpan = 1;
    for (const GridItem &item : m_items)
        maxSpan = std::max(maxSpan, item.span[axis]);
    for (int span = 2; span <= maxSpan; ++span) {
        std::vector<const GridItem *> group;
        for (const GridItem &item : m_items) {
            if (item.span[axis] != span)
                continue;
            bool crossesFlexible = false;
            for (int t = item.start[axis]; t < item.end[axis]; ++t)
                crossesFlexible |= m_tracks[axis][t].isFlexible();
            if (!crossesFlexible)
                group.push_back(&item);
        }
        if (group.empty())
            continue;
        // 1. Intrinsic minimums, 2. content-based minimums, 3. max-content minimums.
        const Contribution minimumKind = minimumContribution(constraint);
        distributeExtraSpace(axis, group, false, minimumKind, constraint, hasIntrinsicMin, false);
        distributeExtraSpace(axis, group, false, Contribution::MinContent, constraint, hasContentMin, false);
        distributeExtraSpace(axis, group, false, Contribution::MaxContent, constraint,
                             constraint == SizingConstraint::MaxContent ? hasAutoOrMaxContentMin : hasMaxContentMin,
                             false);
        // 4. A growth limit below its base size grows to it.
        for (Track &t : m_tracks[axis])
            if (t.limit < t.base)
                t.limit = t.base;
        // 5. Intrinsic maximums, 6. max-content maximums.
        distributeExtraSpace(axis, group, true, Contribution::MinContent, constraint, hasIntrinsicMax, false);
        distributeExtraSpace(axis, group, true, Contribution::MaxContent, constraint, hasMaxContentMax, false);
    }
}

void GridFormattingContext::accommodateItemsCrossingFlexibleTracks(Axis axis, SizingConstraint constraint)
{
    std::vector<const GridItem *> group;
    for (const GridItem &item : m_items) {
        for (int t = item.start[axis]; t < item.end[axis]; ++t) {
            if (m_tracks[axis][t].isFlexible()) {
                group.push_back(&item);
                break;
            }
        }
    }
    if (group.empty())
        return;
    // Only the flexible tracks grow, in proportion to their flex factors; their growth
    // limits are infinite, so only the base sizes (steps 3.1–3.3) matter.
    const Contribution minimumKind = minimumContribution(constraint);
    distributeExtraSpace(axis, group, false, minimumKind, constraint, isFlexibleTrack, true);
}

void GridFormattingContext::distributeExtraSpace(Axis axis, const std::vector<const GridItem *> &items, bool limitSize,
                                                 Contribution kind, SizingConstraint constraint,
                                                 bool (*affects)(const Track &), bool flexWeighted)
{
    std::vector<Track> &tracks = m_tracks[axis];
    for (Track &t : tracks)
        t.plannedIncrease = 0;
    bool any = false;
    for (const GridItem *item : items) {
        std::vector<Track *> affected;
        qreal used = spannedGaps(axis, item->start[axis], item->end[axis]);
        for (int i = item->start[axis]; i < item->end[axis]; ++i) {
            Track &t = tracks[i];
            used += t.affected(limitSize);
            t.itemIncurred = 0;
            const bool flexOnly = flexWeighted ? t.isFlexible() : !t.isFlexible();
            if (affects(t) && flexOnly && !t.collapsed)
                affected.push_back(&t);
        }
        if (affected.empty())
            continue;
        // 1. The space to distribute: the contribution minus the spanned tracks' sizes.
        qreal space = contribution(*item, axis, kind, constraint) - used;
        if (space <= 0)
            continue;
        any = true;
        if (flexWeighted) {
            // §11.5 step 4: in proportion to the flex factors (equally when they sum to 0).
            qreal factors = 0;
            for (const Track *t : affected)
                factors += t->function.max.flex;
            for (Track *t : affected)
                t->itemIncurred = factors > 0 ? space * t->function.max.flex / factors : space / qreal(affected.size());
        } else {
            // 2. Distribute space up to limits: equally, each track frozen at its limit.
            std::vector<Track *> unfrozen = affected;
            while (space > kEpsilon && !unfrozen.empty()) {
                const qreal share = space / qreal(unfrozen.size());
                std::vector<Track *> next;
                for (Track *t : unfrozen) {
                    const qreal limit = limitSize ? (t->infinitelyGrowable ? kInfinity : t->limit) : t->limit;
                    const qreal room = std::isinf(limit) ? kInfinity : limit - t->affected(limitSize) - t->itemIncurred;
                    const qreal add = std::min(share, std::max<qreal>(0, room));
                    t->itemIncurred += add;
                    space -= add;
                    if (add >= share - kEpsilon && add < room)
                        next.push_back(t);
                }
                if (next.size() == unfrozen.size())
                    break;
                unfrozen.swap(next);
            }
            // 3. Distribute space beyond limits: to the tracks whose max is intrinsic
            // (max-content for max-content contributions), else to all affected tracks.
            if (space > kEpsilon) {
                std::vector<Track *> beyond;
                for (Track *t : affected) {
                    if (limitSize || (kind == Contribution::MaxContent ? hasMaxContentMax(*t) : hasIntrinsicMax(*t)))
                        beyond.push_back(t);
                }
                if (beyond.empty())
                    beyond = affected;
                for (Track *t : beyond)
                    t->itemIncurred += space / qreal(beyond.size());
            }
        }
        // 4. The planned increase is the largest any item incurs.
        for (Track *t : affected)
            t->plannedIncrease = std::max(t->plannedIncrease, t->itemIncurred);
    }
    if (!any)
        return;
    // 5. Update the affected sizes (an infinite growth limit starts from the base size).
    for (Track &t : tracks) {
        if (t.plannedIncrease <= 0)
            continue;
        if (!limitSize) {
            t.base += t.plannedIncrease;
        } else {
            if (std::isinf(t.limit)) {
                t.limit = t.base + t.plannedIncrease;
                // Marked for the max-content maximums step (§11.5 step 3.5).
                if (affects == hasIntrinsicMax)
                    t.infinitelyGrowable = true;
            } else {
                t.limit += t.plannedIncrease;
            }
        }
    }
}

void GridFormattingContext::maximizeTracks(Axis axis, qreal availableSpace, SizingConstraint constraint)
{
    std::vector<Track> &tracks = m_tracks[axis];
    if (constraint == SizingConstraint::MinContent)
        return;
    // Under a max-content constraint (and for an auto-height grid's rows) the free space
    // is infinite: every track reaches its growth limit.
    if (constraint == SizingConstraint::MaxContent || availableSpace < 0) {
        for (Track &t : tracks)
            t.base = std::max(t.base, t.limit);
        return;
    }
    qreal free = availableSpace - sumBase(axis);
    std::vector<Track *> unfrozen;
    for (Track &t : tracks)
        if (t.limit > t.base)
            unfrozen.push_back(&t);
    while (free > kEpsilon && !unfrozen.empty()) {
        const qreal share = free / qreal(unfrozen.size());
        std::vector<Track *> next;
        for (Track *t : unfrozen) {
            const qreal add = std::min(share, t->limit - t->base);
            t->base += add;
            free -= add;
            if (t->limit - t->base > kEpsilon)
                next.push_back(t);
        }
        unfrozen.swap(next);
    }
}

qreal GridFormattingContext::findSizeOfFr(Axis axis, int first, int last, qreal spaceToFill) const
{
    const std::vector<Track> &tracks = m_tracks[axis];
    std::vector<bool> inflexible(tracks.size(), false);
    for (;;) {
        // 1–2. Leftover space: the space to fill minus the inflexible tracks' base sizes.
        qreal leftover = spaceToFill - spannedGaps(axis, first, last);
        qreal factors = 0;
        for (int t = first; t < last; ++t) {
            if (tracks[t].isFlexible() && !inflexible[t])
                factors += tracks[t].function.max.flex;
            else
                leftover -= tracks[t].base;
        }
        // 3–4. The hypothetical fr size, with a flex factor sum of at least one.
        const qreal fr = leftover / std::max<qreal>(1, factors);
        // 5. A flexible track whose base size exceeds its share is treated as inflexible.
        bool restart = false;
        for (int t = first; t < last; ++t) {
            if (tracks[t].isFlexible() && !inflexible[t]
                && tracks[t].base > fr * tracks[t].function.max.flex + kEpsilon) {
                inflexible[t] = true;
                restart = true;
            }
        }
        if (!restart)
            return fr;
    }
}

void GridFormattingContext::expandFlexibleTracks(Axis axis, qreal availableSpace, SizingConstraint constraint)
{
    std::vector<Track> &tracks = m_tracks[axis];
    if (std::none_of(tracks.begin(), tracks.end(), [](const Track &t) { return t.isFlexible(); }))
        return;
    const int count = int(tracks.size());
    qreal fr = 0;
    if (constraint == SizingConstraint::MinContent) {
        fr = 0; // under a min-content constraint the flex fraction is zero
    } else if (availableSpace >= 0 && constraint == SizingConstraint::None) {
        fr = std::max<qreal>(0, findSizeOfFr(axis, 0, count, availableSpace));
    } else {
        // Indefinite free space: the largest of each flexible track's base size per fr
        // and of each item's max-content contribution per fr across its tracks.
        for (const Track &t : tracks) {
            if (t.isFlexible())
                fr = std::max(fr, t.function.max.flex > 1 ? t.base / t.function.max.flex : t.base);
        }
        for (const GridItem &item : m_items) {
            bool crosses = false;
            for (int t = item.start[axis]; t < item.end[axis]; ++t)
                crosses |= tracks[t].isFlexible();
            if (crosses) {
                const qreal c = contribution(item, axis, Contribution::MaxContent, constraint);
                fr = std::max(fr, findSizeOfFr(axis, item.start[axis], item.end[axis], c));
            }
        }
        // A grid that would then be smaller than its min-height or larger than its
        // max-height is sized against that size instead.
        if (axis == RowAxis && constraint == SizingConstraint::None) {
            qreal total = spannedGaps(axis, 0, count);
            for (const Track &t : tracks)
                total += t.isFlexible() ? std::max(t.base, fr * t.function.max.flex) : t.base;
            if (total < m_minContentHeight)
                fr = std::max<qreal>(0, findSizeOfFr(axis, 0, count, m_minContentHeight));
            else if (total > m_maxContentHeight)
                fr = std::max<qreal>(0, findSizeOfFr(axis, 0, count, m_maxContentHeight));
        }
    }
    for (Track &t : tracks) {
        if (t.isFlexible())
            t.base = std::max(t.base, fr * t.function.max.flex);
    }
}

void GridFormattingContext::stretchAutoTracks(Axis axis, qreal availableSpace)
{
    // Only when the content distribution is normal or stretch.
    if (axis == ColumnAxis) {
        if (m_style.justifyContent != JustifyContent::Normal && m_style.justifyContent != JustifyContent::Stretch)
            return;
    } else if (m_style.alignContent != AlignContent::Stretch) {
        return;
    }
    // An indefinite space uses the container's min size (§11.8).
    if (availableSpace < 0)
        availableSpace = axis == RowAxis && m_constraint == SizingConstraint::None ? m_minContentHeight : -1;
    if (availableSpace < 0)
        return;
    const qreal free = availableSpace - sumBase(axis);
    if (free <= kEpsilon)
        return;
    std::vector<Track *> autoTracks;
    for (Track &t : m_tracks[axis])
        if (t.function.max.type == TrackBreadth::Type::Auto && !t.collapsed)
            autoTracks.push_back(&t);
    for (Track *t : autoTracks)
        t->base += free / qreal(autoTracks.size());
}

} // namespace imprint::render::detail::grid
