// Drawing one SVG document with QtSvg, and reading the helper's answer (see svg_raster.h).

#include "server/render/resources/svg_raster.h"
#include "server/render/resources/svg_viewport.h"

#include <QDataStream>
#include <QIODevice>
#include <QPainter>
#include <QSvgRenderer>

namespace imprint::render {

namespace {

using svg_raster_format::kAnswerHeaderBytes;
using svg_raster_format::kAnswerMagic;

bool withViewport(SvgRasterMode mode)
{
    return mode == SvgRasterMode::NaturalViewport || mode == SvgRasterMode::Viewport;
}

std::optional<QString> sizeRefused(QSize size, const SvgRasterJob &job)
{
    return imageSizeRefusal(size, job.maxSide, job.maxPixels);
}

} // namespace

common::Expected<QImage, QString> drawSvgJob(const SvgRasterJob &job)
{
    QSvgRenderer renderer(job.svg);
    if (!renderer.isValid())
        return QStringLiteral("cannot decode image: QtSvg cannot read this SVG");
    QSize size = job.size;
    if (isNatural(job.mode)) {
        size = renderer.defaultSize();
        if (size.width() <= 0 || size.height() <= 0)
            size = renderer.viewBoxF().size().toSize();
        if (size.width() <= 0 || size.height() <= 0)
            size = QSize(300, 150);
    }
    if (size.width() < 1 || size.height() < 1)
        return QStringLiteral("cannot draw SVG at %1×%2 px").arg(size.width()).arg(size.height());
    if (auto refused = sizeRefused(size, job))
        return *refused;
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return QStringLiteral("out of memory for a %1×%2 px SVG image").arg(size.width()).arg(size.height());
    image.fill(Qt::transparent);
    QPainter painter(&image);
    const SvgRasterMatrix &m = job.matrix;
    if (!isNatural(job.mode) && !m.isIdentity())
        painter.setTransform(QTransform(m.m11, m.m12, m.m21, m.m22, m.dx, m.dy));
    const QRectF box = targetBox(job, size);
    if (withViewport(job.mode)) {
        // QSvgRenderer stretches the viewBox; the viewport's preserveAspectRatio places it.
        const std::optional<SvgRootGeometry> geometry = svgRootGeometry(job.svg);
        if (geometry && geometry->viewBox)
            renderer.setViewBox(svgVisibleViewBox(*geometry, box.size()));
    }
    if (job.mode == SvgRasterMode::Natural)
        renderer.render(&painter);
    else
        renderer.render(&painter, box);
    painter.end();
    return image;
}

QByteArray encodeSvgRasterAnswer(const common::Expected<QImage, QString> &answer)
{
    if (!answer)
        return encodeSvgRasterRefusal(answer.error());
    const QImage image = answer->convertToFormat(QImage::Format_ARGB32_Premultiplied);
    return encodeSvgRasterPixels(image.width(), image.height(), image.constBits(), image.bytesPerLine());
}

common::Expected<QImage, QString> decodeSvgRasterAnswer(const QByteArray &bytes, const SvgRasterJob &job)
{
    QDataStream in(bytes);
    quint32 magic = 0;
    quint8 status = 0;
    in >> magic >> status;
    if (in.status() != QDataStream::Ok || magic != kAnswerMagic)
        return QStringLiteral("the SVG rasteriser gave no answer");
    if (status != 0) {
        QString why;
        in >> why;
        if (in.status() != QDataStream::Ok || why.isEmpty())
            return QStringLiteral("the SVG rasteriser failed");
        return why;
    }
    qint32 width = 0, height = 0;
    in >> width >> height;
    const QSize size(width, height);
    if (in.status() != QDataStream::Ok || width < 1 || height < 1 || sizeRefused(size, job)
        || (!isNatural(job.mode) && size != job.size))
        return QStringLiteral("the SVG rasteriser answered a wrong size");
    const qsizetype row = qsizetype(width) * 4;
    if (bytes.size() != kAnswerHeaderBytes + row * height)
        return QStringLiteral("the SVG rasteriser's answer is truncated");
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return QStringLiteral("out of memory for a %1×%2 px SVG image").arg(width).arg(height);
    const char *pixels = bytes.constData() + kAnswerHeaderBytes;
    for (int y = 0; y < height; ++y)
        memcpy(image.scanLine(y), pixels + row * y, size_t(row));
    return image;
}

} // namespace imprint::render
