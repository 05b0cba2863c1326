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

} // namespace imprint::render
