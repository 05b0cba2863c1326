// The property table: every CSS property computeStyle() understands, one row each.
// priority (ApplyOrder), the warning's value kind, the handler lookup and the inherited
// flag all come from here, so a property cannot be known to one of them and not another.

#include "server/render/style/properties.h"

#include "server/common/text.h"

#include "server/render/style/style_builder.h"

#include <QHash>

namespace imprint::render {

namespace style_detail {

namespace {
constexpr QLatin1StringView L(const char *name)
{
    return QLatin1StringView(name);
}
} // namespace

std::span<const CssProperty> StyleBuilder::table()
{
    using B = StyleBuilder;
    using O = ApplyOrder;
    using K = ValueKind;
    using S = ComputedStyle;
    // {name, handler, order, value kind, inherited[, part]}; a property that stores one
    // keyword of a list (keywords.h) has keywordField with that list and its field.
    static constexpr CssProperty rows[] = {
        // --- box ---
        {L("display"), &B::display, O::Longhand, K::Value, false},
        {L("position"), &B::positionProp, O::Longhand, K::Value, false},
        {L("zIndex"), &B::zIndexProp, O::Longhand, K::Value, false},
        {L("order"), &B::orderProp, O::Longhand, K::Value, false},
        {L("boxSizing"), &B::boxSizing, O::Longhand, K::Value, false},
        {L("top"), &B::inset, O::Longhand, K::Length, false, Edge::Top},
        {L("right"), &B::inset, O::Longhand, K::Length, false, Edge::Right},
        {L("bottom"), &B::inset, O::Longhand, K::Length, false, Edge::Bottom},
        {L("left"), &B::inset, O::Longhand, K::Length, false, Edge::Left},
        {L("inset"), &B::inset, O::Shorthand, K::Value, false},
        {L("width"), &B::size, O::Longhand, K::Length, false, SizeWidth},
        {L("height"), &B::size, O::Longhand, K::Length, false, SizeHeight},
        {L("minWidth"), &B::size, O::Longhand, K::Length, false, SizeMinWidth},
        {L("minHeight"), &B::size, O::Longhand, K::Length, false, SizeMinHeight},
        {L("maxWidth"), &B::size, O::Longhand, K::Length, false, SizeMaxWidth},
        {L("maxHeight"), &B::size, O::Longhand, K::Length, false, SizeMaxHeight},
        // CSS Logical Properties 1 §2: in horizontal writing the inline size is the width;
        // applied before the physical properties, which win (Tailwind's `inline-*`, `block-*`).
        {L("inlineSize"), &B::size, O::Logical, K::Length, false, SizeWidth},
        {L("blockSize"), &B::size, O::Logical, K::Length, false, SizeHeight},
        {L("minInlineSize"), &B::size, O::Logical, K::Length, false, SizeMinWidth},
        {L("minBlockSize"), &B::size, O::Logical, K::Length, false, SizeMinHeight},
        {L("maxInlineSize"), &B::size, O::Logical, K::Length, false, SizeMaxWidth},
        {L("maxBlockSize"), &B::size, O::Logical, K::Length, false, SizeMaxHeight},
        {L("margin"), &B::margin, O::Shorthand, K::Length, false},
        {L("marginTop"), &B::margin, O::Longhand, K::Length, false, Edge::Top},
        {L("marginRight"), &B::margin, O::Longhand, K::Length, false, Edge::Right},
        {L("marginBottom"), &B::margin, O::Longhand, K::Length, false, Edge::Bottom},
        {L("marginLeft"), &B::margin, O::Longhand, K::Length, false, Edge::Left},
        {L("padding"), &B::padding, O::Shorthand, K::Length, false},
        {L("paddingTop"), &B::padding, O::Longhand, K::Length, false, Edge::Top},
        {L("paddingRight"), &B::padding, O::Longhand, K::Length, false, Edge::Right},
        {L("paddingBottom"), &B::padding, O::Longhand, K::Length, false, Edge::Bottom},
        {L("paddingLeft"), &B::padding, O::Longhand, K::Length, false, Edge::Left},
        {L("border"), &B::border, O::Shorthand, K::Value, false},
        {L("borderTop"), &B::border, O::SubShorthand, K::Value, false, Edge::Top},
        {L("borderRight"), &B::border, O::SubShorthand, K::Value, false, Edge::Right},
        {L("borderBottom"), &B::border, O::SubShorthand, K::Value, false, Edge::Bottom},
        {L("borderLeft"), &B::border, O::SubShorthand, K::Value, false, Edge::Left},
        {L("borderWidth"), &B::borderWidth, O::SubShorthand, K::Length, false},
        {L("borderTopWidth"), &B::borderWidth, O::Longhand, K::Length, false, Edge::Top},
        {L("borderRightWidth"), &B::borderWidth, O::Longhand, K::Length, false, Edge::Right},
        {L("borderBottomWidth"), &B::borderWidth, O::Longhand, K::Length, false, Edge::Bottom},
        {L("borderLeftWidth"), &B::borderWidth, O::Longhand, K::Length, false, Edge::Left},
        {L("borderStyle"), &B::borderStyle, O::SubShorthand, K::Value, false},
        {L("borderTopStyle"), &B::borderStyle, O::Longhand, K::Value, false, Edge::Top},
        {L("borderRightStyle"), &B::borderStyle, O::Longhand, K::Value, false, Edge::Right},
        {L("borderBottomStyle"), &B::borderStyle, O::Longhand, K::Value, false, Edge::Bottom},
        {L("borderLeftStyle"), &B::borderStyle, O::Longhand, K::Value, false, Edge::Left},
        {L("borderColor"), &B::borderColor, O::SubShorthand, K::Colour, false},
        {L("borderTopColor"), &B::borderColor, O::Longhand, K::Colour, false, Edge::Top},
        {L("borderRightColor"), &B::borderColor, O::Longhand, K::Colour, false, Edge::Right},
        {L("borderBottomColor"), &B::borderColor, O::Longhand, K::Colour, false, Edge::Bottom},
        {L("borderLeftColor"), &B::borderColor, O::Longhand, K::Colour, false, Edge::Left},
        // Flow-relative box properties (CSS Logical Properties 1 §4–5): mapped to a physical
        // edge by the element's direction (horizontal writing only); part = group * 8 + side
        // (StyleBuilder::logicalEdge()).
        {L("marginInlineStart"), &B::logicalEdge, O::Logical, K::Length, false, 0},
        {L("marginInlineEnd"), &B::logicalEdge, O::Logical, K::Length, false, 1},
        {L("marginBlockStart"), &B::logicalEdge, O::Logical, K::Length, false, 2},
        {L("marginBlockEnd"), &B::logicalEdge, O::Logical, K::Length, false, 3},
        {L("marginInline"), &B::logicalEdge, O::Logical, K::Length, false, 4},
        {L("marginBlock"), &B::logicalEdge, O::Logical, K::Length, false, 5},
        {L("paddingInlineStart"), &B::logicalEdge, O::Logical, K::Length, false, 8},
        {L("paddingInlineEnd"), &B::logicalEdge, O::Logical, K::Length, false, 9},
        {L("paddingBlockStart"), &B::logicalEdge, O::Logical, K::Length, false, 10},
        {L("paddingBlockEnd"), &B::logicalEdge, O::Logical, K::Length, false, 11},
        {L("paddingInline"), &B::logicalEdge, O::Logical, K::Length, false, 12},
        {L("paddingBlock"), &B::logicalEdge, O::Logical, K::Length, false, 13},
        {L("insetInlineStart"), &B::logicalEdge, O::Logical, K::Length, false, 16},
        {L("insetInlineEnd"), &B::logicalEdge, O::Logical, K::Length, false, 17},
        {L("insetBlockStart"), &B::logicalEdge, O::Logical, K::Length, false, 18},
        {L("insetBlockEnd"), &B::logicalEdge, O::Logical, K::Length, false, 19},
        {L("insetInline"), &B::logicalEdge, O::Logical, K::Length, false, 20},
        {L("insetBlock"), &B::logicalEdge, O::Logical, K::Length, false, 21},
        {L("borderInlineStartWidth"), &B::logicalEdge, O::Logical, K::Length, false, 24},
        {L("borderInlineEndWidth"), &B::logicalEdge, O::Logical, K::Length, false, 25},
        {L("borderBlockStartWidth"), &B::logicalEdge, O::Logical, K::Length, false, 26},
        {L("borderBlockEndWidth"), &B::logicalEdge, O::Logical, K::Length, false, 27},
        {L("borderInlineWidth"), &B::logicalEdge, O::Logical, K::Length, false, 28},
        {L("borderBlockWidth"), &B::logicalEdge, O::Logical, K::Length, false, 29},
        {L("borderInlineStartStyle"), &B::logicalEdge, O::Logical, K::Value, false, 32},
        {L("borderInlineEndStyle"), &B::logicalEdge, O::Logical, K::Value, false, 33},
        {L("borderBlockStartStyle"), &B::logicalEdge, O::Logical, K::Value, false, 34},
        {L("borderBlockEndStyle"), &B::logicalEdge, O::Logical, K::Value, false, 35},
        {L("borderInlineStyle"), &B::logicalEdge, O::Logical, K::Value, false, 36},
        {L("borderBlockStyle"), &B::logicalEdge, O::Logical, K::Value, false, 37},
        {L("borderInlineStartColor"), &B::logicalEdge, O::Logical, K::Colour, false, 40},
        {L("borderInlineEndColor"), &B::logicalEdge, O::Logical, K::Colour, false, 41},
        {L("borderBlockStartColor"), &B::logicalEdge, O::Logical, K::Colour, false, 42},
        {L("borderBlockEndColor"), &B::logicalEdge, O::Logical, K::Colour, false, 43},
        {L("borderInlineColor"), &B::logicalEdge, O::Logical, K::Colour, false, 44},
        {L("borderBlockColor"), &B::logicalEdge, O::Logical, K::Colour, false, 45},
        {L("borderInlineStart"), &B::logicalEdge, O::Logical, K::Value, false, 48},
        {L("borderInlineEnd"), &B::logicalEdge, O::Logical, K::Value, false, 49},
        {L("borderBlockStart"), &B::logicalEdge, O::Logical, K::Value, false, 50},
        {L("borderBlockEnd"), &B::logicalEdge, O::Logical, K::Value, false, 51},
        {L("borderInline"), &B::logicalEdge, O::Logical, K::Value, false, 52},
        {L("borderBlock"), &B::logicalEdge, O::Logical, K::Value, false, 53},
        {L("flexDirection"), &B::keywordField<&S::flexDirection, FlexDirectionKeywords>, O::Longhand, K::Value, false},
        {L("flexWrap"), &B::keywordField<&S::flexWrap, FlexWrapKeywords>, O::Longhand, K::Value, false},
        {L("flexFlow"), &B::flexFlow, O::Shorthand, K::Value, false},
        {L("flex"), &B::flex, O::Shorthand, K::Value, false},
        {L("flexGrow"), &B::flexFactor, O::Longhand, K::Value, false, 0},
        {L("flexShrink"), &B::flexFactor, O::Longhand, K::Value, false, 1},
        {L("flexBasis"), &B::flexBasis, O::Longhand, K::Length, false},
        {L("justifyContent"), &B::keywordField<&S::justifyContent, JustifyContentKeywords>, O::Longhand, K::Value,
         false},
        {L("alignItems"), &B::alignItems, O::Longhand, K::Value, false, 0},
        {L("alignSelf"), &B::alignItems, O::Longhand, K::Value, false, 1},
        {L("alignContent"), &B::keywordField<&S::alignContent, AlignContentKeywords>, O::Longhand, K::Value, false},
        {L("gap"), &B::gap, O::Shorthand, K::Value, false},
        {L("rowGap"), &B::gap, O::Longhand, K::Length, false, 1},
        {L("columnGap"), &B::gap, O::Longhand, K::Length, false, 0},
        {L("gridGap"), &B::gap, O::Longhand, K::Value, false},
        {L("overflow"), &B::overflow, O::Shorthand, K::Value, false},
        {L("overflowX"), &B::overflow, O::Longhand, K::Value, false, 0},
        {L("overflowY"), &B::overflow, O::Longhand, K::Value, false, 1},
        {L("aspectRatio"), &B::aspectRatio, O::Longhand, K::Value, false},
        // --- grid (grid_properties.cpp) ---
        {L("gridTemplateColumns"), &B::gridTemplateTracks, O::Longhand, K::Value, false, 0},
        {L("gridTemplateRows"), &B::gridTemplateTracks, O::Longhand, K::Value, false, 1},
        {L("gridTemplateAreas"), &B::gridTemplateAreas, O::Longhand, K::Value, false},
        {L("gridAutoColumns"), &B::gridAutoTracks, O::Longhand, K::Value, false, 0},
        {L("gridAutoRows"), &B::gridAutoTracks, O::Longhand, K::Value, false, 1},
        {L("gridAutoFlow"), &B::gridAutoFlow, O::Longhand, K::Value, false},
        {L("gridColumnStart"), &B::gridLine, O::Longhand, K::Value, false, GridColumnStart},
        {L("gridColumnEnd"), &B::gridLine, O::Longhand, K::Value, false, GridColumnEnd},
        {L("gridRowStart"), &B::gridLine, O::Longhand, K::Value, false, GridRowStart},
        {L("gridRowEnd"), &B::gridLine, O::Longhand, K::Value, false, GridRowEnd},
        {L("gridColumn"), &B::gridLineShorthand, O::Shorthand, K::Value, false, 0},
        {L("gridRow"), &B::gridLineShorthand, O::Shorthand, K::Value, false, 1},
        {L("gridArea"), &B::gridArea, O::Shorthand, K::Value, false},
        {L("gridRowGap"), &B::gap, O::Longhand, K::Length, false, 1},
        {L("gridColumnGap"), &B::gap, O::Longhand, K::Length, false, 0},
        {L("justifyItems"), &B::justifyItems, O::Longhand, K::Value, false, 0},
        {L("justifySelf"), &B::justifyItems, O::Longhand, K::Value, false, 1},
        {L("placeItems"), &B::placeItems, O::Shorthand, K::Value, false, 0},
        {L("placeSelf"), &B::placeItems, O::Shorthand, K::Value, false, 1},
        {L("placeContent"), &B::placeContent, O::Shorthand, K::Value, false},
        // --- paint ---
        {L("backgroundColor"), &B::backgroundColor, O::Longhand, K::Colour, false},
        {L("background"), &B::background, O::Shorthand, K::Value, false},
        {L("backgroundImage"), &B::backgroundImage, O::Longhand, K::Value, false},
        {L("backgroundSize"), &B::backgroundSize, O::LayerLonghand, K::Value, false},
        {L("backgroundPosition"), &B::backgroundPosition, O::LayerLonghand, K::Value, false},
        {L("backgroundRepeat"), &B::backgroundRepeat, O::LayerLonghand, K::Value, false},
        {L("backgroundOrigin"), &B::backgroundOrigin, O::LayerLonghand, K::Value, false},
        {L("borderRadius"), &B::borderRadius, O::Shorthand, K::Length, false},
        {L("borderTopLeftRadius"), &B::cornerRadius, O::Longhand, K::Length, false, 0},
        {L("borderTopRightRadius"), &B::cornerRadius, O::Longhand, K::Length, false, 1},
        {L("borderBottomRightRadius"), &B::cornerRadius, O::Longhand, K::Length, false, 2},
        {L("borderBottomLeftRadius"), &B::cornerRadius, O::Longhand, K::Length, false, 3},
        {L("borderStartStartRadius"), &B::logicalCorner, O::Logical, K::Length, false, 0},
        {L("borderStartEndRadius"), &B::logicalCorner, O::Logical, K::Length, false, 1},
        {L("borderEndStartRadius"), &B::logicalCorner, O::Logical, K::Length, false, 2},
        {L("borderEndEndRadius"), &B::logicalCorner, O::Logical, K::Length, false, 3},
        {L("boxShadow"), &B::boxShadow, O::Longhand, K::Value, false},
        {L("opacity"), &B::opacity, O::Longhand, K::Value, false},
        {L("isolation"), &B::keywordField<&S::isolation, IsolationKeywords>, O::Longhand, K::Value, false},
        {L("visibility"), &B::keywordField<&S::visibility, VisibilityKeywords>, O::Longhand, K::Value, true},
        {L("transform"), &B::transform, O::Longhand, K::Value, false},
        {L("transformOrigin"), &B::transformOrigin, O::Longhand, K::Value, false},
        {L("perspective"), &B::perspective, O::Longhand, K::Value, false},
        {L("perspectiveOrigin"), &B::perspectiveOrigin, O::Longhand, K::Value, false},
        {L("transformStyle"), &B::keywordField<&S::transformStyle, TransformStyleKeywords>, O::Longhand, K::Value, false},
        {L("backfaceVisibility"), &B::keywordField<&S::backfaceVisibility, BackfaceVisibilityKeywords>, O::Longhand,
         K::Value, false},
        {L("WebkitBackfaceVisibility"), &B::keywordField<&S::backfaceVisibility, BackfaceVisibilityKeywords>,
         O::Longhand, K::Value, false},
        {L("borderImage"), &B::borderImage, O::Shorthand, K::Value, false, -1},
        {L("borderImageSource"), &B::borderImage, O::Longhand, K::Value, false, 0},
        {L("borderImageSlice"), &B::borderImage, O::Longhand, K::Value, false, 1},
        {L("borderImageWidth"), &B::borderImage, O::Longhand, K::Value, false, 2},
        {L("borderImageOutset"), &B::borderImage, O::Longhand, K::Value, false, 3},
        {L("borderImageRepeat"), &B::borderImage, O::Longhand, K::Value, false, 4},
        {L("outline"), &B::outline, O::Shorthand, K::Value, false},
        {L("outlineWidth"), &B::outline, O::Longhand, K::Length, false, 0},
        {L("outlineStyle"), &B::outline, O::Longhand, K::Value, false, 1},
        {L("outlineColor"), &B::outline, O::Longhand, K::Value, false, 2},
        {L("outlineOffset"), &B::outline, O::Longhand, K::Length, false, 3},
        {L("translate"), &B::individualTransform, O::Longhand, K::Value, false, 0},
        {L("rotate"), &B::individualTransform, O::Longhand, K::Value, false, 1},
        {L("scale"), &B::individualTransform, O::Longhand, K::Value, false, 2},
        {L("objectFit"), &B::keywordField<&S::objectFit, ObjectFitKeywords>, O::Longhand, K::Value, false},
        {L("objectPosition"), &B::objectPosition, O::Longhand, K::Value, false},
        {L("textOverflow"), &B::textOverflow, O::Longhand, K::Value, false},
        {L("lineClamp"), &B::lineClamp, O::Longhand, K::Value, false},
        {L("WebkitLineClamp"), &B::lineClamp, O::Longhand, K::Value, false},
        // --- effects (effect_properties.cpp) ---
        {L("filter"), &B::filter, O::Longhand, K::Value, false, 0},
        {L("WebkitFilter"), &B::filter, O::Longhand, K::Value, false, 0},
        {L("backdropFilter"), &B::filter, O::Longhand, K::Value, false, 1},
        {L("WebkitBackdropFilter"), &B::filter, O::Longhand, K::Value, false, 1},
        {L("clipPath"), &B::clipPath, O::Longhand, K::Value, false},
        {L("WebkitClipPath"), &B::clipPath, O::Longhand, K::Value, false},
        // Mask layers (CSS Masking 1 §7) take the background layers' handlers; part 1
        // says they act on the mask's layer list (StyleBuilder::layersOf).
        {L("mask"), &B::background, O::Shorthand, K::Value, false, 1},
        {L("WebkitMask"), &B::background, O::Shorthand, K::Value, false, 1},
        {L("maskImage"), &B::backgroundImage, O::Longhand, K::Value, false, 1},
        {L("WebkitMaskImage"), &B::backgroundImage, O::Longhand, K::Value, false, 1},
        {L("maskSize"), &B::backgroundSize, O::LayerLonghand, K::Value, false, 1},
        {L("WebkitMaskSize"), &B::backgroundSize, O::LayerLonghand, K::Value, false, 1},
        {L("maskPosition"), &B::backgroundPosition, O::LayerLonghand, K::Value, false, 1},
        {L("WebkitMaskPosition"), &B::backgroundPosition, O::LayerLonghand, K::Value, false, 1},
        {L("maskRepeat"), &B::backgroundRepeat, O::LayerLonghand, K::Value, false, 1},
        {L("WebkitMaskRepeat"), &B::backgroundRepeat, O::LayerLonghand, K::Value, false, 1},
        {L("maskComposite"), &B::maskComposite, O::Longhand, K::Value, false},
        {L("WebkitMaskComposite"), &B::maskComposite, O::Longhand, K::Value, false},
        {L("mixBlendMode"), &B::mixBlendMode, O::Longhand, K::Value, false},
        {L("backgroundBlendMode"), &B::backgroundBlendMode, O::Longhand, K::Value, false},
        {L("willChange"), &B::willChange, O::Longhand, K::Value, false},
        {L("backgroundClip"), &B::backgroundClip, O::LayerLonghand, K::Value, false},
        {L("WebkitBackgroundClip"), &B::backgroundClip, O::LayerLonghand, K::Value, false},
        // --- text (inherited) ---
        {L("color"), &B::colorProp, O::Color, K::Colour, true},
        {L("fontFamily"), &B::fontFamily, O::FontSize, K::Value, true},
        {L("fontSize"), &B::fontSize, O::FontSize, K::Length, true},
        {L("fontWeight"), &B::fontWeight, O::FontSize, K::Value, true},
        {L("fontStyle"), &B::fontStyle, O::FontSize, K::Value, true},
        {L("fontVariantNumeric"), &B::fontVariantNumeric, O::Longhand, K::Value, true},
        {L("fontFeatureSettings"), &B::fontFeatureSettings, O::Longhand, K::Value, true},
        {L("fontVariantCaps"), &B::fontVariantCaps, O::Longhand, K::Value, true},
        {L("fontKerning"), &B::fontKerning, O::Longhand, K::Value, true},
        {L("fontStretch"), &B::fontStretch, O::Longhand, K::Value, true},
        {L("fontVariationSettings"), &B::fontVariationSettings, O::Longhand, K::Value, true},
        {L("fontVariantLigatures"), &B::fontVariantLigatures, O::Longhand, K::Value, true},
        {L("fontVariantPosition"), &B::fontVariantPosition, O::Longhand, K::Value, true},
        {L("fontVariant"), &B::fontVariant, O::Shorthand, K::Value, true},
        {L("lineHeight"), &B::lineHeight, O::Longhand, K::Value, true},
        {L("letterSpacing"), &B::spacing, O::Longhand, K::Length, true, 0},
        {L("wordSpacing"), &B::spacing, O::Longhand, K::Length, true, 1},
        {L("tabSize"), &B::tabSize, O::Longhand, K::Value, true},
        {L("textAlign"), &B::keywordField<&S::textAlign, TextAlignKeywords>, O::Longhand, K::Value, true},
        {L("textTransform"), &B::keywordField<&S::textTransform, TextTransformKeywords>, O::Longhand, K::Value, true},
        {L("whiteSpace"), &B::whiteSpace, O::Longhand, K::Value, true, 0},
        {L("whiteSpaceCollapse"), &B::whiteSpace, O::Longhand, K::Value, true, 1},
        {L("textWrap"), &B::textWrap, O::Longhand, K::Value, true},
        {L("textWrapStyle"), &B::textWrap, O::Longhand, K::Value, true},
        {L("textFit"), &B::textFit, O::Longhand, K::Value, true},
        {L("textWrapMode"), &B::textWrap, O::Longhand, K::Value, true},
        {L("wordBreak"), &B::keywordField<&S::wordBreak, WordBreakKeywords>, O::Longhand, K::Value, true},
        {L("hyphens"), &B::keywordField<&S::hyphens, HyphensKeywords>, O::Longhand, K::Value, true},
        {L("WebkitHyphens"), &B::keywordField<&S::hyphens, HyphensKeywords>, O::Longhand, K::Value, true},
        {L("overflowWrap"), &B::keywordField<&S::overflowWrap, OverflowWrapKeywords>, O::Longhand, K::Value, true},
        {L("wordWrap"), &B::keywordField<&S::overflowWrap, OverflowWrapKeywords>, O::Longhand, K::Value, true},
        {L("direction"), &B::direction, O::Color, K::Value, true},
        {L("textShadow"), &B::textShadow, O::Longhand, K::Value, true},
        {L("textDecoration"), &B::textDecoration, O::Shorthand, K::Value, true},
        {L("textDecorationLine"), &B::textDecorationLine, O::Longhand, K::Value, true},
        {L("textDecorationColor"), &B::textDecorationColor, O::Longhand, K::Colour, true},
        {L("textDecorationStyle"), &B::textDecorationStyle, O::Longhand, K::Value, true},
        {L("textDecorationThickness"), &B::textDecorationThickness, O::Longhand, K::Value, true},
        {L("textUnderlineOffset"), &B::textUnderlineOffset, O::Longhand, K::Value, true},
        {L("textDecorationSkipInk"), &B::keywordField<&S::textDecorationSkipInk, DecorationSkipInkKeywords>,
         O::Longhand, K::Value, true},
        {L("textIndent"), &B::textIndent, O::Longhand, K::Value, true},
        {L("verticalAlign"), &B::verticalAlign, O::Longhand, K::Value, false},
        {L("WebkitTextStroke"), &B::textStroke, O::Shorthand, K::Value, true, 0},
        {L("WebkitTextStrokeWidth"), &B::textStroke, O::Longhand, K::Value, true, 1},
        {L("WebkitTextStrokeColor"), &B::textStroke, O::Longhand, K::Colour, true, 2},
        // Companions of the line-clamp idiom; they change nothing here.
        {L("WebkitBoxOrient"), &B::ignored, O::Longhand, K::Value, false},
        {L("boxOrient"), &B::ignored, O::Longhand, K::Value, false},
        // What web code brings that a still image cannot show (isStillImageNoOp()): the
        // pointer and selection, caret and form-control accents, transitions (a screenshot
        // is taken before any change), scrolling and snapping, and macOS-only font
        // smoothing (Tailwind's `antialiased`), which Chromium on Linux ignores too.
        {L("cursor"), &B::ignored, O::Longhand, K::Value, false},
        {L("pointerEvents"), &B::ignored, O::Longhand, K::Value, false},
        {L("userSelect"), &B::ignored, O::Longhand, K::Value, false},
        {L("WebkitUserSelect"), &B::ignored, O::Longhand, K::Value, false},
        {L("MozUserSelect"), &B::ignored, O::Longhand, K::Value, false},
        {L("msUserSelect"), &B::ignored, O::Longhand, K::Value, false},
        {L("touchAction"), &B::ignored, O::Longhand, K::Value, false},
        {L("WebkitTapHighlightColor"), &B::ignored, O::Longhand, K::Value, false},
        {L("caretColor"), &B::ignored, O::Longhand, K::Value, false},
        {L("accentColor"), &B::ignored, O::Longhand, K::Value, false},
        {L("forcedColorAdjust"), &B::ignored, O::Longhand, K::Value, false},
        {L("transition"), &B::ignored, O::Longhand, K::Value, false},
        {L("transitionProperty"), &B::ignored, O::Longhand, K::Value, false},
        {L("transitionDuration"), &B::ignored, O::Longhand, K::Value, false},
        {L("transitionTimingFunction"), &B::ignored, O::Longhand, K::Value, false},
        {L("transitionDelay"), &B::ignored, O::Longhand, K::Value, false},
        {L("transitionBehavior"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollBehavior"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollSnapAlign"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollSnapStop"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollSnapType"), &B::ignored, O::Longhand, K::Value, false},
        {L("overscrollBehavior"), &B::ignored, O::Longhand, K::Value, false},
        {L("overscrollBehaviorX"), &B::ignored, O::Longhand, K::Value, false},
        {L("overscrollBehaviorY"), &B::ignored, O::Longhand, K::Value, false},
        {L("WebkitFontSmoothing"), &B::ignored, O::Longhand, K::Value, false},
        {L("MozOsxFontSmoothing"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMargin"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPadding"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMarginTop"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPaddingTop"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMarginRight"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPaddingRight"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMarginBottom"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPaddingBottom"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMarginLeft"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPaddingLeft"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMarginBlock"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPaddingBlock"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMarginBlockStart"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPaddingBlockStart"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMarginBlockEnd"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPaddingBlockEnd"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMarginInline"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPaddingInline"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMarginInlineStart"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPaddingInlineStart"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollMarginInlineEnd"), &B::ignored, O::Longhand, K::Value, false},
        {L("scrollPaddingInlineEnd"), &B::ignored, O::Longhand, K::Value, false},
    };
    return rows;
}

} // namespace style_detail

std::span<const CssProperty> cssProperties()
{
    return style_detail::StyleBuilder::table();
}

const CssProperty *findCssProperty(const QString &name)
{
    static const QHash<QString, const CssProperty *> byName = [] {
        QHash<QString, const CssProperty *> h;
        for (const CssProperty &p : cssProperties())
            h.insert(QString(p.name), &p);
        return h;
    }();
    return byName.value(name, nullptr);
}

bool isStillImageNoOp(const CssProperty &property)
{
    return style_detail::StyleBuilder::ignores(property);
}

namespace style_detail {

KeywordMiss &lastKeywordMiss()
{
    thread_local KeywordMiss miss;
    return miss;
}

QString keywordSuggestion()
{
    const KeywordMiss &miss = lastKeywordMiss();
    if (miss.text.isEmpty())
        return {};
    QStringList names;
    names.reserve(qsizetype(miss.names.size()));
    for (QLatin1String name : miss.names)
        names.append(name);
    return common::closestName(QStringView(miss.text).trimmed().toString().toLower(), names);
}

QString unsupportedPropertyMessage(const QString &name)
{
    static const QStringList names = [] {
        QStringList all;
        for (const CssProperty &p : cssProperties())
            all.append(QString(p.name));
        return all;
    }();
    const QString near = common::closestName(name, names);
    return near.isEmpty() ? QStringLiteral("unsupported property")
                          : QStringLiteral("unsupported property; did you mean '%1'?").arg(near);
}

} // namespace style_detail

QString valueKindName(ValueKind kind)
{
    switch (kind) {
    case ValueKind::Length: return QStringLiteral("length");
    case ValueKind::Colour: return QStringLiteral("colour");
    case ValueKind::Value: break;
    }
    return QStringLiteral("value");
}

} // namespace imprint::render
