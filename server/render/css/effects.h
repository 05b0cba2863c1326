#pragma once
// Computed values of the effect properties (CSS Filter Effects 1, CSS Masking 1, CSS
// Compositing 1, CSS Backgrounds 4 background-clip: text) and their parsers
// (filter.cpp, clip_path.cpp). Lengths stay lengths: percentages of a clip shape need
// the reference box, which only paint knows.

#include "server/render/css/values.h"

#include <QString>

#include <optional>
#include <vector>

namespace imprint::render {

/// One filter function (CSS Filter Effects 1 §5). `amount` is the function's number
/// (1 = 100%; degrees for hue-rotate; px standard deviation for blur); drop-shadow uses
/// `shadow` (its blur is the shadow's blur length, twice the standard deviation).
struct FilterOp {
    enum class Kind : quint8 {
        Blur,
        Brightness,
        Contrast,
        Grayscale,
        Sepia,
        Saturate,
        HueRotate,
        Invert,
        Opacity,
        DropShadow
    };
    Kind kind = Kind::Blur;
    float amount = 0;
    Shadow shadow;
    friend bool operator==(const FilterOp &, const FilterOp &) = default;
};

/// A clip-path basic shape (CSS Shapes 1 §3.1) in the border box (the default
/// reference box, CSS Masking 1 §3.1).
struct ClipShape {
    enum class Kind : quint8 { Inset, Circle, Ellipse, Polygon, Path };
    Kind kind = Kind::Inset;
    Edges<Length> inset{Length::px(0), Length::px(0), Length::px(0), Length::px(0)};
    std::array<CornerRadius, 4> radii; // inset(... round r)
    /// circle()/ellipse() radii: a length, or closest-side (the default) / farthest-side.
    enum class Extent : quint8 { Length, ClosestSide, FarthestSide };
    Extent extentX = Extent::ClosestSide, extentY = Extent::ClosestSide;
    Length radiusX, radiusY;
    Length centerX = Length::percent(50), centerY = Length::percent(50);
    std::vector<std::pair<Length, Length>> points; // polygon()
    bool evenOdd = false; // polygon()/path() fill rule
    QString path; // path(): SVG path data in border-box px
    friend bool operator==(const ClipShape &, const ClipShape &) = default;
};

/// mix-blend-mode (CSS Compositing 1 §5.3).
enum class BlendMode : quint8 {
    Normal,
    Multiply,
    Screen,
    Overlay,
    Darken,
    Lighten,
    ColorDodge,
    ColorBurn,
    HardLight,
    SoftLight,
    Difference,
    Exclusion,
    Hue,
    Saturation,
    Color,
    Luminosity,
    PlusLighter
};

/// How a mask layer combines with the layers below it (mask-composite, CSS Masking 1
/// §7.6): `add` paints over them, `subtract` keeps it outside them, `intersect` inside
/// them, `exclude` where exactly one of the two is.
enum class MaskComposite : quint8 { Add, Subtract, Intersect, Exclude };

/// The effect properties of an element (not inherited).
struct EffectStyle {
    std::vector<FilterOp> filter; ///< applied in order to the element and its subtree
    std::vector<FilterOp> backdropFilter; ///< applied to what lies behind the border box
    std::optional<ClipShape> clipPath;
    /// mask-image layers (CSS Masking 1 §7.1), first = topmost: gradients or url() images
    /// with their mask-size, mask-position and mask-repeat, positioned in and clipped to
    /// the border box (mask-origin and mask-clip initial values); their alpha masks.
    std::vector<BackgroundLayer> maskImage;
    /// mask-composite per layer, first = topmost, repeated as needed; empty: add.
    std::vector<MaskComposite> maskComposite;
    BlendMode mixBlendMode = BlendMode::Normal;
    /// background-blend-mode per background layer, first = topmost, repeated as needed
    /// (CSS Compositing 1 §6); empty: normal. The layers and the colour blend as an
    /// isolated group, not with what lies behind the element.
    std::vector<BlendMode> backgroundBlendMode;
    /// background-clip: text (CSS Backgrounds 4 §4.2): the background paints only under
    /// the glyphs of the element's text.
    bool backgroundClipText = false;
    bool any() const
    {
        return !filter.empty() || !backdropFilter.empty() || clipPath || !maskImage.empty()
               || mixBlendMode != BlendMode::Normal || backgroundClipText;
    }
    friend bool operator==(const EffectStyle &, const EffectStyle &) = default;
};

namespace css {

/// A `filter` / `backdrop-filter` value: `none` (empty list) or filter functions
/// separated by spaces (CSS Filter Effects 1 §4). At most 64 functions. The reason
/// when invalid.
Parsed<std::vector<FilterOp>> filterList(const QString &text, const QColor &currentColor, float fontSize,
                                         float rootFontSize);

/// A `clip-path` value: `none` (a nullopt shape) or one basic shape (inset(), circle(),
/// ellipse(), polygon() of at most 4096 points, path()) optionally followed by
/// `border-box`. The reason when invalid or unsupported.
Parsed<std::optional<ClipShape>> clipPath(const QString &text, float fontSize, float rootFontSize);

/// A mix-blend-mode keyword; nullopt if unknown.
std::optional<BlendMode> blendMode(const QString &text);

} // namespace css

} // namespace imprint::render
