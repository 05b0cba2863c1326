// The raster backend: plays a display list (paint/display_list.h) on a QPainter, so the
// same commands paint a QImage (png/webp) or a QSvgGenerator (svg).

#include "server/render/backends/raster.h"
#include "server/render/backends/svg_inline_raster.h"
#include "server/render/cancellation.h"
#include "server/render/paint/geometry.h"
#include "server/render/paint/recorder.h"
#include "server/render/resources/image_decoder.h"
#include "server/render/text/font_fallback.h"

#include <QPaintDevice>
#include <QSvgRenderer>

#include <algorithm>
#include <cmath>
#include <functional>

namespace imprint::render {

using namespace paint_detail;

namespace {

/// Plays display commands on a QPainter. Opacity groups on an image device are painted
/// into an offscreen layer and composited on PopLayer; other devices take the opacity
/// per shape.
class QPainterPlayer
{
public:
    QPainterPlayer(QPainter &painter, EmojiLibrary &emoji, QStringList *warnings,
                   const RenderCancellation *cancellation = nullptr)
        : m_p(&painter)
        , m_emoji(emoji)
        , m_warnings(warnings)
        , m_cancellation(cancellation)
    {
        // RenderBudget's default layer bound (8 device canvases + 64 MiB) on this device.
        const QPaintDevice *device = painter.device();
        const qint64 canvasBytes = device ? qint64(device->width()) * device->height() * 4 : 0;
        m_maxOpenLayerBytes = 8 * canvasBytes + (qint64(64) << 20);
    }

    /// Plays list[begin, end), then closes the scopes it opened and left open.
    void play(const DisplayList &list, size_t begin = 0, size_t end = size_t(-1));

    void operator()(const display::PushTransform &c);
    /// Paints the scope of the projective PushTransform list[push]: the commands up to
    /// (not including) list[pop], its pop or the end of the range.
    void projectiveScope(const DisplayList &list, size_t push, size_t pop);
    void operator()(const display::PopTransform &) { m_p->restore(); }
    void operator()(const display::PushLayer &c);
    void operator()(const display::PopLayer &);
    void operator()(const display::PushClip &c);
    void operator()(const display::PopClip &) { m_p->restore(); }
    void operator()(const display::FillRect &c) { m_p->fillRect(c.rect, c.color); }
    void operator()(const display::FillPath &c) { m_p->fillPath(c.path, c.brush); }
    void operator()(const display::StrokeBorder &c);
    void operator()(const display::OuterBoxShadows &c)
    {
        paintOuterShadows(*m_p, c.shadows, c.opaqueBackground, c.borderBox, c.radii);
    }
    void operator()(const display::InsetBoxShadows &c) { paintInsetShadows(*m_p, c.shadows, c.paddingBox, c.radii); }
    void operator()(const display::BackgroundTiles &c);
    void operator()(const display::DrawImage &c);
    void operator()(const display::DrawGlyphs &c);
    void operator()(const display::TextShadow &c);
    void operator()(const display::DecorationBar &c);
    void operator()(const display::PushEffects &c);
    void operator()(const display::PopEffects &);
    void operator()(const display::BackdropFilter &c);

private:
    /// Offscreen group/effect layer: a new image for the device rect `layerRect` whose
    /// painter keeps the current transform; null when the rect is empty.
    bool pushOffscreen(const QRect &layerRect, qreal opacity);
    void warnOnce(const QString &warning)
    {
        if (m_warnings && !m_warnings->contains(warning))
            m_warnings->append(warning);
    }
    /// Draws `c` (an image with a shape) on a device without texture brushes or clip
    /// paths, as an image made transparent outside the shape.
    void drawShapedImageBaked(const display::DrawImage &c, const QBrush &brush);
    /// What `paint` draws over `rect` (page px) on an image of the pixels `rect` covers on
    /// `p`'s device (at most 4096 a side), transparent elsewhere: for devices that cannot
    /// express a brush or clip (QSvgGenerator), which then draw it as a plain image.
    static QImage bakedOnDevice(const QPainter &p, const QRectF &rect, const std::function<void(QPainter &)> &paint);
    /// `image` for drawing into `dest` (current user space): an SVG image drawn again at
    /// the pixels `dest` covers on the device (imageAtDeviceSize()), others as they are.
    QImage atDeviceSize(const QImage &image, const QRectF &dest) const;
    /// The same for a box `dest` painted by `p`.
    static QImage atDeviceSize(const QPainter &p, const QImage &image, const QRectF &dest);
    /// Paints one background or mask layer's tiles with `p` (the page, or a mask).
    static void paintTiles(QPainter &p, const display::BackgroundTiles &c);

    /// How far to move a line whose baseline passes through `point` so that it sits on a
    /// whole device pixel, as Chromium draws text; zero when the text rotates or scales.
    qreal baselineSnap(QPointF point) const
    {
        if (m_p->transform().type() > QTransform::TxTranslate)
            return 0;
        const qreal y = m_p->transform().map(point).y();
        return roundedToDevicePixel(y) - y;
    }

    /// An opacity group painted offscreen, composited into `parent` on PopLayer.
    struct Group {
        QImage image;
        std::unique_ptr<QPainter> painter;
        QPainter *parent = nullptr;
        QRect rect;
        qint64 bytes = 0; // counted in m_openLayerBytes while open
        qreal opacity = 1;
        const display::PushEffects *effects = nullptr;
        QTransform userToLayer; // user space → layer pixels
        qreal scale = 1; // layer px per user px
    };
    enum class LayerKind : quint8 { Opacity, Group, Effects };

    QPainter *m_p;
    EmojiLibrary &m_emoji;
    QStringList *m_warnings;
    std::vector<std::unique_ptr<Group>> m_groups;
    std::vector<LayerKind> m_layers;
    int m_skipDepth = 0; // > 0 inside a layer with nothing to show
    const RenderCancellation *m_cancellation;
    const DisplayList *m_list = nullptr;
    size_t m_index = 0; // of the command being played
    QTransform m_baseTransform; // the painter's transform when play() began (page px → device)
    std::vector<size_t> m_open; // indexes of the scopes entered and not yet closed
    qint64 m_openLayerBytes = 0; // of the offscreen layers open now
    qint64 m_maxOpenLayerBytes = 0;
};

/// The largest offscreen layer an effect may allocate, in pixels (the render budget
/// bounds the total; this bounds one).
constexpr qint64 kMaxLayerPixels = 32LL * 1024 * 1024;

/// The pop that closes the scope `push` opened.
DisplayCommand closing(const DisplayCommand &push)
{
    if (std::holds_alternative<display::PushTransform>(push))
        return display::PopTransform{};
    if (std::holds_alternative<display::PushLayer>(push))
        return display::PopLayer{};
    if (std::holds_alternative<display::PushClip>(push))
        return display::PopClip{};
    return display::PopEffects{};
}

/// The painter's linear scale (device px per user px), for blur radii.
qreal transformScale(const QTransform &t)
{
    return std::sqrt(std::abs(t.determinant()));
}

/// Composition mode of a separable blend mode (CSS Compositing 1 §5.3); nullopt for the
/// non-separable ones, which QPainter does not have.
std::optional<QPainter::CompositionMode> compositionMode(BlendMode mode)
{
    using C = QPainter::CompositionMode;
    switch (mode) {
    case BlendMode::Normal: return C::CompositionMode_SourceOver;
    case BlendMode::Multiply: return C::CompositionMode_Multiply;
    case BlendMode::Screen: return C::CompositionMode_Screen;
    case BlendMode::Overlay: return C::CompositionMode_Overlay;
    case BlendMode::Darken: return C::CompositionMode_Darken;
    case BlendMode::Lighten: return C::CompositionMode_Lighten;
    case BlendMode::ColorDodge: return C::CompositionMode_ColorDodge;
    case BlendMode::ColorBurn: return C::CompositionMode_ColorBurn;
    case BlendMode::HardLight: return C::CompositionMode_HardLight;
    case BlendMode::SoftLight: return C::CompositionMode_SoftLight;
    case BlendMode::Difference: return C::CompositionMode_Difference;
    case BlendMode::Exclusion: return C::CompositionMode_Exclusion;
    case BlendMode::PlusLighter: return C::CompositionMode_Plus;
    default: return std::nullopt;
    }
}

void QPainterPlayer::play(const DisplayList &list, size_t begin, size_t end)
{
    m_list = &list;
    m_baseTransform = m_p->transform();
    end = std::min(end, list.size());
    CancelledPlayback cancelled(m_cancellation);
    for (size_t i = begin; i < end; ++i) {
        const DisplayCommand &command = list[i];
        if (cancelled.skip(command))
            continue;
        const int change = scopeChange(command);
        if (m_skipDepth > 0) {
            m_skipDepth += change;
            continue;
        }
        m_index = i;
        if (const auto *t = std::get_if<display::PushTransform>(&command);
            t && t->transform.type() == QTransform::TxProject) {
            const size_t pop = scopeEnd(list, i, end);
            projectiveScope(list, i, pop);
            i = pop;
            continue;
        }
        std::visit(*this, command);
        if (change > 0 && m_skipDepth == 0)
            m_open.push_back(i);
        else if (change < 0 && !m_open.empty())
            m_open.pop_back();
    }
    // A range that ends inside scopes (a backdrop's prefix) closes them, so every saved
    // state and offscreen layer unwinds into the device.
    m_skipDepth = 0;
    while (!m_open.empty()) {
        const size_t push = m_open.back();
        m_open.pop_back();
        std::visit(*this, closing(list[push]));
    }
}

void QPainterPlayer::projectiveScope(const DisplayList &list, size_t push, size_t pop)
{
    // QPainter fills a path through a projective matrix without its holes (Qt 6.4: a
    // border ring comes out solid), so the scope is painted flat into a layer and the
    // layer is mapped onto the device, as a compositor draws a 3D-transformed layer.
    const auto &c = std::get<display::PushTransform>(list[push]);
    const QTransform toDevice = c.transform * m_p->transform();
    const ProjectiveLayer geometry = projectiveLayer(
        c.bounds, toDevice, QRect(0, 0, m_p->device()->width(), m_p->device()->height()), kMaxLayerPixels);
    if (geometry.isEmpty())
        return;
    QImage layer(geometry.size, QImage::Format_ARGB32_Premultiplied);
    QImage mapped(geometry.target.size(), QImage::Format_ARGB32_Premultiplied);
    if (layer.isNull() || mapped.isNull())
        return;
    layer.fill(Qt::transparent);
    {
        QPainter p(&layer);
        p.setRenderHints(m_p->renderHints());
        p.setPen(Qt::NoPen);
        p.scale(geometry.scale, geometry.scale);
        p.translate(-geometry.source.topLeft());
        QPainterPlayer(p, m_emoji, m_warnings, m_cancellation).play(list, push + 1, pop);
    }
    // Mapped onto an image in device px first, so a device that has no projective
    // drawing (an SVG generator) takes it as a plain image.
    mapped.fill(Qt::transparent);
    {
        QPainter p(&mapped);
        p.setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform);
        p.setTransform(toDevice * QTransform::fromTranslate(-geometry.target.left(), -geometry.target.top()));
        p.drawImage(QRectF(geometry.source.topLeft(), QSizeF(geometry.size) / geometry.scale), layer);
    }
    m_p->save();
    m_p->resetTransform();
    m_p->drawImage(geometry.target.topLeft(), mapped);
    m_p->restore();
}

void QPainterPlayer::operator()(const display::PushTransform &c)
{
    m_p->save();
    m_p->setTransform(c.transform, true);
}

void QPainterPlayer::operator()(const display::PushLayer &c)
{
    if (!c.group || m_p->device()->devType() != QInternal::Image) {
        // One shape (or a device without layers, e.g. SVG): per-shape opacity is the same
        // as a group's.
        m_p->save();
        m_p->setOpacity(m_p->opacity() * c.opacity);
        m_layers.push_back(LayerKind::Opacity);
        return;
    }
    // CSS Color 4 §3.2: the element and its descendants composite as one group.
    // The layer covers the group's ink where it can show: on the device (or the enclosing
    // layer) and, as nothing is blurred here, inside the clip it is composited under.
    QRect layerRect = m_p->transform().mapRect(c.bounds).toAlignedRect()
                      & QRect(0, 0, m_p->device()->width(), m_p->device()->height());
    if (m_p->hasClipping())
        layerRect &= m_p->transform().mapRect(m_p->clipBoundingRect()).toAlignedRect();
    if (layerRect.isEmpty()) {
        m_skipDepth = 1;
        return;
    }
    if (!pushOffscreen(layerRect, c.opacity)) {
        // No layer to be had: the opacity per shape, which differs only where shapes of
        // the group overlap, rather than nothing or an unbounded allocation.
        m_p->save();
        m_p->setOpacity(m_p->opacity() * c.opacity);
        m_layers.push_back(LayerKind::Opacity);
        return;
    }
    m_layers.push_back(LayerKind::Group);
}

bool QPainterPlayer::pushOffscreen(const QRect &layerRect, qreal opacity)
{
    // The render budget (checkLayerBudget) refuses a tree whose layers would exceed this
    // before paint; checked here too, at the allocation, in case the two ever disagree.
    const qint64 bytes = qint64(layerRect.width()) * layerRect.height() * 4;
    if (m_openLayerBytes + bytes > m_maxOpenLayerBytes)
        return false;
    // On the heap: the painter keeps the address of its image.
    auto g = std::make_unique<Group>();
    g->image = QImage(layerRect.size(), QImage::Format_ARGB32_Premultiplied);
    if (g->image.isNull())
        return false;
    m_openLayerBytes += bytes;
    g->bytes = bytes;
    g->image.fill(Qt::transparent);
    g->painter = std::make_unique<QPainter>(&g->image);
    g->painter->setRenderHints(m_p->renderHints());
    g->painter->setPen(Qt::NoPen);
    g->userToLayer = m_p->transform() * QTransform::fromTranslate(-layerRect.x(), -layerRect.y());
    g->painter->setTransform(g->userToLayer);
    g->parent = m_p;
    g->rect = layerRect;
    g->opacity = opacity;
    m_p = g->painter.get();
    m_groups.push_back(std::move(g));
    return true;
}

void QPainterPlayer::operator()(const display::PushEffects &c)
{
    const QTransform t = m_p->transform();
    const qreal scale = transformScale(t);
    // Ink beyond the device still blurs into it: keep a filter's reach around the device.
    const int margin = int(std::ceil(filterReach(c.filters) * scale));
    const QRect deviceRect
        = QRect(0, 0, m_p->device()->width(), m_p->device()->height()).adjusted(-margin, -margin, margin, margin);
    const QRect layerRect = t.mapRect(c.bounds).toAlignedRect() & deviceRect;
    if (scale <= 0 || layerRect.isEmpty() || qint64(layerRect.width()) * layerRect.height() > kMaxLayerPixels
        || !pushOffscreen(layerRect, c.opacity)) {
        m_skipDepth = 1;
        return;
    }
    m_groups.back()->effects = &c;
    m_groups.back()->scale = scale;
    m_layers.push_back(LayerKind::Effects);
}

void QPainterPlayer::operator()(const display::PopEffects &)
{
    m_layers.pop_back();
    const std::unique_ptr<Group> g = std::move(m_groups.back());
    m_groups.pop_back();
    g->painter->end();
    m_p = g->parent;
    m_openLayerBytes -= g->bytes;
    const display::PushEffects &c = *g->effects;
    QImage &image = g->image;
    // CSS Filter Effects 1 §2 / CSS Masking 1 §2: filter, then clip, then mask.
    applyFilters(image, c.filters, g->scale);
    auto cutTo = [&](const std::function<void(QPainter &)> &paintMask) {
        QImage mask(image.size(), QImage::Format_ARGB32_Premultiplied);
        mask.fill(Qt::transparent);
        {
            QPainter mp(&mask);
            mp.setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform);
            mp.setPen(Qt::NoPen);
            mp.setTransform(g->userToLayer);
            paintMask(mp);
        }
        QPainter ip(&image);
        ip.setCompositionMode(QPainter::CompositionMode_DestinationIn);
        ip.drawImage(0, 0, mask);
    };
    if (c.clip) {
        cutTo([&](QPainter &mp) { mp.fillPath(*c.clip, Qt::black); });
    } else if (!c.clipSvgPath.isEmpty()) {
        // path() data, drawn by Qt's SVG path parser in the border box's coordinates.
        const QSizeF box = c.clipBox.size();
        const QByteArray doc
            = QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" "
                             "viewBox=\"0 0 %1 %2\"><path d=\"%3\" fill-rule=\"%4\"/></svg>")
                  .arg(box.width())
                  .arg(box.height())
                  .arg(c.clipSvgPath, c.clipEvenOdd ? QStringLiteral("evenodd") : QStringLiteral("nonzero"))
                  .toUtf8();
        QSvgRenderer renderer(doc);
        cutTo([&](QPainter &mp) {
            if (renderer.isValid())
                renderer.render(&mp, c.clipBox);
        });
    }
    if (!c.masks.empty()) {
        cutTo([&](QPainter &mp) {
            for (size_t i = 0; i < c.masks.size(); ++i) {
                const MaskComposite op = i < c.maskComposites.size() ? c.maskComposites[i] : MaskComposite::Add;
                if (i == 0 || op == MaskComposite::Add) {
                    paintTiles(mp, c.masks[i]);
                    continue;
                }
                // The layer on its own, then combined over the whole mask: outside the
                // layer's tiles, intersect and subtract change what lies below too.
                auto *target = static_cast<QImage *>(mp.device());
                QImage layer(target->size(), QImage::Format_ARGB32_Premultiplied);
                layer.fill(Qt::transparent);
                {
                    QPainter lp(&layer);
                    lp.setRenderHints(mp.renderHints());
                    lp.setPen(Qt::NoPen);
                    lp.setTransform(mp.transform());
                    paintTiles(lp, c.masks[i]);
                }
                mp.save();
                mp.resetTransform();
                mp.setCompositionMode(op == MaskComposite::Intersect  ? QPainter::CompositionMode_SourceIn
                                      : op == MaskComposite::Subtract ? QPainter::CompositionMode_SourceOut
                                                                      : QPainter::CompositionMode_Xor);
                mp.drawImage(0, 0, layer);
                mp.restore();
            }
        });
    }
    m_p->save();
    m_p->resetTransform();
    m_p->setOpacity(m_p->opacity() * g->opacity);
    if (c.blend != BlendMode::Normal) {
        const auto mode = compositionMode(c.blend);
        if (mode && m_p->device()->devType() == QInternal::Image)
            m_p->setCompositionMode(*mode);
        else
            warnOnce(QStringLiteral("mixBlendMode: this blend mode is drawn as normal here"));
    }
    m_p->drawImage(g->rect.topLeft(), image);
    m_p->restore();
}

void QPainterPlayer::operator()(const display::BackdropFilter &c)
{
    const QTransform t = m_p->transform();
    const qreal scale = transformScale(t);
    if (scale <= 0)
        return;
    const int reach = int(std::ceil(filterReach(c.filters) * scale));
    const QRect device(0, 0, m_p->device()->width(), m_p->device()->height());
    const QRect source = t.mapRect(c.rect).toAlignedRect().adjusted(-reach, -reach, reach, reach) & device;
    if (source.isEmpty() || qint64(source.width()) * source.height() > kMaxLayerPixels)
        return;
    QImage backdrop;
    if (m_p->device()->devType() == QInternal::Image) {
        // What is painted so far in this layer (the backdrop root, Filter Effects 2 §3.1).
        backdrop = static_cast<QImage *>(m_p->device())->copy(source);
        if (backdrop.format() != QImage::Format_ARGB32_Premultiplied)
            backdrop.convertTo(QImage::Format_ARGB32_Premultiplied);
    } else if (m_list) {
        // A device that cannot be read back (SVG): paint what came before again.
        backdrop = QImage(source.size(), QImage::Format_ARGB32_Premultiplied);
        backdrop.fill(Qt::transparent);
        QPainter bp(&backdrop);
        bp.setRenderHints(m_p->renderHints());
        bp.setPen(Qt::NoPen);
        bp.setTransform(m_baseTransform * QTransform::fromTranslate(-source.x(), -source.y()));
        QPainterPlayer(bp, m_emoji, nullptr, m_cancellation).play(*m_list, 0, m_index);
    }
    if (backdrop.isNull())
        return;
    applyFilters(backdrop, c.filters, scale);
    // Cut to the border box shape in an image of its own.
    const QImage shaped = shapedBackdrop(backdrop, source.topLeft(), t.map(c.shape));
    m_p->save();
    m_p->resetTransform();
    m_p->drawImage(source.topLeft(), shaped);
    m_p->restore();
}

void QPainterPlayer::operator()(const display::PopLayer &)
{
    const LayerKind kind = m_layers.back();
    m_layers.pop_back();
    if (kind == LayerKind::Opacity) {
        m_p->restore();
        return;
    }
    const std::unique_ptr<Group> g = std::move(m_groups.back());
    m_groups.pop_back();
    g->painter->end();
    m_p = g->parent;
    m_openLayerBytes -= g->bytes;
    m_p->save();
    m_p->resetTransform();
    m_p->setOpacity(m_p->opacity() * g->opacity);
    m_p->drawImage(g->rect.topLeft(), g->image);
    m_p->restore();
}

void QPainterPlayer::operator()(const display::PushClip &c)
{
    m_p->save();
    if (c.path.isEmpty())
        m_p->setClipRect(c.rect, Qt::IntersectClip);
    else
        m_p->setClipPath(c.path, Qt::IntersectClip);
}

void QPainterPlayer::operator()(const display::StrokeBorder &c)
{
    QPen pen(c.color, c.width);
    if (c.dotted) {
        // Round dots are round caps on dashes of (almost) no length: Qt's stroker drops
        // dashes of exactly zero length, so a dotted border drew nothing.
        pen.setCapStyle(Qt::RoundCap);
        pen.setDashPattern({display::StrokeBorder::kDotLength,
                            c.gap > 0 ? c.gap / c.width : 2.0 - display::StrokeBorder::kDotLength});
    } else {
        pen.setCapStyle(Qt::FlatCap);
        // Qt's dash pattern is in pen widths.
        pen.setDashPattern(c.dash > 0 ? QList<qreal>{c.dash / c.width, c.gap / c.width} : QList<qreal>{3.0, 3.0});
    }
    if (!c.isLine) {
        m_p->strokePath(c.path, pen);
        return;
    }
    m_p->setPen(pen);
    m_p->drawLine(c.line);
    m_p->setPen(Qt::NoPen);
}

void QPainterPlayer::operator()(const display::BackgroundTiles &c)
{
    paintTiles(*m_p, c);
}

void QPainterPlayer::paintTiles(QPainter &p, const display::BackgroundTiles &c)
{
    const bool transformedGradient = c.image.isNull() && !c.gradient.transform().isIdentity();
    if ((c.repeat || transformedGradient) && p.device()->devType() != QInternal::Image) {
        // QSvgGenerator (Qt 6.4) writes neither texture brushes nor clip paths nor brush
        // transforms, so repeated tiles vanished from the SVG and elliptical gradients came
        // out circular: painted onto an image at the size they cover on the device,
        // clipped there, and drawn as a plain image.
        const QRectF bounds = c.clip.boundingRect();
        if (bounds.isEmpty())
            return;
        const QImage baked = bakedOnDevice(p, bounds, [&](QPainter &bp) { paintTiles(bp, c); });
        p.drawImage(bounds, baked);
        return;
    }
    p.save();
    p.setClipPath(c.clip, Qt::IntersectClip);
    if (c.blend != BlendMode::Normal && p.device()->devType() == QInternal::Image)
        if (const auto mode = compositionMode(c.blend))
            p.setCompositionMode(*mode);
    const QRectF &tile = c.tile;
    if (c.image.isNull()) {
        if (c.repeat && tile.contains(c.area)) {
            // One tile covers the positioning area; its edge colours stand in for the
            // repeats under the border.
            p.fillPath(c.clip, c.gradient);
        } else if (!c.repeat) {
            p.fillRect(tile, c.gradient);
        } else {
            QBrush tb(gradientTileImage(c));
            tb.setTransform(QTransform::fromTranslate(tile.left(), tile.top()));
            p.fillPath(c.clip, tb);
        }
    } else {
        p.setRenderHint(QPainter::SmoothPixmapTransform);
        drawImageTiles(p, atDeviceSize(p, c.image, tile), c);
    }
    p.restore();
}

void QPainterPlayer::operator()(const display::DrawImage &c)
{
    // An inline <svg> under a rotation or skew: its vectors drawn through the transform
    // onto the device's pixels, as Chromium draws it, not a raster of it resampled.
    if (!c.shape && m_p->transform().type() >= QTransform::TxRotate && isInlineSvgImage(c.image)
        && m_p->device()->devType() == QInternal::Image)
        if (const auto drawn = inlineSvgOnDevice(c.image, c.dest, m_p->transform())) {
            m_p->save();
            m_p->resetTransform();
            m_p->drawImage(drawn->rect.topLeft(), drawn->image);
            m_p->restore();
            return;
        }
    m_p->save();
    m_p->setRenderHint(QPainter::SmoothPixmapTransform);
    const QImage image = atDeviceSize(c.image, c.dest);
    if (!c.shape) {
        m_p->drawImage(c.dest, image);
    } else {
        // An image brush filling the clip shape keeps curved edges antialiased, which a
        // clip path would not.
        QBrush brush(image);
        QTransform t = QTransform::fromTranslate(c.dest.left(), c.dest.top());
        t.scale(c.dest.width() / image.width(), c.dest.height() / image.height());
        brush.setTransform(t);
        if (m_p->device()->devType() == QInternal::Image)
            m_p->fillPath(*c.shape, brush);
        else
            drawShapedImageBaked(c, brush);
    }
    m_p->restore();
}

QImage QPainterPlayer::atDeviceSize(const QImage &image, const QRectF &dest) const
{
    return atDeviceSize(*m_p, image, dest);
}

QImage QPainterPlayer::atDeviceSize(const QPainter &p, const QImage &image, const QRectF &dest)
{
    // The box's size on the device: a scale 2 render, or a transform, gives it more pixels.
    const QSizeF onDevice = p.transform().mapRect(dest).size();
    return imageAtDeviceSize(image, QSize(int(std::ceil(onDevice.width())), int(std::ceil(onDevice.height()))));
}

QImage QPainterPlayer::bakedOnDevice(const QPainter &p, const QRectF &rect, const std::function<void(QPainter &)> &paint)
{
    constexpr int kMaxSide = 4096; // a scaled-up transform must not allocate without bound
    const QSizeF onDevice = p.transform().mapRect(rect).size();
    const QSize size(std::clamp(int(std::ceil(onDevice.width())), 1, kMaxSide),
                     std::clamp(int(std::ceil(onDevice.height())), 1, kMaxSide));
    QImage baked(size, QImage::Format_ARGB32_Premultiplied);
    baked.fill(Qt::transparent);
    QPainter bp(&baked);
    bp.setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform);
    bp.setPen(Qt::NoPen);
    bp.scale(size.width() / rect.width(), size.height() / rect.height());
    bp.translate(-rect.topLeft());
    paint(bp);
    bp.end();
    return baked;
}

void QPainterPlayer::drawShapedImageBaked(const display::DrawImage &c, const QBrush &brush)
{
    // QSvgGenerator (Qt 6.4) writes neither texture brushes nor clip paths, so a rounded
    // image filled as above vanishes from the SVG. Bake the shape into the image instead:
    // transparent outside it, at the size it covers on the device so the curve stays
    // sharp, then draw that as a plain image, which every device can express.
    m_p->drawImage(c.dest, bakedOnDevice(*m_p, c.dest, [&](QPainter &bp) { bp.fillPath(*c.shape, brush); }));
}

void QPainterPlayer::operator()(const display::TextShadow &c)
{
    const qreal e = c.fontSize;
    const QRectF ink = QRectF(c.origin + c.offset, c.block->size).adjusted(-e, -e, e, e);
    drawBlurred(*m_p, ink, c.blur / 2.0, [&](QPainter &sp) {
        sp.setPen(c.color);
        for (const TextLine &line : c.block->lines) {
            const QPointF at = c.origin + QPointF(0, baselineSnap(c.origin + QPointF(0, line.baseline)));
            for (const QGlyphRun &run : line.glyphRuns)
                paintGlyphRun(sp, at + c.offset, run);
        }
    });
}

void QPainterPlayer::operator()(const display::DrawGlyphs &c)
{
    m_p->setPen(c.color);
    for (const TextLine &line : c.block->lines) {
        const QPointF at = c.origin + QPointF(0, baselineSnap(c.origin + QPointF(0, line.baseline)));
        for (const QGlyphRun &run : line.glyphRuns) {
            // Emoji of the font too (EmojiSet::Noto, no map): scaled to Chromium's size and
            // never emboldened or slanted (a colour bitmap has no outline).
            static const EmojiGlyphMap kFromTheFont;
            if (EmojiGlyphMap::isEmojiRun(run))
                drawEmojiRun(*m_p, at, run, c.emoji ? *c.emoji : kFromTheFont, m_emoji, c.emojiSet, c.fontSize,
                             m_warnings);
            else
                paintGlyphRun(*m_p, at, run);
        }
        if (c.strokeWidth > 0 && c.strokeColor.alpha() > 0) {
            QPen pen(c.strokeColor, c.strokeWidth);
            pen.setJoinStyle(Qt::MiterJoin);
            for (const QGlyphRun &run : line.glyphRuns)
                if (!EmojiGlyphMap::isEmojiRun(run))
                    m_p->strokePath(glyphRunOutline(run, at), pen);
        }
    }
    // Fills that follow must not pick up the text colour as a stroke (QSvgGenerator
    // writes the pen into every group).
    m_p->setPen(Qt::NoPen);
}

void QPainterPlayer::operator()(const display::DecorationBar &c)
{
    // From the unsnapped baseline, as Blink places decorations from the text's layout
    // position; decorationPath() snaps them to pixels its own way.
    m_p->fillPath(decorationPath(c.rect, c.style, c.line, c.skipInk), c.color);
}

} // namespace

void playDisplayList(QPainter &painter, const DisplayList &list, size_t begin, size_t end, EmojiLibrary &emoji,
                     QStringList *warnings, const RenderCancellation *cancellation)
{
    QPainterPlayer(painter, emoji, warnings, cancellation).play(list, begin, end);
}

namespace {

void paintTree(QPainter &painter, const LayoutBox &root, const PaintResources &resources, EmojiSet emoji,
               QStringList *warnings)
{
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    painter.setPen(Qt::NoPen);
    RecordOptions options;
    options.emojiSet = emoji;
    options.deviceScale = std::sqrt(std::abs(painter.deviceTransform().determinant()));
    QPainterPlayer(painter, resources.emoji, warnings, resources.cancellation)
        .play(recordDisplayList(root, resources, options));
}

} // namespace

void paintBoxTree(QPainter &painter, const LayoutBox &root, const PaintResources &resources, EmojiSet emoji,
                  QStringList *warnings)
{
    paintTree(painter, root, resources, emoji, warnings);
}

QImage gradientTileImage(const display::BackgroundTiles &tiles)
{
    QImage image(tiles.tile.size().toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.translate(-tiles.tile.topLeft());
    p.fillRect(tiles.tile, tiles.gradient);
    return image;
}

void drawImageTiles(QPainter &painter, const QImage &image, const display::BackgroundTiles &tiles)
{
    const QRectF &tile = tiles.tile;
    if (!tiles.repeat) {
        painter.drawImage(tile, image);
        return;
    }
    QBrush brush(image);
    QTransform t = QTransform::fromTranslate(tile.left(), tile.top());
    t.scale(tile.width() / image.width(), tile.height() / image.height());
    brush.setTransform(t);
    painter.fillPath(tiles.clip, brush);
}

QImage shapedBackdrop(const QImage &backdrop, QPoint origin, const QPainterPath &shape, const QPainterPath *clip)
{
    QImage shaped(backdrop.size(), QImage::Format_ARGB32_Premultiplied);
    shaped.fill(Qt::transparent);
    QPainter p(&shaped);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    const QTransform toImage = QTransform::fromTranslate(-origin.x(), -origin.y());
    if (clip)
        p.setClipPath(toImage.map(*clip));
    p.fillPath(toImage.map(shape), QBrush(backdrop));
    return shaped;
}

QImage paintToImage(const LayoutBox &root, QSize size, const PaintResources &resources, EmojiSet emoji,
                    QStringList *warnings)
{
    return paintOnTransparentImage(size,
                                   [&](QPainter &painter) { paintBoxTree(painter, root, resources, emoji, warnings); });
}

} // namespace imprint::render
