// Image encoders. PNG dominates a render's cost, so its settings were chosen by
// measurement.
//
// PNG, 2026-11-23: the 11 fixture templates rendered by the takumi engine (1200×630,
// opaque, 256–7 040 colours), ms of the deflate step alone, best of 7–9, on the 2-core
// dev machine; sizes against Qt's writer (zlib 6, adaptive filters: 18–102 KB):
//
//   compressor, PNG filter              flat cards (a, c, e, j)   gradient (b)   others
//   zlib 3, none (libpng, until 11-23)   3.1–4.2 ms, 24–57 KB     5.1 / 120 KB   3.5–4.1 / 49–76 KB
//   libdeflate 1, none                   2.5–5.0, 16–54 KB        3.5 / 149 KB   2.7–3.9 / 46–70 KB
//   libdeflate 4, none                   2.8–3.5, 16–50 KB        4.3 /  88 KB   3.2–3.5 / 40–61 KB
//   libdeflate 6, none                   3.0–4.0, 15–48 KB        5.1 /  81 KB   3.6–4.2 / 39–59 KB
//   libdeflate 2, up                     2.8–3.6, 18–66 KB        4.8 / 220 KB   3.2–3.7 / 47–77 KB
//   libdeflate 2, adaptive (min-sum)     +17 ms of filtering, sizes within 5 % of "none"
//   ISA-L igzip 0, none                  0.25–0.45, 40–85 KB      0.9 / 173 KB   0.4–0.6 / 71–104 KB
//   ISA-L igzip 1, none                  0.28–0.52, 24–67 KB      1.0 / 137 KB   0.4–0.6 / 56–85 KB
//   ISA-L igzip 2, none  <- chosen       0.28–0.48, 24–67 KB      1.1 / 137 KB   0.4–0.6 / 55–84 KB
//   ISA-L igzip 3, none                  3.0–4.6,   26–68 KB      5.1 / 116 KB   3.3–4.7 / 56–83 KB
//   ISA-L igzip 2, up                    +0.7 ms of filtering, 11–53 % larger than "none"
//
// Antialiased text and gradients defeat the PNG filters here (they cost time and grow the
// output), so rows go unfiltered. Intel's ISA-L deflate (SIMD hashing, one stateless call
// over the whole image) is ~10× faster than libdeflate or zlib at their fast levels, and
// its level-2 output stays within 0.98–1.34× of Qt's zlib-6 size (tst_encode holds it to 1.5×).
// libpng's own writer streams rows through zlib (≥ 1.5 ms of overhead per card), so
// libpng only writes the container (signature, IHDR, PLTE, tRNS, CRCs) and one IDAT chunk
// holding ISA-L's zlib stream. RGB without alpha for opaque images and palette PNGs
// (≤ 256 colours) cut the bytes the compressor has to see.
//
// WebP lossy, quality 90 (two QPainter cards, gradient and flat): method 0 51.5 ms / 46 066 B and 31.8 / 38 748;
// method 1 67.0 / 44 424 and 55.9 / 37 420; method 2 59.0 / 42 160 and 55.4 / 32 924;
// method 3 121.8 / 41 774 and 103.6 / 31 908; method 4 (libwebp's default) 122.3 / 41 890
// and 117.3 / 31 920. Method 0 is chosen: 2.4–3.7× faster than 4 for 10–20 % more bytes.
// Lossless: method 0 43.2 / 68 968 and 60.4 / 159 238; method 1 358.8 / 54 050 and
// 64.8 / 27 080: method 0 is kept (lossless is opt-in).

#include "server/render/encode/encode.h"

#include "server/render/encode/png_snap.h"

#include <QBuffer>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSvgGenerator>

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <libimagequant.h>
#include <libyuv/convert.h>
#include <png.h>
#include <webp/encode.h>

#include <csetjmp>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace imprint::render {

namespace {

constexpr int kDefaultWebpMethod = 0;
constexpr int kSmallDeflateLevel = 6; // libdeflate; 9 took 3–5× the time for 2–8 % fewer bytes

constexpr int kFastIsalLevel = 1; // ISA-L; see the table above
// After the rare-colour snap. libdeflate 6 there makes 18 % fewer bytes again (median
// 21 039 against 25 584 B over the 11 fixtures) but costs 1.5–6 ms more a card, which
// takes the render past takumi's time on a-simple (docs/performance.md).
constexpr int kDefaultIsalLevel = 2;
constexpr int kLosslessDeflateLevel = 6; // libdeflate

/// Pixels ready for the PNG writer: the filtered scanlines (one filter-type byte, always
/// 0 = None, then `rowBytes` of samples per row), colour type and optional palette.
struct PngPixels {
    int width = 0, height = 0;
    int colorType = PNG_COLOR_TYPE_RGB_ALPHA;
    std::vector<png_byte> *scanlines = nullptr; // the thread's scratch buffer
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

void flushCallback(png_structp)
{ }

void errorCallback(png_structp png, png_const_charp message)
{
    auto *state = static_cast<WriteState *>(png_get_error_ptr(png));
    std::strncpy(state->message, message, sizeof state->message - 1);
    png_longjmp(png, 1);
}

void warningCallback(png_structp, png_const_charp)
{ }

/// Per-thread scratch for the scanlines, the deflate output and Default's colour snap:
/// reusing them skips zero-filling and first-touching ~4.5 MB per 1200×630 render
/// (memset alone was 2 % of a render's profile). A buffer above kMaxKeptScratch bytes is
/// released after use, so a thread keeps at most that much between renders.
struct PngScratch {
    static constexpr size_t kMaxKeptScratch = 64u << 20;
    std::vector<png_byte> scanlines, zlibStream;
    std::vector<png_byte> rgbScanlines; // Default: the snapped pixels as RGB (scanlines holds indices)
    pngsnap::SnapScratch snap; // Default's colour snap

    static PngScratch &forThisThread()
    {
        thread_local PngScratch scratch;
        return scratch;
    }
    void trim()
    {
        for (auto *buffer : {&scanlines, &zlibStream, &rgbScanlines}) {
            if (buffer->capacity() > kMaxKeptScratch)
                std::vector<png_byte>().swap(*buffer);
        }
    }
};

/// Compresses `in` into a zlib stream (RFC 1950) with ISA-L at `level` (0–3) into the
/// first `*written` bytes of `out`. `out` only grows: shrinking the per-thread scratch to
/// the stream's length made the next render zero-fill it back to the bound (~4 % of a
/// small card's instructions). Returns false when ISA-L fails.
bool deflateZlib(const std::vector<png_byte> &in, int level, std::vector<png_byte> *out, size_t *written)
{
    thread_local std::vector<quint8> levelBuffer; // ISA-L's hash tables for levels 1–3
    static constexpr size_t kLevelBufferBytes[]
        = {0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
    level = std::clamp(level, 0, int(ISAL_DEF_MAX_LEVEL));
    if (in.size() > std::numeric_limits<uint32_t>::max() / 2)
        return false;
    if (levelBuffer.size() < kLevelBufferBytes[level])
        levelBuffer.resize(kLevelBufferBytes[level]);
    // Incompressible input is stored: 5 bytes per block of at most 64 KiB, plus headers
    // and Adler-32 (counted here per 4 KiB to leave room; a miss retries with twice).
    size_t bound = in.size() + in.size() / 4096 * 5 + ISAL_DEF_MAX_HDR_SIZE + 1024;
    for (int attempt = 0; attempt < 2; ++attempt, bound = bound * 2) {
        if (out->size() < bound)
            out->resize(bound);
        // Zeroed first: isal_deflate_stateless_init() leaves fields of the internal state
        // alone that the level-2 matcher reads, so the bytes depended on what the stack
        // held before (the same pixels gave 15 508 or 16 575 B in one test run).
        isal_zstream stream{};
        isal_deflate_stateless_init(&stream);
        stream.level = uint32_t(level);
        stream.level_buf = level > 0 ? levelBuffer.data() : nullptr;
        stream.level_buf_size = level > 0 ? uint32_t(kLevelBufferBytes[level]) : 0;
        stream.gzip_flag = IGZIP_ZLIB;
        stream.end_of_stream = 1;
        stream.flush = NO_FLUSH;
        stream.next_in = const_cast<uint8_t *>(in.data());
        stream.avail_in = uint32_t(in.size());
        stream.next_out = out->data();
        stream.avail_out = uint32_t(out->size());
        const int status = isal_deflate_stateless(&stream);
        if (status == COMP_OK) {
            *written = stream.total_out;
            return true;
        }
        if (status != STATELESS_OVERFLOW)
            return false;
    }
    return false;
}

/// Compresses `in` into a zlib stream (RFC 1950) with libdeflate at `level` (1–12) into
/// `out`. Slower than ISA-L but its matcher finds 25–40 % smaller streams at level 6
/// (takumi's writer matches it within 3 %). Writes the first `*written` bytes of `out`,
/// which only grows (as deflateZlib()). Returns false when libdeflate fails.
bool deflateZlibLibdeflate(const std::vector<png_byte> &in, int level, std::vector<png_byte> *out, size_t *written)
{
    struct CompressorDeleter {
        void operator()(libdeflate_compressor *c) const { libdeflate_free_compressor(c); }
    };
    // One compressor per level and thread: tiers with different levels alternate freely.
    thread_local std::unique_ptr<libdeflate_compressor, CompressorDeleter> compressors[13];
    level = std::clamp(level, 1, 12);
    auto &compressor = compressors[level];
    if (!compressor)
        compressor.reset(libdeflate_alloc_compressor(level));
    if (!compressor)
        return false;
    const size_t bound = libdeflate_zlib_compress_bound(compressor.get(), in.size());
    if (out->size() < bound)
        out->resize(bound);
    *written = libdeflate_zlib_compress(compressor.get(), in.data(), in.size(), out->data(), out->size());
    return *written != 0;
}

/// Writes signature, IHDR, PLTE/tRNS, the one IDAT (`zlibStream`) and IEND through
/// libpng. Every C++ object lives in the caller, so the longjmp of libpng's error path
/// skips no destructor.
bool writePng(const PngPixels &px, const png_byte *zlibStream, size_t zlibBytes, WriteState *state)
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
    // 8 bits a sample or palette index, never 1, 2 or 4: a 16-colour card would be ~25 %
    // smaller at 4 bits (docs/performance.md, "Coverage levels on the blend"), but simple
    // PNG readers of 8-bit images only (score tools, hand-written test decoders) refuse it.
    png_set_IHDR(png, info, png_uint_32(px.width), png_uint_32(px.height), 8, px.colorType, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    if (px.colorType == PNG_COLOR_TYPE_PALETTE) {
        png_set_PLTE(png, info, px.palette.data(), int(px.palette.size()));
        if (!px.paletteAlpha.empty())
            png_set_tRNS(png, info, px.paletteAlpha.data(), int(px.paletteAlpha.size()), nullptr);
    }
    png_write_info(png, info);
    static constexpr png_byte kIdat[5] = {'I', 'D', 'A', 'T', 0};
    static constexpr png_byte kIend[5] = {'I', 'E', 'N', 'D', 0};
    png_write_chunk(png, kIdat, zlibStream, zlibBytes);
    png_write_chunk(png, kIend, nullptr, 0);
    png_destroy_write_struct(&png, &info);
    return true;
}

/// Collects the distinct colours of an ARGB32 image into `colors` and writes one index
/// per pixel into `scanlines` (filter byte 0 before each row), giving up after 256
/// (PaletteIndex).
bool paletteOf(const QImage &argb, std::vector<quint32> *colors, std::vector<png_byte> *scanlines)
{
    pngsnap::PaletteIndex palette(colors);
    const int w = argb.width(), h = argb.height();
    scanlines->resize((size_t(w) + 1) * size_t(h));
    quint32 last = 0;
    int lastIndex = -1;
    for (int y = 0; y < h; ++y) {
        const auto *row = reinterpret_cast<const quint32 *>(argb.constScanLine(y));
        png_byte *out = scanlines->data() + size_t(y) * (size_t(w) + 1);
        *out++ = 0;
        for (int x = 0; x < w; ++x) {
            const quint32 c = row[x];
            if (c == last && lastIndex >= 0) {
                out[x] = png_byte(lastIndex);
                continue;
            }
            const int index = palette.indexOf(c);
            if (index < 0)
                return false;
            last = c;
            lastIndex = index;
            out[x] = png_byte(lastIndex);
        }
    }
    return true;
}

/// Quantises `premultiplied` to at most 256 colours with libimagequant (speed 10, no
/// dithering: dither noise costs more bytes than it saves on flat cards) into
/// palette-indexed scanlines (filter byte 0 before each row) and `px`'s palette.
/// Returns false, leaving `px` alone, when the palette would fall below
/// kSmallPngMinQuality or libimagequant fails: the caller then writes losslessly.
bool quantisedPaletteOf(const QImage &premultiplied, PngPixels *px)
{
    const QImage rgba = premultiplied.convertToFormat(QImage::Format_RGBA8888);
    const int w = rgba.width(), h = rgba.height();
    struct Liq {
        liq_attr *attr = liq_attr_create();
        liq_image *image = nullptr;
        liq_result *result = nullptr;
        ~Liq()
        {
            if (result)
                liq_result_destroy(result);
            if (image)
                liq_image_destroy(image);
            if (attr)
                liq_attr_destroy(attr);
        }
    } liq;
    if (!liq.attr || liq_set_speed(liq.attr, 10) != LIQ_OK
        || liq_set_quality(liq.attr, kSmallPngMinQuality, 100) != LIQ_OK)
        return false;
    std::vector<const void *> sourceRows(static_cast<size_t>(h));
    for (int y = 0; y < h; ++y)
        sourceRows[size_t(y)] = rgba.constScanLine(y);
    // libimagequant reads the rows only; its API takes them as non-const.
    liq.image = liq_image_create_rgba_rows(liq.attr, const_cast<void **>(sourceRows.data()), w, h, 0);
    if (!liq.image || liq_image_quantize(liq.image, liq.attr, &liq.result) != LIQ_OK)
        return false;
    if (liq_set_dithering_level(liq.result, 0.0f) != LIQ_OK)
        return false;
    px->scanlines->resize((size_t(w) + 1) * size_t(h));
    std::vector<unsigned char *> indexRows(static_cast<size_t>(h));
    for (int y = 0; y < h; ++y) {
        png_byte *row = px->scanlines->data() + size_t(y) * (size_t(w) + 1);
        row[0] = 0;
        indexRows[size_t(y)] = row + 1;
    }
    if (liq_write_remapped_image_rows(liq.result, liq.image, indexRows.data()) != LIQ_OK)
        return false;
    const liq_palette *palette = liq_get_palette(liq.result);
    if (!palette || palette->count == 0)
        return false;
    px->colorType = PNG_COLOR_TYPE_PALETTE;
    px->palette.clear();
    px->paletteAlpha.clear();
    bool anyAlpha = false;
    for (unsigned i = 0; i < palette->count; ++i) {
        const liq_color &c = palette->entries[i];
        px->palette.push_back({png_byte(c.r), png_byte(c.g), png_byte(c.b)});
        px->paletteAlpha.push_back(png_byte(c.a));
        anyAlpha = anyAlpha || c.a < 255;
    }
    if (!anyAlpha)
        px->paletteAlpha.clear();
    return true;
}

/// True when every pixel of a premultiplied ARGB32 image has alpha 255.
bool isOpaque(const QImage &premultiplied)
{
    if (premultiplied.format() == QImage::Format_RGB32)
        return true;
    const int w = premultiplied.width();
    for (int y = 0; y < premultiplied.height(); ++y) {
        const auto *row = reinterpret_cast<const quint32 *>(premultiplied.constScanLine(y));
        quint32 all = 0xff000000u;
        for (int x = 0; x < w; ++x)
            all &= row[x]; // branch-free: the compiler vectorises the AND
        if ((all >> 24) != 0xff)
            return false;
    }
    return true;
}

/// Packs opaque ARGB32 pixels (premultiplied equals straight at alpha 255) into RGB
/// scanlines, filter byte 0 before each row.
void packRgb(const QImage &opaque, std::vector<png_byte> *scanlines)
{
    const size_t w = size_t(opaque.width()), rowBytes = w * 3 + 1;
    scanlines->resize(rowBytes * size_t(opaque.height()));
    for (int y = 0; y < opaque.height(); ++y)
        pngsnap::packRgbScanline(reinterpret_cast<const quint32 *>(opaque.constScanLine(y)), int(w),
                                 scanlines->data() + size_t(y) * rowBytes);
}

/// Un-premultiplies into RGBA scanlines through Qt's vectorised converter, filter byte 0
/// before each row.
void packRgba(const QImage &premultiplied, std::vector<png_byte> *scanlines)
{
    const QImage rgba = premultiplied.convertToFormat(QImage::Format_RGBA8888);
    const size_t rowBytes = size_t(rgba.width()) * 4 + 1;
    scanlines->resize(rowBytes * size_t(rgba.height()));
    for (int y = 0; y < rgba.height(); ++y) {
        png_byte *out = scanlines->data() + size_t(y) * rowBytes;
        out[0] = 0;
        std::memcpy(out + 1, rgba.constScanLine(y), rowBytes - 1);
    }
}

} // namespace

std::optional<PngCompression> parsePngCompression(const QString &name)
{
    return kPngCompressionNames.parseAnyCase(name);
}

QString pngCompressionName(PngCompression compression)
{
    return kPngCompressionNames.name(compression);
}

EncodeResult encodePng(const QImage &image, const PngOptions &options)
{
    if (image.isNull())
        return QStringLiteral("cannot encode an empty image");
    const QImage premultiplied
        = image.format() == QImage::Format_ARGB32_Premultiplied || image.format() == QImage::Format_RGB32
              ? image
              : image.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    PngScratch &scratch = PngScratch::forThisThread();
    const auto trimScratch = qScopeGuard([&scratch] { scratch.trim(); });
    PngPixels px;
    px.scanlines = &scratch.scanlines;
    px.width = premultiplied.width();
    px.height = premultiplied.height();

    std::vector<quint32> colors;
    auto usePalette = [&px, &colors] {
        px.colorType = PNG_COLOR_TYPE_PALETTE;
        bool anyAlpha = false;
        for (quint32 c : colors) {
            const QRgb straight = qUnpremultiply(c);
            px.palette.push_back({png_byte(qRed(straight)), png_byte(qGreen(straight)), png_byte(qBlue(straight))});
            px.paletteAlpha.push_back(png_byte(qAlpha(straight)));
            anyAlpha = anyAlpha || qAlpha(straight) < 255;
        }
        if (!anyAlpha)
            px.paletteAlpha.clear();
    };
    // Default snaps the rare edge colours of opaque images and packs in the same pass (into
    // palette indices first: only when a palette may be written).
    const std::optional<bool> snappedToPalette
        = options.compression == PngCompression::Default && options.allowRgb && options.allowPalette
              ? pngsnap::snapAndPack(premultiplied, &scratch.snap, &scratch.rgbScanlines, &scratch.scanlines, &colors)
              : std::nullopt;
    if (snappedToPalette) {
        if (*snappedToPalette) {
            usePalette();
        } else {
            px.colorType = PNG_COLOR_TYPE_RGB;
            px.scanlines = &scratch.rgbScanlines;
        }
    } else if (options.allowPalette && paletteOf(premultiplied, &colors, px.scanlines)) {
        usePalette();
    } else if (options.compression == PngCompression::Small && options.allowPalette
               && quantisedPaletteOf(premultiplied, &px)) {
        // px holds the quantised palette and indices
    } else if (options.allowRgb && isOpaque(premultiplied)) {
        px.colorType = PNG_COLOR_TYPE_RGB;
        packRgb(premultiplied, px.scanlines);
    } else {
        px.colorType = PNG_COLOR_TYPE_RGB_ALPHA;
        packRgba(premultiplied, px.scanlines);
    }

    std::vector<png_byte> &zlibStream = scratch.zlibStream;
    size_t zlibBytes = 0;
    bool deflated = false;
    switch (options.compression) {
    case PngCompression::Fast: deflated = deflateZlib(*px.scanlines, kFastIsalLevel, &zlibStream, &zlibBytes); break;
    case PngCompression::Default: deflated = deflateZlib(*px.scanlines, kDefaultIsalLevel, &zlibStream, &zlibBytes); break;
    case PngCompression::Lossless:
        deflated = deflateZlibLibdeflate(*px.scanlines, kLosslessDeflateLevel, &zlibStream, &zlibBytes);
        break;
    case PngCompression::Small:
        deflated = deflateZlibLibdeflate(*px.scanlines, kSmallDeflateLevel, &zlibStream, &zlibBytes);
        break;
    }
    if (!deflated)
        return QStringLiteral("PNG encoding failed: the deflate step failed");

    // The file's exact size (PNG 1.2 §5.3: 12 bytes of length, type and CRC a chunk): the
    // bytes are kept as they are by the render memo and the caches, so no slack of a grown
    // buffer rides along (a 256-colour palette with alpha was over a guessed 1 KiB of
    // headers and doubled the buffer).
    const size_t headers = 8 + (12 + 13) + (px.palette.empty() ? 0 : 12 + 3 * px.palette.size())
                           + (px.paletteAlpha.empty() ? 0 : 12 + px.paletteAlpha.size()) + 12 + 12;
    QByteArray out;
    out.reserve(qsizetype(zlibBytes + headers));
    WriteState state{&out, {0}};
    if (!writePng(px, zlibStream.data(), zlibBytes, &state))
        return QStringLiteral("PNG encoding failed: %1").arg(QString::fromUtf8(state.message));
    return out;
}

namespace {

/// True when `image` is 32-bit B, G, R, A bytes in memory (libyuv's "ARGB") and every
/// pixel is opaque: premultiplied or not, its colour bytes are then the colour itself.
bool isOpaqueBgra32(const QImage &image)
{
#if Q_BYTE_ORDER == Q_LITTLE_ENDIAN
    switch (image.format()) {
    case QImage::Format_RGB32: return true; // alpha byte is 0xff by definition
    case QImage::Format_ARGB32:
    case QImage::Format_ARGB32_Premultiplied: break;
    default: return false;
    }
    for (int y = 0; y < image.height(); ++y) {
        const auto *row = reinterpret_cast<const quint32 *>(image.constScanLine(y));
        quint32 all = 0xff000000u;
        for (int x = 0; x < image.width(); ++x)
            all &= row[x];
        if (all != 0xff000000u)
            return false;
    }
    return true;
#else
    Q_UNUSED(image);
    return false;
#endif
}

} // namespace

EncodeResult encodeWebp(const QImage &image, int quality, bool lossless, int method)
{
    if (image.isNull())
        return QStringLiteral("cannot encode an empty image");
    if (image.width() > WEBP_MAX_DIMENSION || image.height() > WEBP_MAX_DIMENSION)
        return QStringLiteral("WebP images are at most %1 px wide and high").arg(WEBP_MAX_DIMENSION);
    WebPConfig config;
    if (!WebPConfigInit(&config))
        return QStringLiteral("libwebp version mismatch");
    config.quality = float(std::clamp(quality, 1, 100));
    config.method = method < 0 ? kDefaultWebpMethod : std::clamp(method, 0, 6);
    config.lossless = lossless ? 1 : 0;
    if (lossless) // quality is effort for lossless; low effort is far faster at similar size
        config.quality = 25;
    if (!WebPValidateConfig(&config))
        return QStringLiteral("invalid WebP settings");

    WebPPicture picture;
    if (!WebPPictureInit(&picture))
        return QStringLiteral("libwebp version mismatch");
    picture.use_argb = lossless ? 1 : 0;
    picture.width = image.width();
    picture.height = image.height();
    int imported = 0;
    if (!lossless && isOpaqueBgra32(image)) {
        // libwebp's own RGB → YUV 4:2:0 import reads 4-byte pixels with scalar code:
        // 1.8–2.8 ms of a 1200×630 card's 9–18 ms. libyuv's SIMD conversion (the same
        // BT.601 studio-swing matrix) takes 0.4–0.5 ms; luma SSIM against the source moves
        // by at most 0.00015 (docs/performance.md, "WebP"). Opaque only: no alpha plane.
        imported = WebPPictureAlloc(&picture);
        if (imported)
            imported = libyuv::ARGBToI420(image.constBits(), int(image.bytesPerLine()), picture.y, picture.y_stride,
                                          picture.u, picture.uv_stride, picture.v, picture.uv_stride, picture.width,
                                          picture.height)
                       == 0;
    } else {
        const QImage argb
            = image.convertToFormat(image.hasAlphaChannel() ? QImage::Format_ARGB32 : QImage::Format_RGB32);
        // Format_ARGB32 is 0xAARRGGBB in native order: B, G, R, A bytes on little-endian.
        const auto *bytes = argb.constBits();
        const int stride = int(argb.bytesPerLine());
#if Q_BYTE_ORDER == Q_LITTLE_ENDIAN
        imported = argb.hasAlphaChannel() ? WebPPictureImportBGRA(&picture, bytes, stride)
                                          : WebPPictureImportBGRX(&picture, bytes, stride);
#else
        const QImage rgba = argb.convertToFormat(QImage::Format_RGBA8888);
        imported = WebPPictureImportRGBA(&picture, rgba.constBits(), int(rgba.bytesPerLine()));
#endif
    }
    if (!imported) {
        WebPPictureFree(&picture);
        return QStringLiteral("WebP import failed (out of memory)");
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
        return QStringLiteral("WebP encoding failed (libwebp error %1)").arg(code);
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
