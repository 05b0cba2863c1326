// Colour space conversions, after CSS Color 4 §18 "Sample code for color conversions"
// (https://www.w3.org/TR/css-color-4/#color-conversion-code): every space goes through
// CIE XYZ (D65, or D50 for Lab/LCH with a Bradford adaptation between them).

#include "server/render/css/color_spaces.h"

#include <algorithm>
#include <cmath>

namespace imprint::render::css {

namespace {

using Matrix = std::array<std::array<double, 3>, 3>;

Components multiply(const Matrix &m, const Components &v)
{
    Components out{};
    for (int i = 0; i < 3; ++i)
        out[size_t(i)] = m[size_t(i)][0] * v[0] + m[size_t(i)][1] * v[1] + m[size_t(i)][2] * v[2];
    return out;
}

constexpr Matrix kLinearSrgbToXyz{{{0.41239079926595934, 0.357584339383878, 0.1804807884018343},
                                   {0.21263900587151027, 0.715168678767756, 0.07219231536073371},
                                   {0.01933081871559182, 0.11919477979462598, 0.9505321522496607}}};
constexpr Matrix kXyzToLinearSrgb{{{3.2409699419045226, -1.537383177570094, -0.4986107602930034},
                                   {-0.9692436362808796, 1.8759675015077202, 0.04155505740717559},
                                   {0.05563007969699366, -0.20397695888897652, 1.0569715142428786}}};
constexpr Matrix kLinearP3ToXyz{{{0.4865709486482162, 0.26566769316909306, 0.1982172852343625},
                                 {0.2289745640697488, 0.6917385218365064, 0.079286914093745},
                                 {0.0, 0.04511338185890264, 1.043944368900976}}};
constexpr Matrix kXyzToLinearP3{{{2.493496911941425, -0.9313836179191239, -0.40271078445071684},
                                 {-0.8294889695615747, 1.7626640603183463, 0.023624685841943577},
                                 {0.03584583024378447, -0.07617238926804182, 0.9568845240076872}}};
constexpr Matrix kLinear2020ToXyz{{{0.6369580483012914, 0.14461690358620832, 0.1688809751641721},
                                   {0.2627002120112671, 0.6779980715188708, 0.05930171646986196},
                                   {0.0, 0.028072693049087428, 1.060985057710791}}};
constexpr Matrix kXyzToLinear2020{{{1.716651187971268, -0.355670783776392, -0.253366281373660},
                                   {-0.666684351832489, 1.616481236634939, 0.0157685458139111},
                                   {0.017639857445311, -0.042770613257809, 0.942103121235474}}};
// Bradford chromatic adaptation between the D50 and D65 white points.
constexpr Matrix kD50ToD65{{{0.955473421488075, -0.02309845494876471, 0.06325924320057072},
                            {-0.0283697093338637, 1.0099953980813041, 0.021041441191917323},
                            {0.012314014864481998, -0.020507649298898964, 1.330365926242124}}};
constexpr Matrix kD65ToD50{{{1.0479297925449969, 0.022946870601609652, -0.05019226628920524},
                            {0.02962780877005599, 0.9904344267538799, -0.017073799063418826},
                            {-0.009243040646204504, 0.015055191490298152, 0.7518742814281371}}};
// OKLab (Björn Ottosson), with the matrices CSS Color 4 recomputed for its D65.
constexpr Matrix kXyzToLms{{{0.8190224379967030, 0.3619062600528904, -0.1288737815209879},
                            {0.0329836539323885, 0.9292868615863434, 0.0361446663506424},
                            {0.0481771893596242, 0.2642395317527308, 0.6335478284694309}}};
constexpr Matrix kLmsToXyz{{{1.2268798758459243, -0.5578149944602171, 0.2812561489664678},
                            {-0.0405757452148008, 1.1122868032803170, -0.0717110580655164},
                            {-0.0763729366746601, -0.4214933324022432, 1.5869240198367816}}};
constexpr Matrix kLmsToOklab{{{0.2104542683093140, 0.7936177747023054, -0.0040720430116193},
                              {1.9779985324311684, -2.4285922420485799, 0.4505937096174110},
                              {0.0259040424655478, 0.7827717124575296, -0.8086757549230774}}};
constexpr Matrix kOklabToLms{{{1.0, 0.3963377773761749, 0.2158037573099136},
                              {1.0, -0.1055613458156586, -0.0638541728258133},
                              {1.0, -0.0894841775298119, -1.2914855480194092}}};

constexpr double kLabKappa = 24389.0 / 27.0;
constexpr double kLabEpsilon = 216.0 / 24389.0;
constexpr Components kD50White{0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585};

// The sRGB (and Display P3) transfer function, extended to negative values by symmetry.
double srgbToLinear(double v)
{
    const double a = std::abs(v);
    const double l = a <= 0.04045 ? a / 12.92 : std::pow((a + 0.055) / 1.055, 2.4);
    return std::copysign(l, v);
}

double linearToSrgb(double v)
{
    const double a = std::abs(v);
    const double g = a > 0.0031308 ? 1.055 * std::pow(a, 1 / 2.4) - 0.055 : 12.92 * a;
    return std::copysign(g, v);
}

// Rec. 2020's transfer function (ITU-R BT.2020 Table 4).
constexpr double kRec2020Alpha = 1.09929682680944;
constexpr double kRec2020Beta = 0.018053968510807;

double rec2020ToLinear(double v)
{
    const double a = std::abs(v);
    const double l = a < kRec2020Beta * 4.5 ? a / 4.5 : std::pow((a + kRec2020Alpha - 1) / kRec2020Alpha, 1 / 0.45);
    return std::copysign(l, v);
}

double linearToRec2020(double v)
{
    const double a = std::abs(v);
    const double g = a > kRec2020Beta ? kRec2020Alpha * std::pow(a, 0.45) - (kRec2020Alpha - 1) : 4.5 * a;
    return std::copysign(g, v);
}

Components map(Components c, double (*f)(double))
{
    return {f(c[0]), f(c[1]), f(c[2])};
}

Components labToXyzD50(const Components &lab)
{
    const double f1 = (lab[0] + 16) / 116;
    const double f0 = lab[1] / 500 + f1;
    const double f2 = f1 - lab[2] / 200;
    const double x = std::pow(f0, 3) > kLabEpsilon ? std::pow(f0, 3) : (116 * f0 - 16) / kLabKappa;
    const double y = lab[0] > kLabKappa * kLabEpsilon ? std::pow(f1, 3) : lab[0] / kLabKappa;
    const double z = std::pow(f2, 3) > kLabEpsilon ? std::pow(f2, 3) : (116 * f2 - 16) / kLabKappa;
    return {x * kD50White[0], y * kD50White[1], z * kD50White[2]};
}

Components xyzD50ToLab(const Components &xyz)
{
    Components f{};
    for (size_t i = 0; i < 3; ++i) {
        const double v = xyz[i] / kD50White[i];
        f[i] = v > kLabEpsilon ? std::cbrt(v) : (kLabKappa * v + 16) / 116;
    }
    return {116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])};
}

Components oklabToXyz(const Components &lab)
{
    Components lms = multiply(kOklabToLms, lab);
    for (double &v : lms)
        v = v * v * v;
    return multiply(kLmsToXyz, lms);
}

Components xyzToOklab(const Components &xyz)
{
    Components lms = multiply(kXyzToLms, xyz);
    for (double &v : lms)
        v = std::cbrt(v);
    return multiply(kLmsToOklab, lms);
}

// Polar ↔ rectangular for LCH and OKLCh (§9.3): hue in degrees.
Components polarToRectangular(const Components &lch)
{
    const double h = std::isnan(lch[2]) ? 0 : lch[2] * M_PI / 180;
    return {lch[0], lch[1] * std::cos(h), lch[1] * std::sin(h)};
}

Components rectangularToPolar(const Components &lab, double achromatic)
{
    const double c = std::hypot(lab[1], lab[2]);
    double h = std::atan2(lab[2], lab[1]) * 180 / M_PI;
    if (h < 0)
        h += 360;
    // An achromatic colour has no hue (§9.3): `none`, so mixing takes the other's.
    return {lab[0], c, c <= achromatic ? std::nan("") : h};
}

// HSL ↔ sRGB (§7.1 sample code); s and l 0–100.
Components hslToSrgb(const Components &hsl)
{
    double h = std::isnan(hsl[0]) ? 0 : std::fmod(hsl[0], 360);
    if (h < 0)
        h += 360;
    const double s = hsl[1] / 100, l = hsl[2] / 100;
    auto f = [&](double n) {
        const double k = std::fmod(n + h / 30, 12);
        const double a = s * std::min(l, 1 - l);
        return l - a * std::max(-1.0, std::min({k - 3, 9 - k, 1.0}));
    };
    return {f(0), f(8), f(4)};
}

Components srgbToHsl(const Components &rgb)
{
    const double mx = std::max({rgb[0], rgb[1], rgb[2]});
    const double mn = std::min({rgb[0], rgb[1], rgb[2]});
    const double l = (mn + mx) / 2, d = mx - mn;
    double h = std::nan(""), s = 0;
    if (d != 0) {
        s = (l == 0 || l == 1) ? 0 : (mx - l) / std::min(l, 1 - l);
        if (mx == rgb[0])
            h = (rgb[1] - rgb[2]) / d + (rgb[1] < rgb[2] ? 6 : 0);
        else if (mx == rgb[1])
            h = (rgb[2] - rgb[0]) / d + 2;
        else
            h = (rgb[0] - rgb[1]) / d + 4;
        h *= 60;
    }
    return {h, s * 100, l * 100};
}

// HWB ↔ sRGB (§8.1 sample code); w and b 0–100, normalised when they add past 100 %.
Components hwbToSrgb(const Components &hwb)
{
    double w = hwb[1] / 100, b = hwb[2] / 100;
    if (w + b >= 1) {
        const double gray = w / (w + b);
        return {gray, gray, gray};
    }
    Components rgb = hslToSrgb({hwb[0], 100, 50});
    for (double &v : rgb)
        v = v * (1 - w - b) + w;
    return rgb;
}

Components srgbToHwb(const Components &rgb)
{
    const Components hsl = srgbToHsl(rgb);
    const double w = std::min({rgb[0], rgb[1], rgb[2]});
    const double b = 1 - std::max({rgb[0], rgb[1], rgb[2]});
    return {hsl[0], w * 100, b * 100};
}

Components zeroMissing(Components c)
{
    for (double &v : c)
        if (std::isnan(v))
            v = 0;
    return c;
}

} // namespace

std::optional<ColorSpace> colorSpaceNamed(const QString &name)
{
    static const std::pair<const char *, ColorSpace> kNames[] = {
        {"srgb", ColorSpace::Srgb},
        {"srgb-linear", ColorSpace::SrgbLinear},
        {"display-p3", ColorSpace::DisplayP3},
        {"rec2020", ColorSpace::Rec2020},
        {"lab", ColorSpace::Lab},
        {"lch", ColorSpace::Lch},
        {"oklab", ColorSpace::Oklab},
        {"oklch", ColorSpace::Oklch},
        {"hsl", ColorSpace::Hsl},
        {"hwb", ColorSpace::Hwb},
        {"xyz", ColorSpace::XyzD65},
        {"xyz-d50", ColorSpace::XyzD50},
        {"xyz-d65", ColorSpace::XyzD65},
    };
    for (const auto &[n, space] : kNames)
        if (name == QLatin1String(n))
            return space;
    return std::nullopt;
}

bool isPolar(ColorSpace space)
{
    return space == ColorSpace::Hsl || space == ColorSpace::Hwb || space == ColorSpace::Lch
           || space == ColorSpace::Oklch;
}

int hueIndex(ColorSpace space)
{
    return space == ColorSpace::Hsl || space == ColorSpace::Hwb ? 0 : 2;
}

Components toSrgb(ColorSpace space, Components c)
{
    if (space == ColorSpace::Hsl)
        return hslToSrgb({c[0], std::isnan(c[1]) ? 0 : c[1], std::isnan(c[2]) ? 0 : c[2]});
    if (space == ColorSpace::Hwb)
        return hwbToSrgb({c[0], std::isnan(c[1]) ? 0 : c[1], std::isnan(c[2]) ? 0 : c[2]});
    if (space == ColorSpace::Lch || space == ColorSpace::Oklch) {
        c = polarToRectangular({std::isnan(c[0]) ? 0 : c[0], std::isnan(c[1]) ? 0 : c[1], c[2]});
        space = space == ColorSpace::Lch ? ColorSpace::Lab : ColorSpace::Oklab;
    }
    c = zeroMissing(c);
    Components xyzD65{};
    switch (space) {
    case ColorSpace::Srgb: return c;
    case ColorSpace::SrgbLinear: return map(c, linearToSrgb);
    case ColorSpace::DisplayP3: xyzD65 = multiply(kLinearP3ToXyz, map(c, srgbToLinear)); break;
    case ColorSpace::Rec2020: xyzD65 = multiply(kLinear2020ToXyz, map(c, rec2020ToLinear)); break;
    case ColorSpace::Lab: xyzD65 = multiply(kD50ToD65, labToXyzD50(c)); break;
    case ColorSpace::Oklab: xyzD65 = oklabToXyz(c); break;
    case ColorSpace::XyzD50: xyzD65 = multiply(kD50ToD65, c); break;
    case ColorSpace::XyzD65: xyzD65 = c; break;
    default: break;
    }
    return map(multiply(kXyzToLinearSrgb, xyzD65), linearToSrgb);
}

Components fromSrgb(ColorSpace space, Components rgb)
{
    const Components xyzD65 = multiply(kLinearSrgbToXyz, map(rgb, srgbToLinear));
    switch (space) {
    case ColorSpace::Srgb: return rgb;
    case ColorSpace::SrgbLinear: return map(rgb, srgbToLinear);
    case ColorSpace::DisplayP3: return map(multiply(kXyzToLinearP3, xyzD65), linearToSrgb);
    case ColorSpace::Rec2020: return map(multiply(kXyzToLinear2020, xyzD65), linearToRec2020);
    case ColorSpace::Lab: return xyzD50ToLab(multiply(kD65ToD50, xyzD65));
    case ColorSpace::Lch: return rectangularToPolar(xyzD50ToLab(multiply(kD65ToD50, xyzD65)), 0.0015);
    case ColorSpace::Oklab: return xyzToOklab(xyzD65);
    case ColorSpace::Oklch: return rectangularToPolar(xyzToOklab(xyzD65), 0.000004);
    case ColorSpace::Hsl: return srgbToHsl(rgb);
    case ColorSpace::Hwb: return srgbToHwb(rgb);
    case ColorSpace::XyzD50: return multiply(kD65ToD50, xyzD65);
    case ColorSpace::XyzD65: return xyzD65;
    }
    return rgb;
}

std::optional<HueInterpolation> hueInterpolationNamed(const QString &name)
{
    if (name == QLatin1String("shorter"))
        return HueInterpolation::Shorter;
    if (name == QLatin1String("longer"))
        return HueInterpolation::Longer;
    if (name == QLatin1String("increasing"))
        return HueInterpolation::Increasing;
    if (name == QLatin1String("decreasing"))
        return HueInterpolation::Decreasing;
    return std::nullopt;
}

namespace {

// §12.4: moves h1 or h2 by a turn so that going from h1 to h2 takes the chosen arc.
void fixHues(double &h1, double &h2, HueInterpolation method)
{
    h1 = std::fmod(h1, 360);
    h2 = std::fmod(h2, 360);
    const double d = h2 - h1;
    switch (method) {
    case HueInterpolation::Shorter:
        if (d > 180)
            h1 += 360;
        else if (d < -180)
            h2 += 360;
        break;
    case HueInterpolation::Longer:
        if (d > 0 && d < 180)
            h1 += 360;
        else if (d > -180 && d <= 0)
            h2 += 360;
        break;
    case HueInterpolation::Increasing:
        if (d < 0)
            h2 += 360;
        break;
    case HueInterpolation::Decreasing:
        if (d > 0)
            h1 += 360;
        break;
    }
}

} // namespace

SrgbColor interpolate(ColorSpace space, HueInterpolation hueMethod, const SrgbColor &from, const SrgbColor &to, double t)
{
    Components a = fromSrgb(space, from.rgb);
    Components b = fromSrgb(space, to.rgb);
    for (size_t i = 0; i < 3; ++i) {
        if (std::isnan(a[i]))
            a[i] = b[i];
        if (std::isnan(b[i]))
            b[i] = a[i];
    }
    const size_t hue = isPolar(space) ? size_t(hueIndex(space)) : 3;
    if (hue < 3 && !std::isnan(a[hue]))
        fixHues(a[hue], b[hue], hueMethod);
    const double alpha = from.alpha * (1 - t) + to.alpha * t;
    Components mixed{};
    for (size_t i = 0; i < 3; ++i) {
        if (i == hue) {
            mixed[i] = std::isnan(a[i]) ? a[i] : a[i] * (1 - t) + b[i] * t;
            continue;
        }
        const double premultiplied = a[i] * from.alpha * (1 - t) + b[i] * to.alpha * t;
        mixed[i] = alpha > 0 ? premultiplied / alpha : 0;
    }
    return {toSrgb(space, mixed), alpha};
}

} // namespace imprint::render::css
