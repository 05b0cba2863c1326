#pragma once
// The checks tst_render_api makes on answers: problem+json bodies, and PNG/WebP images
// decoded without a Qt WebP plugin.

#include "httpclient.h"

#include <QBuffer>
#include <QImage>
#include <QImageReader>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSize>
#include <QTest>

#include <webp/decode.h>

/// `o` as compact JSON text, a request body.
inline QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

/// `bytes` decoded by Qt's image readers (`format` empty: guessed); null if unreadable.
inline QImage decode(const QByteArray &bytes, const QByteArray &format = {})
{
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, format);
    return reader.read();
}

/// Size of a WebP image via libwebp (Debian's Qt has no WebP image plugin); 0×0 if invalid.
inline QSize webpSize(const QByteArray &bytes)
{
    int w = 0, h = 0;
    if (!WebPGetInfo(reinterpret_cast<const uint8_t *>(bytes.constData()), size_t(bytes.size()), &w, &h))
        return {};
    return QSize(w, h);
}

/// A few kilobytes of valid, sanitiser-approved SVG that QtSvg needs seconds to draw:
/// 8^levels dashed wide curves through nested <use> (levels 5: 32 768, under the
/// sanitiser's expansion bound). `colour` makes each call's image new to the cache.
/// `curves` per path (10) makes each of them longer to draw, not more numerous.
inline QString slowSvgUrl(int levels, const QString &colour, int curves = 10)
{
    QString d = QStringLiteral("M0 0");
    for (int i = 0; i < curves; ++i)
        d += QStringLiteral(" C %1 %2 %3 %4 %5 500")
                 .arg(100 * i + 20)
                 .arg(i % 2 ? 900 : 100)
                 .arg(100 * i + 60)
                 .arg(i % 2 ? 100 : 900)
                 .arg(100 * i + 100);
    QString svg = QStringLiteral("<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' "
                                 "width='1000' height='1000'><defs><path id='l0' d='%1' stroke='%2' "
                                 "stroke-width='30' stroke-dasharray='40 20' fill='none' opacity='0.3'/>")
                      .arg(d, colour);
    for (int level = 1; level <= levels; ++level) {
        svg += QStringLiteral("<g id='l%1'>").arg(level);
        for (int i = 0; i < 8; ++i)
            svg += QStringLiteral("<use xlink:href='#l%1' transform='rotate(%2 500 500)'/>")
                       .arg(level - 1)
                       .arg(7 * i + level);
        svg += QStringLiteral("</g>");
    }
    svg += QStringLiteral("</defs><use xlink:href='#l%1'/></svg>").arg(levels);
    return QStringLiteral("data:image/svg+xml;base64,") + QString::fromLatin1(svg.toUtf8().toBase64());
}

/// Every error answer is problem+json with the docs/api.md members.
inline bool isProblem(const HttpReply &r, int status)
{
    const QJsonObject p = r.json();
    return r.status == status && r.header("Content-Type") == "application/problem+json"
           && p.value("status").toInt() == status && p.value("code").isString() && p.value("detail").isString()
           && p.value("title").isString() && p.value("type").isString() && p.value("success") == QJsonValue(false);
}

#define VERIFY_PROBLEM(reply, code) \
    QVERIFY2(isProblem((reply), (code)), \
             qPrintable(QString::number((reply).status) + ' ' + QString::fromUtf8((reply).body)))
