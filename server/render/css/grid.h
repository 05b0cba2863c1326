#pragma once
// CSS Grid Layout 1 computed values (https://www.w3.org/TR/css-grid-1/) and their
// parsers: track lists with line names, repeat() and auto-repeat (§7.2), implicit track
// sizes (§7.6), grid-template-areas (§7.3), line-based placement (§8.3) and
// grid-auto-flow (§7.7). Layout (layout/grid_formatting_context.cpp) resolves them.

#include "server/render/css/values.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace imprint::render {

/// One side of a track sizing function (CSS Grid 1 §7.2.1): a fixed <length-percentage>
/// (in `length`), a flexible `fr` (in `flex`), auto, min-content, max-content, or the
/// fit-content(<length-percentage>) limit (in `length`).
struct TrackBreadth {
    enum class Type : quint8 { Fixed, Flex, Auto, MinContent, MaxContent, FitContent };
    Type type = Type::Auto;
    Length length = Length::px(0);
    float flex = 0;

    bool isFixed() const { return type == Type::Fixed; }
    bool isFlex() const { return type == Type::Flex; }
    bool isIntrinsic() const
    {
        return type == Type::Auto || type == Type::MinContent || type == Type::MaxContent || type == Type::FitContent;
    }
    friend bool operator==(const TrackBreadth &, const TrackBreadth &) = default;
};

/// A track sizing function as its min and max track sizing functions (CSS Grid 1 §7.2.1:
/// `1fr` is minmax(auto, 1fr), `fit-content(l)` is minmax(auto, fit-content(l)), any other
/// single breadth is used for both).
struct TrackSize {
    TrackBreadth min, max;
    friend bool operator==(const TrackSize &, const TrackSize &) = default;
};

/// grid-template-columns / grid-template-rows (CSS Grid 1 §7.2): the explicit tracks
/// with fixed repeat() already expanded, the line names around them, and at most one
/// auto-repeat (`repeat(auto-fill | auto-fit, …)`), which only layout can count.
struct GridTrackList {
    enum class AutoRepeat : quint8 { None, Fill, Fit };
    std::vector<TrackSize> sizes; ///< tracks outside the auto-repeat
    std::vector<QStringList> names; ///< sizes.size() + 1 line name sets (empty list when `none`)
    AutoRepeat autoRepeat = AutoRepeat::None;
    int repeatAt = 0; ///< the auto-repeat's tracks come before sizes[repeatAt]
    std::vector<TrackSize> repeatSizes;
    std::vector<QStringList> repeatNames; ///< repeatSizes.size() + 1
    QStringList afterRepeatNames; ///< the names of the line right after the auto-repeat

    bool isNone() const { return sizes.empty() && autoRepeat == AutoRepeat::None; }
    friend bool operator==(const GridTrackList &, const GridTrackList &) = default;
};

/// A track list with its auto-repeat expanded: `sizes` and their `names` (one set per
/// line, sizes.size() + 1), the line names where repeated names meet merged.
struct ExpandedTracks {
    std::vector<TrackSize> sizes;
    std::vector<QStringList> names;
};

/// `list` with its auto-repeat (if any) repeated `repetitions` times (≥ 1), CSS Grid 1 §7.2.3.2.
ExpandedTracks expandTrackList(const GridTrackList &list, int repetitions);

/// One named area of grid-template-areas, as 0-based line indices of the explicit grid.
struct GridNamedArea {
    QString name;
    int columnStart = 0, columnEnd = 0, rowStart = 0, rowEnd = 0;
    friend bool operator==(const GridNamedArea &, const GridNamedArea &) = default;
};

/// grid-template-areas (CSS Grid 1 §7.3): the size of the grid it implies and its areas.
struct GridTemplateAreas {
    int rows = 0, columns = 0;
    std::vector<GridNamedArea> areas;
    friend bool operator==(const GridTemplateAreas &, const GridTemplateAreas &) = default;
};

/// One of grid-row-start, -row-end, -column-start, -column-end (CSS Grid 1 §8.3):
/// auto, a line (`<integer>`, nonzero, negative counting from the end, optionally a
/// line name; or a name alone), or `span` a number of lines or named lines.
struct GridLine {
    enum class Type : quint8 { Auto, Line, Span };
    Type type = Type::Auto;
    int number = 0; ///< Line: the integer (0 when only a name was given); Span: ≥ 1
    QString name;

    bool isAuto() const { return type == Type::Auto; }
    bool isSpan() const { return type == Type::Span; }
    friend bool operator==(const GridLine &, const GridLine &) = default;
};

/// justify-items / justify-self / align keywords on the inline axis of a grid (CSS Box
/// Alignment 3 §6.1): left and right are physical; `Legacy` is justify-items' initial
/// value, which acts as normal (stretch) here.
enum class JustifyItems : quint8 { Auto, Normal, Stretch, Start, End, Center, Left, Right, Baseline };

/// The grid properties of an element (not inherited).
struct GridStyle {
    GridTrackList templateColumns, templateRows;
    GridTemplateAreas templateAreas;
    std::vector<TrackSize> autoColumns{TrackSize{}}, autoRows{TrackSize{}}; ///< never empty
    bool autoFlowColumn = false; ///< grid-auto-flow: column (row otherwise)
    bool autoFlowDense = false;
    GridLine rowStart, rowEnd, columnStart, columnEnd;
    JustifyItems justifyItems = JustifyItems::Normal;
    JustifyItems justifySelf = JustifyItems::Auto;
    friend bool operator==(const GridStyle &, const GridStyle &) = default;
};

namespace css {

/// A <track-list> or <auto-track-list> (CSS Grid 1 §7.2), or `none`. `[a b]` line names,
/// px/em/rem/%, `fr`, auto, min-content, max-content, minmax(), fit-content() and
/// repeat(<integer> | auto-fill | auto-fit, …). The reason when invalid.
Parsed<GridTrackList> gridTrackList(const QString &text, float fontSize, float rootFontSize);

/// A <track-size>+ list for grid-auto-rows / grid-auto-columns (CSS Grid 1 §7.6); the
/// reason when invalid.
Parsed<std::vector<TrackSize>> gridTrackSizes(const QString &text, float fontSize, float rootFontSize);

/// grid-template-areas (CSS Grid 1 §7.3): `none` or one quoted string per row; every
/// row the same number of cells, every named area a rectangle. The reason when invalid.
Parsed<GridTemplateAreas> gridTemplateAreas(const QString &text);

/// One <grid-line> (CSS Grid 1 §8.3). nullopt if invalid.
std::optional<GridLine> gridLine(const QString &text);

} // namespace css

} // namespace imprint::render
