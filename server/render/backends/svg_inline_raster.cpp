// An inline `<svg>` drawn on the device's pixel grid (see svg_inline_raster.h).

#include "server/render/backends/svg_inline_raster.h"

#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_sandbox.h"
#include "server/render/resources/svg_viewport.h"

#include <QSet>
#include <QXmlStreamReader>

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

} // namespace

std::optional<AlignedRaster> inlineSvgOnPixelGrid(const QImage &image, const QRectF &dest, qreal deviceScale)
{
    constexpr int kMaxSide = 4096; // as imageAtDeviceSize()
    const QRectF device(dest.topLeft() * deviceScale, dest.size() * deviceScale);
    const QRect pixels = device.toAlignedRect();
    if (device.isEmpty() || pixels.width() > kMaxSide || pixels.height() > kMaxSide)
        return std::nullopt;
    SvgRasterJob job;
    job.svg = svgSource(image);
    job.mode = SvgRasterMode::Viewport;
    job.size = pixels.size();
    job.target = device.translated(-pixels.topLeft());
    const auto drawn = rasteriseUntrustedSvg(job);
    if (!drawn)
        return std::nullopt;
    return AlignedRaster{QRectF(QPointF(pixels.topLeft()) / deviceScale, QSizeF(pixels.size()) / deviceScale), *drawn};
}

std::optional<AlignedRaster> inlineSvgOnDevice(const QImage &image, const QRectF &dest, const QTransform &toDevice)
{
    constexpr int kMaxSide = 4096; // as imageAtDeviceSize()
    if (!toDevice.isInvertible())
        return std::nullopt;
    const QRectF device = toDevice.mapRect(dest);
    const QRect pixels = device.toAlignedRect();
    if (device.isEmpty() || pixels.width() > kMaxSide || pixels.height() > kMaxSide)
        return std::nullopt;
    SvgRasterJob job;
    job.svg = svgSource(image);
    job.mode = SvgRasterMode::Viewport;
    job.size = pixels.size();
    const QTransform onImage = toDevice * QTransform::fromTranslate(-pixels.left(), -pixels.top());
    if (onImage.type() <= QTransform::TxScale) {
        job.target = onImage.mapRect(dest); // axis-aligned: the viewport placed in image px
    } else {
        job.target = dest;
        job.matrix = {onImage.m11(), onImage.m12(), onImage.m21(), onImage.m22(), onImage.dx(), onImage.dy()};
    }
    const auto drawn = rasteriseUntrustedSvg(job);
    if (!drawn)
        return std::nullopt;
    return AlignedRaster{QRectF(pixels), *drawn};
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
