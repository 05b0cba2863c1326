#pragma once
// Tailwind `tw` props (docs/templates.md, "Tailwind (tw)"; issue 28): a class string such as
// "flex items-center bg-black/50 text-[64px] p-4" expanded to the declarations Tailwind CSS
// v4's compiler gives those classes with its default theme. The utility table is generated
// from the pinned `tailwindcss` package by scripts/gen-tailwind and compiled in as the
// resource :/tailwind/table.json; this module only parses class names against it and
// resolves Tailwind's custom properties to plain values.

#include "server/common/expected.h"
#include "server/render/error.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <optional>

namespace imprint::render {

/// A template's theme extension: Tailwind theme variables (`--color-brand`,
/// `--font-display`, `--spacing-18`) added to or replacing the default theme's.
struct TailwindTheme {
    QHash<QString, QString> vars;
    /// `"preflight": false` in the `tailwind` object turns Tailwind's base styles off.
    bool preflight = true;
    /// Whether the template's tree uses `tw` at all (set by parseTemplate()): only then
    /// do its elements get the preflight, as only then would its page ship Tailwind's CSS.
    bool used = false;
};

/// Reads a template's `tailwind` object: `{"colors": {name: colour | {shade: colour}},
/// "fontFamily": {name: family | [families]}, "spacing": {name: length}}`, also accepted
/// wrapped as satori's tailwindConfig (`{"theme": {"extend": {...}}}` or `{"theme": {...}}`).
/// The error (field `tailwind.colors.brand`, ...) when a part has the wrong type or a colour
/// does not parse. An undefined/null value gives an empty theme.
common::Expected<TailwindTheme, RenderError> parseTailwindConfig(const QJsonValue &config);

/// Tailwind v4's preflight (its `@layer base`: box-sizing border-box, no margins, padding or
/// borders, headings at their parent's size and weight, the root's line-height 1.5 and
/// the theme's sans font) as declarations for an element `tag`; `root` adds the `html`
/// rule's inherited properties. `parentWeight` is the weight a heading inherits (CSS
/// font-weight, 100–900), or -1 to write `inherit` (the html engine's page). Empty when
/// `theme` is not used or has the preflight off.
QJsonObject tailwindPreflight(const QString &tag, bool root, const TailwindTheme &theme, int parentWeight);

/// What a `tw` class string gives (expandTailwind()): React-style declarations (camelCase
/// property → CSS text) for the element, and for its element children but the last,
/// which Tailwind's `space-x-*`, `space-y-*` and `divide-*` utilities style through
/// `:where(.c > :not(:last-child))` (empty when the classes have none of those).
struct TailwindDeclarations {
    QJsonObject element;
    QJsonObject notLastChild;
};

/// Merges Tailwind's origins under an element's `style` (which wins every property it
/// names): the `tw` declarations, then `parentRule` (the parent's `notLastChild`, or empty:
/// it loses to the element's own classes and style as a zero-specificity :where() rule
/// does, a longhand included when they set its shorthand), then the preflight, whose
/// border reset stays out when `style` or `tw` sets any border property (a reset shorthand
/// would otherwise be applied after their `border` shorthand).
void mergeTailwind(QJsonObject *style, const QJsonObject &tw, const QJsonObject &parentRule,
                   const QJsonObject &preflight);

/// `rule` (a TailwindDeclarations::notLastChild) with its flow-relative properties as
/// the physical ones they are in a horizontal writing mode (CSS Logical Properties 1 §4):
/// margin-inline-start is margin-left, or margin-right when `rtl`. An engine that applies
/// flow-relative properties after physical ones (style/properties.h, ApplyOrder) needs
/// this for a child's own physical side (`mr-1`, style.marginRight) to win over the rule.
QJsonObject physicalSides(const QJsonObject &rule, bool rtl);

/// Whether an element's direction is rtl: its `style` object's `direction`, else its
/// `dir` attribute (a presentational hint, HTML §15.3.3), else `parentRtl` (inherited).
bool directionIsRtl(const QJsonObject &style, const QJsonObject &props, bool parentRtl);

/// The version of the tailwindcss package the table was generated from ("4.3.5").
QString tailwindVersion();

/// Where an element sits among its parent's element children (text runs do not count, as
/// for :nth-child()): 0-based `index` of `count`. The root is its page's only child.
struct TailwindSiblings {
    int index = 0;
    int count = 1;
};

/// Expands a `tw` class string to React-style declarations (camelCase property → CSS text,
/// plain values: no var(), no --tw-* properties), as Tailwind's compiled CSS would style an
/// element with those classes and its children (later utilities in Tailwind's order win). Responsive variants
/// (`md:`) apply when `viewportWidth` (px) reaches the breakpoint, as the media query does;
/// the structural ones (`first:`, `last:`, `only:`, `odd:`, `even:`: :first-child,
/// :last-child, :only-child, :nth-child(odd/even)) when the element's place in `siblings`
/// matches; other variants (`hover:`, `dark:`, ...) cannot apply to a still image and are
/// dropped with a warning. Unknown classes add a warning naming them and `field`.
TailwindDeclarations expandTailwind(const QString &classes, const TailwindTheme &theme, double viewportWidth,
                                    const QString &field, QStringList *warnings, TailwindSiblings siblings = {});

} // namespace imprint::render
