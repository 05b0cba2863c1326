#pragma once
// Shows one rendered image scaled to fit (never up beyond 100 %), centred on a
// checkerboard so transparency is visible, with a placeholder text when empty.

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

    /// Decodes PNG, SVG (at its intrinsic size) or WebP bytes.
    static QImage decode(const QByteArray &bytes, const QString &contentType);

protected:
    void paintEvent(QPaintEvent *) override;

private:
    QImage m_image;
    QString m_placeholder;
    bool m_busy = false;
};

} // namespace gui
} // namespace imprint
