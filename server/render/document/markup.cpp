// HTML markup → element tree through libgumbo (see markup.h).

#include "server/render/document/markup.h"
#include "server/render/css/parse.h"

#include <QJsonArray>

#include <gumbo.h>

#include <memory>
#include <vector>

namespace imprint::render {

namespace {

QString pieceToString(const GumboStringPiece &piece)
{
    return QString::fromUtf8(piece.data, qsizetype(piece.length));
}

QString tagName(const GumboElement &element)
{
    if (element.tag != GUMBO_TAG_UNKNOWN)
        return QString::fromLatin1(gumbo_normalized_tagname(element.tag));
    GumboStringPiece original = element.original_tag;
    gumbo_tag_from_original_text(&original);
    return pieceToString(original).toLower();
}

/// An SVG element's name as SVG spells it (linearGradient, clipPath): the HTML parser
/// lower-cases tag names and re-cases SVG's (HTML §13.2.6.5's table).
QString svgTagName(const GumboElement &element)
{
    GumboStringPiece original = element.original_tag;
    gumbo_tag_from_original_text(&original);
    const QString lower = pieceToString(original).toLower();
    if (const char *adjusted = gumbo_normalize_svg_tagname(&original))
        return QString::fromLatin1(adjusted);
    return lower.isEmpty() ? tagName(element) : lower;
}

/// An SVG attribute's name with its namespace prefix (`xlink:href`, `xml:space`).
QString svgAttributeName(const GumboAttribute &attribute, const QString &name)
{
    switch (attribute.attr_namespace) {
    case GUMBO_ATTR_NAMESPACE_XLINK: return QStringLiteral("xlink:") + name;
    case GUMBO_ATTR_NAMESPACE_XML: return QStringLiteral("xml:") + name;
    default: return name;
    }
}

bool isDropped(GumboTag tag)
{
    switch (tag) {
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_TITLE:
    case GUMBO_TAG_META:
    case GUMBO_TAG_LINK:
    case GUMBO_TAG_BASE: return true;
    default: return false;
    }
}

bool isBlank(const QString &text)
{
    for (QChar c : text)
        if (!c.isSpace())
            return false;
    return true;
}

class Converter
{
public:
    Converter(const TemplateLimits &limits, RenderError *error, QStringList *warnings)
        : m_limits(limits)
        , m_error(error)
        , m_warnings(warnings)
    { }

    /// Appends the converted children of `parent` to `out`; false on a limit error.
    bool children(const GumboVector &nodes, int depth, QJsonArray *out)
    {
        for (unsigned i = 0; i < nodes.length; ++i) {
            const auto *node = static_cast<const GumboNode *>(nodes.data[i]);
            switch (node->type) {
            case GUMBO_NODE_TEXT:
            case GUMBO_NODE_CDATA:
            case GUMBO_NODE_WHITESPACE: {
                const QString text = QString::fromUtf8(node->v.text.text);
                if (isBlank(text))
                    continue; // inter-element whitespace: no flex item in a browser either
                if (!count())
                    return false;
                out->append(text);
                break;
            }
            case GUMBO_NODE_ELEMENT:
            case GUMBO_NODE_TEMPLATE: {
                const GumboElement &el = node->v.element;
                if (isDropped(el.tag))
                    continue;
                if (el.tag == GUMBO_TAG_BR) {
                    // U+2028 LINE SEPARATOR is a forced break under every white-space
                    // mode, as <br> is; a "\n" would collapse to a space under `normal`.
                    out->append(QString(QChar::LineSeparator));
                    continue;
                }
                QJsonObject converted;
                if (!element(el, depth + 1, &converted))
                    return false;
                out->append(converted);
                break;
            }
            default: break; // comments, document
            }
        }
        return true;
    }

    bool element(const GumboElement &el, int depth, QJsonObject *out)
    {
        if (depth > m_limits.maxDepth) {
            fail(RenderErrorCode::TooDeep,
                 QStringLiteral("markup nests deeper than %1 elements").arg(m_limits.maxDepth));
            return false;
        }
        if (!count())
            return false;
        const bool svg = el.tag_namespace == GUMBO_NAMESPACE_SVG;
        const QString tag = svg ? svgTagName(el) : tagName(el);
        if (el.tag_namespace == GUMBO_NAMESPACE_MATHML && m_warnings)
            m_warnings->append(QStringLiteral("markup: <%1> (MathML content) is not supported").arg(tag));
        QJsonObject props;
        if (const GumboAttribute *style = gumbo_get_attribute(&el.attributes, "style"))
            props.insert(QStringLiteral("style"), parseStyleAttribute(QString::fromUtf8(style->value)));
        if (svg) {
            // SVG content keeps every attribute: the inline <svg> writer (inline_svg.h)
            // takes SVG's names as they are, which the HTML parser has already re-cased
            // (viewbox → viewBox, HTML §13.2.6.1 "adjust SVG attributes").
            for (unsigned i = 0; i < el.attributes.length; ++i) {
                const auto *a = static_cast<const GumboAttribute *>(el.attributes.data[i]);
                const QString name = QString::fromUtf8(a->name);
                // Namespace declarations are the writer's: it declares SVG's and XLink's.
                if (name != QLatin1String("style") && name != QLatin1String("xmlns")
                    && a->attr_namespace != GUMBO_ATTR_NAMESPACE_XMLNS)
                    props.insert(svgAttributeName(*a, name), QString::fromUtf8(a->value));
            }
        }
        // `tw` is the Tailwind class string a `root` element's tw prop holds (tailwind.h).
        for (const char *name : {"src", "width", "height", "dir", "lang", "id", "tw"})
            if (const GumboAttribute *a = gumbo_get_attribute(&el.attributes, name); a && !svg)
                props.insert(QLatin1String(name), QString::fromUtf8(a->value));
        // `class` is React's className, which the template's stylesheets match.
        if (const GumboAttribute *a = gumbo_get_attribute(&el.attributes, "class"))
            props.insert(QStringLiteral("className"), QString::fromUtf8(a->value));
        QJsonArray kids;
        if (!children(el.children, depth, &kids))
            return false;
        // Merge neighbouring strings (text around a <br>) as React would render them.
        QJsonArray merged;
        for (const QJsonValue &k : kids) {
            if (k.isString() && !merged.isEmpty() && merged.last().isString())
                merged.replace(merged.size() - 1, merged.last().toString() + k.toString());
            else
                merged.append(k);
        }
        if (merged.size() == 1)
            props.insert(QStringLiteral("children"), merged.first());
        else if (!merged.isEmpty())
            props.insert(QStringLiteral("children"), merged);
        *out = QJsonObject{{QStringLiteral("type"), tag}, {QStringLiteral("props"), props}};
        return true;
    }

    void fail(RenderErrorCode code, const QString &message)
    {
        if (m_error)
            *m_error = {QStringLiteral("markup"), message, code};
    }

private:
    bool count()
    {
        if (++m_nodes > m_limits.maxNodes) {
            fail(RenderErrorCode::TooManyNodes, QStringLiteral("markup has more than %1 nodes").arg(m_limits.maxNodes));
            return false;
        }
        return true;
    }

    const TemplateLimits &m_limits;
    RenderError *m_error;
    QStringList *m_warnings;
    int m_nodes = 0;
};

const GumboNode *findBody(const GumboNode *html)
{
    if (!html || html->type != GUMBO_NODE_ELEMENT)
        return nullptr;
    const GumboVector &kids = html->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) {
        const auto *n = static_cast<const GumboNode *>(kids.data[i]);
        if (n->type == GUMBO_NODE_ELEMENT && n->v.element.tag == GUMBO_TAG_BODY)
            return n;
    }
    return nullptr;
}

} // namespace

QJsonObject parseStyleAttribute(const QString &style)
{
    QJsonObject out;
    for (const css::Declaration &d : css::parseDeclarationList(style))
        out.insert(d.name, d.value);
    return out;
}

namespace {

using GumboTree = std::unique_ptr<GumboOutput, void (*)(GumboOutput *)>;

/// Parses `utf8` with libgumbo. Parse errors are not recorded: we never read them, and
/// gumbo keeps a copy of the open-element stack with each one, which is quadratic in
/// nesting depth. The tree's `original_*` pieces point into `utf8`: it must outlive the tree.
GumboTree parseHtml(const QByteArray &utf8)
{
    static const GumboOptions options = [] {
        GumboOptions o = kGumboDefaultOptions;
        o.max_errors = 0;
        return o;
    }();
    return GumboTree(gumbo_parse_with_options(&options, utf8.constData(), size_t(utf8.size())),
                     [](GumboOutput *o) { gumbo_destroy_output(&options, o); });
}

HtmlNesting measureNesting(const GumboNode *node)
{
    // Iterative: the depth is what is being measured, so it must not cost stack.
    HtmlNesting deepest;
    struct Entry {
        const GumboNode *node;
        int depth, tables;
    };
    std::vector<Entry> stack{{node, 0, 0}};
    while (!stack.empty()) {
        const Entry e = stack.back();
        stack.pop_back();
        deepest.depth = std::max(deepest.depth, e.depth);
        deepest.tables = std::max(deepest.tables, e.tables);
        const GumboVector &children = e.node->v.element.children;
        for (unsigned i = 0; i < children.length; ++i) {
            const auto *child = static_cast<const GumboNode *>(children.data[i]);
            if (child->type == GUMBO_NODE_ELEMENT)
                stack.push_back({child, e.depth + 1, e.tables + (child->v.element.tag == GUMBO_TAG_TABLE ? 1 : 0)});
        }
    }
    return deepest;
}

} // namespace

qsizetype countStartTags(QStringView html)
{
    qsizetype count = 0;
    for (qsizetype i = 0; i + 1 < html.size(); ++i) {
        if (html[i] != u'<')
            continue;
        const char16_t c = html[i + 1].unicode();
        if ((c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z'))
            ++count;
    }
    return count;
}

std::optional<HtmlNesting> htmlNesting(const QString &html, int maxElements)
{
    if (countStartTags(html) > maxElements)
        return std::nullopt;
    const QByteArray utf8 = html.toUtf8(); // outlives the tree, which points into it
    const GumboTree output = parseHtml(utf8);
    const GumboNode *body = output ? findBody(output->root) : nullptr;
    return body ? measureNesting(body) : HtmlNesting{};
}

common::Expected<QJsonObject, RenderError> markupToTree(const QString &markup, const TemplateLimits &limits,
                                                        QStringList *warnings)
{
    RenderError error;
    Converter converter(limits, &error, warnings);
    if (const qsizetype tags = countStartTags(markup); tags > limits.maxNodes) {
        converter.fail(RenderErrorCode::TooManyNodes,
                       QStringLiteral("markup has %1 elements; at most %2 are allowed").arg(tags).arg(limits.maxNodes));
        return error;
    }
    const QByteArray utf8 = markup.toUtf8(); // outlives the tree, which points into it
    const GumboTree output = parseHtml(utf8);
    const GumboNode *body = output ? findBody(output->root) : nullptr;
    if (!body) {
        converter.fail(RenderErrorCode::InvalidTemplate, QStringLiteral("markup has no body content"));
        return error;
    }
    QJsonArray top;
    if (!converter.children(body->v.element.children, 0, &top))
        return error;
    if (top.isEmpty()) {
        converter.fail(RenderErrorCode::InvalidTemplate, QStringLiteral("markup has no elements"));
        return error;
    }
    if (top.size() == 1 && top.first().isObject())
        return top.first().toObject();
    // Several top-level nodes share one flex root, as a JSX fragment would need a wrapper.
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("div")},
                       {QStringLiteral("props"), QJsonObject{{QStringLiteral("children"), top}}}};
}

} // namespace imprint::render
