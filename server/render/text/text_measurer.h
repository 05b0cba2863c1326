#pragma once
// The text module's contract with layout: layout asks how large a text run is at a given
// width and never sees fonts or glyphs (the "measure callback" of Yoga and Taffy). The
// TextEngine (text_engine.h) implements it; tests use fixed-advance fakes.

#include "server/render/document/node.h"

#include <QRectF>
#include <QSizeF>

#include <limits>
#include <memory>
#include <vector>

namespace imprint::render {

/// Size of a text run laid out within a width (CSS Text 3 line breaking).
struct TextMetrics {
    QSizeF size; ///< px: width of the widest line, height of all lines
    qreal firstBaseline = 0; ///< px from the top of the first line box to its baseline
    qreal lastBaseline = 0; ///< px from the top of the first line box to the last line's baseline
};

struct TextBlock; // text_engine.h: shaped lines, opaque to layout

/// One piece of an inline formatting context's content (CSS Inline 3 §2), in document
/// order: the text of a run, the start or end of an inline box (with the margin, border
/// and padding on that side), an atomic inline (an img or inline-block, already sized)
/// or a forced break (`br`).
struct InlineItem {
    enum class Kind : quint8 { Text, Open, Close, Atomic, Break };
    Kind kind = Kind::Text;
    const Node *node = nullptr; ///< the text run or the element
    qreal edge = 0; ///< Open/Close: px of margin + border + padding on that inline side
    qreal margin = 0; ///< Open/Close: the margin part of `edge`
    QSizeF size; ///< Atomic: margin-box size in px
    qreal baseline = 0; ///< Atomic: px from the margin-box top to its baseline
};

/// One line box of an inline formatting context (CSS Inline 3 §2.2), px from the top of
/// the paragraph.
struct InlineLine {
    qreal top = 0;
    qreal height = 0;
    qreal baseline = 0; ///< y of the line's alphabetic baseline
    // What text-fit (CSS Text 5) measures and keeps of a line; layout has no use for them.
    qreal advance = 0; ///< px: the advance width of its content (what text-align aligns)
    qreal fixedWidth = 0; ///< px of `advance` that is not text: inline box edges, atomic inlines, text-indent
    int length = 0; ///< its characters in the text module's paragraph string (where it breaks)
    bool forcedBreak = false; ///< it ends in a forced break (a br, a preserved newline)
};

/// A piece of an item on one line: for Text items the content area of its glyphs, for
/// Open items the border box of the inline box's fragment on that line (its content
/// area plus horizontal padding and border where the box starts or ends on the line;
/// layout adds the vertical ones), for Atomic items its margin box. Px from the top-left
/// of the paragraph.
struct InlineFragment {
    int line = 0;
    QRectF rect;
    qreal baseline = 0; ///< y of the item's own baseline on that line (its line's, shifted by vertical-align)
    /// Inline boxes: whether this fragment carries the box's left / right margin, border
    /// and padding (the box starts or ends there: CSS Inline 3 §2.2, and with bidi
    /// reordering the leftmost and rightmost piece of a line, as in Blink).
    bool leftEdge = true, rightEdge = true;
};

/// An inline formatting context laid out in a width: line boxes, every item's fragments
/// and, per Text item, its glyphs (positions relative to the paragraph's top-left).
struct InlineLayout {
    std::vector<InlineLine> lines;
    std::vector<std::vector<InlineFragment>> fragments; ///< by item index
    std::vector<std::shared_ptr<const TextBlock>> text; ///< by item index; null unless Text
    QSizeF size; ///< px: widest line, sum of line heights
    qreal firstBaseline = 0; ///< px from the top to the first line's baseline
    qreal lastBaseline = 0; ///< px from the top to the last (visible) line's baseline
};

/// The layout engine's view of the text module (the "measure callback").
class TextMeasurer
{
public:
    virtual ~TextMeasurer() = default;
    /// Lays `textRun` (a Node of Kind::Text, with its inherited style) out in lines no
    /// wider than `maxWidth` px. maxWidth = infinity gives the max-content size, 0 the
    /// min-content size (widest unbreakable piece). Must be thread-safe and give the same
    /// lines the painter will draw for the same width.
    virtual TextMetrics measure(const Node &textRun, qreal maxWidth) = 0;
    /// Lays the inline content `items` of a block container styled `block` out as one
    /// paragraph in lines no wider than `maxWidth` px (kMaxContent / 0 as in measure()):
    /// CSS Inline 3 line boxes, CSS Text 3 breaking and alignment across the items.
    virtual InlineLayout layoutInline(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal maxWidth)
        = 0;
};

inline constexpr qreal kMaxContent = std::numeric_limits<qreal>::infinity();

} // namespace imprint::render
