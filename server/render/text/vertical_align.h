#pragma once
// vertical-align in a line box (CSS 2 §10.8, CSS Inline 3 §4): the inline boxes, text runs
// and atomic inlines on one line as a tree, each aligned against its parent box or the
// line box, and the line box's height that results. Pure arithmetic on the boxes' layout
// bounds, so it is tested with hand-computed numbers; the inline layout
// (text_engine.cpp) builds the tree from the fonts and sizes of a line's items.

#include "server/render/css/values.h"

#include <QtGlobal>

#include <vector>

namespace imprint::render {

/// One box of a line's inline box tree, as the vertical-align steps see it. Px, y down.
/// `above`/`below` are the box's layout bounds from its own baseline (for an inline box or
/// text run its font's ascent/descent with the half-leading, CSS Inline 3 §4.2; for an
/// atomic inline its margin box). The font fields describe the box's own first available
/// font: the boxes inside it align to them (sub/super, text-top/text-bottom, middle), and
/// `lineHeight` (its used line-height) resolves its own percentage.
struct LineBoxEntry {
    int parent = -1; ///< index of the enclosing inline box; -1 only for entry 0, the root inline box
    VerticalAlign align;
    qreal above = 0, below = 0;
    qreal fontSize = 0, fontAscent = 0, fontDescent = 0, xHeight = 0, lineHeight = 0;
};

/// A line box after vertical alignment.
struct LineBoxAlignment {
    qreal above = 0; ///< px from the line box's top to its baseline (the root inline box's)
    qreal below = 0; ///< px from its baseline to its bottom
    std::vector<qreal> offsets; ///< by entry: px from the line's baseline down to the entry's baseline
};

/// Aligns `entries` (the root inline box first, then every box in document order, parents
/// before their content) per CSS 2 §10.8.1 as Chromium does: baseline-relative values
/// shift a box against its parent's baseline and font, `text-top`/`text-bottom` against
/// the parent's content area, and `top`/`bottom` boxes are placed last against the
/// aligned subtree of the line (or of their nearest top/bottom-aligned ancestor), growing
/// it at the other edge when they are taller.
LineBoxAlignment alignLineBox(const std::vector<LineBoxEntry> &entries);

} // namespace imprint::render
