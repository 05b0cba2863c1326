// Hostile input at the render pipeline, bounded work: hostile effects drawn in bounded time
// or refused, the render budget counting every layer and decoded image, deadlines and
// cancellation, warnings bounded (split from tst_hardening.cpp; helpers in
// hardening_test_support.h).

#include "tests/render/hardening_test_support.h"
#include "server/render/encode/encode.h"

#include <QPainter>

class TestHardeningBudget : public QObject
{
    Q_OBJECT

private slots:
    // --- effects (issue 13): each hostile form is refused or drawn in bounded time -------

    void hostileEffectsStayCheap()
    {
        QFETCH(QString, engine);
        QFETCH(QJsonObject, style);
        QElapsedTimer timer;
        timer.start();
        const auto result = renderPng(effectCard(engine, style));
        // Either drawn or refused by the budget, never slow and never a crash.
        const RenderError error = imprint::test::failureOf(result);
        QVERIFY2(result || error.codeName() == QString("render_budget_exceeded"), qPrintable(error.message));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    }

    void hostileEffectsStayCheap_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QJsonObject>("style");
        const QJsonObject huge{{"width", 300},
                               {"height", 200},
                               {"backgroundColor", "red"},
                               {"filter", "blur(100000px) drop-shadow(0 0 900000px red)"},
                               {"backdropFilter", "blur(1000000px)"}};
        QStringList points;
        for (int i = 0; i < 4096; ++i)
            points << QString("%1% %2%").arg(50 + 50 * std::cos(i * 0.01)).arg(50 + 50 * std::sin(i * 0.013));
        const QJsonObject polygon{{"width", 300},
                                  {"height", 200},
                                  {"backgroundColor", "red"},
                                  {"clipPath", QString("polygon(%1)").arg(points.join(", "))}};
        QStringList blurs;
        for (int i = 0; i < 64; ++i)
            blurs << "blur(3px)";
        const QJsonObject longList{
            {"width", 300}, {"height", 200}, {"backgroundColor", "red"}, {"filter", blurs.join(' ')}};
        for (const char *engine : {"takumi", "satori"}) {
            QTest::newRow(qPrintable(QString("%1 huge blur").arg(engine))) << QString(engine) << huge;
            QTest::newRow(qPrintable(QString("%1 4096-point polygon").arg(engine))) << QString(engine) << polygon;
            QTest::newRow(qPrintable(QString("%1 64 blurs").arg(engine))) << QString(engine) << longList;
        }
    }

    void glassThumbnailsAreNotRefused_data()
    {
        addRasterEngineRows();
    }

    void glassThumbnailsAreNotRefused()
    {
        // A gallery of nine 320×180 glass thumbnails (backdropFilter: blur(8px)) at
        // 1200×630: each backdrop costs its own area, so the budget lets it through (it
        // used to count the whole canvas per backdrop and refused 33 megapixels).
        QJsonArray thumbnails;
        for (int i = 0; i < 9; ++i)
            thumbnails.append(QJsonObject{
                {"type", "div"},
                {"props", QJsonObject{{"style", QJsonObject{{"width", 320},
                                                             {"height", 180},
                                                             {"borderRadius", 16},
                                                             {"backgroundColor", "rgba(255,255,255,0.2)"},
                                                             {"backdropFilter", "blur(8px)"}}}}}});
        const QJsonObject root{
            {"type", "div"},
            {"props", QJsonObject{{"style", QJsonObject{{"width", "100%"},
                                                         {"height", "100%"},
                                                         {"flexWrap", "wrap"},
                                                         {"gap", 16},
                                                         {"padding", 16},
                                                         {"backgroundImage", "linear-gradient(135deg,#0ea5e9,#a855f7)"}}},
                                  {"children", thumbnails}}}};
        QFETCH(QString, engine);
        const QJsonObject doc{{"name", "glass"}, {"width", 1200}, {"height", 630}, {"rendererType", engine}, {"root", root}};
        const auto rendered = renderPng(doc);
        QVERIFY2(rendered, qPrintable(imprint::test::failureOf(rendered).message));
    }

    void deeplyNestedFiltersRefused()
    {
        QJsonObject node{{"type", "div"},
                         {"props", QJsonObject{{"style", QJsonObject{{"width", 10}, {"height", 10}}}}}};
        for (int i = 0; i < 40; ++i)
            node = QJsonObject{{"type", "div"},
                               {"props", QJsonObject{{"style", QJsonObject{{"filter", "blur(1px)"}, {"padding", 1}}},
                                                     {"children", QJsonArray{node}}}}};
        const QJsonObject doc{
            {"name", "nest"}, {"width", 400}, {"height", 400}, {"rendererType", "takumi"}, {"root", node}};
        VERIFY_REFUSED(renderPng(doc), "render_budget_exceeded", "effects", "nests effect layers");
    }

    // --- the render budget counts every layer (issue 34 item 4) -------------------------

    void nestedOpacityProbeRefused_data()
    {
        QTest::addColumn<int>("side");
        // At 4096 px the probe took 2.0 GiB before the deadline; at 2400 px 6.4 s, 1.2 GiB.
        QTest::newRow("4096") << 4096;
        QTest::newRow("2400") << 2400;
    }

    void nestedOpacityProbeRefused()
    {
        QFETCH(int, side);
        RenderRequest request;
        request.document = nestedOpacityCard("takumi", side, side, 63, 0.99, 0, false);
        const MeasuredRender m = measureRender(request);
        VERIFY_REFUSED(m.result, "render_budget_exceeded", "opacity", "MiB of offscreen layers");
        // Refused after layout, before any layer or the canvas is allocated.
        QVERIFY2(m.ms < 500, qPrintable(QString("%1 ms").arg(m.ms)));
        qInfo("%d px probe: refused in %lld ms, peak RSS +%.1f MiB", side, m.ms, m.peakGrowthMiB);
        if (m.peakGrowthMiB < 0)
            QSKIP("peak RSS not measurable here (/proc/self/clear_refs)");
        QVERIFY2(m.peakGrowthMiB < 48, qPrintable(QString("peak RSS grew %1 MiB").arg(m.peakGrowthMiB)));
    }

    void playerBoundsLayersAtAllocation()
    {
        // With the pre-paint bound lifted, the raster player still holds no more layers
        // than the same bound at the allocation: the groups past it take their opacity
        // per shape, and the probe draws in bounded memory instead of +1.4 GiB.
        RenderRequest request;
        request.document = nestedOpacityCard("takumi", 2400, 2400, 63, 0.99, 0, false);
        request.budget.layerBytesPerCanvas = 1e6;
        request.budget.maxLayerNesting = 1000;
        const MeasuredRender m = measureRender(request);
        QVERIFY2(m.result, qPrintable(imprint::test::failureOf(m.result).message));
        qInfo("2400 px probe, pre-paint bound lifted: drawn in %lld ms, peak RSS +%.1f MiB", m.ms, m.peakGrowthMiB);
        QVERIFY2(m.ms < 5000, qPrintable(QString("%1 ms").arg(m.ms)));
        if (m.peakGrowthMiB >= 0) // the canvas (22 MiB), 8 canvases + 64 MiB of layers, the PNG
            QVERIFY2(m.peakGrowthMiB < 400, qPrintable(QString("peak RSS grew %1 MiB").arg(m.peakGrowthMiB)));
    }

    void layerBytesBounded()
    {
        // 16 full-canvas groups nest well within the level limit, but 16 canvases of
        // layers is over 8 canvases + 64 MiB; 12 of them are not.
        RenderRequest request;
        request.document = nestedOpacityCard("takumi", 2000, 2000, 16, 0.9, 0, false);
        VERIFY_REFUSED(renderWith(request), "render_budget_exceeded", "opacity", "MiB of offscreen layers");
        // Nested groups shrink with their padding: the same depth over a smaller area fits.
        request.document = nestedOpacityCard("takumi", 2000, 2000, 16, 0.9, 60, false);
        const auto fits = renderWith(request);
        QVERIFY2(fits, qPrintable(imprint::test::failureOf(fits).message));
    }

    void layerNestingBounded()
    {
        // Small layers, but more of them open at once than any design nests.
        RenderRequest request;
        request.document = nestedOpacityCard("takumi", 300, 300, 40, 0.99, 2, false);
        VERIFY_REFUSED(renderWith(request), "render_budget_exceeded", "opacity", "40 deep; at most 32 levels");
    }

    void perspectiveLayersCount()
    {
        // A transform seen in perspective is painted flat into a layer and mapped onto an
        // image (QPainterPlayer::projectiveScope): two layers a level. Twenty nested tilts
        // are forty levels, refused before any is allocated, in both engines; four render.
        auto card = [](int depth) {
            QJsonObject node;
            for (int i = 0; i < depth; ++i) {
                QJsonObject style{{"display", "flex"}, {"width", 280}, {"height", 280},
                                  {"backgroundColor", "rgba(37, 99, 235, 0.2)"},
                                  {"transform", "perspective(400px) rotateX(8deg)"}};
                QJsonObject props{{"style", style}};
                if (!node.isEmpty())
                    props.insert("children", QJsonArray{node});
                node = QJsonObject{{"type", "div"}, {"props", props}};
            }
            return QJsonObject{{"width", 300}, {"height", 300}, {"root", node}};
        };
        // Inside one 3D rendering context (preserve-3d) a box's own matrix is affine
        // (translateZ) but what the painter applies, relative to its tilted parent, is not:
        // the budget counts what is drawn.
        auto chain = [](int depth) {
            QJsonObject node;
            for (int i = 0; i < depth; ++i) {
                QJsonObject style{{"display", "flex"}, {"width", 280}, {"height", 280},
                                  {"transformStyle", "preserve-3d"},
                                  {"transform", i == depth - 1 ? "rotateY(30deg)" : "translateZ(2px)"}};
                QJsonObject props{{"style", style}};
                if (!node.isEmpty())
                    props.insert("children", QJsonArray{node});
                node = QJsonObject{{"type", "div"}, {"props", props}};
            }
            QJsonObject root{{"type", "div"},
                             {"props", QJsonObject{{"style", QJsonObject{{"display", "flex"}, {"perspective", "400px"}}},
                                                   {"children", QJsonArray{node}}}}};
            return QJsonObject{{"width", 300}, {"height", 300}, {"root", root}};
        };
        for (const char *engine : {"takumi", "satori"}) {
            RenderRequest request;
            request.options.engine = imprint::test::engineOption(QString::fromLatin1(engine));
            request.document = card(20);
            VERIFY_REFUSED(renderWith(request), "render_budget_exceeded", "effects", "a transform seen in perspective");
            request.document = chain(24);
            VERIFY_REFUSED(renderWith(request), "render_budget_exceeded", "effects", "a transform seen in perspective");
            for (const QJsonObject &fine : {card(4), chain(4)}) {
                request.document = fine;
                const auto fits = renderWith(request);
                QVERIFY2(fits, qPrintable(imprint::test::failureOf(fits).message));
            }
        }
    }

    void transformedLayersCountOnTheDevice()
    {
        // 30 groups in a 200 px box are 4.6 MiB of layers; scaled 10 times they cover
        // the 1000² canvas, 114 MiB, over 8 × 3.8 + 64 MiB: the player sizes them on the
        // device, so the budget counts them there.
        auto card = [](const QString &transform) {
            QJsonObject doc = nestedOpacityCard("takumi", 1000, 1000, 30, 0.9, 0, false);
            QJsonObject root = doc["root"].toObject();
            QJsonObject props = root["props"].toObject();
            QJsonObject outer = props["children"].toArray()[0].toObject();
            QJsonObject outerProps = outer["props"].toObject();
            QJsonObject style = outerProps["style"].toObject();
            style.insert("flexGrow", 0);
            style.insert("width", 200);
            style.insert("height", 200);
            style.insert("transform", transform);
            outerProps.insert("style", style);
            outer.insert("props", outerProps);
            props.insert("children", QJsonArray{outer});
            root.insert("props", props);
            doc.insert("root", root);
            return doc;
        };
        RenderRequest request;
        request.document = card("none");
        const auto fits = renderWith(request);
        QVERIFY2(fits, qPrintable(imprint::test::failureOf(fits).message));
        request.document = card("scale(10)");
        VERIFY_REFUSED(renderWith(request), "render_budget_exceeded", "opacity", "MiB of offscreen layers");
    }

    void scaledLayersCountAtDevicePixels()
    {
        // 12 full-canvas groups on a 1000² card: 46 MiB, within 8 × 3.8 + 64 MiB. At
        // scale 3 the canvas is 3000² px and the layers 412 MiB, over 8 × 34 + 64 MiB.
        RenderRequest request;
        request.document = nestedOpacityCard("takumi", 1000, 1000, 12, 0.9, 0, false);
        const auto fits = renderWith(request);
        QVERIFY2(fits, qPrintable(imprint::test::failureOf(fits).message));
        request.options.scale = 3;
        VERIFY_REFUSED(renderWith(request), "render_budget_exceeded", "opacity", "3000×3000 px");
    }

    void moderateOpacityNestingRenders()
    {
        // 6 nested groups on an ordinary card: drawn, and drawn as groups (each level's
        // child composited into it before the level is, CSS Color 4 §3.2).
        constexpr double alpha = 0.8;
        RenderRequest request;
        request.document = nestedOpacityCard("takumi", 1200, 630, 6, alpha, 20, true);
        const MeasuredRender m = measureRender(request);
        QVERIFY2(m.result, qPrintable(imprint::test::failureOf(m.result).message));
        qInfo("6 nested groups at 1200×630: %lld ms, peak RSS +%.1f MiB", m.ms, m.peakGrowthMiB);
        const QImage image = decodePng(m.result->bytes);
        QCOMPARE(image.size(), QSize(1200, 630));
        auto level = [](int i) { return i % 2 ? QColor(0, 0, 255) : QColor(255, 255, 0); };
        auto mix = [](double a, const std::array<double, 3> &over, QColor under) {
            return std::array<double, 3>{a * over[0] + (1 - a) * under.red(), a * over[1] + (1 - a) * under.green(),
                                         a * over[2] + (1 - a) * under.blue()};
        };
        // Innermost level 6 is opaque within its group; each level composites its child
        // group over its own background, then the whole at alpha over white.
        std::array<double, 3> group{double(level(6).red()), double(level(6).green()), double(level(6).blue())};
        for (int i = 5; i >= 1; --i)
            group = mix(alpha, group, level(i));
        const std::array<double, 3> centre = mix(alpha, group, Qt::white);
        const QColor got = image.pixelColor(600, 315);
        QVERIFY2(std::abs(got.red() - centre[0]) <= 3 && std::abs(got.green() - centre[1]) <= 3
                     && std::abs(got.blue() - centre[2]) <= 3,
                 qPrintable(QString("centre %1,%2,%3, expected %4,%5,%6")
                                .arg(got.red())
                                .arg(got.green())
                                .arg(got.blue())
                                .arg(centre[0])
                                .arg(centre[1])
                                .arg(centre[2])));
        // The outermost ring: level 1 alone at alpha over white.
        const std::array<double, 3> ring = mix(alpha, {0, 0, 255}, Qt::white);
        const QColor edge = image.pixelColor(10, 315);
        QVERIFY2(std::abs(edge.red() - ring[0]) <= 3 && std::abs(edge.blue() - ring[2]) <= 3,
                 qPrintable(QString("edge %1,%2,%3").arg(edge.red()).arg(edge.green()).arg(edge.blue())));
    }

    void nestedOpacityInVectorOutputStaysSane_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("side");
        QTest::newRow("satori png 2400") << "satori" << int(OutputFormat::Png) << 2400;
        QTest::newRow("satori svg 4096") << "satori" << int(OutputFormat::Svg) << 4096;
        QTest::newRow("takumi svg 4096") << "takumi" << int(OutputFormat::Svg) << 4096;
    }

    void nestedOpacityInVectorOutputStaysSane()
    {
        // The SVG writers draw groups as <g opacity> (QtSvg 6.4 and QSvgGenerator take the
        // opacity per shape): no layers, so the probe is drawn, in bounded time and memory.
        QFETCH(QString, engine);
        QFETCH(int, format);
        QFETCH(int, side);
        RenderRequest request;
        request.document = nestedOpacityCard(engine, side, side, 63, 0.99, 0, false);
        request.options.format = OutputFormat(format);
        const MeasuredRender m = measureRender(request);
        QVERIFY2(m.result, qPrintable(imprint::test::failureOf(m.result).message));
        qInfo("%s: %lld ms, peak RSS +%.1f MiB", QTest::currentDataTag(), m.ms, m.peakGrowthMiB);
        QVERIFY2(m.ms < 5000, qPrintable(QString("%1 ms").arg(m.ms)));
        if (m.peakGrowthMiB >= 0) // the canvas (22 MiB at 2400 px) and its encoding, no layers
            QVERIFY2(m.peakGrowthMiB < 200, qPrintable(QString("peak RSS grew %1 MiB").arg(m.peakGrowthMiB)));
        // Under a filter the groups are painted offscreen by the raster player again: counted.
        QJsonObject doc = request.document;
        QJsonObject root = doc["root"].toObject();
        QJsonObject props = root["props"].toObject();
        QJsonObject style = props["style"].toObject();
        style.insert("filter", "grayscale(1)");
        props.insert("style", style);
        root.insert("props", props);
        doc.insert("root", root);
        request.document = doc;
        const auto rendered = renderWith(request);
        checkRefused(rendered, "render_budget_exceeded", "opacity");
    }

    void nestedRoundedClipsStayCheap_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("padding");
        for (const char *engine : {"satori", "takumi"}) {
            for (int padding : {0, 1}) {
                QTest::newRow(qPrintable(QString("%1 png padding %2").arg(engine).arg(padding)))
                    << QString(engine) << int(OutputFormat::Png) << padding;
                QTest::newRow(qPrintable(QString("%1 svg padding %2").arg(engine).arg(padding)))
                    << QString(engine) << int(OutputFormat::Svg) << padding;
            }
        }
    }

    void nestedRoundedClipsStayCheap()
    {
        // The re-probe of issue 34: 63 boxes with rounded corners and overflow: hidden, one
        // in another (every level clips its children), took satori 5 GiB and the whole
        // deadline at 24 levels and more: the SVG writer's list of rectangles known to lie
        // inside the clip doubled with every level. Now drawn at once, in little memory.
        QFETCH(QString, engine);
        QFETCH(int, format);
        QFETCH(int, padding);
        QJsonValue node = QStringLiteral("deep");
        for (int i = 63; i >= 1; --i) {
            const QJsonObject style{{"display", "flex"}, {"flexGrow", 1},          {"padding", padding},
                                    {"fontSize", 10},    {"borderRadius", 20 + i % 3}, {"overflow", "hidden"},
                                    {"backgroundColor", i % 2 ? "#0000ff" : "#ffff00"}};
            node = QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", style}, {"children", QJsonArray{node}}}}};
        }
        RenderRequest request;
        request.document = imprint::test::engineCard("clips", engine, 1200, 630, {{"backgroundColor", "#ffffff"}},
                                                     QJsonArray{node});
        request.options.format = OutputFormat(format);
        request.cancellation = RenderCancellation::withDeadline(3000);
        const MeasuredRender m = measureRender(request);
        QVERIFY2(m.result, qPrintable(imprint::test::failureOf(m.result).message));
        qInfo("%s: %lld ms, peak RSS +%.1f MiB", QTest::currentDataTag(), m.ms, m.peakGrowthMiB);
        QVERIFY2(m.ms < 3000, qPrintable(QString("%1 ms").arg(m.ms)));
        if (m.peakGrowthMiB >= 0)
            QVERIFY2(m.peakGrowthMiB < 200, qPrintable(QString("peak RSS grew %1 MiB").arg(m.peakGrowthMiB)));
    }

    void decodingHoldsOneCopyOfTheImage_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("png") << QString("png");
        QTest::newRow("jpeg") << QString("jpeg");
        QTest::newRow("webp") << QString("webp");
    }

    void decodingHoldsOneCopyOfTheImage()
    {
        // The budget counts a decoded image once (4 bytes a pixel; its base holds one image
        // at the decoder's limit, 8192 × 4096: 128 MiB). The re-probe of issue 34 saw the
        // decoder hold two: the reader's RGB32 or ARGB32 image and its premultiplied copy,
        // +256 MiB per render for one 98 KB upload. Converted in place, the peak is one.
        QFETCH(QString, format);
        QByteArray bytes;
        {
            QImage source(8192, 4096, QImage::Format_RGB32);
            source.fill(QColor(40, 90, 200));
            if (format == "webp") {
                bytes = encodeWebp(source, 90, true).value_or(QByteArray());
            } else {
                QBuffer buffer(&bytes);
                buffer.open(QIODevice::WriteOnly);
                source.save(&buffer, format == "png" ? "PNG" : "JPEG");
            }
        }
        QVERIFY(!bytes.isEmpty());
        if (!resetPeakRss())
            QSKIP("/proc/self/clear_refs is not writable here: the peak cannot be measured");
        const double before = peakRssMiB();
        const ImageResult decoded = decodeImage(bytes);
        QVERIFY2(decoded, qPrintable(decoded.error_or(QString())));
        QCOMPARE(decoded->size(), QSize(8192, 4096));
        QCOMPARE(decoded->format(), QImage::Format_ARGB32_Premultiplied);
        const double growth = peakRssMiB() - before;
        qInfo("%s: peak RSS +%.1f MiB for a 128 MiB image", qPrintable(format), growth);
        QVERIFY2(growth < 160, qPrintable(QString("peak RSS grew %1 MiB").arg(growth)));
    }

    void largeImageDrawnSmallCostsOneDecode_data()
    {
        QTest::addColumn<int>("scale");
        QTest::newRow("scale 1") << 1;
        QTest::newRow("scale 2") << 2;
    }

    void largeImageDrawnSmallCostsOneDecode()
    {
        // The re-probe of issue 34: an 8192 × 4096 upload (98 KB of PNG) drawn as a 400 ×
        // 200 picture cost the satori engine +212–227 MiB (here, from a data: URL, +260 MiB
        // against takumi's +134): its SVG embedded the whole image and QtSvg decoded it
        // again to rasterise the document.
        // Drawn far below its natural size it is now embedded at the pixels it covers.
        // Each engine gets an image of its own (two colours: the halves show the image is
        // drawn the right way round), so neither finds the other's decode in a cache.
        QFETCH(int, scale);
        const auto card = [](const QString &engine, QColor left) {
            QImage source(8192, 4096, QImage::Format_RGB32);
            source.fill(QColor(30, 60, 200));
            {
                QPainter p(&source);
                p.fillRect(0, 0, 4096, 4096, left);
            }
            QByteArray png;
            QBuffer buffer(&png);
            buffer.open(QIODevice::WriteOnly);
            source.save(&buffer, "PNG");
            const QJsonObject img{{"type", "img"},
                                  {"props", QJsonObject{{"src", dataUrl(png, "image/png")},
                                                        {"style", QJsonObject{{"width", 400}, {"height", 200}}}}}};
            return imprint::test::engineCard("large", engine, 1200, 630, {{"backgroundColor", "#ffffff"}},
                                             QJsonArray{img});
        };
        double growth[2] = {-1, -1};
        int i = 0;
        for (const QString &engine : {QStringLiteral("takumi"), QStringLiteral("satori")}) {
            RenderRequest request;
            request.document = card(engine, i ? QColor(220, 40, 40) : QColor(40, 160, 60));
            request.options.scale = scale;
            const MeasuredRender m = measureRender(request);
            QVERIFY2(m.result, qPrintable(imprint::test::failureOf(m.result).message));
            const QImage out = decodePng(m.result->bytes);
            QCOMPARE(out.size(), QSize(1200, 630) * scale);
            const auto near = [&](QPoint at, QColor want) {
                const QColor c = out.pixelColor(at * scale);
                return std::abs(c.red() - want.red()) <= 2 && std::abs(c.green() - want.green()) <= 2
                       && std::abs(c.blue() - want.blue()) <= 2;
            };
            QVERIFY(near({100, 100}, i ? QColor(220, 40, 40) : QColor(40, 160, 60)));
            QVERIFY(near({300, 100}, QColor(30, 60, 200)));
            qInfo("%s: peak RSS +%.1f MiB", qPrintable(engine), m.peakGrowthMiB);
            growth[i++] = m.peakGrowthMiB;
        }
        if (growth[0] < 0 || growth[1] < 0)
            QSKIP("/proc/self/clear_refs is not writable here: the peak cannot be measured");
        QVERIFY2(growth[1] < growth[0] + 48,
                 qPrintable(QString("satori +%1 MiB, takumi +%2 MiB").arg(growth[1]).arg(growth[0])));
    }

    void decodedImagesBounded()
    {
        // A 400×300 card may decode 4 × 0.46 + 128 MiB: eight distinct 2048² images
        // (16 MiB each) fit, the ninth is refused before it is decoded, naming its src.
        QJsonArray kids;
        for (int i = 0; i < 9; ++i) {
            const QString src = dataUrl(pngOf(QColor(i * 20, 100, 200), QSize(2048, 2048)), "image/png");
            kids.append(QJsonObject{
                {"type", "img"},
                {"props", QJsonObject{{"src", src}, {"style", QJsonObject{{"width", 40}, {"height", 40}}}}}});
        }
        auto card = [](const QJsonArray &children) {
            return imprint::test::engineCard("images", "takumi", 400, 300, {{"flexWrap", "wrap"}}, children);
        };
        RenderRequest request;
        request.document = card(kids);
        const MeasuredRender m = measureRender(request);
        VERIFY_REFUSED(m.result, "render_budget_exceeded", "root.props.children[8].props.src", "2048×2048 px");
        qInfo("9 × 2048² images: refused in %lld ms, peak RSS +%.1f MiB", m.ms, m.peakGrowthMiB);
        // Eight of them render; the same image named many times is decoded once.
        kids.removeLast();
        for (int i = 0; i < 20; ++i)
            kids.append(kids[0]);
        request.document = card(kids);
        const auto rendered = renderWith(request);
        QVERIFY2(rendered, qPrintable(imprint::test::failureOf(rendered).message));
    }

    void decodedBackgroundsBounded_data()
    {
        QTest::addColumn<QString>("property");
        QTest::addColumn<QString>("sizeProperty");
        QTest::newRow("background") << QString("backgroundImage") << QString("backgroundSize");
        QTest::newRow("mask") << QString("maskImage") << QString("maskSize");
    }

    void decodedBackgroundsBounded()
    {
        // The painter decodes a background or mask image per box that shows it: 12 boxes
        // of a 2048² image are 192 MiB, over the bound of a 400×300 card; 4 are not.
        QFETCH(QString, property);
        QFETCH(QString, sizeProperty);
        const QString url = dataUrl(pngOf(Qt::darkGreen, QSize(2048, 2048)), "image/png");
        auto card = [&](int boxes) {
            QJsonArray kids;
            for (int i = 0; i < boxes; ++i)
                kids.append(QJsonObject{
                    {"type", "div"},
                    {"props", QJsonObject{{"style", QJsonObject{{"width", 40},
                                                                {"height", 40},
                                                                {"backgroundColor", "red"},
                                                                {property, QString("url(%1)").arg(url)},
                                                                {sizeProperty, "cover"}}}}}});
            return imprint::test::engineCard("backgrounds", "takumi", 400, 300, {{"flexWrap", "wrap"}}, kids);
        };
        RenderRequest request;
        request.document = card(12);
        VERIFY_REFUSED(renderWith(request), "render_budget_exceeded", property, property + " of element 0.8");
        request.document = card(4);
        const auto fits = renderWith(request);
        QVERIFY2(fits, qPrintable(imprint::test::failureOf(fits).message));
    }

    void varBombRendersWithAWarning()
    {
        QJsonObject style{
            {"--v0", "xxxxxxxxxxxxxxxx"}, {"width", "var(--v30, 100px)"}, {"height", 50}, {"backgroundColor", "red"}};
        for (int i = 1; i <= 30; ++i)
            style.insert(QString("--v%1").arg(i), QString("var(--v%1)var(--v%1)").arg(i - 1));
        QElapsedTimer timer;
        timer.start();
        const auto result = renderPng(effectCard("takumi", style));
        QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
        QVERIFY(timer.elapsed() < 3000);
        QVERIFY2(result->warnings.join('\n').contains("longer than"), qPrintable(result->warnings.join('\n')));
    }

    // The deadline is a render limit like the others: past it the render stops at its next
    // poll and is over budget, naming `deadline`; a cancel says why it stopped.
    void deadlineAndCancelStopTheRender_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::newRow("takumi") << "takumi";
        QTest::newRow("satori") << "satori";
        QTest::newRow("html") << "html";
    }
    void deadlineAndCancelStopTheRender()
    {
        QFETCH(QString, engine);
        const QJsonObject doc = imgCard(QStringLiteral("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' "
                                                       "width='10' height='10'/%3E"),
                                        engine);
        RenderRequest request;
        request.document = doc;
        auto rendered = renderWith(request);
        QVERIFY2(rendered, qPrintable(imprint::test::failureOf(rendered).message));

        request.cancellation = RenderCancellation::withDeadline(1);
        QThread::msleep(5);
        rendered = renderWith(request);
        QVERIFY(!rendered);
        QCOMPARE(rendered.error().code, RenderErrorCode::RenderBudgetExceeded);
        QCOMPARE(rendered.error().field, QStringLiteral("deadline"));
        QVERIFY(rendered.error().message.contains("1 ms"));

        request.cancellation = RenderCancellation::withDeadline(0);
        request.cancellation.cancel(RenderCancellation::Reason::ShuttingDown);
        request.cancellation.cancel(RenderCancellation::Reason::ClientGone); // the first reason wins
        rendered = renderWith(request);
        QVERIFY(!rendered);
        QCOMPARE(rendered.error().code, RenderErrorCode::RenderCancelled);
        QVERIFY(rendered.error().message.contains("shutting down"));
    }

    // A player that finds its render cancelled draws nothing more, and unwinds the states
    // it saved (the layer and transform pushed before the cancel are popped, no crash).
    void cancelledPaintDrawsNothing()
    {
        const QJsonObject doc{
            {"width", 100},
            {"height", 100},
            {"root", QJsonObject{{"type", "div"},
                                 {"props", QJsonObject{{"style", QJsonObject{{"width", 100},
                                                                             {"height", 100},
                                                                             {"opacity", 0.5},
                                                                             {"transform", "rotate(5deg)"},
                                                                             {"backgroundColor", "#f00"}}}}}}}};
        RenderRequest request;
        request.document = doc;
        auto laid = layOut(request, imprint::test::renderContext());
        QVERIFY2(laid, qPrintable(imprint::test::failureOf(laid).message));
        PaintResources resources = imprint::test::renderContext().paintResources();
        const QImage drawn = paintToImage(laid->layout, laid->size, resources);
        QVERIFY(qAlpha(drawn.pixel(50, 50)) > 0);
        const auto cancelled = RenderCancellation::withDeadline(0);
        cancelled.cancel(RenderCancellation::Reason::ClientGone);
        resources.cancellation = &cancelled;
        const QImage stopped = paintToImage(laid->layout, laid->size, resources);
        QCOMPARE(qAlpha(stopped.pixel(50, 50)), 0);
        QStringList warnings;
        const QByteArray svg = renderSvgDocument(laid->layout, laid->size, resources, {}, &warnings);
        QVERIFY(!svg.contains("#ff0000") && !svg.contains("#f00"));
        QCOMPARE(svg.count("<g"), svg.count("</g>"));
    }

    void fineDashesDrawnSolid()
    {
        // 198 bytes that rasterised for 12.7 s in QtSvg.
        const QByteArray svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2000\" height=\"2000\"><circle "
                               "cx=\"1000\" cy=\"1000\" r=\"700\" "
                               "fill=\"none\" stroke=\"#000\" stroke-width=\"600\" stroke-dasharray=\"5 5\"/></svg>";
        QJsonObject doc = imgCard(dataUrl(svg, "image/svg+xml"), "takumi");
        rendersWithin(doc, 1500);
    }

    void warningsBounded()
    {
        QJsonArray kids;
        const QString longValue = "url(data:image/png;base64," + QString("A").repeated(5000) + ")";
        for (int i = 0; i < 300; ++i)
            kids.append(QJsonObject{{"type", "div"},
                                    {"props", QJsonObject{{"style", QJsonObject{{"color", QString("nonsense%1").arg(i)},
                                                                                {"backgroundImage", longValue}}}}}});
        QJsonObject doc = imgCard(QString(), "takumi");
        doc["root"] = QJsonObject{
            {"type", "div"},
            {"props", QJsonObject{{"style", QJsonObject{{"display", "flex"}, {"width", 200}, {"height", 200}}},
                                  {"children", kids}}}};
        const auto result = renderPng(doc);
        QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
        QVERIFY2(result->warnings.size() <= 51, qPrintable(QString::number(result->warnings.size())));
        QVERIFY(result->warnings.last().contains("more warnings"));
        for (const QString &w : result->warnings)
            QVERIFY2(w.size() <= 240, qPrintable(w.left(100)));
    }
};

QTEST_MAIN(TestHardeningBudget)
#include "tst_hardening_budget.moc"
