// Fonts and assets per space, end to end against the real server (docs/fonts-and-images.md):
// a TTF, a WOFF and a WOFF2 that no installed package provides (tests/http/fonts, SIL OFL
// 1.1, unmodified) are uploaded, deduplicated, listed, rendered in their face (pixels differ
// from the fallback), invisible to another space, refused when damaged, and deleted; images
// of each format become assets that `asset:ID` renders, SVG scripts are stripped, the plan's
// asset quota is a 402, and another space's asset is not found.
#include "render_api_helpers.h"

#include "../support/card_templates.h"
#include "../support/e2e_fixture.h"

#include "server/render/text/font_set.h"
#include "tests/support/ssim.h"

#include <QBuffer>
#include <QFile>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <webp/encode.h>

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray fontFile(const char *name)
{
    return readFile(QStringLiteral(IMPRINT_TEST_FONTS "/") + QLatin1String(name));
}

/// One request whose body has `contentType` (httpclient.h's always says JSON).
HttpReply upload(quint16 port, const QByteArray &path, const QByteArray &body, const QByteArray &contentType,
                 const QString &token)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    QByteArray req = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    req += "Authorization: Bearer " + token.toLatin1() + "\r\n";
    req += "Content-Type: " + contentType + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
    socket.write(req + body);
    socket.waitForBytesWritten(5000);
    return readReply(socket);
}

QByteArray encoded(const QImage &image, const char *format)
{
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, format);
    return out;
}

QByteArray webp(const QImage &image)
{
    const QImage rgba = image.convertToFormat(QImage::Format_RGBA8888);
    uint8_t *data = nullptr;
    const size_t size
        = WebPEncodeLosslessRGBA(rgba.constBits(), rgba.width(), rgba.height(), int(rgba.bytesPerLine()), &data);
    QByteArray out(reinterpret_cast<const char *>(data), qsizetype(size));
    WebPFree(data);
    return out;
}

QImage solid(int w, int h, QColor colour)
{
    QImage image(w, h, QImage::Format_RGB32);
    image.fill(colour);
    return image;
}

/// Share of pixels that differ by more than a little in any channel.
double differingShare(const QImage &a, const QImage &b)
{
    if (a.size() != b.size() || a.isNull())
        return 1;
    qint64 differ = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            differ += std::abs(qRed(p) - qRed(q)) > 24 || std::abs(qGreen(p) - qGreen(q)) > 24
                      || std::abs(qBlue(p) - qBlue(q)) > 24;
        }
    return double(differ) / (a.width() * a.height());
}

} // namespace

class TestFontsAssets : public QObject
{
    Q_OBJECT

    E2eFixture m_e2e;
    QString m_alpha, m_beta; // owner sessions of two spaces
    QString m_alphaKey, m_betaKey; // render keys
    QString m_gamma; // a session of gamma's owner (free plan, no assets but the quota test's)
    QString m_ttfId, m_ttfSha;

    quint16 port() const { return m_e2e.port(); }
    static Headers bearer(const QString &token) { return {{"Authorization", "Bearer " + token.toLatin1()}}; }

    /// A draft page in the session's space whose card is `text` in `family`, and its render.
    QJsonObject cardTemplate(const QString &family, const QString &text, int weight = 400) const
    {
        const QJsonObject style{{"display", "flex"},      {"width", "100%"},    {"height", "100%"},
                                {"alignItems", "center"}, {"padding", "20px"},  {"background", "#ffffff"},
                                {"color", "#000000"},     {"fontSize", "56px"}, {"fontFamily", family},
                                {"fontWeight", weight}};
        return {{"name", "card"},
                {"width", 600},
                {"height", 160},
                {"root", QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", style}, {"children", text}}}}}};
    }
    QString page(const QString &session, const QJsonObject &tmpl)
    {
        HttpReply t = httpRequest(port(), "POST", "/api/v1/templates", json(tmpl), bearer(session));
        if (t.status != 201)
            qWarning() << t.body;
        HttpReply p
            = httpRequest(port(), "POST", "/api/v1/pages",
                          json({{"templateId", t.data().value("id").toString()}, {"name", "p"}}), bearer(session));
        if (p.status != 201)
            qWarning() << p.body;
        return p.data().value("id").toString();
    }
    HttpReply render(const QString &pageId, const QString &key, const QString &output = QStringLiteral("binary"))
    {
        return httpRequest(port(), "POST", "/api/v1/render",
                           json({{"pageId", pageId}, {"draft", true}, {"output", output}}), bearer(key));
    }
    QImage card(const QString &session, const QString &key, const QString &family, const QString &text = "Quiz Jag",
                int weight = 400)
    {
        const HttpReply r = render(page(session, cardTemplate(family, text, weight)), key);
        if (r.status != 200)
            qWarning() << r.status << r.body.left(400);
        return decode(r.body).convertToFormat(QImage::Format_RGB32);
    }
private slots:
    void initTestCase()
    {
        E2eOptions world;
        world.plan = "pro";
        world.ownerEmail = "owner@alpha.test";
        world.keyName = "test";
        // A small asset quota on the free plan, so the test reaches it in two uploads.
        world.config = "{\"plans\": {\"free\": {\"maxWidth\": 1000, \"maxHeight\": 1000, \"assetBytes\": 200000}}}";
        world.start = false;
        QVERIFY2(m_e2e.setUp(world), m_e2e.failure());
        for (const char *space : {"beta", "gamma"})
            QVERIFY2(m_e2e.addOwner(QStringLiteral("owner@%1.test").arg(space), space, "free"), m_e2e.failure());
        m_alphaKey = QString::fromLatin1(m_e2e.key());
        m_betaKey = QString::fromLatin1(m_e2e.createKey("beta", "test"));
        QVERIFY(!m_alphaKey.isEmpty() && !m_betaKey.isEmpty());
        QVERIFY2(m_e2e.startServer(), m_e2e.failure());
        for (auto [email, out] : {std::pair{"owner@alpha.test", &m_alpha}, std::pair{"owner@beta.test", &m_beta},
                                  std::pair{"owner@gamma.test", &m_gamma}}) {
            *out = QString::fromLatin1(m_e2e.login(email));
            QVERIFY(!out->isEmpty());
        }
    }

    // CSS Fonts 4 §5.2 step 4 on a set of faces, without a server.
    void fontMatchingFollowsCssFonts()
    {
        imprint::render::FontSet set;
        for (auto [w, italic] : {std::pair{300, false}, std::pair{400, false}, std::pair{600, false},
                                 std::pair{900, false}, std::pair{400, true}})
            set.faces.append({"Brand", w, italic, QStringLiteral("f%1%2").arg(w).arg(italic ? "i" : "")});
        auto pick = [&](int weight, bool italic) { return set.match("brand", weight, italic)->internalFamily; };
        QCOMPARE(pick(400, false), QString("f400"));
        QCOMPARE(pick(500, false), QString("f400")); // 400–500: nothing in 500..500, then down
        QCOMPARE(pick(450, false), QString("f400"));
        QCOMPARE(pick(350, false), QString("f300")); // below 400: down first
        QCOMPARE(pick(200, false), QString("f300")); // then up
        QCOMPARE(pick(700, false), QString("f900")); // above 500: up first
        QCOMPARE(pick(950, false), QString("f900")); // then down
        QCOMPARE(pick(700, true), QString("f400i")); // style before weight
        QCOMPARE(pick(400, true), QString("f400i"));
        QVERIFY(!set.match("Other", 400, false));
        QVERIFY(set.match("\"Brand\"", 400, false));
    }

    void ttfUploadsAndRendersInItsFace()
    {
        const QByteArray ttf = fontFile("Comfortaa-Regular.ttf");
        QVERIFY(!ttf.isEmpty());
        HttpReply r = upload(port(), "/api/v1/fonts", ttf, "font/ttf", m_alpha);
        QCOMPARE(r.status, 201);
        const QJsonObject font = r.data();
        QVERIFY2(font.value("id").toString().startsWith("fnt_"), r.body.constData());
        QCOMPARE(font.value("family").toString(), QString("Comfortaa"));
        QCOMPARE(font.value("weight").toInt(), 400);
        QCOMPARE(font.value("style").toString(), QString("normal"));
        QCOMPARE(font.value("format").toString(), QString("ttf"));
        QCOMPARE(font.value("bytes").toInteger(), ttf.size());
        m_ttfId = font.value("id").toString();
        m_ttfSha = font.value("sha256").toString();

        const QImage branded = card(m_alpha, m_alphaKey, "Comfortaa");
        const QImage fallback = card(m_alpha, m_alphaKey, "NoSuchFamily");
        QVERIFY(!branded.isNull() && !fallback.isNull());
        QVERIFY2(differingShare(branded, fallback) > 0.01, "the uploaded face did not change the card");
        // As Chromium draws the same file with @font-face (tests/http/fonts/chromium/*.html).
        const double ssim = imprint::render::test::ssimOf(branded, QImage(QStringLiteral(IMPRINT_TEST_FONTS "/chromium/comfortaa-card.png")));
        qInfo("SSIM against Chromium: %.4f", ssim);
        QVERIFY2(ssim >= 0.97, qPrintable(QStringLiteral("SSIM against Chromium %1").arg(ssim)));
        // A family list resolves to the first family the space has.
        const QImage listed = card(m_alpha, m_alphaKey, "NoSuchFamily, Comfortaa, sans-serif");
        QCOMPARE(differingShare(listed, branded), 0.0);
    }

    void sameBytesAreDeduplicated()
    {
        HttpReply r = upload(port(), "/api/v1/fonts", fontFile("Comfortaa-Regular.ttf"), "font/ttf", m_alpha);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("id").toString(), m_ttfId);
        QCOMPARE(r.data().value("deduplicated").toBool(), true);
        const HttpReply list = httpRequest(port(), "GET", "/api/v1/fonts", {}, bearer(m_alpha));
        QCOMPARE(list.status, 200);
        QCOMPARE(list.data().value("count").toInt(), 1);
        QCOMPARE(list.data().value("list").toArray().first().toObject().value("id").toString(), m_ttfId);
        QCOMPARE(list.data().value("perPage").toInt(), 20);
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/fonts?perPage=1000", {}, bearer(m_alpha)).status, 400);
    }

    void woff2AndWoffWithOverrides()
    {
        HttpReply r = upload(port(), "/api/v1/fonts?family=Brand%20Comic", fontFile("ComicNeue-Regular.woff2"),
                             "font/woff2", m_alpha);
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("family").toString(), QString("Brand Comic"));
        QCOMPARE(r.data().value("format").toString(), QString("woff2"));
        r = upload(port(), "/api/v1/fonts?weight=700&style=normal", fontFile("ComicNeue-Bold.woff"), "font/woff",
                   m_alpha);
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("family").toString(), QString("Comic Neue"));
        QCOMPARE(r.data().value("weight").toInt(), 700);
        QCOMPARE(r.data().value("format").toString(), QString("woff"));

        const QImage comic = card(m_alpha, m_alphaKey, "Brand Comic");
        const QImage fallback = card(m_alpha, m_alphaKey, "NoSuchFamily");
        const QImage comfortaa = card(m_alpha, m_alphaKey, "Comfortaa");
        const QImage bold = card(m_alpha, m_alphaKey, "Comic Neue", "Quiz Jag", 700);
        QVERIFY(differingShare(comic, fallback) > 0.01);
        const double ssim = imprint::render::test::ssimOf(comic, QImage(QStringLiteral(IMPRINT_TEST_FONTS "/chromium/brand-comic-card.png")));
        qInfo("SSIM against Chromium: %.4f", ssim);
        QVERIFY2(ssim >= 0.97, qPrintable(QStringLiteral("SSIM against Chromium %1").arg(ssim)));
        QVERIFY(differingShare(comic, comfortaa) > 0.01);
        QVERIFY(differingShare(bold, fallback) > 0.01);
        QVERIFY(differingShare(bold, comic) > 0.01);
    }

    /// Issue 29: a variable WOFF2 keeps its axes; the listing names them and its named
    /// instances; fontWeight picks any instance and is clamped to the axis.
    void variableFontListsAxesAndInstances()
    {
        HttpReply r = upload(port(), "/api/v1/fonts?family=Brand%20Variable", fontFile("Karla-wght.woff2"),
                             "font/woff2", m_alpha);
        QCOMPARE(r.status, 201);
        const QJsonArray axes = r.data().value("axes").toArray();
        QCOMPARE(axes.size(), 1);
        QCOMPARE(axes[0].toObject(), (QJsonObject{{"tag", "wght"}, {"min", 200}, {"default", 400}, {"max", 800}}));
        const QString id = r.data().value("id").toString();
        const HttpReply list = httpRequest(port(), "GET", "/api/v1/fonts", {}, bearer(m_alpha));
        QCOMPARE(list.status, 200);
        QJsonObject listed;
        for (const QJsonValue &font : list.data().value("list").toArray())
            if (font.toObject().value("id").toString() == id)
                listed = font.toObject();
        QCOMPARE(listed.value("axes").toArray(), axes);
        QStringList names;
        for (const QJsonValue &instance : listed.value("instances").toArray()) {
            names << instance.toObject().value("name").toString();
            if (names.last() == QLatin1String("Bold"))
                QCOMPARE(instance.toObject().value("axes").toObject(), (QJsonObject{{"wght", 700}}));
        }
        QVERIFY2(names.contains("ExtraLight") && names.contains("Bold") && names.contains("ExtraBold"),
                 qPrintable(names.join(u',')));
        // A static face lists no axes.
        for (const QJsonValue &font : list.data().value("list").toArray())
            if (font.toObject().value("family").toString() == QLatin1String("Comfortaa"))
                QVERIFY(font.toObject().value("axes").toArray().isEmpty());

        const QImage light = card(m_alpha, m_alphaKey, "Brand Variable", "Quiz Jag", 250);
        const QImage heavy = card(m_alpha, m_alphaKey, "Brand Variable", "Quiz Jag", 750);
        QVERIFY2(differingShare(light, heavy) > 0.01, "fontWeight did not select another instance");
        // 900 is past the axis (200–800): the 800 instance, not emboldened.
        QCOMPARE(differingShare(card(m_alpha, m_alphaKey, "Brand Variable", "Quiz Jag", 900),
                                card(m_alpha, m_alphaKey, "Brand Variable", "Quiz Jag", 800)),
                 0.0);
        QVERIFY(httpRequest(port(), "DELETE", "/api/v1/fonts/" + id.toLatin1(), {}, bearer(m_alpha)).status == 200);
    }

    void missingGlyphIsAWarning()
    {
        const HttpReply r = render(page(m_alpha, cardTemplate("Comfortaa", QStringLiteral("Hi \u4E2D"))), m_alphaKey,
                                   QStringLiteral("json"));
        QCOMPARE(r.status, 200);
        const QJsonArray warnings = r.json().value("warnings").toArray();
        QVERIFY2(warnings.contains(QJsonValue("fontFamily 'Comfortaa' has no glyph for U+4E2D; a system font drew it")),
                 r.body.constData());
    }

    // A character outside the BMP (a surrogate pair in the text) is named by its own
    // code point, U+1D400, not by one made of its low surrogate twice (GCC: U+110000).
    void missingAstralGlyphNamesItsCodePoint()
    {
        const HttpReply r = render(page(m_alpha, cardTemplate("Comfortaa", QStringLiteral("Hi \U0001D400"))),
                                   m_alphaKey, QStringLiteral("json"));
        QCOMPARE(r.status, 200);
        const QJsonArray warnings = r.json().value("warnings").toArray();
        QVERIFY2(warnings.contains(QJsonValue("fontFamily 'Comfortaa' has no glyph for U+1D400; a system font drew it")),
                 r.body.constData());
    }

    void otherSpacesCannotSeeTheFonts()
    {
        const HttpReply list = httpRequest(port(), "GET", "/api/v1/fonts", {}, bearer(m_beta));
        QCOMPARE(list.status, 200);
        QCOMPARE(list.data().value("count").toInt(), 0);
        const QImage fallback = card(m_beta, m_betaKey, "NoSuchFamily");
        QCOMPARE(differingShare(card(m_beta, m_betaKey, "Comfortaa"), fallback), 0.0);
        // Nor by the internal name the face is registered under.
        QCOMPARE(differingShare(card(m_beta, m_betaKey, imprint::render::internalFamilyFor(m_ttfSha)), fallback), 0.0);
        QCOMPARE(httpRequest(port(), "DELETE", "/api/v1/fonts/" + m_ttfId.toLatin1(), {}, bearer(m_beta)).status, 404);
    }

    void badFontsAreRefused()
    {
        HttpReply r = upload(port(), "/api/v1/fonts", "this is not a font at all", "font/ttf", m_alpha);
        QVERIFY(isProblem(r, 400));
        QCOMPARE(r.json().value("code").toString(), QString("invalid_font"));
        QCOMPARE(r.json().value("field").toString(), QString("body"));
        QVERIFY2(r.json().value("detail").toString().contains("not a TrueType"), r.body.constData());
        r = upload(port(), "/api/v1/fonts", fontFile("Comfortaa-Regular.ttf").left(3000), "font/ttf", m_alpha);
        QVERIFY(isProblem(r, 400));
        QCOMPARE(r.json().value("code").toString(), QString("invalid_font"));
        r = upload(port(), "/api/v1/fonts", fontFile("ComicNeue-Regular.woff2").left(5000), "font/woff2", m_alpha);
        QVERIFY(isProblem(r, 400));
        QVERIFY2(r.json().value("detail").toString().contains("WOFF2"), r.body.constData());
        r = upload(port(), "/api/v1/fonts", fontFile("Comfortaa-Regular.ttf"), "image/png", m_alpha);
        QVERIFY(isProblem(r, 400));
        QCOMPARE(r.json().value("field").toString(), QString("Content-Type"));
        r = upload(port(), "/api/v1/fonts?family=sans-serif", fontFile("Comfortaa-Regular.ttf"), "font/ttf", m_beta);
        QVERIFY(isProblem(r, 400));
        QCOMPARE(r.json().value("field").toString(), QString("family"));
    }

    void deletedFontsNoLongerRender()
    {
        const QImage fallback = card(m_alpha, m_alphaKey, "NoSuchFamily");
        HttpReply r = httpRequest(port(), "DELETE", "/api/v1/fonts/" + m_ttfId.toLatin1(), {}, bearer(m_alpha));
        QCOMPARE(r.status, 200);
        QCOMPARE(differingShare(card(m_alpha, m_alphaKey, "Comfortaa"), fallback), 0.0);
        r = httpRequest(port(), "DELETE", "/api/v1/fonts/" + m_ttfId.toLatin1(), {}, bearer(m_alpha));
        QVERIFY(isProblem(r, 404));
        QCOMPARE(r.json().value("code").toString(), QString("font_not_found"));
    }

    void assetsOfEachFormatRender_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("contentType");
        QTest::addColumn<QRgb>("colour");
        const QImage red = solid(40, 20, QColor(220, 20, 20));
        QTest::newRow("png") << encoded(red, "PNG") << "image/png" << qRgb(220, 20, 20);
        QTest::newRow("jpeg") << encoded(solid(40, 20, QColor(20, 20, 220)), "JPEG") << "image/jpeg"
                              << qRgb(20, 20, 220);
        QTest::newRow("webp") << webp(solid(40, 20, QColor(20, 160, 20))) << "image/webp" << qRgb(20, 160, 20);
        // GIF89a, 1×1, one red pixel (Qt writes no GIF).
        QTest::newRow("gif") << QByteArray::fromHex("4749463839610100010080000"
                                                    "0ff000000000021f90400000000002c000000000100010000020244"
                                                    "01003b")
                             << "image/gif" << qRgb(255, 0, 0);
        QTest::newRow("svg") << QByteArray("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\">"
                                           "<rect width=\"40\" height=\"20\" fill=\"#e0a000\"/></svg>")
                             << "image/svg+xml" << qRgb(0xe0, 0xa0, 0x00);
    }
    void assetsOfEachFormatRender()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, contentType);
        QFETCH(QRgb, colour);
        HttpReply r = upload(port(), "/api/v1/assets", bytes, "application/octet-stream", m_alpha);
        QCOMPARE(r.status, 201);
        const QJsonObject asset = r.data();
        QVERIFY2(asset.value("id").toString().startsWith("ast_"), r.body.constData());
        QCOMPARE(asset.value("contentType").toString(), contentType);
        QVERIFY(asset.value("width").toInt() > 0 && asset.value("height").toInt() > 0);
        QVERIFY(asset.value("bytes").toInteger() > 0);
        const QString url = asset.value("url").toString();
        QVERIFY2(url.contains("/api/v1/files/"), qPrintable(url));
        const HttpReply file = httpRequest(port(), "GET", QUrl(url).path().toLatin1());
        QCOMPARE(file.status, 200);
        QCOMPARE(file.header("Content-Type"), contentType.toLatin1());

        for (const QString &src : {"asset:" + asset.value("id").toString(), url}) {
            const QJsonObject tmpl = imprint::test::imageCard(QStringLiteral("asset"), src, 100, 50);
            const HttpReply png = render(page(m_alpha, tmpl), m_alphaKey);
            QCOMPARE(png.status, 200);
            const QRgb p = decode(png.body).pixel(50, 25);
            QVERIFY2(std::abs(qRed(p) - qRed(colour)) < 30 && std::abs(qGreen(p) - qGreen(colour)) < 30
                         && std::abs(qBlue(p) - qBlue(colour)) < 30,
                     qPrintable(QStringLiteral("%1 rendered %2").arg(src).arg(p, 8, 16)));
        }
    }

    void svgAssetsAreSanitised()
    {
        const QByteArray svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""
                               " width=\"10\" height=\"10\"><script>alert(1)</script>"
                               "<image xlink:href=\"file:///etc/passwd\" width=\"5\" height=\"5\"/>"
                               "<rect width=\"10\" height=\"10\" fill=\"red\"/></svg>";
        HttpReply r = upload(port(), "/api/v1/assets", svg, "image/svg+xml", m_alpha);
        QCOMPARE(r.status, 201);
        const HttpReply file = httpRequest(port(), "GET", QUrl(r.data().value("url").toString()).path().toLatin1());
        QCOMPARE(file.status, 200);
        QVERIFY(!file.body.contains("script"));
        QVERIFY(!file.body.contains("/etc/passwd"));
        QVERIFY(file.body.contains("rect"));
        r = upload(port(), "/api/v1/assets", "GIF87a but not really", "image/gif", m_alpha);
        QVERIFY(isProblem(r, 400));
        QCOMPARE(r.json().value("code").toString(), QString("invalid_image"));
    }

    void assetsAreScopedToTheirSpace()
    {
        HttpReply r = upload(port(), "/api/v1/assets", encoded(solid(10, 10, Qt::green), "PNG"), "image/png", m_alpha);
        QVERIFY(r.status == 201 || r.status == 200);
        const QString id = r.data().value("id").toString();
        const HttpReply beta = httpRequest(port(), "GET", "/api/v1/assets", {}, bearer(m_beta));
        QCOMPARE(beta.status, 200);
        QCOMPARE(beta.data().value("count").toInt(), 0);
        QVERIFY(isProblem(httpRequest(port(), "DELETE", "/api/v1/assets/" + id.toLatin1(), {}, bearer(m_beta)), 404));
        // Beta's render cannot load it: the image is left out with a warning naming it.
        const QJsonObject tmpl = imprint::test::imageCard(QStringLiteral("x"), "asset:" + id, 20, 20);
        const HttpReply out = render(page(m_beta, tmpl), m_betaKey, QStringLiteral("json"));
        QCOMPARE(out.status, 200);
        QVERIFY2(QJsonDocument(out.json().value("warnings").toArray()).toJson().contains("no asset"),
                 out.body.constData());
        QCOMPARE(httpRequest(port(), "DELETE", "/api/v1/assets/" + id.toLatin1(), {}, bearer(m_alpha)).status, 200);
    }

    /// A deleted asset leaves the next render of a page that draws it at once, not after
    /// the 10 s render memo, and a signed URL's ETag changes with it: a cache revalidating
    /// the old tag gets the new image, not 304 Not Modified. (The memo key and the tag did
    /// not depend on the space's assets.)
    void deletedAssetsNoLongerRender()
    {
        const QColor cyan(10, 200, 200);
        HttpReply r = upload(port(), "/api/v1/assets", encoded(solid(40, 20, cyan), "PNG"), "image/png", m_alpha);
        QCOMPARE(r.status, 201);
        const QString id = r.data().value("id").toString();
        const QString pageId = page(m_alpha, imprint::test::imageCard(QStringLiteral("gone"), "asset:" + id, 100, 50));
        QCOMPARE(httpRequest(port(), "POST", "/api/v1/pages/" + pageId.toLatin1() + "/publish", {}, bearer(m_alpha))
                     .status,
                 200);
        const QByteArray byKey = "/api/v1/render?output=binary&pageId=" + pageId.toLatin1();
        r = httpRequest(port(), "POST", "/api/v1/signing-keys", json({{"name", "assets"}}), bearer(m_alpha));
        QCOMPARE(r.status, 201);
        const QByteArray signingKey = r.data().value("id").toString().toLatin1();
        r = httpRequest(port(), "POST", "/api/v1/signing-keys/" + signingKey + "/sign",
                        json({{"url", QStringLiteral("http://127.0.0.1/api/v1/render?format=png&pageId=") + pageId}}),
                        bearer(m_alpha));
        QCOMPARE(r.status, 200);
        const QUrl signedUrl(r.data().value("url").toString());
        const QByteArray signedPath = (signedUrl.path() + u'?' + signedUrl.query(QUrl::FullyEncoded)).toLatin1();
        const auto centre = [](const HttpReply &png) { return decode(png.body).pixelColor(50, 25); };

        QCOMPARE(centre(httpRequest(port(), "GET", byKey, {}, bearer(m_alphaKey))), cyan);
        const HttpReply before = httpRequest(port(), "GET", signedPath);
        QCOMPARE(before.status, 200);
        QCOMPARE(centre(before), cyan);
        const QByteArray etag = before.header("ETag");
        QVERIFY(!etag.isEmpty());
        QCOMPARE(httpRequest(port(), "GET", signedPath, {}, {{"If-None-Match", etag}}).status, 304);

        QCOMPARE(httpRequest(port(), "DELETE", "/api/v1/assets/" + id.toLatin1(), {}, bearer(m_alpha)).status, 200);
        QVERIFY(centre(httpRequest(port(), "GET", byKey, {}, bearer(m_alphaKey))) != cyan);
        const HttpReply revalidated = httpRequest(port(), "GET", signedPath, {}, {{"If-None-Match", etag}});
        QCOMPARE(revalidated.status, 200);
        QVERIFY(centre(revalidated) != cyan);
        QVERIFY(revalidated.header("ETag") != etag);
    }

    void assetQuotaIsThePlans()
    {
        // beta is on the free plan, capped at 200 000 bytes by this test's config.json.
        auto noise = [](quint32 seed) {
            QImage image(200, 200, QImage::Format_RGB32);
            QRandomGenerator rng(seed);
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    image.setPixel(x, y, rng.generate() | 0xff000000);
            return encoded(image, "PNG");
        };
        const QByteArray first = noise(1), second = noise(2);
        QVERIFY(first.size() > 100000 && first.size() < 200000);
        QCOMPARE(upload(port(), "/api/v1/assets", first, "image/png", m_beta).status, 201);
        const HttpReply r = upload(port(), "/api/v1/assets", second, "image/png", m_beta);
        QVERIFY2(isProblem(r, 402), r.body.constData());
        QCOMPARE(r.json().value("code").toString(), QString("asset_quota_exceeded"));
        QVERIFY(r.json().value("detail").toString().contains("free"));
        // The same bytes again are no new bytes: deduplicated, not over the quota.
        QCOMPARE(upload(port(), "/api/v1/assets", first, "image/png", m_beta).status, 200);
    }

    // The quota check and the charge are one transaction: uploads that arrive together
    // cannot each pass the check before any of them is counted (twelve parallel 2.6 MB
    // uploads stored 12.4 MiB under a 10 MiB quota).
    void parallelUploadsStayWithinTheQuota()
    {
        constexpr qint64 kQuota = 200000; // the free plan's, from this test's config.json
        constexpr int kUploads = 12;
        QList<QByteArray> images;
        for (int i = 0; i < kUploads; ++i) {
            QImage image(110, 110, QImage::Format_RGB32);
            QRandomGenerator rng(quint32(1000 + i));
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    image.setPixel(x, y, rng.generate() | 0xff000000);
            images << encoded(image, "PNG");
        }
        QVERIFY(images.first().size() > kQuota / 6 && images.first().size() < kQuota / 3);
        // Every request is on the wire before any answer is read.
        std::vector<std::unique_ptr<QTcpSocket>> sockets;
        for (const QByteArray &body : images) {
            auto socket = std::make_unique<QTcpSocket>();
            socket->connectToHost(QHostAddress::LocalHost, port());
            QVERIFY(socket->waitForConnected(5000));
            socket->write("POST /api/v1/assets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer "
                          + m_gamma.toLatin1() + "\r\nContent-Type: image/png\r\nContent-Length: "
                          + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            sockets.push_back(std::move(socket));
        }
        for (auto &socket : sockets)
            QVERIFY(socket->waitForBytesWritten(5000) || socket->bytesToWrite() == 0);
        qint64 accepted = 0;
        int created = 0, refused = 0;
        for (auto &socket : sockets) {
            const HttpReply r = readReply(*socket, 30000);
            if (r.status == 201) {
                ++created;
                accepted += r.data().value("bytes").toInteger();
                continue;
            }
            QVERIFY2(isProblem(r, 402), r.body.constData());
            QCOMPARE(r.json().value("code").toString(), QString("asset_quota_exceeded"));
            QCOMPARE(r.json().value("field").toString(), QString("body"));
            ++refused;
        }
        QCOMPARE(created + refused, kUploads);
        QVERIFY(created > 0 && refused > 0);
        QVERIFY2(accepted <= kQuota, qPrintable(QString::number(accepted)));
        // What the space holds, as it lists it.
        const HttpReply list = httpRequest(port(), "GET", "/api/v1/assets?perPage=100", {}, bearer(m_gamma));
        QCOMPARE(list.status, 200);
        qint64 stored = 0;
        const QJsonArray items = list.data().value("list").toArray();
        for (const QJsonValue &item : items)
            stored += item.toObject().value("bytes").toInteger();
        QCOMPARE(items.size(), created);
        QVERIFY2(stored <= kQuota, qPrintable(QString::number(stored)));
        // Full up to the last image that fits: a refused one did not fit when it came, and
        // the space has only grown since.
        qint64 largest = 0;
        for (const QByteArray &image : images)
            largest = std::max<qint64>(largest, image.size());
        QVERIFY2(stored > kQuota - largest, qPrintable(QString::number(stored)));
    }

    void cleanupTestCase() { m_e2e.server().stop(); }
};

QTEST_GUILESS_MAIN(TestFontsAssets)
#include "tst_fonts_assets.moc"
