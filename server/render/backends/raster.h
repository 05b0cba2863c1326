#pragma once
// The raster ("takumi") backend: records a laid-out box tree as a display list
// (paint/recorder.h) and plays it on a QPainter. Written against a generic QPainter, so
// the same commands paint into a QImage (png/webp) or a QSvgGenerator (svg).

#include "server/render/layout/layout.h"
#include "server/render/paint/display_list.h"
#include "server/render/paint/geometry.h"
#include "server/render/paint/paint_resources.h"
#include "server/render/resources/emoji.h"

#include <QImage>
#include <QPainter>
#include <QSize>

namespace imprint::render {

/// Paints `root` and its descendants onto `painter`, whose coordinates are page px, by
/// playing the display list the recorder makes of it (paint/recorder.h; paint order CSS 2
/// Appendix E). Emoji clusters are drawn as images of `emoji` (Noto: the colour emoji
/// font's own glyphs); a missing set or image falls back to the font and adds a line to
/// `warnings` (if given). `resources` shape the text, decode background images and hold
/// the emoji sets. Never fails; unpaintable values (a null image) paint nothing.
void paintBoxTree(QPainter &painter, const LayoutBox &root, const PaintResources &resources,
                  EmojiSet emoji = EmojiSet::Noto, QStringList *warnings = nullptr);

/// Plays the display-list commands list[begin, end) on `painter` (whose transform maps
/// page px to the device), then closes every scope the range left open, so a prefix of a
/// list paints what lies beneath its next command. Used by the SVG writer to bake what
/// SVG cannot express (effect layers, backdrops) into embedded images.
void playDisplayList(QPainter &painter, const DisplayList &list, size_t begin, size_t end, EmojiLibrary &emoji,
                     QStringList *warnings = nullptr, const RenderCancellation *cancellation = nullptr);

/// `backdrop` (the filtered pixels of the device rectangle at `origin`, device px) cut to
/// `shape` (device px), antialiased, in a transparent image of its size; `clip` (device
/// px, may be null) cuts it further. A backdrop-filter's result (Filter Effects 2 §3) as
/// an image of its own, which a device without texture brushes (QSvgGenerator) and the
/// SVG writer can both draw.
QImage shapedBackdrop(const QImage &backdrop, QPoint origin, const QPainterPath &shape,
                      const QPainterPath *clip = nullptr);

/// One tile of the gradient of `tiles` as an image: transparent, the tile's size (px, at
/// least 1×1), the gradient painted as it lies in the tile. Repeating gradients are drawn
/// as a brush of it (CSS Backgrounds 3 §3.4).
QImage gradientTileImage(const display::BackgroundTiles &tiles);

/// Draws `image` as the tile of `tiles` on `painter` (whose coordinates are those of the
/// tile): scaled to the tile and repeated from its corner over the tiles' clip when they
/// repeat, else once into the tile (CSS Backgrounds 3 §3.4, §3.9).
void drawImageTiles(QPainter &painter, const QImage &image, const display::BackgroundTiles &tiles);

/// paintBoxTree() onto a transparent `size` px image (Format_ARGB32_Premultiplied),
/// antialiased.
QImage paintToImage(const LayoutBox &root, QSize size, const PaintResources &resources, EmojiSet emoji = EmojiSet::Noto,
                    QStringList *warnings = nullptr);

} // namespace imprint::render
