#pragma once
// Internal to the style module: the keyword lists of the style properties whose value is
// one keyword (or ends in one), each written once here instead of inline in its handler.
// A property that only stores its keyword needs no handler of its own: its row of the
// property table (properties.cpp) names StyleBuilder::keywordField with its list and field.
// Each list is the `list` of a struct whose `using enum` lets its rows name the values bare.

#include "server/render/style/computed_style.h"

namespace imprint::render::style_detail {

/// One keyword of a list and the value it stands for.
template<typename E>
struct Keyword {
    const char *name;
    E value;
};

/// border-style (CSS Backgrounds 3 §4.2).
struct BorderStyleKeywords {
    using enum BorderStyle;
    static constexpr Keyword<BorderStyle> list[] = {
        {"none", None},
        {"hidden", None},
        {"solid", Solid},
        {"dashed", Dashed},
        {"dotted", Dotted},
        {"double", Double},
        // 3D styles are drawn solid (satori does the same).
        {"groove", Solid},
        {"ridge", Solid},
        {"inset", Solid},
        {"outset", Solid},
    };
};

/// flex-direction and flex-wrap (CSS Flexbox 1 §5.1–5.2).
struct FlexDirectionKeywords {
    using enum FlexDirection;
    static constexpr Keyword<FlexDirection> list[] = {
        {"row", Row},
        {"row-reverse", RowReverse},
        {"column", Column},
        {"column-reverse", ColumnReverse},
    };
};
struct FlexWrapKeywords {
    using enum FlexWrap;
    static constexpr Keyword<FlexWrap> list[] = {
        {"nowrap", NoWrap},
        {"wrap", Wrap},
        {"wrap-reverse", WrapReverse},
    };
};

/// justify-content (CSS Box Alignment 3): start/end/left/right act as flex-start/flex-end
/// in a left-to-right row; normal and stretch behave as flex-start for flex containers
/// and stretch auto tracks in grid containers.
struct JustifyContentKeywords {
    using enum JustifyContent;
    static constexpr Keyword<JustifyContent> list[] = {
        {"flex-start", FlexStart},
        {"start", Start},
        {"left", Left},
        {"normal", Normal},
        {"stretch", Stretch},
        {"flex-end", FlexEnd},
        {"end", End},
        {"right", Right},
        {"center", Center},
        {"space-between", SpaceBetween},
        {"space-around", SpaceAround},
        {"space-evenly", SpaceEvenly},
    };
};

/// align-items and align-self (CSS Box Alignment 3 §6.2–6.3), as flex layout uses them.
struct AlignItemsKeywords {
    using enum AlignItems;
    static constexpr Keyword<AlignItems> list[] = {
        {"auto", Auto},
        {"flex-start", FlexStart},
        {"start", FlexStart},
        {"self-start", FlexStart},
        {"left", FlexStart},
        {"flex-end", FlexEnd},
        {"end", FlexEnd},
        {"self-end", FlexEnd},
        {"right", FlexEnd},
        {"center", Center},
        {"baseline", Baseline},
        {"first baseline", Baseline},
        {"last baseline", LastBaseline},
        {"stretch", Stretch},
        {"normal", Stretch},
    };
};

/// align-content (CSS Box Alignment 3 §5.1).
struct AlignContentKeywords {
    using enum AlignContent;
    static constexpr Keyword<AlignContent> list[] = {
        {"flex-start", FlexStart},
        {"start", FlexStart},
        {"baseline", FlexStart},
        {"flex-end", FlexEnd},
        {"end", FlexEnd},
        {"center", Center},
        {"space-between", SpaceBetween},
        {"space-around", SpaceAround},
        {"space-evenly", SpaceEvenly},
        {"stretch", Stretch},
        {"normal", Stretch},
    };
};

/// justify-items and justify-self (CSS Box Alignment 3 §6.1–6.2), as grid layout uses them.
struct JustifyItemsKeywords {
    using enum JustifyItems;
    static constexpr Keyword<JustifyItems> list[] = {
        {"auto", Auto},
        {"normal", Normal},
        {"stretch", Stretch},
        {"start", Start},
        {"self-start", Start},
        {"flex-start", Start},
        {"end", End},
        {"self-end", End},
        {"flex-end", End},
        {"center", Center},
        {"left", Left},
        {"right", Right},
        {"baseline", Baseline},
    };
};

/// isolation (CSS Compositing 1 §3.3).
struct IsolationKeywords {
    using enum Isolation;
    static constexpr Keyword<Isolation> list[] = {
        {"auto", Auto},
        {"isolate", Isolate},
    };
};

/// visibility (CSS Display 3 §4); `collapse` hides as `hidden` outside tables.
struct VisibilityKeywords {
    using enum Visibility;
    static constexpr Keyword<Visibility> list[] = {
        {"visible", Visible},
        {"hidden", Hidden},
        {"collapse", Hidden},
    };
};

/// transform-style (CSS Transforms 2 §8).
struct TransformStyleKeywords {
    using enum TransformStyle;
    static constexpr Keyword<TransformStyle> list[] = {
        {"flat", Flat},
        {"preserve-3d", Preserve3d},
    };
};

/// backface-visibility (CSS Transforms 2 §9).
struct BackfaceVisibilityKeywords {
    using enum BackfaceVisibility;
    static constexpr Keyword<BackfaceVisibility> list[] = {
        {"visible", Visible},
        {"hidden", Hidden},
    };
};

/// border-image-repeat, one axis (CSS Backgrounds 3 §6.5).
struct BorderImageRepeatKeywords {
    using enum BorderImageRepeat;
    static constexpr Keyword<BorderImageRepeat> list[] = {
        {"stretch", Stretch},
        {"repeat", Repeat},
        {"round", Round},
        {"space", Space},
    };
};

/// object-fit (CSS Images 3 §5.5).
struct ObjectFitKeywords {
    using enum ObjectFit;
    static constexpr Keyword<ObjectFit> list[] = {
        {"fill", Fill},
        {"contain", Contain},
        {"cover", Cover},
        {"none", None},
        {"scale-down", ScaleDown},
    };
};

/// text-align (CSS Text 3 §7.1).
struct TextAlignKeywords {
    using enum TextAlign;
    static constexpr Keyword<TextAlign> list[] = {
        {"start", Start},
        {"end", End},
        {"left", Left},
        {"right", Right},
        {"center", Center},
        {"justify", Justify},
        {"-webkit-center", Center},
        {"match-parent", Start},
    };
};

/// text-transform (CSS Text 3 §2.1).
struct TextTransformKeywords {
    using enum TextTransform;
    static constexpr Keyword<TextTransform> list[] = {
        {"none", None},
        {"uppercase", Uppercase},
        {"lowercase", Lowercase},
        {"capitalize", Capitalize},
    };
};

/// white-space (CSS Text 3 §3).
struct WhiteSpaceKeywords {
    using enum WhiteSpace;
    static constexpr Keyword<WhiteSpace> list[] = {
        {"normal", Normal},
        {"nowrap", NoWrap},
        {"pre", Pre},
        {"pre-wrap", PreWrap},
        {"pre-line", PreLine},
        {"break-spaces", PreWrap},
    };
};

/// text-wrap-style (CSS Text 4 §6.3).
struct TextWrapStyleKeywords {
    using enum TextWrapStyle;
    static constexpr Keyword<TextWrapStyle> list[] = {
        {"auto", Auto},
        {"balance", Balance},
        {"pretty", Pretty},
        {"stable", Stable},
    };
};

/// word-break, hyphens and overflow-wrap (CSS Text 3 §5.2, §5.4, §5.5).
struct WordBreakKeywords {
    using enum WordBreak;
    static constexpr Keyword<WordBreak> list[] = {
        {"normal", Normal},
        {"break-all", BreakAll},
        {"keep-all", KeepAll},
        {"break-word", BreakWord},
    };
};
struct HyphensKeywords {
    using enum Hyphens;
    static constexpr Keyword<Hyphens> list[] = {
        {"none", None},
        {"manual", Manual},
        {"auto", Auto},
    };
};
struct OverflowWrapKeywords {
    using enum OverflowWrap;
    static constexpr Keyword<OverflowWrap> list[] = {
        {"normal", Normal},
        {"break-word", BreakWord},
        {"anywhere", Anywhere},
    };
};

/// text-decoration-style (CSS Text Decoration 3 §2.3).
struct DecorationStyleKeywords {
    using enum DecorationStyle;
    static constexpr Keyword<DecorationStyle> list[] = {
        {"solid", Solid},
        {"double", Double},
        {"dotted", Dotted},
        {"dashed", Dashed},
        {"wavy", Wavy},
    };
};

/// text-decoration-skip-ink (CSS Text Decoration 4 §4.2); `all` (skip CJK ink too) is
/// drawn as `auto`, which already skips every glyph's ink.
struct DecorationSkipInkKeywords {
    using enum DecorationSkipInk;
    static constexpr Keyword<DecorationSkipInk> list[] = {
        {"auto", Auto},
        {"none", None},
        {"all", Auto},
    };
};

} // namespace imprint::render::style_detail
