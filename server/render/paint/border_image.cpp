#include "server/render/paint/border_image.h"

#include <algorithm>
#include <cmath>

namespace imprint::render {

namespace {

using Unit = BorderImageLength::Unit;

/// The most copies of one slice a piece is drawn with; more are drawn stretched.
constexpr size_t kMaxTilesPerPiece = 4096;

/// Along one axis: the start and length of each copy of a slice of length `length` px
/// (already scaled) laid over a region from `start` of `extent` px by `rule` (§6.7).
std::vector<std::pair<qreal, qreal>> tilesAlong(qreal start, qreal extent, qreal length, BorderImageRepeat rule)
{
    constexpr qreal kMaxTiles = 256;
    if (extent <= 0)
        return {};
    if (rule == BorderImageRepeat::Stretch || length <= 0 || extent / length > kMaxTiles)
        return {{start, extent}};
    std::vector<std::pair<qreal, qreal>> out;
    switch (rule) {
    case BorderImageRepeat::Round: {
        // As background-repeat: round: a whole number of copies, resized to fit.
        const qreal n = std::max<qreal>(1, std::round(extent / length));
        for (int i = 0; i < int(n); ++i)
            out.emplace_back(start + i * extent / n, extent / n);
        break;
    }
    case BorderImageRepeat::Space: {
        // As many whole copies as fit, the rest shared out evenly around them.
        const int n = int(std::floor(extent / length));
        const qreal gap = (extent - n * length) / (n + 1);
        for (int i = 0; i < n; ++i)
            out.emplace_back(start + gap + i * (length + gap), length);
        break;
    }
    default: {
        // Repeat: one copy centred in the region, the others beside it, cut at its edges.
        const qreal centred = start + (extent - length) / 2;
        const qreal first = centred - std::ceil((centred - start) / length) * length;
        for (qreal at = first; at < start + extent; at += length)
            out.emplace_back(at, length);
        break;
    }
    }
    return out;
}

/// A slice side (§6.2): a number in image px, a percentage of the image; at most the image.
qreal sliceOf(const BorderImageLength &l, qreal imageExtent)
{
    const qreal v = l.unit == Unit::Percent ? l.value / 100 * imageExtent : l.value;
    return std::clamp<qreal>(v, 0, imageExtent);
}

/// A border image width side (§6.3).
qreal widthOf(const BorderImageLength &l, qreal borderWidth, qreal areaExtent, qreal slice, bool natural)
{
    switch (l.unit) {
    case Unit::Number: return l.value * borderWidth;
    case Unit::Px: return l.value;
    case Unit::Percent: return l.value / 100 * areaExtent;
    case Unit::Auto: return natural ? slice : borderWidth;
    }
    return 0;
}

/// An outset side (§6.4): a number is a multiple of the border width.
qreal outsetOf(const BorderImageLength &l, qreal borderWidth)
{
    return l.unit == Unit::Number ? l.value * borderWidth : l.value;
}

/// The factor a slice of `slice` px is scaled by to be `width` px: 0 when either is 0.
qreal factor(qreal width, qreal slice)
{
    return slice > 0 && width > 0 ? width / slice : 0;
}

} // namespace

QRectF borderImageArea(const BorderImage &image, const QRectF &borderBox, const QMarginsF &borderWidths)
{
    const Edges<BorderImageLength> &o = image.outset;
    return borderBox.adjusted(-outsetOf(o[Top], borderWidths.top()), -outsetOf(o[Left], borderWidths.left()),
                              outsetOf(o[Right], borderWidths.right()), outsetOf(o[Bottom], borderWidths.bottom()))
        .normalized();
}

std::vector<BorderImagePiece> borderImagePieces(const BorderImage &image, const QRectF &area,
                                                const QMarginsF &borderWidths, QSizeF imageSize, bool natural)
{
    const qreal w = imageSize.width(), h = imageSize.height();
    if (w <= 0 || h <= 0 || area.isEmpty())
        return {};
    const Edges<BorderImageLength> &sl = image.slice, &bw = image.width;
    // Slice lines in the image (§6.2) and width lines in the area (§6.3).
    const qreal sT = sliceOf(sl[Top], h), sR = sliceOf(sl[Right], w), sB = sliceOf(sl[Bottom], h),
                sL = sliceOf(sl[Left], w);
    qreal wT = widthOf(bw[Top], borderWidths.top(), area.height(), sT, natural),
          wR = widthOf(bw[Right], borderWidths.right(), area.width(), sR, natural),
          wB = widthOf(bw[Bottom], borderWidths.bottom(), area.height(), sB, natural),
          wL = widthOf(bw[Left], borderWidths.left(), area.width(), sL, natural);
    // §6.3: opposite widths that overlap are all scaled down by the same factor.
    qreal f = 1;
    if (wL + wR > 0)
        f = std::min(f, area.width() / (wL + wR));
    if (wT + wB > 0)
        f = std::min(f, area.height() / (wT + wB));
    wT *= f, wR *= f, wB *= f, wL *= f;

    const qreal u[4] = {0, sL, w - sR, w}, v[4] = {0, sT, h - sB, h};
    const qreal x[4] = {area.left(), area.left() + wL, area.right() - wR, area.right()};
    const qreal y[4] = {area.top(), area.top() + wT, area.bottom() - wB, area.bottom()};
    // §6.7: the edges are scaled to their width proportionally; the middle as the top
    // (else the bottom) edge across and as the left (else the right) edge down.
    const qreal middleAcross = factor(wT, sT) > 0 ? factor(wT, sT) : factor(wB, sB);
    const qreal middleDown = factor(wL, sL) > 0 ? factor(wL, sL) : factor(wR, sR);
    std::vector<BorderImagePiece> pieces;
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 3; ++col) {
            if (row == 1 && col == 1 && !image.fill)
                continue;
            BorderImagePiece piece;
            piece.slice = QRectF(QPointF(u[col], v[row]), QPointF(u[col + 1], v[row + 1]));
            piece.region = QRectF(QPointF(x[col], y[row]), QPointF(x[col + 1], y[row + 1]));
            // A slice that is empty or inverted (opposite slices meet) draws nothing.
            if (!(piece.slice.width() > 0 && piece.slice.height() > 0 && piece.region.width() > 0
                  && piece.region.height() > 0))
                continue;
            const QRectF &s = piece.slice, &r = piece.region;
            // The slice's scaled size before the repeat rules: a corner fills its region;
            // an edge is as thick as its region and scaled in proportion along it.
            qreal tileW = r.width(), tileH = r.height();
            if (col == 1) {
                const qreal k = row == 1 ? middleAcross : r.height() / s.height();
                tileW = k > 0 ? s.width() * k : s.width();
            }
            if (row == 1) {
                const qreal k = col == 1 ? middleDown : r.width() / s.width();
                tileH = k > 0 ? s.height() * k : s.height();
            }
            auto columns = col == 1 ? tilesAlong(r.left(), r.width(), tileW, image.repeatX)
                                    : std::vector<std::pair<qreal, qreal>>{{r.left(), r.width()}};
            auto rows = row == 1 ? tilesAlong(r.top(), r.height(), tileH, image.repeatY)
                                 : std::vector<std::pair<qreal, qreal>>{{r.top(), r.height()}};
            // A middle of more than 4096 copies (each a command when spaced) is stretched.
            if (columns.size() * rows.size() > kMaxTilesPerPiece) {
                columns = {{r.left(), r.width()}};
                rows = {{r.top(), r.height()}};
            }
            piece.spaced = (col == 1 && image.repeatX == BorderImageRepeat::Space && columns.size() > 1)
                           || (row == 1 && image.repeatY == BorderImageRepeat::Space && rows.size() > 1);
            for (const auto &[ty, th] : rows)
                for (const auto &[tx, tw] : columns)
                    piece.tiles.emplace_back(tx, ty, tw, th);
            if (!piece.tiles.empty())
                pieces.push_back(std::move(piece));
        }
    }
    return pieces;
}

} // namespace imprint::render
