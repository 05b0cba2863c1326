#pragma once
// The order in which a box's children are painted, shared by the raster painter
// (paint.cpp) and the SVG writer (svg.cpp) so both engines stack boxes alike.

#include "server/render/layout/layout.h"

#include <vector>

namespace imprint::render {

/// One box to paint from a box's painting order: its own parent (whose child it is in the
/// tree, which is not the box painting it when it was lifted out of in-flow content), and
/// the boxes between them whose overflow clip still applies to it.
struct PaintItem {
    const LayoutBox *box;
    const LayoutBox *parent;
    /// In-flow boxes between the painting box and `box` (outermost first) with overflow:
    /// hidden: their clip applies to a lifted box they contain, except to an absolutely
    /// positioned one, whose containing block lies outside them (CSS Overflow 3 §3).
    std::vector<const LayoutBox *> clips;
};

/// A box's element children, and the positioned descendants it paints for its in-flow
/// children, in painting order (CSS 2 Appendix E).
struct PaintOrder {
    /// Children with a negative z-index when the box itself is not a stacking context:
    /// they belong to an ancestor's stacking context, so they go beneath the box's own
    /// background (and shadow), painted before it.
    std::vector<PaintItem> beneath;
    /// The rest: negative z-index (ascending, when the box is a stacking context), in-flow
    /// content in document order, z-index auto or 0 in document order, then positive
    /// z-index ascending (ties keep document order).
    std::vector<PaintItem> children;
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
/// Positioned boxes and stacking contexts are layers: a layer (or the root) paints, after
/// its in-flow content, the layers found in that content through boxes that are none
/// (Appendix E step 8: an absolutely positioned badge inside a static row paints over an
/// earlier positioned overlay, in document order); a box that is no layer leaves its
/// layer children to that ancestor. Simplified: negative z-index children of a box that
/// is not a stacking context go beneath that box only, not beneath its ancestors' content
/// too; positive ones are not lifted above the box's later siblings. Pointers point into
/// the tree under `box`.
PaintOrder paintOrder(const LayoutBox &box, const LayoutBox *parent);

} // namespace imprint::render
