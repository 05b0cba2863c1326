// SVG effects in templates (issue 28): the clipPath, mask, filter, `<use>` of a
// `<symbol viewBox>`, transformed gradients and `<text>` that templates pasted from
// @vercel/og / next/og and takumi carry (Figma exports every icon as `<g clip-path>`),
// drawn by the sandboxed helper with librsvg (server/svg_raster/rsvg_draw.h) as Chromium
// draws them. Chromium-referenced cards (tests/render/svg_effects: cases/NAME.json and
// chromium/NAME.png, both written by make_cases.mjs from React's markup of the same
// trees) rendered by both layout engines, SSIM against a floor per card. QtSvg, which
// ignores clipPath, mask and filter, scored 0.863–0.963 on the effect cards, below every
// floor here; it also sized an SVG image in inches, mm or pt at 90 px per inch, and one
// without any size at its content's extent, where Chromium (and librsvg) take 96 and
// 300×150. Text takes the font of the HTML around the svg and its baseline keywords; a CSS
// transform turns about its transform-origin (text-font-baseline, transform-origin); text
// on a <textPath>, which librsvg does not draw, is laid out by the writer (text-path), on
// SVG path data it reads itself (pathDataReadsAsBrowsersDo).
// Set IMPRINT_SVG_EFFECTS_DUMP=DIR to write the renders there as PNG.

#include "server/render/document/svg_path_data.h"
#include "tests/support/chromium_cards.h"

#include "tests/support/render_requests.h"

#include <QTest>

#include <QFile>
#include <QJsonDocument>
#include <QPainterPath>

#include <cmath>
#include <map>

using namespace imprint::render;

namespace {

// Floors: what each engine achieved when the card was added, less 0.005.
// name               takumi  satori    (achieved takumi / satori; QtSvg before, both engines)
constexpr test::CardFloors kCards[] = {
    {"figma-icons", 0.994, 0.991}, // 0.99978 / 0.99695; QtSvg 0.949 / 0.947
    {"filter-shadow", 0.994, 0.994}, // 0.99951 / 0.99946; QtSvg 0.959 / 0.959
    {"mask", 0.994, 0.988}, // 0.99956 / 0.99332; QtSvg 0.868 / 0.863
    {"symbol-use", 0.994, 0.994}, // 0.99995 / 0.99991; QtSvg 0.963 / 0.963
    {"gradients", 0.994, 0.994}, // 0.99919 / 0.99907; QtSvg 0.999 / 0.999
    {"lucide", 0.994, 0.994}, // 0.99951 / 0.99946; QtSvg 0.999 / 0.999
    {"svg-text", 0.992, 0.992}, // 0.99755 / 0.99753; QtSvg 0.997 / 0.997
    {"img-units", 0.989, 0.989}, // 0.99402 / 0.99401; QtSvg 0.906 / 0.906 (its 90 px inch)
    {"img-data-url", 0.994, 0.994}, // 0.99965 / 0.99963; QtSvg 0.937 / 0.937
    {"image-nested-svg", 0.994, 0.990}, // 0.99937 / 0.99591; an SVG <image> drawn at its own size before: 0.958
    // The font around the svg and dominant-baseline: 0.99399 / 0.99382; librsvg's serif and baselines 0.929
    {"text-font-baseline", 0.989, 0.988},
    // transform-origin, transform-box and an SVG image's default font: 0.99835 / 0.99822; before 0.936
    {"transform-origin", 0.993, 0.993},
    // Text on a path (a stamp's ring, a wave, an end-anchored bend): 0.99022 / 0.99003; none drawn before 0.927
    {"text-path", 0.985, 0.985},
    // feTurbulence grain, feComponentTransfer duotone, feMorphology outline: 0.98261 / 0.98227
    // (the grain's noise correlates 0.97 with Chromium's pixel for pixel); dropped before 0.936
    {"filter-primitives", 0.977, 0.977},
    // text-transform in a style and inherited from the HTML (librsvg ignores it): 0.99324 / 0.99324; before 0.880
    {"text-transform", 0.988, 0.988},
    // An <a>'s content (dropped before) and white-space: pre (collapsed): 0.9927 / 0.9927; before 0.955
    {"link-and-spaces", 0.987, 0.987},
    // Non-scaling strokes on a viewBox stretched unevenly: 0.99972 / 0.99972; the mean scale's
    // width before 0.99779 (strokes 1.4 px where Chromium's are 2): the floor is closer than 0.005
    {"sparkline", 0.999, 0.999},
};

} // namespace

class TestSvgEffects : public QObject
{
    Q_OBJECT

private slots:
    void card_data() { test::addCardRows(kCards); }

    void card()
    {
        test::verifyCardRow(QStringLiteral(IMPRINT_SOURCE_DIR "/tests/render/svg_effects"),
                            qEnvironmentVariable("IMPRINT_SVG_EFFECTS_DUMP"), m_achieved);
    }

    /// Each engine's mean over the cards (QtSvg's: 0.953).
    void means() { test::verifyEngineMeans(m_achieved, int(std::size(kCards)), 0.99); }

    // SVG 2 §9.3's grammar: compact numbers and flags, implicit repeats, relative forms,
    // smooth curves, arcs (radii scaled up when no ellipse fits), drawn up to an error.
    void pathDataReadsAsBrowsersDo_data()
    {
        QTest::addColumn<QString>("d");
        QTest::addColumn<double>("length");
        QTest::addColumn<QRectF>("bounds");
        QTest::newRow("compact numbers") << "M0-.5.5.5" << std::hypot(0.5, 1.0) << QRectF(0, -0.5, 0.5, 1);
        QTest::newRow("lines, relative, closed") << "M10 10 h20 v20 H10 z" << 80.0 << QRectF(10, 10, 20, 20);
        QTest::newRow("moveto's pairs are linetos") << "m10 10 10 0 0 10" << 20.0 << QRectF(10, 10, 10, 10);
        QTest::newRow("arc, clockwise over the top") << "M0 0 A10 10 0 0 1 20 0" << 10 * M_PI << QRectF(0, -10, 20, 10);
        QTest::newRow("arc flags without separators") << "M0 0a10 10 0 0120 0" << 10 * M_PI << QRectF(0, -10, 20, 10);
        QTest::newRow("arc radii scaled up") << "M0 0 A1 1 0 0 0 20 0" << 10 * M_PI << QRectF(0, 0, 20, 10);
        QTest::newRow("smooth quadratic") << "M0 0 Q10 10 20 0 T40 0" << -1.0 << QRectF(0, -5, 40, 10);
        QTest::newRow("drawn up to the error") << "M0 0 L10 0 L20" << 10.0 << QRectF(0, 0, 10, 0);
        QTest::newRow("exponents") << "M1e1 0 L2E1 0" << 10.0 << QRectF(10, 0, 10, 0);
    }

    void pathDataReadsAsBrowsersDo()
    {
        QFETCH(QString, d);
        QFETCH(double, length);
        QFETCH(QRectF, bounds);
        const std::optional<QPainterPath> path = imprint::render::parseSvgPathData(d);
        QVERIFY(path);
        // Within 0.3 %: Qt measures Béziers (the arcs' too) by flattening them.
        if (length >= 0)
            QVERIFY2(std::abs(path->length() - length) < 0.003 * length, qPrintable(QString::number(path->length())));
        const QRectF b = path->boundingRect();
        QVERIFY2(std::abs(b.left() - bounds.left()) < 0.01 && std::abs(b.top() - bounds.top()) < 0.01
                     && std::abs(b.width() - bounds.width()) < 0.01 && std::abs(b.height() - bounds.height()) < 0.01,
                 qPrintable(QStringLiteral("%1,%2 %3×%4").arg(b.left()).arg(b.top()).arg(b.width()).arg(b.height())));
    }

    // What the writer rewrites (a non-scaling stroke's outline, an emoji run, text on a
    // path), from hostile numbers (1e308 coordinates and dy, a 1e300 letter-spacing, a
    // negative font size): the card renders with each svg's marker square, and nothing
    // coloured is drawn anywhere else (an emoji image at an overflowed position was).
    void hostileRewritesStayInTheirBox_data() { imprint::test::addRasterEngineRows(); }
    void hostileRewritesStayInTheirBox()
    {
        QFETCH(QString, engine);
        QFile file(QStringLiteral(IMPRINT_SOURCE_DIR "/tests/render/svg_effects/hostile-rewrites.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString error;
        const QImage image = test::renderCardImage(QJsonDocument::fromJson(file.readAll()).object(),
                                                   QStringLiteral("hostile-rewrites"), engine, {}, &error)
                                 .convertToFormat(QImage::Format_ARGB32);
        QVERIFY2(!image.isNull(), qPrintable(error));
        // The first svg stretches its 10-unit square to 10 × 16.7 px (viewBox 0 0 100 30 at 100 × 50).
        const QList<std::pair<QRect, QColor>> markers = {{QRect(0, 0, 10, 17), QColor(0, 255, 0)},
                                                         {QRect(120, 0, 10, 10), QColor(0, 0, 255)},
                                                         {QRect(240, 0, 10, 10), QColor(255, 0, 255)},
                                                         {QRect(60, 100, 10, 10), QColor(0, 255, 255)}};
        int stray = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                const bool inMarker = std::any_of(markers.begin(), markers.end(),
                                                  [&](const auto &m) { return m.first.adjusted(-1, -1, 1, 1).contains(x, y); });
                if (!inMarker && std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()}) > 80)
                    ++stray;
            }
        for (const auto &[box, colour] : markers)
            QCOMPARE(image.pixelColor(box.center()).name(), colour.name());
        QCOMPARE(stray, 0);
    }

    void pathDataThatIsNoPath()
    {
        for (const char *d : {"", "L10 10", "10 10", "M", "M x"})
            QVERIFY2(!imprint::render::parseSvgPathData(QString::fromLatin1(d)), d);
    }

private:
    std::map<QString, double> m_achieved;
};

QTEST_MAIN(TestSvgEffects)
#include "tst_svg_effects.moc"
