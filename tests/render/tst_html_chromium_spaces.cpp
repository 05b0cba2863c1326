// The html engine's isolation between spaces (issue 33: "1 000 mixed renders from two spaces
// show no state leaking between them"). Renders of two spaces are mixed, four at once, on
// one browser whose pages are kept between a space's renders (a page that ran no script)
// and whose pool the two share. Each render would show what it found of the other space:
//  - images: both spaces name `asset:logo`, which is red in space A and green in space B;
//    each render must draw its own space's colour, as an <img> and as a CSS background;
//  - fonts: space A's pages declare the family `Brand` (an @font-face data: font); space B's
//    pages ask for `Brand` without declaring it and must be drawn in the fallback face;
//  - storage: pages that run script look for a cookie, localStorage and sessionStorage
//    entry and paint red when they find one, green otherwise, then store theirs.
// The CI run mixes 64 renders; IMPRINT_SPACES_RENDERS=1000 runs the soak
// (docs/performance.md, "Nothing crosses spaces"). Chromium is required (scripts/deps).

#include "server/render/backends/chromium/chromium_browser.h"
#include "server/render/pipeline.h"
#include "tests/support/font_faces.h"
#include "tests/support/render_requests.h"

#include <QFile>
#include <QFuture>
#include <QMutex>
#include <QtConcurrent>
#include <QTest>

using namespace imprint::render;

namespace {

const QString kSpaceA = QStringLiteral("spc_a");
const QString kSpaceB = QStringLiteral("spc_b");
const QColor kColourA(200, 0, 0);
const QColor kColourB(0, 160, 0);

/// The suite's browser: templates may run script, the pool is the server's default, and
/// the queue is long enough that no render is turned away (engine_busy is not tested).
RenderContext &chromiumContext()
{
    ChromiumOptions browser;
    browser.queue = 64;
    browser.queueTimeoutMs = 60000;
    browser.allowScript = true;
    static RenderContext context(RenderContextOptions{{}, ImageCache::kDefaultCapacityBytes,
                                                      EmojiLibrary::kDefaultCapacity, true, browser, true});
    return context;
}

QJsonObject htmlTemplate(const QString &html, bool script = false)
{
    QJsonObject t{{"width", 200}, {"height", 100}, {"rendererType", "html"}, {"html", html}};
    if (script)
        t.insert("htmlScript", true);
    return t;
}

/// A space's asset loader: `asset:logo` is a 20 × 20 square of the space's colour.
ImageLoader loaderOf(const QString &space)
{
    return [space](const QString &url) -> ImageResult {
        if (url != QLatin1String("asset:logo"))
            return QStringLiteral("no such asset");
        QImage logo(20, 20, QImage::Format_ARGB32);
        logo.fill(space == kSpaceA ? kColourA : kColourB);
        return logo;
    };
}

/// Renders `document` for `space` (its assets) within 20 s.
imprint::test::RenderOutcome renderFor(const QString &space, const QJsonObject &document)
{
    RenderRequest request;
    request.document = document;
    request.tenant = space;
    request.imageLoader = loaderOf(space);
    request.options.engine = imprint::test::engineOption(QStringLiteral("html"));
    request.options.format = OutputFormat::Png;
    request.cancellation = RenderCancellation::withDeadline(20000);
    return render(request, chromiumContext());
}

QImage decode(const RenderResult &r)
{
    return QImage::fromData(r.bytes).convertToFormat(QImage::Format_ARGB32);
}

/// `@font-face` rules for family `family` from tests/http/fonts/`file` as a data: URL.
QString fontFace(const QString &family, const QString &file)
{
    return imprint::test::fontFaceRule(family, QStringLiteral(IMPRINT_TEST_FONTS "/") + file);
}

/// How many pixels of `a` and `b` differ (same size).
int differingPixels(const QImage &a, const QImage &b)
{
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            n += a.pixel(x, y) != b.pixel(x, y) ? 1 : 0;
    return n;
}

} // namespace

class TestHtmlChromiumSpaces : public QObject
{
    Q_OBJECT

    const QString m_text = QStringLiteral("<div style=\"font:40px Brand, serif\">Hamburg</div>");
    QImage m_fallback; // space B's text page, drawn before any page declared `Brand`

    /// What is wrong with render `i` of the mix, empty when nothing.
    QString check(int i) const
    {
        const QString space = i % 2 ? kSpaceB : kSpaceA;
        const QColor own = space == kSpaceA ? kColourA : kColourB;
        const int kind = (i / 2) % 3;
        QJsonObject page;
        if (kind == 0) {
            page = htmlTemplate(QStringLiteral("<style>body{margin:0}</style><img src=\"asset:logo\" "
                                               "style=\"width:100px;height:100px;float:left\"><div style=\"width:100px;"
                                               "height:100px;float:left;background:url(asset:logo) 0 0/100% 100%\">"
                                               "</div>"));
        } else if (kind == 1) {
            const QString face = space == kSpaceA ? fontFace(QStringLiteral("Brand"), QStringLiteral("Comfortaa-Regular.ttf"))
                                                  : QString();
            page = htmlTemplate(QStringLiteral("<style>%1 body{margin:0;background:#fff}</style>%2").arg(face, m_text));
        } else {
            page = htmlTemplate(
                QStringLiteral("<body style=\"margin:0\"><div id=a style=\"width:200px;height:100px;background:#00f\">"
                               "</div><script>const seen = document.cookie !== '' || localStorage.length > 0 || "
                               "sessionStorage.length > 0; document.getElementById('a').style.background = "
                               "seen ? 'rgb(200,0,0)' : 'rgb(0,160,0)'; localStorage.setItem('k', '%1'); "
                               "sessionStorage.setItem('k', '%1'); document.cookie = 'k=%1';</script></body>")
                    .arg(space),
                true);
        }
        const auto r = renderFor(space, page);
        const QString name = QStringLiteral("render %1 (%2, %3)").arg(i).arg(space).arg(kind);
        if (!r)
            return QStringLiteral("%1: %2: %3").arg(name, r.error().codeName(), r.error().message);
        const QImage img = decode(*r);
        if (img.size() != QSize(200, 100))
            return name + QStringLiteral(": wrong size");
        if (kind == 0) {
            if (img.pixelColor(50, 50) != own || img.pixelColor(150, 50) != own)
                return name + QStringLiteral(": drew the other space's asset:logo (%1, %2)")
                                  .arg(img.pixelColor(50, 50).name(), img.pixelColor(150, 50).name());
        } else if (kind == 1) {
            const int differing = differingPixels(img, m_fallback);
            if (space == kSpaceB && differing != 0)
                return name + QStringLiteral(": drawn in space A's font (%1 pixels off the fallback)").arg(differing);
            if (space == kSpaceA && differing < 300)
                return name + QStringLiteral(": not drawn in its own font");
        } else if (img.pixelColor(100, 50) != kColourB) {
            return name + QStringLiteral(": found stored state (%1)").arg(img.pixelColor(100, 50).name());
        }
        return {};
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(ChromiumBrowser::isInstalled(), "Chromium is not installed: run scripts/deps");
        QVERIFY(!fontFace(QStringLiteral("Brand"), QStringLiteral("Comfortaa-Regular.ttf")).isEmpty());
        // Space B's text page before space A ever declared its font: the fallback face.
        const auto fallback = renderFor(kSpaceB, htmlTemplate(QStringLiteral("<style>body{margin:0;background:#fff}"
                                                                             "</style>%1")
                                                                  .arg(m_text)));
        QVERIFY2(fallback, qPrintable(imprint::test::failureOf(fallback).message));
        m_fallback = decode(*fallback);
    }

    // Both spaces' renders in turn, four at once: each sees only its own space's asset
    // and font, and no render finds anything a script stored.
    void nothingCrossesSpaces()
    {
        const int renders = qEnvironmentVariableIntValue("IMPRINT_SPACES_RENDERS") > 0
                                ? qEnvironmentVariableIntValue("IMPRINT_SPACES_RENDERS")
                                : 64;
        QThreadPool threads;
        threads.setMaxThreadCount(4);
        QList<QFuture<QString>> runs;
        for (int i = 0; i < renders; ++i)
            runs << QtConcurrent::run(&threads, [this, i] { return check(i); });
        QStringList failures;
        for (auto &f : runs)
            if (const QString why = f.result(); !why.isEmpty())
                failures << why;
        qInfo("%d mixed renders of two spaces, %lld with something wrong", renders, qlonglong(failures.size()));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.mid(0, 10).join(QStringLiteral("; "))));
    }
};

QTEST_MAIN(TestHtmlChromiumSpaces)
#include "tst_html_chromium_spaces.moc"
