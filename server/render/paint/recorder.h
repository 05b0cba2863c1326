#pragma once
// The one walk of a laid-out box tree that both paint backends share: it resolves every
// used value of painting once and writes it down as a display list (display_list.h).

#include "server/render/paint/display_list.h"
#include "server/render/paint/paint_resources.h"

namespace imprint::render {

/// What recordDisplayList() needs besides the tree.
struct RecordOptions {
    /// How emoji clusters are drawn; EmojiSet::Noto keeps the colour font's glyphs and
    /// records no emoji map.
    EmojiSet emojiSet = EmojiSet::Noto;
    /// Record each text's processed characters as DrawGlyphs::label (a document format
    /// keeps them for accessibility); otherwise only emoji text needs them.
    bool textLabels = false;
    /// Device px a page px (the render's scale): box decorations are recorded on whole
    /// device pixels (paint_detail::pixelSnapped()).
    qreal deviceScale = 1;
};

/// The shaped lines text run `box` is drawn with (its glyphs relative to its border box):
/// the paragraph's own in an inline formatting context, else the run shaped by `text` in
/// its box's width, narrowed to `parent`'s content edge for `textOverflow: ellipsis`.
std::shared_ptr<const TextBlock> drawnText(const LayoutBox &box, const LayoutBox *parent, TextEngine &text);

/// Records `root` and its descendants as paint commands in page px. Order follows CSS 2
/// Appendix E, simplified (paint_order.h): per element its outer box-shadow, background
/// colour and layers, inset shadow, border and replaced image, then its children; text
/// as its shadows, glyphs, then decorations. An element with display: none or opacity 0
/// records nothing. Text runs are shaped by `resources.text`, background images decoded
/// through `resources.images`. Never fails; a background image that does not decode is
/// left out.
DisplayList recordDisplayList(const LayoutBox &root, const PaintResources &resources,
                              const RecordOptions &options = {});

} // namespace imprint::render
