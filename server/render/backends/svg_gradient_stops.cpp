// Gradient stop arithmetic for the SVG player (svg_gradient_stops.h).

#include "server/render/backends/svg_gradient_stops.h"

#include <cmath>

namespace imprint::render {

/// The colour of `stops` at `pos` (0..1), interpolated between its neighbours.
QColor gradientColorAt(const QGradientStops &stops, qreal pos)
{
    if (stops.isEmpty())
        return Qt::transparent;
    if (pos <= stops.first().first)
        return stops.first().second;
    for (qsizetype i = 1; i < stops.size(); ++i) {
        if (pos <= stops[i].first) {
            const qreal span = stops[i].first - stops[i - 1].first;
            const qreal t = span > 0 ? (pos - stops[i - 1].first) / span : 1;
            const QColor &a = stops[i - 1].second, &b = stops[i].second;
            return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                                    float(a.greenF() + (b.greenF() - a.greenF()) * t),
                                    float(a.blueF() + (b.blueF() - a.blueF()) * t),
                                    float(a.alphaF() + (b.alphaF() - a.alphaF()) * t));
        }
    }
    return stops.last().second;
}

/// A repeating radial gradient whose period starts at focal radius `fr` and ends at `r`
/// (CSS Images 3 §3.5: the line repeats from its first stop) as SVG 1.1 can write it: a
/// period of r − fr from the centre, its stops rotated by the phase fr / (r − fr).
QGradientStops rotatedRepeatStops(const QGradientStops &stops, qreal fr, qreal r)
{
    const qreal period = r - fr;
    const qreal phase = std::fmod(fr / period, 1.0);
    const qreal wrap = 1 - phase; // the original position that lands on offset 0
    QGradientStops out;
    const QColor atWrap = gradientColorAt(stops, wrap);
    out.append({0, atWrap});
    for (const auto &[pos, color] : stops)
        if (pos >= wrap)
            out.append({pos - wrap, color});
    for (const auto &[pos, color] : stops)
        if (pos <= wrap)
            out.append({pos + phase, color});
    out.append({1, atWrap});
    return out;
}


} // namespace imprint::render
