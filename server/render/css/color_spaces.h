#pragma once
// The colour spaces of CSS Color 4 (https://www.w3.org/TR/css-color-4/) beyond sRGB:
// conversions between sRGB and CIE Lab/LCH (D50), OKLab/OKLCh, HWB, linear sRGB,
// Display P3, Rec. 2020 and CIE XYZ, with the matrices of the specification's §18
// sample code. Used by the colour parser (color.cpp) for lab(), lch(), oklab(),
// oklch(), hwb(), color() and color-mix(), and by gradients interpolated `in` a space
// (CSS Images 4 §3.1). Not part of the render contract.

#include <QString>
#include <QtGlobal>

#include <array>
#include <optional>

namespace imprint::render::css {

/// Three colour components in one space's own units (e.g. L 0–100, a, b for lab;
/// r, g, b 0–1 for the RGB spaces; h in degrees for the polar spaces). NaN marks a
/// `none` (missing) component (CSS Color 4 §4.4).
using Components = std::array<double, 3>;

/// The colour spaces a CSS colour can be written in or mixed in.
enum class ColorSpace {
    Srgb,
    SrgbLinear,
    DisplayP3,
    Rec2020,
    Lab,
    Lch,
    Oklab,
    Oklch,
    Hsl, ///< h degrees, s and l 0–100
    Hwb, ///< h degrees, w and b 0–100
    XyzD50,
    XyzD65,
};

/// The space a `color()` (§10.1) or `color-mix(in …)` (CSS Color 5 §2.1) name selects
/// (lower case: srgb, srgb-linear, display-p3, rec2020, lab, lch, oklab, oklch, hsl,
/// hwb, xyz, xyz-d50, xyz-d65); nullopt for any other name.
std::optional<ColorSpace> colorSpaceNamed(const QString &name);

/// True for the spaces with a hue component (hsl, hwb, lch, oklch), whose third (hsl,
/// hwb: first) component interpolates as an angle.
bool isPolar(ColorSpace space);

/// Index of the hue component of a polar space (0 for hsl/hwb, 2 for lch/oklch).
int hueIndex(ColorSpace space);

/// How a polar space's hue travels between two colours (CSS Color 4 §12.4).
enum class HueInterpolation : quint8 { Shorter, Longer, Increasing, Decreasing };

/// The hue interpolation method called `name` (shorter, longer, increasing, decreasing);
/// nullopt for any other name.
std::optional<HueInterpolation> hueInterpolationNamed(const QString &name);

/// A colour as gamma-encoded sRGB components, not clipped (0–1 within the gamut), and alpha 0–1.
struct SrgbColor {
    Components rgb{};
    double alpha = 1;
};

/// The colour at `t` (0 = `a`, 1 = `b`) between `a` and `b` interpolated in `space` (CSS
/// Color 4 §12): both converted to it, a missing component taking the other's (§12.2),
/// premultiplied by alpha (§12.3), hues along `hue`'s arc (§12.4); back in sRGB, unclipped.
SrgbColor interpolate(ColorSpace space, HueInterpolation hue, const SrgbColor &a, const SrgbColor &b, double t);

/// `c` in `space` as gamma-encoded sRGB, components 0–1 but not clamped: a colour outside
/// the sRGB gamut comes back with components outside 0–1 (the caller clips, as Chromium
/// draws such colours). `none` components count as 0.
Components toSrgb(ColorSpace space, Components c);

/// Gamma-encoded sRGB `rgb` (0–1) in `space`.
Components fromSrgb(ColorSpace space, Components rgb);

} // namespace imprint::render::css
