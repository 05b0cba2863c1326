#pragma once
// Computed style of one element or text run: the typed, resolved form of the camelCase
// CSS declarations a template carries (DESIGN.md §3). Layout reads the box properties,
// the text module the font/text ones, the painters the visual ones. Values are CSS
// computed values: `em`/`rem` are already px, percentages stay percentages (they need a
// containing block, which only layout knows).

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

/// A CSS <length-percentage> or keyword after computation (CSS Values 4 §5–6).
/// px are CSS pixels (= output pixels); percent is 0–100.
struct Length {
    enum class Type : quint8 { Auto, Px, Percent, None /* max-width: none */ };
    Type type = Type::Auto;
    float value = 0;

    static constexpr Length autoLength() { return {}; }
    static constexpr Length none() { return {Type::None, 0}; }
    static constexpr Length px(float v) { return {Type::Px, v}; }
    static constexpr Length percent(float v) { return {Type::Percent, v}; }

    bool isAuto() const { return type == Type::Auto; }
    bool isNone() const { return type == Type::None; }
    bool isPercent() const { return type == Type::Percent; }
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
        case Type::Percent: return reference >= 0 ? value * reference / 100.f : fallback;
        default: return fallback;
        }
    }
    friend bool operator==(const Length &, const Length &) = default;
};

/// Edge order everywhere: top, right, bottom, left (CSS shorthand order).
enum Edge { Top = 0, Right = 1, Bottom = 2, Left = 3 };
template <typename T> using Edges = std::array<T, 4>;

enum class Display : quint8 { Flex, Block, None };
enum class Position : quint8 { Static, Relative, Absolute };
enum class BoxSizing : quint8 { ContentBox, BorderBox };
enum class FlexDirection : quint8 { Row, RowReverse, Column, ColumnReverse };
enum class FlexWrap : quint8 { NoWrap, Wrap, WrapReverse };
/// justify-content (CSS Flexbox 1 §8.2); Start/End behave as FlexStart/FlexEnd here.
enum class JustifyContent : quint8 { FlexStart, FlexEnd, Center, SpaceBetween, SpaceAround, SpaceEvenly };
/// align-items / align-self (§8.3); Auto only for align-self.
enum class AlignItems : quint8 { Auto, FlexStart, FlexEnd, Center, Baseline, Stretch };
/// align-content (§8.4); Normal behaves as Stretch for flex containers.
enum class AlignContent : quint8 { FlexStart, FlexEnd, Center, SpaceBetween, SpaceAround, SpaceEvenly, Stretch };
enum class Overflow : quint8 { Visible, Hidden };
enum class BorderStyle : quint8 { None, Solid, Dashed, Dotted, Double };

enum class FontStyle : quint8 { Normal, Italic };
enum class TextAlign : quint8 { Start, End, Left, Right, Center, Justify };
enum class TextTransform : quint8 { None, Uppercase, Lowercase, Capitalize };
enum class WhiteSpace : quint8 { Normal, NoWrap, Pre, PreWrap, PreLine };
enum class WordBreak : quint8 { Normal, BreakAll, KeepAll, BreakWord };
enum class OverflowWrap : quint8 { Normal, BreakWord, Anywhere };
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
};

/// linear-gradient / radial-gradient (CSS Images 3 §3). Angles in degrees, CSS
/// convention (0deg = to top, clockwise). Radial: circle/ellipse, farthest-corner
/// default, centre as lengths against the painted box.
struct Gradient {
    enum class Kind : quint8 { Linear, Radial };
    Kind kind = Kind::Linear;
    float angleDeg = 180;          // linear
    bool circle = false;           // radial shape
    enum class Extent : quint8 { FarthestCorner, ClosestSide, ClosestCorner, FarthestSide };
    Extent extent = Extent::FarthestCorner;
    std::optional<Length> radiusX, radiusY; // explicit radial size
    Length centerX = Length::percent(50), centerY = Length::percent(50);
    bool repeating = false;
    std::vector<ColorStop> stops;
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
};

/// One background layer: a gradient or an image URL (data: only unless allowlisted).
struct BackgroundLayer {
    std::optional<Gradient> gradient;
    QString imageUrl;
    // background-size: auto/cover/contain or two lengths; position as two lengths.
    enum class Size : quint8 { Auto, Cover, Contain, Explicit };
    Size size = Size::Auto;
    Length sizeX, sizeY;
    Length positionX = Length::percent(0), positionY = Length::percent(0);
    bool repeat = true; // background-repeat: repeat vs no-repeat
};

/// box-shadow / text-shadow entry (CSS Backgrounds 3 §7.1), lengths in px.
struct Shadow {
    float offsetX = 0, offsetY = 0, blur = 0, spread = 0;
    QColor color = Qt::black;
    bool inset = false;
};

/// One transform function (CSS Transforms 1 §9); angles in degrees.
struct TransformOp {
    enum class Kind : quint8 { Translate, Rotate, Scale, Skew, Matrix };
    Kind kind = Kind::Translate;
    Length x, y;            // translate (percent of the border box)
    float a = 0, b = 0;     // rotate: a = angle; scale: a, b; skew: a, b (degrees)
    std::array<float, 6> m{1, 0, 0, 1, 0, 0}; // matrix(a, b, c, d, e, f)
};

/// One corner radius: horizontal and vertical (CSS Backgrounds 3 §5.1).
struct CornerRadius {
    Length x = Length::px(0), y = Length::px(0);
    friend bool operator==(const CornerRadius &, const CornerRadius &) = default;
};

/// text-decoration-line flags and colour.
struct TextDecoration {
    bool underline = false, overline = false, lineThrough = false;
    std::optional<QColor> color; // unset = currentColor
    BorderStyle style = BorderStyle::Solid;
};

/// The computed style of an element (or of a text run, which inherits from its parent).
/// Defaults are CSS initial values, except where satori differs and the template
/// language follows it (a `div` defaults to display:flex; see computeStyle()).
struct ComputedStyle {
    // --- box (not inherited) ---
    Display display = Display::Flex;
    Position position = Position::Static;
    std::optional<int> zIndex;                            // auto; honoured by paintOrder() (paint_order.h)
    Edges<Length> inset{Length::autoLength(), Length::autoLength(), Length::autoLength(), Length::autoLength()};
    Length width, height;                                 // auto
    Length minWidth = Length::autoLength(), minHeight = Length::autoLength(); // auto = automatic minimum size
    Length maxWidth = Length::none(), maxHeight = Length::none();
    BoxSizing boxSizing = BoxSizing::ContentBox;
    Edges<Length> margin{Length::px(0), Length::px(0), Length::px(0), Length::px(0)};
    Edges<Length> padding{Length::px(0), Length::px(0), Length::px(0), Length::px(0)};
    Edges<float> borderWidth{0, 0, 0, 0};                 // px, 0 when style none
    Edges<BorderStyle> borderStyle{BorderStyle::None, BorderStyle::None, BorderStyle::None, BorderStyle::None};
    Edges<QColor> borderColor;                            // resolved (currentColor applied)

    FlexDirection flexDirection = FlexDirection::Row;
    FlexWrap flexWrap = FlexWrap::NoWrap;
    float flexGrow = 0;
    float flexShrink = 1;
    Length flexBasis = Length::autoLength();              // auto; `content` not supported
    JustifyContent justifyContent = JustifyContent::FlexStart;
    AlignItems alignItems = AlignItems::Stretch;
    AlignItems alignSelf = AlignItems::Auto;
    AlignContent alignContent = AlignContent::Stretch;
    Length rowGap = Length::px(0), columnGap = Length::px(0);
    Overflow overflow = Overflow::Visible;                // overflowX == overflowY here
    float aspectRatio = 0;                                // 0 = auto

    // --- paint (not inherited) ---
    QColor backgroundColor = Qt::transparent;
    std::vector<BackgroundLayer> backgroundLayers;       // first = topmost, as in CSS
    std::array<CornerRadius, 4> borderRadius;            // top-left, top-right, bottom-right, bottom-left
    std::vector<Shadow> boxShadow;
    float opacity = 1;
    std::vector<TransformOp> transform;
    Length transformOriginX = Length::percent(50), transformOriginY = Length::percent(50);
    ObjectFit objectFit = ObjectFit::Fill;
    Length objectPositionX = Length::percent(50), objectPositionY = Length::percent(50);
    TextOverflow textOverflow = TextOverflow::Clip;
    int lineClamp = 0;                                     // 0 = none

    // --- text (inherited) ---
    QColor color = Qt::black;
    QStringList fontFamily;                               // as written, fallback handled by text module
    float fontSize = 16;                                  // px
    int fontWeight = 400;                                 // 100–900
    FontStyle fontStyle = FontStyle::Normal;
    LineHeight lineHeight;
    float letterSpacing = 0;                              // px
    float wordSpacing = 0;                                // px
    TextAlign textAlign = TextAlign::Start;
    TextTransform textTransform = TextTransform::None;
    WhiteSpace whiteSpace = WhiteSpace::Normal;
    WordBreak wordBreak = WordBreak::Normal;
    OverflowWrap overflowWrap = OverflowWrap::Normal;
    Direction direction = Direction::Ltr;
    std::vector<Shadow> textShadow;
    TextDecoration textDecoration;                        // not inherited in CSS, but propagated to text runs

    bool isFlexContainer() const { return display == Display::Flex; }
    bool isRowDirection() const
    {
        return flexDirection == FlexDirection::Row || flexDirection == FlexDirection::RowReverse;
    }
    bool isOutOfFlow() const { return position == Position::Absolute; }
};

/// A problem found while reading a template, a style or a variable. `field` names the
/// offending input the way a user would find it (e.g. `root.props.children[2].props.style.width`,
/// `tweaks.title`); `code` is a stable machine-readable word (e.g. `invalid_style`,
/// `unknown_variable`, `too_deep`) that the HTTP layer maps to problem+json.
struct RenderError {
    QString field;
    QString message;
    QString code = QStringLiteral("invalid_template");
};

/// Computes an element's style (CSS Cascade 4 §4 "value processing": specified →
/// computed) from `declarations` (camelCase CSS properties, numbers meaning px), the
/// parent's computed style (`parent`, nullptr for the root) for inheritance and `em`,
/// `rootFontSize` for `rem`, and the element's `tag` (for satori-compatible per-tag
/// defaults). Unknown properties and unparsable values are skipped and reported as
/// warnings (field path + reason) in `warnings` if given, as browsers ignore them;
/// never fails.
ComputedStyle computeStyle(const QJsonObject &declarations, const ComputedStyle *parent,
                           const QString &tag, float rootFontSize, const QString &fieldPath,
                           QStringList *warnings);

/// The style a text run inside an element gets: the element's inherited properties,
/// all other properties at their initial values, display:block-like inline content.
/// Exceptions, because the text module sees only the run: lineClamp, textOverflow and
/// overflow are copied from the element (they act on its lines), and textDecoration is
/// what the element draws (its own lines plus those propagated from ancestors).
ComputedStyle inheritedStyle(const ComputedStyle &parent);

/// Parses a CSS colour (hex #rgb/#rgba/#rrggbb/#rrggbbaa, rgb()/rgba(), hsl()/hsla(),
/// named colours, `transparent`, `currentColor` → `currentColor`). nullopt if invalid.
std::optional<QColor> parseColor(const QString &text, const QColor &currentColor);

/// Parses a length (`12`, `12px`, `50%`, `1.5em`, `2rem`, `auto`, `none`) given the
/// element's font size (px) for em and the root font size for rem. nullopt if invalid.
std::optional<Length> parseLength(const QString &text, float fontSize, float rootFontSize);

} // namespace imprint::render
