#pragma once
// Font fallback and synthetic styles as Chromium does them on Linux (docs/templates.md,
// "Font fallback"). A character that no family of the `fontFamily` list has is drawn with
// the first installed face, in fontconfig's order for the default locale, that has it
// (Blink's FontCache::PlatformFallbackFontForCharacter → gfx::GetFallbackFontForChar):
// that face as it is, usually its regular one, whatever the text's weight and style. Skia
// then emboldens it when the text asks for bold and slants it when it asks for italic,
// at the face's own advances. The same rule makes a face emboldened whenever the requested
// weight exceeds the face's by more than 200 (Blink's FontCache::CreateFontPlatformData).

#include <QPainterPath>
#include <QRawFont>
#include <QString>

#include <utility>
#include <vector>

class QFont;
class QGlyphRun;
class QPainter;

namespace imprint::render {

/// An installed face fontconfig offers as a fallback.
struct FallbackFace {
    QString family; ///< its first family name, as Qt's font database knows it
    QString style; ///< fontconfig's style name ("Book", "Regular"): selects the face in Qt
    int weight = 400; ///< OpenType weight class (1–1000)
    bool italic = false;
};

/// The face Chromium falls back to for `ucs4` when no family of the font-family list has
/// it: the first face of fontconfig's sort for the content language `lang` (the element's
/// `lang`, HTML §3.2.6.2; empty: "en-us", Chromium's default locale) whose character set
/// has it, scalable fonts only, a space's uploaded fonts never. The language picks locale
/// forms: the same Han characters come from Noto Sans CJK JP for "ja" and for no language,
/// SC for "zh-CN", TC for "zh-TW", KR for "ko". Null when no installed face has the
/// character. Thread-safe; each language's sort is done once per process.
const FallbackFace *systemFallbackFace(char32_t ucs4, const QString &lang = QString());

/// The fontconfig language tag systemFallbackFace() sorts with for `lang` (a BCP 47 tag):
/// lower case, "zh" by script or region as Blink reads it for Han ("zh", "zh-Hans",
/// "zh-SG" → "zh-cn"; "zh-Hant", "zh-TW" → "zh-tw"; "zh-HK", "zh-MO" → "zh-hk"), "en-us"
/// for none.
QByteArray fallbackLocale(const QString &lang);

/// `base` (size, spacing, hinting kept) drawing `face` for text that asked for
/// `requestedWeight` (1–1000) and `italic`: the face itself, by family and style name,
/// never a bolder or italic sibling. When the text asks for bold (≥ 600) and the face is
/// lighter, the font's weight is set above the face's by more than 200, which
/// syntheticBoldWidth() turns into Chromium's synthetic bold; italic asked of an upright
/// face keeps the face and is slanted by syntheticItalic().
QFont fallbackFont(const QFont &base, const FallbackFace &face, int requestedWeight, bool italic);

/// The face Qt's font database selects for `family` at `weight` (1–1000) and `italic`,
/// at a nominal 16 px: for its tables and character set, not for drawing. Qt substitutes
/// another family when `family` is not installed (check familyName()).
QRawFont selectedFace(const QString &family, int weight, bool italic);

/// The OpenType weight class (OS/2 usWeightClass) of `font`'s face; 400 when unknown.
int faceWeight(const QRawFont &font);

/// The stroke width in px Skia adds around every glyph of `font` for synthetic bold
/// (SkScalerContext's fake bold: the text size times 1/24 at 9 px to 1/32 at 36 px and
/// above), or 0 when the face is not emboldened: the weight asked for is at most 200
/// above the face's own. Advances are unchanged.
qreal syntheticBoldWidth(const QRawFont &font);

/// Whether `font` was asked for italic or oblique and its face is upright: Skia then
/// slants the glyphs by a skew of 1/4 (Blink's synthetic italic), at the same advances.
bool syntheticItalic(const QRawFont &font);

/// Puts `font`'s FreeType face back at a zero subpixel offset, so that the next outline
/// read from it (QRawFont::pathForGlyph(), QPainter's filled glyphs above 256 px) does not
/// depend on which glyphs were rasterised before (a Qt 6.4 defect, font_fallback.cpp).
/// Costs one .notdef rasterised at the font's size. glyphOutline() and paintGlyphRun()
/// call it. Linking this file sets QT_NO_FT_CACHE=1 for the process, without which Qt's
/// FreeType engine could answer that load from its cache.
void resetOutlineOrigin(const QRawFont &font);

/// Whether `font`'s face has glyph outlines (a `glyf`, `CFF ` or `CFF2` table), false for
/// a face of bitmaps only such as Noto Color Emoji's (CBDT). Asking Qt 6.4 for the outline
/// of a colour bitmap glyph (QRawFont::pathForGlyph()) leaves that glyph undrawable by
/// every engine of the face, at that size, for the rest of the thread: one bold emoji
/// (synthetic bold reads outlines) made later renders' emoji vanish. Cached per face and
/// thread.
bool hasOutlines(const QRawFont &font);

/// The outline of `glyph` in `font` at the origin (y down) with the synthetic styles of
/// `font`: slanted when syntheticItalic(), and emboldened when syntheticBoldWidth() says
/// so, every contour moved outwards by half the width, corners mitred, as a
/// stroke-and-fill of that width would grow it. Empty for a face without outlines
/// (hasOutlines()), which is never asked.
QPainterPath glyphOutline(const QRawFont &font, quint32 glyph);

/// The outlines of the glyphs of `run` (emoji included: empty) drawn with its baseline
/// origin at `at` (page px), each as glyphOutline() gives it, the face's origin reset once
/// for the run: for stroking them (-webkit-text-stroke), clipping to them
/// (background-clip: text) and filling them.
QPainterPath glyphRunOutline(const QGlyphRun &run, QPointF at);

/// For each glyph of `run` drawn with its baseline origin at `at` (page px) whose outline
/// crosses the horizontal band from `top` to `bottom` (page px), the x extent (from, to) of
/// its outline inside the band, in visual order: Skia's glyph intercepts
/// (SkFont::getIntercepts), which Blink's skip-ink cuts decorations around. Only glyphs
/// whose bounding box reaches the band are outlined; none for a face without outlines.
std::vector<std::pair<qreal, qreal>> glyphRunIntercepts(const QGlyphRun &run, QPointF at, qreal top, qreal bottom);

/// Draws `run` at `origin` in the painter's pen colour, as QPainter::drawGlyphRun does,
/// filling the emboldened outlines instead for a synthetic bold face.
void paintGlyphRun(QPainter &painter, QPointF origin, const QGlyphRun &run);

} // namespace imprint::render
