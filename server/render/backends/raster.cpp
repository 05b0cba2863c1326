// The raster backend: plays a display list (paint/display_list.h) on a QPainter, so the
// same commands paint a QImage (png/webp) or a QSvgGenerator (svg).

#include "server/render/backends/raster.h"
#include "server/render/cancellation.h"
#include "server/render/paint/recorder.h"

#include <QPaintDevice>

#include <algorithm>
#include <cmath>

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
    { }

    void play(const DisplayList &list);

    void operator()(const display::PushTransform &c);
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

private:
    /// Draws `c` (an image with a shape) on a device without texture brushes or clip
    /// paths, as an image made transparent outside the shape.
    void drawShapedImageBaked(const display::DrawImage &c, const QBrush &brush);

    /// How far to move a line whose baseline passes through `point` so that it sits on a
    /// whole device pixel, as Chromium draws text; zero when the text rotates or scales.
    qreal baselineSnap(QPointF point) const
    {
        if (m_p->transform().type() > QTransform::TxTranslate)
            return 0;
        const qreal y = m_p->transform().map(point).y();
        return std::round(y) - y;
    }

    /// An opacity group painted offscreen, composited into `parent` on PopLayer.
    struct Group {
        QImage image;
        std::unique_ptr<QPainter> painter;
        QPainter *parent = nullptr;
        QRect rect;
        qreal opacity = 1;
    };
    enum class LayerKind : quint8 { Opacity, Group };

    QPainter *m_p;
    EmojiLibrary &m_emoji;
    QStringList *m_warnings;
    std::vector<std::unique_ptr<Group>> m_groups;
    std::vector<LayerKind> m_layers;
    int m_skipDepth = 0; // > 0 inside a layer with nothing to show
    const RenderCancellation *m_cancellation;
};

void QPainterPlayer::play(const DisplayList &list)
{
    CancelledPlayback cancelled(m_cancellation);
    for (const DisplayCommand &command : list) {
        if (cancelled.skip(command))
            continue;
        if (m_skipDepth > 0) {
            if (std::holds_alternative<display::PushLayer>(command))
                ++m_skipDepth;
            else if (std::holds_alternative<display::PopLayer>(command))
                --m_skipDepth;
            continue;
        }
        std::visit(*this, command);
    }
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
    const QRect deviceRect(0, 0, m_p->device()->width(), m_p->device()->height());
    const QRect layerRect = m_p->transform().mapRect(c.bounds).toAlignedRect() & deviceRect;
    if (layerRect.isEmpty()) {
        m_skipDepth = 1;
        return;
    }
    // On the heap: the painter keeps the address of its image.
    auto g = std::make_unique<Group>();
    g->image = QImage(layerRect.size(), QImage::Format_ARGB32_Premultiplied);
    g->image.fill(Qt::transparent);
    g->painter = std::make_unique<QPainter>(&g->image);
    g->painter->setRenderHints(m_p->renderHints());
    g->painter->setTransform(m_p->transform() * QTransform::fromTranslate(-layerRect.x(), -layerRect.y()));
    g->parent = m_p;
    g->rect = layerRect;
    g->opacity = c.opacity;
    m_p = g->painter.get();
    m_groups.push_back(std::move(g));
    m_layers.push_back(LayerKind::Group);
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
        pen.setCapStyle(Qt::RoundCap);
        pen.setDashPattern({0.0, 2.0});
    } else {
        pen.setCapStyle(Qt::FlatCap);
        pen.setDashPattern({3.0, 3.0});
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
    m_p->save();
    m_p->setClipPath(c.clip, Qt::IntersectClip);
    const QRectF &tile = c.tile;
    if (c.image.isNull()) {
        if (c.repeat && tile.contains(c.area)) {
            // One tile covers the positioning area; its edge colours stand in for the
            // repeats under the border.
            m_p->fillPath(c.clip, c.gradient);
        } else if (!c.repeat) {
            m_p->fillRect(tile, c.gradient);
        } else {
            QImage tileImage(tile.size().toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
            tileImage.fill(Qt::transparent);
            QPainter tp(&tileImage);
            tp.translate(-tile.topLeft());
            tp.fillRect(tile, c.gradient);
            tp.end();
            QBrush tb(tileImage);
            tb.setTransform(QTransform::fromTranslate(tile.left(), tile.top()));
            m_p->fillPath(c.clip, tb);
        }
    } else {
        m_p->setRenderHint(QPainter::SmoothPixmapTransform);
        if (c.repeat) {
            QBrush tb(c.image);
            QTransform t = QTransform::fromTranslate(tile.left(), tile.top());
            t.scale(tile.width() / c.image.width(), tile.height() / c.image.height());
            tb.setTransform(t);
            m_p->fillPath(c.clip, tb);
        } else {
            m_p->drawImage(tile, c.image);
        }
    }
    m_p->restore();
}

void QPainterPlayer::operator()(const display::DrawImage &c)
{
    m_p->save();
    m_p->setRenderHint(QPainter::SmoothPixmapTransform);
    if (!c.shape) {
        m_p->drawImage(c.dest, c.image);
    } else {
        // An image brush filling the clip shape keeps curved edges antialiased, which a
        // clip path would not.
        QBrush brush(c.image);
        QTransform t = QTransform::fromTranslate(c.dest.left(), c.dest.top());
        t.scale(c.dest.width() / c.image.width(), c.dest.height() / c.image.height());
        brush.setTransform(t);
        if (m_p->device()->devType() == QInternal::Image)
            m_p->fillPath(*c.shape, brush);
        else
            drawShapedImageBaked(c, brush);
    }
    m_p->restore();
}

void QPainterPlayer::drawShapedImageBaked(const display::DrawImage &c, const QBrush &brush)
{
    // QSvgGenerator (Qt 6.4) writes neither texture brushes nor clip paths, so a rounded
    // image filled as above vanishes from the SVG. Bake the shape into the image instead:
    // transparent outside it, at the size it covers on the device so the curve stays
    // sharp, then draw that as a plain image, which every device can express.
    constexpr int kMaxSide = 4096; // a scaled-up transform must not allocate without bound
    const QSizeF onDevice = m_p->transform().mapRect(c.dest).size();
    const QSize size(std::clamp(int(std::ceil(onDevice.width())), 1, kMaxSide),
                     std::clamp(int(std::ceil(onDevice.height())), 1, kMaxSide));
    QImage baked(size, QImage::Format_ARGB32_Premultiplied);
    baked.fill(Qt::transparent);
    QPainter bp(&baked);
    bp.setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform);
    bp.setPen(Qt::NoPen);
    bp.scale(size.width() / c.dest.width(), size.height() / c.dest.height());
    bp.translate(-c.dest.topLeft());
    bp.fillPath(*c.shape, brush);
    bp.end();
    m_p->drawImage(c.dest, baked);
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
                sp.drawGlyphRun(at + c.offset, run);
        }
    });
}

void QPainterPlayer::operator()(const display::DrawGlyphs &c)
{
    m_p->setPen(c.color);
    for (const TextLine &line : c.block->lines) {
        const QPointF at = c.origin + QPointF(0, baselineSnap(c.origin + QPointF(0, line.baseline)));
        for (const QGlyphRun &run : line.glyphRuns) {
            if (c.emoji && EmojiGlyphMap::isEmojiRun(run))
                drawEmojiRun(*m_p, at, run, *c.emoji, m_emoji, c.emojiSet, c.fontSize, m_warnings);
            else
                m_p->drawGlyphRun(at, run);
        }
    }
    // Fills that follow must not pick up the text colour as a stroke (QSvgGenerator
    // writes the pen into every group).
    m_p->setPen(Qt::NoPen);
}

void QPainterPlayer::operator()(const display::DecorationBar &c)
{
    m_p->fillRect(c.rect.translated(0, baselineSnap(c.baseline)), c.color);
}

void paintTree(QPainter &painter, const LayoutBox &root, const PaintResources &resources, EmojiSet emoji,
               QStringList *warnings)
{
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    painter.setPen(Qt::NoPen);
    RecordOptions options;
    options.emojiSet = emoji;
    QPainterPlayer(painter, resources.emoji, warnings, resources.cancellation)
        .play(recordDisplayList(root, resources, options));
}

} // namespace

void paintBoxTree(QPainter &painter, const LayoutBox &root, const PaintResources &resources, EmojiSet emoji,
                  QStringList *warnings)
{
    paintTree(painter, root, resources, emoji, warnings);
}

QImage paintToImage(const LayoutBox &root, QSize size, const PaintResources &resources, EmojiSet emoji,
                    QStringList *warnings)
{
    return paintOnTransparentImage(size,
                                   [&](QPainter &painter) { paintBoxTree(painter, root, resources, emoji, warnings); });
}

} // namespace imprint::render
