#pragma once
// The render options a client names (docs/api.md): the paint engine, the output format,
// the PNG compression tier and the emoji set, each an enum with ONE table of wire names.
// Every list a user sees derives from these tables: request parsing and its error
// messages (server/http/routes/render.cpp), the CLI's help and errors
// (server/app/commands/cli_render.cpp), the console's pickers (gui/previewtab.cpp), and
// tests hold the OpenAPI document and the docs against them (tests/render/tst_enum_tables).
// Header-only, here rather than in server/render so that the console, which reaches the
// server over HTTP only, lists the same names. Adding a value is adding a row.

#include "server/common/enum_names.h"

#include <QtGlobal>

namespace imprint::render {

/// A paint engine. The names are the wire names of the `renderType` request field and
/// the template's `rendererType`:
///   satori  vector: a standalone SVG (text as outlines), rasterised for PNG/WebP
///   takumi  raster: QPainter onto an image
///   html    the template's `html` source, drawn by headless Chromium or Qt's rich text
enum class Engine { Satori, Takumi, Html };

/// The engines' wire names, in the order error messages and pickers list them.
inline constexpr common::EnumNames<Engine, 3> kEngineNames{{{
    {Engine::Satori, "satori"},
    {Engine::Takumi, "takumi"},
    {Engine::Html, "html"},
}}};

/// Output encodings. Pdf: only the html engine drawn by Chromium (Page.printToPDF).
enum class OutputFormat : quint8 { Png, Webp, Svg, Jpeg, Avif, Pdf };

/// One output format's row: its wire name (also the stored file's extension), its
/// Content-Type, the label pickers show, and whether it is a vector format (drawn at any
/// size, so a device scale other than 1 does not apply).
struct OutputFormatInfo {
    OutputFormat format;
    const char *name;
    const char *contentType;
    const char *label;
    bool vector;
};

/// The output formats, in the order messages and pickers list them.
inline constexpr std::array<OutputFormatInfo, 6> kOutputFormats{{
    {OutputFormat::Png, "png", "image/png", "PNG", false},
    {OutputFormat::Webp, "webp", "image/webp", "WebP", false},
    {OutputFormat::Jpeg, "jpeg", "image/jpeg", "JPEG", false},
    {OutputFormat::Avif, "avif", "image/avif", "AVIF", false},
    {OutputFormat::Svg, "svg", "image/svg+xml", "SVG", true},
    {OutputFormat::Pdf, "pdf", "application/pdf", "PDF", true},
}};

/// The row of `format` (every value has one).
constexpr const OutputFormatInfo &outputFormatInfo(OutputFormat format)
{
    for (const OutputFormatInfo &row : kOutputFormats) {
        if (row.format == format)
            return row;
    }
    return kOutputFormats[0];
}

/// The output formats' wire names, derived from kOutputFormats.
inline constexpr common::EnumNames<OutputFormat, kOutputFormats.size()> kOutputFormatNames = [] {
    common::EnumNames<OutputFormat, kOutputFormats.size()> names{};
    for (std::size_t i = 0; i < kOutputFormats.size(); ++i)
        names.entries[i] = {kOutputFormats[i].format, kOutputFormats[i].name};
    return names;
}();

/// The PNG size/speed trade-off a render asks for (docs/api.md, "PNG compression"),
/// chosen by measurement (server/render/encode/encode.cpp, docs/performance.md):
/// - Fast: bit-exact lossless, ISA-L deflate level 1, the least CPU per image;
/// - Default: visually lossless: on opaque images the rare colours of antialiased edges
///   (each on < 0.01 % of the pixels, next to a contrasting neighbour) are snapped to 16
///   levels per channel (at most 8/255 off; flat fills, gradients and shadows stay exact),
///   then ISA-L level 2: 0.4–0.9× Fast's bytes for 0.3–3 ms more CPU a 1200×630 card;
/// - Lossless: bit-exact, libdeflate level 6: 0.6–0.85× Fast's bytes for 1.5–5.5 ms more;
/// - Small: an image with more than 256 colours is quantised to a palette by
///   libimagequant (as pngquant does, no dithering) when that keeps it visually the same
///   (libimagequant's quality ≥ kSmallPngMinQuality, else it stays lossless), then
///   deflated by libdeflate at level 6: 2–4× fewer bytes for ~10–30× the encode time.
enum class PngCompression : quint8 { Fast, Default, Small, Lossless };

/// The PNG tiers' wire names, in the order messages list them.
inline constexpr common::EnumNames<PngCompression, 4> kPngCompressionNames{{{
    {PngCompression::Fast, "fast"},
    {PngCompression::Default, "default"},
    {PngCompression::Lossless, "lossless"},
    {PngCompression::Small, "small"},
}}};

/// The emoji sets of the `emojiType` option.
enum class EmojiSet : quint8 { Twemoji, Openmoji, Noto };

/// The emoji sets' wire names (also their directories under the emoji root).
inline constexpr common::EnumNames<EmojiSet, 3> kEmojiSetNames{{{
    {EmojiSet::Twemoji, "twemoji"},
    {EmojiSet::Openmoji, "openmoji"},
    {EmojiSet::Noto, "noto"},
}}};

} // namespace imprint::render
