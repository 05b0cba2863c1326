// Variable fonts (issue 29 item 2, docs/templates.md "Variable fonts"): an uploaded
// variable face (Debian fonts-karla's Karla[wght].ttf as WOFF 2.0, tests/http/fonts) and
// the installed variable family "Karla" drawn at the instance CSS selects, against
// Chromium: advance widths of one headline at every weight within 1 px of Chromium's
// (tests/render/variable_fonts/chromium/widths.json), and the cards of
// tests/render/variable_fonts/cases rendered by both layout engines against Chromium's
// screenshots by SSIM (the html engine too: Chromium with the @font-face rules its page
// writes for the uploads). Both made by tests/render/variable_fonts/make-references.

#include "server/render/backends/raster.h"
#include "server/render/pipeline.h"
#include "server/render/resources/font_file.h"
#include "server/render/resources/font_instance.h"
#include "server/render/text/font_set.h"
#include "server/render/text/text_engine.h"
#include "server/render/text/variable_faces.h"
#include "tests/render/style_test_support.h"
#include "tests/support/render_requests.h"
#include "tests/support/render_context.h"
#include "tests/support/ssim.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <numeric>

using namespace imprint::render;

namespace {

const QString kDir = QStringLiteral(IMPRINT_SOURCE_DIR "/tests/render/variable_fonts");

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Registers `bytes` as the upload API does (font_set.h) and returns its internal family.
QString registerUpload(const QByteArray &bytes)
{
    const QString sha = QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    const auto sfnt = decodeFontToSfnt(bytes);
    const auto renamed = sfnt ? renameSfntFamily(*sfnt, internalFamilyFor(sha)) : sfnt;
    if (!renamed || !registerFontFace(sha, *renamed))
        return {};
    return internalFamilyFor(sha);
}

/// The space's "Karla Upload" family: the upright face from the WOFF2 the HTTP tests
/// upload and the italic from the installed TTF (make-references gives Chromium the same).
std::shared_ptr<const FontSet> uploadedFonts()
{
    static const std::shared_ptr<const FontSet> set = [] {
        auto fonts = std::make_shared<FontSet>();
        const QString upright = registerUpload(readFile(QStringLiteral(IMPRINT_SOURCE_DIR "/tests/http/fonts/Karla-wght.woff2")));
        const QString italic = registerUpload(
            readFile(QStringLiteral("/usr/share/fonts/truetype/karla-variable/Karla-Italic[wght].ttf")));
        if (!upright.isEmpty())
            fonts->faces.append(FontFace{QStringLiteral("Karla Upload"), 400, false, upright});
        if (!italic.isEmpty())
            fonts->faces.append(FontFace{QStringLiteral("Karla Upload"), 400, true, italic});
        return fonts;
    }();
    return set;
}

/// A render context whose html engine is headless Chromium (the server's default).
RenderContext &chromiumContext()
{
    static RenderContext context([] {
        RenderContextOptions o;
        o.htmlChromium = true;
        o.chromium.pool = 1;
        return o;
    }());
    return context;
}

QImage renderCase(const QString &name, const QString &engine, QStringList *warnings)
{
    RenderRequest request;
    request.document = QJsonDocument::fromJson(readFile(kDir + QStringLiteral("/cases/%1.json").arg(name))).object();
    request.fonts = uploadedFonts();
    QImage image;
    if (engine == QLatin1String("takumi")) {
        const auto doc = layOut(request, imprint::test::renderContext());
        if (doc) {
            image = paintToImage(doc->layout, doc->size, imprint::test::renderContext().paintResources());
            *warnings = doc->warnings;
        }
    } else {
        request.options.engine = imprint::test::engineOption(engine);
        request.options.format = OutputFormat::Png; // the satori engine's SVG, rasterised as served
        RenderContext &context = engine == QLatin1String("html") ? chromiumContext() : imprint::test::renderContext();
        const auto png = render(request, context);
        if (png) {
            image = QImage::fromData(png->bytes);
            *warnings = png->warnings;
        }
    }
    const QString dump = qEnvironmentVariable("IMPRINT_VARFONT_DUMP");
    if (!dump.isEmpty())
        image.save(dump + QStringLiteral("/%1.%2.png").arg(name, engine));
    return image;
}

/// The advance width of `text` in `family` at `weight`, 48 px, as layout measures it.
qreal widthOf(const QStringList &family, int weight, const QString &text)
{
    ComputedStyle s;
    s.fontFamily = family;
    s.fontSize = 48;
    s.fontWeight = weight;
    s.whiteSpace = WhiteSpace::Pre;
    TextEngine engine;
    return engine.shape(s, text, kMaxContent)->size.width();
}

/// The computed style of one declaration `property: value` (warnings into `*warnings`).
ComputedStyle declared(const char *property, const char *value, QStringList *warnings = nullptr)
{
    if (warnings)
        warnings->clear();
    return imprint::render::test::styleOf(QJsonObject{{QLatin1String(property), QLatin1String(value)}}, nullptr,
                                          warnings);
}

} // namespace

class TestVariableFonts : public QObject
{
    Q_OBJECT
    std::map<QString, std::vector<double>> m_ssim; // engine → each case's SSIM

private Q_SLOTS:
    void initTestCase() { QVERIFY(uploadedFonts()->faces.size() == 2); }

    /// The uploaded face keeps its axis and named instances (fvar read from the WOFF2).
    void axesAndInstances()
    {
        const auto sfnt = decodeFontToSfnt(readFile(QStringLiteral(IMPRINT_SOURCE_DIR "/tests/http/fonts/Karla-wght.woff2")));
        QVERIFY(sfnt);
        const FontVariations v = fontVariations(*sfnt);
        QCOMPARE(v.axes.size(), size_t(1));
        QCOMPARE(axisTagName(v.axes[0].tag), QStringLiteral("wght"));
        QCOMPARE(v.axes[0].min, 200.f);
        QCOMPARE(v.axes[0].max, 800.f);
        QVERIFY(v.instances.size() >= 6);
        const auto bold = std::find_if(v.instances.begin(), v.instances.end(),
                                       [](const FontNamedInstance &i) { return i.name == QLatin1String("Bold"); });
        QVERIFY(bold != v.instances.end());
        QCOMPARE(bold->coords.front().second, 700.f);
    }

    /// wght 100…900 of the upload and of the installed family: each headline's advance
    /// within 1 px of Chromium's, so 100 and 900 differ as they do there (191 px).
    void widthsMatchChromium_data()
    {
        QTest::addColumn<QString>("family");
        QTest::addColumn<int>("weight");
        QTest::addColumn<double>("chromium");
        const QJsonObject widths
            = QJsonDocument::fromJson(readFile(kDir + QStringLiteral("/chromium/widths.json"))).object();
        for (const QString &family : {QStringLiteral("Karla Upload"), QStringLiteral("Karla")}) {
            const QJsonObject byWeight = widths.value(QStringLiteral("widths")).toObject().value(family).toObject();
            for (auto it = byWeight.begin(); it != byWeight.end(); ++it)
                QTest::addRow("%s %s", qPrintable(family), qPrintable(it.key()))
                    << family << it.key().toInt() << it.value().toDouble();
        }
    }
    void widthsMatchChromium()
    {
        QFETCH(QString, family);
        QFETCH(int, weight);
        QFETCH(double, chromium);
        const QJsonObject widths
            = QJsonDocument::fromJson(readFile(kDir + QStringLiteral("/chromium/widths.json"))).object();
        const QString text = widths.value(QStringLiteral("text")).toString();
        QStringList families{family};
        if (family == QLatin1String("Karla Upload"))
            families = {uploadedFonts()->match(family, weight, false)->internalFamily};
        const qreal ours = widthOf(families, weight, text);
        qInfo("%s %d: %.3f px, Chromium %.3f px", qPrintable(family), weight, ours, chromium);
        QVERIFY2(std::abs(ours - chromium) <= 1.0,
                 qPrintable(QStringLiteral("%1 %2: %3 px, Chromium %4 px").arg(family).arg(weight).arg(ours).arg(chromium)));
    }

    void cards_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("engine");
        for (const char *name : {"upload-weights", "system-weights", "variation-settings", "italic", "blog-card"})
            for (const char *engine : {"takumi", "satori", "html"}) // html: Chromium, @font-face
                QTest::addRow("%s/%s", name, engine) << QString::fromLatin1(name) << QString::fromLatin1(engine);
    }
    void cards()
    {
        QFETCH(QString, name);
        QFETCH(QString, engine);
        QStringList warnings;
        const QImage ours = renderCase(name, engine, &warnings);
        const QImage chromium(kDir + QStringLiteral("/chromium/%1.png").arg(name));
        QVERIFY(!ours.isNull());
        QCOMPARE(ours.size(), chromium.size());
        const double ssim = ssimOf(chromium, ours);
        m_ssim[engine].push_back(ssim);
        qInfo("%s %s SSIM %.5f", qPrintable(name), qPrintable(engine), ssim);
        QVERIFY2(ssim >= 0.95, qPrintable(QString::number(ssim)));
    }

    /// The bar: each engine's mean at or above 0.98.
    void means()
    {
        for (const auto &[engine, values] : m_ssim) {
            const double mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
            qInfo("%s: mean SSIM %.5f over %zu cases", qPrintable(engine), mean, values.size());
            QVERIFY2(mean >= 0.98, qPrintable(engine));
        }
    }

    /// font-variation-settings (CSS Fonts 4 §7.4) as templates write it.
    void variationSettingsParse()
    {
        QStringList warnings;
        ComputedStyle s = declared("fontVariationSettings", "\"wght\" 650, 'wdth' 80.5, \"wght\" 700", &warnings);
        QCOMPARE(s.fontVariationSettings.size(), size_t(2));
        QCOMPARE(axisTagName(s.fontVariationSettings[0].tag), QStringLiteral("wght"));
        QCOMPARE(s.fontVariationSettings[0].value, 700.f); // the last of a repeated tag
        QCOMPARE(s.fontVariationSettings[1].value, 80.5f);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));

        // An unknown lowercase tag is most likely a typo: kept, and named in a warning.
        s = declared("fontVariationSettings", "\"wgth\" 650, \"GRAD\" 50", &warnings);
        QCOMPARE(s.fontVariationSettings.size(), size_t(2));
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings[0].contains(QLatin1String("fontVariationSettings")) && warnings[0].contains(QLatin1String("\"wgth\"")),
                 qPrintable(warnings[0]));

        // A malformed entry: the declaration is ignored, the entry named.
        warnings.clear();
        s = declared("fontVariationSettings", "\"wght\" 650, \"wdth\"", &warnings);
        QVERIFY(s.fontVariationSettings.empty());
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings[0].contains(QLatin1String("\"wdth\"")), qPrintable(warnings[0]));

        s = declared("fontVariationSettings", "normal", &warnings);
        QVERIFY(s.fontVariationSettings.empty());
    }

    /// font-stretch and font-style: oblique <angle> (CSS Fonts 4 §2.3, §2.4).
    void stretchAndObliqueParse()
    {
        QCOMPARE(declared("fontStretch", "condensed").fontStretch, 75.f);
        QCOMPARE(declared("fontStretch", "87.5%").fontStretch, 87.5f);
        QCOMPARE(declared("fontStyle", "oblique").fontObliqueAngle, 14.f);
        const ComputedStyle oblique = declared("fontStyle", "oblique 10deg");
        QCOMPARE(oblique.fontObliqueAngle, 10.f);
        QCOMPARE(oblique.fontStyle, FontStyle::Italic);
        QCOMPARE(declared("fontStyle", "italic").fontObliqueAngle, 0.f);
        QStringList warnings;
        declared("fontStyle", "oblique 120deg", &warnings);
        QCOMPARE(warnings.size(), 1);
    }

    /// Axis values are clamped to the axis and a weight past the axis draws its end.
    void clampedToTheAxis()
    {
        const QString upload = uploadedFonts()->match(QStringLiteral("Karla Upload"), 400, false)->internalFamily;
        const QString text = QStringLiteral("Hamburgefonstiv");
        QCOMPARE(widthOf({upload}, 900, text), widthOf({upload}, 800, text));
        QCOMPARE(widthOf({upload}, 1, text), widthOf({upload}, 200, text));
        QVERIFY(widthOf({upload}, 800, text) - widthOf({upload}, 200, text) > 30);
    }

    /// CSS Fonts 4 §2.9: a face's opsz axis follows the used font size. Text is shaped
    /// several times larger than its size (kShapingScale); the optical size stays the
    /// text's own. Inter 4 (tests/http/fonts/Inter-opsz.woff2, opsz 14–32) sets
    /// "Hamburgefonstiv 2026" at 20 px 212.22 px wide at opsz 20 (HarfBuzz, as Chromium
    /// shapes it); at the shaping size's opsz (clamped to 32) it was 201.31 px.
    void opticalSizeIsTheTextsOwnSize()
    {
        const QString inter = registerUpload(readFile(QStringLiteral(IMPRINT_SOURCE_DIR "/tests/http/fonts/Inter-opsz.woff2")));
        QVERIFY(!inter.isEmpty());
        ComputedStyle s;
        s.fontFamily = {inter};
        s.fontSize = 20;
        TextEngine engine;
        const qreal width = engine.shape(s, QStringLiteral("Hamburgefonstiv 2026"), kMaxContent)->size.width();
        QVERIFY2(std::abs(width - 212.22) < 0.3, qPrintable(QString::number(width)));
        s.fontSize = 20.5f; // a fractional size too
        const qreal fractional = engine.shape(s, QStringLiteral("Hamburgefonstiv 2026"), kMaxContent)->size.width();
        QVERIFY2(std::abs(fractional - 212.22 * 20.5 / 20) < 1.5, qPrintable(QString::number(fractional)));
    }

    /// A card without a variable face makes no instance (it pays a hash lookup only).
    void staticFacesAreNotInstanced()
    {
        const int before = variableInstanceCount();
        ComputedStyle s;
        s.fontFamily = {QStringLiteral("DejaVu Sans")};
        s.fontWeight = 650;
        s.fontVariationSettings = {FontVariation{650, 0x77676874}};
        TextEngine engine;
        QVERIFY(engine.shape(s, QStringLiteral("static"), kMaxContent)->size.width() > 0);
        QCOMPARE(variableInstanceCount(), before);
        QCOMPARE(variableFamily(QStringLiteral("DejaVu Sans"), s), QStringLiteral("DejaVu Sans"));
    }
};

QTEST_MAIN(TestVariableFonts)
#include "tst_variable_fonts.moc"
