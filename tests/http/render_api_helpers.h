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
