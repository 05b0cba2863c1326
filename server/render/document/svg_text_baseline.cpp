// Baseline keywords of inline-SVG text as a shift (see svg_text_baseline.h).

#include "server/render/document/svg_text_baseline.h"
#include "server/render/style/computed_style.h"
#include "server/render/style/font_units.h"

#include <algorithm>

namespace imprint::render {

namespace {

/// A font-size value in user units: a number or px/pt length as is, em and % of the
/// parent's size; anything else (keywords, rem, calc()) keeps the parent's.
double fontSizeValue(const QString &text, double parent)
{
    QString v = text.trimmed().toLower();
    double factor = 1;
    bool relative = false;
    if (v.endsWith(QLatin1String("px"))) {
        v.chop(2);
    } else if (v.endsWith(QLatin1String("pt"))) {
        v.chop(2);
        factor = 4.0 / 3;
    } else if (v.endsWith(QLatin1String("em")) && !v.endsWith(QLatin1String("rem"))) {
        v.chop(2);
        relative = true;
    } else if (v.endsWith(u'%')) {
        v.chop(1);
        factor = 0.01;
        relative = true;
    }
    bool ok = false;
    const double n = v.toDouble(&ok);
    if (!ok || n < 0)
        return parent;
    return relative ? n * factor * parent : n * factor;
}

int fontWeightValue(const QString &text, int parent)
{
    const QString v = text.trimmed().toLower();
    if (v == QLatin1String("normal"))
        return 400;
    if (v == QLatin1String("bold"))
        return 700;
    // CSS Fonts 4 §2.2's table of relative weights.
    if (v == QLatin1String("bolder"))
        return parent < 350 ? 400 : parent < 550 ? 700 : 900;
    if (v == QLatin1String("lighter"))
        return parent < 550 ? 100 : parent < 750 ? 400 : 700;
    bool ok = false;
    const double n = v.toDouble(&ok);
    return ok && n >= 1 && n <= 1000 ? int(n) : parent;
}

} // namespace

SvgTextFont svgTextFont(const SvgTextFont &parent, const std::function<QString(const char *)> &own)
{
    SvgTextFont font = parent;
    if (const QString family = own("fontFamily"); !family.trimmed().isEmpty())
        font.family = family.trimmed();
    if (const QString size = own("fontSize"); !size.isEmpty())
        font.size = fontSizeValue(size, parent.size);
    if (const QString weight = own("fontWeight"); !weight.isEmpty())
        font.weight = fontWeightValue(weight, parent.weight);
    if (const QString style = own("fontStyle"); !style.isEmpty())
        font.italic = style.trimmed().toLower() != QLatin1String("normal");
    if (const QString baseline = own("dominantBaseline"); !baseline.isEmpty())
        font.dominantBaseline = baseline.trimmed().toLower();
    return font;
}

double svgBaselineShift(const SvgTextFont &font, const QString &baseline)
{
    const QString b = baseline.trimmed().toLower();
    if (b.isEmpty() || b == QLatin1String("auto") || b == QLatin1String("alphabetic")
        || b == QLatin1String("baseline") || font.size <= 0)
        return 0;
    ComputedStyle style;
    for (const QString &f : font.family.split(u',', Qt::SkipEmptyParts)) {
        QString name = f.trimmed();
        if (name.size() >= 2 && (name.front() == u'"' || name.front() == u'\'') && name.back() == name.front())
            name = name.mid(1, name.size() - 2);
        if (!name.isEmpty())
            style.fontFamily << name;
    }
    style.fontSize = float(font.size);
    style.fontWeight = std::clamp(font.weight, 1, 1000);
    style.fontStyle = font.italic ? FontStyle::Italic : FontStyle::Normal;
    const FontUnitSizes m = fontUnitSizes(style);
    if (b == QLatin1String("middle"))
        return m.ex / 2;
    if (b == QLatin1String("central"))
        return (m.ascent - m.descent) / 2;
    if (b == QLatin1String("mathematical"))
        return m.ascent / 2;
    if (b == QLatin1String("hanging"))
        return m.ascent * 0.8;
    if (b == QLatin1String("text-before-edge") || b == QLatin1String("before-edge"))
        return m.ascent;
    if (b == QLatin1String("text-after-edge") || b == QLatin1String("after-edge") || b == QLatin1String("ideographic"))
        return -m.descent;
    return 0;
}

} // namespace imprint::render
