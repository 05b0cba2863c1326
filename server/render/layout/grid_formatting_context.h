#pragma once
// Internal to the layout module: the CSS Grid Layout Level 1 formatting context
// (https://www.w3.org/TR/css-grid-1/), one member function per spec step, its
// definitions in spec order over three files: grid_placement.cpp (§7 the explicit and
// implicit grid, §8 placement), grid_track_sizing.cpp (§11 the grid sizing algorithm)
// and grid_formatting_context.cpp (§10 alignment, then the whole run). Sizes are
// border-box sizes; offsets are logical (from the inline start and block start of the
// content box) until placeGridItems() flips columns for direction: rtl.

#include "server/render/layout/layout_internal.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

namespace imprint::render::detail::grid {

inline constexpr qreal kInfinity = std::numeric_limits<qreal>::infinity();
inline constexpr qreal kEpsilon = 0.001;
/// Tracks beyond this many are not made by auto-placement or large line numbers: a
/// template cannot make layout allocate without bound (Chromium clamps similarly).
inline constexpr int kMaxGridLines = 1000;

/// The two axes of the grid, used as an index into the per-axis arrays.
enum Axis : int { ColumnAxis = 0, RowAxis = 1 };

/// Under which constraint the grid is sized (CSS Grid 1 §11.1): a definite or
/// indefinite available space, or for the container's intrinsic widths.
enum class SizingConstraint : quint8 { None, MinContent, MaxContent };

/// How an item is aligned in its grid area along one axis (CSS Box Alignment 3 §6.1).
enum class SelfAlignment : quint8 { Stretch, Start, End, Center };

/// One grid item (§6): a child box or text run, its lines and area.
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

/// One grid track during sizing (§11.4): base size, growth limit, position.
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

/// The grid formatting context of one container, for one layout or one intrinsic width.
class GridFormattingContext : ContainerFormattingContext
{
public:
    GridFormattingContext(LayoutEngine &engine, const Node &container, const BoxEdges &edges, const ContentBox &box,
                          SizingConstraint constraint)
        : ContainerFormattingContext(engine, container, edges, box)
        , m_grid(container.style.grid)
        , m_constraint(constraint)
        , m_rtl(container.style.direction == Direction::Rtl)
    { }

    /// Lays the grid out: placement, track sizing in both axes, alignment; returns the
    /// items' boxes and the used content height.
    FormattingResult run();
    /// The container's min-/max-content content width: the column tracks and gaps.
    qreal intrinsicContentWidth();

private:
    // §7–§8: the items, the explicit grid, placement and the implicit grid's tracks (both axes). https://www.w3.org/TR/css-grid-1/#layout-algorithm
    void buildGrid();
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
    /// What sizes intrinsic minimums under `constraint` (11.5 step 3's first substep and step
    /// 4): the min-/max-content contribution under such a constraint, else the minimum one.
    static Contribution minimumContribution(SizingConstraint constraint);
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
    /// The gutters between tracks `start` to `end`; those beside collapsed tracks collapse too.
    qreal spannedGaps(Axis axis, int start, int end) const
    {
        int visible = 0;
        for (int t = start; t < end; ++t)
            visible += m_tracks[axis][t].collapsed ? 0 : 1;
        return std::max(0, visible - 1) * (gap(axis) + m_distributedGap[axis]);
    }
    /// The tracks' base sizes and the gutters between them.
    qreal sumBase(Axis axis) const
    {
        qreal sum = spannedGaps(axis, 0, int(m_tracks[axis].size()));
        for (const Track &t : m_tracks[axis])
            sum += t.base;
        return sum;
    }
    /// A fixed breadth in px, a percentage of the content box (§7.2.1).
    qreal fixedBreadth(const TrackBreadth &b, Axis axis) const
    {
        const qreal reference = axis == ColumnAxis ? m_contentWidth : m_contentHeight;
        return b.length.resolve(float(reference), 0);
    }
    int lineFromName(Axis axis, const QString &name, int number) const;
    SelfAlignment alignmentOf(const GridItem &item, Axis axis) const;

    const GridStyle &m_grid;
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

} // namespace imprint::render::detail::grid
