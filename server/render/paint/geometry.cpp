// The used geometry of CSS boxes for painting: corner radii, transforms, object-fit and
// background tiles, resolved once so that every backend paints the same shapes.

#include "server/render/paint/geometry.h"
#include "server/render/css/parse.h"
#include "server/render/paint/border_image.h"
#include "server/render/resources/image_decoder.h"

#include <QPainterPathStroker>

#include <algorithm>
#include <cmath>

namespace imprint::render {

namespace {

/// Offset of a box of `length` px inside `available` px for one position coordinate: a
/// percentage aligns that point of the box with that point of the area, a length is an
/// offset (CSS Backgrounds 3 §3.6, which CSS Images 3 §5.6 object-position reuses).
qreal alignedOffset(const Length &position, qreal available, qreal length)
{
    return position.isPercent() ? (available - length) * position.value / 100.0 + position.offset
                                : qreal(position.resolve(float(available)));
}

/// The size of one tile of `layer` in a positioning area of `area` px whose image is
/// `natural` px (for a gradient: no natural size, so the area's), CSS Backgrounds 3 §3.9.
QSizeF tileSize(const BackgroundLayer &layer, QSizeF area, QSizeF natural)
{
    switch (layer.size) {
    case BackgroundLayer::Size::Cover:
    case BackgroundLayer::Size::Contain: {
        const qreal sx = area.width() / std::max<qreal>(natural.width(), 1e-6);
        const qreal sy = area.height() / std::max<qreal>(natural.height(), 1e-6);
        return natural * (layer.size == BackgroundLayer::Size::Cover ? std::max(sx, sy) : std::min(sx, sy));
    }
    case BackgroundLayer::Size::Explicit: {
        qreal w = layer.sizeX.isAuto() ? -1 : layer.sizeX.resolve(float(area.width()));
        qreal h = layer.sizeY.isAuto() ? -1 : layer.sizeY.resolve(float(area.height()));
        const qreal ratio = natural.height() > 0 ? natural.width() / natural.height() : 1;
        if (w < 0 && h < 0)
            w = natural.width(), h = natural.height();
        else if (w < 0) // a gradient has no ratio to keep: auto fills the area
            w = layer.gradient ? area.width() : h * ratio;
        else if (h < 0)
            h = layer.gradient ? area.height() : w / ratio;
        return QSizeF(w, h);
    }
    case BackgroundLayer::Size::Auto: break;
    }
    return natural;
}

} // namespace

namespace paint_detail {

Radii resolveRadii(const ComputedStyle &style, QSizeF size)
{
    Radii r;
    for (size_t i = 0; i < 4; ++i) {
        const CornerRadius &c = style.borderRadius[i];
        r[i] = QSizeF(std::max<qreal>(0, c.x.resolve(float(size.width()))),
                      std::max<qreal>(0, c.y.resolve(float(size.height()))));
    }
    // §5.5: f = min(L_i / S_i) over the sides; all radii scale by f when f < 1.
    const qreal w = size.width(), h = size.height();
    qreal f = 1;
    auto limit = [&f](qreal length, qreal sum) {
        if (sum > 0)
            f = std::min(f, length / sum);
    };
    limit(w, r[0].width() + r[1].width());
    limit(w, r[3].width() + r[2].width());
    limit(h, r[0].height() + r[3].height());
    limit(h, r[1].height() + r[2].height());
    if (f < 1) {
        for (QSizeF &s : r)
            s *= std::max<qreal>(f, 0);
    }
    return r;
}

Radii insetRadii(const Radii &radii, const QMarginsF &m)
{
    Radii r = radii;
    auto adjust = [](qreal radius, qreal inset) {
        if (inset < 0) // spread: grows only curved corners (CSS Backgrounds 3 §7.1.1)
            return radius > 0 ? radius - inset : 0.0;
        return std::max<qreal>(0, radius - inset);
    };
    r[0] = QSizeF(adjust(r[0].width(), m.left()), adjust(r[0].height(), m.top()));
    r[1] = QSizeF(adjust(r[1].width(), m.right()), adjust(r[1].height(), m.top()));
    r[2] = QSizeF(adjust(r[2].width(), m.right()), adjust(r[2].height(), m.bottom()));
    r[3] = QSizeF(adjust(r[3].width(), m.left()), adjust(r[3].height(), m.bottom()));
    return r;
}

std::pair<qreal, qreal> nominalDash(qreal width)
{
    return {width * (width >= 3 ? 2 : 3), width * (width >= 3 ? 1 : 2)};
}

std::optional<std::pair<qreal, qreal>> dashPattern(qreal length, qreal width)
{
    const auto [dash, gap] = nominalDash(width);
    if (width <= 0 || length <= dash * 2)
        return std::nullopt;
    return std::pair(dash, bestDashGap(length, dash, gap));
}

std::pair<qreal, qreal> closedDashPattern(qreal length, qreal width)
{
    const auto [dash, gap] = nominalDash(width);
    if (width <= 0 || length <= 0)
        return {dash, gap};
    // A closed path: n dashes and n gaps, the gap stretched or shrunk to close the loop.
    const qreal n = std::max<qreal>(1, std::round(length / (dash + gap)));
    return {dash, std::max<qreal>(0, length / n - dash)};
}

qreal closedDotSpacing(qreal length, qreal width)
{
    // Dots nominally two widths apart, as many as close the loop evenly.
    if (width <= 0 || length <= 0)
        return 2 * width;
    return length / std::max<qreal>(1, std::round(length / (2 * width)));
}

qreal bestDashGap(qreal length, qreal dash, qreal gap)
{
    // An open line: n dashes and n - 1 gaps, n the fewer or the more of the two counts
    // around length / (dash + gap), whichever gap is nearer the nominal one.
    const qreal fewer = std::floor((length + gap) / (dash + gap));
    const qreal more = fewer + 1;
    const qreal fewerGap = fewer > 1 ? (length - fewer * dash) / (fewer - 1) : gap;
    const qreal moreGap = (length - more * dash) / (more - 1);
    const bool useFewer = fewer > 1 && (moreGap <= 0 || std::abs(fewerGap - gap) < std::abs(moreGap - gap));
    return useFewer ? fewerGap : moreGap;
}

bool isZero(const Radii &radii)
{
    return std::all_of(radii.begin(), radii.end(), [](const QSizeF &s) { return s.width() <= 0 || s.height() <= 0; });
}

QPainterPath roundedPath(const QRectF &rect, const Radii &radii)
{
    QPainterPath path;
    if (isZero(radii)) {
        path.addRect(rect);
        return path;
    }
    const QRectF r = rect.normalized();
    const QSizeF tl = radii[0], tr = radii[1], br = radii[2], bl = radii[3];
    path.moveTo(r.left() + tl.width(), r.top());
    path.lineTo(r.right() - tr.width(), r.top());
    if (!tr.isEmpty())
        path.arcTo(QRectF(r.right() - 2 * tr.width(), r.top(), 2 * tr.width(), 2 * tr.height()), 90, -90);
    path.lineTo(r.right(), r.bottom() - br.height());
    if (!br.isEmpty())
        path.arcTo(QRectF(r.right() - 2 * br.width(), r.bottom() - 2 * br.height(), 2 * br.width(), 2 * br.height()), 0,
                   -90);
    path.lineTo(r.left() + bl.width(), r.bottom());
    if (!bl.isEmpty())
        path.arcTo(QRectF(r.left(), r.bottom() - 2 * bl.height(), 2 * bl.width(), 2 * bl.height()), 270, -90);
    path.lineTo(r.left(), r.top() + tl.height());
    if (!tl.isEmpty())
        path.arcTo(QRectF(r.left(), r.top(), 2 * tl.width(), 2 * tl.height()), 180, -90);
    path.closeSubpath();
    return path;
}

qreal roundedToDevicePixel(qreal v)
{
    return std::floor(std::round(v * 64) / 64 + 0.5);
}

QRectF pixelSnapped(const QRectF &rect, qreal deviceScale)
{
    const qreal k = deviceScale > 0 ? deviceScale : 1;
    const auto snap = [k](qreal v) { return roundedToDevicePixel(v * k) / k; };
    const qreal left = snap(rect.left()), top = snap(rect.top());
    return QRectF(left, top, snap(rect.left() + rect.width()) - left, snap(rect.top() + rect.height()) - top);
}

BoxGeometry boxGeometry(const LayoutBox &box, qreal deviceScale)
{
    BoxGeometry g;
    g.borderBox = pixelSnapped(box.borderBox, deviceScale);
    g.paddingBox = g.borderBox.marginsRemoved(box.border);
    g.outer = box.node ? resolveRadii(box.node->style, g.borderBox.size()) : Radii{};
    g.inner = insetRadii(g.outer, box.border);
    return g;
}

} // namespace paint_detail

TransformMatrix transformMatrix(const LayoutBox &box, const LayoutBox *parent)
{
    if (!box.node || box.node->style.transform.empty())
        return {};
    const ComputedStyle &s = box.node->style;
    const QRectF &borderBox = box.borderBox;
    const qreal w = borderBox.width(), h = borderBox.height();
    const QPointF origin
        = borderBox.topLeft() + QPointF(s.transformOriginX.resolve(float(w)), s.transformOriginY.resolve(float(h)));
    TransformMatrix m;
    if (parent && parent->node && parent->node->style.perspective > 0) {
        // §7.1: the parent's perspective, around its perspective-origin.
        const ComputedStyle &p = parent->node->style;
        const QRectF &frame = parent->borderBox;
        const QPointF vanishing = frame.topLeft()
                                  + QPointF(p.perspectiveOriginX.resolve(float(frame.width())),
                                            p.perspectiveOriginY.resolve(float(frame.height())));
        m = TransformMatrix::translation(vanishing.x(), vanishing.y(), 0) * TransformMatrix::perspective(p.perspective)
            * TransformMatrix::translation(-vanishing.x(), -vanishing.y(), 0);
    }
    m *= TransformMatrix::translation(origin.x(), origin.y(), s.transformOriginZ);
    for (const TransformOp &op : s.transform) {
        switch (op.kind) {
        case TransformOp::Kind::Translate:
            m *= TransformMatrix::translation(op.x.resolve(float(w)), op.y.resolve(float(h)), op.z);
            break;
        case TransformOp::Kind::Scale: m *= TransformMatrix::scaling(op.a, op.b, op.z); break;
        case TransformOp::Kind::Rotate3d: m *= TransformMatrix::rotation(op.axis[0], op.axis[1], op.axis[2], op.a); break;
        case TransformOp::Kind::Perspective: m *= TransformMatrix::perspective(op.a); break;
        case TransformOp::Kind::Matrix3d: m *= TransformMatrix::fromColumns(op.m); break;
        case TransformOp::Kind::Rotate:
        case TransformOp::Kind::Skew:
        case TransformOp::Kind::Matrix:
            // The 2D functions through QTransform, which keeps quarter turns exact.
            m *= TransformMatrix::fromQTransform(*css::planarTransform(op, QSizeF(w, h)));
            break;
        }
    }
    m *= TransformMatrix::translation(-origin.x(), -origin.y(), -s.transformOriginZ);
    return m;
}

QTransform cssTransform(const LayoutBox &box, const LayoutBox *parent)
{
    return transformMatrix(box, parent).toQTransform();
}

QTransform transformInContext(const TransformMatrix &accumulated, const TransformMatrix *context)
{
    QTransform transform = accumulated.toQTransform();
    if (context) {
        bool invertible = false;
        const QTransform parentInverse = context->toQTransform().inverted(&invertible);
        if (invertible)
            transform = transform * parentInverse;
    }
    return transform;
}

QRectF inkBoundsInContext(const LayoutBox &box, const TransformMatrix &accumulated)
{
    QRectF r = inkBounds(box);
    if (!box.node || box.node->isText() || !box.node->style.preserves3d())
        return r;
    for (const LayoutBox &c : box.children) {
        if (!c.node || c.node->isText())
            continue;
        const TransformMatrix childAccumulated = accumulated * transformMatrix(c, &box);
        r |= transformInContext(childAccumulated, &accumulated).mapRect(inkBoundsInContext(c, childAccumulated));
    }
    return r;
}

ProjectiveLayer projectiveLayer(const QRectF &bounds, const QTransform &toDevice, const QRect &device, qint64 maxPixels)
{
    ProjectiveLayer layer;
    if (bounds.isEmpty() || maxPixels <= 0)
        return layer;
    const QPointF corners[] = {bounds.topLeft(), bounds.topRight(), bounds.bottomRight(), bounds.bottomLeft()};
    qreal scale = 1;
    for (int i = 0; i < 4; ++i) {
        const QPointF from = corners[i], to = corners[(i + 1) % 4];
        const qreal length = QLineF(from, to).length();
        const qreal mapped = QLineF(toDevice.map(from), toDevice.map(to)).length();
        if (length > 0 && std::isfinite(mapped))
            scale = std::max(scale, mapped / length);
    }
    scale = std::min<qreal>(scale * 2, 4);
    const qreal pixels = bounds.width() * bounds.height() * scale * scale;
    if (pixels > qreal(maxPixels))
        scale *= std::sqrt(qreal(maxPixels) / pixels);
    const qreal rim = 2 / scale;
    layer.scale = scale;
    layer.source = bounds.adjusted(-rim, -rim, rim, rim);
    layer.size = QSize(std::max(1, int(std::ceil(layer.source.width() * scale))),
                       std::max(1, int(std::ceil(layer.source.height() * scale))));
    layer.target = toDevice.mapRect(bounds.adjusted(-1, -1, 1, 1)).toAlignedRect() & device;
    return layer;
}

QRectF objectFitRect(const ComputedStyle &s, QSizeF natural, const QRectF &content)
{
    QSizeF size = content.size();
    const qreal sx = content.width() / natural.width(), sy = content.height() / natural.height();
    switch (s.objectFit) {
    case ObjectFit::Fill: break;
    case ObjectFit::Contain: size = natural * std::min(sx, sy); break;
    case ObjectFit::Cover: size = natural * std::max(sx, sy); break;
    case ObjectFit::None: size = natural; break;
    case ObjectFit::ScaleDown: size = natural * std::min<qreal>(1, std::min(sx, sy)); break;
    }
    return QRectF(content.left() + alignedOffset(s.objectPositionX, content.width(), size.width()),
                  content.top() + alignedOffset(s.objectPositionY, content.height(), size.height()), size.width(),
                  size.height());
}

std::vector<ResolvedBackgroundLayer> resolveImageLayers(std::span<const BackgroundLayer> layers, const QRectF &area,
                                                        ImageCache &images, const ImageLoader &loader)
{
    std::vector<ResolvedBackgroundLayer> out;
    out.reserve(layers.size());
    // CSS lists the topmost layer first; painting starts at the bottom.
    for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
        ResolvedBackgroundLayer r;
        r.layer = &*it;
        QSizeF natural = area.size();
        if (!it->gradient) {
            // The one decoder and policy (image_decoder.h): data: URLs through the shared
            // cache, others (asset:, prefetched http:) as the request loads img sources.
            const bool data = it->imageUrl.startsWith(QLatin1String("data:"), Qt::CaseInsensitive);
            r.image = (data || !loader ? images.load(it->imageUrl) : loader(it->imageUrl)).value_or(QImage());
            if (r.image.isNull())
                continue;
            natural = r.image.size();
        }
        BackgroundLayer sized = *it;
        // An image with only a ratio (an SVG sized by its viewBox alone) is sized as for
        // `contain` when background-size is auto (CSS Backgrounds 3 §3.9).
        if (!it->gradient && sized.size == BackgroundLayer::Size::Auto && !hasNaturalSize(r.image))
            sized.size = BackgroundLayer::Size::Contain;
        const QSizeF size = tileSize(sized, area.size(), natural);
        if (size.width() <= 0 || size.height() <= 0)
            continue;
        r.tile = QRectF(area.topLeft()
                            + QPointF(alignedOffset(it->positionX, area.width(), size.width()),
                                      alignedOffset(it->positionY, area.height(), size.height())),
                        size);
        out.push_back(std::move(r));
    }
    return out;
}

ResolvedBackground resolveBackgroundLayers(const ComputedStyle &s, const QRectF &area, ImageCache &images,
                                           const ImageLoader &loader)
{
    ResolvedBackground out;
    out.color = s.backgroundColor;
    out.positioningArea = area;
    out.layers = resolveImageLayers(s.backgroundLayers, area, images, loader);
    return out;
}

static QRectF inkBoundsUnfiltered(const LayoutBox &box);

QRectF inkBounds(const LayoutBox &box)
{
    QRectF r = inkBoundsUnfiltered(box);
    if (box.node && !box.node->style.effects.filter.empty()) {
        // Blurs and drop shadows spread the subtree's ink (CSS Filter Effects 1 §5).
        const qreal e = paint_detail::filterReach(box.node->style.effects.filter);
        r.adjust(-e, -e, e, e);
    }
    return r;
}

static QRectF inkBoundsUnfiltered(const LayoutBox &box)
{
    QRectF r = box.borderBox;
    if (box.node) {
        const ComputedStyle &s = box.node->style;
        for (const Shadow &sh : s.boxShadow) {
            if (sh.inset)
                continue;
            const qreal e = sh.spread + 1.5 * sh.blur + 2;
            r |= box.borderBox.translated(sh.offsetX, sh.offsetY).adjusted(-e, -e, e, e);
        }
        if (s.outlineStyle != BorderStyle::None && s.outlineWidth > 0) {
            const qreal e = std::max<qreal>(0, s.outlineOffset + s.outlineWidth);
            r |= box.borderBox.adjusted(-e, -e, e, e);
        }
        if (s.borderImage.hasSource())
            r |= borderImageArea(s.borderImage, box.borderBox, box.border);
        if (box.node->isText()) {
            const qreal e = s.fontSize; // overhanging glyphs, shadows
            r = r.adjusted(-e, -e, e, e);
            for (const Shadow &sh : s.textShadow) {
                const qreal b = 1.5 * sh.blur + 2;
                r |= box.borderBox.translated(sh.offsetX, sh.offsetY).adjusted(-e - b, -e - b, e + b, e + b);
            }
        }
        if (s.overflow == Overflow::Hidden) {
            for (const LayoutBox &c : box.children)
                r |= inkBounds(c) & box.borderBox;
            return r;
        }
        for (const LayoutBox &c : box.children) {
            const QRectF cr = inkBounds(c);
            r |= c.node && !c.node->style.transform.empty() ? cssTransform(c, &box).mapRect(cr) : cr;
        }
    }
    return r;
}

namespace {

/// The dotted or dashed form of a decoration bar (Blink's DrawLineAsStroke and
/// DashEffectFromStrokeStyle): ends on whole pixels, the centre line on the pixel grid
/// (half a pixel down for an odd rounded thickness), stroked t thick.
void addDottedOrDashed(QPainterPath &path, const QRectF &bar, DecorationStyle style)
{
    const qreal t = bar.height();
    const qreal rounded = std::round(t);
    const qreal x0 = std::trunc(bar.left()), x1 = std::trunc(bar.right());
    const qreal length = x1 - x0;
    const qreal y = std::floor(bar.top() + std::max<qreal>(t / 2, 0.5)) + (int(rounded) % 2 ? 0.5 : 0);
    const auto segment = [&](qreal from, qreal to) { path.addRect(QRectF(from, y - t / 2, to - from, t)); };
    if (style == DecorationStyle::Dotted && rounded > 3) {
        // Round dots: zero-length dashes with round caps, the ends pulled in by a radius.
        const qreal r = t / 2;
        if (length < 2 * rounded) {
            path.addEllipse(QPointF(x0 + rounded / 2, y), r, r);
            return;
        }
        const qreal step = paint_detail::bestDashGap(length, rounded, rounded) + rounded - 0.01;
        for (qreal x = x0 + rounded / 2; x <= x1 - rounded / 2 + 0.01; x += step)
            path.addEllipse(QPointF(x, y), r, r);
        return;
    }
    // Square dots of the rounded thickness a thickness apart, or Blink's dashes.
    const bool dashed = style == DecorationStyle::Dashed;
    auto [dash, gap] = dashed ? paint_detail::nominalDash(rounded) : std::pair(rounded, rounded);
    if (length <= 2 * dash) {
        segment(x0, x1); // no room for two: a solid line
        return;
    }
    if (length <= 2 * dash + gap) {
        const qreal k = length / (2 * dash + gap); // exactly two dashes, scaled to fit
        dash *= k;
        gap *= k;
    } else if (dashed) {
        gap = paint_detail::bestDashGap(length, dash, gap);
    }
    for (qreal x = x0; x < x1 - 0.01; x += dash + gap)
        segment(x, std::min(x + dash, x1));
}

} // namespace

QPainterPath decorationPath(const QRectF &bar, DecorationStyle style, DecorationLine line,
                            const std::vector<std::pair<qreal, qreal>> &skipInk)
{
    const qreal t = std::max<qreal>(bar.height(), 0.5);
    QPainterPath path;
    path.setFillRule(Qt::WindingFill);
    // Blink's SnapYAxis: solid lines are whole pixels tall and start on a pixel row.
    const auto snapped = [t](const QRectF &r) {
        return QRectF(r.x(), std::floor(r.y() + 0.5), r.width(), std::max<qreal>(1, std::floor(t)));
    };
    switch (style) {
    case DecorationStyle::Solid: path.addRect(snapped(bar)); break;
    case DecorationStyle::Double: {
        const qreal offset = line == DecorationLine::Underline  ? t + 1
                             : line == DecorationLine::Overline ? -(t + 1)
                                                                : std::floor(t + 1);
        path.addRect(snapped(bar));
        path.addRect(snapped(bar.translated(0, offset)));
        break;
    }
    case DecorationStyle::Dotted:
    case DecorationStyle::Dashed: addDottedOrDashed(path, bar, style); break;
    case DecorationStyle::Wavy: {
        // Blink's MakeWave and WavyPath (decoration_line_painter.cc): cubic Béziers one
        // wavelength 1 + 2·round(2t + 0.5) long, both control points half-way along it,
        // 0.5 + round(3t + 0.5) below and above the midline, stroked t wide. The midline is
        // half a pixel below the bar's top, moved by the double offset (t + 1 below an
        // underline, above an overline); each wave starts at the bar's left on the midline
        // going down, and the line is cut at the bar's ends.
        const qreal tc = std::max<qreal>(1, t);
        const qreal wavelength = 1 + 2 * std::round(2 * tc + 0.5);
        const qreal control = 0.5 + std::round(3 * tc + 0.5);
        const qreal mid = bar.top() + 0.5
                          + (line == DecorationLine::Underline  ? t + 1
                             : line == DecorationLine::Overline ? -(t + 1)
                                                                : 0);
        QPainterPath wave;
        qreal x = bar.left() - wavelength;
        wave.moveTo(x, mid);
        for (; x < bar.right(); x += wavelength)
            wave.cubicTo(x + wavelength / 2, mid + control, x + wavelength / 2, mid - control, x + wavelength, mid);
        QPainterPathStroker stroker;
        stroker.setWidth(t);
        stroker.setCapStyle(Qt::FlatCap);
        stroker.setJoinStyle(Qt::RoundJoin);
        QPainterPath clip;
        clip.addRect(QRectF(bar.left(), mid - control - t, bar.width(), 2 * (control + t)));
        path = stroker.createStroke(wave).intersected(clip);
        path.setFillRule(Qt::WindingFill);
        break;
    }
    }
    if (!skipInk.empty() && !path.isEmpty()) {
        // Blink clips each gap out without antialiasing (TextPainter's
        // DecorationsStripeIntercepts): the gap's ends fall on whole pixels.
        const QRectF bounds = path.boundingRect();
        QPainterPath gaps;
        gaps.setFillRule(Qt::WindingFill); // neighbouring gaps overlap
        for (const auto &[from, to] : skipInk) {
            const qreal left = std::floor(from + 0.5), right = std::floor(to + 0.5);
            if (right > left)
                gaps.addRect(QRectF(left, bounds.top() - 1, right - left, bounds.height() + 2));
        }
        if (!gaps.isEmpty()) {
            path = path.subtracted(gaps);
            path.setFillRule(Qt::WindingFill);
        }
    }
    return path;
}

} // namespace imprint::render
