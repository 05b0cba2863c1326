// CSS Grid 1 §7 and §8: the explicit grid, line-based placement and the grid item
// placement algorithm (§8.5), then the implicit grid's tracks (§7.5).

#include "server/render/layout/alignment.h"
#include "server/render/layout/grid_formatting_context.h"

#include <algorithm>

namespace imprint::render::detail::grid {

// ---------------------------------------------------------------------------------
// Placement

void GridFormattingContext::generateGridItems()
{
    // Absolutely positioned children are placed by the caller (§9.4: static position).
    forEachInFlowChild(m_container, [&](const Node &child, int index) {
        GridItem item;
        item.node = &child;
        item.index = index;
        if (!child.isText()) {
            const GridStyle &g = child.style.grid;
            item.edges = LayoutEngine::resolveEdges(child.style, m_contentWidth);
            item.startLine = {g.columnStart, g.rowStart};
            item.endLine = {g.columnEnd, g.rowEnd};
            const auto &autoMargin = item.edges.marginAuto;
            // Logical inline margins: the inline start is the right edge in rtl.
            item.autoMarginStart = {autoMargin[m_rtl ? Right : Left], autoMargin[Top]};
            item.autoMarginEnd = {autoMargin[m_rtl ? Left : Right], autoMargin[Bottom]};
        }
        item.alignment = {alignmentOf(item, ColumnAxis), alignmentOf(item, RowAxis)};
        m_items.push_back(item);
    });
    // §8.5: the placement algorithm walks the items in order-modified document order.
    std::stable_sort(m_items.begin(), m_items.end(),
                     [](const GridItem &a, const GridItem &b) { return orderOf(*a.node) < orderOf(*b.node); });
    m_gap[ColumnAxis] = m_style.columnGap.resolve(float(m_contentWidth), 0);
    m_gap[RowAxis] = m_style.rowGap.resolve(float(m_percentHeight), 0);
}

SelfAlignment GridFormattingContext::alignmentOf(const GridItem &item, Axis axis) const
{
    const bool replaced = item.node->isImage() || (!item.node->isText() && item.node->style.aspectRatio > 0);
    if (axis == ColumnAxis) {
        JustifyItems j = item.node->isText() ? JustifyItems::Auto : item.node->style.grid.justifySelf;
        if (j == JustifyItems::Auto)
            j = m_grid.justifyItems;
        switch (j) {
        case JustifyItems::Auto:
        // §6.6: `normal` sizes a box with an aspect ratio as a block is sized, which fills
        // the inline axis; only a replaced element (an image) keeps its natural width.
        case JustifyItems::Normal: return item.node->isImage() ? SelfAlignment::Start : SelfAlignment::Stretch;
        case JustifyItems::Stretch: return SelfAlignment::Stretch;
        case JustifyItems::Start:
        case JustifyItems::Baseline: return SelfAlignment::Start;
        case JustifyItems::End: return SelfAlignment::End;
        case JustifyItems::Center: return SelfAlignment::Center;
        // left/right are physical (CSS Box Alignment 3 §6.1): the inline start is the right in rtl.
        case JustifyItems::Left: return m_rtl ? SelfAlignment::End : SelfAlignment::Start;
        case JustifyItems::Right: return m_rtl ? SelfAlignment::Start : SelfAlignment::End;
        }
        return SelfAlignment::Stretch;
    }
    const AlignItems a = item.node->isText() ? m_style.alignItems : usedAlignSelf(m_style, item.node->style);
    switch (a) {
    // `normal` (parsed as stretch) acts as start for boxes with an aspect ratio (§6.6).
    case AlignItems::Auto:
    case AlignItems::Stretch: return replaced ? SelfAlignment::Start : SelfAlignment::Stretch;
    case AlignItems::FlexStart:
    case AlignItems::Baseline: return SelfAlignment::Start;
    case AlignItems::FlexEnd:
    // Last-baseline alignment's fallback is (safe) end (CSS Box Alignment 3 §9.3); a grid
    // row's shared last baselines are not computed.
    case AlignItems::LastBaseline: return SelfAlignment::End;
    case AlignItems::Center: return SelfAlignment::Center;
    }
    return SelfAlignment::Stretch;
}

void GridFormattingContext::resolveExplicitGrid(Axis axis)
{
    ExplicitAxis &ex = m_explicit[axis];
    const GridTrackList &list = axis == ColumnAxis ? m_grid.templateColumns : m_grid.templateRows;
    int repetitions = 1;
    if (list.autoRepeat != GridTrackList::AutoRepeat::None) {
        // §7.2.3.2: as many repetitions as fit the definite size (or max size) of the
        // content box, at least one; each track counted at its fixed max (else min) size.
        qreal available = axis == ColumnAxis ? m_contentWidth : m_contentHeight;
        if (axis == RowAxis && available < 0 && std::isfinite(m_maxContentHeight))
            available = m_maxContentHeight;
        if (available >= 0) {
            const auto trackSize = [this, axis](const TrackSize &s) {
                const qreal max = s.max.isFixed() ? fixedBreadth(s.max, axis) : -1;
                const qreal min = s.min.isFixed() ? fixedBreadth(s.min, axis) : -1;
                return max >= 0 ? std::max(max, min) : std::max<qreal>(min, 0);
            };
            qreal fixed = 0;
            for (const TrackSize &s : list.sizes)
                fixed += trackSize(s);
            qreal repeat = 0;
            for (const TrackSize &s : list.repeatSizes)
                repeat += trackSize(s);
            const qreal g = axis == ColumnAxis ? m_style.columnGap.resolve(float(m_contentWidth), 0)
                                               : m_style.rowGap.resolve(float(m_percentHeight), 0);
            const int others = int(list.sizes.size());
            const qreal unit = repeat + g * qreal(list.repeatSizes.size());
            if (unit > 0) {
                const qreal room = available - fixed - g * others + g;
                repetitions = int(std::clamp<qreal>(std::floor(room / unit + kEpsilon), 1,
                                                    qreal(kMaxGridLines) / qreal(list.repeatSizes.size())));
            }
        }
    }
    ex.tracks = expandTrackList(list, repetitions);
    if (list.autoRepeat == GridTrackList::AutoRepeat::Fit) {
        ex.autoFit = true;
        ex.firstAutoRepeat = list.repeatAt;
        ex.autoRepeatCount = repetitions * int(list.repeatSizes.size());
    }
    const GridTemplateAreas &areas = m_grid.templateAreas;
    ex.count = std::max<int>(int(ex.tracks.sizes.size()), axis == ColumnAxis ? areas.columns : areas.rows);
    for (int line = 0; line < int(ex.tracks.names.size()); ++line) {
        for (const QString &name : ex.tracks.names[line])
            ex.lines[name].push_back(line);
    }
    // §7.3.2: each named area gives its edges the implicit names NAME-start and NAME-end.
    for (const GridNamedArea &a : areas.areas) {
        ex.lines[a.name + QStringLiteral("-start")].push_back(axis == ColumnAxis ? a.columnStart : a.rowStart);
        ex.lines[a.name + QStringLiteral("-end")].push_back(axis == ColumnAxis ? a.columnEnd : a.rowEnd);
    }
    for (auto &[name, lines] : ex.lines) {
        std::sort(lines.begin(), lines.end());
        lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    }
}

int GridFormattingContext::lineFromName(Axis axis, const QString &name, int number) const
{
    // §8.3: the Nth line of that name; when there are fewer, every implicit line is
    // assumed to have the name (so the count continues past the explicit grid).
    const ExplicitAxis &ex = m_explicit[axis];
    const auto it = ex.lines.find(name);
    const int count = it == ex.lines.end() ? 0 : int(it->second.size());
    if (number > 0)
        return number <= count ? it->second[number - 1] : ex.count + (number - count);
    return -number <= count ? it->second[count + number] : -(-number - count);
}

void GridFormattingContext::resolveDefinitePositions(GridItem &item, Axis axis)
{
    const ExplicitAxis &ex = m_explicit[axis];
    const auto resolve = [&](const GridLine &line, bool isEnd) -> std::optional<int> {
        if (line.type != GridLine::Type::Line)
            return std::nullopt;
        if (line.name.isEmpty())
            return line.number > 0 ? line.number - 1 : ex.count + 1 + line.number;
        if (line.number == 0) {
            // A name alone: the area's NAME-start / NAME-end line, else the first NAME line.
            const auto it = ex.lines.find(line.name + (isEnd ? QStringLiteral("-end") : QStringLiteral("-start")));
            if (it != ex.lines.end())
                return it->second.front();
            return lineFromName(axis, line.name, 1);
        }
        return lineFromName(axis, line.name, line.number);
    };
    const GridLine &startLine = item.startLine[axis], &endLine = item.endLine[axis];
    std::optional<int> start = resolve(startLine, false), end = resolve(endLine, true);
    const auto namedSpan = [&](int from, const GridLine &span, int direction) {
        // Count `span.number` lines named span.name from `from` in `direction`.
        const auto it = ex.lines.find(span.name);
        int found = 0, line = from;
        if (it != ex.lines.end()) {
            if (direction > 0) {
                for (int l : it->second)
                    if (l > from && ++found == span.number)
                        return l;
            } else {
                for (auto r = it->second.rbegin(); r != it->second.rend(); ++r)
                    if (*r < from && ++found == span.number)
                        return *r;
            }
        }
        // Not enough: implicit lines beyond the explicit grid count as named.
        line = direction > 0 ? std::max(from, ex.count) : std::min(from, 0);
        return line + direction * (span.number - found);
    };
    if (start && end) {
        if (*start > *end)
            std::swap(start, end);
        if (*start == *end)
            end = *start + 1;
    } else if (start) {
        if (endLine.isSpan())
            end = endLine.name.isEmpty() ? *start + endLine.number : namedSpan(*start, endLine, 1);
        else
            end = *start + 1;
    } else if (end) {
        if (startLine.isSpan())
            start = startLine.name.isEmpty() ? *end - startLine.number : namedSpan(*end, startLine, -1);
        else
            start = *end - 1;
    }
    if (start && end) {
        item.definite[axis] = true;
        item.start[axis] = std::clamp(*start, -kMaxGridLines, kMaxGridLines);
        item.end[axis] = std::clamp(*end, item.start[axis] + 1, kMaxGridLines + 1);
        item.span[axis] = item.end[axis] - item.start[axis];
        return;
    }
    // An automatic position: the span of a `span N` (a named span counts as one, §8.3.1).
    item.definite[axis] = false;
    const GridLine &span = startLine.isSpan() ? startLine : endLine;
    item.span[axis] = span.isSpan() && span.name.isEmpty() ? std::min(span.number, kMaxGridLines) : 1;
}

void GridFormattingContext::runPlacementAlgorithm()
{
    for (GridItem &item : m_items) {
        resolveDefinitePositions(item, ColumnAxis);
        resolveDefinitePositions(item, RowAxis);
    }
    // Lines before the explicit grid (negative indices) add implicit tracks at the start.
    for (int axis : {ColumnAxis, RowAxis}) {
        int minLine = 0;
        for (const GridItem &item : m_items)
            if (item.definite[axis])
                minLine = std::min(minLine, item.start[axis]);
        m_offset[axis] = -minLine;
        for (GridItem &item : m_items) {
            if (item.definite[axis]) {
                item.start[axis] -= minLine;
                item.end[axis] -= minLine;
            }
        }
    }
    // "major" is the axis auto-placement advances through (rows for grid-auto-flow: row),
    // "minor" the one it fills first.
    const int major = m_grid.autoFlowColumn ? ColumnAxis : RowAxis;
    const int minor = 1 - major;
    const bool dense = m_grid.autoFlowDense;

    std::vector<std::vector<char>> occupied; // [major][minor]
    const auto isFree = [&occupied](int ma, int mi, int maSpan, int miSpan) {
        for (int a = ma; a < ma + maSpan; ++a) {
            if (a >= int(occupied.size()))
                break;
            for (int b = mi; b < mi + miSpan && b < int(occupied[a].size()); ++b)
                if (occupied[a][b])
                    return false;
        }
        return true;
    };
    const auto occupy = [&occupied](const GridItem &item, int ma, int mi) {
        if (int(occupied.size()) < item.end[ma])
            occupied.resize(item.end[ma]);
        for (int a = item.start[ma]; a < item.end[ma]; ++a) {
            if (int(occupied[a].size()) < item.end[mi])
                occupied[a].resize(item.end[mi], 0);
            for (int b = item.start[mi]; b < item.end[mi]; ++b)
                occupied[a][b] = 1;
        }
    };
    const auto place = [](GridItem &item, int axis, int start) {
        item.start[axis] = start;
        item.end[axis] = start + item.span[axis];
    };

    // 1. Position anything that is not auto-positioned.
    for (const GridItem &item : m_items)
        if (item.definite[ColumnAxis] && item.definite[RowAxis])
            occupy(item, major, minor);

    // 3 (done first, as the other steps need it). The minor axis of the implicit grid: the
    // explicit tracks, the definite minor positions, and the widest automatic span.
    int minorCount = m_offset[minor] + m_explicit[minor].count;
    for (const GridItem &item : m_items)
        minorCount = std::max(minorCount, item.definite[minor] ? item.end[minor] : item.span[minor]);
    minorCount = std::min(minorCount, kMaxGridLines);

    // 2. Process the items locked to a given major track (row for row flow).
    std::map<int, int> cursorInMajor; // sparse: past the items this step put in that track
    for (GridItem &item : m_items) {
        if (!item.definite[major] || item.definite[minor])
            continue;
        int mi = dense ? 0 : cursorInMajor[item.start[major]];
        while (!isFree(item.start[major], mi, item.span[major], item.span[minor]) && mi < kMaxGridLines)
            ++mi;
        place(item, minor, mi);
        minorCount = std::max(minorCount, std::min(item.end[minor], kMaxGridLines));
        cursorInMajor[item.start[major]] = item.end[minor];
        occupy(item, major, minor);
    }

    // 4. Position the remaining grid items with the auto-placement cursor.
    int cursorMajor = 0, cursorMinor = 0;
    for (GridItem &item : m_items) {
        if (item.definite[major])
            continue;
        if (item.definite[minor]) {
            // A definite minor position: advance along the major axis until it fits.
            if (dense) {
                cursorMajor = 0;
            } else if (item.start[minor] < cursorMinor) {
                ++cursorMajor;
            }
            cursorMinor = item.start[minor];
            while (!isFree(cursorMajor, cursorMinor, item.span[major], item.span[minor]) && cursorMajor < kMaxGridLines)
                ++cursorMajor;
        } else {
            if (dense)
                cursorMajor = cursorMinor = 0;
            const int span = std::min(item.span[minor], minorCount);
            while (cursorMajor < kMaxGridLines) {
                while (cursorMinor + span <= minorCount
                       && !isFree(cursorMajor, cursorMinor, item.span[major], item.span[minor]))
                    ++cursorMinor;
                if (cursorMinor + span <= minorCount)
                    break;
                ++cursorMajor;
                cursorMinor = 0;
            }
            place(item, minor, cursorMinor);
        }
        place(item, major, cursorMajor);
        occupy(item, major, minor);
    }

    for (int axis : {ColumnAxis, RowAxis}) {
        int count = m_offset[axis] + m_explicit[axis].count;
        for (const GridItem &item : m_items)
            count = std::max(count, item.end[axis]);
        // Every item's lines are within the grid (they are clamped to ±kMaxGridLines and
        // auto-placement stops there, so this stays a few thousand at most).
        m_trackCount[axis] = count;
    }
}

void GridFormattingContext::buildTracks(Axis axis)
{
    const ExplicitAxis &ex = m_explicit[axis];
    const std::vector<TrackSize> &implicitSizes = axis == ColumnAxis ? m_grid.autoColumns : m_grid.autoRows;
    const int n = std::max<int>(1, int(implicitSizes.size()));
    const int listed = int(ex.tracks.sizes.size());
    std::vector<Track> &tracks = m_tracks[axis];
    tracks.assign(m_trackCount[axis], Track{});
    for (int t = 0; t < m_trackCount[axis]; ++t) {
        const int explicitIndex = t - m_offset[axis];
        Track &track = tracks[t];
        if (explicitIndex >= 0 && explicitIndex < listed) {
            track.function = ex.tracks.sizes[explicitIndex];
        } else if (explicitIndex >= listed) {
            // §7.6: implicit tracks after the explicit ones cycle through grid-auto-*
            // from its first size, those before it backwards from its last.
            track.function = implicitSizes[(explicitIndex - listed) % n];
        } else {
            track.function = implicitSizes[((explicitIndex % n) + n) % n];
        }
        // A percentage of an indefinite size acts as auto (§7.2.1).
        const qreal reference = axis == ColumnAxis ? m_contentWidth : m_contentHeight;
        for (TrackBreadth *b : {&track.function.min, &track.function.max}) {
            if (b->isFixed() && b->length.isPercent() && reference < 0)
                *b = TrackBreadth{};
            if (b->type == TrackBreadth::Type::FitContent && b->length.isPercent() && reference < 0)
                b->type = TrackBreadth::Type::MaxContent;
        }
    }
    // §7.2.3.2: with auto-fit, the repeated tracks no item occupies collapse.
    if (ex.autoFit) {
        for (int i = 0; i < ex.autoRepeatCount; ++i) {
            const int t = m_offset[axis] + ex.firstAutoRepeat + i;
            if (t >= int(tracks.size()))
                break;
            const bool used = std::any_of(m_items.begin(), m_items.end(), [&](const GridItem &item) {
                return item.start[axis] <= t && t < item.end[axis];
            });
            if (!used) {
                tracks[t].collapsed = true;
                tracks[t].function = TrackSize{TrackBreadth{TrackBreadth::Type::Fixed, Length::px(0), 0},
                                               TrackBreadth{TrackBreadth::Type::Fixed, Length::px(0), 0}};
            }
        }
    }
}

} // namespace imprint::render::detail::grid
