#pragma once
// The error type of the render pipeline: what every stage reports when an input cannot
// be rendered. The HTTP layer maps `code` to a problem+json status (docs/api.md).

#include <QString>

namespace imprint::render {

/// A problem found while reading a template, a style or a variable. `field` names the
/// offending input the way a user would find it (e.g. `root.props.children[2].props.style.width`,
/// `tweaks.title`); `code` is a stable machine-readable word (e.g. `invalid_style`,
/// `unknown_variable`, `too_deep`) that the HTTP layer maps to problem+json.
struct RenderError {
    QString field;
    QString message;
    QString code = QStringLiteral("invalid_template");
};

} // namespace imprint::render
