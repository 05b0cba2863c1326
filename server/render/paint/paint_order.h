#pragma once
// The order in which a box's children are painted, shared by the raster painter
// (paint.cpp) and the SVG writer (svg.cpp) so both engines stack boxes alike.

#include "server/render/layout/layout.h"

#include <vector>

namespace imprint::render {

/// A box's element children in painting order (CSS 2 Appendix E within the box).
struct PaintOrder {
    /// Children with a negative z-index when the box itself is not a stacking context:
    /// they belong to an ancestor's stacking context, so they go beneath the box's own
    /// background (and shadow), painted before it.
    std::vector<const LayoutBox *> beneath;
    /// The rest: negative z-index (ascending, when the box is a stacking context), in-flow
    /// content in document order, z-index auto or 0 in document order, then positive
    /// z-index ascending (ties keep document order).
    std::vector<const LayoutBox *> children;
};

/// Whether `box` (whose parent is `parent`, null for the root) is a stacking context: a
/// positioned box or flex item with a z-index, opacity < 1, a transform, a perspective,
/// preserve-3d, isolation: isolate or an effect (filter, backdrop-filter, clip-path, mask,
/// mix-blend-mode).
bool isStackingContext(const LayoutBox &box, const LayoutBox *parent);

/// Whether an element under `box` has a mix-blend-mode. Of the root: whether any
/// isolatesBlending() box can exist in the tree.
bool hasBlendingDescendant(const LayoutBox &box);

/// Whether `box` (whose parent is `parent`) is painted as an isolated group: a stacking
/// context other than the root with a blend mode under it, which blends with what the
/// group painted, not with the page behind it (CSS Compositing 1 §3.2).
bool isolatesBlending(const LayoutBox &box, const LayoutBox *parent);

/// The painting order of `box`'s children; `parent` is `box`'s parent (null for the
/// root). z-index applies to positioned boxes and to flex items (CSS Flexbox 1 §4.3); a
/// box with an applicable z-index, opacity < 1 or a transform is a stacking context.
/// Simplified: negative z-index children of a box that is not a stacking context go
/// beneath that box only, not beneath its ancestors' content too; positive ones are not
/// lifted above the box's later siblings. Pointers point into `box.children`.
PaintOrder paintOrder(const LayoutBox &box, const LayoutBox *parent);

} // namespace imprint::render
