// CSS Grid Layout Level 1 (https://www.w3.org/TR/css-grid-1/): the explicit grid
// (§7), the grid item placement algorithm (§8.5), the grid sizing algorithm (§11, one
// member function per numbered step in the spec's order, as the flex code does) and
// alignment (§10). Sizes are border-box sizes; offsets are logical (from the inline
// start and block start of the content box) until placeGridItems() flips columns for
// direction: rtl.

#include "server/render/layout/alignment.h"
#include "server/render/layout/layout_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace imprint::render::detail {

namespace {

constexpr qreal kInfinity = std::numeric_limits<qreal>::infinity();
constexpr qreal kEpsilon = 0.001;
/// Tracks beyond this many are not made by auto-placement or large line numbers: a
/// template cannot make layout allocate without bound (Chromium clamps similarly).
constexpr int kMaxGridLines = 1000;

enum Axis : int { ColumnAxis = 0, RowAxis = 1 };

/// Under which constraint the grid is sized (CSS Grid 1 §11.1): a definite or
/// indefinite available space, or for the container's intrinsic widths.
enum class SizingConstraint : quint8 { None, MinContent, MaxContent };

/// How an item is aligned in its grid area along one axis (CSS Box Alignment 3 §6.1).
enum class SelfAlignment : quint8 { Stretch, Start, End, Center };

struct GridItem {
    const Node *node = nullptr;
    int index = 0; // among the container's children
    BoxEdges edges;
    std::array<GridLine, 2> startLine, endLine; // per axis, from the style (auto for text)
    std::array<int, 2> start{0, 0}, end{0, 0}; // resolved lines (0-based, final grid)
    std::array<bool, 2> definite{false, false}; // position definite before auto-placement
    std::array<int, 2> span{1, 1};
    std::array<SelfAlignment, 2> alignment{SelfAlignment::Stretch, SelfAlignment::Stretch};
    std::array<bool, 2> autoMarginStart{false, false}, autoMarginEnd{false, false};
    QRectF area; // logical grid area, relative to the content box
};

struct Track {
    TrackSize function;
    qreal base = 0;
    qreal limit = 0;
    bool infinitelyGrowable = false;
    bool collapsed = false; // an empty auto-fit track (§7.2.3.2)
    qreal plannedIncrease = 0;
    qreal itemIncurred = 0;
    qreal position = 0; // start, relative to the content box, after alignment

    bool isFlexible() const { return function.max.isFlex(); }
    qreal affected(bool limitSize) const { return limitSize ? (std::isinf(limit) ? base : limit) : base; }
};

/// The explicit grid of one axis (§7.1): expanded tracks and where named lines are.
struct ExplicitAxis {
    ExpandedTracks tracks;
    int count = 0; // explicit tracks: the track list's and the template areas', whichever is more
    std::map<QString, std::vector<int>> lines; // line name → sorted explicit line indices
    int firstAutoRepeat = -1, autoRepeatCount = 0; // tracks of an auto-fit repeat
    bool autoFit = false;
};

class GridFormattingContext
{
public:
    GridFormattingContext(LayoutEngine &engine, const Node &container, const BoxEdges &edges, qreal contentWidth,
                          qreal contentHeight, qreal percentHeight, qreal minContentHeight, qreal maxContentHeight,
                          SizingConstraint constraint)
        : m_engine(engine)
        , m_container(container)
        , m_style(container.style)
        , m_grid(container.style.grid)
        , m_edges(edges)
        , m_contentWidth(contentWidth)
        , m_contentHeight(contentHeight)
        , m_percentHeight(percentHeight)
        , m_minContentHeight(minContentHeight)
        , m_maxContentHeight(maxContentHeight)
        , m_constraint(constraint)
        , m_rtl(container.style.direction == Direction::Rtl)
    { }

    FormattingResult run();
    /// The container's min-/max-content content width: the column tracks and gaps.
    qreal intrinsicContentWidth();

private:
    // 8.5 step 0: Generate anonymous grid items (each in-flow child and text run). https://www.w3.org/TR/css-grid-1/#grid-items
    void generateGridItems();
    // 7.1 The explicit grid: expand grid-template-* (auto-repeat counted per §7.2.3.2) and grid-template-areas. https://www.w3.org/TR/css-grid-1/#explicit-grids
    void resolveExplicitGrid(Axis axis);
    // 8.3 Line-based placement: resolve each item's definite lines (§8.3.1 conflict handling). https://www.w3.org/TR/css-grid-1/#line-placement
    void resolveDefinitePositions(GridItem &item, Axis axis);
    // 8.5 Grid item placement algorithm (steps 1–4, sparse and dense). https://www.w3.org/TR/css-grid-1/#auto-placement-algo
    void runPlacementAlgorithm();
    // 7.5 The implicit grid: track sizing functions for explicit and implicit tracks (§7.6). https://www.w3.org/TR/css-grid-1/#implicit-grids
    void buildTracks(Axis axis);
    // 11.3 Track sizing algorithm (steps 1–5). https://www.w3.org/TR/css-grid-1/#algo-track-sizing
    void runTrackSizingAlgorithm(Axis axis, qreal availableSpace, SizingConstraint constraint);
    // 11.4 Initialize track sizes. https://www.w3.org/TR/css-grid-1/#algo-init
    void initializeTrackSizes(Axis axis);
    // 11.5 Resolve intrinsic track sizes (steps 2–5). https://www.w3.org/TR/css-grid-1/#algo-content
    void resolveIntrinsicTrackSizes(Axis axis, SizingConstraint constraint);
    // 11.5 step 2: Size tracks to fit non-spanning items. https://www.w3.org/TR/css-grid-1/#algo-single-span-items
    void sizeTracksToFitNonSpanningItems(Axis axis, SizingConstraint constraint);
    // 11.5 step 3: Increase sizes to accommodate spanning items crossing content-sized tracks. https://www.w3.org/TR/css-grid-1/#algo-spanning-items
    void accommodateSpanningItems(Axis axis, SizingConstraint constraint);
    // 11.5 step 4: Increase sizes to accommodate spanning items crossing flexible tracks. https://www.w3.org/TR/css-grid-1/#algo-spanning-flex-items
    void accommodateItemsCrossingFlexibleTracks(Axis axis, SizingConstraint constraint);
    // 11.5.1 Distribute extra space across spanned tracks. https://www.w3.org/TR/css-grid-1/#extra-space
    enum class Contribution : quint8 { Minimum, MinContent, MaxContent };
    void distributeExtraSpace(Axis axis, const std::vector<const GridItem *> &items, bool limitSize,
                              Contribution contribution, SizingConstraint constraint, bool (*affects)(const Track &),
                              bool flexWeighted);
    // 11.6 Maximize tracks. https://www.w3.org/TR/css-grid-1/#algo-grow-tracks
    void maximizeTracks(Axis axis, qreal availableSpace, SizingConstraint constraint);
    // 11.7 Expand flexible tracks. https://www.w3.org/TR/css-grid-1/#algo-flex-tracks
    void expandFlexibleTracks(Axis axis, qreal availableSpace, SizingConstraint constraint);
    // 11.7.1 Find the size of an fr. https://www.w3.org/TR/css-grid-1/#algo-find-fr-size
    qreal findSizeOfFr(Axis axis, int first, int last, qreal spaceToFill) const;
    // 11.8 Stretch auto tracks. https://www.w3.org/TR/css-grid-1/#algo-stretch
    void stretchAutoTracks(Axis axis, qreal availableSpace);
    // 10.5 Aligning the grid: justify-content and align-content place the tracks. https://www.w3.org/TR/css-grid-1/#grid-align
    void alignTracks(Axis axis, qreal size);
    // 10.3–10.4 Row-axis and column-axis alignment of each item in its area; lays it out. https://www.w3.org/TR/css-grid-1/#row-align
    void placeGridItems(FormattingResult &result);

    // 6.6 Automatic minimum size and the min-/max-content contributions of an item. https://www.w3.org/TR/css-grid-1/#min-size-auto
    qreal contribution(const GridItem &item, Axis axis, Contribution kind, SizingConstraint constraint);
    /// Border-box width of `item` in a grid area `areaWidth` px wide (stretched, or
    /// fit-content when aligned otherwise), before auto margins.
    qreal usedWidth(const GridItem &item, qreal areaWidth);
    qreal gap(Axis axis) const { return m_gap[axis]; }
    qreal spannedGaps(Axis axis, int start, int end) const;
    qreal sumBase(Axis axis) const;
    qreal fixedBreadth(const TrackBreadth &b, Axis axis) const;
    int lineFromName(Axis axis, const QString &name, int number) const;
    SelfAlignment alignmentOf(const GridItem &item, Axis axis) const;

    LayoutEngine &m_engine;
    const Node &m_container;
    const ComputedStyle &m_style;
    const GridStyle &m_grid;
    const BoxEdges &m_edges;
    const qreal m_contentWidth; // -1 when sizing the container's intrinsic width
    const qreal m_contentHeight; // -1 when auto
    const qreal m_percentHeight;
    const qreal m_minContentHeight;
    const qreal m_maxContentHeight;
    const SizingConstraint m_constraint;
    const bool m_rtl;

    std::vector<GridItem> m_items;
    std::array<ExplicitAxis, 2> m_explicit;
    std::array<int, 2> m_offset{0, 0}; // index of the explicit grid's first line in the final grid
    std::array<int, 2> m_trackCount{0, 0};
    std::array<std::vector<Track>, 2> m_tracks;
    std::array<qreal, 2> m_gap{0, 0};
    std::array<qreal, 2> m_distributedGap{0, 0}; // extra space between tracks from content distribution
    qreal m_usedContentHeight = 0;
};

// ---------------------------------------------------------------------------------
// Placement

void GridFormattingContext::generateGridItems()
{
    for (int index = 0; index < int(m_container.children.size()); ++index) {
        const Node &child = *m_container.children[index];
        // Absolutely positioned children are placed by the caller (§9.4: static position).
        if (generatesNoBox(child) || (!child.isText() && child.style.isOutOfFlow()))
            continue;
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
    }
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
        case JustifyItems::Normal: return replaced ? SelfAlignment::Start : SelfAlignment::Stretch;
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
    case AlignItems::FlexEnd: return SelfAlignment::End;
    case AlignItems::Center: return SelfAlignment::Center;
    }
    return SelfAlignment::Stretch;
}

qreal GridFormattingContext::fixedBreadth(const TrackBreadth &b, Axis axis) const
{
    const qreal reference = axis == ColumnAxis ? m_contentWidth : m_contentHeight;
    return b.length.resolve(float(reference), 0);
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

// ---------------------------------------------------------------------------------
// Track sizing

qreal GridFormattingContext::spannedGaps(Axis axis, int start, int end) const
{
    // Gutters between the spanned tracks; those beside collapsed tracks collapse too.
    int visible = 0;
    for (int t = start; t < end; ++t)
        visible += m_tracks[axis][t].collapsed ? 0 : 1;
    return std::max(0, visible - 1) * (gap(axis) + m_distributedGap[axis]);
}

qreal GridFormattingContext::sumBase(Axis axis) const
{
    qreal sum = spannedGaps(axis, 0, int(m_tracks[axis].size()));
    for (const Track &t : m_tracks[axis])
        sum += t.base;
    return sum;
}

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
        const Contribution minimumKind = constraint == SizingConstraint::MinContent   ? Contribution::MinContent
                                         : constraint == SizingConstraint::MaxContent ? Contribution::MaxContent
                                                                                      : Contribution::Minimum;
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
    const Contribution minimumKind = constraint == SizingConstraint::MinContent   ? Contribution::MinContent
                                     : constraint == SizingConstraint::MaxContent ? Contribution::MaxContent
                                                                                  : Contribution::Minimum;
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
        qreal x = marginStart;
        if (item.autoMarginStart[ColumnAxis] && item.autoMarginEnd[ColumnAxis])
            x += std::max<qreal>(0, freeX) / 2;
        else if (item.autoMarginStart[ColumnAxis])
            x += std::max<qreal>(0, freeX);
        else if (!item.autoMarginEnd[ColumnAxis] && item.alignment[ColumnAxis] == SelfAlignment::End)
            x += freeX;
        else if (!item.autoMarginEnd[ColumnAxis] && item.alignment[ColumnAxis] == SelfAlignment::Center)
            x += freeX / 2;

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
        qreal y = e.margin.top();
        if (item.autoMarginStart[RowAxis] && item.autoMarginEnd[RowAxis])
            y += std::max<qreal>(0, freeY) / 2;
        else if (item.autoMarginStart[RowAxis])
            y += std::max<qreal>(0, freeY);
        else if (!item.autoMarginEnd[RowAxis] && item.alignment[RowAxis] == SelfAlignment::End)
            y += freeY;
        else if (!item.autoMarginEnd[RowAxis] && item.alignment[RowAxis] == SelfAlignment::Center)
            y += freeY / 2;

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

FormattingResult GridFormattingContext::run()
{
    generateGridItems();
    resolveExplicitGrid(ColumnAxis);
    resolveExplicitGrid(RowAxis);
    runPlacementAlgorithm();
    buildTracks(ColumnAxis);
    buildTracks(RowAxis);

    // §11.1 Grid sizing algorithm: 1. the columns against the content box width, whose
    // gutters and content distribution then fix each item's area width, ...
    runTrackSizingAlgorithm(ColumnAxis, m_contentWidth, SizingConstraint::None);
    alignTracks(ColumnAxis, m_contentWidth);
    for (GridItem &item : m_items) {
        const Track &first = m_tracks[ColumnAxis][item.start[ColumnAxis]];
        const Track &last = m_tracks[ColumnAxis][item.end[ColumnAxis] - 1];
        item.area.setLeft(first.position);
        item.area.setRight(std::max(first.position, last.position + last.base));
    }
    // ... 2. then the rows against the content box height (indefinite when auto).
    runTrackSizingAlgorithm(RowAxis, m_contentHeight, SizingConstraint::None);
    m_usedContentHeight
        = m_contentHeight >= 0 ? m_contentHeight : clampSize(sumBase(RowAxis), m_minContentHeight, m_maxContentHeight);
    if (m_contentHeight < 0 && m_usedContentHeight > sumBase(RowAxis) + kEpsilon)
        stretchAutoTracks(RowAxis, m_usedContentHeight);
    alignTracks(RowAxis, m_usedContentHeight);
    for (GridItem &item : m_items) {
        const Track &first = m_tracks[RowAxis][item.start[RowAxis]];
        const Track &last = m_tracks[RowAxis][item.end[RowAxis] - 1];
        item.area.setTop(first.position);
        item.area.setBottom(std::max(first.position, last.position + last.base));
    }

    FormattingResult result;
    placeGridItems(result);
    result.contentHeight = m_usedContentHeight;
    return result;
}

qreal GridFormattingContext::intrinsicContentWidth()
{
    generateGridItems();
    resolveExplicitGrid(ColumnAxis);
    resolveExplicitGrid(RowAxis);
    runPlacementAlgorithm();
    buildTracks(ColumnAxis);
    buildTracks(RowAxis);
    runTrackSizingAlgorithm(ColumnAxis, -1, m_constraint);
    return sumBase(ColumnAxis);
}

} // namespace

FormattingResult layoutGridChildren(LayoutEngine &engine, const Node &container, const BoxEdges &edges,
                                    qreal contentWidth, qreal contentHeight, qreal percentHeight,
                                    qreal minContentHeight, qreal maxContentHeight)
{
    GridFormattingContext context(engine, container, edges, contentWidth, contentHeight, percentHeight,
                                  minContentHeight, maxContentHeight, SizingConstraint::None);
    return context.run();
}

qreal gridIntrinsicContentWidth(LayoutEngine &engine, const Node &container, IntrinsicMode mode)
{
    const BoxEdges edges = LayoutEngine::resolveEdges(container.style, -1);
    GridFormattingContext context(engine, container, edges, -1, -1, -1, 0, kMaxContent,
                                  mode == IntrinsicMode::MinContent ? SizingConstraint::MinContent
                                                                    : SizingConstraint::MaxContent);
    return context.intrinsicContentWidth();
}

} // namespace imprint::render::detail
