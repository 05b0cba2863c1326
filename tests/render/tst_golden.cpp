// Golden fixtures: every reference template rendered with the takumi engine and compared
// with Chromium's screenshot by mean SSIM of luma (tests/support/ssim.h) against the
// engine's floor (tests/support/fixtures.h).
// Set IMPRINT_GOLDEN_DUMP=DIR to write the renders there as PNG for inspection.

#include "server/render/backends/raster.h"
#include "server/render/encode/encode.h"
#include "server/render/pipeline.h"
#include "tests/support/render_requests.h"
#include "tests/support/fixtures.h"
#include "tests/support/render_context.h"
#include "tests/support/ssim.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTest>

#include <cmath>
#include <vector>

using namespace imprint::render;
using namespace imprint::render::test;

namespace { } // namespace

class TestGolden : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ssimIsOneForIdenticalImages()
    {
        QImage img(40, 30, QImage::Format_ARGB32);
        img.fill(Qt::white);
        img.setPixel(10, 10, qRgb(0, 0, 0));
        const auto l = lumaOverWhite(img);
        QCOMPARE(meanSsim(l, l, 40, 30), 1.0);
        QImage other = img;
        other.setPixel(20, 20, qRgb(0, 0, 0));
        QVERIFY(meanSsim(l, lumaOverWhite(other), 40, 30) < 1.0);
    }

    void fixtures_data() { test::addGoldenRows(&test::Golden::takumi); }

    void fixtures()
    {
        QFETCH(QString, name);
        QFETCH(double, threshold);
        const RenderRequest request = imprint::test::goldenRequest(name, QStringLiteral("takumi"));
        QVERIFY2(!request.document.isEmpty(), qPrintable(name));
        const auto doc = layOut(request, imprint::test::renderContext());
        QVERIFY2(doc, qPrintable(imprint::test::failureText(doc)));
        const QImage rendered = paintToImage(doc->layout, doc->size, imprint::test::renderContext().paintResources());
        const QImage reference(referencePng(name));
        QVERIFY(!reference.isNull());
        QCOMPARE(rendered.size(), reference.size());
        if (qEnvironmentVariableIsSet("IMPRINT_GOLDEN_DUMP"))
            QVERIFY(test::dumpPngIfAsked("IMPRINT_GOLDEN_DUMP", name, encodePng(rendered).value()));
        const double ssim
            = meanSsim(lumaOverWhite(reference), lumaOverWhite(rendered), reference.width(), reference.height());
        qInfo("%s SSIM %.5f (threshold %.2f)", qPrintable(name), ssim, threshold);
        QVERIFY2(ssim >= threshold, qPrintable(QStringLiteral("%1: SSIM %2 < %3").arg(name).arg(ssim).arg(threshold)));
    }
};

QTEST_MAIN(TestGolden)
#include "tst_golden.moc"
