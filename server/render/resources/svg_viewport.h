#pragma once
// How an SVG document's root `viewBox` maps onto the box it is drawn in (SVG 2 §8.2,
// "The viewBox attribute", and §8.3 `preserveAspectRatio`), for the inline `<svg>`
// elements of a template: the raster engine draws them with QtSvg at device size, the
// satori engine writes their content into its own SVG output as a transformed group.

#include <QByteArray>
#include <QRectF>
#include <QString>
#include <QTransform>

#include <optional>

namespace imprint::render {

/// The root `<svg>` element's geometry attributes as written.
struct SvgRootGeometry {
    std::optional<QRectF> viewBox; ///< user units; nullopt when absent or invalid (w or h ≤ 0)
    QString preserveAspectRatio; ///< as written, `xMidYMid meet` when absent
    QString width, height; ///< the root's `width` / `height` attributes, trimmed; empty when absent

    /// Whether both `width` and `height` are given as absolute lengths: a missing or
    /// percentage size leaves the image without natural dimensions (CSS Images 3 §4.1).
    bool hasAbsoluteSize() const
    {
        return !width.isEmpty() && !height.isEmpty() && !width.endsWith(u'%') && !height.endsWith(u'%');
    }
};

/// A `viewBox` attribute's value: four numbers separated by whitespace and/or commas,
/// width and height > 0 (SVG 2 §8.2; anything else disables the viewBox: nullopt).
std::optional<QRectF> parseSvgViewBox(QStringView text);

/// Reads the root element of `svg` (UTF-8 XML); nullopt when it has none.
std::optional<SvgRootGeometry> svgRootGeometry(const QByteArray &svg);

/// The transform from user units to `viewport` (px) for `viewBox` under
/// `preserveAspectRatio` (SVG 2 §8.2's algorithm: `none` stretches, `meet` fits the
/// whole viewBox, `slice` covers the viewport, aligned by xMin/xMid/xMax and
/// yMin/yMid/yMax). An empty viewBox or viewport gives the identity moved to the
/// viewport's corner.
QTransform svgViewBoxTransform(const QRectF &viewBox, const QString &preserveAspectRatio, const QRectF &viewport);

/// The rectangle of user space that `viewport` shows: the viewBox a stretching renderer
/// (QSvgRenderer::setViewBox) has to use so that it draws what `preserveAspectRatio`
/// would, including the user space outside the viewBox that a `meet` leaves visible.
QRectF svgVisibleViewBox(const SvgRootGeometry &geometry, const QSizeF &viewport);

/// The content of the sanitised document `svg` as one SVG `<g>` element drawn into
/// `viewport` (px of the output document): the root's presentation attributes (fill,
/// stroke, stroke-width, color, …) move to the group, its children follow unchanged,
/// and the viewBox mapping becomes the group's transform. Empty when `svg` has no root.
QString svgAsGroup(const QByteArray &svg, const QRectF &viewport);

} // namespace imprint::render
