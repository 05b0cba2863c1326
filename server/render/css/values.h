#pragma once
// CSS values after computation, shared by every stage that reads style: lengths and
// percentages (CSS Values 4), the keyword enums of the properties Imprint supports,
// colours, gradients (CSS Images 3), shadows (CSS Backgrounds 3 §7), transforms (CSS
// Transforms 1) and radii. Percentages stay percentages here: they need a containing
// block, which only layout knows. The parsers are in css/*.cpp; css/parse.h has the
// shared tokenising helpers.

#include "server/common/expected.h"
#include "server/render/css/color_spaces.h"

#include <QColor>
#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace imprint::render {

namespace css {
/// What a CSS value parser returns: the value, or why the text is not one (the wording
/// of the warning the style layer reports).
template<typename T>
using Parsed = common::Expected<T, QString>;

/// `value` as a Parsed result, `reason` when there is none: for parsers whose steps
/// report through a reason string as they go.
template<typename T>
Parsed<T> parsed(std::optional<T> &&value, const QString &reason)
{
    if (!value)
        return common::Unexpected<QString>(reason);
    return std::move(*value);
}
} // namespace css

/// A CSS <length-percentage> or keyword after computation (CSS Values 4 §5–6).
/// px are CSS pixels (= output pixels); percent is 0–100. MinContent, MaxContent and
/// FitContent are the intrinsic size keywords of the sizing properties (CSS Sizing 3
/// §3.2); Content is `flex-basis: content` (CSS Flexbox 1 §7.2.3). None of them is a
/// definite length: only layout, which can measure the box's content, resolves them.
/// Stretch (CSS Sizing 4 §3.1) fills the containing block less the box's margins where
/// that is definite and acts as auto elsewhere; layout resolves it too.
struct Length {
    enum class Type : quint8 {
        Auto,
        Px,
        Percent,
        None /* max-width: none */,
        MinContent,
        MaxContent,
        FitContent,
        Content /* flex-basis: content */,
        Stretch /* CSS Sizing 4 §3.1 `stretch` (-webkit-fill-available) */
    };
    Type type = Type::Auto;
    float value = 0;
    /// px added to a percentage: the length part of calc(<percentage> ± <length>) (CSS
    /// Values 4 §10), resolved with the percentage against the property's basis.
    float offset = 0;

    static constexpr Length autoLength() { return {}; }
    static constexpr Length none() { return {Type::None, 0}; }
    static constexpr Length px(float v) { return {Type::Px, v}; }
    static constexpr Length percent(float v) { return {Type::Percent, v}; }
    static constexpr Length minContent() { return {Type::MinContent, 0}; }
    static constexpr Length maxContent() { return {Type::MaxContent, 0}; }
    static constexpr Length fitContent() { return {Type::FitContent, 0}; }
    static constexpr Length content() { return {Type::Content, 0}; }
    static constexpr Length stretch() { return {Type::Stretch, 0}; }
    bool isStretch() const { return type == Type::Stretch; }

    bool isAuto() const { return type == Type::Auto; }
    bool isNone() const { return type == Type::None; }
    bool isPercent() const { return type == Type::Percent; }
    /// min-content, max-content or fit-content (CSS Sizing 3 §3.2): sized from the content.
    bool isIntrinsic() const
    {
        return type == Type::MinContent || type == Type::MaxContent || type == Type::FitContent;
    }
    /// Definite when px, or percent with a definite reference (reference >= 0).
    bool isDefinite(float reference = -1) const
    {
        return type == Type::Px || (type == Type::Percent && reference >= 0);
    }
    /// px value; percent of `reference` (px). Auto/None or an indefinite percentage
    /// (reference < 0) give `fallback`.
    float resolve(float reference, float fallback = 0) const
    {
        switch (type) {
        case Type::Px: return value;
        case Type::Percent: return reference >= 0 ? value * reference / 100.f + offset : fallback;
        default: return fallback;
        }
    }
    friend bool operator==(const Length &, const Length &) = default;
};

/// Edge order everywhere: top, right, bottom, left (CSS shorthand order).
enum Edge { Top = 0, Right = 1, Bottom = 2, Left = 3 };
template<typename T>
using Edges = std::array<T, 4>;

/// The `display` values Imprint lays out (CSS Display 3 §2). Inline and InlineBlock are
/// inline-level (CSS Inline 3); as flex items or the root they are blockified (§2.7).
/// Grid (and inline-grid) is a grid container (CSS Grid 1).
/// Contents (§2.5) never reaches layout: the document stage puts such an element's
/// children in its place.
enum class Display : quint8 { Flex, Block, None, Grid, Inline, InlineBlock, Contents };
enum class Position : quint8 { Static, Relative, Absolute };
enum class BoxSizing : quint8 { ContentBox, BorderBox };
enum class FlexDirection : quint8 { Row, RowReverse, Column, ColumnReverse };
enum class FlexWrap : quint8 { NoWrap, Wrap, WrapReverse };
/// justify-content (CSS Flexbox 1 §8.2); Start/End behave as FlexStart/FlexEnd here.
/// justify-content (CSS Box Alignment 3 §5.1 for flex containers): flex-start/flex-end
/// follow the flex main axis, start/end the writing mode's, left/right are physical.
/// Normal (the initial value) and Stretch act as flex-start in flex containers and
/// stretch `auto` tracks in grid containers (CSS Grid 1 §11.8).
enum class JustifyContent : quint8 {
    Normal,
    Stretch,
    FlexStart,
    FlexEnd,
    Start,
    End,
    Left,
    Right,
    Center,
    SpaceBetween,
    SpaceAround,
    SpaceEvenly
};
/// align-items / align-self (§8.3); Auto only for align-self.
enum class AlignItems : quint8 { Auto, FlexStart, FlexEnd, Center, Baseline, LastBaseline, Stretch };
/// align-content (§8.4); Normal behaves as Stretch for flex containers.
enum class AlignContent : quint8 { FlexStart, FlexEnd, Center, SpaceBetween, SpaceAround, SpaceEvenly, Stretch };
/// vertical-align (CSS 2 §10.8.1, CSS Inline 3 §4.3.2 shorthand's used longhands): where
/// an inline-level box sits in its line. A Length shifts the baseline up by `length`
/// (px, or a percentage of the element's own line-height).
struct VerticalAlign {
    enum class Keyword : quint8 { Baseline, Sub, Super, TextTop, TextBottom, Middle, Top, Bottom, Length };
    Keyword keyword = Keyword::Baseline;
    struct Length length = Length::px(0);
    friend bool operator==(const VerticalAlign &, const VerticalAlign &) = default;
};
enum class Overflow : quint8 { Visible, Hidden };
enum class BorderStyle : quint8 { None, Solid, Dashed, Dotted, Double };

enum class FontStyle : quint8 { Normal, Italic };
enum class TextAlign : quint8 { Start, End, Left, Right, Center, Justify };
enum class TextTransform : quint8 { None, Uppercase, Lowercase, Capitalize };
enum class WhiteSpace : quint8 { Normal, NoWrap, Pre, PreWrap, PreLine };
/// text-wrap-style (CSS Text 4 §6.2): how wrapped lines are chosen.
enum class TextWrapStyle : quint8 { Auto, Balance, Pretty, Stable };
enum class WordBreak : quint8 { Normal, BreakAll, KeepAll, BreakWord };
enum class OverflowWrap : quint8 { Normal, BreakWord, Anywhere };
/// hyphens (CSS Text 3 §5.4): none ignores soft hyphens, manual breaks at them, auto also
/// at the language's hyphenation opportunities (resources/hyphenation.h).
enum class Hyphens : quint8 { None, Manual, Auto };
enum class TextOverflow : quint8 { Clip, Ellipsis };
enum class Direction : quint8 { Ltr, Rtl };
enum class ObjectFit : quint8 { Fill, Contain, Cover, None, ScaleDown };

/// line-height: `normal` (font metrics), a number (times font-size) or a px length.
struct LineHeight {
    enum class Type : quint8 { Normal, Number, Px };
    Type type = Type::Normal;
    float value = 0;
    friend bool operator==(const LineHeight &, const LineHeight &) = default;
};

/// One colour stop of a gradient; position is a fraction 0–1 or unset (spread evenly,
/// CSS Images 3 §3.5.3 "color stop fixup").
struct ColorStop {
    QColor color;
    std::optional<float> position;
    /// Set instead of `position` when the stop was written in px (`red 40px`): only the
    /// painter knows the gradient line length, so it divides by it (then applies fixup).
    std::optional<float> positionPx;
    friend bool operator==(const ColorStop &, const ColorStop &) = default;
};

/// The `in <space> [<hue> hue]` of a gradient (CSS Images 4 §3.1, CSS Color 4 §12): the
/// space its stops' colours are mixed in, and for a polar space the hue's arc.
struct ColorInterpolation {
    css::ColorSpace space = css::ColorSpace::Oklab;
    css::HueInterpolation hue = css::HueInterpolation::Shorter;
    friend bool operator==(const ColorInterpolation &, const ColorInterpolation &) = default;
};

/// linear-gradient / radial-gradient (CSS Images 3 §3) / conic-gradient (CSS Images 4
/// §3.3). Angles in degrees, CSS convention (0deg = to top, clockwise). Radial:
/// circle/ellipse, farthest-corner default; radial and conic: centre as lengths against
/// the painted box. Conic stop positions are fractions of a turn.
struct Gradient {
    enum class Kind : quint8 { Linear, Radial, Conic };
    Kind kind = Kind::Linear;
    float angleDeg = 180; // linear; conic: the `from` angle (0 = top, clockwise)
    bool circle = false; // radial shape
    enum class Extent : quint8 { FarthestCorner, ClosestSide, ClosestCorner, FarthestSide };
    Extent extent = Extent::FarthestCorner;
    std::optional<Length> radiusX, radiusY; // explicit radial size
    Length centerX = Length::percent(50), centerY = Length::percent(50);
    bool repeating = false;
    std::vector<ColorStop> stops;
    /// Unset: per-component sRGB between the stops, as CSS Images 3 draws them.
    std::optional<ColorInterpolation> interpolation;
    /// `to top left` and the other corners (CSS Images 3 §3.1.1): the angle depends on the
    /// box, so it is kept here; angleDeg then holds the square-box angle (a multiple of 45).
    enum class Corner : quint8 { None, TopLeft, TopRight, BottomRight, BottomLeft };
    Corner toCorner = Corner::None;
    /// The gradient angle in degrees for a painted box of `width` × `height` px: angleDeg,
    /// or for a corner the angle whose gradient line is perpendicular to the diagonal
    /// joining the two neighbouring corners, so the 50% line passes through them.
    float angleFor(float width, float height) const
    {
        if (toCorner == Corner::None || width <= 0 || height <= 0)
            return angleDeg;
        // Perpendicular to the top-left→bottom-right diagonal (w, h) is (h, -w), whose CSS
        // angle (clockwise from "to top") is atan(h / w): shallow boxes give steep lines.
        const float toTopRight = std::atan2(height, width) * 180.f / 3.14159265358979f;
        switch (toCorner) {
        case Corner::TopRight: return toTopRight;
        case Corner::BottomRight: return 180.f - toTopRight;
        case Corner::BottomLeft: return 180.f + toTopRight;
        case Corner::TopLeft: return 360.f - toTopRight;
        default: return angleDeg;
        }
    }
    friend bool operator==(const Gradient &, const Gradient &) = default;
};

/// One background layer: a gradient or an image URL (data: only unless allowlisted).
/// The box a background layer is positioned in (background-origin) or clipped to
/// (background-clip), CSS Backgrounds 3 §3.7–3.8.
enum class BackgroundBox : quint8 { BorderBox, PaddingBox, ContentBox };

struct BackgroundLayer {
    std::optional<Gradient> gradient;
    QString imageUrl;
    // background-size: auto/cover/contain or two lengths; position as two lengths.
    enum class Size : quint8 { Auto, Cover, Contain, Explicit };
    Size size = Size::Auto;
    Length sizeX, sizeY;
    Length positionX = Length::percent(0), positionY = Length::percent(0);
    // background-repeat per axis (CSS Backgrounds 3 §3.4): `repeat-x` is {true, false};
    // space and round are drawn as repeat.
    bool repeatX = true, repeatY = true;
    BackgroundBox origin = BackgroundBox::PaddingBox; ///< the positioning area
    BackgroundBox clip = BackgroundBox::BorderBox; ///< the painting area
    friend bool operator==(const BackgroundLayer &, const BackgroundLayer &) = default;
};

/// One side of border-image-slice, -width or -outset (CSS Backgrounds 3 §6.2–6.4): a
/// number (image px for a slice; a multiple of the side's border width for a width or an
/// outset), a length in px, a percentage (of the image for a slice, of the border image
/// area for a width), or `auto` (widths only: the slice's size).
struct BorderImageLength {
    enum class Unit : quint8 { Number, Px, Percent, Auto };
    Unit unit = Unit::Number;
    float value = 0;
    friend bool operator==(const BorderImageLength &, const BorderImageLength &) = default;
};

/// border-image-repeat along one axis (§6.5).
enum class BorderImageRepeat : quint8 { Stretch, Repeat, Round, Space };

/// border-image (CSS Backgrounds 3 §6): an image drawn in nine pieces over the border
/// area instead of the border styles. Sides in Edges order: top, right, bottom, left.
struct BorderImage {
    /// border-image-source: a gradient or a url() image; neither = none.
    BackgroundLayer source;
    Edges<BorderImageLength> slice{{{BorderImageLength::Unit::Percent, 100}, {BorderImageLength::Unit::Percent, 100},
                                    {BorderImageLength::Unit::Percent, 100}, {BorderImageLength::Unit::Percent, 100}}};
    bool fill = false; ///< the `fill` keyword of the slice: the middle is drawn too
    Edges<BorderImageLength> width{{{BorderImageLength::Unit::Number, 1}, {BorderImageLength::Unit::Number, 1},
                                    {BorderImageLength::Unit::Number, 1}, {BorderImageLength::Unit::Number, 1}}};
    Edges<BorderImageLength> outset{};
    BorderImageRepeat repeatX = BorderImageRepeat::Stretch, repeatY = BorderImageRepeat::Stretch;
    bool hasSource() const { return source.gradient || !source.imageUrl.isEmpty(); }
    friend bool operator==(const BorderImage &, const BorderImage &) = default;
};

/// box-shadow / text-shadow entry (CSS Backgrounds 3 §7.1), lengths in px.
struct Shadow {
    float offsetX = 0, offsetY = 0, blur = 0, spread = 0;
    QColor color = Qt::black;
    bool inset = false;
    friend bool operator==(const Shadow &, const Shadow &) = default;
};

/// One transform function (CSS Transforms 1 §9, and the 3D functions of CSS Transforms 2
/// §13); angles in degrees, lengths in px.
struct TransformOp {
    enum class Kind : quint8 { Translate, Rotate, Scale, Skew, Matrix, Rotate3d, Perspective, Matrix3d };
    Kind kind = Kind::Translate;
    Length x, y; // translate (percent of the border box)
    float z = 0; // translate: the z offset, px; scale: the z factor (1 unless given)
    /// rotate: a = angle; rotate3d: a = angle about `axis`; scale: a, b; skew: a, b
    /// (degrees); perspective: a = the distance, px (0 = none: no perspective)
    float a = 0, b = 0;
    std::array<float, 3> axis{0, 0, 1}; // rotate3d: the direction of the axis, not normalised
    /// matrix(a, b, c, d, e, f) in m[0..5]; matrix3d(): its 16 numbers, column by column
    std::array<float, 16> m{1, 0, 0, 1, 0, 0};
    friend bool operator==(const TransformOp &, const TransformOp &) = default;
};

/// isolation (CSS Compositing 1 §3.3): `isolate` makes the element a stacking context
/// (Tailwind's `relative isolate` around `-z-10` decorations).
enum class Isolation : quint8 { Auto, Isolate };
/// visibility (CSS Display 3 §4): a hidden element keeps its box but paints nothing of its
/// own; its children inherit that and may be `visible` again. `collapse` is `hidden` here.
enum class Visibility : quint8 { Visible, Hidden };

/// transform-style (CSS Transforms 2 §8): whether the element's children share its 3D
/// space (`preserve-3d`) or are drawn flat onto it.
enum class TransformStyle : quint8 { Flat, Preserve3d };
/// backface-visibility (CSS Transforms 2 §9): `hidden` draws nothing of an element turned
/// away from the viewer.
enum class BackfaceVisibility : quint8 { Visible, Hidden };

/// One corner radius: horizontal and vertical (CSS Backgrounds 3 §5.1).
struct CornerRadius {
    Length x = Length::px(0), y = Length::px(0);
    friend bool operator==(const CornerRadius &, const CornerRadius &) = default;
};

/// text-decoration-style (CSS Text Decoration 3 §2.3).
enum class DecorationStyle : quint8 { Solid, Double, Dotted, Dashed, Wavy };
/// One of the lines text-decoration-line draws (CSS Text Decoration 3 §2.1): it decides
/// which side a `double` line's second line and a wave go.
enum class DecorationLine : quint8 { Underline, Overline, LineThrough };
/// text-decoration-skip-ink (CSS Text Decoration 4 §4.2): whether underlines and overlines
/// are interrupted where glyph ink crosses them. `all` is treated as `auto`.
enum class DecorationSkipInk : quint8 { Auto, None };

/// text-decoration-line flags, style, colour and thickness.
struct TextDecoration {
    bool underline = false, overline = false, lineThrough = false;
    std::optional<QColor> color; // unset = currentColor
    DecorationStyle style = DecorationStyle::Solid;
    /// px; kAutoThickness (a tenth of the font size, as Blink's `auto`) or
    /// kFromFontThickness (the font's own underline thickness)
    float thickness = -1;
    /// text-underline-offset of the decorating box (CSS Text Decoration 4 §3.5), px, a
    /// percentage already resolved against that box's font size; 0 for `auto`.
    float underlineOffset = 0;
    /// The offset is `auto`: the underline keeps the max(1, ceil(thickness / 2)) gap below
    /// the baseline, which a length or a percentage replaces (as Chromium 156 draws it).
    bool underlineOffsetAuto = true;
    static constexpr float kAutoThickness = -1;
    static constexpr float kFromFontThickness = -2;
    friend bool operator==(const TextDecoration &, const TextDecoration &) = default;
};

/// Parses a CSS colour (hex #rgb/#rgba/#rrggbb/#rrggbbaa, rgb()/rgba(), hsl()/hsla(),
/// hwb(), lab(), lch(), oklab(), oklch(), color(<space> …) (CSS Color 4), color-mix()
/// (CSS Color 5 §2), named colours, `transparent`, `currentColor` → `currentColor`).
/// Colours outside sRGB are clipped per channel. nullopt if invalid.
std::optional<QColor> parseColor(const QString &text, const QColor &currentColor);

/// `c` as CSS Color 3 text that every reader here takes (Chromium, librsvg; QtSvg for an
/// opaque one): `#rrggbb` when opaque, else `rgba(r,g,b,a)` with the alpha to three
/// decimals, which gives every 8-bit alpha back.
QString cssColorText(const QColor &c);

/// Parses a length (`12`, `12px`, `50%`, `1.5em`, `2rem`, `calc(…)`, `auto`, `none`) given the
/// element's font size (px) for em and the root font size for rem. nullopt if invalid.
std::optional<Length> parseLength(const QString &text, float fontSize, float rootFontSize);

/// Parses an intrinsic size keyword (CSS Sizing 3 §3.2: `min-content`, `max-content`,
/// `fit-content`, also with Chromium's `-webkit-` prefix), case-insensitive. nullopt
/// for anything else, including the `fit-content(<length>)` function.
std::optional<Length> parseSizeKeyword(const QString &text);

} // namespace imprint::render
