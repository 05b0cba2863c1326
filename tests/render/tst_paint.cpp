// Raster painter: pixels at known spots of hand-made box trees (backgrounds, borders,
// radii, clipping, opacity, gradients, shadows, transforms, images, text).

#include "server/render/backends/raster.h"
#include "server/render/paint/geometry.h"
#include "server/render/paint/recorder.h"
#include "server/render/pipeline.h"
#include "tests/support/pipeline_calls.h"
#include "server/render/text/text_engine.h"
#include "tests/support/render_context.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QtTest>

#include <thread>

using namespace imprint::render;

namespace {

/// Owns the nodes of a hand-made tree.
struct Tree {
    std::vector<std::unique_ptr<Node>> nodes;

    Node *element(ComputedStyle style = {}, const QString &tag = QStringLiteral("div"))
    {
        nodes.push_back(std::make_unique<Node>());
        Node *n = nodes.back().get();
        n->tag = tag;
        n->style = std::move(style);
        return n;
    }
    Node *text(const QString &characters, ComputedStyle style)
    {
        Node *n = element(std::move(style), QString());
        n->kind = Node::Kind::Text;
        n->text = characters;
        return n;
    }
};

LayoutBox box(const Node *node, QRectF rect, std::vector<LayoutBox> children = {}, qreal border = 0)
{
    LayoutBox b;
    b.node = node;
    b.borderBox = rect;
    b.border = QMarginsF(border, border, border, border);
    b.children = std::move(children);
    return b;
}

ComputedStyle filled(QColor color)
{
    ComputedStyle s;
    s.backgroundColor = color;
    return s;
}

void setRadius(ComputedStyle &s, float r)
{
    for (auto &c : s.borderRadius)
        c = {Length::px(r), Length::px(r)};
}

bool near(QRgb a, QColor b, int tolerance = 3)
{
    return qAbs(qRed(a) - b.red()) <= tolerance && qAbs(qGreen(a) - b.green()) <= tolerance
           && qAbs(qBlue(a) - b.blue()) <= tolerance && qAbs(qAlpha(a) - b.alpha()) <= tolerance;
}

QString describe(QRgb c)
{
    return QStringLiteral("rgba(%1,%2,%3,%4)").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c)).arg(qAlpha(c));
}

#define COMPARE_PIXEL(image, x, y, color) \
    QVERIFY2(near((image).pixel(x, y), color), \
             qPrintable(QStringLiteral("pixel (%1,%2) is %3, expected %4") \
                            .arg(x) \
                            .arg(y) \
                            .arg(describe((image).pixel(x, y)), describe(QColor(color).rgba()))))

QImage paint(const LayoutBox &root, QSize size = QSize(200, 200))
{
    return paintToImage(root, size, imprint::test::renderContext().paintResources())
        .convertToFormat(QImage::Format_ARGB32);
}

/// Renders a 200×200 card with a white background whose one child (absolutely placed at
/// 50,50, 100×100) has `style`, through the whole pipeline with `engine`, as an image.
QImage renderCard(const QJsonObject &childStyle, const QString &engine = QStringLiteral("takumi"),
                  const QJsonObject &rootStyle = {}, QStringList *warnings = nullptr)
{
    QJsonObject child = childStyle;
    for (auto [k, v] :
         {std::pair{"position", QJsonValue("absolute")}, {"left", 50}, {"top", 50}, {"width", 100}, {"height", 100}})
        if (!child.contains(QLatin1String(k)))
            child.insert(QLatin1String(k), v);
    QJsonObject root{{"width", 200}, {"height", 200}, {"backgroundColor", "#ffffff"}};
    for (auto it = rootStyle.begin(); it != rootStyle.end(); ++it)
        root.insert(it.key(), it.value());
    RenderRequest request;
    request.options.engine = imprint::test::engineOption(engine);
    request.document = QJsonObject{
        {"width", 200},
        {"height", 200},
        {"root",
         QJsonObject{
             {"type", "div"},
             {"props", QJsonObject{{"style", root},
                                   {"children", QJsonArray{QJsonObject{{"type", "div"},
                                                                       {"props", QJsonObject{{"style", child}}}}}}}}}}};
    RenderError error;
    const auto result = render(request, imprint::test::renderContext(), &error);
    if (!result)
        qWarning("render failed: %s", qPrintable(error.message));
    if (result && warnings)
        *warnings = result->warnings;
    return result ? QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32) : QImage();
}

/// Renders "MMMMM" in white on white (so only its decoration shows) at 40px DejaVu Sans in
/// a 240×80 card with `decoration` added to the text's style, through `engine`.
QImage renderDecoratedText(const QJsonObject &decoration, const QString &engine)
{
    QJsonObject style{{"width", 240},
                      {"height", 80},
                      {"backgroundColor", "#ffffff"},
                      {"color", "#ffffff"},
                      {"fontFamily", "DejaVu Sans"},
                      {"fontSize", 40},
                      {"paddingLeft", 10},
                      {"paddingTop", 10}};
    for (auto it = decoration.begin(); it != decoration.end(); ++it)
        style.insert(it.key(), it.value());
    RenderRequest request;
    request.options.engine = imprint::test::engineOption(engine);
    request.document = QJsonObject{
        {"width", 240},
        {"height", 80},
        {"root", QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", style}, {"children", "MMMMM"}}}}}};
    RenderError error;
    const auto result = render(request, imprint::test::renderContext(), &error);
    if (!result)
        qWarning("render failed: %s", qPrintable(error.message));
    return result ? QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32) : QImage();
}

bool isRed(QRgb p)
{
    return qRed(p) > 160 && qGreen(p) < 120 && qBlue(p) < 120;
}

/// Rows (y) with any red pixel, and for a column x, the red runs down it.
struct RedScan {
    int top = -1, bottom = -1; ///< first and last row holding red
    int bestRow = -1, bestCount = 0; ///< the row with the most red pixels
};

RedScan scanRed(const QImage &img)
{
    RedScan r;
    for (int y = 0; y < img.height(); ++y) {
        int n = 0;
        for (int x = 0; x < img.width(); ++x)
            n += isRed(img.pixel(x, y));
        if (n > 0) {
            if (r.top < 0)
                r.top = y;
            r.bottom = y;
        }
        if (n > r.bestCount) {
            r.bestCount = n;
            r.bestRow = y;
        }
    }
    return r;
}

/// Number of separate red runs along row y (x from 10 to the text's end).
int redRunsInRow(const QImage &img, int y)
{
    int runs = 0;
    bool in = false;
    for (int x = 0; x < img.width(); ++x) {
        const bool red = isRed(img.pixel(x, y));
        runs += red && !in;
        in = red;
    }
    return runs;
}

/// Number of separate red runs down column x.
int redRunsInColumn(const QImage &img, int x)
{
    int runs = 0;
    bool in = false;
    for (int y = 0; y < img.height(); ++y) {
        const bool red = isRed(img.pixel(x, y));
        runs += red && !in;
        in = red;
    }
    return runs;
}

} // namespace

class TestPaint : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void canvasesOfOneSizeNeverShareTheirPixels()
    {
        // Canvases reuse the pixel buffers of finished ones (paint/effects.cpp): a canvas
        // still held, here or on another thread, keeps its pixels while later canvases of
        // the same size are painted, and a reused buffer starts transparent.
        const QSize size(300, 200);
        auto fill = [size](QColor c) {
            return paintOnTransparentImage(size, [&](QPainter &p) { p.fillRect(QRect(QPoint(), size), c); });
        };
        QImage red = fill(Qt::red);
        {
            const QImage blue = fill(Qt::blue); // released at once: its buffer is free again
            QCOMPARE(blue.pixel(10, 10), qRgb(0, 0, 255));
        }
        QImage green = fill(Qt::green); // may get blue's buffer, never red's
        QImage onThread;
        std::thread([&] { onThread = fill(Qt::yellow); }).join();
        const QImage blank = paintOnTransparentImage(size, [](QPainter &) {});
        QCOMPARE(red.pixel(150, 100), qRgb(255, 0, 0));
        QCOMPARE(green.pixel(150, 100), qRgb(0, 255, 0));
        QCOMPARE(onThread.pixel(150, 100), qRgb(255, 255, 0));
        QCOMPARE(qAlpha(blank.pixel(150, 100)), 0);
        // Released on another thread than the one that painted them: back to the pool.
        std::thread([r = std::move(red), g = std::move(green)]() mutable {
            r = QImage();
            g = QImage();
        }).join();
        QCOMPARE(fill(Qt::white).pixel(0, 0), qRgb(255, 255, 255));
    }

    void contentSizedRootMakesAnImageOfItsSize()
    {
        // A badge without width/height: the image is the root's shrink-to-fit border box
        // (Chromium: 163.53 × 33 px for this one, tests/render/conformance/size-badge),
        // rounded up to whole pixels, and it stays inside the request's maximum.
        const QJsonObject badge{{"type", "div"},
                                {"props", QJsonObject{{"style", QJsonObject{{"padding", "6px 14px"},
                                                                            {"backgroundColor", "#16a34a"},
                                                                            {"color", "#fff"},
                                                                            {"fontFamily", "DejaVu Sans"},
                                                                            {"fontSize", 18},
                                                                            {"fontWeight", 700}}},
                                                      {"children", "build passing"}}}};
        RenderRequest request;
        request.document = badge;
        RenderError error;
        auto result = render(request, imprint::test::renderContext(), &error);
        QVERIFY2(result, qPrintable(error.message));
        QCOMPARE(result->size, QSize(164, 33));
        const QImage image = QImage::fromData(result->bytes);
        QCOMPARE(image.size(), QSize(164, 33));
        QCOMPARE(QColor(image.pixel(163, 32)), QColor("#16a34a")); // the background reaches the last pixel
        request.maxSize = QSize(100, 100);
        result = render(request, imprint::test::renderContext(), &error);
        QVERIFY(result);
        QCOMPARE(result->size.width(), 100);
        QVERIFY(result->size.height() > 33); // the text wraps in the narrower box
        request.maxSize = QSize(8192, 8192);
        request.options.width = 300; // a known width: the root fills it, the height follows the content
        result = render(request, imprint::test::renderContext(), &error);
        QVERIFY(result);
        QCOMPARE(result->size, QSize(300, 33));
    }

    void zIndexStacksSiblings_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<bool>("rootIsStackingContext");
        for (const char *engine : {"takumi", "satori"}) {
            QTest::addRow("%s", engine) << QString::fromLatin1(engine) << false;
            QTest::addRow("%s, root z-index 0", engine) << QString::fromLatin1(engine) << true;
        }
    }

    void zIndexStacksSiblings()
    {
        // CSS 2 Appendix E with z-index on positioned boxes and on a static flex item
        // (CSS Flexbox 1 §4.3); the expected pixels are Chromium's for the same markup
        // (our PNGs of both variants were identical to Chromium's screenshots).
        QFETCH(QString, engine);
        QFETCH(bool, rootIsStackingContext);
        const auto child = [](QJsonObject style) {
            return QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", style}}}};
        };
        const auto absolute = [&](int left, int top, int width, const char *color, int z) {
            return child({{"position", "absolute"},
                          {"left", left},
                          {"top", top},
                          {"width", width},
                          {"height", 50},
                          {"backgroundColor", color},
                          {"zIndex", z}});
        };
        const QJsonArray children{
            child({{"width", 50}, {"height", 100}, {"backgroundColor", "#00ff00"}}),
            child({{"width", 50}, {"height", 100}, {"backgroundColor", "#ffff00"}, {"zIndex", 3}}),
            absolute(0, 0, 200, "#ff0000", 2),
            absolute(100, 0, 200, "#0000ff", 1),
            absolute(0, 50, 300, "#808080", -1),
        };
        QJsonObject rootStyle{{"display", "flex"},
                              {"position", "relative"},
                              {"width", 300},
                              {"height", 100},
                              {"backgroundColor", "#ffffff"}};
        if (rootIsStackingContext)
            rootStyle.insert("zIndex", 0);
        RenderRequest request;
        request.document
            = QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", rootStyle}, {"children", children}}}};
        request.options.engine = imprint::test::engineOption(engine);
        request.options.format = OutputFormat::Png;
        RenderError error;
        const auto result = render(request, imprint::test::renderContext(), &error);
        QVERIFY2(result, qPrintable(error.message));
        const QImage img = QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32);
        COMPARE_PIXEL(img, 75, 25, QColor("#ffff00")); // flex item, z 3, above the z 2 box
        COMPARE_PIXEL(img, 150, 25, QColor("#ff0000")); // z 2 above the later z 1 sibling
        COMPARE_PIXEL(img, 250, 25, QColor("#0000ff"));
        COMPARE_PIXEL(img, 25, 75, QColor("#00ff00")); // z -1 below in-flow content ...
        // ... and above the root's background only when the root is a stacking context;
        // otherwise it belongs to the page's and goes beneath the root's background.
        COMPARE_PIXEL(img, 150, 75, QColor(rootIsStackingContext ? "#808080" : "#ffffff"));
        COMPARE_PIXEL(img, 25, 25, QColor("#ff0000")); // in-flow content below positioned boxes
    }

    void backgroundFillsTheBorderBoxOnly()
    {
        Tree t;
        const QImage img = paint(box(t.element(filled(Qt::red)), QRectF(20, 20, 100, 50)));
        COMPARE_PIXEL(img, 70, 45, QColor(Qt::red));
        COMPARE_PIXEL(img, 10, 10, QColor(Qt::transparent));
        COMPARE_PIXEL(img, 125, 45, QColor(Qt::transparent));
    }

    void bordersHaveTheirEdgeColours()
    {
        Tree t;
        ComputedStyle s = filled(Qt::white);
        s.borderStyle = {BorderStyle::Solid, BorderStyle::Solid, BorderStyle::Solid, BorderStyle::Solid};
        s.borderColor = {QColor(Qt::red), QColor(Qt::green), QColor(Qt::blue), QColor(Qt::black)};
        s.borderWidth = {10, 10, 10, 10};
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 200, 100), {}, 10));
        COMPARE_PIXEL(img, 100, 4, QColor(Qt::red));
        COMPARE_PIXEL(img, 195, 50, QColor(Qt::green));
        COMPARE_PIXEL(img, 100, 95, QColor(Qt::blue));
        COMPARE_PIXEL(img, 4, 50, QColor(Qt::black));
        COMPARE_PIXEL(img, 100, 50, QColor(Qt::white));
    }

    void dashedBorderHasGaps()
    {
        Tree t;
        ComputedStyle s;
        s.borderStyle = {BorderStyle::Dashed, BorderStyle::Dashed, BorderStyle::Dashed, BorderStyle::Dashed};
        s.borderColor = {QColor(Qt::black), QColor(Qt::black), QColor(Qt::black), QColor(Qt::black)};
        s.borderWidth = {4, 4, 4, 4};
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 200, 100), {}, 4));
        int ink = 0, gap = 0;
        for (int x = 10; x < 190; ++x)
            (qAlpha(img.pixel(x, 2)) > 200 ? ink : gap)++;
        QVERIFY2(ink > 40 && gap > 40, qPrintable(QStringLiteral("ink %1 gap %2").arg(ink).arg(gap)));
    }

    void radiusLeavesCornersTransparent()
    {
        Tree t;
        ComputedStyle s = filled(Qt::blue);
        setRadius(s, 40);
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 200, 100)));
        COMPARE_PIXEL(img, 2, 2, QColor(Qt::transparent));
        COMPARE_PIXEL(img, 197, 97, QColor(Qt::transparent));
        COMPARE_PIXEL(img, 100, 2, QColor(Qt::blue));
        COMPARE_PIXEL(img, 40, 50, QColor(Qt::blue));
    }

    void overlappingRadiiAreScaledDown()
    {
        // 100 + 100 > 100 px high: all radii scale by 0.5 (CSS Backgrounds 3 §5.5), so the
        // box becomes a stadium, not a lens: the middle of the left edge is painted.
        Tree t;
        ComputedStyle s = filled(Qt::blue);
        setRadius(s, 100);
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 200, 100)));
        COMPARE_PIXEL(img, 1, 50, QColor(Qt::blue));
        COMPARE_PIXEL(img, 100, 1, QColor(Qt::blue));
        COMPARE_PIXEL(img, 5, 5, QColor(Qt::transparent));
    }

    void overflowHiddenClipsChildren()
    {
        Tree t;
        ComputedStyle parent = filled(Qt::white);
        parent.overflow = Overflow::Hidden;
        LayoutBox child = box(t.element(filled(Qt::red)), QRectF(50, 50, 200, 200));
        const QImage img = paint(box(t.element(parent), QRectF(0, 0, 100, 100), {child}), QSize(300, 300));
        COMPARE_PIXEL(img, 75, 75, QColor(Qt::red));
        COMPARE_PIXEL(img, 150, 150, QColor(Qt::transparent));
        // Without overflow hidden the child shows.
        Tree u;
        LayoutBox child2 = box(u.element(filled(Qt::red)), QRectF(50, 50, 200, 200));
        const QImage open = paint(box(u.element(filled(Qt::white)), QRectF(0, 0, 100, 100), {child2}), QSize(300, 300));
        COMPARE_PIXEL(open, 150, 150, QColor(Qt::red));
    }

    void opacityCompositesTheGroup()
    {
        Tree t;
        ComputedStyle half = filled(Qt::white);
        half.opacity = 0.5f;
        // Two overlapping opaque children inside a half-transparent parent: as one group,
        // the overlap is no darker or lighter than the rest.
        LayoutBox a = box(t.element(filled(Qt::red)), QRectF(10, 10, 60, 60));
        LayoutBox b = box(t.element(filled(Qt::red)), QRectF(40, 40, 60, 60));
        LayoutBox root = box(t.element(filled(Qt::black)), QRectF(0, 0, 200, 200),
                             {box(t.element(half), QRectF(0, 0, 120, 120), {a, b})});
        const QImage img = paint(root);
        const QRgb overlap = img.pixel(50, 50), single = img.pixel(20, 20), parentOnly = img.pixel(110, 5);
        QVERIFY2(qAbs(qRed(overlap) - 128) <= 3, qPrintable(describe(overlap)));
        QCOMPARE(overlap, single);
        QVERIFY2(qAbs(qRed(parentOnly) - 128) <= 3 && qAbs(qGreen(parentOnly) - 128) <= 3,
                 qPrintable(describe(parentOnly)));
        COMPARE_PIXEL(img, 150, 150, QColor(Qt::black));
    }

    void linearGradientEndpoints()
    {
        Tree t;
        ComputedStyle s;
        Gradient g;
        g.angleDeg = 90; // to right
        g.stops = {{QColor(Qt::red), std::nullopt, std::nullopt}, {QColor(Qt::blue), std::nullopt, std::nullopt}};
        BackgroundLayer layer;
        layer.gradient = g;
        s.backgroundLayers = {layer};
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 200, 100)));
        QVERIFY(qRed(img.pixel(0, 50)) > 245 && qBlue(img.pixel(0, 50)) < 10);
        QVERIFY(qBlue(img.pixel(199, 50)) > 245 && qRed(img.pixel(199, 50)) < 10);
        QVERIFY(qAbs(qRed(img.pixel(100, 50)) - 128) < 6);
        // 180deg (the default, "to bottom"): top red, bottom blue.
        s.backgroundLayers[0].gradient->angleDeg = 180;
        Tree u;
        const QImage down = paint(box(u.element(s), QRectF(0, 0, 200, 100)));
        QVERIFY(qRed(down.pixel(100, 0)) > 245);
        QVERIFY(qBlue(down.pixel(100, 99)) > 245);
    }

    void cornerGradientHitsTheCorners()
    {
        // 135deg on a wide box: CSS Images 3 §3.1 makes the gradient line long enough that
        // the 0% and 100% colours land exactly in the top-left and bottom-right corners.
        Tree t;
        ComputedStyle s;
        Gradient g;
        g.angleDeg = 135;
        g.stops = {{QColor(Qt::red), 0.f, std::nullopt}, {QColor(Qt::blue), 1.f, std::nullopt}};
        BackgroundLayer layer;
        layer.gradient = g;
        s.backgroundLayers = {layer};
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 200, 100)));
        QVERIFY2(qRed(img.pixel(0, 0)) > 245, qPrintable(describe(img.pixel(0, 0))));
        QVERIFY2(qBlue(img.pixel(199, 99)) > 245, qPrintable(describe(img.pixel(199, 99))));
        // Top-right and bottom-left sit symmetrically about the 50 % point.
        QVERIFY(qAbs(qRed(img.pixel(199, 0)) + qRed(img.pixel(0, 99)) - 255) <= 6);
    }

    void radialGradientCentre()
    {
        Tree t;
        ComputedStyle s;
        Gradient g;
        g.kind = Gradient::Kind::Radial;
        g.circle = true;
        g.extent = Gradient::Extent::ClosestSide;
        g.stops = {{QColor(Qt::white), std::nullopt, std::nullopt}, {QColor(Qt::black), std::nullopt, std::nullopt}};
        BackgroundLayer layer;
        layer.gradient = g;
        s.backgroundLayers = {layer};
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 200, 200)));
        QVERIFY(qRed(img.pixel(100, 100)) > 245);
        QVERIFY(qRed(img.pixel(100, 1)) < 10);
        QVERIFY(qAbs(qRed(img.pixel(150, 100)) - 128) < 10);
    }

    void boxShadowDarkensBelowTheBox()
    {
        Tree t;
        ComputedStyle card = filled(Qt::white);
        card.boxShadow = {Shadow{0, 24, 60, 0, QColor(0, 0, 0, 140), false}};
        setRadius(card, 24);
        LayoutBox root = box(t.element(filled(Qt::white)), QRectF(0, 0, 400, 400),
                             {box(t.element(card), QRectF(100, 100, 200, 150))});
        QElapsedTimer timer;
        timer.start();
        const QImage img = paint(root, QSize(400, 400));
        const qint64 ms = timer.elapsed();
        const int below = qRed(img.pixel(200, 262)), far = qRed(img.pixel(200, 395)), side = qRed(img.pixel(90, 180));
        QVERIFY2(below < 215, qPrintable(describe(img.pixel(200, 262))));
        QVERIFY(side < 250);
        QVERIFY(far > 250);
        COMPARE_PIXEL(img, 200, 175, QColor(Qt::white));
        qInfo("60 px blur shadow painted in %lld ms", ms);
    }

    void insetShadowDarkensTheInsideEdge()
    {
        Tree t;
        ComputedStyle s = filled(Qt::white);
        s.boxShadow = {Shadow{0, 0, 10, 5, QColor(Qt::black), true}};
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 200, 200)));
        QVERIFY(qRed(img.pixel(1, 100)) < 100);
        COMPARE_PIXEL(img, 100, 100, QColor(Qt::white));
    }

    void transformsRotateAroundTheOrigin()
    {
        Tree t;
        ComputedStyle s = filled(Qt::red);
        TransformOp rotate;
        rotate.kind = TransformOp::Kind::Rotate;
        rotate.a = 90;
        s.transform = {rotate};
        // A 100×20 bar centred at (100,100) turned 90°: tall instead of wide.
        const QImage img = paint(box(t.element(s), QRectF(50, 90, 100, 20)));
        COMPARE_PIXEL(img, 100, 60, QColor(Qt::red));
        COMPARE_PIXEL(img, 60, 100, QColor(Qt::transparent));
        TransformOp move;
        move.kind = TransformOp::Kind::Translate;
        move.x = Length::percent(100);
        move.y = Length::px(0);
        s.transform = {move};
        Tree u;
        const QImage moved = paint(box(u.element(s), QRectF(0, 0, 50, 50)));
        COMPARE_PIXEL(moved, 25, 25, QColor(Qt::transparent));
        COMPARE_PIXEL(moved, 75, 25, QColor(Qt::red));
    }

    void imageObjectFitCoverWithRadius()
    {
        Tree t;
        QImage source(100, 50, QImage::Format_ARGB32);
        source.fill(Qt::green);
        for (int y = 0; y < 50; ++y)
            for (int x = 0; x < 20; ++x)
                source.setPixel(x, y, qRgb(255, 0, 0)); // red strip on the left, cropped by cover
        ComputedStyle s;
        s.objectFit = ObjectFit::Cover;
        setRadius(s, 50);
        Node *img = t.element(s, QStringLiteral("img"));
        img->image = source;
        const QImage out = paint(box(img, QRectF(0, 0, 100, 100)));
        COMPARE_PIXEL(out, 50, 50, QColor(Qt::green));
        COMPARE_PIXEL(out, 3, 3, QColor(Qt::transparent)); // round
        // Cover scales 100×50 to 200×100 centred: x 0–100 shows source x 25–75, no red.
        COMPARE_PIXEL(out, 5, 50, QColor(Qt::green));
        // contain: letterboxed, the red strip visible at the left.
        s.objectFit = ObjectFit::Contain;
        setRadius(s, 0);
        Tree u;
        Node *img2 = u.element(s, QStringLiteral("img"));
        img2->image = source;
        const QImage contain = paint(box(img2, QRectF(0, 0, 100, 100)));
        COMPARE_PIXEL(contain, 5, 50, QColor(Qt::red));
        COMPARE_PIXEL(contain, 50, 10, QColor(Qt::transparent));
    }

    void textIsDrawnInItsColourAndPositionedStacking()
    {
        Tree t;
        ComputedStyle ts;
        ts.fontFamily = {QStringLiteral("DejaVu Sans")};
        ts.fontSize = 40;
        ts.color = Qt::blue;
        Node *text = t.text(QStringLiteral("Hello"), ts);
        LayoutBox textBox = box(text, QRectF(10, 10, 150, 47));
        const QImage img = paint(box(t.element(filled(Qt::white)), QRectF(0, 0, 200, 100), {textBox}));
        int blue = 0;
        for (int y = 10; y < 57; ++y)
            for (int x = 10; x < 160; ++x)
                if (qBlue(img.pixel(x, y)) > 200 && qRed(img.pixel(x, y)) < 80)
                    ++blue;
        QVERIFY2(blue > 300, qPrintable(QString::number(blue)));
        COMPARE_PIXEL(img, 190, 90, QColor(Qt::white));

        // A positioned sibling paints after a later in-flow sibling (CSS 2 Appendix E).
        Tree u;
        ComputedStyle positioned = filled(Qt::red);
        positioned.position = Position::Absolute;
        LayoutBox first = box(u.element(positioned), QRectF(0, 0, 100, 100));
        LayoutBox second = box(u.element(filled(Qt::green)), QRectF(50, 50, 100, 100));
        const QImage order = paint(box(u.element(), QRectF(0, 0, 200, 200), {first, second}));
        COMPARE_PIXEL(order, 75, 75, QColor(Qt::red));
    }

    // --- text decoration (issue 13 part 3) --------------------------------------------------

    void textDecorationStyles_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::newRow("takumi") << "takumi";
        QTest::newRow("satori") << "satori";
    }

    // CSS Text Decoration 3 §2.3: solid is one unbroken line, dashed and dotted have gaps,
    // double is two lines, wavy spans more rows than its thickness; thickness sets the height.
    void textDecorationStyles()
    {
        QFETCH(QString, engine);
        const auto deco = [&](const char *style, const QJsonValue &thickness = QJsonValue()) {
            QJsonObject o{{"textDecorationLine", "underline"},
                          {"textDecorationStyle", style},
                          {"textDecorationColor", "#ff0000"}};
            if (!thickness.isUndefined())
                o.insert("textDecorationThickness", thickness);
            return renderDecoratedText(o, engine);
        };
        const QImage solid = deco("solid", 4);
        const RedScan s = scanRed(solid);
        QVERIFY2(s.bestCount > 100, qPrintable(QString::number(s.bestCount)));
        QCOMPARE(redRunsInRow(solid, s.bestRow), 1);
        QVERIFY2(s.bottom - s.top + 1 >= 3 && s.bottom - s.top + 1 <= 6,
                 qPrintable(QStringLiteral("%1..%2").arg(s.top).arg(s.bottom)));
        // The underline lies below the baseline: under the glyphs' 40px em, above the card's foot.
        QVERIFY2(s.top > 45 && s.bottom < 70, qPrintable(QString::number(s.top)));

        const QImage thick = deco("solid", 10);
        const RedScan t = scanRed(thick);
        QVERIFY2(t.bottom - t.top + 1 >= 9 && t.bottom - t.top + 1 <= 12,
                 qPrintable(QStringLiteral("%1..%2").arg(t.top).arg(t.bottom)));

        const QImage dashed = deco("dashed", 4);
        const RedScan d = scanRed(dashed);
        QVERIFY2(redRunsInRow(dashed, d.bestRow) >= 5, qPrintable(QString::number(redRunsInRow(dashed, d.bestRow))));
        QVERIFY(d.bestCount < s.bestCount * 0.7);

        const QImage dotted = deco("dotted", 4);
        const RedScan o = scanRed(dotted);
        QVERIFY2(redRunsInRow(dotted, o.bestRow) >= 10, qPrintable(QString::number(redRunsInRow(dotted, o.bestRow))));

        const QImage dbl = deco("double", 4);
        QCOMPARE(redRunsInColumn(dbl, 60), 2);
        QCOMPARE(redRunsInColumn(solid, 60), 1);

        const QImage wavy = deco("wavy", 2);
        const RedScan w = scanRed(wavy);
        QVERIFY2(w.bottom - w.top + 1 >= 6, qPrintable(QStringLiteral("%1..%2").arg(w.top).arg(w.bottom)));
        QVERIFY(w.bestCount < s.bestCount * 0.8); // the wave crosses each row only near its crests
    }

    // -webkit-text-stroke outlines the glyphs: with a transparent fill only the outline is
    // drawn, so the red lies on the glyph edges and a stem's middle stays white.
    void textStrokeOutlinesTheGlyphs()
    {
        QFETCH(QString, engine);
        const QImage stroked
            = renderDecoratedText(QJsonObject{{"color", "transparent"}, {"WebkitTextStroke", "2px #ff0000"}}, engine);
        QVERIFY(!stroked.isNull());
        const RedScan s = scanRed(stroked);
        QVERIFY2(s.bestCount > 20, qPrintable(QString::number(s.bestCount)));
        // An "M" stem is ~5px wide at 40px: each stem crossed by a row shows two edges.
        const int runs = redRunsInRow(stroked, 35);
        QVERIFY2(runs >= 10, qPrintable(QString::number(runs)));
        const QImage thin
            = renderDecoratedText(QJsonObject{{"color", "transparent"}, {"WebkitTextStroke", "0.5px #ff0000"}}, engine);
        QVERIFY(scanRed(thin).bestCount < s.bestCount);
        const QImage none = renderDecoratedText(QJsonObject{{"color", "transparent"}}, engine);
        QCOMPARE(scanRed(none).bestCount, 0);
    }
    void textStrokeOutlinesTheGlyphs_data() { textDecorationStyles_data(); }

    // --- effects (issue 13 part 4) -------------------------------------------------------

    void effectsRecordOneScope()
    {
        Tree t;
        ComputedStyle s = filled(Qt::red);
        s.effects.filter = {FilterOp{FilterOp::Kind::Blur, 4, {}}};
        s.effects.backdropFilter = {FilterOp{FilterOp::Kind::Brightness, 0.5f, {}}};
        s.opacity = 0.5f;
        LayoutBox root
            = box(t.element(filled(Qt::white)), QRectF(0, 0, 200, 200), {box(t.element(s), QRectF(50, 50, 100, 100))});
        const DisplayList list = recordDisplayList(root, imprint::test::renderContext().paintResources());
        // root background, backdrop, effect scope (opacity folded in, no PushLayer), fill, pop.
        QCOMPARE(list.size(), size_t(5));
        const auto *backdrop = std::get_if<display::BackdropFilter>(&list[1]);
        QVERIFY(backdrop);
        QCOMPARE(backdrop->rect, QRectF(50, 50, 100, 100));
        const auto *fx = std::get_if<display::PushEffects>(&list[2]);
        QVERIFY(fx);
        QCOMPARE(fx->opacity, 0.5);
        QCOMPARE(fx->bounds, QRectF(38, 38, 124, 124)); // grown by 3 sigma of the blur
        QVERIFY(std::holds_alternative<display::PopEffects>(list[4]));
    }

    void colourFilters_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::newRow("takumi") << "takumi";
        QTest::newRow("satori") << "satori";
    }

    void colourFilters()
    {
        QFETCH(QString, engine);
        // grayscale(1) of pure red is its luminance, 0.2126 × 255 (Filter Effects 1 §8).
        QImage img = renderCard({{"backgroundColor", "#ff0000"}, {"filter", "grayscale(1)"}}, engine);
        COMPARE_PIXEL(img, 100, 100, QColor(54, 54, 54));
        COMPARE_PIXEL(img, 20, 20, QColor(Qt::white));
        img = renderCard({{"backgroundColor", "#804020"}, {"filter", "invert(1) brightness(0.5)"}}, engine);
        COMPARE_PIXEL(img, 100, 100, QColor(63, 95, 111));
        // hue-rotate() is the §8 matrix, not an exact hue rotation: red turns a dark green.
        img = renderCard({{"backgroundColor", "#ff0000"}, {"filter", "hue-rotate(120deg)"}}, engine);
        COMPARE_PIXEL(img, 100, 100, QColor(0, 113, 0));
        img = renderCard({{"backgroundColor", "#000000"}, {"filter", "opacity(25%)"}}, engine);
        COMPARE_PIXEL(img, 100, 100, QColor(191, 191, 191));
    }

    void blurAndDropShadowSpreadBeyondTheBox()
    {
        QImage img = renderCard({{"backgroundColor", "#000000"}, {"filter", "blur(5px)"}});
        COMPARE_PIXEL(img, 100, 100, QColor(Qt::black));
        QVERIFY(qRed(img.pixel(50, 100)) > 100 && qRed(img.pixel(50, 100)) < 160); // the edge is half-covered
        QVERIFY(qRed(img.pixel(44, 100)) > 200 && qRed(img.pixel(44, 100)) < 255); // ink beyond the box
        img = renderCard({{"backgroundColor", "#ffffff"}, {"filter", "drop-shadow(10px 10px 0 #0000ff)"}});
        COMPARE_PIXEL(img, 155, 155, QColor(Qt::blue)); // beyond the box, inside the offset shadow
        COMPARE_PIXEL(img, 100, 100, QColor(Qt::white));
    }

    void clipPathShapes_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::newRow("takumi") << "takumi";
        QTest::newRow("satori") << "satori";
    }

    void clipPathShapes()
    {
        QFETCH(QString, engine);
        QImage img = renderCard({{"backgroundColor", "#ff0000"}, {"clipPath", "circle(50%)"}}, engine);
        COMPARE_PIXEL(img, 100, 100, QColor(Qt::red));
        COMPARE_PIXEL(img, 53, 53, QColor(Qt::white)); // a corner of the box, outside the circle
        COMPARE_PIXEL(img, 52, 100, QColor(Qt::red)); // the circle touches the box's sides
        img = renderCard({{"backgroundColor", "#ff0000"}, {"clipPath", "polygon(0 0, 100% 0, 0 100%)"}}, engine);
        COMPARE_PIXEL(img, 60, 60, QColor(Qt::red));
        COMPARE_PIXEL(img, 140, 140, QColor(Qt::white));
        img = renderCard({{"backgroundColor", "#ff0000"}, {"clipPath", "inset(20px 10% round 10px)"}}, engine);
        COMPARE_PIXEL(img, 100, 60, QColor(Qt::white));
        COMPARE_PIXEL(img, 100, 75, QColor(Qt::red));
        COMPARE_PIXEL(img, 62, 100, QColor(Qt::red));
        COMPARE_PIXEL(img, 58, 100, QColor(Qt::white));
        img = renderCard({{"backgroundColor", "#ff0000"}, {"clipPath", "path('M0 0 L100 0 L100 50 Z')"}}, engine);
        COMPARE_PIXEL(img, 140, 60, QColor(Qt::red));
        COMPARE_PIXEL(img, 60, 140, QColor(Qt::white));
    }

    void conicGradientQuarters_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::newRow("takumi") << "takumi";
        QTest::newRow("satori") << "satori";
    }

    void conicGradientQuarters()
    {
        QFETCH(QString, engine);
        // 0deg is up, angles run clockwise (CSS Images 4 §3.3).
        const QImage img = renderCard(
            {{"backgroundImage", "conic-gradient(red 0 25%, blue 25% 50%, lime 50% 75%, yellow 75% 100%)"}}, engine);
        COMPARE_PIXEL(img, 130, 70, QColor(Qt::red));
        COMPARE_PIXEL(img, 130, 130, QColor(Qt::blue));
        COMPARE_PIXEL(img, 70, 130, QColor(Qt::green));
        COMPARE_PIXEL(img, 70, 70, QColor(Qt::yellow));
        const QImage rotated = renderCard(
            {{"backgroundImage", "repeating-conic-gradient(from 90deg, red 0 45deg, blue 45deg 90deg)"}}, engine);
        COMPARE_PIXEL(rotated, 140, 110, QColor(Qt::red)); // just clockwise of 3 o'clock
        COMPARE_PIXEL(rotated, 110, 140, QColor(Qt::blue));
        COMPARE_PIXEL(rotated, 60, 90, QColor(Qt::red)); // the pattern repeats round the turn
    }

    void backdropBlendMaskAndClipText_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::newRow("takumi") << "takumi";
        QTest::newRow("satori") << "satori";
    }

    void backdropBlendMaskAndClipText()
    {
        QFETCH(QString, engine);
        const QJsonObject halves{{"backgroundImage", "linear-gradient(90deg, #000 50%, #fff 50%)"}};
        // backdrop-filter: the seam under the box is blurred, the one outside is not.
        QImage img = renderCard({{"backdropFilter", "blur(8px)"}}, engine, halves);
        QVERIFY2(qRed(img.pixel(100, 100)) > 90 && qRed(img.pixel(100, 100)) < 170,
                 qPrintable(describe(img.pixel(100, 100))));
        COMPARE_PIXEL(img, 98, 20, QColor(Qt::black));
        COMPARE_PIXEL(img, 102, 20, QColor(Qt::white));
        // mix-blend-mode: multiply over red keeps red where the box is white.
        img = renderCard({{"backgroundColor", "#8080ff"}, {"mixBlendMode", "multiply"}}, engine,
                         {{"backgroundColor", "#ff0000"}});
        COMPARE_PIXEL(img, 100, 100, QColor(128, 0, 0));
        COMPARE_PIXEL(img, 20, 20, QColor(Qt::red));
        // mask-image: the alpha of the gradient.
        img = renderCard({{"backgroundColor", "#000000"}, {"maskImage", "linear-gradient(black, transparent)"}},
                         engine);
        COMPARE_PIXEL(img, 100, 52, QColor(6, 6, 6)); // alpha 0.975 at the pixel's centre
        COMPARE_PIXEL(img, 100, 100, QColor(128, 128, 128));
        COMPARE_PIXEL(img, 100, 148, QColor(249, 249, 249));
    }

    void backgroundClipTextPaintsOnlyTheGlyphs()
    {
        RenderRequest request;
        request.document = QJsonObject{
            {"width", 200},
            {"height", 80},
            {"root", QJsonObject{{"type", "div"},
                                 {"props", QJsonObject{{"style", QJsonObject{{"width", 200},
                                                                             {"height", 80},
                                                                             {"fontFamily", "DejaVu Sans"},
                                                                             {"fontSize", 60},
                                                                             {"fontWeight", 700},
                                                                             {"color", "transparent"},
                                                                             {"backgroundColor", "#ff0000"},
                                                                             {"backgroundClip", "text"}}},
                                                       {"children", "II"}}}}}};
        RenderError error;
        const auto result = render(request, imprint::test::renderContext(), &error);
        QVERIFY2(result, qPrintable(error.message));
        const QImage img = QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32);
        int red = 0, clear = 0;
        for (int x = 0; x < 200; ++x) {
            const QRgb p = img.pixel(x, 40);
            red += qAlpha(p) > 200 && qRed(p) > 200;
            clear += qAlpha(p) == 0;
        }
        QVERIFY2(red > 10 && red < 80, qPrintable(QString::number(red))); // the stems of "II"
        QVERIFY2(clear > 100, qPrintable(QString::number(clear))); // not the box around them
    }

    void unsupportedEffectsRenderWithAWarning()
    {
        QStringList warnings;
        const QImage img = renderCard({{"backgroundColor", "#ff0000"},
                                       {"clipPath", "url(#shape)"},
                                       {"filter", "url(#f)"},
                                       {"mixBlendMode", "luminosity"},
                                       {"cursor", "pointer"}},
                                      "takumi", {}, &warnings);
        COMPARE_PIXEL(img, 100, 100, QColor(Qt::red));
        const QString all = warnings.join(u'\n');
        for (const char *name : {"clipPath", "filter", "mixBlendMode", "cursor"})
            QVERIFY2(all.contains(QLatin1String(".%1:").arg(QLatin1String(name))), qPrintable(all));
    }

    void takumiSvgOutputEmbedsEffects()
    {
        // Qt's SVG generator cannot blur or read back: the effect layer and the backdrop are
        // painted offscreen and written as images.
        const QJsonObject child{{"position", "absolute"},
                                {"left", 50},
                                {"top", 50},
                                {"width", 100},
                                {"height", 100},
                                {"backgroundColor", "#ff0000"},
                                {"filter", "blur(4px)"},
                                {"backdropFilter", "blur(6px)"}};
        RenderRequest request;
        request.options.engine = imprint::test::engineOption(QStringLiteral("takumi"));
        request.options.format = OutputFormat::Svg;
        request.document = QJsonObject{
            {"width", 200},
            {"height", 200},
            {"root",
             QJsonObject{
                 {"type", "div"},
                 {"props",
                  QJsonObject{{"style", QJsonObject{{"width", 200}, {"height", 200}, {"backgroundColor", "#0000ff"}}},
                              {"children",
                               QJsonArray{QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", child}}}}}}}}}}};
        RenderError error;
        const auto result = render(request, imprint::test::renderContext(), &error);
        QVERIFY2(result, qPrintable(error.message));
        QVERIFY(result->bytes.startsWith("<?xml") || result->bytes.contains("<svg"));
        QCOMPARE(result->bytes.count("<image"), qsizetype(2));
    }
};

QTEST_MAIN(TestPaint)
#include "tst_paint.moc"
