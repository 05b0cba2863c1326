// mask-image with url() images (CSS Masking 1 §7): SVG icons and alpha PNGs used as masks
// the way @vercel/og and takumi users write them, with mask-size, mask-position and
// mask-repeat (and the -webkit- spellings). The cases (masks/cases, written by
// masks/make_cases.py) are rendered by both layout engines and compared with Chromium's
// screenshots (masks/chromium, scripts/chromium-oracle) by mean SSIM of luma; the style
// values and the html engine's page are checked too.
// Set IMPRINT_MASKS_DUMP=DIR to write the renders there as PNG for inspection.

#include "server/render/document/html_page.h"
#include "server/render/document/template.h"
#include "server/render/pipeline.h"
#include "server/render/resources/image_decoder.h"
#include "tests/render/style_test_support.h"
#include "tests/support/fixtures.h"
#include "tests/support/render_requests.h"
#include "tests/support/render_context.h"
#include "tests/support/ssim.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace imprint::render::test;

namespace {

QString masksDir()
{
    return QStringLiteral(IMPRINT_SOURCE_DIR "/tests/render/masks");
}

/// One case's SSIM floor against Chromium per engine: what the engine achieved when the
/// case was added, less 0.005 for font rasterisation differences between machines.
struct MaskCase {
    const char *name;
    double takumi, satori;
};

// name               takumi  satori     (achieved takumi / satori)
constexpr MaskCase kCases[] = {
    {"mask-svg-icons", 0.994, 0.994}, // 0.99946 / 0.99946 (0.776 with the masks ignored)
    {"mask-png-alpha", 0.994, 0.994}, // 0.99939 / 0.99939
    {"mask-layers", 0.994, 0.994}, // 0.99916 / 0.99916
};

/// The case `name` rendered by `engine` as the PNG the service would answer.
QImage renderCase(const QString &name, const QString &engine, QString *error)
{
    const auto png = imprint::test::renderTemplateFile(masksDir() + QStringLiteral("/cases/%1.json").arg(name), engine,
                                                       imprint::test::renderContext());
    const QImage image = png ? QImage::fromData(png->bytes) : QImage();
    const RenderError failure = imprint::test::failureOf(png);
    if (image.isNull())
        *error = failure.field + QStringLiteral(": ") + failure.message;
    for (const QString &w : png ? png->warnings : QStringList())
        *error += w + u'\n';
    if (const QString dump = qEnvironmentVariable("IMPRINT_MASKS_DUMP"); !dump.isEmpty() && !image.isNull()) {
        QDir().mkpath(dump);
        image.save(dump + QStringLiteral("/%1.%2.png").arg(name, engine));
    }
    return image;
}

/// A 200 × 100 white card with two 100 × 100 red boxes side by side, each with one more
/// style declaration (property, value).
QJsonObject twoRedBoxes(std::pair<const char *, const char *> left, std::pair<const char *, const char *> right)
{
    QJsonArray boxes;
    for (const auto &[property, value] : {left, right})
        boxes.append(QJsonObject{
            {"type", "div"},
            {"props", QJsonObject{{"style", QJsonObject{{"width", 100},
                                                        {"height", 100},
                                                        {"backgroundColor", "#ff0000"},
                                                        {property, value}}}}}});
    return QJsonObject{{"width", 200},
                       {"height", 100},
                       {"root", QJsonObject{{"type", "div"},
                                            {"props", QJsonObject{{"style", QJsonObject{{"backgroundColor", "#ffffff"}}},
                                                                  {"children", boxes}}}}}};
}

} // namespace

class TestMasks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    /// url() layers parse with their size, position and repeat, in both spellings; a
    /// gradient layer still parses; an unsupported image is a warning naming the value.
    void styleValues()
    {
        QStringList warnings;
        const ComputedStyle s = style("{\"maskImage\": \"url(data:image/png;base64,AAAA), linear-gradient(red, blue)\","
                                      " \"maskSize\": \"contain, 10px 20%\", \"maskRepeat\": \"no-repeat, repeat-x\","
                                      " \"maskPosition\": \"right bottom, 5px 0\"}",
                                      nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QCOMPARE(s.effects.maskImage.size(), size_t(2));
        const BackgroundLayer &icon = s.effects.maskImage[0];
        QCOMPARE(icon.imageUrl, QStringLiteral("data:image/png;base64,AAAA"));
        QCOMPARE(icon.size, BackgroundLayer::Size::Contain);
        QVERIFY(!icon.repeatX && !icon.repeatY);
        QCOMPARE(icon.positionX, Length::percent(100));
        QCOMPARE(icon.positionY, Length::percent(100));
        const BackgroundLayer &fade = s.effects.maskImage[1];
        QVERIFY(fade.gradient);
        QCOMPARE(fade.sizeX, Length::px(10));
        QCOMPARE(fade.sizeY, Length::percent(20));
        QVERIFY(fade.repeatX && !fade.repeatY);
        QVERIFY(s.backgroundLayers.empty()); // the mask's lists leave the background alone

        const ComputedStyle webkit = style("{\"WebkitMaskImage\": \"url('data:image/svg+xml,x')\", \"WebkitMaskSize\": "
                                           "\"cover\", \"WebkitMaskRepeat\": \"no-repeat\", \"WebkitMaskPosition\": "
                                           "\"center\"}");
        QCOMPARE(webkit.effects.maskImage.size(), size_t(1));
        QCOMPARE(webkit.effects.maskImage[0].imageUrl, QStringLiteral("data:image/svg+xml,x"));
        QCOMPARE(webkit.effects.maskImage[0].size, BackgroundLayer::Size::Cover);
        QCOMPARE(webkit.effects.maskImage[0].positionX, Length::percent(50));

        // The shorthand, as `background` without the colour.
        const ComputedStyle shorthand
            = style("{\"backgroundColor\": \"red\", \"mask\": \"url(data:image/png;base64,AAAA) center / contain "
                    "no-repeat\"}");
        QCOMPARE(shorthand.effects.maskImage.size(), size_t(1));
        QCOMPARE(shorthand.effects.maskImage[0].size, BackgroundLayer::Size::Contain);
        QCOMPARE(shorthand.effects.maskImage[0].positionY, Length::percent(50));
        QVERIFY(!shorthand.effects.maskImage[0].repeatX);
        QCOMPARE(shorthand.backgroundColor, QColor(Qt::red));
        QVERIFY(style("{\"mask\": \"none\"}").effects.maskImage.empty());

        QStringList bad;
        QVERIFY(style("{\"maskImage\": \"element(#a)\"}", nullptr, &bad).effects.maskImage.empty());
        QCOMPARE(bad.size(), 1);
        QVERIFY2(bad[0].contains(QLatin1String("maskImage")), qPrintable(bad[0]));
    }

    /// Every case by both engines against Chromium: each above its floor (all failures
    /// listed together), with no warning.
    void casesMatchChromium()
    {
        QStringList failures;
        for (const char *engine : {"takumi", "satori"}) {
            double sum = 0;
            for (const MaskCase &c : kCases) {
                const QString name = QString::fromLatin1(c.name);
                const QImage reference(masksDir() + QStringLiteral("/chromium/%1.png").arg(name));
                QVERIFY2(!reference.isNull(), qPrintable(name));
                QString error;
                const QImage ours = renderCase(name, QLatin1String(engine), &error);
                if (ours.size() != reference.size() || !error.isEmpty()) {
                    failures << name + u' ' + QLatin1String(engine) + QStringLiteral(": ") + error;
                    continue;
                }
                const double score = ssimOf(reference, ours), floor = engine[0] == 't' ? c.takumi : c.satori;
                sum += score;
                qInfo("%-16s %s SSIM %.5f (floor %.3f)", c.name, engine, score, floor);
                if (score < floor)
                    failures << QStringLiteral("%1 %2: SSIM %3 < %4").arg(name, QLatin1String(engine)).arg(score).arg(floor);
            }
            qInfo("%s: mean SSIM %.5f over %d mask cases", engine, sum / double(std::size(kCases)),
                  int(std::size(kCases)));
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
    }

    /// A mask changes pixels: the icon case's heart leaves its corners unpainted and its
    /// middle red (a render that ignored the mask would fill the whole square).
    void maskCutsTheBox()
    {
        QString error;
        const QImage ours = renderCase(QStringLiteral("mask-svg-icons"), QStringLiteral("takumi"), &error);
        QVERIFY2(!ours.isNull(), qPrintable(error));
        // The first box: 96 × 96 at (24, 24), the heart contained in it.
        QCOMPARE(QColor(ours.pixel(26, 26)), QColor(0xf8, 0xfa, 0xfc)); // corner: the card's colour
        QCOMPARE(QColor(ours.pixel(72, 72)), QColor(0xff, 0, 0));
    }

    /// Masks and backgrounds named by a space's asset or a remote URL load as img sources
    /// do: listed by imageSources() (so the service prefetches remote ones) and drawn
    /// through the request's image loader, by both engines.
    void assetAndRemoteImages()
    {
        const QByteArray heart = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\">"
                                 "<rect x=\"0\" y=\"0\" width=\"5\" height=\"10\"/></svg>";
        QImage dot(4, 4, QImage::Format_ARGB32_Premultiplied);
        dot.fill(QColor(0, 0, 255));
        RenderRequest request;
        request.document = twoRedBoxes({"maskImage", "url(asset:half)"},
                                       {"backgroundImage", "url(https://img.example/dot.png)"});
        QStringList asked;
        request.imageLoader = [&](const QString &url) {
            asked << url;
            if (url == QLatin1String("asset:half"))
                return decodeImage(heart);
            if (url == QLatin1String("https://img.example/dot.png"))
                return ImageResult(dot);
            return ImageResult(QImage());
        };
        const auto sources = imageSources(request);
        QVERIFY(sources);
        QCOMPARE(sources->size(), 2);
        QCOMPARE(sources->at(0).url, QStringLiteral("asset:half"));
        QCOMPARE(sources->at(0).field, QStringLiteral("maskImage"));
        QCOMPARE(sources->at(1).field, QStringLiteral("backgroundImage"));
        for (const char *engine : {"takumi", "satori"}) {
            request.options.engine = imprint::test::engineOption(QLatin1String(engine));
            const auto png = render(request, imprint::test::renderContext());
            QVERIFY2(png, qPrintable(imprint::test::failureOf(png).message));
            const QImage image = QImage::fromData(png->bytes);
            // The mask keeps the left half of the red box; the right half shows the card.
            QCOMPARE(QColor(image.pixel(20, 50)), QColor(255, 0, 0));
            QCOMPARE(QColor(image.pixel(80, 50)), QColor(255, 255, 255));
            QCOMPARE(QColor(image.pixel(150, 50)), QColor(0, 0, 255)); // the remote background
        }
        QVERIFY(asked.contains(QStringLiteral("asset:half")));
    }

    /// A mask image that fails to load is a layer of transparent black (CSS Masking 1
    /// §7.1), as Chromium draws it: alone it hides the element; beside a layer that loads,
    /// it adds nothing and the other layer masks as before.
    void failedMaskImageHides()
    {
        RenderRequest request;
        request.document = twoRedBoxes({"maskImage", "url(asset:missing)"},
                                       {"maskImage", "url(asset:missing), linear-gradient(#000, #000)"});
        request.imageLoader = [](const QString &) { return ImageResult(QImage()); };
        for (const char *engine : {"takumi", "satori"}) {
            request.options.engine = imprint::test::engineOption(QLatin1String(engine));
            const auto png = render(request, imprint::test::renderContext());
            QVERIFY2(png, qPrintable(imprint::test::failureOf(png).message));
            const QImage image = QImage::fromData(png->bytes);
            QCOMPARE(QColor(image.pixel(50, 50)), QColor(255, 255, 255)); // hidden: the card shows
            QCOMPARE(QColor(image.pixel(150, 50)), QColor(255, 0, 0)); // the gradient layer masks alone
        }
    }

    /// The html engine's page writes the same declarations, so Chromium draws the mask.
    void htmlPageWritesTheMask()
    {
        const QJsonObject doc{{"width", 200},
                              {"height", 100},
                              {"root", readJson(masksDir() + QStringLiteral("/cases/mask-svg-icons.json")).object()}};
        const auto t = parseTemplate(doc);
        QVERIFY2(t, qPrintable(t.error_or(RenderError()).message));
        const auto page = templatePageHtml(*t, {}, false, {});
        QVERIFY(page);
        for (const char *decl : {"mask-image:url(", "mask-size:contain", "-webkit-mask-image:url(",
                                 "-webkit-mask-position:center", "mask-repeat:repeat-x", "mask-size:36px 36px"})
            QVERIFY2(page->contains(QLatin1String(decl)), decl);
    }
};

QTEST_MAIN(TestMasks)
#include "tst_masks.moc"
