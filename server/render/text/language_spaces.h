#pragma once
// The width of spaces and digits in the content language. Blink shapes every run with its
// language (HarfBuzz's `locl` feature of the language system), Qt 6.4 without one; fonts
// made for several languages give a language its own glyphs: Noto Sans CJK's Korean space
// is 0.28 em against the default 0.224, Noto Serif CJK's digits are 0.558 em in Japanese,
// Chinese and Korean against the default 0.549. Spaces and digits whose width the
// language changes get the difference as letter-spacing (text_runs.cpp), so lines are as
// wide as Chromium's.

#include <QRawFont>
#include <QString>

namespace imprint::render {

/// How much wider (px at `pixelSize`; negative: narrower) `c` is in `face` when HarfBuzz
/// shapes it, with the Latin script, for the BCP 47 language `lang` than without a
/// language, as Qt shapes it. Only U+0020 and the digits 0–9 are looked at; 0 for any other
/// character, no `lang`, a face without a `locl` that changes them or an unreadable face.
/// Read through HarfBuzz from the face's tables once per face and language, then cached for
/// the process.
qreal languageAdvanceDelta(const QRawFont &face, const QString &lang, char32_t c, qreal pixelSize);

} // namespace imprint::render
