// The one image decoder (see image_decoder.h).

#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_sandbox.h"
#include "server/render/resources/svg_viewport.h"

#include <QBuffer>
#include <QImageReader>

#include <utility>

#include <webp/decode.h>

namespace imprint::render {

namespace {

/// Why an image of `size` px is refused under `limits`; nullopt when it is allowed.
std::optional<QString> sizeRefusal(QSize size, const ImageDecodeLimits &limits)
{
    return imageSizeRefusal(size, limits.maxSide, limits.maxPixels);
}

ImageResult decodeWebp(const QByteArray &bytes, const ImageDecodeLimits &limits)
{
    const auto *data = reinterpret_cast<const uint8_t *>(bytes.constData());
    int width = 0, height = 0;
    if (!WebPGetInfo(data, size_t(bytes.size()), &width, &height))
        return QStringLiteral("cannot decode image: not a valid WebP file");
    if (auto refused = sizeRefusal(QSize(width, height), limits))
        return *refused;
    QImage image(width, height, QImage::Format_ARGB32);
    // libwebp writes B, G, R, A bytes: QImage's ARGB32 on a little-endian machine.
    if (!WebPDecodeBGRAInto(data, size_t(bytes.size()), image.bits(), size_t(image.sizeInBytes()),
                            int(image.bytesPerLine())))
        return QStringLiteral("cannot decode image: the WebP data is damaged");
    // In place (an rvalue converts without a copy): the budget counts one image, not two.
    return std::move(image).convertToFormat(QImage::Format_ARGB32_Premultiplied);
}

/// The QImage text key under which decodeSvg() keeps the sanitised source.
const QString kSvgSourceKey = QStringLiteral("imprint-svg-source");
/// Set (to "0") when the SVG's root has no absolute width and height.
const QString kSvgNoNaturalSizeKey = QStringLiteral("imprint-svg-natural-size");

/// Set on an inline `<svg>` element's image: it is drawn into its box as the root's
/// preserveAspectRatio says (the box is its viewport), not stretched as an `img` is.
const QString kSvgViewportKey = QStringLiteral("imprint-svg-viewport");

/// The job of drawing sanitised `svg` under `limits` (svg_raster.h).
SvgRasterJob svgJob(const QByteArray &svg, SvgRasterMode mode, const ImageDecodeLimits &limits, QSize size = {})
{
    SvgRasterJob job;
    job.svg = svg;
    job.mode = mode;
    job.size = size;
    job.maxSide = limits.maxSide;
    job.maxPixels = limits.maxPixels;
    return job;
}

ImageResult decodeSvg(const QByteArray &bytes, const ImageDecodeLimits &limits, bool viewport = false)
{
    const auto clean = sanitizeSvg(bytes, limits.svg);
    if (!clean)
        return QStringLiteral("SVG image refused: %1").arg(clean.error());
    // Drawn out of process (svg_sandbox.h): QtSvg cannot be stopped once it draws.
    SvgRasterJob job = svgJob(*clean, viewport ? SvgRasterMode::NaturalViewport : SvgRasterMode::Natural, limits);
    if (viewport) // an inline svg's text draws with the page's fonts, the space's uploads among them
        job.fonts = SvgRenderScope::inlineSvgFonts(job.svg);
    const auto drawn = rasteriseUntrustedSvg(job);
    if (!drawn)
        return drawn.error();
    QImage image = *drawn;
    const std::optional<SvgRootGeometry> geometry = svgRootGeometry(*clean);
    image.setText(kSvgSourceKey, QString::fromUtf8(*clean));
    if (!geometry || !geometry->hasAbsoluteSize())
        image.setText(kSvgNoNaturalSizeKey, QStringLiteral("0"));
    if (viewport)
        image.setText(kSvgViewportKey, QStringLiteral("1"));
    return image;
}

ImageResult decodeRaster(const QByteArray &bytes, const char *format, const ImageDecodeLimits &limits)
{
    QByteArray copy = bytes;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, format);
    reader.setAutoDetectImageFormat(false); // the sniffed format only: never the SVG plugin
    reader.setDecideFormatFromContent(false);
    const QSize size = reader.size();
    if (size.isValid())
        if (auto refused = sizeRefusal(size, limits))
            return *refused;
    QImage image = reader.read();
    if (image.isNull())
        return QStringLiteral("cannot decode image: %1").arg(reader.errorString());
    if (auto refused = sizeRefusal(image.size(), limits))
        return *refused;
    // Premultiplied ARGB is what QPainter draws from without a conversion per paint; in
    // place where the depth allows (RGB32, ARGB32: PNG, JPEG), so the peak is one image.
    return std::move(image).convertToFormat(QImage::Format_ARGB32_Premultiplied);
}

/// Where the payload of an RFC 2397 `data:[<mediatype>][;base64],<data>` URL starts and
/// whether it is base64; nullopt when `url` is not a data: URL with a comma.
struct DataUrlHeader {
    qsizetype payloadStart = 0;
    bool base64 = false;
};

std::optional<DataUrlHeader> dataUrlHeader(const QString &url)
{
    if (!url.startsWith(QLatin1String("data:"), Qt::CaseInsensitive))
        return std::nullopt;
    const qsizetype comma = url.indexOf(QLatin1Char(','));
    if (comma < 0)
        return std::nullopt;
    const QStringList meta = url.mid(5, comma - 5).split(QLatin1Char(';'));
    return DataUrlHeader{comma + 1, meta.contains(QLatin1String("base64"), Qt::CaseInsensitive)};
}

} // namespace

ImageFormat sniffImageFormat(const QByteArray &bytes)
{
    if (bytes.startsWith("\x89PNG\r\n\x1a\n"))
        return ImageFormat::Png;
    if (bytes.startsWith("\xFF\xD8\xFF"))
        return ImageFormat::Jpeg;
    if (bytes.startsWith("GIF87a") || bytes.startsWith("GIF89a"))
        return ImageFormat::Gif;
    if (bytes.size() >= 12 && bytes.startsWith("RIFF") && bytes.mid(8, 4) == "WEBP")
        return ImageFormat::Webp;
    if (looksLikeSvg(bytes))
        return ImageFormat::Svg;
    return ImageFormat::Unknown;
}

std::optional<QSize> imageHeaderSize(const QByteArray &bytes)
{
    const char *format = nullptr;
    switch (sniffImageFormat(bytes)) {
    case ImageFormat::Png: format = "png"; break;
    case ImageFormat::Jpeg: format = "jpeg"; break;
    case ImageFormat::Gif: format = "gif"; break;
    case ImageFormat::Webp: {
        int width = 0, height = 0;
        if (!WebPGetInfo(reinterpret_cast<const uint8_t *>(bytes.constData()), size_t(bytes.size()), &width, &height))
            return std::nullopt;
        return QSize(width, height);
    }
    case ImageFormat::Svg:
    case ImageFormat::Unknown: return std::nullopt;
    }
    QByteArray copy = bytes;
    QBuffer buffer(&copy);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, format);
    reader.setAutoDetectImageFormat(false);
    reader.setDecideFormatFromContent(false);
    const QSize size = reader.size();
    if (!size.isValid())
        return std::nullopt;
    return size;
}

ImageResult decodeImage(const QByteArray &bytes, const ImageDecodeLimits &limits)
{
    switch (sniffImageFormat(bytes)) {
    case ImageFormat::Png: return decodeRaster(bytes, "png", limits);
    case ImageFormat::Jpeg: return decodeRaster(bytes, "jpeg", limits);
    case ImageFormat::Gif: return decodeRaster(bytes, "gif", limits);
    case ImageFormat::Webp: return decodeWebp(bytes, limits);
    case ImageFormat::Svg: return decodeSvg(bytes, limits);
    case ImageFormat::Unknown: break;
    }
    return QStringLiteral("unsupported image format (PNG, JPEG, GIF, WebP or SVG are accepted)");
}

ImageResult decodeInlineSvg(const QByteArray &svg, const ImageDecodeLimits &limits)
{
    return decodeSvg(svg, limits, true);
}

bool isInlineSvgImage(const QImage &image)
{
    return !image.text(kSvgViewportKey).isEmpty();
}

QByteArray svgSource(const QImage &image)
{
    return image.text(kSvgSourceKey).toUtf8();
}

bool hasNaturalSize(const QImage &image)
{
    return image.text(kSvgNoNaturalSizeKey).isEmpty();
}

QImage imageAtDeviceSize(const QImage &image, QSize pixels)
{
    constexpr int kMaxSide = 4096; // a large enlargement must not allocate without bound
    if (pixels == image.size() || pixels.width() < 1 || pixels.height() < 1 || pixels.width() > kMaxSide
        || pixels.height() > kMaxSide)
        return image;
    const QByteArray source = svgSource(image);
    if (source.isEmpty())
        return image;
    // An `img` whose SVG has a viewBox draws it into the box as its preserveAspectRatio
    // says, as Chromium does (the box is the SVG's viewport: a 120×80 logo in a 240×80 box
    // is centred, not stretched; `none` stretches); without a viewBox it is scaled.
    bool viewport = isInlineSvgImage(image);
    if (!viewport) {
        const std::optional<SvgRootGeometry> geometry = svgRootGeometry(source);
        viewport = geometry && geometry->viewBox;
    }
    // The source was sanitised when the image was decoded; it is still a user's document.
    SvgRasterJob job = svgJob(source, viewport ? SvgRasterMode::Viewport : SvgRasterMode::Stretch, {}, pixels);
    if (isInlineSvgImage(image))
        job.fonts = SvgRenderScope::inlineSvgFonts(source);
    const auto drawn = rasteriseUntrustedSvg(job);
    return drawn ? *drawn : image;
}

common::Expected<QByteArray, QString> dataUrlBytes(const QString &url)
{
    if (!url.startsWith(QLatin1String("data:"), Qt::CaseInsensitive)) {
        // Say what would load it: a server render fetches http(s) before the pipeline
        // runs (docs/remote-images.md), so one reaching here is a render that does not
        // fetch, such as the local `imprint render`.
        const bool web = url.startsWith(QLatin1String("http://"), Qt::CaseInsensitive)
                         || url.startsWith(QLatin1String("https://"), Qt::CaseInsensitive);
        return web ? QStringLiteral("only data: URLs are loaded here; http(s) images are fetched by the server "
                                    "(imprint serve, docs/remote-images.md), not by a local render")
                   : QStringLiteral("only data: URLs are loaded; a path or other scheme never is (use a data: "
                                    "URL, or an http(s) URL the server fetches)");
    }
    const auto header = dataUrlHeader(url);
    if (!header)
        return QStringLiteral("malformed data: URL");
    // The URL Standard makes everything after the first '#' the fragment, and fetch's data:
    // URL processor reads the URL without it (https://fetch.spec.whatwg.org/#data-url-processor,
    // step 1): a raw '#' (an SVG colour written unencoded) ends the payload, as in Chromium.
    const qsizetype fragment = url.indexOf(QLatin1Char('#'), header->payloadStart);
    const QByteArray payload = url.mid(header->payloadStart, fragment < 0 ? -1 : fragment - header->payloadStart).toUtf8();
    if (!header->base64)
        return QByteArray::fromPercentEncoding(payload);
    // Whitespace is common in pasted data URLs; QByteArray's decoder rejects it.
    QByteArray compact = QByteArray::fromPercentEncoding(payload).simplified();
    compact.replace(' ', QByteArrayView());
    auto decoded = QByteArray::fromBase64Encoding(compact, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return QStringLiteral("invalid base64 in data: URL");
    return *decoded;
}

ImageResult decodeDataUrlImage(const QString &url, const ImageDecodeLimits &limits)
{
    const auto bytes = dataUrlBytes(url);
    if (!bytes)
        return bytes.error();
    ImageResult image = decodeImage(*bytes, limits);
    if (!image && url.contains(QLatin1Char('#')))
        return image.error()
               + QStringLiteral(" (a raw '#' in a data: URL starts its fragment, so the image ends there, as in "
                                "browsers; write it as %23)");
    return image;
}

bool isEmbeddableRasterDataUrl(const QString &url)
{
    // Only the signature is needed: decode the first base64 quantum groups, not the image.
    const auto header = dataUrlHeader(url);
    if (!header || !header->base64)
        return false;
    const auto head = QByteArray::fromBase64Encoding(url.mid(header->payloadStart, 16).toLatin1());
    if (!head)
        return false;
    const ImageFormat format = sniffImageFormat(*head);
    return format == ImageFormat::Png || format == ImageFormat::Jpeg || format == ImageFormat::Gif;
}

} // namespace imprint::render
