#include "server/render/document/html_page.h"
#include "server/render/document/inline_svg.h"

#include "server/render/document/markup.h"
#include "server/render/resources/hyphenation.h"
#include "server/render/resources/svg_sanitizer.h"
#include "server/render/style/computed_style.h"

#include <QFont>
#include <QFontMetricsF>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

namespace imprint::render {

namespace {

/// Properties whose numbers have no unit (as React and scripts/chromium-oracle treat them).
bool isUnitless(const QString &prop)
{
    static const QSet<QString> unitless{
        QStringLiteral("flexGrow"),  QStringLiteral("flexShrink"),      QStringLiteral("opacity"),
        QStringLiteral("zIndex"),    QStringLiteral("fontWeight"),      QStringLiteral("lineHeight"),
        QStringLiteral("lineClamp"), QStringLiteral("WebkitLineClamp"), QStringLiteral("order"),
        QStringLiteral("flex"),      QStringLiteral("aspectRatio"),     QStringLiteral("scale"),
        QStringLiteral("tabSize")};
    return unitless.contains(prop);
}

/// Whether `style` makes its element a block container (`block`, `-webkit-box`,
/// `inline-block`): the only boxes line-clamp acts on, in our engines as in Chromium.
bool isBlockDisplay(const QJsonObject &style)
{
    const QString display = style.value(QLatin1String("display")).toString().trimmed();
    return display == QLatin1String("block") || display == QLatin1String("-webkit-box")
           || display == QLatin1String("inline-block");
}

/// camelCase → kebab-case; `Webkit…` → `-webkit-…`.
QString kebab(QString name)
{
    QString prefix;
    if (name.startsWith(QLatin1String("Webkit"))) {
        prefix = QStringLiteral("-");
        name = QStringLiteral("webkit") + name.mid(6);
    }
    QString out = prefix;
    for (const QChar c : name) {
        if (c.isUpper())
            out += u'-' + c.toLower();
        else
            out += c;
    }
    return out;
}

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

/// The advance of a Noto Color Emoji glyph in em: the room the JSON engines reserve for an
/// emoji cluster, which the image is centred in (emojiImageRect()).
qreal emojiAdvanceEm()
{
    static const qreal advance = [] {
        QFont font(emojiFontFamily());
        font.setPixelSize(100);
        const qreal a = QFontMetricsF(font).horizontalAdvance(QString(QChar(0xD83D)) + QChar(0xDE00)) / 100.0;
        const qreal used = a + emojiAdvanceCorrection(100) / 100; // as the JSON engines shape it
        return used >= 1.0 && used < 2.0 ? used : 1.0;
    }();
    return advance;
}

/// `text` (already HTML-escaped, so clusters are intact) with each emoji cluster as an
/// inline <img> of the set's SVG (PageEmoji).
QString withEmojiImages(const QString &text, const PageEmoji &emoji)
{
    if (emoji.set == EmojiSet::Noto || !emoji.library)
        return text;
    const auto clusters = findEmoji(text);
    if (clusters.empty())
        return text;
    const QString margin = number((emojiAdvanceEm() - 1.0) / 2.0) + QStringLiteral("em");
    QString out;
    qsizetype last = 0;
    for (const EmojiCluster &c : clusters) {
        const QStringView cluster = QStringView(text).mid(c.start, c.length);
        const auto image = emoji.library->image(cluster, emoji.set);
        if (!image) {
            const QString w
                = QStringLiteral("emojiType: no %1 image for %2 in %3; drawn with the Noto Color Emoji font")
                      .arg(emojiSetName(emoji.set), emojiCodepoints(cluster), emoji.library->directory());
            if (emoji.warnings && !emoji.warnings->contains(w))
                emoji.warnings->append(w);
            continue;
        }
        out += QStringView(text).mid(last, c.start - last);
        // alt keeps the cluster for copy and accessibility; the box is what emojiImageRect() draws.
        out += QStringLiteral("<img alt=\"%1\" src=\"data:image/svg+xml;base64,%2\" style=\"display:inline;width:1em;"
                              "height:1em;margin:0 %3;vertical-align:-0.1em\">")
                   .arg(cluster.toString(), QString::fromLatin1(image->source.toBase64()), margin);
        last = c.start + c.length;
    }
    out += QStringView(text).mid(last);
    return out;
}

/// The `html` template's text with emoji as images (withEmojiImages()) in text nodes only:
/// tags (quoted attribute values included), comments, doctype and the raw text of script,
/// style, textarea and title are copied as they are. A light scan of the HTML tokenizer's
/// states (https://html.spec.whatwg.org/#tokenization), enough to keep markup intact;
/// character references (&#x1F600;) stay to the browser's font.
QString htmlWithEmojiImages(const QString &html, const PageEmoji &emoji)
{
    if (emoji.set == EmojiSet::Noto || !emoji.library)
        return html;
    static const QRegularExpression rawText(QStringLiteral("^<(script|style|textarea|title|xmp|noscript)[\\s/>]"),
                                            QRegularExpression::CaseInsensitiveOption);
    QString out;
    out.reserve(html.size());
    const qsizetype n = html.size();
    qsizetype i = 0;
    qsizetype textStart = 0;
    auto flushText = [&](qsizetype end) { out += withEmojiImages(html.mid(textStart, end - textStart), emoji); };
    while (i < n) {
        if (html.at(i) != u'<' || i + 1 >= n
            || !(html.at(i + 1).isLetter() || html.at(i + 1) == u'/' || html.at(i + 1) == u'!'
                 || html.at(i + 1) == u'?')) {
            ++i;
            continue;
        }
        flushText(i);
        qsizetype end;
        if (QStringView(html).mid(i, 4) == QLatin1String("<!--")) {
            end = html.indexOf(QLatin1String("-->"), i + 4);
            end = end < 0 ? n : end + 3;
        } else {
            // A tag: to its '>' outside quotes.
            end = i + 1;
            QChar quote;
            for (; end < n; ++end) {
                const QChar c = html.at(end);
                if (!quote.isNull()) {
                    if (c == quote)
                        quote = QChar();
                } else if (c == u'"' || c == u'\'') {
                    quote = c;
                } else if (c == u'>') {
                    break;
                }
            }
            end = std::min(n, end + 1);
            const auto m = rawText.match(QStringView(html).mid(i, end - i));
            if (m.hasMatch()) {
                const qsizetype close = html.indexOf(QStringLiteral("</") + m.captured(1), end, Qt::CaseInsensitive);
                end = close < 0 ? n : close;
            }
        }
        out += QStringView(html).mid(i, end - i);
        i = textStart = end;
    }
    flushText(n);
    return out;
}

/// What a text child needs from its ancestors to be hyphenated as the layout engines
/// hyphenate it (resources/hyphenation.h): Debian's Chromium has no hyphenation
/// dictionary, so `hyphens: auto` text is written with its soft hyphens in place.
/// From inline styles and `tw` only; a template style sheet's `hyphens` is not seen.
struct Inherited {
    bool hyphenate = false; ///< computed `hyphens: auto`, not under an upper-casing transform
    QString lang; ///< the content language
    bool rtl = false; ///< the computed `direction` is rtl
};

struct Writer {
    const QHash<QString, QString> &values;
    const PageEmoji &emoji;
    QString out;
    /// The satori defaults (display:flex but on phrasing elements) are a zero-specificity
    /// rule in the head, not inline, so the template's stylesheets can override them.
    bool defaultsInSheet = false;
    const TailwindTheme *tailwind = nullptr; ///< the template's `tailwind` theme for `tw` props
    double viewportWidth = 0; ///< px, for Tailwind's responsive variants
    const QHash<QString, float> *fittedFontSizes = nullptr; ///< templatePageHtml()'s, by element id

    QString text(const QString &s) const { return substituteVariables(s, values); }

    QString cssValue(const QString &prop, const QJsonValue &v) const
    {
        if (v.isBool())
            return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        if (v.isDouble())
            return isUnitless(prop) ? number(v.toDouble()) : number(v.toDouble()) + QStringLiteral("px");
        return text(v.toString());
    }

    /// `fittedSize` > 0: the px font size our layout fitted the element's text at
    /// (`textFit: shrink-to-box`), written in place of its font size and text-fit.
    QString styleText(const QJsonObject &style, const QString &tag, float fittedSize = 0) const
    {
        QStringList decls;
        // The same defaults as our cascade: phrasing elements inline, everything else flex.
        if (!defaultsInSheet && !style.contains(QLatin1String("display")) && !isInlineTag(tag.toLower()))
            decls << QStringLiteral("display:flex");
        for (auto it = style.constBegin(); it != style.constEnd(); ++it) {
            if (it.key() == QLatin1String("lineClamp") && isBlockDisplay(style)) {
                // As our cascade: a count alone, else (satori's `3 "…"`) no clamp at all.
                static const QRegularExpression count(QStringLiteral("^\\s*[1-9][0-9]*\\s*$"));
                const QString lines = cssValue(it.key(), it.value());
                if (!count.match(lines).hasMatch())
                    continue;
                decls << QStringLiteral("-webkit-line-clamp:%1").arg(lines)
                      << (style.value(QLatin1String("display")).toString().trimmed() == QLatin1String("inline-block")
                              ? QStringLiteral("display:-webkit-inline-box")
                              : QStringLiteral("display:-webkit-box"))
                      << QStringLiteral("-webkit-box-orient:vertical")
                      << QStringLiteral("overflow:hidden");
                continue;
            }
            // Imprint's `textFit: shrink-to-box` has no CSS form: Chromium draws the size our
            // layout fitted, else its nearest, text-fit's inline-axis shrink (docs/templates.md,
            // "Text that fits its box").
            if (it.key() == QLatin1String("textFit")
                && it.value().toString().trimmed().startsWith(QLatin1String("shrink-to-box"), Qt::CaseInsensitive)) {
                if (fittedSize <= 0)
                    decls << QStringLiteral("text-fit:shrink");
                continue;
            }
            if (fittedSize > 0 && it.key() == QLatin1String("fontSize"))
                continue;
            decls << kebab(it.key()) + u':' + cssValue(it.key(), it.value());
        }
        if (fittedSize > 0)
            decls << QStringLiteral("font-size:") + number(fittedSize) + QStringLiteral("px");
        return decls.join(u';');
    }

    /// An inline `<svg>` as SVG markup in the page, through the same writer and sanitiser
    /// as the layout engines' (inline_svg.h), so Chromium draws what they draw; its
    /// `currentColor` and size are left to Chromium. A subtree the sanitiser refuses
    /// leaves an empty svg (the layout engines warn about it).
    void inlineSvg(const QJsonObject &props, const QString &id, const QString &css)
    {
        InlineSvgWriter writer;
        writer.text = [this](const QString &s) { return text(s); };
        writer.rootAttributes = {{QStringLiteral("data-id"), id}, {QStringLiteral("style"), css}};
        const auto clean = sanitizeSvg(inlineSvgDocument(props, QString(), writer));
        if (clean)
            out += QString::fromUtf8(*clean);
        else
            out += QStringLiteral("<svg data-id=\"%1\" style=\"%2\"></svg>").arg(id, css.toHtmlEscaped());
    }

    /// React's rendering of children: arrays flattened, null/bool dropped, adjacent
    /// strings (numbers as strings) merged.
    static void flatten(const QJsonValue &v, QJsonArray &flat)
    {
        if (v.isNull() || v.isUndefined() || v.isBool())
            return;
        if (v.isArray()) {
            for (const QJsonValue &x : v.toArray())
                flatten(x, flat);
            return;
        }
        QJsonValue c = v;
        if (c.isDouble())
            c = number(c.toDouble());
        if (c.isString() && !flat.isEmpty() && flat.last().isString())
            flat[flat.size() - 1] = flat.last().toString() + c.toString();
        else
            flat.append(c);
    }

    /// `inherited` updated by an element's own `style` and `lang` prop.
    static Inherited inheritedFor(const QJsonObject &style, const QJsonObject &props, Inherited inherited)
    {
        for (const char *name : {"hyphens", "WebkitHyphens"}) {
            const QJsonValue v = style.value(QLatin1String(name));
            if (v.isString())
                inherited.hyphenate = v.toString().trimmed().compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0;
        }
        // Upper-cased words are capitalised, which Blink's rules leave whole.
        const QString transform = style.value(QLatin1String("textTransform")).toString().trimmed().toLower();
        if (transform == QLatin1String("uppercase") || transform == QLatin1String("capitalize"))
            inherited.hyphenate = false;
        if (const QJsonValue lang = props.value(QLatin1String("lang")); lang.isString())
            inherited.lang = lang.toString().trimmed();
        inherited.rtl = directionIsRtl(style, props, inherited.rtl);
        return inherited;
    }

    /// `parentRule`: the parent's `tw` declarations for its children but the last
    /// (TailwindDeclarations::notLastChild), when this element is one of those; `siblings`
    /// its place among the parent's element children (`tw`'s `first:`, `odd:`).
    void element(const QJsonObject &el, const QString &id, const QJsonObject &extraStyle = {},
                 const Inherited &parent = {}, const QJsonObject &parentRule = {}, TailwindSiblings siblings = {})
    {
        const QString tag = el.value(QLatin1String("type")).toString(QStringLiteral("div")).trimmed().toLower();
        // A tag name is letters, digits and hyphens; anything else would break the markup.
        static const QRegularExpression tagName(QStringLiteral("^[a-z][a-z0-9-]*$"));
        const QString safeTag = tagName.match(tag).hasMatch() ? tag : QStringLiteral("div");
        const QJsonObject props = el.value(QLatin1String("props")).toObject();
        QJsonObject style = props.value(QLatin1String("style")).toObject();
        // `tw` and the preflight as the JSON engines expand them (tailwind.h), under the
        // style object; the warnings are the JSON engines' to give.
        TailwindDeclarations tw;
        if (tailwind && tailwind->used) {
            const QJsonValue classes = props.value(QLatin1String("tw"));
            if (classes.isString())
                tw = expandTailwind(text(classes.toString()), *tailwind, viewportWidth, {}, nullptr, siblings);
            // Physical sides, as the JSON engines merge them: the per-side border resets
            // below them are physical too.
            const bool rtl = directionIsRtl(style, props, parent.rtl);
            mergeTailwind(&style, tw.element, parentRule.isEmpty() ? parentRule : physicalSides(parentRule, rtl),
                          tailwindPreflight(tag, id == QLatin1String("0"), *tailwind, -1));
        }
        for (auto it = extraStyle.constBegin(); it != extraStyle.constEnd(); ++it)
            style.insert(it.key(), it.value());
        if (safeTag == QLatin1String("svg")) {
            inlineSvg(props, id, styleText(style, safeTag));
            return;
        }
        const float fitted = fittedFontSizes ? fittedFontSizes->value(id) : 0;
        out += u'<' + safeTag + QStringLiteral(" data-id=\"") + id + QStringLiteral("\" style=\"")
               + styleText(style, safeTag, fitted).toHtmlEscaped() + u'"';
        // className (or class) and id, for the template's stylesheets as Imprint matches them.
        const QJsonValue className = props.contains(QLatin1String("className")) ? props.value(QLatin1String("className"))
                                                                                : props.value(QLatin1String("class"));
        if (className.isString())
            out += QStringLiteral(" class=\"%1\"").arg(text(className.toString()).toHtmlEscaped());
        for (const char *a : {"src", "width", "height", "dir", "lang", "id"}) {
            const QJsonValue v = props.value(QLatin1String(a));
            if (v.isUndefined() || v.isNull())
                continue;
            const QString value = v.isDouble() ? number(v.toDouble()) : text(v.toString());
            out += QStringLiteral(" %1=\"%2\"").arg(QLatin1String(a), value.toHtmlEscaped());
        }
        out += u'>';
        if (safeTag == QLatin1String("img") || safeTag == QLatin1String("br"))
            return;
        const Inherited inherited = inheritedFor(style, props, parent);
        QJsonArray children;
        flatten(props.value(QLatin1String("children")), children);
        qsizetype lastElement = -1; // `:last-child` counts elements only
        int elementCount = 0, elementIndex = 0;
        for (qsizetype i = 0; i < children.size(); ++i)
            if (children.at(i).isObject()) {
                lastElement = i;
                ++elementCount;
            }
        for (qsizetype i = 0; i < children.size(); ++i) {
            const QJsonValue c = children.at(i);
            if (c.isString()) {
                QString value = text(c.toString());
                if (inherited.hyphenate) {
                    // The paragraph's last word stays whole (Blink): the text is its end
                    // unless more text or an inline element follows it here.
                    bool endsParagraph = true;
                    for (qsizetype j = i + 1; j < children.size() && endsParagraph; ++j) {
                        const QJsonValue next = children.at(j);
                        endsParagraph = !next.isString()
                                        && !isInlineTag(next.toObject().value(QLatin1String("type")).toString().toLower());
                    }
                    value = insertSoftHyphens(value, inherited.lang, endsParagraph);
                }
                const QString escaped = value.toHtmlEscaped().replace(QChar::LineSeparator, QLatin1String("<br>"));
                const QString drawn = withEmojiImages(escaped, emoji);
                // One span keeps text and images one flex item, as the text run is without them.
                out += drawn == escaped ? drawn : QStringLiteral("<span>") + drawn + QStringLiteral("</span>");
            } else if (c.isObject())
                element(c.toObject(), id + u'.' + QString::number(i), {}, inherited,
                        i == lastElement ? QJsonObject() : tw.notLastChild,
                        TailwindSiblings{elementIndex++, elementCount});
        }
        out += QStringLiteral("</") + safeTag + u'>';
    }
};

const QString kHead = QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>html,body{margin:0;"
                                     "padding:0;overflow:hidden;background:transparent}</style></head><body>");
const QString kTail = QStringLiteral("</body></html>");

} // namespace

common::Expected<QString, RenderError> templatePageHtml(const Template &tmpl, const QHash<QString, QString> &values,
                                                        bool contentSized, const TemplateLimits &limits,
                                                        const PageEmoji &emoji, const QString &headStyle,
                                                        const QHash<QString, float> &fittedFontSizes)
{
    QString sheets = headStyle;
    if (!tmpl.stylesheets.isEmpty())
        sheets += QStringLiteral(":where(body *:not(%1)){display:flex}").arg(inlineTagNames().join(u','));
    // The template's own style sheets after the engine's; "</" cannot close the element early.
    for (const QString &sheet : tmpl.stylesheets)
        sheets += u'\n' + QString(sheet).replace(QLatin1String("</"), QLatin1String("<\\/"));
    const QString style = sheets.isEmpty() ? QString() : QStringLiteral("<style>") + sheets + QStringLiteral("</style>");
    QString head = QString(kHead).insert(kHead.indexOf(QLatin1String("<style>")), style);
    if (!tmpl.lang.isEmpty()) // parseTemplate() checked its shape: letters, digits, '-'
        head.replace(QLatin1String("<html>"), QStringLiteral("<html lang=\"%1\">").arg(tmpl.lang));
    const bool useHtml = !tmpl.html.isEmpty();
    if (useHtml) {
        static const QRegularExpression placeholder(QStringLiteral("\\{\\{\\s*([A-Za-z_][A-Za-z0-9_.-]*)\\s*\\}\\}"));
        QString body;
        qsizetype last = 0;
        for (auto it = placeholder.globalMatch(tmpl.html); it.hasNext();) {
            const auto m = it.next();
            body += QStringView(tmpl.html).mid(last, m.capturedStart() - last);
            body += values.value(m.captured(1)).toHtmlEscaped();
            last = m.capturedEnd();
        }
        body += QStringView(tmpl.html).mid(last);
        body = htmlWithEmojiImages(body, emoji);
        static const QRegularExpression whole(QStringLiteral("^\\s*(<!doctype|<html)"),
                                              QRegularExpression::CaseInsensitiveOption);
        // A fragment's page is the image: html and body have its size, so a root sized
        // `height: 100%` fills it as in the JSON engines (it stopped at its content's height,
        // the rest transparent). Not for a content-sized image, measured from its content.
        // A whole document is the template's own page and keeps its own rules.
        if (!whole.match(body).hasMatch()) {
            if (!contentSized)
                head.insert(head.indexOf(QLatin1String("</head>")),
                            QStringLiteral("<style>:where(html,body){height:100%}</style>"));
            return head + body + kTail;
        }
        if (!style.isEmpty()) {
            // The first of <head …>, <html …>, <!doctype …> the document starts with; a
            // <style> after <html> or the doctype opens the implied head (HTML §13.2.6.4).
            static const QRegularExpression anchors[] = {
                QRegularExpression(QStringLiteral("<head(\\s[^>]*)?>"), QRegularExpression::CaseInsensitiveOption),
                QRegularExpression(QStringLiteral("<html(\\s[^>]*)?>"), QRegularExpression::CaseInsensitiveOption),
                QRegularExpression(QStringLiteral("<!doctype[^>]*>"), QRegularExpression::CaseInsensitiveOption),
            };
            for (const QRegularExpression &anchor : anchors) {
                const auto m = anchor.match(body);
                if (m.hasMatch()) {
                    body.insert(m.capturedEnd(), style);
                    break;
                }
            }
        }
        return body;
    }
    QJsonObject root;
    if (tmpl.root.isObject()) {
        root = tmpl.root.toObject();
    } else {
        auto tree = markupToTree(tmpl.markup, limits, nullptr);
        if (!tree)
            return tree.error();
        root = *tree;
    }
    Writer w{values, emoji, {}, !tmpl.stylesheets.isEmpty()};
    w.tailwind = &tmpl.tailwind;
    w.viewportWidth = tmpl.width;
    w.fittedFontSizes = fittedFontSizes.isEmpty() ? nullptr : &fittedFontSizes;
    w.out.reserve(4096);
    w.out += head;
    // A root sized `100%` (or `h-full`) is the image's size in the JSON engines (satori's
    // root is the image): the page gives html and body the viewport's size to resolve
    // against, or the root stopped at its content's height (issue 33). A root whose
    // height is not given fills the image too in those engines (layoutDocument(): the
    // viewport's height less the root's margins, as its border box, within its min and
    // max): `-webkit-fill-available` is that height in Chromium. In a zero-specificity
    // rule, so any height the template gives (inline, a class, a stylesheet) wins; not for
    // a replaced root (an image or an inline `svg`, sized by its attributes and viewBox
    // ratio) or one with an aspect ratio, which the JSON engines size from those.
    if (!contentSized) {
        const QString rootType = root.value(QLatin1String("type")).toString();
        const bool sizedByItself = rootType == QLatin1String("img") || rootType == QLatin1String("svg")
                                   || root.value(QLatin1String("props"))
                                          .toObject()
                                          .value(QLatin1String("style"))
                                          .toObject()
                                          .contains(QLatin1String("aspectRatio"));
        w.out.insert(w.out.lastIndexOf(QLatin1String("</head>")),
                     sizedByItself ? QStringLiteral("<style>html,body{height:100%}</style>")
                                   : QStringLiteral("<style>html,body{height:100%}"
                                                    ":where(body>*){height:-webkit-fill-available}</style>"));
    }
    QJsonObject extra;
    if (contentSized) {
        extra.insert(QStringLiteral("position"), QStringLiteral("absolute"));
        extra.insert(QStringLiteral("left"), 0);
        extra.insert(QStringLiteral("top"), 0);
    }
    w.element(root, QStringLiteral("0"), extra, {false, tmpl.lang});
    w.out += kTail;
    return w.out;
}

} // namespace imprint::render
