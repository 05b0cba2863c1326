#pragma once
// Internals shared by the paint_*.cpp files of the raster painter.

#include "server/render/style/computed_style.h"

#include <QBrush>
#include <QPainter>
#include <QPainterPath>
#include <QRectF>

#include <array>
#include <functional>

namespace imprint::render::paint_detail {

/// Used corner radii in px, top-left, top-right, bottom-right, bottom-left; each a
/// (horizontal, vertical) pair.
using Radii = std::array<QSizeF, 4>;

/// Resolves border-radius against a `size` px border box and scales all radii down
/// together when adjacent ones overlap (CSS Backgrounds 3 §5.5 "Overlapping Curves").
Radii resolveRadii(const ComputedStyle &style, QSizeF size);
/// Radii of a box inset by `insets` px (the padding edge inside a border, CSS
/// Backgrounds 3 §5.2: outer radius minus border width, floored at 0). Negative insets
/// grow non-zero radii (box-shadow spread, §7.1.1).
Radii insetRadii(const Radii &radii, const QMarginsF &insets);
bool isZero(const Radii &radii);
/// A closed path of `rect` with elliptical corners `radii`.
QPainterPath roundedPath(const QRectF &rect, const Radii &radii);

/// A brush painting `gradient` over the background positioning area `area` (page px):
/// linear gradients per CSS Images 3 §3.1 (angle, gradient line length
/// |w sin a| + |h cos a|), radial per §3.2 (shape, extent keywords, centre), colour stops
/// per §3.5.3 fixup. Repeating gradients repeat.
QBrush gradientBrush(const Gradient &gradient, const QRectF &area);

/// Draws what `draw` paints (page px) blurred with a Gaussian of standard deviation
/// `sigma` px: rendered at reduced resolution when sigma is large (the result is smooth
/// anyway), blurred separably, and scaled back up. `inkBounds` must contain the unblurred
/// drawing; the blurred result spreads 3 sigma beyond it.
void drawBlurred(QPainter &painter, const QRectF &inkBounds, qreal sigma,
                 const std::function<void(QPainter &)> &draw);

/// The outer and inset box shadows of a box (CSS Backgrounds 3 §7.1).
void paintOuterShadows(QPainter &painter, const ComputedStyle &style, const QRectF &borderBox,
                       const Radii &radii);
void paintInsetShadows(QPainter &painter, const ComputedStyle &style, const QRectF &paddingBox,
                       const Radii &paddingRadii);

/// A data: URL decoded to an image (null on failure) by the one image decoder and its
/// cache (resources/image_decoder.h).
QImage backgroundImage(const QString &url);

} // namespace imprint::render::paint_detail

namespace imprint::render {

/// Blurs `image` in place with a Gaussian of standard deviation `sigma` px, approximated
/// by three successive box blurs per axis (separable, cost independent of sigma).
/// `image` must be Format_ARGB32_Premultiplied.
void blurImage(QImage &image, qreal sigma);

} // namespace imprint::render
