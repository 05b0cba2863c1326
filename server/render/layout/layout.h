#pragma once
// Layout: the styled document tree → a tree of boxes in px (CSS Flexible Box Layout
// Level 1 §9 for flex containers, block flow for display:block, absolute positioning
// against the padding box). Numbers only, no painting: every engine paints the same
// boxes. Text is measured through the TextMeasurer the caller supplies.

#include "server/render/document/node.h"
#include "server/render/text/text_measurer.h"

#include <QMarginsF>
#include <QRectF>
#include <QSizeF>

#include <memory>
#include <optional>
#include <vector>

namespace imprint::render {

/// One laid-out box. Geometry is in page px (origin top-left of the image), before
/// transforms (the painter applies `transform` around transform-origin).
struct LayoutBox {
    const Node *node = nullptr; ///< the element or text run this box is for
    QRectF borderBox; ///< border-box rect in page px
    QMarginsF border; ///< used border widths
    QMarginsF padding; ///< used padding
    qreal firstBaseline = 0; ///< px from borderBox.top() (text runs and baseline alignment)
    /// The baseline of its last line box in the normal flow, px from borderBox.top(); unset
    /// when it has none (CSS 2 §10.8.1: an inline-block's baseline).
    std::optional<qreal> lastLineBaseline;
    /// Its last baseline for `last baseline` alignment (CSS Box Alignment 3 §9.1), px from
    /// borderBox.top(): a text run's or block's last line box's, a flex container's last
    /// line's (CSS Flexbox 1 §8.5); unset when it has none (synthesized from the border
    /// box's bottom edge).
    std::optional<qreal> lastBaseline;
    /// Inline boxes (display:inline in an inline formatting context): the border box of
    /// each fragment, one per line it spans (CSS Inline 3 §2.2, box-decoration-break:
    /// slice), in the same coordinates as borderBox, which is their union.
    std::vector<QRectF> fragments;
    /// Per fragment (same order): whether it carries the box's left / right border and
    /// padding, where the box starts or ends on a line (CSS Inline 3 §2.2; with bidi
    /// reordering the leftmost / rightmost piece of the line, as in Blink).
    struct FragmentEdges {
        bool left = true, right = true;
    };
    std::vector<FragmentEdges> fragmentEdges;
    /// Text runs in an inline formatting context: their glyphs as the paragraph shaped
    /// them, drawn with `textOrigin` (relative to borderBox.topLeft()) as the block's origin.
    std::shared_ptr<const TextBlock> text;
    QPointF textOrigin;
    std::vector<LayoutBox> children; ///< in document order (absolutely positioned ones included)

    QRectF paddingBox() const { return borderBox.marginsRemoved(border); }
    QRectF contentBox() const { return paddingBox().marginsRemoved(padding); }
};

/// Lays out the document rooted at `root` in a viewport of `viewport` px (the root's
/// containing block: the image size). The root box is placed at its top and left margins
/// (0,0 without margins) and, without a height of its own, fills the viewport's height,
/// unless `contentHeight`: the image's height came from contentSizedViewport(), so the
/// root keeps its content height and percentages against it stay indefinite, as for the
/// absolutely positioned box that measured it. Never fails: impossible constraints
/// resolve as CSS says (overflow, negative free space).
LayoutBox layoutDocument(const Node &root, QSizeF viewport, TextMeasurer &text, bool contentHeight = false);

/// The image size for a root whose width and/or height the template leaves out: the root
/// sized like an absolutely positioned box with auto width/height (shrink-to-fit, CSS 2
/// §10.3.7 and §10.6.4) in a containing block of `maxViewport` px, its border box
/// rounded up to whole px and kept within `maxViewport`. `width`/`height` > 0 are known
/// sides (the root fills a known width); 0 asks for the content size.
QSize contentSizedViewport(const Node &root, QSizeF maxViewport, int width, int height, TextMeasurer &text);

} // namespace imprint::render
