#pragma once
// The CSS properties computeStyle() knows, one row each: the name a template writes,
// the handler that parses it, the order it is applied in, what kind of value it takes
// (for warnings) and whether it is inherited. Adding a property means adding a row here
// (properties.cpp), its field in ComputedStyle and its handler.

#include <QLatin1StringView>
#include <QString>
#include <QStringView>

#include <span>

namespace imprint::render {

namespace style_detail {
class StyleBuilder;
}

/// What a property takes, named in the "invalid <kind> "<value>"" warning.
enum class ValueKind : quint8 { Length, Colour, Value };

/// Application order of the declarations of one element. QJsonObject keeps its keys
/// sorted, not as written, so the order is fixed here instead (CSS Cascade 4 §6.2 gives
/// later declarations precedence; here the more specific one comes later):
/// the font first — font-size, font-family, -weight and -style (`em`, `ch` and `ex` in the
/// other values depend on them) — then color (`currentColor` does) and `direction` (the
/// flow-relative properties do), then shorthands, then the border sub-shorthands, then the
/// flow-relative properties (paddingInline, marginInlineStart, …), then the physical
/// longhands, then the background longhands that adjust the layers
/// background/backgroundImage created. A style object has no declaration order, so a
/// physical side wins over a flow-relative one that also sets it, as in Tailwind's CSS,
/// whose property order puts `padding-left` after `padding-inline` (`px-10 pl-0`).
enum class ApplyOrder : quint8 {
    FontSize = 0,
    Color = 1,
    Shorthand = 2,
    SubShorthand = 3,
    Logical = 4,
    Longhand = 5,
    LayerLonghand = 6,
};

/// One row of the property table.
struct CssProperty {
    using Handler = bool (style_detail::StyleBuilder::*)(const CssProperty &property, const QString &value);

    QLatin1StringView name; ///< camelCase, as a template's style object writes it
    Handler handler; ///< parses the value into the ComputedStyle; false = invalid
    ApplyOrder order;
    ValueKind kind;
    /// Inherited (CSS Cascade 4 §7.2): its ComputedStyle field is in InheritedStyle.
    /// textDecoration and its longhands count as inherited: the lines propagate to
    /// descendants (CSS Text Decoration 3 §2.1), which the text runs need to draw them.
    bool inherited;
    /// Which part the handler sets when one handler serves several properties: the edge
    /// (Edge, top/right/bottom/left), the corner (0–3 from top-left clockwise) or the
    /// axis; -1 for a shorthand setting all of them.
    qint8 part = -1;
};

/// Every property of the table, in table order.
std::span<const CssProperty> cssProperties();

/// The row of `name` (camelCase, exact case), nullptr for an unsupported property.
const CssProperty *findCssProperty(const QString &name);

/// Whether `property` changes nothing in a still image (cursor, transitions, scroll
/// snapping, `WebkitFontSmoothing`, the line-clamp idiom's `WebkitBoxOrient`…): accepted
/// with any value, without a warning, and ignored.
bool isStillImageNoOp(const CssProperty &property);

/// The word a warning uses for `kind`: "length", "colour" or "value".
QString valueKindName(ValueKind kind);

} // namespace imprint::render
