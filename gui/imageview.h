#pragma once
// Shows one rendered image scaled to fit (never up beyond 100 %), centred on a
// checkerboard so transparency is visible, with a placeholder text when empty. An image
// with a device pixel ratio (a `scale` 2 render) is shown at its device-independent size,
// its extra pixels used for sharpness on a high-density screen.

#include <QImage>
#include <QWidget>

namespace imprint {
namespace gui {

class ImageView : public QWidget
{
    Q_OBJECT
public:
    explicit ImageView(QWidget *parent = nullptr);

    void setImage(const QImage &image);
    QImage image() const { return m_image; }
    void setPlaceholder(const QString &text);
    void setBusy(bool busy);

    /// Decodes PNG, JPEG, SVG (at its intrinsic size) or WebP bytes, or draws the first
    /// page of a PDF (QtPdf) at 96 px per inch, so a PDF of a 1200 × 630 px page is a
    /// 1200 × 630 image; `pages` (when not null) gets the PDF's page count, 0 otherwise.
    /// Null when the bytes do not decode.
    static QImage decode(const QByteArray &bytes, const QString &contentType, int *pages = nullptr);

protected:
    void paintEvent(QPaintEvent *) override;

private:
    QImage m_image;
    QString m_placeholder;
    bool m_busy = false;
};

} // namespace gui
} // namespace imprint
