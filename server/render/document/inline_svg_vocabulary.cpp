// The vocabulary of the inline <svg> writer (see inline_svg_vocabulary.h).

#include "server/render/document/inline_svg_vocabulary.h"

#include <QSet>

namespace imprint::render::inline_svg_detail {

/// React's JSX names of SVG attributes whose SVG name differs: react-dom's attribute
/// table (packages/react-dom-bindings/src/shared/possibleStandardNames.js and the
/// CAMELIZE list of DOMProperty.js). Every other name is written as it is, which is
/// right for SVG's own camelCase attributes (viewBox, gradientUnits, stdDeviation, …)
/// and for names already written the SVG way (`stroke-width`, as `markup` has them).
const QHash<QString, QString> &reactAttributeNames()
{
    static const QHash<QString, QString> names = [] {
        QHash<QString, QString> map;
        const char *hyphenated[] = {
            "accent-height", "alignment-baseline", "arabic-form", "baseline-shift", "cap-height", "clip-path",
            "clip-rule", "color-interpolation", "color-interpolation-filters", "color-profile", "color-rendering",
            "dominant-baseline", "enable-background", "fill-opacity", "fill-rule", "flood-color", "flood-opacity",
            "font-family", "font-size", "font-size-adjust", "font-stretch", "font-style", "font-variant",
            "font-weight", "glyph-name", "glyph-orientation-horizontal", "glyph-orientation-vertical",
            "horiz-adv-x", "horiz-origin-x", "image-rendering", "letter-spacing", "lighting-color", "marker-end",
            "marker-mid", "marker-start", "overline-position", "overline-thickness", "paint-order", "panose-1",
            "pointer-events", "rendering-intent", "shape-rendering", "stop-color", "stop-opacity",
            "strikethrough-position", "strikethrough-thickness", "stroke-dasharray", "stroke-dashoffset",
            "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-opacity", "stroke-width",
            "text-anchor", "text-decoration", "text-rendering", "transform-origin", "underline-position",
            "underline-thickness", "unicode-bidi", "unicode-range", "units-per-em", "v-alphabetic", "v-hanging",
            "v-ideographic", "v-mathematical", "vector-effect", "vert-adv-y", "vert-origin-x", "vert-origin-y",
            "word-spacing", "writing-mode", "x-height"};
        for (const char *h : hyphenated) {
            const QString svgName = QString::fromLatin1(h);
            QString camel;
            bool upper = false;
            for (QChar c : svgName) {
                if (c == u'-') {
                    upper = true;
                    continue;
                }
                camel += upper ? c.toUpper() : c;
                upper = false;
            }
            map.insert(camel, svgName);
        }
        map.insert(QStringLiteral("panose1"), QStringLiteral("panose-1"));
        for (const char *x : {"Actuate", "Arcrole", "Href", "Role", "Show", "Title", "Type"})
            map.insert(QStringLiteral("xlink") + QLatin1String(x),
                       QStringLiteral("xlink:") + QString::fromLatin1(x).toLower());
        for (const char *x : {"Base", "Lang", "Space"})
            map.insert(QStringLiteral("xml") + QLatin1String(x),
                       QStringLiteral("xml:") + QString::fromLatin1(x).toLower());
        return map;
    }();
    return names;
}

/// The SVG elements an inline `<svg>` may hold: shapes, structure, paint servers,
/// clipping and masking, text, raster images (data: only, the sanitiser's rule) and
/// filter primitives. Scripts, foreignObject and animation are not images.
bool isSupportedElement(const QString &name)
{
    static const QSet<QString> names = {
        QStringLiteral("svg"),          QStringLiteral("g"),              QStringLiteral("defs"),
        QStringLiteral("path"),         QStringLiteral("circle"),         QStringLiteral("ellipse"),
        QStringLiteral("rect"),         QStringLiteral("line"),           QStringLiteral("polyline"),
        QStringLiteral("polygon"),      QStringLiteral("linearGradient"), QStringLiteral("radialGradient"),
        QStringLiteral("stop"),         QStringLiteral("clipPath"),       QStringLiteral("mask"),
        QStringLiteral("use"),          QStringLiteral("symbol"),         QStringLiteral("text"),
        QStringLiteral("tspan"),        QStringLiteral("image"),          QStringLiteral("title"),
        QStringLiteral("desc"),         QStringLiteral("pattern"),        QStringLiteral("marker"),
        QStringLiteral("filter"),       QStringLiteral("feGaussianBlur"), QStringLiteral("feOffset"),
        QStringLiteral("feFlood"),      QStringLiteral("feComposite"),    QStringLiteral("feMerge"),
        QStringLiteral("feMergeNode"),  QStringLiteral("feBlend"),        QStringLiteral("feColorMatrix"),
        QStringLiteral("feDropShadow"), QStringLiteral("textPath"),       QStringLiteral("style"),
        // The rest of Filter Effects 1 §9 but feImage (it draws another resource): grain
        // and noise textures (feTurbulence), duotones and posterising (feComponentTransfer),
        // outlines (feMorphology), embossing and lighting.
        QStringLiteral("feTurbulence"), QStringLiteral("feComponentTransfer"), QStringLiteral("feFuncR"),
        QStringLiteral("feFuncG"), QStringLiteral("feFuncB"), QStringLiteral("feFuncA"),
        QStringLiteral("feMorphology"), QStringLiteral("feDisplacementMap"), QStringLiteral("feTile"),
        QStringLiteral("feConvolveMatrix"), QStringLiteral("feDiffuseLighting"), QStringLiteral("feSpecularLighting"),
        QStringLiteral("feDistantLight"), QStringLiteral("fePointLight"), QStringLiteral("feSpotLight"),
        QStringLiteral("a"), // a link: written as the group it draws as in an image
    };
    return names.contains(name);
}

/// Props that are React's, not attributes (or are Tailwind's business). `className` is
/// written as `class` (a `<style>` sheet inside the svg selects by it, as Illustrator's
/// and Inkscape's exports do).
bool isDroppedProp(const QString &name)
{
    return name == QLatin1String("children") || name == QLatin1String("key") || name == QLatin1String("ref")
           || name == QLatin1String("tw")
           || name == QLatin1String("style") || name == QLatin1String("xmlns")
           || name == QLatin1String("xmlnsXlink") || name == QLatin1String("xmlns:xlink")
           || name == QLatin1String("dangerouslySetInnerHTML") || name.startsWith(QLatin1String("on"));
}

/// React's unitless style properties among those SVG content uses (a number stays bare).
bool isUnitless(const QString &camel)
{
    static const QSet<QString> names = {
        QStringLiteral("opacity"),          QStringLiteral("fillOpacity"),   QStringLiteral("floodOpacity"),
        QStringLiteral("stopOpacity"),      QStringLiteral("strokeOpacity"), QStringLiteral("strokeWidth"),
        QStringLiteral("strokeDasharray"),  QStringLiteral("strokeDashoffset"),
        QStringLiteral("strokeMiterlimit"), QStringLiteral("fontWeight"),    QStringLiteral("lineHeight"),
    };
    return names.contains(camel);
}

/// A plain number or px length in user units; nullopt for anything else.
std::optional<double> userUnits(QString text)
{
    text = text.trimmed();
    if (text.endsWith(QLatin1String("px")))
        text.chop(2);
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok ? std::optional<double>(v) : std::nullopt;
}

QString number(double v)
{
    return QString::number(v, 'g', 10);
}

QString kebab(const QString &camel)
{
    QString out;
    for (QChar c : camel) {
        if (c.isUpper())
            out += u'-' + c.toLower();
        else
            out += c;
    }
    return out;
}

} // namespace imprint::render::inline_svg_detail
