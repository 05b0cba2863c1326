#pragma once
// text-transform applied to a run's characters (CSS Text 3 §2.1): by the text module to
// what it shapes, and by the writer of an inline <svg> to its text, which librsvg would
// draw untransformed.

#include "server/render/style/computed_style.h"

#include <QString>

#include <optional>

namespace imprint::render {

/// `text` under text-transform (CSS Text 3 §2.1) in the BCP 47 language `lang`, whose case
/// mapping applies for Turkish, Azeri, Greek and Lithuanian (empty: none).
QString applyTransform(const QString &text, TextTransform transform, const QString &lang = QString());

/// The text-transform keyword `keyword` names (case-insensitive, trimmed); nullopt when it
/// names none (the style's own keyword list, keywords.h).
std::optional<TextTransform> textTransformKeyword(const QString &keyword);

/// The keyword of `transform` ("uppercase"; "none"), from the same list.
QString textTransformName(TextTransform transform);

} // namespace imprint::render
