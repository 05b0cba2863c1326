// border-image (CSS Backgrounds 3 §6): the nine-piece geometry, and cards drawn by both
// engines in PNG and SVG. Every pixel expected below was read first from Chromium's
// screenshot of the same card (scripts/chromium-oracle).

#include "server/render/backends/svg.h"
#include "server/render/paint/border_image.h"
#include "tests/render/paint_test_support.h"

#include <QBuffer>

namespace {

const QStringList kEngines{QStringLiteral("takumi"), QStringLiteral("satori")};

/// A 90×90 PNG frame as a data: URL: 30 px corners red, green, blue and yellow (clockwise
/// from the top left), top and bottom edges in 10 px vertical stripes of indigo and pink,
/// left and right edges in 10 px horizontal stripes of teal and orange, the middle slate.
QString frameUrl()
{
    QImage frame(90, 90, QImage::Format_ARGB32);
    for (int y = 0; y < 90; ++y) {
        for (int x = 0; x < 90; ++x) {
            const int cx = x / 30, cy = y / 30;
            QRgb c = qRgb(241, 245, 249);
            if (cx != 1 && cy != 1)
                c = cy == 0 ? (cx == 0 ? qRgb(239, 68, 68) : qRgb(34, 197, 94))
                            : (cx == 0 ? qRgb(59, 130, 246) : qRgb(234, 179, 8));
            else if (cy != 1)
                c = (x / 10) % 2 == 0 ? qRgb(99, 102, 241) : qRgb(236, 72, 153);
            else if (cx != 1)
                c = (y / 10) % 2 == 0 ? qRgb(20, 184, 166) : qRgb(249, 115, 22);
            frame.setPixel(x, y, c);
        }
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    frame.save(&buffer, "PNG");
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
}

/// An absolutely placed box at (`left`, 20) with `style` added.
QJsonObject box(int left, const QJsonObject &style)
{
    QJsonObject s{{"position", "absolute"}, {"left", left}, {"top", 20}};
    for (auto it = style.begin(); it != style.end(); ++it)
        s.insert(it.key(), it.value());
    return QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", s}}}};
}

/// The frame's three rules side by side: round, repeat, space (30 px slices and borders).
QJsonArray frameCard()
{
    const QString url = frameUrl();
    QJsonArray boxes;
    const std::pair<int, const char *> rules[] = {{20, "round"}, {340, "repeat"}, {660, "space"}};
    for (const auto &[left, rule] : rules)
        boxes.append(box(left, {{"width", left == 660 ? 180 : 250},
                                {"height", 170},
                                {"border", "30px solid transparent"},
                                {"borderImage", QStringLiteral("url(%1) 30 %2").arg(url, QLatin1String(rule))}}));
    return boxes;
}

/// Renders `children` on a white `width`×`height` card with `engine` as `format`; SVG is
/// drawn back to pixels by Qt's renderer.
QImage renderAs(const QString &engine, OutputFormat format, int width, int height, const QJsonArray &children)
{
    RenderRequest request;
    request.options.engine = imprint::test::engineOption(engine);
    request.options.format = format;
    request.document = cardWithChildren(width, height, children);
    const auto result = render(request, imprint::test::renderContext());
    if (!result)
        return {};
    if (format == OutputFormat::Svg)
        return rasteriseSvg(result->bytes, QSize(width, height)).convertToFormat(QImage::Format_RGB32);
    return QImage::fromData(result->bytes).convertToFormat(QImage::Format_RGB32);
}

/// Whether `image`'s pixel at (`x`, `y`) is within `tolerance` of `expected` per channel.
bool pixelNear(const QImage &image, int x, int y, QRgb expected, int tolerance = 6)
{
    const QRgb p = image.pixel(x, y);
    return std::abs(qRed(p) - qRed(expected)) <= tolerance && std::abs(qGreen(p) - qGreen(expected)) <= tolerance
           && std::abs(qBlue(p) - qBlue(expected)) <= tolerance;
}

QString describe(const QImage &image, int x, int y)
{
    const QRgb p = image.pixel(x, y);
    return QStringLiteral("(%1, %2) is %3/%4/%5").arg(x).arg(y).arg(qRed(p)).arg(qGreen(p)).arg(qBlue(p));
}

} // namespace

class TestPaintBorderImage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void piecesFollowTheNinePieceAlgorithm()
    {
        // A 90×90 image sliced at 30 around a 310×230 area with 30 px borders.
        BorderImage bi;
        for (auto &s : bi.slice)
            s = {BorderImageLength::Unit::Number, 30};
        const QRectF area(0, 0, 310, 230);
        const QMarginsF borders(30, 30, 30, 30);
        auto pieces = borderImagePieces(bi, area, borders, QSizeF(90, 90), true);
        QCOMPARE(pieces.size(), size_t(8)); // no middle without `fill`
        QCOMPARE(pieces[1].slice, QRectF(30, 0, 30, 30));
        QCOMPARE(pieces[1].region, QRectF(30, 0, 250, 30));
        QCOMPARE(pieces[1].tiles, std::vector<QRectF>{QRectF(30, 0, 250, 30)}); // stretched

        // round: a whole number of copies resized to fit; repeat: copies of the scaled
        // size, one centred; space: whole copies with the rest shared out around them.
        bi.repeatX = BorderImageRepeat::Round;
        bi.repeatY = BorderImageRepeat::Space;
        bi.fill = true;
        pieces = borderImagePieces(bi, area, borders, QSizeF(90, 90), true);
        QCOMPARE(pieces.size(), size_t(9));
        QCOMPARE(pieces[1].tiles.size(), size_t(8)); // round(250 / 30)
        QCOMPARE(pieces[1].tiles[1], QRectF(30 + 31.25, 0, 31.25, 30));
        QVERIFY(!pieces[1].spaced);
        const BorderImagePiece &left = pieces[3];
        QCOMPARE(left.region, QRectF(0, 30, 30, 170));
        QCOMPARE(left.tiles.size(), size_t(5)); // floor(170 / 30), gaps of 20 / 6
        QVERIFY(std::abs(left.tiles[0].top() - (30 + 20.0 / 6)) < 1e-9);
        QVERIFY(left.spaced);
        QCOMPARE(pieces[4].tiles.size(), size_t(8 * 5)); // the middle: both rules
        bi.repeatX = BorderImageRepeat::Repeat;
        pieces = borderImagePieces(bi, area, borders, QSizeF(90, 90), true);
        QCOMPARE(pieces[1].tiles.front(), QRectF(30 + 110 - 120, 0, 30, 30)); // (250 - 30) / 2 from the left
        QCOMPARE(pieces[1].tiles.size(), size_t(9));

        // §6.3: widths that overlap are scaled down together; `auto` is the slice's size.
        BorderImage wide;
        wide.width = {BorderImageLength{BorderImageLength::Unit::Px, 80}, {BorderImageLength::Unit::Auto, 0},
                      BorderImageLength{BorderImageLength::Unit::Px, 80}, {BorderImageLength::Unit::Auto, 0}};
        for (auto &s : wide.slice)
            s = {BorderImageLength::Unit::Number, 30};
        pieces = borderImagePieces(wide, QRectF(0, 0, 100, 100), borders, QSizeF(90, 90), true);
        QCOMPARE(pieces.front().region, QRectF(0, 0, 30 * 100.0 / 160, 50)); // f = 100 / 160
        // A slice repeated more than 256 times along its edge is stretched.
        BorderImage tiny = bi;
        for (auto &s : tiny.slice)
            s = {BorderImageLength::Unit::Number, 1};
        tiny.repeatX = BorderImageRepeat::Repeat;
        pieces = borderImagePieces(tiny, QRectF(0, 0, 4000, 30), QMarginsF(1, 1, 1, 1), QSizeF(3, 3), true);
        QCOMPARE(pieces[1].tiles.size(), size_t(1));
        // A spaced middle (a command per copy) of 200 × 200 copies is stretched too.
        tiny.repeatX = tiny.repeatY = BorderImageRepeat::Space;
        tiny.fill = true;
        pieces = borderImagePieces(tiny, QRectF(0, 0, 202, 202), QMarginsF(1, 1, 1, 1), QSizeF(3, 3), true);
        QCOMPARE(pieces.size(), size_t(9));
        QCOMPARE(pieces[1].tiles.size(), size_t(200)); // an edge: 200 copies
        QCOMPARE(pieces[4].tiles, std::vector<QRectF>{QRectF(1, 1, 200, 200)});
    }

    void gradientBorderImageReplacesTheBorder()
    {
        // The gradient-border idiom: a transparent border painted by the gradient, whose
        // 1 px slices stretch. Before, the border stayed transparent.
        const QJsonArray child{box(50, {{"top", 50},
                                        {"width", 200},
                                        {"height", 100},
                                        {"border", "10px solid transparent"},
                                        {"borderImage", "linear-gradient(to right, #ff0000, #0000ff) 1"}})};
        for (const QString &engine : kEngines) {
            for (const OutputFormat format : {OutputFormat::Png, OutputFormat::Svg}) {
                const QImage image = renderAs(engine, format, 300, 200, child);
                QVERIFY2(!image.isNull(), qPrintable(engine));
                // Chromium: the left border is the gradient's first column, the right its
                // last, the top its first row; the inside stays white.
                const std::tuple<int, int, QRgb> spots[] = {{55, 110, qRgb(255, 0, 1)},
                                                            {264, 110, qRgb(0, 0, 254)},
                                                            {160, 55, qRgb(127, 0, 128)},
                                                            {160, 110, qRgb(255, 255, 255)},
                                                            {52, 52, qRgb(254, 0, 0)}};
                for (const auto &[x, y, rgb] : spots)
                    QVERIFY2(pixelNear(image, x, y, rgb),
                             qPrintable(engine + (format == OutputFormat::Svg ? " svg " : " png ") + describe(image, x, y)));
            }
        }
    }

    void imageSlicesAreRoundedRepeatedAndSpaced()
    {
        const QJsonArray boxes = frameCard();
        for (const QString &engine : kEngines) {
            for (const OutputFormat format : {OutputFormat::Png, OutputFormat::Svg}) {
                const QImage image = renderAs(engine, format, 920, 260, boxes);
                QVERIFY2(!image.isNull(), qPrintable(engine));
                const std::tuple<int, int, QRgb> spots[] = {
                    {30, 30, qRgb(239, 68, 68)}, // a corner: the red slice
                    {30, 235, qRgb(59, 130, 246)}, // the bottom left corner: blue
                    {85, 35, qRgb(236, 72, 153)}, // round: the first copy starts at the corner (pink)
                    {405, 35, qRgb(99, 102, 241)}, // repeat: copies centred, one starts 10 px left (indigo)
                    {315, 60, qRgb(20, 184, 166)}, // round down the right edge: 6 copies of 28.3 px
                    {675, 51, qRgb(255, 255, 255)}, // space: 3.3 px before the first copy
                    {675, 55, qRgb(249, 115, 22)},
                    {675, 85, qRgb(255, 255, 255)}, // and between copies
                    {675, 100, qRgb(20, 184, 166)},
                    {750, 120, qRgb(255, 255, 255)}, // no middle without `fill`
                };
                for (const auto &[x, y, rgb] : spots)
                    QVERIFY2(pixelNear(image, x, y, rgb, 12),
                             qPrintable(engine + (format == OutputFormat::Svg ? " svg " : " png ") + describe(image, x, y)));
            }
        }
    }

    void anImageThatDoesNotLoadLeavesTheBorderStyles()
    {
        // §6.1: without a drawable image the border styles are drawn.
        const QJsonArray child{box(50, {{"top", 50},
                                        {"width", 100},
                                        {"height", 100},
                                        {"border", "10px solid #00ff00"},
                                        {"borderImage", "url(data:image/png;base64,AAAA) 30"}})};
        for (const QString &engine : kEngines) {
            const QImage image = renderAs(engine, OutputFormat::Png, 300, 200, child);
            QVERIFY2(pixelNear(image, 55, 100, qRgb(0, 255, 0)), qPrintable(engine + ' ' + describe(image, 55, 100)));
        }
    }

    void slicesThinnerThanAPixelDrawNothing()
    {
        // A 3×3 image sliced at 1.2 px from the top and 1.6 px from the other sides: the
        // side pieces are 0.2 px tall in the image, no whole pixel. Before, the empty slice
        // reached the SVG writer as a gradient without a gradient and crashed it.
        QImage dot(3, 3, QImage::Format_ARGB32);
        dot.fill(qRgb(255, 0, 0));
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        dot.save(&buffer, "PNG");
        const QString url = QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
        const QJsonArray child{box(50, {{"top", 50},
                                        {"width", 100},
                                        {"height", 100},
                                        {"border", "10px solid transparent"},
                                        {"borderImage", QStringLiteral("url(%1) 1.2 1.6 1.6 1.6").arg(url)}})};
        for (const QString &engine : kEngines) {
            for (const OutputFormat format : {OutputFormat::Png, OutputFormat::Svg}) {
                const QImage image = renderAs(engine, format, 300, 200, child);
                QVERIFY2(!image.isNull(), qPrintable(engine));
                QVERIFY2(pixelNear(image, 55, 55, qRgb(255, 0, 0)), qPrintable(describe(image, 55, 55))); // a corner
                QVERIFY2(pixelNear(image, 55, 100, qRgb(255, 255, 255)), qPrintable(describe(image, 55, 100)));
            }
        }
    }

    void repeatedBackgroundsReachTheSvg()
    {
        // QSvgGenerator (the takumi engine's SVG) writes no texture brush: a repeated
        // background used to vanish from the SVG, and an elliptical radial gradient came out
        // circular. Both engines' SVG now draw what their PNG draws.
        const QJsonArray boxes{
            box(20, {{"top", 20}, {"width", 100}, {"height", 100},
                     {"backgroundImage", "linear-gradient(to right, #ff0000 50%, #0000ff 50%)"},
                     {"backgroundSize", "20px 20px"}}),
            box(150, {{"top", 20}, {"width", 200}, {"height", 60},
                      {"backgroundImage", "radial-gradient(#000000 49%, #ffffff 51%)"}})};
        for (const QString &engine : kEngines) {
            const QImage png = renderAs(engine, OutputFormat::Png, 400, 140, boxes);
            const QImage svg = renderAs(engine, OutputFormat::Svg, 400, 140, boxes);
            // Red and blue halves every 20 px; the ellipse is as wide as its 200 × 60 box, so
            // 25 px above its centre is outside it (white), though inside a circle as wide.
            for (const auto &[x, y] : {std::pair{25, 60}, {35, 60}, {105, 60}, {115, 60}, {250, 50}, {330, 50},
                                        {250, 25}}) {
                QVERIFY2(pixelNear(svg, x, y, png.pixel(x, y), 24),
                         qPrintable(engine + " svg " + describe(svg, x, y) + " png " + describe(png, x, y)));
            }
            QVERIFY2(pixelNear(png, 35, 60, qRgb(0, 0, 255)), qPrintable(describe(png, 35, 60)));
        }
    }
};

QTEST_MAIN(TestPaintBorderImage)
#include "tst_paint_border_image.moc"
