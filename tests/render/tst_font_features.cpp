// OpenType features beyond single-glyph substitutions (issue 29 item 3): ligatures on and
// off, discretionary and historical ligatures, contextual alternates, fractions,
// ordinals, superiors and inferiors, kerning off, small capitals (the face's, or
// synthesized where it has none), through faces whose GSUB/GPOS feature
// records are renamed (text/feature_faces.h). Widths are held to Chromium's boxes of the
// conformance cases text-features-* (scripts/chromium-oracle); their pixels are held by
// tst_golden and tst_svg (tests/support/fixtures.h).

#include "server/render/document/node.h"
#include "server/render/resources/font_file.h"
#include "server/render/text/feature_faces.h"
#include "server/render/text/font_set.h"
#include "server/render/text/text_engine.h"
#include "tests/support/fixtures.h"
#include "tests/support/render_context.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

using namespace imprint::render;

namespace {

const QString kGaramond = QStringLiteral("/usr/share/fonts/opentype/ebgaramond/EBGaramond08-Regular.otf");

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The style of child `index` of conformance case `name`'s root, over the root's, as
/// the template sets it (only the properties these cases use).
ComputedStyle caseStyle(const QJsonObject &root, int index, QString *text)
{
    const QJsonObject child = root[QStringLiteral("props")][QStringLiteral("children")].toArray().at(index).toObject();
    *text = child[QStringLiteral("props")][QStringLiteral("children")].toString();
    QJsonObject style = root[QStringLiteral("props")][QStringLiteral("style")].toObject();
    const QJsonObject own = child[QStringLiteral("props")][QStringLiteral("style")].toObject();
    for (auto it = own.begin(); it != own.end(); ++it)
        style.insert(it.key(), it.value());
    ComputedStyle s;
    s.fontFamily = {style[QStringLiteral("fontFamily")].toString()};
    s.fontSize = float(style[QStringLiteral("fontSize")].toDouble(16));
    s.fontWeight = style[QStringLiteral("fontWeight")].toInt(400);
    if (style[QStringLiteral("fontStyle")].toString() == QLatin1String("italic"))
        s.fontStyle = FontStyle::Italic;
    const QJsonValue spacing = style[QStringLiteral("letterSpacing")];
    s.letterSpacing = spacing.isString() ? float(spacing.toString().chopped(2).toDouble() * s.fontSize)
                                         : float(spacing.toDouble()); // px, or "0.1em"
    if (const auto v = style[QStringLiteral("fontVariantLigatures")].toString(); !v.isEmpty())
        s.fontVariantLigatures = parseFontVariantLigatures(v).value();
    if (const auto v = style[QStringLiteral("fontVariantNumeric")].toString(); !v.isEmpty())
        s.fontVariantNumeric = parseFontVariantNumeric(v).value();
    if (const auto v = style[QStringLiteral("fontFeatureSettings")].toString(); !v.isEmpty())
        s.fontFeatureSettings = parseFontFeatureSettings(v).value();
    if (const auto v = style[QStringLiteral("fontKerning")].toString(); !v.isEmpty())
        s.fontKerning = parseFontKerning(v).value();
    if (const auto v = style[QStringLiteral("fontVariantCaps")].toString(); !v.isEmpty())
        s.fontVariantCaps = parseFontVariantCaps(v).value();
    return s;
}

} // namespace

class TestFontFeatures : public QObject
{
    Q_OBJECT

private slots:
    void widthsMatchChromium_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("ligatures") << QStringLiteral("text-features-ligatures");
        QTest::newRow("numeric") << QStringLiteral("text-features-numeric");
        QTest::newRow("kerning") << QStringLiteral("text-features-kerning");
        QTest::newRow("letter-spacing") << QStringLiteral("text-features-spacing");
        // fonts-ebgaramond's 08 and 12 faces share their styles; Chromium's are all 08.
        QTest::newRow("garamond-styles") << QStringLiteral("text-garamond-styles");
        // Small capitals a face lacks (Inter, Noto Sans, DejaVu Sans) are synthesized as
        // Chromium does: lowercase letters (every character under all-small-caps) as
        // capitals at 0.7 of the size; EB Garamond draws its own. Drawn at full size before.
        QTest::newRow("small-caps") << QStringLiteral("text-small-caps");
    }

    void widthsMatchChromium()
    {
        // Each line of the case is a content-sized flex item: its width is the text's
        // advance, which Chromium measured with the features applied.
        QFETCH(QString, name);
        const QJsonObject root = imprint::render::test::fixtureTemplate(QStringLiteral("conformance/") + name);
        QFile layout(imprint::render::test::conformanceDir() + QStringLiteral("/chromium/%1.layout.json").arg(name));
        QVERIFY(layout.open(QIODevice::ReadOnly));
        const QJsonArray boxes = QJsonDocument::fromJson(layout.readAll()).array();
        TextEngine &engine = imprint::test::renderContext().text();
        int lines = 0;
        QStringList failures;
        for (const QJsonValue &box : boxes) {
            const QString id = box[QStringLiteral("id")].toString();
            if (!id.startsWith(QLatin1String("0.")))
                continue;
            QString text;
            const ComputedStyle s = caseStyle(root, id.mid(2).toInt(), &text);
            const qreal ours = engine.shape(s, text, kMaxContent)->size.width();
            const qreal chromium = box[QStringLiteral("w")].toDouble();
            if (std::abs(ours - chromium) > 1.0)
                failures << QStringLiteral("%1 line %2 \"%3\": %4 px, Chromium %5 px")
                                .arg(name, id, text)
                                .arg(ours)
                                .arg(chromium);
            ++lines;
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
        QVERIFY(lines >= 6);
    }

    void featuresChangeTheGlyphsDrawn()
    {
        // What is drawn is what was measured: the glyph runs of a line end at its width,
        // and ligatures off draw more glyphs than ligatures on.
        TextEngine &engine = imprint::test::renderContext().text();
        ComputedStyle s;
        s.fontFamily = {QStringLiteral("EB Garamond")};
        s.fontSize = 40;
        const auto glyphCount = [&](const ComputedStyle &style, qreal *right) {
            const auto block = engine.shape(style, QStringLiteral("office affluent"), kMaxContent);
            qsizetype count = 0;
            *right = 0;
            for (const QGlyphRun &run : block->lines.front().glyphRuns) {
                count += run.glyphIndexes().size();
                const QList<QPointF> at = run.positions();
                const auto advances = run.rawFont().advancesForGlyphIndexes(run.glyphIndexes());
                for (qsizetype i = 0; i < at.size(); ++i)
                    *right = std::max(*right, at[i].x() + advances[i].x());
            }
            return std::abs(*right - block->size.width()) < 0.5 ? count : qsizetype(-1);
        };
        qreal right = 0;
        const qsizetype ligated = glyphCount(s, &right);
        ComputedStyle none = s;
        none.fontVariantLigatures = kNoLigatures;
        const qsizetype unligated = glyphCount(none, &right);
        QCOMPARE(unligated, qsizetype(15)); // one glyph per letter
        QVERIFY(ligated < unligated); // ffi and ffl
        ComputedStyle off = s;
        off.fontFeatureSettings = {{featureTag("liga"), 0}};
        QCOMPARE(glyphCount(off, &right), unligated);
        // Discretionary ligatures draw fewer glyphs for "ct st".
        ComputedStyle dlig = s;
        dlig.fontFeatureSettings = {{featureTag("dlig"), 1}, {featureTag("hlig"), 1}};
        const auto plain = engine.shape(s, QStringLiteral("act st"), kMaxContent);
        const auto joined = engine.shape(dlig, QStringLiteral("act st"), kMaxContent);
        QVERIFY(joined->lines.front().glyphRuns.front().glyphIndexes().size()
                < plain->lines.front().glyphRuns.front().glyphIndexes().size());
    }

    void derivedFaceRenamesFeatureRecords()
    {
        // dlig on: its records become 'Buzz' (HarfBuzz applies it by default); liga off:
        // 'Xoff'; onum (single substitutions) is frozen into the cmap instead; a feature
        // the face lacks is named.
        const QByteArray garamond = readFile(kGaramond);
        QVERIFY(!garamond.isEmpty());
        const QString family = QStringLiteral("imprint-f-00000000000000000000feat");
        const auto derived = deriveFeatureFace(
            garamond, 0,
            {{featureTag("dlig"), 1}, {featureTag("liga"), 0}, {featureTag("lnum"), 1}, {featureTag("zzzz"), 1}},
            family);
        QVERIFY2(derived, qPrintable(derived ? QString() : derived.error()));
        QVERIFY(!derived->sfnt.isEmpty());
        QCOMPARE(derived->missing, std::vector<quint32>{featureTag("zzzz")});
        const QRawFont before(garamond, 20), after(derived->sfnt, 20);
        QCOMPARE(after.familyName(), family);
        const auto tags = layoutFeatureTags(after.fontTable("GSUB"));
        QVERIFY(tags);
        const auto has = [&](quint32 tag) { return std::find(tags->begin(), tags->end(), tag) != tags->end(); };
        QVERIFY(has(featureTag("Buzz")));
        QVERIFY(has(featureTag("Xoff")));
        QVERIFY(!has(featureTag("dlig")));
        QVERIFY(!has(featureTag("liga")));
        QVERIFY(!has(featureTag("lnum"))); // renamed too: it must run after dlig's lookups
        QCOMPARE(after.fontTable("GSUB").size(), before.fontTable("GSUB").size());
        // Alone, a single-glyph feature is frozen into the cmap (the faster path).
        const auto frozen = deriveFeatureFace(garamond, 0, {{featureTag("lnum"), 1}}, family);
        QVERIFY(frozen && !frozen->sfnt.isEmpty());
        const QRawFont lining(frozen->sfnt, 20);
        QVERIFY(layoutFeatureTags(lining.fontTable("GSUB")).value() == layoutFeatureTags(before.fontTable("GSUB")));
        QVERIFY(lining.glyphIndexesForString(QStringLiteral("1")) != before.glyphIndexesForString(QStringLiteral("1")));
    }

    void malformedLayoutTablesAreRejected()
    {
        // A GSUB/GPOS whose FeatureList lies outside the table is left alone; random and
        // truncated bytes never crash.
        const QByteArray gsub = QRawFont(readFile(kGaramond), 20).fontTable("GSUB");
        QVERIFY(gsub.size() > 100);
        QVERIFY(layoutFeatureTags(gsub));
        QVERIFY(layoutFeatureTags(QByteArray()).value().empty());
        QVERIFY(!layoutFeatureTags(gsub.left(9)));
        QVERIFY(!layoutFeatureTags(gsub.left(12)));
        QByteArray version2 = gsub;
        version2[1] = 2;
        QVERIFY(!renameLayoutFeatures(version2, {{featureTag("liga"), kDisabledFeatureTag}}));
        QByteArray farList = gsub;
        farList[6] = char(0xff);
        farList[7] = char(0xff);
        QVERIFY(!renameLayoutFeatures(farList, {{featureTag("liga"), kDisabledFeatureTag}}));
        auto *random = QRandomGenerator::global();
        for (int i = 0; i < 2000; ++i) {
            QByteArray bytes = gsub.left(qsizetype(random->bounded(64)));
            for (int k = 0; k < 4 && !bytes.isEmpty(); ++k)
                bytes[random->bounded(int(bytes.size()))] = char(random->bounded(256));
            const auto renamed = renameLayoutFeatures(bytes, {{featureTag("liga"), kDisabledFeatureTag}});
            if (renamed)
                QCOMPARE(renamed->size(), bytes.size());
        }
        const auto garbage = deriveFeatureFace(QByteArray("OTTO not a font at all"), 0, {{featureTag("dlig"), 1}},
                                               QStringLiteral("imprint-f-x"));
        QVERIFY(!garbage || garbage->sfnt.isEmpty());
    }

    void missingFeaturesWarnNamingTheFeature()
    {
        // DejaVu Sans has no ordinals and no fractions: one warning each, naming both.
        Node root;
        root.kind = Node::Kind::Element;
        ComputedStyle s;
        s.fontFamily = {QStringLiteral("DejaVu Sans")};
        s.fontFeatureSettings = {{featureTag("frac"), 1}, {featureTag("ordn"), 1}, {featureTag("dlig"), 1}};
        for (const QString &text : {QStringLiteral("1st act"), QStringLiteral("2nd act")}) {
            auto &run = root.children.emplace_back(std::make_unique<Node>());
            run->kind = Node::Kind::Text;
            run->text = text;
            run->style = s;
        }
        QStringList warnings;
        warnMissingFeatures(root, FontSet{}, &warnings);
        QCOMPARE(warnings.size(), 2);
        QVERIFY2(warnings.filter(QStringLiteral("\"ordn\"")).size() == 1
                     && warnings.filter(QStringLiteral("'DejaVu Sans'")).size() == 2,
                 qPrintable(warnings.join(u'\n')));
        // EB Garamond has both: no warning.
        s.fontFamily = {QStringLiteral("EB Garamond")};
        root.children.front()->style = s;
        root.children.back()->style = s;
        warnings.clear();
        warnMissingFeatures(root, FontSet{}, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        // A family of the stack that draws none of the text is not warned about:
        // Tailwind's default stack ends in "Noto Color Emoji", which has no tnum, and
        // `tabular-nums` on "$4.2M" warned about it. A stack's emoji face drawing an emoji is.
        s.fontFamily = {QStringLiteral("EB Garamond"), QStringLiteral("Noto Color Emoji")};
        s.fontFeatureSettings = {{featureTag("tnum"), 1}};
        root.children.front()->style = s;
        root.children.front()->text = QStringLiteral("$4.2M 184k");
        root.children.pop_back();
        warnings.clear();
        warnMissingFeatures(root, FontSet{}, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        root.children.front()->text = QStringLiteral("$4.2M 🚀");
        warnMissingFeatures(root, FontSet{}, &warnings);
        QVERIFY2(warnings.size() == 1 && warnings.front().contains(QLatin1String("'Noto Color Emoji'")),
                 qPrintable(warnings.join(u'\n')));
        // Small capitals Inter lacks are synthesized, as in Chromium: nothing to warn about.
        // Titling capitals are not: they warn.
        s = ComputedStyle();
        s.fontFamily = {QStringLiteral("Inter")};
        s.fontVariantCaps = FontVariantCaps::SmallCaps;
        root.children.front()->style = s;
        root.children.front()->text = QStringLiteral("Small caps");
        warnings.clear();
        warnMissingFeatures(root, FontSet{}, &warnings);
        QVERIFY2(warnings.isEmpty() && synthesizesSmallCaps(s), qPrintable(warnings.join(u'\n')));
        s.fontVariantCaps = FontVariantCaps::TitlingCaps;
        root.children.front()->style = s;
        warnMissingFeatures(root, FontSet{}, &warnings);
        QVERIFY2(warnings.size() == 1 && warnings.front().contains(QLatin1String("\"titl\"")),
                 qPrintable(warnings.join(u'\n')));
    }

    void cardsWithoutFeaturesKeepTheirFamily()
    {
        // The common case pays nothing: no feature property, no derived face, no lookup.
        ComputedStyle s;
        s.fontFamily = {QStringLiteral("EB Garamond")};
        QVERIFY(styleFeatures(s).empty());
        QCOMPARE(TextEngine::fontFor(s).families().front(), QStringLiteral("EB Garamond"));
        s.fontFeatureSettings = {{featureTag("liga"), 1}, {featureTag("dlig"), 0}};
        QVERIFY(styleFeatures(s).empty()); // both are what shaping does anyway
        s.fontFeatureSettings.clear();
        s.fontVariantLigatures = DiscretionaryLigatures;
        QVERIFY(isInternalFamily(TextEngine::fontFor(s).families().front()));
    }
};

QTEST_MAIN(TestFontFeatures)
#include "tst_font_features.moc"
