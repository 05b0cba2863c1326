// computeStyle(): camelCase declarations → ComputedStyle (CSS Cascade 4 §4 value
// processing, https://www.w3.org/TR/css-cascade-4/#value-stages), with satori's
// per-tag defaults and inheritance as CSS defines it.

#include "server/render/style/style_builder.h"

#include "server/render/css/parse.h"
#include "server/render/css/variables.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>
#include <functional>

namespace imprint::render {

namespace style_detail {

QString valueText(const QJsonValue &v)
{
    if (v.isDouble()) {
        // Whole numbers (most style numbers) skip the shortest-round-trip double formatting.
        const double d = v.toDouble();
        if (d == std::floor(d) && std::abs(d) < 1e15)
            return QString::number(qint64(d));
        return QString::number(d, 'g', 10);
    }
    return v.toString().trimmed();
}

namespace {

/// The property a style key names. React hands a hyphenated key (`background-color`,
/// `-webkit-background-clip`) to the DOM as it is, where CSSOM reads it as the camelCase
/// name (CSSOM §6.7.1 dashed attributes); satori camelizes it too. So it names the same
/// property as `backgroundColor`, `WebkitBackgroundClip`. Null when neither form is
/// supported.
const CssProperty *propertyForKey(const QString &key)
{
    if (const CssProperty *p = findCssProperty(key))
        return p;
    if (!key.contains(u'-'))
        return nullptr;
    return findCssProperty(css::camelCasePropertyName(key));
}

} // namespace

void StyleBuilder::applyAll(const QJsonObject &declarations, ApplyOrder first, ApplyOrder last)
{
    struct Declaration {
        QString name;
        QJsonValue value;
        const CssProperty *property; // nullptr: unsupported, warned about in its turn
        ApplyOrder order;
    };
    QVarLengthArray<Declaration, 32> list;
    list.reserve(declarations.size());
    if (first == ApplyOrder::FontSize)
        resolveCustomProperties(declarations);
    for (auto it = declarations.begin(); it != declarations.end(); ++it) {
        if (it.key().startsWith(QLatin1String("--")))
            continue; // custom properties, resolved above
        const CssProperty *p = propertyForKey(it.key());
        const ApplyOrder order = p ? p->order : ApplyOrder::Longhand;
        if (order < first || order > last)
            continue;
        list.append({it.key(), it.value(), p, order});
    }
    // Stable: within one order the keys stay sorted, as QJsonObject gives them.
    std::stable_sort(list.begin(), list.end(),
                     [](const Declaration &a, const Declaration &b) { return a.order < b.order; });
    for (const Declaration &d : list)
        apply(d.property, d.name, d.value);
}

std::optional<QString> StyleBuilder::withVarsSubstituted(const QString &name, const QJsonValue &value)
{
    const QString text = valueText(value);
    if (!css::containsVar(text))
        return text;
    // CSS Variables 1 §3: substituted before the value is parsed; a failed substitution
    // makes the declaration invalid at computed-value time (the property keeps its
    // inherited or initial value).
    return substituteVars(name, text);
}

void StyleBuilder::apply(const CssProperty *property, const QString &name, const QJsonValue &value)
{
    if (value.isNull() || value.isUndefined())
        return; // React drops null/undefined style values
    if (!value.isString() && !value.isDouble()) {
        warn(name, QStringLiteral("expected a string or a number"));
        return;
    }
    if (!property) {
        if (isSvgPaintProperty(name))
            svgPaint(name, value);
        else
            warn(name, unsupportedPropertyMessage(name));
        return;
    }
    const std::optional<QString> substituted = withVarsSubstituted(name, value);
    if (!substituted)
        return;
    QString text = *substituted;
    if (mayHoldFontUnit(text)) {
        // ch and ex (CSS Values 4 §6.1.1): the element's font, applied first
        // (ApplyOrder::FontSize); in font-size itself, the parent's.
        const FontUnitSizes units = property && property->handler == &StyleBuilder::fontSize
                                        ? fontUnitSizes(m_parent ? *m_parent : ComputedStyle{})
                                        : ownFontUnits();
        text = css::resolveFontUnits(text, units.ch, units.ex);
    }
    const QString lower = text.toLower();
    // CSS-wide keywords (CSS Cascade 4 §7.3): inherited properties already carry the
    // parent's value and the others their initial value, so only `inherit` on a
    // non-inherited property is not honoured.
    if (lower == QLatin1String("initial") || lower == QLatin1String("unset") || lower == QLatin1String("inherit")
        || lower == QLatin1String("revert")) {
        if (lower == QLatin1String("inherit"))
            warn(name, QStringLiteral("\"inherit\" is only honoured for inherited properties"));
        return;
    }
    if (text.isEmpty()) {
        warn(name, QStringLiteral("empty value"));
        return;
    }
    m_lastReason.clear();
    lastKeywordMiss().text.clear();
    if (!(this->*property->handler)(*property, text)) {
        QString message = !m_lastReason.isEmpty()
                              ? m_lastReason
                              : QStringLiteral("invalid %1 \"%2\"").arg(valueKindName(property->kind), text);
        if (const QString near = keywordSuggestion(); !near.isEmpty())
            message += QStringLiteral("; did you mean '%1'?").arg(near);
        warn(name, message);
    }
}

// --- box ---------------------------------------------------------------------------

bool StyleBuilder::display(const CssProperty &p, const QString &v)
{
    const QString t = v.toLower();
    if (t == QLatin1String("flex") || t == QLatin1String("inline-flex")) {
        m_s.display = Display::Flex;
    } else if (t == QLatin1String("block") || t == QLatin1String("-webkit-box")) {
        // -webkit-box only appears in the line-clamp idiom, which needs the block form.
        m_s.display = Display::Block;
    } else if (t == QLatin1String("none")) {
        m_s.display = Display::None;
    } else if (t == QLatin1String("grid") || t == QLatin1String("inline-grid")) {
        m_s.display = Display::Grid;
    } else if (t == QLatin1String("inline")) {
        m_s.display = Display::Inline;
    } else if (t == QLatin1String("inline-block")) {
        m_s.display = Display::InlineBlock;
    } else if (t == QLatin1String("contents")) {
        m_s.display = Display::Contents;
    } else {
        m_s.display = Display::Flex;
        warn(QString(p.name), QStringLiteral("display \"%1\" is not supported, using flex").arg(v));
    }
    return true;
}

/// z-index: auto | <integer> (CSS 2 §9.9.1).
bool StyleBuilder::zIndexProp(const CssProperty &, const QString &v)
{
    const QString t = v.trimmed();
    if (t.compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0) {
        m_s.zIndex.reset();
        return true;
    }
    bool ok = false;
    const int z = t.toInt(&ok);
    if (!ok)
        return false;
    m_s.zIndex = z;
    return true;
}

/// order: <integer> (CSS Flexbox 1 §5.4).
bool StyleBuilder::orderProp(const CssProperty &, const QString &v)
{
    bool ok = false;
    const int order = v.trimmed().toInt(&ok);
    if (ok)
        m_s.order = order;
    return ok;
}

bool StyleBuilder::positionProp(const CssProperty &p, const QString &v)
{
    if (auto p = keyword<Position>(
            v, {{"static", Position::Static}, {"relative", Position::Relative}, {"absolute", Position::Absolute}})) {
        m_s.position = *p;
        return true;
    }
    const QString t = v.toLower();
    if (t == QLatin1String("fixed") || t == QLatin1String("sticky")) {
        // One static image has no scrolling: fixed is absolute to the page, sticky stays put.
        m_s.position = t == QLatin1String("fixed") ? Position::Absolute : Position::Relative;
        warn(QString(p.name),
             QStringLiteral("position \"%1\" treated as %2")
                 .arg(v, t == QLatin1String("fixed") ? QStringLiteral("absolute") : QStringLiteral("relative")));
        return true;
    }
    return false;
}

bool StyleBuilder::boxSizing(const CssProperty &, const QString &v)
{
    return assignParsed(m_s.boxSizing, keyword<BoxSizing>(v, {{"content-box", BoxSizing::ContentBox},
                                                              {"border-box", BoxSizing::BorderBox}}));
}

bool StyleBuilder::inset(const CssProperty &p, const QString &v)
{
    return edgeProperty<Length>(
        v, p.part, [this](const QString &t) { return offsetValue(t); }, m_s.inset);
}

bool StyleBuilder::size(const CssProperty &p, const QString &v)
{
    // CSS Sizing 3 §3.2: every sizing property takes the intrinsic size keywords.
    auto l = parseSizeKeyword(v);
    if (!l)
        l = parseLength(v, m_s.fontSize, m_rootFontSize);
    if (!l)
        return false;
    const bool isMax = p.part == SizeMaxWidth || p.part == SizeMaxHeight;
    if (l->isNone() && !isMax)
        return false;
    if (l->isAuto() && isMax)
        l = Length::none(); // lenient: `max-width: auto` is invalid CSS, meant as none
    if ((l->type == Length::Type::Px || l->isPercent()) && l->value < 0) {
        m_lastReason = QStringLiteral("negative size \"%1\"").arg(v);
        return false;
    }
    switch (SizeField(p.part)) {
    case SizeWidth: m_s.width = *l; break;
    case SizeHeight: m_s.height = *l; break;
    case SizeMinWidth: m_s.minWidth = *l; break;
    case SizeMinHeight: m_s.minHeight = *l; break;
    case SizeMaxWidth: m_s.maxWidth = *l; break;
    case SizeMaxHeight: m_s.maxHeight = *l; break;
    }
    return true;
}

bool StyleBuilder::margin(const CssProperty &p, const QString &v)
{
    return edgeProperty<Length>(
        v, p.part, [this](const QString &t) { return offsetValue(t); }, m_s.margin);
}

bool StyleBuilder::padding(const CssProperty &p, const QString &v)
{
    // Padding cannot be negative or auto (CSS Box 4 §4).
    return edgeProperty<Length>(
        v, p.part,
        [this](const QString &t) {
            auto l = length(t);
            return l && l->value >= 0 ? l : std::nullopt;
        },
        m_s.padding);
}

std::optional<float> StyleBuilder::borderWidthValue(const QString &v) const
{
    // CSS Backgrounds 3 §4.3: thin/medium/thick are 1/3/5 px in every browser.
    if (auto k = keyword<float>(v, {{"thin", 1.f}, {"medium", 3.f}, {"thick", 5.f}}))
        return k;
    auto l = length(v);
    if (!l || l->isPercent() || l->value < 0)
        return std::nullopt;
    return l->value;
}

static std::optional<BorderStyle> borderStyleValue(const QString &v)
{
    return keyword<BorderStyle>(v, BorderStyleKeywords::list);
}

bool StyleBuilder::parseBorderParts(const QString &v, std::optional<float> *width, std::optional<BorderStyle> *style,
                                    std::optional<QColor> *colorOut)
{
    const QStringList tokens = split(v, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > 3)
        return false;
    for (const QString &t : tokens) {
        if (!*style)
            if (auto s = borderStyleValue(t)) {
                *style = s;
                continue;
            }
        if (!*width)
            if (auto w = borderWidthValue(t)) {
                *width = w;
                continue;
            }
        if (!*colorOut)
            if (auto c = color(t)) {
                *colorOut = c;
                continue;
            }
        return false;
    }
    return true;
}

bool StyleBuilder::border(const CssProperty &p, const QString &v)
{
    std::optional<float> width;
    std::optional<BorderStyle> style;
    std::optional<QColor> c;
    if (!parseBorderParts(v, &width, &style, &c))
        return false;
    // A shorthand resets what it leaves out to the initial values (medium, none, currentColor).
    const int only = p.part;
    for (int e = 0; e < 4; ++e) {
        if (only >= 0 && e != only)
            continue;
        m_s.borderWidth[e] = width.value_or(3.f);
        m_borderWidthSet[e] = true;
        m_s.borderStyle[e] = style.value_or(BorderStyle::None);
        m_s.borderColor[e] = c.value_or(m_s.color);
        m_borderColorSet[e] = c.has_value();
    }
    return true;
}

bool StyleBuilder::outline(const CssProperty &p, const QString &v)
{
    // `auto` (the focus-ring style) is drawn solid, as the 3D border styles are.
    auto styleValue = [](const QString &t) -> std::optional<BorderStyle> {
        if (t.trimmed().compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0)
            return BorderStyle::Solid;
        return borderStyleValue(t);
    };
    switch (p.part) {
    case 0:
        if (auto w = borderWidthValue(v)) {
            m_s.outlineWidth = *w;
            return true;
        }
        return false;
    case 1:
        if (auto st = styleValue(v)) {
            m_s.outlineStyle = *st;
            return true;
        }
        return false;
    case 2:
        if (v.trimmed().compare(QLatin1String("invert"), Qt::CaseInsensitive) == 0) {
            m_s.outlineColor.reset(); // CSS UI 4 §5.3: without `invert` support, currentColor
            return true;
        }
        if (auto c = color(v)) {
            m_s.outlineColor = c;
            return true;
        }
        return false;
    case 3:
        if (auto l = length(v); l && !l->isPercent()) {
            m_s.outlineOffset = l->value;
            return true;
        }
        return false;
    default: break;
    }
    std::optional<float> width;
    std::optional<BorderStyle> style;
    std::optional<QColor> c;
    QString shorthand = v;
    bool isAuto = false;
    QStringList tokens = split(v, QLatin1Char(' '));
    if (tokens.removeIf([](const QString &t) { return t.compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0; })
        == 1) {
        isAuto = true;
        shorthand = tokens.join(QLatin1Char(' '));
    }
    if (!shorthand.trimmed().isEmpty() && !parseBorderParts(shorthand, &width, &style, &c))
        return false;
    if (isAuto && style)
        return false;
    m_s.outlineWidth = width.value_or(3.f);
    m_s.outlineStyle = isAuto ? BorderStyle::Solid : style.value_or(BorderStyle::None);
    m_s.outlineColor = c;
    return true;
}

/// Notes in `set` the edges a declaration of edge `part` (all four for a shorthand, part
/// < 0) gave a value; true, so it ends a successful handler.
static bool markEdgesSet(std::array<bool, 4> &set, int part)
{
    if (part >= 0)
        set[size_t(part)] = true;
    else
        set = {true, true, true, true};
    return true;
}

bool StyleBuilder::borderWidth(const CssProperty &p, const QString &v)
{
    const auto parse = [this](const QString &t) { return borderWidthValue(t); };
    return edgeProperty<float>(v, p.part, parse, m_s.borderWidth) && markEdgesSet(m_borderWidthSet, p.part);
}

bool StyleBuilder::borderStyle(const CssProperty &p, const QString &v)
{
    return edgeProperty<BorderStyle>(v, p.part, borderStyleValue, m_s.borderStyle);
}

bool StyleBuilder::borderColor(const CssProperty &p, const QString &v)
{
    // An explicit colour stays; the others follow `color` once it is known (finish()).
    const auto parse = [this](const QString &t) { return color(t); };
    return edgeProperty<QColor>(v, p.part, parse, m_s.borderColor) && markEdgesSet(m_borderColorSet, p.part);
}

bool StyleBuilder::logicalEdge(const CssProperty &p, const QString &v)
{
    using Handler = CssProperty::Handler;
    static constexpr Handler kGroups[]
        = {&StyleBuilder::margin,      &StyleBuilder::padding,     &StyleBuilder::inset, &StyleBuilder::borderWidth,
           &StyleBuilder::borderStyle, &StyleBuilder::borderColor, &StyleBuilder::border};
    const int group = p.part / 8;
    const int side = p.part % 8;
    const bool rtl = m_s.direction == Direction::Rtl;
    const auto physical = [rtl](int logicalSide) -> qint8 {
        switch (logicalSide) {
        case 0: return rtl ? Edge::Right : Edge::Left;
        case 1: return rtl ? Edge::Left : Edge::Right;
        case 2: return Edge::Top;
        default: return Edge::Bottom;
        }
    };
    const Handler handler = kGroups[group];
    const auto applyTo = [&](int logicalSide, const QString &value) {
        CssProperty one = p;
        one.part = physical(logicalSide);
        return (this->*handler)(one, value);
    };
    if (side < 4)
        return applyTo(side, v);
    const int start = side == 4 ? 0 : 2;
    if (handler == &StyleBuilder::border) // `border-inline: 1px solid` sets both edges whole
        return applyTo(start, v) && applyTo(start + 1, v);
    // The pair shorthands take one value for both edges or start then end (§4.2).
    const QStringList values = split(v, QLatin1Char(' '));
    if (values.isEmpty() || values.size() > 2)
        return false;
    return applyTo(start, values.front()) && applyTo(start + 1, values.back());
}

bool StyleBuilder::flexFlow(const CssProperty &p, const QString &v)
{
    const QStringList tokens = split(v, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > 2)
        return false;
    ComputedStyle saved = m_s;
    bool dirSeen = false, wrapSeen = false;
    for (const QString &t : tokens) {
        if (!dirSeen && keywordField<&ComputedStyle::flexDirection, FlexDirectionKeywords>(p, t)) {
            dirSeen = true;
        } else if (!wrapSeen && keywordField<&ComputedStyle::flexWrap, FlexWrapKeywords>(p, t)) {
            wrapSeen = true;
        } else {
            m_s = saved;
            return false;
        }
    }
    // The shorthand resets the omitted half.
    if (!dirSeen)
        m_s.flexDirection = FlexDirection::Row;
    if (!wrapSeen)
        m_s.flexWrap = FlexWrap::NoWrap;
    return true;
}

bool StyleBuilder::flex(const CssProperty &, const QString &v)
{
    // CSS Flexbox 1 §7.1.1: none = 0 0 auto, auto = 1 1 auto, initial = 0 1 auto;
    // <grow> [<shrink>]? || <basis>, an omitted basis being 0 (computed as 0%, as Chromium
    // does: a percentage against an indefinite size then behaves as content).
    const QString t = v.toLower();
    if (t == QLatin1String("none")) {
        m_s.flexGrow = 0;
        m_s.flexShrink = 0;
        m_s.flexBasis = Length::autoLength();
        return true;
    }
    if (t == QLatin1String("auto")) {
        m_s.flexGrow = 1;
        m_s.flexShrink = 1;
        m_s.flexBasis = Length::autoLength();
        return true;
    }
    const QStringList tokens = split(v, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > 3)
        return false;
    std::vector<float> factors;
    std::optional<Length> basis;
    for (const QString &tok : tokens) {
        if (auto n = css::number(tok); n && factors.size() < 2) {
            if (*n < 0)
                return false;
            factors.push_back(*n);
            continue;
        }
        if (!basis) {
            if (tok.compare(QLatin1String("content"), Qt::CaseInsensitive) == 0) {
                basis = Length::content();
                continue;
            }
            if (auto keyword = parseSizeKeyword(tok)) {
                basis = *keyword;
                continue;
            }
            auto l = parseLength(tok, m_s.fontSize, m_rootFontSize);
            if (l && !l->isNone() && (l->isAuto() || l->value >= 0)) {
                basis = *l;
                continue;
            }
        }
        return false;
    }
    if (factors.empty() && !basis)
        return false;
    m_s.flexGrow = factors.empty() ? 1 : factors[0];
    m_s.flexShrink = factors.size() > 1 ? factors[1] : 1;
    m_s.flexBasis = basis.value_or(Length::percent(0));
    return true;
}

bool StyleBuilder::flexFactor(const CssProperty &p, const QString &v)
{
    auto f = css::number(v);
    if (!f || *f < 0)
        return false;
    (p.part == 0 ? m_s.flexGrow : m_s.flexShrink) = *f;
    return true;
}

bool StyleBuilder::flexBasis(const CssProperty &, const QString &v)
{
    // CSS Flexbox 1 §7.2.3: content, and (CSS Sizing 3 §3.2) the intrinsic size keywords.
    if (v.trimmed().compare(QLatin1String("content"), Qt::CaseInsensitive) == 0) {
        m_s.flexBasis = Length::content();
        return true;
    }
    if (auto keyword = parseSizeKeyword(v)) {
        m_s.flexBasis = *keyword;
        return true;
    }
    auto l = parseLength(v, m_s.fontSize, m_rootFontSize);
    if (!l || l->isNone() || (!l->isAuto() && l->value < 0))
        return false;
    m_s.flexBasis = *l;
    return true;
}

bool StyleBuilder::alignItems(const CssProperty &p, const QString &v)
{
    QString t = v.toLower().simplified();
    if (t.startsWith(QLatin1String("safe ")) || t.startsWith(QLatin1String("unsafe ")))
        t = t.mid(t.indexOf(QLatin1Char(' ')) + 1);
    return itemsOrSelf<AlignItemsKeywords>(t, p.part == 1, m_s.alignItems, m_s.alignSelf);
}

bool StyleBuilder::gap(const CssProperty &p, const QString &v)
{
    const QStringList tokens = split(v, QLatin1Char(' '));
    std::vector<Length> values;
    for (const QString &t : tokens) {
        if (t.compare(QLatin1String("normal"), Qt::CaseInsensitive) == 0) {
            values.push_back(Length::px(0));
            continue;
        }
        auto l = length(t);
        if (!l || l->value < 0)
            return false;
        values.push_back(*l);
    }
    if (values.empty())
        return false;
    if (p.part == 1) {
        if (values.size() != 1)
            return false;
        m_s.rowGap = values[0];
    } else if (p.part == 0) {
        if (values.size() != 1)
            return false;
        m_s.columnGap = values[0];
    } else {
        if (values.size() > 2)
            return false;
        m_s.rowGap = values[0];
        m_s.columnGap = values.size() > 1 ? values[1] : values[0];
    }
    return true;
}

bool StyleBuilder::overflow(const CssProperty &p, const QString &v)
{
    // A still image cannot scroll: scroll/auto/clip clip like hidden. One flag serves
    // both axes, so clipping either axis clips the box.
    const QStringList tokens = split(v, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > (p.part < 0 ? 2 : 1))
        return false;
    bool hidden = false;
    for (const QString &t : tokens) {
        auto o = keyword<bool>(
            t, {{"visible", false}, {"hidden", true}, {"clip", true}, {"scroll", true}, {"auto", true}});
        if (!o)
            return false;
        hidden |= *o;
    }
    if (p.part < 0)
        m_s.overflow = hidden ? Overflow::Hidden : Overflow::Visible;
    else if (hidden)
        m_s.overflow = Overflow::Hidden;
    return true;
}

bool StyleBuilder::aspectRatio(const CssProperty &, const QString &v)
{
    QString t = v.toLower();
    if (t == QLatin1String("auto")) {
        m_s.aspectRatio = 0;
        return true;
    }
    if (t.startsWith(QLatin1String("auto ")))
        t = t.mid(5);
    else if (t.endsWith(QLatin1String(" auto")))
        t.chop(5);
    const QStringList parts = split(t, QLatin1Char('/'));
    if (parts.isEmpty() || parts.size() > 2)
        return false;
    auto a = css::number(parts[0]);
    auto b = parts.size() > 1 ? css::number(parts[1]) : std::optional<float>(1.f);
    if (!a || !b || *a <= 0 || *b <= 0)
        return false;
    m_s.aspectRatio = *a / *b;
    return true;
}

namespace {

/// CSS Values 4 §snap-a-length-as-a-border-width, as Chromium computes border and outline
/// widths: a width under one pixel is one, a wider one drops its fraction (a 0.6vmin rule
/// of a 1080 px card is 6 px, not 6.48). Whole CSS px: the layout is that of scale 1.
float snappedBorderWidth(float px)
{
    if (px <= 0)
        return 0;
    return px < 1 ? 1.f : std::floor(px);
}

} // namespace

void StyleBuilder::finish()
{
    for (int e = 0; e < 4; ++e) {
        // Computed border width is 0 when the style is none (CSS Backgrounds 3 §4.3), and
        // the initial `medium` (3 px) when a style is given without a width.
        if (m_s.borderStyle[e] == BorderStyle::None)
            m_s.borderWidth[e] = 0;
        else if (!m_borderWidthSet[e])
            m_s.borderWidth[e] = 3;
        m_s.borderWidth[e] = snappedBorderWidth(m_s.borderWidth[e]);
        if (!m_borderColorSet[e])
            m_s.borderColor[e] = m_s.color;
    }
    m_s.outlineWidth = snappedBorderWidth(m_s.outlineWidth);
    // A clamped block is Chromium's -webkit-box with overflow hidden (how templates and
    // Tailwind's line-clamp-* write it, and the html engine's page): unless the template
    // says otherwise, its overflow is clipped and, as a flex item, it may shrink below
    // its lines (no content-based minimum, CSS Flexbox 1 §4.5).
    if (m_s.lineClamp > 0 && (m_s.display == Display::Block || m_s.display == Display::InlineBlock)
        && m_s.overflow == Overflow::Visible)
        m_s.overflow = Overflow::Hidden;
    // Decorations accumulate down the tree (CSS Text Decoration 3 §2.1): an element adds
    // its own lines to those propagated from ancestors and cannot remove them.
    const TextDecoration &own = m_ownDecoration;
    if (own.underline || own.overline || own.lineThrough) {
        TextDecoration &d = m_s.textDecoration;
        d.underline |= own.underline;
        d.overline |= own.overline;
        d.lineThrough |= own.lineThrough;
        d.style = own.style;
        d.thickness = own.thickness;
        d.color = m_ownDecorationColorSet ? own.color : std::optional<QColor>(m_s.color);
        // The underline's offset is the decorating box's (CSS Text Decoration 4 §3.5), a
        // percentage of its 1em, as Blink's AppliedTextDecoration keeps it.
        const Length &offset = m_s.textUnderlineOffset;
        d.underlineOffset = offset.isAuto()      ? 0.f
                            : offset.isPercent() ? offset.value / 100.f * m_s.fontSize + offset.offset
                                                 : offset.value;
        d.underlineOffsetAuto = offset.isAuto();
    }
    // CSS Transforms 2 §6: translate, then rotate, then scale, then the transform list.
    std::vector<TransformOp> ops;
    for (const std::vector<TransformOp> &individual : m_individualTransforms)
        ops.insert(ops.end(), individual.begin(), individual.end());
    if (!ops.empty()) {
        ops.insert(ops.end(), m_s.transform.begin(), m_s.transform.end());
        m_s.transform = std::move(ops);
    }
}

} // namespace style_detail

namespace {

/// satori's default styles per HTML tag (satori src/handler/presets.ts), themselves
/// the user-agent stylesheet values of the HTML standard §15.3.
const QJsonObject &tagPreset(const QString &tag)
{
    static const QHash<QString, QJsonObject> presets = [] {
        QHash<QString, QJsonObject> p;
        auto heading = [](const char *size, const char *margin) {
            return QJsonObject{{QStringLiteral("fontSize"), QLatin1String(size)},
                               {QStringLiteral("marginTop"), QLatin1String(margin)},
                               {QStringLiteral("marginBottom"), QLatin1String(margin)},
                               {QStringLiteral("fontWeight"), QStringLiteral("bold")}};
        };
        const QJsonObject vertical1em{{QStringLiteral("marginTop"), QStringLiteral("1em")},
                                      {QStringLiteral("marginBottom"), QStringLiteral("1em")}};
        p.insert(QStringLiteral("p"), vertical1em);
        QJsonObject blockquote = vertical1em;
        blockquote.insert(QStringLiteral("marginLeft"), 40);
        blockquote.insert(QStringLiteral("marginRight"), 40);
        p.insert(QStringLiteral("blockquote"), blockquote);
        p.insert(QStringLiteral("center"), QJsonObject{{QStringLiteral("textAlign"), QStringLiteral("center")}});
        p.insert(QStringLiteral("h1"), heading("2em", "0.67em"));
        p.insert(QStringLiteral("h2"), heading("1.5em", "0.83em"));
        p.insert(QStringLiteral("h3"), heading("1.17em", "1em"));
        p.insert(QStringLiteral("h4"), heading("1em", "1.33em"));
        p.insert(QStringLiteral("h5"), heading("0.83em", "1.67em"));
        p.insert(QStringLiteral("h6"), heading("0.67em", "2.33em"));
        const QJsonObject bold{{QStringLiteral("fontWeight"), QStringLiteral("bold")}};
        p.insert(QStringLiteral("b"), bold);
        p.insert(QStringLiteral("strong"), bold);
        const QJsonObject italic{{QStringLiteral("fontStyle"), QStringLiteral("italic")}};
        for (const char *t : {"i", "em", "cite", "var", "dfn", "address"})
            p.insert(QLatin1String(t), italic);
        const QJsonObject mono{{QStringLiteral("fontFamily"), QStringLiteral("monospace")}};
        for (const char *t : {"code", "kbd", "samp", "tt"})
            p.insert(QLatin1String(t), mono);
        QJsonObject pre = vertical1em;
        pre.insert(QStringLiteral("fontFamily"), QStringLiteral("monospace"));
        pre.insert(QStringLiteral("whiteSpace"), QStringLiteral("pre"));
        p.insert(QStringLiteral("pre"), pre);
        p.insert(QStringLiteral("u"), QJsonObject{{QStringLiteral("textDecoration"), QStringLiteral("underline")}});
        p.insert(QStringLiteral("ins"), QJsonObject{{QStringLiteral("textDecoration"), QStringLiteral("underline")}});
        for (const char *t : {"s", "del", "strike"})
            p.insert(QLatin1String(t), QJsonObject{{QStringLiteral("textDecoration"), QStringLiteral("line-through")}});
        p.insert(QStringLiteral("mark"), QJsonObject{{QStringLiteral("backgroundColor"), QStringLiteral("yellow")},
                                                     {QStringLiteral("color"), QStringLiteral("black")}});
        p.insert(QStringLiteral("small"), QJsonObject{{QStringLiteral("fontSize"), QStringLiteral("smaller")}});
        p.insert(QStringLiteral("big"), QJsonObject{{QStringLiteral("fontSize"), QStringLiteral("larger")}});
        // HTML §15.3.3: sub and sup are smaller and shifted off the baseline.
        p.insert(QStringLiteral("sub"), QJsonObject{{QStringLiteral("verticalAlign"), QStringLiteral("sub")},
                                                    {QStringLiteral("fontSize"), QStringLiteral("smaller")}});
        p.insert(QStringLiteral("sup"), QJsonObject{{QStringLiteral("verticalAlign"), QStringLiteral("super")},
                                                    {QStringLiteral("fontSize"), QStringLiteral("smaller")}});
        p.insert(QStringLiteral("hr"), QJsonObject{{QStringLiteral("marginTop"), QStringLiteral("0.5em")},
                                                   {QStringLiteral("marginBottom"), QStringLiteral("0.5em")},
                                                   {QStringLiteral("borderTop"), QStringLiteral("1px solid")}});
        return p;
    }();
    static const QJsonObject none;
    auto it = presets.constFind(tag);
    return it == presets.constEnd() ? none : *it;
}

/// Inheritance (CSS Cascade 4 §7.2): the whole inherited part of the parent's style.
void inheritInto(ComputedStyle &s, const ComputedStyle &parent)
{
    static_cast<InheritedStyle &>(s) = parent;
    // Propagated decorations keep the colour of the element that declared them.
    TextDecoration &d = s.textDecoration;
    if ((d.underline || d.overline || d.lineThrough) && !d.color)
        d.color = parent.color;
}

} // namespace

/// The elements the HTML standard's user-agent stylesheet leaves display:inline (§15.3.3
/// lists the block ones; these are the phrasing elements Chromium renders inline).
const QStringList &inlineTagNames()
{
    static const QStringList tags = {
        QStringLiteral("span"), QStringLiteral("b"),      QStringLiteral("strong"), QStringLiteral("em"),
        QStringLiteral("i"),    QStringLiteral("a"),      QStringLiteral("code"),   QStringLiteral("mark"),
        QStringLiteral("br"),   QStringLiteral("u"),      QStringLiteral("s"),      QStringLiteral("small"),
        QStringLiteral("sub"),  QStringLiteral("sup"),    QStringLiteral("kbd"),    QStringLiteral("samp"),
        QStringLiteral("cite"), QStringLiteral("q"),      QStringLiteral("abbr"),   QStringLiteral("del"),
        QStringLiteral("ins"),  QStringLiteral("var"),    QStringLiteral("dfn"),    QStringLiteral("big"),
        QStringLiteral("tt"),   QStringLiteral("strike"), QStringLiteral("time"),   QStringLiteral("bdi"),
        QStringLiteral("img"),  QStringLiteral("svg"),
    };
    return tags;
}

bool isInlineTag(const QString &tag)
{
    static const QSet<QString> tags(inlineTagNames().begin(), inlineTagNames().end());
    return tags.contains(tag);
}

bool isSvgPaintProperty(const QString &name)
{
    static const QSet<QString> names = {
        QStringLiteral("fill"),           QStringLiteral("fillOpacity"),      QStringLiteral("fillRule"),
        QStringLiteral("stroke"),         QStringLiteral("strokeWidth"),      QStringLiteral("strokeOpacity"),
        QStringLiteral("strokeLinecap"),  QStringLiteral("strokeLinejoin"),   QStringLiteral("strokeMiterlimit"),
        QStringLiteral("strokeDasharray"), QStringLiteral("strokeDashoffset"), QStringLiteral("clipRule"),
        QStringLiteral("paintOrder"),     QStringLiteral("shapeRendering"),   QStringLiteral("vectorEffect"),
        QStringLiteral("textAnchor"),     QStringLiteral("dominantBaseline"),
    };
    return names.contains(name);
}

ComputedStyle computeStyle(const QJsonObject &declarations, const ComputedStyle *parent, const QString &tag,
                           float rootFontSize, const QString &fieldPath, QStringList *warnings)
{
    ComputedStyle s;
    if (parent)
        inheritInto(s, *parent);
    // The phrasing elements are inline (HTML §15.3.3, as Chromium): their text joins the
    // surrounding paragraph in a block container; every other element keeps satori's
    // display:flex default, so a JSON tree of divs lays out as it always did.
    if (isInlineTag(tag.toLower()))
        s.display = Display::Inline;
    style_detail::StyleBuilder builder(s, parent, rootFontSize, fieldPath, warnings);
    // Tag defaults are a cascade origin below the author's declarations, so they are
    // applied as a whole first: a preset longhand must not override an author shorthand.
    // Font size and colour are the exception: the preset's `0.67em` margins resolve
    // against the element's computed font size (CSS Values 4 §6.1.1), which the
    // author's `fontSize` decides, so both origins settle those before anything else.
    const QJsonObject &preset = tagPreset(tag.toLower());
    if (!preset.isEmpty()) {
        builder.applyAll(preset, ApplyOrder::FontSize, ApplyOrder::Color);
        builder.applyAll(declarations, ApplyOrder::FontSize, ApplyOrder::Color);
        builder.applyAll(preset, ApplyOrder::Shorthand);
        builder.applyAll(declarations, ApplyOrder::Shorthand);
    } else {
        builder.applyAll(declarations);
    }
    builder.finish();
    return s;
}

ComputedStyle inheritedStyle(const ComputedStyle &parent)
{
    ComputedStyle s;
    inheritInto(s, parent);
    // The text module sees only the run, so it gets the block-level properties that act
    // on the lines of its element's inline content (CSS Overflow 4 line-clamp,
    // text-overflow): lineClamp, textOverflow and overflow.
    // line-clamp acts only on a block container's lines (CSS Overflow 4 §4.1; Chromium
    // ignores it on a flex or grid container, whose text is an anonymous item).
    s.lineClamp = parent.display == Display::Block || parent.display == Display::InlineBlock ? parent.lineClamp : 0;
    s.textOverflow = parent.textOverflow;
    s.overflow = parent.overflow;
    // textFit: shrink-to-box fits the run into its element's content height (Imprint's mode).
    if (parent.textFit.type == TextFit::Type::ShrinkToBox)
        s.textFitBoxHeight = style_detail::textFitBoxHeight(parent);
    // textDecoration: a run draws what its element declared plus what it inherited.
    s.textDecoration = parent.textDecoration;
    return s;
}

} // namespace imprint::render
