// Drawing one SVG document with librsvg (see rsvg_draw.h).

#include "server/svg_raster/rsvg_draw.h"

#include <librsvg/rsvg.h>

#include <cstdlib>
#include <memory>

namespace imprint::render {

namespace {

struct GObjectUnref {
    void operator()(gpointer object) const { g_object_unref(object); }
};
struct CairoSurfaceDestroy {
    void operator()(cairo_surface_t *surface) const { cairo_surface_destroy(surface); }
};
struct CairoDestroy {
    void operator()(cairo_t *cr) const { cairo_destroy(cr); }
};
struct Free {
    void operator()(void *p) const { std::free(p); }
};

/// The root's geometry as librsvg read it: its size in px when both sides are absolute
/// lengths (converted at 96 dpi), and its viewBox.
struct RootGeometry {
    std::optional<QSizeF> size;
    std::optional<QRectF> viewBox;
};

RootGeometry rootGeometry(RsvgHandle *handle)
{
    RootGeometry g;
    double width = 0, height = 0;
    if (rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) && width > 0 && height > 0)
        g.size = QSizeF(width, height);
    gboolean hasViewBox = false;
    RsvgRectangle viewBox{};
    rsvg_handle_get_intrinsic_dimensions(handle, nullptr, nullptr, nullptr, nullptr, &hasViewBox, &viewBox);
    if (hasViewBox && viewBox.width > 0 && viewBox.height > 0)
        g.viewBox = QRectF(viewBox.x, viewBox.y, viewBox.width, viewBox.height);
    return g;
}

/// The document's size in px: its absolute width and height, else its viewBox's size,
/// else CSS's 300×150 default object size.
QSizeF naturalSize(const RootGeometry &g)
{
    if (g.size)
        return *g.size;
    if (g.viewBox)
        return g.viewBox->size();
    return QSizeF(300, 150);
}

QString rsvgError(GError *error)
{
    const QString why = error ? QString::fromUtf8(error->message).trimmed() : QString();
    if (error)
        g_error_free(error);
    return why;
}

QString withReason(const QString &sentence, const QString &why)
{
    return why.isEmpty() ? sentence : QStringLiteral("%1 (%2)").arg(sentence, why);
}

QString outOfMemory(QSize size)
{
    return QStringLiteral("out of memory for a %1×%2 px SVG image").arg(size.width()).arg(size.height());
}

/// Whether the document may turn antialiasing off somewhere (`shape-rendering:
/// crispEdges` or `optimizeSpeed`, SVG 2 §13.8: attribute, style or sheet; keywords in
/// any case). `optimizeSpeed` of `text-` or `image-rendering` beside a shape-rendering
/// counts too: the nudge it brings is 1/32 px.
bool drawsAliasedEdges(const QByteArray &svg)
{
    if (!svg.contains("rendering")) // every other document: one search
        return false;
    const QByteArray lower = svg.toLower();
    return lower.contains("shape-rendering") && (lower.contains("crispedges") || lower.contains("optimizespeed"));
}

} // namespace

common::Expected<QByteArray, QString> drawSvgJobWithRsvg(const SvgRasterJob &job)
{
    GError *error = nullptr;
    const std::unique_ptr<RsvgHandle, GObjectUnref> handle(
        rsvg_handle_new_from_data(reinterpret_cast<const guint8 *>(job.svg.constData()), gsize(job.svg.size()), &error));
    if (!handle)
        return withReason(QStringLiteral("cannot decode image: librsvg cannot read this SVG"), rsvgError(error));
    rsvg_handle_set_dpi(handle.get(), 96); // CSS px: 1in = 96px
    // The initial font-size is CSS's `medium`, 16 px, as in Chromium; librsvg's own is 12 px,
    // so `em` lengths (a root width="2em") and <text> without a font-size came out 3/4 size.
    // The initial font-family is Chromium's standard font, the sans-serif face here
    // (text_runs.cpp), where librsvg's own is a serif ("Times New Roman" in fontconfig's
    // hands): an SVG image's <text> without a family drew in Noto Serif beside Chromium's
    // Noto Sans. User-origin rules: the document's own font, attribute or style, still wins.
    static constexpr char kMedium[] = ":root { font-size: 16px; font-family: sans-serif }";
    rsvg_handle_set_stylesheet(handle.get(), reinterpret_cast<const guint8 *>(kMedium), sizeof kMedium - 1, nullptr);
    const RootGeometry geometry = rootGeometry(handle.get());
    const QSizeF natural = naturalSize(geometry);
    const QSize size = isNatural(job.mode) ? natural.toSize() : job.size;
    if (size.width() < 1 || size.height() < 1)
        return QStringLiteral("cannot draw SVG at %1×%2 px").arg(size.width()).arg(size.height());
    if (auto refused = imageSizeRefusal(size, job.maxSide, job.maxPixels))
        return *refused;
    // Transparent from calloc(): a large image's pages come zeroed from the kernel, untouched
    // where nothing is drawn, instead of a fill written over them first. cairo's ARGB32 is
    // premultiplied native-endian 0xAARRGGBB words, the answer's format.
    const int stride = size.width() * 4;
    const std::unique_ptr<uchar, Free> pixels(static_cast<uchar *>(std::calloc(size_t(size.height()), size_t(stride))));
    if (!pixels)
        return outOfMemory(size);
    const std::unique_ptr<cairo_surface_t, CairoSurfaceDestroy> surface(
        cairo_image_surface_create_for_data(pixels.get(), CAIRO_FORMAT_ARGB32, size.width(), size.height(), stride));
    const std::unique_ptr<cairo_t, CairoDestroy> cr(cairo_create(surface.get()));
    if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS)
        return outOfMemory(size);
    // Aliased edges: cairo fills a pixel whose centre lies on a shape's left or top edge,
    // Skia (Chromium) one whose centre lies on its right or bottom edge, so a rect at
    // x = 69.5 filled pixel 69 here and 70 there. A nudge right and down far below a
    // pixel (and above cairo's 1/256 px grid) moves those ties to Skia's side.
    constexpr qreal kSkiaTieNudge = 1.0 / 32;
    const QRectF box = drawsAliasedEdges(job.svg) ? targetBox(job, size).translated(kSkiaTieNudge, kSkiaTieNudge)
                                                  : targetBox(job, size);
    RsvgRectangle viewport{box.x(), box.y(), box.width(), box.height()};
    if (const SvgRasterMatrix &m = job.matrix; !isNatural(job.mode) && !m.isIdentity()) {
        const cairo_matrix_t matrix{m.m11, m.m12, m.m21, m.m22, m.dx, m.dy}; // xx, yx, xy, yy, x0, y0
        cairo_transform(cr.get(), &matrix);
    }
    if (job.mode == SvgRasterMode::Natural || job.mode == SvgRasterMode::Stretch) {
        // Stretched as QSvgRenderer::render() stretches: the user space (the viewBox, else
        // the document's own size) is drawn at its own size, where preserveAspectRatio has
        // nothing to place, then scaled to the box.
        const QRectF user = geometry.viewBox.value_or(QRectF(QPointF(0, 0), natural));
        cairo_translate(cr.get(), box.x(), box.y());
        cairo_scale(cr.get(), box.width() / user.width(), box.height() / user.height());
        viewport = RsvgRectangle{0, 0, user.width(), user.height()};
    }
    const gboolean drawn = rsvg_handle_render_document(handle.get(), cr.get(), &viewport, &error);
    cairo_surface_flush(surface.get());
    if (!drawn)
        return withReason(QStringLiteral("cannot draw image: librsvg could not draw this SVG"), rsvgError(error));
    return encodeSvgRasterPixels(size.width(), size.height(), pixels.get(), stride);
}

} // namespace imprint::render
