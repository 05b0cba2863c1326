#pragma once
// Box alignment shared by the formatting contexts (CSS Box Alignment 3): how free space
// is distributed between and around a run of items, and which alignment an item uses.
// The flex algorithm calls these for justify-content (§9.5 step 12), align-content
// (§9.6 step 15) and the static position of absolutely positioned children (§4.1), so
// the rules exist once, as Yoga's Align.h keeps them.

#include "server/render/style/computed_style.h"

#include <cstddef>

namespace imprint::render {

/// A content-distribution value of justify-content or align-content, without the
/// property it came from (CSS Box Alignment 3 §5.3, §6.1).
enum class ContentDistribution : quint8 { Start, End, Center, SpaceBetween, SpaceAround, SpaceEvenly, Stretch };

/// Where the first item starts and how much extra space follows each item but the last,
/// in px along the axis being aligned.
struct Distribution {
    qreal offset = 0;
    qreal between = 0;
};

/// Distributes `freeSpace` px (negative when the items overflow) over `count` items
/// (count ≥ 1) by `mode`, with the fallback alignment of CSS Box Alignment 3 §5.3 for
/// negative free space or a single item: space-between falls back to start,
/// space-around and space-evenly to safe center (centred while the content fits, at the
/// start when it overflows). `Stretch` distributes nothing here (the caller grows the
/// items).
Distribution distributeContent(ContentDistribution mode, qreal freeSpace, std::size_t count);

/// justify-content as a distribution along the main axis, ignoring the container's
/// direction (start, end, left and right as flex-start or flex-end).
ContentDistribution contentDistribution(JustifyContent value);

/// The container's justify-content as a distribution along its main axis, with start,
/// end, left and right resolved against its flex direction and `direction` (CSS Box
/// Alignment 3 §4.3, §5.1).
ContentDistribution justifyContentDistribution(const ComputedStyle &container);
/// align-content as a distribution.
ContentDistribution contentDistribution(AlignContent value);

/// The alignment a flex item uses: its align-self, or the container's align-items when
/// align-self is `auto` (CSS Flexbox 1 §8.3).
AlignItems usedAlignSelf(const ComputedStyle &container, const ComputedStyle &item);

/// True when the container's main axis runs right to left or bottom to top (CSS
/// Flexbox 1 §5.1): row-reverse in ltr, row in rtl (a row follows the inline axis, whose
/// start is the right edge in rtl), column-reverse.
bool isMainAxisReversed(const ComputedStyle &container);

/// True when the container's cross axis runs right to left or bottom to top (CSS
/// Flexbox 1 §5.2): wrap-reverse, and for columns the inline axis in rtl, flipped again
/// by wrap-reverse.
bool isCrossAxisReversed(const ComputedStyle &container);

} // namespace imprint::render
