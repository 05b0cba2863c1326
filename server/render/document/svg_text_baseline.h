#pragma once
// dominant-baseline and alignment-baseline on the text of an inline <svg>, written as a
// shift of the text's start (SVG 2 §11.10.2, CSS Inline 3 §4.1). The layout engines draw
// inline svgs with librsvg 2.54, which ignores both properties: a label centred with
// `dominantBaseline="central"` (the percentage in a progress ring, an avatar's initials)
// sat on its baseline, a third of the font size above where Chromium puts it. The writer
// (inline_svg.cpp) moves such text by the distance Chromium's baseline table gives and
// drops the property, so librsvg and the browsers that open the satori engine's SVG
// output both draw it there.

#include "server/render/css/values.h"

#include <QString>

#include <functional>

namespace imprint::render {

struct ComputedStyle;

/// The font of an element inside an inline <svg>, as its text inherits it.
struct SvgTextFont {
    QString family; ///< a CSS font-family list, as written
    double size = 16; ///< user units
    int weight = 400; ///< 1–1000
    bool italic = false;
    QString dominantBaseline; ///< the inherited dominant-baseline keyword, lower case; empty = auto
    TextTransform textTransform = TextTransform::None; ///< inherited; librsvg ignores it, the writer applies it
};

/// `parent`'s font with the element's own declarations applied: `own(camelName)` is the
/// element's value of a property (its style, else its attribute; empty: not set) for
/// fontFamily, fontSize (a length or percentage, em and % of the parent's; others keep the parent's),
/// fontWeight (css::fontWeight()), fontStyle, dominantBaseline and textTransform.
SvgTextFont svgTextFont(const SvgTextFont &parent, const std::function<QString(const char *)> &own);

/// The size (px) SVG text fonts are measured at: a font engine per size a template
/// writes (`fontSize="1e30"` too) is memory and time the metrics, which scale with the
/// size, do not need.
constexpr double kSvgTextNominalSize = 64;

/// `font` as a computed style at kSvgTextNominalSize, for the text module's measures
/// (font_units.h): its family list unquoted, weight clamped to 1–1000, italic or normal.
ComputedStyle svgTextNominalStyle(const SvgTextFont &font);

/// How far below the alphabetic baseline a text's glyphs move (user units; negative:
/// up) for the baseline keyword `baseline` (a dominant-baseline or alignment-baseline
/// value) in `font`, as Chromium 156 places them: `middle` half the x-height, `central`
/// half of ascent minus descent, `mathematical` half the ascent, `hanging` 0.8 of it,
/// `text-before-edge`/`before-edge` the ascent, `text-after-edge`/`after-edge`/
/// `ideographic` minus the descent (the font's own metrics, measured through
/// fontUnitSizes()); 0 for `auto`, `alphabetic`, `baseline` and what Chromium ignores
/// (`text-top`, `text-bottom`, unknown words).
double svgBaselineShift(const SvgTextFont &font, const QString &baseline);

} // namespace imprint::render
