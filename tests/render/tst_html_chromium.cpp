// The html engine on headless Chromium (server/render/backends/chromium): the golden
// fixtures against Chromium's own references, CSS our layout engines lack, and the
// limits: no script by default, no requests but data: and http(s) images through the
// fetch hook (the server's remote image policy), a deadline that frees the page,
// a browser that is restarted after it dies, a bounded queue. One browser serves the
// whole suite (it starts in about a second; each render takes tens of ms).

#include "server/render/backends/chromium/chromium_browser.h"
#include "server/render/pipeline.h"
#include "tests/support/card_templates.h"
#include "tests/support/render_requests.h"
#include "server/render/resources/font_file.h"
#include "server/render/resources/image_decoder.h"
#include "server/render/text/font_set.h"
#include "tests/support/chromium_cards.h"
#include "tests/support/font_faces.h"
#include "tests/support/fixtures.h"
#include "tests/support/ssim.h"
#include "tests/support/images.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFuture>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtConcurrent>
#include <QTest>

#include <csignal>
#include <mutex>

using namespace imprint::render;
using namespace imprint::render::test;

namespace {

/// URLs the suite's fetch hook was asked for (it stands in for the server's remote image
/// fetcher): http://images.test/green.png is a 10 × 10 green PNG, anything else refused.
QStringList &fetchedUrls()
{
    static QStringList urls;
    return urls;
}
std::mutex fetchedUrlsMutex;

imprint::common::Expected<QByteArray, QString> testFetch(const QUrl &url, QDeadlineTimer)
{
    {
        std::lock_guard lock(fetchedUrlsMutex);
        fetchedUrls().append(url.toString());
    }
    if (url == QUrl(QStringLiteral("http://images.test/green.png"))) {
        return imprint::test::solidPng(QSize(10, 10), QColor(0, 255, 0));
    }
    return QStringLiteral("image_refused: not in the test's policy");
}

RenderContext &chromiumContext()
{
    static RenderContext context([] {
        RenderContextOptions o;
        o.htmlChromium = true;
        o.htmlAllowScript = true; // templates must still opt in
        o.chromium.pool = 2;
        o.chromium.queue = 1;
        o.chromium.fetch = testFetch;
        return o;
    }());
    return context;
}

imprint::test::RenderOutcome renderHtml(const QJsonObject &document, qint64 deadlineMs = 10000,
                                        OutputFormat format = OutputFormat::Png,
                                        std::shared_ptr<const FontSet> fonts = nullptr)
{
    RenderRequest request;
    request.fonts = std::move(fonts);
    request.document = document;
    request.options.engine = imprint::test::engineOption(QStringLiteral("html"));
    request.options.format = format;
    request.cancellation = RenderCancellation::withDeadline(deadlineMs);
    return render(request, chromiumContext());
}

QImage decode(const RenderResult &r)
{
    return QImage::fromData(r.bytes).convertToFormat(QImage::Format_ARGB32);
}

/// tests/http/fonts/Comfortaa-Regular.ttf registered as a space's "Brand" (as FontService
/// does on upload), or null with a failed QVERIFY.
std::shared_ptr<const FontSet> brandFontSet()
{
    const auto face = imprint::test::uploadedFace(QStringLiteral(IMPRINT_TEST_FONTS "/Comfortaa-Regular.ttf"),
                                                  QStringLiteral("Brand"));
    if (!face)
        return nullptr;
    auto set = std::make_shared<FontSet>();
    set->faces.append(*face);
    return set;
}

int differingPixels(const QImage &a, const QImage &b)
{
    int n = 0;
    for (int y = 0; y < std::min(a.height(), b.height()); ++y)
        for (int x = 0; x < std::min(a.width(), b.width()); ++x)
            n += a.pixel(x, y) != b.pixel(x, y) ? 1 : 0;
    return n;
}

QJsonObject htmlTemplate(const QString &html, int w = 200, int h = 100, bool script = false)
{
    return imprint::test::htmlCard(w, h, html, script);
}

/// The colour type byte of a PNG's IHDR (2 RGB, 3 palette, 6 RGBA), -1 if not a PNG.
int pngColourType(const QByteArray &png)
{
    return png.startsWith("\x89PNG\r\n\x1a\n") && png.size() > 25 ? int(quint8(png.at(25))) : -1;
}

/// A render of `document` with `engine` (any engine, the suite's browser for html).
imprint::test::RenderOutcome renderRequest(const QJsonObject &document, const QString &engine,
                                           const std::function<void(RenderRequest &)> &adjust = {})
{
    RenderRequest request;
    request.document = document;
    request.options.engine = imprint::test::engineOption(engine);
    request.cancellation = RenderCancellation::withDeadline(20000);
    if (adjust)
        adjust(request);
    return render(request, chromiumContext());
}

/// A 200 × 100 page: a blue 100 × 50 box at 20,10 on white with "Hi" in its middle, in
/// the element tree form every engine draws.
QJsonObject boxTree(const QString &engine)
{
    return QJsonObject{
        {"width", 200},
        {"height", 100},
        {"rendererType", engine},
        {"root",
         QJsonObject{
             {"type", "div"},
             {"props",
              QJsonObject{{"style", QJsonObject{{"width", 200},
                                                {"height", 100},
                                                {"backgroundColor", "#ffffff"},
                                                {"paddingLeft", 20},
                                                {"paddingTop", 10}}},
                          {"children", QJsonArray{QJsonObject{
                                           {"type", "div"},
                                           {"props", QJsonObject{{"style", QJsonObject{{"width", 100},
                                                                                       {"height", 50},
                                                                                       {"justifyContent", "center"},
                                                                                       {"alignItems", "center"},
                                                                                       {"color", "#ffffff"},
                                                                                       {"fontSize", 24},
                                                                                       {"backgroundColor", "#0000ff"}}},
                                                                 {"children", "Hi"}}}}}}}}}}};
}

} // namespace

class TestHtmlChromium : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(ChromiumBrowser::isInstalled(), "Chromium is not installed: run scripts/deps"); }

    void fixtures_data()
    {
        QTest::addColumn<QString>("name");
        for (const Golden &g : kGoldens)
            QTest::newRow(g.name) << QString::fromLatin1(g.name);
    }

    // It is Chromium: the references were made by this same browser (scripts/chromium-oracle).
    void fixtures()
    {
        QFETCH(QString, name);
        const auto r = renderHtml(fixtureTemplate(name));
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        const QImage rendered = decode(*r);
        const QImage reference(referencePng(name));
        QCOMPARE(rendered.size(), reference.size());
        const double ssim
            = meanSsim(lumaOverWhite(reference), lumaOverWhite(rendered), reference.width(), reference.height());
        qInfo("%s SSIM %.5f", qPrintable(name), ssim);
        QVERIFY2(ssim >= 0.99, qPrintable(QStringLiteral("%1: SSIM %2").arg(name).arg(ssim)));
    }

    // Issue 33, item 1: every template of docs/examples draws in the html engine (and in
    // takumi) as in satori, the root's size above all: a root with `100%` or with no height at
    // all fills the image (grid.json's root, no height, stopped at its content's 369 px
    // before: SSIM 0.67). satori is the reference; the badge, 240 × 40 with small text,
    // differs most in antialiasing (0.963 measured), the 1200 × 630 cards by 0.994–0.997.
    void docsExamplesMatchTheJsonEngines_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<double>("minSsim");
        for (const char *example : {"og-card", "rtl", "grid", "brand-card", "from-takumi", "from-vercel-og"})
            QTest::newRow(example) << QString::fromLatin1(example) << 0.99;
        QTest::newRow("badge") << QStringLiteral("badge") << 0.95;
    }
    void docsExamplesMatchTheJsonEngines()
    {
        QFETCH(QString, example);
        QFETCH(double, minSsim);
        const QString path = QStringLiteral(IMPRINT_SOURCE_DIR "/docs/examples/%1.json").arg(example);
        const auto satori = imprint::test::renderTemplateFile(path, QStringLiteral("satori"), chromiumContext());
        QVERIFY2(satori, qPrintable(imprint::test::failureOf(satori).message));
        const auto html = imprint::test::renderTemplateFile(path, QStringLiteral("html"), chromiumContext());
        QVERIFY2(html, qPrintable(imprint::test::failureOf(html).message));
        const QImage reference = decode(*satori), drawn = decode(*html);
        QCOMPARE(drawn.size(), reference.size());
        // The root fills the image the same way: the bottom-right pixel's coverage.
        const QPoint corner(reference.width() - 2, reference.height() - 2);
        QCOMPARE(qAlpha(drawn.pixel(corner)), qAlpha(reference.pixel(corner)));
        const double ssim
            = meanSsim(lumaOverWhite(reference), lumaOverWhite(drawn), reference.width(), reference.height());
        qInfo("%s html against satori: SSIM %.5f", qPrintable(example), ssim);
        QVERIFY2(ssim >= minSsim, qPrintable(QStringLiteral("%1: SSIM %2").arg(example).arg(ssim)));
        // And the third engine, on the same bar.
        const auto takumi = imprint::test::renderTemplateFile(path, QStringLiteral("takumi"), chromiumContext());
        QVERIFY2(takumi, qPrintable(imprint::test::failureOf(takumi).message));
        const QImage third = decode(*takumi);
        QCOMPARE(third.size(), reference.size());
        QCOMPARE(qAlpha(third.pixel(corner)), qAlpha(reference.pixel(corner)));
        const double takumiSsim
            = meanSsim(lumaOverWhite(reference), lumaOverWhite(third), reference.width(), reference.height());
        QVERIFY2(takumiSsim >= minSsim, qPrintable(QStringLiteral("%1 takumi: SSIM %2").arg(example).arg(takumiSsim)));
    }

    // Issue 29: Imprint's `textFit: shrink-to-box` has no CSS form, so the page carries the
    // font size our layout fitted (templatePageHtml()); Chromium drew `text-fit: shrink`
    // instead, width only (box-long-en: SSIM 0.575, box-de 0.944, box-rich 0.669 with its
    // spans sized too; scripts/textfit-box-references). rich-*: Chromium's own text-fit.
    void textFitDrawsTheFittedSize_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name : {"box-de", "box-long-en", "box-short-en", "box-rich", "rich-grow", "rich-spacing"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void textFitDrawsTheFittedSize()
    {
        QFETCH(QString, name);
        const QString dir = QStringLiteral(IMPRINT_SOURCE_DIR "/tests/render/textfit%1").arg(name[0] == u'b' ? "-box" : "");
        const auto r = renderHtml(readJson(dir + QStringLiteral("/cases/%1.json").arg(name)).object());
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        std::map<QString, double> achieved;
        verifyCardSsim(decode(*r), dir + QStringLiteral("/chromium/%1.png").arg(name), name, QStringLiteral("html"),
                       0.99, achieved);
    }

    // Grid and filters, which neither layout engine has.
    void gridAndFilters()
    {
        const auto r = renderHtml(
            htmlTemplate("<div style=\"display:grid;grid-template-columns:100px 100px;width:200px;height:100px\">"
                         "<div style=\"background:#00f\"></div>"
                         "<div style=\"background:#f00;filter:invert(1)\"></div></div>"));
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        const QImage img = decode(*r);
        QCOMPARE(img.size(), QSize(200, 100));
        QCOMPARE(img.pixelColor(50, 50), QColor(0, 0, 255)); // first grid cell
        QCOMPARE(img.pixelColor(150, 50), QColor(0, 255, 255)); // red inverted
    }

    void variablesAreEscaped()
    {
        QJsonObject t = htmlTemplate("<div id=t style=\"font-size:40px\">{{title}}</div>");
        t.insert("variables", QJsonArray{QJsonObject{{"name", "title"}, {"default", "x"}}});
        RenderRequest request;
        request.document = t;
        request.options.engine = imprint::test::engineOption(QStringLiteral("html"));
        request.options.tweaks = QJsonObject{{"title", "<div style='position:fixed;inset:0;background:red'></div>"}};
        const auto r = render(request, chromiumContext());
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        // As markup the value would paint the page red; as text it is black glyphs.
        const QImage img = decode(*r);
        int red = 0, ink = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor c = img.pixelColor(x, y);
                red += c.red() > 200 && c.green() < 50 ? 1 : 0;
                ink += c.alpha() > 0 ? 1 : 0;
            }
        QCOMPARE(red, 0);
        QVERIFY(ink > 0);
    }

    void spaceFontsReachThePage_data()
    {
        QTest::addColumn<QJsonObject>("branded");
        QTest::addColumn<QJsonObject>("fallback");
        const QString text = QStringLiteral("<p style=\"margin:0;font:40px %1\">Hamburg</p>");
        QTest::newRow("html") << htmlTemplate(text.arg("Brand, serif"), 240, 60)
                              << htmlTemplate(text.arg("NoSuchFamily, serif"), 240, 60);
        const QString whole = QStringLiteral("<!DOCTYPE html><html><head><style>p{font-family:%1}</style></head>"
                                             "<body style=\"margin:0\"><p style=\"margin:0;font-size:40px\">Hamburg"
                                             "</p></body></html>");
        QTest::newRow("whole document") << htmlTemplate(whole.arg("Brand, serif"), 240, 60)
                                        << htmlTemplate(whole.arg("NoSuchFamily, serif"), 240, 60);
        auto tree = [](const QString &family) {
            return QJsonObject{
                {"width", 240},
                {"height", 60},
                {"root",
                 QJsonObject{{"type", "div"},
                             {"props", QJsonObject{{"style", QJsonObject{{"fontFamily", family}, {"fontSize", 40}}},
                                                   {"children", "Hamburg"}}}}}};
        };
        QTest::newRow("element tree") << tree("Brand, serif") << tree("NoSuchFamily, serif");
    }

    // A space's uploaded face is drawn under the name the space uses; a render without
    // the space's FontSet (another space) falls back exactly as for an unknown family.
    void spaceFontsReachThePage()
    {
        QFETCH(QJsonObject, branded);
        QFETCH(QJsonObject, fallback);
        const auto fonts = brandFontSet();
        QVERIFY2(fonts, "Comfortaa-Regular.ttf could not be registered");
        // No retry: the wait that made this render miss its deadline now and then (a hidden
        // page's screenshot, issue 33) is fixed; tst_html_chromium_load stresses it.
        const auto withFonts = renderHtml(branded, 30000, OutputFormat::Png, fonts);
        QVERIFY2(withFonts, qPrintable(imprint::test::failureOf(withFonts).message));
        const auto otherSpace = renderHtml(branded, 30000);
        QVERIFY2(otherSpace, qPrintable(imprint::test::failureOf(otherSpace).message));
        const auto unknown = renderHtml(fallback, 30000, OutputFormat::Png, fonts);
        QVERIFY2(unknown, qPrintable(imprint::test::failureOf(unknown).message));
        const QImage a = decode(*withFonts), b = decode(*otherSpace), c = decode(*unknown);
        QVERIFY2(differingPixels(a, c) > 500, qPrintable(QString::number(differingPixels(a, c))));
        QCOMPARE(differingPixels(b, c), 0);
    }

    // Only faces the page names travel with it, and only up to the byte budget.
    void fontFaceRulesSelectNamedFacesWithinBudget()
    {
        const auto fonts = brandFontSet();
        QVERIFY(fonts);
        QStringList warnings;
        const QString rules = fontFaceRules(*fonts, "<p style=\"font-family:brand\">x</p>", 1 << 20, &warnings);
        QVERIFY(rules.startsWith("@font-face{font-family:\"Brand\";font-weight:400;font-style:normal;"
                                 "src:url(data:font/ttf;base64,AAEAAA"));
        QVERIFY(warnings.isEmpty());
        QVERIFY(fontFaceRules(*fonts, "<p style=\"font-family:serif\">x</p>", 1 << 20, &warnings).isEmpty());
        QVERIFY(warnings.isEmpty());
        QVERIFY(fontFaceRules(*fonts, "<p style=\"font-family:Brand\">x</p>", 1000, &warnings).isEmpty());
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.first().contains("'Brand'"), qPrintable(warnings.first()));
    }

    void scriptIsOffByDefault()
    {
        const QString page = "<div id=a style=\"width:200px;height:100px;background:#0f0\"></div>"
                             "<script>document.getElementById('a').style.background='#f00'</script>";
        auto r = renderHtml(htmlTemplate(page));
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        QCOMPARE(decode(*r).pixelColor(10, 10), QColor(0, 255, 0));
        // A template that opts in, on a server that allows it, runs its script.
        r = renderHtml(htmlTemplate(page, 200, 100, true));
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        QCOMPARE(decode(*r).pixelColor(10, 10), QColor(255, 0, 0));
    }

    void requestsOtherThanDataAreBlocked()
    {
        // A server on loopback that records whether anyone came.
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        bool contacted = false;
        connect(&server, &QTcpServer::newConnection, this, [&] { contacted = true; });
        const QString port = QString::number(server.serverPort());
        const QString page
            = QStringLiteral("<img src=\"file:///etc/passwd\" style=\"width:50px;height:50px\">"
                             "<img src=\"http://127.0.0.1:%1/a.png\">"
                             "<link rel=stylesheet href=\"http://127.0.0.1:%1/b.css\">"
                             "<script>fetch('http://127.0.0.1:%1/c').catch(() => 0)</script>"
                             "<img src=\"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' "
                             "width='10' height='10'><rect width='10' height='10' fill='blue'/></svg>\">")
                  .arg(port);
        const auto r = renderHtml(htmlTemplate(page, 200, 100, true));
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        QCoreApplication::processEvents();
        QVERIFY(!server.hasPendingConnections());
        QVERIFY(!contacted);
        // The image went to the fetch hook (which refused it), the style sheet and fetch()
        // did not: only images load over http(s). Each refusal is a warning naming its URL.
        {
            std::lock_guard lock(fetchedUrlsMutex);
            QVERIFY(fetchedUrls().contains(QStringLiteral("http://127.0.0.1:%1/a.png").arg(port)));
            QVERIFY(!fetchedUrls().contains(QStringLiteral("http://127.0.0.1:%1/b.css").arg(port)));
            QVERIFY(!fetchedUrls().contains(QStringLiteral("http://127.0.0.1:%1/c").arg(port)));
        }
        const QString warnings = r->warnings.join(u'\n');
        QVERIFY2(warnings.contains(QStringLiteral("http://127.0.0.1:%1/a.png was not loaded: image_refused").arg(port)),
                 qPrintable(warnings));
        QVERIFY2(warnings.contains(QStringLiteral("http://127.0.0.1:%1/b.css was not loaded").arg(port)),
                 qPrintable(warnings));
        // The data: image loaded (blue), after the two broken images.
        const QImage img = decode(*r);
        bool blue = false;
        for (int x = 0; x < 200 && !blue; ++x)
            for (int y = 0; y < 100 && !blue; ++y)
                blue = img.pixelColor(x, y) == QColor(0, 0, 255);
        QVERIFY(blue);
    }

    void httpImagesComeThroughTheFetchHook()
    {
        // An <img> and a CSS background over http are answered with the hook's bytes; an
        // image the hook refuses is left out with a warning, and the render succeeds.
        const QString page
            = QStringLiteral("<body style=\"margin:0\"><img src=\"http://images.test/green.png\" "
                             "style=\"position:absolute;left:0;top:0;width:50px;height:100px\">"
                             "<div style=\"position:absolute;left:50px;top:0;width:50px;height:100px;"
                             "background:url(http://images.test/green.png) 0 0/50px 100px\"></div>"
                             "<img src=\"http://images.test/missing.png\" "
                             "style=\"position:absolute;left:100px;top:0;width:100px;height:100px\"></body>");
        const auto r = renderHtml(htmlTemplate(page));
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        const QImage img = decode(*r);
        QCOMPARE(img.pixelColor(25, 50), QColor(0, 255, 0));
        QCOMPARE(img.pixelColor(75, 50), QColor(0, 255, 0));
        QCOMPARE(img.pixelColor(150, 50).alpha(), 0); // nothing drawn where the refused image was
        QCOMPARE(r->warnings.size(), 1);
        QVERIFY2(r->warnings.first().contains("http://images.test/missing.png was not loaded: image_refused"),
                 qPrintable(r->warnings.first()));
    }

    void svgIsRefusedNamingTheEngines()
    {
        const auto rendered = renderHtml(htmlTemplate("<p>x</p>"), 10000, OutputFormat::Svg);
        QVERIFY(!rendered);
        QCOMPARE(rendered.error().field, QStringLiteral("format"));
        QVERIFY(rendered.error().message.contains("satori"));
        QVERIFY(rendered.error().message.contains("takumi"));
    }

    void endlessScriptIsCutOffByTheDeadline()
    {
        QElapsedTimer timer;
        timer.start();
        const auto endless = renderHtml(htmlTemplate("<script>for(;;){}</script>", 200, 100, true), 1500);
        QVERIFY(!endless);
        QCOMPARE(endless.error().code, RenderErrorCode::RenderBudgetExceeded);
        QVERIFY(timer.elapsed() < 6000);
        // The page was freed: the next render works.
        const auto r
            = renderHtml(htmlTemplate("<div style=\"width:200px;height:100px;background:#00f\"></div>"));
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        QCOMPARE(decode(*r).pixelColor(5, 5), QColor(0, 0, 255));
    }

    void browserIsRestartedAfterACrash()
    {
        QVERIFY(renderHtml(htmlTemplate("<p>warm</p>")));
        ChromiumBrowser *browser = chromiumContext().htmlBrowser();
        const qint64 pid = browser->processId();
        QVERIFY(pid > 0);
        const int starts = browser->starts();
        ::kill(pid_t(pid), SIGKILL);
        QTRY_COMPARE(browser->processId(), qint64(0));
        const auto r
            = renderHtml(htmlTemplate("<div style=\"width:200px;height:100px;background:#0f0\"></div>"));
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        QCOMPARE(decode(*r).pixelColor(5, 5), QColor(0, 255, 0));
        QCOMPARE(browser->starts(), starts + 1);
    }

    void fullQueueIsBusy()
    {
        // Pool 2, queue 1: of 5 slow renders at once at least one is turned away at once.
        const QJsonObject slow = htmlTemplate("<script>for(;;){}</script>", 200, 100, true);
        QList<QFuture<RenderErrorCode>> runs;
        QThreadPool pool;
        pool.setMaxThreadCount(5);
        for (int i = 0; i < 5; ++i)
            runs << QtConcurrent::run(&pool, [slow] {
                return imprint::test::failureOf(renderHtml(slow, 1500)).code;
            });
        int busy = 0;
        for (auto &f : runs)
            busy += f.result() == RenderErrorCode::EngineBusy ? 1 : 0;
        QVERIFY2(busy >= 1, qPrintable(QString::number(busy)));
        const auto rendered = renderHtml(htmlTemplate("<p>after</p>"));
        QVERIFY2(rendered, qPrintable(imprint::test::failureOf(rendered).message));
    }

    void emojiAreDrawnFromTheChosenSet_data()
    {
        QTest::addColumn<QJsonObject>("document");
        QTest::addColumn<QString>("set");
        QTest::addColumn<int>("expected"); // px of the set's green: 40×40, or none for Noto
        const QString face = QString(QChar(0xD83D)) + QChar(0xDE00); // U+1F600
        const QJsonObject tree{{"width", 200},
                               {"height", 100},
                               {"rendererType", "html"},
                               {"root", QJsonObject{{"type", "div"},
                                                    {"props", QJsonObject{{"style", QJsonObject{{"fontSize", 40}}},
                                                                          {"children", "a " + face + " b"}}}}}};
        const QJsonObject html = htmlTemplate(
            QString("<p title=\"%1\" style=\"margin:0;font-size:40px\">a %1 b<style>/* %1 */</style></p>").arg(face));
        QTest::newRow("root twemoji") << tree << "twemoji" << 40 * 40;
        QTest::newRow("html twemoji") << html << "twemoji" << 40 * 40;
        QTest::newRow("html openmoji") << html << "openmoji" << 40 * 40;
        QTest::newRow("root noto") << tree << "noto" << 0;
    }

    void emojiAreDrawnFromTheChosenSet()
    {
        // A set whose 😀 is a green square: drawn, the emoji is 1em × 1em of that green
        // (not Noto's yellow face); with noto the browser's font draws it, no green.
        QFETCH(QJsonObject, document);
        QFETCH(QString, set);
        QFETCH(int, expected);
        QTemporaryDir dir;
        const QByteArray svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 36 36\">"
                               "<rect width=\"36\" height=\"36\" fill=\"#00c800\"/></svg>";
        for (const auto &[folder, file] : {std::pair{"twemoji", "1f600.svg"}, {"openmoji", "1F600.svg"}}) {
            QVERIFY(QDir(dir.path()).mkpath(folder));
            QFile f(dir.filePath(QString(folder) + u'/' + file));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(svg) == svg.size());
        }
        RenderContextOptions o;
        o.htmlChromium = true;
        o.emojiDirectory = dir.path();
        RenderContext context(o);
        RenderRequest request;
        request.document = document;
        request.options.engine = imprint::test::engineOption(QStringLiteral("html"));
        request.options.emojiSet = imprint::test::emojiOption(set);
        const auto r = render(request, context);
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        QVERIFY2(r->warnings.isEmpty(), qPrintable(r->warnings.join(u'\n')));
        const QImage img = decode(*r);
        int green = 0, yellow = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor c = img.pixelColor(x, y);
                green += qAbs(c.red()) + qAbs(c.green() - 200) + qAbs(c.blue()) < 24 ? 1 : 0;
                yellow += c.red() > 200 && c.green() > 150 && c.blue() < 100 ? 1 : 0;
            }
        if (expected == 0) {
            QCOMPARE(green, 0);
            QVERIFY2(yellow > 100, qPrintable(QString::number(yellow))); // Noto's face
        } else {
            QVERIFY2(green > expected * 8 / 10 && green <= expected + 2 * 40, qPrintable(QString::number(green)));
            QVERIFY2(yellow < 20, qPrintable(QString::number(yellow)));
        }
    }

    // Chromium's fast PNG is the `fast` tier as it came; the other tiers are our encoder on
    // its decoded pixels (`direct`, as the browser hands it to every other encoder):
    // `lossless` and, on this engine, `default` exact; `small` a palette (docs/api.md).
    void pngTiersEncodeChromiumsScreenshot()
    {
        const QString document = "<!DOCTYPE html><html><body style=\"margin:0\"><div style=\"width:200px;"
                                 "height:100px;background:linear-gradient(90deg,#f00,#00f)\"><b style=\"font-size:"
                                 "30px\">Hi</b></div></body></html>";
        const auto tier = [&](PngCompression c, const QString &html = {}) {
            return renderRequest(htmlTemplate(html.isEmpty() ? document : html), "html",
                                 [c](RenderRequest &r) { r.options.compression = c; });
        };
        const auto fast = tier(PngCompression::Fast), exact = tier(PngCompression::Lossless),
                   passed = tier(PngCompression::Default), small = tier(PngCompression::Small);
        QVERIFY(fast && exact && passed && small);
        QVERIFY(QList<int>({2, 6}).contains(pngColourType(fast->bytes))); // RGB or RGBA as Chromium chose
        QVERIFY2(passed->bytes.size() < fast->bytes.size(), qPrintable(QString::number(passed->bytes.size())));
        const ChromiumPage direct{.html = document, .size = QSize(200, 100)};
        const auto shot = chromiumContext().htmlBrowser()->render(direct, RenderCancellation::withDeadline(20000));
        QVERIFY2(shot, qPrintable(imprint::test::failureOf(shot).message));
        const QImage c = shot->convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(decode(*passed).size(), QSize(200, 100));
        for (const auto *tier : {&fast, &exact, &passed})
            QCOMPARE(differingPixels(decode(**tier), c), 0);
        QCOMPARE(pngColourType(small->bytes), 3); // a quantised palette
        const auto flat = tier(PngCompression::Default, "<div style=\"width:200px;height:100px;background:#0f0\">");
        QVERIFY(flat && pngColourType(flat->bytes) == 3); // our encoder's palette, not Chromium's RGB
    }

    // scale=2: the image has twice the pixels, the layout is the same (a 100 px box at
    // 20,10 covers 40..239 × 20..119), for Chromium and both layout engines.
    void scaleMultipliesThePixels_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("scale");
        for (const char *engine : {"html", "takumi", "satori"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 x2").arg(engine))) << QString(engine) << 2;
            QTest::newRow(qPrintable(QStringLiteral("%1 x3").arg(engine))) << QString(engine) << 3;
        }
    }
    void scaleMultipliesThePixels()
    {
        QFETCH(QString, engine);
        QFETCH(int, scale);
        const auto r = renderRequest(boxTree(engine), engine, [&](RenderRequest &q) { q.options.scale = scale; });
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        QCOMPARE(r->size, QSize(200 * scale, 100 * scale));
        const QImage img = decode(*r);
        QCOMPARE(img.size(), QSize(200 * scale, 100 * scale));
        // Inside the box's edges by one device pixel, and just outside them.
        QCOMPARE(img.pixelColor(20 * scale + 1, 10 * scale + 1), QColor(0, 0, 255));
        QCOMPARE(img.pixelColor(120 * scale - 2, 60 * scale - 2), QColor(0, 0, 255));
        QCOMPARE(img.pixelColor(20 * scale - 2, 10 * scale + 1), QColor(255, 255, 255));
        QCOMPARE(img.pixelColor(120 * scale + 1, 60 * scale + 1), QColor(255, 255, 255));
        // Text is drawn at the device resolution, not magnified: the 2× image brought
        // back to 1× looks like the 1× render.
        const auto one = renderRequest(boxTree(engine), engine);
        QVERIFY2(one, qPrintable(imprint::test::failureOf(one).message));
        const QImage small = img.scaled(200, 100, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        const QImage base = decode(*one);
        const double ssim = meanSsim(lumaOverWhite(base), lumaOverWhite(small), 200, 100);
        QVERIFY2(ssim >= 0.95, qPrintable(QString::number(ssim)));
    }

    // An SVG image is drawn at the pixels it covers on the device, not its 10 × 10
    // intrinsic size enlarged: a 10 × 10 SVG, black left half and white right half, shown
    // 100 × 100 at scale 1, 2 and 3, as an asset in an <img> and as a data: background,
    // has its edge within a device pixel or two (enlarged 1× pixels would blur it over
    // ~10 × scale).
    void svgAssetsAreSharpAtAnyScale_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("scale");
        for (const char *engine : {"takumi", "satori", "html"})
            for (int scale : {1, 2, 3})
                QTest::newRow(qPrintable(QStringLiteral("%1 x%2").arg(engine).arg(scale))) << QString(engine) << scale;
    }
    void svgAssetsAreSharpAtAnyScale()
    {
        QFETCH(QString, engine);
        QFETCH(int, scale);
        const QByteArray svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\" "
                               "viewBox=\"0 0 10 10\"><rect width=\"5\" height=\"10\" fill=\"#000\"/>"
                               "<rect x=\"5\" width=\"5\" height=\"10\" fill=\"#fff\"/></svg>";
        const auto square = [](int left) {
            return QJsonObject{{"position", "absolute"}, {"left", left}, {"top", 0}, {"width", 100}, {"height", 100}};
        };
        QJsonObject background = square(100);
        // JSON engines load background images from data: URLs only (docs/fonts-and-images.md).
        background.insert("backgroundImage",
                          QStringLiteral("url(data:image/svg+xml;base64,%1)").arg(QString::fromLatin1(svg.toBase64())));
        background.insert("backgroundSize", "100px 100px");
        const QJsonObject document{
            {"width", 200},
            {"height", 100},
            {"root",
             QJsonObject{
                 {"type", "div"},
                 {"props",
                  QJsonObject{
                      {"style", QJsonObject{{"width", 200}, {"height", 100}, {"position", "relative"}}},
                      {"children",
                       QJsonArray{QJsonObject{{"type", "img"},
                                              {"props", QJsonObject{{"src", "asset:logo"}, {"style", square(0)}}}},
                                  QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", background}}}}}}}}}}};
        int loads = 0;
        const auto r = renderRequest(document, engine, [&](RenderRequest &q) {
            q.options.scale = scale;
            // As a space's asset loader does (AssetService::loaderFor): the stored bytes decoded.
            q.imageLoader = [&svg, &loads](const QString &url) {
                ++loads;
                return url == QLatin1String("asset:logo") ? decodeImage(svg) : ImageResult(QImage());
            };
        });
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        QVERIFY(loads > 0);
        const QImage img = decode(*r);
        QVERIFY2(r->warnings.isEmpty(), qPrintable(r->warnings.join(u'\n')));
        QCOMPARE(img.size(), QSize(200 * scale, 100 * scale));
        const int y = 50 * scale;
        for (int left : {0, 100}) {
            const int edge = (left + 50) * scale; // the first white device pixel
            const auto grey = [&](int x) { return qGray(img.pixel(x, y)); };
            const QString where = QStringLiteral("box at %1: %2 %3 | %4 %5")
                                      .arg(left)
                                      .arg(grey(edge - 2))
                                      .arg(grey(edge - 1))
                                      .arg(grey(edge))
                                      .arg(grey(edge + 1));
            QVERIFY2(grey(edge - 2) <= 12, qPrintable(where));
            QVERIFY2(grey(edge + 1) >= 243, qPrintable(where));
            QVERIFY2(grey((left + 10) * scale) <= 12 && grey((left + 90) * scale) >= 243, qPrintable(where));
        }
    }

    void inlineSvgIsDrawnInThePage()
    {
        // Issue 28: the page writes an inline <svg> as markup (React's strokeWidth as
        // stroke-width), and Chromium draws lucide's `check` in currentColor where the
        // layout engines draw it (tst_inline_svg): 48 px, 2 px per user unit, after 10 px padding.
        const QJsonObject svg{
            {"type", "svg"},
            {"props", QJsonObject{{"width", 48}, {"height", 48}, {"viewBox", "0 0 24 24"}, {"fill", "none"},
                                  {"stroke", "currentColor"}, {"strokeWidth", 2}, {"strokeLinecap", "round"},
                                  {"strokeLinejoin", "round"}, {"className", "lucide"},
                                  {"children", QJsonObject{{"type", "path"}, {"props", QJsonObject{{"d", "M20 6 9 17l-5-5"}}}}}}}};
        const QJsonObject document{
            {"width", 120},
            {"height", 70},
            {"root", QJsonObject{{"type", "div"},
                                 {"props", QJsonObject{{"style", QJsonObject{{"width", 120}, {"height", 70}, {"padding", 10},
                                                                             {"color", "#ff0000"}, {"backgroundColor", "#fff"},
                                                                             {"alignItems", "flex-start"}}},
                                                       {"children", QJsonArray{svg}}}}}}};
        const auto r = renderRequest(document, QStringLiteral("html"), [](RenderRequest &) {});
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        const QImage img = decode(*r);
        const auto at = [&](qreal x, qreal y) { return img.pixelColor(int(10 + 2 * x), int(10 + 2 * y)); };
        for (const QPointF p : {QPointF(14.5, 11.5), QPointF(6.5, 14.5), QPointF(9, 17)}) {
            const QColor c = at(p.x(), p.y());
            QVERIFY2(c.red() >= 215 && c.green() <= 40 && c.blue() <= 40, qPrintable(c.name()));
        }
        // Off the stroke: white, up to an antialiased fringe 1.5 units past the round cap.
        for (const QPointF p : {QPointF(12, 6), QPointF(20, 20), QPointF(2.5, 12)}) {
            const QColor c = at(p.x(), p.y());
            QVERIFY2(c.red() >= 245 && c.green() >= 240 && c.blue() >= 240, qPrintable(c.name()));
        }
    }

    void rootSvgIsSizedByItsViewBox()
    {
        // A root `svg` (viewBox, no size) is a replaced element: 100 × 50 here, as the layout
        // engines draw it, not stretched to the image's height (satori's case: SSIM 0.39).
        const QJsonObject circle{{"type", "circle"}, {"props", QJsonObject{{"cx", 5}, {"cy", 5}, {"r", 4}, {"fill", "blue"}}}};
        const QJsonObject document{
            {"width", 100},
            {"height", 100},
            {"root", QJsonObject{{"type", "svg"}, {"props", QJsonObject{{"viewBox", "0 0 20 10"}, {"children", circle}}}}}};
        const auto html = renderRequest(document, QStringLiteral("html"), [](RenderRequest &) {});
        QVERIFY2(html, qPrintable(imprint::test::failureOf(html).message));
        const auto takumi = renderRequest(document, QStringLiteral("takumi"), [](RenderRequest &) {});
        QVERIFY2(takumi, qPrintable(imprint::test::failureOf(takumi).message));
        const QImage drawn = decode(*html), reference = decode(*takumi);
        // The circle fills (5..45, 5..45); below the svg's 50 px the image is empty.
        QCOMPARE(drawn.pixel(25, 25), qRgb(0, 0, 255));
        QCOMPARE(qAlpha(drawn.pixel(50, 75)), 0);
        const double ssim = meanSsim(lumaOverWhite(reference), lumaOverWhite(drawn), 100, 100);
        QVERIFY2(ssim >= 0.99, qPrintable(QStringLiteral("SSIM %1").arg(ssim)));
    }

    void scaleOutsideItsRangeOrOnVectorsIsRefused()
    {
        for (double scale : {0.5, 4.0}) {
            const auto refused
                = renderRequest(boxTree("takumi"), "takumi", [&](RenderRequest &q) { q.options.scale = scale; });
            QVERIFY(!refused);
            QCOMPARE(refused.error().field, QStringLiteral("scale"));
            QCOMPARE(refused.error().code, RenderErrorCode::InvalidSize);
        }
        auto rendered = renderRequest(boxTree("satori"), "satori", [](RenderRequest &q) {
            q.options.scale = 2;
            q.options.format = OutputFormat::Svg;
        });
        QVERIFY(!rendered);
        QCOMPARE(rendered.error().field, QStringLiteral("scale"));
        // Qt's rich text (no Chromium) draws at 1 only, and says which engines scale.
        RenderContext qtContext;
        RenderRequest request;
        request.document = htmlTemplate("<p>x</p>");
        request.options.scale = 2;
        rendered = render(request, qtContext);
        QVERIFY(!rendered);
        QCOMPARE(rendered.error().field, QStringLiteral("scale"));
        const QString why = rendered.error().message;
        QVERIFY2(why.contains("takumi") && why.contains("satori"), qPrintable(why));
    }

    // format=pdf: Chromium prints one page the template's size (px at 96 per inch are
    // 0.75 pt), backgrounds included.
    void pdfIsOnePageOfTheTemplateSize()
    {
        const auto r
            = renderRequest(htmlTemplate("<div style=\"width:300px;height:150px;background:#0f0\">PDF</div>", 300, 150),
                            "html", [](RenderRequest &q) { q.options.format = OutputFormat::Pdf; });
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        QCOMPARE(r->contentType, QStringLiteral("application/pdf"));
        QVERIFY(r->bytes.startsWith("%PDF-"));
        static const QRegularExpression mediaBox(
            QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)\\s*\\]"));
        const QString text = QString::fromLatin1(r->bytes);
        auto boxes = mediaBox.globalMatch(text);
        int pages = 0;
        while (boxes.hasNext()) {
            const auto m = boxes.next();
            QCOMPARE(qRound(m.captured(1).toDouble()), 225); // 300 px
            QCOMPARE(qRound(m.captured(2).toDouble()), 113); // 150 px = 112.5 pt
            ++pages;
        }
        QCOMPARE(pages, 1);
        static const QRegularExpression pageCount(QStringLiteral("/Type\\s*/Pages\\b[^>]*/Count\\s+(\\d+)"));
        const auto count = pageCount.match(text);
        QVERIFY2(count.hasMatch(), "no /Pages /Count");
        QCOMPARE(count.captured(1).toInt(), 1);
    }

    void pdfFromALayoutEngineNamesTheEngine()
    {
        const auto r = renderRequest(boxTree("takumi"), "takumi",
                                     [](RenderRequest &q) { q.options.format = OutputFormat::Pdf; });
        QVERIFY(!r);
        QCOMPARE(r.error().field, QStringLiteral("format"));
        QCOMPARE(r.error().code, RenderErrorCode::InvalidEngine);
        QVERIFY2(r.error().message.contains("html"), qPrintable(r.error().message));
    }

    // asset: URLs in the page (an <img>, a CSS background) are answered by the request's
    // image loader (the space's assets in the server); one it does not know is a warning.
    void assetUrlsComeFromTheImageLoader()
    {
        QStringList asked;
        std::mutex askedMutex;
        const auto r = renderRequest(
            htmlTemplate("<body style=\"margin:0\"><img src=\"asset:logo\" style=\"position:absolute;left:0;top:0;"
                         "width:50px;height:100px\"><div style=\"position:absolute;left:50px;top:0;width:50px;"
                         "height:100px;background:url(asset:logo) 0 0/50px 100px\"></div><img src=\"asset:nope\" "
                         "style=\"position:absolute;left:100px;width:100px;height:100px\"></body>"),
            "html", [&](RenderRequest &q) {
                q.imageLoader = [&](const QString &url) -> ImageResult {
                    {
                        std::lock_guard lock(askedMutex);
                        asked << url;
                    }
                    if (url != QLatin1String("asset:logo"))
                        return QStringLiteral("this space has no asset %1").arg(url.mid(6));
                    QImage image(10, 10, QImage::Format_ARGB32);
                    image.fill(QColor(0, 160, 0));
                    return image;
                };
            });
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        const QImage img = decode(*r);
        QCOMPARE(img.pixelColor(25, 50), QColor(0, 160, 0));
        QCOMPARE(img.pixelColor(75, 50), QColor(0, 160, 0));
        QCOMPARE(img.pixelColor(150, 50).alpha(), 0);
        QVERIFY(asked.contains("asset:logo") && asked.contains("asset:nope"));
        QCOMPARE(r->warnings.size(), 1);
        QVERIFY2(r->warnings.first().contains("asset:nope was not loaded: this space has no asset nope"),
                 qPrintable(r->warnings.first()));
    }

    // A browser past its memory bound is restarted between renders, and the renders go on.
    void browserPastItsMemoryBoundIsRestarted()
    {
        RenderContextOptions o;
        o.htmlChromium = true;
        o.chromium.maxMemoryBytes = 1; // always over
        o.chromium.hardMemoryFactor = 0; // between renders only: no render is ended for it
        o.chromium.memoryCheckEvery = 2;
        RenderContext context(o);
        RenderRequest request;
        request.document = htmlTemplate("<div style=\"width:200px;height:100px;background:#0f0\"></div>");
        request.cancellation = RenderCancellation::withDeadline(20000);
        auto rendered = render(request, context);
        QVERIFY2(rendered, qPrintable(imprint::test::failureOf(rendered).message));
        QCOMPARE(context.htmlBrowser()->starts(), 1);
        rendered = render(request, context);
        QVERIFY2(rendered, qPrintable(imprint::test::failureOf(rendered).message)); // measured: restarted after it
        QCOMPARE(context.htmlBrowser()->processId(), qint64(0));
        const auto r = render(request, context);
        QVERIFY2(r, qPrintable(imprint::test::failureOf(r).message));
        QCOMPARE(decode(*r).pixelColor(5, 5), QColor(0, 255, 0));
        QCOMPARE(context.htmlBrowser()->starts(), 2);
    }

    // A fragment's root of `height: 100%` fills the image (it stopped at its content's 0 px).
    void fragmentRootFillsTheImage()
    {
        const auto r = renderHtml(htmlTemplate("<div style=\"height:100%;background:#0f0\"></div>"));
        QVERIFY(r && decode(*r).pixelColor(100, 95) == QColor(0, 255, 0));
    }

    void missingBrowserIsUnavailable()
    {
        RenderContextOptions o;
        o.htmlChromium = true;
        o.chromium.executable = QStringLiteral("/nonexistent/chromium");
        RenderContext context(o);
        RenderRequest request;
        request.document = htmlTemplate("<p>x</p>");
        const auto rendered = render(request, context);
        QVERIFY(!rendered);
        QCOMPARE(rendered.error().code, RenderErrorCode::EngineUnavailable);
        QVERIFY(rendered.error().message.contains("scripts/deps"));
    }
};

QTEST_MAIN(TestHtmlChromium)
#include "tst_html_chromium.moc"
