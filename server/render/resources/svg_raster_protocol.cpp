// The helper's byte format (see svg_raster.h): what the server writes and the helper reads
// and answers. Qt Core only, so that the helper, which links it, loads neither Qt GUI nor
// QtSvg at each start.

#include "server/render/resources/svg_raster.h"

#include <QDataStream>
#include <QIODevice>

namespace imprint::render {

using namespace svg_raster_format;

std::optional<QString> imageSizeRefusal(QSize size, int maxSide, qint64 maxPixels)
{
    if (size.width() > maxSide || size.height() > maxSide || qint64(size.width()) * size.height() > maxPixels)
        return QStringLiteral("image is %1×%2 px, larger than %3 px a side or %4 megapixels")
            .arg(size.width())
            .arg(size.height())
            .arg(maxSide)
            .arg(maxPixels / 1000000);
    return std::nullopt;
}

QByteArray encodeSvgRasterJob(const SvgRasterJob &job)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << kJobMagic << quint8(job.mode) << qint32(job.size.width()) << qint32(job.size.height())
        << qint32(job.maxSide) << qint64(job.maxPixels) << job.target << job.matrix.m11 << job.matrix.m12
        << job.matrix.m21 << job.matrix.m22 << job.matrix.dx << job.matrix.dy << job.svg << qint32(job.fonts.size());
    for (const SvgRasterFont &font : job.fonts)
        out << font.family << qint32(font.weight) << font.italic << font.fileFamily << font.sfnt;
    return bytes;
}

std::optional<SvgRasterJob> decodeSvgRasterJob(const QByteArray &bytes)
{
    QDataStream in(bytes);
    quint32 magic = 0;
    quint8 mode = 0;
    qint32 width = 0, height = 0, maxSide = 0;
    qint64 maxPixels = 0;
    SvgRasterJob job;
    SvgRasterMatrix &m = job.matrix;
    in >> magic >> mode >> width >> height >> maxSide >> maxPixels >> job.target >> m.m11 >> m.m12 >> m.m21 >> m.m22
        >> m.dx >> m.dy >> job.svg;
    qint32 fonts = 0;
    in >> fonts;
    for (qint32 i = 0; i < fonts && in.status() == QDataStream::Ok; ++i) {
        SvgRasterFont font;
        qint32 weight = 0;
        in >> font.family >> weight >> font.italic >> font.fileFamily >> font.sfnt;
        font.weight = weight;
        job.fonts.append(std::move(font));
    }
    if (in.status() != QDataStream::Ok || fonts < 0 || magic != kJobMagic || mode < quint8(SvgRasterMode::Natural)
        || mode > quint8(SvgRasterMode::Viewport))
        return std::nullopt;
    job.mode = SvgRasterMode(mode);
    job.size = QSize(width, height);
    job.maxSide = maxSide;
    job.maxPixels = maxPixels;
    return job;
}

QByteArray encodeSvgRasterRefusal(const QString &why)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << kAnswerMagic << quint8(1) << why.left(int(kMaxErrorBytes / 4));
    return bytes;
}

QByteArray encodeSvgRasterPixels(int width, int height, const uchar *bits, qsizetype stride)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << kAnswerMagic << quint8(0) << qint32(width) << qint32(height);
    const qsizetype row = qsizetype(width) * 4;
    bytes.reserve(bytes.size() + row * height);
    for (int y = 0; y < height; ++y)
        bytes.append(reinterpret_cast<const char *>(bits + stride * y), row);
    return bytes;
}

qint64 maxSvgRasterAnswerBytes(const SvgRasterJob &job)
{
    return kAnswerHeaderBytes + std::max<qint64>(job.maxPixels * 4, kMaxErrorBytes) + kMaxErrorBytes;
}

} // namespace imprint::render
