#pragma once
// Internal to the text module (not for other folders): what its files share. The module
// follows its specs in file order: text_runs.cpp turns a run's characters into the
// format ranges and break controls Qt shapes (CSS Fonts 4 fallback, CSS Text 3
// white-space, word-break, Chromium's ASCII breaks); text_lines.cpp breaks a run into
// lines (text-wrap balance/pretty, text-indent, text-overflow and line-clamp ellipsis,
// bidi visual order); inline_layout.cpp lays a paragraph of mixed runs out in line boxes
// (CSS Inline 3); text_engine.cpp is the public TextEngine with its per-thread cache.

#include "server/render/style/text_transform.h"
#include "server/render/text/text_engine.h"

#include <QFont>
#include <QFontMetricsF>
#include <QGlyphRun>
#include <QList>
#include <QRawFont>
#include <QString>
#include <QStringList>
#include <QTextLayout>
#include <QTextOption>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace imprint::render::text_detail {

/// Shared constants of the text module's files.
inline constexpr qreal kNoWrapWidth = 1e6; // wide enough for any line, small enough for QFixed

inline constexpr qreal kWidthEpsilon = 0.01; // layout's float sums must not break a line early

inline constexpr QChar kEllipsis(0x2026); // the "…" of text-overflow and line-clamp

/// Whether `c` is white space that CSS Text 3 §4.1.1 collapses (space, tab, segment breaks).
/// Inline: called per character.
inline bool isCollapsibleSpace(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\n' || c == u'\r' || c == u'\f';
}

/// Appends `text` to `out` as white-space: pre and pre-wrap keep it (CSS Text 3 §4.1.2): every
/// character stays but a segment break (CR LF, LF or CR) becomes one line separator.
inline void appendPreserved(QString &out, QStringView text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n')
            continue;
        out += (c == u'\n' || c == u'\r') ? QChar::LineSeparator : c;
    }
}

/// `text` under `hyphens` (CSS Text 3 §5.4), after text-transform as in Blink: `none`
/// drops the soft hyphens (U+00AD), `auto` adds them at the hyphenation opportunities of
/// the element's `lang` (resources/hyphenation.h), `manual` keeps the author's.
/// `endsParagraph`: `text` is the end of its paragraph, whose last word stays whole.
QString applyHyphens(const QString &text, const ComputedStyle &style, bool endsParagraph = true);

/// The families of a run's font: those `requested` names (generics resolved for `lang`,
/// genericFamily()), then the installed fallbacks; `*named` (when given) is how many came
/// from `requested`.
QStringList familyList(const QStringList &requested, const QString &lang, qsizetype *named = nullptr);

/// The advance, in px at `pixelSize`, of `c` in `face` (a face at any nominal size), read
/// with `flags`; 0 when the face has no glyph for it.
qreal characterAdvance(const QRawFont &face, char32_t c, qreal pixelSize, QRawFont::LayoutFlags flags);

/// The faces of `families` that `s`'s weight and style select, one per installed family
/// (a family that is not installed gives none), at a nominal size: only their character
/// sets and tables are asked. Cached per thread.
std::vector<QRawFont> primaryFaces(const QStringList &families, const ComputedStyle &s);

/// The code point at index `i` of UTF-16 `text`, and in `*units` the code units it takes:
/// 2 for a surrogate pair, else 1 (a lone surrogate stands for itself).
inline char32_t codePointAt(QStringView text, qsizetype i, qsizetype *units)
{
    if (QChar::isHighSurrogate(text.at(i).unicode()) && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
        *units = 2;
        return QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
    }
    *units = 1;
    return text.at(i).unicode();
}

/// `word-break: keep-all` (CSS Text 3 §5.2): no soft wrap opportunity between two
/// letters or numbers, so CJK words break only where spaces or punctuation allow, like
/// Latin ones. Qt's line breaker has no such mode; a WORD JOINER (U+2060, UAX #14 class
/// WJ, default-ignorable so it shapes to nothing) between such a pair removes the break.
QString joinCjkWords(const QString &text);

/// `text` with Chromium's breaks between printable ASCII characters made explicit for
/// Qt's UAX #14 line breaker: U+200B ZERO WIDTH SPACE where Chromium breaks
/// (chromiumBreaksBetween()), U+2060 WORD JOINER after the characters where UAX #14
/// breaks and Chromium does not ("/", closing brackets, "|", "%", "!", "+", "$", "\\"). Both are
/// invisible and have no advance, but they stop kerning across them, so nothing is
/// inserted after a letter or digit: UAX #14 never breaks there between ASCII characters.
/// A U+200B also goes between two Hangul syllables, where Chromium (ICU) breaks Korean
/// and Qt 6.4's line breaker does not, and before small kana and the prolonged sound
/// mark (UAX #14 CJ) after kana or an ideograph, where Chromium breaks (ICU's normal
/// rules: CJ is ID) and Qt 6.4 does not (CJ as NS).
QString withChromiumBreaks(const QString &text);

/// Whether `text` has a character of the Thai, Lao, Khmer or Myanmar blocks (UTF-16 code
/// units compared with six ranges): only such text pays for withDictionaryBreaks().
bool hasDictionaryScript(QStringView text);

/// `text` with Chromium's line breaks in runs of Thai, Lao, Khmer and Myanmar (scripts
/// written without spaces between words, UAX #14 class SA) made explicit for Qt's line
/// breaker. Chromium breaks them where ICU's line BreakIterator does (UAX #14 with ICU's
/// word dictionaries for these scripts), here for the locale `lang` (BCP 47; the root
/// locale when empty). Qt 6.4 keeps a run of Lao, Khmer or Myanmar whole (SA as AL), and
/// breaks a run of Thai where libthai's dictionary does when libthai is installed (it
/// dlopen()s it; "เว็บ|ไซต์", where ICU keeps "เว็บไซต์" whole), deciding every break
/// inside a Thai script run itself: a U+2060 WORD JOINER or U+200B there does not stop it
/// from breaking after them, and it never breaks at the run's start ("Graph |สำหรับ").
/// So, between two grapheme clusters next to such a character, where ICU breaks and Qt
/// would not, a U+200B ZERO WIDTH SPACE goes in; where Qt would break and ICU does not, a
/// U+180E MONGOLIAN VOWEL SEPARATOR: default-ignorable (no glyph, no advance), UAX #14
/// class GL (no break on either side, but one after a space), and of another script, so
/// it ends Qt's Thai run and the run after it starts unbroken; where a Thai run starts
/// at a break ICU finds, U+180E after a space, else both (U+200B breaks before U+180E),
/// as Qt never breaks at a Thai run's first character. Qt's breaks are asked
/// again after each round until they agree with ICU's. Text without these scripts is
/// returned as is (hasDictionaryScript()).
QString withDictionaryBreaks(const QString &text, const QString &lang);

/// Whether `c` is one of the invisible break controls the engine inserts (U+200B, U+2060,
/// U+180E: withChromiumBreaks(), joinCjkWords(), withDictionaryBreaks()).
inline bool isBreakControl(QChar c)
{
    return c.unicode() == 0x200B || c.unicode() == 0x2060 || c.unicode() == 0x180E;
}

/// The QTextLayout wrap mode that white-space, word-break and overflow-wrap ask for
/// (CSS Text 3 §3 and §5).
QTextOption::WrapMode wrapModeFor(const ComputedStyle &s);

/// Horizontal alignment factor (0 left, 0.5 centre, 1 right) of a non-justified line,
/// start/end resolved against `direction` (CSS Text 3 §7.1).
qreal alignFactor(TextAlign align, Direction direction);

/// px from the start of a box `avail` px wide to a line `alignWidth` px wide aligned by
/// `factor` (alignFactor(); CSS Text 3 §7.1). A line wider than the box spills on both
/// sides when centred and to the left when right-aligned.
qreal alignedLineLeft(qreal avail, qreal alignWidth, qreal factor);

/// Moves every glyph of `runs` by `by` px.
void translateGlyphRuns(QList<QGlyphRun> &runs, QPointF by);

/// The format ranges of a text run: characters the font-family list lacks in their
/// fallback face, emoji clusters in the colour emoji font (emoji.h), small capitals the
/// face lacks (synthesizesSmallCaps(): lowercase letters, or every character under the
/// all- variants, as capitals at 0.7 of the size rounded to whole CSS px, as Chromium
/// draws them; `pxPerUnit` is how many CSS px one unit of `font` stands for), and, when
/// the style sets letter-spacing, the letters of cursive scripts (with their combining
/// marks) without it.
QList<QTextLayout::FormatRange> formatRangesFor(const QString &text, const QFont &font, const ComputedStyle &s,
                                                qreal pxPerUnit = 1);

/// Format ranges for the small capitals `s` asks for and its face lacks
/// (synthesizesSmallCaps(), as Blink's SmallCapsIterator draws them): the characters that
/// change when uppercased (every character under all-small-caps and all-petite-caps,
/// split where that changes) in `font` as capitals at 0.7 of its size, rounded to whole
/// CSS px (`pxPerUnit` CSS px per unit of `font`). Empty when nothing is synthesized.
QList<QTextLayout::FormatRange> syntheticSmallCapsRanges(const QString &text, const QFont &font, const ComputedStyle &s,
                                                         qreal pxPerUnit);

/// `text` with each code point in its simple uppercase form (Unicode's one-to-one case
/// mapping, so every offset stays where it was: "ß" stays "ß").
QString simpleUppercase(const QString &text);

/// One shaped line of a run before it is placed: its glyph runs and extent.
struct ShapedLine {
    QList<QGlyphRun> runs; // positions with the baseline at y = baselineInRuns
    qreal baselineInRuns = 0;
    qreal width = 0;
    qreal alignWidth = -1; // width text-align centres/ends by, when not `width`
    int textStart = 0, textLength = 0;
    qreal qtOffset = 0; // px Qt itself moved the runs to align the line (a justified paragraph's last line)
};

/// The QTextOption a run or paragraph is laid out with: `wrap`, the base direction of
/// `s`, justification when `justify`, design metrics (no hinting, as Chromium measures).
QTextOption textOptionFor(const ComputedStyle &s, QTextOption::WrapMode wrap, bool justify);

/// Lays out `line` (the last line `layout`'s beginLayout() created) with as much text as
/// fits `width` px by its glyphs' advances, as Blink's line breaker measures (CSS Text 3
/// §5.1; an overflowing single unit stays, as Qt keeps it). Qt 6.4 also counts the last
/// glyph's ink past its advance (a negative right bearing: the leg of a bold "k", an
/// italic "f"), so where that ink overhangs the box edge a line lost the last word Chromium
/// keeps. `overhang` px of such ink (half the largest font size of the line) is allowed
/// first; the line is then narrowed just inside its advance while that is wider than
/// `width`, each step dropping at least a break unit.
/// Justified lines (`justify`) keep Qt's own fit: Qt stretches them to the width they were
/// last laid out at.
void setLineWidthByAdvance(QTextLine &line, qreal width, qreal overhang, bool justify);

/// Shapes `text` as one unwrapped line (the ellipsized replacement of a line).
ShapedLine shapeSingleLine(const QString &text, const QFont &font, const ComputedStyle &s);

/// The advance width of `text` shaped as one unwrapped line.
qreal singleLineWidth(const QString &text, const QFont &font, const ComputedStyle &s);

/// The width lines are broken at under text-wrap-style (CSS Text 4 §6.2), for a paragraph
/// whose box is `lineWidth` px wide: `balance` bisects for the narrowest width that keeps
/// the line count (as Blink's paragraph balancer does); `pretty` narrows the lines just
/// enough that the last one holds two words (Blink scores whole paragraphs; this keeps
/// its visible effect, no orphan); otherwise `lineWidth`. Lines are counted as
/// setLineWidthByAdvance() lays them out, with `overhang`.
qreal wrapWidthFor(QTextLayout &layout, TextWrapStyle style, qreal lineWidth, qreal overhang);

/// Step: the lines of text-wrap-style `balance` and `pretty` (CSS Text 4 §6.2) chosen as
/// Chromium chooses them, by Blink's ScoreLineBreaker (Minikin's optimal line breaker):
/// of the places the paragraph may break, the ones whose lines leave the least squared
/// room (the last line's room free under `pretty`), with a penalty per line and one for
/// breaking before the last word. `balance` applies to a paragraph of 2 to 6 greedy
/// lines, `pretty` to one of 2 to 4 whose last line is one word shorter than a third of
/// the width; others keep their greedy lines. `layout` has its text, formats and options
/// set; `lineWidth` px is the box's width (the first line `indent` px narrower),
/// `overhang` as setLineWidthByAdvance() takes it, `fontSize` px the block's; all in the
/// layout's units, of which one is `pxPerUnit` CSS px (Blink's penalties are in px²).
/// Returns each line's length in characters, an empty list when the greedy lines stand,
/// or nullopt for a paragraph the scorer does not model (a soft hyphen, a forced break,
/// right-to-left text, breaks inside words), which wrapWidthFor() narrows instead.
std::optional<std::vector<int>> scoredLineLengths(QTextLayout &layout, TextWrapStyle style, qreal lineWidth,
                                                  qreal indent, qreal overhang, qreal fontSize, qreal pxPerUnit);

/// text-indent in px for a block `width` px wide (CSS Text 3 §8.1); a percentage of an
/// indefinite width (intrinsic sizing) counts as 0, as in Chromium.
qreal textIndentFor(const ComputedStyle &s, qreal width);

/// The rounded font metrics and line-height contribution of one inline box's style (CSS
/// Inline 3 §4.2): `above`/`below` the baseline include the half-leading.
struct FontBox {
    qreal ascent = 0, descent = 0, above = 0, below = 0;
};

FontBox fontBoxFor(const ComputedStyle &s);

/// `box` grown by the fonts `runs` actually use, for a box whose `line-height` is
/// `normal`: as in Chromium, a fallback font (CJK, Arabic, emoji) contributes its own
/// rounded ascent and descent plus half its line gap to the line box (CSS Inline 3 §4.2,
/// "normal" lets the UA use the metrics of all fonts in the box). Other line heights keep
/// `box` unchanged. `scale` takes the runs' metrics to the size they stand for (runs
/// shaped at another size, shapeAtShapingSize()).
FontBox withUsedFonts(const ComputedStyle &s, FontBox box, const QList<QGlyphRun> &runs, qreal scale = 1);

/// Whether bidi reordering (UAX #9 §3.4 L2) can put `text` (a paragraph, or a line of
/// it) in another visual order than its logical one in a paragraph of `direction`: an
/// RTL paragraph with left-to-right letters or digits, an LTR one with right-to-left
/// letters, Arabic digits or explicit embeddings. Only such lines need visualCells().
bool mayReorder(QStringView text, Direction direction);

/// Lines longer than this (characters) keep the logical-range measure: each cluster's
/// measure walks the line, so the visual map costs the square of the line's length.
inline constexpr int kMaxVisualCells = 2048;

/// One grapheme cluster of a line where bidi reordering put it: its first character in
/// the paragraph string and its left and right edge in px (the line's coordinates).
struct VisualCell {
    int pos = 0;
    qreal left = 0, right = 0;
};

/// The grapheme clusters of `line` from `from` to `to`, left to right (UAX #9 §3.4 L2).
/// Each cluster is measured alone, by its leading and trailing edge: QTextLine::cursorToX()
/// at a range of characters' ends answers for whichever run meets the other there. At the
/// first cluster of a directional run Qt 6.4 puts both edges on the run boundary, and at
/// the last cluster of a right-to-left run before a left-to-right one it answers with the
/// next run's edges ("…السلامة." put the "ة" on the "."); such clusters are measured by
/// their glyphs' positions and advances instead.
std::vector<VisualCell> visualCells(const QTextLayout &layout, const QTextLine &line, int from, int to);

/// The decoration metrics of a run whose primary font has the metrics `fm`, at `fontSize`
/// px, as Chromium places decorations (Blink's TextDecorationInfo and
/// ComputeDecorationThickness): the auto thickness is a tenth of the font size (at least
/// 1 px), `from-font` the font's own; the overline rests on the text's top (the rounded
/// ascent above the baseline); the line-through is centred two thirds of the ascent below
/// that top. `scale` takes `fm`'s metrics to the size they stand for (metricsFontFor()).
DecorationMetrics decorationMetrics(const QFontMetricsF &fm, qreal fontSize, qreal scale = 1);

/// decorationMetrics() of text in `s` at its exact size: the metrics read at
/// metricsPixelSize() and scaled, the ascent rounded at the exact size as Blink rounds it.
/// A run shaped at another size (shapeAtShapingSize()) takes these, not its shaping size's
/// scaled back: -round(4a) / 4 put an overline a fraction of a pixel off.
DecorationMetrics decorationMetricsAt(const ComputedStyle &s);

/// Whether `raw` in `s` breaks into the same lines at any width its max-content lines fit
/// as at max-content: nothing in the style but alignment depends on the box's width (no
/// justify, line-clamp, ellipsis, balanced or pretty wrapping, text-fit, text-indent,
/// automatic or soft hyphens, preserved spaces or a fractional size). Then a run already
/// shaped at max-content need not be shaped again at such a width (maxContentPlacedAt()).
bool breaksAsAtMaxContentWhereItFits(const ComputedStyle &s, const QString &raw);

/// `maxContent`, shapeUncached()'s block of a run at max-content, placed for a box `width`
/// px wide: its one line moved to where text-align puts it, every glyph with it. Null
/// when it has more than one line, an ellipsis, or an advance wider than `width` (Qt's line
/// breaker keeps such a line whole: 4 000 runs of 10 families, italic and bold, 13–72 px,
/// measured at exactly their max-content width, broke none). Requires
/// breaksAsAtMaxContentWhereItFits().
std::shared_ptr<const TextBlock> maxContentPlacedAt(const TextBlock &maxContent, const ComputedStyle &s, qreal width);

/// Shapes, breaks and aligns one text run `raw` under `s` within `width` px (see
/// TextEngine::shape(); the cache sits in front of this). `lineLengths`, when given, are
/// the characters of each line (of the processed run) instead of breaking at `width`:
/// text-fit scales a run's lines without moving their breaks.
std::shared_ptr<const TextBlock> shapeUncached(const ComputedStyle &s, const QString &raw, qreal width,
                                               const std::vector<int> *lineLengths = nullptr);

/// The whole pixel size Qt makes a face at for a font size of `px`: Qt's font engines come
/// in whole pixels (QFontPrivate::engineForScript() rounds the size, Qt 6.4; QFont has no
/// fractional pixel size). Vertical metrics are read at this size and scaled by
/// px / metricsPixelSize(px) (metricsFontFor()). Whole sizes, and sizes below 1 px, are
/// their own.
inline qreal metricsPixelSize(qreal px)
{
    return px >= 1 && px != std::floor(px) ? std::round(px) : px;
}

/// How many times larger than its size text is shaped. Qt 6.4 keeps a glyph's advance in
/// 1/64 px and truncates it (QFontEngineFT takes FreeType's 16.16 linear advance >> 10),
/// where Skia keeps the 16.16 value: a line of n glyphs came out about n/128 px shorter
/// than Chromium's (1.3 px over 120 letters of 15 px Noto Sans). Shaped 8 times larger and
/// scaled back, a glyph is at most 1/512 px short (4 times: 1/256 px, and 0.02 less SSIM
/// summed over the render suites' 339 cards).
inline constexpr int kShapingScale = 8;

/// The largest pixel size text is shaped at: larger text is shaped fewer times larger.
inline constexpr qreal kMaxShapingSize = 2048;

/// The whole pixel size text of `px` is shaped at (kShapingScale), its advances, glyph
/// positions and widths then scaled by px / shapingPixelSize(px) (shapeAtShapingSize()).
/// Sizes below 1 px are their own.
inline qreal shapingPixelSize(qreal px)
{
    if (px < 1)
        return px;
    const qreal times = std::clamp(std::floor(kMaxShapingSize / px), qreal(1), qreal(kShapingScale));
    return std::round(px * times);
}

/// TextEngine::fontFor(s) without letter-spacing, at the whole pixel size it is measured at
/// (metricsPixelSize()); `*scale` receives the factor from its metrics to the exact size's
/// (1 at whole sizes).
QFont metricsFontFor(const ComputedStyle &s, qreal *scale);

/// shapeUncached() of a run (of at least 1 px): the run laid out at shapingPixelSize() in a
/// box widened by the same ratio, every px length that adds to the advances (letter- and
/// word-spacing, text-indent, tab stops) multiplied by it, then scaled to the exact size:
/// positions and advances scaled, glyphs drawn from their QRawFont at the exact size, line
/// boxes from the exact size's rounded ascent, descent and line gap (CSS Inline 3 §4.2, as
/// Blink's SimpleFontData rounds them), so 22.5 px text is 22.5 px wide and tall as in
/// Chromium, and a line's advance is Chromium's within 1/512 px a glyph (fractional_size.cpp).
std::shared_ptr<const TextBlock> shapeAtShapingSize(const ComputedStyle &s, const QString &raw, qreal width,
                                                    const std::vector<int> *lineLengths);

/// shapeUncached() with the run shaped at its own size `s.fontSize` as Qt makes the face
/// (text_lines.cpp): shapeAtShapingSize()'s layout. `pxPerUnit` is how many CSS px one
/// unit of `s` and `width` stands for (shapeAtShapingSize() lays out scaled up), for the
/// scorer's constant penalties (scoredLineLengths()).
std::shared_ptr<const TextBlock> shapeAtOwnSize(const ComputedStyle &s, const QString &raw, qreal width,
                                                const std::vector<int> *lineLengths, qreal pxPerUnit = 1);

/// Whether text-fit acts on a run of style `s` laid out `width` px wide: a fit type other
/// than none and a definite width (intrinsic sizes are measured unfitted, as in Chromium).
bool fitsText(const ComputedStyle &s, qreal width);

/// px: a line within this of its box's inline size is left alone by text-fit (Blink's
/// LineFitter epsilon, 2 × the device pixel ratio, at ratio 1).
inline constexpr qreal kFitEpsilon = 2;

/// `s` with its font size multiplied by `k` and text-fit off (what is scaled is laid out as
/// is; text_fit.cpp).
ComputedStyle fitScaledStyle(const ComputedStyle &s, qreal k);

/// A scale the fit type allows, the <percentage> limit applied (Blink: grow takes
/// min(scale, max(limit, 1)), shrink max(scale, min(limit, 1))); 0 when it does not apply.
qreal allowedFitScale(const TextFit &fit, qreal k);

/// `line` moved down by `dy` px (its glyphs with it).
TextLine movedLine(TextLine line, qreal dy);

/// The smallest scale Imprint's shrink-to-box goes to for style `s`: its `<percentage>`,
/// its `<length>` over the font size, else 1/64.
qreal shrinkToBoxFloor(const ComputedStyle &s);

/// Imprint's shrink-to-box search: the largest scale in [lo, 1) at which `fitsAt(k)` holds
/// (it lays the text out at scale k and keeps what fits), `lo` first, then a fixed number
/// of bisections, so its cost is bounded; `lo` when even that does not fit (the text
/// overflows there as without textFit).
qreal searchBoxScale(qreal lo, const std::function<bool(qreal)> &fitsAt);

/// A run laid out under text-fit (CSS Text 5 §text-fit-property as Chromium 156, or
/// Imprint's shrink-to-box; text_fit.cpp). Requires fitsText(s, width).
std::shared_ptr<const TextBlock> fitTextUncached(const ComputedStyle &s, const QString &raw, qreal width);

/// CSS Inline 3 §5: lays `items` out in lines of `width` px (see TextMeasurer::layoutInline).
/// The paragraph is laid out inlineShapingScale() times larger (layoutInlineAtMixedSizes());
/// a paragraph that cannot be (text past kMaxShapingSize) by layoutInlineShaped(). With
/// `lineLengths` (text-fit) line i holds (*lineLengths)[i] characters of the paragraph
/// string (InlineLine::length) instead of breaking at the width.
InlineLayout layoutInlineUncached(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width,
                                  const std::vector<int> *lineLengths = nullptr);

/// layoutInlineUncached() with the text at Qt's whole pixel sizes (inline_layout.cpp), or,
/// with `shapingSizes` (by item), each Text item shaped at the whole px size given there;
/// line boxes take the exact sizes' metrics either way.
/// `pxPerUnit`: how many CSS px one unit of `block`, `items` and `width` stands for
/// (layoutNarrowed() lays out scaled), for the scorer's constant penalties.
InlineLayout layoutInlineShaped(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width,
                                const std::vector<int> *shapingSizes = nullptr,
                                const std::vector<int> *lineLengths = nullptr, qreal pxPerUnit = 1);

/// The largest font size (px) of the Text items of `items`; 0 without any.
float largestTextSize(const std::vector<InlineItem> &items);

/// The whole factor m (kShapingScale to kMaxUpscale) that brings the font sizes of every
/// Text item of `items` nearest to whole pixel sizes (size × m): kShapingScale when they
/// are whole; fewer than kShapingScale times (down to 1) when the largest would pass
/// kMaxShapingSize.
int inlineShapingScale(const std::vector<InlineItem> &items);

/// An inline paragraph laid out `m` times larger (inlineShapingScale()), each Text item
/// shaped at the whole size nearest size × m, in coordinates widened by m (the width,
/// text-indent, letter- and word-spacing, inline box edges and atomic widths multiplied),
/// then narrowed back with the glyphs drawn at the exact sizes, as shapeAtShapingSize()
/// does for a run. Line boxes are the exact sizes'.
InlineLayout layoutInlineAtMixedSizes(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width,
                                      int m, const std::vector<int> *lineLengths = nullptr);

/// The union of `block`'s line boxes' spans (px, its lines' left/width and top/height):
/// the size of a Text item's TextBlock in an inline paragraph.
QRectF linesBounds(const TextBlock &block);

/// A rich paragraph (CSS Inline 3 inline formatting context) laid out under its block's
/// text-fit (CSS Text 5 §text-fit-property as Chromium 156; inline_fit.cpp): the lines
/// broken unscaled, then every Text item on a line scaled by the line's factor (one for
/// the block under `consistent`), inline box edges and atomic inlines left as they are;
/// under Imprint's shrink-to-box all its text by the largest factor at which the paragraph,
/// wrapped anew, fits the block. Requires fitsText(block, width).
InlineLayout fitInlineUncached(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width);

} // namespace imprint::render::text_detail
