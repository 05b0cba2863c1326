#pragma once
// What the suites of Chromium-referenced cards share (tests/render/tst_cards.cpp,
// tst_text_fit.cpp): a card template rendered by a layout engine to an image the size of
// Chromium's screenshot, and each engine's mean SSIM over a suite's cards.

#include "server/render/backends/raster.h"
#include "server/render/encode/encode.h"
#include "server/render/pipeline.h"
#include "tests/support/fixtures.h"
#include "tests/support/render_requests.h"
#include "tests/support/render_context.h"
#include "tests/support/ssim.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <map>

namespace imprint::render::test {

/// `document` rendered by `engine` ("takumi": laid out and painted to a raster image;
/// "satori": the SVG document rasterised to PNG, as served). A null image and the reason
/// in `*error` on failure. With `dumpDir` set, the render is also written there as
/// NAME.ENGINE.png for inspection.
inline QImage renderCardImage(const QJsonObject &document, const QString &name, const QString &engine,
                              const QString &dumpDir, QString *error)
{
    RenderRequest request;
    request.document = document;
    if (request.document.isEmpty()) {
        *error = QStringLiteral("no template");
        return {};
    }
    request.options.engine = imprint::test::engineOption(engine);
    RenderError failure;
    QImage image;
    if (engine == QLatin1String("takumi")) {
        const auto doc = layOut(request, imprint::test::renderContext());
        if (doc)
            image = paintToImage(doc->layout, doc->size, imprint::test::renderContext().paintResources());
        failure = imprint::test::failureOf(doc);
    } else {
        request.options.format = OutputFormat::Png; // the SVG document rasterised, as served
        const auto png = render(request, imprint::test::renderContext());
        if (png)
            image = QImage::fromData(png->bytes);
        failure = imprint::test::failureOf(png);
    }
    if (image.isNull())
        *error = failure.field + QStringLiteral(": ") + failure.message;
    if (!dumpDir.isEmpty() && !image.isNull()) {
        QDir().mkpath(dumpDir);
        QFile out(dumpDir + QStringLiteral("/%1.%2.png").arg(name, engine));
        if (out.open(QIODevice::WriteOnly))
            out.write(encodePng(image).value());
    }
    return image;
}

/// One card's SSIM floors against Chromium per layout engine, for addCardRows().
struct CardFloors {
    const char *name;
    double takumi, satori;
};

/// The data rows of a card check: one per card of `cards` (each with `name`, `takumi` and
/// `satori` floors) and engine, columns name, engine and threshold.
template<typename Card, size_t N>
void addCardRows(const Card (&cards)[N])
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("engine");
    QTest::addColumn<double>("threshold");
    for (const Card &c : cards) {
        QTest::addRow("%s/takumi", c.name) << QString::fromLatin1(c.name) << QStringLiteral("takumi") << c.takumi;
        QTest::addRow("%s/satori", c.name) << QString::fromLatin1(c.name) << QStringLiteral("satori") << c.satori;
    }
}

/// Verifies `rendered` against Chromium's screenshot at `referencePath` (same size, mean
/// SSIM of luma at or above `threshold`) and records the SSIM in `achieved` under
/// "engine/name". Check QTest::currentTestFailed() after it.
inline void verifyCardSsim(const QImage &rendered, const QString &referencePath, const QString &name,
                           const QString &engine, double threshold, std::map<QString, double> &achieved)
{
    const QImage reference(referencePath);
    QVERIFY2(!reference.isNull(), qPrintable(referencePath));
    QCOMPARE(rendered.size(), reference.size());
    const double ssim = ssimOf(reference, rendered);
    achieved[engine + u'/' + name] = ssim;
    qInfo("%s %s SSIM %.5f (floor %.3f)", qPrintable(name), qPrintable(engine), ssim, threshold);
    QVERIFY2(ssim >= threshold,
             qPrintable(QStringLiteral("%1 %2: SSIM %3 < %4").arg(name, engine).arg(ssim).arg(threshold)));
}

/// The check of one addCardRows() row: the card `dir`/cases/NAME.json rendered by the row's
/// engine (renderCardImage(), dumped to `dumpDir` when set) against `dir`/chromium/NAME.png
/// (verifyCardSsim()).
inline void verifyCardRow(const QString &dir, const QString &dumpDir, std::map<QString, double> &achieved)
{
    QFETCH(QString, name);
    QFETCH(QString, engine);
    QFETCH(double, threshold);
    QString error;
    const QImage rendered = renderCardImage(readJson(dir + QStringLiteral("/cases/%1.json").arg(name)).object(), name,
                                            engine, dumpDir, &error);
    QVERIFY2(!rendered.isNull(), qPrintable(error));
    verifyCardSsim(rendered, dir + QStringLiteral("/chromium/%1.png").arg(name), name, engine, threshold, achieved);
}

/// Each layout engine's mean SSIM over `achieved` ("engine/name" → SSIM), which must hold
/// `cards` entries per engine, verified at or above `floor` (and logged with the lowest).
inline void verifyEngineMeans(const std::map<QString, double> &achieved, int cards, double floor)
{
    for (const QString &engine : {QStringLiteral("takumi"), QStringLiteral("satori")}) {
        double sum = 0, low = 1;
        int n = 0;
        for (const auto &[key, ssim] : achieved) {
            if (!key.startsWith(engine + u'/'))
                continue;
            sum += ssim;
            low = std::min(low, ssim);
            ++n;
        }
        QCOMPARE(n, cards);
        qInfo("%s: mean SSIM %.5f, lowest %.5f over %d cards", qPrintable(engine), sum / n, low, n);
        QVERIFY2(sum / n >= floor, qPrintable(engine));
    }
}

} // namespace imprint::render::test
