// Baseline keywords of inline-SVG text as a shift (see svg_text_baseline.h).

#include "server/render/document/svg_text_baseline.h"

#include "server/render/style/text_transform.h"
#include "server/render/css/parse.h"
#include "server/render/style/computed_style.h"
#include "server/render/style/font_units.h"

#include <algorithm>

namespace imprint::render {

namespace {

/// A font-size value in user units (a <length-percentage>, em and % of the parent's size;
/// rem of 16 px); anything else, a negative size among it, keeps the parent's.
double fontSizeValue(const QString &text, double parent)
{
    const std::optional<Length> l = css::lengthPercentage(text, float(parent), 16);
    if (!l || l->value < 0)
        return parent;
    return l->resolve(float(parent));
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
        font.weight = css::fontWeight(weight, parent.weight).value_or(parent.weight);
    if (const QString style = own("fontStyle"); !style.isEmpty())
        font.italic = style.trimmed().toLower() != QLatin1String("normal");
    if (const QString baseline = own("dominantBaseline"); !baseline.isEmpty())
        font.dominantBaseline = baseline.trimmed().toLower();
    if (const QString transform = own("textTransform"); !transform.isEmpty())
        font.textTransform = textTransformKeyword(transform).value_or(parent.textTransform);
    return font;
}

ComputedStyle svgTextNominalStyle(const SvgTextFont &font)
{
    ComputedStyle style;
    for (const QString &f : font.family.split(u',', Qt::SkipEmptyParts)) {
        QString name = f.trimmed();
        if (name.size() >= 2 && (name.front() == u'"' || name.front() == u'\'') && name.back() == name.front())
            name = name.mid(1, name.size() - 2);
        if (!name.isEmpty())
            style.fontFamily << name;
    }
    style.fontSize = float(kSvgTextNominalSize);
    style.fontWeight = std::clamp(font.weight, 1, 1000);
    style.fontStyle = font.italic ? FontStyle::Italic : FontStyle::Normal;
    return style;
}

double svgBaselineShift(const SvgTextFont &font, const QString &baseline)
{
    const QString b = baseline.trimmed().toLower();
    if (b.isEmpty() || b == QLatin1String("auto") || b == QLatin1String("alphabetic")
        || b == QLatin1String("baseline") || font.size <= 0)
        return 0;
    const FontUnitSizes nominal = fontUnitSizes(svgTextNominalStyle(font));
    const qreal k = font.size / kSvgTextNominalSize;
    const FontUnitSizes m{nominal.ch * k, nominal.ex * k, nominal.ascent * k, nominal.descent * k};
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
