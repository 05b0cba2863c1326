// Style parsing of the box properties: z-index, outline, margin/padding/inset edge
// shorthands, flex, borders and radii, the other box properties.
// Every value form a template can write reaches ComputedStyle as the browser would
// compute it, and bad values become warnings, never crashes (split of tst_style by
// property group; helpers in style_test_support.h).

#include "tests/render/style_test_support.h"

class TstStyleBox : public QObject
{
    Q_OBJECT

private Q_SLOTS:
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
             {"{\"outline\": \"2px 3px\"}", "{\"outlineOffset\": \"10%\"}", "{\"outlineStyle\": \"wavy\"}"})
            QVERIFY2(warningsOf(bad).size() == 1, bad);
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

    // A style object has no declaration order: a physical side wins over a flow-relative
    // property that sets it too, as in Tailwind's CSS (`px-10 pl-0`: padding-left comes
    // after padding-inline), and `direction` is known before the flow-relative ones map.
    void physicalSidesWinOverFlowRelativeOnes()
    {
        const ComputedStyle a = style("{\"paddingInline\": 40, \"paddingLeft\": 0, \"marginBlock\": 8, \"marginTop\": 2}");
        QCOMPARE(a.padding[Left], Length::px(0));
        QCOMPARE(a.padding[Right], Length::px(40));
        QCOMPARE(a.margin[Top], Length::px(2));
        QCOMPARE(a.margin[Bottom], Length::px(8));
        const ComputedStyle b = style("{\"direction\": \"rtl\", \"paddingInlineStart\": 10, \"paddingLeft\": 3}");
        QCOMPARE(b.padding[Right], Length::px(10));
        QCOMPARE(b.padding[Left], Length::px(3));
    }

    // CSS Logical Properties 1 §2: the inline size is the width and the block size the
    // height in horizontal writing, in either direction; the physical one wins.
    void logicalSizesAreWidthAndHeight()
    {
        const ComputedStyle a = style(R"({"inlineSize": 120, "blockSize": "50%", "minInlineSize": 10,
                                          "maxBlockSize": 300, "direction": "rtl"})");
        QCOMPARE(a.width, Length::px(120));
        QCOMPARE(a.height, Length::percent(50));
        QCOMPARE(a.minWidth, Length::px(10));
        QCOMPARE(a.maxHeight, Length::px(300));
        const ComputedStyle b = style(R"({"inlineSize": 120, "width": 80, "maxInlineSize": 90, "maxWidth": 70})");
        QCOMPARE(b.width, Length::px(80));
        QCOMPARE(b.maxWidth, Length::px(70));
    }

    // §4.6: border-{block}-{inline}-radius; the inline start is the right edge in rtl
    // (Tailwind's rounded-s-lg: start-start and end-start).
    void logicalCornersFollowTheDirection()
    {
        const char *corners = R"("borderStartStartRadius": 1, "borderStartEndRadius": 2, "borderEndStartRadius": 3,
                                 "borderEndEndRadius": 4)";
        const ComputedStyle ltr = style(QStringLiteral("{%1}").arg(QLatin1String(corners)).toUtf8().constData());
        const ComputedStyle rtl
            = style(QStringLiteral(R"({"direction": "rtl", %1})").arg(QLatin1String(corners)).toUtf8().constData());
        // top-left, top-right, bottom-right, bottom-left
        const std::array<float, 4> ltrExpected{1, 2, 4, 3}, rtlExpected{2, 1, 3, 4};
        for (int corner = 0; corner < 4; ++corner) {
            QCOMPARE(ltr.borderRadius[size_t(corner)].x, Length::px(ltrExpected[size_t(corner)]));
            QCOMPARE(rtl.borderRadius[size_t(corner)].y, Length::px(rtlExpected[size_t(corner)]));
        }
        QCOMPARE(style(R"({"borderStartStartRadius": 9, "borderTopLeftRadius": 5})").borderRadius[0].x, Length::px(5));
    }

    // CSS Values 4 §snap-a-length-as-a-border-width, as Chromium computes them: a width
    // under a pixel is one, a wider one drops its fraction (a card's 0.6vmin rule at 1080
    // px is 6 px, which moves what follows it).
    void borderAndOutlineWidthsSnapToWholePixels()
    {
        const ComputedStyle s = style("{\"borderTop\": \"6.48px solid red\", \"borderRight\": \"0.5px solid red\","
                                      " \"borderBottom\": \"2px solid red\", \"borderLeft\": \"0.25em solid red\","
                                      " \"outline\": \"2.7px solid blue\"}");
        QCOMPARE(s.borderWidth[Top], 6.f);
        QCOMPARE(s.borderWidth[Right], 1.f);
        QCOMPARE(s.borderWidth[Bottom], 2.f);
        QCOMPARE(s.borderWidth[Left], 4.f); // 0.25em of 16 px
        QCOMPARE(s.outlineWidth, 2.f);
        QCOMPARE(style("{\"borderWidth\": \"0.5px\", \"borderStyle\": \"none\"}").borderWidth[Top], 0.f);
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
};

QTEST_GUILESS_MAIN(TstStyleBox)
#include "tst_style_box.moc"
