// Golden fixtures: every reference template rendered with the takumi engine and compared
// with Chromium's screenshot by mean SSIM of luma, computed exactly as
// ../shared/tools/score.mjs does (over white; Y = 0.299 R + 0.587 G + 0.114 B; 11×11
// Gaussian window, sigma 1.5; K1 0.01, K2 0.03, L 255; windows that fit entirely).
// Set IMPRINT_GOLDEN_DUMP=DIR to write the renders there as PNG for inspection.

#include "server/render/encode/encode.h"
#include "server/render/backends/raster.h"
#include "server/render/pipeline.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QtTest>

#include <cmath>
#include <vector>

using namespace imprint::render;

namespace {

/// Per-fixture SSIM floors: a little below what the engine achieves, never below 0.90
/// (achieved / takumi / satori in the comment, from peers.json).
struct Golden {
    const char *name;
    double threshold;
};
const Golden kGoldens[] = {
    // name                    floor    achieved  takumi   satori
    {"a-simple", 0.995},               // 0.99858  0.99852  0.99679
    {"b-gradient", 0.99},              // 0.99525  0.99232  0.98445
    {"c-card", 0.99},                  // 0.99784  0.99759  0.99247
    {"d-absolute", 0.99},              // 0.99757  0.99515  0.98308
    {"e-longtext", 0.99},              // 0.99785  0.95537  0.98363
    {"f-image", 0.99},                 // 0.99623  0.99429  0.99360
    {"g-wrap-align", 0.99},            // 0.99694  0.99468  0.97824
    {"h-flex-grow-shrink", 0.975},     // 0.98285  0.87640  0.91774
    {"i-justify-space", 0.99},         // 0.99826  0.99411  0.99097
    {"j-align-baseline-stretch", 0.99}, // 0.99729  0.99653  0.98586
    {"m-box-sizing", 0.99},            // 0.99821  0.99625  0.95523
};

QString fixtureDir()
{
    return QStringLiteral(IMPRINT_SOURCE_DIR "/tests/render/fixtures");
}

/// Luma of `image` composited over white, row-major.
std::vector<double> lumaOverWhite(const QImage &image)
{
    const QImage argb = image.convertToFormat(QImage::Format_ARGB32);
    std::vector<double> luma(size_t(argb.width()) * size_t(argb.height()));
    for (int y = 0; y < argb.height(); ++y) {
        const auto *row = reinterpret_cast<const QRgb *>(argb.constScanLine(y));
        for (int x = 0; x < argb.width(); ++x) {
            const double a = qAlpha(row[x]) / 255.0;
            const double r = qRed(row[x]) * a + 255 * (1 - a), g = qGreen(row[x]) * a + 255 * (1 - a),
                         b = qBlue(row[x]) * a + 255 * (1 - a);
            luma[size_t(y) * size_t(argb.width()) + size_t(x)] = 0.299 * r + 0.587 * g + 0.114 * b;
        }
    }
    return luma;
}

/// Mean SSIM (Wang et al. 2004) of two luma planes of w × h, as score.mjs computes it.
double meanSsim(const std::vector<double> &a, const std::vector<double> &b, int w, int h)
{
    constexpr int kWin = 11;
    constexpr double kSigma = 1.5, kL = 255, c1 = (0.01 * kL) * (0.01 * kL), c2 = (0.03 * kL) * (0.03 * kL);
    double gauss[kWin];
    double sum = 0;
    for (int i = 0; i < kWin; ++i) {
        gauss[i] = std::exp(-((i - 5.0) * (i - 5.0)) / (2 * kSigma * kSigma));
        sum += gauss[i];
    }
    for (double &g : gauss)
        g /= sum;
    const int ow = w - kWin + 1, oh = h - kWin + 1;
    std::vector<std::array<double, 5>> planes(size_t(ow) * size_t(h));
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < ow; ++x) {
            std::array<double, 5> s{};
            for (int k = 0; k < kWin; ++k) {
                const double g = gauss[k], va = a[size_t(y) * w + x + k], vb = b[size_t(y) * w + x + k];
                s[0] += g * va, s[1] += g * vb, s[2] += g * va * va, s[3] += g * vb * vb, s[4] += g * va * vb;
            }
            planes[size_t(y) * ow + x] = s;
        }
    }
    double total = 0;
    for (int y = 0; y < oh; ++y) {
        for (int x = 0; x < ow; ++x) {
            std::array<double, 5> m{};
            for (int k = 0; k < kWin; ++k) {
                const auto &p = planes[size_t(y + k) * ow + x];
                for (int i = 0; i < 5; ++i)
                    m[size_t(i)] += gauss[k] * p[size_t(i)];
            }
            const double va = m[2] - m[0] * m[0], vb = m[3] - m[1] * m[1], cov = m[4] - m[0] * m[1];
            total += ((2 * m[0] * m[1] + c1) * (2 * cov + c2)) / ((m[0] * m[0] + m[1] * m[1] + c1) * (va + vb + c2));
        }
    }
    return total / (double(ow) * oh);
}

} // namespace

class TestGolden : public QObject {
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

    void fixtures_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("threshold");
        for (const Golden &g : kGoldens)
            QTest::newRow(g.name) << QString::fromLatin1(g.name) << g.threshold;
    }

    void fixtures()
    {
        QFETCH(QString, name);
        QFETCH(double, threshold);
        QFile file(fixtureDir() + QStringLiteral("/templates/%1.json").arg(name));
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        RenderRequest request;
        request.document = QJsonDocument::fromJson(file.readAll()).object();
        request.engine = QStringLiteral("takumi");
        RenderError error;
        const auto doc = layOut(request, &error);
        QVERIFY2(doc, qPrintable(error.field + QStringLiteral(": ") + error.message));
        const QImage rendered = paintToImage(doc->layout, doc->size);
        const QImage reference(fixtureDir() + QStringLiteral("/chromium/%1.png").arg(name));
        QVERIFY(!reference.isNull());
        QCOMPARE(rendered.size(), reference.size());
        const QString dump = qEnvironmentVariable("IMPRINT_GOLDEN_DUMP");
        if (!dump.isEmpty()) {
            QDir().mkpath(dump);
            QFile out(dump + QStringLiteral("/%1.png").arg(name));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(encodePng(rendered));
        }
        const double ssim = meanSsim(lumaOverWhite(reference), lumaOverWhite(rendered), reference.width(), reference.height());
        qInfo("%s SSIM %.5f (threshold %.2f)", qPrintable(name), ssim, threshold);
        QVERIFY2(ssim >= threshold, qPrintable(QStringLiteral("%1: SSIM %2 < %3").arg(name).arg(ssim).arg(threshold)));
    }
};

QTEST_MAIN(TestGolden)
#include "tst_golden.moc"
