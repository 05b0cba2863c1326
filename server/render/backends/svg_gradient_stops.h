#pragma once
// Gradient stops rewritten for what SVG 1.1 can express (the satori engine, svg.cpp).

#include <QGradient>

namespace imprint::render {

/// The colour of `stops` (positions 0..1, ascending) at `pos`, interpolated per component
/// between its neighbours; the first or last stop's colour outside them.
QColor gradientColorAt(const QGradientStops &stops, qreal pos);

/// A repeating radial gradient whose period starts at focal radius `fr` and ends at `r`
/// (CSS Images 3 §3.5: the line repeats from its first stop) as SVG 1.1 can write it: a
/// period of r − fr from the centre, its stops rotated by the phase fr / (r − fr).
/// Returns stops for a radialGradient of radius r − fr with spreadMethod="repeat".
QGradientStops rotatedRepeatStops(const QGradientStops &stops, qreal fr, qreal r);

} // namespace imprint::render
