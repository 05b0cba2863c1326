// Text in a content language (docs/templates.md "Language"): the generic and standard
// families Chromium's per-script preferences name, Han locale forms, and the spaces and
// digits a language's `locl` gives a face. Widths are Chromium's (scripts/chromium-oracle).

#include "server/render/text/font_fallback.h"
#include "server/render/text/generic_family.h"
#include "server/render/text/language_spaces.h"
#include "server/render/text/text_engine.h"
#include "server/render/text/text_internal.h"
#include "tests/render/text_test_support.h"
#include "tests/support/render_context.h"

#include <QRawFont>
#include <QTest>

using namespace imprint::render;
using imprint::render::test::dejaVu;
using imprint::render::test::familyStyle;

namespace {

/// The width (px) of `text` on one line in `family` at `size` px, `weight`, in `lang`.
qreal widthIn(const QString &family, float size, int weight, const QString &lang, const char *text)
{
    ComputedStyle s = familyStyle(family, size);
    s.fontFamily = family.split(QStringLiteral(", "));
    s.fontWeight = weight;
    s.lang = lang;
    return imprint::test::renderContext().text().shape(s, QString::fromUtf8(text), kMaxContent)->size.width();
}

} // namespace

class TestTextLanguage : public QObject
{
    Q_OBJECT

private slots:
    void preferencesNameTheGenericFamilies()
    {
        // Chromium's default font preferences name families for the scripts of Japanese,
        // Korean, Chinese and Devanagari languages; other languages keep fontconfig's.
        QCOMPARE(genericFamily(GenericFamily::SansSerif, QStringLiteral("zh-TW")), QStringLiteral("Noto Sans CJK TC"));
        QCOMPARE(genericFamily(GenericFamily::SansSerif, QStringLiteral("ja-JP")), QStringLiteral("Noto Sans CJK JP"));
        QCOMPARE(genericFamily(GenericFamily::Serif, QStringLiteral("zh-CN")), QStringLiteral("Noto Serif CJK SC"));
        QCOMPARE(genericFamily(GenericFamily::SansSerif, QStringLiteral("zh")), QStringLiteral("Noto Sans CJK SC"));
        QCOMPARE(genericFamily(GenericFamily::SansSerif, QStringLiteral("zh-HK")), QStringLiteral("Noto Sans CJK HK"));
        QCOMPARE(genericFamily(GenericFamily::SansSerif, QStringLiteral("ko")), QStringLiteral("Noto Sans CJK KR"));
        QCOMPARE(genericFamily(GenericFamily::Serif, QStringLiteral("ko-KR")), QStringLiteral("Noto Serif CJK KR"));
        QCOMPARE(genericFamily(GenericFamily::SansSerif, QStringLiteral("hi")), QStringLiteral("Noto Sans Devanagari"));
        QCOMPARE(genericFamily(GenericFamily::Serif, QStringLiteral("mr")), QStringLiteral("Noto Serif Devanagari"));
        QCOMPARE(genericFamily(GenericFamily::Serif, QStringLiteral("ne-NP")), QStringLiteral("Noto Serif Devanagari"));
        QCOMPARE(genericFamily(GenericFamily::Monospace, QStringLiteral("ja")), QStringLiteral("Noto Sans Mono CJK JP"));
        QCOMPARE(genericFamily(GenericFamily::Monospace, QStringLiteral("ko")), genericFamily(GenericFamily::Monospace));
        QCOMPARE(genericFamily(GenericFamily::SansSerif, QStringLiteral("bn")), genericFamily(GenericFamily::SansSerif));
        QCOMPARE(genericFamily(GenericFamily::SansSerif, QStringLiteral("de")), genericFamily(GenericFamily::SansSerif));
        QCOMPARE(standardFamily(QStringLiteral("hi")), QStringLiteral("Noto Sans Devanagari"));
        QCOMPARE(standardFamily(QString()), QStringLiteral("Noto Sans"));
        // system-ui is the system's face whatever the language (Chromium: 192.84 px, Noto
        // Sans, for "Hello World 2025" at 24 px in ja, not Noto Sans CJK JP's 189.58).
        QCOMPARE(text_detail::familyList({QStringLiteral("system-ui")}, QStringLiteral("ja")).front(), QStringLiteral("Noto Sans"));
        QVERIFY(std::abs(widthIn(QStringLiteral("system-ui"), 24, 400, QStringLiteral("ja"), "Hello World 2025") - 192.84) < 0.5);
    }

    void devanagariLanguageDrawsItsFamiliesAtTheTextsWeight()
    {
        // Chromium's widths at 40 px of "के साथ सोशल मीडिया": with `lang: hi` the Devanagari of
        // an Inter title is Noto Sans Devanagari Bold (the standard family), without it the
        // fallback face's Regular emboldened; serif is Noto Serif Devanagari.
        const char *text = "के साथ सोशल मीडिया";
        const QString inter = QStringLiteral("Inter"), hi = QStringLiteral("hi");
        const std::tuple<QString, int, QString, qreal> cases[] = {
            {inter, 700, hi, 343.28},
            {inter, 700, QString(), 314.39},
            {QStringLiteral("sans-serif"), 700, hi, 346.64},
            {QStringLiteral("serif"), 400, hi, 300.89},
            {QStringLiteral("serif"), 700, hi, 323.38},
            {QStringLiteral("monospace"), 700, hi, 387.69},
        };
        for (const auto &[family, weight, lang, chromium] : cases) {
            const qreal ours = widthIn(family, 40, weight, lang, text);
            QVERIFY2(std::abs(ours - chromium) < 0.5,
                     qPrintable(QStringLiteral("%1 %2 %3: %4 px, Chromium %5").arg(family).arg(weight).arg(lang).arg(ours).arg(chromium)));
        }
    }

    void laterFamiliesOfAListDrawTheirOwnCharacters()
    {
        // Spaces between Devanagari words of "Inter, Noto Sans Devanagari" are Inter's, as
        // Blink shapes the run with the list's first face first (Chromium 441.14 px at 32 px).
        QVERIFY(std::abs(widthIn(QStringLiteral("Inter, Noto Sans Devanagari"), 32, 400, QString(),
                                 "के साथ सोशल मीडिया के लिए शानदार")
                         - 441.14)
                < 0.5);
        // Two lists with the same first family keep their own later families: Qt 6.4 caches
        // the merged engine by the first family only (Chromium 234.31 and 245.34 px).
        QVERIFY(std::abs(widthIn(QStringLiteral("Inter, Noto Sans CJK KR"), 48, 400, QString(), "한국어 제목") - 234.31) < 0.5);
        QVERIFY(std::abs(widthIn(QStringLiteral("Inter, Noto Serif CJK KR"), 48, 400, QString(), "한국어 제목") - 245.34) < 0.5);
    }

    void languageGivesItsSpacesAndDigits()
    {
        // HarfBuzz's locl for Korean makes Noto Sans CJK KR's space 0.28 em (0.224 without);
        // Noto Serif CJK's digits are 0.558 em in Japanese (0.549 without).
        const QRawFont kr = QRawFont::fromFont([] {
            QFont f;
            f.setFamilies({QStringLiteral("Noto Sans CJK KR")});
            f.setPixelSize(16);
            return f;
        }());
        QCOMPARE(kr.familyName(), QStringLiteral("Noto Sans CJK KR"));
        QVERIFY(std::abs(languageAdvanceDelta(kr, QStringLiteral("ko"), u' ', 100) - 5.6) < 0.01);
        QCOMPARE(languageAdvanceDelta(kr, QString(), u' ', 100), 0.0);
        // Languages are told apart by the OpenType language system they select.
        QCOMPARE(languageAdvanceDelta(kr, QStringLiteral("ko-KR"), u' ', 100), languageAdvanceDelta(kr, QStringLiteral("ko"), u' ', 100));
        QCOMPARE(languageAdvanceDelta(kr, QStringLiteral("ko"), u'a', 100), 0.0);
        // Chromium's widths at 24 px.
        const std::tuple<QString, QString, const char *, qreal> cases[] = {
            {QStringLiteral("sans-serif"), QStringLiteral("ko"), "Hello World 2025", 192.30},
            {QStringLiteral("sans-serif"), QStringLiteral("ko"), "한국어 제목", 117.13},
            {QStringLiteral("serif"), QStringLiteral("ja"), "Hello World 2025", 200.50},
            {QStringLiteral("serif"), QStringLiteral("ko"), "Hello World 2025", 203.09},
        };
        for (const auto &[family, lang, text, chromium] : cases) {
            const qreal ours = widthIn(family, 24, 400, lang, text);
            QVERIFY2(std::abs(ours - chromium) < 0.5,
                     qPrintable(QStringLiteral("%1 %2 \"%3\": %4 px, Chromium %5").arg(family, lang, QString::fromUtf8(text)).arg(ours).arg(chromium)));
        }
    }

    void caseMappingFollowsTheLanguage()
    {
        // text-transform maps case for the element's language, as Blink does with ICU:
        // Turkish and Azeri dotted i, Greek capitals without accents; capitalize does not
        // (Chromium: "Istanbul" in tr).
        using imprint::render::applyTransform;
        QCOMPARE(applyTransform(QStringLiteral("istanbul"), TextTransform::Uppercase, QStringLiteral("tr")),
                 QString::fromUtf8("İSTANBUL"));
        QCOMPARE(applyTransform(QStringLiteral("istanbul"), TextTransform::Uppercase, QStringLiteral("az-AZ")),
                 QString::fromUtf8("İSTANBUL"));
        QCOMPARE(applyTransform(QString::fromUtf8("İSTANBUL"), TextTransform::Lowercase, QStringLiteral("tr")),
                 QStringLiteral("istanbul"));
        QCOMPARE(applyTransform(QString::fromUtf8("άλφα ήταν"), TextTransform::Uppercase, QStringLiteral("el")),
                 QString::fromUtf8("ΑΛΦΑ ΗΤΑΝ"));
        QCOMPARE(applyTransform(QStringLiteral("istanbul"), TextTransform::Uppercase, QStringLiteral("en")),
                 QStringLiteral("ISTANBUL"));
        QCOMPARE(applyTransform(QStringLiteral("istanbul"), TextTransform::Capitalize, QStringLiteral("tr")),
                 QStringLiteral("Istanbul"));
        // Through the engine (Chromium: 154.73 px at 28 px; with the accents 157.1).
        ComputedStyle s = familyStyle(QStringLiteral("Noto Sans"), 28);
        s.textTransform = TextTransform::Uppercase;
        s.lang = QStringLiteral("el");
        const qreal width = imprint::test::renderContext().text().shape(s, QString::fromUtf8("άλφα ήταν"), kMaxContent)->size.width();
        QVERIFY2(std::abs(width - 154.73) < 0.3, qPrintable(QString::number(width)));
    }

    void hanLanguageMakesTheGenericFamilyItsCjkFace()
    {
        // With lang ja or zh, sans-serif and serif (and the default face of a stack with
        // nothing installed) are the language's CJK family, which takes the weight like any
        // named one (Chromium's zh-TW bold title is Noto Sans CJK TC Bold, SSIM 0.999
        // against the family named; the regular face emboldened scored 0.977), and draws the
        // Latin too.
        ComputedStyle s = dejaVu(48);
        s.fontWeight = 700;
        s.fontFamily = {QStringLiteral("sans-serif")};
        s.lang = QStringLiteral("zh-TW");
        TextEngine &engine = imprint::test::renderContext().text();
        const auto title = engine.shape(s, QString::fromUtf8("開放圖譜 Imprint"), kMaxContent);
        // Qt may name a run's face by the family asked first: the face is told by its own
        // name table.
        const auto namedIn = [](const QRawFont &font, const QString &name) {
            QByteArray utf16be;
            for (QChar c : name)
                utf16be.append(char(c.unicode() >> 8)).append(char(c.unicode() & 0xff));
            return font.fontTable("name").contains(utf16be);
        };
        QVERIFY(!title->lines.at(0).glyphRuns.isEmpty());
        for (const QGlyphRun &run : title->lines.at(0).glyphRuns) {
            QVERIFY(namedIn(run.rawFont(), QStringLiteral("Noto Sans CJK TC Bold")));
            QCOMPARE(faceWeight(run.rawFont()), 700);
            QCOMPARE(syntheticBoldWidth(run.rawFont()), 0.0);
        }
        // A named Latin family keeps its Latin; its Han comes from the language's family in
        // the text's weight.
        s.fontFamily = {QStringLiteral("Noto Sans")};
        s.lang = QStringLiteral("zh-CN");
        const auto mixed = engine.shape(s, QString::fromUtf8("Imprint 图片"), kMaxContent);
        bool latin = false, han = false;
        for (const QGlyphRun &run : mixed->lines.at(0).glyphRuns) {
            latin = latin || namedIn(run.rawFont(), QStringLiteral("Noto Sans Bold"));
            han = han || (namedIn(run.rawFont(), QStringLiteral("Noto Sans CJK SC Bold")) && faceWeight(run.rawFont()) == 700);
        }
        QVERIFY(latin && han);
    }

    /// The content language picks the locale forms of Han characters as Chromium does
    /// (fontconfig's sort for the language): JP for Japanese and for no language (Chromium's
    /// default locale is en-US), SC for Simplified Chinese, TC for Traditional, KR for Korean.
    void langPicksHanLocaleForms()
    {
        QCOMPARE(fallbackLocale(QString()), QByteArray("en-us"));
        QCOMPARE(fallbackLocale(QStringLiteral("zh")), QByteArray("zh-cn"));
        QCOMPARE(fallbackLocale(QStringLiteral("zh-Hans-SG")), QByteArray("zh-cn"));
        QCOMPARE(fallbackLocale(QStringLiteral("zh-Hant")), QByteArray("zh-tw"));
        QCOMPARE(fallbackLocale(QStringLiteral("zh_TW")), QByteArray("zh-tw"));
        QCOMPARE(fallbackLocale(QStringLiteral("zh-HK")), QByteArray("zh-hk"));
        QCOMPARE(fallbackLocale(QStringLiteral("JA-JP")), QByteArray("ja-jp"));
        const char32_t han = 0x76F4; // 直: its JP, SC, TC and KR forms differ
        const std::pair<QString, QString> expected[] = {
            {QString(), QStringLiteral("Noto Sans CJK JP")},    {QStringLiteral("ja"), QStringLiteral("Noto Sans CJK JP")},
            {QStringLiteral("zh-CN"), QStringLiteral("Noto Sans CJK SC")}, {QStringLiteral("zh-TW"), QStringLiteral("Noto Sans CJK TC")},
            {QStringLiteral("ko"), QStringLiteral("Noto Sans CJK KR")},
        };
        for (const auto &[lang, family] : expected) {
            const FallbackFace *face = systemFallbackFace(han, lang);
            QVERIFY2(face, qPrintable(lang));
            QCOMPARE(face->family, family);
        }
        // Through the text engine, whose shaping cache must tell the languages apart.
        ComputedStyle s = dejaVu(48);
        TextEngine &engine = imprint::test::renderContext().text();
        const QString text = QString::fromUtf8("直骨今角");
        s.lang = QStringLiteral("ja");
        QCOMPARE(engine.shape(s, text, kMaxContent)->lines.at(0).glyphRuns.at(0).rawFont().familyName(),
                 QStringLiteral("Noto Sans CJK JP"));
        s.lang = QStringLiteral("zh-CN");
        QCOMPARE(engine.shape(s, text, kMaxContent)->lines.at(0).glyphRuns.at(0).rawFont().familyName(),
                 QStringLiteral("Noto Sans CJK SC"));
    }

};

QTEST_MAIN(TestTextLanguage)
#include "tst_text_language.moc"
