// Templates: parsing both document shapes, the reference fixtures, variable substitution
// as plain text, HTML markup through gumbo, and every limit error naming its field.

#include "server/render/document/html_page.h"
#include "server/render/document/template.h"
#include "server/render/pipeline.h"
#include "tests/support/render_requests.h"

#include "tests/support/fixtures.h"
#include "tests/support/render_context.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

#include <limits>

using namespace imprint::render;

namespace {

QJsonObject json(const char *text)
{
    QJsonParseError e;
    const QJsonObject o = QJsonDocument::fromJson(text, &e).object();
    if (e.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", qPrintable(e.errorString()));
    return o;
}

void collectElements(const Node &n, QList<const Node *> *out)
{
    if (!n.isText())
        out->append(&n);
    for (const auto &c : n.children)
        collectElements(*c, out);
}

const Node *findById(const Node &n, const QString &id)
{
    if (!n.isText() && n.id == id)
        return &n;
    for (const auto &c : n.children)
        if (const Node *f = findById(*c, id))
            return f;
    return nullptr;
}

/// Renders a tree as one line per node so two trees compare with a readable diff.
void dump(const Node &n, int depth, QStringList *out)
{
    const QString pad(depth * 2, QLatin1Char(' '));
    if (n.isText()) {
        out->append(
            pad + QStringLiteral("\"%1\" color=%2 size=%3").arg(n.text, n.style.color.name()).arg(n.style.fontSize));
        return;
    }
    const ComputedStyle &s = n.style;
    out->append(pad
                + QStringLiteral("<%1 id=%2> w=%3:%4 pad=%5 bg=%6 color=%7 dir=%8 gap=%9 clamp=%10")
                      .arg(n.tag, n.id)
                      .arg(int(s.width.type))
                      .arg(s.width.value)
                      .arg(s.padding[Top].value)
                      .arg(s.backgroundColor.name(QColor::HexArgb), s.color.name())
                      .arg(int(s.flexDirection))
                      .arg(s.columnGap.value)
                      .arg(s.lineClamp));
    for (const auto &c : n.children)
        dump(*c, depth + 1, out);
}

QStringList dump(const Node &n)
{
    QStringList out;
    dump(n, 0, &out);
    return out;
}

struct Built {
    std::unique_ptr<Node> root;
    RenderError error;
    QStringList warnings;
};

Built build(const QJsonObject &doc, const QJsonObject &tweaks = {}, const TemplateLimits &limits = {})
{
    Built b;
    auto t = parseTemplate(doc, limits);
    b.error = t.error_or(b.error);
    if (!t)
        return b;
    auto values = resolveVariables(*t, {}, tweaks, limits);
    b.error = values.error_or(b.error);
    if (!values)
        return b;
    auto built = buildDocument(*t, *values, &b.warnings, {}, limits);
    b.error = built.error_or(b.error);
    if (built)
        b.root = std::move(*built);
    return b;
}

/// A `width`×`height` markup template of `markup` (the HTML as written, no JSON
/// escaping), built.
Built buildMarkup(const char *markup, int width = 100, int height = 100)
{
    return build(QJsonObject{{"width", width}, {"height", height}, {"markup", QString::fromUtf8(markup)}});
}

/// The <p> of a markup document that holds one paragraph: the root itself, or its first
/// child.
const Node *paragraphOf(const Node &root)
{
    return root.tag == QLatin1String("p") ? &root : root.children[0].get();
}

QString pngDataUrl(int w, int h)
{
    QImage img(w, h, QImage::Format_ARGB32);
    img.fill(QColor(200, 10, 20));
    QByteArray bytes;
    QBuffer buf(&bytes);
    buf.open(QIODevice::WriteOnly);
    img.save(&buf, "PNG");
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(bytes.toBase64());
}

const char *kCard = "{\n"
                    "  \"name\": \"Blog card\", \"width\": 1200, \"height\": 630, \"rendererType\": \"takumi\", "
                    "\"emojiType\": \"noto\",\n"
                    "  \"variables\": [ {\"name\": \"title\", \"type\": \"text\", \"default\": \"Hello\"},\n"
                    "                 {\"name\": \"accent\", \"type\": \"color\", \"default\": \"#6d28d9\"},\n"
                    "                 {\"name\": \"size\", \"type\": \"number\", \"default\": 48},\n"
                    "                 {\"name\": \"photo\", \"type\": \"image\"} ],\n"
                    "  \"root\": { \"type\": \"div\", \"props\": { \"style\": {\"display\": \"flex\", \"width\": "
                    "\"100%\", \"color\": \"{{accent}}\",\n"
                    "                                                \"fontSize\": \"{{size}}px\"},\n"
                    "            \"children\": [\"{{title}}\"] } } }";

} // namespace

class TstTemplate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fullDocument()
    {
        RenderError error;
        auto t = parseTemplate(json(kCard));
        error = t.error_or(error);
        QVERIFY2(t, qPrintable(error.field + QLatin1String(": ") + error.message));
        QCOMPARE(t->name, QStringLiteral("Blog card"));
        QCOMPARE(t->width, 1200);
        QCOMPARE(t->height, 630);
        QCOMPARE(t->rendererType, QStringLiteral("takumi"));
        QCOMPARE(t->emojiType, QStringLiteral("noto"));
        QCOMPARE(t->variables.size(), size_t(4));
        QCOMPARE(t->variables[1].type, TemplateVariable::Type::Color);
        QCOMPARE(t->variables[2].defaultValue, QStringLiteral("48"));
        QVERIFY(t->root.isObject());

        Built b = build(json(kCard));
        QVERIFY(b.root);
        QCOMPARE(b.root->id, QStringLiteral("0"));
        QCOMPARE(b.root->style.color, QColor(0x6d, 0x28, 0xd9));
        QCOMPARE(b.root->style.fontSize, 48.f);
        QCOMPARE(b.root->children.size(), size_t(1));
        QCOMPARE(b.root->children[0]->text, QStringLiteral("Hello"));
        QCOMPARE(b.root->children[0]->style.color, QColor(0x6d, 0x28, 0xd9));
    }

    void bareTree()
    {
        auto t = parseTemplate(
            json("{\"type\": \"div\", \"props\": {\"style\": {\"width\": \"1200px\", \"height\": 630}}}"));
        QVERIFY2(t, qPrintable(imprint::test::failureOf(t).message));
        QCOMPARE(t->width, 1200);
        QCOMPARE(t->height, 630);
        QCOMPARE(t->rendererType, QStringLiteral("satori"));
        QVERIFY(t->variables.empty());
        // A root sized by an intrinsic keyword makes a content-sized image (0 = unknown
        // side); the document's own width still wins.
        t = parseTemplate(
            json("{\"type\": \"div\", \"props\": {\"style\": {\"width\": \"fit-content\", \"height\": 630}}}"));
        QVERIFY2(t, qPrintable(imprint::test::failureOf(t).message));
        QCOMPARE(t->width, 0);
        QCOMPARE(t->height, 630);
        t = parseTemplate(json("{\"width\": \"max-content\", \"height\": 630, \"root\": {\"type\": \"div\"}}"));
        QVERIFY(!t);
        QCOMPARE(t.error().field, QStringLiteral("width"));
    }

    /// `lang` is a language tag: the html engine's page carries it on <html>, a malformed
    /// one is refused naming the field.
    void langIsALanguageTag()
    {
        auto t = parseTemplate(
            json("{\"width\": 10, \"height\": 10, \"lang\": \"zh-CN\", \"root\": {\"type\": \"div\"}}"));
        QVERIFY2(t, qPrintable(imprint::test::failureOf(t).message));
        QCOMPARE(t->lang, QStringLiteral("zh-CN"));
        const auto page = templatePageHtml(*t, {}, false, {});
        QVERIFY(page);
        QVERIFY(page->startsWith(QStringLiteral("<!DOCTYPE html><html lang=\"zh-CN\">")));
        for (const char *bad : {"\"ja jp\"", "\"<x>\"", "42", "\"a\"", "\"x-verylongsubtag\""}) {
            t = parseTemplate(
                json(QStringLiteral("{\"width\": 10, \"height\": 10, \"lang\": %1, \"root\": {\"type\": \"div\"}}")
                         .arg(QLatin1String(bad))
                         .toUtf8()
                         .constData()));
            QVERIFY2(!t, bad);
            QCOMPARE(t.error().field, QStringLiteral("lang"));
        }
        QVERIFY(isLanguageTag(QStringLiteral("zh-Hant-TW")));
        QVERIFY(isLanguageTag(QString()));
    }

    void sizeErrorsNameTheField_data()
    {
        QTest::addColumn<QString>("doc");
        QTest::addColumn<QString>("field");
        QTest::newRow("negative") << "{\"width\": -5, \"height\": 630, \"root\": {\"type\": \"div\"}}"
                                  << "width";
        QTest::newRow("zero") << "{\"width\": 0, \"height\": 630, \"root\": {\"type\": \"div\"}}"
                              << "width";
        QTest::newRow("bare percent")
            << "{\"type\": \"div\", \"props\": {\"style\": {\"width\": \"100%\", \"height\": 10}}}"
            << "root.props.style.width";
        QTest::newRow("renderer")
            << "{\"width\": 1, \"height\": 1, \"rendererType\": \"chrome\", \"root\": {\"type\": \"div\"}}"
            << "rendererType";
        QTest::newRow("no root") << "{\"width\": 1, \"height\": 1}"
                                 << "root";
        QTest::newRow("no type") << "{\"width\": 1, \"height\": 1, \"root\": {\"props\": {}}}"
                                 << "root.type";
        QTest::newRow("child no type") << "{\"width\": 1, \"height\": 1, \"root\": {\"type\": \"div\", \"props\": "
                                          "{\"children\": [\"a\", {\"props\": {}}]}}}"
                                       << "root.props.children[1].type";
        QTest::newRow("style not object")
            << "{\"width\": 1, \"height\": 1, \"root\": {\"type\": \"div\", \"props\": {\"style\": \"color: red\"}}}"
            << "root.props.style";
        QTest::newRow("variable type") << "{\"width\": 1, \"height\": 1, \"variables\": [{\"name\": \"x\", \"type\": "
                                          "\"date\"}], \"root\": {\"type\": \"div\"}}"
                                       << "variables[0].type";
        QTest::newRow("bad colour default")
            << "{\"width\": 1, \"height\": 1, \"variables\": [{\"name\": \"t\"}, {\"name\": \"c\", \"type\": "
               "\"color\", \"default\": \"nope\"}], \"root\": {\"type\": \"div\"}}"
            << "variables[1].default";
    }
    void sizeErrorsNameTheField()
    {
        QFETCH(QString, doc);
        QFETCH(QString, field);
        RenderError error;
        const auto refused = parseTemplate(QJsonDocument::fromJson(doc.toUtf8()).object());
        QVERIFY(!refused);
        error = refused.error();
        QCOMPARE(error.field, field);
        QVERIFY(!error.message.isEmpty());
    }

    // How large is too large is the plan's call (402) or the pipeline's 8192 px bound, so a
    // huge size parses, held at the largest int, and a render of it names the field.
    void hugeSizesParse()
    {
        RenderError error;
        const auto t = parseTemplate(
            QJsonDocument::fromJson(R"({"width": 1200, "height": 1099511627776, "root": {"type": "div"}})").object());
        error = t.error_or(error);
        QVERIFY2(t.has_value(), qPrintable(error.message));
        QCOMPARE(t->height, std::numeric_limits<int>::max());
        RenderRequest request;
        request.document
            = QJsonDocument::fromJson(R"({"width": 1200, "height": 9000, "root": {"type": "div"}})").object();
        const auto tall = render(request, imprint::test::renderContext());
        QVERIFY(!tall);
        QCOMPARE(tall.error().field, QStringLiteral("height"));
        QCOMPARE(tall.error().code, RenderErrorCode::InvalidSize);
    }

    void fixturesBuildWithChromiumIds()
    {
        const QString dir = test::fixtureDir();
        if (dir.isEmpty())
            QSKIP("reference fixtures not found");
        const QStringList names
            = QDir(dir + QStringLiteral("/templates")).entryList({QStringLiteral("*.json")}, QDir::Files);
        QCOMPARE(names.size(), 11);
        for (const QString &file : names) {
            QFile f(dir + QStringLiteral("/templates/") + file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            Built b = build(QJsonDocument::fromJson(f.readAll()).object());
            QVERIFY2(b.root,
                     qPrintable(file + QLatin1String(": ") + b.error.field + QLatin1String(" ") + b.error.message));
            QVERIFY2(b.warnings.isEmpty(), qPrintable(file + QLatin1String(": ") + b.warnings.join(QLatin1Char('\n'))));

            QFile lf(dir + QStringLiteral("/chromium/")
                     + QString(file).replace(QLatin1String(".json"), QLatin1String(".layout.json")));
            QVERIFY(lf.open(QIODevice::ReadOnly));
            const QJsonArray boxes = QJsonDocument::fromJson(lf.readAll()).array();
            QList<const Node *> elements;
            collectElements(*b.root, &elements);
            QCOMPARE(elements.size(), boxes.size());
            QSet<QString> ours;
            for (const Node *n : elements)
                ours.insert(n->id);
            for (const QJsonValue &box : boxes) {
                const QString id = box[QLatin1String("id")].toString();
                const Node *n = findById(*b.root, id);
                QVERIFY2(n, qPrintable(file + QLatin1String(": no element with id ") + id));
                QCOMPARE(n->tag, box[QLatin1String("tag")].toString());
            }
        }
    }

    void childrenFollowReact()
    {
        Built b = build(json("{\"type\": \"div\", \"props\": {\"style\": {\"width\": 10, \"height\": 10},\n"
                             "            \"children\": [[\"a\", \"b\", 3], null, false, true, {\"type\": \"span\", "
                             "\"props\": {\"children\": \"x\"}},\n"
                             "                         [[{\"type\": \"B\"}]], \"\", \"c\"]}}"));
        QVERIFY2(b.root, qPrintable(b.error.message));
        QCOMPARE(b.root->children.size(), size_t(4));
        QVERIFY(b.root->children[0]->isText());
        QCOMPARE(b.root->children[0]->text, QStringLiteral("ab3")); // adjacent strings merge
        QCOMPARE(b.root->children[0]->id, QStringLiteral("0")); // runs carry their parent's id
        QCOMPARE(b.root->children[1]->tag, QStringLiteral("span"));
        // ids count the text run before the element, as DOM child indices do.
        QCOMPARE(b.root->children[1]->id, QStringLiteral("0.1"));
        QCOMPARE(b.root->children[2]->tag, QStringLiteral("b"));
        QCOMPARE(b.root->children[2]->id, QStringLiteral("0.2"));
        QCOMPARE(b.root->children[2]->style.fontWeight, 700); // satori's <b> preset
        QCOMPARE(b.root->children[3]->text, QStringLiteral("c"));
        QCOMPARE(b.root->children[1]->children[0]->text, QStringLiteral("x"));
    }

    void substitutionInTextStyleAndSrc()
    {
        const QString photo = pngDataUrl(30, 20);
        QJsonObject tweaks{{QStringLiteral("title"), QStringLiteral("Tweaked")},
                           {QStringLiteral("accent"), QStringLiteral("rgb(1, 2, 3)")},
                           {QStringLiteral("size"), 20},
                           {QStringLiteral("photo"), photo}};
        QJsonObject doc = json(kCard);
        QJsonObject root = doc[QLatin1String("root")].toObject();
        QJsonObject props = root[QLatin1String("props")].toObject();
        props.insert(QStringLiteral("children"),
                     QJsonArray{QStringLiteral("Title: {{ title }} / {{unknown}}"),
                                QJsonObject{{QStringLiteral("type"), QStringLiteral("img")},
                                            {QStringLiteral("props"),
                                             QJsonObject{{QStringLiteral("src"), QStringLiteral("{{photo}}")},
                                                         {QStringLiteral("width"), 60},
                                                         {QStringLiteral("height"), QStringLiteral("40")}}}}});
        root.insert(QStringLiteral("props"), props);
        doc.insert(QStringLiteral("root"), root);
        Built b = build(doc, tweaks);
        QVERIFY2(b.root, qPrintable(b.error.message));
        QCOMPARE(b.root->style.color, QColor(1, 2, 3));
        QCOMPARE(b.root->style.fontSize, 20.f);
        // Unknown placeholders stay as written so a typo is visible in the image.
        QCOMPARE(b.root->children[0]->text, QStringLiteral("Title: Tweaked / {{unknown}}"));
        const Node &img = *b.root->children[1];
        QVERIFY(img.isImage());
        QCOMPARE(img.src, photo);
        QCOMPARE(img.image.size(), QSize(30, 20));
        QCOMPARE(img.style.width, Length::px(60));
        QCOMPARE(img.style.height, Length::px(40));
        QCOMPARE(img.image.pixelColor(5, 5), QColor(200, 10, 20));
    }

    void valuesAreTextNeverMarkup_data()
    {
        QTest::addColumn<QString>("value");
        QTest::newRow("html") << QStringLiteral("</div><img src=x>");
        QTest::newRow("script") << QStringLiteral("<script>alert(1)</script>");
        QTest::newRow("json") << QStringLiteral("\"}, {\"type\": \"img\"");
        QTest::newRow("placeholder") << QStringLiteral("{{accent}}");
    }
    void valuesAreTextNeverMarkup()
    {
        QFETCH(QString, value);
        const QJsonObject tweaks{{QStringLiteral("title"), value}};
        Built json1 = build(json(kCard), tweaks);
        QVERIFY(json1.root);
        QCOMPARE(json1.root->children.size(), size_t(1));
        QCOMPARE(json1.root->children[0]->text, value);

        // The same through markup: the value lands in the parsed text node, not the HTML.
        Built markup = build(json("{\"width\": 100, \"height\": 100,\n"
                                  "            \"variables\": [{\"name\": \"title\"}, {\"name\": \"accent\", \"type\": "
                                  "\"color\", \"default\": \"red\"}],\n"
                                  "            \"markup\": \"<div style=\\\"display:flex; color: "
                                  "{{accent}}\\\"><span>{{title}}</span></div>\"}"),
                             tweaks);
        QVERIFY2(markup.root, qPrintable(markup.error.message));
        QCOMPARE(markup.root->children.size(), size_t(1));
        const Node &span = *markup.root->children[0];
        QCOMPARE(span.tag, QStringLiteral("span"));
        QCOMPARE(span.children.size(), size_t(1));
        QCOMPARE(span.children[0]->text, value);
        QCOMPARE(markup.root->style.color, QColor(Qt::red));
    }

    void markupVerticalAlign()
    {
        // `vertical-align` in a style attribute is verticalAlign (CSS 2 §10.8.1).
        Built b = buildMarkup(R"(<p style="display:block">a<span style="vertical-align: text-top">b</span>)"
                              R"(<span style="vertical-align: -3px">c</span></p>)");
        QVERIFY2(b.root, qPrintable(b.error.message));
        QVERIFY2(b.warnings.isEmpty(), qPrintable(b.warnings.join(u'\n')));
        const Node *para = paragraphOf(*b.root);
        QCOMPARE(para->children.size(), size_t(3));
        QCOMPARE(para->children[1]->style.verticalAlign.keyword, VerticalAlign::Keyword::TextTop);
        QCOMPARE(para->children[2]->style.verticalAlign,
                 (VerticalAlign{VerticalAlign::Keyword::Length, Length::px(-3)}));
    }

    void markupFontFeatures()
    {
        // `font-variant-numeric` and `font-feature-settings` (quoted tags, commas) in a
        // style attribute reach the style, inherited by the text inside.
        Built b = buildMarkup(R"(<p style="display:block; font-variant-numeric: tabular-nums slashed-zero; )"
                              R"(font-feature-settings: 'ss01', &quot;smcp&quot; 1">10</p>)");
        QVERIFY2(b.root, qPrintable(b.error.message));
        QVERIFY2(b.warnings.isEmpty(), qPrintable(b.warnings.join(u'\n')));
        const Node *para = paragraphOf(*b.root);
        QCOMPARE(para->style.fontVariantNumeric, quint8(TabularNums | SlashedZero));
        const std::vector<FontFeature> expected{{featureTag("smcp"), 1}, {featureTag("ss01"), 1}};
        QCOMPARE(para->style.fontFeatureSettings, expected);
        QCOMPARE(para->children.at(0)->style.fontFeatureSettings, expected);
    }

    void styleValuesCannotInjectDeclarations()
    {
        // A text value in a style string stays inside that one declaration.
        Built b
            = build(json("{\"width\": 10, \"height\": 10, \"variables\": [{\"name\": \"w\", \"default\": \"5px\"}],\n"
                         "            \"markup\": \"<div style=\\\"width: {{w}}; height: 7px\\\"></div>\"}"),
                    QJsonObject{{QStringLiteral("w"), QStringLiteral("1px; height: 99px")}});
        QVERIFY(b.root);
        QCOMPARE(b.root->style.height, Length::px(7));
        QCOMPARE(b.root->style.width, Length::autoLength());
        QCOMPARE(b.warnings.size(), 1);
    }

    void markupStylesDeclareCustomProperties()
    {
        // Inline CSS custom properties keep their case and are inherited by the children.
        Built b = build(json("{\"width\": 100, \"height\": 100, \"markup\": \"<div style=\\\"--Brand: red; width: "
                             "calc(100% - 10px)\\\"><p style=\\\"color: var(--Brand)\\\">x</p></div>\"}"));
        QVERIFY2(b.root, qPrintable(b.error.message));
        QCOMPARE(b.root->style.customProperties.value(QStringLiteral("--Brand")), QStringLiteral("red"));
        QCOMPARE(b.root->children.at(0)->style.color, QColor(Qt::red));
        QVERIFY2(b.warnings.isEmpty(), qPrintable(b.warnings.join(u'\n')));
    }

    void dirAttributeSetsDirection()
    {
        // HTML's dir is a presentational hint for `direction` (inherited); a declared
        // direction wins over it.
        Built b = build(json("{\"width\": 100, \"height\": 50, \"markup\": \"<div dir=\\\"rtl\\\"><p>x</p><p "
                             "dir=\\\"ltr\\\">y</p><p dir=\\\"rtl\\\" style=\\\"direction: ltr\\\">z</p></div>\"}"));
        QVERIFY2(b.root, qPrintable(b.error.message));
        QCOMPARE(b.root->style.direction, Direction::Rtl);
        QCOMPARE(b.root->children.size(), size_t(3));
        QCOMPARE(b.root->children[0]->style.direction, Direction::Rtl);
        QCOMPARE(b.root->children[1]->style.direction, Direction::Ltr);
        QCOMPARE(b.root->children[2]->style.direction, Direction::Ltr);
    }

    void markupMatchesRootJson()
    {
        const QJsonObject fromJson
            = json("{\"width\": 400, \"height\": 200, \"root\":\n"
                   "          {\"type\": \"div\", \"props\": {\"style\": {\"display\": \"flex\", \"flexDirection\": "
                   "\"column\", \"padding\": \"10px\",\n"
                   "                                               \"backgroundColor\": \"#ffffff\", \"gap\": 8, "
                   "\"width\": 400},\n"
                   "            \"children\": [\n"
                   "              {\"type\": \"h1\", \"props\": {\"style\": {\"color\": \"#111\", \"margin\": 0}, "
                   "\"children\": \"Title & more\"}},\n"
                   "              {\"type\": \"p\", \"props\": {\"style\": {\"WebkitLineClamp\": 2, \"display\": "
                   "\"block\"}, \"children\": \"Line one\\u2028line two\"}},\n"
                   "              {\"type\": \"img\", \"props\": {\"src\": \"\", \"width\": 40, \"height\": 30}},\n"
                   "              {\"type\": \"div\", \"props\": {\"style\": {\"width\": \"50%\"}}}\n"
                   "            ]}}}");
        const QJsonObject fromMarkup = json(
            "{\"width\": 400, \"height\": 200, \"markup\":\n"
            "          \"<!doctype html><html><head><style>div{color:red}</style><title>x</title></head><body>\\n<div "
            "style=\\\"display: flex; flex-direction: column; padding: 10px; background-color: #ffffff; gap: 8px; "
            "width: 400px\\\">\\n  <h1 style=\\\"color:#111;margin:0 !important\\\">Title &amp; more</h1>\\n  <p "
            "style=\\\"-webkit-line-clamp: 2; display: block\\\">Line one<br>line two</p>\\n  <img src=\\\"\\\" "
            "width=\\\"40\\\" height=\\\"30\\\">\\n  <div style=\\\"width: "
            "50%\\\"></div><script>alert(1)</script>\\n</div></body></html>\"}");
        Built a = build(fromJson);
        Built b = build(fromMarkup);
        QVERIFY2(a.root, qPrintable(a.error.message));
        QVERIFY2(b.root, qPrintable(b.error.field + QLatin1String(": ") + b.error.message));
        QCOMPARE(dump(*b.root), dump(*a.root));
        QCOMPARE(b.root->children[1]->style.lineClamp, 2);
        QCOMPARE(b.root->children[1]->children[0]->text, QStringLiteral("Line one\u2028line two"));
    }

    void limitsNameTheirField()
    {
        // Depth: 65 nested divs.
        QJsonObject deep{{QStringLiteral("type"), QStringLiteral("div")}};
        for (int i = 0; i < 64; ++i)
            deep = QJsonObject{{QStringLiteral("type"), QStringLiteral("div")},
                               {QStringLiteral("props"), QJsonObject{{QStringLiteral("children"), deep}}}};
        RenderError error;
        const auto refused2 = parseTemplate(
            QJsonObject{{QStringLiteral("width"), 10}, {QStringLiteral("height"), 10}, {QStringLiteral("root"), deep}});
        QVERIFY(!refused2);
        error = refused2.error();
        QCOMPARE(error.codeName(), QStringLiteral("too_deep"));
        QVERIFY2(error.field.startsWith(QLatin1String("root.props.children.props.children")), qPrintable(error.field));
        QCOMPARE(error.field.count(QLatin1String("props.children")), 64);

        // Node count: 2001 children.
        QJsonArray many;
        for (int i = 0; i < 2000; ++i)
            many.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("div")}});
        error = {};
        const auto refused3 = parseTemplate(
            QJsonObject{{QStringLiteral("width"), 10},
                        {QStringLiteral("height"), 10},
                        {QStringLiteral("root"),
                         QJsonObject{{QStringLiteral("type"), QStringLiteral("div")},
                                     {QStringLiteral("props"), QJsonObject{{QStringLiteral("children"), many}}}}}});
        QVERIFY(!refused3);
        error = refused3.error();
        QCOMPARE(error.codeName(), QStringLiteral("too_many_nodes"));
        QCOMPARE(error.field, QStringLiteral("root.props.children[1999]"));

        // Markup limits.
        QString markup;
        for (int i = 0; i < 70; ++i)
            markup += QStringLiteral("<div>");
        error = {};
        const auto refused4 = parseTemplate(QJsonObject{
            {QStringLiteral("width"), 10}, {QStringLiteral("height"), 10}, {QStringLiteral("markup"), markup}});
        QVERIFY(!refused4);
        error = refused4.error();
        QCOMPARE(error.codeName(), QStringLiteral("too_deep"));
        QCOMPARE(error.field, QStringLiteral("markup"));

        // Value length.
        auto t = parseTemplate(json(kCard));
        error = t.error_or(error);
        QVERIFY(t);
        error = {};
        const auto refused5
            = resolveVariables(*t, {}, QJsonObject{{QStringLiteral("title"), QString(10001, QLatin1Char('x'))}});
        QVERIFY(!refused5);
        error = refused5.error();
        QCOMPARE(error.codeName(), QStringLiteral("value_too_long"));
        QCOMPARE(error.field, QStringLiteral("tweaks.title"));
        QVERIFY(resolveVariables(*t, {}, QJsonObject{{QStringLiteral("title"), QString(10000, QLatin1Char('x'))}}));
    }

    void variableErrors_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("code");
        QTest::newRow("unknown") << "nope" << QJsonValue(QStringLiteral("x")) << "unknown_variable";
        QTest::newRow("bad colour") << "accent" << QJsonValue(QStringLiteral("reddish")) << "invalid_variable";
        QTest::newRow("bad number") << "size" << QJsonValue(QStringLiteral("12px")) << "invalid_variable";
        // http(s) images pass here and meet the fetch policy before the render
        // (docs/remote-images.md); other schemes are refused as the value is set.
        QTest::newRow("file image") << "photo" << QJsonValue(QStringLiteral("file:///etc/passwd")) << "image_refused";
        QTest::newRow("ftp image") << "photo" << QJsonValue(QStringLiteral("ftp://example.com/x.png"))
                                   << "image_refused";
        QTest::newRow("object") << "title" << QJsonValue(QJsonObject{}) << "invalid_variable";
    }
    void variableErrors()
    {
        QFETCH(QString, name);
        QFETCH(QJsonValue, value);
        QFETCH(QString, code);
        RenderError error;
        auto t = parseTemplate(json(kCard));
        error = t.error_or(error);
        QVERIFY(t);
        const auto refused6 = resolveVariables(*t, {}, QJsonObject{{name, value}});
        QVERIFY(!refused6);
        error = refused6.error();
        QCOMPARE(error.codeName(), code);
        QCOMPARE(error.field, QStringLiteral("tweaks.") + name);
        // Page values are checked the same way, under their own prefix.
        const auto refused7 = resolveVariables(*t, QJsonObject{{name, value}}, {});
        QVERIFY(!refused7);
        error = refused7.error();
        QCOMPARE(error.field, QStringLiteral("variables.") + name);
    }

    void tweaksOverridePageValues()
    {
        RenderError error;
        auto t = parseTemplate(json(kCard));
        error = t.error_or(error);
        auto v = resolveVariables(*t,
                                  QJsonObject{{QStringLiteral("title"), QStringLiteral("Page")},
                                              {QStringLiteral("size"), QStringLiteral(" 12.5 ")}},
                                  QJsonObject{{QStringLiteral("title"), QStringLiteral("Tweak")},
                                              {QStringLiteral("accent"), QStringLiteral("hsl(0 100% 50%)")}});
        error = v.error_or(error);
        QVERIFY(v);
        QCOMPARE(v->value(QStringLiteral("title")), QStringLiteral("Tweak"));
        QCOMPARE(v->value(QStringLiteral("size")), QStringLiteral("12.5"));
        QCOMPARE(v->value(QStringLiteral("accent")), QStringLiteral("hsl(0 100% 50%)"));
        QCOMPARE(v->value(QStringLiteral("photo")), QString());
    }

    void dataUrlImages()
    {
        QImage ok = decodeDataUrlImage(pngDataUrl(3, 2)).value_or(QImage());
        QCOMPARE(ok.size(), QSize(3, 2));
        const QString svg = QStringLiteral("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='8' "
                                           "height='4'%3E%3Crect width='8' height='4' fill='red'/%3E%3C/svg%3E");
        QImage vector = decodeDataUrlImage(svg).value_or(QImage());
        if (!vector.isNull())
            QCOMPARE(vector.size(), QSize(8, 4)); // only when Qt's SVG image plugin is installed
        const auto remote = decodeDataUrlImage(QStringLiteral("https://example.com/a.png"));
        QVERIFY(!remote);
        QVERIFY(remote.error().contains(QLatin1String("data:")));
        QVERIFY(!decodeDataUrlImage(QStringLiteral("data:image/png;base64,!!!!")));
        const auto truncated = decodeDataUrlImage(QStringLiteral("data:image/png;base64,AAAA"));
        QVERIFY(!truncated);
        QVERIFY(!truncated.error().isEmpty());

        // A raw '#' starts the URL's fragment (fetch's data: URL processor), so an SVG with an
        // unencoded colour ends at it and draws nothing, as in Chromium (satori's "charset=utf-8"
        // case); the warning says how to write it. Encoded as %23 it draws.
        const QString raw = QStringLiteral("data:image/svg+xml;charset=utf-8,<svg xmlns=\"http://www.w3.org/2000/svg\" "
                                           "width=\"8\" height=\"4\"><rect width=\"8\" height=\"4\" fill=\"#ee7621\"/></svg>");
        const auto cut = decodeDataUrlImage(raw);
        QVERIFY(!cut);
        QVERIFY2(cut.error().contains(QLatin1String("%23")), qPrintable(cut.error()));
        QCOMPARE(dataUrlBytes(raw).value_or(QByteArray()).right(6), QByteArray("fill=\""));
        QString encoded = raw;
        encoded.replace(QLatin1Char('#'), QLatin1String("%23"));
        const auto whole = decodeDataUrlImage(encoded);
        QVERIFY2(whole, qPrintable(whole.error_or(QString())));
        QCOMPARE(whole->size(), QSize(8, 4));
        QCOMPARE(whole->pixelColor(4, 2), QColor(0xee, 0x76, 0x21));

        // In a document an unloadable image is a warning naming the field, not an error.
        Built b = build(json("{\"type\": \"div\", \"props\": {\"style\": {\"width\": 10, \"height\": 10},\n"
                             "            \"children\": [{\"type\": \"img\", \"props\": {\"src\": "
                             "\"file:///etc/passwd\", \"style\": {\"width\": 5}}}]}}"));
        QVERIFY(b.root);
        QVERIFY(b.root->children[0]->image.isNull());
        QCOMPARE(b.warnings.size(), 1);
        QVERIFY2(b.warnings[0].startsWith(QLatin1String("root.props.children[0].props.src: ")),
                 qPrintable(b.warnings[0]));
    }
};

QTEST_MAIN(TstTemplate)
#include "tst_template.moc"
