// How the satori engine's SVG writer spells numbers, colours, paths and matrices
// (see svg_syntax.h).

#include "server/render/backends/svg_syntax.h"

#include <QColor>

#include <algorithm>
#include <cmath>

namespace imprint::render::svg_syntax {

namespace {

/// A fixed-point number's text without the zeros (and point) that end it: "0.5000" → "0.5".
QString withoutTrailingZeros(QString s)
{
    while (s.contains(u'.') && (s.endsWith(u'0') || s.endsWith(u'.')))
        s.chop(1);
    return s;
}

} // namespace

QString num(qreal v)
{
    const qreal r = std::round(v * 10) / 10;
    if (r == 0)
        return QStringLiteral("0");
    if (r == std::floor(r) && std::abs(r) < 1e9)
        return QString::number(qint64(r));
    return QString::number(r, 'f', 1);
}

QString fineNum(qreal v)
{
    const QString s = withoutTrailingZeros(QString::number(std::round(v * 1000) / 1000, 'f', 3));
    return s == QLatin1String("-0") ? QStringLiteral("0") : s;
}

QString frac(qreal v)
{
    const QString s = withoutTrailingZeros(QString::number(std::clamp<qreal>(v, 0, 1), 'f', 4));
    return s.isEmpty() ? QStringLiteral("0") : s;
}

QString hexColor(const QColor &c)
{
    return c.name(QColor::HexRgb);
}

QString fillAttrs(const QColor &c)
{
    QString s = QStringLiteral(" fill=\"%1\"").arg(hexColor(c));
    if (c.alpha() < 255)
        s += QStringLiteral(" fill-opacity=\"%1\"").arg(frac(c.alphaF()));
    return s;
}

QString pathData(const QPainterPath &path)
{
    QString d;
    d.reserve(path.elementCount() * 12);
    bool open = false;
    for (int i = 0; i < path.elementCount(); ++i) {
        const QPainterPath::Element e = path.elementAt(i);
        switch (e.type) {
        case QPainterPath::MoveToElement:
            if (open)
                d += u'Z';
            d += u'M' + num(e.x) + u' ' + num(e.y);
            open = true;
            break;
        case QPainterPath::LineToElement: d += u'L' + num(e.x) + u' ' + num(e.y); break;
        case QPainterPath::CurveToElement: {
            const auto c2 = path.elementAt(i + 1), end = path.elementAt(i + 2);
            d += u'C' + num(e.x) + u' ' + num(e.y) + u' ' + num(c2.x) + u' ' + num(c2.y) + u' ' + num(end.x) + u' '
                 + num(end.y);
            i += 2;
            break;
        }
        case QPainterPath::CurveToDataElement: break;
        }
    }
    if (open)
        d += u'Z';
    return d;
}

QString matrixAttr(const QTransform &t)
{
    auto f = [](qreal v) { return QString::number(std::round(v * 10000) / 10000, 'g', 8); };
    return QStringLiteral(" transform=\"matrix(%1 %2 %3 %4 %5 %6)\"")
        .arg(f(t.m11()), f(t.m12()), f(t.m21()), f(t.m22()), f(t.dx()), f(t.dy()));
}

} // namespace imprint::render::svg_syntax
