#pragma once
// Validation of stored content with the render engine's own parser, so that a template or
// a page that the store accepts is one the renderer can render. ContentService takes
// these as callbacks (so its tests can stub them); the HTTP routes, the CLI and the demo
// seeding all build their ContentService through contentService().

#include "server/render/document/template.h"
#include "server/service/content_service.h"
#include "server/store/database.h"

namespace imprint::service {

/// Refuses a template document that does not parse, whose variables' defaults do not
/// build a document, or whose rendererType / emojiType the renderer does not know.
/// The error is Invalid with code "invalid_template" and field "document.<path>".
TemplateValidator templateValidator();

/// Refuses page variables that the template does not declare or that do not fit their
/// declared type: Invalid with code "invalid_variable" and the variable's field
/// ("invalid_template" on "templateId" when the stored template no longer parses).
VariablesValidator variablesValidator();

/// The longest `alt` a template may hold, in characters (before substitution).
constexpr int kMaxAltTemplateChars = 1000;

/// Checks a template's `name` when it is written: absent, null or a string. Invalid
/// "invalid_template" naming "document.name".
std::optional<store::ServiceError> checkTemplateName(const QJsonObject &document);

/// Checks a template's `alt` (docs/templates.md, "Alt text"): absent, or a string of at
/// most kMaxAltTemplateChars. Invalid "invalid_template" naming "document.alt".
std::optional<store::ServiceError> checkTemplateAlt(const QJsonObject &document);

/// The alt text of one render: the template's `alt` with `{{name}}` replaced by the
/// render's resolved variable values (render::resolveVariables(): defaults, page values,
/// tweaks), as the template's text substitutes them, white space collapsed. Empty when
/// the template has no `alt`.
QString altText(const render::Template &tmpl, const QHash<QString, QString> &values);

/// What a render of `document` with its variables' defaults would warn about (unsupported
/// properties and values, each with its "did you mean" when a name is near; stylesheet
/// rules the engine skips), in document order, for a template write's answer
/// (docs/api.md, "Templates"). Images are not loaded here, so they never warn. Empty for
/// a template that does not parse (the validator above refuses it) or has only `html`.
QStringList templateWarnings(const QJsonObject &document);

/// A ContentService on `db` that validates with the two validators above.
ContentService contentService(const store::Database &db);

} // namespace imprint::service
