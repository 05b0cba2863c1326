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
        render::RenderError err;
        const auto tmpl = render::parseTemplate(document, &err);
        if (!tmpl)
            return invalidTemplate(QStringLiteral("document.") + err.field,
                                   QStringLiteral("Template is invalid at '%1': %2").arg(err.field, err.message));
        // Build the tree once with the defaults, so a placeholder or a style that cannot
        // work is refused now rather than on every render. A template with only `html` has
        // no tree: the html engine draws it (docs/templates.md), at its stated size.
        const auto values = render::resolveVariables(*tmpl, {}, {}, &err);
        const bool htmlOnly = !tmpl->html.isEmpty() && !tmpl->root.isObject() && tmpl->markup.isEmpty();
        if (htmlOnly) {
            if (!values)
                return invalidTemplate(QStringLiteral("document.") + err.field,
                                       QStringLiteral("Template is invalid at '%1': %2").arg(err.field, err.message));
            if (tmpl->rendererType.toLower() != render::engineName(render::Engine::Html))
                return invalidTemplate(QStringLiteral("document.rendererType"),
                                       QStringLiteral("A template with only 'html' needs rendererType \"html\" (or a "
                                                      "root or markup for the other engines)."));
            if (tmpl->width <= 0 || tmpl->height <= 0)
                return invalidTemplate(QString::fromLatin1(tmpl->width <= 0 ? "document.width" : "document.height"),
                                       QStringLiteral("A template with only 'html' needs its width and height."));
        } else if (!values || !render::buildDocument(*tmpl, *values, &err)) {
            return invalidTemplate(QStringLiteral("document.") + err.field,
                                   QStringLiteral("Template is invalid at '%1': %2").arg(err.field, err.message));
        }
        if (!render::parseEngine(tmpl->rendererType.toLower()))
            return invalidTemplate(
                QStringLiteral("document.rendererType"),
                QStringLiteral("rendererType must be %1.").arg(common::orList(render::engineNames())));
        if (!render::parseEmojiSet(tmpl->emojiType))
            return invalidTemplate(
                QStringLiteral("document.emojiType"),
                QStringLiteral("emojiType must be %1.").arg(common::orList(render::emojiSetNames())));
        if (auto e = checkTemplateSizes(document))
            return e;
        return checkTemplateAlt(document);
    };
}

VariablesValidator variablesValidator()
{
    return [](const QJsonObject &document, const QJsonObject &variables) -> std::optional<store::ServiceError> {
        render::RenderError err;
        const auto tmpl = render::parseTemplate(document, &err);
        if (!tmpl)
            return invalidTemplate(QStringLiteral("templateId"), err.message);
        if (!render::resolveVariables(*tmpl, variables, {}, &err))
            return store::ServiceError::invalid(store::ProblemCode::InvalidVariable, err.field,
                                                QStringLiteral("%1: %2").arg(err.field, err.message));
        return std::nullopt;
    };
}

QStringList templateWarnings(const QJsonObject &document)
{
    render::RenderError err;
    const auto tmpl = render::parseTemplate(document, &err);
    if (!tmpl)
        return {};
    const auto values = render::resolveVariables(*tmpl, {}, {}, &err);
    if (!values)
        return {};
    QStringList warnings;
    // A stand-in pixel for every image: the write does not fetch, and a missing image is
    // the render's business, not the template's.
    const render::ImageLoader placeholder = [](const QString &, QString *) {
        QImage pixel(1, 1, QImage::Format_ARGB32_Premultiplied);
        pixel.fill(Qt::transparent);
        return pixel;
    };
    render::buildDocument(*tmpl, *values, &err, &warnings, placeholder, {},
                          QSizeF(tmpl->width > 0 ? tmpl->width : 0, tmpl->height > 0 ? tmpl->height : 0));
    warnings.removeDuplicates();
    return warnings;
}

ContentService contentService(const store::Database &db)
{
    return ContentService(db, templateValidator(), variablesValidator());
}

} // namespace imprint::service
