#pragma once
// The display list: what a laid-out box tree paints, as a flat list of commands whose
// used values (tiles, radii, clips, transforms, glyph runs) are already resolved. One
// Recorder (recorder.h) writes it in CSS 2 Appendix E order; each backend only plays it
// (the raster backend onto a QPainter, the SVG backend into an SVG document), the way
// Ladybird's DisplayListRecorder feeds its DisplayListPlayerSkia.
//
// Push* commands open a scope that the matching Pop* closes; scopes nest properly. All
// coordinates are page px in the user space the enclosing PushTransforms set up.

#include "server/render/cancellation.h"
#include "server/render/paint/geometry.h"
#include "server/render/resources/emoji.h"
#include "server/render/text/text_engine.h"

#include <QBrush>
#include <QColor>
#include <QImage>
#include <QLineF>
#include <QPainterPath>
#include <QRectF>
#include <QString>
#include <QTransform>

#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace imprint::render::display {

/// One background image or gradient layer (CSS Backgrounds 3 §3), or one
/// mask layer (CSS Masking 1 §7) in PushEffects::masks, clipped to `clip`
/// (the border box shape): `image` (null for a gradient, then `gradient` paints) drawn
/// into `tile`, repeated over the clip when `repeat`. `area` is the positioning area;
/// `url` the image's data: URL, which a document format may embed as it is.
struct BackgroundTiles {
    QPainterPath clip;
    QRectF area;
    QRectF tile;
    QImage image;
    QBrush gradient;
    bool repeat = false;
    QString url;
    /// background-blend-mode: how the tiles mix with the layers and colour beneath them
    /// (inside the PushEffects group the recorder isolates them in).
    BlendMode blend = BlendMode::Normal;
};


/// Applies `transform` (CSS Transforms 1 §7) after the current one until PopTransform.
/// The matrix may be singular; players that cannot draw through it skip the scope.
struct PushTransform {
    QTransform transform;
    /// When `transform` is projective (a 3D transform seen in perspective): the scope's
    /// ink in its own user space, before the transform, for a player that cannot draw
    /// through such a matrix and paints the scope as pixels instead. Empty otherwise.
    QRectF bounds;
};
struct PopTransform { };

/// Paints the scope with `opacity` < 1 (CSS Color 4 §3.2). When `group`, the scope holds
/// more than one shape and must composite as one group, whose ink lies within `bounds`
/// (current user space); otherwise per-shape opacity gives the same result. When
/// `isolated` (a group, possibly of opacity 1), the scope is a stacking context holding a
/// blend mode, which blends only with what the group itself painted (CSS Compositing 1
/// §3.2, isolated groups).
struct PushLayer {
    qreal opacity = 1;
    QRectF bounds;
    bool group = false;
    bool isolated = false;
};
struct PopLayer { };

/// Clips the scope to `rect` with corners `radii` (overflow: hidden, CSS Overflow 3 §3);
/// `path` is that shape, left empty when all radii are zero.
struct PushClip {
    QRectF rect;
    paint_detail::Radii radii{};
    QPainterPath path;
};
struct PopClip { };

/// Fills `rect` with `color`.
struct FillRect {
    QRectF rect;
    QColor color;
};

/// Fills `path` (its own fill rule) with `brush` (a colour or a gradient).
struct FillPath {
    QPainterPath path;
    QBrush brush;
};

/// A dashed or dotted border (CSS Backgrounds 3 §4.2) stroked along the middle of the
/// border: a whole rounded `path`, or one edge `line` when `isLine`. Dashes are 3
/// widths on, 3 off; dots are round caps every 2 widths.
struct StrokeBorder {
    /// The on-length of a dot, in pen widths: round caps make it a dot of the pen's width;
    /// not 0, which Qt's stroker drops.
    static constexpr qreal kDotLength = 1.0 / 1024;
    QPainterPath path;
    QLineF line;
    bool isLine = false;
    QColor color;
    qreal width = 0;
    bool dotted = false;
    /// A dashed side's dash and gap in px (dashPattern(), Chromium's); 0: the pattern of
    /// 3 widths on, 3 off. Dotted: `gap` (px, > 0) spaces the dots, else 2 widths apart.
    qreal dash = 0;
    qreal gap = 0;
};

/// The outer box shadows of a border box with corners `radii` (CSS Backgrounds 3
/// §7.1), first listed = topmost. `opaqueBackground` says the box's own background
/// covers the area inside, so the shadow need not be cut out there.
struct OuterBoxShadows {
    std::vector<Shadow> shadows;
    QRectF borderBox;
    paint_detail::Radii radii{};
    bool opaqueBackground = false;
};

/// The inset box shadows of a padding box with corners `radii` (§7.1).
struct InsetBoxShadows {
    std::vector<Shadow> shadows;
    QRectF paddingBox;
    paint_detail::Radii radii{};
};

/// A replaced element's `image` drawn into `dest` (object-fit, CSS Images 3 §5.5). When
/// `shape` is set the image is cut to it (the content box with its radii); otherwise
/// `dest` lies inside the content box and nothing cuts it. `source` is the element's src.
struct DrawImage {
    QImage image;
    QRectF dest;
    std::optional<QPainterPath> shape;
    QRectF contentBox;
    QString source;
};

/// A shaped text block's glyphs in `color`, each line's runs placed at `origin` (the
/// text box's top-left). Players may snap each line's baseline to a whole device pixel
/// when nothing rotates or scales the text. Emoji glyphs (`emoji`, may be null) give way
/// to images of `emojiSet`; `label` is the text as read, for accessibility.
struct DrawGlyphs {
    std::shared_ptr<const TextBlock> block;
    QPointF origin;
    QColor color;
    std::shared_ptr<const EmojiGlyphMap> emoji;
    EmojiSet emojiSet = EmojiSet::Noto;
    qreal fontSize = 0;
    QString label;
    /// -webkit-text-stroke: the glyph outlines stroked over the fill with a pen this
    /// wide (px, centred on the outline, as Chromium draws it); 0 = none.
    qreal strokeWidth = 0;
    QColor strokeColor;
};

/// A text shadow (CSS Text Decoration 3 §4): the block's glyphs at `origin` + `offset`
/// in `color`, blurred by `blur` px (a Gaussian of sigma blur/2). Its ink lies within
/// the block's box grown by `fontSize` on each side, before the blur.
struct TextShadow {
    std::shared_ptr<const TextBlock> block;
    QPointF origin;
    QPointF offset;
    QColor color;
    qreal blur = 0;
    qreal fontSize = 0;
};

/// One underline, overline or line-through (CSS Text Decoration 3 §2): its solid form
/// `rect`, placed from the text's unsnapped baseline as Blink places it, filled with
/// `color` in the shape decorationPath() gives `style` and `line`.
struct DecorationBar {
    QRectF rect; ///< one line of the decoration's thickness across the run
    QColor color;
    DecorationStyle style = DecorationStyle::Solid;
    DecorationLine line = DecorationLine::Underline;
    /// text-decoration-skip-ink (CSS Text Decoration 4 §4.2): x ranges (page px, from,
    /// to) where the line is left out because glyph ink crosses it, the glyph's extent
    /// in the line's band widened as Blink widens it; empty for none.
    std::vector<std::pair<qreal, qreal>> skipInk;
};

/// Paints the scope into an offscreen layer, then composites it through the element's
/// effects in the order CSS Filter Effects 1 §2 and CSS Masking 1 §2 give: `filters`
/// in order (lengths in user px), the `clip` shape (clip-path, CSS Masking 1 §3) or the
/// SVG path data `clipSvgPath` placed at `clipBox`'s top-left, the alpha of the `masks`
/// (mask-image layers painted bottom first as background layers are, §7), `opacity`, then `blend`
/// (mix-blend-mode, CSS Compositing 1 §5.3) with what lies beneath. `bounds` (current
/// user space) holds every pixel the scope and its filters may paint.
struct PushEffects {
    QRectF bounds;
    std::vector<FilterOp> filters;
    std::optional<QPainterPath> clip;
    QString clipSvgPath;
    bool clipEvenOdd = false;
    QRectF clipBox;
    std::vector<BackgroundTiles> masks;
    /// How each of `masks` (same order, bottom first) combines with those below it
    /// (mask-composite); empty: all add. The bottom layer's is not used.
    std::vector<MaskComposite> maskComposites;
    qreal opacity = 1;
    BlendMode blend = BlendMode::Normal;
};
struct PopEffects { };

/// backdrop-filter (CSS Filter Effects 2 §3): what is already painted under `rect`
/// (current user space) run through `filters` and painted back inside `shape` (the border
/// box with its radii), before the element paints itself.
struct BackdropFilter {
    QRectF rect;
    QPainterPath shape;
    std::vector<FilterOp> filters;
};

} // namespace imprint::render::display

namespace imprint::render {

/// One paint command (see the structs in namespace display).
using DisplayCommand
    = std::variant<display::PushTransform, display::PopTransform, display::PushLayer, display::PopLayer,
                   display::PushClip, display::PopClip, display::FillRect, display::FillPath, display::StrokeBorder,
                   display::OuterBoxShadows, display::InsetBoxShadows, display::BackgroundTiles, display::DrawImage,
                   display::DrawGlyphs, display::TextShadow, display::DecorationBar, display::PushEffects,
                   display::PopEffects, display::BackdropFilter>;

/// The commands of one page in painting order.
using DisplayList = std::vector<DisplayCommand>;

/// What a player still runs once its render is cancelled: exactly the pops whose pushes
/// it ran, so every saved painter state, offscreen layer and open group unwinds; the
/// pipeline then discards the output.
class CancelledPlayback
{
public:
    /// `cancellation` is polled before each command; null: never cancels.
    explicit CancelledPlayback(const RenderCancellation *cancellation)
        : m_cancellation(cancellation)
    { }

    /// Whether the player must skip `command` (call once per command, in order).
    bool skip(const DisplayCommand &command);

private:
    const RenderCancellation *m_cancellation;
    bool m_cancelled = false;
    int m_skippedScopes = 0; // scopes opened after the cancel, and so never entered
};

/// +1 when `command` opens a scope (PushTransform, PushLayer, PushClip, PushEffects), -1 when it
/// closes one (the Pops), else 0: what a cancelled player follows to run exactly the pops
/// whose pushes it ran, so its saved states unwind.
inline int scopeChange(const DisplayCommand &command)
{
    if (std::holds_alternative<display::PushTransform>(command) || std::holds_alternative<display::PushLayer>(command)
        || std::holds_alternative<display::PushClip>(command) || std::holds_alternative<display::PushEffects>(command))
        return 1;
    if (std::holds_alternative<display::PopTransform>(command) || std::holds_alternative<display::PopLayer>(command)
        || std::holds_alternative<display::PopClip>(command) || std::holds_alternative<display::PopEffects>(command))
        return -1;
    return 0;
}

/// The index of the command in list[push, end) that closes the scope list[push] opens,
/// or `end` when the range ends inside it.
inline size_t scopeEnd(const DisplayList &list, size_t push, size_t end)
{
    int depth = 0;
    for (size_t i = push; i < end; ++i) {
        depth += scopeChange(list[i]);
        if (depth == 0)
            return i;
    }
    return end;
}

inline bool CancelledPlayback::skip(const DisplayCommand &command)
{
    if (!m_cancelled && m_cancellation && m_cancellation->isCancelled())
        m_cancelled = true;
    if (!m_cancelled)
        return false;
    const int change = scopeChange(command);
    if (change > 0)
        ++m_skippedScopes;
    if (change >= 0)
        return true;
    if (m_skippedScopes > 0) {
        --m_skippedScopes;
        return true;
    }
    return false;
}

} // namespace imprint::render
