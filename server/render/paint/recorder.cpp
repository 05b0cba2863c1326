// The Recorder: walks the laid-out tree in painting order and turns each box into
// display commands, resolving backgrounds, borders, radii, object-fit, clips,
// transforms, shadows and glyph runs once for every backend.

#include "server/render/paint/recorder.h"
#include "server/render/paint/border_image.h"
#include "server/render/paint/paint_order.h"
#include "server/render/resources/image_cache.h"
#include "server/render/text/font_fallback.h"
#include "server/render/text/text_engine.h"

#include <QHash>
#include <QRawFont>

#include <functional>
#include <memory>

namespace imprint::render {

using namespace paint_detail;

namespace {

QPainterPath rectPath(const QRectF &r)
{
    QPainterPath p;
    p.addRect(r);
    return p;
}

/// CSS Overflow 3 §3: overflow: hidden clips content at the padding edge, curved by the
/// inner radii.
display::PushClip overflowClip(const BoxGeometry &g)
{
    return {g.paddingBox, g.inner, isZero(g.inner) ? QPainterPath() : roundedPath(g.paddingBox, g.inner)};
}

class Recorder
{
public:
    Recorder(const PaintResources &resources, const RecordOptions &options)
        : m_text(resources.text)
        , m_images(resources.images)
        , m_loader(memoised(resources.imageLoader))
        , m_emoji(options.emojiSet)
        , m_labels(options.textLabels)
        , m_deviceScale(options.deviceScale)
    { }

    DisplayList take() { return std::move(m_list); }

    /// `loader` remembering what it loaded: boxes that show the same asset read and
    /// decode it once per render, as the pipeline loads each img source once.
    static ImageLoader memoised(const ImageLoader &loader)
    {
        if (!loader)
            return {};
        return [loader, seen = std::make_shared<QHash<QString, ImageResult>>()](const QString &url) {
            if (const auto it = seen->constFind(url); it != seen->constEnd())
                return *it;
            ImageResult image = loader(url);
            seen->insert(url, image);
            return image;
        };
    }
    /// Records the tree under `root` (the document's root box).
    void recordTree(const LayoutBox &root)
    {
        m_blends = hasBlendingDescendant(root);
        recordBox(root, nullptr);
    }
    void recordBox(const LayoutBox &box, const LayoutBox *parent);

private:
    /// A box of a painting order, under the clips of the in-flow boxes it was lifted from.
    void recordItem(const PaintItem &item);
    void recordElement(const LayoutBox &box, const LayoutBox *parent);
    /// `box`'s in-flow and non-negative stacking children in `order`, clipped at its
    /// padding box (geometry `g`) under overflow: hidden.
    void recordChildren(const LayoutBox &box, const PaintOrder &order, const BoxGeometry &g);
    void recordBackground(const LayoutBox &box, const BoxGeometry &g, const QPainterPath &borderPath);
    /// One resolved background or mask layer as the tiles a player paints inside `clip`,
    /// positioning area `area` (page px).
    static display::BackgroundTiles tilesOf(const ResolvedBackgroundLayer &layer, const QPainterPath &clip,
                                            const QRectF &area);
    void recordBorder(const LayoutBox &box, const BoxGeometry &g);
    /// `box`'s border-image (CSS Backgrounds 3 §6), drawn instead of its border styles:
    /// false when it has none or its source does not load (§6.1: the styles are drawn).
    bool recordBorderImage(const LayoutBox &box, const BoxGeometry &g);
    void recordOutline(const LayoutBox &box, const BoxGeometry &g);
    void recordImage(const LayoutBox &box, const Radii &outer);
    void recordText(const LayoutBox &box, const LayoutBox *parent);
    void pushEffects(const LayoutBox &box);
    QPainterPath textClipPath(const LayoutBox &box);
    /// Whether `box` itself paints more than one shape (shadows, background, border,
    /// outline, image), which a translucent box must then composite as one group.
    static bool paintsSeveralShapes(const LayoutBox &box);
    void recordFragments(const LayoutBox &box);

    template<typename Command>
    void add(Command &&command)
    {
        m_list.emplace_back(std::forward<Command>(command));
    }

    TextEngine &m_text;
    ImageCache &m_images;
    ImageLoader m_loader; // non-data: url() images
    EmojiSet m_emoji;
    bool m_labels;
    qreal m_deviceScale = 1; // device px a page px: box decorations snap to this grid
    DisplayList m_list;
    bool m_blends = false; // an element below the root has a mix-blend-mode
    /// A box with transform-style: preserve-3d whose children are being recorded, and its
    /// matrix accumulated from the root of its 3D rendering context (CSS Transforms 2 §8).
    struct Context3d {
        const LayoutBox *box;
        TransformMatrix accumulated;
    };
    std::vector<Context3d> m_contexts3d;
};

void Recorder::recordBox(const LayoutBox &box, const LayoutBox *parent)
{
    if (!box.node)
        return;
    const Node &node = *box.node;
    if (node.isText()) {
        recordText(box, parent);
        return;
    }
    const ComputedStyle &s = node.style;
    if (s.display == Display::None || s.opacity <= 0)
        return;
    // CSS Transforms 2 §8: a box whose parent preserves 3D joins the parent's 3D rendering
    // context (its matrix accumulates the parent's, unflattened); any other box starts its
    // own, and is drawn flat in what contains it.
    const bool joinsContext = parent && !m_contexts3d.empty() && m_contexts3d.back().box == parent;
    TransformMatrix accumulated = transformMatrix(box, parent);
    if (joinsContext)
        accumulated = m_contexts3d.back().accumulated * accumulated;
    if (s.backfaceVisibility == BackfaceVisibility::Hidden && accumulated.isBackFacing())
        return; // §9: turned away from the viewer
    const bool transformed = !s.transform.empty();
    if (transformed) {
        const QTransform transform
            = transformInContext(accumulated, joinsContext ? &m_contexts3d.back().accumulated : nullptr);
        const bool projective = transform.type() == QTransform::TxProject;
        add(display::PushTransform{transform, projective ? inkBoundsInContext(box, accumulated) : QRectF()});
    }
    const bool preserves3d = s.preserves3d();
    if (preserves3d)
        m_contexts3d.push_back({&box, accumulated});
    const EffectStyle &fx = s.effects;
    if (!fx.backdropFilter.empty() && s.visibility == Visibility::Visible) {
        // Filter Effects 2 §3: the backdrop is filtered and painted first, inside the
        // border box shape, then the element paints over it.
        add(display::BackdropFilter{box.borderBox, roundedPath(box.borderBox, boxGeometry(box).outer),
                                    fx.backdropFilter});
    }
    const bool effects
        = !fx.filter.empty() || fx.clipPath || !fx.maskImage.empty() || fx.mixBlendMode != BlendMode::Normal;
    // CSS Compositing 1 §3.2: a stacking context is an isolated group, so a blend mode
    // inside it blends with what the group painted, not with the page behind it.
    const bool isolates = !effects && m_blends && isolatesBlending(box, parent);
    const bool translucent = !effects && (s.opacity < 1 || isolates);
    if (effects)
        pushEffects(box);
    if (translucent) {
        // CSS Color 4 §3.2: the element composites as one group. Only a box with
        // descendants or several shapes of its own (a shadow under its background, a
        // border over it) needs a layer: a lone shape takes the opacity itself.
        const bool group = isolates || !box.children.empty() || paintsSeveralShapes(box);
        add(display::PushLayer{s.opacity, group ? inkBounds(box) : QRectF(), group, isolates});
    }
    recordElement(box, parent);
    if (translucent)
        add(display::PopLayer{});
    if (effects)
        add(display::PopEffects{});
    if (preserves3d)
        m_contexts3d.pop_back();
    if (transformed)
        add(display::PopTransform{});
}

void Recorder::recordItem(const PaintItem &item)
{
    for (const LayoutBox *clipping : item.clips)
        add(overflowClip(boxGeometry(*clipping, m_deviceScale)));
    recordBox(*item.box, item.parent);
    for (size_t i = 0; i < item.clips.size(); ++i)
        add(display::PopClip{});
}

bool Recorder::paintsSeveralShapes(const LayoutBox &box)
{
    const ComputedStyle &s = box.node->style;
    qsizetype shapes = box.node->isImage() ? 1 : 0;
    shapes += std::count_if(s.boxShadow.begin(), s.boxShadow.end(), [](const Shadow &sh) { return sh.color.alpha() > 0; });
    shapes += s.backgroundColor.alpha() > 0 ? 1 : 0;
    shapes += qsizetype(s.backgroundLayers.size());
    for (int i = 0; i < 4; ++i) {
        if (s.borderWidth[size_t(i)] > 0 && s.borderStyle[size_t(i)] != BorderStyle::None
            && s.borderColor[size_t(i)].alpha() > 0) {
            ++shapes;
            break;
        }
    }
    if (s.outlineStyle != BorderStyle::None && s.outlineWidth > 0)
        ++shapes;
    if (s.borderImage.hasSource())
        shapes += 2; // its tiles meet edge to edge
    return shapes > 1;
}

void Recorder::pushEffects(const LayoutBox &box)
{
    const ComputedStyle &s = box.node->style;
    const EffectStyle &fx = s.effects;
    display::PushEffects e;
    e.bounds = inkBounds(box); // grown by the element's own filters (inkBounds)
    e.filters = fx.filter;
    if (fx.clipPath) {
        // CSS Masking 1 §3: the shape clips the element and its filtered result.
        if (fx.clipPath->kind == ClipShape::Kind::Path) {
            e.clipSvgPath = fx.clipPath->path;
            e.clipEvenOdd = fx.clipPath->evenOdd;
        } else {
            e.clip = clipShapePath(*fx.clipPath, box.borderBox);
        }
        e.clipBox = box.borderBox;
        // The clip applies after the filters: nothing outside it needs a layer pixel.
        if (e.clip)
            e.bounds &= e.clip->boundingRect();
    }
    if (!fx.maskImage.empty()) {
        // CSS Masking 1 §7: mask layers are positioned in and clipped to the border box
        // (mask-origin, mask-clip), as background layers are in theirs.
        if (fx.maskComposite.empty()) {
            for (const ResolvedBackgroundLayer &layer : resolveImageLayers(fx.maskImage, box.borderBox, m_images, m_loader))
                e.masks.push_back(tilesOf(layer, rectPath(box.borderBox), box.borderBox));
        } else {
            // §7.6: each layer combines with those below it by its own operator (Tailwind's
            // mask utilities intersect three layers).
            for (size_t i = fx.maskImage.size(); i-- > 0;) {
                const std::span<const BackgroundLayer> one(&fx.maskImage[i], 1);
                for (const ResolvedBackgroundLayer &layer : resolveImageLayers(one, box.borderBox, m_images, m_loader)) {
                    e.masks.push_back(tilesOf(layer, rectPath(box.borderBox), box.borderBox));
                    e.maskComposites.push_back(fx.maskComposite[i % fx.maskComposite.size()]);
                }
            }
        }
        // §7.1: a mask image that fails to load or is empty still counts, as a layer of
        // transparent black; the layers add up, so with none left nothing shows.
        if (e.masks.empty())
            e.masks.emplace_back();
    }
    e.opacity = s.opacity;
    e.blend = fx.mixBlendMode;
    add(std::move(e));
}

QPainterPath Recorder::textClipPath(const LayoutBox &box)
{
    // CSS Backgrounds 4 §4.2 background-clip: text: the glyphs of the element's own text
    // and of its in-flow descendants' text.
    QPainterPath path;
    std::function<void(const LayoutBox &)> walk = [&](const LayoutBox &b) {
        if (!b.node)
            return;
        if (b.node->isText()) {
            const std::shared_ptr<const TextBlock> block = m_text.shape(*b.node, b.borderBox.width());
            const QPointF origin = b.borderBox.topLeft();
            for (const TextLine &line : block->lines)
                for (const QGlyphRun &run : line.glyphRuns)
                    path.addPath(glyphRunOutline(run, origin));
            return;
        }
        if (b.node->style.display == Display::None)
            return;
        for (const LayoutBox &c : b.children)
            walk(c);
    };
    for (const LayoutBox &c : box.children)
        walk(c);
    path.setFillRule(Qt::WindingFill);
    return path;
}

void Recorder::recordElement(const LayoutBox &box, const LayoutBox *parent)
{
    const ComputedStyle &s = box.node->style;
    const PaintOrder order = paintOrder(box, parent);
    for (const PaintItem &item : order.beneath)
        recordItem(item);
    const BoxGeometry g = boxGeometry(box, m_deviceScale);
    if (s.visibility == Visibility::Hidden) {
        // CSS Display 3 §4: nothing of the box's own; its children decide for themselves.
        recordChildren(box, order, g);
        return;
    }

    bool outerShadow = false, insetShadow = false;
    for (const Shadow &sh : s.boxShadow) {
        if (sh.color.alpha() > 0)
            (sh.inset ? insetShadow : outerShadow) = true;
    }
    if (outerShadow)
        add(display::OuterBoxShadows{s.boxShadow, g.borderBox, g.outer, s.backgroundColor.alpha() == 255});
    if (!box.fragments.empty()) {
        recordFragments(box);
    } else {
        const QPainterPath borderPath = roundedPath(g.borderBox, g.outer);
        if (s.effects.backgroundClipText) {
            // CSS Backgrounds 4 §4.2: the background is clipped to the glyphs *and* the
            // border box, so descenders below a tight line-height show no background.
            const QPainterPath glyphs = textClipPath(box);
            const bool overflows = !isZero(g.outer) || !g.borderBox.contains(glyphs.boundingRect());
            if (overflows)
                add(display::PushClip{g.borderBox, g.outer, isZero(g.outer) ? QPainterPath() : borderPath});
            recordBackground(box, g, glyphs);
            if (overflows)
                add(display::PopClip{});
        } else {
            recordBackground(box, g, borderPath);
        }
        if (insetShadow)
            add(display::InsetBoxShadows{s.boxShadow, g.paddingBox, g.inner});
        if (!recordBorderImage(box, g))
            recordBorder(box, g);
    }
    if (box.node->isImage())
        recordImage(box, g.outer);
    recordChildren(box, order, g);
    if (box.fragments.empty())
        recordOutline(box, g);
}

void Recorder::recordChildren(const LayoutBox &box, const PaintOrder &order, const BoxGeometry &g)
{
    if (box.children.empty())
        return;
    const bool clips = box.node->style.overflow == Overflow::Hidden;
    if (clips)
        add(overflowClip(g));
    for (const PaintItem &item : order.children)
        recordItem(item);
    if (clips)
        add(display::PopClip{});
}

namespace {

/// `ring`, a closed dashed or dotted border or outline `ring.width` px thick, with
/// Blink's dashes fitted so whole dashes close the loop, or with `roundCorners` its dots
/// evenly around it (square rings keep dots two widths apart).
display::StrokeBorder fittedAroundLoop(display::StrokeBorder ring, bool roundCorners)
{
    if (!ring.dotted)
        std::tie(ring.dash, ring.gap) = closedDashPattern(ring.path.length(), ring.width);
    else if (roundCorners)
        ring.gap = closedDotSpacing(ring.path.length(), ring.width) - display::StrokeBorder::kDotLength * ring.width;
    return ring;
}

} // namespace

// CSS UI 4 §5: the outline is drawn outside the border edge, `outline-offset` px away,
// over the element and its content (CSS 2 Appendix E, the outline step). Its curves follow
// the border radius grown by the offset, as Chromium draws it; a square box keeps square
// corners. The 3D styles are drawn solid, as borders are here.
void Recorder::recordOutline(const LayoutBox &box, const BoxGeometry &g)
{
    const ComputedStyle &s = box.node->style;
    const QColor color = s.outlineColor.value_or(s.color);
    if (s.outlineStyle == BorderStyle::None || s.outlineWidth <= 0 || color.alpha() == 0)
        return;
    const qreal offset = s.outlineOffset, width = s.outlineWidth;
    auto grown = [&](qreal by) { return QMarginsF(by, by, by, by); };
    const QRectF inner = g.borderBox.marginsAdded(grown(offset));
    if (s.outlineStyle == BorderStyle::Dashed || s.outlineStyle == BorderStyle::Dotted) {
        const QRectF middle = inner.marginsAdded(grown(width / 2));
        add(fittedAroundLoop({roundedPath(middle, insetRadii(g.outer, -grown(offset + width / 2))), QLineF(), false,
                              color, width, s.outlineStyle == BorderStyle::Dotted},
                             !isZero(g.outer)));
        return;
    }
    // A band of the outline from `from` to `to` px outside its inner edge.
    auto band = [&](qreal from, qreal to) {
        const QRectF in = inner.marginsAdded(grown(from));
        QPainterPath ring = roundedPath(inner.marginsAdded(grown(to)), insetRadii(g.outer, -grown(offset + to)));
        if (in.width() > 0 && in.height() > 0)
            ring.addPath(roundedPath(in, insetRadii(g.outer, -grown(offset + from))));
        ring.setFillRule(Qt::OddEvenFill);
        add(display::FillPath{ring, QBrush(color)});
    };
    if (s.outlineStyle == BorderStyle::Double && width >= 3) {
        // CSS Backgrounds 3 §4.2 `double`: two lines with a space between, about a third
        // each; Chromium rounds the lines to whole pixels and gives the rest to the space.
        const qreal line = std::max<qreal>(1, std::round(width / 3));
        band(0, line);
        band(width - line, width);
        return;
    }
    band(0, width);
}

void Recorder::recordBackground(const LayoutBox &box, const BoxGeometry &g, const QPainterPath &borderPath)
{
    const ComputedStyle &s = box.node->style;
    const bool clipText = s.effects.backgroundClipText;
    // CSS Backgrounds 3 §3.7–3.8: a layer is positioned in its origin box and painted
    // in its clip box, the colour in the bottom layer's (the gradient-border idiom:
    // `linear-gradient(#fff,#fff) padding-box, linear-gradient(…) border-box`).
    const QRectF contentBox = g.paddingBox.marginsRemoved(box.padding);
    auto rectOf = [&](BackgroundBox b) {
        return b == BackgroundBox::BorderBox ? g.borderBox : b == BackgroundBox::PaddingBox ? g.paddingBox : contentBox;
    };
    auto clipOf = [&](BackgroundBox b) {
        if (clipText || b == BackgroundBox::BorderBox)
            return borderPath;
        return roundedPath(rectOf(b), b == BackgroundBox::PaddingBox ? g.inner : insetRadii(g.inner, box.padding));
    };
    // CSS Compositing 1 §6: blended layers mix with the layers and colour beneath them
    // only, so the background is painted as an isolated group.
    const std::vector<BlendMode> &blends = s.effects.backgroundBlendMode;
    const bool blended = !s.backgroundLayers.empty()
                         && std::any_of(blends.begin(), blends.end(), [](BlendMode b) { return b != BlendMode::Normal; });
    if (blended) {
        display::PushEffects group;
        group.bounds = g.borderBox;
        add(std::move(group));
    }
    if (s.backgroundColor.alpha() > 0) {
        const QPainterPath colorClip = clipOf(s.backgroundColorClip);
        if (colorClip.elementCount() == 5 && !clipText) // addRect: moveTo + 4 lineTo
            add(display::FillRect{rectOf(s.backgroundColorClip), s.backgroundColor});
        else
            add(display::FillPath{colorClip, QBrush(s.backgroundColor)});
    }
    if (s.backgroundLayers.empty())
        return;
    const bool defaultBoxes = !blended && std::all_of(s.backgroundLayers.begin(), s.backgroundLayers.end(), [](const BackgroundLayer &l) {
        return l.origin == BackgroundBox::PaddingBox && l.clip == BackgroundBox::BorderBox;
    });
    if (defaultBoxes) {
        const ResolvedBackground background = resolveBackgroundLayers(s, g.paddingBox, m_images, m_loader);
        for (const ResolvedBackgroundLayer &layer : background.layers)
            add(tilesOf(layer, borderPath, background.positioningArea));
        return;
    }
    // Bottom layer first, as resolveImageLayers() orders them.
    for (size_t i = s.backgroundLayers.size(); i-- > 0;) {
        const BackgroundLayer &own = s.backgroundLayers[i];
        const QRectF area = rectOf(own.origin);
        for (const ResolvedBackgroundLayer &layer : resolveImageLayers({&own, 1}, area, m_images, m_loader)) {
            display::BackgroundTiles tiles = tilesOf(layer, clipOf(own.clip), area);
            if (!blends.empty())
                tiles.blend = blends[i % blends.size()];
            add(std::move(tiles));
        }
    }
    if (blended)
        add(display::PopEffects{});
}

display::BackgroundTiles Recorder::tilesOf(const ResolvedBackgroundLayer &layer, const QPainterPath &clip,
                                           const QRectF &area)
{
    display::BackgroundTiles tiles;
    tiles.clip = clip;
    tiles.area = area;
    tiles.tile = layer.tile;
    tiles.image = layer.image;
    if (layer.layer->gradient)
        tiles.gradient = gradientBrush(*layer.layer->gradient, layer.tile);
    tiles.repeat = layer.layer->repeatX || layer.layer->repeatY;
    if (layer.layer->repeatX != layer.layer->repeatY) {
        // One axis only (repeat-x / repeat-y): the tiles repeated in both axes but
        // clipped to the tile's own row or column draw the same thing.
        const qreal far = 1e6;
        const QRectF band = layer.layer->repeatX ? QRectF(-far, layer.tile.top(), 2 * far, layer.tile.height())
                                                 : QRectF(layer.tile.left(), -far, layer.tile.width(), 2 * far);
        QPainterPath strip;
        strip.addRect(band);
        tiles.clip = tiles.clip.intersected(strip);
    }
    tiles.url = layer.layer->imageUrl;
    return tiles;
}

bool Recorder::recordBorderImage(const LayoutBox &box, const BoxGeometry &g)
{
    const BorderImage &bi = box.node->style.borderImage;
    if (!bi.hasSource())
        return false;
    const QRectF area = borderImageArea(bi, g.borderBox, box.border);
    // The source as an unrepeated layer of the area: a gradient sized to it, an image at
    // its natural size (§6.1).
    BackgroundLayer source = bi.source;
    source.repeatX = source.repeatY = false;
    const auto resolved = resolveImageLayers({&source, 1}, area, m_images, m_loader);
    if (resolved.empty())
        return false;
    const ResolvedBackgroundLayer &layer = resolved.front();
    const QSizeF size = layer.tile.size();
    for (const BorderImagePiece &piece : borderImagePieces(bi, area, box.border, size, !source.gradient)) {
        const QRectF &slice = piece.slice;
        QImage sliced; // an image's slice, in its own pixels (it may be denser than px)
        if (!source.gradient) {
            const qreal kx = layer.image.width() / size.width(), ky = layer.image.height() / size.height();
            // Whole pixels, each edge to the nearest: an edge outside the slice would
            // stretch a neighbouring piece's pixels into this one.
            const QPoint from(qRound(slice.left() * kx), qRound(slice.top() * ky));
            const QPoint to(qRound(slice.right() * kx), qRound(slice.bottom() * ky));
            sliced = layer.image.copy(QRect(from, to - QPoint(1, 1)));
            if (sliced.isNull()) // thinner than a pixel of the image: nothing to draw
                continue;
        }
        // Tiles that meet edge to edge are one repeated pattern: drawn one by one, their
        // antialiased edges would leave seams where they meet between device pixels.
        const bool pattern = piece.tiles.size() > 1 && !piece.spaced;
        for (const QRectF &tile : pattern ? std::span(piece.tiles).first(1) : std::span(piece.tiles)) {
            display::BackgroundTiles t;
            t.area = pattern ? piece.region : tile & piece.region;
            t.clip.addRect(t.area);
            t.repeat = pattern;
            if (source.gradient) {
                // The gradient as an image of the area's size, mapped so that the slice
                // lands on the tile.
                const qreal kx = tile.width() / slice.width(), ky = tile.height() / slice.height();
                t.gradient = mappedGradientBrush(gradientBrush(*source.gradient, QRectF(QPointF(0, 0), size)),
                                                 QTransform(kx, 0, 0, ky, tile.left() - slice.left() * kx,
                                                            tile.top() - slice.top() * ky));
                t.tile = pattern ? tile : t.area;
            } else {
                t.image = sliced;
                t.tile = tile;
            }
            add(std::move(t));
        }
    }
    return true;
}

void Recorder::recordBorder(const LayoutBox &box, const BoxGeometry &g)
{
    const Radii &outer = g.outer;
    const ComputedStyle &s = box.node->style;
    const QMarginsF w = box.border;
    const qreal widths[4] = {w.top(), w.right(), w.bottom(), w.left()};
    bool any = false, uniformColor = true, uniformStyle = true;
    for (int i = 0; i < 4; ++i) {
        const bool visible
            = widths[i] > 0 && s.borderStyle[size_t(i)] != BorderStyle::None && s.borderColor[size_t(i)].alpha() > 0;
        any = any || visible;
        if (s.borderColor[size_t(i)] != s.borderColor[0] || widths[i] <= 0)
            uniformColor = false;
        if (s.borderStyle[size_t(i)] != s.borderStyle[0])
            uniformStyle = false;
    }
    if (!any)
        return;
    const QRectF outerRect = g.borderBox;
    const QRectF innerRect = g.paddingBox;
    const BorderStyle style0 = s.borderStyle[0];
    // Each side's middle line (half its width in): from outer corner to outer corner, where
    // a side's dashes run, and between the corners of the middle rectangle, where dots and
    // rings run.
    const QRectF &ob = outerRect;
    const QLineF sides[4] = {{ob.left(), ob.top() + w.top() / 2, ob.right(), ob.top() + w.top() / 2},
                             {ob.right() - w.right() / 2, ob.top(), ob.right() - w.right() / 2, ob.bottom()},
                             {ob.right(), ob.bottom() - w.bottom() / 2, ob.left(), ob.bottom() - w.bottom() / 2},
                             {ob.left() + w.left() / 2, ob.bottom(), ob.left() + w.left() / 2, ob.top()}};
    const QMarginsF half(w.left() / 2, w.top() / 2, w.right() / 2, w.bottom() / 2);
    const QRectF midRect = outerRect.marginsRemoved(half);
    const QLineF midEdges[4] = {{midRect.topLeft(), midRect.topRight()},
                                {midRect.topRight(), midRect.bottomRight()},
                                {midRect.bottomRight(), midRect.bottomLeft()},
                                {midRect.bottomLeft(), midRect.topLeft()}};

    if (uniformStyle && style0 == BorderStyle::Dashed && isZero(outer)) {
        // Square corners: each side is its own dashed line along the middle of its
        // width, from outer corner to outer corner, with Chromium's dash and gap
        // (dashPattern()); the corners are covered by the end dashes of both sides.
        const QRectF bands[4] = {{ob.left(), ob.top(), ob.width(), w.top()},
                                 {ob.right() - w.right(), ob.top(), w.right(), ob.height()},
                                 {ob.left(), ob.bottom() - w.bottom(), ob.width(), w.bottom()},
                                 {ob.left(), ob.top(), w.left(), ob.height()}};
        for (int i = 0; i < 4; ++i) {
            const QColor &color = s.borderColor[size_t(i)];
            if (widths[i] <= 0 || color.alpha() == 0)
                continue;
            const auto pattern = dashPattern(sides[i].length(), widths[i]);
            if (!pattern) { // no room for two dashes: Chromium draws the side solid
                add(display::FillRect{bands[i], color});
                continue;
            }
            display::StrokeBorder side{QPainterPath(), sides[i], true, color, widths[i], false};
            side.dash = pattern->first;
            side.gap = pattern->second;
            add(std::move(side));
        }
        return;
    }
    if (uniformStyle && (style0 == BorderStyle::Dashed || style0 == BorderStyle::Dotted)) {
        // Broken borders stroke the middle of the border; each edge carries its own pen.
        const bool dotted = style0 == BorderStyle::Dotted;
        if (uniformColor && widths[0] == widths[1] && widths[1] == widths[2] && widths[2] == widths[3]) {
            add(fittedAroundLoop(
                {roundedPath(midRect, insetRadii(outer, half)), QLineF(), false, s.borderColor[0], widths[0], dotted},
                !isZero(outer)));
            return;
        }
        for (int i = 0; i < 4; ++i) {
            if (widths[i] > 0 && s.borderStyle[size_t(i)] != BorderStyle::None)
                add(display::StrokeBorder{QPainterPath(), midEdges[i], true, s.borderColor[size_t(i)], widths[i], dotted});
        }
        return;
    }

    QPainterPath ring = roundedPath(outerRect, outer);
    if (innerRect.width() > 0 && innerRect.height() > 0)
        ring.addPath(roundedPath(innerRect, insetRadii(outer, w)));
    ring.setFillRule(Qt::OddEvenFill);
    // CSS Backgrounds 3 §4.2 `double`: two lines and the space between, a third each;
    // Chromium rounds the lines to whole pixels and gives the rest to the space. A side
    // under 3 px is solid.
    QPainterPath doubleRing;
    const bool anyDouble = std::any_of(std::begin(s.borderStyle), std::end(s.borderStyle),
                                       [](BorderStyle b) { return b == BorderStyle::Double; });
    if (anyDouble) {
        auto line = [](qreal width) { return width >= 3 ? std::max<qreal>(1, std::round(width / 3)) : width / 2; };
        const QMarginsF lines(line(w.left()), line(w.top()), line(w.right()), line(w.bottom()));
        const QRectF outerInner = outerRect.marginsRemoved(lines), innerOuter = innerRect.marginsAdded(lines);
        doubleRing.addPath(roundedPath(outerRect, outer));
        doubleRing.addPath(roundedPath(outerInner, insetRadii(outer, lines)));
        doubleRing.addPath(roundedPath(innerOuter, insetRadii(outer, w - lines)));
        if (innerRect.width() > 0 && innerRect.height() > 0)
            doubleRing.addPath(roundedPath(innerRect, insetRadii(outer, w)));
        doubleRing.setFillRule(Qt::OddEvenFill);
    }
    if (uniformColor && uniformStyle) {
        add(display::FillPath{style0 == BorderStyle::Double ? doubleRing : ring, QBrush(s.borderColor[0])});
        return;
    }
    // Per-edge colours: each edge owns the trapezoid between its outer and inner edge, the
    // corners split along the line joining the outer and inner corner (CSS Backgrounds 3 §4.4).
    const QPointF o[4] = {outerRect.topLeft(), outerRect.topRight(), outerRect.bottomRight(), outerRect.bottomLeft()};
    const QPointF in[4] = {innerRect.topLeft(), innerRect.topRight(), innerRect.bottomRight(), innerRect.bottomLeft()};
    // Sides of their own style (`borderStyle: "dashed solid"`, a dotted bottom under a
    // solid top): a dashed or dotted side strokes its own middle line; solid and double
    // sides fill their wedge of the ring.
    for (int i = 0; i < 4; ++i) {
        const BorderStyle style = s.borderStyle[size_t(i)];
        if (widths[i] <= 0 || style == BorderStyle::None || s.borderColor[size_t(i)].alpha() == 0)
            continue;
        if (style == BorderStyle::Dashed || style == BorderStyle::Dotted) {
            // Dashes run from outer corner to outer corner (the square-corner rule above),
            // dots between the middle rectangle's corners.
            const QLineF along = style == BorderStyle::Dashed ? sides[i] : midEdges[i];
            display::StrokeBorder side{QPainterPath(), along, true, s.borderColor[size_t(i)], widths[i],
                                       style == BorderStyle::Dotted};
            if (style == BorderStyle::Dashed) {
                if (const auto pattern = dashPattern(along.length(), widths[i]))
                    std::tie(side.dash, side.gap) = *pattern;
                else
                    side.dash = along.length(), side.gap = 0; // no room for two dashes: solid
            }
            add(std::move(side));
            continue;
        }
        const int j = (i + 1) % 4;
        // Extend the diagonals beyond the box so curved corners are fully covered.
        const QPointF da = o[i] + (o[i] - in[i]) * 4, db = o[j] + (o[j] - in[j]) * 4;
        QPolygonF wedge;
        wedge << da << db << in[j] << in[i];
        QPainterPath wedgePath;
        wedgePath.addPolygon(wedge);
        wedgePath.closeSubpath();
        const QPainterPath &band = style == BorderStyle::Double ? doubleRing : ring;
        add(display::FillPath{band.intersected(wedgePath), QBrush(s.borderColor[size_t(i)])});
    }
}

// An inline box paints its background and border once per line fragment, each fragment
// as if it were the whole box cut open where the line breaks (CSS Backgrounds 3 §5.2,
// box-decoration-break: slice): the start side only where the box starts, the end side
// where it ends, as layout found them (fragmentEdges: bidi reordering may split a line's
// piece of the box too); without them the first and last fragment in the box's direction.
void Recorder::recordFragments(const LayoutBox &box)
{
    const bool rtl = box.node->style.direction == Direction::Rtl;
    const bool known = box.fragmentEdges.size() == box.fragments.size();
    for (size_t i = 0; i < box.fragments.size(); ++i) {
        LayoutBox piece;
        piece.node = box.node;
        piece.borderBox = box.fragments[i];
        piece.border = box.border;
        piece.padding = box.padding;
        const bool first = i == 0, last = i + 1 == box.fragments.size();
        const bool left = known ? box.fragmentEdges[i].left : (rtl ? last : first);
        const bool right = known ? box.fragmentEdges[i].right : (rtl ? first : last);
        if (!left) {
            piece.border.setLeft(0);
            piece.padding.setLeft(0);
        }
        if (!right) {
            piece.border.setRight(0);
            piece.padding.setRight(0);
        }
        const BoxGeometry g = boxGeometry(piece, m_deviceScale);
        recordBackground(piece, g, roundedPath(g.borderBox, g.outer));
        recordBorder(piece, g);
    }
}

void Recorder::recordImage(const LayoutBox &box, const Radii &outer)
{
    const Node &node = *box.node;
    if (node.image.isNull())
        return;
    const QRectF content = box.contentBox();
    if (content.width() <= 0 || content.height() <= 0)
        return;
    display::DrawImage image;
    image.image = node.image;
    image.dest = objectFitRect(node.style, node.image.size(), content);
    image.contentBox = content;
    image.source = node.src;
    const Radii contentRadii = insetRadii(outer, box.border + box.padding);
    if (!isZero(contentRadii) || !content.contains(image.dest))
        image.shape = roundedPath(content, contentRadii).intersected(rectPath(image.dest));
    add(std::move(image));
}

/// Where text-decoration-skip-ink: auto (CSS Text Decoration 4 §4.2) leaves `bar`, an
/// underline or overline of `line` drawn from `origin`, out, as Blink's TextPainter does:
/// every glyph whose outline crosses the line's band (its painted bounds, the solid and
/// double lines unsnapped, less half a pixel above and below) takes out its ink's extent in
/// that band plus min(thickness, 13) px on each side (kDecorationClipMaxDilation). Page px.
std::vector<std::pair<qreal, qreal>> skipInkGaps(const display::DecorationBar &bar, const TextLine &line, QPointF origin)
{
    const qreal t = bar.rect.height();
    QRectF band;
    switch (bar.style) {
    case DecorationStyle::Solid: band = bar.rect; break;
    case DecorationStyle::Double:
        band = bar.rect.adjusted(0, bar.line == DecorationLine::Overline ? -(t + 1) : 0, 0,
                                 bar.line == DecorationLine::Overline ? 0 : t + 1);
        break;
    default: band = decorationPath(bar.rect, bar.style, bar.line).boundingRect(); break;
    }
    band.adjust(0, 0.5, 0, -0.5);
    const qreal dilation = std::min<qreal>(t, 13);
    std::vector<std::pair<qreal, qreal>> gaps;
    for (const QGlyphRun &run : line.glyphRuns) {
        for (const auto &[from, to] : glyphRunIntercepts(run, origin, band.top(), band.bottom()))
            gaps.emplace_back(from - dilation, to + dilation);
    }
    return gaps;
}

void Recorder::recordText(const LayoutBox &box, const LayoutBox *parent)
{
    const Node &node = *box.node;
    const ComputedStyle &s = node.style;
    if (s.visibility == Visibility::Hidden)
        return;
    const std::shared_ptr<const TextBlock> block = drawnText(box, parent, m_text);
    if (!block || block->lines.empty())
        return;
    const QPointF origin = box.borderBox.topLeft() + box.textOrigin;

    for (auto it = s.textShadow.rbegin(); it != s.textShadow.rend(); ++it) {
        if (it->color.alpha() > 0)
            add(display::TextShadow{block, origin, QPointF(it->offsetX, it->offsetY), it->color, it->blur, s.fontSize});
    }

    display::DrawGlyphs glyphs{block, origin, s.color, nullptr, m_emoji, s.fontSize, QString(), 0, QColor()};
    if (s.textStrokeWidth > 0) {
        glyphs.strokeWidth = s.textStrokeWidth;
        glyphs.strokeColor = s.textStrokeColor.value_or(s.color);
    }
    if (m_labels || m_emoji != EmojiSet::Noto)
        glyphs.label = TextEngine::processText(s, node.text);
    if (m_emoji != EmojiSet::Noto) {
        auto emoji = std::make_shared<const EmojiGlyphMap>(glyphs.label, TextEngine::fontFor(s));
        if (!emoji->isEmpty())
            glyphs.emoji = std::move(emoji);
    }
    add(std::move(glyphs));

    const TextDecoration &d = s.textDecoration;
    if (d.underline || d.overline || d.lineThrough) {
        const QColor color = d.color.value_or(s.color);
        // text-decoration-thickness replaces the auto one (CSS Text Decoration 4 §2.6). The
        // lines go where Blink's TextDecorationInfo puts them: the underline's top
        // max(1, ceil(t / 2)) below the baseline (ComputeUnderlineOffsetAuto), or the
        // rounded text-underline-offset below it when that is not `auto` (§3.5: Chromium
        // 156 drops the gap for a percentage too); the overline's bottom on the text's top,
        // the line-through centred on its offset.
        const DecorationMetrics &m = block->decoration;
        const qreal t = d.thickness >= 0                                  ? qreal(d.thickness)
                        : d.thickness == TextDecoration::kFromFontThickness ? m.fontThickness
                                                                            : m.autoThickness;
        for (const TextLine &line : block->lines) {
            const QPointF baseline = origin + QPointF(0, line.baseline);
            auto bar = [&](qreal top, DecorationLine which) {
                display::DecorationBar decoration{QRectF(origin.x() + line.left, baseline.y() + top, line.width, t),
                                                  color, d.style, which, {}};
                if (which != DecorationLine::LineThrough && s.textDecorationSkipInk == DecorationSkipInk::Auto)
                    decoration.skipInk = skipInkGaps(decoration, line, origin);
                add(std::move(decoration));
            };
            if (t <= 0)
                continue;
            if (d.underline)
                bar(d.underlineOffsetAuto ? std::max<qreal>(1, std::ceil(t / 2)) : std::round(d.underlineOffset),
                    DecorationLine::Underline);
            if (d.overline)
                bar(m.overlineOffset - std::floor(t), DecorationLine::Overline);
            if (d.lineThrough)
                bar(m.strikeOffset - t / 2, DecorationLine::LineThrough);
        }
    }
}

} // namespace

std::shared_ptr<const TextBlock> drawnText(const LayoutBox &box, const LayoutBox *parent, TextEngine &text)
{
    qreal width = box.borderBox.width();
    // text-overflow measures against the block's content edge, which a no-wrap line
    // may have overflowed (CSS Overflow 3 §text-overflow).
    if (parent && box.node->style.textOverflow == TextOverflow::Ellipsis)
        width = std::min(width, parent->contentBox().right() - box.borderBox.left());
    // Inside an inline formatting context the paragraph already shaped the run. Otherwise
    // at exactly the width layout measured it at (LayoutEngine::measureText(); the text
    // module absorbs floating-point noise), so that the shaping layout did is reused.
    return box.text ? box.text : text.shape(*box.node, width);
}

DisplayList recordDisplayList(const LayoutBox &root, const PaintResources &resources, const RecordOptions &options)
{
    Recorder recorder(resources, options);
    recorder.recordTree(root);
    return recorder.take();
}

} // namespace imprint::render
