// Drawing one SVG document with librsvg (see rsvg_draw.h).

#include "server/svg_raster/rsvg_draw.h"
#include "server/render/resources/svg_viewport.h"

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

bool isNatural(SvgRasterMode mode)
{
    return mode == SvgRasterMode::Natural || mode == SvgRasterMode::NaturalViewport;
}

/// The user space rectangle a stretching draw maps onto its box, as QSvgRenderer does:
/// the viewBox, else the document's own size from the origin.
QRectF stretchedUserSpace(const std::optional<SvgRootGeometry> &geometry, QSizeF natural)
{
    if (geometry && geometry->viewBox)
        return *geometry->viewBox;
    return QRectF(QPointF(0, 0), natural);
}

/// The document's size in px: its absolute width and height (librsvg converts the units
/// at 96 dpi), else its viewBox's size, else CSS's 300×150 default object size.
QSizeF naturalSize(RsvgHandle *handle, const std::optional<SvgRootGeometry> &geometry)
{
    double width = 0, height = 0;
    if (rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) && width > 0 && height > 0)
        return QSizeF(width, height);
    if (geometry && geometry->viewBox)
        return geometry->viewBox->size();
    return QSizeF(300, 150);
}

QString rsvgError(GError *error)
{
    const QString why = error ? QString::fromUtf8(error->message).trimmed() : QString();
    if (error)
        g_error_free(error);
    return why;
}

} // namespace

common::Expected<QImage, QString> drawSvgJobWithRsvg(const SvgRasterJob &job)
{
    GError *error = nullptr;
    const std::unique_ptr<RsvgHandle, GObjectUnref> handle(
        rsvg_handle_new_from_data(reinterpret_cast<const guint8 *>(job.svg.constData()), gsize(job.svg.size()), &error));
    if (!handle) {
        const QString why = rsvgError(error);
        return QStringLiteral("cannot decode image: librsvg cannot read this SVG%1")
            .arg(why.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(why));
    }
    rsvg_handle_set_dpi(handle.get(), 96); // CSS px: 1in = 96px
    const std::optional<SvgRootGeometry> geometry = svgRootGeometry(job.svg);
    const QSizeF natural = naturalSize(handle.get(), geometry);
    const QSize size = isNatural(job.mode) ? natural.toSize() : job.size;
    if (size.width() < 1 || size.height() < 1)
        return QStringLiteral("cannot draw SVG at %1×%2 px").arg(size.width()).arg(size.height());
    if (auto refused = imageSizeRefusal(size, job.maxSide, job.maxPixels))
        return *refused;
    // Transparent from calloc(): a large image's pages come zeroed from the kernel, untouched
    // where nothing is drawn, instead of a fill written over them first.
    const qsizetype stride = qsizetype(size.width()) * 4;
    void *pixels = std::calloc(size_t(size.height()), size_t(stride));
    if (!pixels)
        return QStringLiteral("out of memory for a %1×%2 px SVG image").arg(size.width()).arg(size.height());
    QImage image(static_cast<uchar *>(pixels), size.width(), size.height(), stride, QImage::Format_ARGB32_Premultiplied,
                 [](void *p) { std::free(p); }, pixels);
    // cairo's ARGB32 is QImage's ARGB32_Premultiplied: native-endian 0xAARRGGBB words,
    // colour premultiplied by alpha; a row of both is 4 × width bytes.
    const std::unique_ptr<cairo_surface_t, CairoSurfaceDestroy> surface(cairo_image_surface_create_for_data(
        image.bits(), CAIRO_FORMAT_ARGB32, size.width(), size.height(), int(image.bytesPerLine())));
    const std::unique_ptr<cairo_t, CairoDestroy> cr(cairo_create(surface.get()));
    if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS)
        return QStringLiteral("out of memory for a %1×%2 px SVG image").arg(size.width()).arg(size.height());
    const QRectF box = isNatural(job.mode) || job.target.isEmpty() ? QRectF(QPointF(0, 0), QSizeF(size)) : job.target;
    RsvgRectangle viewport{box.x(), box.y(), box.width(), box.height()};
    if (job.mode == SvgRasterMode::Natural || job.mode == SvgRasterMode::Stretch) {
        // Stretched as QSvgRenderer::render() stretches: the user space is drawn at its
        // own size, where preserveAspectRatio has nothing to place, then scaled to the box.
        const QRectF user = stretchedUserSpace(geometry, natural);
        cairo_translate(cr.get(), box.x(), box.y());
        cairo_scale(cr.get(), box.width() / user.width(), box.height() / user.height());
        viewport = RsvgRectangle{0, 0, user.width(), user.height()};
    }
    const gboolean drawn = rsvg_handle_render_document(handle.get(), cr.get(), &viewport, &error);
    cairo_surface_flush(surface.get());
    if (!drawn) {
        const QString why = rsvgError(error);
        return QStringLiteral("cannot draw image: librsvg could not draw this SVG%1")
            .arg(why.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(why));
    }
    return image;
}

} // namespace imprint::render
