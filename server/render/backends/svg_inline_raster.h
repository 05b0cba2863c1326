#pragma once
// An inline `<svg>` in the satori engine's document when this process rasterises that
// document with the SVG sandbox on (svg_sandbox.h, issue 34 item 8): the user's markup
// is drawn by the sandboxed helper, on the device's pixel grid, and embedded as pixels.

#include <QImage>
#include <QRectF>
#include <QTransform>

#include <optional>

namespace imprint::render {

/// Pixels to embed and where (user px).
struct AlignedRaster {
    QRectF rect;
    QImage image;
};

/// `image` (an inline `<svg>` element's, isInlineSvgImage()) drawn by the sandboxed helper
/// into the device pixels of `dest` (user px, no transform in force) at `deviceScale`
/// device px per user px, each of its edges rounded to a whole pixel as Chromium snaps an
/// svg root's box: embedded at the returned rect, the pixels map 1:1 onto the device's. nullopt when the helper drew nothing (its
/// warning is the element's) or the box is empty or over 4096 px a side.
std::optional<AlignedRaster> inlineSvgOnPixelGrid(const QImage &image, const QRectF &dest, qreal deviceScale);

/// `dest` (user px) with each edge rounded (half up) to a whole device pixel at
/// `deviceScale` device px per user px, as Chromium snaps an svg root's box before drawing
/// into it (SVGRootPainter::TransformToPixelSnappedBorderBox); `dest` itself when that
/// leaves nothing.
QRectF inlineSvgSnappedBox(const QRectF &dest, qreal deviceScale);

/// `image` (an inline `<svg>` element's) drawn by the sandboxed helper as vectors through
/// `toDevice` (user px → device px: a CSS rotation, scale or skew in force, the device
/// scale included) into the whole device pixels its box `dest` covers there (its edges
/// first rounded to whole user px), as Chromium draws an svg under a transform; the returned rect is in device px, to be drawn with no
/// transform. nullopt when the helper drew nothing, `toDevice` is singular or the box
/// covers nothing or over 4096 px a side.
std::optional<AlignedRaster> inlineSvgOnDevice(const QImage &image, const QRectF &dest, const QTransform &toDevice);

/// Whether the inline `<svg>` markup `source` can go into the satori engine's document as
/// vector content drawn into `box` (user px): QtSvg 6.4, which rasterises that document
/// for PNG and WebP, draws none of clipPath, mask, filter, symbol, pattern and marker, a
/// viewBox that a `slice` maps past the box would need a clip, and a percentage length on
/// a shape would resolve against the whole image; such markup is embedded drawn instead,
/// as every renderer then shows it alike.
bool isPlainVector(const QByteArray &source, const QRectF &box);

} // namespace imprint::render
