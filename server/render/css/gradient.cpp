// Gradients (CSS Images 3 §3): linear-gradient() and radial-gradient(), repeating-*
// included, with their colour stops, and the colour space they interpolate in (CSS
// Images 4 §3.1: `in oklab`, which Tailwind CSS v4's gradients write).

#include "server/render/css/parse.h"

#include <algorithm>

namespace imprint::render::css {

namespace {

// Colour stops with optional positions: `red`, `red 10%`, `red 10% 30%`, `red 40px`,
// (CSS Images 3 §3.5.1). Transition hints (a bare position) are skipped: they only shift
// the midpoint, and the fallback (an even midpoint) is a close approximation.
bool colorStops(const QStringList &args, const QColor &currentColor, float fontSize, float rootFontSize,
                std::vector<ColorStop> *stops, QString *reason, bool angular = false)
{
    for (const QString &arg : args) {
        const QStringList tokens = split(arg, QLatin1Char(' '));
        if (tokens.isEmpty()) {
            *reason = QStringLiteral("empty colour stop");
            return false;
        }
        std::optional<QColor> color;
        std::vector<Length> positions;
        for (const QString &t : tokens) {
            if (!color)
                if (auto c = parseColor(t, currentColor)) {
                    color = c;
                    continue;
                }
            if (angular) {
                // conic-gradient() stops are angles or percentages (CSS Images 4 §3.3.1).
                if (auto p = percentage(t); p && positions.size() < 2) {
                    positions.push_back(Length::percent(*p));
                    continue;
                }
                if (auto a = angle(t); a && positions.size() < 2) {
                    positions.push_back(Length::percent(*a / 3.6f));
                    continue;
                }
            } else if (auto l = lengthPercentage(t, fontSize, rootFontSize); l && positions.size() < 2) {
                positions.push_back(*l);
                continue;
            }
            *reason = QStringLiteral("invalid colour stop \"%1\"").arg(arg);
            return false;
        }
        if (!color) {
            if (positions.size() == 1)
                continue; // transition hint
            *reason = QStringLiteral("colour stop without a colour \"%1\"").arg(arg);
            return false;
        }
        if (positions.empty())
            stops->push_back({*color, std::nullopt, std::nullopt});
        for (const Length &p : positions) {
            ColorStop s{*color, std::nullopt, std::nullopt};
            if (p.isPercent())
                s.position = p.value / 100.f;
            else
                s.positionPx = p.value;
            stops->push_back(s);
        }
    }
    if (stops->size() < 2) {
        // One stop is allowed by CSS Images 4 and paints a solid colour.
        if (stops->size() == 1) {
            stops->push_back(stops->front());
            return true;
        }
        *reason = QStringLiteral("a gradient needs colour stops");
        return false;
    }
    return true;
}

// The prelude of each gradient function: it sets `g`'s geometry from the first argument
// when that is not a colour stop, and answers how many arguments it took (0 or 1), or
// std::nullopt with a reason when the prelude is invalid. The colour stops are read after
// it, in gradientWithReason().

// linear-gradient([<angle> | to <side-or-corner>]) (CSS Images 3 §3.1).
std::optional<qsizetype> linear(const QStringList &args, Gradient &g, const QColor &currentColor, float, float,
                                QString *reason)
{
    qsizetype first = 0;
    if (!args.isEmpty()) {
        const QString head = args.first().toLower();
        if (auto a = angle(head); a && !parseColor(head, currentColor)) {
            g.angleDeg = *a;
            first = 1;
        } else if (head.startsWith(QLatin1String("to "))) {
            const QStringList sides = split(QStringView(head).mid(3), QLatin1Char(' '));
            bool top = false, bottom = false, left = false, right = false;
            for (const QString &s : sides) {
                top |= s == QLatin1String("top");
                bottom |= s == QLatin1String("bottom");
                left |= s == QLatin1String("left");
                right |= s == QLatin1String("right");
            }
            const int count = int(top) + int(bottom) + int(left) + int(right);
            if (count != sides.size() || sides.isEmpty() || sides.size() > 2 || (top && bottom) || (left && right)) {
                *reason = QStringLiteral("invalid gradient direction \"%1\"").arg(args.first());
                return std::nullopt;
            }
            if (sides.size() == 1) {
                g.angleDeg = top ? 0 : right ? 90 : bottom ? 180 : 270;
            } else if (top) {
                g.toCorner = right ? Gradient::Corner::TopRight : Gradient::Corner::TopLeft;
                g.angleDeg = right ? 45 : 315;
            } else {
                g.toCorner = right ? Gradient::Corner::BottomRight : Gradient::Corner::BottomLeft;
                g.angleDeg = right ? 135 : 225;
            }
            first = 1;
        }
    }
    return first;
}

// radial-gradient([<shape> || <size>] [at <position>]) (CSS Images 3 §3.2).
std::optional<qsizetype> radial(const QStringList &args, Gradient &g, const QColor &currentColor, float fontSize,
                                float rootFontSize, QString *reason)
{
    qsizetype first = 0;
    // The first argument is the shape/size/position prelude unless it starts with a colour.
    if (!args.isEmpty()) {
        const QStringList tokens = split(args.first(), QLatin1Char(' '));
        if (!tokens.isEmpty() && !parseColor(tokens.first(), currentColor)) {
            first = 1;
            bool shapeGiven = false;
            std::vector<Length> sizes;
            qsizetype i = 0;
            for (; i < tokens.size(); ++i) {
                const QString t = tokens[i].toLower();
                if (t == QLatin1String("at"))
                    break;
                if (t == QLatin1String("circle") || t == QLatin1String("ellipse")) {
                    g.circle = t == QLatin1String("circle");
                    shapeGiven = true;
                } else if (t == QLatin1String("closest-side")) {
                    g.extent = Gradient::Extent::ClosestSide;
                } else if (t == QLatin1String("closest-corner")) {
                    g.extent = Gradient::Extent::ClosestCorner;
                } else if (t == QLatin1String("farthest-side")) {
                    g.extent = Gradient::Extent::FarthestSide;
                } else if (t == QLatin1String("farthest-corner")) {
                    g.extent = Gradient::Extent::FarthestCorner;
                } else if (auto l = lengthPercentage(t, fontSize, rootFontSize); l && sizes.size() < 2) {
                    // CSS Images 3 §3.2.2: "Negative values are invalid", so the whole
                    // declaration is dropped, as Chromium drops it.
                    if (l->value < 0) {
                        *reason = QStringLiteral("a radial gradient size must not be negative (\"%1\")").arg(t);
                        return std::nullopt;
                    }
                    sizes.push_back(*l);
                } else {
                    *reason = QStringLiteral("invalid radial gradient shape \"%1\"").arg(args.first());
                    return std::nullopt;
                }
            }
            if (sizes.size() == 1) {
                // One length is a circle radius (percentages are not allowed for circles).
                if ((shapeGiven && !g.circle) || sizes[0].isPercent()) {
                    *reason = QStringLiteral("a circle radius must be one length");
                    return std::nullopt;
                }
                g.circle = true;
                g.radiusX = g.radiusY = sizes[0];
            } else if (sizes.size() == 2) {
                if (shapeGiven && g.circle) {
                    *reason = QStringLiteral("a circle takes one radius");
                    return std::nullopt;
                }
                g.circle = false;
                g.radiusX = sizes[0];
                g.radiusY = sizes[1];
            }
            if (i < tokens.size()) {
                if (!position(tokens.mid(i + 1), fontSize, rootFontSize, &g.centerX, &g.centerY)) {
                    *reason = QStringLiteral("invalid radial gradient position \"%1\"").arg(args.first());
                    return std::nullopt;
                }
            }
        }
    }
    return first;
}

// conic-gradient( [ from <angle> ]? [ at <position> ]?, <angular-color-stop-list> )
// (CSS Images 4 §3.3).
std::optional<qsizetype> conic(const QStringList &args, Gradient &g, const QColor &, float fontSize,
                               float rootFontSize, QString *reason)
{
    g.angleDeg = 0;
    qsizetype first = 0;
    if (!args.isEmpty()) {
        const QStringList tokens = split(args.first(), QLatin1Char(' '));
        const QString head = tokens.value(0).toLower();
        if (head == QLatin1String("from") || head == QLatin1String("at")) {
            first = 1;
            qsizetype i = 0;
            if (head == QLatin1String("from")) {
                auto a = tokens.size() > 1 ? angle(tokens[1]) : std::nullopt;
                if (!a) {
                    *reason = QStringLiteral("invalid conic gradient angle \"%1\"").arg(args.first());
                    return std::nullopt;
                }
                g.angleDeg = *a;
                i = 2;
            }
            if (i < tokens.size()) {
                if (tokens[i].compare(QLatin1String("at"), Qt::CaseInsensitive) != 0
                    || !position(tokens.mid(i + 1), fontSize, rootFontSize, &g.centerX, &g.centerY)) {
                    *reason = QStringLiteral("invalid conic gradient position \"%1\"").arg(args.first());
                    return std::nullopt;
                }
            }
        }
    }
    return first;
}

// Takes `in <space> [<hue> hue]` (CSS Images 4 §3.1's <color-interpolation-method>) out
// of the first argument, which may hold it before or after the direction or shape
// ("to right in oklab", "in oklch longer hue", "circle in srgb-linear at top"), leaving
// the rest there, or removing the argument when nothing else was in it. False with a
// reason for an unknown space or hue method.
bool takeInterpolation(QStringList &parts, std::optional<ColorInterpolation> &out, QString *reason)
{
    if (parts.isEmpty())
        return true;
    QStringList tokens = split(parts.first(), QLatin1Char(' '));
    const auto in = std::find_if(tokens.begin(), tokens.end(),
                                 [](const QString &t) { return t.compare(QLatin1String("in"), Qt::CaseInsensitive) == 0; });
    if (in == tokens.end())
        return true;
    const qsizetype at = in - tokens.begin();
    const auto space = colorSpaceNamed(tokens.value(at + 1).toLower());
    if (!space) {
        *reason = QStringLiteral("unknown gradient colour space \"%1\"").arg(tokens.value(at + 1));
        return false;
    }
    ColorInterpolation method{*space, HueInterpolation::Shorter};
    qsizetype used = 2;
    if (isPolar(*space) && tokens.value(at + 3).compare(QLatin1String("hue"), Qt::CaseInsensitive) == 0) {
        const auto hue = hueInterpolationNamed(tokens.value(at + 2).toLower());
        if (!hue) {
            *reason = QStringLiteral("unknown hue interpolation \"%1\"").arg(tokens.value(at + 2));
            return false;
        }
        method.hue = *hue;
        used = 4;
    }
    tokens.remove(at, used);
    out = method;
    if (tokens.isEmpty())
        parts.removeFirst();
    else
        parts.first() = tokens.join(QLatin1Char(' '));
    return true;
}

} // namespace

static std::optional<Gradient> gradientWithReason(const QString &text, const QColor &currentColor, float fontSize,
                                                  float rootFontSize, QString *reason)
{
    const auto call = function(text);
    if (!call) {
        *reason = QStringLiteral("not a gradient \"%1\"").arg(text);
        return std::nullopt;
    }
    QString name = call->name;
    const QString &args = call->args;
    const bool repeating = name.startsWith(QLatin1String("repeating-"));
    if (repeating)
        name = name.mid(10);
    QStringList parts = split(args, QLatin1Char(','));
    std::optional<ColorInterpolation> interpolation;
    if (!takeInterpolation(parts, interpolation, reason))
        return std::nullopt;
    Gradient g;
    std::optional<qsizetype> prelude;
    if (name == QLatin1String("linear-gradient")) {
        g.kind = Gradient::Kind::Linear;
        prelude = linear(parts, g, currentColor, fontSize, rootFontSize, reason);
    } else if (name == QLatin1String("radial-gradient")) {
        g.kind = Gradient::Kind::Radial;
        prelude = radial(parts, g, currentColor, fontSize, rootFontSize, reason);
    } else if (name == QLatin1String("conic-gradient")) {
        g.kind = Gradient::Kind::Conic;
        prelude = conic(parts, g, currentColor, fontSize, rootFontSize, reason);
    } else {
        *reason = QStringLiteral("unsupported image function %1()").arg(name);
    }
    if (!prelude || !colorStops(parts.mid(*prelude), currentColor, fontSize, rootFontSize, &g.stops, reason,
                                g.kind == Gradient::Kind::Conic))
        return std::nullopt;
    g.repeating = repeating;
    g.interpolation = interpolation;
    return g;
}

Parsed<Gradient> gradient(const QString &text, const QColor &currentColor, float fontSize, float rootFontSize)
{
    QString reason;
    auto value = gradientWithReason(text, currentColor, fontSize, rootFontSize, &reason);
    return parsed(std::move(value), reason);
}

} // namespace imprint::render::css
