#pragma once
// Computed style of one element or text run (CSS Cascade 4 §4): the typed, resolved form
// of the camelCase CSS declarations a template carries (docs/templates.md). Layout reads
// the box properties, the text module the font/text ones, the painters the visual ones.
// Values are CSS computed values: `em`/`rem` are already px (css/values.h).

#include "server/render/css/effects.h"
#include "server/render/css/font_features.h"
#include "server/render/css/font_variations.h"
#include "server/render/css/grid.h"
#include "server/render/css/values.h"

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace imprint::render {

/// text-fit (CSS Text 5 §text-fit-property, https://drafts.csswg.org/css-text-5/#text-fit-property,
/// as Chromium 156 implements it): scale a block's line font sizes so its lines fill the
/// inline size. `ShrinkToBox` is Imprint's own mode for cards (no CSS draft or Chromium flag
/// names one): shrink until the text also fits the box's height, lineClamp and width,
/// re-wrapping at each size, never below `floorPx` / `limit` (docs/templates.md).
struct TextFit {
    enum class Type : quint8 { None, Grow, Shrink, ShrinkToBox };
    enum class Target : quint8 { Consistent, PerLine, PerLineAll };
    Type type = Type::None;
    Target target = Target::Consistent;
    float limit = -1; ///< the <percentage> as a factor (1.5 = 150%); -1 = none
    float floorPx = 0; ///< ShrinkToBox: the smallest font size in px; 0 = none
    friend bool operator==(const TextFit &, const TextFit &) = default;
};

/// The inherited properties (CSS Cascade 4 §7.2): a child starts with its parent's
/// values, so computeStyle() copies this part as a whole and no field can be forgotten.
/// The rows of the property table (properties.h) marked inherited set fields here.
struct InheritedStyle {
    QColor color = Qt::black;
    QStringList fontFamily; // as written, fallback handled by text module
    float fontSize = 16; // px
    int fontWeight = 400; // 100–900
    FontStyle fontStyle = FontStyle::Normal;
    Visibility visibility = Visibility::Visible; // CSS Display 3 §4
    quint8 fontVariantNumeric = 0; // FontVariantNumeric bits (CSS Fonts 4 §6.7), 0 = normal
    std::vector<FontFeature> fontFeatureSettings; // CSS Fonts 4 §6.12, by tag; empty = normal
    FontVariantCaps fontVariantCaps = FontVariantCaps::Normal; // CSS Fonts 4 §6.6
    FontKerning fontKerning = FontKerning::Auto; // CSS Fonts 4 §6.4
    float fontStretch = 100; // %, CSS Fonts 4 §2.4; the wdth axis of a variable face
    /// The angle of `font-style: oblique <angle>` in degrees (CSS Fonts 4 §2.3, positive
    /// leans right; `oblique` alone is 14); 0 for normal and italic. The slnt axis.
    float fontObliqueAngle = 0;
    std::vector<FontVariation> fontVariationSettings; // CSS Fonts 4 §7.4, by tag; empty = normal
    quint8 fontVariantLigatures = 0; // FontVariantLigatures bits (CSS Fonts 4 §6.4), 0 = normal
    FontVariantPosition fontVariantPosition = FontVariantPosition::Normal; // CSS Fonts 4 §6.5
    LineHeight lineHeight;
    float letterSpacing = 0; // px
    float wordSpacing = 0; // px
    /// tab-size (CSS Text 3 §4.2): a count of space advances, or px when tabSizeIsLength.
    float tabSize = 8;
    bool tabSizeIsLength = false;
    TextAlign textAlign = TextAlign::Start;
    TextTransform textTransform = TextTransform::None;
    WhiteSpace whiteSpace = WhiteSpace::Normal;
    TextWrapStyle textWrapStyle = TextWrapStyle::Auto; // text-wrap-style (CSS Text 4 §6.2)
    float textStrokeWidth = 0; // px, -webkit-text-stroke-width (Compat §5.4)
    std::optional<QColor> textStrokeColor; // unset = currentColor
    Length textIndent = Length::px(0); // px or % of the block's width (CSS Text 3 §8.1)
    WordBreak wordBreak = WordBreak::Normal;
    TextFit textFit; // text-fit (CSS Text 5), inherited as in Chromium
    OverflowWrap overflowWrap = OverflowWrap::Normal;
    Hyphens hyphens = Hyphens::Manual; // CSS Text 3 §5.4
    Direction direction = Direction::Ltr;
    /// The content language (the `lang` attribute, HTML §3.2.6.2, or the template's
    /// `lang`), as written; empty = unknown. It picks fallback faces (font_fallback.h).
    QString lang;
    std::vector<Shadow> textShadow;
    TextDecoration textDecoration; // not inherited in CSS, but propagated (CSS Text Decoration 3 §2.1)
    /// text-underline-offset (CSS Text Decoration 4 §3.5): auto, px, or a percentage of 1em
    /// (inherited as the percentage); an underline takes its decorating box's value.
    Length textUnderlineOffset = Length::autoLength();
    DecorationSkipInk textDecorationSkipInk = DecorationSkipInk::Auto; // CSS Text Decoration 4 §4.2
    /// Custom properties (`--name`, CSS Variables 1 §2) by name: computed values, var()
    /// already substituted; inherited like the rest (style/custom_properties.cpp).
    QHash<QString, QString> customProperties;
    /// The SVG paint properties (isSvgPaintProperty(): fill, stroke, stroke-width, …)
    /// declared on this element or inherited from an ancestor (CSS inherits them all but
    /// vector-effect, SVG 2 §13), camelCase → the value as declared, a colour other than
    /// currentColor written as #rrggbb or rgba(). Only an inline `<svg>` reads them: its content
    /// inherits them (InlineSvgWriter::rootPaint, inheritedPaint).
    QJsonObject svgPaint;
    friend bool operator==(const InheritedStyle &, const InheritedStyle &) = default;
};

/// The box properties layout reads (CSS Box 3, CSS Sizing 3, CSS Flexbox 1, CSS
/// Positioned Layout 3); not inherited, each starts at its initial value.
struct BoxStyle {
    Display display = Display::Flex;
    Position position = Position::Static;
    std::optional<int> zIndex; // auto; honoured by paintOrder() (paint_order.h)
    int order = 0; // CSS Flexbox 1 §5.4: a flex or grid item's place in order-modified document order
    Edges<Length> inset{Length::autoLength(), Length::autoLength(), Length::autoLength(), Length::autoLength()};
    Length width, height; // auto, a length or an intrinsic size keyword (CSS Sizing 3 §3.2)
    Length minWidth = Length::autoLength(), minHeight = Length::autoLength(); // auto = automatic minimum size
    Length maxWidth = Length::none(), maxHeight = Length::none();
    BoxSizing boxSizing = BoxSizing::ContentBox;
    Edges<Length> margin{Length::px(0), Length::px(0), Length::px(0), Length::px(0)};
    Edges<Length> padding{Length::px(0), Length::px(0), Length::px(0), Length::px(0)};
    Edges<float> borderWidth{0, 0, 0, 0}; // px, 0 when style none
    Edges<BorderStyle> borderStyle{BorderStyle::None, BorderStyle::None, BorderStyle::None, BorderStyle::None};
    Edges<QColor> borderColor; // resolved (currentColor applied)

    FlexDirection flexDirection = FlexDirection::Row;
    FlexWrap flexWrap = FlexWrap::NoWrap;
    float flexGrow = 0;
    float flexShrink = 1;
    Length flexBasis = Length::autoLength(); // auto, a length, content or an intrinsic size keyword
    JustifyContent justifyContent = JustifyContent::Normal;
    AlignItems alignItems = AlignItems::Stretch;
    AlignItems alignSelf = AlignItems::Auto;
    AlignContent alignContent = AlignContent::Stretch;
    Length rowGap = Length::px(0), columnGap = Length::px(0);
    Overflow overflow = Overflow::Visible; // overflowX == overflowY here
    VerticalAlign verticalAlign; // inline-level boxes in an inline formatting context only
    float aspectRatio = 0; // 0 = auto
    GridStyle grid; // CSS Grid 1 (css/grid.h): templates, placement, justify-items/-self
    friend bool operator==(const BoxStyle &, const BoxStyle &) = default;
};

/// The visual properties the painters read (CSS Backgrounds 3, CSS Transforms 1, CSS
/// Images 3 §5) and the line-level text-overflow/line-clamp (CSS Overflow 4); not
/// inherited.
struct PaintStyle {
    QColor backgroundColor = Qt::transparent;
    std::vector<BackgroundLayer> backgroundLayers; // first = topmost, as in CSS
    /// The background colour's painting area: the bottom layer's background-clip (CSS
    /// Backgrounds 3 §3.2).
    BackgroundBox backgroundColorClip = BackgroundBox::BorderBox;
    std::array<CornerRadius, 4> borderRadius; // top-left, top-right, bottom-right, bottom-left
    std::vector<Shadow> boxShadow;
    float opacity = 1;
    std::vector<TransformOp> transform;
    Length transformOriginX = Length::percent(50), transformOriginY = Length::percent(50);
    float transformOriginZ = 0; // px
    /// perspective (CSS Transforms 2 §7.1) the element gives its transformed children: the
    /// distance of the viewer from the z = 0 plane in px, at least 1; 0 = none.
    float perspective = 0;
    /// The vanishing point, against the element's border box (§7.2).
    Length perspectiveOriginX = Length::percent(50), perspectiveOriginY = Length::percent(50);
    Isolation isolation = Isolation::Auto;
    TransformStyle transformStyle = TransformStyle::Flat;
    BackfaceVisibility backfaceVisibility = BackfaceVisibility::Visible;
    ObjectFit objectFit = ObjectFit::Fill;
    Length objectPositionX = Length::percent(50), objectPositionY = Length::percent(50);
    TextOverflow textOverflow = TextOverflow::Clip;
    int lineClamp = 0; // 0 = none
    /// A text run's content height its element's `textFit: shrink-to-box` fits it into:
    /// the element's px height/maxHeight less padding and border (inheritedStyle()); -1 = none.
    float textFitBoxHeight = -1;
    EffectStyle effects; // filter, clip-path, masks, blending (style/effect_properties.cpp)
    /// outline (CSS UI 4 §5): drawn outside the border box at outlineOffset px, over the
    /// element and its content; no effect on layout. Colour unset = currentColor.
    BorderStyle outlineStyle = BorderStyle::None;
    float outlineWidth = 3; // px; `medium`
    float outlineOffset = 0; // px
    std::optional<QColor> outlineColor;
    /// border-image (CSS Backgrounds 3 §6): drawn instead of the border styles when its
    /// source loads; the border widths still lay out the box.
    BorderImage borderImage;
    /// will-change (CSS Will Change 1 §3): a still image never changes, but naming a
    /// property whose non-initial value would make a stacking context (`opacity`,
    /// `transform`, `filter`, …) or a containing block for absolutely placed descendants
    /// (`transform`, `perspective`, `filter`, …) makes one now, as in Chromium.
    bool willChangeStackingContext = false;
    bool willChangeContainingBlock = false;
    friend bool operator==(const PaintStyle &, const PaintStyle &) = default;
};

/// The computed style of an element (or of a text run, which inherits from its parent).
/// Defaults are CSS initial values, except where satori differs and the template
/// language follows it (a `div` defaults to display:flex; see computeStyle()).
/// The three parts are base classes so a field reads `s.fontSize` wherever it lives.
struct ComputedStyle : InheritedStyle, BoxStyle, PaintStyle {
    bool isFlexContainer() const { return display == Display::Flex; }
    bool isGridContainer() const { return display == Display::Grid; }
    bool isRowDirection() const
    {
        return flexDirection == FlexDirection::Row || flexDirection == FlexDirection::RowReverse;
    }
    bool isOutOfFlow() const { return position == Position::Absolute; }
    /// Whether the element is the containing block of its absolutely positioned
    /// descendants (CSS Position 3 §2.1): a positioned element, and one with a transform
    /// (CSS Transforms 1 §2), a perspective or preserve-3d (CSS Transforms 2 §7.1, §8), a
    /// filter or a backdrop-filter (Filter Effects 1 §5, 2 §3), as Chromium has it.
    /// The used transform-style (CSS Transforms 2 §8): preserve-3d, unless a grouping
    /// property (overflow, opacity, filter, clip-path, mask, mix-blend-mode) makes it flat.
    bool preserves3d() const
    {
        return transformStyle == TransformStyle::Preserve3d && overflow == Overflow::Visible && opacity >= 1
               && effects.filter.empty() && !effects.clipPath && effects.maskImage.empty()
               && effects.mixBlendMode == BlendMode::Normal;
    }
    bool containsAbsolutes() const
    {
        return position != Position::Static || !transform.empty() || perspective > 0
               || transformStyle == TransformStyle::Preserve3d || !effects.filter.empty()
               || !effects.backdropFilter.empty() || willChangeContainingBlock;
    }
};

/// Computes an element's style (CSS Cascade 4 §4 "value processing": specified →
/// computed) from `declarations` (camelCase CSS properties, numbers meaning px), the
/// parent's computed style (`parent`, nullptr for the root) for inheritance and `em`,
/// `rootFontSize` for `rem`, and the element's `tag` (for satori-compatible per-tag
/// defaults). Unknown properties and unparsable values are skipped and reported as
/// warnings (field path + reason) in `warnings` if given, as browsers ignore them;
/// never fails.
ComputedStyle computeStyle(const QJsonObject &declarations, const ComputedStyle *parent, const QString &tag,
                           float rootFontSize, const QString &fieldPath, QStringList *warnings);

/// Whether elements named `tag` (lower case) are display:inline by default: the phrasing
/// elements Chromium's user-agent stylesheet leaves inline (HTML §15.3). Every other
/// element defaults to display:flex, as in satori.
bool isInlineTag(const QString &tag);
/// The tags isInlineTag() accepts, lower case.
const QStringList &inlineTagNames();

/// Whether `name` (camelCase) is an SVG paint property (`fill`, `stroke`, `strokeWidth`,
/// … — SVG 2 §13, §13.5) that the style of an `svg` element passes to its content, as
/// CSS inheritance does in a browser, rather than a property of its box.
bool isSvgPaintProperty(const QString &name);

/// The style a text run inside an element gets: the element's inherited properties,
/// all other properties at their initial values, display:block-like inline content.
/// Exceptions, because the text module sees only the run: lineClamp, textOverflow and
/// overflow are copied from the element (they act on its lines), and textDecoration is
/// what the element draws (its own lines plus those propagated from ancestors).
ComputedStyle inheritedStyle(const ComputedStyle &parent);

} // namespace imprint::render
