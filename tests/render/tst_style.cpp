// Style parsing: every value form a template can write reaches ComputedStyle as the
// browser would compute it, and bad values become warnings, never crashes.

#include "server/render/css/font_features.h"
#include "server/render/css/parse.h"
#include "server/render/style/computed_style.h"
#include "server/render/style/properties.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QtTest>

#include <cmath>
#include <set>

using namespace imprint::render;

Q_DECLARE_METATYPE(imprint::render::Length)

namespace {

ComputedStyle style(const char *json, const ComputedStyle *parent = nullptr, QStringList *warnings = nullptr,
                    const QString &tag = QStringLiteral("div"), float rootFontSize = 16)
{
    const QJsonObject decl = QJsonDocument::fromJson(json).object();
    return computeStyle(decl, parent, tag, rootFontSize, QStringLiteral("root.props.style"), warnings);
}

ComputedStyle styleOf(const QJsonObject &decl, const ComputedStyle *parent = nullptr, QStringList *warnings = nullptr)
{
    return computeStyle(decl, parent, QStringLiteral("div"), 16, QStringLiteral("root.props.style"), warnings);
}

QColor rgba(int r, int g, int b, int a = 255)
{
    return QColor(r, g, b, a);
}

bool sameColor(const QColor &a, const QColor &b)
{
    return qAbs(a.red() - b.red()) <= 1 && qAbs(a.green() - b.green()) <= 1 && qAbs(a.blue() - b.blue()) <= 1
           && qAbs(a.alpha() - b.alpha()) <= 1;
}

} // namespace

class TstStyle : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fontFeatureSettingsParse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected"); // "tag=value,…" sorted by tag; "invalid"
        QTest::newRow("normal") << "normal"
                                << "";
        QTest::newRow("tag alone is on") << "\"tnum\""
                                         << "tnum=1";
        QTest::newRow("on off integer") << "'smcp' on, \"zero\" off, \"salt\" 2"
                                        << "salt=2,smcp=1,zero=0";
        QTest::newRow("last of a tag wins") << "\"tnum\", \"tnum\" 0"
                                            << "tnum=0";
        QTest::newRow("spaces in tag kept") << "\"cv 1\""
                                            << "cv 1=1";
        QTest::newRow("unquoted tag") << "tnum"
                                      << "invalid";
        QTest::newRow("three letters") << "\"tnu\""
                                       << "invalid";
        QTest::newRow("five letters") << "\"tnums\""
                                      << "invalid";
        QTest::newRow("negative") << "\"tnum\" -1"
                                  << "invalid";
        QTest::newRow("trailing comma") << "\"tnum\","
                                        << "invalid";
        QTest::newRow("two values") << "\"tnum\" 1 2"
                                    << "invalid";
        QTest::newRow("non-ASCII tag") << QStringLiteral("\"tn\u00fcm\"") << "invalid";
    }
    void fontFeatureSettingsParse()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto parsed = parseFontFeatureSettings(text);
        if (expected == QLatin1String("invalid")) {
            QVERIFY(!parsed);
            QStringList warnings;
            QVERIFY(styleOf({{QStringLiteral("fontFeatureSettings"), text}}, nullptr, &warnings)
                        .fontFeatureSettings.empty());
            QCOMPARE(warnings.size(), 1);
            QVERIFY2(warnings.front().contains(QLatin1String("fontFeatureSettings")), qPrintable(warnings.front()));
            return;
        }
        QVERIFY(parsed);
        QStringList got;
        for (const FontFeature &f : *parsed)
            got << featureTagName(f.tag) + u'=' + QString::number(f.value);
        QCOMPARE(got.join(u','), expected);
    }

    void fontVariantNumericParse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("expected"); // -1: invalid
        QTest::newRow("normal") << "normal" << 0;
        QTest::newRow("tabular") << "tabular-nums" << int(TabularNums);
        QTest::newRow("any order") << "slashed-zero oldstyle-nums tabular-nums"
                                   << int(SlashedZero | OldstyleNums | TabularNums);
        QTest::newRow("same group twice") << "tabular-nums proportional-nums" << -1;
        QTest::newRow("repeated") << "ordinal ordinal" << -1;
        QTest::newRow("normal with others") << "normal tabular-nums" << -1;
        QTest::newRow("unknown") << "tabular" << -1;
    }
    void fontVariantNumericParse()
    {
        QFETCH(QString, text);
        QFETCH(int, expected);
        const auto parsed = parseFontVariantNumeric(text);
        QCOMPARE(parsed ? int(*parsed) : -1, expected);
    }

    void fontFeaturesInheritAndCombine()
    {
        // CSS Fonts 4 §7.2: font-variant-numeric first, font-feature-settings overrides it.
        QStringList warnings;
        const ComputedStyle parent
            = styleOf({{QStringLiteral("fontVariantNumeric"), QStringLiteral("tabular-nums slashed-zero")},
                       {QStringLiteral("fontFeatureSettings"), QStringLiteral("\"zero\" 0, \"ss01\"")}},
                      nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        const ComputedStyle child = style("{}", &parent);
        QCOMPARE(child.fontVariantNumeric, quint8(TabularNums | SlashedZero));
        QCOMPARE(child.fontFeatureSettings, parent.fontFeatureSettings);
        const std::vector<FontFeature> resolved
            = resolvedFontFeatures(child.fontVariantNumeric, child.fontFeatureSettings);
        const std::vector<FontFeature> expected{
            {featureTag("ss01"), 1}, {featureTag("tnum"), 1}, {featureTag("zero"), 0}};
        QCOMPARE(resolved, expected);
        const ComputedStyle reset = styleOf({{QStringLiteral("fontVariantNumeric"), QStringLiteral("normal")},
                                             {QStringLiteral("fontFeatureSettings"), QStringLiteral("normal")}},
                                            &parent);
        QCOMPARE(reset.fontVariantNumeric, quint8(0));
        QVERIFY(reset.fontFeatureSettings.empty());
    }

    void unsupportedFontFeaturesWarn()
    {
        // Features that substitute by context or several glyphs at once render without
        // them and say so; kerning off and default-on features set on do not warn.
        QStringList warnings;
        const ComputedStyle s = styleOf({{QStringLiteral("fontFeatureSettings"),
                                          QStringLiteral("\"liga\" 0, \"dlig\", \"kern\" 0, \"liga\" 1, \"tnum\"")},
                                         {QStringLiteral("fontVariantNumeric"), QStringLiteral("diagonal-fractions")}},
                                        nullptr, &warnings);
        QCOMPARE(s.fontFeatureSettings.size(), size_t(4)); // liga (last wins), dlig, kern, tnum
        QCOMPARE(warnings.size(), 2);
        QVERIFY2(warnings.at(0).contains(QLatin1String("fontFeatureSettings"))
                     && warnings.at(0).contains(QLatin1String("\"dlig\"")),
                 qPrintable(warnings.join(u'\n')));
        QVERIFY2(warnings.at(1).contains(QLatin1String("fontVariantNumeric"))
                     && warnings.at(1).contains(QLatin1String("diagonal-fractions")),
                 qPrintable(warnings.join(u'\n')));
        warnings.clear();
        styleOf({{QStringLiteral("fontFeatureSettings"), QStringLiteral("\"liga\" 0")}}, nullptr, &warnings);
        QCOMPARE(warnings.size(), 1);
        QVERIFY(warnings.front().contains(QLatin1String("\"liga\" 0")));
    }

    void colors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QColor>("expected");
        QTest::newRow("hex3") << "#f80" << rgba(255, 136, 0);
        QTest::newRow("hex4") << "#f808" << rgba(255, 136, 0, 136);
        QTest::newRow("hex6") << "#6d28d9" << rgba(0x6d, 0x28, 0xd9);
        QTest::newRow("hex8 is rgba, not Qt's argb") << "#ff000080" << rgba(255, 0, 0, 128);
        QTest::newRow("rgb commas") << "rgb(10, 20, 30)" << rgba(10, 20, 30);
        QTest::newRow("rgba commas") << "rgba(10,20,30,0.5)" << rgba(10, 20, 30, 128);
        QTest::newRow("rgb spaces slash") << "rgb(10 20 30 / 50%)" << rgba(10, 20, 30, 128);
        QTest::newRow("rgb percentages") << "rgb(100%, 0%, 50%)" << rgba(255, 0, 128);
        QTest::newRow("hsl") << "hsl(120, 100%, 50%)" << rgba(0, 255, 0);
        QTest::newRow("hsla deg") << "hsla(240deg 100% 50% / 0.25)" << rgba(0, 0, 255, 64);
        QTest::newRow("hsl turn") << "hsl(0.5turn 100% 50%)" << rgba(0, 255, 255);
        QTest::newRow("named") << "rebeccapurple" << rgba(0x66, 0x33, 0x99);
        QTest::newRow("named svg") << "SteelBlue" << rgba(70, 130, 180);
        QTest::newRow("transparent") << "transparent" << rgba(0, 0, 0, 0);
        QTest::newRow("currentColor") << "currentColor" << rgba(1, 2, 3);
        // CSS Color 4's other spaces; expected values are Chromium's pixels for the same
        // colours (scripts/chromium-oracle), out-of-gamut ones clipped per channel as it does.
        QTest::newRow("lab (spec example)") << "lab(29.2345 39.3825 20.0664)" << rgba(0x7d, 0x23, 0x29);
        QTest::newRow("lab percentage") << "lab(50% 40 59.5)" << rgba(191, 87, 0);
        QTest::newRow("lab none") << "lab(none 20 30)" << rgba(42, 0, 0);
        QTest::newRow("lch (spec example)") << "lch(52.2345% 72.2 56.2)" << rgba(0xc6, 0x5d, 0x06);
        QTest::newRow("oklch Tailwind red-500") << "oklch(0.637 0.237 25.331)" << rgba(251, 44, 54);
        QTest::newRow("oklch Tailwind blue-500, clipped") << "oklch(0.623 0.214 259.815)" << rgba(43, 127, 255);
        QTest::newRow("oklch percentage") << "oklch(70% 0.1 200)" << rgba(64, 177, 183);
        QTest::newRow("oklch alpha") << "oklch(0.985 0 0 / 0.5)" << rgba(250, 250, 250, 128);
        QTest::newRow("oklab") << "oklab(60% -0.1 0.1)" << rgba(89, 146, 51);
        QTest::newRow("hwb (spec example)") << "hwb(194 0% 0%)" << rgba(0, 195, 255);
        QTest::newRow("hwb") << "hwb(200 30% 40%)" << rgba(77, 128, 153);
        QTest::newRow("color() display-p3, clipped") << "color(display-p3 0.2 0.8 0.4)" << rgba(0, 208, 88);
        QTest::newRow("color() srgb-linear") << "color(srgb-linear 0.5 0.2 0.8)" << rgba(188, 124, 231);
        QTest::newRow("color() rec2020") << "color(rec2020 0.5 0.3 0.9)" << rgba(151, 80, 242);
        QTest::newRow("color() xyz") << "color(xyz 0.3 0.4 0.5)" << rgba(92, 184, 181);
        QTest::newRow("color-mix srgb") << "color-mix(in srgb, red 50%, blue)" << rgba(128, 0, 128);
        QTest::newRow("color-mix oklch shorter hue") << "color-mix(in oklch, red, blue)" << rgba(186, 0, 194);
        QTest::newRow("color-mix hsl longer hue") << "color-mix(in hsl longer hue, red, blue)" << rgba(0, 255, 0);
        QTest::newRow("color-mix hwb") << "color-mix(in hwb, red, lime)" << rgba(255, 255, 0);
        QTest::newRow("color-mix xyz") << "color-mix(in xyz, teal, orange)" << rgba(188, 148, 92);
        QTest::newRow("color-mix oklab, one percentage")
            << "color-mix(in oklab, #22c55e 30%, white)" << rgba(202, 239, 207);
        QTest::newRow("color-mix with transparent (Tailwind's bg-red/20)")
            << "color-mix(in srgb, red 20%, transparent)" << rgba(255, 0, 0, 51);
        QTest::newRow("color-mix percentages under 100 scale alpha")
            << "color-mix(in srgb, black 40%, yellow 40%)" << rgba(128, 128, 0, 204);
        QTest::newRow("color-mix keeps out-of-gamut inputs unclipped")
            << "color-mix(in srgb, white 30%, oklch(0.705 0.213 47.604))" << rgba(255, 150, 47);
        QTest::newRow("color-mix of two oklch colours")
            << "color-mix(in oklch, oklch(0.606 0.25 292.717), oklch(0.656 0.241 354.308))" << rgba(204, 63, 220);
        QTest::newRow("color-mix currentColor")
            << "color-mix(in srgb, currentColor 50%, rgb(201 202 203))" << rgba(101, 102, 103);
    }
    void colors()
    {
        QFETCH(QString, text);
        QFETCH(QColor, expected);
        auto c = parseColor(text, rgba(1, 2, 3));
        QVERIFY2(c.has_value(), qPrintable(text));
        QVERIFY2(sameColor(*c, expected),
                 qPrintable(c->name(QColor::HexArgb) + QLatin1String(" vs ") + expected.name(QColor::HexArgb)));
    }

    void zIndexIsAutoOrAnInteger()
    {
        QVERIFY(!style("{}").zIndex);
        QCOMPARE(style("{\"zIndex\": 3}").zIndex, std::optional<int>(3));
        QCOMPARE(style("{\"zIndex\": \"-2\"}").zIndex, std::optional<int>(-2));
        QVERIFY(!style("{\"zIndex\": \"auto\"}").zIndex);
        QStringList warnings;
        QVERIFY(!style("{\"zIndex\": \"top\"}", nullptr, &warnings).zIndex);
        QCOMPARE(warnings.size(), 1);
        // Not inherited.
        const ComputedStyle parent = style("{\"zIndex\": 5}");
        QVERIFY(!style("{}", &parent).zIndex);
    }

    void individualTransformsComeBeforeTheTransformList()
    {
        const ComputedStyle s = style(R"j({"transform": "skewX(10deg)", "scale": "150% 2", "rotate": "z 0.25turn",
                                          "translate": "10px 20%"})j");
        QCOMPARE(s.transform.size(), size_t(4));
        QCOMPARE(s.transform[0].kind, TransformOp::Kind::Translate);
        QCOMPARE(s.transform[0].x, Length::px(10));
        QCOMPARE(s.transform[0].y, Length::percent(20));
        QCOMPARE(s.transform[1].kind, TransformOp::Kind::Rotate);
        QCOMPARE(s.transform[1].a, 90.f);
        QCOMPARE(s.transform[2].kind, TransformOp::Kind::Scale);
        QCOMPARE(s.transform[2].a, 1.5f);
        QCOMPARE(s.transform[2].b, 2.f);
        QCOMPARE(s.transform[3].kind, TransformOp::Kind::Skew);
        QVERIFY(style(R"({"scale": "none", "rotate": "none"})").transform.empty());
        for (const char *bad :
             {R"({"rotate": "1 0 0 45deg"})", R"({"scale": "big"})", R"({"translate": "1px 2px 3px 4px"})"}) {
            QStringList warnings;
            QVERIFY2(style(bad, nullptr, &warnings).transform.empty(), bad);
            QCOMPARE(warnings.size(), 1);
        }
    }

    void fontVariantCapsKerningAndTheShorthand()
    {
        const ComputedStyle a = style("{\"fontVariant\": \"small-caps tabular-nums\"}");
        QCOMPARE(a.fontVariantCaps, FontVariantCaps::SmallCaps);
        QCOMPARE(a.fontVariantNumeric, quint8(TabularNums));
        const std::vector<FontFeature> features
            = resolvedFontFeatures(a.fontVariantNumeric, a.fontFeatureSettings, a.fontVariantCaps, FontKerning::None);
        const std::vector<FontFeature> expected{
            {featureTag("kern"), 0}, {featureTag("smcp"), 1}, {featureTag("tnum"), 1}};
        QCOMPARE(features, expected);
        // all-small-caps adds c2sc; font-feature-settings still wins tag by tag.
        const ComputedStyle b
            = style("{\"fontVariantCaps\": \"all-small-caps\", \"fontFeatureSettings\": \"'smcp' off\"}");
        const std::vector<FontFeature> overridden{{featureTag("c2sc"), 1}, {featureTag("smcp"), 0}};
        QCOMPARE(resolvedFontFeatures(b.fontVariantNumeric, b.fontFeatureSettings, b.fontVariantCaps, b.fontKerning),
                 overridden);
        // Inherited, and the shorthand resets what it leaves out.
        const ComputedStyle child = style("{\"fontVariant\": \"normal\"}", &a);
        QCOMPARE(child.fontVariantCaps, FontVariantCaps::Normal);
        QCOMPARE(child.fontVariantNumeric, quint8(0));
        QCOMPARE(style("{}", &a).fontVariantCaps, FontVariantCaps::SmallCaps);
        QCOMPARE(style("{\"fontKerning\": \"none\"}").fontKerning, FontKerning::None);
        QStringList warnings;
        QCOMPARE(style("{\"fontVariant\": \"small-caps common-ligatures\"}", nullptr, &warnings).fontVariantCaps,
                 FontVariantCaps::SmallCaps);
        QCOMPARE(warnings.size(), 1); // the ligature keyword is not supported
        for (const char *bad :
             {"{\"fontVariantCaps\": \"tiny-caps\"}", "{\"fontKerning\": \"off\"}", "{\"fontVariant\": \"wobbly\"}"}) {
            QStringList w;
            style(bad, nullptr, &w);
            QVERIFY2(w.size() == 1, bad);
        }
    }

    void outlineShorthandAndLonghands()
    {
        const ComputedStyle a
            = style("{\"color\": \"#00ff00\", \"outline\": \"2px dashed red\", \"outlineOffset\": \"-3px\"}");
        QCOMPARE(a.outlineWidth, 2.f);
        QCOMPARE(a.outlineStyle, BorderStyle::Dashed);
        QVERIFY(a.outlineColor && sameColor(*a.outlineColor, rgba(255, 0, 0)));
        QCOMPARE(a.outlineOffset, -3.f);
        // The shorthand resets what it leaves out: medium width, currentColor.
        const ComputedStyle b = style("{\"outline\": \"dotted\"}");
        QCOMPARE(b.outlineWidth, 3.f);
        QCOMPARE(b.outlineStyle, BorderStyle::Dotted);
        QVERIFY(!b.outlineColor);
        QCOMPARE(style("{\"outline\": \"auto\"}").outlineStyle, BorderStyle::Solid);
        QCOMPARE(style("{\"outline\": \"4px solid blue\", \"outline\": \"none\"}").outlineStyle, BorderStyle::None);
        const ComputedStyle c
            = style("{\"outlineWidth\": \"thick\", \"outlineStyle\": \"double\", \"outlineColor\": \"invert\"}");
        QCOMPARE(c.outlineWidth, 5.f);
        QCOMPARE(c.outlineStyle, BorderStyle::Double);
        QVERIFY(!c.outlineColor);
        for (const char *bad :
             {"{\"outline\": \"2px 3px\"}", "{\"outlineOffset\": \"10%\"}", "{\"outlineStyle\": \"wavy\"}"}) {
            QStringList warnings;
            style(bad, nullptr, &warnings);
            QVERIFY2(warnings.size() == 1, bad);
        }
    }

    void viewportUnitsBecomePx()
    {
        const QSizeF image(1200, 630);
        QCOMPARE(css::resolveViewportUnits(QStringLiteral("clamp(24px, 5vw, 64px)"), image),
                 QStringLiteral("clamp(24px, 60px, 64px)"));
        QCOMPARE(css::resolveViewportUnits(QStringLiteral("10vh"), image), QStringLiteral("63px"));
        QCOMPARE(css::resolveViewportUnits(QStringLiteral("2vmin 1VMAX"), image), QStringLiteral("12.6px 12px"));
        QCOMPARE(css::resolveViewportUnits(QStringLiteral("calc(-5vw + .5vi - 1e1vb)"), image),
                 QStringLiteral("calc(-60px + 6px - 63px)"));
        QCOMPARE(css::resolveViewportUnits(QStringLiteral("5svh 3dvmin 10lvw"), image),
                 QStringLiteral("31.5px 18.9px 120px"));
        // Not lengths: names, colours, quoted text and URLs keep their characters.
        for (const char *kept : {"url(a5vw.png) 5px", "url(\"x 5vw\")", "'Font 5vw'", "abc5vw", "#5vw", "10px", "5vwx"})
            QCOMPARE(css::resolveViewportUnits(QLatin1String(kept), image), QLatin1String(kept));
        // A content-sized side has no viewport to resolve against.
        QCOMPARE(css::resolveViewportUnits(QStringLiteral("5vw 5vh"), QSizeF(0, 630)), QStringLiteral("5vw 31.5px"));
    }

    void invalidColors()
    {
        for (const char *bad :
             {"#12", "#ggg", "rgb(1,2)", "hsl(a, b, c)", "notacolor", "", "#12345", "rgb(1 2 3 4)", "url(x)",
              "oklch(0.5 0.1)", "lab(1, 2, 3)", "hwb(10 20% 30% 40%)", "color(foo 1 2 3)", "color(srgb 1 2)",
              "color-mix(red, blue)", "color-mix(in srgb, red 0%, blue 0%)", "color-mix(in nowhere, red, blue)",
              "color-mix(in srgb, red 120%, blue)", "color-mix(in srgb longer hue, red, blue)"})
            QVERIFY2(!parseColor(QLatin1String(bad), Qt::black), bad);
    }

    void lengths()
    {
        QCOMPARE(parseLength(QStringLiteral("12"), 20, 10), Length::px(12));
        QCOMPARE(parseLength(QStringLiteral("12px"), 20, 10), Length::px(12));
        QCOMPARE(parseLength(QStringLiteral("50%"), 20, 10), Length::percent(50));
        QCOMPARE(parseLength(QStringLiteral("1.5em"), 20, 10), Length::px(30));
        QCOMPARE(parseLength(QStringLiteral("2rem"), 20, 10), Length::px(20));
        QCOMPARE(parseLength(QStringLiteral("auto"), 20, 10), Length::autoLength());
        QCOMPARE(parseLength(QStringLiteral("none"), 20, 10), Length::none());
        QCOMPARE(parseLength(QStringLiteral("-4px"), 20, 10), Length::px(-4));
        QVERIFY(!parseLength(QStringLiteral("abc"), 20, 10));
        QVERIFY(!parseLength(QStringLiteral("12 px"), 20, 10));
        QVERIFY(!parseLength(QStringLiteral("12pxx"), 20, 10));
    }

    void numbersArePxAndEmUsesOwnFontSize()
    {
        ComputedStyle parent = style("{\"fontSize\": 10}");
        ComputedStyle s
            = style("{\"fontSize\": \"2em\", \"width\": 300, \"height\": \"50%\", \"paddingLeft\": \"1em\",\n"
                    "                                    \"marginTop\": \"2rem\"}",
                    &parent, nullptr, QStringLiteral("div"), 8);
        QCOMPARE(s.fontSize, 20.f); // em of the parent for fontSize
        QCOMPARE(s.width, Length::px(300));
        QCOMPARE(s.height, Length::percent(50));
        QCOMPARE(s.padding[Left], Length::px(20)); // em of its own font size
        QCOMPARE(s.margin[Top], Length::px(16)); // rem of the root font size
        QCOMPARE(style("{\"fontSize\": \"150%\"}", &parent).fontSize, 15.f);
        QCOMPARE(style("{\"fontSize\": \"large\"}").fontSize, 18.f);
    }

    void edgeShorthands_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QList<float>>("edges"); // top right bottom left
        QTest::newRow("1") << "4px" << QList<float>{4, 4, 4, 4};
        QTest::newRow("2") << "4px 8px" << QList<float>{4, 8, 4, 8};
        QTest::newRow("3") << "1px 2px 3px" << QList<float>{1, 2, 3, 2};
        QTest::newRow("4") << "1px 2px 3px 4px" << QList<float>{1, 2, 3, 4};
        QTest::newRow("number") << "7" << QList<float>{7, 7, 7, 7};
    }
    void edgeShorthands()
    {
        QFETCH(QString, value);
        QFETCH(QList<float>, edges);
        QJsonObject decl{{QStringLiteral("margin"), value},
                         {QStringLiteral("padding"), value},
                         {QStringLiteral("inset"), value},
                         {QStringLiteral("borderWidth"), value},
                         {QStringLiteral("borderStyle"), QStringLiteral("solid")}};
        if (value == QLatin1String("7"))
            for (const char *k : {"margin", "padding", "inset", "borderWidth"})
                decl.insert(QLatin1String(k), 7);
        ComputedStyle s = computeStyle(decl, nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), nullptr);
        for (int e = 0; e < 4; ++e) {
            QCOMPARE(s.margin[e], Length::px(edges[e]));
            QCOMPARE(s.padding[e], Length::px(edges[e]));
            QCOMPARE(s.inset[e], Length::px(edges[e]));
            QCOMPARE(s.borderWidth[e], edges[e]);
        }
    }

    void longhandsWinOverShorthandsWhateverTheKeyOrder()
    {
        // QJsonObject sorts keys; "padding" < "paddingTop" and "marginTop" > "margin" alike.
        ComputedStyle s = style("{\"paddingTop\": 0, \"padding\": 8, \"margin\": \"auto\", \"marginLeft\": 3}");
        QCOMPARE(s.padding[Top], Length::px(0));
        QCOMPARE(s.padding[Bottom], Length::px(8));
        QCOMPARE(s.margin[Top], Length::autoLength());
        QCOMPARE(s.margin[Left], Length::px(3));
    }

    void shorthandsSortedAfterTheirLonghandsStillLose()
    {
        // Keys where the shorthand sorts after its longhand: the property table's order
        // column, not the key order, decides.
        ComputedStyle s
            = style("{\"bottom\": 5, \"inset\": 1, \"columnGap\": 3, \"gap\": 1,\n"
                    "                                   \"flexDirection\": \"column\", \"flexFlow\": \"wrap\",\n"
                    "                                   \"borderTopWidth\": 7, \"borderWidth\": 1, \"borderStyle\": "
                    "\"solid\"}");
        QCOMPARE(s.inset[Bottom], Length::px(5));
        QCOMPARE(s.inset[Top], Length::px(1));
        QCOMPARE(s.columnGap, Length::px(3));
        QCOMPARE(s.rowGap, Length::px(1));
        QCOMPARE(s.flexDirection, FlexDirection::Column);
        QCOMPARE(s.flexWrap, FlexWrap::Wrap);
        QCOMPARE(s.borderWidth[Top], 7.f);
        QCOMPARE(s.borderWidth[Left], 1.f);
        // font-size before everything that takes em, color before currentColor.
        ComputedStyle e
            = style("{\"borderColor\": \"currentColor\", \"color\": \"red\", \"fontSize\": 20,\n"
                    "                                   \"borderStyle\": \"solid\", \"borderWidth\": \"1em\"}");
        QCOMPARE(e.borderWidth[Top], 20.f);
        QCOMPARE(e.borderColor[Top], QColor(Qt::red));
    }

    void propertyTableHasOneRowPerProperty()
    {
        std::set<QString> names;
        for (const CssProperty &p : cssProperties()) {
            const QString name(p.name);
            QVERIFY2(names.insert(name).second, qPrintable(name + QLatin1String(" has two rows")));
            QVERIFY2(p.handler, qPrintable(name));
            QCOMPARE(findCssProperty(name), &p);
            // Every row is reachable from a template: an invalid value warns in the row's
            // words, and never as an unsupported property.
            QStringList warnings;
            computeStyle(QJsonObject{{name, QStringLiteral("((")}}, nullptr, QStringLiteral("div"), 16,
                         QStringLiteral("s"), &warnings);
            for (const QString &w : warnings)
                QVERIFY2(!w.contains(QLatin1String("unsupported property")), qPrintable(w));
        }
        QCOMPARE(findCssProperty(QStringLiteral("grid")), nullptr);
        QCOMPARE(findCssProperty(QStringLiteral("FontSize")), nullptr); // camelCase, exact case
        QVERIFY(names.size() > 100);
    }

    void warningsNameTheValueKindOfTheRow()
    {
        QStringList warnings;
        style("{\"borderTopColor\": \"nope\", \"marginLeft\": \"x\", \"inset\": \"x\", \"maxWidth\": \"x\",\n"
              "  \"textDecorationColor\": \"nope\", \"letterSpacing\": \"x\", \"zIndex\": \"x\"}",
              nullptr, &warnings);
        QCOMPARE(warnings, (QStringList{QStringLiteral("root.props.style.inset: invalid value \"x\""),
                                        QStringLiteral("root.props.style.borderTopColor: invalid colour \"nope\""),
                                        QStringLiteral("root.props.style.letterSpacing: invalid length \"x\""),
                                        QStringLiteral("root.props.style.marginLeft: invalid length \"x\""),
                                        QStringLiteral("root.props.style.maxWidth: invalid length \"x\""),
                                        QStringLiteral("root.props.style.textDecorationColor: invalid colour \"nope\""),
                                        QStringLiteral("root.props.style.zIndex: invalid value \"x\"")}));
    }

    void flexShorthand_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<float>("grow");
        QTest::addColumn<float>("shrink");
        QTest::addColumn<Length>("basis");
        QTest::newRow("none") << "none" << 0.f << 0.f << Length::autoLength();
        QTest::newRow("auto") << "auto" << 1.f << 1.f << Length::autoLength();
        QTest::newRow("1") << "1" << 1.f << 1.f << Length::percent(0);
        QTest::newRow("2 1 0%") << "2 1 0%" << 2.f << 1.f << Length::percent(0);
        QTest::newRow("1 1 200px") << "1 1 200px" << 1.f << 1.f << Length::px(200);
        QTest::newRow("200px") << "200px" << 1.f << 1.f << Length::px(200);
        QTest::newRow("2 3") << "2 3" << 2.f << 3.f << Length::percent(0);
        QTest::newRow("0 0 auto") << "0 0 auto" << 0.f << 0.f << Length::autoLength();
        QTest::newRow("1 content") << "1 content" << 1.f << 1.f << Length::content();
        QTest::newRow("0 1 max-content") << "0 1 max-content" << 0.f << 1.f << Length::maxContent();
    }
    void flexShorthand()
    {
        QFETCH(QString, value);
        QFETCH(float, grow);
        QFETCH(float, shrink);
        QFETCH(Length, basis);
        ComputedStyle s = computeStyle(QJsonObject{{QStringLiteral("flex"), value}}, nullptr, QStringLiteral("div"), 16,
                                       QStringLiteral("s"), nullptr);
        QCOMPARE(s.flexGrow, grow);
        QCOMPARE(s.flexShrink, shrink);
        QCOMPARE(s.flexBasis, basis);
        // A JSON number is `flex: <number>` (basis 0), as React passes it unitless.
        ComputedStyle n = style("{\"flex\": 3}");
        QCOMPARE(n.flexGrow, 3.f);
        QCOMPARE(n.flexBasis, Length::percent(0));
    }

    void flexFlowAndAlignment()
    {
        ComputedStyle s = style("{\"flexFlow\": \"column wrap\", \"justifyContent\": \"space-evenly\",\n"
                                "                                    \"alignItems\": \"end\", \"alignSelf\": "
                                "\"start\", \"alignContent\": \"normal\"}");
        QCOMPARE(s.flexDirection, FlexDirection::Column);
        QCOMPARE(s.flexWrap, FlexWrap::Wrap);
        QCOMPARE(s.justifyContent, JustifyContent::SpaceEvenly);
        QCOMPARE(s.alignItems, AlignItems::FlexEnd);
        QCOMPARE(s.alignSelf, AlignItems::FlexStart);
        QCOMPARE(s.alignContent, AlignContent::Stretch);
        // start/end/left/right stay what they are: layout resolves them against the
        // container's flex direction and writing direction (alignment.h).
        QCOMPARE(style("{\"justifyContent\": \"right\"}").justifyContent, JustifyContent::Right);
        QCOMPARE(style("{\"justifyContent\": \"start\"}").justifyContent, JustifyContent::Start);
        QCOMPARE(style("{\"justifyContent\": \"normal\"}").justifyContent, JustifyContent::Normal);
        QCOMPARE(style("{\"alignItems\": \"first baseline\"}").alignItems, AlignItems::Baseline);
    }

    void borderShorthand()
    {
        ComputedStyle s
            = style("{\"border\": \"4px solid #6366f1\", \"borderLeft\": \"dashed red 2px\",\n"
                    "                                    \"borderBottomStyle\": \"none\", \"color\": \"#010203\"}");
        QCOMPARE(s.borderWidth[Top], 4.f);
        QCOMPARE(s.borderStyle[Top], BorderStyle::Solid);
        QCOMPARE(s.borderColor[Top], QColor(0x63, 0x66, 0xf1));
        QCOMPARE(s.borderStyle[Left], BorderStyle::Dashed);
        QCOMPARE(s.borderWidth[Left], 2.f);
        QCOMPARE(s.borderColor[Left], QColor(Qt::red));
        QCOMPARE(s.borderWidth[Bottom], 0.f); // style none computes width 0
        // Without a colour the border takes currentColor, and without a style it is none.
        ComputedStyle c = style("{\"border\": \"2px solid\", \"color\": \"#010203\"}");
        QCOMPARE(c.borderColor[Right], QColor(1, 2, 3));
        QCOMPARE(style("{\"border\": \"3px\"}").borderWidth[Top], 0.f);
        QCOMPARE(style("{\"borderWidth\": \"thick\", \"borderStyle\": \"solid\"}").borderWidth[Top], 5.f);
        ComputedStyle e = style("{\"borderTopColor\": \"blue\", \"borderColor\": \"red\", \"borderStyle\": \"solid\"}");
        QCOMPARE(e.borderColor[Top], QColor(Qt::blue));
        QCOMPARE(e.borderColor[Bottom], QColor(Qt::red));
    }

    void borderRadius()
    {
        ComputedStyle s = style("{\"borderRadius\": \"1px 2px 3px 4px / 5px 6px\"}");
        QCOMPARE(s.borderRadius[0], (CornerRadius{Length::px(1), Length::px(5)}));
        QCOMPARE(s.borderRadius[1], (CornerRadius{Length::px(2), Length::px(6)}));
        QCOMPARE(s.borderRadius[2], (CornerRadius{Length::px(3), Length::px(5)}));
        QCOMPARE(s.borderRadius[3], (CornerRadius{Length::px(4), Length::px(6)}));
        ComputedStyle two = style("{\"borderRadius\": \"12px 12px 0 0\"}");
        QCOMPARE(two.borderRadius[1].x, Length::px(12));
        QCOMPARE(two.borderRadius[2].x, Length::px(0));
        ComputedStyle corner = style("{\"borderRadius\": 999, \"borderBottomLeftRadius\": \"10% 20px\"}");
        QCOMPARE(corner.borderRadius[0].y, Length::px(999));
        QCOMPARE(corner.borderRadius[3], (CornerRadius{Length::percent(10), Length::px(20)}));
    }

    void linearGradients()
    {
        ComputedStyle s
            = style("{\"backgroundImage\": \"linear-gradient(135deg, #6d28d9 0%, rgba(0,0,0,0.5) 50%, red)\"}");
        QCOMPARE(s.backgroundLayers.size(), size_t(1));
        const Gradient &g = *s.backgroundLayers[0].gradient;
        QCOMPARE(g.kind, Gradient::Kind::Linear);
        QCOMPARE(g.angleDeg, 135.f);
        QCOMPARE(g.stops.size(), size_t(3));
        QCOMPARE(*g.stops[0].position, 0.f);
        QCOMPARE(*g.stops[1].position, 0.5f);
        QVERIFY(!g.stops[2].position);
        QCOMPARE(g.stops[1].color.alpha(), 128);

        Gradient right
            = *style("{\"backgroundImage\": \"linear-gradient(to right, red, blue)\"}").backgroundLayers[0].gradient;
        QCOMPARE(right.angleDeg, 90.f);
        QCOMPARE(right.angleFor(1200, 630), 90.f);
        Gradient turn
            = *style("{\"backgroundImage\": \"linear-gradient(0.25turn, red, blue)\"}").backgroundLayers[0].gradient;
        QCOMPARE(turn.angleDeg, 90.f);
        // A corner direction depends on the box (CSS Images 3 §3.1.1): for a square it is
        // 45°, for a wide box the line is steeper.
        Gradient corner = *style("{\"backgroundImage\": \"linear-gradient(to top right, red, blue)\"}")
                               .backgroundLayers[0]
                               .gradient;
        QCOMPARE(corner.toCorner, Gradient::Corner::TopRight);
        QCOMPARE(corner.angleFor(100, 100), 45.f);
        QVERIFY(qAbs(corner.angleFor(1200, 600) - 26.565f) < 0.01f);
        Gradient tl
            = *style("{\"backgroundImage\": \"linear-gradient(to left top, red, blue)\"}").backgroundLayers[0].gradient;
        QVERIFY(qAbs(tl.angleFor(100, 100) - 315.f) < 0.01f);
        // px stop positions wait for the painted box; double positions make two stops.
        Gradient px
            = *style("{\"backgroundImage\": \"repeating-linear-gradient(45deg, red 0px, red 10px, blue 10px 20px)\"}")
                   .backgroundLayers[0]
                   .gradient;
        QVERIFY(px.repeating);
        QCOMPARE(px.stops.size(), size_t(4));
        QCOMPARE(*px.stops[1].positionPx, 10.f);
        QCOMPARE(*px.stops[3].positionPx, 20.f);
        QVERIFY(!px.stops[3].position);
    }

    void radialGradients()
    {
        Gradient g = *style("{\"backgroundImage\": \"radial-gradient(circle at 25% 0%, #fff 0%, transparent 60%)\"}")
                          .backgroundLayers[0]
                          .gradient;
        QCOMPARE(g.kind, Gradient::Kind::Radial);
        QVERIFY(g.circle);
        QCOMPARE(g.centerX, Length::percent(25));
        QCOMPARE(g.centerY, Length::percent(0));
        QCOMPARE(g.extent, Gradient::Extent::FarthestCorner);
        QCOMPARE(*g.stops[1].position, 0.6f);
        Gradient e = *style("{\"backgroundImage\": \"radial-gradient(ellipse closest-side at top right, red, blue)\"}")
                          .backgroundLayers[0]
                          .gradient;
        QVERIFY(!e.circle);
        QCOMPARE(e.extent, Gradient::Extent::ClosestSide);
        QCOMPARE(e.centerX, Length::percent(100));
        QCOMPARE(e.centerY, Length::percent(0));
        Gradient sized = *style("{\"backgroundImage\": \"radial-gradient(200px 100px at 10px 20px, red, blue)\"}")
                              .backgroundLayers[0]
                              .gradient;
        QCOMPARE(*sized.radiusX, Length::px(200));
        QCOMPARE(*sized.radiusY, Length::px(100));
        QCOMPARE(sized.centerX, Length::px(10));
        Gradient plain = *style("{\"backgroundImage\": \"radial-gradient(red, blue)\"}").backgroundLayers[0].gradient;
        QCOMPARE(plain.stops.size(), size_t(2));
        QCOMPARE(plain.centerX, Length::percent(50));
    }

    void backgroundShorthand()
    {
        ComputedStyle s = style("{\"background\": \"linear-gradient(to bottom, red, blue), "
                                "url('data:image/png;base64,AA==') center / cover no-repeat, #112233\"}");
        QCOMPARE(s.backgroundColor, QColor(0x11, 0x22, 0x33));
        QCOMPARE(s.backgroundLayers.size(), size_t(2));
        QVERIFY(s.backgroundLayers[0].gradient);
        QCOMPARE(s.backgroundLayers[1].imageUrl, QStringLiteral("data:image/png;base64,AA=="));
        QCOMPARE(s.backgroundLayers[1].size, BackgroundLayer::Size::Cover);
        QVERIFY(!s.backgroundLayers[1].repeat);
        QCOMPARE(s.backgroundLayers[1].positionX, Length::percent(50));
        // A colour alone, and longhands that refine the shorthand's layers.
        QCOMPARE(style("{\"background\": \"white\"}").backgroundColor, QColor(Qt::white));
        ComputedStyle l = style("{\"background\": \"radial-gradient(red, blue)\", \"backgroundSize\": \"20px 20px\",\n"
                                "                                    \"backgroundRepeat\": \"no-repeat\", "
                                "\"backgroundPosition\": \"right bottom\"}");
        QCOMPARE(l.backgroundLayers[0].size, BackgroundLayer::Size::Explicit);
        QCOMPARE(l.backgroundLayers[0].sizeX, Length::px(20));
        QVERIFY(!l.backgroundLayers[0].repeat);
        QCOMPARE(l.backgroundLayers[0].positionY, Length::percent(100));
    }

    void boxShadows()
    {
        ComputedStyle s = style(
            "{\"color\": \"#010203\", \"boxShadow\": \"0 4px 12px rgba(0,0,0,0.25), inset 0 0 0 2px red, 2px 2px\"}");
        QCOMPARE(s.boxShadow.size(), size_t(3));
        QCOMPARE(s.boxShadow[0].offsetY, 4.f);
        QCOMPARE(s.boxShadow[0].blur, 12.f);
        QCOMPARE(s.boxShadow[0].color.alpha(), 64);
        QVERIFY(!s.boxShadow[0].inset);
        QVERIFY(s.boxShadow[1].inset);
        QCOMPARE(s.boxShadow[1].spread, 2.f);
        QCOMPARE(s.boxShadow[1].color, QColor(Qt::red));
        QCOMPARE(s.boxShadow[2].color, QColor(1, 2, 3)); // currentColor by default
        ComputedStyle colorFirst = style("{\"boxShadow\": \"red 1px 2px 3px\"}");
        QCOMPARE(colorFirst.boxShadow[0].color, QColor(Qt::red));
        QCOMPARE(colorFirst.boxShadow[0].blur, 3.f);
        ComputedStyle text = style("{\"textShadow\": \"0 2px 4px #000, 1px 1px blue\"}");
        QCOMPARE(text.textShadow.size(), size_t(2));
        QStringList warnings;
        style("{\"textShadow\": \"inset 1px 1px red\"}", nullptr, &warnings);
        QCOMPARE(warnings.size(), 1);
    }

    void transforms()
    {
        ComputedStyle s = style(
            "{\"transform\": \"translate(10px, 50%) rotate(0.5turn) scale(2) skewX(10deg) matrix(1,0,0,1,5,6)\",\n"
            "                                    \"transformOrigin\": \"top left\"}");
        QCOMPARE(s.transform.size(), size_t(5));
        QCOMPARE(s.transform[0].kind, TransformOp::Kind::Translate);
        QCOMPARE(s.transform[0].x, Length::px(10));
        QCOMPARE(s.transform[0].y, Length::percent(50));
        QCOMPARE(s.transform[1].kind, TransformOp::Kind::Rotate);
        QCOMPARE(s.transform[1].a, 180.f);
        QCOMPARE(s.transform[2].a, 2.f);
        QCOMPARE(s.transform[2].b, 2.f);
        QCOMPARE(s.transform[3].kind, TransformOp::Kind::Skew);
        QCOMPARE(s.transform[3].a, 10.f);
        QCOMPARE(s.transform[3].b, 0.f);
        QCOMPARE(s.transform[4].m[4], 5.f);
        QCOMPARE(s.transformOriginX, Length::percent(0));
        QCOMPARE(s.transformOriginY, Length::percent(0));
        ComputedStyle y = style("{\"transform\": \"translateY(-4px) scaleX(0.5) rotate(1.5708rad)\", "
                                "\"transformOrigin\": \"20px bottom\"}");
        QCOMPARE(y.transform[0].x, Length::px(0));
        QCOMPARE(y.transform[0].y, Length::px(-4));
        QCOMPARE(y.transform[1].a, 0.5f);
        QCOMPARE(y.transform[1].b, 1.f);
        QVERIFY(qAbs(y.transform[2].a - 90.f) < 0.01f);
        QCOMPARE(y.transformOriginX, Length::px(20));
        QCOMPARE(y.transformOriginY, Length::percent(100));
        QCOMPARE(style("{\"transform\": \"rotate(100grad)\"}").transform[0].a, 90.f);
    }

    // CSS Text Decoration 4 §2.7: the shorthand takes line, thickness, style and colour
    // in any order; the longhands override one part; thickness % is of 1em.
    void textDecorationShorthandAndLonghands()
    {
        ComputedStyle s = style("{\"fontSize\": 20, \"textDecoration\": \"wavy 3px line-through #00f\"}");
        QVERIFY(s.textDecoration.lineThrough);
        QVERIFY(!s.textDecoration.underline);
        QCOMPARE(s.textDecoration.style, DecorationStyle::Wavy);
        QCOMPARE(s.textDecoration.thickness, 3.f);
        QCOMPARE(*s.textDecoration.color, QColor(Qt::blue));
        s = style("{\"fontSize\": 20, \"textDecorationLine\": \"underline overline\", "
                  "\"textDecorationStyle\": \"double\", \"textDecorationThickness\": \"10%\", "
                  "\"textDecorationColor\": \"red\"}");
        QVERIFY(s.textDecoration.underline && s.textDecoration.overline);
        QCOMPARE(s.textDecoration.style, DecorationStyle::Double);
        QCOMPARE(s.textDecoration.thickness, 2.f);
        QCOMPARE(*s.textDecoration.color, QColor(Qt::red));
        s = style("{\"fontSize\": 20, \"textDecoration\": \"underline dashed\", "
                  "\"textDecorationThickness\": \"0.2em\"}");
        QCOMPARE(s.textDecoration.style, DecorationStyle::Dashed);
        QCOMPARE(s.textDecoration.thickness, 4.f);
        QCOMPARE(style("{\"textDecoration\": \"underline from-font\"}").textDecoration.thickness, -1.f);
    }

    void textIndentAndStroke()
    {
        QCOMPARE(style("{\"textIndent\": 24}").textIndent, Length::px(24));
        QCOMPARE(style("{\"fontSize\": 10, \"textIndent\": \"2em\"}").textIndent, Length::px(20));
        QCOMPARE(style("{\"textIndent\": \"5%\"}").textIndent.type, Length::Type::Percent);
        ComputedStyle s = style("{\"WebkitTextStroke\": \"2px red\"}");
        QCOMPARE(s.textStrokeWidth, 2.f);
        QCOMPARE(*s.textStrokeColor, QColor(Qt::red));
        s = style("{\"WebkitTextStroke\": \"thin\", \"WebkitTextStrokeColor\": \"#00f\"}");
        QCOMPARE(s.textStrokeWidth, 1.f);
        QCOMPARE(*s.textStrokeColor, QColor(Qt::blue));
        s = style("{\"WebkitTextStrokeWidth\": \"3px\"}");
        QCOMPARE(s.textStrokeWidth, 3.f);
        QVERIFY(!s.textStrokeColor); // currentColor
        ComputedStyle parent = style("{\"WebkitTextStroke\": \"4px green\", \"textIndent\": 8}");
        ComputedStyle child = style("{}", &parent);
        QCOMPARE(child.textStrokeWidth, 4.f); // both inherit (CSS Text 3 §8.1, Compat §5.3)
        QCOMPARE(child.textIndent, Length::px(8));
    }

    void verticalAlign()
    {
        using K = VerticalAlign::Keyword;
        QCOMPARE(style("{}").verticalAlign.keyword, K::Baseline);
        for (const auto &[text, keyword] :
             std::initializer_list<std::pair<const char *, K>>{{"baseline", K::Baseline},
                                                               {"sub", K::Sub},
                                                               {"super", K::Super},
                                                               {"text-top", K::TextTop},
                                                               {"text-bottom", K::TextBottom},
                                                               {"middle", K::Middle},
                                                               {"TOP", K::Top},
                                                               {"bottom", K::Bottom}}) {
            const QByteArray json = QByteArray("{\"verticalAlign\": \"") + text + "\"}";
            QCOMPARE(style(json.constData()).verticalAlign.keyword, keyword);
        }
        // A length raises the baseline by that much (numbers are px, em of the font size); a
        // percentage stays one, of the element's own line-height.
        QCOMPARE(style("{\"verticalAlign\": -4}").verticalAlign, (VerticalAlign{K::Length, Length::px(-4)}));
        QCOMPARE(style("{\"fontSize\": 10, \"verticalAlign\": \"0.5em\"}").verticalAlign,
                 (VerticalAlign{K::Length, Length::px(5)}));
        QCOMPARE(style("{\"verticalAlign\": \"-25%\"}").verticalAlign,
                 (VerticalAlign{K::Length, Length::percent(-25)}));
        // Not inherited (CSS 2 §10.8.1).
        const ComputedStyle parent = style("{\"verticalAlign\": \"super\"}");
        QCOMPARE(style("{}", &parent).verticalAlign.keyword, K::Baseline);
        // sub and sup elements: shifted and smaller (HTML §15.3.3).
        QCOMPARE(style("{}", nullptr, nullptr, QStringLiteral("sub")).verticalAlign.keyword, K::Sub);
        const ComputedStyle sup = style("{}", &parent, nullptr, QStringLiteral("sup"));
        QCOMPARE(sup.verticalAlign.keyword, K::Super);
        QVERIFY(sup.fontSize < 16);
        // A bad value is a warning naming the property; the value stays baseline.
        QStringList warnings;
        QCOMPARE(style("{\"verticalAlign\": \"center\"}", nullptr, &warnings).verticalAlign.keyword, K::Baseline);
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.front().contains(QLatin1String("verticalAlign")), qPrintable(warnings.front()));
    }

    void textProperties()
    {
        ComputedStyle s
            = style("{\"fontFamily\": \"'Inter Tight', \\\"DejaVu Sans\\\", sans-serif\", \"fontSize\": 20,\n"
                    "                                    \"fontWeight\": \"bold\", \"fontStyle\": \"italic\", "
                    "\"lineHeight\": 1.5,\n"
                    "                                    \"letterSpacing\": \"0.1em\", \"textAlign\": \"center\", "
                    "\"textTransform\": \"uppercase\",\n"
                    "                                    \"whiteSpace\": \"pre-wrap\", \"wordBreak\": \"break-all\", "
                    "\"wordWrap\": \"break-word\",\n"
                    "                                    \"textOverflow\": \"ellipsis\", \"WebkitLineClamp\": \"3\", "
                    "\"direction\": \"rtl\",\n"
                    "                                    \"textDecoration\": \"underline dotted red\"}");
        QCOMPARE(s.fontFamily, (QStringList{QStringLiteral("Inter Tight"), QStringLiteral("DejaVu Sans"),
                                            QStringLiteral("sans-serif")}));
        QCOMPARE(s.fontWeight, 700);
        QCOMPARE(s.fontStyle, FontStyle::Italic);
        QCOMPARE(s.lineHeight, (LineHeight{LineHeight::Type::Number, 1.5f}));
        QCOMPARE(s.letterSpacing, 2.f);
        QCOMPARE(s.textAlign, TextAlign::Center);
        QCOMPARE(s.textTransform, TextTransform::Uppercase);
        QCOMPARE(s.whiteSpace, WhiteSpace::PreWrap);
        QCOMPARE(s.wordBreak, WordBreak::BreakAll);
        QCOMPARE(s.overflowWrap, OverflowWrap::BreakWord);
        QCOMPARE(s.textOverflow, TextOverflow::Ellipsis);
        QCOMPARE(s.lineClamp, 3);
        QCOMPARE(s.direction, Direction::Rtl);
        QVERIFY(s.textDecoration.underline);
        QCOMPARE(s.textDecoration.style, DecorationStyle::Dotted);
        QCOMPARE(*s.textDecoration.color, QColor(Qt::red));
        QCOMPARE(s.textDecoration.thickness, -1.f);
        QCOMPARE(style("{\"lineHeight\": \"24px\"}").lineHeight, (LineHeight{LineHeight::Type::Px, 24}));
        QCOMPARE(style("{\"fontSize\": 20, \"lineHeight\": \"150%\"}").lineHeight,
                 (LineHeight{LineHeight::Type::Px, 30}));
        QCOMPARE(style("{\"fontSize\": 20, \"lineHeight\": \"2em\"}").lineHeight,
                 (LineHeight{LineHeight::Type::Px, 40}));
        QCOMPARE(style("{\"lineHeight\": \"normal\"}").lineHeight.type, LineHeight::Type::Normal);
        QCOMPARE(style("{\"lineClamp\": 2}").lineClamp, 2);
        ComputedStyle parent = style("{\"fontWeight\": 400}");
        QCOMPARE(style("{\"fontWeight\": \"bolder\"}", &parent).fontWeight, 700);
        QCOMPARE(style("{\"fontWeight\": \"lighter\"}", &parent).fontWeight, 100);
        QCOMPARE(style("{\"fontWeight\": 650}").fontWeight, 650);
    }

    void boxMiscellany()
    {
        ComputedStyle s = style("{\"display\": \"none\", \"position\": \"absolute\", \"top\": 0, \"right\": \"10%\",\n"
                                "                                    \"boxSizing\": \"border-box\", \"aspectRatio\": "
                                "\"16 / 9\", \"overflow\": \"hidden\",\n"
                                "                                    \"opacity\": \"50%\", \"objectFit\": \"cover\", "
                                "\"objectPosition\": \"left top\",\n"
                                "                                    \"gap\": \"10px 20px\", \"minWidth\": 0, "
                                "\"maxWidth\": \"none\", \"maxHeight\": 300}");
        QCOMPARE(s.display, imprint::render::Display::None);
        QCOMPARE(s.position, Position::Absolute);
        QCOMPARE(s.inset[Top], Length::px(0));
        QCOMPARE(s.inset[Right], Length::percent(10));
        QCOMPARE(s.inset[Bottom], Length::autoLength());
        QCOMPARE(s.boxSizing, BoxSizing::BorderBox);
        QVERIFY(qAbs(s.aspectRatio - 16.f / 9.f) < 1e-5f);
        QCOMPARE(s.overflow, Overflow::Hidden);
        QCOMPARE(s.opacity, 0.5f);
        QCOMPARE(s.objectFit, ObjectFit::Cover);
        QCOMPARE(s.objectPositionX, Length::percent(0));
        QCOMPARE(s.rowGap, Length::px(10));
        QCOMPARE(s.columnGap, Length::px(20));
        QCOMPARE(s.minWidth, Length::px(0));
        QCOMPARE(s.maxWidth, Length::none());
        QCOMPARE(s.maxHeight, Length::px(300));
        QCOMPARE(style("{\"display\": \"block\"}").display, imprint::render::Display::Block);
        QCOMPARE(style("{\"overflowY\": \"hidden\"}").overflow, Overflow::Hidden);
        QCOMPARE(style("{\"aspectRatio\": 1.5}").aspectRatio, 1.5f);
    }

    void satoriDefaults()
    {
        // Every element is a flex container unless it says otherwise, except the phrasing
        // elements, which are inline as in Chromium (docs/templates.md, Inline text).
        QCOMPARE(style("{}").display, imprint::render::Display::Flex);
        for (const char *tag : {"span", "b", "strong", "em", "i", "a", "code", "mark", "br", "img"})
            QCOMPARE(style("{}", nullptr, nullptr, QLatin1String(tag)).display, imprint::render::Display::Inline);
        QCOMPARE(style("{}", nullptr, nullptr, QStringLiteral("p")).display, imprint::render::Display::Flex);
        QCOMPARE(style("{\"display\": \"flex\"}", nullptr, nullptr, QStringLiteral("span")).display,
                 imprint::render::Display::Flex);
        QCOMPARE(style("{\"display\": \"inline\"}").display, imprint::render::Display::Inline);
        QCOMPARE(style("{\"display\": \"inline-block\"}").display, imprint::render::Display::InlineBlock);
        QCOMPARE(style("{\"textWrap\": \"balance\"}").textWrapStyle, TextWrapStyle::Balance);
        QCOMPARE(style("{\"textWrap\": \"pretty\"}").textWrapStyle, TextWrapStyle::Pretty);
        QCOMPARE(style("{\"textWrap\": \"nowrap\"}").whiteSpace, WhiteSpace::NoWrap);
        QCOMPARE(style("{}").boxSizing, BoxSizing::ContentBox);
        QCOMPARE(style("{}").flexShrink, 1.f);
        // Tag presets sit below the author's declarations, shorthands included.
        ComputedStyle h1 = style("{\"margin\": 0}", nullptr, nullptr, QStringLiteral("h1"));
        QCOMPARE(h1.fontSize, 32.f);
        QCOMPARE(h1.fontWeight, 700);
        QCOMPARE(h1.margin[Top], Length::px(0));
        QCOMPARE(style("{}", nullptr, nullptr, QStringLiteral("p")).margin[Top], Length::px(16));
    }

    void inheritance()
    {
        ComputedStyle root = style(
            "{\"color\": \"#123456\", \"fontFamily\": \"DejaVu Sans\", \"fontSize\": 30,\n"
            "                                       \"fontWeight\": 700, \"lineHeight\": 1.2, \"letterSpacing\": 2,\n"
            "                                       \"textAlign\": \"right\", \"whiteSpace\": \"nowrap\",\n"
            "                                       \"padding\": 20, \"backgroundColor\": \"red\", \"width\": 100, "
            "\"opacity\": 0.5,\n"
            "                                       \"border\": \"2px solid\", \"textShadow\": \"1px 1px blue\"}");
        ComputedStyle child = style("{}", &root);
        QCOMPARE(child.color, QColor(0x12, 0x34, 0x56));
        QCOMPARE(child.fontFamily, QStringList{QStringLiteral("DejaVu Sans")});
        QCOMPARE(child.fontSize, 30.f);
        QCOMPARE(child.fontWeight, 700);
        QCOMPARE(child.lineHeight.value, 1.2f);
        QCOMPARE(child.letterSpacing, 2.f);
        QCOMPARE(child.textAlign, TextAlign::Right);
        QCOMPARE(child.whiteSpace, WhiteSpace::NoWrap);
        QCOMPARE(child.textShadow.size(), size_t(1));
        // Box and paint properties do not inherit.
        QCOMPARE(child.padding[Top], Length::px(0));
        QCOMPARE(child.backgroundColor.alpha(), 0);
        QCOMPARE(child.width, Length::autoLength());
        QCOMPARE(child.opacity, 1.f);
        QCOMPARE(child.borderWidth[Top], 0.f);
        // currentColor resolves against the element's own computed colour.
        ComputedStyle cc = style(
            "{\"color\": \"blue\", \"backgroundColor\": \"currentColor\", \"borderColor\": \"currentColor\"}", &root);
        QCOMPARE(cc.backgroundColor, QColor(Qt::blue));
        QCOMPARE(style("{\"backgroundColor\": \"currentcolor\"}", &root).backgroundColor, QColor(0x12, 0x34, 0x56));
        QCOMPARE(style("{\"color\": \"currentColor\"}", &root).color, QColor(0x12, 0x34, 0x56));
        // The root's own border colour follows its colour.
        QCOMPARE(root.borderColor[Top], QColor(0x12, 0x34, 0x56));

        // Text runs get the inherited properties plus what acts on their lines.
        ComputedStyle clamp = style("{\"lineClamp\": 2, \"textOverflow\": \"ellipsis\", \"padding\": 5,\n"
                                    "                                        \"textDecoration\": \"underline\"}",
                                    &root);
        ComputedStyle run = inheritedStyle(clamp);
        QCOMPARE(run.color, QColor(0x12, 0x34, 0x56));
        QCOMPARE(run.lineClamp, 2);
        QCOMPARE(run.textOverflow, TextOverflow::Ellipsis);
        QCOMPARE(run.padding[Left], Length::px(0));
        QVERIFY(run.textDecoration.underline);
        // A decoration propagates to descendants in the colour of the element declaring it.
        ComputedStyle nested = style("{\"color\": \"green\"}", &clamp);
        QVERIFY(nested.textDecoration.underline);
        QCOMPARE(*nested.textDecoration.color, QColor(0x12, 0x34, 0x56));
    }

    void inheritedRowsAndInheritedStyleAgree()
    {
        // One declaration per row whose value differs from the initial one (companions
        // where the property alone changes nothing). A new row without a sample fails.
        static const QHash<QString, QString> samples = [] {
            QHash<QString, QString> m;
            auto add = [&m](const char *names, const char *value) {
                for (const QString &n : QString::fromLatin1(names).split(QLatin1Char(' ')))
                    m.insert(n, QStringLiteral("{\"%1\": %2}").arg(n, QLatin1String(value)));
            };
            add("top right bottom left inset width height minWidth minHeight maxWidth maxHeight margin marginTop "
                "marginRight marginBottom marginLeft padding paddingTop paddingRight paddingBottom paddingLeft gap "
                "rowGap columnGap gridGap flexBasis borderRadius borderTopLeftRadius borderTopRightRadius "
                "borderBottomRightRadius borderBottomLeftRadius fontSize letterSpacing wordSpacing",
                "5");
            add("border borderTop borderRight borderBottom borderLeft", "\"1px solid\"");
            add("borderStyle borderTopStyle borderRightStyle borderBottomStyle borderLeftStyle", "\"solid\"");
            add("borderColor borderTopColor borderRightColor borderBottomColor borderLeftColor backgroundColor "
                "background color",
                "\"red\"");
            add("overflow overflowX overflowY", "\"hidden\"");
            add("justifyContent alignItems alignSelf alignContent textAlign", "\"center\"");
            add("lineClamp WebkitLineClamp flexGrow aspectRatio lineHeight", "2");
            add("boxShadow textShadow", "\"1px 1px red\"");
            add("transformOrigin objectPosition", "\"left top\"");
            add("textDecoration textDecorationLine", "\"underline\"");
            add("overflowWrap wordWrap", "\"anywhere\"");
            add("display", "\"block\"");
            add("gridTemplateColumns gridTemplateRows gridAutoColumns gridAutoRows", "\"10px\"");
            add("gridTemplateAreas", "\"'a'\"");
            add("gridAutoFlow", "\"column\"");
            add("gridColumnStart gridColumnEnd gridRowStart gridRowEnd gridColumn gridRow gridArea gridRowGap "
                "gridColumnGap",
                "2");
            add("justifyItems justifySelf placeItems placeSelf placeContent", "\"center\"");
            add("position", "\"absolute\"");
            add("zIndex", "3");
            add("boxSizing", "\"border-box\"");
            add("flexDirection flexFlow", "\"column\"");
            add("flexWrap", "\"wrap\"");
            add("flex", "\"1\"");
            add("flexShrink", "0");
            add("backgroundImage", "\"linear-gradient(red, blue)\"");
            add("opacity", "0.5");
            add("transform", "\"rotate(10deg)\"");
            add("objectFit", "\"cover\"");
            add("textOverflow", "\"ellipsis\"");
            add("textWrap textWrapStyle textWrapMode", "\"balance\"");
            add("fontFamily", "\"Serif\"");
            add("fontWeight", "700");
            add("fontStyle", "\"italic\"");
            add("textTransform", "\"uppercase\"");
            add("whiteSpace", "\"nowrap\"");
            add("wordBreak", "\"break-all\"");
            add("direction", "\"rtl\"");
            add("filter WebkitFilter backdropFilter WebkitBackdropFilter", "\"blur(2px)\"");
            add("clipPath WebkitClipPath", "\"circle(50%)\"");
            add("maskImage WebkitMaskImage", "\"linear-gradient(black, transparent)\"");
            add("mixBlendMode", "\"multiply\"");
            add("backgroundClip WebkitBackgroundClip", "\"text\"");
            const QString image = QStringLiteral("\"backgroundImage\": \"linear-gradient(red, blue)\"");
            m.insert(QStringLiteral("backgroundSize"),
                     QStringLiteral("{%1, \"backgroundSize\": \"cover\"}").arg(image));
            m.insert(QStringLiteral("backgroundPosition"),
                     QStringLiteral("{%1, \"backgroundPosition\": \"center\"}").arg(image));
            m.insert(QStringLiteral("backgroundRepeat"),
                     QStringLiteral("{%1, \"backgroundRepeat\": \"no-repeat\"}").arg(image));
            const QString solid = QStringLiteral("\"borderStyle\": \"solid\"");
            for (const char *w :
                 {"borderWidth", "borderTopWidth", "borderRightWidth", "borderBottomWidth", "borderLeftWidth"})
                m.insert(QLatin1String(w), QStringLiteral("{%1, \"%2\": 2}").arg(solid, QLatin1String(w)));
            const QString line = QStringLiteral("\"textDecorationLine\": \"underline\"");
            m.insert(QStringLiteral("textDecorationColor"),
                     QStringLiteral("{%1, \"textDecorationColor\": \"red\"}").arg(line));
            m.insert(QStringLiteral("textDecorationStyle"),
                     QStringLiteral("{%1, \"textDecorationStyle\": \"dashed\"}").arg(line));
            m.insert(QStringLiteral("textDecorationThickness"),
                     QStringLiteral("{%1, \"textDecorationThickness\": 3}").arg(line));
            add("textIndent", "12");
            // Flow-relative properties (CSS Logical Properties 1).
            for (const char *group : {"margin", "padding", "inset"})
                for (const char *side : {"InlineStart", "InlineEnd", "BlockStart", "BlockEnd", "Inline", "Block"})
                    add(qPrintable(QLatin1String(group) + QLatin1String(side)), "7");
            for (const char *side : {"InlineStart", "InlineEnd", "BlockStart", "BlockEnd", "Inline", "Block"}) {
                const QString b = QLatin1String("border") + QLatin1String(side);
                m.insert(b + QLatin1String("Width"), QStringLiteral("{%1, \"%2Width\": 2}").arg(solid, b));
                add(qPrintable(b + QLatin1String("Style")), "\"dashed\"");
                add(qPrintable(b + QLatin1String("Color")), "\"red\"");
                add(qPrintable(b), "\"2px solid red\"");
            }
            add("verticalAlign", "\"middle\"");
            add("WebkitTextStroke WebkitTextStrokeWidth", "\"2px\"");
            add("WebkitTextStrokeColor", "\"red\"");
            add("outline", "\"2px solid red\"");
            add("outlineWidth", "\"thick\"");
            add("outlineStyle", "\"dotted\"");
            add("outlineColor", "\"red\"");
            add("outlineOffset", "4");
            add("translate", "\"5px\"");
            add("rotate", "\"5deg\"");
            add("scale", "\"2\"");
            add("fontVariantNumeric", "\"tabular-nums\"");
            add("fontVariantCaps", "\"small-caps\"");
            add("fontKerning", "\"none\"");
            add("fontVariant", "\"all-small-caps slashed-zero\"");
            add("fontFeatureSettings", "\"\\\"smcp\\\"\"");
            return m;
        }();
        const QSet<QString> noEffect = {QStringLiteral("WebkitBoxOrient"), QStringLiteral("boxOrient")};
        auto inherited = [](const ComputedStyle &s) -> const InheritedStyle & { return s; };
        auto box = [](const ComputedStyle &s) -> const BoxStyle & { return s; };
        auto paint = [](const ComputedStyle &s) -> const PaintStyle & { return s; };
        for (const CssProperty &p : cssProperties()) {
            const QString name(p.name);
            if (noEffect.contains(name))
                continue;
            QVERIFY2(samples.contains(name), qPrintable(name + QLatin1String(" has no sample")));
            const QJsonObject decl = QJsonDocument::fromJson(samples.value(name).toUtf8()).object();
            QJsonObject without = decl;
            without.remove(name);
            QStringList warnings;
            const ComputedStyle parent
                = computeStyle(decl, nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), &warnings);
            const ComputedStyle base
                = computeStyle(without, nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), &warnings);
            QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('\n'))));
            // The row's flag says where its field is.
            const bool inInherited = !(inherited(parent) == inherited(base));
            QVERIFY2(inInherited == p.inherited, qPrintable(name));
            if (!p.inherited)
                QVERIFY2(!(box(parent) == box(base)) || !(paint(parent) == paint(base)), qPrintable(name));

            // A child element and a text run take the whole inherited part, nothing else.
            const ComputedStyle child
                = computeStyle({}, &parent, QStringLiteral("div"), 16, QStringLiteral("s"), nullptr);
            QVERIFY2(inherited(child) == inherited(parent), qPrintable(name));
            ComputedStyle expected;
            expected.borderColor.fill(child.color); // currentColor, the inherited colour
            QVERIFY2(box(child) == box(expected), qPrintable(name));
            QVERIFY2(paint(child) == paint(expected), qPrintable(name));
            const ComputedStyle run = inheritedStyle(parent);
            QVERIFY2(inherited(run) == inherited(parent), qPrintable(name));
            ComputedStyle expectedRun;
            expectedRun.overflow = parent.overflow; // the documented exceptions
            expectedRun.lineClamp = parent.lineClamp;
            expectedRun.textOverflow = parent.textOverflow;
            QVERIFY2(box(run) == box(expectedRun), qPrintable(name));
            QVERIFY2(paint(run) == paint(expectedRun), qPrintable(name));
        }
    }

    void hostileValuesNeverCrash()
    {
        // Every property against malformed, unbalanced and out-of-range values: each is
        // either taken or warned about, and nothing non-finite reaches the style.
        const QStringList properties = {QStringLiteral("display"),
                                        QStringLiteral("position"),
                                        QStringLiteral("width"),
                                        QStringLiteral("maxHeight"),
                                        QStringLiteral("margin"),
                                        QStringLiteral("padding"),
                                        QStringLiteral("inset"),
                                        QStringLiteral("top"),
                                        QStringLiteral("border"),
                                        QStringLiteral("borderLeft"),
                                        QStringLiteral("borderWidth"),
                                        QStringLiteral("borderColor"),
                                        QStringLiteral("borderStyle"),
                                        QStringLiteral("flex"),
                                        QStringLiteral("flexFlow"),
                                        QStringLiteral("flexBasis"),
                                        QStringLiteral("flexGrow"),
                                        QStringLiteral("gap"),
                                        QStringLiteral("justifyContent"),
                                        QStringLiteral("alignItems"),
                                        QStringLiteral("overflow"),
                                        QStringLiteral("aspectRatio"),
                                        QStringLiteral("background"),
                                        QStringLiteral("backgroundImage"),
                                        QStringLiteral("backgroundSize"),
                                        QStringLiteral("backgroundPosition"),
                                        QStringLiteral("backgroundRepeat"),
                                        QStringLiteral("borderRadius"),
                                        QStringLiteral("borderTopLeftRadius"),
                                        QStringLiteral("boxShadow"),
                                        QStringLiteral("textShadow"),
                                        QStringLiteral("opacity"),
                                        QStringLiteral("transform"),
                                        QStringLiteral("transformOrigin"),
                                        QStringLiteral("objectFit"),
                                        QStringLiteral("objectPosition"),
                                        QStringLiteral("color"),
                                        QStringLiteral("fontFamily"),
                                        QStringLiteral("fontSize"),
                                        QStringLiteral("fontWeight"),
                                        QStringLiteral("lineHeight"),
                                        QStringLiteral("letterSpacing"),
                                        QStringLiteral("textAlign"),
                                        QStringLiteral("textDecoration"),
                                        QStringLiteral("lineClamp"),
                                        QStringLiteral("whiteSpace")};
        const QStringList values = {QString(),
                                    QStringLiteral(" "),
                                    QStringLiteral("("),
                                    QStringLiteral(")"),
                                    QStringLiteral("(((("),
                                    QStringLiteral("/"),
                                    QStringLiteral(","),
                                    QStringLiteral(",,"),
                                    QStringLiteral("1/"),
                                    QStringLiteral("-"),
                                    QStringLiteral("#"),
                                    QStringLiteral("url("),
                                    QStringLiteral("url()"),
                                    QStringLiteral("linear-gradient("),
                                    QStringLiteral("linear-gradient()"),
                                    QStringLiteral("linear-gradient(red)"),
                                    QStringLiteral("radial-gradient(at)"),
                                    QStringLiteral("radial-gradient(circle 10% at, red)"),
                                    QStringLiteral("rgb("),
                                    QStringLiteral("rgb()"),
                                    QStringLiteral("hsl(1,2,3,4,5)"),
                                    QStringLiteral("1e999px"),
                                    QStringLiteral("1e30px"),
                                    QStringLiteral("-1e30"),
                                    QStringLiteral("NaN"),
                                    QStringLiteral("inf"),
                                    QStringLiteral("1px 2px 3px 4px 5px 6px"),
                                    QStringLiteral("to top top"),
                                    QStringLiteral("calc(1px + 2px)"),
                                    QStringLiteral("var(--x)"),
                                    QStringLiteral("\"unterminated"),
                                    QStringLiteral("'"),
                                    QStringLiteral("{{x}}"),
                                    QStringLiteral("translate(,)"),
                                    QStringLiteral("matrix(1,2,3)"),
                                    QStringLiteral("0 0 0 0 0 red inset inset"),
                                    QStringLiteral("99999999999"),
                                    QString(5000, QLatin1Char('('))};
        ComputedStyle parent = style("{\"fontSize\": 10}");
        int warned = 0;
        for (const QString &p : properties) {
            for (const QString &v : values) {
                QStringList warnings;
                ComputedStyle s = computeStyle(QJsonObject{{p, v}}, &parent, QStringLiteral("div"), 16,
                                               QStringLiteral("s"), &warnings);
                warned += warnings.isEmpty() ? 0 : 1;
                for (float f : {s.width.value, s.maxHeight.value, s.margin[Top].value, s.padding[Left].value,
                                s.inset[Top].value, s.borderWidth[Left], s.flexGrow, s.flexBasis.value, s.rowGap.value,
                                s.aspectRatio, s.borderRadius[0].x.value, s.opacity, s.fontSize, s.letterSpacing,
                                s.lineHeight.value, s.transformOriginX.value})
                    QVERIFY2(std::isfinite(f), qPrintable(p + QLatin1String(": ") + v.left(40)));
                QVERIFY(s.fontSize <= 8192);
            }
        }
        QVERIFY(warned > properties.size() * values.size() * 9 / 10);
    }

    void intrinsicSizeKeywords()
    {
        // CSS Sizing 3 §3.2: every sizing property and flex-basis take the keywords,
        // in any case and with Chromium's -webkit- prefix.
        QStringList warnings;
        ComputedStyle s = style("{\"width\": \"fit-content\", \"height\": \"MAX-CONTENT\", \"minWidth\": "
                                "\"min-content\", \"maxWidth\": \"-webkit-max-content\", \"minHeight\": "
                                "\"-webkit-fit-content\", \"maxHeight\": \"min-content\", \"flexBasis\": \"content\"}",
                                nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('\n'))));
        QCOMPARE(s.width, Length::fitContent());
        QCOMPARE(s.height, Length::maxContent());
        QCOMPARE(s.minWidth, Length::minContent());
        QCOMPARE(s.maxWidth, Length::maxContent());
        QCOMPARE(s.minHeight, Length::fitContent());
        QCOMPARE(s.maxHeight, Length::minContent());
        QCOMPARE(s.flexBasis, Length::content());
        QCOMPARE(style("{\"flexBasis\": \"min-content\"}").flexBasis, Length::minContent());
        // The fit-content() function and made-up keywords stay invalid, with the warning.
        warnings.clear();
        s = style("{\"width\": \"fit-content(100px)\", \"maxWidth\": \"mid-content\", \"flexBasis\": "
                  "\"-webkit-content\"}",
                  nullptr, &warnings);
        QCOMPARE(s.width, Length::autoLength());
        QCOMPARE(s.maxWidth, Length::none());
        QCOMPARE(s.flexBasis, Length::autoLength());
        QCOMPARE(warnings.size(), 3);
        QVERIFY2(warnings.contains(QStringLiteral("root.props.style.width: invalid length \"fit-content(100px)\"")),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
    }

    void invalidValuesWarnAndKeepDefaults()
    {
        QStringList warnings;
        ComputedStyle s = style(
            "{\"width\": \"abc\", \"color\": \"nope\", \"padding\": \"1px 2px 3px 4px 5px\",\n"
            "                                    \"flex\": \"a b c\", \"transform\": \"spin(3deg)\", \"boxShadow\": "
            "\"1px\",\n"
            "                                    \"backgroundImage\": \"linear-gradient(to nowhere, red, blue)\",\n"
            "                                    \"borderRadius\": \"-3px\", \"opacity\": \"x\", \"fontSize\": -3,\n"
            "                                    \"display\": \"table\", \"unknownProperty\": 1, \"margin\": true,\n"
            "                                    \"height\": \"12px\"}",
            nullptr, &warnings);
        QCOMPARE(s.width, Length::autoLength());
        QCOMPARE(s.color, QColor(Qt::black));
        QCOMPARE(s.padding[Top], Length::px(0));
        QCOMPARE(s.fontSize, 16.f);
        QCOMPARE(s.display, imprint::render::Display::Flex); // table falls back to flex, with a warning
        QCOMPARE(s.height, Length::px(12)); // valid neighbours still apply
        QCOMPARE(warnings.size(), 13);
        QVERIFY2(warnings.contains(QStringLiteral("root.props.style.width: invalid length \"abc\"")),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
        for (const QString &w : warnings)
            QVERIFY2(w.startsWith(QLatin1String("root.props.style.")), qPrintable(w));
    }

    // --- calc() (CSS Values 4 §10) ---------------------------------------------------

    void calcLengths_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<float>("percent"); // -1: a px length
        QTest::addColumn<float>("px");
        QTest::newRow("px sum") << "calc(10px + 2em)" << -1.f << 50.f; // em = 20 px here
        QTest::newRow("percent minus px") << "calc(100% - 40px)" << 100.f << -40.f;
        QTest::newRow("nested parentheses") << "calc((100% - 2 * 10px) / 2)" << 50.f << -10.f;
        QTest::newRow("nested calc and rem") << "calc(calc(1rem * 3) - 8px)" << -1.f << 40.f;
        QTest::newRow("number times length") << "calc(3 * (2px + 1px))" << -1.f << 9.f;
        QTest::newRow("percent cancels") << "calc(50% + 10px - 50%)" << -1.f << 10.f;
        QTest::newRow("min") << "min(120px, 2em)" << -1.f << 40.f;
        QTest::newRow("clamp") << "clamp(10px, 5px * 10, 30px)" << -1.f << 30.f;
    }

    void calcLengths()
    {
        QFETCH(QString, text);
        QFETCH(float, percent);
        QFETCH(float, px);
        QStringList warnings;
        const QByteArray json = QStringLiteral("{\"fontSize\": 20, \"width\": \"%1\"}").arg(text).toUtf8();
        const ComputedStyle s = style(json.constData(), nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        if (percent < 0) {
            QCOMPARE(s.width, Length::px(px));
        } else {
            QVERIFY(s.width.isPercent());
            QCOMPARE(s.width.value, percent);
            QCOMPARE(s.width.offset, px);
            // Resolved against the basis layout gives it: 100% - 40px of 500 px is 460 px.
            QCOMPARE(s.width.resolve(500), 500 * percent / 100 + px);
        }
    }

    void invalidCalcIsAWarning_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("length times length") << "calc(10px * 2px)";
        QTest::newRow("division by zero") << "calc(10px / 0)";
        QTest::newRow("division by a length") << "calc(10px / 2px)";
        QTest::newRow("number plus length") << "calc(1 + 2px)";
        QTest::newRow("unknown unit") << "calc(3furlongs)";
        QTest::newRow("unbalanced") << "calc((10px + 2px)";
        QTest::newRow("trailing junk") << "calc(10px) 3px";
        QTest::newRow("percent in min") << "min(50%, 10px)";
        QTest::newRow("too deep") << QString(QStringLiteral("calc(")).repeated(40) + QStringLiteral("1px")
                                         + QString(QStringLiteral(")")).repeated(40);
    }

    void invalidCalcIsAWarning()
    {
        QFETCH(QString, text);
        QStringList warnings;
        const QJsonObject decl{{QStringLiteral("width"), text}};
        const ComputedStyle s = computeStyle(decl, nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), &warnings);
        QVERIFY(s.width.isAuto());
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.first().startsWith(QLatin1String("s.width: invalid length")), qPrintable(warnings.first()));
    }

    void calcInShorthandsAndPaddingUsesItsBasis()
    {
        const ComputedStyle s = style("{\"padding\": \"calc(1em + 2px) calc(10% - 4px)\", \"fontSize\": 10}");
        QCOMPARE(s.padding[Top], Length::px(12));
        QVERIFY(s.padding[Right].isPercent());
        QCOMPARE(s.padding[Right].resolve(200), 16.f);
        QCOMPARE(s.padding[Left].resolve(200), 16.f);
    }

    // --- custom properties and var() (CSS Variables 1) ------------------------------

    void varSubstitutesBeforeParsing()
    {
        QStringList warnings;
        const ComputedStyle s
            = style("{\"--accent\": \"#6366f1\", \"--gap\": 12, \"--pad\": \"calc(var(--gap) * 2)\",\n"
                    " \"color\": \"var(--accent)\", \"padding\": \"var(--pad) var(--gap)\",\n"
                    " \"border\": \"2px solid var(--accent)\"}",
                    nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QCOMPARE(s.color, QColor("#6366f1"));
        QCOMPARE(s.padding[Top], Length::px(24));
        QCOMPARE(s.padding[Left], Length::px(12));
        QCOMPARE(s.borderColor[Top], QColor("#6366f1"));
        QCOMPARE(s.customProperties.value(QStringLiteral("--pad")), QStringLiteral("calc(12 * 2)"));
    }

    void customPropertiesInheritAndChildrenOverride()
    {
        const ComputedStyle root = style("{\"--brand\": \"red\", \"--size\": \"20px\"}");
        // A custom property that reads itself is a cycle (§2.3): --size and --double here
        // are both invalid, and the fallback applies.
        const ComputedStyle child = style("{\"--double\": \"calc(var(--size) * 2)\", \"--size\": \"var(--double)\",\n"
                                          " \"backgroundColor\": \"var(--brand)\", \"width\": \"var(--size, 7px)\"}",
                                          &root);
        QCOMPARE(child.backgroundColor, QColor(Qt::red));
        QCOMPARE(child.width, Length::px(7));
        const ComputedStyle sized
            = style("{\"--double\": \"calc(var(--size) * 2)\", \"width\": \"var(--double)\"}", &root);
        QCOMPARE(sized.width, Length::px(40)); // the inherited --size is the one var() reads
        const ComputedStyle grandchild = style("{\"height\": \"var(--double)\"}", &sized);
        QCOMPARE(grandchild.height, Length::px(40));
        QCOMPARE(style("{\"height\": \"var(--size)\"}", &root).height, Length::px(20));
    }

    void varFallbacksNest()
    {
        QStringList warnings;
        const ComputedStyle s = style("{\"--b\": \"blue\", \"color\": \"var(--a, var(--missing, var(--b)))\",\n"
                                      " \"backgroundColor\": \"var(--none, rgb(1, 2, 3))\"}",
                                      nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QCOMPARE(s.color, QColor(Qt::blue));
        QCOMPARE(s.backgroundColor, QColor(1, 2, 3));
    }

    void undefinedVarKeepsTheInheritedOrInitialValue()
    {
        const ComputedStyle parent = style("{\"color\": \"green\"}");
        QStringList warnings;
        const ComputedStyle s = style("{\"color\": \"var(--nope)\", \"width\": \"var(--nope)\"}", &parent, &warnings);
        QCOMPARE(s.color, QColor(0, 128, 0)); // inherited property: the parent's value
        QVERIFY(s.width.isAuto()); // the initial value
        QCOMPARE(warnings.size(), 2);
        QVERIFY2(warnings.first().contains(QLatin1String("--nope is not defined")), qPrintable(warnings.first()));
    }

    void varCyclesAreInvalidAtComputedValueTime()
    {
        QStringList warnings;
        const ComputedStyle s = style("{\"--a\": \"var(--b)\", \"--b\": \"var(--a)\", \"--c\": \"var(--c)\",\n"
                                      " \"--d\": \"8px\", \"width\": \"var(--a, 10px)\", \"height\": \"var(--d)\"}",
                                      nullptr, &warnings);
        QVERIFY(!s.customProperties.contains(QStringLiteral("--a")));
        QVERIFY(!s.customProperties.contains(QStringLiteral("--b")));
        QVERIFY(!s.customProperties.contains(QStringLiteral("--c")));
        QCOMPARE(s.width, Length::px(10)); // the guaranteed-invalid value takes the fallback
        QCOMPARE(s.height, Length::px(8));
        QVERIFY2(warnings.join(u'\n').contains(QLatin1String("cycle")), qPrintable(warnings.join(u'\n')));
    }

    void varExpansionBombIsCapped()
    {
        // Each level doubles the value: 2^40 characters if nothing stopped it.
        QJsonObject decl{{QStringLiteral("--v0"), QStringLiteral("xxxxxxxxxxxxxxxx")}};
        for (int i = 1; i <= 40; ++i)
            decl.insert(QStringLiteral("--v%1").arg(i), QStringLiteral("var(--v%1) var(--v%1)").arg(i - 1));
        decl.insert(QStringLiteral("width"), QStringLiteral("var(--v40, 33px)"));
        QStringList warnings;
        QElapsedTimer timer;
        timer.start();
        const ComputedStyle s = computeStyle(decl, nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), &warnings);
        QVERIFY(timer.elapsed() < 2000);
        QCOMPARE(s.width, Length::px(33));
        for (const QString &v : s.customProperties)
            QVERIFY(v.size() <= 16384);
        QVERIFY2(warnings.join(u'\n').contains(QLatin1String("longer than")), qPrintable(warnings.join(u'\n')));
    }

    // --- effect properties -------------------------------------------------------------

    void filterLists()
    {
        QStringList warnings;
        const ComputedStyle s
            = style("{\"filter\": \"blur(4px) brightness(120%) grayscale(2) hue-rotate(0.5turn)\n"
                    " drop-shadow(2px 3px 4px red)\", \"backdropFilter\": \"blur(10px) saturate(1.5)\"}",
                    nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        const auto &f = s.effects.filter;
        QCOMPARE(f.size(), size_t(5));
        QCOMPARE(f[0].kind, FilterOp::Kind::Blur);
        QCOMPARE(f[0].amount, 4.f);
        QCOMPARE(f[1].amount, 1.2f);
        QCOMPARE(f[2].amount, 1.f); // grayscale clamps at 100%
        QCOMPARE(f[3].amount, 180.f);
        QCOMPARE(f[4].shadow.color, QColor(Qt::red));
        QCOMPARE(f[4].shadow.blur, 4.f);
        QCOMPARE(s.effects.backdropFilter.size(), size_t(2));
        style("{\"filter\": \"blur(-1px)\", \"mixBlendMode\": \"sideways\", \"filter2\": 1}", nullptr, &warnings);
        QCOMPARE(warnings.size(), 3);
        QVERIFY2(warnings.join(u'\n').contains(QLatin1String("filter2: unsupported property")),
                 qPrintable(warnings.join(u'\n')));
    }

    void clipPathShapes()
    {
        const ComputedStyle circle = style("{\"clipPath\": \"circle(40% at right 10px)\"}");
        QVERIFY(circle.effects.clipPath);
        QCOMPARE(circle.effects.clipPath->kind, ClipShape::Kind::Circle);
        QCOMPARE(circle.effects.clipPath->radiusX, Length::percent(40));
        QCOMPARE(circle.effects.clipPath->centerX, Length::percent(100));
        const ComputedStyle inset = style("{\"clipPath\": \"inset(10px 20% round 8px)\"}");
        QCOMPARE(inset.effects.clipPath->inset[Right], Length::percent(20));
        QCOMPARE(inset.effects.clipPath->radii[2].x, Length::px(8));
        const ComputedStyle poly = style("{\"clipPath\": \"polygon(evenodd, 0 0, 100% 0, 50% 100%)\"}");
        QCOMPARE(poly.effects.clipPath->points.size(), size_t(3));
        QVERIFY(poly.effects.clipPath->evenOdd);
        const ComputedStyle path = style("{\"clipPath\": \"path('M0 0 L10 0 L5 10 Z')\"}");
        QCOMPARE(path.effects.clipPath->path, QStringLiteral("M0 0 L10 0 L5 10 Z"));
        QStringList warnings;
        style("{\"clipPath\": \"path('M0 0\\\"/><script>')\"}", nullptr, &warnings);
        QCOMPARE(warnings.size(), 1); // markup cannot ride in path data
    }

    void conicGradientsAndBackgroundClipText()
    {
        QStringList warnings;
        const ComputedStyle s
            = style("{\"backgroundImage\": \"conic-gradient(from 90deg at 25% 75%, red 0 25%, blue 90deg)\",\n"
                    " \"WebkitBackgroundClip\": \"text\", \"maskImage\": \"linear-gradient(black, transparent)\"}",
                    nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        const Gradient &g = *s.backgroundLayers.at(0).gradient;
        QCOMPARE(g.kind, Gradient::Kind::Conic);
        QCOMPARE(g.angleDeg, 90.f);
        QCOMPARE(g.centerX, Length::percent(25));
        QCOMPARE(g.stops.size(), size_t(3));
        QCOMPARE(*g.stops[2].position, 0.25f); // 90deg is a quarter turn
        QVERIFY(s.effects.backgroundClipText);
        QCOMPARE(s.effects.maskImage.size(), size_t(1));
        QVERIFY(style("{\"background\": \"linear-gradient(red, blue) text\"}").effects.backgroundClipText);
        QVERIFY(style("{\"backgroundImage\": \"repeating-conic-gradient(red 0 10deg, blue 10deg 20deg)\"}")
                    .backgroundLayers.at(0)
                    .gradient->repeating);
    }
};

QTEST_GUILESS_MAIN(TstStyle)
#include "tst_style.moc"
