#pragma once
// How the satori engine's SVG writer (svg.cpp) spells values in SVG 1.1 attributes: short
// numbers, fractions, colours, path data and transform matrices.

#include <QPainterPath>
#include <QString>
#include <QTransform>

class QColor;

namespace imprint::render::svg_syntax {

/// `v` with at most one decimal ("12", "12.5", "-3"): 1/10 px is below what antialiasing
/// shows and keeps path data short.
QString num(qreal v);
/// `v` with up to three decimals, no trailing zeros: for a gradient's line, whose period
/// repeats a 1/10 px error once per stripe (0.7 px across fourteen 45deg stripes).
QString fineNum(qreal v);
/// A fraction (offset, opacity) clamped to 0–1 with up to four decimals, no trailing zeros.
QString frac(qreal v);
/// `#rrggbb` (the alpha goes into an opacity attribute: SVG 1.1 has no rgba()).
QString hexColor(const QColor &c);
/// ` fill="#rrggbb"`, plus fill-opacity when translucent.
QString fillAttrs(const QColor &c);
/// `path` as path data (M, L, C, Z; coordinates through num()).
QString pathData(const QPainterPath &path);
/// ` transform="matrix(a b c d e f)"` for `t`.
QString matrixAttr(const QTransform &t);

} // namespace imprint::render::svg_syntax
