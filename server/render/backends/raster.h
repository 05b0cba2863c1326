#pragma once
// The raster ("takumi") backend: records a laid-out box tree as a display list
// (paint/recorder.h) and plays it on a QPainter. Written against a generic QPainter, so
// the same commands paint into a QImage (png/webp) or a QSvgGenerator (svg).

#include "server/render/resources/emoji.h"
#include "server/render/layout/layout.h"
#include "server/render/paint/geometry.h"

#include <QImage>
#include <QPainter>
#include <QSize>

namespace imprint::render {

class TextEngine;

/// Paints `root` and its descendants onto `painter`, whose coordinates are page px.
/// Paint order follows CSS 2 Appendix E, simplified: per element its box-shadow,
/// background, inset shadow and border, then in-flow children in document order, then
/// positioned children and those forming stacking contexts (opacity < 1, transform) in
/// document order. `text` shapes the text runs (TextEngine::instance() when null).
/// Never fails; unpaintable values (a null image) paint nothing.
void paintBoxTree(QPainter &painter, const LayoutBox &root, TextEngine *text = nullptr);

/// Paints `root` onto a transparent `size` px image (Format_ARGB32_Premultiplied),
/// antialiased.
QImage paintToImage(const LayoutBox &root, QSize size, TextEngine *text = nullptr);

/// paintBoxTree() / paintToImage() with emoji clusters drawn as images of `emoji`
/// (the overloads above keep the Noto Color Emoji font's glyphs). A missing set
/// or image falls back to the font and adds a line to `warnings` (if given).
void paintBoxTree(QPainter &painter, const LayoutBox &root, EmojiSet emoji, QStringList *warnings,
                  TextEngine *text = nullptr);
QImage paintToImage(const LayoutBox &root, QSize size, EmojiSet emoji, QStringList *warnings,
                    TextEngine *text = nullptr);

} // namespace imprint::render
