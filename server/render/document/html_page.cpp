#include "server/render/document/html_page.h"

#include "server/render/document/markup.h"
#include "server/render/style/computed_style.h"

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
        QStringLiteral("flex"),      QStringLiteral("aspectRatio"),     QStringLiteral("scale")};
    return unitless.contains(prop);
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

struct Writer {
    const QHash<QString, QString> &values;
    QString out;

    QString text(const QString &s) const { return substituteVariables(s, values); }

    QString cssValue(const QString &prop, const QJsonValue &v) const
    {
        if (v.isBool())
            return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        if (v.isDouble())
            return isUnitless(prop) ? number(v.toDouble()) : number(v.toDouble()) + QStringLiteral("px");
        return text(v.toString());
    }

    QString styleText(const QJsonObject &style, const QString &tag) const
    {
        QStringList decls;
        // The same defaults as our cascade: phrasing elements inline, everything else flex.
        if (!style.contains(QLatin1String("display")) && !isInlineTag(tag.toLower()))
            decls << QStringLiteral("display:flex");
        for (auto it = style.constBegin(); it != style.constEnd(); ++it) {
            if (it.key() == QLatin1String("lineClamp")) {
                decls << QStringLiteral("-webkit-line-clamp:%1").arg(cssValue(it.key(), it.value()))
                      << QStringLiteral("display:-webkit-box") << QStringLiteral("-webkit-box-orient:vertical")
                      << QStringLiteral("overflow:hidden");
                continue;
            }
            decls << kebab(it.key()) + u':' + cssValue(it.key(), it.value());
        }
        return decls.join(u';');
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

    void element(const QJsonObject &el, const QString &id, const QJsonObject &extraStyle = {})
    {
        const QString tag = el.value(QLatin1String("type")).toString(QStringLiteral("div")).trimmed().toLower();
        // A tag name is letters, digits and hyphens; anything else would break the markup.
        static const QRegularExpression tagName(QStringLiteral("^[a-z][a-z0-9-]*$"));
        const QString safeTag = tagName.match(tag).hasMatch() ? tag : QStringLiteral("div");
        const QJsonObject props = el.value(QLatin1String("props")).toObject();
        QJsonObject style = props.value(QLatin1String("style")).toObject();
        for (auto it = extraStyle.constBegin(); it != extraStyle.constEnd(); ++it)
            style.insert(it.key(), it.value());
        out += u'<' + safeTag + QStringLiteral(" data-id=\"") + id + QStringLiteral("\" style=\"")
               + styleText(style, safeTag).toHtmlEscaped() + u'"';
        for (const char *a : {"src", "width", "height", "dir", "lang"}) {
            const QJsonValue v = props.value(QLatin1String(a));
            if (v.isUndefined() || v.isNull())
                continue;
            const QString value = v.isDouble() ? number(v.toDouble()) : text(v.toString());
            out += QStringLiteral(" %1=\"%2\"").arg(QLatin1String(a), value.toHtmlEscaped());
        }
        out += u'>';
        if (safeTag == QLatin1String("img") || safeTag == QLatin1String("br"))
            return;
        QJsonArray children;
        flatten(props.value(QLatin1String("children")), children);
        for (qsizetype i = 0; i < children.size(); ++i) {
            const QJsonValue c = children.at(i);
            if (c.isString())
                out += text(c.toString()).toHtmlEscaped().replace(QChar::LineSeparator, QLatin1String("<br>"));
            else if (c.isObject())
                element(c.toObject(), id + u'.' + QString::number(i));
        }
        out += QStringLiteral("</") + safeTag + u'>';
    }
};

const QString kHead = QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>html,body{margin:0;"
                                     "padding:0;overflow:hidden;background:transparent}</style></head><body>");
const QString kTail = QStringLiteral("</body></html>");

} // namespace

std::optional<QString> templatePageHtml(const Template &tmpl, const QHash<QString, QString> &values, bool contentSized,
                                        const TemplateLimits &limits, RenderError *error, const QString &headStyle)
{
    const QString style
        = headStyle.isEmpty() ? QString() : QStringLiteral("<style>") + headStyle + QStringLiteral("</style>");
    const QString head = QString(kHead).insert(kHead.indexOf(QLatin1String("<style>")), style);
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
        static const QRegularExpression whole(QStringLiteral("^\\s*(<!doctype|<html)"),
                                              QRegularExpression::CaseInsensitiveOption);
        if (!whole.match(body).hasMatch())
            return head + body + kTail;
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
        auto tree = markupToTree(tmpl.markup, limits, error, nullptr);
        if (!tree)
            return std::nullopt;
        root = *tree;
    }
    Writer w{values, {}};
    w.out.reserve(4096);
    w.out += head;
    QJsonObject extra;
    if (contentSized) {
        extra.insert(QStringLiteral("position"), QStringLiteral("absolute"));
        extra.insert(QStringLiteral("left"), 0);
        extra.insert(QStringLiteral("top"), 0);
    }
    w.element(root, QStringLiteral("0"), extra);
    w.out += kTail;
    return w.out;
}

} // namespace imprint::render
