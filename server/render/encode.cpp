// Image encoders. PNG dominates a render's cost, so its settings were chosen by
// measurement: a throwaway harness encoding two 1200×630 cards drawn with QPainter
// (a 3-stop 135° gradient with white text, and a flat #e2e8f0 card with a rounded white
// panel and dark text; both > 256 colours from antialiasing), RelWithDebInfo, median
// thread-CPU ms of 15 runs on the shared 2-core dev machine while 4 other builds ran
// (wall times ~3× the issue's reference machine, where Qt's default is 31 ms):
//
//   encoder                          gradient ms / bytes     flat ms / bytes
//   QImageWriter png, default (zlib 6)    95.8 /  94 496       82.7 / 64 498
//   QImageWriter png, quality 80          74.0 / 184 821       58.7 / 73 745
//   libpng zlib 6, all filters (=Qt's)    71.0 /  82 322       56.6 / 56 964
//   libpng zlib 1, filter none            18.3 / 125 308       12.8 / 57 717
//   libpng zlib 2, filter none            18.0 / 116 883       13.3 / 56 454
//   libpng zlib 3, filter none  <- chosen 19.5 / 112 085       13.7 / 54 417
//   libpng zlib 4, filter none            22.5 /  80 336       29.3 / 50 846
//   libpng zlib 2, filter up              18.7 / 161 066       18.5 / 68 304
//   libpng zlib 3, filter sub             31.3 / 141 653       19.4 / 70 074
//   (zlib 1 with Z_RLE or Z_FILTERED and sub/up/paeth: 28–38 ms, 155–256 KB)
//
// zlib 3 without filtering is ~4–5× faster than Qt's writer and 1.36× (gradient) /
// 0.96× (flat) the size of zlib 6 with adaptive filtering: the filters cost more time
// than they save here, because antialiased text and gradients defeat them. RGB without
// alpha for opaque images and palette PNGs (≤ 256 colours, e.g. flat cards without
// text) cut the bytes zlib has to see.
//
// WebP lossy, quality 90 (same images): method 0 51.5 ms / 46 066 B and 31.8 / 38 748;
// method 1 67.0 / 44 424 and 55.9 / 37 420; method 2 59.0 / 42 160 and 55.4 / 32 924;
// method 3 121.8 / 41 774 and 103.6 / 31 908; method 4 (libwebp's default) 122.3 / 41 890
// and 117.3 / 31 920. Method 0 is chosen: 2.4–3.7× faster than 4 for 10–20 % more bytes.
// Lossless: method 0 43.2 / 68 968 and 60.4 / 159 238; method 1 358.8 / 54 050 and
// 64.8 / 27 080: method 0 is kept (lossless is opt-in).

#include "server/render/encode.h"

#include <QBuffer>
#include <QRegularExpression>
#include <QSvgGenerator>

#include <png.h>
#include <webp/encode.h>
#include <zlib.h>

#include <csetjmp>
#include <cstring>
#include <vector>

namespace imprint::render {

namespace {

constexpr int kDefaultFilters = PNG_FILTER_NONE;
constexpr int kDefaultStrategy = Z_DEFAULT_STRATEGY;
constexpr int kDefaultWebpMethod = 0;

/// Pixels ready for libpng: rows of `rowBytes`, colour type and optional palette.
struct PngPixels {
    int width = 0, height = 0;
    int colorType = PNG_COLOR_TYPE_RGB_ALPHA;
    std::vector<png_byte> data;
    size_t rowBytes = 0;
    std::vector<png_color> palette;
    std::vector<png_byte> paletteAlpha;
};

struct WriteState {
    QByteArray *out;
    char message[256];
};

void writeCallback(png_structp png, png_bytep data, png_size_t length)
{
    auto *state = static_cast<WriteState *>(png_get_io_ptr(png));
    state->out->append(reinterpret_cast<const char *>(data), qsizetype(length));
}

void flushCallback(png_structp) { }

void errorCallback(png_structp png, png_const_charp message)
{
    auto *state = static_cast<WriteState *>(png_get_error_ptr(png));
    std::strncpy(state->message, message, sizeof state->message - 1);
    png_longjmp(png, 1);
}

void warningCallback(png_structp, png_const_charp) { }

/// Runs libpng over prepared pixels. Every C++ object lives in the caller, so the
/// longjmp of libpng's error path skips no destructor.
bool writePng(const PngPixels &px, const PngOptions &options, WriteState *state, png_bytep *rows)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, state, errorCallback, warningCallback);
    if (!png)
        return false;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        return false;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_set_write_fn(png, state, writeCallback, flushCallback);
    png_set_compression_level(png, options.zlibLevel);
    png_set_compression_strategy(png, options.zlibStrategy < 0 ? kDefaultStrategy : options.zlibStrategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE,
                   px.colorType == PNG_COLOR_TYPE_PALETTE ? PNG_FILTER_NONE
                   : options.filters < 0                   ? kDefaultFilters
                                                           : options.filters);
    png_set_IHDR(png, info, png_uint_32(px.width), png_uint_32(px.height), 8, px.colorType, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (px.colorType == PNG_COLOR_TYPE_PALETTE) {
        png_set_PLTE(png, info, px.palette.data(), int(px.palette.size()));
        if (!px.paletteAlpha.empty())
            png_set_tRNS(png, info, px.paletteAlpha.data(), int(px.paletteAlpha.size()), nullptr);
    }
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return true;
}

/// Collects the distinct colours of an ARGB32 image, giving up after 256 (a small
/// open-addressing table: most cards exceed 256 within the first rows and stop early).
bool paletteOf(const QImage &argb, std::vector<quint32> *colors, std::vector<png_byte> *indices)
{
    constexpr int kSlots = 1024; // power of two, 4× the most colours kept
    quint32 keys[kSlots];
    qint16 values[kSlots];
    std::fill(std::begin(values), std::end(values), qint16(-1));
    colors->clear();
    const int w = argb.width(), h = argb.height();
    indices->resize(size_t(w) * size_t(h));
    quint32 last = 0;
    int lastIndex = -1;
    for (int y = 0; y < h; ++y) {
        const auto *row = reinterpret_cast<const quint32 *>(argb.constScanLine(y));
        png_byte *out = indices->data() + size_t(y) * size_t(w);
        for (int x = 0; x < w; ++x) {
            const quint32 c = row[x];
            if (c == last && lastIndex >= 0) {
                out[x] = png_byte(lastIndex);
                continue;
            }
            quint32 slot = (c * 2654435761u) >> 22; // Knuth multiplicative hash, 10 bits
            while (values[slot] >= 0 && keys[slot] != c)
                slot = (slot + 1) & (kSlots - 1);
            if (values[slot] < 0) {
                if (colors->size() == 256)
                    return false;
                keys[slot] = c;
                values[slot] = qint16(colors->size());
                colors->push_back(c);
            }
            last = c;
            lastIndex = values[slot];
            out[x] = png_byte(lastIndex);
        }
    }
    return true;
}

} // namespace

QByteArray encodePng(const QImage &image, const PngOptions &options, QString *error)
{
    if (image.isNull()) {
        if (error)
            *error = QStringLiteral("cannot encode an empty image");
        return {};
    }
    const QImage premultiplied = image.format() == QImage::Format_ARGB32_Premultiplied
                                         || image.format() == QImage::Format_RGB32
                                     ? image
                                     : image.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    PngPixels px;
    px.width = premultiplied.width();
    px.height = premultiplied.height();
    const size_t h = size_t(px.height);

    std::vector<quint32> colors;
    std::vector<png_byte> indices;
    QImage packed; // keeps the rows handed to libpng alive
    if (options.allowPalette && paletteOf(premultiplied, &colors, &indices)) {
        px.colorType = PNG_COLOR_TYPE_PALETTE;
        px.data = std::move(indices);
        px.rowBytes = size_t(px.width);
        bool anyAlpha = false;
        for (quint32 c : colors) {
            const QRgb straight = qUnpremultiply(c);
            px.palette.push_back({png_byte(qRed(straight)), png_byte(qGreen(straight)), png_byte(qBlue(straight))});
            px.paletteAlpha.push_back(png_byte(qAlpha(straight)));
            anyAlpha = anyAlpha || qAlpha(straight) < 255;
        }
        if (!anyAlpha)
            px.paletteAlpha.clear();
    } else {
        bool opaque = premultiplied.format() == QImage::Format_RGB32;
        if (!opaque && options.allowRgb) {
            opaque = true;
            for (size_t y = 0; y < h && opaque; ++y) {
                const auto *row = reinterpret_cast<const quint32 *>(premultiplied.constScanLine(int(y)));
                for (int x = 0; x < px.width; ++x) {
                    if ((row[x] >> 24) != 0xff) {
                        opaque = false;
                        break;
                    }
                }
            }
        }
        const bool rgb = opaque && options.allowRgb;
        // Qt's vectorised converters un-premultiply and pack to PNG's byte order.
        packed = premultiplied.convertToFormat(rgb ? QImage::Format_RGB888 : QImage::Format_RGBA8888);
        px.colorType = rgb ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA;
    }
    std::vector<png_bytep> rows(h);
    for (size_t y = 0; y < h; ++y)
        rows[y] = packed.isNull() ? px.data.data() + y * px.rowBytes : const_cast<png_bytep>(packed.constScanLine(int(y)));

    QByteArray out;
    out.reserve(qsizetype(size_t(px.width) * h / 4 + 1024));
    WriteState state{&out, {0}};
    if (!writePng(px, options, &state, rows.data())) {
        if (error)
            *error = QStringLiteral("PNG encoding failed: %1").arg(QString::fromUtf8(state.message));
        return {};
    }
    return out;
}

QByteArray encodeWebp(const QImage &image, int quality, bool lossless, QString *error, int method)
{
    auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return QByteArray();
    };
    if (image.isNull())
        return fail(QStringLiteral("cannot encode an empty image"));
    if (image.width() > WEBP_MAX_DIMENSION || image.height() > WEBP_MAX_DIMENSION)
        return fail(QStringLiteral("WebP images are at most %1 px wide and high").arg(WEBP_MAX_DIMENSION));
    WebPConfig config;
    if (!WebPConfigInit(&config))
        return fail(QStringLiteral("libwebp version mismatch"));
    config.quality = float(std::clamp(quality, 1, 100));
    config.method = method < 0 ? kDefaultWebpMethod : std::clamp(method, 0, 6);
    config.lossless = lossless ? 1 : 0;
    if (lossless) // quality is effort for lossless; low effort is far faster at similar size
        config.quality = 25;
    if (!WebPValidateConfig(&config))
        return fail(QStringLiteral("invalid WebP settings"));

    const QImage argb = image.convertToFormat(image.hasAlphaChannel() ? QImage::Format_ARGB32 : QImage::Format_RGB32);
    WebPPicture picture;
    if (!WebPPictureInit(&picture))
        return fail(QStringLiteral("libwebp version mismatch"));
    picture.use_argb = lossless ? 1 : 0;
    picture.width = argb.width();
    picture.height = argb.height();
    // Format_ARGB32 is 0xAARRGGBB in native order: B, G, R, A bytes on little-endian.
    const auto *bytes = argb.constBits();
    const int stride = int(argb.bytesPerLine());
#if Q_BYTE_ORDER == Q_LITTLE_ENDIAN
    const int imported = argb.hasAlphaChannel() ? WebPPictureImportBGRA(&picture, bytes, stride)
                                                : WebPPictureImportBGRX(&picture, bytes, stride);
#else
    const QImage rgba = argb.convertToFormat(QImage::Format_RGBA8888);
    const int imported = WebPPictureImportRGBA(&picture, rgba.constBits(), int(rgba.bytesPerLine()));
#endif
    if (!imported) {
        WebPPictureFree(&picture);
        return fail(QStringLiteral("WebP import failed (out of memory)"));
    }
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    const int ok = WebPEncode(&config, &picture);
    const int code = picture.error_code;
    WebPPictureFree(&picture);
    if (!ok) {
        WebPMemoryWriterClear(&writer);
        return fail(QStringLiteral("WebP encoding failed (libwebp error %1)").arg(code));
    }
    QByteArray out(reinterpret_cast<const char *>(writer.mem), qsizetype(writer.size));
    WebPMemoryWriterClear(&writer);
    return out;
}

QByteArray encodeSvg(QSize size, const std::function<void(QPainter &)> &paint, const QString &title)
{
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(96);
    if (!title.isEmpty())
        generator.setTitle(title);
    {
        QPainter painter(&generator);
        paint(painter);
    }
    // QSvgGenerator states the size in mm; renderers disagree on mm per px (90 vs 96 dpi),
    // px is unambiguous.
    const qsizetype svgStart = out.indexOf("<svg");
    const qsizetype svgEnd = svgStart < 0 ? -1 : out.indexOf('>', svgStart);
    if (svgEnd > 0) {
        QByteArray head = out.mid(svgStart, svgEnd - svgStart);
        static const QRegularExpression sizeAttr(QStringLiteral(R"(\b(width|height)="[0-9.]+mm")"));
        QString text = QString::fromUtf8(head);
        text.replace(sizeAttr, QStringLiteral(R"(\1="__\1__")"));
        text.replace(QLatin1String("__width__"), QString::number(size.width()));
        text.replace(QLatin1String("__height__"), QString::number(size.height()));
        out.replace(svgStart, svgEnd - svgStart, text.toUtf8());
    }
    return out;
}

} // namespace imprint::render
