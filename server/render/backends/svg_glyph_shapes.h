#pragma once
// The glyph outlines the satori engine's SVG writer (svg.cpp) defines once per document
// and reuses, cached per thread across documents.

#include <QRawFont>
#include <QRectF>
#include <QString>

#include <optional>

namespace imprint::render::svg_glyphs {

/// What a glyph of one font at one size looks like to the SVG player: its outline's path
/// data and, once a clip asked, its box (QRawFont::boundingRect(), px from the origin).
struct GlyphShape {
    QString pathData;
    std::optional<QRectF> box;
};

/// The GlyphShape of `glyph` in `font` under `key` (SvgPlayer::glyphKey()), kept per thread
/// across documents in an LRU of 2 MiB of path data: the outline (QRawFont::pathForGlyph)
/// is the costly part of a text-heavy card, and each box a FreeType load (Qt's engine cache
/// is off, font_fallback.cpp). A cap by count (20 000 a thread) once held 35 MB over the
/// render threads when every render drew its title at a new size (heaptrack). The
/// reference is valid until the next call.
GlyphShape &cachedGlyphShape(const QRawFont &font, quint32 glyph, const QString &key);

/// `glyph`'s box in `font` (QRawFont::boundingRect()), from `shape` once read.
QRectF glyphBox(const QRawFont &font, quint32 glyph, GlyphShape &shape);

} // namespace imprint::render::svg_glyphs
