// Issue 29 items 4-5: automatic hyphenation (`hyphens`, with Blink's rules for which words
// break) and the font-relative `ch` and `ex` lengths. The pixels and boxes against
// Chromium are held by the conformance cases text-hyphens-auto and units-ch-ex
// (tst_layout_fixtures, tst_golden, tst_svg, tst_html); this suite holds the rules a
// reference would only show indirectly.

#include "server/render/document/html_page.h"
#include "server/render/document/template.h"
#include "server/render/resources/hyphenation.h"
#include "server/render/text/text_engine.h"
#include "tests/render/style_test_support.h"
#include "tests/support/render_context.h"

#include <QJsonDocument>
#include <QTest>

using namespace imprint::render;

namespace {

constexpr QChar kShy(0x00AD);

/// `text` with "-" where it has soft hyphens, for readable comparisons.
QString shown(const QString &text)
{
    return QString(text).replace(kShy, u'-');
}

Node textNode(const QString &text, Hyphens hyphens, const QString &lang)
{
    Node n;
    n.kind = Node::Kind::Text;
    n.text = text;
    n.style.fontFamily = {QStringLiteral("DejaVu Sans")};
    n.style.fontSize = 20;
    n.style.hyphens = hyphens;
    n.style.lang = lang;
    return n;
}

} // namespace

class TestTypographyUnits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { TextEngine::clearThreadCache(); }

    void hyphenatesAtThePatternsPoints_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<bool>("endsParagraph");
        QTest::addColumn<QString>("expected");
        QTest::newRow("words") << "documentation infrastructure" << "en" << false
                               << "doc-u-men-ta-tion in-fra-struc-ture";
        QTest::newRow("en-US") << "accommodates" << "en-US" << false << "ac-com-mo-dates";
        QTest::newRow("en-PR maps to en-us") << "accommodates" << "en-PR" << false << "ac-com-mo-dates";
        // Blink maps these to British English, which neither Imprint nor Debian's Chromium has.
        QTest::newRow("en-GB") << "accommodates" << "en-GB" << false << "accommodates";
        QTest::newRow("no lang") << "accommodates" << "" << false << "accommodates";
        QTest::newRow("other language") << "accommodates" << "de" << false << "accommodates";
        QTest::newRow("capitalised word") << "Documentation" << "en" << false << "Documentation";
        QTest::newRow("short word") << "table" << "en" << false << "ta-ble";
        QTest::newRow("four letters") << "tabs" << "en" << false << "tabs";
        QTest::newRow("quotes and punctuation") << "“documentation,” said" << "en" << false
                                                << "“doc-u-men-ta-tion,” said";
        QTest::newRow("digits keep it whole") << "documentation2" << "en" << false << "documentation2";
        QTest::newRow("apostrophe keeps it whole") << "documentation's" << "en" << false << "documentation's";
        QTest::newRow("author's soft hyphen wins") << QStringLiteral("documen\u00ADtation") << "en" << false
                                                   << "documen-tation";
        QTest::newRow("hyphenated compound") << "well-documented" << "en" << false << "well-doc-u-ment-ed";
        QTest::newRow("last word of the paragraph") << "documentation, remarkably." << "en" << true
                                                    << "doc-u-men-ta-tion, remarkably.";
        QTest::newRow("last word before trailing space") << "remarkably  " << "en" << true << "remarkably  ";
    }

    void hyphenatesAtThePatternsPoints()
    {
        QFETCH(QString, text);
        QFETCH(QString, lang);
        QFETCH(bool, endsParagraph);
        QFETCH(QString, expected);
        QCOMPARE(shown(insertSoftHyphens(text, lang, endsParagraph)), expected);
    }

    void autoHyphensBreakNarrowColumnsOnly()
    {
        TextEngine &engine = imprint::test::renderContext().text();
        const QString text = QStringLiteral("extraordinarily comprehensive documentation here");
        // 150 px: the long words no longer overflow the column, they break with a hyphen.
        const auto manual = engine.shape(textNode(text, Hyphens::Manual, QStringLiteral("en")), 150);
        const auto automatic = engine.shape(textNode(text, Hyphens::Auto, QStringLiteral("en")), 150);
        QVERIFY(manual->size.width() > 150);
        QVERIFY2(automatic->size.width() <= 150, qPrintable(QString::number(automatic->size.width())));
        // Min-content leaves automatic hyphenation out (Blink): a flex item is as wide as
        // its longest whole word, as with `manual`.
        const TextMetrics minManual = engine.measure(textNode(text, Hyphens::Manual, QStringLiteral("en")), 0);
        const TextMetrics minAuto = engine.measure(textNode(text, Hyphens::Auto, QStringLiteral("en")), 0);
        QCOMPARE(minAuto.size.width(), minManual.size.width());
    }

    void hyphensNoneIgnoresSoftHyphens()
    {
        TextEngine &engine = imprint::test::renderContext().text();
        const QString text = QStringLiteral("extra\u00ADordinarily");
        const TextMetrics manual = engine.measure(textNode(text, Hyphens::Manual, QString()), 0);
        const TextMetrics none = engine.measure(textNode(text, Hyphens::None, QString()), 0);
        QVERIFY2(none.size.width() > manual.size.width() + 20,
                 qPrintable(QStringLiteral("%1 vs %2").arg(none.size.width()).arg(manual.size.width())));
    }

    void hyphensPropertyParsesAndWarns()
    {
        QStringList warnings;
        QCOMPARE(test::style(R"({"hyphens": "auto"})").hyphens, Hyphens::Auto);
        QCOMPARE(test::style(R"({"WebkitHyphens": "none"})").hyphens, Hyphens::None);
        ComputedStyle parent = test::style(R"({"hyphens": "auto"})");
        QCOMPARE(test::style("{}", &parent).hyphens, Hyphens::Auto); // inherited
        QCOMPARE(test::style(R"({"hyphens": "sometimes"})", nullptr, &warnings).hyphens, Hyphens::Manual);
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.first().contains(QLatin1String("hyphens")), qPrintable(warnings.first()));
    }

    void htmlPageCarriesTheSoftHyphens()
    {
        const QByteArray json = R"({"width": 400, "height": 200, "lang": "en", "root": {"type": "div", "props": {
            "style": {"width": 150, "hyphens": "auto", "display": "block"},
            "children": ["documentation ", {"type": "span", "props": {"children": "infrastructure"}}]}}})";
        RenderError error;
        const auto tmpl = parseTemplate(QJsonDocument::fromJson(json).object());
        error = tmpl.error_or(error);
        QVERIFY(tmpl);
        const auto page = templatePageHtml(*tmpl, {}, false, {});
        QVERIFY(page);
        // The text before the span does not end the paragraph; the span's last word does.
        QVERIFY2(page->contains(QStringLiteral("doc\u00ADu\u00ADmen\u00ADta\u00ADtion ")), qPrintable(*page));
        QVERIFY2(page->contains(QLatin1String(">infrastructure<")), qPrintable(*page));
    }

    void chAndExMeasureTheFirstAvailableFont()
    {
        // Chromium 156, Inter 24 px: 1ch = 15 px (the "0" advance), 1ex = 13.08 px (OS/2
        // sxHeight 1536 of 2816 units); DejaVu Sans Mono 20 px: 1ch = 12.04 px.
        const ComputedStyle inter = test::style(R"json({"fontFamily": "Inter", "fontSize": 24, "width": "10ch",
                                                    "height": "10ex", "paddingLeft": "calc(1ch + 1px)"})json");
        QCOMPARE(inter.width.type, Length::Type::Px);
        QVERIFY2(std::abs(inter.width.value - 150) < 0.1, qPrintable(QString::number(inter.width.value)));
        QVERIFY2(std::abs(inter.height.value - 130.8) < 0.2, qPrintable(QString::number(inter.height.value)));
        QVERIFY2(std::abs(inter.padding[3].value - 16) < 0.1, qPrintable(QString::number(inter.padding[3].value)));
        const ComputedStyle mono = test::style(R"({"fontFamily": "DejaVu Sans Mono", "fontSize": 20, "width": "10ch"})");
        QVERIFY2(std::abs(mono.width.value - 120.4) < 0.2, qPrintable(QString::number(mono.width.value)));
        // In font-size, the parent's font: 2ch of Inter 24 px is 30 px.
        const ComputedStyle child = test::style(R"({"fontSize": "2ch"})", &inter);
        QCOMPARE(child.fontSize, 30.f);
        // "flex" and a family named "Chalet" hold "ex"/"ch" but no length: untouched.
        const ComputedStyle words = test::style(R"({"display": "flex", "fontFamily": "Chalet, Inter"})");
        QCOMPARE(words.display, imprint::render::Display::Flex);
        QCOMPARE(words.fontFamily.first(), QStringLiteral("Chalet"));
    }
};

QTEST_MAIN(TestTypographyUnits)
#include "tst_typography_units.moc"
