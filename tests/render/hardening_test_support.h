#pragma once
// Helpers shared by the tst_hardening* suites: images as data URLs, cards that reference
// images or stack effects, renders measured for time and peak memory.

#include "server/render/backends/html.h"
#include "server/render/backends/raster.h"
#include "server/render/backends/svg.h"
#include "server/render/pipeline.h"
#include "tests/support/render_requests.h"
#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_sanitizer.h"
#include "tests/support/card_templates.h"
#include "tests/support/images.h"
#include "tests/support/render_context.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>

#include <array>
#include <cmath>

using namespace imprint::render;

namespace imprint::render::test {

using imprint::test::addRasterEngineRows;

inline QString dataUrl(const QByteArray &bytes, const char *type)
{
    return QStringLiteral("data:%1;base64,").arg(QLatin1String(type)) + QString::fromLatin1(bytes.toBase64());
}

inline QByteArray pngOf(QColor colour, QSize size = QSize(40, 40))
{
    return imprint::test::solidPng(size, colour);
}

inline QImage decodePng(const QByteArray &bytes)
{
    QImage image;
    image.loadFromData(bytes, "PNG");
    return image.convertToFormat(QImage::Format_ARGB32);
}

/// Pixels close to `colour` (each channel within 40).
inline int countNear(const QImage &image, QColor colour)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.alpha() > 200 && std::abs(c.red() - colour.red()) < 40 && std::abs(c.green() - colour.green()) < 40
                && std::abs(c.blue() - colour.blue()) < 40)
                ++n;
        }
    }
    return n;
}

inline QByteArray svgReferencing(const QString &href)
{
    return QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                          "width=\"100\" height=\"100\"><image xlink:href=\"%1\" width=\"100\" height=\"100\"/></svg>")
        .arg(href.toHtmlEscaped())
        .toUtf8();
}

inline QJsonObject imgCard(const QString &src, const QString &engine)
{
    const QJsonObject img{
        {"type", "img"}, {"props", QJsonObject{{"src", src}, {"style", QJsonObject{{"width", 100}, {"height", 100}}}}}};
    return imprint::test::engineCard("probe", engine, 200, 200, {{"backgroundColor", "#ffffff"}}, QJsonArray{img});
}

/// Checks that `result_` (a RenderOutcome) was refused with the code named `code_`, for
/// `field_`, with `fragment_` in its message (the message is shown when it is not).
#define VERIFY_REFUSED(result_, code_, field_, fragment_)                                                              \
    do {                                                                                                               \
        const auto &refused_ = (result_);                                                                              \
        QVERIFY(!refused_);                                                                                            \
        QCOMPARE(refused_.error().codeName(), QString(code_));                                                         \
        QCOMPARE(refused_.error().field, QString(field_));                                                             \
        QVERIFY2(refused_.error().message.contains(fragment_), qPrintable(refused_.error().message));                 \
    } while (false)

/// `request` rendered through the suite's render context.
inline imprint::test::RenderOutcome renderWith(const RenderRequest &request)
{
    return render(request, imprint::test::renderContext());
}

/// `document` rendered with `tweaks` through the suite's render context.
inline imprint::test::RenderOutcome renderPng(const QJsonObject &document, const QJsonObject &tweaks = {})
{
    RenderRequest request;
    request.document = document;
    request.options.tweaks = tweaks;
    return renderWith(request);
}

/// Checks that `rendered` was drawn without a pixel near red: the colour of the secret
/// file the local-file probes point at, so none of it leaked into the image.
inline void checkDrewNoRed(const imprint::test::RenderOutcome &rendered)
{
    QVERIFY2(rendered, qPrintable(imprint::test::failureOf(rendered).message));
    QCOMPARE(countNear(decodePng(rendered->bytes), Qt::red), 0);
}

/// Checks that `rendered` was refused with the error named `code` (RenderError::codeName())
/// about `field`.
inline void checkRefused(const imprint::test::RenderOutcome &rendered, const char *code, const char *field)
{
    QVERIFY(!rendered);
    QCOMPARE(rendered.error().codeName(), QString(code));
    QCOMPARE(rendered.error().field, QString(field));
}

/// Checks that `document` renders as a PNG in less than `limitMs` milliseconds: hostile
/// input the renderer must draw in bounded time rather than refuse.
inline void rendersWithin(const QJsonObject &document, qint64 limitMs)
{
    QElapsedTimer timer;
    timer.start();
    const auto rendered = renderPng(document);
    QVERIFY2(rendered, qPrintable(imprint::test::failureOf(rendered).message));
    QVERIFY2(timer.elapsed() < limitMs, qPrintable(QString::number(timer.elapsed())));
}

/// A 600×400 card of `engine` whose one child has `style` (and `children`).
inline QJsonObject effectCard(const QString &engine, const QJsonObject &style, const QJsonValue &children = {})
{
    QJsonObject inner{{"style", style}};
    if (!children.isUndefined())
        inner.insert("children", children);
    return imprint::test::engineCard("fx", engine, 600, 400, {{"backgroundColor", "#336699"}},
                                     QJsonArray{QJsonObject{{"type", "div"}, {"props", inner}}});
}

/// `depth` divs nested one in another inside a white `width`×`height` root, each with
/// `opacity`, growing to fill its parent less `padding` px a side, with backgrounds
/// alternating blue and yellow when `coloured`; the innermost holds a word of 10 px
/// text, so every level is a group with children (the hardening probe: 63 × 0.99, no
/// padding, 64 element levels with the root: the template limit).
inline QJsonObject nestedOpacityCard(const QString &engine, int width, int height, int depth, double opacity, int padding,
                              bool coloured)
{
    QJsonValue node = QStringLiteral("deep");
    for (int i = depth; i >= 1; --i) {
        QJsonObject style{
            {"display", "flex"}, {"flexGrow", 1}, {"opacity", opacity}, {"padding", padding}, {"fontSize", 10}};
        if (coloured)
            style.insert("backgroundColor", i % 2 ? "#0000ff" : "#ffff00");
        node = QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", style}, {"children", QJsonArray{node}}}}};
    }
    return imprint::test::engineCard("layers", engine, width, height, {{"backgroundColor", "#ffffff"}},
                                     QJsonArray{node});
}

/// Resets this process's peak resident set (VmHWM) to what is resident now: false where
/// /proc/self/clear_refs refuses it (kernels before 4.0, some sandboxes).
inline bool resetPeakRss()
{
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    return f.open(QIODevice::WriteOnly) && f.write("5") == 1;
}

/// This process's peak resident set since resetPeakRss() (VmHWM), MiB; -1 without /proc.
inline double peakRssMiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    }
    return -1;
}

/// What one render cost: its result, wall time (ms) and growth of the peak RSS (MiB,
/// -1 when it cannot be measured).
struct MeasuredRender {
    imprint::test::RenderOutcome result;
    qint64 ms = 0;
    double peakGrowthMiB = -1;
};

inline MeasuredRender measureRender(const RenderRequest &request)
{
    MeasuredRender m;
    const bool reset = resetPeakRss();
    const double before = peakRssMiB();
    QElapsedTimer timer;
    timer.start();
    m.result = renderWith(request);
    m.ms = timer.elapsed();
    if (reset && before >= 0)
        m.peakGrowthMiB = peakRssMiB() - before;
    return m;
}

} // namespace imprint::render::test

using namespace imprint::render::test;
