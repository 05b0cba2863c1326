// Templates: parsing, variable resolution and the styled document tree (docs/templates.md).

#include "server/render/document/template.h"
#include "server/render/document/template_variables.h"
#include "server/render/css/parse.h"
#include "server/render/document/inline_svg.h"
#include "server/render/document/markup.h"
#include "server/render/engine.h"
#include "server/render/resources/emoji.h"
#include "server/render/resources/image_decoder.h"
#include "server/render/style/stylesheet.h"

#include <QByteArray>
#include <QJsonArray>
#include <QRegularExpression>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <limits>

namespace imprint::render {

using template_detail::makeError;
using template_detail::parseVariables;
using template_detail::setError;

namespace {

/// An output size: a positive number of px, as a JSON number or a "1200"/"1200px" string,
/// rounded up. Sizes past the largest int are held at it: how large is too large is the
/// plan's call (402) or the pipeline's 8192 px bound, not a parse error.
std::optional<int> sizeValue(const QJsonValue &v)
{
    double d = 0;
    if (v.isDouble()) {
        d = v.toDouble();
    } else if (v.isString()) {
        auto n = css::numberWithUnit(v.toString(), QLatin1StringView("px"));
        if (!n)
            n = css::number(v.toString());
        if (!n)
            return std::nullopt;
        d = *n;
    } else {
        return std::nullopt;
    }
    // A fractional size is the root's layout size; the image is whole pixels, rounded up.
    if (!std::isfinite(d) || d <= 0)
        return std::nullopt;
    return int(std::min(std::ceil(d), double(std::numeric_limits<int>::max())));
}

/// `{{ name }}`: names as variables allow (letters, digits, _ . -).
const QRegularExpression &placeholderPattern()
{
    static const QRegularExpression re(QStringLiteral("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_.\\-]*)\\s*\\}\\}"));
    return re;
}

/// Replaces known placeholders by their value as plain text, in one pass so a value that
/// itself contains `{{x}}` is not expanded again. Unknown placeholders stay as written,
/// so a typo shows in the image instead of silently vanishing.
QString substitute(const QString &text, const QHash<QString, QString> &values)
{
    if (!text.contains(QLatin1String("{{")))
        return text;
    QString out;
    qsizetype last = 0;
    auto it = placeholderPattern().globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        auto v = values.constFind(m.captured(1));
        if (v == values.constEnd())
            continue;
        out += QStringView(text).mid(last, m.capturedStart() - last);
        out += *v;
        last = m.capturedEnd();
    }
    out += QStringView(text).mid(last);
    return out;
}

/// One child of an element after React's flattening: a run of text or an element.
struct Child {
    QJsonValue value; // string (merged text) or object
    QString path; // field path of the (first) JSON value
};

/// React's children semantics: arrays flatten, null/undefined/booleans render nothing,
/// numbers render as text, adjacent strings form one text node.
void flattenChildren(const QJsonValue &v, const QString &path, std::vector<Child> *out)
{
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            flattenChildren(a.at(i), QStringLiteral("%1[%2]").arg(path).arg(i), out);
        return;
    }
    if (v.isNull() || v.isUndefined() || v.isBool())
        return;
    QString text;
    if (v.isString())
        text = v.toString();
    else if (v.isDouble())
        text = QString::number(v.toDouble(), 'g', 15);
    else {
        out->push_back({v, path});
        return;
    }
    if (text.isEmpty())
        return;
    if (!out->empty() && out->back().value.isString())
        out->back().value = out->back().value.toString() + text;
    else
        out->push_back({text, path});
}

/// In a flex or grid container, a run of text and `br` children is one anonymous item
/// (CSS Flexbox 1 §4: contiguous text runs; Chromium's br is text, LayoutBR): the run
/// becomes one text node whose line breaks are U+2028, which the text module breaks at as
/// it does at a br. A br alone stays an element (laid out as one empty line). Text runs
/// lifted out of a `display: contents` child keep their own style and are not joined.
void joinTextAndLineBreaks(Node &container)
{
    auto joinable = [&](const Node &n) {
        if (n.isText())
            return n.id == container.id;
        return n.tag == QLatin1String("br") && n.style.display != Display::None && !n.style.isOutOfFlow()
               && n.id.section(u'.', 0, -2) == container.id;
    };
    auto &children = container.children;
    std::vector<std::unique_ptr<Node>> joined;
    for (size_t i = 0; i < children.size();) {
        size_t end = i;
        bool hasBreak = false;
        while (end < children.size() && joinable(*children[end])) {
            hasBreak = hasBreak || !children[end]->isText();
            ++end;
        }
        if (end - i < 2 || !hasBreak) {
            joined.push_back(std::move(children[i]));
            ++i;
            continue;
        }
        std::unique_ptr<Node> run;
        QString text;
        for (size_t k = i; k < end; ++k) {
            if (children[k]->isText()) {
                text += children[k]->text;
                if (!run)
                    run = std::move(children[k]);
            } else {
                text += QChar::LineSeparator;
            }
        }
        if (!run) { // only line breaks: a text node styled as the container's text
            run = std::make_unique<Node>();
            run->kind = Node::Kind::Text;
            run->id = container.id;
            run->style = inheritedStyle(container.style);
        }
        run->text = text;
        joined.push_back(std::move(run));
        i = end;
    }
    children = std::move(joined);
}

/// The tree walk shared by validation (parseTemplate) and building (buildDocument).
class TreeWalker
{
public:
    TreeWalker(const TemplateLimits &limits, RenderError *error)
        : m_limits(limits)
        , m_error(error)
    { }

    // Building inputs; when `build` is false only the structure and limits are checked.
    bool build = false;
    const QHash<QString, QString> *values = nullptr;
    QStringList *warnings = nullptr;
    const ImageLoader *loader = nullptr;
    const TailwindTheme *tailwind = nullptr; ///< the template's theme extension for `tw`
    bool usesTailwind = false; ///< out: an element has a `tw` prop
    QSizeF viewport; ///< px, for viewport-percentage lengths; a 0 side is content-sized
    const StyleSheet *sheet = nullptr; ///< the template's style sheets, when it has any
    QString documentLang; ///< the template's `lang`, the root's unless it sets one
    QJsonValue documentRoot; ///< the whole tree, for `#id` references across inline svgs

    /// `context`: where the element sits, for the style sheets' selectors (nullptr when
    /// there are none). `parentRule`: the parent's `tw` declarations for its children but
    /// the last (TailwindDeclarations::notLastChild), when this element is one of those.
    /// `siblings`: its place among its parent's element children, for `tw`'s structural
    /// variants (`first:`, `odd:`).
    std::unique_ptr<Node> element(const QJsonValue &value, const QString &path, const QString &id,
                                  const ComputedStyle *parent, float rootFontSize, int depth,
                                  const MatchContext *context = nullptr, const QJsonObject *parentRule = nullptr,
                                  TailwindSiblings siblings = {});

private:
    /// An img's or inline svg's width/height attributes as size hints; an img's source
    /// loaded and decoded.
    void replacedElement(Node &node, const QJsonObject &props, const QJsonObject &style, const QString &path,
                         float rootFontSize);
    /// An inline `<svg>`'s subtree written as an SVG document (inline_svg.h) and decoded
    /// as its image; its elements counted. False when a template limit was reached.
    bool inlineSvg(Node &node, const QJsonObject &props, const QString &path, const QJsonObject &paint,
                   const QJsonObject &inheritedPaint);

private:
    bool fail(const QString &field, const QString &message, RenderErrorCode code = RenderErrorCode::InvalidTemplate)
    {
        setError(m_error, makeError(field, message, code));
        return false;
    }
    bool count(const QString &path)
    {
        if (++m_nodes > m_limits.maxNodes)
            return fail(path, QStringLiteral("the template has more than %1 nodes").arg(m_limits.maxNodes),
                        RenderErrorCode::TooManyNodes);
        return true;
    }
    QString text(const QString &s) const { return values ? substitute(s, *values) : s; }
    void warn(const QString &message)
    {
        if (warnings)
            warnings->append(message);
    }

    /// The element with `id` in any inline `<svg>` of documentRoot, first in document
    /// order; the index is built on the first call (most templates never ask).
    std::optional<QJsonObject> svgElementById(const QString &id)
    {
        if (!m_svgIds) {
            m_svgIds.emplace();
            std::function<void(const QJsonValue &, bool)> walk = [&](const QJsonValue &v, bool inSvg) {
                if (v.isArray()) {
                    for (const QJsonValue &c : v.toArray())
                        walk(c, inSvg);
                    return;
                }
                if (!v.isObject())
                    return;
                const QJsonObject el = v.toObject();
                const QJsonObject props = el.value(QLatin1String("props")).toObject();
                inSvg = inSvg || el.value(QLatin1String("type")).toString().trimmed() == QLatin1String("svg");
                if (const QJsonValue id = props.value(QLatin1String("id")); inSvg && id.isString()
                                                                            && !m_svgIds->contains(id.toString()))
                    m_svgIds->insert(id.toString(), el);
                walk(props.value(QLatin1String("children")), inSvg);
            };
            walk(documentRoot, false);
        }
        const auto it = m_svgIds->constFind(id);
        return it == m_svgIds->constEnd() ? std::nullopt : std::optional<QJsonObject>(*it);
    }

    const TemplateLimits &m_limits;
    RenderError *m_error;
    int m_nodes = 0;
    std::optional<QHash<QString, QJsonObject>> m_svgIds;
};

/// What selectors see of the element `value` (tag, `id`, `className` or `class`, string
/// attributes), with placeholders in the attributes substituted.
SelectorSubject selectorSubject(const QJsonValue &value, const QHash<QString, QString> *values)
{
    SelectorSubject s;
    const QJsonObject obj = value.toObject();
    s.tag = obj.value(QLatin1String("type")).toString().trimmed().toLower();
    const QJsonObject props = obj.value(QLatin1String("props")).toObject();
    auto text = [values](const QString &v) { return values ? substitute(v, *values) : v; };
    for (auto it = props.constBegin(); it != props.constEnd(); ++it) {
        if (!it->isString() && !it->isDouble())
            continue;
        const QString v = it->isString() ? text(it->toString()) : QString::number(it->toDouble(), 'g', 15);
        const QString name = it.key().toLower();
        if (name == QLatin1String("classname") || name == QLatin1String("class"))
            s.classes << splitClasses(v);
        else if (name == QLatin1String("id"))
            s.id = v;
        else if (name != QLatin1String("children") && name != QLatin1String("style"))
            s.attributes.insert(name, v);
    }
    return s;
}

std::unique_ptr<Node> TreeWalker::element(const QJsonValue &value, const QString &path, const QString &id,
                                          const ComputedStyle *parent, float rootFontSize, int depth,
                                          const MatchContext *context, const QJsonObject *parentRule,
                                          TailwindSiblings siblings)
{
    if (depth > m_limits.maxDepth) {
        fail(path, QStringLiteral("elements nest deeper than %1").arg(m_limits.maxDepth), RenderErrorCode::TooDeep);
        return nullptr;
    }
    if (!value.isObject()) {
        fail(path, QStringLiteral("expected an element object"));
        return nullptr;
    }
    if (!count(path))
        return nullptr;
    const QJsonObject obj = value.toObject();
    const QJsonValue type = obj.value(QLatin1String("type"));
    if (!type.isString() || type.toString().trimmed().isEmpty()) {
        fail(path + QLatin1String(".type"), QStringLiteral("an element needs a tag name in \"type\""));
        return nullptr;
    }
    // An optional member may be absent or null; of another type it fails the element.
    const auto wrongType = [&](const QJsonValue &member, bool (QJsonValue::*isType)() const, QLatin1StringView at,
                               const QString &message) {
        if (member.isUndefined() || member.isNull() || (member.*isType)())
            return false;
        fail(path + at, message);
        return true;
    };
    const QJsonValue propsValue = obj.value(QLatin1String("props"));
    if (wrongType(propsValue, &QJsonValue::isObject, QLatin1String(".props"),
                  QStringLiteral("props must be an object")))
        return nullptr;
    const QJsonObject props = propsValue.toObject();
    const QJsonValue styleValue = props.value(QLatin1String("style"));
    if (wrongType(styleValue, &QJsonValue::isObject, QLatin1String(".props.style"),
                  QStringLiteral("style must be an object")))
        return nullptr;
    const QJsonValue twValue = props.value(QLatin1String("tw"));
    if (wrongType(twValue, &QJsonValue::isString, QLatin1String(".props.tw"),
                  QStringLiteral("tw must be a string of Tailwind classes")))
        return nullptr;
    usesTailwind = usesTailwind || twValue.isString();

    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::Element;
    node->tag = type.toString().trimmed().toLower();
    node->id = id;
    const bool isImg = node->tag == QLatin1String("img");
    const bool isSvg = node->tag == QLatin1String("svg");

    TailwindDeclarations tw;
    QJsonObject svgPaint, inheritedPaint; // an svg's own cascaded paint properties, its parent's
    if (build) {
        QJsonObject style = styleValue.toObject();
        if (sheet && context)
            style = sheet->cascade(*context, style); // CSS Cascade 4: sheets under inline style;
        // Tailwind utilities are a layer, so below both (next)
        // Tailwind (tailwind.h): the `tw` classes, then the preflight, under the style object.
        if (tailwind && tailwind->used) {
            if (twValue.isString())
                tw = expandTailwind(text(twValue.toString()), *tailwind, viewport.width(),
                                    path + QLatin1String(".props.tw"), warnings, siblings);
            const bool rtl = directionIsRtl(style, props, parent && parent->direction == Direction::Rtl);
            mergeTailwind(&style, tw.element, parentRule ? physicalSides(*parentRule, rtl) : QJsonObject(),
                          tailwindPreflight(node->tag, !parent, *tailwind, parent ? parent->fontWeight : 400));
        }
        // Placeholders take their variables' values, then viewport units become px
        // (css::resolveViewportUnits()). Only the values that change are written back:
        // writing through a mutable iterator would deep-copy every style object of every
        // render.
        const bool viewportKnown = viewport.width() > 0 || viewport.height() > 0;
        QList<std::pair<QString, QString>> changed;
        for (auto it = style.constBegin(); it != style.constEnd(); ++it) {
            if (!it->isString())
                continue;
            const QString written = it->toString();
            QString v = values && written.contains(QLatin1String("{{")) ? text(written) : written;
            if (viewportKnown && v.contains(u'v', Qt::CaseInsensitive))
                v = css::resolveViewportUnits(v, viewport);
            if (v != written)
                changed.append({it.key(), v});
        }
        for (const auto &[key, value] : changed)
            style.insert(key, value);
        // The dir attribute is a presentational hint for `direction` (HTML §15.3.3,
        // [dir=rtl i] { direction: rtl }); a declared direction wins.
        const QString dir = props.value(QLatin1String("dir")).toString().trimmed().toLower();
        if ((dir == QLatin1String("rtl") || dir == QLatin1String("ltr")) && !style.contains(QLatin1String("direction")))
            style.insert(QStringLiteral("direction"), dir);
        // `color` is one of an svg's presentation attributes (SVG 2 §6.6): `<svg
        // color="#7c3aed">` is the colour its currentColor takes; a declared one wins.
        if (const QJsonValue color = props.value(QLatin1String("color"));
            isSvg && color.isString() && !style.contains(QLatin1String("color"))) {
            const QString value = text(color.toString());
            if (parseColor(value, QColor()))
                style.insert(QStringLiteral("color"), value);
            else // ignored, as Chromium ignores a presentation attribute it cannot parse
                warn(QStringLiteral("%1.props.color: invalid colour \"%2\"").arg(path, value.left(40)));
        }
        const QString stylePath = path + QLatin1String(".props.style");
        node->style = computeStyle(style, parent, node->tag, rootFontSize, stylePath, warnings);
        // lang (HTML §3.2.6.2): the element's own, else inherited (computeStyle() copied
        // the parent's), the root's from the template. A malformed tag is the unknown
        // language, as browsers read it, with a warning.
        if (const QJsonValue lang = props.value(QLatin1String("lang")); lang.isString()) {
            const QString tag = text(lang.toString()).trimmed();
            const bool wellFormed = isLanguageTag(tag);
            node->style.lang = wellFormed ? tag : QString();
            if (!wellFormed)
                warn(QStringLiteral("%1.props.lang: '%2' is not a language tag").arg(path, tag.left(40)));
        } else if (!parent) {
            node->style.lang = documentLang;
        }
        // display: contents on a replaced element is none (CSS Display 3 §2.5, Appendix B);
        // the root has to generate a box, the image.
        if (node->style.display == Display::Contents)
            node->style.display = isImg || isSvg ? Display::None : parent ? Display::Contents : Display::Flex;
        if (isImg || isSvg)
            replacedElement(*node, props, style, path, rootFontSize);
        if (isSvg) {
            // Its own declarations win over its attributes; what it inherits loses to them.
            for (auto it = style.constBegin(); it != style.constEnd(); ++it)
                if (const QJsonValue v = node->style.svgPaint.value(it.key()); !v.isUndefined())
                    svgPaint.insert(it.key(), v);
            if (parent)
                inheritedPaint = parent->svgPaint;
            // Its text inherits the font of the HTML around it; its own declarations win
            // over the font attributes, as for paint.
            const QJsonObject font = inlineSvgFont(node->style);
            for (auto it = font.constBegin(); it != font.constEnd(); ++it)
                (style.contains(it.key()) ? svgPaint : inheritedPaint).insert(it.key(), it.value());
        }
    }
    if (isSvg) // its subtree is the image
        return inlineSvg(*node, props, path, svgPaint, inheritedPaint) ? std::move(node) : nullptr;
    if (isImg)
        return node; // an img's children render nothing

    std::vector<Child> children;
    const QJsonValue childrenValue = props.value(QLatin1String("children"));
    flattenChildren(childrenValue, path + QLatin1String(".props.children"), &children);
    // `rem` is the font size of the page's root, `<html>`, which no template element is:
    // 16 px, as in Chromium (the template's root is a box inside the page), satori and
    // takumi. A fontSize on the template's root does not change it.
    const float childRem = rootFontSize;
    // The element children as selectors see them, for sibling and :nth-child() tests.
    std::vector<SelectorSubject> subjects;
    std::vector<qsizetype> subjectOf(children.size(), -1);
    if (build && sheet) {
        for (size_t k = 0; k < children.size(); ++k)
            if (children[k].value.isObject()) {
                subjectOf[k] = qsizetype(subjects.size());
                subjects.push_back(selectorSubject(children[k].value, values));
            }
    }
    size_t lastElement = children.size(); // `:last-child` counts elements only
    int elementCount = 0;
    for (size_t k = 0; k < children.size(); ++k)
        if (children[k].value.isObject()) {
            lastElement = k;
            ++elementCount;
        }
    int elementIndex = 0;
    // ids count every rendered child, text runs included (the index a child has among
    // its parent's child nodes in the DOM Chromium laid out).
    int index = 0;
    for (size_t k = 0; k < children.size(); ++k) {
        const Child &c = children[k];
        const QString childId = id + QLatin1Char('.') + QString::number(index++);
        if (c.value.isString()) {
            if (!count(c.path))
                return nullptr;
            if (build) {
                auto run = std::make_unique<Node>();
                run->kind = Node::Kind::Text;
                run->id = id;
                run->text = text(c.value.toString());
                run->style = inheritedStyle(node->style);
                node->children.push_back(std::move(run));
            }
            continue;
        }
        std::optional<MatchContext> childContext;
        if (subjectOf[k] >= 0)
            childContext = MatchContext{&subjects[size_t(subjectOf[k])], context, subjects, subjectOf[k]};
        auto child = element(c.value, c.path, childId, &node->style, childRem, depth + 1,
                             childContext ? &*childContext : nullptr,
                             k != lastElement && !tw.notLastChild.isEmpty() ? &tw.notLastChild : nullptr,
                             TailwindSiblings{elementIndex++, elementCount});
        if (!child)
            return nullptr;
        if (!build)
            continue;
        if (child->style.display == Display::Contents) {
            // CSS Display 3 §2.5: the element generates no box; its children (which
            // inherited its style and keep their own ids) take its place.
            for (auto &grandchild : child->children)
                node->children.push_back(std::move(grandchild));
            continue;
        }
        node->children.push_back(std::move(child));
    }
    if (build && (node->style.display == Display::Flex || node->style.display == Display::Grid))
        joinTextAndLineBreaks(*node);
    return node;
}

/// Whether an element of the tree `element` (markupToTree()'s shape) has a `tw` prop.
bool hasTwProp(const QJsonObject &element)
{
    const QJsonObject props = element.value(QLatin1String("props")).toObject();
    if (props.value(QLatin1String("tw")).isString())
        return true;
    const QJsonValue children = props.value(QLatin1String("children"));
    if (children.isObject())
        return hasTwProp(children.toObject());
    const QJsonArray list = children.toArray();
    return std::any_of(list.begin(), list.end(), [](const QJsonValue &c) { return hasTwProp(c.toObject()); });
}

/// Reads the template's `stylesheets` (an array of CSS texts) into `t`; false with
/// `error` naming the entry when it is not a string or over the limits. The CSS itself is
/// parsed at render time, where what it cannot use becomes a warning.
bool parseStylesheets(const QJsonObject &document, Template &t, const TemplateLimits &limits, RenderError *error)
{
    const QJsonValue v = document.value(QLatin1String("stylesheets"));
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isArray()) {
        setError(error, makeError(QStringLiteral("stylesheets"), QStringLiteral("must be an array of CSS texts")));
        return false;
    }
    const QJsonArray sheets = v.toArray();
    if (sheets.size() > limits.maxStylesheets) {
        setError(error, makeError(QStringLiteral("stylesheets"),
                                  QStringLiteral("at most %1 style sheets are allowed").arg(limits.maxStylesheets)));
        return false;
    }
    for (qsizetype i = 0; i < sheets.size(); ++i) {
        const QString field = QStringLiteral("stylesheets[%1]").arg(i);
        if (!sheets.at(i).isString()) {
            setError(error, makeError(field, QStringLiteral("must be a string of CSS")));
            return false;
        }
        if (sheets.at(i).toString().size() > limits.maxStylesheetChars) {
            setError(error, makeError(field, QStringLiteral("is longer than %1 characters")
                                                 .arg(limits.maxStylesheetChars)));
            return false;
        }
        t.stylesheets << sheets.at(i).toString();
    }
    return true;
}

void TreeWalker::replacedElement(Node &node, const QJsonObject &props, const QJsonObject &style, const QString &path,
                                 float rootFontSize)
{
    // The width/height attributes are presentational hints (HTML §15.4.3, and SVG 2
    // §8.1's for an inline <svg>): they size the element when the style does not.
    for (const char *attr : {"width", "height"}) {
        const QJsonValue a = props.value(QLatin1String(attr));
        if (a.isUndefined() || a.isNull())
            continue;
        const QString v = a.isDouble() ? QString::number(a.toDouble(), 'g', 10) : text(a.toString());
        const bool isWidth = attr[0] == 'w';
        Length &target = isWidth ? node.style.width : node.style.height;
        if (!style.contains(QLatin1String(attr))) {
            auto l = css::lengthPercentage(v, node.style.fontSize, rootFontSize);
            if (l && l->value >= 0)
                target = *l;
            else
                warn(QStringLiteral("%1.props.%2: invalid length \"%3\"").arg(path, QLatin1String(attr), v));
        }
    }
    if (node.tag == QLatin1String("svg"))
        return; // drawn from its subtree: inlineSvg()
    const QJsonValue src = props.value(QLatin1String("src"));
    node.src = src.isString() ? text(src.toString()).trimmed() : QString();
    node.srcField = path + QLatin1String(".props.src");
    if (!node.src.isEmpty()) {
        const ImageResult image = loader && *loader ? (*loader)(node.src) : decodeDataUrlImage(node.src);
        node.image = image.value_or(QImage());
        if (node.image.isNull()) {
            const QString why = image.error_or(QString());
            warn(QStringLiteral("%1.props.src: %2").arg(path, why.isEmpty() ? QStringLiteral("image not loaded") : why));
        }
    } else {
        warn(QStringLiteral("%1.props.src: no image source").arg(path));
    }
}

bool TreeWalker::inlineSvg(Node &node, const QJsonObject &props, const QString &path, const QJsonObject &paint,
                           const QJsonObject &inheritedPaint)
{
    InlineSvgWriter writer;
    writer.count = [this](const QString &p) { return count(p); };
    writer.warnings = warnings;
    writer.maxDepth = m_limits.maxDepth;
    if (!build) // validation: the subtree's elements count against the node limit
        return !inlineSvgDocument(props, path, writer).isEmpty();
    writer.text = [this](const QString &s) { return text(s); };
    // Chromium's natural size (inlineSvgNaturalSize()); with neither width nor height but
    // a viewBox, the element fills its container's width less its margins (SVG 2: width
    // auto is 100 %; Chromium fills the available width, as CSS Sizing 4's `stretch`,
    // in a block, a flex row or column and a centred column alike).
    const std::optional<QRectF> viewBox = inlineSvgViewBox(props);
    auto px = [](const Length &l) { return l.type == Length::Type::Px ? qreal(l.value) : -1.0; };
    if (viewBox && node.style.width.isAuto() && node.style.height.isAuto()) {
        node.ratioOnly = true;
        node.style.width = Length::stretch();
    }
    writer.naturalSize = inlineSvgNaturalSize(px(node.style.width), px(node.style.height), viewBox);
    writer.color = node.style.color;
    writer.rootPaint = paint;
    writer.inheritedPaint = inheritedPaint;
    writer.idPrefix = QStringLiteral("i%1-").arg(QString(node.id).replace(u'.', u'_'));
    writer.documentDefinition = [this](const QString &id) { return svgElementById(id); };
    const QByteArray document = inlineSvgDocument(props, path, writer);
    if (document.isEmpty())
        return false;
    const ImageResult image = decodeInlineSvg(document);
    node.image = image.value_or(QImage());
    if (node.image.isNull())
        warn(QStringLiteral("%1: inline <svg> not drawn: %2").arg(path, image.error_or(QString())));
    return true;
}

/// Whether `document` is a bare React-element tree (`{"type": "div", "props": …}`), not a
/// template document.
bool isBareElement(const QJsonObject &document)
{
    return document.contains(QLatin1String("type")) && !document.contains(QLatin1String("root"))
           && !document.contains(QLatin1String("markup"));
}

/// The size `side` ("width" or "height") a template document declares: its own member,
/// else its root element's style (a bare element tree: its own style). `*field` names
/// where it was read, for errors.
QJsonValue declaredSide(const QJsonObject &document, QLatin1StringView side, QString *field)
{
    const bool bare = isBareElement(document);
    *field = side;
    const QJsonValue v = bare ? QJsonValue() : document.value(side);
    if (!v.isUndefined() && !v.isNull())
        return v;
    *field = QStringLiteral("root.props.style.") + side;
    const QJsonValue root = bare ? QJsonValue(document) : document.value(QLatin1String("root"));
    return root.toObject().value(QLatin1String("props")).toObject().value(QLatin1String("style")).toObject().value(side);
}

/// Whether a declared side `v` read from `field` leaves the image as big as its content:
/// the pipeline sizes the image to the root (pipeline.h), which is how layout also reads
/// a root whose size is an intrinsic keyword.
bool isContentSized(const QJsonValue &v, const QString &field)
{
    return v.isUndefined() || v.isNull() || (v.isString() && v.toString().trimmed() == QLatin1String("auto"))
           || (v.isString() && field.startsWith(QLatin1String("root.")) && parseSizeKeyword(v.toString()));
}

} // namespace

std::optional<int> templateImageSide(const QJsonObject &document, QLatin1StringView side)
{
    QString field;
    const QJsonValue v = declaredSide(document, side, &field);
    return isContentSized(v, field) ? std::nullopt : sizeValue(v);
}

namespace {

/// parseTemplate() with its error in `*error`.
std::optional<Template> parseTemplateInto(const QJsonObject &document, RenderError *error, const TemplateLimits &limits)
{
    Template t;
    t.source = document;
    const bool bare = isBareElement(document);
    if (bare) {
        t.root = document;
    } else {
        const QJsonValue name = document.value(QLatin1String("name"));
        if (name.isString())
            t.name = name.toString();
        // The engine and emoji-set names are checked with the renderer's own tables, so a
        // template that parses never fails on them at render time.
        auto named = [&](const QString &key, bool known, const QStringList &names, QString *out) {
            const QJsonValue v = document.value(key);
            if (v.isUndefined() || v.isNull())
                return true;
            if (!v.isString() || !known) {
                setError(error,
                         makeError(key, QStringLiteral("must be one of %1").arg(names.join(QLatin1String(", ")))));
                return false;
            }
            *out = v.toString();
            return true;
        };
        const QString renderer = document.value(QLatin1String("rendererType")).toString();
        const QString emoji = document.value(QLatin1String("emojiType")).toString();
        if (!named(QStringLiteral("rendererType"), parseEngine(renderer).has_value(), engineNames(), &t.rendererType)
            || !named(QStringLiteral("emojiType"), parseEmojiSet(emoji).has_value(), emojiSetNames(), &t.emojiType))
            return std::nullopt;
        // The PNG tiers' one table (render_enums.h), as the encoder reads them.
        const QString compression = document.value(QLatin1String("compression")).toString();
        if (!named(QStringLiteral("compression"), kPngCompressionNames.parse(compression).has_value(),
                   kPngCompressionNames.names(), &t.compression))
            return std::nullopt;
        if (document.contains(QLatin1String("rendererType")))
            t.engine = parseEngine(t.rendererType);
        t.emojiSet = parseEmojiSet(t.emojiType).value_or(EmojiSet::Twemoji);
        t.pngCompression = kPngCompressionNames.parse(t.compression);
        const QJsonValue root = document.value(QLatin1String("root"));
        if (!root.isUndefined() && !root.isNull()) {
            if (!root.isObject()) {
                setError(error, makeError(QStringLiteral("root"), QStringLiteral("root must be an element object")));
                return std::nullopt;
            }
            t.root = root;
        }
        for (const char *key : {"markup", "html"}) {
            const QJsonValue v = document.value(QLatin1String(key));
            if (v.isUndefined() || v.isNull())
                continue;
            if (!v.isString()) {
                setError(error, makeError(QLatin1String(key), QStringLiteral("must be a string")));
                return std::nullopt;
            }
            (key[0] == 'm' ? t.markup : t.html) = v.toString();
        }
        if (!parseStylesheets(document, t, limits, error))
            return std::nullopt;
        if (const QJsonValue lang = document.value(QLatin1String("lang")); !lang.isUndefined() && !lang.isNull()) {
            if (!lang.isString() || !isLanguageTag(lang.toString().trimmed())) {
                setError(error, makeError(QStringLiteral("lang"),
                                          QStringLiteral("must be a language tag such as \"en\", \"ja\" or \"zh-CN\"")));
                return std::nullopt;
            }
            t.lang = lang.toString().trimmed();
        }
        if (!t.root.isObject() && t.markup.isEmpty() && t.html.isEmpty()) {
            setError(error, makeError(QStringLiteral("root"), QStringLiteral("a template needs root, markup or html")));
            return std::nullopt;
        }

        if (!parseVariables(document, t, limits, error))
            return std::nullopt;
        auto theme = parseTailwindConfig(document.value(QLatin1String("tailwind")));
        if (!theme) {
            setError(error, theme.error());
            return std::nullopt;
        }
        t.tailwind = std::move(*theme);
    }

    // Size: the document's, else the root style's (satori takes it from the options).
    for (const char *key : {"width", "height"}) {
        QString field;
        const QJsonValue v = declaredSide(document, QLatin1StringView(key), &field);
        if (isContentSized(v, field))
            continue;
        auto size = sizeValue(v);
        if (!size) {
            setError(error,
                     makeError(field, QStringLiteral("%1 must be a number of px above 0, or left out for an image as "
                                                     "big as its content")
                                          .arg(QLatin1String(key))));
            return std::nullopt;
        }
        (key[0] == 'w' ? t.width : t.height) = *size;
    }

    // Structure and limits now, so a bad template is refused when it is saved.
    if (t.root.isObject()) {
        TreeWalker walker(limits, error);
        if (!walker.element(t.root, QStringLiteral("root"), QStringLiteral("0"), nullptr, 16, 1))
            return std::nullopt;
        t.tailwind.used = walker.usesTailwind;
    } else if (!t.markup.isEmpty()) {
        auto tree = markupToTree(t.markup, limits, nullptr);
        if (!tree) {
            setError(error, tree.error());
            return std::nullopt;
        }
        // A `tw` attribute asks for Tailwind (and its preflight), as a tw prop in a `root` does.
        t.tailwind.used = hasTwProp(*tree);
    }
    return t;
}

} // namespace

common::Expected<Template, RenderError> parseTemplate(const QJsonObject &document, const TemplateLimits &limits)
{
    RenderError error;
    auto t = parseTemplateInto(document, &error, limits);
    if (!t)
        return error;
    return std::move(*t);
}

bool isLanguageTag(const QString &tag)
{
    static const QRegularExpression shape(QStringLiteral("^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$"));
    return tag.isEmpty() || (tag.size() <= 35 && shape.match(tag).hasMatch());
}

common::Expected<std::unique_ptr<Node>, RenderError> buildDocument(const Template &tmpl,
                                                                   const QHash<QString, QString> &values,
                                                                   QStringList *warnings, const ImageLoader &loader,
                                                                   const TemplateLimits &limits, QSizeF viewport)
{
    QJsonValue root = tmpl.root;
    if (!root.isObject()) {
        if (tmpl.markup.isEmpty())
            return makeError(QStringLiteral("root"), QStringLiteral("the template has no root or markup"));
        auto tree = markupToTree(tmpl.markup, limits, warnings);
        if (!tree)
            return tree.error();
        root = *tree;
    }
    RenderError error;
    TreeWalker walker(limits, &error);
    walker.build = true;
    walker.values = &values;
    walker.warnings = warnings;
    walker.loader = &loader;
    walker.tailwind = &tmpl.tailwind;
    walker.viewport = viewport;
    walker.documentLang = tmpl.lang;
    walker.documentRoot = root;
    StyleSheet sheet;
    SelectorSubject rootSubject;
    MatchContext rootContext;
    if (!tmpl.stylesheets.isEmpty()) {
        sheet = StyleSheet::parse(tmpl.stylesheets, viewport, warnings);
        walker.sheet = &sheet;
        rootSubject = selectorSubject(root, &values);
        rootContext = MatchContext{&rootSubject, nullptr, std::span<const SelectorSubject>(&rootSubject, 1), 0};
    }
    auto built = walker.element(
        root, tmpl.markup.isEmpty() || tmpl.root.isObject() ? QStringLiteral("root") : QStringLiteral("markup"),
        QStringLiteral("0"), nullptr, 16, 1, walker.sheet ? &rootContext : nullptr);
    if (!built)
        return error;
    return built;
}

QString substituteVariables(const QString &text, const QHash<QString, QString> &values)
{
    return substitute(text, values);
}

} // namespace imprint::render
