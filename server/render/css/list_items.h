#pragma once
// Internal to the css module: the common start of the list-valued property parsers.

#include <QString>
#include <QStringList>

#include <optional>

namespace imprint::render::css {

/// The items of a list property's value (box-shadow, text-shadow, transform, filter):
/// none for `none` (any case), else `text` split at `separator`; nullopt, with "empty
/// <what>" in `reason`, when that leaves no item.
std::optional<QStringList> listItems(const QString &text, QChar separator, const char *what, QString *reason);

} // namespace imprint::render::css
