#pragma once
// The one image decoder of the render pipeline (docs/architecture.md, "Resources"):
// every image a template names — `img` sources, background images, image variables,
// SVG documents — arrives as bytes and is decoded here, under one policy: the format is
// sniffed from the bytes (never the media type or a file name), only PNG, JPEG, GIF
// (first frame), WebP and sanitised SVG are accepted, and sizes are bounded before any
// pixel is allocated. Nothing here opens a file or a socket.

#include "server/common/expected.h"
#include "server/render/resources/svg_sanitizer.h"

#include <QByteArray>
#include <QImage>
#include <QString>

#include <functional>
#include <optional>

namespace imprint::render {

/// Image formats Imprint accepts, as sniffed from the first bytes.
enum class ImageFormat : quint8 { Unknown, Png, Jpeg, Gif, Webp, Svg };

/// The format of `bytes` from its signature (PNG, JPEG, GIF87a/89a, RIFF…WEBP) or, for
/// SVG, looksLikeSvg(); Unknown otherwise.
ImageFormat sniffImageFormat(const QByteArray &bytes);

/// The pixel size of a PNG, JPEG, GIF or WebP image as its header states it, read
/// without decoding a pixel (so a decompression bomb can be refused before it is
/// decoded); nullopt for SVG (its size needs a parse), an unknown format or an
/// unreadable header.
std::optional<QSize> imageHeaderSize(const QByteArray &bytes);

/// Bounds applied while decoding.
struct ImageDecodeLimits {
    int maxSide = 8192; ///< px, either dimension
    qint64 maxPixels = 8192LL * 4096; ///< px, width × height (128 MiB of ARGB32)
    SvgLimits svg;
};

/// A decoder's answer: the decoded image, or one sentence saying why there is none.
using ImageResult = common::Expected<QImage, QString>;

/// Decodes `bytes` into premultiplied ARGB32 (Format_ARGB32_Premultiplied). An SVG is
/// sanitised (sanitizeSvg) and drawn at its intrinsic size (width/height, else viewBox,
/// else 300×150 as CSS Images 3 §4.1 sizes a replaced element); its sanitised source
/// stays with the image (svgSource()). The error (one sentence) for an unknown format, a
/// size over `limits`, or bytes that do not decode.
ImageResult decodeImage(const QByteArray &bytes, const ImageDecodeLimits &limits = {});

/// decodeImage() of an inline `<svg>` element serialised to `svg` (a document with an
/// `<svg>` root whose width/height are the element's natural size in px): the image is
/// drawn, now and by imageAtDeviceSize(), into its box as the box were the SVG viewport —
/// the root's viewBox placed by its preserveAspectRatio (SVG 2 §8.2), not stretched.
/// Errors as decodeImage()'s (the sanitiser's refusal, a size over `limits`).
ImageResult decodeInlineSvg(const QByteArray &svg, const ImageDecodeLimits &limits = {});

/// True for an image decodeInlineSvg() made.
bool isInlineSvgImage(const QImage &image);

/// The sanitised SVG an image was decoded from: decodeImage() keeps it with the pixels
/// (as the image's text, which copies of the QImage share) so a backend can draw the image
/// again at the size it covers on the device. Empty for any other image.
QByteArray svgSource(const QImage &image);

/// Whether `image` has natural dimensions (CSS Images 3 §4.1): false for an SVG whose root
/// gives no absolute `width` and `height` (only a viewBox ratio, or nothing), which
/// decodeImage() drew at a stand-in size; true for every raster image.
bool hasNaturalSize(const QImage &image);

/// `image` as `pixels` device pixels: an image decoded from SVG is drawn again from its
/// source at that size (stretched to it, as drawing the intrinsic-size pixels into that
/// box would), so it stays sharp at any device scale or enlargement — a vector image is
/// rasterised at the size it is drawn (CSS Images 3 §4.2). Any other image, a size equal
/// to the image's, or one outside 1–4096 px a side: `image` as it is.
QImage imageAtDeviceSize(const QImage &image, QSize pixels);

/// The payload of an RFC 2397 `data:` URL (base64 or percent-encoded; whitespace in
/// base64 tolerated as pasted URLs have it), up to a raw '#', which starts the URL's
/// fragment as in browsers. The error when `url` is not a well-formed data: URL.
common::Expected<QByteArray, QString> dataUrlBytes(const QString &url);

/// decodeImage() of a `data:` URL's payload; anything but a data: URL is refused with a
/// message starting "only data: URLs are loaded" that says what would load it (the server
/// fetches http(s) images before a render) — the filesystem is never consulted.
ImageResult decodeDataUrlImage(const QString &url, const ImageDecodeLimits &limits = {});

/// Loads an image for an `img` src, a background or mask url(), or an html page's image:
/// the decoded image, or why it did not load. A render passes its context's ImageCache
/// (image_cache.h) or the request's loader (a space's `asset:` images, prefetched remote
/// ones); without a loader, decodeDataUrlImage() decodes every time. Both accept data:
/// URLs only: no file reads, no server-side request forgery.
using ImageLoader = std::function<ImageResult(const QString &url)>;

/// True when `url` is a data: URL whose bytes are PNG, JPEG or GIF: formats that an
/// SVG `<image>` may embed as they are (QtSvg and browsers decode them without further
/// references). Anything else must be embedded as the decoded pixels re-encoded.
bool isEmbeddableRasterDataUrl(const QString &url);

} // namespace imprint::render
