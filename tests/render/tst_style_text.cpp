// Style parsing of the font and text properties: font features and variants, text
// decoration, indent and stroke, vertical-align, the other text properties.
// Every value form a template can write reaches ComputedStyle as the browser would
// compute it, and bad values become warnings, never crashes (split of tst_style by
// property group; helpers in style_test_support.h).

#include "tests/render/style_test_support.h"

class TstStyleText : public QObject
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

    void fontFeaturesDoNotWarnWhenParsed()
    {
        // Every feature is applied now (text/feature_faces.h); one the face lacks warns at
        // render time, naming the face (tst_font_features).
        QStringList warnings;
        const ComputedStyle s = styleOf({{QStringLiteral("fontFeatureSettings"),
                                          QStringLiteral("\"liga\" 0, \"dlig\", \"kern\" 0, \"liga\" 1, \"tnum\"")},
                                         {QStringLiteral("fontVariantNumeric"), QStringLiteral("diagonal-fractions")}},
                                        nullptr, &warnings);
        QCOMPARE(s.fontFeatureSettings.size(), size_t(4)); // liga (last wins), dlig, kern, tnum
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
    }

    void fontVariantLigaturesAndPosition()
    {
        // CSS Fonts 4 §6.4–6.5: the keywords, their features, and font-feature-settings
        // overriding them tag by tag.
        const ComputedStyle none = style("{\"fontVariantLigatures\": \"none\"}");
        QCOMPARE(none.fontVariantLigatures, kNoLigatures);
        const std::vector<FontFeature> off{
            {featureTag("calt"), 0}, {featureTag("clig"), 0}, {featureTag("dlig"), 0},
            {featureTag("hlig"), 0}, {featureTag("liga"), 0}};
        QCOMPARE(resolvedFontFeatures(0, {}, FontVariantCaps::Normal, FontKerning::Auto, none.fontVariantLigatures),
                 off);
        const ComputedStyle some = style(
            "{\"fontVariantLigatures\": \"no-common-ligatures discretionary-ligatures\", \"fontVariantPosition\": "
            "\"super\", \"fontFeatureSettings\": \"'liga'\"}");
        QCOMPARE(some.fontVariantLigatures, quint8(NoCommonLigatures | DiscretionaryLigatures));
        QCOMPARE(some.fontVariantPosition, FontVariantPosition::Super);
        const std::vector<FontFeature> expected{
            {featureTag("clig"), 0}, {featureTag("dlig"), 1}, {featureTag("liga"), 1}, {featureTag("sups"), 1}};
        QCOMPARE(resolvedFontFeatures(some.fontVariantNumeric, some.fontFeatureSettings, some.fontVariantCaps,
                                      some.fontKerning, some.fontVariantLigatures, some.fontVariantPosition),
                 expected);
        QCOMPARE(style("{}", &some).fontVariantLigatures, some.fontVariantLigatures); // inherited
        // The shorthand takes ligature and position keywords; none resets the rest.
        const ComputedStyle shorthand = style("{\"fontVariant\": \"historical-ligatures sub small-caps\"}");
        QCOMPARE(shorthand.fontVariantLigatures, quint8(HistoricalLigatures));
        QCOMPARE(shorthand.fontVariantPosition, FontVariantPosition::Sub);
        QCOMPARE(shorthand.fontVariantCaps, FontVariantCaps::SmallCaps);
        const ComputedStyle reset = style("{\"fontVariant\": \"none\"}", &shorthand);
        QCOMPARE(reset.fontVariantLigatures, kNoLigatures);
        QCOMPARE(reset.fontVariantCaps, FontVariantCaps::Normal);
        for (const char *bad : {"common-ligatures no-common-ligatures", "contextual contextual", "none contextual",
                                "ligatures"}) {
            QVERIFY2(!parseFontVariantLigatures(QString::fromLatin1(bad)), bad);
            const QByteArray decl
                = QStringLiteral("{\"fontVariantLigatures\": \"%1\"}").arg(QLatin1String(bad)).toUtf8();
            const QStringList w = warningsOf(decl.constData());
            QVERIFY2(!w.isEmpty() && w.front().contains(QLatin1String("fontVariantLigatures")), bad);
        }
        QVERIFY(!parseFontVariantPosition(u"superscript"));
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
        QCOMPARE(warnings.size(), 0); // the ligature keyword is font-variant-ligatures'
        QCOMPARE(style("{\"fontVariant\": \"small-caps wobbly\"}", nullptr, &warnings).fontVariantCaps,
                 FontVariantCaps::SmallCaps);
        QCOMPARE(warnings.size(), 1); // an unknown keyword warns
        for (const char *bad :
             {"{\"fontVariantCaps\": \"tiny-caps\"}", "{\"fontKerning\": \"off\"}", "{\"fontVariant\": \"wobbly\"}"})
            QVERIFY2(warningsOf(bad).size() == 1, bad);
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
        QCOMPARE(style("{\"textDecoration\": \"underline from-font\"}").textDecoration.thickness,
                 TextDecoration::kFromFontThickness);
    }

    // text-underline-offset (CSS Text Decoration 4 §3.5) is inherited, but an underline keeps
    // the value of the element that draws it (its decorating box), a percentage of that
    // element's 1em; any value but `auto` replaces the auto gap.
    void textUnderlineOffsetIsTheDecoratingBoxs()
    {
        ComputedStyle s = style("{\"fontSize\": 20, \"textDecoration\": \"underline\", \"textUnderlineOffset\": \"25%\"}");
        QCOMPARE(s.textDecoration.underlineOffset, 5.f);
        QVERIFY(!s.textDecoration.underlineOffsetAuto);
        s = style("{\"fontSize\": 20, \"textDecoration\": \"underline\", \"textUnderlineOffset\": \"0.5em\"}");
        QCOMPARE(s.textDecoration.underlineOffset, 10.f);
        QVERIFY(!s.textDecoration.underlineOffsetAuto);
        const ComputedStyle child = style("{\"textUnderlineOffset\": -3}", &s);
        QCOMPARE(child.textUnderlineOffset, Length::px(-3));
        QCOMPARE(child.textDecoration.underlineOffset, 10.f);
        QCOMPARE(style("{}", &child).textUnderlineOffset, Length::px(-3));
        QCOMPARE(style("{\"textUnderlineOffset\": \"auto\"}").textUnderlineOffset, Length::autoLength());
        QVERIFY(style("{\"textDecoration\": \"underline\"}").textDecoration.underlineOffsetAuto);
    }

    // text-decoration-skip-ink (CSS Text Decoration 4 §4.2): inherited, `auto` by default;
    // `all` is drawn as `auto`.
    void textDecorationSkipInkKeywords()
    {
        QCOMPARE(style("{}").textDecorationSkipInk, DecorationSkipInk::Auto);
        const ComputedStyle none = style("{\"textDecorationSkipInk\": \"none\"}");
        QCOMPARE(none.textDecorationSkipInk, DecorationSkipInk::None);
        QCOMPARE(style("{}", &none).textDecorationSkipInk, DecorationSkipInk::None);
        QCOMPARE(style("{\"textDecorationSkipInk\": \"all\"}", &none).textDecorationSkipInk, DecorationSkipInk::Auto);
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

    /// white-space is CSS Text 4's shorthand: besides the legacy keywords it takes a
    /// white-space-collapse and a text-wrap-mode in any order (magic-portfolio's template
    /// writes `wrap`, which warned and stayed nowrap under a nowrap parent).
    void whiteSpaceTakesItsLonghandValues_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("expected");
        QTest::newRow("wrap") << "wrap" << int(WhiteSpace::Normal);
        QTest::newRow("collapse") << "collapse" << int(WhiteSpace::Normal);
        QTest::newRow("preserve") << "preserve" << int(WhiteSpace::PreWrap);
        QTest::newRow("nowrap preserve") << "nowrap preserve" << int(WhiteSpace::Pre);
        QTest::newRow("preserve-breaks") << "preserve-breaks" << int(WhiteSpace::PreLine);
        QTest::newRow("collapse nowrap") << "collapse nowrap" << int(WhiteSpace::NoWrap);
        QTest::newRow("break-spaces") << "break-spaces" << int(WhiteSpace::PreWrap);
        QTest::newRow("pre-line") << "pre-line" << int(WhiteSpace::PreLine);
    }
    void whiteSpaceTakesItsLonghandValues()
    {
        QFETCH(QString, value);
        QFETCH(int, expected);
        ComputedStyle parent = style("{\"whiteSpace\": \"nowrap\"}");
        QStringList warnings;
        const QString json = QStringLiteral("{\"whiteSpace\": \"%1\"}").arg(value);
        QCOMPARE(int(style(json.toUtf8().constData(), &parent, &warnings).whiteSpace), expected);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        // The longhand keeps the wrap mode it finds; a value the shorthand does not know warns.
        QCOMPARE(style("{\"whiteSpace\": \"nowrap\", \"whiteSpaceCollapse\": \"preserve\"}").whiteSpace,
                 WhiteSpace::Pre);
        QStringList bad;
        QCOMPARE(style("{\"whiteSpace\": \"wrap wrap\"}", nullptr, &bad).whiteSpace, WhiteSpace::Normal);
        QCOMPARE(bad.size(), 1);
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
        // Chromium's -webkit-line-clamp takes a count alone: satori's custom ellipsis is
        // invalid there (its lines are drawn unclamped), so it is a warning here.
        QStringList clampWarnings;
        QCOMPARE(style("{\"display\": \"block\", \"lineClamp\": \"2 \\\"… more\\\"\"}", nullptr, &clampWarnings).lineClamp, 0);
        QCOMPARE(clampWarnings.size(), 1);
        QVERIFY2(clampWarnings.front().contains(QLatin1String("lineClamp")), qPrintable(clampWarnings.front()));
        // A clamped block clips (-webkit-box with overflow hidden) unless overflow is given.
        QCOMPARE(style("{\"display\": \"block\", \"lineClamp\": 2}").overflow, Overflow::Hidden);
        QCOMPARE(style("{\"display\": \"flex\", \"lineClamp\": 2}").overflow, Overflow::Visible);
        QCOMPARE(style("{\"display\": \"block\"}").overflow, Overflow::Visible);
        ComputedStyle parent = style("{\"fontWeight\": 400}");
        QCOMPARE(style("{\"fontWeight\": \"bolder\"}", &parent).fontWeight, 700);
        QCOMPARE(style("{\"fontWeight\": \"lighter\"}", &parent).fontWeight, 100);
        QCOMPARE(style("{\"fontWeight\": 650}").fontWeight, 650);
    }
};

QTEST_GUILESS_MAIN(TstStyleText)
#include "tst_style_text.moc"
