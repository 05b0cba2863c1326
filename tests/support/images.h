#pragma once
// Image bytes for tests: small solid-colour files made on the spot, and a PNG that claims
// far more pixels than it holds.

#include <QBuffer>
#include <QByteArray>
#include <QColor>
#include <QImage>
#include <QSize>

namespace imprint::test {

/// A PNG of `size` px filled with `colour`.
inline QByteArray solidPng(QSize size, QColor colour)
{
    QImage image(size, QImage::Format_ARGB32);
    image.fill(colour);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

/// A PNG whose header declares `w`×`h` RGBA pixels followed by almost no data: a
/// decompression bomb's header (60 000 × 60 000 is 14 GB decoded) as a few dozen bytes,
/// with valid chunk CRCs so a reader gets as far as the size.
inline QByteArray pngBomb(quint32 w, quint32 h)
{
    const auto be32 = [](quint32 v) {
        const char b[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
        return QByteArray(b, 4);
    };
    const auto crc32 = [](const QByteArray &data) { // ISO 3309, as PNG chunks carry it
        quint32 c = 0xffffffffu;
        for (char ch : data) {
            c ^= quint8(ch);
            for (int k = 0; k < 8; ++k)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        }
        return c ^ 0xffffffffu;
    };
    const auto chunk = [&](const QByteArray &type, const QByteArray &data) {
        return be32(quint32(data.size())) + type + data + be32(crc32(type + data));
    };
    return QByteArray("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", be32(w) + be32(h) + QByteArray("\x08\x06\x00\x00\x00", 5))
           + chunk("IDAT", QByteArray("\x78\x9c\x03\x00", 4)) + chunk("IEND", {});
}

} // namespace imprint::test
