#pragma once
// The vocabulary the writer of an inline <svg> (inline_svg.cpp) writes with: React's
// attribute names and SVG's, the elements an inline svg may hold, the props that are
// React's own, and the number forms of its attributes.

#include <QHash>
#include <QString>

#include <optional>

namespace imprint::render::inline_svg_detail {

/// React's JSX names of SVG attributes whose SVG name differs: react-dom's attribute
/// table (packages/react-dom-bindings/src/shared/possibleStandardNames.js and the
/// CAMELIZE list of DOMProperty.js). Every other name is written as it is, which is
/// right for SVG's own camelCase attributes (viewBox, gradientUnits, stdDeviation, …)
/// and for names already written the SVG way (`stroke-width`, as `markup` has them).
const QHash<QString, QString> &reactAttributeNames();

/// The SVG elements an inline `<svg>` may hold: shapes, structure, paint servers,
/// clipping and masking, text, raster images (data: only, the sanitiser's rule) and
/// filter primitives. Scripts, foreignObject and animation are not images.
bool isSupportedElement(const QString &name);

/// Props that are React's, not attributes (or are Tailwind's business). `className` is
/// written as `class` (a `<style>` sheet inside the svg selects by it, as Illustrator's
/// and Inkscape's exports do).
bool isDroppedProp(const QString &name);

/// React's unitless style properties among those SVG content uses (a number stays bare).
bool isUnitless(const QString &camel);

/// A plain number or px length in user units; nullopt for anything else.
std::optional<double> userUnits(QString text);

/// `v` as an attribute value: at most 10 significant digits, no trailing zeros.
QString number(double v);

/// A camelCase name in SVG's and CSS's kebab-case (`strokeWidth` → `stroke-width`).
QString kebab(const QString &camel);

} // namespace imprint::render::inline_svg_detail
