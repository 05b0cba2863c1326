#pragma once
// The order in which a box's children are painted, shared by the raster painter
// (paint.cpp) and the SVG writer (svg.cpp) so both engines stack boxes alike.

#include "server/render/layout.h"

#include <vector>

namespace imprint::render {

/// True when the child paints as a layer of its own (after in-flow content): positioned,
/// translucent or transformed boxes, and boxes whose z-index applies (see paintOrder).
/// `parent` is the child's parent box, null for the root.
bool paintsAsLayer(const LayoutBox &child, const LayoutBox *parent);

/// `box`'s element children in painting order, following CSS 2 Appendix E within the
/// box: layers with a negative z-index (ascending), then in-flow content in document
/// order, then layers with z-index auto or 0 in document order, then positive z-index
/// (ascending; ties keep document order). z-index applies to positioned boxes and to flex
/// items (CSS Flexbox 1 §4.3). Simplified: each box orders only its own children, so a
/// descendant's z-index does not lift it out of an ancestor that is not a stacking
/// context. Returned pointers point into `box.children`.
std::vector<const LayoutBox *> paintOrder(const LayoutBox &box);

} // namespace imprint::render
