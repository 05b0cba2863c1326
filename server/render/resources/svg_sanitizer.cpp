// SVG sanitising for the resource policy (see svg_sanitizer.h): a streaming rewrite with
// QXmlStreamReader/QXmlStreamWriter, so the document is never held as a DOM.

#include "server/render/resources/svg_sanitizer.h"
#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_viewport.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QSizeF>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

namespace imprint::render {

namespace {

/// Sum of one dash pattern period in user units (an odd list repeats once, SVG 2
/// §13.5.5); 0 for an empty or unparsable list, -1 for `none`.
double dashPeriod(const QString &value)
{
    const QString v = value.trimmed();
    if (v.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0 || v.isEmpty())
        return -1;
    static const QRegularExpression separators(QStringLiteral("[\\s,]+"));
    const QStringList parts = v.split(separators, Qt::SkipEmptyParts);
    double sum = 0;
    for (QString p : parts) {
        if (p.endsWith(QLatin1String("px"), Qt::CaseInsensitive))
            p.chop(2);
        bool ok = false;
        const double n = p.toDouble(&ok);
        if (!ok || n < 0)
            return 0;
        sum += n;
    }
    return parts.size() % 2 ? 2 * sum : sum;
}

/// The share (0–1) of a dash pattern's period that is dash rather than gap (an odd list
/// repeats, SVG 2 §13.5.5: its dashes and gaps swap on the repeat, so the share is ½);
/// 1 when `value` is not a pattern.
double dashFraction(const QString &value)
{
    static const QRegularExpression separators(QStringLiteral("[\\s,]+"));
    const QStringList parts = value.trimmed().split(separators, Qt::SkipEmptyParts);
    if (parts.size() % 2)
        return parts.isEmpty() ? 1 : 0.5;
    double dash = 0, period = 0;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        QString p = parts[i];
        if (p.endsWith(QLatin1String("px"), Qt::CaseInsensitive))
            p.chop(2);
        const double n = std::max(0.0, p.toDouble());
        period += n;
        if (i % 2 == 0)
            dash += n;
    }
    return period > 0 ? dash / period : 1;
}

/// SVG's animation elements (SVG Animations Level 2 §2; animateColor from SVG 1.1): each
/// can set any attribute of its parent over time.
bool isAnimation(const QString &name)
{
    return name == QLatin1String("animate") || name == QLatin1String("set") || name == QLatin1String("animateMotion")
           || name == QLatin1String("animateTransform") || name == QLatin1String("animateColor");
}

/// Whether an attribute value names a script URL somewhere, also in a `values` list and
/// with the whitespace and control characters inside the scheme that URL parsers skip
/// ("java&#9;script:"; WHATWG URL §4.4 strips tabs and newlines).
bool carriesScriptUrl(const QString &value)
{
    QString squeezed;
    squeezed.reserve(value.size());
    for (const QChar c : value)
        if (c.unicode() > 0x20 && c.category() != QChar::Other_Control)
            squeezed += c.toLower();
    return squeezed.contains(QLatin1String("javascript:")) || squeezed.contains(QLatin1String("vbscript:"));
}

/// Whether an animation element must go: it sets an `href` / `xlink:href` (a link or a
/// `<use>` to what the sanitiser never let through) or an event attribute, or one of its
/// values (SMIL `to`, `from`, `by`, `values`) is a script URL. A browser showing the
/// uploaded SVG (GET /api/v1/files/…) would otherwise run it.
bool isDangerousAnimation(const QXmlStreamAttributes &attributes)
{
    QString target = attributes.value(QLatin1String("attributeName")).trimmed().toString();
    target = target.mid(target.lastIndexOf(QLatin1Char(':')) + 1); // "xlink:href" → "href"
    if (target.compare(QLatin1String("href"), Qt::CaseInsensitive) == 0
        || target.startsWith(QLatin1String("on"), Qt::CaseInsensitive))
        return true;
    for (const char *valueAttribute : {"to", "from", "by", "values"})
        if (carriesScriptUrl(attributes.value(QLatin1String(valueAttribute)).toString()))
            return true;
    return false;
}

/// A length attribute that is a plain number or px (SVG user units), else nullopt.
std::optional<double> userUnits(QStringView value)
{
    QStringView v = value.trimmed();
    if (v.endsWith(QLatin1String("px"), Qt::CaseInsensitive))
        v.chop(2);
    bool ok = false;
    const double n = v.toDouble(&ok);
    return ok && n > 0 ? std::optional<double>(n) : std::nullopt;
}

/// The size an SVG referenced by an `<image>` is given to be drawn at: its box (plain
/// `width` and `height`) times 4, at most 2048 units a side, or nullopt when the box is
/// not given in user units. librsvg 2.54 and QtSvg rasterise such an image at its own size
/// (a 36-unit viewBox: 36 px) and scale those pixels to the box, where Chromium draws it
/// as vectors (SVG 2 §5.7); four times the box covers the device scales renders use.
std::optional<QSizeF> nestedSvgSize(const QXmlStreamAttributes &image)
{
    const auto w = userUnits(image.value(QLatin1String("width")));
    const auto h = userUnits(image.value(QLatin1String("height")));
    if (!w || !h)
        return std::nullopt;
    const double k = std::min(4.0, 2048 / std::max(*w, *h));
    return QSizeF(*w * k, *h * k);
}

class Sanitizer
{
public:
    /// `rootSize`: for an SVG an `<image>` references, the width and height its root is
    /// written with (nestedSvgSize()), with a viewBox kept or made from its own size, and
    /// `rootAspect` the image's preserveAspectRatio, which SVG 2 §5.7 uses in place of the
    /// root's.
    Sanitizer(const SvgLimits &limits, int level, std::optional<QSizeF> rootSize = std::nullopt,
              QString rootAspect = {})
        : m_limits(limits)
        , m_level(level)
        , m_rootSize(rootSize)
        , m_rootAspect(std::move(rootAspect))
    { }

    std::optional<QByteArray> run(const QByteArray &svg, QString *why)
    {
        if (svg.startsWith("\x1f\x8b"))
            return fail(why, QStringLiteral("compressed SVG (svgz) is not accepted; send the plain document"));
        static const QRegularExpression anyStrokeWidth(QStringLiteral("stroke-width\\s*[:=]\\s*[\"']?\\s*([0-9.]+)"));
        for (auto it = anyStrokeWidth.globalMatch(QString::fromUtf8(svg)); it.hasNext();)
            m_widestStroke = std::max(m_widestStroke, it.next().captured(1).toDouble());
        QXmlStreamReader reader(svg);
        QByteArray out;
        QXmlStreamWriter writer(&out);
        int depth = 0;
        int skipDepth = 0; // > 0 while inside a dropped element
        int styleDepth = 0; // > 0 while inside <style>
        bool sawRoot = false;
        while (!reader.atEnd()) {
            switch (reader.readNext()) {
            case QXmlStreamReader::StartElement: {
                ++depth;
                if (++m_elements > m_limits.maxElements)
                    return fail(why, QStringLiteral("the SVG has more than %1 elements").arg(m_limits.maxElements));
                if (depth > m_limits.maxDepth)
                    return fail(why,
                                QStringLiteral("the SVG nests elements deeper than %1 levels").arg(m_limits.maxDepth));
                const QString name = reader.name().toString();
                if (!sawRoot) {
                    sawRoot = true;
                    if (name != QLatin1String("svg"))
                        return fail(why, QStringLiteral("the document's root element is <%1>, not <svg>").arg(name));
                    readExtent(reader.attributes());
                }
                if (skipDepth > 0 || name == QLatin1String("script") || name == QLatin1String("foreignObject")
                    || (name == QLatin1String("image") && imageHref(reader.attributes()).isEmpty())
                    || (isAnimation(name) && isDangerousAnimation(reader.attributes()))) {
                    ++skipDepth;
                    break;
                }
                if (name == QLatin1String("feDropShadow")) {
                    writeDropShadow(reader, writer);
                    ++skipDepth; // its children (animations) go with it
                    break;
                }
                if (name == QLatin1String("style"))
                    ++styleDepth;
                m_frames.push_back({reader.attributes().value(QLatin1String("id")).toString(),
                                    1,
                                    {},
                                    strokeWidthOf(reader.attributes())});
                if (!writeStart(reader, writer, name, why))
                    return std::nullopt;
                break;
            }
            case QXmlStreamReader::EndElement:
                --depth;
                if (skipDepth > 0) {
                    --skipDepth;
                    break;
                }
                if (reader.name() == QLatin1String("style"))
                    --styleDepth;
                closeFrame();
                writer.writeEndElement();
                break;
            case QXmlStreamReader::Characters:
                if (skipDepth > 0)
                    break;
                if (styleDepth > 0)
                    writer.writeCharacters(sanitizeCss(reader.text().toString()));
                else
                    writer.writeCharacters(reader.text().toString());
                break;
            default:
                // StartDocument, DTD, comments, processing instructions (QtSvg loads
                // `xml-stylesheet` hrefs from disk), entity references: none survive.
                break;
            }
        }
        if (reader.hasError())
            return fail(why, QStringLiteral("the SVG is not well-formed XML: %1 (line %2)")
                                 .arg(reader.errorString())
                                 .arg(reader.lineNumber()));
        if (!sawRoot)
            return fail(why, QStringLiteral("the document has no <svg> element"));
        if (!checkUseExpansion(why))
            return std::nullopt;
        return out;
    }

private:
    struct Frame {
        QString id;
        qint64 elements;
        QStringList uses; ///< ids that <use> elements inside this one draw again
        double strokeWidth; ///< user units, as inherited (SVG 2 §13.5.2; initial 1)
    };

    /// The stroke width an element strokes with: its own `stroke-width` attribute or
    /// style declaration, else its parent's.
    double strokeWidthOf(const QXmlStreamAttributes &attributes) const
    {
        static const QRegularExpression declared(QStringLiteral("stroke-width\\s*:\\s*([0-9.]+)"),
                                                 QRegularExpression::CaseInsensitiveOption);
        double width = -1;
        if (const auto m = declared.match(attributes.value(QLatin1String("style"))); m.hasMatch())
            width = m.captured(1).toDouble();
        else if (attributes.hasAttribute(QLatin1String("stroke-width")))
            width = attributes.value(QLatin1String("stroke-width")).toString().remove(QLatin1String("px")).toDouble();
        if (width >= 0)
            return width;
        return m_frames.empty() ? 1.0 : m_frames.back().strokeWidth;
    }

    static std::optional<QByteArray> fail(QString *why, const QString &message)
    {
        if (why)
            *why = message;
        return std::nullopt;
    }

    void readExtent(const QXmlStreamAttributes &attributes)
    {
        static const QRegularExpression separators(QStringLiteral("[\\s,]+"));
        const QStringList box
            = attributes.value(QLatin1String("viewBox")).toString().split(separators, Qt::SkipEmptyParts);
        if (box.size() == 4)
            m_extent = std::max(box[2].toDouble(), box[3].toDouble());
        if (m_extent <= 0) {
            auto number = [](QString v) {
                static const QRegularExpression unit(QStringLiteral("[a-z%]+$"),
                                                     QRegularExpression::CaseInsensitiveOption);
                return v.remove(unit).toDouble();
            };
            m_extent = std::max(number(attributes.value(QLatin1String("width")).toString()),
                                number(attributes.value(QLatin1String("height")).toString()));
        }
        if (m_extent <= 0)
            m_extent = 1000;
    }

    /// A dash pattern costs one stroked polygon per dash: QtSvg took 2 s for 5-unit
    /// dashes and 12.7 s for 1-unit dashes around a 600-unit-wide circle. Patterns whose
    /// period is under 1/256 of the document or a quarter of the stroke width are finer
    /// than a pixel's antialiasing resolves: they are drawn as one solid stroke whose
    /// opacity is the pattern's dash share (half on, half off reads as half as bright,
    /// as Chromium draws it). Inside a <style> sheet the stroke width is not known, so
    /// the widest one written anywhere in the document stands in for it.
    bool dashTooFine(const QString &value, double strokeWidth) const
    {
        const double period = dashPeriod(value);
        return period >= 0 && (period < m_extent / 256.0 || period < strokeWidth / 4.0);
    }

    /// `url(...)` other than `url(#id)` becomes `none`; `@import` rules and too fine dash
    /// patterns go.
    QString sanitizeCss(QString css) const
    {
        static const QRegularExpression import(QStringLiteral("@import[^;]*;?"),
                                               QRegularExpression::CaseInsensitiveOption);
        css.remove(import);
        static const QRegularExpression url(QStringLiteral("url\\(\\s*(['\"]?)([^)]*?)\\1\\s*\\)"),
                                            QRegularExpression::CaseInsensitiveOption);
        QString out;
        qsizetype last = 0;
        for (auto it = url.globalMatch(css); it.hasNext();) {
            const auto m = it.next();
            out += QStringView(css).mid(last, m.capturedStart() - last);
            out += m.captured(2).trimmed().startsWith(QLatin1Char('#')) ? m.captured(0) : QStringLiteral("none");
            last = m.capturedEnd();
        }
        out += QStringView(css).mid(last);
        static const QRegularExpression dash(QStringLiteral("(stroke-dasharray\\s*:\\s*)([^;}!]+)"),
                                             QRegularExpression::CaseInsensitiveOption);
        QString result;
        last = 0;
        for (auto it = dash.globalMatch(out); it.hasNext();) {
            const auto m = it.next();
            result += QStringView(out).mid(last, m.capturedStart() - last);
            if (dashTooFine(m.captured(2), m_widestStroke))
                result += m.captured(1) + QStringLiteral("none;stroke-opacity:%1")
                                              .arg(dashFraction(m.captured(2)), 0, 'g', 4);
            else
                result += m.captured(0);
            last = m.capturedEnd();
        }
        result += QStringView(out).mid(last);
        return result;
    }

    /// The `data:` URL of an `<image>`, kept when its bytes are a raster image or an SVG
    /// that passes this sanitiser one level down; empty when it must go.
    QString sanitizeImageHref(const QString &href, const QXmlStreamAttributes &image) const
    {
        const auto bytes = dataUrlBytes(href);
        if (!bytes)
            return {};
        switch (sniffImageFormat(*bytes)) {
        case ImageFormat::Png:
        case ImageFormat::Jpeg:
        case ImageFormat::Gif: return href;
        case ImageFormat::Svg: {
            if (m_level + 1 > m_limits.maxNestedImages)
                return {};
            Sanitizer inner(m_limits, m_level + 1, nestedSvgSize(image),
                            image.value(QLatin1String("preserveAspectRatio")).trimmed().toString());
            QString error;
            const auto clean = inner.run(*bytes, &error);
            if (!clean)
                return {};
            return QStringLiteral("data:image/svg+xml;base64,") + QString::fromLatin1(clean->toBase64());
        }
        default: return {};
        }
    }

    /// The href an `<image>` keeps (see sanitizeImageHref), empty when the element must
    /// go: an image with nothing to show is dropped whole rather than left for QtSvg to
    /// complain about.
    QString imageHref(const QXmlStreamAttributes &attributes) const
    {
        for (const QXmlStreamAttribute &attribute : attributes) {
            if (attribute.name() != QLatin1String("href"))
                continue;
            const QString target = attribute.value().trimmed().toString();
            if (target.startsWith(QLatin1String("data:"), Qt::CaseInsensitive))
                return sanitizeImageHref(target, attributes);
        }
        return {};
    }

    bool writeStart(const QXmlStreamReader &reader, QXmlStreamWriter &writer, const QString &name, QString *why)
    {
        // Declared before the element starts so that its own name finds its prefix (else
        // the writer invents `n1:svg`, which QtSvg does not take for an SVG root).
        for (const QXmlStreamNamespaceDeclaration &ns : reader.namespaceDeclarations()) {
            if (ns.prefix().isEmpty())
                writer.writeDefaultNamespace(ns.namespaceUri().toString());
            else
                writer.writeNamespace(ns.namespaceUri().toString(), ns.prefix().toString());
        }
        writer.writeStartElement(reader.namespaceUri().toString(), name);
        const bool resizedRoot = m_rootSize && m_frames.size() == 1 && resizeRoot(reader.attributes(), writer);
        // A too fine dash pattern becomes a solid stroke at its dash share's opacity
        // (dashTooFine()), times the element's own stroke-opacity.
        const QString dashArray = reader.attributes().value(QLatin1String("stroke-dasharray")).toString();
        const double dashShare
            = !dashArray.isEmpty() && dashTooFine(dashArray, m_frames.back().strokeWidth) ? dashFraction(dashArray) : 1;
        if (dashShare < 1 && !reader.attributes().hasAttribute(QLatin1String("stroke-opacity")))
            writer.writeAttribute(QStringLiteral("stroke-opacity"), QString::number(dashShare, 'g', 4));
        for (const QXmlStreamAttribute &attribute : reader.attributes()) {
            const QString local = attribute.name().toString();
            QString value = attribute.value().toString();
            if (resizedRoot
                && (local == QLatin1String("width") || local == QLatin1String("height") || local == QLatin1String("viewBox")
                    || (local == QLatin1String("preserveAspectRatio") && !m_rootAspect.isEmpty())))
                continue;
            // Event handler attributes (SVG 2 §15.2: onload, onbegin, onclick, …): QtSvg
            // ignores them, a browser opening the stored file runs them. No other SVG
            // attribute starts with "on".
            if (local.startsWith(QLatin1String("on"), Qt::CaseInsensitive))
                continue;
            if (local == QLatin1String("href")) {
                const QString target = value.trimmed();
                if (target.startsWith(QLatin1Char('#'))) {
                    if (name == QLatin1String("use"))
                        m_frames.back().uses << target.mid(1);
                } else if (name == QLatin1String("image")) {
                    value = imageHref(reader.attributes());
                } else {
                    continue; // a file, an http(s) URL, anything else: never loaded
                }
            } else if (attribute.qualifiedName() == QLatin1String("xml:base")) {
                continue;
            } else if (local == QLatin1String("style")) {
                value = sanitizeCss(value);
            } else if (local == QLatin1String("stroke-dasharray")) {
                if (dashShare < 1 || dashTooFine(value, m_frames.back().strokeWidth))
                    value = QStringLiteral("none");
            } else if (local == QLatin1String("stroke-opacity") && dashShare < 1) {
                bool ok = false;
                const double own = value.trimmed().toDouble(&ok);
                value = QString::number((ok ? std::clamp(own, 0.0, 1.0) : 1.0) * dashShare, 'g', 4);
            } else if (value.contains(QLatin1String("url("), Qt::CaseInsensitive)) {
                value = sanitizeCss(value);
            }
            if (attribute.namespaceUri().isEmpty())
                writer.writeAttribute(attribute.qualifiedName().toString(), value);
            else
                writer.writeAttribute(attribute.namespaceUri().toString(), local, value);
        }
        Q_UNUSED(why);
        return true;
    }

    /// `<feDropShadow>` written as the primitives Filter Effects 1 §15.9 defines it by
    /// (blur of its input's alpha, offset, flood, composite `in`, merged under the input):
    /// librsvg 2.54, which draws every SVG here, does not know the element, and an
    /// element whose filter holds an unknown primitive is not drawn at all (Chromium draws
    /// the shadow). Its defaults are its own: dx, dy and stdDeviation 2, black at opacity 1.
    void writeDropShadow(const QXmlStreamReader &reader, QXmlStreamWriter &writer)
    {
        const QXmlStreamAttributes a = reader.attributes();
        const QString ns = reader.namespaceUri().toString();
        const QString key = QStringLiteral("imprint-drop-shadow-%1-").arg(++m_dropShadows);
        auto attr = [&](const char *name, const char *fallback) {
            const QString v = a.value(QLatin1String(name)).trimmed().toString();
            return v.isEmpty() ? QString::fromLatin1(fallback) : v;
        };
        auto element = [&](const char *name, std::initializer_list<std::pair<const char *, QString>> attributes) {
            writer.writeStartElement(ns, QString::fromLatin1(name));
            for (const auto &[n, v] : attributes)
                if (!v.isEmpty())
                    writer.writeAttribute(QString::fromLatin1(n), v);
        };
        // An identity offset names the input, which may be the previous primitive's
        // unnamed result.
        element("feOffset", {{"in", attr("in", "")}, {"result", key + QStringLiteral("in")}});
        writer.writeEndElement();
        element("feGaussianBlur", {{"in", key + QStringLiteral("in")}, {"stdDeviation", attr("stdDeviation", "2")}});
        writer.writeEndElement();
        element("feOffset", {{"dx", attr("dx", "2")}, {"dy", attr("dy", "2")}, {"result", key + QStringLiteral("blur")}});
        writer.writeEndElement();
        element("feFlood", {{"flood-color", attr("flood-color", "")},
                            {"flood-opacity", attr("flood-opacity", "")},
                            {"style", sanitizeCss(attr("style", ""))}});
        writer.writeEndElement();
        element("feComposite", {{"in2", key + QStringLiteral("blur")}, {"operator", QStringLiteral("in")}});
        writer.writeEndElement();
        element("feMerge", {{"x", attr("x", "")}, {"y", attr("y", "")}, {"width", attr("width", "")},
                            {"height", attr("height", "")}, {"result", attr("result", "")}});
        element("feMergeNode", {});
        writer.writeEndElement();
        element("feMergeNode", {{"in", key + QStringLiteral("in")}});
        writer.writeEndElement();
        writer.writeEndElement();
    }

    /// Writes the root's width and height as m_rootSize, its viewBox (its own when valid,
    /// else `0 0 width height` from its own plain size) and the image's
    /// preserveAspectRatio; false, writing nothing, when the root has neither a valid
    /// viewBox nor a plain size to scale from.
    bool resizeRoot(const QXmlStreamAttributes &root, QXmlStreamWriter &writer) const
    {
        QString viewBox = root.value(QLatin1String("viewBox")).trimmed().toString();
        if (!parseSvgViewBox(viewBox)) { // absent, or disabled (SVG 2 §8.2): the size's own
            const auto w = userUnits(root.value(QLatin1String("width")));
            const auto h = userUnits(root.value(QLatin1String("height")));
            if (!w || !h)
                return false;
            viewBox = QStringLiteral("0 0 %1 %2").arg(*w).arg(*h);
        }
        writer.writeAttribute(QStringLiteral("width"), QString::number(m_rootSize->width()));
        writer.writeAttribute(QStringLiteral("height"), QString::number(m_rootSize->height()));
        writer.writeAttribute(QStringLiteral("viewBox"), viewBox);
        if (!m_rootAspect.isEmpty())
            writer.writeAttribute(QStringLiteral("preserveAspectRatio"), m_rootAspect);
        return true;
    }

    void closeFrame()
    {
        Frame frame = std::move(m_frames.back());
        m_frames.pop_back();
        if (!frame.id.isEmpty())
            m_byId.insert(frame.id, {frame.elements, frame.uses});
        if (!m_frames.empty()) {
            m_frames.back().elements += frame.elements;
            m_frames.back().uses += frame.uses;
        } else {
            m_root = {frame.elements, frame.uses};
        }
    }

    /// Elements drawn once every <use> is replaced by what it references, with cycles
    /// refused (QtSvg 6.4 has no guard of its own).
    bool checkUseExpansion(QString *why)
    {
        QHash<QString, qint64> memo;
        QSet<QString> active;
        const qint64 cap = m_limits.maxExpandedElements + 1;
        bool cycle = false;
        std::function<qint64(const Counted &)> expanded = [&](const Counted &c) -> qint64 {
            qint64 total = c.elements;
            for (const QString &id : c.uses) {
                if (total >= cap || cycle)
                    break;
                auto target = m_byId.constFind(id);
                if (target == m_byId.constEnd())
                    continue;
                if (auto hit = memo.constFind(id); hit != memo.constEnd()) {
                    total += *hit;
                    continue;
                }
                if (active.contains(id)) {
                    cycle = true;
                    break;
                }
                active.insert(id);
                const qint64 n = expanded(*target);
                active.remove(id);
                memo.insert(id, n);
                total += n;
            }
            return std::min(total, cap);
        };
        const qint64 total = expanded(m_root);
        if (cycle) {
            fail(why, QStringLiteral("the SVG has a <use> element that references itself"));
            return false;
        }
        if (total > m_limits.maxExpandedElements) {
            fail(why, QStringLiteral("the SVG draws more than %1 elements once its <use> references are expanded")
                          .arg(m_limits.maxExpandedElements));
            return false;
        }
        return true;
    }

    struct Counted {
        qint64 elements = 0;
        QStringList uses;
    };

    const SvgLimits &m_limits;
    const int m_level;
    const std::optional<QSizeF> m_rootSize;
    const QString m_rootAspect;
    int m_elements = 0;
    double m_extent = 0;
    double m_widestStroke = 1;
    int m_dropShadows = 0; ///< feDropShadow elements rewritten so far (their result names)
    std::vector<Frame> m_frames;
    QHash<QString, Counted> m_byId;
    Counted m_root;
};

} // namespace

common::Expected<QByteArray, QString> sanitizeSvg(const QByteArray &svg, const SvgLimits &limits)
{
    QString why;
    auto clean = Sanitizer(limits, 0).run(svg, &why);
    if (!clean)
        return why;
    return std::move(*clean);
}

bool looksLikeSvg(const QByteArray &bytes)
{
    QByteArrayView head(bytes.constData(), std::min<qsizetype>(bytes.size(), 4096));
    if (head.startsWith("\xEF\xBB\xBF"))
        head = head.sliced(3);
    qsizetype i = 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    return i < head.size() && head[i] == '<' && head.indexOf("<svg") >= 0;
}

} // namespace imprint::render
