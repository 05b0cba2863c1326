// Large glyphs (above 64 and up to 256 device px) drawn from FreeType's glyph masks, as
// Chromium's Skia draws them, instead of Qt's filled outlines.
#pragma once

#include <QGlyphRun>
#include <QPainter>
#include <QPointF>

namespace imprint::render {

/// The largest glyph, in device px (font size times the painter's scale), drawn from a
/// rasterised mask; larger ones are filled outlines. Skia's limit
/// (SkStrikeSpec::ShouldDrawAsPath(): 256), which Chromium draws with. Qt's own limit is 64
/// (QT_MAX_CACHED_GLYPH_SIZE): linking large_glyphs.cpp raises it to this for the process.
inline constexpr int kLargestMaskedGlyphPx = 256;

/// Qt's limit before it was raised: glyphs up to this size always came from Qt's glyph
/// cache, so only larger ones need drawLargeGlyphRun().
inline constexpr int kQtCachedGlyphPx = 64;

/// Draws `run` (no synthetic bold or italic) at `origin` in the painter's pen, as
/// QPainter::drawGlyphRun() does, when its glyphs are larger than kQtCachedGlyphPx and
/// at most kLargestMaskedGlyphPx device px on a raster painter: from FreeType's masks at
/// Qt's subpixel positions, through a font engine of this thread's own. Qt keeps the masks
/// it rasterises in the engine that drew them, and the engines of QFont's cache live as
/// long as the thread (render threads run no event loop to expire them): every new title
/// size would keep its masks for good. The engines here are clones held in a per-thread
/// LRU of at most kLargeGlyphBudgetBytes of estimated masks, and take their masks with
/// them when evicted. Returns false (drawing nothing) for any other run.
bool drawLargeGlyphRun(QPainter &painter, QPointF origin, const QGlyphRun &run);

/// The estimated bytes of glyph masks the engines of one render thread may hold before
/// the least recently used is dropped.
inline constexpr qsizetype kLargeGlyphBudgetBytes = 8 << 20;

/// The number of large-glyph engines this thread holds and the bytes of masks estimated in
/// them (tests: the budget holds).
struct LargeGlyphStats {
    int engines = 0;
    qsizetype estimatedBytes = 0;
};
LargeGlyphStats largeGlyphStats();

} // namespace imprint::render
