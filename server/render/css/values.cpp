// CSS component values: splitting, numbers, lengths, angles, positions
// (CSS Values and Units 4, https://www.w3.org/TR/css-values-4/).

#include "server/render/css/parse.h"

#include "server/render/css/calc.h"
#include "server/render/css/list_items.h"

#include <cmath>
#include <functional>

namespace imprint::render {

namespace css {

qsizetype closingBracket(QStringView text, qsizetype from, QChar open, QChar close)
{
    int depth = 1;
    QChar quote;
    for (qsizetype i = from; i < text.size(); ++i) {
        const QChar c = text[i];
        if (!quote.isNull()) {
            if (c == u'\\')
                ++i;
            else if (c == quote)
                quote = QChar();
            continue;
        }
        if (c == u'"' || c == u'\'')
            quote = c;
        else if (c == open)
            ++depth;
        else if (c == close && --depth == 0)
            return i;
    }
    return -1;
}

QString camelCasePropertyName(QStringView kebab)
{
    QString name = kebab.toString().toLower();
    if (name.startsWith(QLatin1String("-ms-")))
        name = name.mid(1);
    QString out;
    out.reserve(name.size());
    bool upper = false;
    for (const QChar c : name) {
        if (c == QLatin1Char('-')) {
            upper = true;
            continue;
        }
        out += upper ? c.toUpper() : c;
        upper = false;
    }
    return out;
}

std::vector<Declaration> parseDeclarationList(QStringView text)
{
    std::vector<Declaration> out;
    for (const QString &piece : split(text, QLatin1Char(';'))) {
        const qsizetype colon = piece.indexOf(QLatin1Char(':'));
        if (colon <= 0)
            continue;
        Declaration d;
        d.value = piece.mid(colon + 1).trimmed();
        if (d.value.isEmpty())
            continue;
        static const QLatin1String important("!important");
        if (d.value.endsWith(important, Qt::CaseInsensitive)) {
            d.important = true;
            d.value = d.value.chopped(important.size()).trimmed();
        }
        const QString written = piece.left(colon).trimmed();
        if (written.startsWith(QLatin1String("--"))) {
            d.name = written;
        } else {
            d.name = camelCasePropertyName(written);
        }
        out.push_back(std::move(d));
    }
    return out;
}

/// Follows quoted strings through a scan that sees `c` next: true when `c` opens, is inside
/// or closes one (the scan passes it by), `quote` holding the open string's quote mark.
static bool inQuotedString(QChar c, QChar &quote)
{
    if (!quote.isNull()) {
        if (c == quote)
            quote = QChar();
        return true;
    }
    if (c == u'"' || c == u'\'') {
        quote = c;
        return true;
    }
    return false;
}

QStringList split(QStringView text, QChar separator)
{
    QStringList out;
    const bool whitespace = separator == QLatin1Char(' ');
    int depth = 0;
    QChar quote;
    qsizetype start = 0;
    auto flush = [&](qsizetype end) {
        const QString piece = text.mid(start, end - start).trimmed().toString();
        if (!whitespace || !piece.isEmpty())
            out << piece;
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (inQuotedString(c, quote))
            continue;
        if (c == QLatin1Char('(')) {
            ++depth;
        } else if (c == QLatin1Char(')')) {
            depth = std::max(0, depth - 1);
        } else if (depth == 0 && (whitespace ? c.isSpace() : c == separator)) {
            flush(i);
            start = i + 1;
        }
    }
    flush(text.size());
    if (!whitespace && out.size() == 1 && out.first().isEmpty())
        out.clear();
    return out;
}

std::optional<QStringList> listItems(const QString &text, QChar separator, const char *what, QString *reason)
{
    if (text.trimmed().compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return QStringList();
    QStringList items = split(text, separator);
    if (items.isEmpty()) {
        *reason = QStringLiteral("empty %1").arg(QLatin1String(what));
        return std::nullopt;
    }
    return items;
}

std::optional<FunctionCall> function(QStringView text)
{
    text = text.trimmed();
    const qsizetype open = text.indexOf(QLatin1Char('('));
    if (open <= 0 || !text.endsWith(QLatin1Char(')')))
        return std::nullopt;
    const QStringView n = text.left(open);
    for (QChar c : n)
        if (!(c.isLetterOrNumber() || c == QLatin1Char('-')))
            return std::nullopt;
    return FunctionCall{n.toString().toLower(), text.mid(open + 1, text.size() - open - 2).trimmed().toString()};
}

std::optional<std::array<CornerRadius, 4>> cornerRadii(const QString &text, float fontSize, float rootFontSize)
{
    const QStringList halves = split(text, QLatin1Char('/'));
    if (halves.isEmpty() || halves.size() > 2)
        return std::nullopt;
    std::array<Edges<Length>, 2> r;
    for (qsizetype h = 0; h < halves.size(); ++h) {
        std::vector<Length> v;
        for (const QString &t : split(halves[h], QLatin1Char(' '))) {
            auto l = lengthPercentage(t, fontSize, rootFontSize);
            if (!l || l->value < 0)
                return std::nullopt;
            v.push_back(*l);
        }
        switch (v.size()) { // 1–4 values in corner order, as the edge shorthands expand
        case 1: r[h] = {v[0], v[0], v[0], v[0]}; break;
        case 2: r[h] = {v[0], v[1], v[0], v[1]}; break;
        case 3: r[h] = {v[0], v[1], v[2], v[1]}; break;
        case 4: r[h] = {v[0], v[1], v[2], v[3]}; break;
        default: return std::nullopt;
        }
    }
    if (halves.size() == 1)
        r[1] = r[0];
    std::array<CornerRadius, 4> radii;
    for (int c = 0; c < 4; ++c)
        radii[c] = {r[0][c], r[1][c]};
    return radii;
}

qsizetype skipExponent(QStringView t, qsizetype i)
{
    if (i + 1 < t.size() && (t[i] == u'e' || t[i] == u'E')
        && (t[i + 1].isDigit() || ((t[i + 1] == u'+' || t[i + 1] == u'-') && i + 2 < t.size() && t[i + 2].isDigit()))) {
        i += 2;
        while (i < t.size() && t[i].isDigit())
            ++i;
    }
    return i;
}

std::optional<float> number(QStringView text)
{
    text = text.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    // QString::toDouble also accepts "inf"/"nan" and hex-like forms; CSS numbers start
    // with a sign, a digit or a dot.
    const QChar c = text.front();
    if (!(c.isDigit() || c == QLatin1Char('-') || c == QLatin1Char('+') || c == QLatin1Char('.')))
        return std::nullopt;
    bool ok = false;
    const double v = text.toDouble(&ok);
    // Beyond ±1e9 nothing is meaningful in a 8192 px image, and floats lose integers
    // anyway; refusing keeps infinities out of layout arithmetic.
    if (!ok || !std::isfinite(v) || std::abs(v) > 1e9)
        return std::nullopt;
    return float(v);
}

std::optional<float> numberWithUnit(QStringView text, QLatin1StringView unit)
{
    text = text.trimmed();
    if (text.size() <= unit.size() || !text.endsWith(unit, Qt::CaseInsensitive))
        return std::nullopt;
    const QStringView n = text.chopped(unit.size());
    // "1e3px" is fine, "1epx" is not (number() decides); "12 px" is two tokens.
    if (n.back().isSpace())
        return std::nullopt;
    return number(n);
}

std::optional<float> angle(QStringView text)
{
    text = text.trimmed();
    if (auto v = numberWithUnit(text, QLatin1StringView("deg")))
        return *v;
    if (auto v = numberWithUnit(text, QLatin1StringView("grad")))
        return *v * 0.9f;
    if (auto v = numberWithUnit(text, QLatin1StringView("rad")))
        return *v * 180.f / float(M_PI);
    if (auto v = numberWithUnit(text, QLatin1StringView("turn")))
        return *v * 360.f;
    if (auto v = number(text); v && *v == 0)
        return 0.f;
    return std::nullopt;
}

std::optional<float> percentage(QStringView text)
{
    return numberWithUnit(text, QLatin1StringView("%"));
}

std::optional<Length> lengthPercentage(QStringView text, float fontSize, float rootFontSize)
{
    text = text.trimmed();
    if (isMathFunction(text))
        return calcLength(text, fontSize, rootFontSize);
    if (auto v = numberWithUnit(text, QLatin1StringView("px")))
        return Length::px(*v);
    if (auto v = percentage(text))
        return Length::percent(*v);
    if (auto v = numberWithUnit(text, QLatin1StringView("rem")))
        return Length::px(*v * rootFontSize);
    if (auto v = numberWithUnit(text, QLatin1StringView("em")))
        return Length::px(*v * fontSize);
    // Absolute units (CSS Values 4 §6.2): 1in = 96px.
    if (auto v = numberWithUnit(text, QLatin1StringView("pt")))
        return Length::px(*v * 96.f / 72.f);
    if (auto v = numberWithUnit(text, QLatin1StringView("pc")))
        return Length::px(*v * 16.f);
    if (auto v = numberWithUnit(text, QLatin1StringView("in")))
        return Length::px(*v * 96.f);
    if (auto v = numberWithUnit(text, QLatin1StringView("cm")))
        return Length::px(*v * 96.f / 2.54f);
    if (auto v = numberWithUnit(text, QLatin1StringView("mm")))
        return Length::px(*v * 96.f / 25.4f);
    // Unitless numbers mean px, as a React style number does (satori accepts "12" too).
    if (auto v = number(text))
        return Length::px(*v);
    return std::nullopt;
}

std::optional<int> fontWeight(QStringView text, int parent)
{
    text = text.trimmed();
    if (text.compare(QLatin1String("normal"), Qt::CaseInsensitive) == 0)
        return 400;
    if (text.compare(QLatin1String("bold"), Qt::CaseInsensitive) == 0)
        return 700;
    // §2.2.1's relative weights.
    if (text.compare(QLatin1String("bolder"), Qt::CaseInsensitive) == 0)
        return parent >= 900 ? parent : parent < 350 ? 400 : parent < 550 ? 700 : 900;
    if (text.compare(QLatin1String("lighter"), Qt::CaseInsensitive) == 0)
        return parent < 100 ? parent : parent < 550 ? 100 : parent < 750 ? 400 : 700;
    const auto n = number(text);
    if (!n || *n < 1 || *n > 1000)
        return std::nullopt;
    return int(std::lround(*n));
}

QString substituteUnits(const QString &value, const std::function<qreal(QStringView unit)> &pxPerUnit)
{
    auto isNameChar = [](QChar c) { return c.isLetterOrNumber() || c == u'_' || c == u'-' || c == u'.' || c == u'#'; };
    QString out;
    qsizetype copied = 0;
    QChar quote;
    int urlDepth = 0;
    for (qsizetype i = 0; i < value.size(); ++i) {
        const QChar c = value[i];
        if (inQuotedString(c, quote))
            continue;
        if (urlDepth > 0) {
            urlDepth += c == u'(' ? 1 : c == u')' ? -1 : 0;
            continue;
        }
        if (c == u'(' && i >= 3 && value.mid(i - 3, 3).compare(QLatin1String("url"), Qt::CaseInsensitive) == 0) {
            urlDepth = 1;
            continue;
        }
        // A number starts here: a digit, or a sign or '.' before one, not inside a name.
        const bool signOrDot
            = (c == u'+' || c == u'-' || c == u'.') && i + 1 < value.size()
              && (value[i + 1].isDigit() || (value[i + 1] == u'.' && i + 2 < value.size() && value[i + 2].isDigit()));
        if (!(c.isDigit() || signOrDot) || (i > 0 && isNameChar(value[i - 1])))
            continue;
        qsizetype j = i + 1;
        while (j < value.size() && (value[j].isDigit() || value[j] == u'.'))
            ++j;
        j = skipExponent(value, j);
        qsizetype unitEnd = j;
        while (unitEnd < value.size() && value[unitEnd].isLetter())
            ++unitEnd;
        const QString unit = value.mid(j, unitEnd - j).toLower();
        const qreal basis = unit.isEmpty() ? -1 : pxPerUnit(unit);
        bool ok = false;
        const double n = value.mid(i, j - i).toDouble(&ok);
        if (basis > 0 && ok && std::isfinite(n)) {
            out += QStringView(value).mid(copied, i - copied);
            out += QString::number(n * basis, 'g', 10) + QLatin1String("px");
            copied = unitEnd;
        }
        i = unitEnd - 1;
    }
    if (copied == 0)
        return value;
    out += QStringView(value).mid(copied);
    return out;
}

QString resolveViewportUnits(const QString &value, QSizeF viewport)
{
    return substituteUnits(value, [viewport](QStringView written) -> qreal {
        QStringView unit = written;
        if (unit.size() > 2 && (unit[0] == u's' || unit[0] == u'l' || unit[0] == u'd'))
            unit = unit.mid(1); // svw, lvh, dvmin: the small, large and dynamic viewports are one here
        qreal side = -1;
        if (unit == u"vw" || unit == u"vi")
            side = viewport.width();
        else if (unit == u"vh" || unit == u"vb")
            side = viewport.height();
        else if (unit == u"vmin")
            side = std::min(viewport.width(), viewport.height());
        else if (unit == u"vmax")
            side = std::max(viewport.width(), viewport.height());
        return side > 0 ? side / 100.0 : -1;
    });
}

QString resolveFontUnits(const QString &value, qreal chPx, qreal exPx)
{
    return substituteUnits(value, [chPx, exPx](QStringView unit) -> qreal {
        if (unit == u"ch")
            return chPx;
        if (unit == u"ex")
            return exPx;
        return -1;
    });
}

namespace {

/// One axis's part of a <position>: the axis its keyword names (Either for `center` and
/// bare lengths) and its value.
struct PositionPart {
    enum Axis { Either, Horizontal, Vertical } axis;
    Length value;
};

/// Two parts as x and y: keywords may come in either order ("top left"), lengths may not.
bool assignAxes(PositionPart a, PositionPart b, Length *x, Length *y)
{
    if (a.axis == PositionPart::Vertical || b.axis == PositionPart::Horizontal) {
        if (a.axis == PositionPart::Horizontal || b.axis == PositionPart::Vertical)
            return false;
        std::swap(a, b);
    }
    *x = a.value;
    *y = b.value;
    return true;
}

/// The axis and value of an edge keyword (left/right/top/bottom/center); nullopt for
/// anything else.
std::optional<PositionPart> edgeKeyword(const QString &token)
{
    const QString k = token.toLower();
    if (k == QLatin1String("left"))
        return PositionPart{PositionPart::Horizontal, Length::percent(0)};
    if (k == QLatin1String("right"))
        return PositionPart{PositionPart::Horizontal, Length::percent(100)};
    if (k == QLatin1String("top"))
        return PositionPart{PositionPart::Vertical, Length::percent(0)};
    if (k == QLatin1String("bottom"))
        return PositionPart{PositionPart::Vertical, Length::percent(100)};
    if (k == QLatin1String("center"))
        return PositionPart{PositionPart::Either, Length::percent(50)};
    return std::nullopt;
}

/// The 3- and 4-value <position> (CSS Values 4 §8.3): two groups, each an edge keyword with
/// an optional offset from that edge (`right 20px center`, `bottom 10px right 10%`); the
/// offset of `right`/`bottom` counts from the far edge (calc(100% - 20px)).
bool edgeOffsetPosition(const QStringList &tokens, float fontSize, float rootFontSize, Length *x, Length *y)
{
    std::vector<PositionPart> groups;
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        std::optional<PositionPart> part = edgeKeyword(tokens[i]);
        if (!part)
            return false; // an offset must follow an edge keyword here
        const bool far = part->value.value == 100;
        if (part->axis != PositionPart::Either && i + 1 < tokens.size()) {
            if (auto offset = lengthPercentage(tokens[i + 1], fontSize, rootFontSize)) {
                ++i;
                if (!far)
                    part->value = *offset;
                else if (offset->type == Length::Type::Percent)
                    part->value = Length{Length::Type::Percent, 100 - offset->value, -offset->offset};
                else
                    part->value = Length{Length::Type::Percent, 100, -offset->value};
            }
        }
        groups.push_back(*part);
    }
    return groups.size() == 2 && assignAxes(groups[0], groups[1], x, y);
}

} // namespace

bool position(const QStringList &tokens, float fontSize, float rootFontSize, Length *x, Length *y)
{
    if (tokens.size() == 3 || tokens.size() == 4)
        return edgeOffsetPosition(tokens, fontSize, rootFontSize, x, y);
    if (tokens.isEmpty() || tokens.size() > 2)
        return false;
    std::vector<PositionPart> parts;
    for (const QString &t : tokens) {
        if (auto keyword = edgeKeyword(t))
            parts.push_back(*keyword);
        else if (auto l = lengthPercentage(t, fontSize, rootFontSize))
            parts.push_back({PositionPart::Either, *l});
        else
            return false;
    }
    if (parts.size() == 1) {
        // A single value names one axis; the other is centred (CSS Values 4 §8.3).
        if (parts[0].axis == PositionPart::Vertical) {
            *x = Length::percent(50);
            *y = parts[0].value;
        } else {
            *x = parts[0].value;
            *y = Length::percent(50);
        }
        return true;
    }
    return assignAxes(parts[0], parts[1], x, y);
}

} // namespace css

std::optional<Length> parseLength(const QString &text, float fontSize, float rootFontSize)
{
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("auto"))
        return Length::autoLength();
    if (t == QLatin1String("none"))
        return Length::none();
    return css::lengthPercentage(t, fontSize, rootFontSize);
}

std::optional<Length> parseSizeKeyword(const QString &text)
{
    QStringView t = QStringView(text).trimmed();
    if (t.startsWith(QLatin1String("-webkit-"), Qt::CaseInsensitive))
        t = t.mid(8);
    if (t.compare(QLatin1String("min-content"), Qt::CaseInsensitive) == 0)
        return Length::minContent();
    if (t.compare(QLatin1String("max-content"), Qt::CaseInsensitive) == 0)
        return Length::maxContent();
    if (t.compare(QLatin1String("fit-content"), Qt::CaseInsensitive) == 0)
        return Length::fitContent();
    // `stretch` and its prefixed forms -webkit-fill-available and -moz-available.
    if (t.compare(QLatin1String("stretch"), Qt::CaseInsensitive) == 0
        || t.compare(QLatin1String("fill-available"), Qt::CaseInsensitive) == 0
        || text.trimmed().compare(QLatin1String("-moz-available"), Qt::CaseInsensitive) == 0)
        return Length::stretch();
    return std::nullopt;
}

} // namespace imprint::render
