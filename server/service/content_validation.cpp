#include "server/service/content_validation.h"

#include "server/common/text.h"
#include "server/render/engine.h"
#include "server/render/pipeline.h"
#include "server/render/resources/emoji.h"
#include "server/service/size_presets.h"

namespace imprint::service {

namespace {

store::ServiceError invalidTemplate(const QString &field, const QString &message)
{
    return store::ServiceError::invalid(store::ProblemCode::InvalidTemplate, field, message);
}

} // namespace

std::optional<store::ServiceError> checkTemplateAlt(const QJsonObject &document)
{
    const QJsonValue alt = document.value(QStringLiteral("alt"));
    if (alt.isUndefined() || alt.isNull())
        return std::nullopt;
    if (!alt.isString() || alt.toString().size() > kMaxAltTemplateChars)
        return invalidTemplate(QStringLiteral("document.alt"),
                               QStringLiteral("Template is invalid at 'alt': a text of at most %1 characters, with "
                                              "{{variables}} as in the template's text.")
                                   .arg(kMaxAltTemplateChars));
    return std::nullopt;
}

std::optional<store::ServiceError> checkTemplateName(const QJsonObject &document)
{
    // Checked when a template is written, not when it is read: a stored name is only a
    // label, and a template stored with a number there before this check still renders.
    const QJsonValue name = document.value(QStringLiteral("name"));
    if (name.isUndefined() || name.isNull() || name.isString())
        return std::nullopt;
    return invalidTemplate(QStringLiteral("document.name"), QStringLiteral("Template is invalid at 'name': a string."));
}

QString altText(const render::Template &tmpl, const QHash<QString, QString> &values)
{
    const QJsonValue alt = tmpl.source.value(QStringLiteral("alt"));
    if (!alt.isString())
        return {};
    // One line of plain text: the values may hold line breaks; a crawler wants none.
    return render::substituteVariables(alt.toString(), values).simplified();
}

TemplateValidator templateValidator()
{
    return [](const QJsonObject &document) -> std::optional<store::ServiceError> {
        auto invalidAt = [](const render::RenderError &err) {
            return invalidTemplate(QStringLiteral("document.") + err.field,
                                   QStringLiteral("Template is invalid at '%1': %2").arg(err.field, err.message));
        };
        // parseTemplate() refuses an engine name it does not know: `engine` is the one it read.
        const auto tmpl = render::parseTemplate(document);
        if (!tmpl)
            return invalidAt(tmpl.error());
        // Build the tree once with the defaults, so a placeholder or a style that cannot
        // work is refused now rather than on every render. A template with only `html` has
        // no tree: the html engine draws it (docs/templates.md), at its stated size.
        const auto values = render::resolveVariables(*tmpl, {}, {});
        if (!values)
            return invalidAt(values.error());
        const bool htmlOnly = !tmpl->html.isEmpty() && !tmpl->root.isObject() && tmpl->markup.isEmpty();
        if (htmlOnly) {
            if (tmpl->engine != render::Engine::Html)
                return invalidTemplate(QStringLiteral("document.rendererType"),
                                       QStringLiteral("A template with only 'html' needs rendererType \"html\" (or a "
                                                      "root or markup for the other engines)."));
            if (tmpl->width <= 0 || tmpl->height <= 0)
                return invalidTemplate(QString::fromLatin1(tmpl->width <= 0 ? "document.width" : "document.height"),
                                       QStringLiteral("A template with only 'html' needs its width and height."));
        } else if (const auto root = render::buildDocument(*tmpl, *values); !root) {
            return invalidAt(root.error());
        }
        if (!render::parseEmojiSet(tmpl->emojiType))
            return invalidTemplate(
                QStringLiteral("document.emojiType"),
                QStringLiteral("emojiType must be %1.").arg(common::orList(render::emojiSetNames())));
        if (auto e = checkTemplateSizes(document))
            return e;
        if (auto e = checkTemplateName(document))
            return e;
        return checkTemplateAlt(document);
    };
}

VariablesValidator variablesValidator()
{
    return [](const QJsonObject &document, const QJsonObject &variables) -> std::optional<store::ServiceError> {
        const auto tmpl = render::parseTemplate(document);
        if (!tmpl)
            return invalidTemplate(QStringLiteral("templateId"), tmpl.error().message);
        if (const auto values = render::resolveVariables(*tmpl, variables, {}); !values) {
            const render::RenderError &err = values.error();
            return store::ServiceError::invalid(store::ProblemCode::InvalidVariable, err.field,
                                                QStringLiteral("%1: %2").arg(err.field, err.message));
        }
        return std::nullopt;
    };
}

QStringList templateWarnings(const QJsonObject &document)
{
    const auto tmpl = render::parseTemplate(document);
    if (!tmpl)
        return {};
    const auto values = render::resolveVariables(*tmpl, {}, {});
    if (!values)
        return {};
    QStringList warnings;
    // A stand-in pixel for every image: the write does not fetch, and a missing image is
    // the render's business, not the template's.
    const render::ImageLoader placeholder = [](const QString &) {
        QImage pixel(1, 1, QImage::Format_ARGB32_Premultiplied);
        pixel.fill(Qt::transparent);
        return render::ImageResult(pixel);
    };
    render::buildDocument(*tmpl, *values, &warnings, placeholder, {},
                          QSizeF(tmpl->width > 0 ? tmpl->width : 0, tmpl->height > 0 ? tmpl->height : 0));
    warnings.removeDuplicates();
    return warnings;
}

ContentService contentService(const store::Database &db)
{
    return ContentService(db, templateValidator(), variablesValidator());
}

} // namespace imprint::service
