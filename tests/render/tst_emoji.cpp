// Emoji: cluster detection, set file names, and each engine drawing 👍🏽, 👨‍👩‍👧,
// 🇫🇷 and #️⃣ as one image of the chosen set; unknown sets are errors, missing sets fall
// back to the Noto font with a warning. The sets come from scripts/fetch-emoji, which
// scripts/test runs first; without them the set tests fail saying so.
// Set IMPRINT_EMOJI_DUMP=DIR to write the fixtures of tests/render/fixtures/intl rendered
// by every engine there.

#include "server/render/pipeline.h"
#include "tests/support/render_requests.h"
#include "server/render/resources/emoji.h"
#include "tests/support/render_context.h"
#include "tests/support/images.h"
#include "tests/support/card_templates.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace imprint::render;

namespace {

const QString kFour = QString::fromUtf8("👍🏽 👨‍👩‍👧 🇫🇷 #️⃣");

QJsonObject textCard(const QString &text, const QString &emojiType = {})
{
    QJsonObject doc = imprint::test::flexCard(800, 160, imprint::test::textCardStyle(48, 20), text);
    if (!emojiType.isEmpty())
        doc.insert(QStringLiteral("emojiType"), emojiType);
    return doc;
}

/// A render of the four emoji of kFour asking for the twemoji set (with `engine`, when named).
RenderRequest fourInTwemoji(const QString &engine = {})
{
    RenderRequest request;
    request.document = textCard(kFour);
    request.options.engine = imprint::test::engineOption(engine);
    request.options.emojiSet = imprint::test::emojiOption(QStringLiteral("twemoji"));
    return request;
}

/// The options of a render context whose emoji sets are looked for in `directory`.
RenderContextOptions emojiFrom(const QString &directory)
{
    RenderContextOptions options;
    options.emojiDirectory = directory;
    return options;
}

bool setInstalled(EmojiSet set)
{
    return QFileInfo::exists(imprint::test::renderContext().emoji().directory() + u'/' + emojiSetName(set));
}

/// Renders `text` with `engine` to SVG; the document.
QString renderSvg(const QString &engine, const QString &emojiType, const QString &text, QStringList *warnings = nullptr)
{
    RenderRequest request;
    request.document = textCard(text);
    request.options.engine = imprint::test::engineOption(engine);
    request.options.emojiSet = imprint::test::emojiOption(emojiType);
    request.options.format = OutputFormat::Svg;
    const auto result = render(request, imprint::test::renderContext());
    if (!result)
        return QStringLiteral("ERROR ") + result.error().message;
    if (warnings)
        *warnings = result->warnings;
    return QString::fromUtf8(result->bytes);
}

} // namespace

class TestEmoji : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void detection()
    {
        QFETCH(QString, text);
        QFETCH(int, count);
        QCOMPARE(int(findEmoji(text).size()), count);
    }

    void detection_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("count");
        QTest::newRow("plain") << QStringLiteral("Hello, world © 2024 #1") << 0;
        QTest::newRow("four") << kFour << 4;
        QTest::newRow("presentation") << QString::fromUtf8("😀 🚀 ✨ ⌚") << 4;
        QTest::newRow("text-default") << QString::fromUtf8("❤ ☺ ™") << 0;
        QTest::newRow("vs16") << QString::fromUtf8("❤️ ☺️") << 2;
        QTest::newRow("vs15") << QString::fromUtf8("⌚︎") << 0;
        QTest::newRow("keycaps") << QString::fromUtf8("1️⃣2⃣*️⃣") << 3;
        QTest::newRow("flags") << QString::fromUtf8("🇯🇵🇧🇷") << 2;
        QTest::newRow("cjk-arabic") << QString::fromUtf8("中文 مرحبا") << 0;
    }

    void fileNames()
    {
        QCOMPARE(emojiFileCandidates(QString::fromUtf8("#️⃣"), EmojiSet::Twemoji).first(),
                 QStringLiteral("23-20e3.svg"));
        QVERIFY(emojiFileCandidates(QString::fromUtf8("#️⃣"), EmojiSet::Openmoji)
                    .contains(QStringLiteral("0023-FE0F-20E3.svg")));
        QCOMPARE(emojiFileCandidates(QString::fromUtf8("👍🏽"), EmojiSet::Openmoji).first(),
                 QStringLiteral("1F44D-1F3FD.svg"));
        QCOMPARE(emojiFileCandidates(QString::fromUtf8("❤️"), EmojiSet::Twemoji).first(),
                 QStringLiteral("2764.svg"));
        QCOMPARE(emojiFileCandidates(QString::fromUtf8("🏳️‍🌈"), EmojiSet::Twemoji).first(),
                 QStringLiteral("1f3f3-fe0f-200d-1f308.svg"));
    }

    void directoryResolution()
    {
        const QByteArray saved = qgetenv("IMPRINT_EMOJI_DIR");
        qunsetenv("IMPRINT_EMOJI_DIR");
        QTemporaryDir data;
        const QString fallback = QDir::homePath() + QStringLiteral("/.local/share/imprint/emoji");
        QCOMPARE(emojiDirectoryFor(data.path()), fallback); // DATA/emoji absent: the per-user default
        QCOMPARE(emojiDirectoryFor(QString()), fallback);
        QVERIFY(QDir(data.path()).mkdir(QStringLiteral("emoji")));
        QCOMPARE(emojiDirectoryFor(data.path()), data.path() + QStringLiteral("/emoji"));
        qputenv("IMPRINT_EMOJI_DIR", "/somewhere/else");
        QCOMPARE(emojiDirectoryFor(data.path()), QStringLiteral("/somewhere/else"));
        if (saved.isEmpty())
            qunsetenv("IMPRINT_EMOJI_DIR");
        else
            qputenv("IMPRINT_EMOJI_DIR", saved);
    }

    void theContextsDirectoryIsTheOneRead()
    {
        // Two contexts in one process, each with its own sets: nothing is process-wide.
        QTemporaryDir empty;
        RenderContext bare(emojiFrom(empty.path()));
        RenderRequest request = fourInTwemoji();
        request.options.format = OutputFormat::Svg;
        const auto missing = render(request, bare);
        QVERIFY(missing);
        QVERIFY2(!missing->warnings.filter(empty.path()).isEmpty(), qPrintable(missing->warnings.join(u'\n')));
        if (!setInstalled(EmojiSet::Twemoji))
            QFAIL("the twemoji set is not installed: run scripts/fetch-emoji");
        const auto found = render(request, imprint::test::renderContext());
        QVERIFY(found);
        QVERIFY2(found->warnings.filter(QStringLiteral("emoji")).isEmpty(), qPrintable(found->warnings.join(u'\n')));
    }

    void contextCachesAreCounted()
    {
        if (!setInstalled(EmojiSet::Twemoji))
            QFAIL("the twemoji set is not installed: run scripts/fetch-emoji");
        RenderContext context(emojiFrom(imprint::test::renderContext().emoji().directory()));
        // A 2×2 PNG as a background image and an <img>, and four emoji.
        const QByteArray png = imprint::test::solidPng(QSize(2, 2), Qt::red);
        const QString url = QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
        QJsonObject doc = textCard(kFour);
        QJsonObject img{{"type", "img"},
                        {"props", QJsonObject{{"src", url},
                                              {"width", 10},
                                              {"height", 10},
                                              {"style", QJsonObject{{"backgroundImage", "url(" + url + ")"}}}}}};
        QJsonObject root = doc.value("root").toObject();
        QJsonObject props = root.value("props").toObject();
        QJsonArray children{props.value("children"), img};
        props.insert("children", children);
        root.insert("props", props);
        doc.insert("root", root);
        RenderRequest request;
        request.document = doc;
        request.options.engine = imprint::test::engineOption(QStringLiteral("takumi"));
        request.options.emojiSet = imprint::test::emojiOption(QStringLiteral("twemoji"));
        auto rendered = render(request, context);
        QVERIFY2(rendered, qPrintable(imprint::test::failureOf(rendered).message));
        const RenderContextStats first = context.stats();
        QCOMPARE(first.images.misses, quint64(1)); // the <img>; its background is the same URL
        QCOMPARE(first.images.entries, qint64(1));
        QVERIFY(first.images.bytes >= 16);
        QCOMPARE(first.emoji.misses, quint64(4));
        QCOMPARE(first.emoji.entries, qint64(4));
        // The shaping cache is per thread, so earlier tests' runs may already be in it.
        QVERIFY(first.textShaping.hits + first.textShaping.misses >= 1);
        rendered = render(request, context);
        QVERIFY(rendered);
        const RenderContextStats second = context.stats();
        QCOMPARE(second.images.misses, first.images.misses); // decoded once
        QVERIFY(second.images.hits > first.images.hits);
        QCOMPARE(second.emoji.misses, first.emoji.misses); // each file read once
        QVERIFY(second.emoji.hits >= first.emoji.hits + 4);
        QVERIFY(second.textShaping.hits > first.textShaping.hits);
        QCOMPARE(second.textShaping.misses, first.textShaping.misses);
    }

    void unknownEmojiTypeIsAnError()
    {
        RenderRequest request;
        request.document = textCard(QStringLiteral("hi"));
        // A request's emoji set is parsed at its edge (the CLI's --emoji), with the
        // pipeline's error.
        const auto parsed = parseEmojiSetOption(QStringLiteral("applemoji"));
        QVERIFY(!parsed);
        QCOMPARE(parsed.error().codeName(), QStringLiteral("invalid_emoji_type"));
        QCOMPARE(parsed.error().field, QStringLiteral("emojiType"));
        QCOMPARE(parsed.error().message, QStringLiteral("unknown emojiType 'applemoji' (twemoji, openmoji or noto)"));
        // The template's own value is checked too (by the template parser or the renderer).
        request.document = textCard(QStringLiteral("hi"), QStringLiteral("nope"));
        const auto rendered = render(request, imprint::test::renderContext());
        QVERIFY(!rendered);
        QVERIFY2(rendered.error().field.contains(QStringLiteral("emojiType")), qPrintable(rendered.error().field));
    }

    void eachClusterIsOneImage_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("set");
        for (const char *engine : {"satori", "takumi", "html"})
            for (const char *set : {"twemoji", "openmoji"})
                QTest::newRow(qPrintable(QStringLiteral("%1-%2").arg(QLatin1String(engine), QLatin1String(set))))
                    << QString::fromLatin1(engine) << QString::fromLatin1(set);
    }
    void eachClusterIsOneImage()
    {
        QFETCH(QString, engine);
        QFETCH(QString, set);
        if (!setInstalled(*parseEmojiSet(set)))
            QFAIL(qPrintable(QStringLiteral("the %1 set is not in %2: run scripts/fetch-emoji")
                                 .arg(set, imprint::test::renderContext().emoji().directory())));
        QStringList warnings;
        const QString svg = renderSvg(engine, set, kFour, &warnings);
        QVERIFY2(!svg.startsWith(QLatin1String("ERROR")), qPrintable(svg));
        QVERIFY2(warnings.filter(QStringLiteral("emoji")).isEmpty(), qPrintable(warnings.join(u'\n')));
        if (engine == QLatin1String("satori")) {
            // Four distinct set images defined once and placed once each, as vector content.
            QCOMPARE(svg.count(QRegularExpression(QStringLiteral("<g id=\"e\\d+\""))), 4);
            QCOMPARE(svg.count(QStringLiteral("<use xlink:href=\"#e")), 4);
            QVERIFY(!svg.contains(QStringLiteral("<image")));
        } else {
            // QSvgGenerator records each drawn emoji image as one <image>.
            QCOMPARE(svg.count(QStringLiteral("<image")), 4);
        }
    }

    // An emoji in an inline svg's text is drawn from the set, in colour, where the same
    // text in HTML draws it (librsvg drew the emoji font's glyph as a silhouette in the
    // text's fill); the text after it keeps its place.
    void svgTextEmojiAreTheSetsImages_data() { imprint::test::addRasterEngineRows(); }
    void svgTextEmojiAreTheSetsImages()
    {
        QFETCH(QString, engine);
        if (!setInstalled(EmojiSet::Twemoji))
            QFAIL("the twemoji set is not installed: run scripts/fetch-emoji");
        const QString line = QString::fromUtf8("\U0001F389 Launch");
        const QJsonObject html{{QStringLiteral("type"), QStringLiteral("div")},
                               {QStringLiteral("props"), QJsonObject{{QStringLiteral("style"), QJsonObject{{QStringLiteral("height"), 60}}},
                                                                     {QStringLiteral("children"), line}}}};
        const QJsonObject text{{QStringLiteral("type"), QStringLiteral("text")},
                               {QStringLiteral("props"), QJsonObject{{QStringLiteral("x"), 0}, {QStringLiteral("y"), 40},
                                                                     {QStringLiteral("fill"), QStringLiteral("#0f172a")},
                                                                     {QStringLiteral("children"), line}}}};
        const QJsonObject svg{{QStringLiteral("type"), QStringLiteral("svg")},
                              {QStringLiteral("props"), QJsonObject{{QStringLiteral("width"), 400}, {QStringLiteral("height"), 60},
                                                                    {QStringLiteral("children"), QJsonArray{text}}}}};
        QJsonObject style = imprint::test::textCardStyle(36, 0, QStringLiteral("#0f172a"));
        style.insert(QStringLiteral("flexDirection"), QStringLiteral("column"));
        RenderRequest request;
        request.document = imprint::test::flexCard(400, 120, style, QJsonArray{html, svg});
        request.options.engine = imprint::test::engineOption(engine);
        request.options.emojiSet = imprint::test::emojiOption(QStringLiteral("twemoji"));
        const auto result = render(request, imprint::test::renderContext());
        QVERIFY2(result, qPrintable(result ? QString() : result.error().message));
        const QImage image = QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32);
        // The coloured pixels (the party popper's red, yellow and green; the text is slate).
        const auto colourful = [&](int y0, int y1) {
            QRect box;
            for (int y = y0; y < y1; ++y)
                for (int x = 0; x < image.width(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    if (std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()}) > 80)
                        box |= QRect(x, y, 1, 1);
                }
            return box;
        };
        const QRect inHtml = colourful(0, 60), inSvg = colourful(60, 120);
        const QString shown = QStringLiteral("html %1,%2 %3×%4; svg %5,%6 %7×%8")
                                  .arg(inHtml.x()).arg(inHtml.y()).arg(inHtml.width()).arg(inHtml.height())
                                  .arg(inSvg.x()).arg(inSvg.y()).arg(inSvg.width()).arg(inSvg.height());
        QVERIFY2(inHtml.width() > 20 && inSvg.width() > 20, qPrintable(shown));
        QVERIFY2(std::abs(inSvg.left() - inHtml.left()) <= 1 && std::abs(inSvg.width() - inHtml.width()) <= 1
                     && std::abs(inSvg.height() - inHtml.height()) <= 1,
                 qPrintable(shown));
    }

    void notoDrawsTheFont()
    {
        QStringList warnings;
        const QString svg = renderSvg(QStringLiteral("satori"), QStringLiteral("noto"), kFour, &warnings);
        QVERIFY(warnings.isEmpty());
        QCOMPARE(svg.count(QStringLiteral("<use xlink:href=\"#e")), 0);
        QVERIFY(svg.contains(QStringLiteral("<image"))); // colour bitmap glyphs
    }

    // Emoji of the Noto font in bold text (synthetic bold reads glyph outlines): drawn, at
    // the size the satori engine draws them (Chromium's), and drawn again by later renders
    // on the same thread. Reading the outline of a colour bitmap glyph once left it
    // undrawable for every later render at that size.
    void notoEmojiInBoldTextAreDrawn_data()
    {
        imprint::test::addRasterEngineRows();
    }
    void notoEmojiInBoldTextAreDrawn()
    {
        QFETCH(QString, engine);
        const auto render = [&](int weight, const QString &engineName) {
            QJsonObject style = imprint::test::textCardStyle(48, 20);
            style.insert(QStringLiteral("fontWeight"), weight);
            RenderRequest request;
            request.document = imprint::test::flexCard(300, 100, style, QString::fromUtf8("D 🙏"));
            request.options.engine = imprint::test::engineOption(engineName);
            request.options.emojiSet = imprint::test::emojiOption(QStringLiteral("noto"));
            const auto result = imprint::render::render(request, imprint::test::renderContext());
            return result ? QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32) : QImage();
        };
        // The box of the emoji's coloured pixels (the text is black on white).
        const auto emojiBox = [](const QImage &image) {
            QRect box;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    if (c.hsvSaturation() > 80 && c.value() > 60)
                        box |= QRect(x, y, 1, 1);
                }
            }
            return box;
        };
        const QRect reference = emojiBox(render(400, QStringLiteral("satori")));
        QVERIFY2(reference.width() > 30, qPrintable(QStringLiteral("satori's emoji: %1 px").arg(reference.width())));
        for (int weight : {700, 400, 700, 400}) {
            const QRect box = emojiBox(render(weight, engine));
            QVERIFY2(box.width() > 30, qPrintable(QStringLiteral("weight %1: no emoji").arg(weight)));
            QVERIFY2(std::abs(box.width() - reference.width()) <= 2 && std::abs(box.height() - reference.height()) <= 2,
                     qPrintable(QStringLiteral("weight %1: %2x%3 px, the satori engine's %4x%5")
                                    .arg(weight)
                                    .arg(box.width())
                                    .arg(box.height())
                                    .arg(reference.width())
                                    .arg(reference.height())));
        }
    }

    // A character with text presentation by default (☀ U+2600, no VS16) that the font
    // list sends to the colour emoji font (Tailwind's font-sans ends in "Noto Color
    // Emoji") is drawn from it, as Chromium draws it, and advances as an emoji does: Qt's
    // own advance for it was 0.85 of the font's, which put the x after "☀ " 6 px left of
    // where Chromium 156 draws it (84 px, as after ⭐, an emoji by default).
    void textPresentationInTheEmojiFontAdvancesAsEmoji_data()
    {
        imprint::test::addRasterEngineRows();
    }
    void textPresentationInTheEmojiFontAdvancesAsEmoji()
    {
        QFETCH(QString, engine);
        QJsonObject style = imprint::test::textCardStyle(36, 10, QStringLiteral("#000000"));
        style.insert(QStringLiteral("fontFamily"), QStringLiteral("\"Noto Sans\", \"Noto Color Emoji\""));
        style.insert(QStringLiteral("flexDirection"), QStringLiteral("column"));
        style.insert(QStringLiteral("lineHeight"), 1.2);
        QJsonArray rows;
        for (const char *text : {"x\u2600 x", "x\u2b50 x"})
            rows.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("div")},
                                    {QStringLiteral("props"),
                                     QJsonObject{{QStringLiteral("children"), QString::fromUtf8(text)}}}});
        RenderRequest request;
        request.document = imprint::test::flexCard(300, 110, style, rows);
        request.options.engine = imprint::test::engineOption(engine);
        request.options.emojiSet = imprint::test::emojiOption(QStringLiteral("noto"));
        const auto result = imprint::render::render(request, imprint::test::renderContext());
        QVERIFY(result);
        const QImage image = QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32);
        // The left edge of the last black glyph (the second x) in the rows from y0 to y1.
        const auto lastX = [&](int y0, int y1) {
            int right = -1, left = -1;
            for (int x = image.width() - 1; x >= 0 && left < 0; --x) {
                bool ink = false;
                for (int y = y0; y < y1 && !ink; ++y) {
                    const QColor c = image.pixelColor(x, y);
                    ink = c.value() < 100 && c.hsvSaturation() < 60;
                }
                if (ink && right < 0)
                    right = x;
                else if (!ink && right >= 0)
                    left = x + 1;
            }
            return left;
        };
        const int sun = lastX(10, 53), star = lastX(53, 96);
        QVERIFY2(std::abs(sun - 84) <= 1 && std::abs(star - 84) <= 1,
                 qPrintable(QStringLiteral("after the sun %1 px, after the star %2 px; Chromium 84").arg(sun).arg(star)));
    }

    void missingSetFallsBackWithWarning_data()
    {
        QTest::addColumn<QString>("engine");
        for (const char *engine : {"satori", "takumi", "html"})
            QTest::newRow(engine) << QString::fromLatin1(engine);
    }
    void missingSetFallsBackWithWarning()
    {
        QFETCH(QString, engine);
        QTemporaryDir empty;
        RenderContext context(emojiFrom(empty.path()));
        const auto result = render(fourInTwemoji(engine), context);
        QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
        QVERIFY(!result->bytes.isEmpty());
        QVERIFY2(!result->warnings.filter(QStringLiteral("twemoji")).isEmpty(),
                 qPrintable(result->warnings.join(u'\n')));
        // The fallback still draws colour: the Noto glyphs are not black outlines.
        const QImage image = QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32);
        int coloured = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                coloured += c.saturation() > 100 && c.value() > 80;
            }
        QVERIFY2(coloured > 500, qPrintable(QString::number(coloured)));
    }

    void intlFixturesRender_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("engine");
        for (const char *name : {"emoji", "arabic", "cjk"})
            for (const char *engine : {"satori", "takumi", "html"})
                QTest::addRow("%s-%s", name, engine) << QString::fromLatin1(name) << QString::fromLatin1(engine);
    }
    void intlFixturesRender()
    {
        QFETCH(QString, name);
        QFETCH(QString, engine);
        const QString fixture = QStringLiteral("tests/render/fixtures/intl/%1.json").arg(name);
        const auto result = imprint::test::renderSourceTemplate(fixture, engine);
        QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
        const QImage image = QImage::fromData(result->bytes);
        QCOMPARE(image.size(), QSize(1200, 630));
        const QString dump = qEnvironmentVariable("IMPRINT_EMOJI_DUMP");
        if (!dump.isEmpty()) {
            QDir().mkpath(dump);
            QFile out(dump + QStringLiteral("/%1-%2.png").arg(name, engine));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(result->bytes);
        }
    }
};

QTEST_MAIN(TestEmoji)
#include "tst_emoji.moc"
