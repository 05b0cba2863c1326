// CSS transforms inside inline SVG as SVG transform attributes (see svg_transform.h).

#include "server/render/document/svg_transform.h"
#include "server/render/css/parse.h"

#include <QStringList>
#include <QTransform>

#include <cmath>

namespace imprint::render {

namespace {

QString number(qreal v)
{
    // Rounded far below a device pixel, so that a quarter turn's cos(90°) is written 0.
    const qreal r = std::round(v * 1e6) / 1e6;
    return QString::number(r == 0 ? 0 : r, 'g', 10);
}

} // namespace

std::optional<QString> svgTransformAttribute(const QString &cssTransform, const QString &attributeTransform,
                                             const QString &origin, const QRectF &referenceBox, float fontSize)
{
    const QString css = cssTransform.trimmed();
    QString at = origin.trimmed();
    if (css.isEmpty() && (at.isEmpty() || attributeTransform.trimmed().isEmpty()))
        return std::nullopt;
    QPointF o(0, 0);
    if (!at.isEmpty()) {
        QStringList tokens = at.split(u' ', Qt::SkipEmptyParts);
        if (tokens.size() == 3)
            tokens.removeLast(); // a z offset: no depth in an SVG drawing
        Length x, y;
        if (!css::position(tokens, fontSize, 16, &x, &y))
            return std::nullopt;
        o = referenceBox.topLeft()
            + QPointF(x.resolve(float(referenceBox.width())), y.resolve(float(referenceBox.height())));
    }
    if (css.isEmpty() || css == QLatin1String("none")) {
        if (css == QLatin1String("none"))
            return QStringLiteral("matrix(1 0 0 1 0 0)");
        return QStringLiteral("translate(%1 %2) %3 translate(%4 %5)")
            .arg(number(o.x()), number(o.y()), attributeTransform.trimmed(), number(-o.x()), number(-o.y()));
    }
    const auto ops = css::transform(css, fontSize, 16);
    if (!ops)
        return std::nullopt;
    // CSS Transforms 1 §6: translate to the origin, the functions left to right, back.
    QTransform m = QTransform::fromTranslate(o.x(), o.y());
    for (const TransformOp &op : *ops) {
        const std::optional<QTransform> t = css::planarTransform(op, referenceBox.size());
        if (!t)
            return std::nullopt;
        m = *t * m; // QTransform composes row vectors: t applies first, then m
    }
    m = QTransform::fromTranslate(-o.x(), -o.y()) * m;
    return QStringLiteral("matrix(%1 %2 %3 %4 %5 %6)")
        .arg(number(m.m11()), number(m.m12()), number(m.m21()), number(m.m22()), number(m.dx()), number(m.dy()));
}

} // namespace imprint::render
