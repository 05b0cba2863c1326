// The root viewBox of an SVG document mapped onto a box (see svg_viewport.h).

#include "server/render/resources/svg_viewport.h"

#include <QRegularExpression>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <algorithm>
#include <cmath>

namespace imprint::render {

namespace {

} // namespace

std::optional<QRectF> parseSvgViewBox(QStringView text)
{
    static const QRegularExpression separators(QStringLiteral("[\\s,]+"));
    const QStringList parts = text.toString().trimmed().split(separators, Qt::SkipEmptyParts);
    if (parts.size() != 4)
        return std::nullopt;
    double v[4];
    for (int i = 0; i < 4; ++i) {
        bool ok = false;
        v[i] = parts[i].toDouble(&ok);
        if (!ok || !std::isfinite(v[i]))
            return std::nullopt;
    }
    if (v[2] <= 0 || v[3] <= 0)
        return std::nullopt; // SVG 2 §8.2: a non-positive width or height disables the viewBox
    return QRectF(v[0], v[1], v[2], v[3]);
}

namespace {

/// The root attributes that place the document, not paint it: they do not move to the group.
bool isPlacementAttribute(QStringView name)
{
    static const QStringList names = {QStringLiteral("width"),   QStringLiteral("height"),
                                      QStringLiteral("viewBox"), QStringLiteral("preserveAspectRatio"),
                                      QStringLiteral("x"),       QStringLiteral("y"),
                                      QStringLiteral("version"), QStringLiteral("baseProfile")};
    return names.contains(name.toString());
}

} // namespace

std::optional<SvgRootGeometry> svgRootGeometry(const QByteArray &svg)
{
    QXmlStreamReader reader(svg);
    while (!reader.atEnd()) {
        if (reader.readNext() != QXmlStreamReader::StartElement)
            continue;
        const QXmlStreamAttributes a = reader.attributes();
        SvgRootGeometry g;
        g.viewBox = parseSvgViewBox(a.value(QLatin1String("viewBox")));
        g.preserveAspectRatio = a.value(QLatin1String("preserveAspectRatio")).toString().trimmed();
        g.width = a.value(QLatin1String("width")).toString().trimmed();
        g.height = a.value(QLatin1String("height")).toString().trimmed();
        return g;
    }
    return std::nullopt;
}

QTransform svgViewBoxTransform(const QRectF &viewBox, const QString &preserveAspectRatio, const QRectF &viewport)
{
    if (viewBox.isEmpty() || viewport.isEmpty())
        return QTransform::fromTranslate(viewport.x(), viewport.y());
    const QStringList words = preserveAspectRatio.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const QString align = words.isEmpty() ? QStringLiteral("xMidYMid") : words.first();
    const bool slice = words.size() > 1 && words.at(1) == QLatin1String("slice");
    qreal sx = viewport.width() / viewBox.width();
    qreal sy = viewport.height() / viewBox.height();
    qreal tx = viewport.x() - viewBox.x() * sx;
    qreal ty = viewport.y() - viewBox.y() * sy;
    if (align != QLatin1String("none")) {
        const qreal s = slice ? std::max(sx, sy) : std::min(sx, sy);
        sx = sy = s;
        tx = viewport.x() - viewBox.x() * s;
        ty = viewport.y() - viewBox.y() * s;
        const qreal fx = align.contains(QLatin1String("xMid")) ? 0.5 : align.contains(QLatin1String("xMax")) ? 1 : 0;
        const qreal fy = align.contains(QLatin1String("YMid")) ? 0.5 : align.contains(QLatin1String("YMax")) ? 1 : 0;
        tx += (viewport.width() - viewBox.width() * s) * fx;
        ty += (viewport.height() - viewBox.height() * s) * fy;
    }
    return QTransform(sx, 0, 0, sy, tx, ty);
}

QRectF svgVisibleViewBox(const SvgRootGeometry &geometry, const QSizeF &viewport)
{
    const QRectF box(QPointF(0, 0), viewport);
    if (!geometry.viewBox)
        return box;
    return svgViewBoxTransform(*geometry.viewBox, geometry.preserveAspectRatio, box).inverted().mapRect(box);
}

QString svgAsGroup(const QByteArray &svg, const QRectF &viewport)
{
    QXmlStreamReader reader(svg);
    QString out;
    QXmlStreamWriter writer(&out);
    int depth = 0;
    while (!reader.atEnd()) {
        switch (reader.readNext()) {
        case QXmlStreamReader::StartElement: {
            const QXmlStreamAttributes attributes = reader.attributes();
            if (depth++ == 0) {
                // The root: its viewBox mapping is the group's transform; what it paints
                // with (fill, stroke, color, …, and the paint properties of its `style`,
                // all that the inline SVG writer puts there) is inherited by its children
                // from the group.
                const auto viewBox = parseSvgViewBox(attributes.value(QLatin1String("viewBox")));
                const QTransform t = svgViewBoxTransform(
                    viewBox.value_or(QRectF(QPointF(0, 0), viewport.size())),
                    attributes.value(QLatin1String("preserveAspectRatio")).toString(), viewport);
                writer.writeStartElement(QStringLiteral("g"));
                writer.writeAttribute(QStringLiteral("transform"), QStringLiteral("matrix(%1 0 0 %2 %3 %4)")
                                                                       .arg(t.m11(), 0, 'g', 8)
                                                                       .arg(t.m22(), 0, 'g', 8)
                                                                       .arg(t.dx(), 0, 'g', 8)
                                                                       .arg(t.dy(), 0, 'g', 8));
                for (const QXmlStreamAttribute &a : attributes)
                    if (!isPlacementAttribute(a.qualifiedName()))
                        writer.writeAttribute(a.qualifiedName().toString(), a.value().toString());
                break;
            }
            writer.writeStartElement(reader.qualifiedName().toString());
            for (const QXmlStreamAttribute &a : attributes)
                writer.writeAttribute(a.qualifiedName().toString(), a.value().toString());
            break;
        }
        case QXmlStreamReader::EndElement:
            --depth;
            writer.writeEndElement();
            break;
        case QXmlStreamReader::Characters:
            if (depth > 0)
                writer.writeCharacters(reader.text().toString());
            break;
        default: break;
        }
    }
    if (reader.hasError())
        return {};
    return out;
}

} // namespace imprint::render
