#pragma once
// The nine-piece geometry of border-image (CSS Backgrounds 3 §6): where each slice of the
// image goes around a box and how it is scaled and tiled. Numbers only; the recorder
// turns the tiles into display-list commands.

#include "server/render/css/values.h"

#include <QMarginsF>
#include <QRectF>
#include <QSizeF>

#include <vector>

namespace imprint::render {

/// The border image area (§6.4 border-image-outset): `borderBox` (page px) grown on each
/// side by that side's outset, a number being a multiple of `borderWidths`' side.
QRectF borderImageArea(const BorderImage &image, const QRectF &borderBox, const QMarginsF &borderWidths);

/// One of the nine pieces (§6.2) of a border image, scaled and tiled (§6.7).
struct BorderImagePiece {
    QRectF slice; ///< the piece of the image, in image px (the image's size as given)
    QRectF region; ///< where it goes: its part of the border image area, page px
    /// Where each copy of the slice is drawn (page px), scaled to this size, in rows;
    /// a tile may overhang `region`, which clips it.
    std::vector<QRectF> tiles;
    /// The tiles leave gaps between them (`space`); otherwise each meets the next edge to
    /// edge, and a player may draw them as one pattern of the first.
    bool spaced = false;
};

/// The pieces of `image` drawn in `area` (borderImageArea(), page px) for a box with
/// `borderWidths` (px), of an image of `imageSize` px (its natural size; a gradient's is
/// the area's) which has a natural size when `natural` (auto widths then take the slice's
/// size, §6.3). Slices (§6.2), widths (§6.3, scaled down together when opposite ones
/// overlap), the middle only with `fill`, edges scaled proportionally and stretched,
/// repeated (centred), rounded or spaced per border-image-repeat (§6.5, §6.7). Empty
/// pieces are left out. A rule that would repeat a slice more than 256 times along an
/// axis stretches it instead, and so does a middle of more than 4096 copies, so a 1 px
/// slice cannot make a million tiles.
std::vector<BorderImagePiece> borderImagePieces(const BorderImage &image, const QRectF &area,
                                                const QMarginsF &borderWidths, QSizeF imageSize, bool natural);

} // namespace imprint::render
