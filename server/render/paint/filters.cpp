// Filter functions (CSS Filter Effects 1 §5) on premultiplied images, and clip-path basic
// shapes (CSS Shapes 1 §3.1) as paths: the effects both players composite the same way.

#include "server/render/paint/geometry.h"

#include <algorithm>
#include <cmath>

namespace imprint::render::paint_detail {

namespace {

using Matrix = std::array<float, 9>; // row-major 3×3 on r, g, b

bool isColourFunction(FilterOp::Kind k)
{
    return k != FilterOp::Kind::Blur && k != FilterOp::Kind::DropShadow;
}

// The colour matrices of the shorthands' SVG equivalents (CSS Filter Effects 1 §8).
Matrix matrixFor(const FilterOp &op)
{
    const float a = op.amount;
    switch (op.kind) {
    case FilterOp::Kind::Grayscale: {
        const float s = 1 - a;
        return {0.2126f + 0.7874f * s, 0.7152f - 0.7152f * s, 0.0722f - 0.0722f * s,
                0.2126f - 0.2126f * s, 0.7152f + 0.2848f * s, 0.0722f - 0.0722f * s,
                0.2126f - 0.2126f * s, 0.7152f - 0.7152f * s, 0.0722f + 0.9278f * s};
    }
    case FilterOp::Kind::Sepia: {
        const float s = 1 - a;
        return {0.393f + 0.607f * s, 0.769f - 0.769f * s, 0.189f - 0.189f * s, 0.349f - 0.349f * s, 0.686f + 0.314f * s,
                0.168f - 0.168f * s, 0.272f - 0.272f * s, 0.534f - 0.534f * s, 0.131f + 0.869f * s};
    }
    case FilterOp::Kind::Saturate:
        return {0.213f + 0.787f * a, 0.715f - 0.715f * a, 0.072f - 0.072f * a, 0.213f - 0.213f * a, 0.715f + 0.285f * a,
                0.072f - 0.072f * a, 0.213f - 0.213f * a, 0.715f - 0.715f * a, 0.072f + 0.928f * a};
    case FilterOp::Kind::HueRotate: {
        const float r = a * float(M_PI) / 180.f, c = std::cos(r), s = std::sin(r);
        return {0.213f + c * 0.787f - s * 0.213f, 0.715f - c * 0.715f - s * 0.715f, 0.072f - c * 0.072f + s * 0.928f,
                0.213f - c * 0.213f + s * 0.143f, 0.715f + c * 0.285f + s * 0.140f, 0.072f - c * 0.072f - s * 0.283f,
                0.213f - c * 0.213f - s * 0.787f, 0.715f - c * 0.715f + s * 0.715f, 0.072f + c * 0.928f + s * 0.072f};
    }
    default: return {1, 0, 0, 0, 1, 0, 0, 0, 1};
    }
}

/// One colour function on unpremultiplied components 0–1 (clamped after each function,
/// as each is its own filter primitive).
void applyColour(const FilterOp &op, const Matrix &m, float &r, float &g, float &b, float &alpha)
{
    const float a = op.amount;
    switch (op.kind) {
    case FilterOp::Kind::Brightness: r *= a, g *= a, b *= a; break;
    case FilterOp::Kind::Contrast:
        r = (r - 0.5f) * a + 0.5f, g = (g - 0.5f) * a + 0.5f, b = (b - 0.5f) * a + 0.5f;
        break;
    case FilterOp::Kind::Invert:
        r = a * (1 - r) + (1 - a) * r, g = a * (1 - g) + (1 - a) * g, b = a * (1 - b) + (1 - a) * b;
        break;
    case FilterOp::Kind::Opacity: alpha *= a; break;
    default: {
        const float nr = m[0] * r + m[1] * g + m[2] * b;
        const float ng = m[3] * r + m[4] * g + m[5] * b;
        const float nb = m[6] * r + m[7] * g + m[8] * b;
        r = nr, g = ng, b = nb;
    }
    }
    r = std::clamp(r, 0.f, 1.f), g = std::clamp(g, 0.f, 1.f), b = std::clamp(b, 0.f, 1.f);
    alpha = std::clamp(alpha, 0.f, 1.f);
}

void applyColourRun(QImage &image, const FilterOp *ops, size_t count)
{
    std::vector<Matrix> matrices(count);
    for (size_t i = 0; i < count; ++i)
        matrices[i] = matrixFor(ops[i]);
    for (int y = 0; y < image.height(); ++y) {
        auto *row = reinterpret_cast<QRgb *>(image.scanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const QRgb px = row[x];
            const int a8 = qAlpha(px);
            if (a8 == 0)
                continue;
            float alpha = a8 / 255.f;
            float r = qRed(px) / 255.f / alpha, g = qGreen(px) / 255.f / alpha, b = qBlue(px) / 255.f / alpha;
            for (size_t i = 0; i < count; ++i)
                applyColour(ops[i], matrices[i], r, g, b, alpha);
            const float k = 255.f * alpha;
            row[x] = qRgba(int(r * k + 0.5f), int(g * k + 0.5f), int(b * k + 0.5f), int(k + 0.5f));
        }
    }
}

/// drop-shadow() (§5): the image's alpha in the shadow colour, blurred, offset, beneath it.
void dropShadow(QImage &image, const Shadow &s, qreal scale)
{
    QImage shadow(image.size(), QImage::Format_ARGB32_Premultiplied);
    const QRgb c = s.color.rgba();
    for (int y = 0; y < image.height(); ++y) {
        const auto *src = reinterpret_cast<const QRgb *>(image.constScanLine(y));
        auto *dst = reinterpret_cast<QRgb *>(shadow.scanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const int a = qAlpha(src[x]) * qAlpha(c) / 255;
            dst[x] = qPremultiply(qRgba(qRed(c), qGreen(c), qBlue(c), a));
        }
    }
    blurImage(shadow, s.blur / 2.0 * scale);
    QImage out(image.size(), QImage::Format_ARGB32_Premultiplied);
    out.fill(Qt::transparent);
    QPainter p(&out);
    p.drawImage(QPointF(s.offsetX * scale, s.offsetY * scale), shadow);
    p.drawImage(0, 0, image);
    p.end();
    image = std::move(out);
}

QPointF point(const Length &x, const Length &y, const QRectF &box)
{
    return {box.left() + x.resolve(float(box.width())), box.top() + y.resolve(float(box.height()))};
}

} // namespace

qreal filterReach(const std::vector<FilterOp> &filters)
{
    qreal reach = 0;
    for (const FilterOp &op : filters) {
        if (op.kind == FilterOp::Kind::Blur)
            reach += 3 * op.amount;
        else if (op.kind == FilterOp::Kind::DropShadow)
            reach += 1.5 * op.shadow.blur + std::max(std::abs(op.shadow.offsetX), std::abs(op.shadow.offsetY));
    }
    return std::ceil(reach);
}

void applyFilters(QImage &image, const std::vector<FilterOp> &filters, qreal scale)
{
    Q_ASSERT(image.format() == QImage::Format_ARGB32_Premultiplied);
    for (size_t i = 0; i < filters.size();) {
        const FilterOp &op = filters[i];
        if (isColourFunction(op.kind)) {
            size_t j = i;
            while (j < filters.size() && isColourFunction(filters[j].kind))
                ++j;
            applyColourRun(image, &filters[i], j - i);
            i = j;
            continue;
        }
        if (op.kind == FilterOp::Kind::Blur)
            blurImage(image, op.amount * scale);
        else
            dropShadow(image, op.shadow, scale);
        ++i;
    }
}

QPainterPath clipShapePath(const ClipShape &shape, const QRectF &box)
{
    QPainterPath path;
    const qreal w = box.width(), h = box.height();
    switch (shape.kind) {
    case ClipShape::Kind::Inset: {
        const QRectF r = box.adjusted(shape.inset[Left].resolve(float(w)), shape.inset[Top].resolve(float(h)),
                                      -shape.inset[Right].resolve(float(w)), -shape.inset[Bottom].resolve(float(h)));
        if (r.width() <= 0 || r.height() <= 0)
            return path;
        ComputedStyle radii;
        radii.borderRadius = shape.radii;
        // The radii scale down together when they overlap, as border-radius (§3.1.1).
        return roundedPath(r, resolveRadii(radii, r.size()));
    }
    case ClipShape::Kind::Circle:
    case ClipShape::Kind::Ellipse: {
        const QPointF c = point(shape.centerX, shape.centerY, box);
        const qreal dx1 = std::abs(c.x() - box.left()), dx2 = std::abs(box.right() - c.x());
        const qreal dy1 = std::abs(c.y() - box.top()), dy2 = std::abs(box.bottom() - c.y());
        auto radius = [&](ClipShape::Extent e, const Length &l, qreal a, qreal b, qreal basis) {
            switch (e) {
            case ClipShape::Extent::ClosestSide: return std::min(a, b);
            case ClipShape::Extent::FarthestSide: return std::max(a, b);
            case ClipShape::Extent::Length: break;
            }
            return qreal(l.resolve(float(basis)));
        };
        qreal rx, ry;
        if (shape.kind == ClipShape::Kind::Circle) {
            const qreal basis = std::hypot(w, h) / M_SQRT2;
            if (shape.extentX == ClipShape::Extent::Length) {
                rx = ry = shape.radiusX.resolve(float(basis));
            } else {
                const qreal closest = std::min({dx1, dx2, dy1, dy2}), farthest = std::max({dx1, dx2, dy1, dy2});
                rx = ry = shape.extentX == ClipShape::Extent::ClosestSide ? closest : farthest;
            }
        } else {
            rx = radius(shape.extentX, shape.radiusX, dx1, dx2, w);
            ry = radius(shape.extentY, shape.radiusY, dy1, dy2, h);
        }
        if (rx > 0 && ry > 0)
            path.addEllipse(c, rx, ry);
        return path;
    }
    case ClipShape::Kind::Polygon: {
        QPolygonF polygon;
        for (const auto &[x, y] : shape.points)
            polygon << point(x, y, box);
        path.addPolygon(polygon);
        path.closeSubpath();
        path.setFillRule(shape.evenOdd ? Qt::OddEvenFill : Qt::WindingFill);
        return path;
    }
    case ClipShape::Kind::Path: break;
    }
    return path;
}

} // namespace imprint::render::paint_detail
