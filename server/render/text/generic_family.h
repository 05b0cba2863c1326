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

/// genericFamily() for text in `lang` (a BCP 47 tag): for a language written with Han
/// (Japanese, Korean, Chinese) sans-serif and serif are the family fontconfig matches for
/// that language and a Han character ("Noto Sans CJK TC" for zh-TW, "Noto Serif CJK JP"
/// for serif in ja), as Blink resolves a generic family for a Han locale
/// (FontCache::GetGenericFamilyNameForScript(), not for monospace): the family then
/// takes the text's weight and style like any named family (a real Bold), where the same
/// characters without `lang` come from per-character fallback in its regular face. Any
/// other language gets genericFamily(generic). Cached per family and language.
QString genericFamily(GenericFamily generic, const QString &lang);

} // namespace imprint::render
