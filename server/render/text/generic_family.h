#pragma once
// CSS generic font families (CSS Fonts 4 §4.2) resolved the way Chromium resolves them on
// Linux: by asking fontconfig what the machine's "sans-serif", "serif" and "monospace"
// are, so that a template written with `sans-serif`, `system-ui` or a family the server
// does not have is drawn with the same face as in the browser its author previews in.

#include <QString>

namespace imprint::render {

/// The generic families a template may name.
enum class GenericFamily { SansSerif, Serif, Monospace };

/// The installed family fontconfig matches `generic` to on this machine (e.g. "Noto Sans"
/// for sans-serif when Debian's fonts-noto-core is installed), asked once per process and
/// cached. When fontconfig has no answer: DejaVu Sans, DejaVu Serif or DejaVu Sans Mono.
QString genericFamily(GenericFamily generic);

/// genericFamily() for text in `lang` (a BCP 47 tag), as Chromium resolves a generic family
/// for the content language: through its default per-script font preferences, which name
/// families for Japanese, Korean, Simplified and Traditional Chinese and Devanagari (the
/// language's likely script, ICU): sans-serif in `zh-TW` is Noto Sans CJK TC, serif in
/// `hi` Noto Serif Devanagari, monospace in `ja` Noto Sans Mono CJK JP. Such a family then
/// takes the text's weight and style like any named family (a real Bold), where the same
/// characters without `lang` come from per-character fallback in its regular face. A
/// script without a preference, or whose families are not installed: genericFamily(generic).
/// Cached per family and language.
QString genericFamily(GenericFamily generic, const QString &lang);

/// The standard font for text in `lang`: the family Blink tries after a font-family list
/// and before per-character fallback (FontFallbackList's -webkit-standard), and draws with
/// when nothing the list names is installed. The script's preferred standard family, as
/// genericFamily(generic, lang) (Noto Sans Devanagari for `hi`: a bold Devanagari title in
/// Inter is Noto Sans Devanagari Bold), else the sans-serif face.
QString standardFamily(const QString &lang);

} // namespace imprint::render
