#pragma once
// Fullwidth punctuation collapsing (CSS Text 4 §4.2, `text-spacing-trim: normal`, its
// `trim-adjacent` part), as Chromium does it (Blink's HanKerning): in "」、「" or "（注）・"
// the blank half of a fullwidth bracket, comma or full stop that meets another
// punctuation mark's blank half is removed, the way a Japanese or Chinese typesetter sets
// them. Chromium applies the font's `halt` feature to the glyph it trims; Qt 6.4 has no
// per-glyph feature control, so the same advance is taken off with letter-spacing:
// the closing mark's own advance, or for an opening mark the advance of the character
// before it, which puts every ink where `halt` puts it.
//
// An opening mark that starts a wrapped line keeps its blank half: Chromium 156 does not
// trim there either (measured against its screenshots).

#include <QList>
#include <QRawFont>
#include <QString>
#include <QTextLayout>

#include <functional>

namespace imprint::render::text_detail {

/// The classes of CSS Text 4 §4.2.2 "Text Spacing Character Classes" as Blink reads them
/// (HanKerningCharType) before the font is known.
enum class TrimClass : quint8 {
    Other,
    Open, ///< fullwidth opening punctuation: Ps in CJK Symbols and Punctuation or East Asian Width F
    Close, ///< fullwidth closing punctuation: Pe likewise
    Middle, ///< middle dots and the ideographic space
    OpenNarrow, ///< any other Ps
    CloseNarrow, ///< any other Pe
    Dot, ///< 、。，． : Close or Middle by where the face puts their ink
    Colon, ///< ：
    Semicolon, ///< ；
    OpenQuote, ///< ‘ “ : Open when the face draws them fullwidth, else OpenNarrow
    CloseQuote, ///< ’ ” : likewise
};

/// The class of `c`.
TrimClass trimClass(char32_t c);

/// Whether `text` has a character that may be trimmed (a cheap range test, Blink's
/// MaybeHanKerningOpenOrCloseFast()): when false, spacingTrimRanges() has nothing to do.
bool mayTrimSpacing(QStringView text);

/// The letter-spacing format ranges that collapse adjacent fullwidth punctuation in
/// `text` (UTF-16, as shaped: break controls included, which are skipped over).
/// `faceAt(i)` is the face that draws the character at `i` (an invalid QRawFont when
/// none): only a face with the OpenType `halt` feature is trimmed, as in Blink, and its
/// glyph bounds tell where dots, colons and quotes put their ink. `pixelSize` is the
/// run's shaping size in px and `baseSpacing` the letter-spacing (px) the characters
/// already have; each range sets letter-spacing to `baseSpacing` minus half the trimmed
/// glyph's advance. Empty when nothing is trimmed.
QList<QTextLayout::FormatRange> spacingTrimRanges(QStringView text, const std::function<QRawFont(qsizetype)> &faceAt,
                                                  qreal pixelSize, qreal baseSpacing);

} // namespace imprint::render::text_detail
