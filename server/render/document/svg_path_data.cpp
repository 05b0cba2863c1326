// SVG path data into a QPainterPath (see svg_path_data.h).

#include "server/render/document/svg_path_data.h"

#include <QTransform>

#include <cmath>
#include <numbers>

namespace imprint::render {

namespace {

/// Reads the numbers and flags of path data, skipping the separators between them
/// (SVG 2 §9.3.9's grammar: whitespace and at most one comma).
class PathTokens
{
public:
    explicit PathTokens(QStringView d)
        : m_d(d)
    { }

    void skipSeparators()
    {
        while (m_i < m_d.size() && (m_d[m_i].isSpace() || m_d[m_i] == u','))
            ++m_i;
    }
    bool atEnd()
    {
        skipSeparators();
        return m_i >= m_d.size();
    }
    /// The command letter next, or 0 when a number (an implicit repeat) comes next.
    QChar command()
    {
        skipSeparators();
        return m_i < m_d.size() && m_d[m_i].isLetter() ? m_d[m_i++] : QChar();
    }
    bool startsNumber()
    {
        skipSeparators();
        if (m_i >= m_d.size())
            return false;
        const QChar c = m_d[m_i];
        return c.isDigit() || c == u'-' || c == u'+' || c == u'.';
    }
    std::optional<double> number()
    {
        skipSeparators();
        const qsizetype start = m_i;
        if (m_i < m_d.size() && (m_d[m_i] == u'-' || m_d[m_i] == u'+'))
            ++m_i;
        bool digits = false, dot = false;
        while (m_i < m_d.size() && (m_d[m_i].isDigit() || (m_d[m_i] == u'.' && !dot))) {
            dot = dot || m_d[m_i] == u'.';
            digits = digits || m_d[m_i].isDigit();
            ++m_i;
        }
        if (!digits)
            return std::nullopt;
        if (m_i < m_d.size() && (m_d[m_i] == u'e' || m_d[m_i] == u'E')) {
            qsizetype j = m_i + 1;
            if (j < m_d.size() && (m_d[j] == u'-' || m_d[j] == u'+'))
                ++j;
            if (j < m_d.size() && m_d[j].isDigit()) {
                m_i = j;
                while (m_i < m_d.size() && m_d[m_i].isDigit())
                    ++m_i;
            }
        }
        bool ok = false;
        const double v = m_d.mid(start, m_i - start).toDouble(&ok);
        return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
    }
    /// An arc flag: one character, 0 or 1, with no separator needed after it.
    std::optional<bool> flag()
    {
        skipSeparators();
        if (m_i >= m_d.size() || (m_d[m_i] != u'0' && m_d[m_i] != u'1'))
            return std::nullopt;
        return m_d[m_i++] == u'1';
    }

private:
    QStringView m_d;
    qsizetype m_i = 0;
};

/// Appends the elliptical arc from `from` to `to` (SVG 2 Appendix B.2.4: the endpoint
/// parameters to the centre parameters, radii scaled up when no ellipse fits).
void arcTo(QPainterPath &path, QPointF from, double rx, double ry, double angleDeg, bool largeArc, bool sweep, QPointF to)
{
    rx = std::abs(rx);
    ry = std::abs(ry);
    if (from == to)
        return;
    if (rx == 0 || ry == 0) {
        path.lineTo(to);
        return;
    }
    const double phi = angleDeg * std::numbers::pi / 180, c = std::cos(phi), s = std::sin(phi);
    const double dx = (from.x() - to.x()) / 2, dy = (from.y() - to.y()) / 2;
    const double x1 = c * dx + s * dy, y1 = -s * dx + c * dy;
    const double lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry);
    if (lambda > 1) {
        rx *= std::sqrt(lambda);
        ry *= std::sqrt(lambda);
    }
    const double num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1;
    const double den = rx * rx * y1 * y1 + ry * ry * x1 * x1;
    double k = den > 0 ? std::sqrt(std::max(0.0, num / den)) : 0;
    if (largeArc == sweep)
        k = -k;
    const double cx1 = k * rx * y1 / ry, cy1 = -k * ry * x1 / rx;
    const QPointF centre(c * cx1 - s * cy1 + (from.x() + to.x()) / 2, s * cx1 + c * cy1 + (from.y() + to.y()) / 2);
    const auto angle = [](double ux, double uy, double vx, double vy) {
        return std::atan2(ux * vy - uy * vx, ux * vx + uy * vy);
    };
    const double theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry);
    double delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry);
    if (!sweep && delta > 0)
        delta -= 2 * std::numbers::pi;
    else if (sweep && delta < 0)
        delta += 2 * std::numbers::pi;
    // The unit circle's arc in Béziers of at most 90° each, mapped onto the ellipse.
    const QTransform toEllipse = QTransform::fromScale(rx, ry) * QTransform().rotateRadians(phi)
                                 * QTransform::fromTranslate(centre.x(), centre.y());
    const int segments = std::max(1, int(std::ceil(std::abs(delta) / (std::numbers::pi / 2) - 1e-9)));
    const double step = delta / segments, t = 4.0 / 3 * std::tan(step / 4);
    double a = theta1;
    for (int i = 0; i < segments; ++i) {
        const double b = a + step;
        const QPointF p1(std::cos(a) - t * std::sin(a), std::sin(a) + t * std::cos(a));
        const QPointF p2(std::cos(b) + t * std::sin(b), std::sin(b) - t * std::cos(b));
        const QPointF end = i + 1 == segments ? to : toEllipse.map(QPointF(std::cos(b), std::sin(b)));
        path.cubicTo(toEllipse.map(p1), toEllipse.map(p2), end);
        a = b;
    }
}

} // namespace

std::optional<QPainterPath> parseSvgPathData(QStringView d)
{
    PathTokens tokens(d);
    QPainterPath path;
    QPointF current, subpathStart, lastControl;
    QChar previous; // the previous command, upper case, for the smooth forms' reflections
    QChar command = tokens.command();
    if (command.toUpper() != u'M')
        return std::nullopt;
    bool drawn = false;
    while (!command.isNull()) {
        const bool relative = command.isLower();
        const QChar op = command.toUpper();
        bool ok = true;
        if (op == u'Z') {
            path.closeSubpath();
            current = subpathStart;
            previous = op;
        } else {
            // One or more argument groups: the command is repeated while numbers follow.
            bool first = true;
            do {
                const QPointF base = relative ? current : QPointF();
                const auto at = [&]() -> std::optional<QPointF> {
                    const auto x = tokens.number();
                    const auto y = x ? tokens.number() : std::nullopt;
                    return y ? std::optional<QPointF>(base + QPointF(*x, *y)) : std::nullopt;
                };
                if (op == u'M') {
                    const auto p = at();
                    if (!(ok = p.has_value()))
                        break;
                    if (first) {
                        path.moveTo(*p);
                        subpathStart = *p;
                    } else {
                        path.lineTo(*p); // a moveto's further pairs are linetos
                    }
                    current = *p;
                } else if (op == u'L' || op == u'T') {
                    const auto p = at();
                    if (!(ok = p.has_value()))
                        break;
                    if (op == u'T') {
                        const QPointF control = (previous == u'Q' || previous == u'T') ? 2 * current - lastControl : current;
                        path.quadTo(control, *p);
                        lastControl = control;
                    } else {
                        path.lineTo(*p);
                    }
                    current = *p;
                } else if (op == u'H' || op == u'V') {
                    const auto v = tokens.number();
                    if (!(ok = v.has_value()))
                        break;
                    current = op == u'H' ? QPointF(*v + (relative ? current.x() : 0), current.y())
                                         : QPointF(current.x(), *v + (relative ? current.y() : 0));
                    path.lineTo(current);
                } else if (op == u'C' || op == u'S') {
                    std::optional<QPointF> c1;
                    if (op == u'C')
                        c1 = at();
                    else
                        c1 = (previous == u'C' || previous == u'S') ? 2 * current - lastControl : current;
                    const auto c2 = c1 ? at() : std::nullopt;
                    const auto p = c2 ? at() : std::nullopt;
                    if (!(ok = p.has_value()))
                        break;
                    path.cubicTo(*c1, *c2, *p);
                    lastControl = *c2;
                    current = *p;
                } else if (op == u'Q') {
                    const auto c = at();
                    const auto p = c ? at() : std::nullopt;
                    if (!(ok = p.has_value()))
                        break;
                    path.quadTo(*c, *p);
                    lastControl = *c;
                    current = *p;
                } else if (op == u'A') {
                    const auto rx = tokens.number();
                    const auto ry = rx ? tokens.number() : std::nullopt;
                    const auto rotation = ry ? tokens.number() : std::nullopt;
                    const auto large = rotation ? tokens.flag() : std::nullopt;
                    const auto sweep = large ? tokens.flag() : std::nullopt;
                    const auto p = sweep ? at() : std::nullopt;
                    if (!(ok = p.has_value()))
                        break;
                    arcTo(path, current, *rx, *ry, *rotation, *large, *sweep, *p);
                    current = *p;
                } else {
                    ok = false;
                    break;
                }
                previous = op;
                drawn = true;
                first = false;
            } while (tokens.startsNumber());
        }
        if (!ok)
            break;
        command = tokens.atEnd() ? QChar() : tokens.command();
        if (!command.isNull() && !QStringView(u"MmZzLlHhVvCcSsQqTtAa").contains(command))
            break;
    }
    if (!drawn)
        return std::nullopt;
    return path;
}

QString svgPathData(const QPainterPath &path, bool closeSubpaths)
{
    const auto n = [](qreal v) { return QString::number(v, 'g', 9); };
    QString d;
    QPointF start;
    for (int i = 0; i < path.elementCount(); ++i) {
        const QPainterPath::Element e = path.elementAt(i);
        if (e.isMoveTo()) {
            if (closeSubpaths && i > 0)
                d += QStringLiteral("Z");
            d += QStringLiteral("M%1 %2").arg(n(e.x), n(e.y));
            start = e;
        } else if (e.isLineTo()) {
            d += QStringLiteral("L%1 %2").arg(n(e.x), n(e.y));
        } else if (e.isCurveTo() && i + 2 < path.elementCount()) {
            const QPainterPath::Element c2 = path.elementAt(i + 1), end = path.elementAt(i + 2);
            d += QStringLiteral("C%1 %2 %3 %4 %5 %6").arg(n(e.x), n(e.y), n(c2.x), n(c2.y), n(end.x), n(end.y));
            i += 2;
        }
    }
    if (closeSubpaths && path.elementCount() > 0)
        d += QStringLiteral("Z");
    return d;
}

std::optional<QPainterPath> svgShapeOutline(const QString &type, const std::function<QString(const char *)> &attribute)
{
    if (type == QLatin1String("path"))
        return parseSvgPathData(attribute("d"));
    QPainterPath path;
    if (type == QLatin1String("line")) {
        bool ok[4] = {true, true, true, true};
        const auto v = [&](const char *name, int k) {
            const QString s = attribute(name).trimmed();
            return s.isEmpty() ? 0.0 : s.toDouble(&ok[k]);
        };
        const QPointF a(v("x1", 0), v("y1", 1)), b(v("x2", 2), v("y2", 3));
        if (!(ok[0] && ok[1] && ok[2] && ok[3]))
            return std::nullopt;
        path.moveTo(a);
        path.lineTo(b);
        return path;
    }
    if (type != QLatin1String("polyline") && type != QLatin1String("polygon"))
        return std::nullopt;
    PathTokens tokens(attribute("points"));
    QList<QPointF> points;
    while (!tokens.atEnd()) {
        const auto x = tokens.number();
        const auto y = x ? tokens.number() : std::nullopt;
        if (!y)
            break; // SVG 2 §10.6: drawn up to the error
        points.append(QPointF(*x, *y));
    }
    if (points.isEmpty())
        return std::nullopt;
    path.moveTo(points.front());
    for (qsizetype i = 1; i < points.size(); ++i)
        path.lineTo(points[i]);
    return path;
}

} // namespace imprint::render
