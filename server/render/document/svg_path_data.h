#pragma once
// SVG path data (SVG 2 §9.3, https://www.w3.org/TR/SVG2/paths.html#PathData) read into a
// QPainterPath, for what the writer of an inline <svg> must lay out itself: the path a
// <textPath> follows (svg_text_path.h), which librsvg 2.54 does not draw.

#include <QPainterPath>
#include <QStringView>

#include <functional>
#include <optional>

namespace imprint::render {

/// The path `d` describes, in user units: moveto, lineto (and its horizontal and vertical
/// forms), cubic and quadratic Béziers (with their smooth forms), elliptical arcs (as
/// cubic Béziers, SVG 2 Appendix B.2.4, radii scaled up when too small) and closepath, in
/// absolute and relative forms, with implicit repeats and the compact number forms
/// ("M0-.5.5", arc flags without separators). As SVG 2 §9.5.4 says, the path is drawn up
/// to the first error; nullopt when nothing before it was a path (empty, or not starting
/// with a moveto).
std::optional<QPainterPath> parseSvgPathData(QStringView d);

/// `path` written as SVG path data (absolute M, L and C commands, numbers in the shortest
/// form that reads back the same), a closed subpath of `closeSubpaths` ending in Z.
QString svgPathData(const QPainterPath &path, bool closeSubpaths = false);

/// The outline of a `polyline` or `polygon` (its `points`, SVG 2 §10.6: pairs of numbers,
/// an odd last one dropped), a `line` (x1, y1, x2, y2 from `attribute`) or a `path` (its
/// `d`), in user units; nullopt for another element or geometry that does not read.
std::optional<QPainterPath> svgShapeOutline(const QString &type, const std::function<QString(const char *)> &attribute);

} // namespace imprint::render
