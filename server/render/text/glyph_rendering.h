#pragma once
// Glyph masks as Chromium draws them. Qt 6.4 re-enables FreeType's stem darkening for CFF
// (PostScript-outline) fonts, then blends their masks with a text gamma to make up for
// it (QFontEngineFT::expectsGammaCorrectedBlending()); Chromium's Skia does neither: it
// blends FreeType's plain masks, whose Linux gamma (1.2) and contrast (0.2) cancel out for
// dark text. Inter, EB Garamond and Noto Sans CJK are CFF: a line of 22 px Inter had 10 %
// less ink than Chromium's (TrueType faces such as Noto Sans already agreed).

namespace imprint::render {

/// Turns FreeType's stem darkening off for CFF fonts in the calling thread's Qt FreeType
/// library (Qt keeps one per thread, made on first use, made again if every face of the
/// thread is released), so that Qt's font engines made afterwards in this thread draw
/// plain masks blended linearly. Call before any text is shaped or drawn in a thread; once
/// done, a property lookup (well under a microsecond).
void useChromiumGlyphMasks();

} // namespace imprint::render
