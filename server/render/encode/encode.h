#pragma once
// Encoders for rendered images (docs/api.md, "Formats"): PNG through libpng (container) and ISA-L
// (deflate), WebP through libwebp's advanced API, JPEG through Qt's JPEG plugin (libjpeg-turbo),
// AVIF through libavif (AV1 by libaom, rav1e or SVT-AV1, whichever Debian's libavif chose),
// SVG through QSvgGenerator.

#include "server/common/expected.h"
#include "server/common/render_enums.h"

#include <QByteArray>
#include <QImage>
#include <QPainter>
#include <QSize>
#include <QString>

#include <functional>
#include <optional>

namespace imprint::render {

/// PngCompression, the PNG size/speed tiers a render asks for, is defined with its name
/// table in server/common/render_enums.h; the encoder below is what each tier means.

/// The lowest libimagequant quality (0–100, its PSNR-based scale) at which Small keeps
/// a quantised palette; below it the image is written losslessly.
constexpr int kSmallPngMinQuality = 90;

/// The tier named `name` in kPngCompressionNames (any case); nullopt otherwise.
std::optional<PngCompression> parsePngCompression(const QString &name);
/// The wire name of `compression` (kPngCompressionNames).
QString pngCompressionName(PngCompression compression);

/// An encoder's answer: the encoded bytes, or one sentence saying why there are none.
using EncodeResult = common::Expected<QByteArray, QString>;

/// PNG settings. The defaults were chosen by measurement (see encode.cpp).
struct PngOptions {
    PngCompression compression = PngCompression::Default;
    bool allowPalette = true; ///< write colour type 3 when the image has ≤ 256 colours
    bool allowRgb = true; ///< drop the alpha channel when every pixel is opaque
};

/// Encodes `image` (any format; premultiplied alpha is un-premultiplied) as PNG bytes,
/// after PngCompression::Default's rare-colour snap: palette when ≤ 256 distinct colours (or, with PngCompression::Small, when
/// libimagequant finds a palette of good quality), RGB when opaque, RGBA otherwise;
/// 8 bits per sample, unfiltered rows in one IDAT (PNG spec, ISO/IEC 15948).
/// The error on failure (null image, out of memory, libpng error).
EncodeResult encodePng(const QImage &image, const PngOptions &options = {});

/// Encodes `image` as WebP: lossy at `quality` (1–100, libwebp's scale; default 90) or
/// lossless; the error on failure. `method` is libwebp's speed/size trade-off (0 fastest –
/// 6 smallest); -1 = the default chosen by measurement.
EncodeResult encodeWebp(const QImage &image, int quality = 90, bool lossless = false, int method = -1);

/// Encodes `image` as baseline JPEG (ITU-T T.81, JFIF) at `quality` (1–100, libjpeg's
/// scale) through Qt's JPEG image plugin. JPEG has no alpha: translucent pixels are
/// composited over white first, as a page behind the image would most often be.
/// The error on failure (null image, no JPEG plugin).
EncodeResult encodeJpeg(const QImage &image, int quality = 90);

/// The AVIF encoder speed used when a request gives none: 0 slowest/smallest – 10
/// fastest. 8: a 1200×630 card took 0.1–0.2 s on one core with Debian 12's libavif
/// (libaom), against seconds at the slow end, which a render deadline would not allow.
constexpr int kDefaultAvifSpeed = 8;

/// Encodes `image` as a still AVIF (AV1 Image File Format 1.0) with libavif: 8-bit YUV
/// 4:4:4 (text edges keep their colour), the alpha channel as an auxiliary image when the
/// image has one, `quality` 1–100 mapped linearly onto AV1's quantizer 63–0 (as libavif
/// 1.0's own quality setting does), `speed` 0–10 (AVIF_SPEED_*). The error on failure.
EncodeResult encodeAvif(const QImage &image, int quality = 90, int speed = kDefaultAvifSpeed);

/// Paints through `paint` into a QSvgGenerator of `size` px and returns the SVG document
/// (UTF-8). Text becomes outline paths; raster layers become embedded PNG images.
QByteArray encodeSvg(QSize size, const std::function<void(QPainter &)> &paint, const QString &title = QString());

} // namespace imprint::render
