#pragma once
// Encoders for rendered images (docs/api.md, "Formats"): PNG through libpng (container) and ISA-L
// (deflate), WebP through libwebp's advanced API, SVG through QSvgGenerator.

#include <QByteArray>
#include <QImage>
#include <QPainter>
#include <QSize>
#include <QString>

#include <functional>

namespace imprint::render {

/// PNG settings. The defaults were chosen by measurement (see encode.cpp).
struct PngOptions {
    int level = 2; ///< ISA-L deflate level, 0 (fastest) – 3 (smallest)
    bool allowPalette = true; ///< write colour type 3 when the image has ≤ 256 colours
    bool allowRgb = true; ///< drop the alpha channel when every pixel is opaque
};

/// Encodes `image` (any format; premultiplied alpha is un-premultiplied) as PNG bytes:
/// palette when ≤ 256 distinct colours, RGB when opaque, RGBA otherwise; 8 bits per
/// sample, unfiltered rows in one IDAT deflated by ISA-L (PNG spec, ISO/IEC 15948).
/// Returns empty on failure (null image, out of memory, libpng error) and sets `*error`.
QByteArray encodePng(const QImage &image, const PngOptions &options = {}, QString *error = nullptr);

/// Encodes `image` as WebP: lossy at `quality` (1–100, libwebp's scale; default 90) or
/// lossless. Returns empty on failure and sets `*error` if given. `method` is libwebp's
/// speed/size trade-off (0 fastest – 6 smallest); -1 = the default chosen by measurement.
QByteArray encodeWebp(const QImage &image, int quality = 90, bool lossless = false, QString *error = nullptr,
                      int method = -1);

/// Paints through `paint` into a QSvgGenerator of `size` px and returns the SVG document
/// (UTF-8). Text becomes outline paths; raster layers become embedded PNG images.
QByteArray encodeSvg(QSize size, const std::function<void(QPainter &)> &paint, const QString &title = QString());

} // namespace imprint::render
