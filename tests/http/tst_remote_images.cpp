// Remote images end to end (docs/remote-images.md): the real server renders a card whose
// image comes from a test origin on 127.0.0.2, a loopback address the configuration
// allowlists, and fetches it once for any number of renders; every other URL the policy
// forbids or that misbehaves — file:, 127.0.0.1, cloud metadata, a redirect into the
// private network, a pixel bomb, a 50 MiB body, an origin that never answers — fails fast
// with its 4xx problem while the server stays healthy. The html engine (headless Chromium)
// loads a page's http(s) images through the same policy and cache: the allowlisted
// origin's image is drawn, one on 127.0.0.1 is refused with a warning, file: and fetch()
// load nothing.
#include "../support/card_templates.h"
#include "../support/test_origin.h"
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QByteArray kTemplate = imprint::test::imageVariableTemplate(QStringLiteral("Avatar"), 200, 100);

const QString kSrcField = QStringLiteral("root.props.children[0].props.src");
constexpr int kTimeoutMs = 1500; // render.remoteImages.timeoutMs of this suite

} // namespace

class TestRemoteImages : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestOrigin> m_origin;
    std::unique_ptr<TestOrigin> m_loopback; // on 127.0.0.1, which the config does not allowlist
    E2eFixture m_e2e; // the server and its data directory
    QString m_token, m_pageId, m_htmlPageId, m_maskPageId;
    int m_width = 100; // a new width per render keeps the page render memo out of the way

    QString origin(const QString &path) const
    {
        return QStringLiteral("http://127.0.0.2:%1%2").arg(m_origin->port()).arg(path);
    }

    /// Renders page `pageId` (default: the avatar card) with its image `art` set to `url`.
    HttpReply render(const QString &url, const QString &pageId = {})
    {
        return httpRequest(m_e2e.server().port(), "POST", "/api/v1/render",
                           json({{"pageId", pageId.isEmpty() ? m_pageId : pageId},
                                 {"output", "binary"},
                                 {"width", ++m_width},
                                 {"tweaks", QJsonObject{{"art", url}}}}),
                           {{"Authorization", "Bearer " + m_token.toLatin1()}});
    }

    /// The raw request of render(url) for a socket of its own.
    QByteArray renderBytes(const QString &url)
    {
        const QByteArray payload = json(
            {{"pageId", m_pageId}, {"output", "binary"}, {"width", ++m_width}, {"tweaks", QJsonObject{{"art", url}}}});
        return "POST /api/v1/render HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: "
               "application/json\r\nAuthorization: Bearer "
               + m_token.toLatin1() + "\r\nContent-Length: " + QByteArray::number(payload.size()) + "\r\n\r\n"
               + payload;
    }

    static QColor centre(const HttpReply &r)
    {
        const QImage image = decode(r.body, "png");
        return image.isNull() ? QColor() : image.pixelColor(image.width() / 2, image.height() / 2);
    }

private slots:
    void initTestCase()
    {
        m_origin = std::make_unique<TestOrigin>(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY2(m_origin->port() != 0, "cannot listen on 127.0.0.2");
        m_origin->set("/red.png", TestOrigin::cacheablePng(20, 10, Qt::red));
        m_origin->set("/mask.png", TestOrigin::cacheablePng(20, 10, Qt::green));
        m_origin->set("/slow.png", TestOrigin::cacheablePng(20, 10, Qt::blue, 400));
        // Served as HTML: the bytes say PNG, and the bytes win.
        m_origin->set("/mislabelled",
                      TestOrigin::Answer{200, TestOrigin::png(20, 10, Qt::green), {{"Content-Type", "text/html"}}});
        // Always revalidated (no-cache), with a validator: the second render gets a 304.
        m_origin->set("/etag.png",
                      TestOrigin::revalidated("\"v1\"", "no-cache", TestOrigin::png(20, 10, Qt::yellow), "image/png"));
        m_origin->set("/to-private", TestOrigin::Answer{302, {}, {{"Location", "http://192.168.1.1/x.png"}}});
        m_origin->set("/to-metadata", TestOrigin::Answer{307, {}, {{"Location", "http://169.254.169.254/"}}});
        m_origin->set("/loop", TestOrigin::Answer{302, {}, {{"Location", "/loop"}}});
        m_origin->set("/bomb.png",
                      TestOrigin::Answer{200, imprint::test::pngBomb(60000, 60000), {{"Content-Type", "image/png"}}});
        m_origin->set("/huge", TestOrigin::Answer{200, QByteArray(50 * 1024 * 1024, 'x'), {}});
        m_origin->set("/page.html", TestOrigin::Answer{200, "<html>not an image</html>", {}});
        // 36 MP: inside the remote image policy (40 MP), but 137 MiB decoded, over a small
        // card's image budget (4 × its bytes + 128 MiB).
        m_origin->set("/big.png", TestOrigin::cacheablePng(6000, 6000, Qt::cyan));
        m_loopback = std::make_unique<TestOrigin>(QHostAddress(QHostAddress::LocalHost));
        QVERIFY2(m_loopback->port() != 0, "cannot listen on 127.0.0.1");
        m_loopback->set("/blue.png", TestOrigin::cacheablePng(20, 10, Qt::blue));
        m_loopback->set("/data", TestOrigin::Answer{200, "{}", {}});

        E2eOptions world = E2eOptions::ownerless("art", "pro", "ci", kTemplate);
        world.config = QStringLiteral(R"({"render": {"imageHostAllowlist": ["127.0.0.2"],
                                     "remoteImages": {"timeoutMs": %1},
                                     "html": {"browser": "chromium", "allowScript": true},
                                                "rateLimit": {"perSecond": 0}},
                                     "http": {"workerThreads": 4}})")
                           .arg(kTimeoutMs)
                           .toUtf8();
        world.start = false;
        QVERIFY2(m_e2e.setUp(world), m_e2e.failure());
        m_pageId = QString::fromLatin1(m_e2e.pageId());
        // The html engine's page: left half the allowlisted origin's red image, right half
        // 127.0.0.1's blue one; a file: image and a script's fetch() to 127.0.0.1 besides.
        const QString html = QStringLiteral("<body style=\"margin:0;background:#fff\">"
                                            "<img src=\"http://127.0.0.2:%1/red.png\" "
                                            "style=\"position:absolute;left:0;top:0;width:100px;height:100px\">"
                                            "<img src=\"http://127.0.0.1:%2/blue.png\" "
                                            "style=\"position:absolute;left:100px;top:0;width:100px;height:100px\">"
                                            "<img src=\"file:///etc/passwd\" style=\"width:1px;height:1px\">"
                                            "<script>fetch('http://127.0.0.1:%2/data').catch(() => 0)</script></body>")
                                 .arg(m_origin->port())
                                 .arg(m_loopback->port());
        const QJsonObject htmlTemplate{{"name", "Html avatar"}, {"width", 200},     {"height", 100},
                                       {"rendererType", "html"}, {"htmlScript", true}, {"html", html}};
        m_htmlPageId = QString::fromLatin1(m_e2e.publishPage("art", QJsonDocument(htmlTemplate).toJson()));
        // A blue box masked by the image `art` over its first 50 px (an icon as a mask).
        const QJsonObject masked{
            {"type", "div"},
            {"props", QJsonObject{{"style", QJsonObject{{"width", 200},
                                                        {"height", 100},
                                                        {"backgroundColor", "#0000ff"},
                                                        {"maskImage", "url({{art}})"},
                                                        {"maskSize", "50px 100%"},
                                                        {"maskRepeat", "no-repeat"}}}}}};
        const QJsonObject maskTemplate{
            {"name", "Masked"},
            {"width", 200},
            {"height", 100},
            {"rendererType", "takumi"},
            {"variables", QJsonArray{QJsonObject{{"name", "art"}, {"type", "image"}, {"default", ""}}}},
            {"root", QJsonObject{{"type", "div"},
                                 {"props", QJsonObject{{"style", QJsonObject{{"width", 200},
                                                                             {"height", 100},
                                                                             {"backgroundColor", "#ffffff"}}},
                                                       {"children", QJsonArray{masked}}}}}}};
        m_maskPageId = QString::fromLatin1(m_e2e.publishPage("art", QJsonDocument(maskTemplate).toJson()));
        m_token = QString::fromLatin1(m_e2e.key());
        QVERIFY2(m_e2e.startServer(), m_e2e.failure());
        QVERIFY(m_e2e.waitForHtmlEngine()); // started with the server, in the background
    }

    void cleanupTestCase()
    {
        m_e2e.server().stop();
        m_origin.reset();
        m_loopback.reset();
    }

    // The allowlisted origin's image is drawn, and a second render of the card (not the
    // page render memo: another width) is served from the cache without a request.
    void allowlistedImageRendersAndIsFetchedOnce()
    {
        const HttpReply first = render(origin("/red.png"));
        QVERIFY2(first.status == 200, first.body.constData());
        QCOMPARE(centre(first), QColor(Qt::red));
        const HttpReply second = render(origin("/red.png"));
        QCOMPARE(second.status, 200);
        QCOMPARE(centre(second), QColor(Qt::red));
        QCOMPARE(m_origin->hits("/red.png"), 1);
    }

    // Two renders at once of a card whose image takes 400 ms: one request to the origin.
    void concurrentRendersFetchOnce()
    {
        QTcpSocket a, b;
        a.connectToHost(QHostAddress::LocalHost, m_e2e.server().port());
        b.connectToHost(QHostAddress::LocalHost, m_e2e.server().port());
        QVERIFY(a.waitForConnected(5000) && b.waitForConnected(5000));
        a.write(renderBytes(origin("/slow.png")));
        b.write(renderBytes(origin("/slow.png")));
        a.waitForBytesWritten(2000);
        b.waitForBytesWritten(2000);
        const HttpReply ra = readReply(a), rb = readReply(b);
        QVERIFY2(ra.status == 200, ra.body.constData());
        QVERIFY2(rb.status == 200, rb.body.constData());
        QCOMPARE(centre(ra), QColor(Qt::blue));
        QCOMPARE(centre(rb), QColor(Qt::blue));
        QCOMPARE(m_origin->hits("/slow.png"), 1);
    }

    // Cache-Control: no-cache with an ETag: each render asks again, conditionally, and a
    // 304 serves the cached bytes.
    void revalidatesWithItsEtag()
    {
        QCOMPARE(centre(render(origin("/etag.png"))), QColor(Qt::yellow));
        QCOMPARE(centre(render(origin("/etag.png"))), QColor(Qt::yellow));
        QCOMPARE(m_origin->hits("/etag.png"), 2);
    }

    void contentIsSniffed()
    {
        const HttpReply r = render(origin("/mislabelled"));
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(centre(r), QColor(Qt::green));
    }

    void refusedOrFailing_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("field");
        const QString src = kSrcField;
        QTest::newRow("file") << "file:///etc/passwd"
                              << "image_refused"
                              << "tweaks.art";
        QTest::newRow("loopback not allowlisted") << "http://127.0.0.1:%SERVER%/api/v1/health"
                                                  << "image_refused" << src;
        QTest::newRow("mapped loopback") << "http://[::ffff:127.0.0.1]:%SERVER%/"
                                         << "image_refused" << src;
        QTest::newRow("cloud metadata") << "http://169.254.169.254/latest/meta-data/"
                                        << "image_refused" << src;
        QTest::newRow("localhost by name") << "http://localhost:%SERVER%/"
                                           << "image_refused" << src;
        QTest::newRow("redirect to private") << "%ORIGIN%/to-private"
                                             << "image_refused" << src;
        QTest::newRow("redirect to metadata") << "%ORIGIN%/to-metadata"
                                              << "image_refused" << src;
        QTest::newRow("redirect loop") << "%ORIGIN%/loop"
                                       << "image_unavailable" << src;
        QTest::newRow("pixel bomb") << "%ORIGIN%/bomb.png"
                                    << "image_too_large" << src;
        QTest::newRow("50 MiB body") << "%ORIGIN%/huge"
                                     << "image_too_large" << src;
        QTest::newRow("not found") << "%ORIGIN%/missing.png"
                                   << "image_unavailable" << src;
        QTest::newRow("not an image") << "%ORIGIN%/page.html"
                                      << "image_unavailable" << src;
        QTest::newRow("never answers") << "%SILENT%/x.png"
                                       << "image_unavailable" << src;
    }

    // Each fails within the time limit with its 4xx, naming the img and the URL; the
    // server stays healthy and the next render works.
    void refusedOrFailing()
    {
        QFETCH(QString, url);
        QFETCH(QString, code);
        QFETCH(QString, field);
        url.replace("%SERVER%", QString::number(m_e2e.server().port()));
        url.replace("%ORIGIN%", origin(QString()));
        url.replace("%SILENT%", QStringLiteral("http://127.0.0.2:%1").arg(m_origin->silentPort()));
        QElapsedTimer clock;
        clock.start();
        const HttpReply r = render(url);
        const qint64 took = clock.elapsed();
        VERIFY_PROBLEM(r, 422);
        QCOMPARE(r.json().value("code").toString(), code);
        QCOMPARE(r.json().value("field").toString(), field);
        QVERIFY2(r.json().value("detail").toString().contains(url.left(40)), r.body.constData());
        QVERIFY2(took < kTimeoutMs + 1500, qPrintable(QString::number(took)));

        QCOMPARE(httpRequest(m_e2e.server().port(), "GET", "/api/v1/health").status, 200);
        const HttpReply next = render(origin("/red.png"));
        QCOMPARE(next.status, 200);
        QCOMPARE(centre(next), QColor(Qt::red));
    }

    // A remote image that the policy allows but the render's image budget does not is
    // refused from its header, never decoded: the server's peak memory does not grow by
    // the 137 MiB it would take (issue 34: decoded images were bounded only by the deadline).
    void remoteImageOverTheRenderBudgetIsNotDecoded()
    {
        const auto peakMiB = [this] {
            QFile status(QStringLiteral("/proc/%1/status").arg(m_e2e.server().pid()));
            if (!status.open(QIODevice::ReadOnly))
                return -1.0;
            for (const QByteArray &line : status.readAll().split('\n'))
                if (line.startsWith("VmHWM:"))
                    return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024;
            return -1.0;
        };
        const double before = peakMiB();
        const HttpReply r = render(origin("/big.png"));
        VERIFY_PROBLEM(r, 422);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("render_budget_exceeded"));
        QCOMPARE(r.json().value("field").toString(), kSrcField);
        QVERIFY2(r.json().value("detail").toString().contains("6000×6000 px"), r.body.constData());
        const double after = peakMiB();
        qInfo("server peak RSS %.0f → %.0f MiB", before, after);
        QVERIFY(before > 0);
        QVERIFY2(after - before < 64, qPrintable(QString::number(after - before)));
        const HttpReply next = render(origin("/red.png"));
        QCOMPARE(next.status, 200);
    }

    // A maskImage url() is fetched before the render as an img src is (same policy, cache
    // and budget) and masks its element; one over the budget is refused naming maskImage.
    void maskImagesAreFetched()
    {
        const HttpReply r = render(origin("/mask.png"), m_maskPageId);
        QVERIFY2(r.status == 200, r.body.constData());
        const QImage image = decode(r.body, "png").convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(image.pixelColor(25, 50), QColor(Qt::blue));
        QCOMPARE(image.pixelColor(75, 50), QColor(Qt::white));
        QCOMPARE(m_origin->hits("/mask.png"), 1);
        const HttpReply big = render(origin("/big.png"), m_maskPageId);
        VERIFY_PROBLEM(big, 422);
        QCOMPARE(big.json().value("code").toString(), QStringLiteral("render_budget_exceeded"));
        QCOMPARE(big.json().value("field").toString(), QStringLiteral("maskImage"));
    }

    // The html engine's page: its http(s) images go through the remote image policy. The
    // allowlisted origin's is drawn; 127.0.0.1's is refused (the render succeeds without
    // it, with a warning naming it), and neither it nor the script's fetch() reaches
    // 127.0.0.1; file: loads nothing.
    void htmlEngineImagesFollowThePolicy()
    {
        const HttpReply r = httpRequest(m_e2e.server().port(), "POST", "/api/v1/render",
                                        json({{"pageId", m_htmlPageId}, {"output", "dataurl"}}),
                                        {{"Authorization", "Bearer " + m_token.toLatin1()}});
        QVERIFY2(r.status == 200, r.body.left(600).constData());
        const QString dataUrl = r.json().value("dataUrl").toString();
        const QImage image = decode(QByteArray::fromBase64(dataUrl.mid(dataUrl.indexOf(',') + 1).toLatin1()), "png");
        QCOMPARE(image.size(), QSize(200, 100));
        QCOMPARE(image.pixelColor(50, 50), QColor(Qt::red));
        QCOMPARE(image.pixelColor(150, 50), QColor(Qt::white)); // the blue image was not loaded
        const QString warnings
            = QString::fromUtf8(QJsonDocument(r.json().value("warnings").toArray()).toJson(QJsonDocument::Compact));
        QVERIFY2(warnings.contains(QStringLiteral("http://127.0.0.1:%1/blue.png").arg(m_loopback->port())),
                 qPrintable(warnings));
        QVERIFY2(warnings.contains("image_refused") && warnings.contains("render.imageHostAllowlist"),
                 qPrintable(warnings));
        QCOMPARE(m_loopback->hits("/blue.png"), 0);
        QCOMPARE(m_loopback->hits("/data"), 0);
        QCOMPARE(m_origin->hits("/red.png"), 1); // from the cache the takumi renders filled
    }

    // Every render of this suite went through one fetcher whose cache spared the network.
    void metricsCountTheFetches()
    {
        const QJsonObject m
            = httpRequest(m_e2e.server().port(), "GET", "/api/v1/metrics").json().value("remoteImages").toObject();
        QVERIFY2(m.value("memoryHits").toDouble() >= 10, qPrintable(QJsonDocument(m).toJson()));
        QVERIFY(m.value("notModified").toDouble() >= 1);
        QVERIFY(m.value("failures").toDouble() >= 10);
        QVERIFY(m.value("downloads").toDouble() < m.value("requests").toDouble());
    }
};

QTEST_MAIN(TestRemoteImages)
#include "tst_remote_images.moc"
