// Text properties of computeStyle(): colour (CSS Color 4), fonts (CSS Fonts 4), line
// height, spacing, alignment, white space, breaking, decoration (CSS Text 3, CSS Text
// Decoration 3), text-overflow and line-clamp.

#include "server/render/style/style_builder.h"

#include <cmath>

namespace imprint::render::style_detail {

constexpr float kMaxFontSize = 8192; // px, the largest output side

bool StyleBuilder::textOverflow(const CssProperty &, const QString &v)
{
    return assignParsed(m_s.textOverflow, keyword<TextOverflow>(v, {{"clip", TextOverflow::Clip},
                                                                    {"ellipsis", TextOverflow::Ellipsis}}));
}

bool StyleBuilder::lineClamp(const CssProperty &, const QString &v)
{
    if (v.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0) {
        m_s.lineClamp = 0;
        return true;
    }
    // Chromium's -webkit-line-clamp takes an integer alone: satori's `3 "…"` (a custom
    // ellipsis) is invalid there and the lines are drawn unclamped, so it is refused here too.
    auto n = css::number(v.trimmed());
    if (!n || *n < 1 || *n != std::floor(*n))
        return false;
    m_s.lineClamp = int(std::min(*n, 10000.f));
    return true;
}

/// The content height `textFit: shrink-to-box` fits an element's text into: the smaller of
/// its px `height` and `maxHeight` (CSS Sizing 3 §4, box-sizing applied) less its px
/// padding and border; -1 when neither is a px length (only lineClamp and the width bound).
float textFitBoxHeight(const ComputedStyle &e)
{
    float height = -1;
    for (const Length &l : {e.height, e.maxHeight})
        if (l.type == Length::Type::Px && (height < 0 || l.value < height))
            height = l.value;
    if (height < 0 || e.boxSizing != BoxSizing::BorderBox)
        return height;
    const auto px = [](const Length &l) { return l.type == Length::Type::Px ? l.value : 0.f; };
    const float edges = px(e.padding[Top]) + px(e.padding[Bottom]) + e.borderWidth[Top] + e.borderWidth[Bottom];
    return std::max(0.f, height - edges);
}

/// text-fit (CSS Text 5 §text-fit-property): `none | [grow | shrink] [consistent | per-line |
/// per-line-all]? <percentage [0,∞]>?`, in that order, as Chromium 156 parses it (a negative
/// percentage is invalid; one on the wrong side of 100% is valid and has no effect). Plus
/// Imprint's `shrink-to-box [<length> | <percentage>]?` (docs/templates.md): the length is
/// the smallest font size, the percentage the smallest scale.
bool StyleBuilder::textFit(const CssProperty &, const QString &v)
{
    const QStringList tokens = split(v.trimmed().toLower(), QLatin1Char(' '));
    if (tokens.isEmpty())
        return false;
    TextFit fit;
    const auto percentage = [](const QString &t) -> std::optional<float> {
        if (!t.endsWith(u'%'))
            return std::nullopt;
        bool ok = false;
        const float p = t.chopped(1).toFloat(&ok);
        return ok && p >= 0 && std::isfinite(p) ? std::optional<float>(p / 100) : std::nullopt;
    };
    qsizetype i = 1;
    const QString &first = tokens.first();
    if (first == QLatin1String("none")) {
        m_s.textFit = fit;
        return tokens.size() == 1;
    }
    if (first == QLatin1String("shrink-to-box")) {
        fit.type = TextFit::Type::ShrinkToBox;
        if (tokens.size() > 2)
            return false;
        if (tokens.size() == 2) {
            if (auto p = percentage(tokens[1])) {
                fit.limit = *p;
            } else {
                const std::optional<Length> l = parseLength(tokens[1], m_s.fontSize, m_rootFontSize);
                if (!l || l->type != Length::Type::Px || l->value < 0)
                    return false;
                fit.floorPx = l->value;
            }
        }
        m_s.textFit = fit;
        return true;
    }
    if (first == QLatin1String("grow"))
        fit.type = TextFit::Type::Grow;
    else if (first == QLatin1String("shrink"))
        fit.type = TextFit::Type::Shrink;
    else
        return false;
    if (i < tokens.size()) {
        auto target = keyword<TextFit::Target>(tokens[i], {{"consistent", TextFit::Target::Consistent},
                                                           {"per-line", TextFit::Target::PerLine},
                                                           {"per-line-all", TextFit::Target::PerLineAll}});
        if (target) {
            fit.target = *target;
            ++i;
        }
    }
    if (i < tokens.size()) {
        auto p = percentage(tokens[i]);
        if (!p)
            return false;
        fit.limit = *p;
        ++i;
    }
    if (i != tokens.size())
        return false;
    m_s.textFit = fit;
    return true;
}

bool StyleBuilder::colorProp(const CssProperty &, const QString &v)
{
    // currentColor in `color` itself means the inherited colour (CSS Color 4 §4.4).
    auto c = parseColor(v, m_parent ? m_parent->color : QColor(Qt::black));
    if (c)
        m_s.color = *c;
    return c.has_value();
}

bool StyleBuilder::fontFamily(const CssProperty &, const QString &v)
{
    QStringList families;
    for (QString f : split(v, QLatin1Char(','))) {
        if (f.size() >= 2 && (f.startsWith(QLatin1Char('"')) || f.startsWith(QLatin1Char('\'')))
            && f.endsWith(f.front()))
            f = f.mid(1, f.size() - 2);
        else
            f = split(f, QLatin1Char(' ')).join(QLatin1Char(' ')); // unquoted: collapse spaces
        if (f.trimmed().isEmpty())
            return false;
        families << f.trimmed();
    }
    if (families.isEmpty())
        return false;
    m_s.fontFamily = families;
    return true;
}

bool StyleBuilder::fontSize(const CssProperty &, const QString &v)
{
    // CSS Fonts 4 §2.5: absolute keywords per the "medium = 16px" table; em and % of the
    // parent's font size.
    const float parent = parentFontSize();
    if (auto k = keyword<float>(v, {{"xx-small", 9},
                                    {"x-small", 10},
                                    {"small", 13},
                                    {"medium", 16},
                                    {"large", 18},
                                    {"x-large", 24},
                                    {"xx-large", 32},
                                    {"xxx-large", 48},
                                    {"larger", parent * 1.2f},
                                    {"smaller", parent / 1.2f}})) {
        m_s.fontSize = *k;
        return true;
    }
    auto l = css::lengthPercentage(v, parent, m_rootFontSize);
    if (!l || l->value < 0)
        return false;
    m_s.fontSize = l->isPercent() ? l->resolve(parent) : l->value;
    // Glyphs larger than the largest image cannot show and would cost memory to shape
    // and rasterise, so a runaway size (or a chain of `larger`/em) stops there.
    if (m_s.fontSize > kMaxFontSize) {
        m_s.fontSize = kMaxFontSize;
        warn(QStringLiteral("fontSize"), QStringLiteral("clamped to %1px").arg(kMaxFontSize));
    }
    return true;
}

bool StyleBuilder::fontWeight(const CssProperty &, const QString &v)
{
    const auto weight = css::fontWeight(v, m_parent ? m_parent->fontWeight : 400);
    if (!weight)
        return false;
    m_s.fontWeight = *weight;
    return true;
}

bool StyleBuilder::fontStyle(const CssProperty &, const QString &v)
{
    const QString t = v.toLower();
    if (t == QLatin1String("normal")) {
        m_s.fontStyle = FontStyle::Normal;
        return true;
    }
    if (t == QLatin1String("italic")) {
        m_s.fontStyle = FontStyle::Italic;
        m_s.fontObliqueAngle = 0;
        return true;
    }
    // oblique [<angle [-90deg, 90deg]>]? (CSS Fonts 4 §2.3): 14deg when omitted.
    const QStringList words = split(t, QLatin1Char(' '));
    if (words.isEmpty() || words[0] != QLatin1String("oblique") || words.size() > 2)
        return false;
    const std::optional<float> angle = words.size() == 2 ? css::angle(words[1]) : std::optional<float>(14);
    if (!angle || *angle < -90 || *angle > 90)
        return false;
    m_s.fontStyle = *angle == 0 ? FontStyle::Normal : FontStyle::Italic;
    m_s.fontObliqueAngle = *angle;
    return true;
}

bool StyleBuilder::fontStretch(const CssProperty &, const QString &v)
{
    const std::optional<float> percent = parseFontStretch(v);
    if (percent)
        m_s.fontStretch = *percent;
    return percent.has_value();
}

bool StyleBuilder::fontVariationSettings(const CssProperty &property, const QString &v)
{
    auto settings = parseFontVariationSettings(v);
    if (!settings) {
        warn(property.name, QStringLiteral("invalid entry \"%1\" (expected a 4-character axis tag in quotes and a "
                                           "number, e.g. \"wght\" 650); ignored")
                                .arg(settings.error()));
        return true; // warned here, with the entry named
    }
    for (const QString &tag : unknownVariationAxes(*settings))
        warn(property.name, QStringLiteral("unknown axis \"%1\" (registered axes are wght, wdth, slnt, ital and "
                                           "opsz; custom axes are in capitals); a face without it ignores it")
                                .arg(tag));
    m_s.fontVariationSettings = std::move(*settings);
    return true;
}

bool StyleBuilder::fontVariantNumeric(const CssProperty &, const QString &v)
{
    const std::optional<quint8> bits = parseFontVariantNumeric(v);
    if (!bits)
        return false;
    m_s.fontVariantNumeric = *bits;
    return true;
}

bool StyleBuilder::fontFeatureSettings(const CssProperty &, const QString &v)
{
    // Every feature is applied (text/feature_faces.h); one the face lacks is reported
    // at render time (warnMissingFeatures()), when the face is known.
    auto features = parseFontFeatureSettings(v);
    if (!features)
        return false;
    m_s.fontFeatureSettings = std::move(*features);
    return true;
}

bool StyleBuilder::fontVariantCaps(const CssProperty &, const QString &v)
{
    const auto caps = parseFontVariantCaps(v);
    if (caps)
        m_s.fontVariantCaps = *caps;
    return caps.has_value();
}

bool StyleBuilder::fontKerning(const CssProperty &, const QString &v)
{
    const auto kerning = parseFontKerning(v);
    if (kerning)
        m_s.fontKerning = *kerning;
    return kerning.has_value();
}

bool StyleBuilder::fontVariantLigatures(const CssProperty &, const QString &v)
{
    return assignParsed(m_s.fontVariantLigatures, parseFontVariantLigatures(v));
}

bool StyleBuilder::fontVariantPosition(const CssProperty &, const QString &v)
{
    return assignParsed(m_s.fontVariantPosition, parseFontVariantPosition(v));
}

bool StyleBuilder::fontVariant(const CssProperty &property, const QString &v)
{
    // CSS Fonts 4 §6.11: normal | none | the longhands' keywords in any order; none sets
    // font-variant-ligatures to none and the others to normal.
    const QStringList words = split(v, QLatin1Char(' '));
    const bool single = words.size() == 1;
    if (single
        && (words[0].compare(QLatin1String("normal"), Qt::CaseInsensitive) == 0
            || words[0].compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)) {
        m_s.fontVariantCaps = FontVariantCaps::Normal;
        m_s.fontVariantNumeric = 0;
        m_s.fontVariantPosition = FontVariantPosition::Normal;
        m_s.fontVariantLigatures = words[0].compare(QLatin1String("none"), Qt::CaseInsensitive) == 0 ? kNoLigatures : 0;
        return true;
    }
    std::optional<FontVariantCaps> caps;
    std::optional<FontVariantPosition> position;
    QStringList numeric, ligatures, ignored;
    for (const QString &w : words) {
        if (const auto c = parseFontVariantCaps(w); c && *c != FontVariantCaps::Normal && !caps)
            caps = c;
        else if (const auto p = parseFontVariantPosition(w); p && *p != FontVariantPosition::Normal && !position)
            position = p;
        else if (parseFontVariantNumeric(w).value_or(0) != 0)
            numeric << w;
        else if (const auto l = parseFontVariantLigatures(w); l && *l != 0 && *l != kNoLigatures)
            ligatures << w;
        else
            ignored << w;
    }
    const std::optional<quint8> bits
        = numeric.isEmpty() ? std::optional<quint8>(0) : parseFontVariantNumeric(numeric.join(QLatin1Char(' ')));
    const std::optional<quint8> ligatureBits = ligatures.isEmpty()
                                                   ? std::optional<quint8>(0)
                                                   : parseFontVariantLigatures(ligatures.join(QLatin1Char(' ')));
    if (!bits || !ligatureBits || (!ignored.isEmpty() && ignored.size() == words.size()))
        return false;
    // The shorthand resets the longhands it leaves out (CSS Fonts 4 §6.11).
    m_s.fontVariantCaps = caps.value_or(FontVariantCaps::Normal);
    m_s.fontVariantPosition = position.value_or(FontVariantPosition::Normal);
    m_s.fontVariantNumeric = *bits;
    m_s.fontVariantLigatures = *ligatureBits;
    if (!ignored.isEmpty())
        warn(property.name, QStringLiteral("%1 is not supported; rendered without it").arg(ignored.join(u' ')));
    return true;
}

bool StyleBuilder::lineHeight(const CssProperty &, const QString &v)
{
    // CSS Inline 3 §5.1: normal | <number> (inherited as the number) | <length-percentage>
    // (computed to px). A JSON number is a <number> here, as React leaves it unitless.
    if (v.compare(QLatin1String("normal"), Qt::CaseInsensitive) == 0) {
        m_s.lineHeight = {};
        return true;
    }
    if (auto n = css::number(v)) {
        if (*n < 0)
            return false;
        m_s.lineHeight = {LineHeight::Type::Number, *n};
        return true;
    }
    auto l = length(v);
    if (!l || l->value < 0)
        return false;
    m_s.lineHeight = {LineHeight::Type::Px, l->isPercent() ? l->resolve(m_s.fontSize) : l->value};
    return true;
}

bool StyleBuilder::spacing(const CssProperty &p, const QString &v)
{
    float px = 0;
    if (v.compare(QLatin1String("normal"), Qt::CaseInsensitive) != 0) {
        auto l = length(v);
        if (!l || l->isPercent())
            return false;
        px = l->value;
    }
    (p.part == 0 ? m_s.letterSpacing : m_s.wordSpacing) = px;
    return true;
}

/// CSS Text 3 §4.2: `<number>` spaces or a non-negative `<length>`.
bool StyleBuilder::tabSize(const CssProperty &, const QString &v)
{
    if (auto n = css::number(v)) {
        if (*n < 0)
            return false;
        m_s.tabSize = *n;
        m_s.tabSizeIsLength = false;
        return true;
    }
    auto l = length(v);
    if (!l || l->isPercent() || l->value < 0)
        return false;
    m_s.tabSize = l->value;
    m_s.tabSizeIsLength = true;
    return true;
}

/// white-space (CSS Text 4 §3): one of the legacy keywords (normal, pre, nowrap, pre-wrap,
/// break-spaces, pre-line), or the shorthand's longhand values in any order: a
/// white-space-collapse (collapse | preserve | preserve-breaks | break-spaces) and a
/// text-wrap-mode (wrap | nowrap), each its initial value when left out (`wrap` alone is
/// `normal`, `preserve` is `pre-wrap`, as Chromium reads them). With only the property
/// `whiteSpaceCollapse` (p.part 1) the wrap mode already set is kept. `preserve-breaks
/// nowrap` and `preserve-spaces`, which no WhiteSpace value models, are refused.
bool StyleBuilder::whiteSpace(const CssProperty &p, const QString &v)
{
    if (p.part == 0) {
        if (const auto legacy = keyword<WhiteSpace>(v, WhiteSpaceKeywords::list)) {
            m_s.whiteSpace = *legacy;
            return true;
        }
    }
    enum class Collapse { Collapse, Preserve, PreserveBreaks } collapse = Collapse::Collapse;
    bool wrap = p.part == 0 || (m_s.whiteSpace != WhiteSpace::NoWrap && m_s.whiteSpace != WhiteSpace::Pre);
    bool sawCollapse = false, sawWrap = false;
    for (const QString &token : v.simplified().toLower().split(u' ', Qt::SkipEmptyParts)) {
        if (!sawCollapse && (token == QLatin1String("collapse") || token == QLatin1String("preserve")
                             || token == QLatin1String("preserve-breaks") || token == QLatin1String("break-spaces"))) {
            sawCollapse = true;
            collapse = token == QLatin1String("collapse")          ? Collapse::Collapse
                       : token == QLatin1String("preserve-breaks") ? Collapse::PreserveBreaks
                                                                   : Collapse::Preserve;
        } else if (p.part == 0 && !sawWrap && (token == QLatin1String("wrap") || token == QLatin1String("nowrap"))) {
            sawWrap = true;
            wrap = token == QLatin1String("wrap");
        } else {
            return false;
        }
    }
    if (!sawCollapse && !sawWrap)
        return false;
    switch (collapse) {
    case Collapse::Collapse: m_s.whiteSpace = wrap ? WhiteSpace::Normal : WhiteSpace::NoWrap; return true;
    case Collapse::Preserve: m_s.whiteSpace = wrap ? WhiteSpace::PreWrap : WhiteSpace::Pre; return true;
    case Collapse::PreserveBreaks:
        if (!wrap)
            return false;
        m_s.whiteSpace = WhiteSpace::PreLine;
        return true;
    }
    return false;
}

/// text-wrap (CSS Text 4 §6.1): the shorthand of text-wrap-mode (wrap | nowrap, which
/// white-space also sets) and text-wrap-style (auto | balance | pretty | stable); the
/// longhands take the same keywords.
bool StyleBuilder::textWrap(const CssProperty &, const QString &v)
{
    const QString t = v.trimmed().toLower();
    if (t == QLatin1String("nowrap")) {
        if (m_s.whiteSpace == WhiteSpace::PreWrap)
            m_s.whiteSpace = WhiteSpace::Pre;
        else if (m_s.whiteSpace != WhiteSpace::Pre)
            m_s.whiteSpace = WhiteSpace::NoWrap;
        return true;
    }
    if (t == QLatin1String("wrap")) {
        if (m_s.whiteSpace == WhiteSpace::NoWrap)
            m_s.whiteSpace = WhiteSpace::Normal;
        else if (m_s.whiteSpace == WhiteSpace::Pre)
            m_s.whiteSpace = WhiteSpace::PreWrap;
        m_s.textWrapStyle = TextWrapStyle::Auto;
        return true;
    }
    return assignParsed(m_s.textWrapStyle, keyword<TextWrapStyle>(v, TextWrapStyleKeywords::list));
}

bool StyleBuilder::direction(const CssProperty &, const QString &v)
{
    return assignParsed(m_s.direction, keyword<Direction>(v, {{"ltr", Direction::Ltr}, {"rtl", Direction::Rtl}}));
}

bool StyleBuilder::textShadow(const CssProperty &, const QString &v)
{
    return storeParsed(m_s.textShadow, css::shadows(v, false, m_s.color, m_s.fontSize, m_rootFontSize));
}

static std::optional<DecorationStyle> decorationStyleValue(const QString &v)
{
    return keyword<DecorationStyle>(v, DecorationStyleKeywords::list);
}

/// text-decoration-thickness: `auto` | `from-font` | <length> | <percentage> of 1em
/// (CSS Text Decoration 4 §2.6), as px; -1 for the font's own thickness.
std::optional<float> StyleBuilder::decorationThicknessValue(const QString &v) const
{
    const QString k = v.trimmed().toLower();
    if (k == QLatin1String("auto"))
        return TextDecoration::kAutoThickness;
    if (k == QLatin1String("from-font"))
        return TextDecoration::kFromFontThickness;
    const std::optional<Length> l = length(v);
    if (!l)
        return std::nullopt;
    if (l->type == Length::Type::Px && l->value >= 0)
        return l->value;
    if (l->type == Length::Type::Percent && l->value >= 0)
        return l->value / 100.f * m_s.fontSize + l->offset;
    return std::nullopt;
}

bool StyleBuilder::textDecoration(const CssProperty &, const QString &v)
{
    // CSS Text Decoration 4 §2.7: <line> || <thickness> || <style> || <color>.
    TextDecoration d;
    bool colorSet = false, styleSet = false, linesSet = false;
    for (const QString &t : split(v, QLatin1Char(' '))) {
        const QString k = t.toLower();
        if (k == QLatin1String("none")) {
            linesSet = true;
        } else if (k == QLatin1String("underline")) {
            d.underline = linesSet = true;
        } else if (k == QLatin1String("overline")) {
            d.overline = linesSet = true;
        } else if (k == QLatin1String("line-through")) {
            d.lineThrough = linesSet = true;
        } else if (auto s = !styleSet ? decorationStyleValue(t) : std::nullopt) {
            d.style = *s;
            styleSet = true;
        } else if (auto c = !colorSet ? color(t) : std::nullopt) {
            d.color = *c;
            colorSet = true;
        } else if (auto th = decorationThicknessValue(t)) {
            d.thickness = *th;
        } else {
            return false;
        }
    }
    m_ownDecoration = d;
    m_ownDecorationColorSet = colorSet;
    return true;
}

bool StyleBuilder::textDecorationLine(const CssProperty &, const QString &v)
{
    TextDecoration d = m_ownDecoration;
    d.underline = d.overline = d.lineThrough = false;
    for (const QString &t : split(v, QLatin1Char(' '))) {
        const QString k = t.toLower();
        if (k == QLatin1String("underline"))
            d.underline = true;
        else if (k == QLatin1String("overline"))
            d.overline = true;
        else if (k == QLatin1String("line-through"))
            d.lineThrough = true;
        else if (k != QLatin1String("none"))
            return false;
    }
    m_ownDecoration = d;
    return true;
}

bool StyleBuilder::textDecorationColor(const CssProperty &, const QString &v)
{
    auto c = color(v);
    if (!c)
        return false;
    m_ownDecoration.color = *c;
    m_ownDecorationColorSet = true;
    return true;
}

bool StyleBuilder::textStroke(const CssProperty &p, const QString &v)
{
    // Compat §5.3-5.5: -webkit-text-stroke is <line-width> || <color>, widths as for borders.
    float width = p.part == 2 ? m_s.textStrokeWidth : 0;
    std::optional<QColor> c = p.part == 1 ? m_s.textStrokeColor : std::nullopt;
    bool widthSet = false, colorSet = false;
    for (const QString &t : split(v, QLatin1Char(' '))) {
        if (p.part != 2 && !widthSet) {
            if (auto w = borderWidthValue(t)) {
                width = *w;
                widthSet = true;
                continue;
            }
        }
        if (p.part != 1 && !colorSet) {
            if (auto col = color(t)) {
                c = *col;
                colorSet = true;
                continue;
            }
        }
        return false;
    }
    if ((p.part == 1 && !widthSet) || (p.part == 2 && !colorSet))
        return false;
    m_s.textStrokeWidth = width;
    m_s.textStrokeColor = c;
    return true;
}

bool StyleBuilder::textIndent(const CssProperty &, const QString &v)
{
    // CSS Text 3 §8.1: <length-percentage>; the `hanging` / `each-line` keywords are not supported.
    const std::optional<Length> l = length(v);
    if (!l || (l->type != Length::Type::Px && l->type != Length::Type::Percent))
        return false;
    m_s.textIndent = *l;
    return true;
}

bool StyleBuilder::verticalAlign(const CssProperty &, const QString &v)
{
    // CSS 2 §10.8.1: the keywords or a <length-percentage> (a percentage of the element's
    // own line-height, resolved by the text module). It acts on inline-level boxes only;
    // elsewhere (a flex or grid item, a block) CSS ignores it, so no warning is due.
    using K = VerticalAlign::Keyword;
    static const QHash<QString, K> keywords = {
        {QStringLiteral("baseline"), K::Baseline},
        {QStringLiteral("sub"), K::Sub},
        {QStringLiteral("super"), K::Super},
        {QStringLiteral("text-top"), K::TextTop},
        {QStringLiteral("text-bottom"), K::TextBottom},
        {QStringLiteral("middle"), K::Middle},
        {QStringLiteral("top"), K::Top},
        {QStringLiteral("bottom"), K::Bottom},
    };
    const QString value = v.trimmed().toLower();
    if (auto it = keywords.constFind(value); it != keywords.constEnd()) {
        m_s.verticalAlign = VerticalAlign{*it, Length::px(0)};
        return true;
    }
    const std::optional<Length> l = length(value);
    if (!l || (l->type != Length::Type::Px && l->type != Length::Type::Percent))
        return false;
    m_s.verticalAlign = VerticalAlign{K::Length, *l};
    return true;
}

bool StyleBuilder::textDecorationThickness(const CssProperty &, const QString &v)
{
    auto t = decorationThicknessValue(v);
    if (t)
        m_ownDecoration.thickness = *t;
    return t.has_value();
}

bool StyleBuilder::textUnderlineOffset(const CssProperty &, const QString &v)
{
    if (v.trimmed().compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0) {
        m_s.textUnderlineOffset = Length::autoLength();
        return true;
    }
    const std::optional<Length> l = length(v);
    if (!l || (l->type != Length::Type::Px && l->type != Length::Type::Percent))
        return false;
    m_s.textUnderlineOffset = *l;
    return true;
}

bool StyleBuilder::textDecorationStyle(const CssProperty &, const QString &v)
{
    auto s = decorationStyleValue(v);
    if (s)
        m_ownDecoration.style = *s;
    return s.has_value();
}

} // namespace imprint::render::style_detail
