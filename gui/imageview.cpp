#include "gui/imageview.h"

#include <QBuffer>
#include <QImageReader>
#include <QPainter>
#include <QPdfDocument>

#include <webp/decode.h>

namespace imprint {
namespace gui {

ImageView::ImageView(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(240, 160);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ImageView::setImage(const QImage &image)
{
    m_image = image;
    update();
}

void ImageView::setPlaceholder(const QString &text)
{
    m_placeholder = text;
    update();
}

void ImageView::setBusy(bool busy)
{
    m_busy = busy;
    update();
}

QImage ImageView::decode(const QByteArray &bytes, const QString &contentType, int *pages)
{
    if (pages)
        *pages = 0;
    if (contentType.contains(QLatin1String("pdf")) || bytes.startsWith("%PDF-")) {
        QBuffer buffer;
        buffer.setData(bytes);
        buffer.open(QIODevice::ReadOnly);
        QPdfDocument pdf;
        pdf.load(&buffer); // a random-access device: read before load() returns
        if (pdf.status() != QPdfDocument::Status::Ready || pdf.pageCount() < 1)
            return {};
        if (pages)
            *pages = pdf.pageCount();
        // Points at 72 per inch, CSS px at 96 (CSS Values 4 §6.2): the page's pixel size.
        const QSize size = (pdf.pagePointSize(0) * 96.0 / 72.0).toSize();
        if (size.isEmpty() || size.width() > 16384 || size.height() > 16384)
            return {};
        return pdf.render(0, size);
    }
    const bool webp = contentType.contains(QLatin1String("webp"))
                      || (bytes.size() > 12 && bytes.startsWith("RIFF") && bytes.mid(8, 4) == "WEBP");
    if (webp) {
        int w = 0, h = 0;
        uint8_t *rgba
            = WebPDecodeRGBA(reinterpret_cast<const uint8_t *>(bytes.constData()), size_t(bytes.size()), &w, &h);
        if (!rgba)
            return {};
        QImage img = QImage(rgba, w, h, w * 4, QImage::Format_RGBA8888).copy();
        WebPFree(rgba);
        return img;
    }
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, contentType.contains(QLatin1String("svg")) ? "svg" : QByteArray());
    reader.setAutoTransform(true);
    return reader.read();
}

void ImageView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QRect area = rect().adjusted(8, 8, -8, -8);
    if (m_image.isNull()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, m_placeholder);
        return;
    }
    QSize size = m_image.deviceIndependentSize().toSize();
    if (size.width() > area.width() || size.height() > area.height())
        size.scale(area.size(), Qt::KeepAspectRatio);
    QRect target(QPoint(0, 0), size);
    target.moveCenter(area.center());
    // Checkerboard behind transparent pixels.
    const int cell = 8;
    p.save();
    p.setClipRect(target);
    for (int y = target.top(); y < target.bottom(); y += cell)
        for (int x = target.left(); x < target.right(); x += cell)
            p.fillRect(x, y, cell, cell,
                       (((x - target.left()) / cell + (y - target.top()) / cell) % 2) ? QColor(0xe5, 0xe7, 0xeb)
                                                                                      : QColor(Qt::white));
    p.restore();
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.drawImage(target, m_image);
    p.setPen(QPen(palette().color(QPalette::Mid)));
    p.drawRect(target.adjusted(0, 0, -1, -1));
    if (m_busy)
        p.fillRect(target, QColor(255, 255, 255, 140));
}

} // namespace gui
} // namespace imprint
