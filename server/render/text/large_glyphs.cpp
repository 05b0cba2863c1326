#include "server/render/text/large_glyphs.h"

#include <QByteArray>
#include <QPaintEngine>
#include <QRawFont>
#include <QSet>
#include <QTransform>

#include <cmath>
#include <vector>

namespace imprint::render {

namespace {

// Qt fills the outlines of glyphs above 64 device px on every draw; Chromium draws glyphs
// up to 256 px from FreeType's masks. Measured against Chromium (score.mjs SSIM, takumi
// engine): an 80 px bold title 0.99858 → 0.99942, 72–256 px titles in Latin, italic,
// tracked and CJK text 0.9936–0.9976 → 0.9981–0.9995; and the render of an 80 px title
// card took 43 % fewer instructions. Qt reads the variable once, at its first glyph, so a
// static initialiser is early enough. (The sandboxed SVG helper draws text with pango,
// not Qt: the variable changes nothing there.)
[[maybe_unused]] const bool kLargeGlyphMasks = [] {
    qputenv("QT_MAX_CACHED_GLYPH_SIZE", QByteArray::number(kLargestMaskedGlyphPx));
    return true;
}();

/// A font engine of this thread's own for one face and size (a clone of the run's), the
/// glyphs it has rasterised and their estimated bytes.
struct LargeFace {
    QRawFont source; ///< holds the run's engine, so that == compares live engines
    QRawFont clone;
    QSet<size_t> drawn; ///< glyph and device matrix of each mask Qt keeps in `clone`
    qsizetype bytes = 0;
};

struct LargeFaces {
    std::vector<LargeFace> faces; ///< most recently used last
    qsizetype bytes = 0;
};

LargeFaces &largeFaces()
{
    thread_local LargeFaces faces;
    return faces;
}

/// An engine of its own at the size of `source`: QRawFont::setPixelSize() clones only when
/// the size changes, so it goes there and back.
QRawFont cloneOf(const QRawFont &source)
{
    QRawFont clone = source;
    clone.setPixelSize(source.pixelSize() * 2);
    clone.setPixelSize(source.pixelSize());
    return clone;
}

/// The face for `source`, moved to the back (most recently used).
LargeFace &faceFor(const QRawFont &source)
{
    LargeFaces &all = largeFaces();
    for (auto it = all.faces.begin(); it != all.faces.end(); ++it) {
        if (it->source == source) {
            std::rotate(it, it + 1, all.faces.end());
            return all.faces.back();
        }
    }
    all.faces.push_back({source, cloneOf(source), {}, 0});
    return all.faces.back();
}

/// Drops the least recently used engines (their masks with them) until the estimate is
/// within budget, never the one about to draw (the back).
void evictOverBudget()
{
    LargeFaces &all = largeFaces();
    while (all.bytes > kLargeGlyphBudgetBytes && all.faces.size() > 1) {
        all.bytes -= all.faces.front().bytes;
        all.faces.erase(all.faces.begin());
    }
    if (all.bytes > kLargeGlyphBudgetBytes && !all.faces.empty()) {
        // One engine alone past the budget (a page of 250 px CJK): start it afresh.
        LargeFace &only = all.faces.front();
        only.clone = cloneOf(only.source);
        only.drawn.clear();
        all.bytes -= only.bytes;
        only.bytes = 0;
    }
}

} // namespace

bool drawLargeGlyphRun(QPainter &painter, QPointF origin, const QGlyphRun &run)
{
    const QRawFont font = run.rawFont();
    const QTransform device = painter.deviceTransform();
    const qreal scale = std::sqrt(std::abs(device.determinant()));
    const qreal devicePx = font.pixelSize() * scale;
    if (!font.isValid() || devicePx <= kQtCachedGlyphPx || devicePx > kLargestMaskedGlyphPx
        || !painter.paintEngine() || painter.paintEngine()->type() != QPaintEngine::Raster)
        return false;
    evictOverBudget();
    LargeFace &face = faceFor(font);
    // Qt keeps a mask per glyph, subpixel position (4) and device matrix: estimated as the
    // glyph's box in device px, four times, twice over for the slack of its atlas.
    const size_t matrix = qHashMulti(0, device.m11(), device.m12(), device.m21(), device.m22());
    const QList<quint32> glyphs = run.glyphIndexes();
    LargeFaces &all = largeFaces();
    for (quint32 glyph : glyphs) {
        const qsizetype known = face.drawn.size();
        face.drawn.insert(qHashMulti(matrix, glyph));
        if (face.drawn.size() == known)
            continue;
        const QRectF box = font.boundingRect(glyph);
        const qsizetype estimate
            = qsizetype(std::ceil((box.width() * scale + 2) * (box.height() * scale + 2))) * 4 * 2;
        face.bytes += estimate;
        all.bytes += estimate;
    }
    QGlyphRun own = run;
    own.setRawFont(face.clone);
    painter.drawGlyphRun(origin, own);
    return true;
}

LargeGlyphStats largeGlyphStats()
{
    const LargeFaces &all = largeFaces();
    return {int(all.faces.size()), all.bytes};
}

} // namespace imprint::render
