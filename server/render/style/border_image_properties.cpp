// border-image and its longhands (CSS Backgrounds 3 §6): the gradient-border idiom
// `border: 10px solid transparent; border-image: linear-gradient(…) 1`, and framed
// images sliced into nine pieces (`url(frame.png) 30 round`).

#include "server/render/style/style_builder.h"

#include "server/render/css/parse.h"

namespace imprint::render {

namespace style_detail {

namespace {

using Unit = BorderImageLength::Unit;

constexpr BorderImageGrammar kSlice{true, false, false};
constexpr BorderImageGrammar kWidth{true, true, true};
constexpr BorderImageGrammar kOutset{false, true, false};

bool isFill(const QString &t)
{
    return t.compare(QLatin1String("fill"), Qt::CaseInsensitive) == 0;
}

bool isNone(const QString &t)
{
    return t.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0;
}

std::optional<BorderImageRepeat> repeatKeyword(const QString &t)
{
    return keyword<BorderImageRepeat>(t, BorderImageRepeatKeywords::list);
}

/// border-image-repeat (§6.5): one keyword for both axes, or the horizontal then the
/// vertical one.
std::optional<std::pair<BorderImageRepeat, BorderImageRepeat>> repeatValue(const QStringList &tokens)
{
    if (tokens.isEmpty() || tokens.size() > 2)
        return std::nullopt;
    const auto x = repeatKeyword(tokens[0]);
    const auto y = tokens.size() == 2 ? repeatKeyword(tokens[1]) : x;
    if (!x || !y)
        return std::nullopt;
    return std::pair{*x, *y};
}

} // namespace

std::optional<BorderImageLength> StyleBuilder::borderImageSide(const QString &t, const BorderImageGrammar &g) const
{
    if (g.autoKeyword && t.compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0)
        return BorderImageLength{Unit::Auto, 0};
    if (const auto n = css::number(t))
        return *n < 0 ? std::nullopt : std::optional(BorderImageLength{Unit::Number, *n});
    if (g.percent && !g.length)
        if (const auto pct = css::percentage(t))
            return *pct < 0 ? std::nullopt : std::optional(BorderImageLength{Unit::Percent, *pct});
    if (!g.length)
        return std::nullopt;
    const auto l = length(t);
    if (!l || l->value < 0 || (l->isPercent() && !g.percent))
        return std::nullopt;
    return BorderImageLength{l->isPercent() ? Unit::Percent : Unit::Px, l->value};
}

bool StyleBuilder::borderImageSides(const QStringList &tokens, const BorderImageGrammar &g,
                                    Edges<BorderImageLength> &out) const
{
    std::vector<BorderImageLength> values;
    for (const QString &t : tokens) {
        const auto side = borderImageSide(t, g);
        if (!side)
            return false;
        values.push_back(*side);
    }
    return expandEdges(values, &out);
}

bool StyleBuilder::borderImageSlice(const QStringList &tokens, BorderImage &out) const
{
    // `fill` goes before or after the numbers, not between them.
    out.fill = !tokens.isEmpty() && (isFill(tokens.front()) || isFill(tokens.back()));
    const QStringList numbers = out.fill ? (isFill(tokens.front()) ? tokens.mid(1) : tokens.first(tokens.size() - 1))
                                         : tokens;
    return borderImageSides(numbers, kSlice, out.slice);
}

bool StyleBuilder::borderImageSource(const QString &t, BackgroundLayer &out)
{
    BackgroundLayer source;
    if (!isNone(t)) {
        const auto image = imageLayer(t, &source);
        if (!image) {
            m_lastReason = image.error();
            return false;
        }
    }
    out = source;
    return true;
}

bool StyleBuilder::borderImage(const CssProperty &p, const QString &v)
{
    BorderImage &bi = m_s.borderImage;
    const QStringList tokens = css::split(v, QLatin1Char(' '));
    switch (p.part) {
    case 0: return borderImageSource(v.trimmed(), bi.source);
    case 1: return borderImageSlice(tokens, bi);
    case 2: return borderImageSides(tokens, kWidth, bi.width);
    case 3: return borderImageSides(tokens, kOutset, bi.outset);
    case 4:
        if (const auto r = repeatValue(tokens)) {
            std::tie(bi.repeatX, bi.repeatY) = *r;
            return true;
        }
        return false;
    default: break;
    }
    // The shorthand (§6.6): <source> || <slice> [ / <width> | / <width>? / <outset> ]? ||
    // <repeat>; what it leaves out is reset. Slashes become tokens of their own first.
    BorderImage next;
    const QStringList parts = css::split(css::split(v, QLatin1Char('/')).join(QLatin1String(" / ")), QLatin1Char(' '));
    bool hasSource = false, hasRepeat = false, hasSlice = false;
    for (qsizetype i = 0; i < parts.size();) {
        const QString &t = parts[i];
        if (!hasSource && (t.contains(QLatin1Char('(')) || isNone(t))) {
            if (!borderImageSource(t, next.source))
                return false;
            hasSource = true;
            ++i;
            continue;
        }
        if (!hasRepeat && repeatKeyword(t)) {
            qsizetype end = i + 1;
            if (end < parts.size() && repeatKeyword(parts[end]))
                ++end;
            std::tie(next.repeatX, next.repeatY) = *repeatValue(parts.mid(i, end - i));
            hasRepeat = true;
            i = end;
            continue;
        }
        if (hasSlice)
            return false;
        // The slice with its optional `/ width / outset`: the tokens up to the next
        // source or repeat keyword.
        qsizetype end = i;
        while (end < parts.size() && !parts[end].contains(QLatin1Char('(')) && !repeatKeyword(parts[end]))
            ++end;
        QList<QStringList> groups{{}};
        for (qsizetype k = i; k < end; ++k) {
            if (parts[k] == QLatin1String("/"))
                groups.append(QStringList());
            else
                groups.back().append(parts[k]);
        }
        if (groups.size() > 3 || groups[0].isEmpty() || !borderImageSlice(groups[0], next))
            return false;
        // The width may be left out only between two slashes (`30 / / 2`).
        const bool width = groups.size() == 2 || (groups.size() == 3 && !groups[1].isEmpty());
        if (width && !borderImageSides(groups[1], kWidth, next.width))
            return false;
        if (groups.size() == 3 && !borderImageSides(groups[2], kOutset, next.outset))
            return false;
        hasSlice = true;
        i = end;
    }
    bi = next;
    return true;
}

} // namespace style_detail

} // namespace imprint::render
