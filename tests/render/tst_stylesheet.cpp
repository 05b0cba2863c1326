// Template style sheets (issue 28 item 3, docs/templates.md "Stylesheets"): selectors
// matched as Selectors 4 defines them, rules ordered by CSS Cascade 4 (specificity, source
// order, inline style, !important), what a still image cannot use ignored or warned about.

#include "server/render/document/html_page.h"
#include "server/render/document/template.h"
#include "server/render/pipeline.h"
#include "tests/support/render_requests.h"
#include "tests/support/render_context.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace imprint::render;

namespace {

struct Built {
    std::unique_ptr<Node> root;
    RenderError error;
    QStringList warnings;
};

/// A 400×300 template of `root` (JSON text) with `sheets`, built into a styled tree.
Built build(const QStringList &sheets, const char *root)
{
    QJsonObject doc{{"name", "sheet"}, {"width", 400}, {"height", 300},
                    {"stylesheets", QJsonArray::fromStringList(sheets)},
                    {"root", QJsonDocument::fromJson(root).object()}};
    Built b;
    auto t = parseTemplate(doc);
    b.error = t.error_or(b.error);
    if (!t)
        return b;
    auto values = resolveVariables(*t, {}, {});
    b.error = values.error_or(b.error);
    if (!values)
        return b;
    auto built = buildDocument(*t, *values, &b.warnings, {}, {}, QSizeF(400, 300));
    b.error = built.error_or(b.error);
    if (built)
        b.root = std::move(*built);
    return b;
}

/// The element at child-index path `path` ("" = the root, "1.0" = second child's first).
const Node &at(const Built &b, const QString &path = {})
{
    const Node *n = b.root.get();
    for (const QString &step : path.split(u'.', Qt::SkipEmptyParts)) {
        int k = step.toInt();
        for (const auto &c : n->children) {
            if (c->isText())
                continue;
            if (k-- == 0) {
                n = c.get();
                break;
            }
        }
    }
    return *n;
}

const char *kList = "{\"type\":\"div\",\"props\":{\"className\":\"card\",\"children\":["
                    "{\"type\":\"p\",\"props\":{\"className\":\"lead big\",\"children\":\"one\"}},"
                    "{\"type\":\"p\",\"props\":{\"id\":\"second\",\"children\":\"two\"}},"
                    "{\"type\":\"span\",\"props\":{\"data-kind\":\"tag\",\"children\":\"three\"}},"
                    "{\"type\":\"p\",\"props\":{\"className\":\"lead\",\"style\":{\"color\":\"#00ff00\"},"
                    "\"children\":\"four\"}}]}}";

} // namespace

class TestStylesheet : public QObject
{
    Q_OBJECT

private slots:
    void classTypeAndIdSelectors()
    {
        const Built b = build({QStringLiteral(".card { padding: 12px; background-color: #111111 }"
                                              "p { font-size: 30px } #second { font-size: 40px }"
                                              "span[data-kind=tag] { color: #0000ff }")},
                              kList);
        QVERIFY2(b.root, qPrintable(b.error.message));
        QCOMPARE(at(b).style.padding[0].value, 12.f);
        QCOMPARE(at(b).style.backgroundColor, QColor(0x11, 0x11, 0x11));
        QCOMPARE(at(b, "0").style.fontSize, 30.f);
        QCOMPARE(at(b, "1").style.fontSize, 40.f); // the id over the type selector
        QCOMPARE(at(b, "2").style.color, QColor(Qt::blue));
        QVERIFY2(b.warnings.isEmpty(), qPrintable(b.warnings.join('\n')));
    }

    void specificitySourceOrderInlineAndImportant()
    {
        const Built b = build({QStringLiteral(".lead.big { color: #ff0000 } .lead { color: #0000ff }"
                                              "p { color: #000000 }"),
                               QStringLiteral(".big { font-size: 20px } .lead { font-size: 24px }"
                                              ".lead { letter-spacing: 3px !important }")},
                              kList);
        QVERIFY2(b.root, qPrintable(b.error.message));
        QCOMPARE(at(b, "0").style.color, QColor(Qt::red)); // two classes beat one, whatever the order
        QCOMPARE(at(b, "0").style.fontSize, 24.f); // equal specificity: the later rule
        QCOMPARE(at(b, "3").style.color, QColor(Qt::green)); // inline style beats the sheet
        QCOMPARE(at(b, "3").style.letterSpacing, 3.f);
        const Built important = build({QStringLiteral(".lead { color: #ff00ff !important }")}, kList);
        QCOMPARE(at(important, "3").style.color, QColor(Qt::magenta)); // !important beats inline
    }

    void combinatorsAndStructuralPseudoClasses()
    {
        const Built b = build({QStringLiteral(".card > p:first-child { font-size: 11px }"
                                              ".card p:last-child { font-size: 12px }"
                                              "p + p { padding-left: 5px }"
                                              "p ~ span { padding-left: 7px }"
                                              ".card > :nth-child(2n+1):not(.big) { padding-top: 9px }"
                                              "div span { padding-right: 3px }"
                                              ".missing p { font-size: 99px }")},
                              kList);
        QVERIFY2(b.root, qPrintable(b.error.message));
        QCOMPARE(at(b, "0").style.fontSize, 11.f);
        QCOMPARE(at(b, "3").style.fontSize, 12.f);
        QCOMPARE(at(b, "1").style.padding[3].value, 5.f); // p + p
        QCOMPARE(at(b, "0").style.padding[3].value, 0.f);
        QCOMPARE(at(b, "2").style.padding[3].value, 7.f); // p ~ span
        QCOMPARE(at(b, "2").style.padding[1].value, 3.f); // descendant
        QCOMPARE(at(b, "0").style.padding[0].value, 0.f); // 1st child, but .big
        QCOMPARE(at(b, "1").style.padding[0].value, 0.f); // 2nd: even
        QCOMPARE(at(b, "2").style.padding[0].value, 9.f); // 3rd
        QCOMPARE(at(b, "3").style.padding[0].value, 0.f); // 4th: even
        QCOMPARE(at(b, "1").style.fontSize, 16.f); // no .missing ancestor
    }

    void longDescendantChainsOnADeepTreeStayLinear()
    {
        // `.nope div … div span` on a 60-deep tree: trying every choice of ancestors is
        // exponential (a render hung for minutes); a failed descendant step stops the walk.
        QJsonObject node{{"type", "span"}, {"props", QJsonObject{{"children", "x"}}}};
        for (int i = 0; i < 60; ++i)
            node = QJsonObject{{"type", "div"}, {"props", QJsonObject{{"children", QJsonArray{node}}}}};
        QJsonObject root = node;
        QJsonObject props = root.value("props").toObject();
        props.insert("className", "top");
        root.insert("props", props);
        const QByteArray json = QJsonDocument(root).toJson(QJsonDocument::Compact);
        const QString chain = QStringLiteral("div ").repeated(14);
        const Built b = build({QStringLiteral(".nope %1span { font-size: 30px } .top %1span { color: #ff0000 }").arg(chain)},
                              json.constData());
        QVERIFY2(b.root, qPrintable(b.error.message));
        const Node *leaf = b.root.get();
        while (!leaf->children.empty() && !leaf->children.front()->isText())
            leaf = leaf->children.front().get();
        QCOMPARE(leaf->tag, QStringLiteral("span"));
        QCOMPARE(leaf->style.color, QColor(Qt::red));
        QCOMPARE(leaf->style.fontSize, 16.f);
    }

    void rootCustomPropertiesReachTheTree()
    {
        const Built b = build({QStringLiteral(":root { --brand: #ff0000; --gap: 6px }"
                                              ".lead { color: var(--brand); margin-top: var(--gap) }")},
                              kList);
        QVERIFY2(b.root, qPrintable(b.error.message));
        QCOMPARE(at(b, "0").style.color, QColor(Qt::red));
        QCOMPARE(at(b, "0").style.margin[0].value, 6.f);
    }

    void aLaterShorthandResetsEarlierLonghands()
    {
        // CSS Cascade 4: the inline `margin` shorthand wins over the sheet's marginTop,
        // though the style builder applies longhands after shorthands.
        const Built b = build({QStringLiteral("p { margin-top: 30px; border-top-width: 4px }")},
                              "{\"type\":\"div\",\"props\":{\"children\":[{\"type\":\"p\",\"props\":{\"style\":"
                              "{\"margin\":2,\"border\":\"1px solid red\"},\"children\":\"x\"}}]}}");
        QVERIFY2(b.root, qPrintable(b.error.message));
        QCOMPARE(at(b, "0").style.margin[0].value, 2.f);
        QCOMPARE(at(b, "0").style.borderWidth[0], 1.f);
    }

    void stillImageRulesAreDroppedAndUnsupportedOnesWarn()
    {
        const Built b = build({QStringLiteral("p:hover { color: #ff0000 } p::before { content: 'x' }"
                                              "@media print { p { color: #ff0000 } }"
                                              "@media (min-width: 300px) { p { font-size: 21px } }"
                                              "@media (min-width: 900px) { p { font-size: 50px } }"
                                              "p:has(span) { color: #00ff00 }"
                                              "@keyframes spin { from { opacity: 0 } }")},
                              kList);
        QVERIFY2(b.root, qPrintable(b.error.message));
        QCOMPARE(at(b, "0").style.color, QColor(Qt::black));
        QCOMPARE(at(b, "0").style.fontSize, 21.f); // the 400 px image is at least 300 wide
        const QString warnings = b.warnings.join('\n');
        QVERIFY2(warnings.contains("stylesheets[0]: selector \"p:has(span)\" ignored: :has is not supported"),
                 qPrintable(warnings));
        QVERIFY2(warnings.contains("@keyframes is not supported"), qPrintable(warnings));
        QVERIFY2(!warnings.contains("hover") && !warnings.contains("before") && !warnings.contains("print"),
                 qPrintable(warnings));
    }

    void markupClassesMatchToo()
    {
        QJsonObject doc{{"name", "m"}, {"width", 200}, {"height", 100},
                        {"stylesheets", QJsonArray{".title { font-size: 33px } #x { color: #0000ff }"}},
                        {"markup", "<div><h1 class=\"title\" id=\"x\">Hi</h1></div>"}};
        RenderError error;
        auto t = parseTemplate(doc);
        error = t.error_or(error);
        QVERIFY2(t, qPrintable(error.message));
        QStringList warnings;
        auto built = buildDocument(*t, {}, &warnings, {}, {}, QSizeF(200, 100));
        error = built.error_or(error);
        QVERIFY2(built, qPrintable(error.message));
        const auto &root = *built;
        const Node *h1 = root->children.at(0).get();
        QCOMPARE(h1->tag, QStringLiteral("h1"));
        QCOMPARE(h1->style.fontSize, 33.f);
        QCOMPARE(h1->style.color, QColor(Qt::blue));
    }

    void badStylesheetsFieldIsRefusedNamingIt()
    {
        RenderError error;
        QJsonObject doc{{"name", "x"}, {"width", 10}, {"height", 10}, {"root", QJsonObject{{"type", "div"}}}};
        doc.insert("stylesheets", "p{}");
        const auto refused = parseTemplate(doc);
        QVERIFY(!refused);
        error = refused.error();
        QCOMPARE(error.field, QStringLiteral("stylesheets"));
        doc.insert("stylesheets", QJsonArray{"p{}", 3});
        const auto refused2 = parseTemplate(doc);
        QVERIFY(!refused2);
        error = refused2.error();
        QCOMPARE(error.field, QStringLiteral("stylesheets[1]"));
    }

    void migrationExamplesRenderCleanly_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QString>("engine");
        for (const char *example : {"from-takumi", "from-vercel-og"})
            for (const char *engine : {"satori", "takumi"})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(example, engine)))
                    << QString::fromLatin1(example) << QString::fromLatin1(engine);
    }

    void migrationExamplesRenderCleanly()
    {
        // docs/coming-from-*.md: the peers' cards as Imprint templates draw without a
        // warning, and their backgrounds fill the image (the root is 100 % of it).
        QFETCH(QString, example);
        QFETCH(QString, engine);
        const auto result
            = imprint::test::renderSourceTemplate(QStringLiteral("docs/examples/%1.json").arg(example), engine);
        QVERIFY2(result, qPrintable(imprint::test::failureOf(result).message));
        // Every class, rule and SVG attribute of the example is understood. (Font warnings
        // are the host's business, not the example's: one run under a parallel ctest saw one.)
        QStringList unexpected;
        for (const QString &w : result->warnings)
            if (!w.contains(QLatin1String("font"), Qt::CaseInsensitive))
                unexpected << w;
        QVERIFY2(unexpected.isEmpty(), qPrintable(unexpected.join('\n')));
        if (engine == QLatin1String("takumi")) {
            const QImage image = QImage::fromData(result->bytes);
            QCOMPARE(image.size(), QSize(1200, 630));
            QVERIFY(qAlpha(image.pixel(1190, 620)) == 255); // the card's background reaches the corner
        }
    }

    void htmlPageCarriesTheSheetAndClasses()
    {
        QJsonObject doc{{"name", "h"}, {"width", 200}, {"height", 100},
                        {"stylesheets", QJsonArray{".t { color: red } </style><script>x</script>"}},
                        {"root", QJsonDocument::fromJson(kList).object()}};
        RenderError error;
        auto t = parseTemplate(doc);
        error = t.error_or(error);
        QVERIFY2(t, qPrintable(error.message));
        const auto html = templatePageHtml(*t, {}, false, {}, {}, {});
        QVERIFY(html);
        QVERIFY2(html->contains(".t { color: red }"), qPrintable(*html));
        QVERIFY2(!html->contains("</style><script>"), qPrintable(*html)); // cannot close the element
        QVERIFY2(html->contains("class=\"lead big\""), qPrintable(*html));
        QVERIFY2(html->contains("id=\"second\""), qPrintable(*html));
        // The flex default is a zero-specificity rule, so a sheet's display wins in Chromium.
        QVERIFY2(html->contains(":where(body *:not(span,"), qPrintable(*html));
        QVERIFY2(!html->contains("style=\"display:flex"), qPrintable(*html));
        // A root sized 100 % fills the image in Chromium too: html and body take the
        // viewport's size (issue 33), and a root with no height fills it (a rule of no
        // specificity, so the template's own height wins), unless the template is
        // content-sized.
        QVERIFY2(html->contains("<style>html,body{height:100%}:where(body>*){height:-webkit-fill-available}</style>"),
                 qPrintable(*html));
        const auto contentSized = templatePageHtml(*t, {}, true, {}, {}, {});
        QVERIFY(contentSized && !contentSized->contains("html,body{height:100%}")
                && !contentSized->contains("fill-available"));
    }
};

QTEST_MAIN(TestStylesheet)
#include "tst_stylesheet.moc"
