// Inline <svg> elements written out as SVG documents (see inline_svg.h).

#include "server/render/document/inline_svg.h"
#include "server/render/document/inline_svg_vocabulary.h"
#include "server/render/document/svg_path_data.h"
#include "server/render/document/svg_text_baseline.h"
#include "server/render/document/svg_text_path.h"
#include "server/render/document/svg_transform.h"
#include "server/render/resources/emoji.h"
#include "server/render/resources/svg_sandbox.h"
#include "server/render/resources/svg_viewport.h"
#include "server/render/style/text_transform.h"

#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QXmlStreamWriter>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

namespace imprint::render {

using namespace inline_svg_detail;

namespace {

/// An open element's stroke, as SvgWriter tracks it for `vector-effect`.
struct StrokeState {
    double width = 1; ///< user units, as inherited (SVG 2 §13.5.2; initial 1)
    bool transformed = false; ///< a transform or a viewport of its own is in force
    bool nonScaling = false; ///< its non-scaling stroke is written as a scaled width
};

/// One inline `<svg>` written element by element.
class SvgWriter
{
public:
    SvgWriter(const InlineSvgWriter &options, QXmlStreamWriter &xml)
        : m_options(options)
        , m_xml(xml)
    { }

    bool root(const QJsonObject &props, const QString &path)
    {
        m_xml.writeStartElement(QStringLiteral("svg"));
        m_xml.writeDefaultNamespace(QStringLiteral("http://www.w3.org/2000/svg"));
        m_xml.writeNamespace(QStringLiteral("http://www.w3.org/1999/xlink"), QStringLiteral("xlink"));
        for (const auto &[name, value] : m_options.rootAttributes)
            m_xml.writeAttribute(name, value);
        const bool natural = m_options.naturalSize.has_value();
        if (natural) {
            m_xml.writeAttribute(QStringLiteral("width"), number(m_options.naturalSize->width()));
            m_xml.writeAttribute(QStringLiteral("height"), number(m_options.naturalSize->height()));
        }
        if (m_options.color)
            m_xml.writeAttribute(QStringLiteral("color"), cssColorText(*m_options.color));
        if (natural) {
            m_scale = viewBoxScale(props, *m_options.naturalSize);
            m_viewBox = inlineSvgViewBox(props).value_or(QRectF(QPointF(0, 0), *m_options.naturalSize));
            if (const std::optional<QRectF> box = inlineSvgViewBox(props))
                m_rootTransform = svgViewBoxTransform(*box, props.value(QLatin1String("preserveAspectRatio")).toString(),
                                                      QRectF(QPointF(0, 0), *m_options.naturalSize));
        }
        attributes(props, natural, m_options.color.has_value(), QStringLiteral("svg"));
        if (!children(props, path, 0))
            return false;
        return documentDefinitions(props, path);
    }

private:
    /// The ids an element and its subtree define, and the `#id`s they reference
    /// (`url(#id)` in attributes and styles, `href`/`xlinkHref` "#id").
    static void collectIds(const QJsonValue &v, QSet<QString> &defined, QStringList &referenced)
    {
        if (v.isArray()) {
            for (const QJsonValue &c : v.toArray())
                collectIds(c, defined, referenced);
            return;
        }
        if (!v.isObject())
            return;
        static const QRegularExpression url(QStringLiteral("url\\(\\s*['\"]?#([^'\")\\s]+)"));
        const QJsonObject props = v.toObject().value(QLatin1String("props")).toObject();
        const auto scan = [&](const QJsonObject &values) {
            for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
                if (!it->isString())
                    continue;
                const QString text = it->toString();
                if ((it.key() == QLatin1String("href") || it.key() == QLatin1String("xlinkHref")
                     || it.key() == QLatin1String("xlink:href"))
                    && text.startsWith(u'#'))
                    referenced << text.mid(1);
                else if (text.contains(QLatin1String("url(")))
                    for (const QRegularExpressionMatch &m : url.globalMatch(text))
                        referenced << m.captured(1);
            }
        };
        scan(props);
        scan(props.value(QLatin1String("style")).toObject());
        if (const QJsonValue id = props.value(QLatin1String("id")); id.isString())
            defined.insert(id.toString());
        collectIds(props.value(QLatin1String("children")), defined, referenced);
    }

    /// As in one HTML document, a `#id` the svg references but does not define is the
    /// element with that id elsewhere in the document's inline svgs (a gradient defined
    /// once in a hidden `<svg>` and used by every icon): its definition is copied into a
    /// `<defs>` of this svg, under this svg's id prefix, with what it references in turn.
    bool documentDefinitions(const QJsonObject &props, const QString &path)
    {
        if (!m_options.documentDefinition)
            return true;
        QSet<QString> defined;
        QStringList referenced;
        collectIds(props.value(QLatin1String("children")), defined, referenced);
        bool open = false;
        for (qsizetype i = 0; i < referenced.size(); ++i) {
            const QString id = referenced.at(i);
            if (defined.contains(id))
                continue;
            defined.insert(id);
            const std::optional<QJsonObject> element = m_options.documentDefinition(id);
            if (!element)
                continue;
            if (!open) {
                m_xml.writeStartElement(QStringLiteral("defs"));
                open = true;
            }
            if (!child(*element, QStringLiteral("%1 (#%2)").arg(path, id), 1))
                return false;
            collectIds(*element, defined, referenced);
        }
        if (open)
            m_xml.writeEndElement();
        return true;
    }

    QString value(const QJsonValue &v) const
    {
        const QString s = v.isDouble() ? number(v.toDouble()) : v.toString();
        return m_options.text ? m_options.text(s) : s;
    }

    /// `s` with ids and `#id` references renamed under the writer's prefix.
    QString withPrefixedRefs(QString s) const
    {
        if (m_options.idPrefix.isEmpty())
            return s;
        static const QRegularExpression url(QStringLiteral("url\\(\\s*(['\"]?)#"));
        s.replace(url, QStringLiteral("url(\\1#") + m_options.idPrefix);
        return s;
    }

    void attributes(const QJsonObject &props, bool skipSize, bool skipColor, const QString &type)
    {
        const StrokeState &stroke = enterStroke(props, type);
        const double shift = baselineShift(props, type);
        bool shifted = false;
        const std::optional<QString> transform = rewrittenTransform(props, type);
        const auto isTransformProperty = [&](const QString &name) {
            return transform
                   && (name == QLatin1String("transform") || name == QLatin1String("transformOrigin")
                       || name == QLatin1String("transform-origin") || name == QLatin1String("transformBox")
                       || name == QLatin1String("transform-box"));
        };
        if (stroke.nonScaling)
            m_xml.writeAttribute(QStringLiteral("stroke-width"), number(stroke.width / m_scale));
        // white-space that keeps spaces (CSS Text 3 §3), which librsvg reads only as SVG 1.1's
        // xml:space.
        if (type == QLatin1String("text") || type == QLatin1String("tspan") || type == QLatin1String("textPath")) {
            const QString space = ownValue(props, "whiteSpace").trimmed();
            if (space == QLatin1String("pre") || space == QLatin1String("pre-wrap")
                || space == QLatin1String("break-spaces"))
                m_xml.writeAttribute(QStringLiteral("xml:space"), QStringLiteral("preserve"));
        }
        auto replacedByStroke = [&](const QString &name) {
            return stroke.nonScaling
                   && (name == QLatin1String("strokeWidth") || name == QLatin1String("stroke-width")
                       || name == QLatin1String("vectorEffect") || name == QLatin1String("vector-effect"));
        };
        for (auto it = props.constBegin(); it != props.constEnd(); ++it) {
            const QString &prop = it.key();
            if (replacedByStroke(prop) || isBaselineProperty(prop) || isTransformProperty(prop))
                continue;
            if (isDroppedProp(prop) || it->isNull() || it->isUndefined() || it->isBool() || it->isObject()
                || it->isArray())
                continue;
            if (prop == QLatin1String("class") && props.contains(QLatin1String("className")))
                continue; // `markup` elements carry both
            if ((skipSize && (prop == QLatin1String("width") || prop == QLatin1String("height")))
                || (skipColor && prop == QLatin1String("color")))
                continue;
            const QString name = prop == QLatin1String("className") ? QStringLiteral("class")
                                                                    : reactAttributeNames().value(prop, prop);
            QString v = value(*it);
            if (name == QLatin1String("id"))
                v = m_options.idPrefix + v;
            else if (name == QLatin1String("class"))
                v = withPrefixedClasses(v);
            else if ((name == QLatin1String("href") || name == QLatin1String("xlink:href")) && v.startsWith(u'#'))
                v = u'#' + m_options.idPrefix + v.mid(1);
            else if (name == QLatin1String("dy") && shift != 0)
                v = shiftedFirst(v, shift, &shifted);
            else
                v = withPrefixedRefs(v);
            m_xml.writeAttribute(name, v);
        }
        if (shift != 0 && !shifted && !props.contains(QLatin1String("dy")))
            m_xml.writeAttribute(QStringLiteral("dy"), number(shift));
        if (transform)
            m_xml.writeAttribute(QStringLiteral("transform"), *transform);
        // The root's style is the element's CSS, computed by the cascade, but for its
        // paint properties (`style={{fill: …}}`, a sheet's `svg { stroke: … }`), which in
        // the layout engines' document go on its root for the content to inherit (in the
        // html page the CSS carries them).
        const QJsonObject style = m_depth == 0 ? rootStyle(props) : props.value(QLatin1String("style")).toObject();
        if (style.isEmpty())
            return;
        QStringList declarations;
        for (auto it = style.constBegin(); it != style.constEnd(); ++it) {
            if ((!it->isString() && !it->isDouble()) || replacedByStroke(it.key()) || isBaselineProperty(it.key())
                || isTransformProperty(it.key()))
                continue;
            QString v = value(*it);
            if (it->isDouble() && !isUnitless(it.key()))
                v += QStringLiteral("px");
            declarations << kebab(it.key()) + u':' + withPrefixedRefs(v);
        }
        if (!declarations.isEmpty())
            m_xml.writeAttribute(QStringLiteral("style"), declarations.join(u';'));
    }

    /// The root's paint declarations: its own (rootPaint), then what it inherits for
    /// the properties that neither they nor its attributes set.
    QJsonObject rootStyle(const QJsonObject &props) const
    {
        QJsonObject style = m_options.rootPaint;
        for (auto it = m_options.inheritedPaint.constBegin(); it != m_options.inheritedPaint.constEnd(); ++it) {
            const QString &name = it.key();
            if (name == QLatin1String("vectorEffect") || style.contains(name) || props.contains(name)
                || props.contains(kebab(name)))
                continue;
            style.insert(name, it.value());
        }
        return style;
    }

    bool children(const QJsonObject &props, const QString &path, int depth)
    {
        return child(props.value(QLatin1String("children")), path + QLatin1String(".props.children"), depth);
    }

    bool child(const QJsonValue &v, const QString &path, int depth)
    {
        if (v.isArray()) {
            const QJsonArray list = v.toArray();
            for (qsizetype i = 0; i < list.size(); ++i)
                if (!child(list.at(i), QStringLiteral("%1[%2]").arg(path).arg(i), depth))
                    return false;
            return true;
        }
        if (v.isString() || v.isDouble()) {
            // Text and tspan content (elsewhere SVG ignores it), under the text-transform it
            // inherits, which librsvg would not apply.
            const TextTransform transform = m_fonts.empty() ? TextTransform::None : m_fonts.back().textTransform;
            m_xml.writeCharacters(applyTransform(value(v), transform));
            return true;
        }
        if (!v.isObject())
            return true;
        const QJsonObject el = v.toObject();
        const QString type = el.value(QLatin1String("type")).toString().trimmed();
        if (!isSupportedElement(type)) {
            warn(QStringLiteral("%1: <%2> is not drawn inside an inline <svg>; it was dropped").arg(path, type));
            return true;
        }
        if (depth + 1 > m_options.maxDepth) {
            warn(QStringLiteral("%1: inline <svg> content nests deeper than %2 elements; dropped")
                     .arg(path)
                     .arg(m_options.maxDepth));
            return true;
        }
        if (m_options.count && !m_options.count(path))
            return false;
        const QJsonObject props = el.value(QLatin1String("props")).toObject();
        if (type == QLatin1String("image")) {
            const QString href = value(props.value(QLatin1String("href")).isUndefined()
                                           ? props.value(QLatin1String("xlinkHref"))
                                           : props.value(QLatin1String("href")));
            if (!href.trimmed().startsWith(QLatin1String("data:"), Qt::CaseInsensitive)) {
                warn(QStringLiteral("%1: an <image> inside an inline <svg> must be a data: URL; \"%2\" is not loaded")
                         .arg(path, href.left(80)));
                return true;
            }
        }
        if (type == QLatin1String("text") && m_options.naturalSize)
            if (const std::optional<QJsonObject> onPath = textPathOf(props); onPath && textOnPath(props, *onPath))
                return true;
        if (nonScalingShape(props, type) || (type == QLatin1String("text") && textWithEmoji(props)))
            return true;
        // An image has no links: an <a> draws its content as a <g> would.
        const bool link = type == QLatin1String("a");
        QJsonObject own = props;
        if (link)
            for (const char *name : {"href", "xlinkHref", "target", "download", "rel", "hrefLang", "ping", "referrerPolicy"})
                own.remove(QLatin1String(name));
        ++m_depth;
        openElement(link ? QStringLiteral("g") : type, own);
        bool ok = true;
        if (type == QLatin1String("style"))
            styleSheet(props);
        else
            ok = children(props, path, depth + 1);
        closeElement();
        --m_depth;
        return ok;
    }

    /// Writes the start of element `name` with `props`' attributes (attributes(), which
    /// opens its entries of m_strokes and m_fonts); closeElement() ends it. The caller
    /// enters its depth first.
    void openElement(const QString &name, const QJsonObject &props)
    {
        m_xml.writeStartElement(name);
        attributes(props, false, false, name);
    }

    /// Ends the element openElement() started, closing its entries of m_strokes and m_fonts.
    void closeElement()
    {
        m_strokes.pop_back();
        m_fonts.pop_back();
        m_xml.writeEndElement();
    }

    /// A children value as a list (one child is a list of one).
    static QJsonArray childList(const QJsonValue &children)
    {
        return children.isArray() ? children.toArray() : QJsonArray{children};
    }

    /// The props of a `<text>`'s `<textPath>` child, if it has one.
    static std::optional<QJsonObject> textPathOf(const QJsonObject &props)
    {
        for (const QJsonValue &c : childList(props.value(QLatin1String("children"))))
            if (c.isObject() && c.toObject().value(QLatin1String("type")).toString().trimmed() == QLatin1String("textPath"))
                return c.toObject().value(QLatin1String("props")).toObject();
        return std::nullopt;
    }

    /// The strings and numbers of `v` (a children value) in order, also those of nested
    /// elements' children when `nested`.
    QString textOf(const QJsonValue &v, bool nested) const
    {
        if (v.isArray()) {
            QString out;
            for (const QJsonValue &c : v.toArray())
                out += textOf(c, nested);
            return out;
        }
        if (v.isString() || v.isDouble())
            return value(v);
        if (nested && v.isObject())
            return textOf(v.toObject().value(QLatin1String("props")).toObject().value(QLatin1String("children")), true);
        return {};
    }

    /// Writes a `<text>` of one run with emoji as Chromium draws it, in colour: librsvg
    /// draws the emoji font's glyphs as silhouettes in the text's fill, so each emoji is
    /// kept in the run invisible (its advance stays) and its image from the render's emoji
    /// set (SvgRenderScope::inlineSvgEmoji()) is placed over it, where the HTML text's
    /// would be (emojiImageRect()). Only plain runs: string content, one x and y, a number
    /// dy, no dx, rotate or transform. False, having written nothing, otherwise.
    bool textWithEmoji(const QJsonObject &props)
    {
        ++m_depth; // ownValue() reads the element's own values at its depth, not the root's
        const auto leave = qScopeGuard([this] { --m_depth; });
        const QJsonValue children = props.value(QLatin1String("children"));
        const QJsonArray list = childList(children);
        const auto length = [&](const char *name) {
            const QString v = ownValue(props, name).trimmed();
            return userUnits(v.isEmpty() ? QStringLiteral("0") : v);
        };
        if (!m_options.naturalSize || std::any_of(list.begin(), list.end(), [](const QJsonValue &c) { return c.isObject() || c.isArray(); })
            || !length("x") || !length("y") || !length("dy") || !ownValue(props, "dx").isEmpty()
            || !ownValue(props, "rotate").isEmpty() || !ownValue(props, "transform").isEmpty())
            return false;
        // The font (and with it the text-transform) this text inherits: its own declarations
        // are applied when its attributes are written below.
        const SvgTextFont inherited = m_fonts.empty() ? SvgTextFont{} : m_fonts.back();
        const SvgTextFont font = svgTextFont(inherited, [&](const char *camel) { return fontValue(props, camel); });
        const QStringList clusters = graphemeClusters(applyTransform(textOf(children, false).simplified(), font.textTransform));
        QStringList images;
        qsizetype bytes = 0;
        for (const QString &cluster : clusters) {
            images << (isEmojiCluster(cluster) ? SvgRenderScope::inlineSvgEmoji(cluster) : QString());
            bytes += images.back().size();
        }
        // The images travel in the document: past kMaxEmojiBytes a document's further emoji
        // stay silhouettes.
        if (bytes == 0 || m_emojiBytes + bytes > kMaxEmojiBytes)
            return false;
        m_emojiBytes += bytes;
        openElement(QStringLiteral("text"), props);
        for (qsizetype i = 0; i < clusters.size(); ++i) {
            if (images[i].isEmpty()) {
                m_xml.writeCharacters(clusters[i]);
                continue;
            }
            m_xml.writeStartElement(QStringLiteral("tspan"));
            m_xml.writeAttribute(QStringLiteral("fill-opacity"), QStringLiteral("0"));
            m_xml.writeAttribute(QStringLiteral("stroke-opacity"), QStringLiteral("0"));
            m_xml.writeCharacters(clusters[i]);
            m_xml.writeEndElement();
        }
        closeElement();
        const double spacing = userUnits(ownValue(props, "letterSpacing")).value_or(0);
        const QList<double> advances = svgTextAdvances(clusters, font, spacing);
        const double total = std::accumulate(advances.begin(), advances.end(), 0.0);
        const QString anchor = ownValue(props, "textAnchor").trimmed();
        double x = *length("x") - (anchor == QLatin1String("middle") ? total / 2 : anchor == QLatin1String("end") ? total : 0);
        const double y = *length("y") + *length("dy") + svgBaselineShift(font, baselineKeyword(props, font));
        for (qsizetype i = 0; i < clusters.size(); ++i) {
            const QRectF box = emojiImageRect(QPointF(x, y), advances[i] - spacing, font.size);
            // Far outside any card (a dy of 1e308, a letter-spacing of 1e300): not drawn.
            constexpr double kFar = 1e7;
            if (!images[i].isEmpty() && std::abs(box.x()) < kFar && std::abs(box.y()) < kFar
                && std::abs(box.width()) < kFar) {
                m_xml.writeStartElement(QStringLiteral("image"));
                m_xml.writeAttribute(QStringLiteral("href"), images[i]);
                m_xml.writeAttribute(QStringLiteral("x"), number(box.x()));
                m_xml.writeAttribute(QStringLiteral("y"), number(box.y()));
                m_xml.writeAttribute(QStringLiteral("width"), number(box.width()));
                m_xml.writeAttribute(QStringLiteral("height"), number(box.height()));
                m_xml.writeEndElement();
            }
            x += advances[i];
        }
        return true;
    }

    /// Writes a `<text>` whose content is a `<textPath>` as librsvg can draw it (it draws
    /// no textPath): a `<g>` with the text's attributes, a `<g>` with the textPath's, and
    /// one `<text>` per grapheme cluster turned along the referenced `<path>`
    /// (svg_text_path.h). False, having written nothing, when the path cannot be read:
    /// the element is then written as it is.
    bool textOnPath(const QJsonObject &textProps, const QJsonObject &pathProps)
    {
        QString href = value(pathProps.value(QLatin1String("href")));
        if (href.isEmpty())
            href = value(pathProps.value(QLatin1String("xlinkHref")));
        if (!href.startsWith(u'#') || !m_options.documentDefinition)
            return false;
        const std::optional<QJsonObject> target = m_options.documentDefinition(href.mid(1));
        if (!target || target->value(QLatin1String("type")).toString().trimmed() != QLatin1String("path"))
            return false;
        const std::optional<QPainterPath> line
            = parseSvgPathData(value(target->value(QLatin1String("props")).toObject().value(QLatin1String("d"))));
        if (!line)
            return false;
        ++m_depth;
        openElement(QStringLiteral("g"), textProps);
        const SvgTextFont textFont = m_fonts.back();
        QJsonObject own = pathProps;
        for (const char *name : {"href", "xlinkHref", "startOffset", "method", "side", "spacing", "textLength",
                                 "lengthAdjust", "path", "children"})
            own.remove(QLatin1String(name));
        ++m_depth;
        openElement(QStringLiteral("g"), own);
        TextOnPath run;
        run.font = m_fonts.back();
        // White space collapsed and trimmed, as SVG's default white-space handling does.
        run.text = applyTransform(textOf(pathProps.value(QLatin1String("children")), true).simplified(),
                                  run.font.textTransform);
        QString spacing = ownValue(pathProps, "letterSpacing");
        if (spacing.isEmpty())
            spacing = ownValue(textProps, "letterSpacing");
        run.letterSpacing = userUnits(spacing).value_or(0);
        run.startOffset = startOffsetAlong(value(pathProps.value(QLatin1String("startOffset"))), line->length());
        run.anchor = ownValue(pathProps, "textAnchor").trimmed();
        if (run.anchor.isEmpty())
            run.anchor = ownValue(textProps, "textAnchor").trimmed();
        const double shift = svgBaselineShift(run.font, baselineKeyword(textProps, textFont));
        for (const PathGlyph &glyph : layOutOnPath(*line, run)) {
            m_xml.writeStartElement(QStringLiteral("text"));
            m_xml.writeAttribute(QStringLiteral("transform"), QStringLiteral("translate(%1 %2) rotate(%3)")
                                                                  .arg(number(glyph.middle.x()), number(glyph.middle.y()),
                                                                       number(glyph.angle)));
            m_xml.writeAttribute(QStringLiteral("y"), number(shift));
            m_xml.writeAttribute(QStringLiteral("text-anchor"), QStringLiteral("middle"));
            m_xml.writeAttribute(QStringLiteral("letter-spacing"), QStringLiteral("0"));
            m_xml.writeCharacters(glyph.text);
            m_xml.writeEndElement();
        }
        for (int i = 0; i < 2; ++i) {
            closeElement();
            --m_depth;
        }
        return true;
    }

    /// How many px one user unit of the root is (its viewBox onto the natural size, as
    /// preserveAspectRatio maps it; `none` stretches unevenly, the mean scale stands in).
    static double viewBoxScale(const QJsonObject &props, const QSizeF &size)
    {
        const std::optional<QRectF> box = inlineSvgViewBox(props);
        if (!box)
            return 1;
        const double sx = size.width() / box->width(), sy = size.height() / box->height();
        const QString aspect = props.value(QLatin1String("preserveAspectRatio")).toString();
        if (aspect.contains(QLatin1String("none")))
            return std::sqrt(sx * sy);
        return aspect.contains(QLatin1String("slice")) ? std::max(sx, sy) : std::min(sx, sy);
    }

    /// An element's own stroke width in user units (its style's, else its attribute's),
    /// if a plain number or px length.
    static std::optional<double> ownStrokeWidth(const QJsonObject &props)
    {
        QJsonValue v = props.value(QLatin1String("style")).toObject().value(QLatin1String("strokeWidth"));
        for (const char *name : {"strokeWidth", "stroke-width"})
            if (v.isUndefined())
                v = props.value(QLatin1String(name));
        if (v.isDouble())
            return v.toDouble();
        const std::optional<double> width = userUnits(v.toString());
        return width && *width >= 0 ? width : std::nullopt;
    }

    /// Whether the element's own vector-effect (style, else attribute) is non-scaling-stroke.
    static bool isNonScaling(const QJsonObject &props)
    {
        const QJsonValue effect = props.value(QLatin1String("style")).toObject().value(QLatin1String("vectorEffect"));
        return (effect.isUndefined() ? props.value(QLatin1String("vectorEffect")) : effect)
                   .toString(props.value(QLatin1String("vector-effect")).toString())
                   .trimmed()
               == QLatin1String("non-scaling-stroke");
    }

    /// Writes a polyline, polygon, line or path with a non-scaling stroke under a root that
    /// scales x and y differently (a sparkline's preserveAspectRatio="none"), which one
    /// stroke width cannot undo: its outline mapped to px as a `<path>`, in a `<g>` that
    /// undoes the root's map, so librsvg strokes it in px as Chromium does. False, having
    /// written nothing, for any other element (enterStroke() divides a uniform scale).
    bool nonScalingShape(const QJsonObject &props, const QString &type)
    {
        ++m_depth; // ownValue() reads the element's own values at its depth, not the root's
        const auto leave = qScopeGuard([this] { --m_depth; });
        const QTransform &t = m_rootTransform;
        if (!m_options.naturalSize || t.type() != QTransform::TxScale || std::abs(t.m11() - t.m22()) < 1e-6
            || !isNonScaling(props) || props.contains(QLatin1String("transform"))
            || (!m_strokes.empty() && m_strokes.back().transformed) || !t.isInvertible())
            return false;
        const std::optional<QPainterPath> outline
            = svgShapeOutline(type, [&](const char *name) { return ownValue(props, name); });
        if (!outline)
            return false;
        QJsonObject own = props, style = props.value(QLatin1String("style")).toObject();
        for (const char *name : {"points", "d", "x1", "y1", "x2", "y2", "vectorEffect", "vector-effect"})
            own.remove(QLatin1String(name));
        style.remove(QLatin1String("vectorEffect"));
        if (!style.isEmpty())
            own.insert(QStringLiteral("style"), style);
        const QTransform back = t.inverted();
        m_xml.writeStartElement(QStringLiteral("g"));
        m_xml.writeAttribute(QStringLiteral("transform"), QStringLiteral("matrix(%1 0 0 %2 %3 %4)")
                                                              .arg(number(back.m11()), number(back.m22()),
                                                                   number(back.dx()), number(back.dy())));
        openElement(QStringLiteral("path"), own);
        m_xml.writeAttribute(QStringLiteral("d"), svgPathData(t.map(*outline), type == QLatin1String("polygon")));
        closeElement();
        m_xml.writeEndElement();
        return true;
    }

    /// Opens the element's entry of m_strokes: its stroke width as inherited, whether a
    /// transform or viewport is in force, and whether its `vector-effect:
    /// non-scaling-stroke` is written as a stroke width divided by the root's scale.
    /// librsvg 2.54, which draws the layout engines' svgs, ignores that vector-effect (a
    /// 1-unit stroke of a 24-unit icon at 96 px draws 4 px wide, Chromium 1 px); under a
    /// transform the scale is not known here and the property is left as written.
    const StrokeState &enterStroke(const QJsonObject &props, const QString &type)
    {
        const StrokeState parent = m_strokes.empty() ? StrokeState{} : m_strokes.back();
        StrokeState state;
        state.width = ownStrokeWidth(props).value_or(parent.width);
        state.transformed = parent.transformed || props.contains(QLatin1String("transform"))
                            || (m_depth > 0 && type == QLatin1String("svg")) || type == QLatin1String("symbol")
                            || type == QLatin1String("marker") || type == QLatin1String("pattern");
        state.nonScaling = m_options.naturalSize && !state.transformed && isNonScaling(props) && m_scale > 0
                           && std::abs(m_scale - 1) > 1e-6;
        m_strokes.push_back(state);
        return m_strokes.back();
    }

    /// The element's own value of a property (camelCase): its style's (the root's: the
    /// cascaded and inherited declarations, rootStyle()), else its attribute's under
    /// either name; empty when it sets none.
    QString ownValue(const QJsonObject &props, const char *camel) const
    {
        const QString name = QLatin1String(camel);
        const QJsonObject style = m_depth == 0 ? rootStyle(props) : props.value(QLatin1String("style")).toObject();
        QJsonValue v = style.value(name);
        if (v.isUndefined())
            v = props.value(name);
        if (v.isUndefined())
            v = props.value(kebab(name));
        return v.isString() || v.isDouble() ? value(v) : QString();
    }

    /// Whether `name` is a baseline keyword property, which the layout engines'
    /// document writes as a shift instead (svg_text_baseline.h).
    bool isBaselineProperty(const QString &name) const
    {
        return m_options.naturalSize
               && (name == QLatin1String("dominantBaseline") || name == QLatin1String("dominant-baseline")
                   || name == QLatin1String("alignmentBaseline") || name == QLatin1String("alignment-baseline"));
    }

    /// The element's own value of a font property for svgTextFont(): ownValue(), but
    /// text-transform from a style only (it is no presentation attribute, SVG 2 §6.6, and
    /// Chromium ignores it as one).
    QString fontValue(const QJsonObject &props, const char *camel) const
    {
        return std::strcmp(camel, "textTransform") == 0 && m_depth > 0
                   ? value(props.value(QLatin1String("style")).toObject().value(QLatin1String(camel)))
                   : ownValue(props, camel);
    }

    /// The baseline keyword a text element is placed by: its own alignment-baseline, else
    /// the dominant-baseline of `font` (its own or inherited), as in Chromium.
    QString baselineKeyword(const QJsonObject &props, const SvgTextFont &font) const
    {
        const QString baseline = ownValue(props, "alignmentBaseline").trimmed().toLower();
        return baseline.isEmpty() || baseline == QLatin1String("auto") || baseline == QLatin1String("baseline")
                   ? font.dominantBaseline
                   : baseline;
    }

    /// Opens the element's entry of m_fonts and answers how far (user units, down) its
    /// text moves for its baseline keyword: for a `<text>`, or a `<tspan>` that starts
    /// again at a `y` of its own, in the layout engines' document; else 0. Its
    /// alignment-baseline wins over the dominant-baseline it inherits, as in Chromium.
    double baselineShift(const QJsonObject &props, const QString &type)
    {
        const SvgTextFont parent = m_fonts.empty() ? SvgTextFont{} : m_fonts.back();
        m_fonts.push_back(svgTextFont(parent, [&](const char *camel) { return fontValue(props, camel); }));
        if (!m_options.naturalSize
            || (type != QLatin1String("text") && (type != QLatin1String("tspan") || !props.contains(QLatin1String("y")))))
            return 0;
        return svgBaselineShift(m_fonts.back(), baselineKeyword(props, m_fonts.back()));
    }

    /// The `transform` attribute an element below the root is written with when its CSS
    /// transform or transform-origin needs rewriting for librsvg (svg_transform.h), in
    /// the layout engines' document; its transform-box is the root's viewBox, or for
    /// `fill-box` a circle's, ellipse's or rect's bounds.
    std::optional<QString> rewrittenTransform(const QJsonObject &props, const QString &type) const
    {
        if (!m_options.naturalSize || m_depth == 0)
            return std::nullopt;
        const QJsonObject style = props.value(QLatin1String("style")).toObject();
        const auto text = [&](const QJsonValue &v) { return v.isString() || v.isDouble() ? value(v) : QString(); };
        const QString css = text(style.value(QLatin1String("transform")));
        QString origin = text(style.value(QLatin1String("transformOrigin")));
        if (origin.isEmpty())
            origin = ownValue(props, "transformOrigin");
        const QString attribute = text(props.value(QLatin1String("transform")));
        if (css.isEmpty() && origin.isEmpty())
            return std::nullopt;
        QRectF box = m_viewBox;
        if (ownValue(props, "transformBox").trimmed() == QLatin1String("fill-box"))
            box = shapeBounds(props, type).value_or(m_viewBox);
        return svgTransformAttribute(css, attribute, origin, box, float(m_fonts.back().size));
    }

    /// A circle's, ellipse's or rect's bounds from its plain-number attributes (user units).
    std::optional<QRectF> shapeBounds(const QJsonObject &props, const QString &type) const
    {
        const auto n = [&](const char *name) -> double {
            const QString v = ownValue(props, name);
            return v.trimmed().isEmpty() ? 0 : userUnits(v).value_or(std::nan(""));
        };
        QRectF box;
        if (type == QLatin1String("circle"))
            box = QRectF(n("cx") - n("r"), n("cy") - n("r"), 2 * n("r"), 2 * n("r"));
        else if (type == QLatin1String("ellipse"))
            box = QRectF(n("cx") - n("rx"), n("cy") - n("ry"), 2 * n("rx"), 2 * n("ry"));
        else if (type == QLatin1String("rect"))
            box = QRectF(n("x"), n("y"), n("width"), n("height"));
        else
            return std::nullopt;
        if (!std::isfinite(box.x()) || !std::isfinite(box.y()) || !std::isfinite(box.width())
            || !std::isfinite(box.height()))
            return std::nullopt;
        return box;
    }

    /// A `dy` list with `shift` added to its first length when that is a number or px
    /// (`*done` set); otherwise (another unit, or a sum that is not finite) as written, the
    /// shift lost (a `dy` in em on a centred label is rare).
    static QString shiftedFirst(const QString &list, double shift, bool *done)
    {
        static const QRegularExpression first(QStringLiteral("^\\s*([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?)(px)?(?=[\\s,]|$)"));
        const QRegularExpressionMatch m = first.match(list);
        const double shifted = m.hasMatch() ? m.captured(1).toDouble() + shift : 0;
        if (!m.hasMatch() || !std::isfinite(shifted))
            return list;
        *done = true;
        return number(shifted) + list.mid(m.capturedEnd(0));
    }

    /// A `class` attribute's names under the id prefix (see withPrefixedSelectors()).
    QString withPrefixedClasses(const QString &names) const
    {
        if (m_options.idPrefix.isEmpty())
            return names;
        QStringList out;
        for (const QString &name : names.split(u' ', Qt::SkipEmptyParts))
            out << m_options.idPrefix + name;
        return out.join(u' ');
    }

    /// A `<style>` element's sheet: its text children (JSX `{`...`}`) or React's
    /// `dangerouslySetInnerHTML.__html`, with `#id` selectors and `url(#id)` references
    /// renamed under the id prefix (the sanitiser then vets the CSS as any `<style>`).
    void styleSheet(const QJsonObject &props)
    {
        const QString css = props.value(QLatin1String("dangerouslySetInnerHTML")).toObject().value(QLatin1String("__html")).toString()
                            + textOf(props.value(QLatin1String("children")), false);
        m_xml.writeCharacters(withPrefixedRefs(withPrefixedSelectors(css)));
    }

    /// `css` with the `#id` and `.class` selectors of its rules' preludes (the text
    /// before each `{`, not at-rules' and not declarations, where `#` starts a colour)
    /// under the prefix, as the elements' ids and classes are: two icons' sheets (every
    /// Illustrator export styles `.cls-1`) cannot restyle each other, nor can they in the
    /// satori engine's SVG output, where all sheets are one document's.
    QString withPrefixedSelectors(const QString &css) const
    {
        if (m_options.idPrefix.isEmpty())
            return css;
        static const QRegularExpression id(QStringLiteral("([#.])(?=[A-Za-z_\\-])"));
        QString out;
        qsizetype start = 0;
        for (qsizetype i = 0; i <= css.size(); ++i) {
            if (i < css.size() && css.at(i) != u'{' && css.at(i) != u'}' && css.at(i) != u';')
                continue;
            QString chunk = css.mid(start, i - start);
            if (i < css.size() && css.at(i) == u'{' && !chunk.trimmed().startsWith(u'@'))
                chunk.replace(id, QStringLiteral("\\1") + m_options.idPrefix);
            out += chunk;
            if (i < css.size())
                out += css.at(i);
            start = i + 1;
        }
        return out;
    }

    void warn(const QString &message)
    {
        if (m_options.warnings)
            m_options.warnings->append(message);
    }

    const InlineSvgWriter &m_options;
    QXmlStreamWriter &m_xml;
    int m_depth = 0;
    double m_scale = 1; ///< px per root user unit (layout engines only)
    std::vector<StrokeState> m_strokes; ///< one per open element, the root's first
    std::vector<SvgTextFont> m_fonts; ///< likewise, the font its text inherits
    QRectF m_viewBox; ///< the root's viewBox, else its natural size (layout engines only)
    QTransform m_rootTransform; ///< the root's viewBox onto its natural size (layout engines only)
    static constexpr qsizetype kMaxEmojiBytes = 1 << 20; ///< emoji image data: URLs in one document
    qsizetype m_emojiBytes = 0;
};

} // namespace

QByteArray inlineSvgDocument(const QJsonObject &props, const QString &path, const InlineSvgWriter &writer)
{
    QByteArray out;
    QXmlStreamWriter xml(&out);
    SvgWriter svg(writer, xml);
    if (!svg.root(props, path))
        return {};
    xml.writeEndElement();
    return out;
}

QJsonObject inlineSvgFont(const ComputedStyle &style)
{
    QStringList families;
    bool generic = false;
    for (const QString &raw : style.fontFamily) {
        const QString family = raw.trimmed();
        const QString lower = family.toLower();
        if (lower == QLatin1String("ui-sans-serif") || lower == QLatin1String("ui-serif")
            || lower == QLatin1String("ui-monospace") || lower == QLatin1String("ui-rounded"))
            continue; // no face on Linux: skipped, as in the HTML text (text_runs.cpp)
        if (lower == QLatin1String("system-ui"))
            families << QStringLiteral("sans-serif");
        else if (lower == QLatin1String("sans-serif") || lower == QLatin1String("serif")
                 || lower == QLatin1String("monospace") || lower == QLatin1String("cursive")
                 || lower == QLatin1String("fantasy"))
            families << lower;
        else if (!family.isEmpty())
            families << u'"' + QString(family).remove(u'"').remove(u'\\') + u'"';
        generic = generic || (!families.isEmpty() && !families.last().startsWith(u'"'));
    }
    if (!generic)
        families << QStringLiteral("sans-serif");
    QJsonObject font;
    font.insert(QStringLiteral("fontFamily"), families.join(QLatin1String(", ")));
    font.insert(QStringLiteral("fontSize"), style.fontSize);
    font.insert(QStringLiteral("fontWeight"), style.fontWeight);
    font.insert(QStringLiteral("fontStyle"), style.fontStyle == FontStyle::Italic ? QStringLiteral("italic")
                                             : style.fontObliqueAngle != 0           ? QStringLiteral("oblique")
                                                                                     : QStringLiteral("normal"));
    if (style.letterSpacing != 0)
        font.insert(QStringLiteral("letterSpacing"), style.letterSpacing);
    if (style.wordSpacing != 0)
        font.insert(QStringLiteral("wordSpacing"), style.wordSpacing);
    if (style.textTransform != TextTransform::None)
        font.insert(QStringLiteral("textTransform"), textTransformName(style.textTransform));
    return font;
}

std::optional<QRectF> inlineSvgViewBox(const QJsonObject &props)
{
    return parseSvgViewBox(props.value(QLatin1String("viewBox")).toString());
}

QSizeF inlineSvgNaturalSize(qreal width, qreal height, const std::optional<QRectF> &viewBox)
{
    const bool hasW = width >= 0, hasH = height >= 0;
    if (hasW && hasH)
        return {width, height};
    if (hasW)
        return {width, viewBox ? width * viewBox->height() / viewBox->width() : 150.0};
    if (hasH)
        return {viewBox ? height * viewBox->width() / viewBox->height() : 300.0, height};
    if (viewBox)
        return viewBox->size();
    return {300, 150};
}

} // namespace imprint::render
