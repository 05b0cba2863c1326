#pragma once
// var() substitution (CSS Custom Properties for Cascading Variables 1 §3,
// https://www.w3.org/TR/css-variables-1/#using-variables). Internal to css/ and style/.

#include "server/render/css/values.h"

#include <QString>
#include <QStringView>

#include <functional>
#include <optional>

namespace imprint::render::css {

/// The longest value a substitution may produce, in characters: var() references that
/// double a value at every level (`--b: var(--a) var(--a)`, ...) grow exponentially, so a
/// result past this is invalid rather than allocated.
inline constexpr qsizetype kMaxSubstitutedLength = 16384;

/// Whether `text` contains a var() reference (case-insensitive).
bool containsVar(QStringView text);

/// Replaces every `var(--name)` / `var(--name, fallback)` in `text` by `lookup(name)`,
/// or by the fallback (itself substituted, so var() may nest in it) when lookup gives
/// nullopt (the guaranteed-invalid value). Returns the reason when a
/// reference without fallback is undefined, a var() is malformed, fallbacks nest more
/// than 32 deep, or the result exceeds kMaxSubstitutedLength: the declaration is then
/// invalid at computed-value time (§3.1).
Parsed<QString> substituteVariables(QStringView text,
                                    const std::function<std::optional<QString>(const QString &)> &lookup);

} // namespace imprint::render::css
