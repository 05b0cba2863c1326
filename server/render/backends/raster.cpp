// The raster painter's tree walk: stacking order, opacity layers, transforms, clipping,
// backgrounds, borders, images and text.

#include "server/render/backends/raster.h"
#include "server/render/paint/paint_order.h"
#include "server/render/paint/geometry.h"
#include "server/render/text/text_engine.h"

#include <QPaintDevice>

#include <cmath>

namespace imprint::render {

using namespace paint_detail;

namespace {

// Layout lays text out at its box width plus this slack (layout.cpp); shaping at the same
// width gives the same lines and reuses the cached shaping.
constexpr qreal kTextSlack = 0.01;

class Painter {
public:
    explicit Painter(TextEngine &text, EmojiSet emoji = EmojiSet::Noto, QStringList *warnings = nullptr)
        : m_text(text), m_emoji(emoji), m_warnings(warnings)
    {
    }

    void paintBox(QPainter &p, const LayoutBox &box, const LayoutBox *parent);

private:
    void paintElement(QPainter &p, const LayoutBox &box, const LayoutBox *parent);
    void paintBackground(QPainter &p, const LayoutBox &box, const QPainterPath &borderPath);
    void paintBorder(QPainter &p, const LayoutBox &box, const Radii &outer);
    void paintImage(QPainter &p, const LayoutBox &box, const Radii &outer);
    void paintText(QPainter &p, const LayoutBox &box, const LayoutBox *parent);
    void paintChildren(QPainter &p, const LayoutBox &box, const std::vector<const LayoutBox *> &children);

    TextEngine &m_text;
    EmojiSet m_emoji;          // how emoji clusters are drawn (emoji.h)
    QStringList *m_warnings;
};

void Painter::paintBox(QPainter &p, const LayoutBox &box, const LayoutBox *parent)
{
    if (!box.node)
        return;
    const Node &node = *box.node;
    if (node.isText()) {
        paintText(p, box, parent);
        return;
    }
    const ComputedStyle &s = node.style;
    if (s.display == Display::None || s.opacity <= 0)
        return;

    p.save();
    if (!s.transform.empty())
        p.setTransform(cssTransform(s, box.borderBox), true);

    if (s.opacity >= 1) {
        paintElement(p, box, parent);
    } else if (box.children.empty() || p.device()->devType() != QInternal::Image) {
        // One shape (or a device without layers, e.g. SVG): per-shape opacity is the same
        // as a group's.
        p.setOpacity(p.opacity() * s.opacity);
        paintElement(p, box, parent);
    } else {
        // CSS Color 4 §3.2: the element and its descendants composite as one group.
        const QRect deviceRect(0, 0, p.device()->width(), p.device()->height());
        const QRect layerRect = p.transform().mapRect(inkBounds(box)).toAlignedRect() & deviceRect;
        if (!layerRect.isEmpty()) {
            QImage layer(layerRect.size(), QImage::Format_ARGB32_Premultiplied);
            layer.fill(Qt::transparent);
            {
                QPainter lp(&layer);
                lp.setRenderHints(p.renderHints());
                lp.setTransform(p.transform() * QTransform::fromTranslate(-layerRect.x(), -layerRect.y()));
                paintElement(lp, box, parent);
            }
            p.resetTransform();
            p.setOpacity(p.opacity() * s.opacity);
            p.drawImage(layerRect.topLeft(), layer);
        }
    }
    p.restore();
}

void Painter::paintElement(QPainter &p, const LayoutBox &box, const LayoutBox *parent)
{
    const ComputedStyle &s = box.node->style;
    const PaintOrder order = paintOrder(box, parent);
    for (const LayoutBox *c : order.beneath)
        paintBox(p, *c, &box);
    const BoxGeometry g = boxGeometry(box);
    paintOuterShadows(p, s, g.borderBox, g.outer);
    const QPainterPath borderPath = roundedPath(g.borderBox, g.outer);
    paintBackground(p, box, borderPath);
    paintInsetShadows(p, s, g.paddingBox, g.inner);
    paintBorder(p, box, g.outer);
    if (box.node->isImage())
        paintImage(p, box, g.outer);

    if (box.children.empty())
        return;
    if (s.overflow == Overflow::Hidden) {
        p.save();
        // CSS Overflow 3 §3: content clips at the padding edge, curved by the inner radii.
        if (isZero(g.inner))
            p.setClipRect(g.paddingBox, Qt::IntersectClip);
        else
            p.setClipPath(roundedPath(g.paddingBox, g.inner), Qt::IntersectClip);
        paintChildren(p, box, order.children);
        p.restore();
    } else {
        paintChildren(p, box, order.children);
    }
}

void Painter::paintChildren(QPainter &p, const LayoutBox &box, const std::vector<const LayoutBox *> &children)
{
    for (const LayoutBox *c : children)
        paintBox(p, *c, &box);
}

void Painter::paintBackground(QPainter &p, const LayoutBox &box, const QPainterPath &borderPath)
{
    const ComputedStyle &s = box.node->style;
    const bool plainRect = borderPath.elementCount() == 5; // addRect: moveTo + 4 lineTo
    if (s.backgroundColor.alpha() > 0) {
        if (plainRect)
            p.fillRect(box.borderBox, s.backgroundColor);
        else
            p.fillPath(borderPath, s.backgroundColor);
    }
    if (s.backgroundLayers.empty())
        return;
    const ResolvedBackground background = resolveBackgroundLayers(s, box.paddingBox());
    const QRectF &area = background.positioningArea;
    for (const ResolvedBackgroundLayer &resolved : background.layers) {
        const BackgroundLayer &layer = *resolved.layer;
        const QRectF &tile = resolved.tile;
        const QImage &image = resolved.image;
        p.save();
        p.setClipPath(borderPath, Qt::IntersectClip);
        if (layer.gradient) {
            const QBrush brush = gradientBrush(*layer.gradient, tile);
            if (layer.repeat && tile.contains(area)) {
                // One tile covers the positioning area; its edge colours stand in for the
                // repeats under the border.
                p.fillPath(borderPath, brush);
            } else if (!layer.repeat) {
                p.fillRect(tile, brush);
            } else {
                QImage tileImage(tile.size().toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
                tileImage.fill(Qt::transparent);
                QPainter tp(&tileImage);
                tp.translate(-tile.topLeft());
                tp.fillRect(tile, brush);
                tp.end();
                QBrush tb(tileImage);
                tb.setTransform(QTransform::fromTranslate(tile.left(), tile.top()));
                p.fillPath(borderPath, tb);
            }
        } else {
            p.setRenderHint(QPainter::SmoothPixmapTransform);
            if (layer.repeat) {
                QBrush tb(image);
                QTransform t = QTransform::fromTranslate(tile.left(), tile.top());
                t.scale(tile.width() / image.width(), tile.height() / image.height());
                tb.setTransform(t);
                p.fillPath(borderPath, tb);
            } else {
                p.drawImage(tile, image);
            }
        }
        p.restore();
    }
}

void Painter::paintBorder(QPainter &p, const LayoutBox &box, const Radii &outer)
{
    const ComputedStyle &s = box.node->style;
    const QMarginsF w = box.border;
    const qreal widths[4] = {w.top(), w.right(), w.bottom(), w.left()};
    bool any = false, uniformColor = true, uniformStyle = true;
    for (int i = 0; i < 4; ++i) {
        const bool visible = widths[i] > 0 && s.borderStyle[size_t(i)] != BorderStyle::None
                             && s.borderColor[size_t(i)].alpha() > 0;
        any = any || visible;
        if (s.borderColor[size_t(i)] != s.borderColor[0] || widths[i] <= 0)
            uniformColor = false;
        if (s.borderStyle[size_t(i)] != s.borderStyle[0])
            uniformStyle = false;
    }
    if (!any)
        return;
    const QRectF outerRect = box.borderBox;
    const QRectF innerRect = box.paddingBox();
    const Radii inner = insetRadii(outer, w);
    const BorderStyle style0 = s.borderStyle[0];

    if (uniformStyle && (style0 == BorderStyle::Dashed || style0 == BorderStyle::Dotted)) {
        // Broken borders stroke the middle of the border; each edge carries its own pen.
        const Radii mid = insetRadii(outer, QMarginsF(w.left() / 2, w.top() / 2, w.right() / 2, w.bottom() / 2));
        const QRectF midRect = outerRect.marginsRemoved(QMarginsF(w.left() / 2, w.top() / 2, w.right() / 2, w.bottom() / 2));
        auto penFor = [&](int i) {
            QPen pen(s.borderColor[size_t(i)], widths[i]);
            if (style0 == BorderStyle::Dotted) {
                pen.setCapStyle(Qt::RoundCap);
                pen.setDashPattern({0.0, 2.0});
            } else {
                pen.setCapStyle(Qt::FlatCap);
                pen.setDashPattern({3.0, 3.0});
            }
            return pen;
        };
        if (uniformColor && widths[0] == widths[1] && widths[1] == widths[2] && widths[2] == widths[3]) {
            p.strokePath(roundedPath(midRect, mid), penFor(0));
            return;
        }
        const QLineF edges[4] = {
            {midRect.topLeft(), midRect.topRight()}, {midRect.topRight(), midRect.bottomRight()},
            {midRect.bottomRight(), midRect.bottomLeft()}, {midRect.bottomLeft(), midRect.topLeft()}};
        for (int i = 0; i < 4; ++i) {
            if (widths[i] > 0 && s.borderStyle[size_t(i)] != BorderStyle::None) {
                p.setPen(penFor(i));
                p.drawLine(edges[i]);
            }
        }
        p.setPen(Qt::NoPen);
        return;
    }

    QPainterPath ring = roundedPath(outerRect, outer);
    if (innerRect.width() > 0 && innerRect.height() > 0)
        ring.addPath(roundedPath(innerRect, inner));
    ring.setFillRule(Qt::OddEvenFill);
    if (uniformColor && uniformStyle) {
        p.fillPath(ring, s.borderColor[0]);
        return;
    }
    // Per-edge colours: each edge owns the trapezoid between its outer and inner edge, the
    // corners split along the line joining the outer and inner corner (§4.4).
    const QPointF o[4] = {outerRect.topLeft(), outerRect.topRight(), outerRect.bottomRight(), outerRect.bottomLeft()};
    const QPointF in[4] = {innerRect.topLeft(), innerRect.topRight(), innerRect.bottomRight(), innerRect.bottomLeft()};
    for (int i = 0; i < 4; ++i) {
        if (widths[i] <= 0 || s.borderStyle[size_t(i)] == BorderStyle::None || s.borderColor[size_t(i)].alpha() == 0)
            continue;
        const int j = (i + 1) % 4;
        // Extend the diagonals beyond the box so curved corners are fully covered.
        const QPointF da = o[i] + (o[i] - in[i]) * 4, db = o[j] + (o[j] - in[j]) * 4;
        QPolygonF wedge;
        wedge << da << db << in[j] << in[i];
        QPainterPath wedgePath;
        wedgePath.addPolygon(wedge);
        wedgePath.closeSubpath();
        p.fillPath(ring.intersected(wedgePath), s.borderColor[size_t(i)]);
    }
}

void Painter::paintImage(QPainter &p, const LayoutBox &box, const Radii &outer)
{
    const Node &node = *box.node;
    const ComputedStyle &s = node.style;
    if (node.image.isNull())
        return;
    const QRectF content = box.contentBox();
    if (content.width() <= 0 || content.height() <= 0)
        return;
    const QSizeF natural = node.image.size();
    const QRectF dest = objectFitRect(s, natural, content);
    const Radii contentRadii = insetRadii(outer, box.border + box.padding);
    p.save();
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    if (isZero(contentRadii) && content.contains(dest)) {
        p.drawImage(dest, node.image);
    } else {
        // An image brush filling the clip shape keeps curved edges antialiased, which a
        // clip path would not.
        QBrush brush(node.image);
        QTransform t = QTransform::fromTranslate(dest.left(), dest.top());
        t.scale(dest.width() / natural.width(), dest.height() / natural.height());
        brush.setTransform(t);
        const QPainterPath shape = roundedPath(content, contentRadii).intersected([&] {
            QPainterPath d;
            d.addRect(dest);
            return d;
        }());
        p.fillPath(shape, brush);
    }
    p.restore();
}

void Painter::paintText(QPainter &p, const LayoutBox &box, const LayoutBox *parent)
{
    const Node &node = *box.node;
    const ComputedStyle &s = node.style;
    qreal width = box.borderBox.width();
    // text-overflow measures against the block's content edge, which a no-wrap line
    // may have overflowed (CSS Overflow 3 §text-overflow).
    if (parent && s.textOverflow == TextOverflow::Ellipsis)
        width = std::min(width, parent->contentBox().right() - box.borderBox.left());
    const auto block = m_text.shape(node, width + kTextSlack);
    if (block->lines.empty())
        return;
    const QPointF origin = box.borderBox.topLeft();
    // Chromium snaps text baselines to whole device pixels; so do we when nothing rotates
    // or scales the text.
    const bool snap = p.transform().type() <= QTransform::TxTranslate;
    auto lineOrigin = [&](const TextLine &line) {
        if (!snap)
            return origin;
        const qreal y = p.transform().map(origin + QPointF(0, line.baseline)).y();
        return origin + QPointF(0, std::round(y) - y);
    };

    for (auto it = s.textShadow.rbegin(); it != s.textShadow.rend(); ++it) {
        const Shadow &sh = *it;
        if (sh.color.alpha() == 0)
            continue;
        const QPointF offset(sh.offsetX, sh.offsetY);
        const qreal e = s.fontSize;
        const QRectF ink = QRectF(origin + offset, block->size).adjusted(-e, -e, e, e);
        drawBlurred(p, ink, sh.blur / 2.0, [&](QPainter &sp) {
            sp.setPen(sh.color);
            for (const TextLine &line : block->lines)
                for (const QGlyphRun &run : line.glyphRuns)
                    sp.drawGlyphRun(lineOrigin(line) + offset, run);
        });
    }

    p.setPen(s.color);
    // Emoji glyphs of the colour font give way to the set's images (issue 4).
    const EmojiGlyphMap emoji(m_emoji == EmojiSet::Noto ? QString() : TextEngine::processText(s, node.text),
                              TextEngine::fontFor(s));
    for (const TextLine &line : block->lines) {
        const QPointF at = lineOrigin(line);
        for (const QGlyphRun &run : line.glyphRuns) {
            if (!emoji.isEmpty() && EmojiGlyphMap::isEmojiRun(run))
                drawEmojiRun(p, at, run, emoji, m_emoji, s.fontSize, m_warnings);
            else
                p.drawGlyphRun(at, run);
        }
    }

    const TextDecoration &d = s.textDecoration;
    if (d.underline || d.overline || d.lineThrough) {
        const QColor color = d.color.value_or(s.color);
        const qreal t = block->decorationThickness;
        for (const TextLine &line : block->lines) {
            auto bar = [&](qreal offset) {
                const qreal y = lineOrigin(line).y() + line.baseline + offset;
                p.fillRect(QRectF(origin.x() + line.left, y - t / 2, line.width, t), color);
            };
            if (d.underline)
                bar(block->underlineOffset + t / 2);
            if (d.overline)
                bar(block->overlineOffset);
            if (d.lineThrough)
                bar(block->strikeOffset);
        }
    }
}

} // namespace

void paintBoxTree(QPainter &painter, const LayoutBox &root, TextEngine *text)
{
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    painter.setPen(Qt::NoPen);
    Painter p(text ? *text : TextEngine::instance());
    p.paintBox(painter, root, nullptr);
}

QImage paintToImage(const LayoutBox &root, QSize size, TextEngine *text)
{
    QImage image(size.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    paintBoxTree(painter, root, text);
    painter.end();
    return image;
}

void paintBoxTree(QPainter &painter, const LayoutBox &root, EmojiSet emoji, QStringList *warnings, TextEngine *text)
{
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    painter.setPen(Qt::NoPen);
    Painter p(text ? *text : TextEngine::instance(), emoji, warnings);
    p.paintBox(painter, root, nullptr);
}

QImage paintToImage(const LayoutBox &root, QSize size, EmojiSet emoji, QStringList *warnings, TextEngine *text)
{
    QImage image(size.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    paintBoxTree(painter, root, emoji, warnings, text);
    painter.end();
    return image;
}

} // namespace imprint::render
