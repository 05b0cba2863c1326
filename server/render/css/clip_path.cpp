// clip-path basic shapes (CSS Masking 1 §3.1, CSS Shapes 1 §3.1,
// https://www.w3.org/TR/css-shapes-1/#basic-shape-functions).

#include "server/render/css/effects.h"
#include "server/render/css/parse.h"

namespace imprint::render::css {

namespace {

constexpr int kMaxPolygonPoints = 4096;
constexpr qsizetype kMaxPathLength = 65536;

// A shape radius (§3.1.2): a non-negative length-percentage, closest-side or farthest-side.
bool shapeRadius(const QString &t, float fontSize, float rootFontSize, ClipShape::Extent *extent, Length *radius)
{
    const QString k = t.toLower();
    if (k == QLatin1String("closest-side")) {
        *extent = ClipShape::Extent::ClosestSide;
        return true;
    }
    if (k == QLatin1String("farthest-side")) {
        *extent = ClipShape::Extent::FarthestSide;
        return true;
    }
    auto l = lengthPercentage(t, fontSize, rootFontSize);
    if (!l || l->value < 0)
        return false;
    *extent = ClipShape::Extent::Length;
    *radius = *l;
    return true;
}

/// Where the keyword that ends a shape's first part ("at", "round") stands among `tokens`
/// (compared ASCII case-insensitively), or tokens.size() when it is not there.
qsizetype keywordIndex(const QStringList &tokens, QLatin1String keyword)
{
    for (qsizetype i = 0; i < tokens.size(); ++i)
        if (tokens[i].compare(keyword, Qt::CaseInsensitive) == 0)
            return i;
    return tokens.size();
}

bool circleOrEllipse(const QString &args, bool ellipse, float fontSize, float rootFontSize, ClipShape *s)
{
    const QStringList tokens = split(args, QLatin1Char(' '));
    const qsizetype at = keywordIndex(tokens, QLatin1String("at"));
    const qsizetype radii = at;
    if (radii > (ellipse ? 2 : 1) || (ellipse && radii == 1))
        return false;
    if (radii >= 1 && !shapeRadius(tokens[0], fontSize, rootFontSize, &s->extentX, &s->radiusX))
        return false;
    if (ellipse && radii == 2 && !shapeRadius(tokens[1], fontSize, rootFontSize, &s->extentY, &s->radiusY))
        return false;
    if (!ellipse) {
        s->extentY = s->extentX;
        s->radiusY = s->radiusX;
    }
    if (at < tokens.size()) {
        const QStringList pos = tokens.mid(at + 1);
        if (pos.isEmpty() || !position(pos, fontSize, rootFontSize, &s->centerX, &s->centerY))
            return false;
    }
    return true;
}

bool inset(const QString &args, float fontSize, float rootFontSize, ClipShape *s)
{
    const QStringList tokens = split(args, QLatin1Char(' '));
    const qsizetype round = keywordIndex(tokens, QLatin1String("round"));
    std::vector<Length> edges;
    for (qsizetype i = 0; i < round; ++i) {
        auto l = lengthPercentage(tokens[i], fontSize, rootFontSize);
        if (!l)
            return false;
        edges.push_back(*l);
    }
    switch (edges.size()) {
    case 1: s->inset = {edges[0], edges[0], edges[0], edges[0]}; break;
    case 2: s->inset = {edges[0], edges[1], edges[0], edges[1]}; break;
    case 3: s->inset = {edges[0], edges[1], edges[2], edges[1]}; break;
    case 4: s->inset = {edges[0], edges[1], edges[2], edges[3]}; break;
    default: return false;
    }
    if (round == tokens.size())
        return true;
    // `round` takes border-radius syntax: 1–4 values [ / 1–4 values ].
    const auto radii = cornerRadii(tokens.mid(round + 1).join(QLatin1Char(' ')), fontSize, rootFontSize);
    if (!radii)
        return false;
    s->radii = *radii;
    return true;
}

bool fillRule(QString *first, bool *evenOdd)
{
    const QString k = first->trimmed().toLower();
    if (k == QLatin1String("evenodd") || k == QLatin1String("nonzero")) {
        *evenOdd = k == QLatin1String("evenodd");
        return true;
    }
    return false;
}

bool polygon(const QString &args, float fontSize, float rootFontSize, ClipShape *s, QString *reason)
{
    QStringList parts = split(args, QLatin1Char(','));
    if (!parts.isEmpty() && fillRule(&parts.first(), &s->evenOdd))
        parts.removeFirst();
    if (parts.size() > kMaxPolygonPoints) {
        *reason = QStringLiteral("polygon() with more than %1 points").arg(kMaxPolygonPoints);
        return false;
    }
    if (parts.size() < 1)
        return false;
    for (const QString &p : parts) {
        const QStringList xy = split(p, QLatin1Char(' '));
        if (xy.size() != 2)
            return false;
        auto x = lengthPercentage(xy[0], fontSize, rootFontSize);
        auto y = lengthPercentage(xy[1], fontSize, rootFontSize);
        if (!x || !y)
            return false;
        s->points.emplace_back(*x, *y);
    }
    return true;
}

bool path(const QString &args, ClipShape *s, QString *reason)
{
    QStringList parts = split(args, QLatin1Char(','));
    if (parts.size() == 2 && fillRule(&parts.first(), &s->evenOdd))
        parts.removeFirst();
    if (parts.size() != 1)
        return false;
    QString d = parts.first().trimmed();
    if (d.size() < 2 || (d.front() != u'"' && d.front() != u'\'') || d.back() != d.front())
        return false;
    d = d.mid(1, d.size() - 2);
    if (d.size() > kMaxPathLength) {
        *reason = QStringLiteral("path() data longer than %1 characters").arg(kMaxPathLength);
        return false;
    }
    // SVG path data is letters, digits, signs, dots, commas and spaces only; anything
    // else could break out of the attribute it is later written into.
    for (QChar c : d)
        if (!(c.isLetterOrNumber() || c.isSpace() || c == u'-' || c == u'+' || c == u'.' || c == u','))
            return false;
    s->path = d;
    return true;
}

} // namespace

static bool clipPathWithReason(const QString &text, float fontSize, float rootFontSize, std::optional<ClipShape> *shape,
                               QString *reason)
{
    const QString t = text.trimmed();
    if (t.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0) {
        shape->reset();
        return true;
    }
    QStringList tokens = split(t, QLatin1Char(' '));
    // The reference box defaults to border-box (CSS Masking 1 §3.1); other boxes are not
    // drawn differently and are refused rather than silently misdrawn.
    if (tokens.size() == 2 && tokens[1].compare(QLatin1String("border-box"), Qt::CaseInsensitive) == 0)
        tokens.removeLast();
    if (tokens.size() != 1) {
        *reason = QStringLiteral("clip-path supports one basic shape in the border box, got \"%1\"").arg(t);
        return false;
    }
    const auto call = function(tokens.first());
    if (!call) {
        *reason = tokens.first().startsWith(QLatin1String("url("), Qt::CaseInsensitive)
                      ? QStringLiteral("clip-path url() references are not supported")
                      : QStringLiteral("invalid clip-path \"%1\"").arg(t);
        return false;
    }
    const QString &name = call->name, &args = call->args;
    ClipShape s;
    bool ok = false;
    if (name == QLatin1String("inset")) {
        s.kind = ClipShape::Kind::Inset;
        ok = inset(args, fontSize, rootFontSize, &s);
    } else if (name == QLatin1String("circle")) {
        s.kind = ClipShape::Kind::Circle;
        ok = circleOrEllipse(args, false, fontSize, rootFontSize, &s);
    } else if (name == QLatin1String("ellipse")) {
        s.kind = ClipShape::Kind::Ellipse;
        ok = circleOrEllipse(args, true, fontSize, rootFontSize, &s);
    } else if (name == QLatin1String("polygon")) {
        s.kind = ClipShape::Kind::Polygon;
        ok = polygon(args, fontSize, rootFontSize, &s, reason);
    } else if (name == QLatin1String("path")) {
        s.kind = ClipShape::Kind::Path;
        ok = path(args, &s, reason);
    } else {
        *reason = QStringLiteral("unsupported clip-path shape %1()").arg(name);
        return false;
    }
    if (!ok) {
        if (reason->isEmpty())
            *reason = QStringLiteral("invalid clip-path \"%1\"").arg(t);
        return false;
    }
    *shape = std::move(s);
    return true;
}

Parsed<std::optional<ClipShape>> clipPath(const QString &text, float fontSize, float rootFontSize)
{
    QString reason;
    std::optional<ClipShape> shape;
    if (!clipPathWithReason(text, fontSize, rootFontSize, &shape, &reason))
        return reason;
    return shape;
}

} // namespace imprint::render::css
