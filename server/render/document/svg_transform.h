#pragma once
// CSS `transform` and `transform-origin` on the content of an inline <svg>, written as the
// SVG `transform` attribute librsvg reads (CSS Transforms 1 §7, §8; SVG 2 §8.5). React
// progress rings turn their arc with `style={{transform: 'rotate(-90deg)',
// transformOrigin: 'center'}}`; librsvg 2.54 applies the CSS transform but not its
// origin, so the arc turned about the viewBox's corner, out of the icon, and vanished.

#include <QRectF>
#include <QString>

#include <optional>

namespace imprint::render {

/// The SVG `transform` attribute value that draws an element as Chromium does, or nullopt
/// when the element needs none rewritten (no CSS transform and no origin) or the transform
/// cannot be written in 2D (a 3D function, a value that does not parse: then it is left
/// as written).
///
/// - `cssTransform`: the element's `transform` from its style (CSS syntax: `rotate(-90deg)`);
///   empty when it has none. It wins over the attribute.
/// - `attributeTransform`: its `transform` attribute (SVG syntax: `rotate(-90 60 60)`).
/// - `origin`: its `transform-origin` (style, else attribute), a CSS position (keywords,
///   lengths, percentages, an optional z ignored); empty: `0 0`.
/// - `referenceBox`: the box the origin's and translations' percentages refer to (its
///   transform-box: the viewBox of its viewport by default, its shape's bounds for
///   `fill-box`), user units.
/// - `fontSize`: px for em lengths.
///
/// The answer is `matrix(a b c d e f)` for a CSS transform, else the attribute between a
/// translation to the origin and back.
std::optional<QString> svgTransformAttribute(const QString &cssTransform, const QString &attributeTransform,
                                             const QString &origin, const QRectF &referenceBox, float fontSize);

} // namespace imprint::render
