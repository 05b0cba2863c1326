#pragma once
// Math functions in lengths (CSS Values 4 §10, https://www.w3.org/TR/css-values-4/#math):
// calc(), min(), max() and clamp(). Internal to css/ and style/.

#include "server/render/css/values.h"

#include <QStringView>

#include <optional>

namespace imprint::render::css {

/// Whether `text` starts with a math function this module evaluates (`calc(`,
/// `-webkit-calc(`, `min(`, `max(`, `clamp(`, case-insensitive).
bool isMathFunction(QStringView text);

/// Evaluates a math function in a <length-percentage> context (CSS Values 4 §10.1):
/// + - * / and nested parentheses over px, %, em (`fontSize` px), rem (`rootFontSize`
/// px), pt, pc, in, cm, mm and unitless numbers (px, as everywhere in a template). A sum
/// of a percentage and a length stays a percentage with a px offset (Length::offset), so
/// layout resolves it against the property's own percentage basis. min()/max()/clamp()
/// take lengths without percentages. nullopt for anything invalid (a product of two
/// lengths, division by zero or by a length, a unit it does not know, nesting deeper than
/// 32, more than 4096 characters).
std::optional<Length> calcLength(QStringView text, float fontSize, float rootFontSize);

} // namespace imprint::render::css
