// An inline `<svg>` drawn on the device's pixel grid (see svg_inline_raster.h).

#include "server/render/backends/svg_inline_raster.h"

#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_sandbox.h"
#include "server/render/resources/svg_viewport.h"

#include <QSet>
#include <QXmlStreamReader>

#include <cmath>

namespace imprint::render {

namespace {

/// Whether a shape, `use`, `image` or `text` below the root has a percentage coordinate
/// or size, or any element a percentage `stroke-width`: those resolve against the
/// nearest viewport (SVG 2 §8.9), which in the satori engine's document is the whole
/// image, not the icon's viewBox. (Gradients' and filters' percentages are their
/// bounding box's and stay right.)
bool hasViewportPercentages(const QByteArray &source)
{
    static const QSet<QString> placed = {
        QStringLiteral("rect"), QStringLiteral("circle"), QStringLiteral("ellipse"), QStringLiteral("line"),
        QStringLiteral("use"),  QStringLiteral("image"),  QStringLiteral("text"),    QStringLiteral("tspan"),
        QStringLiteral("svg")};
    static const QSet<QString> lengths = {
        QStringLiteral("x"),  QStringLiteral("y"),  QStringLiteral("width"), QStringLiteral("height"),
        QStringLiteral("cx"), QStringLiteral("cy"), QStringLiteral("r"),     QStringLiteral("rx"),
        QStringLiteral("ry"), QStringLiteral("x1"), QStringLiteral("y1"),    QStringLiteral("x2"),
        QStringLiteral("y2")};
    QXmlStreamReader reader(source);
    bool root = true;
    while (!reader.atEnd()) {
        if (reader.readNext() != QXmlStreamReader::StartElement)
            continue;
        const bool isPlaced = !root && placed.contains(reader.name().toString());
        root = false;
        for (const QXmlStreamAttribute &a : reader.attributes()) {
            if (!a.value().contains(u'%'))
                continue;
            const QString name = a.name().toString();
            if (name == QLatin1String("stroke-width") || (isPlaced && lengths.contains(name))
                || (name == QLatin1String("style") && a.value().contains(QLatin1String("stroke-width"))))
                return true;
        }
    }
    return false;
}

/// The whole device pixels `device` covers; nullopt when it is empty or over 4096 px a
/// side (as imageAtDeviceSize()).
std::optional<QRect> coveredPixels(const QRectF &device)
{
    constexpr int kMaxSide = 4096;
    const QRect pixels = device.toAlignedRect();
    if (device.isEmpty() || pixels.width() > kMaxSide || pixels.height() > kMaxSide)
        return std::nullopt;
    return pixels;
}

/// The inline svg `image` drawn by the sandboxed helper into a `size` px image, its
/// viewport at `target` mapped through `matrix`.
std::optional<QImage> drawnByHelper(const QImage &image, QSize size, const QRectF &target,
                                    const SvgRasterMatrix &matrix = {})
{
    SvgRasterJob job;
    job.svg = svgSource(image);
    job.mode = SvgRasterMode::Viewport;
    job.size = size;
    job.target = target;
    job.matrix = matrix;
    // Its text draws with the page's fonts, the space's uploads among them (CSS Fonts 4 §4).
    job.fonts = SvgRenderScope::inlineSvgFonts(job.svg);
    auto drawn = rasteriseUntrustedSvg(job);
    return drawn ? std::optional<QImage>(std::move(*drawn)) : std::nullopt;
}

} // namespace

QRectF inlineSvgSnappedBox(const QRectF &dest, qreal deviceScale)
{
    const auto snap = [deviceScale](qreal v) { return std::floor(v * deviceScale + 0.5) / deviceScale; };
    const QRectF snapped(QPointF(snap(dest.left()), snap(dest.top())), QPointF(snap(dest.right()), snap(dest.bottom())));
    return snapped.isEmpty() ? dest : snapped;
}

std::optional<AlignedRaster> inlineSvgOnPixelGrid(const QImage &image, const QRectF &dest, qreal deviceScale)
{
    const QRectF snapped = inlineSvgSnappedBox(dest, deviceScale);
    const QRectF device(snapped.topLeft() * deviceScale, snapped.size() * deviceScale);
    const std::optional<QRect> pixels = coveredPixels(device);
    if (!pixels)
        return std::nullopt;
    const auto drawn = drawnByHelper(image, pixels->size(), device.translated(-pixels->topLeft()));
    if (!drawn)
        return std::nullopt;
    return AlignedRaster{QRectF(QPointF(pixels->topLeft()) / deviceScale, QSizeF(pixels->size()) / deviceScale), *drawn};
}

std::optional<AlignedRaster> inlineSvgOnDevice(const QImage &image, const QRectF &box, const QTransform &toDevice)
{
    if (!toDevice.isInvertible())
        return std::nullopt;
    const QRectF dest = inlineSvgSnappedBox(box, 1); // in the transformed element's space, as Chromium snaps it there
    const std::optional<QRect> pixels = coveredPixels(toDevice.mapRect(dest));
    if (!pixels)
        return std::nullopt;
    const QTransform onImage = toDevice * QTransform::fromTranslate(-pixels->left(), -pixels->top());
    const auto drawn = onImage.type() <= QTransform::TxScale // axis-aligned: the viewport placed in image px
                           ? drawnByHelper(image, pixels->size(), onImage.mapRect(dest))
                           : drawnByHelper(image, pixels->size(), dest,
                                           {onImage.m11(), onImage.m12(), onImage.m21(), onImage.m22(), onImage.dx(),
                                            onImage.dy()});
    if (!drawn)
        return std::nullopt;
    return AlignedRaster{QRectF(*pixels), *drawn};
}

bool isPlainVector(const QByteArray &source, const QRectF &box)
{
    for (const char *element : {"<clipPath", "<mask", "<filter", "<symbol", "<pattern", "<marker"})
        if (source.contains(element))
            return false;
    if (hasViewportPercentages(source))
        return false;
    const auto geometry = svgRootGeometry(source);
    if (!geometry || !geometry->viewBox)
        return true;
    const QRectF drawn = svgViewBoxTransform(*geometry->viewBox, geometry->preserveAspectRatio, box)
                             .mapRect(*geometry->viewBox);
    return box.adjusted(-0.01, -0.01, 0.01, 0.01).contains(drawn);
}

} // namespace imprint::render
