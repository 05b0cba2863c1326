// JPEG and AVIF encoders (encode.h). Neither format is written by hand: JPEG goes through
// Qt's JPEG image plugin (libjpeg-turbo), AVIF through libavif.
#include "server/render/encode/encode.h"

#include <QBuffer>
#include <QImageWriter>
#include <QScopeGuard>

#include <avif/avif.h>

#include <algorithm>

namespace imprint::render {

EncodeResult encodeJpeg(const QImage &image, int quality)
{
    if (image.isNull())
        return QStringLiteral("cannot encode an empty image");
    // JPEG's limit is 65535 px a side (T.81 §B.2.2).
    if (image.width() > 65535 || image.height() > 65535)
        return QStringLiteral("JPEG images are at most 65535 px wide and high");
    QImage rgb(image.size(), QImage::Format_RGB32);
    rgb.fill(Qt::white);
    {
        QPainter p(&rgb);
        p.drawImage(0, 0, image);
    }
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, "jpeg");
    writer.setQuality(std::clamp(quality, 1, 100));
    writer.setOptimizedWrite(true); // optimal Huffman tables: smaller, same pixels
    if (!writer.write(rgb))
        return QStringLiteral("JPEG encoding failed: %1").arg(writer.errorString());
    return out;
}

EncodeResult encodeAvif(const QImage &image, int quality, int speed)
{
    if (image.isNull())
        return QStringLiteral("cannot encode an empty image");
    const bool alpha = image.hasAlphaChannel();
    // Straight (not premultiplied) RGBA bytes in memory order, which libavif reads.
    const QImage rgba = image.convertToFormat(alpha ? QImage::Format_RGBA8888 : QImage::Format_RGBX8888);

    avifImage *avif = avifImageCreate(uint32_t(rgba.width()), uint32_t(rgba.height()), 8, AVIF_PIXEL_FORMAT_YUV444);
    if (!avif)
        return QStringLiteral("AVIF encoding failed (out of memory)");
    const auto freeImage = qScopeGuard([avif] { avifImageDestroy(avif); });
    avif->yuvRange = AVIF_RANGE_FULL;
    avifRGBImage pixels;
    avifRGBImageSetDefaults(&pixels, avif);
    pixels.format = AVIF_RGB_FORMAT_RGBA;
    pixels.depth = 8;
    pixels.ignoreAlpha = alpha ? AVIF_FALSE : AVIF_TRUE;
    pixels.pixels = const_cast<uint8_t *>(rgba.constBits()); // libavif only reads it here
    pixels.rowBytes = uint32_t(rgba.bytesPerLine());
    if (const avifResult r = avifImageRGBToYUV(avif, &pixels); r != AVIF_RESULT_OK)
        return QStringLiteral("AVIF colour conversion failed: %1").arg(avifResultToString(r));

    avifEncoder *encoder = avifEncoderCreate();
    if (!encoder)
        return QStringLiteral("AVIF encoding failed (out of memory)");
    const auto freeEncoder = qScopeGuard([encoder] { avifEncoderDestroy(encoder); });
    // One thread: renders already run one per core on the worker pool.
    encoder->maxThreads = 1;
    encoder->speed = std::clamp(speed, AVIF_SPEED_SLOWEST, AVIF_SPEED_FASTEST);
    // libavif 1.0's quality → quantizer mapping, so `quality` means the same on either.
    const int quantizer = ((100 - std::clamp(quality, 1, 100)) * AVIF_QUANTIZER_WORST_QUALITY + 50) / 100;
    encoder->minQuantizer = encoder->maxQuantizer = quantizer;
    encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = quantizer;
    avifRWData output = AVIF_DATA_EMPTY;
    if (const avifResult r = avifEncoderWrite(encoder, avif, &output); r != AVIF_RESULT_OK) {
        avifRWDataFree(&output);
        return QStringLiteral("AVIF encoding failed: %1").arg(avifResultToString(r));
    }
    QByteArray out(reinterpret_cast<const char *>(output.data), qsizetype(output.size));
    avifRWDataFree(&output);
    return out;
}

} // namespace imprint::render
