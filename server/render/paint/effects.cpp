// Gradients, blur and shadows, drawn with QPainter by the raster painter and into the
// SVG writer's embedded images.

#include "server/render/paint/geometry.h"
#include "server/render/resources/image_decoder.h"

#include <QCache>
#include <QConicalGradient>
#include <QLinearGradient>
#include <QRadialGradient>
#include <QUrl>

#include <QMutex>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace imprint::render {

namespace {

/// Box widths of n successive box blurs approximating a Gaussian of `sigma` (the
/// "boxes for Gauss" construction: averaging box sizes whose combined variance is sigma²).
std::array<int, 3> boxesForGauss(qreal sigma)
{
    constexpr int n = 3;
    const qreal ideal = std::sqrt(12 * sigma * sigma / n + 1);
    int wl = int(std::floor(ideal));
    if (wl % 2 == 0)
        --wl;
    const int wu = wl + 2;
    const qreal mIdeal = (12 * sigma * sigma - n * wl * wl - 4 * n * wl - 3 * n) / (-4 * wl - 4);
    const int m = int(std::round(mIdeal));
    std::array<int, 3> sizes{};
    for (int i = 0; i < n; ++i)
        sizes[size_t(i)] = i < m ? wl : wu;
    return sizes;
}

/// One box blur of radius r along a line of `count` pixels `stride` apart (edges clamp to
/// transparent, as a shadow fades into nothing).
void boxBlurLine(const quint32 *src, quint32 *dst, int count, int stride, int r)
{
    if (r <= 0) {
        for (int i = 0; i < count; ++i)
            dst[i * stride] = src[i * stride];
        return;
    }
    const int window = 2 * r + 1;
    quint32 sum[4] = {0, 0, 0, 0};
    auto add = [&](int i, int sign) {
        if (i < 0 || i >= count)
            return;
        const quint32 px = src[i * stride];
        sum[0] += sign * (px & 0xff);
        sum[1] += sign * ((px >> 8) & 0xff);
        sum[2] += sign * ((px >> 16) & 0xff);
        sum[3] += sign * (px >> 24);
    };
    // Pixels before the line are transparent: only [0, r) starts the window, so a radius
    // far beyond the image costs no more than the image.
    for (int i = 0; i < std::min(r, count); ++i)
        add(i, 1);
    const quint32 half = quint32(window / 2);
    for (int i = 0; i < count; ++i) {
        add(i + r, 1);
        dst[i * stride] = ((sum[0] + half) / window) | (((sum[1] + half) / window) << 8)
                          | (((sum[2] + half) / window) << 16) | (((sum[3] + half) / window) << 24);
        add(i - r, -1);
    }
}

/// Pixel buffers of finished canvases, kept for the next canvas of the same byte size.
/// A card's canvas (3 MB at 1200×630) is the largest allocation of a render; allocated
/// afresh each time, it needs a 3 MB gap in a malloc arena that the longer-lived objects
/// freed meanwhile (memo entries, cached shapes) keep breaking up, so the arenas grew for
/// tens of thousands of renders (docs/performance.md, "Memory"). Reused, the canvases stay
/// where the first renders put them. Bounded: kMaxBuffers buffers, kMaxBytes in all;
/// thread-safe (a QImage may be released on another thread than the one that painted it).
class CanvasPool
{
public:
    static constexpr int kMaxBuffers = 6;
    static constexpr size_t kMaxBytes = 48u << 20;
    static constexpr size_t kHeader = 64; // keeps the pixels 64-byte aligned

    static CanvasPool &instance()
    {
        static CanvasPool pool;
        return pool;
    }

    /// A buffer of `bytes` (from the pool when one of that size is free), or null.
    uchar *take(size_t bytes)
    {
        {
            QMutexLocker lock(&m_mutex);
            for (auto it = m_free.begin(); it != m_free.end(); ++it) {
                if (it->first == bytes) {
                    void *base = it->second;
                    m_free.erase(it);
                    m_freeBytes -= bytes;
                    ++m_reused;
                    return static_cast<uchar *>(base) + kHeader;
                }
            }
            ++m_allocated;
        }
        void *base = std::aligned_alloc(kHeader, kHeader + roundUp(bytes));
        if (!base)
            return nullptr;
        *static_cast<size_t *>(base) = bytes;
        return static_cast<uchar *>(base) + kHeader;
    }

    /// QImageCleanupFunction: the canvas's last QImage is gone.
    static void release(void *pixels)
    {
        void *base = static_cast<uchar *>(pixels) - kHeader;
        instance().give(base, *static_cast<size_t *>(base));
    }

    CacheStats stats()
    {
        QMutexLocker lock(&m_mutex);
        CacheStats s;
        s.hits = m_reused;
        s.misses = m_allocated;
        s.entries = qint64(m_free.size());
        s.bytes = qint64(m_freeBytes);
        s.capacity = qint64(kMaxBytes);
        return s;
    }

private:
    static size_t roundUp(size_t bytes) { return (bytes + kHeader - 1) / kHeader * kHeader; }

    void give(void *base, size_t bytes)
    {
        {
            QMutexLocker lock(&m_mutex);
            if (bytes <= kMaxBytes) {
                // Oldest first out: the sizes in use now are the ones worth keeping.
                while (!m_free.empty() && (int(m_free.size()) >= kMaxBuffers || m_freeBytes + bytes > kMaxBytes)) {
                    std::free(m_free.front().second);
                    m_freeBytes -= m_free.front().first;
                    m_free.erase(m_free.begin());
                }
                m_free.emplace_back(bytes, base);
                m_freeBytes += bytes;
                return;
            }
        }
        std::free(base);
    }

    QMutex m_mutex;
    std::vector<std::pair<size_t, void *>> m_free; // byte size, base pointer; oldest first
    size_t m_freeBytes = 0;
    quint64 m_reused = 0, m_allocated = 0;
};

} // namespace

CacheStats canvasPoolStats()
{
    return CanvasPool::instance().stats();
}

QImage paintOnTransparentImage(QSize size, const std::function<void(QPainter &)> &paint)
{
    const QSize px = size.expandedTo(QSize(1, 1));
    const qsizetype bytesPerLine = qsizetype(px.width()) * 4;
    QImage image;
    if (uchar *pixels = CanvasPool::instance().take(size_t(bytesPerLine) * size_t(px.height())))
        image = QImage(pixels, px.width(), px.height(), bytesPerLine, QImage::Format_ARGB32_Premultiplied,
                       &CanvasPool::release, pixels);
    else
        image = QImage(px, QImage::Format_ARGB32_Premultiplied); // null when out of memory, as before
    image.fill(Qt::transparent);
    QPainter painter(&image);
    paint(painter);
    painter.end();
    return image;
}

void blurImage(QImage &image, qreal sigma)
{
    if (sigma <= 0.1 || image.isNull())
        return;
    Q_ASSERT(image.format() == QImage::Format_ARGB32_Premultiplied);
    const int w = image.width(), h = image.height();
    const auto boxes = boxesForGauss(sigma);
    std::vector<quint32> line(size_t(std::max(w, h)));
    std::vector<quint32> tmp(size_t(std::max(w, h)));
    for (int y = 0; y < h; ++y) {
        auto *row = reinterpret_cast<quint32 *>(image.scanLine(y));
        std::copy(row, row + w, line.begin());
        for (int b : boxes) {
            boxBlurLine(line.data(), tmp.data(), w, 1, (b - 1) / 2);
            std::swap(line, tmp);
        }
        std::copy(line.begin(), line.begin() + w, row);
    }
    auto *bits = reinterpret_cast<quint32 *>(image.bits());
    const int stride = int(image.bytesPerLine() / 4);
    for (int x = 0; x < w; ++x) {
        for (int y = 0; y < h; ++y)
            line[size_t(y)] = bits[y * stride + x];
        for (int b : boxes) {
            boxBlurLine(line.data(), tmp.data(), h, 1, (b - 1) / 2);
            std::swap(line, tmp);
        }
        for (int y = 0; y < h; ++y)
            bits[y * stride + x] = line[size_t(y)];
    }
}

namespace paint_detail {

namespace {

/// Stop positions as fractions of the gradient line after CSS Images 3 §3.5.3 fixup.
std::vector<std::pair<qreal, QColor>> fixedStops(const Gradient &g, qreal lineLength)
{
    const size_t n = g.stops.size();
    std::vector<std::optional<qreal>> pos(n);
    for (size_t i = 0; i < n; ++i) {
        if (g.stops[i].position)
            pos[i] = *g.stops[i].position;
        else if (g.stops[i].positionPx && lineLength > 0)
            pos[i] = *g.stops[i].positionPx / lineLength;
    }
    if (n > 0 && !pos.front())
        pos.front() = 0.0;
    if (n > 1 && !pos.back())
        pos.back() = 1.0;
    qreal maxSoFar = -1e9;
    for (auto &p : pos) { // a stop before an earlier one moves up to it
        if (p) {
            p = std::max(*p, maxSoFar);
            maxSoFar = *p;
        }
    }
    for (size_t i = 0; i < n;) { // runs of unset stops share the space evenly
        if (pos[i]) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < n && !pos[j])
            ++j;
        const qreal a = *pos[i - 1], b = *pos[j];
        for (size_t k = i; k < j; ++k)
            pos[k] = a + (b - a) * qreal(k - i + 1) / qreal(j - i + 1);
        i = j;
    }
    std::vector<std::pair<qreal, QColor>> out;
    for (size_t i = 0; i < n; ++i)
        out.emplace_back(*pos[i], g.stops[i].color);
    return out;
}

constexpr int kSpanSteps = 16; // a span's colour curve within about 1/255 per channel

css::SrgbColor srgbOf(const QColor &c)
{
    return css::SrgbColor{{c.redF(), c.greenF(), c.blueF()}, c.alphaF()};
}

QColor colorOf(const css::SrgbColor &c)
{
    return QColor::fromRgbF(float(std::clamp(c.rgb[0], 0.0, 1.0)), float(std::clamp(c.rgb[1], 0.0, 1.0)),
                            float(std::clamp(c.rgb[2], 0.0, 1.0)), float(std::clamp(c.alpha, 0.0, 1.0)));
}

/// Stops that draw, on a painter interpolating colour and alpha each on its own (Qt's
/// ComponentInterpolation, QtSvg's gradients and SVG viewers: the satori engine's output),
/// what CSS Images 4 §3.5.4 asks: interpolation in premultiplied sRGB. A span with a fully
/// transparent end keeps the other end's colour and only fades (exact: `red, transparent`
/// is red fading out, not through grey as transparent black would make it), a transparent
/// stop between two colours becomes one of each at its position; a span between two
/// different alphas and colours is cut in kSpanSteps premultiplied mixes. Spans of one
/// alpha are the same either way and stay as they are.
std::vector<std::pair<qreal, QColor>> premultipliedStops(const std::vector<std::pair<qreal, QColor>> &stops)
{
    if (stops.size() < 2)
        return stops;
    const auto faded = [](QColor c) {
        c.setAlpha(0);
        return c;
    };
    std::vector<std::pair<qreal, QColor>> out;
    out.reserve(stops.size() + 2);
    for (size_t i = 0; i + 1 < stops.size(); ++i) {
        auto [p0, c0] = stops[i];
        auto [p1, c1] = stops[i + 1];
        if (c0.alpha() == 0 && c1.alpha() > 0)
            c0 = faded(c1);
        else if (c1.alpha() == 0 && c0.alpha() > 0)
            c1 = faded(c0);
        out.emplace_back(p0, c0);
        if (c0.alpha() != c1.alpha() && c0.alpha() > 0 && c1.alpha() > 0 && c0.rgb() != c1.rgb() && p1 - p0 > 1e-6) {
            for (int k = 1; k < kSpanSteps; ++k) {
                const double t = double(k) / kSpanSteps;
                out.emplace_back(p0 + (p1 - p0) * t, colorOf(css::interpolate(css::ColorSpace::Srgb,
                                                                              css::HueInterpolation::Shorter,
                                                                              srgbOf(c0), srgbOf(c1), t)));
            }
        }
        // The span's end, where the next span starts with another colour (a faded stop).
        if (i + 2 == stops.size() || c1 != stops[i + 1].second)
            out.emplace_back(p1, c1);
    }
    return out;
}

/// The stops of a gradient interpolated `in` a colour space (CSS Images 4 §3.1) for a
/// painter that interpolates per component in sRGB: each span between two stops is cut
/// in kSpanSteps, every cut's colour mixed in the gradient's space (CSS Color 4 §12,
/// premultiplied), so the straight sRGB segments between cuts follow the space's curve.
/// Hard edges are kept; a gradient without an interpolation method gets
/// premultipliedStops().
std::vector<std::pair<qreal, QColor>> interpolatedStops(const Gradient &g, std::vector<std::pair<qreal, QColor>> stops)
{
    if (stops.size() < 2)
        return stops;
    if (!g.interpolation)
        return premultipliedStops(stops);
    std::vector<std::pair<qreal, QColor>> out;
    out.reserve(stops.size() * kSpanSteps);
    for (size_t i = 0; i + 1 < stops.size(); ++i) {
        const auto &[p0, c0] = stops[i];
        const auto &[p1, c1] = stops[i + 1];
        out.emplace_back(p0, c0);
        if (p1 - p0 <= 1e-6)
            continue;
        for (int k = 1; k < kSpanSteps; ++k) {
            const double t = double(k) / kSpanSteps;
            const css::SrgbColor mixed
                = css::interpolate(g.interpolation->space, g.interpolation->hue, srgbOf(c0), srgbOf(c1), t);
            out.emplace_back(p0 + (p1 - p0) * t, colorOf(mixed));
        }
    }
    out.push_back(stops.back());
    return out;
}

/// Puts fixed-up stops (any range) on a Qt gradient whose line runs [0,1]; returns the
/// fractions of the CSS line the Qt line's ends sit at.
std::pair<qreal, qreal> applyStops(QGradient &qg, const std::vector<std::pair<qreal, QColor>> &stops, bool repeating)
{
    if (stops.empty())
        return {0, 1};
    qreal lo = stops.front().first, hi = stops.back().first;
    if (!repeating) {
        lo = std::min<qreal>(lo, 0);
        hi = std::max<qreal>(hi, 1);
    }
    if (hi - lo < 1e-6)
        hi = lo + 1e-6;
    QGradientStops qs;
    qreal last = -1;
    for (const auto &[p, c] : stops) {
        qreal t = (p - lo) / (hi - lo);
        if (t <= last) // equal positions make a hard edge; Qt keeps only one stop per position
            t = std::min<qreal>(1, last + 1e-6);
        qs.append({t, c});
        last = t;
    }
    if (qs.front().first > 0)
        qs.prepend({0, qs.front().second});
    if (qs.back().first < 1)
        qs.append({1, qs.back().second});
    qg.setStops(qs);
    qg.setSpread(repeating ? QGradient::RepeatSpread : QGradient::PadSpread);
    qg.setInterpolationMode(QGradient::ComponentInterpolation);
    return {lo, hi};
}

/// The colour at `t` of fixed-up stops (CSS Images 3 §3.5.3): the first stop's colour
/// before it, the last one's after it, in between per-component linear interpolation
/// (what applyStops() asks Qt for).
QColor colorAt(const std::vector<std::pair<qreal, QColor>> &stops, qreal t)
{
    if (t <= stops.front().first)
        return stops.front().second;
    for (size_t i = 1; i < stops.size(); ++i) {
        if (t <= stops[i].first) {
            const auto &[p0, c0] = stops[i - 1];
            const auto &[p1, c1] = stops[i];
            const qreal k = p1 - p0 < 1e-9 ? 1 : (t - p0) / (p1 - p0);
            return QColor::fromRgbF(float(c0.redF() + (c1.redF() - c0.redF()) * k),
                                    float(c0.greenF() + (c1.greenF() - c0.greenF()) * k),
                                    float(c0.blueF() + (c1.blueF() - c0.blueF()) * k),
                                    float(c0.alphaF() + (c1.alphaF() - c0.alphaF()) * k));
        }
    }
    return stops.back().second;
}

/// Stops of a conic gradient on Qt's [0, 1] turn (CSS Images 4 §3.3): positions outside
/// it cut at the exact colour there; a repeating gradient's stop range is tiled over the
/// turn, since QConicalGradient has no repeat spread.
QGradientStops conicStops(std::vector<std::pair<qreal, QColor>> stops, bool repeating)
{
    if (repeating) {
        const qreal first = stops.front().first, period = stops.back().first - first;
        if (period <= 1e-6) {
            stops = {{0, stops.back().second}, {1, stops.back().second}};
        } else {
            std::vector<std::pair<qreal, QColor>> tiled;
            const int k0 = int(std::floor(-first / period)), k1 = int(std::ceil((1 - first) / period));
            if (k1 - k0 > 4096) // a sliver of a period: the turn is a blend anyway
                return {{0, stops.front().second}, {1, stops.back().second}};
            for (int k = k0; k <= k1; ++k)
                for (const auto &[p, c] : stops)
                    tiled.emplace_back(p + k * period, c);
            stops = std::move(tiled);
        }
    }
    QGradientStops out;
    out.append({0, colorAt(stops, 0)});
    for (const auto &[p, c] : stops)
        if (p > 0 && p < 1)
            out.append({p, c});
    out.append({1, colorAt(stops, 1)});
    // Equal positions make a hard edge; Qt keeps one stop per position.
    for (qsizetype i = 1; i < out.size(); ++i)
        if (out[i].first <= out[i - 1].first)
            out[i].first = std::min<qreal>(1, out[i - 1].first + 1e-6);
    return out;
}

} // namespace

QBrush mappedGradientBrush(const QBrush &brush, const QTransform &map)
{
    const QTransform full = brush.transform() * map;
    QBrush transformed = brush;
    transformed.setTransform(full);
    const QGradient *g = brush.gradient();
    if (!g || g->type() != QGradient::LinearGradient || !full.isInvertible() || full.type() == QTransform::TxProject)
        return transformed;
    // The gradient's parameter t = (q − start)·d / |d|² at q = full⁻¹(p) is an affine
    // function of the page point p; its gradient `grad` is the page direction along which t
    // grows, 1 per |grad|⁻¹ px. A linear gradient from full(start) by grad / |grad|² has
    // the same t everywhere.
    const auto *lg = static_cast<const QLinearGradient *>(g);
    const QPointF d = lg->finalStop() - lg->start();
    const qreal dd = QPointF::dotProduct(d, d);
    if (dd <= 0)
        return transformed;
    const QTransform inv = full.inverted();
    const QPointF grad((inv.m11() * d.x() + inv.m12() * d.y()) / dd, (inv.m21() * d.x() + inv.m22() * d.y()) / dd);
    const qreal gg = QPointF::dotProduct(grad, grad);
    if (gg <= 0)
        return transformed;
    const QPointF start = full.map(lg->start());
    QLinearGradient folded(start, start + grad / gg);
    folded.setStops(lg->stops());
    folded.setSpread(lg->spread());
    folded.setInterpolationMode(lg->interpolationMode());
    return QBrush(folded);
}

QBrush gradientBrush(const Gradient &g, const QRectF &area)
{
    const qreal w = area.width(), h = area.height();
    if (g.kind == Gradient::Kind::Conic) {
        const QPointF c(area.left() + g.centerX.resolve(float(w)), area.top() + g.centerY.resolve(float(h)));
        // Qt's conical gradient runs counter-clockwise from 3 o'clock; mirrored about the
        // vertical axis it runs clockwise, and angle 90 + from starts at CSS's `from`
        // (0deg = up).
        QConicalGradient cg(QPointF(0, 0), 90 + qreal(g.angleDeg));
        cg.setStops(conicStops(interpolatedStops(g, fixedStops(g, 0)), g.repeating));
        cg.setInterpolationMode(QGradient::ComponentInterpolation);
        QBrush brush(cg);
        brush.setTransform(QTransform(-1, 0, 0, 1, c.x(), c.y()));
        return brush;
    }
    if (g.kind == Gradient::Kind::Linear) {
        const qreal a = qreal(g.angleFor(float(w), float(h))) * M_PI / 180.0;
        const QPointF dir(std::sin(a), -std::cos(a));
        const qreal len = std::abs(w * std::sin(a)) + std::abs(h * std::cos(a));
        const QPointF c = area.center();
        const QPointF start = c - dir * (len / 2);
        QLinearGradient lg;
        const auto [lo, hi] = applyStops(lg, interpolatedStops(g, fixedStops(g, len)), g.repeating);
        // A repeating line whose period falls on pixel centres (45deg stripes of whole px)
        // puts every hard stop exactly on one: Skia's arithmetic gives such a pixel the
        // colour after the stop, Qt's fixed-point gradient the one before. 1/32 px along
        // the line tips those ties Chromium's way (measured on satori's repeating-gradient
        // cases: 1/64 left some, 1/16 moved untied stops) and moves nothing else visibly.
        const QPointF tie = g.repeating ? dir * (1.0 / 32) : QPointF();
        lg.setStart(start + dir * (len * lo) - tie);
        lg.setFinalStop(start + dir * (len * hi) - tie);
        return QBrush(lg);
    }
    const QPointF c(area.left() + g.centerX.resolve(float(w)), area.top() + g.centerY.resolve(float(h)));
    const qreal dl = c.x() - area.left(), dr = area.right() - c.x();
    const qreal dt = c.y() - area.top(), db = area.bottom() - c.y();
    qreal rx = 0, ry = 0;
    if (g.radiusX) {
        rx = g.radiusX->resolve(float(w));
        ry = g.radiusY ? g.radiusY->resolve(float(h)) : rx;
    } else {
        const qreal closeX = std::min(std::abs(dl), std::abs(dr)), farX = std::max(std::abs(dl), std::abs(dr));
        const qreal closeY = std::min(std::abs(dt), std::abs(db)), farY = std::max(std::abs(dt), std::abs(db));
        // The closest extents measure to the nearer sides, the farthest ones to the farther;
        // a side extent ends on them (a circle on the nearer or farther one of the two), a
        // corner extent passes through their corner.
        using Extent = Gradient::Extent;
        const bool closest = g.extent == Extent::ClosestSide || g.extent == Extent::ClosestCorner;
        const qreal x = closest ? closeX : farX, y = closest ? closeY : farY;
        if (g.extent == Extent::ClosestSide || g.extent == Extent::FarthestSide) {
            rx = x, ry = y;
            if (g.circle)
                rx = ry = closest ? std::min(x, y) : std::max(x, y);
        } else if (g.circle) {
            rx = ry = std::hypot(x, y);
        } else {
            rx = x * M_SQRT2, ry = y * M_SQRT2;
        }
    }
    rx = std::max<qreal>(rx, 1e-3);
    ry = std::max<qreal>(ry, 1e-3);
    QRadialGradient rg(c, rx);
    const auto [lo, hi] = applyStops(rg, interpolatedStops(g, fixedStops(g, rx)), g.repeating);
    if (lo > 0 || hi != 1) { // Qt's radial line starts at the centre; CSS may start further out
        rg.setRadius(rx * hi);
        rg.setFocalRadius(std::max<qreal>(0, rx * lo));
        rg.setCenterRadius(rx * hi);
    }
    QBrush brush(rg);
    if (std::abs(rx - ry) > 1e-3) {
        QTransform t;
        t.translate(c.x(), c.y());
        t.scale(1, ry / rx);
        t.translate(-c.x(), -c.y());
        brush.setTransform(t);
    }
    return brush;
}

void drawBlurred(QPainter &painter, const QRectF &inkBounds, qreal sigma, const std::function<void(QPainter &)> &draw)
{
    if (sigma <= 0.1) {
        draw(painter);
        return;
    }
    // The work is done in device pixels, on a grid aligned to the device's: an image placed
    // at a fractional position is blitted rounded when it is not scaled (Qt's raster engine
    // snaps a translated drawImage()), which moved a 5 px text-shadow by half a pixel.
    // Rotations and skews keep the page-space image (their result is resampled anyway).
    const QTransform world = painter.worldTransform();
    const bool axisAligned = world.type() <= QTransform::TxScale;
    const qreal deviceScale = axisAligned ? std::sqrt(std::abs(world.m11() * world.m22())) : 1;
    const qreal deviceSigma = sigma * deviceScale;
    // Beyond 3 sigma a Gaussian contributes < 0.3 %: invisible in 8-bit colour.
    const QRectF area = inkBounds.adjusted(-3 * sigma, -3 * sigma, 3 * sigma, 3 * sigma);
    const QRectF target = axisAligned ? QRectF(world.mapRect(area).toAlignedRect()) : area;
    // Blurred detail is no finer than sigma: rendering at sigma/2-ish px per pixel loses
    // nothing visible and makes a 60 px blur cost well under a millisecond.
    const qreal scale = std::clamp(deviceSigma / 2.5, 1.0, 16.0);
    const QSize size(std::max(1, int(std::ceil(target.width() / scale))),
                     std::max(1, int(std::ceil(target.height() / scale))));
    if (qint64(size.width()) * size.height() > 64LL * 1024 * 1024)
        return;
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter ip(&image);
        ip.setRenderHint(QPainter::Antialiasing);
        ip.scale(1 / scale, 1 / scale);
        ip.translate(-target.topLeft());
        if (axisAligned)
            ip.setWorldTransform(world, true);
        draw(ip);
    }
    blurImage(image, deviceSigma / scale);
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    if (axisAligned)
        painter.resetTransform();
    painter.drawImage(QRectF(target.topLeft(), QSizeF(size) * scale), image);
    painter.restore();
}

void paintOuterShadows(QPainter &painter, const std::vector<Shadow> &shadows, bool opaqueBackground,
                       const QRectF &borderBox, const Radii &radii)
{
    bool any = false;
    for (const Shadow &s : shadows)
        any = any || (!s.inset && s.color.alpha() > 0);
    if (!any)
        return;
    painter.save();
    // The shadow shows only outside the border box (§7.1.1); under an opaque background
    // the clip is unnecessary, and unclipped edges stay antialiased.
    if (!opaqueBackground) {
        QPainterPath outside;
        outside.addRect(borderBox.adjusted(-1e4, -1e4, 1e4, 1e4));
        outside.addPath(roundedPath(borderBox, radii));
        outside.setFillRule(Qt::OddEvenFill);
        painter.setClipPath(outside, Qt::IntersectClip);
    }
    // Listed first = painted on top (§7.1), so paint in reverse.
    for (auto it = shadows.rbegin(); it != shadows.rend(); ++it) {
        const Shadow &s = *it;
        if (s.inset || s.color.alpha() == 0)
            continue;
        const qreal spread = s.spread;
        const QRectF rect = borderBox.translated(s.offsetX, s.offsetY).adjusted(-spread, -spread, spread, spread);
        if (rect.width() <= 0 || rect.height() <= 0)
            continue;
        const QPainterPath path = roundedPath(rect, insetRadii(radii, QMarginsF(-spread, -spread, -spread, -spread)));
        drawBlurred(painter, rect, s.blur / 2.0, [&](QPainter &p) {
            p.setRenderHint(QPainter::Antialiasing);
            p.fillPath(path, s.color);
        });
    }
    painter.restore();
}

void paintInsetShadows(QPainter &painter, const std::vector<Shadow> &shadows, const QRectF &paddingBox,
                       const Radii &paddingRadii)
{
    bool any = false;
    for (const Shadow &s : shadows)
        any = any || (s.inset && s.color.alpha() > 0);
    if (!any)
        return;
    painter.save();
    const QPainterPath clip = roundedPath(paddingBox, paddingRadii);
    painter.setClipPath(clip, Qt::IntersectClip);
    for (auto it = shadows.rbegin(); it != shadows.rend(); ++it) {
        const Shadow &s = *it;
        if (!s.inset || s.color.alpha() == 0)
            continue;
        const qreal spread = s.spread;
        const QRectF hole = paddingBox.translated(s.offsetX, s.offsetY).adjusted(spread, spread, -spread, -spread);
        const qreal margin = 3 * s.blur + std::abs(s.offsetX) + std::abs(s.offsetY) + 2;
        QPainterPath ring;
        ring.addRect(paddingBox.adjusted(-margin, -margin, margin, margin));
        if (hole.width() > 0 && hole.height() > 0)
            ring.addPath(roundedPath(hole, insetRadii(paddingRadii, QMarginsF(spread, spread, spread, spread))));
        ring.setFillRule(Qt::OddEvenFill);
        drawBlurred(painter, paddingBox.adjusted(-margin, -margin, margin, margin), s.blur / 2.0, [&](QPainter &p) {
            p.setRenderHint(QPainter::Antialiasing);
            p.fillPath(ring, s.color);
        });
    }
    painter.restore();
}

} // namespace paint_detail
} // namespace imprint::render
