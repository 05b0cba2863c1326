#pragma once
// The satori engine (docs/templates.md): a laid-out box tree → one standalone SVG 1.1
// document, the way satori builds it: text as glyph outline paths (each distinct glyph
// defined once in <defs>, placed with <use>, so no fonts are needed to show it),
// gradients, borders, images as data: URIs. PNG and WebP rasterise that document with
// QSvgRenderer, so what format=svg returns is exactly what the bitmaps show.

#include "server/render/layout/layout.h"
#include "server/render/paint/paint_resources.h"
#include "server/render/resources/emoji.h"

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

namespace imprint::render {

/// Options of renderSvgDocument().
struct SvgOptions {
    EmojiSet emojiSet = EmojiSet::Twemoji; ///< how emoji clusters are drawn
    QString title; ///< the document's <title> (escaped), optional
    /// Device px per user px of the bitmap this document becomes (a `scale` 2 PNG: 2; the
    /// SVG output itself: 1). Images decoded from SVG are embedded at that resolution, so
    /// the bitmap shows them sharp.
    qreal deviceScale = 1;
    /// Whether an inline `<svg>` goes into the document as vector markup. False when this
    /// process rasterises the document with the SVG sandbox on (svg_sandbox.h): the user's
    /// markup is then drawn by the sandboxed helper and embedded as pixels, so the
    /// in-process rasteriser only ever draws Imprint's own markup.
    bool inlineSvgAsVector = true;
    /// Whether QtSvg rasterises this document (the PNG, WebP, … path): QtSvg 6.4 applies a
    /// `<g opacity>` to each child instead of to the group (SVG 1.1 §14.5), so a
    /// translucent element with a background and children showed its background through
    /// them. Such a group (`opacity` below 1 and more than one drawing) is then painted by
    /// the raster player and embedded as pixels; the SVG output keeps `<g opacity>`, which
    /// browsers composite as a group.
    bool groupOpacityAsPixels = false;
    /// Whether a raster image drawn at most half its natural size both ways (on the
    /// device, `deviceScale` included, and outside any transform) is embedded resampled
    /// to the pixels it covers instead of whole: QtSvg decodes what is embedded when it
    /// rasterises the document, so an 8192 × 4096 upload drawn as a thumbnail held a
    /// second 128 MiB copy. True for the bitmap path; the SVG output keeps the image whole,
    /// for a reader that zooms. Images drawn at or near their natural size are embedded as
    /// before either way.
    bool largeImagesAtDevicePixels = false;
};

/// Writes `root` as an SVG 1.1 document of `size` px (UTF-8, well-formed XML, every text
/// value escaped). Paint order as the raster painter (CSS 2 Appendix E, simplified);
/// `resources` shape the text, decode background images and hold the emoji sets.
/// Never fails; emoji drawn with the Noto font because a set or file is missing add a
/// line to `warnings` (if given).
QByteArray renderSvgDocument(const LayoutBox &root, QSize size, const PaintResources &resources,
                             const SvgOptions &options = {}, QStringList *warnings = nullptr);

/// Rasterises an SVG document with QSvgRenderer into a transparent `size` px image
/// (Format_ARGB32_Premultiplied, antialiased). A document that does not parse gives the
/// transparent image.
QImage rasteriseSvg(const QByteArray &svg, QSize size);

} // namespace imprint::render
