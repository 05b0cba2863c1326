#pragma once
// Variable fonts through static instances (docs/templates.md "Variable fonts").
//
// Qt 6.4 cannot set a variation axis on a QFont (QFont::setVariableAxis is Qt 6.7), so a
// run whose family is a variable face is drawn with a static instance of that face at
// the axis values CSS asks for (resources/font_instance.h instanceFont()), registered once
// per process under an internal family, as text/feature_faces.h does for frozen
// features. Measuring, line breaking and both painters (and the SVG's glyph outlines)
// then see the instance's outlines and advances without knowing about variations.
//
// Which axis values (CSS Fonts 4 §7.1 "Font variations", as Chromium applies them):
// - an uploaded face (an @font-face in the browser): wght = font-weight, wdth =
//   font-stretch, slnt = −(the oblique angle), ital = 1 for italic, opsz = the font size
//   in px (font-optical-sizing: auto);
// - an installed face (matched through fontconfig, as Chromium on Linux does): the named
//   instance nearest the weight on fontconfig's weight scale (ties to the lighter one),
//   width first when the face has a wdth axis; font-variation-settings does not apply to
//   it, as in Chromium 156 on Linux (a user who wants any axis value uploads the font);
// for an uploaded face font-variation-settings then overrides any axis; every value is
// clamped to its axis.

#include "server/render/style/computed_style.h"

#include <QString>

namespace imprint::render {

/// The most instances one process registers; past it a variable face is drawn at its
/// default instance (Qt cannot unregister a face a cached engine may still use).
inline constexpr int kMaxVariableInstances = 256;
/// The most bytes of instances one process registers (Qt keeps each in memory).
inline constexpr qint64 kMaxVariableInstanceBytes = 256LL * 1024 * 1024;

/// The family to draw `family` with for `style`'s weight, stretch, font-style, size and
/// font-variation-settings: the internal family of the instance of the variable face
/// `family` selects (see the top of this file), registered on first use; `family` itself
/// when it is not a variable face (the common case: a hash lookup), the face cannot be
/// read or instanced, or a process bound is reached. Thread-safe; the first call for an
/// instance reads and instances the font (a few ms), later ones are a hash lookup.
QString variableFamily(const QString &family, const InheritedStyle &style);

/// How many instances this process has registered (metrics, tests).
int variableInstanceCount();

} // namespace imprint::render
