// Raster painter: pixels at known spots of hand-made box trees (backgrounds, borders,
// radii, clipping, opacity, gradients, shadows, transforms, images); text and effects
// are in tst_paint_text_effects.cpp, the helpers in paint_test_support.h.

#include "tests/render/paint_test_support.h"

#include <QUuid>

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

    void newTextIsShapedOncePerRender_data()
    {
        QTest::addColumn<QString>("display");
        QTest::addColumn<int>("shapings");
        // A block paragraph stretched across a definite-width column needs no min- or
        // max-content width (flex step 7), and the painter shapes at exactly the width
        // layout measured: one shaping (it was four: 0, max-content, the width, and the
        // width + 0.01 px at paint time).
        QTest::newRow("block") << QStringLiteral("block") << 1;
        // A div is a flex container, its text a flex item of a row: shaped at max-content
        // for its flex base size, then placed at that width, not shaped again. Its
        // automatic minimum (min-content) is read only by a shrinking line (it was: three
        // shapings, four with the paint's).
        QTest::newRow("flex item") << QStringLiteral("flex") << 1;
    }

    void newTextIsShapedOncePerRender()
    {
        // An uncached page render brings text no render shaped before (a new title). A
        // miss of the shaping cache is a run shaped.
        QFETCH(QString, display);
        QFETCH(int, shapings);
        const QString title = QStringLiteral("Shaped once %1").arg(QUuid::createUuid().toString(QUuid::Id128).left(8));
        const QJsonObject text{{"type", "div"},
                               {"props", QJsonObject{{"style", QJsonObject{{"display", display}, {"fontSize", 40}}},
                                                     {"children", title}}}};
        const QJsonObject column{{"display", "flex"}, {"flexDirection", "column"}, {"width", "100%"},
                                 {"height", "100%"},  {"padding", 40},            {"backgroundColor", "#fff"}};
        const QJsonObject root{{"type", "div"},
                               {"props", QJsonObject{{"style", column}, {"children", QJsonArray{text}}}}};
        const QJsonObject card{{"width", 600}, {"height", 200}, {"root", root}};
        for (const char *engine : {"takumi", "satori"}) {
            RenderContext &context = imprint::test::renderContext();
            RenderRequest request;
            request.document = card;
            request.options.engine = imprint::test::engineOption(QString::fromLatin1(engine));
            const quint64 before = context.stats().textShaping.misses;
            const auto result = render(request, context);
            QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
            // The second engine finds the same runs (same style, text and widths) in the
            // thread's cache.
            QCOMPARE(context.stats().textShaping.misses - before, quint64(qstrcmp(engine, "takumi") == 0 ? shapings : 0));
            const QImage image = QImage::fromData(result->bytes);
            QVERIFY(!image.isNull());
            int ink = 0; // the title is drawn
            for (int y = 40; y < 100; ++y)
                for (int x = 40; x < 560; ++x)
                    ink += qGray(image.pixel(x, y)) < 128 ? 1 : 0;
            QVERIFY2(ink > 500, qPrintable(QString::number(ink)));
        }
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
        auto result = render(request, imprint::test::renderContext());
        QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
        QCOMPARE(result->size, QSize(164, 33));
        const QImage image = QImage::fromData(result->bytes);
        QCOMPARE(image.size(), QSize(164, 33));
        QCOMPARE(QColor(image.pixel(163, 32)), QColor("#16a34a")); // the background reaches the last pixel
        request.maxSize = QSize(100, 100);
        result = render(request, imprint::test::renderContext());
        QVERIFY(result);
        QCOMPARE(result->size.width(), 100);
        QVERIFY(result->size.height() > 33); // the text wraps in the narrower box
        request.maxSize = QSize(8192, 8192);
        request.options.width = 300; // a known width: the root fills it, the height follows the content
        result = render(request, imprint::test::renderContext());
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
        const auto result = render(request, imprint::test::renderContext());
        QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
        const QImage img = QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32);
        COMPARE_PIXELS(img, {{75, 25, QColor("#ffff00")}, // flex item, z 3, above the z 2 box
                             {150, 25, QColor("#ff0000")}, // z 2 above the later z 1 sibling
                             {250, 25, QColor("#0000ff")},
                             {25, 75, QColor("#00ff00")}}); // z -1 below in-flow content ...
        // ... and above the root's background only when the root is a stacking context;
        // otherwise it belongs to the page's and goes beneath the root's background.
        COMPARE_PIXELS(img, {{150, 75, QColor(rootIsStackingContext ? "#808080" : "#ffffff")},
                             {25, 25, QColor("#ff0000")}}); // in-flow content below positioned boxes
    }

    void backgroundFillsTheBorderBoxOnly()
    {
        Tree t;
        const QImage img = paint(box(t.element(filled(Qt::red)), QRectF(20, 20, 100, 50)));
        COMPARE_PIXELS(img, {{70, 45, QColor(Qt::red)}, {10, 10, QColor(Qt::transparent)},
                             {125, 45, QColor(Qt::transparent)}});
    }

    void bordersHaveTheirEdgeColours()
    {
        Tree t;
        ComputedStyle s = filled(Qt::white);
        setBorders(s, BorderStyle::Solid, 10,
                   {QColor(Qt::red), QColor(Qt::green), QColor(Qt::blue), QColor(Qt::black)});
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 200, 100), {}, 10));
        COMPARE_PIXELS(img, {{100, 4, QColor(Qt::red)}, {195, 50, QColor(Qt::green)}, {100, 95, QColor(Qt::blue)},
                             {4, 50, QColor(Qt::black)}, {100, 50, QColor(Qt::white)}});
    }

    void dashedBorderHasGaps()
    {
        Tree t;
        ComputedStyle s;
        const QColor black(Qt::black);
        setBorders(s, BorderStyle::Dashed, 4, {black, black, black, black});
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 200, 100), {}, 4));
        int ink = 0, gap = 0;
        for (int x = 10; x < 190; ++x)
            (qAlpha(img.pixel(x, 2)) > 200 ? ink : gap)++;
        QVERIFY2(ink > 40 && gap > 40, qPrintable(QStringLiteral("ink %1 gap %2").arg(ink).arg(gap)));
    }

    void dashedBorderDashesAsChromium()
    {
        // Blink's dash for a 5 px side: 10 px dashes, the gap stretched from 5 to 6.67 px
        // so that a 60 px side starts and ends with a whole dash (satori's own
        // "should support dashed border" card, 0.857 → 0.9998 SSIM against Chromium).
        const auto pattern = paint_detail::dashPattern(60, 5);
        QVERIFY(pattern);
        QCOMPARE(pattern->first, 10.0);
        QVERIFY2(qAbs(pattern->second - 20.0 / 3) < 1e-9, qPrintable(QString::number(pattern->second)));
        QVERIFY(!paint_detail::dashPattern(8, 3)); // no room for two dashes: solid
        QCOMPARE(paint_detail::dashPattern(100, 2)->first, 6.0); // thin: 3 widths on
        Tree t;
        ComputedStyle s;
        const QColor black(Qt::black);
        setBorders(s, BorderStyle::Dashed, 5, {black, black, black, black});
        const QImage img = paint(box(t.element(s), QRectF(0, 0, 60, 60), {}, 5));
        for (int x : {1, 8, 18, 25, 35, 42, 52, 58})
            QVERIFY2(qAlpha(img.pixel(x, 2)) > 200, qPrintable(QStringLiteral("no ink at x %1").arg(x)));
        for (int x : {13, 30, 46})
            QVERIFY2(qAlpha(img.pixel(x, 2)) < 50, qPrintable(QStringLiteral("ink in the gap at x %1").arg(x)));
        // The left side, drawn bottom to top, has the same dashes (symmetric pattern).
        QVERIFY(qAlpha(img.pixel(2, 21)) > 200);
        QVERIFY(qAlpha(img.pixel(2, 13)) < 50);
    }

    void radiusLeavesCornersTransparent()
    {
        const QImage img = paintRoundedBox(Qt::blue, 40, QRectF(0, 0, 200, 100));
        COMPARE_PIXELS(img, {{2, 2, QColor(Qt::transparent)}, {197, 97, QColor(Qt::transparent)},
                             {100, 2, QColor(Qt::blue)}, {40, 50, QColor(Qt::blue)}});
    }

    void overlappingRadiiAreScaledDown()
    {
        // 100 + 100 > 100 px high: all radii scale by 0.5 (CSS Backgrounds 3 §5.5), so the
        // box becomes a stadium, not a lens: the middle of the left edge is painted.
        const QImage img = paintRoundedBox(Qt::blue, 100, QRectF(0, 0, 200, 100));
        COMPARE_PIXELS(img, {{1, 50, QColor(Qt::blue)}, {100, 1, QColor(Qt::blue)}, {5, 5, QColor(Qt::transparent)}});
    }

    void overflowHiddenClipsChildren()
    {
        Tree t;
        ComputedStyle parent = filled(Qt::white);
        parent.overflow = Overflow::Hidden;
        LayoutBox child = box(t.element(filled(Qt::red)), QRectF(50, 50, 200, 200));
        const QImage img = paint(box(t.element(parent), QRectF(0, 0, 100, 100), {child}), QSize(300, 300));
        COMPARE_PIXELS(img, {{75, 75, QColor(Qt::red)}, {150, 150, QColor(Qt::transparent)}});
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

    void backgroundRepeatsAlongOneAxis_data()
    {
        imprint::test::addRasterEngineRows();
    }

    void backgroundRepeatsAlongOneAxis()
    {
        // CSS Backgrounds 3 §3.4: a 20 px tile in the top-left corner of the 100 px box
        // (50..150) repeats down its first column with repeat-y, along its first row with
        // repeat-x, and nowhere else.
        QFETCH(QString, engine);
        const QJsonObject tile{{"backgroundImage", "linear-gradient(#ff0000, #ff0000)"},
                               {"backgroundSize", "20px 20px"}};
        QJsonObject y = tile;
        y.insert("backgroundRepeat", "repeat-y");
        QImage img = renderCard(y, engine);
        COMPARE_PIXELS(img, {{60, 140, QColor(Qt::red)}, {100, 140, QColor(Qt::white)}, {140, 60, QColor(Qt::white)}});
        QJsonObject x = tile;
        x.insert("background", "linear-gradient(#ff0000, #ff0000) 0 0 / 20px 20px repeat-x");
        x.remove("backgroundImage");
        x.remove("backgroundSize");
        img = renderCard(x, engine);
        COMPARE_PIXELS(img, {{140, 60, QColor(Qt::red)}, {140, 100, QColor(Qt::white)}, {60, 140, QColor(Qt::white)}});
    }

    void svgBackgroundWithOnlyAViewBoxIsContained_data() { backgroundRepeatsAlongOneAxis_data(); }

    void svgBackgroundWithOnlyAViewBoxIsContained()
    {
        // An SVG with a viewBox but no width/height has a ratio and no natural size, so an
        // auto background-size sizes it as for contain (CSS Backgrounds 3 §3.9): the 10×10
        // viewBox fills the 50 px tall box's left 50×50, not a 10 px tile.
        QFETCH(QString, engine);
        const QByteArray svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'>"
                               "<rect width='10' height='10' fill='#ff0000'/></svg>";
        const QJsonObject style{{"height", 50},
                                {"backgroundImage", QStringLiteral("url(data:image/svg+xml;base64,%1)")
                                                        .arg(QString::fromLatin1(svg.toBase64()))},
                                {"backgroundRepeat", "no-repeat"}};
        const QImage img = renderCard(style, engine);
        COMPARE_PIXELS(img, {{90, 90, QColor(Qt::red)}, {60, 60, QColor(Qt::red)}, {120, 75, QColor(Qt::white)}});
    }

    void repeatingRadialGradientAgreesAcrossEngines()
    {
        // A repeating radial line that starts 10 px out from the centre repeats with a
        // 10 px period from there; SVG (the satori engine) has no focal radius, so its
        // stops are rotated onto a period that starts at the centre. Both engines agree.
        const QJsonObject style{{"backgroundImage", "repeating-radial-gradient(circle, #ff0000 10px, #0000ff 20px)"}};
        const QImage takumi = renderCard(style, QStringLiteral("takumi"));
        const QImage satori = renderCard(style, QStringLiteral("satori"));
        QCOMPARE(satori.size(), takumi.size());
        int worst = 0;
        for (int x = 100; x < 150; ++x) {
            const QRgb a = takumi.pixel(x, 100), b = satori.pixel(x, 100);
            worst = std::max({worst, std::abs(qRed(a) - qRed(b)), std::abs(qBlue(a) - qBlue(b))});
        }
        QVERIFY2(worst <= 24, qPrintable(QString::number(worst)));
        // 15 px out: halfway through the first period, between red and blue.
        QVERIFY2(qRed(satori.pixel(115, 100)) > 90 && qBlue(satori.pixel(115, 100)) > 90,
                 qPrintable(describe(satori.pixel(115, 100))));
    }

    // CSS Images 4 §3.1: `in <space>` mixes the stops in that space (Tailwind CSS v4's
    // gradients say `in oklab`). The midpoint of red → blue as Chromium 156 draws it.
    void gradientInterpolatesInItsColourSpace_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QColor>("chromium");
        for (const QString engine : {"takumi", "satori"}) {
            const auto row = [&](const char *method, QColor c) {
                QTest::addRow("%s %s", qPrintable(engine), method) << engine << QString::fromLatin1(method) << c;
            };
            row("in oklab", QColor(140, 83, 162));
            row("in oklch", QColor(185, 0, 194));
            row("in srgb-linear", QColor(187, 0, 187));
            row("in hsl longer hue", QColor(0, 255, 1));
            row("in srgb", QColor(127, 0, 127));
        }
    }
    void gradientInterpolatesInItsColourSpace()
    {
        QFETCH(QString, engine);
        QFETCH(QString, method);
        QFETCH(QColor, chromium);
        QStringList warnings;
        const QImage img = renderCard(
            {{"backgroundImage", QStringLiteral("linear-gradient(to right %1, #ff0000, #0000ff)").arg(method)}}, engine,
            {}, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        const QColor mid = img.pixelColor(100, 100);
        const int off = std::max({std::abs(mid.red() - chromium.red()), std::abs(mid.green() - chromium.green()),
                                  std::abs(mid.blue() - chromium.blue())});
        QVERIFY2(off <= 6, qPrintable(describe(mid.rgb()) + QStringLiteral(" vs Chromium ") + describe(chromium.rgb())));
        // The ends stay the stops' own colours.
        QVERIFY(qRed(img.pixel(51, 100)) > 240 && qBlue(img.pixel(148, 100)) > 240);
    }
    // An `img` whose SVG has a viewBox is drawn into its box as the SVG's
    // preserveAspectRatio says (the box is its viewport, CSS Images 3 §5.5): a 120×80
    // logo in a 240×80 box is centred, not stretched; `none` stretches, as in Chromium.
    void svgImagesKeepTheirAspectRatio_data()
    {
        imprint::test::addRasterEngineRows();
    }
    void svgImagesKeepTheirAspectRatio()
    {
        QFETCH(QString, engine);
        const auto draw = [&](const QString &aspect) {
            const QString svg = QStringLiteral("<svg xmlns='http://www.w3.org/2000/svg' width='120' height='80' "
                                               "viewBox='0 0 120 80'%1><rect width='120' height='80' fill='red'/></svg>")
                                    .arg(aspect);
            const QJsonObject img{
                {"type", "img"},
                {"props", QJsonObject{{"src", QStringLiteral("data:image/svg+xml;base64,") + QString::fromLatin1(svg.toUtf8().toBase64())},
                                      {"style", QJsonObject{{"width", 240}, {"height", 80}}}}}};
            return renderChildren(engine, 240, 80, QJsonArray{img});
        };
        const QImage meet = draw({});
        QVERIFY(!meet.isNull());
        QCOMPARE(meet.pixelColor(20, 40), QColor(Qt::white));
        QCOMPARE(meet.pixelColor(120, 40), QColor(Qt::red));
        QCOMPARE(meet.pixelColor(220, 40), QColor(Qt::white));
        const QImage stretched = draw(QStringLiteral(" preserveAspectRatio='none'"));
        QCOMPARE(stretched.pixelColor(20, 40), QColor(Qt::red));
        QCOMPARE(stretched.pixelColor(220, 40), QColor(Qt::red));
    }

    // CSS Flexbox 1 §5.4: flex items paint in order-modified document order, so of two
    // overlapping items the one with the higher `order` is on top whatever the source says.
    void flexItemsPaintInOrderModifiedDocumentOrder_data()
    {
        imprint::test::addRasterEngineRows();
    }
    void flexItemsPaintInOrderModifiedDocumentOrder()
    {
        QFETCH(QString, engine);
        const auto item = [](const char *colour, int order) {
            return QJsonObject{{"type", "div"},
                               {"props", QJsonObject{{"style", QJsonObject{{"width", 60},
                                                                           {"height", 40},
                                                                           {"marginRight", -30},
                                                                           {"backgroundColor", colour},
                                                                           {"order", order}}}}}};
        };
        const QImage img = renderChildren(engine, 200, 60, QJsonArray{item("#ff0000", 2), item("#0000ff", 1)});
        QVERIFY(!img.isNull());
        // Blue (order 1) is laid out first at 0–60, red (order 2) at 30–90 and drawn over it.
        QCOMPARE(img.pixelColor(10, 20), QColor(0, 0, 255));
        QCOMPARE(img.pixelColor(45, 20), QColor(255, 0, 0));
        QCOMPARE(img.pixelColor(80, 20), QColor(255, 0, 0));
    }

    // Backgrounds, borders and shadows are painted on whole device pixels, as Blink paints
    // box decorations (ToPixelSnappedRect: each edge rounded): a box laid out at y = 40.5
    // has crisp rows, where half-covered ones once blurred every centred card's edges.
    // Tailwind's `ring-2 ring-offset-2 shadow-lg`: two sharp spread rings over a soft
    // shadow in one list. The satori engine drew the whole list into one image coarsened
    // for the blur, which smeared the rings' edges; each ring row is solid, as in Chromium.
    void ringsStaySharpOverABlurredShadow_data()
    {
        imprint::test::addRasterEngineRows();
    }
    void ringsStaySharpOverABlurredShadow()
    {
        QFETCH(QString, engine);
        const QImage img = renderCard({{"backgroundColor", "#ffffff"},
                                       {"boxShadow", "0 0 0 2px #ffffff, 0 0 0 4px #4f46e5, 0 20px 25px -5px "
                                                     "rgba(0,0,0,0.3), 0 8px 10px -6px rgba(0,0,0,0.3)"}},
                                      engine, {{"backgroundColor", "#e5e7eb"}});
        // The box is 50..150: the white ring 48..49, the indigo one 46..47, above and left.
        const QColor white(Qt::white), indigo(0x4f, 0x46, 0xe5);
        COMPARE_PIXELS(img, {{100, 49, white}, {100, 48, white}, {100, 47, indigo}, {100, 46, indigo},
                             {49, 100, white}, {48, 100, white}, {47, 100, indigo}, {46, 100, indigo}});
    }

    // CSS Backgrounds 3 §4.2, as Chromium draws them: `double` is two lines of a third of
    // the width (rounded) with the space between, square or round; sides of their own
    // style keep it (`dashed solid`); a round dashed border has Blink's dashes (two widths
    // on, about one off), not three on and three off. All were drawn solid or 3/3 before.
    void borderStylesAsChromiumDrawsThem_data()
    {
        imprint::test::addRasterEngineRows();
    }
    void borderStylesAsChromiumDrawsThem()
    {
        QFETCH(QString, engine);
        const QColor ink(0x0f, 0x17, 0x2a), page(Qt::white);
        for (const int radius : {0, 24}) {
            const QImage img = renderCard({{"border", "12px double #0f172a"}, {"borderRadius", radius}}, engine);
            // Box 50..150: lines 50..53 and 146..149, space 54..57 (and 142..145).
            COMPARE_PIXELS(img, {{100, 51, ink}, {100, 53, ink}, {100, 55, page}, {100, 57, page}, {100, 58, ink},
                                 {100, 61, ink}, {100, 62, page}, {51, 100, ink}, {55, 100, page}, {59, 100, ink}});
        }
        auto runs = [](const QImage &img, bool row, int fixed, int from, int to) {
            std::vector<int> lengths; // lengths of the ink runs along the line
            int run = 0;
            for (int i = from; i < to; ++i) {
                const QRgb p = row ? img.pixel(i, fixed) : img.pixel(fixed, i);
                if (qRed(p) < 128) {
                    ++run;
                } else if (run) {
                    lengths.push_back(run);
                    run = 0;
                }
            }
            if (run)
                lengths.push_back(run);
            return lengths;
        };
        const QImage mixed
            = renderCard({{"borderStyle", "dashed solid"}, {"borderWidth", 6}, {"borderColor", "#000000"}}, engine);
        QVERIFY2(runs(mixed, true, 53, 50, 150).size() >= 4, "the top side is dashed"); // y 50..55
        QCOMPARE(runs(mixed, false, 53, 60, 140).size(), size_t(1)); // the left side is solid
        const QImage round = renderCard(
            {{"border", "6px dashed #000000"}, {"borderRadius", 16}, {"width", 240}, {"height", 190}}, engine);
        const std::vector<int> dashes = runs(round, true, 53, 90, 250); // along the straight top
        QVERIFY2(dashes.size() >= 6, qPrintable(QString::number(dashes.size())));
        for (size_t i = 1; i + 1 < dashes.size(); ++i) // whole dashes: 12 px
            QVERIFY2(std::abs(dashes[i] - 12) <= 1, qPrintable(QStringLiteral("dash %1 px").arg(dashes[i])));
    }

    // CSS Backgrounds 3 §3.7–3.8: each layer's box keywords, as the gradient-border idiom
    // writes them: a white layer clipped to the padding box over a gradient on the border
    // box, under a transparent border. The keywords were ignored, so the white layer
    // covered the border. Also the longhands, a colour clipped to the content box.
    void backgroundLayersKeepTheirBoxes_data()
    {
        imprint::test::addRasterEngineRows();
    }
    void backgroundLayersKeepTheirBoxes()
    {
        QFETCH(QString, engine);
        const QImage img = renderCard({{"border", "6px solid transparent"},
                                       {"background", "linear-gradient(#ffffff, #ffffff) padding-box, "
                                                      "linear-gradient(#ff0000, #ff0000) border-box"}},
                                      engine, {{"backgroundColor", "#000000"}});
        // Border box 50..162 (content-box sizing): the border ring is red, inside white.
        COMPARE_PIXELS(img, {{52, 100, Qt::red}, {158, 100, Qt::red}, {100, 52, Qt::red}, {100, 100, Qt::white},
                             {57, 100, Qt::white}, {48, 100, Qt::black}});
        const QImage longhands = renderCard({{"padding", 10},
                                             {"boxSizing", "border-box"},
                                             {"backgroundColor", "#00ff00"},
                                             {"backgroundClip", "content-box"}},
                                            engine, {{"backgroundColor", "#000000"}});
        COMPARE_PIXELS(longhands, {{55, 100, Qt::black}, {61, 100, Qt::green}, {100, 100, Qt::green}});
        const QImage origin = renderCard({{"padding", 20},
                                          {"boxSizing", "border-box"},
                                          {"backgroundImage", "linear-gradient(#0000ff, #0000ff)"},
                                          {"backgroundSize", "10px 10px"},
                                          {"backgroundRepeat", "no-repeat"},
                                          {"backgroundOrigin", "content-box"}},
                                         engine, {{"backgroundColor", "#000000"}});
        COMPARE_PIXELS(origin, {{55, 55, Qt::black}, {75, 75, Qt::blue}, {85, 85, Qt::black}});
    }

    // `rem` is 16 px whatever the template root's fontSize, as in Chromium (the root is a
    // box inside <html>), satori and takumi: satori's "multiple text shadows" test sets
    // fontSize 40 on its root and .25rem shadows. A 64 px root made `5rem` 320 px.
    void remIsSixteenPxWhateverTheRootFontSize()
    {
        const QJsonObject child{{"type", "div"},
                                {"props", QJsonObject{{"style", QJsonObject{{"width", "5rem"},
                                                                            {"height", "2rem"},
                                                                            {"backgroundColor", "#ff0000"}}}}}};
        const QImage img = renderChildren("takumi", 400, 200, {child}, {{"fontSize", 64}, {"alignItems", "flex-start"}});
        COMPARE_PIXELS(img, {{75, 10, Qt::red}, {85, 10, Qt::white}, {10, 28, Qt::red}, {10, 35, Qt::white}});
    }

    // CSS Compositing 1 §6: background layers blend with the layers and colour beneath
    // them (red × green = black), as an isolated group: over a blue page with no colour
    // of its own, a multiplied green layer stays green instead of mixing with the page.
    void backgroundBlendModeMixesTheLayers_data()
    {
        imprint::test::addRasterEngineRows();
    }
    void backgroundBlendModeMixesTheLayers()
    {
        QFETCH(QString, engine);
        QImage img = renderCard({{"backgroundColor", "#ff0000"},
                                 {"backgroundImage", "linear-gradient(#00ff00, #00ff00)"},
                                 {"backgroundBlendMode", "multiply"}},
                                engine);
        COMPARE_PIXEL(img, 100, 100, QColor(Qt::black));
        img = renderCard({{"backgroundImage", "linear-gradient(#00ff00, #00ff00)"}, {"backgroundBlendMode", "multiply"}},
                         engine, {{"backgroundColor", "#0000ff"}});
        COMPARE_PIXEL(img, 100, 100, QColor(Qt::green));
        COMPARE_PIXEL(img, 20, 20, QColor(Qt::blue));
    }

    // CSS Color 4 §3.2: a translucent box composites as one group even without children:
    // its shadow does not show through its own background (satori's "should be affected
    // by container opacity": Chromium's white box stays white over its black shadow).
    void translucentBoxHidesItsOwnShadow_data()
    {
        imprint::test::addRasterEngineRows();
    }
    void translucentBoxHidesItsOwnShadow()
    {
        QFETCH(QString, engine);
        const QImage img = renderCard(
            {{"backgroundColor", "#ffffff"}, {"opacity", 0.5}, {"boxShadow", "20px 20px 0 5px #000000"}}, engine,
            {{"backgroundColor", "#ffffff"}});
        COMPARE_PIXEL(img, 100, 100, QColor(Qt::white)); // over the shadow: the box's own white
        COMPARE_PIXEL(img, 160, 160, QColor(128, 128, 128)); // the shadow alone, at half opacity
    }

    void boxDecorationsSnapToWholePixels_data()
    {
        imprint::test::addRasterEngineRows();
    }
    void boxDecorationsSnapToWholePixels()
    {
        QFETCH(QString, engine);
        const QImage img = renderCard({{"top", 40.5},
                                       {"left", 50.5},
                                       {"height", 20},
                                       {"width", 60},
                                       {"backgroundColor", "#4f46e5"},
                                       {"boxShadow", "0 0 0 4px #a5b4fc"}},
                                      engine);
        const int x = 80;
        // The box's edges 40.5 and 60.5 round to 41 and 61; the 4 px ring lies outside them.
        const QColor box(0x4f, 0x46, 0xe5), ring(0xa5, 0xb4, 0xfc), page(Qt::white);
        const std::pair<int, QColor> column[] = {{36, page}, {37, ring}, {40, ring}, {41, box},
                                                 {60, box},  {61, ring}, {64, ring}, {65, page}};
        for (const auto &[y, colour] : column)
            QVERIFY2(img.pixelColor(x, y) == colour, qPrintable(QStringLiteral("row %1: ").arg(y) + describe(img.pixel(x, y))));
        // Across: 50.5 → 51, 110.5 → 111.
        const std::pair<int, QColor> row[] = {{46, page}, {47, ring}, {50, ring}, {51, box},
                                              {110, box}, {111, ring}, {114, ring}, {115, page}};
        for (const auto &[px, colour] : row)
            QVERIFY2(img.pixelColor(px, 50) == colour, qPrintable(QStringLiteral("column %1: ").arg(px) + describe(img.pixel(px, 50))));
    }

    // CSS Images 4 §3.5.4: stops are mixed premultiplied, so `red, transparent` fades red
    // out (Chromium's midpoint over white is 255/128/128) instead of passing through the
    // grey of transparent black (192/128/128), the glow of many cards. Expected colours are
    // the premultiplied mix over white at the pixel's centre; the satori engine draws its
    // SVG's stops, which SVG viewers mix per component.
    void gradientsMixStopsPremultiplied_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("gradient");
        QTest::addColumn<int>("x");
        QTest::addColumn<QColor>("expected");
        for (const QString engine : {"takumi", "satori"}) {
            const auto row = [&](const char *name, const char *gradient, int x, QColor c) {
                QTest::addRow("%s %s", qPrintable(engine), name) << engine << QString::fromLatin1(gradient) << x << c;
            };
            row("red to transparent", "linear-gradient(to right, red, transparent)", 100, QColor(255, 128, 128));
            row("transparent to blue", "linear-gradient(to right, transparent, #0000ff)", 75, QColor(191, 191, 255));
            row("transparent between red and blue, red side", "linear-gradient(to right, red, transparent, blue)", 75,
                QColor(255, 128, 128));
            row("transparent between red and blue, blue side", "linear-gradient(to right, red, transparent, blue)",
                125, QColor(128, 128, 255));
            row("two alphas", "linear-gradient(to right, rgba(255,0,0,0.8), rgba(0,0,255,0.2))", 100,
                QColor(229, 127, 153));
        }
    }
    void gradientsMixStopsPremultiplied()
    {
        QFETCH(QString, engine);
        QFETCH(QString, gradient);
        QFETCH(int, x);
        QFETCH(QColor, expected);
        QStringList warnings;
        const QImage img = renderCard({{"backgroundImage", gradient}}, engine, {}, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        const QColor got = img.pixelColor(x, 100);
        const int off = std::max({std::abs(got.red() - expected.red()), std::abs(got.green() - expected.green()),
                                  std::abs(got.blue() - expected.blue())});
        QVERIFY2(off <= 4, qPrintable(describe(got.rgb()) + QStringLiteral(" vs ") + describe(expected.rgb())));
    }

    void gradientWithAnUnknownSpaceIsRefusedByName()
    {
        QStringList warnings;
        renderCard({{"backgroundImage", "linear-gradient(in nowhere, red, blue)"}}, QStringLiteral("takumi"), {},
                   &warnings);
        QVERIFY2(warnings.join(u' ').contains(QLatin1String("unknown gradient colour space \"nowhere\"")),
                 qPrintable(warnings.join(u'\n')));
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
        COMPARE_PIXELS(img, {{100, 60, QColor(Qt::red)}, {60, 100, QColor(Qt::transparent)}});
        TransformOp move;
        move.kind = TransformOp::Kind::Translate;
        move.x = Length::percent(100);
        move.y = Length::px(0);
        s.transform = {move};
        Tree u;
        const QImage moved = paint(box(u.element(s), QRectF(0, 0, 50, 50)));
        COMPARE_PIXELS(moved, {{25, 25, QColor(Qt::transparent)}, {75, 25, QColor(Qt::red)}});
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
        COMPARE_PIXELS(out, {{50, 50, QColor(Qt::green)},
                             {3, 3, QColor(Qt::transparent)}}); // round
        // Cover scales 100×50 to 200×100 centred: x 0–100 shows source x 25–75, no red.
        COMPARE_PIXEL(out, 5, 50, QColor(Qt::green));
        // contain: letterboxed, the red strip visible at the left.
        s.objectFit = ObjectFit::Contain;
        setRadius(s, 0);
        Tree u;
        Node *img2 = u.element(s, QStringLiteral("img"));
        img2->image = source;
        const QImage contain = paint(box(img2, QRectF(0, 0, 100, 100)));
        COMPARE_PIXELS(contain, {{5, 50, QColor(Qt::red)}, {50, 10, QColor(Qt::transparent)}});
    }
};

QTEST_MAIN(TestPaint)
#include "tst_paint.moc"
