// Hostile input at the render pipeline: one test per finding of the hardening probe that
// the engine itself must hold (local file reads through SVG images and the html engine,
// the inputs that crashed or stalled it), plus the sanitiser's rules one by one. Each
// test failed before its fix; the positive controls show the fixes left real images
// drawing.

// The effect and layer budgets, deadlines and cancellation are in tst_hardening_budget.cpp;
// the helpers in hardening_test_support.h.

#include "tests/render/hardening_test_support.h"

class TestHardening : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_secret; // a solid red PNG on the server's disk

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_secret = m_dir.filePath("secret.png");
        QFile f(m_secret);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(pngOf(Qt::red));
    }

    // ------------------------------------------------ H1: SVG images read no files

    void svgImageDrawsNoLocalFile_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("src");
        const QString direct = dataUrl(svgReferencing(m_secret), "image/svg+xml");
        const QString fileUrl = dataUrl(svgReferencing("file://" + m_secret), "image/svg+xml");
        const QString nested = dataUrl(svgReferencing(direct), "image/svg+xml");
        const QString mislabelled = dataUrl(svgReferencing(m_secret), "image/png");
        const QString percent
            = "data:image/svg+xml,"
              + QString::fromLatin1(QUrl::toPercentEncoding(QString::fromUtf8(svgReferencing(m_secret))));
        const QString stylesheet = dataUrl(
            "<?xml-stylesheet href=\"" + m_secret.toUtf8() + "\"?>" + svgReferencing(m_secret), "image/svg+xml");
        for (const char *engine : {"takumi", "satori", "html"}) {
            QTest::addRow("%s path", engine) << engine << direct;
            QTest::addRow("%s file url", engine) << engine << fileUrl;
            QTest::addRow("%s nested svg", engine) << engine << nested;
            QTest::addRow("%s svg labelled png", engine) << engine << mislabelled;
            QTest::addRow("%s percent-encoded", engine) << engine << percent;
            QTest::addRow("%s xml-stylesheet", engine) << engine << stylesheet;
        }
    }
    void svgImageDrawsNoLocalFile()
    {
        QFETCH(QString, engine);
        QFETCH(QString, src);
        const auto result = renderPng(imgCard(src, engine));
        checkDrewNoRed(result);
    }

    void backgroundImageDrawsNoLocalFile_data()
    {
        addRasterEngineRows();
    }
    void backgroundImageDrawsNoLocalFile()
    {
        QFETCH(QString, engine);
        QJsonObject doc = imgCard(QString(), engine);
        const QString url = dataUrl(svgReferencing(m_secret), "image/svg+xml");
        doc["root"]
            = QJsonObject{{"type", "div"},
                          {"props", QJsonObject{{"style", QJsonObject{{"display", "flex"},
                                                                      {"width", 200},
                                                                      {"height", 200},
                                                                      {"backgroundColor", "#ffffff"},
                                                                      {"backgroundImage", "url(" + url + ")"}}}}}};
        const auto result = renderPng(doc);
        checkDrewNoRed(result);
    }

    void imageVariableTweakDrawsNoLocalFile()
    {
        // The API-key-only path: an image-type variable overridden by `tweaks`.
        QJsonObject doc = imgCard("{{avatar}}", "takumi");
        doc["variables"] = QJsonArray{
            QJsonObject{{"name", "avatar"}, {"type", "image"}, {"default", dataUrl(pngOf(Qt::blue), "image/png")}}};
        auto result = renderPng(doc);
        QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
        QVERIFY(countNear(decodePng(result->bytes), Qt::blue) > 1000); // the default draws
        result = renderPng(doc, {{"avatar", dataUrl(svgReferencing(m_secret), "image/svg+xml")}});
        checkDrewNoRed(result);
    }

    void svgImagesStillDraw_data()
    {
        addRasterEngineRows();
    }
    void svgImagesStillDraw()
    {
        // Positive control: gradients, <use>, a <style> sheet, an embedded PNG and a
        // nested SVG all survive sanitising.
        QFETCH(QString, engine);
        const QByteArray inner = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect "
                                 "width=\"10\" height=\"10\" fill=\"#ff00ff\"/></svg>";
        const QByteArray svg
            = "<?xml version=\"1.0\"?><!DOCTYPE svg><svg xmlns=\"http://www.w3.org/2000/svg\" "
              "xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
              "viewBox=\"0 0 100 100\" width=\"100\" height=\"100\"><defs><linearGradient id=\"g\"><stop offset=\"0\" "
              "stop-color=\"#0000ff\"/>"
              "<stop offset=\"1\" stop-color=\"#0000ff\"/></linearGradient></defs><style>.c{fill:url(#g)}</style>"
              "<rect class=\"c\" width=\"50\" height=\"50\"/>"
              "<image xlink:href=\""
              + dataUrl(pngOf(QColor(0, 160, 0)), "image/png").toLatin1()
              + "\" x=\"50\" y=\"0\" width=\"50\" height=\"50\"/>"
                "<rect id=\"r\" x=\"0\" y=\"50\" width=\"25\" height=\"50\" fill=\"#ff8000\"/><use xlink:href=\"#r\" "
                "x=\"25\"/>"
                "<image xlink:href=\""
              + dataUrl(inner, "image/svg+xml").toLatin1() + "\" x=\"50\" y=\"50\" width=\"50\" height=\"50\"/></svg>";
        const auto result = renderPng(imgCard(dataUrl(svg, "image/svg+xml"), engine));
        QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
        const QImage image = decodePng(result->bytes);
        QVERIFY(countNear(image, QColor(0, 0, 255)) > 2000); // gradient through a <style> rule
        QVERIFY(countNear(image, QColor(0, 160, 0)) > 2000); // embedded PNG
        QVERIFY(countNear(image, QColor(255, 128, 0)) > 2000); // the rect and its <use>
        QVERIFY(countNear(image, QColor(255, 0, 255)) > 2000); // nested SVG
    }

    // ------------------------------------------------ H2: the html engine reads no files

    void htmlEngineDrawsNoLocalFile_data()
    {
        QTest::addColumn<QString>("html");
        QTest::newRow("path") << QString("<img src=\"%1\" width=\"100\" height=\"100\">").arg(m_secret);
        QTest::newRow("file url") << QString("<img src=\"file://%1\" width=\"100\" height=\"100\">").arg(m_secret);
        QTest::newRow("table background")
            << QString("<table background=\"%1\" width=\"150\" height=\"150\"><tr><td>x</td></tr></table>")
                   .arg(m_secret);
        QTest::newRow("svg data url") << QString("<img src=\"%1\" width=\"100\" height=\"100\">")
                                             .arg(dataUrl(svgReferencing(m_secret), "image/svg+xml"));
    }
    void htmlEngineDrawsNoLocalFile()
    {
        QFETCH(QString, html);
        const QJsonObject doc{
            {"name", "probe"}, {"width", 200}, {"height", 200}, {"rendererType", "html"}, {"html", html}};
        const auto result = renderPng(doc);
        checkDrewNoRed(result);
    }

    void htmlEngineStillDrawsDataImages()
    {
        const QJsonObject doc{
            {"name", "probe"},
            {"width", 200},
            {"height", 200},
            {"rendererType", "html"},
            {"html",
             QString("<img src=\"%1\" width=\"100\" height=\"100\">").arg(dataUrl(pngOf(Qt::blue), "image/png"))}};
        const auto result = renderPng(doc);
        QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
        QVERIFY(countNear(decodePng(result->bytes), Qt::blue) > 5000);
    }

    // ------------------------------------------------ inputs that crashed or stalled

    void deepMarkupRefusedBeforeParsing()
    {
        // 100 000 nested <div>: libgumbo's memory grew quadratically to an abort after 44 s.
        const QJsonObject doc{
            {"name", "deep"}, {"width", 400}, {"height", 300}, {"markup", QString("<div>").repeated(100000)}};
        QElapsedTimer timer;
        timer.start();
        const auto rendered = renderPng(doc);
        QVERIFY(!rendered);
        QCOMPARE(rendered.error().codeName(), QString("too_many_nodes"));
        QCOMPARE(rendered.error().field, QString("markup"));
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    }

    void nestedTablesRefused_data()
    {
        QTest::addColumn<int>("levels");
        QTest::addColumn<QString>("why");
        QTest::newRow("20000 (segfaulted in Qt)") << 20000 << "elements";
        QTest::newRow("14 tables (2^n in Qt's layout)") << 14 << "tables";
    }
    void nestedTablesRefused()
    {
        QFETCH(int, levels);
        QFETCH(QString, why);
        const QJsonObject doc{{"name", "tables"},
                              {"width", 400},
                              {"height", 300},
                              {"rendererType", "html"},
                              {"html", QString("<table><tr><td>").repeated(levels) + "x"}};
        VERIFY_REFUSED(renderPng(doc), "render_budget_exceeded", "html", why);
    }

    void deepTreeInHtmlEngineStaysCheap()
    {
        // A JSON tree of 60 nested padded flex rows: serialised as 60 nested tables it
        // took minutes in Qt's rich text; past kMaxTableNesting it now stacks blocks.
        QJsonObject node{{"type", "div"},
                         {"props", QJsonObject{{"style", QJsonObject{{"padding", 4}}}, {"children", "x"}}}};
        for (int i = 0; i < 60; ++i) {
            node = QJsonObject{
                {"type", "div"},
                {"props",
                 QJsonObject{{"style", QJsonObject{{"display", "flex"}, {"padding", 4}, {"border", "1px solid red"}}},
                             {"children", QJsonArray{node, QJsonObject{{"type", "div"},
                                                                       {"props", QJsonObject{{"children", "y"}}}}}}}}};
        }
        const QJsonObject doc{
            {"name", "tree"}, {"width", 800}, {"height", 600}, {"rendererType", "html"}, {"root", node}};
        const QString html = [&] {
            RenderRequest request;
            request.document = doc;
            auto laid = layOut(request, imprint::test::renderContext());
            return laid ? treeToHtml(*laid->root) : QString();
        }();
        QVERIFY(!html.isEmpty());
        QVERIFY2(html.count("<table") <= 60, qPrintable(QString::number(html.count("<table"))));
        rendersWithin(doc, 5000);
    }

    void shadowFloodRefused()
    {
        // 999 boxes × 20 text-shadow layers on a 4096² satori card peaked at 5.8 GB.
        QStringList layers;
        for (int i = 0; i < 20; ++i)
            layers << QString("%1px %1px 20px rgba(0,0,0,.5)").arg(i);
        QJsonArray kids;
        for (int i = 0; i < 999; ++i)
            kids.append(QJsonObject{
                {"type", "div"},
                {"props", QJsonObject{{"style", QJsonObject{{"fontSize", 40}, {"textShadow", layers.join(", ")}}},
                                      {"children", "Shadow text"}}}});
        const QJsonObject doc
            = imprint::test::engineCard("shadows", "satori", 4096, 4096, {{"flexWrap", "wrap"}}, kids);
        const auto rendered = renderPng(doc);
        checkRefused(rendered, "render_budget_exceeded", "effects");
    }

    void blurredAreaBounded()
    {
        // Few layers, but each as large as the canvas: the area bound, not the count.
        QStringList layers;
        for (int i = 0; i < 12; ++i)
            layers << QString("0 0 %1px #000").arg(10 + i);
        const QJsonObject doc
            = imprint::test::engineCard("area", "takumi", 1000, 1000, {{"boxShadow", layers.join(", ")}});
        const auto rendered = renderPng(doc);
        QVERIFY(!rendered);
        QCOMPARE(rendered.error().codeName(), QString("render_budget_exceeded"));
        QVERIFY2(rendered.error().message.contains("megapixels"), qPrintable(rendered.error().message));
    }

    void ordinaryShadowsStillRender()
    {
        const QJsonObject titleStyle{{"fontSize", 64},
                                     {"textShadow", "0 4px 12px rgba(0,0,0,.4), 0 0 2px #000"},
                                     {"boxShadow", "0 10px 30px rgba(0,0,0,.3)"}};
        const QJsonObject title{
            {"type", "div"}, {"props", QJsonObject{{"style", titleStyle}, {"children", "A title with shadows"}}}};
        const QJsonObject doc = imprint::test::engineCard(
            "ok", "satori", 1200, 630, {{"backgroundColor", "#ffffff"}, {"padding", 60}}, QJsonArray{title});
        const auto rendered = renderPng(doc);
        QVERIFY2(rendered, qPrintable(imprint::test::failureOf(rendered).message));
    }

    // ------------------------------------------------ the sanitiser's rules

    void sanitizerRules_data()
    {
        QTest::addColumn<QByteArray>("svg");
        QTest::addColumn<QByteArray>("absent");
        const QByteArray open = "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                                "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"100\" height=\"100\">";
        QTest::newRow("xml-stylesheet") << "<?xml-stylesheet href=\"/etc/x.css\"?>" + open + "</svg>"
                                        << QByteArray("/etc/x.css");
        QTest::newRow("@import") << open + "<style>@import url(/etc/x.css); rect{fill:red}</style></svg>"
                                 << QByteArray("@import");
        QTest::newRow("url() to a file") << open + "<rect style=\"fill:url(/etc/x.svg#a)\"/></svg>"
                                         << QByteArray("/etc/x.svg");
        QTest::newRow("use of another file")
            << open + "<use xlink:href=\"/etc/x.svg#a\"/></svg>" << QByteArray("/etc/x.svg");
        QTest::newRow("xml:base") << open + "<g xml:base=\"file:///etc/\"/></svg>" << QByteArray("xml:base");
        QTest::newRow("script") << open + "<script>alert(1)</script></svg>" << QByteArray("alert");
        QTest::newRow("foreignObject") << open + "<foreignObject><img src=\"/etc/x.png\"/></foreignObject></svg>"
                                       << QByteArray("/etc/x.png");
        QTest::newRow("http image") << open + "<image href=\"http://169.254.169.254/x.png\"/></svg>"
                                    << QByteArray("169.254");
        QTest::newRow("fine dashes")
            << open + "<path stroke-width=\"40\" stroke-dasharray=\"2 2\" d=\"M0 0L100 100\"/></svg>"
            << QByteArray("2 2");
        QTest::newRow("fine dashes in style") << QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2000\" "
                                                            "height=\"2000\"><style>.a{stroke-dasharray:1,1}</style>"
                                                            "<path class=\"a\" d=\"M0 0L100 100\"/></svg>")
                                              << QByteArray("1,1");
        // Scripts a browser would run when it opens the stored asset (GET /api/v1/files/…).
        QTest::newRow("onload") << open + "<rect onload=\"alert(1)\" width=\"1\" height=\"1\"/></svg>"
                                << QByteArray("alert");
        QTest::newRow("onload on the root")
            << QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\" OnLoad=\"alert(1)\" width=\"9\"/>")
            << QByteArray("alert");
        QTest::newRow("onbegin") << open
                                        + "<rect width=\"1\" height=\"1\"><animate onbegin=\"alert(2)\" "
                                          "attributeName=\"x\" from=\"0\" to=\"1\" dur=\"1s\"/></rect></svg>"
                                 << QByteArray("alert");
        QTest::newRow("set href to javascript:")
            << open + "<a href=\"#r\"><set attributeName=\"href\" to=\"javascript:alert(3)\"/><rect id=\"r\"/></a></svg>"
            << QByteArray("javascript");
        QTest::newRow("animate xlink:href values")
            << open
                   + "<a xlink:href=\"#r\"><animate attributeName=\"xlink:href\" values=\"#r;#s\" dur=\"1s\"/>"
                     "<rect id=\"r\"/></a></svg>"
            << QByteArray("animate");
        QTest::newRow("javascript: with a tab in the scheme")
            << open + "<rect><animate attributeName=\"fill\" to=\"java&#9;script:alert(5)\"/></rect></svg>"
            << QByteArray("alert");
        QTest::newRow("values list with a script URL")
            << open + "<rect><animate attributeName=\"class\" values=\"a;JavaScript:alert(6)\"/></rect></svg>"
            << QByteArray("alert");
        QTest::newRow("animateMotion by") << open + "<rect><animateMotion by=\"vbscript:msgbox(7)\"/></rect></svg>"
                                          << QByteArray("msgbox");
        QTest::newRow("animateTransform of an event attribute")
            << open + "<rect><animateTransform attributeName=\"onclick\" to=\"alert(8)\"/></rect></svg>"
            << QByteArray("alert");
    }
    void sanitizerRules()
    {
        QFETCH(QByteArray, svg);
        QFETCH(QByteArray, absent);
        const auto clean = sanitizeSvg(svg);
        QVERIFY2(clean, qPrintable(clean ? QString() : clean.error()));
        QVERIFY2(!clean->contains(absent), clean->constData());
        QVERIFY(clean->contains("<svg"));
    }

    void sanitizerKeepsOrdinaryDashes()
    {
        const QByteArray svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\"><path "
                               "stroke-width=\"2\" stroke-dasharray=\"6 3\" d=\"M0 0L100 100\"/></svg>";
        const auto clean = sanitizeSvg(svg);
        QVERIFY(clean);
        QVERIFY2(clean->contains("stroke-dasharray=\"6 3\""), clean->constData());
    }

    /// A dash pattern too fine to draw dash by dash is drawn solid at its dash share's
    /// opacity, as Chromium's antialiasing averages it: half on, half off is half as bright
    /// (frameground's grid of 0.2-unit dashes came out twice as bright as in Chromium).
    void sanitizerDrawsTooFineDashesAtTheirShare()
    {
        const QByteArray open = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"40\" "
                                "viewBox=\"0 0 400 40\"><rect width=\"400\" height=\"40\"/>";
        const auto clean = sanitizeSvg(open + "<path d=\"M0 10.5H400\" stroke=\"#fff\" stroke-dasharray=\"0.2 0.2\"/>"
                                              "<path d=\"M0 30.5H400\" stroke=\"#fff\" stroke-opacity=\"0.5\" "
                                              "stroke-dasharray=\"0.1 0.3\"/></svg>");
        QVERIFY(clean);
        const auto css = sanitizeSvg(open + "<style>.a{stroke-dasharray:0.3,0.1}</style></svg>");
        QVERIFY(css);
        QVERIFY2(css->contains("stroke-dasharray:none;stroke-opacity:0.75"), css->constData());
        const QJsonObject card = imgCard(dataUrl(*clean, "image/svg+xml"), QStringLiteral("takumi"));
        QJsonObject root = card.value("root").toObject();
        QJsonObject props = root.value("props").toObject();
        QJsonObject img = props.value("children").toArray().at(0).toObject();
        QJsonObject imgProps = img.value("props").toObject();
        imgProps.insert("style", QJsonObject{{"width", 400}, {"height", 40}});
        img.insert("props", imgProps);
        props.insert("children", QJsonArray{img});
        root.insert("props", props);
        QJsonObject document = card;
        document.insert("width", 400);
        document.insert("root", root);
        const auto rendered = renderPng(document);
        QVERIFY(rendered);
        const QImage image = decodePng(rendered->bytes);
        // Summed over the 1 px line's rows, in the middle of the image: 255 × share.
        auto lineBrightness = [&](int y) {
            int sum = 0;
            for (int row = y - 2; row <= y + 2; ++row)
                sum += qRed(image.pixel(200, row));
            return sum;
        };
        QVERIFY2(std::abs(lineBrightness(10) - 128) <= 8, qPrintable(QString::number(lineBrightness(10))));
        QVERIFY2(std::abs(lineBrightness(30) - 32) <= 8, qPrintable(QString::number(lineBrightness(30))));
    }

    // Animation itself is harmless and kept: only the dangerous kinds go.
    void sanitizerKeepsOrdinaryAnimation()
    {
        const QByteArray svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\"><rect "
                               "width=\"10\" height=\"10\" opacity=\"0.5\"><animate attributeName=\"opacity\" "
                               "from=\"0\" to=\"1\" dur=\"1s\"/><set attributeName=\"fill\" to=\"red\"/></rect></svg>";
        const auto clean = sanitizeSvg(svg);
        QVERIFY(clean);
        QVERIFY2(clean->contains("<animate attributeName=\"opacity\""), clean->constData());
        QVERIFY2(clean->contains("<set attributeName=\"fill\""), clean->constData());
        QVERIFY2(clean->contains("opacity=\"0.5\""), clean->constData());
    }

    // An SVG an <image> draws is given the box's size (x4) so that it is drawn as vectors,
    // keeping its own viewBox, or making one from its size when it has none or a disabled
    // one (SVG 2 §8.2: "0 0 0 0" is no viewBox); without either it is left as it is.
    void sanitizerSizesNestedSvgImagesToTheirBox_data()
    {
        QTest::addColumn<QByteArray>("nested");
        QTest::addColumn<QByteArray>("root");
        const QByteArray ns = "<svg xmlns=\"http://www.w3.org/2000/svg\" ";
        QTest::newRow("viewBox") << ns + "viewBox=\"0 0 36 36\"><rect width=\"36\" height=\"36\"/></svg>"
                                 << QByteArray("width=\"200\" height=\"200\" viewBox=\"0 0 36 36\"");
        QTest::newRow("disabled viewBox") << ns + "viewBox=\"0 0 0 0\" width=\"20\" height=\"20\"><rect/></svg>"
                                          << QByteArray("width=\"200\" height=\"200\" viewBox=\"0 0 20 20\"");
        QTest::newRow("no size") << ns + "width=\"2em\"><rect/></svg>" << QByteArray("width=\"2em\"");
    }
    void sanitizerSizesNestedSvgImagesToTheirBox()
    {
        QFETCH(QByteArray, nested);
        QFETCH(QByteArray, root);
        const QByteArray svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"50\" height=\"50\"><image width=\"50\" "
                               "height=\"50\" href=\"data:image/svg+xml;base64,"
                               + nested.toBase64() + "\"/></svg>";
        const auto clean = sanitizeSvg(svg);
        QVERIFY2(clean, qPrintable(clean ? QString() : clean.error()));
        const qsizetype at = clean->indexOf("base64,") + 7;
        const QByteArray inner = QByteArray::fromBase64(clean->mid(at, clean->indexOf('"', at) - at));
        QVERIFY2(inner.contains(root), inner.constData());
    }

    void sanitizerRefuses_data()
    {
        QTest::addColumn<QByteArray>("svg");
        QTest::addColumn<QString>("why");
        const QByteArray open = "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                                "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"100\" height=\"100\">";
        QByteArray laughs = open + "<g id=\"a0\"><rect width=\"1\" height=\"1\"/></g>";
        for (int i = 1; i < 10; ++i) {
            laughs += "<g id=\"a" + QByteArray::number(i) + "\">";
            for (int j = 0; j < 10; ++j)
                laughs += "<use xlink:href=\"#a" + QByteArray::number(i - 1) + "\"/>";
            laughs += "</g>";
        }
        QTest::newRow("exponential <use>") << laughs + "</svg>"
                                           << "expanded";
        QTest::newRow("<use> cycle") << open + "<g id=\"a\"><use xlink:href=\"#a\"/></g></svg>"
                                     << "references itself";
        QTest::newRow("not svg") << QByteArray("<html><body/></html>") << "not <svg>";
        QTest::newRow("malformed") << open + "<g></svg>"
                                   << "well-formed";
        QTest::newRow("svgz") << QByteArray("\x1f\x8b\x08\x00", 4) << "svgz";
        QTest::newRow("deep") << open + QByteArray("<g>").repeated(500) + QByteArray("</g>").repeated(500) + "</svg>"
                              << "deeper";
    }
    void sanitizerRefuses()
    {
        QFETCH(QByteArray, svg);
        QFETCH(QString, why);
        const auto clean = sanitizeSvg(svg);
        QVERIFY(!clean);
        const QString message = clean.error();
        QVERIFY2(message.contains(why), qPrintable(message));
    }

    void decoderSniffsFormatFromBytes()
    {
        const auto notImage = decodeImage("not an image at all");
        QVERIFY(!notImage);
        QVERIFY(notImage.error().contains("unsupported"));
        const QImage png = decodeImage(pngOf(Qt::green, QSize(7, 5))).value_or(QImage());
        QCOMPARE(png.size(), QSize(7, 5));
        QCOMPARE(png.format(), QImage::Format_ARGB32_Premultiplied);
        const auto path = decodeDataUrlImage(m_secret);
        QVERIFY(!path);
        QVERIFY2(path.error().startsWith("only data: URLs are loaded; a path"), qPrintable(path.error()));
        QVERIFY(!decodeDataUrlImage("file://" + m_secret));
        const auto remote = decodeDataUrlImage("https://example.com/a.png");
        QVERIFY(!remote);
        QVERIFY2(remote.error().contains("fetched by the server"), qPrintable(remote.error()));
        QVERIFY(!isEmbeddableRasterDataUrl(dataUrl(svgReferencing(m_secret), "image/png")));
        QVERIFY(isEmbeddableRasterDataUrl(dataUrl(pngOf(Qt::green), "image/svg+xml")));
    }
};

QTEST_MAIN(TestHardening)
#include "tst_hardening.moc"
