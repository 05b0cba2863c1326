// CSS colours (CSS Color 4, https://www.w3.org/TR/css-color-4/): hex, rgb()/rgba(),
// hsl()/hsla(), hwb(), lab(), lch(), oklab(), oklch(), color(), named colours,
// transparent, currentColor; color-mix() (CSS Color 5 §2) and relative colours' identity
// form (§4). Colours outside sRGB are
// clipped per channel, as Chromium draws them into an sRGB image.

#include "server/render/css/color_spaces.h"
#include "server/render/css/parse.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace imprint::render {

namespace {

int hexDigit(QChar c)
{
    const char16_t u = c.unicode();
    if (u >= '0' && u <= '9')
        return u - '0';
    if (u >= 'a' && u <= 'f')
        return u - 'a' + 10;
    if (u >= 'A' && u <= 'F')
        return u - 'A' + 10;
    return -1;
}

// #rgb, #rgba, #rrggbb, #rrggbbaa (§5.2). Qt reads #aarrggbb, so it cannot be used.
std::optional<QColor> parseHex(QStringView hex)
{
    const qsizetype n = hex.size();
    if (n != 3 && n != 4 && n != 6 && n != 8)
        return std::nullopt;
    int d[8];
    for (qsizetype i = 0; i < n; ++i)
        if ((d[i] = hexDigit(hex[i])) < 0)
            return std::nullopt;
    if (n <= 4)
        return QColor(d[0] * 17, d[1] * 17, d[2] * 17, n == 4 ? d[3] * 17 : 255);
    return QColor(d[0] * 16 + d[1], d[2] * 16 + d[3], d[4] * 16 + d[5], n == 8 ? d[6] * 16 + d[7] : 255);
}

// An alpha value: <number> 0–1 or <percentage>, clamped (§4.2).
std::optional<float> alphaValue(QStringView t)
{
    if (auto p = css::percentage(t))
        return std::clamp(*p / 100.f, 0.f, 1.f);
    if (auto v = css::number(t))
        return std::clamp(*v, 0.f, 1.f);
    return std::nullopt;
}

// Function arguments in either the legacy comma form or the modern space form with
// an optional `/ alpha` (§5.1, §7.1): the 3 channel texts and the alpha, 0–1 (1 when
// omitted). False if the arguments are not of that shape or the alpha is invalid.
bool functionArgs(const QString &args, QStringList *channels, float *alpha)
{
    QString alphaText;
    QStringList parts = css::split(args, QLatin1Char(','));
    if (parts.size() == 3 || parts.size() == 4) {
        if (parts.size() == 4)
            alphaText = parts.takeLast();
        *channels = parts;
    } else {
        if (parts.size() != 1)
            return false;
        const QStringList slash = css::split(args, QLatin1Char('/'));
        if (slash.size() > 2)
            return false;
        if (slash.size() == 2)
            alphaText = slash[1];
        *channels = css::split(slash.value(0), QLatin1Char(' '));
        if (channels->size() != 3)
            return false;
    }
    *alpha = 1;
    if (alphaText.isEmpty())
        return true;
    const std::optional<float> a = alphaValue(alphaText);
    if (a)
        *alpha = *a;
    return a.has_value();
}

std::optional<QColor> parseRgb(const QString &args)
{
    QStringList ch;
    float a = 1;
    if (!functionArgs(args, &ch, &a))
        return std::nullopt;
    float rgb[3];
    for (int i = 0; i < 3; ++i) {
        if (auto p = css::percentage(ch[i]))
            rgb[i] = *p * 2.55f;
        else if (auto v = css::number(ch[i]))
            rgb[i] = *v;
        else if (ch[i].compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
            rgb[i] = 0;
        else
            return std::nullopt;
        rgb[i] = std::clamp(rgb[i], 0.f, 255.f);
    }
    QColor c;
    c.setRgbF(rgb[0] / 255.f, rgb[1] / 255.f, rgb[2] / 255.f, a);
    return c;
}

std::optional<QColor> parseHsl(const QString &args)
{
    QStringList ch;
    float a = 1;
    if (!functionArgs(args, &ch, &a))
        return std::nullopt;
    std::optional<float> hue = css::number(ch[0]);
    if (!hue)
        hue = css::angle(ch[0]);
    auto s = css::percentage(ch[1]);
    auto l = css::percentage(ch[2]);
    // CSS Color 4 allows bare numbers for s and l in the modern syntax.
    if (!s)
        s = css::number(ch[1]);
    if (!l)
        l = css::number(ch[2]);
    if (!hue || !s || !l)
        return std::nullopt;
    float h = std::fmod(*hue, 360.f);
    if (h < 0)
        h += 360.f;
    QColor c;
    c.setHslF(h / 360.f, std::clamp(*s / 100.f, 0.f, 1.f), std::clamp(*l / 100.f, 0.f, 1.f), a);
    return c.toRgb();
}

bool isNone(QStringView t)
{
    return t.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0;
}

// A channel that is a <number> or a <percentage> where 100 % is `percentScale`, or `none`
// (NaN, §4.4).
std::optional<double> numberOrPercent(QStringView t, double percentScale)
{
    if (isNone(t))
        return std::nan("");
    if (auto p = css::percentage(t))
        return *p / 100.0 * percentScale;
    if (auto v = css::number(t))
        return *v;
    return std::nullopt;
}

// A hue channel: <number> (degrees), <angle> or `none`.
std::optional<double> hueValue(QStringView t)
{
    if (isNone(t))
        return std::nan("");
    if (auto v = css::number(t))
        return *v;
    if (auto a = css::angle(t))
        return *a;
    return std::nullopt;
}

// A colour as gamma-encoded sRGB components that may lie outside 0–1 (a colour outside
// the sRGB gamut), and alpha 0–1. color-mix() mixes these unclipped values, as Chromium
// does; the colour is clipped per channel only when it becomes a QColor.
struct ExtendedColor {
    css::Components rgb;
    double alpha = 1;
};

ExtendedColor extended(const QColor &c)
{
    return {{c.redF(), c.greenF(), c.blueF()}, c.alphaF()};
}

QColor clipped(const ExtendedColor &c)
{
    auto channel = [](double v) { return float(std::clamp(std::isnan(v) ? 0.0 : v, 0.0, 1.0)); };
    QColor q;
    q.setRgbF(channel(c.rgb[0]), channel(c.rgb[1]), channel(c.rgb[2]), float(std::clamp(c.alpha, 0.0, 1.0)));
    return q;
}

std::optional<ExtendedColor> parseExtended(const QString &text, const QColor &currentColor);

// The modern-syntax functions of §7.2 (hwb), §9.1–9.2 (lab, lch) and §9.3–9.4 (oklab,
// oklch): three space-separated channels and an optional `/ alpha`, percentages scaled per
// channel as the specification's tables give them.
std::optional<ExtendedColor> parseSpaceFunction(const QString &name, const QString &args)
{
    const QStringList slash = css::split(args, QLatin1Char('/'));
    if (slash.size() > 2 || css::split(args, QLatin1Char(',')).size() != 1)
        return std::nullopt;
    const QStringList ch = css::split(slash.value(0), QLatin1Char(' '));
    if (ch.size() != 3)
        return std::nullopt;
    float alpha = 1;
    if (slash.size() == 2) {
        if (isNone(slash[1]))
            alpha = 0;
        else if (const auto a = alphaValue(slash[1]))
            alpha = *a;
        else
            return std::nullopt;
    }
    css::ColorSpace space;
    std::optional<double> c0, c1, c2;
    if (name == QLatin1String("hwb")) {
        space = css::ColorSpace::Hwb;
        c0 = hueValue(ch[0]), c1 = numberOrPercent(ch[1], 100), c2 = numberOrPercent(ch[2], 100);
    } else if (name == QLatin1String("lab")) {
        space = css::ColorSpace::Lab;
        c0 = numberOrPercent(ch[0], 100), c1 = numberOrPercent(ch[1], 125), c2 = numberOrPercent(ch[2], 125);
    } else if (name == QLatin1String("lch")) {
        space = css::ColorSpace::Lch;
        c0 = numberOrPercent(ch[0], 100), c1 = numberOrPercent(ch[1], 150), c2 = hueValue(ch[2]);
    } else if (name == QLatin1String("oklab")) {
        space = css::ColorSpace::Oklab;
        c0 = numberOrPercent(ch[0], 1), c1 = numberOrPercent(ch[1], 0.4), c2 = numberOrPercent(ch[2], 0.4);
    } else {
        space = css::ColorSpace::Oklch;
        c0 = numberOrPercent(ch[0], 1), c1 = numberOrPercent(ch[1], 0.4), c2 = hueValue(ch[2]);
    }
    if (!c0 || !c1 || !c2)
        return std::nullopt;
    css::Components c{*c0, *c1, *c2};
    // Lightness is clamped to its range and chroma to ≥ 0 at parse time (§9.1, §9.3).
    if (space != css::ColorSpace::Hwb && !std::isnan(c[0]))
        c[0] = std::clamp(c[0], 0.0, space == css::ColorSpace::Lab || space == css::ColorSpace::Lch ? 100.0 : 1.0);
    if ((space == css::ColorSpace::Lch || space == css::ColorSpace::Oklch) && !std::isnan(c[1]))
        c[1] = std::max(c[1], 0.0);
    return ExtendedColor{css::toSrgb(space, c), alpha};
}

// color(<space> c1 c2 c3 [/ alpha]) (§10.1): RGB spaces take 0–1 or percentages, XYZ
// spaces numbers or percentages (100 % = 1).
std::optional<ExtendedColor> parseColorFunction(const QString &args)
{
    const QStringList slash = css::split(args, QLatin1Char('/'));
    if (slash.size() > 2)
        return std::nullopt;
    const QStringList ch = css::split(slash.value(0), QLatin1Char(' '));
    if (ch.size() != 4)
        return std::nullopt;
    const auto space = css::colorSpaceNamed(ch[0].toLower());
    if (!space || css::isPolar(*space) || *space == css::ColorSpace::Lab || *space == css::ColorSpace::Oklab)
        return std::nullopt;
    css::Components c{};
    for (int i = 0; i < 3; ++i) {
        const auto v = numberOrPercent(ch[i + 1], 1);
        if (!v)
            return std::nullopt;
        c[size_t(i)] = *v;
    }
    float alpha = 1;
    if (slash.size() == 2) {
        const auto a = alphaValue(slash[1]);
        if (!a)
            return std::nullopt;
        alpha = *a;
    }
    return ExtendedColor{css::toSrgb(*space, c), alpha};
}

// One colour of a color-mix() with its optional percentage, in either order (CSS Color 5
// §2.1): the percentage 0–100, or NaN when omitted.
bool mixComponent(const QString &text, const QColor &currentColor, ExtendedColor *color, double *percent)
{
    const QStringList tokens = css::split(text, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > 2)
        return false;
    *percent = std::nan("");
    QString colorText = tokens[0];
    if (tokens.size() == 2) {
        auto p = css::percentage(tokens[1]);
        colorText = tokens[0];
        if (!p) {
            p = css::percentage(tokens[0]);
            colorText = tokens[1];
        }
        if (!p || *p < 0 || *p > 100)
            return false;
        *percent = *p;
    }
    const auto c = parseExtended(colorText, currentColor);
    if (!c)
        return false;
    *color = *c;
    return true;
}

// color-mix(in <space> [<hue-method> hue]?, <color> <p>?, <color> <p>?) (CSS Color 5 §2):
// percentages normalised (§2.1), both colours converted to the space, alpha-premultiplied
// and interpolated (CSS Color 4 §12.3), hues along the chosen arc (§12.4, default shorter).
std::optional<ExtendedColor> parseColorMix(const QString &args, const QColor &currentColor)
{
    const QStringList parts = css::split(args, QLatin1Char(','));
    if (parts.size() != 3)
        return std::nullopt;
    const QStringList method = css::split(parts[0].toLower(), QLatin1Char(' '));
    if (method.size() < 2 || method[0] != QLatin1String("in"))
        return std::nullopt;
    const auto space = css::colorSpaceNamed(method[1]);
    if (!space)
        return std::nullopt;
    std::optional<css::HueInterpolation> hueMethod = css::HueInterpolation::Shorter;
    if (method.size() == 4 && css::isPolar(*space) && method[3] == QLatin1String("hue"))
        hueMethod = css::hueInterpolationNamed(method[2]);
    else if (method.size() != 2)
        return std::nullopt;
    if (!hueMethod)
        return std::nullopt;

    ExtendedColor c1, c2;
    double p1 = 0, p2 = 0;
    if (!mixComponent(parts[1], currentColor, &c1, &p1) || !mixComponent(parts[2], currentColor, &c2, &p2))
        return std::nullopt;
    if (std::isnan(p1) && std::isnan(p2))
        p1 = p2 = 50;
    else if (std::isnan(p1))
        p1 = 100 - p2;
    else if (std::isnan(p2))
        p2 = 100 - p1;
    const double sum = p1 + p2;
    if (sum <= 0)
        return std::nullopt;
    const double alphaMultiplier = sum < 100 ? sum / 100 : 1;
    const double t = p2 / sum;

    const css::SrgbColor mixed = css::interpolate(*space, *hueMethod, {c1.rgb, c1.alpha}, {c2.rgb, c2.alpha}, t);
    return ExtendedColor{mixed.rgb, mixed.alpha * alphaMultiplier};
}

std::optional<ExtendedColor> parseExtended(const QString &text, const QColor &currentColor);

// Relative colour syntax (CSS Color 5 §4) in its identity form, `oklab(from <color> l a b
// / <alpha>)`: the origin colour with each channel kept and the alpha replaced (what
// Tailwind writes for `shadow-lg/50`). Channel arithmetic (calc(l * 0.8)) is refused.
std::optional<ExtendedColor> parseRelativeColor(const QString &name, const QString &args, const QColor &currentColor)
{
    static const QHash<QString, QStringList> channels{
        {QStringLiteral("rgb"), {QStringLiteral("r"), QStringLiteral("g"), QStringLiteral("b")}},
        {QStringLiteral("rgba"), {QStringLiteral("r"), QStringLiteral("g"), QStringLiteral("b")}},
        {QStringLiteral("hsl"), {QStringLiteral("h"), QStringLiteral("s"), QStringLiteral("l")}},
        {QStringLiteral("hsla"), {QStringLiteral("h"), QStringLiteral("s"), QStringLiteral("l")}},
        {QStringLiteral("hwb"), {QStringLiteral("h"), QStringLiteral("w"), QStringLiteral("b")}},
        {QStringLiteral("lab"), {QStringLiteral("l"), QStringLiteral("a"), QStringLiteral("b")}},
        {QStringLiteral("oklab"), {QStringLiteral("l"), QStringLiteral("a"), QStringLiteral("b")}},
        {QStringLiteral("lch"), {QStringLiteral("l"), QStringLiteral("c"), QStringLiteral("h")}},
        {QStringLiteral("oklch"), {QStringLiteral("l"), QStringLiteral("c"), QStringLiteral("h")}},
    };
    const QStringList tokens = css::split(args, u' ');
    const auto own = channels.constFind(name);
    if (own == channels.constEnd() || (tokens.size() != 5 && tokens.size() != 7)
        || tokens.at(0).compare(QLatin1String("from"), Qt::CaseInsensitive) != 0)
        return std::nullopt;
    std::optional<ExtendedColor> origin = parseExtended(tokens.at(1), currentColor);
    if (!origin)
        return std::nullopt;
    for (int i = 0; i < 3; ++i)
        if (tokens.at(2 + i).compare(own->at(i), Qt::CaseInsensitive) != 0)
            return std::nullopt;
    if (tokens.size() == 7) {
        const QString &alpha = tokens.at(6);
        if (tokens.at(5) != QLatin1String("/"))
            return std::nullopt;
        if (alpha.compare(QLatin1String("alpha"), Qt::CaseInsensitive) != 0) {
            const bool percent = alpha.endsWith(u'%');
            const auto n = css::number(percent ? alpha.chopped(1) : alpha);
            if (!n)
                return std::nullopt;
            origin->alpha = std::clamp(percent ? double(*n) / 100 : double(*n), 0.0, 1.0);
        }
    }
    return origin;
}

std::optional<ExtendedColor> parseExtended(const QString &text, const QColor &currentColor)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    auto fromQColor
        = [](const std::optional<QColor> &c) { return c ? std::optional<ExtendedColor>(extended(*c)) : std::nullopt; };
    if (t.startsWith(QLatin1Char('#')))
        return fromQColor(parseHex(QStringView(t).mid(1)));
    if (const auto call = css::function(t)) {
        const QString &name = call->name, &args = call->args;
        if (args.trimmed().startsWith(QLatin1String("from "), Qt::CaseInsensitive))
            return parseRelativeColor(name, args.trimmed(), currentColor);
        if (name == QLatin1String("rgb") || name == QLatin1String("rgba"))
            return fromQColor(parseRgb(args));
        if (name == QLatin1String("hsl") || name == QLatin1String("hsla"))
            return fromQColor(parseHsl(args));
        if (name == QLatin1String("hwb") || name == QLatin1String("lab") || name == QLatin1String("lch")
            || name == QLatin1String("oklab") || name == QLatin1String("oklch"))
            return parseSpaceFunction(name, args);
        if (name == QLatin1String("color"))
            return parseColorFunction(args);
        if (name == QLatin1String("color-mix"))
            return parseColorMix(args, currentColor);
        return std::nullopt;
    }
    const QString lower = t.toLower();
    if (lower == QLatin1String("currentcolor"))
        return extended(currentColor);
    if (lower == QLatin1String("transparent"))
        return ExtendedColor{{0, 0, 0}, 0};
    // Qt knows the SVG 1.1 keyword list, which CSS Color 4 §6.1 adopted, except the one
    // CSS added later. Names are plain letters; anything else (e.g. "#..." variants Qt
    // accepts) was handled above.
    if (lower == QLatin1String("rebeccapurple"))
        return extended(QColor(0x66, 0x33, 0x99));
    for (QChar c : lower)
        if (c < QLatin1Char('a') || c > QLatin1Char('z'))
            return std::nullopt;
    const QColor named = QColor::fromString(lower);
    if (named.isValid())
        return extended(named);
    return std::nullopt;
}

} // namespace

std::optional<QColor> parseColor(const QString &text, const QColor &currentColor)
{
    const std::optional<ExtendedColor> c = parseExtended(text, currentColor);
    return c ? std::optional<QColor>(clipped(*c)) : std::nullopt;
}

QString cssColorText(const QColor &c)
{
    if (c.alpha() == 255)
        return c.name(QColor::HexRgb);
    return QStringLiteral("rgba(%1,%2,%3,%4)").arg(c.red()).arg(c.green()).arg(c.blue()).arg(c.alphaF(), 0, 'f', 3);
}

} // namespace imprint::render
