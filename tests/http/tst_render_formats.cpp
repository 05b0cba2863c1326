// End-to-end tests of the JPEG and AVIF outputs (docs/api.md, "Formats and engines") for
// page and pattern renders, against the real `imprint serve`. The images are decoded by
// independent decoders — Qt's JPEG plugin, libavif's — and their size and a pixel checked.
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QColor>
#include <QFile>
#include <QTest>

#include <avif/avif.h>

#include <cstdlib>

namespace {

// A flat #336699 card with no text, so every pixel should decode to that colour.
const QByteArray kTemplate = R"({"name": "Flat", "width": 160, "height": 90, "rendererType": "takumi",
  "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
           "backgroundColor": "#336699"}}}})";

/// An AVIF decoded by libavif to 8-bit RGBA; null if it does not decode.
QImage decodeAvif(const QByteArray &bytes)
{
    avifDecoder *decoder = avifDecoderCreate();
    avifImage *image = avifImageCreateEmpty();
    QImage out;
    if (avifDecoderReadMemory(decoder, image, reinterpret_cast<const uint8_t *>(bytes.constData()),
                              size_t(bytes.size()))
        == AVIF_RESULT_OK) {
        avifRGBImage rgb;
        avifRGBImageSetDefaults(&rgb, image);
        rgb.format = AVIF_RGB_FORMAT_RGBA;
        rgb.depth = 8;
        out = QImage(int(image->width), int(image->height), QImage::Format_RGBA8888);
        rgb.pixels = out.bits();
        rgb.rowBytes = uint32_t(out.bytesPerLine());
        if (avifImageYUVToRGB(image, &rgb) != AVIF_RESULT_OK)
            out = QImage();
    }
    avifImageDestroy(image);
    avifDecoderDestroy(decoder);
    return out;
}

/// Whether `c` is within `tolerance` of `expected` in each channel (lossy formats).
bool near(QColor c, QColor expected, int tolerance = 6)
{
    return std::abs(c.red() - expected.red()) <= tolerance && std::abs(c.green() - expected.green()) <= tolerance
           && std::abs(c.blue() - expected.blue()) <= tolerance;
}

// A card with a diagonal gradient and antialiased text: thousands of colours.
const QByteArray kGradientTemplate = R"json({"name": "Gradient", "width": 600, "height": 315, "rendererType": "takumi",
  "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
           "padding": 40, "fontSize": 44, "color": "white",
           "backgroundImage": "linear-gradient(135deg, #4f46e5, #db2777)"},
           "children": "Smaller PNGs for every crawler fetch"}}})json";

} // namespace

class TestRenderFormats : public QObject
{
    Q_OBJECT

private:
    E2eFixture m_e2e;
    QByteArray m_key;
    QByteArray m_pageId;
    QByteArray m_gradientPageId;

    quint16 port() const { return m_e2e.port(); }
    HttpReply render(const QByteArray &query)
    {
        return httpRequest(port(), "GET", "/api/v1/render?" + query, {}, {{"Authorization", "Bearer " + m_key}});
    }

private slots:
    void initTestCase()
    {
        E2eOptions world;
        world.pageTemplate = kTemplate;
        world.start = false;
        QVERIFY2(m_e2e.setUp(world), m_e2e.failure());
        m_pageId = m_e2e.pageId();
        m_gradientPageId = m_e2e.publishPage("alpha", kGradientTemplate);
        QVERIFY(m_gradientPageId.startsWith("pg_"));
        m_key = m_e2e.key();
        QVERIFY(m_pageId.startsWith("pg_") && m_key.startsWith("imp_"));
        QVERIFY2(m_e2e.startServer(), m_e2e.failure());
    }

    void pageAsJpeg()
    {
        const HttpReply r = render("pageId=" + m_pageId + "&format=jpeg&quality=90&output=binary");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/jpeg"));
        const QImage image = decode(r.body, "jpeg");
        QCOMPARE(image.size(), QSize(160, 90));
        QVERIFY2(near(image.pixelColor(80, 45), QColor(0x33, 0x66, 0x99)), qPrintable(image.pixelColor(80, 45).name()));
        // `quality` is honoured: a low one makes a smaller file ("jpg" is an alias).
        const HttpReply low = render("pageId=" + m_pageId + "&format=jpg&quality=5&output=binary&width=640&height=360");
        const HttpReply high
            = render("pageId=" + m_pageId + "&format=jpeg&quality=100&output=binary&width=640&height=360");
        QCOMPARE(low.status, 200);
        QCOMPARE(high.status, 200);
        QVERIFY2(low.body.size() < high.body.size(),
                 qPrintable(QStringLiteral("%1 vs %2").arg(low.body.size()).arg(high.body.size())));
    }

    void pageAsAvif()
    {
        const HttpReply r = render("pageId=" + m_pageId + "&format=avif&quality=80&speed=10&output=binary");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/avif"));
        const QImage image = decodeAvif(r.body);
        QCOMPARE(image.size(), QSize(160, 90));
        QVERIFY2(near(image.pixelColor(80, 45), QColor(0x33, 0x66, 0x99)), qPrintable(image.pixelColor(80, 45).name()));
    }

    void storedJpegAndAvifFiles()
    {
        for (const char *format : {"jpeg", "avif"}) {
            const HttpReply r = render("pageId=" + m_pageId + "&format=" + format);
            QCOMPARE(r.status, 200);
            const QJsonObject file = r.data().value("file").toObject();
            QCOMPARE(r.data().value("format").toString(), QString::fromLatin1(format));
            QCOMPARE(file.value("contentType").toString(), QStringLiteral("image/") + format);
            const QByteArray url = file.value("url").toString().toLatin1();
            QVERIFY2(url.endsWith(QByteArray(".") + format), url.constData());
            const HttpReply f = httpRequest(port(), "GET", url.mid(url.indexOf("/api/v1/")));
            QCOMPARE(f.status, 200);
            QCOMPARE(f.header("Content-Type"), QByteArray("image/") + format);
        }
    }

    void patternAsJpegAndAvif()
    {
        HttpReply r = httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&width=120&height=60&format=jpeg");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/jpeg"));
        QCOMPARE(decode(r.body, "jpeg").size(), QSize(120, 60));
        r = httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&width=120&height=60&format=avif");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/avif"));
        const QImage avif = decodeAvif(r.body);
        QCOMPARE(avif.size(), QSize(120, 60));
        // The same pixel as the PNG render, within AV1's loss.
        const QImage png
            = decode(httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&width=120&height=60").body, "png");
        QVERIFY2(near(avif.pixelColor(10, 10), png.pixelColor(10, 10), 24),
                 qPrintable(avif.pixelColor(10, 10).name() + " vs " + png.pixelColor(10, 10).name()));
    }

    void pngCompressionTiers()
    {
        // A many-colour card: `small` quantises it to a palette PNG, far fewer bytes that
        // still look the same; `fast` and `lossless` stay exact RGB, `default` within 8/255.
        const QByteArray base = "pageId=" + m_gradientPageId + "&output=binary";
        const HttpReply lossless = render(base + "&compression=lossless");
        const HttpReply fast = render(base + "&compression=fast");
        const HttpReply small = render(base + "&compression=small");
        const HttpReply visuallyLossless = render(base + "&compression=default");
        QCOMPARE(lossless.status, 200);
        QCOMPARE(fast.status, 200);
        QCOMPARE(small.status, 200);
        QCOMPARE(visuallyLossless.status, 200);
        QCOMPARE(quint8(lossless.body.at(25)), quint8(2));
        QCOMPARE(quint8(small.body.at(25)), quint8(3));
        QVERIFY2(small.body.size() * 3 < lossless.body.size() * 2,
                 qPrintable(QStringLiteral("%1 vs %2").arg(small.body.size()).arg(lossless.body.size())));
        const QImage a = decode(lossless.body, "png"), b = decode(small.body, "png");
        QCOMPARE(decode(fast.body, "png"), a);
        const QImage d = decode(visuallyLossless.body, "png");
        QCOMPARE(d.size(), a.size());
        for (QPoint pt : {QPoint(10, 10), QPoint(300, 250), QPoint(500, 100)})
            QVERIFY(near(d.pixelColor(pt), a.pixelColor(pt), 8));
        QVERIFY2(near(a.pixelColor(300, 250), b.pixelColor(300, 250), 8),
                 qPrintable(a.pixelColor(300, 250).name() + " vs " + b.pixelColor(300, 250).name()));
        // Pattern renders take it too; a tier that does not exist is a 400 naming the field.
        const HttpReply pattern
            = httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&width=120&height=60&compression=small");
        QCOMPARE(pattern.status, 200);
        QCOMPARE(decode(pattern.body, "png").size(), QSize(120, 60));
        const HttpReply bad = render("pageId=" + m_pageId + "&compression=tiny");
        VERIFY_PROBLEM(bad, 400);
        QCOMPARE(bad.json().value("field").toString(), QStringLiteral("compression"));
    }

    void badFormatInput()
    {
        // svg stays where it was: page renders only.
        VERIFY_PROBLEM(httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&format=svg"), 400);
        HttpReply r = render("pageId=" + m_pageId + "&format=avif&speed=11");
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("speed"));
        r = render("pageId=" + m_pageId + "&format=jpeg&quality=0");
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("quality"));
        r = render("pageId=" + m_pageId + "&format=gif");
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("format"));
    }
};

QTEST_GUILESS_MAIN(TestRenderFormats)
#include "tst_render_formats.moc"
