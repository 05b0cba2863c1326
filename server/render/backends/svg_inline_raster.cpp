// An inline `<svg>` drawn on the device's pixel grid (see svg_inline_raster.h).

#include "server/render/backends/svg_inline_raster.h"

#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_sandbox.h"
#include "server/render/resources/svg_viewport.h"

namespace imprint::render {

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

bool isPlainVector(const QByteArray &source, const QRectF &box)
{
    for (const char *element : {"<clipPath", "<mask", "<filter", "<symbol", "<pattern", "<marker"})
        if (source.contains(element))
            return false;
    const auto geometry = svgRootGeometry(source);
    if (!geometry || !geometry->viewBox)
        return true;
    const QRectF drawn = svgViewBoxTransform(*geometry->viewBox, geometry->preserveAspectRatio, box)
                             .mapRect(*geometry->viewBox);
    return box.adjusted(-0.01, -0.01, 0.01, 0.01).contains(drawn);
}

} // namespace imprint::render
