// CSS colours (CSS Color 4, https://www.w3.org/TR/css-color-4/): hex, rgb()/rgba(),
// hsl()/hsla(), named colours, transparent, currentColor.

#include "server/render/css/parse.h"

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

} // namespace

std::optional<QColor> parseColor(const QString &text, const QColor &currentColor)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    if (t.startsWith(QLatin1Char('#')))
        return parseHex(QStringView(t).mid(1));
    QString name, args;
    if (css::function(t, &name, &args)) {
        if (name == QLatin1String("rgb") || name == QLatin1String("rgba"))
            return parseRgb(args);
        if (name == QLatin1String("hsl") || name == QLatin1String("hsla"))
            return parseHsl(args);
        return std::nullopt;
    }
    const QString lower = t.toLower();
    if (lower == QLatin1String("currentcolor"))
        return currentColor;
    if (lower == QLatin1String("transparent"))
        return QColor(0, 0, 0, 0);
    // Qt knows the SVG 1.1 keyword list, which CSS Color 4 §6.1 adopted, except the one
    // CSS added later. Names are plain letters; anything else (e.g. "#..." variants Qt
    // accepts) was handled above.
    if (lower == QLatin1String("rebeccapurple"))
        return QColor(0x66, 0x33, 0x99);
    for (QChar c : lower)
        if (c < QLatin1Char('a') || c > QLatin1Char('z'))
            return std::nullopt;
    const QColor named = QColor::fromString(lower);
    if (named.isValid())
        return named;
    return std::nullopt;
}

} // namespace imprint::render
