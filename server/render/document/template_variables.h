#pragma once
// Internal to the document folder: the template's variables (docs/templates.md,
// "Variables"), what template.cpp and template_variables.cpp share.

#include "server/render/document/template.h"

#include <QJsonObject>

namespace imprint::render::template_detail {

/// A template error naming `field` (a JSON path such as "variables[0].type").
inline RenderError makeError(const QString &field, const QString &message,
                             RenderErrorCode code = RenderErrorCode::InvalidTemplate)
{
    return {field, message, code};
}

/// Stores `e` in `*error` when the caller asked for errors (`error` not null).
inline void setError(RenderError *error, RenderError e)
{
    if (error)
        *error = std::move(e);
}

/// Reads the template's `variables` ([{name, type, default}], unique names, valid
/// defaults) into `t`; false with `error` set when one is invalid.
bool parseVariables(const QJsonObject &document, Template &t, const TemplateLimits &limits, RenderError *error);

} // namespace imprint::render::template_detail
