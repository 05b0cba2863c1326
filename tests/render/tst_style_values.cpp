// Style parsing of value forms shared by every property: colours, lengths and their
// units, viewport units, calc() (CSS Values 4 §10), intrinsic size keywords.
// Every value form a template can write reaches ComputedStyle as the browser would
// compute it, and bad values become warnings, never crashes (split of tst_style by
// property group; helpers in style_test_support.h).

#include "tests/render/style_test_support.h"

class TstStyleValues : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void colors()
    {
        QFETCH(QString, text);
        QFETCH(QColor, expected);
        auto c = parseColor(text, rgba(1, 2, 3));
        QVERIFY2(c.has_value(), qPrintable(text));
        QVERIFY2(sameColor(*c, expected),
                 qPrintable(c->name(QColor::HexArgb) + QLatin1String(" vs ") + expected.name(QColor::HexArgb)));
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
        // Relative colours keeping their channels, alpha replaced (Tailwind's shadow-lg/50).
        QTest::newRow("relative oklab, new alpha") << "oklab(from rgb(0 0 0 / 0.1) l a b / 50%)" << rgba(0, 0, 0, 128);
        QTest::newRow("relative rgb, alpha kept") << "rgb(from #336699 r g b)" << rgba(0x33, 0x66, 0x99);
        QTest::newRow("relative oklch, number alpha") << "oklch(from red l c h / 0.25)" << rgba(255, 0, 0, 64);
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
              "color-mix(in srgb, red 120%, blue)", "color-mix(in srgb longer hue, red, blue)",
              "oklab(from red l a)", "oklab(from red calc(l * 0.5) a b)", "rgb(from nocolor r g b)"})
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

    void misspeltKeywordsNameTheNearest()
    {
        // A keyword that names none of the property's gets the nearest one in its warning
        // (computed only when warned: a handler tries keywords before other forms). A
        // value that another form accepts warns nothing.
        QStringList warnings;
        const ComputedStyle s = style("{\"alignItems\": \" Centre \", \"flexDirection\": \"colum\", "
                                      "\"width\": \"40px\", \"display\": \"flex\"}",
                                      nullptr, &warnings);
        QCOMPARE(s.width, Length::px(40));
        QCOMPARE(warnings.size(), 2);
        QVERIFY2(warnings.filter(QStringLiteral("alignItems")).value(0).endsWith(QStringLiteral("did you mean 'center'?")),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
        QVERIFY2(warnings.filter(QStringLiteral("flexDirection")).value(0).endsWith(QStringLiteral("did you mean 'column'?")),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
    }

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
};

QTEST_GUILESS_MAIN(TstStyleValues)
#include "tst_style_values.moc"
