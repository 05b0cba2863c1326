// Flex layout tests: small trees built directly as Node structs (tests/support/
// layout_tree.h), boxes computed by hand from CSS Flexbox 1 §9 and CSS Box Alignment 3
// and asserted exactly.

#include "server/render/layout/alignment.h"
#include "server/render/layout/layout.h"
#include "tests/support/layout_tree.h"

#include <QTest>

#include <cmath>

using namespace imprint::render;
using namespace imprint::render::test;

class TestLayout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // CSS Box Alignment 3 §5.3: distribution and its fallback on negative free space,
    // shared by justify-content, align-content and the abspos static position.
    void boxAlignmentDistribution()
    {
        QFETCH(int, mode);
        QFETCH(qreal, freeSpace);
        QFETCH(int, count);
        const Distribution d = distributeContent(ContentDistribution(mode), freeSpace, std::size_t(count));
        QTEST(d.offset, "offset");
        QTEST(d.between, "between");
    }

    void boxAlignmentDistribution_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<qreal>("freeSpace");
        QTest::addColumn<int>("count");
        QTest::addColumn<qreal>("offset");
        QTest::addColumn<qreal>("between");
        using D = ContentDistribution;
        QTest::newRow("start") << int(D::Start) << 90.0 << 3 << 0.0 << 0.0;
        QTest::newRow("end") << int(D::End) << 90.0 << 3 << 90.0 << 0.0;
        QTest::newRow("center") << int(D::Center) << 90.0 << 3 << 45.0 << 0.0;
        QTest::newRow("between") << int(D::SpaceBetween) << 90.0 << 3 << 0.0 << 45.0;
        QTest::newRow("around") << int(D::SpaceAround) << 90.0 << 3 << 15.0 << 30.0;
        QTest::newRow("evenly") << int(D::SpaceEvenly) << 90.0 << 3 << 22.5 << 22.5;
        QTest::newRow("stretch distributes nothing") << int(D::Stretch) << 90.0 << 3 << 0.0 << 0.0;
        QTest::newRow("between, one item → start") << int(D::SpaceBetween) << 90.0 << 1 << 0.0 << 0.0;
        QTest::newRow("between, overflow → start") << int(D::SpaceBetween) << -40.0 << 3 << 0.0 << 0.0;
        // safe center: overflowing content stays at the start edge (Chromium; the
        // overflow-justify and overflow-align-content conformance cases).
        QTest::newRow("around, overflow → safe center = start") << int(D::SpaceAround) << -40.0 << 3 << 0.0 << 0.0;
        QTest::newRow("evenly, overflow → safe center = start") << int(D::SpaceEvenly) << -40.0 << 3 << 0.0 << 0.0;
        QTest::newRow("evenly, one item → center") << int(D::SpaceEvenly) << 90.0 << 1 << 45.0 << 45.0;
    }

    void rootFillsViewport();
    void growDistributesWithMaxClamp();
    void shrinkWithMinClamp();
    void shrinkUsesScaledShrinkFactor();
    void flexBasisZeroVersusAuto();
    void textWrapsAtUsedMainSize();
    void wrapAndAlignContent_data();
    void wrapAndAlignContent();
    void alignContentStretchGrowsLines();
    void wrapReverseStacksLinesFromBottom();
    void justifyContent_data();
    void justifyContent();
    void alignItems_data();
    void alignItems();
    void alignItemsBaseline();
    void autoMarginsMainAxis();
    void autoMarginsCrossAxis();
    void gaps();
    void rowAndColumnReverse();
    void columnWrap();
    void percentages();
    void percentageOfIndefiniteHeightIsAuto();
    void boxSizing();
    void minMaxSizes();
    void automaticMinimumSizeKeepsLongestWord();
};

void TestLayout::rootFillsViewport()
{
    auto root = makeRoot(style());
    const LayoutBox box = layOut(*root, QSizeF(1200, 630));
    COMPARE_RECT(box.borderBox, QRectF(0, 0, 1200, 630));
    QCOMPARE(box.node, root.get());
}

void TestLayout::growDistributesWithMaxClamp()
{
    auto root = makeRoot(style());
    ComputedStyle grow = style();
    grow.flexBasis = Length::px(0);
    grow.flexGrow = 1;
    Node *a = addElement(*root, grow);
    ComputedStyle clamped = grow;
    clamped.maxWidth = Length::px(100);
    Node *b = addElement(*root, clamped);
    ComputedStyle twice = grow;
    twice.flexGrow = 2;
    Node *c = addElement(*root, twice);
    const LayoutBox box = layOut(*root, QSizeF(600, 100));
    // 600 / 4 would give b 150; it freezes at 100 and a:c share the other 500 as 1:2.
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 500.0 / 3, 100)}, {b, QRectF(500.0 / 3, 0, 100, 100)},
                        {c, QRectF(500.0 / 3 + 100, 0, 1000.0 / 3, 100)}});
}

void TestLayout::shrinkWithMinClamp()
{
    auto root = makeRoot(style());
    ComputedStyle s = style();
    s.flexBasis = Length::px(200);
    Node *a = addElement(*root, s);
    ComputedStyle sb = s;
    sb.minWidth = Length::px(150);
    Node *b = addElement(*root, sb);
    ComputedStyle sc = s;
    sc.flexBasis = Length::px(100);
    sc.flexShrink = 2;
    Node *c = addElement(*root, sc);
    const LayoutBox box = layOut(*root, QSizeF(300, 50));
    // -200 px over scaled factors 200:200:200 puts b at 133 < 150: b freezes at 150 and
    // a and c (scaled 200:200) absorb the remaining -150 equally.
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 125, 50)}, {b, QRectF(125, 0, 150, 50)}, {c, QRectF(275, 0, 25, 50)}});
}

void TestLayout::shrinkUsesScaledShrinkFactor()
{
    auto root = makeRoot(style());
    ComputedStyle s = style();
    s.flexBasis = Length::px(100);
    Node *a = addElement(*root, s);
    s.flexBasis = Length::px(300);
    Node *b = addElement(*root, s);
    const LayoutBox box = layOut(*root, QSizeF(300, 50));
    // 100 px overflow split 1:3 by base size, not 1:1 by flex-shrink.
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 75, 50)}, {b, QRectF(75, 0, 225, 50)}});
}

void TestLayout::flexBasisZeroVersusAuto()
{
    auto root = makeRoot(style());
    ComputedStyle autoBasis = style();
    autoBasis.flexGrow = 1;
    Node *a = addTextElement(*root, autoBasis, QStringLiteral("aaaa"));
    ComputedStyle zeroBasis = autoBasis;
    zeroBasis.flexBasis = Length::px(0);
    Node *b = addTextElement(*root, zeroBasis, QStringLiteral("bbbbbbbb"));
    FakeMeasurer text;
    const LayoutBox box = layoutDocument(*root, QSizeF(400, 50), text);
    // a starts from its 40 px of text, b from 0: each gets half of 360.
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 220, 50)}, {b, QRectF(220, 0, 180, 50)}});

    // Both auto: the 280 px left over are shared on top of 40 and 80.
    b->style.flexBasis = Length::autoLength();
    const LayoutBox both = layoutDocument(*root, QSizeF(400, 50), text);
    COMPARE_RECTS(both, {{a, QRectF(0, 0, 180, 50)}, {b, QRectF(180, 0, 220, 50)}});
}

void TestLayout::textWrapsAtUsedMainSize()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::FlexStart;
    Node *item = addElement(*root, style());
    Node *run = addText(*item, QStringLiteral("aaaa bbbb cccc"));
    FakeMeasurer text;
    const LayoutBox box = layoutDocument(*root, QSizeF(100, 300), text);
    // 140 px of text shrinks to the 100 px line: "aaaa bbbb" / "cccc", two 24 px lines.
    COMPARE_RECTS(box, {{item, QRectF(0, 0, 100, 48)}, {run, QRectF(0, 0, 100, 48)}});
    QCOMPARE(find(box, run)->firstBaseline, 16.0);
}

void TestLayout::wrapAndAlignContent_data()
{
    QTest::addColumn<int>("alignContent");
    QTest::addColumn<QList<qreal>>("lineTops");
    QTest::newRow("flex-start") << int(AlignContent::FlexStart) << QList<qreal>{0, 50, 100};
    QTest::newRow("flex-end") << int(AlignContent::FlexEnd) << QList<qreal>{60, 110, 160};
    QTest::newRow("center") << int(AlignContent::Center) << QList<qreal>{30, 80, 130};
    QTest::newRow("space-between") << int(AlignContent::SpaceBetween) << QList<qreal>{0, 80, 160};
    QTest::newRow("space-around") << int(AlignContent::SpaceAround) << QList<qreal>{10, 80, 150};
    QTest::newRow("space-evenly") << int(AlignContent::SpaceEvenly) << QList<qreal>{15, 80, 145};
}

void TestLayout::wrapAndAlignContent()
{
    QFETCH(int, alignContent);
    QFETCH(QList<qreal>, lineTops);
    auto root = makeRoot(style());
    root->style.flexWrap = FlexWrap::Wrap;
    root->style.rowGap = Length::px(10);
    root->style.alignContent = AlignContent(alignContent);
    std::vector<Node *> items;
    for (int i = 0; i < 5; ++i)
        items.push_back(addElement(*root, fixed(120, 40)));
    const LayoutBox box = layOut(*root, QSizeF(300, 200));
    // Two 120 px items fit a 300 px line: lines of 2, 2 and 1; 60 px of free cross space.
    COMPARE_RECTS(box, {{items[0], QRectF(0, lineTops[0], 120, 40)}, {items[1], QRectF(120, lineTops[0], 120, 40)},
                        {items[2], QRectF(0, lineTops[1], 120, 40)}, {items[3], QRectF(120, lineTops[1], 120, 40)},
                        {items[4], QRectF(0, lineTops[2], 120, 40)}});
}

void TestLayout::alignContentStretchGrowsLines()
{
    auto root = makeRoot(style());
    root->style.flexWrap = FlexWrap::Wrap;
    root->style.rowGap = Length::px(10);
    root->style.alignContent = AlignContent::Stretch;
    ComputedStyle s = style();
    s.width = Length::px(120);
    Node *a = addElement(*root, s);
    addElement(*root, s);
    Node *c = addElement(*root, s);
    Node *fixedItem = addElement(*root, fixed(120, 20));
    const LayoutBox box = layOut(*root, QSizeF(300, 200));
    // Lines of 0 and 20 px share the 170 px left: 85 each → 85 and 105 px tall.
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 120, 85)}, {c, QRectF(0, 95, 120, 105)},
                        {fixedItem, QRectF(120, 95, 120, 20)}});
}

void TestLayout::wrapReverseStacksLinesFromBottom()
{
    auto root = makeRoot(style());
    root->style.flexWrap = FlexWrap::WrapReverse;
    root->style.rowGap = Length::px(10);
    root->style.alignContent = AlignContent::FlexStart;
    std::vector<Node *> items;
    for (int i = 0; i < 3; ++i)
        items.push_back(addElement(*root, fixed(120, 40)));
    const LayoutBox box = layOut(*root, QSizeF(300, 200));
    COMPARE_RECTS(box, {{items[0], QRectF(0, 160, 120, 40)}, {items[1], QRectF(120, 160, 120, 40)},
                        {items[2], QRectF(0, 110, 120, 40)}});
}

void TestLayout::justifyContent_data()
{
    QTest::addColumn<int>("justify");
    QTest::addColumn<QList<qreal>>("xs");
    QTest::newRow("flex-start") << int(JustifyContent::FlexStart) << QList<qreal>{0, 60, 120};
    QTest::newRow("flex-end") << int(JustifyContent::FlexEnd) << QList<qreal>{220, 280, 340};
    QTest::newRow("center") << int(JustifyContent::Center) << QList<qreal>{110, 170, 230};
    QTest::newRow("space-between") << int(JustifyContent::SpaceBetween) << QList<qreal>{0, 170, 340};
    QTest::newRow("space-around") << int(JustifyContent::SpaceAround) << QList<qreal>{110.0 / 3, 170, 340 - 110.0 / 3};
    QTest::newRow("space-evenly") << int(JustifyContent::SpaceEvenly) << QList<qreal>{55, 170, 285};
}

void TestLayout::justifyContent()
{
    QFETCH(int, justify);
    QFETCH(QList<qreal>, xs);
    auto root = makeRoot(style());
    root->style.justifyContent = JustifyContent(justify);
    std::vector<Node *> items;
    for (int i = 0; i < 3; ++i)
        items.push_back(addElement(*root, fixed(60, 20)));
    const LayoutBox box = layOut(*root, QSizeF(400, 100));
    for (int i = 0; i < 3; ++i)
        COMPARE_RECT(rectOf(box, items[i]), QRectF(xs[i], 0, 60, 20));
}

void TestLayout::alignItems_data()
{
    QTest::addColumn<int>("align");
    QTest::addColumn<QRectF>("expected");
    QTest::newRow("flex-start") << int(AlignItems::FlexStart) << QRectF(0, 0, 50, 20);
    QTest::newRow("flex-end") << int(AlignItems::FlexEnd) << QRectF(0, 80, 50, 20);
    QTest::newRow("center") << int(AlignItems::Center) << QRectF(0, 40, 50, 20);
    QTest::newRow("stretch") << int(AlignItems::Stretch) << QRectF(0, 0, 50, 100);
}

void TestLayout::alignItems()
{
    QFETCH(int, align);
    QFETCH(QRectF, expected);
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems(align);
    ComputedStyle s = style();
    s.width = Length::px(50);
    s.minHeight = Length::px(20); // auto height: stretch can act, others keep 20
    Node *item = addElement(*root, s);
    FakeMeasurer text;
    const LayoutBox box = layoutDocument(*root, QSizeF(400, 100), text);
    COMPARE_RECT(rectOf(box, item), expected);

    // align-self overrides the container's align-items.
    root->style.alignItems = AlignItems::Stretch;
    item->style.alignSelf = AlignItems(align);
    const LayoutBox self = layoutDocument(*root, QSizeF(400, 100), text);
    COMPARE_RECT(rectOf(self, item), expected);
}

void TestLayout::alignItemsBaseline()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::Baseline;
    Node *small = addTextElement(*root, style(20), QStringLiteral("ab"));
    ComputedStyle big = style(40);
    big.padding[Top] = Length::px(10);
    Node *large = addTextElement(*root, big, QStringLiteral("ab"));
    ComputedStyle centred = style();
    centred.alignSelf = AlignItems::Center;
    Node *other = addTextElement(*root, centred, QStringLiteral("x"));
    const LayoutBox box = layOut(*root, QSizeF(400, 100));
    // Baselines 16 (small) and 10 + 32 (large) line up at 42 from the line's top.
    COMPARE_RECTS(box, {{small, QRectF(0, 26, 20, 24)}, {large, QRectF(20, 0, 40, 58)},
                        {other, QRectF(60, 38, 10, 24)}});
    QCOMPARE(box.firstBaseline, 42.0);
}

void TestLayout::autoMarginsMainAxis()
{
    auto root = makeRoot(style());
    ComputedStyle pushed = fixed(100, 20);
    pushed.margin[Left] = Length::autoLength();
    Node *a = addElement(*root, pushed);
    FakeMeasurer text;
    LayoutBox box = layoutDocument(*root, QSizeF(400, 100), text);
    COMPARE_RECT(rectOf(box, a), QRectF(300, 0, 100, 20));

    a->style.margin[Right] = Length::autoLength();
    box = layoutDocument(*root, QSizeF(400, 100), text);
    COMPARE_RECT(rectOf(box, a), QRectF(150, 0, 100, 20));

    // Auto margins take the free space before justify-content sees it.
    root->style.justifyContent = JustifyContent::Center;
    a->style.margin[Left] = Length::px(0);
    Node *b = addElement(*root, fixed(50, 20));
    box = layoutDocument(*root, QSizeF(400, 100), text);
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 100, 20)}, {b, QRectF(350, 0, 50, 20)}});
}

void TestLayout::autoMarginsCrossAxis()
{
    auto root = makeRoot(style());
    ComputedStyle bottom = fixed(50, 20);
    bottom.margin[Top] = Length::autoLength();
    Node *a = addElement(*root, bottom);
    ComputedStyle middle = style();
    middle.width = Length::px(50);
    middle.minHeight = Length::px(20);
    middle.margin[Top] = Length::autoLength();
    middle.margin[Bottom] = Length::autoLength();
    Node *b = addElement(*root, middle); // auto margins also stop stretching
    const LayoutBox box = layOut(*root, QSizeF(400, 100));
    COMPARE_RECTS(box, {{a, QRectF(0, 80, 50, 20)}, {b, QRectF(50, 40, 50, 20)}});
}

void TestLayout::gaps()
{
    auto root = makeRoot(style());
    root->style.columnGap = Length::px(10);
    root->style.alignItems = AlignItems::FlexStart;
    Node *a = addElement(*root, fixed(50, 20));
    Node *b = addElement(*root, fixed(50, 20));
    ComputedStyle column = style();
    column.flexDirection = FlexDirection::Column;
    column.rowGap = Length::px(5);
    column.columnGap = Length::px(99); // the cross-axis gap of a single line does nothing
    Node *col = addElement(*root, column);
    Node *c1 = addElement(*col, fixed(30, 20));
    Node *c2 = addElement(*col, fixed(30, 20));
    const LayoutBox box = layOut(*root, QSizeF(400, 100));
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 50, 20)}, {b, QRectF(60, 0, 50, 20)}, {col, QRectF(120, 0, 30, 45)},
                        {c1, QRectF(120, 0, 30, 20)}, {c2, QRectF(120, 25, 30, 20)}});
}

void TestLayout::rowAndColumnReverse()
{
    auto root = makeRoot(style());
    root->style.flexDirection = FlexDirection::RowReverse;
    root->style.alignItems = AlignItems::FlexStart;
    Node *a = addElement(*root, fixed(50, 20));
    Node *b = addElement(*root, fixed(60, 20));
    FakeMeasurer text;
    LayoutBox box = layoutDocument(*root, QSizeF(400, 200), text);
    COMPARE_RECTS(box, {{a, QRectF(350, 0, 50, 20)}, {b, QRectF(290, 0, 60, 20)}});

    root->style.justifyContent = JustifyContent::FlexEnd; // main-end is the left edge
    box = layoutDocument(*root, QSizeF(400, 200), text);
    COMPARE_RECTS(box, {{a, QRectF(60, 0, 50, 20)}, {b, QRectF(0, 0, 60, 20)}});

    root->style.justifyContent = JustifyContent::FlexStart;
    root->style.flexDirection = FlexDirection::ColumnReverse;
    box = layoutDocument(*root, QSizeF(400, 200), text);
    COMPARE_RECTS(box, {{a, QRectF(0, 180, 50, 20)}, {b, QRectF(0, 160, 60, 20)}});
}

void TestLayout::columnWrap()
{
    auto root = makeRoot(style());
    root->style.flexDirection = FlexDirection::Column;
    root->style.flexWrap = FlexWrap::Wrap;
    Node *a = addElement(*root, fixed(50, 40));
    Node *b = addElement(*root, fixed(50, 40));
    Node *c = addElement(*root, fixed(50, 40));
    ComputedStyle autoWidth = style();
    autoWidth.height = Length::px(40);
    Node *d = addElement(*root, autoWidth);
    const LayoutBox box = layOut(*root, QSizeF(200, 100));
    // Two 40 px items per 100 px column; the two 50 px lines stretch to 100 px each
    // (align-content: normal), and the auto-width item stretches with its line.
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 50, 40)}, {b, QRectF(0, 40, 50, 40)}, {c, QRectF(100, 0, 50, 40)},
                        {d, QRectF(100, 40, 100, 40)}});
}

void TestLayout::percentages()
{
    auto root = makeRoot(style());
    root->style.padding = {Length::px(10), Length::px(10), Length::px(10), Length::px(10)};
    root->style.alignItems = AlignItems::FlexStart;
    ComputedStyle s = style();
    s.width = Length::percent(50);
    s.height = Length::percent(50);
    s.margin[Left] = Length::percent(10);
    s.margin[Top] = Length::percent(10); // vertical margins resolve against the width too
    Node *a = addElement(*root, s);
    // A stretched item's height is definite (§9.8), so its child's percentage resolves.
    ComputedStyle inner = style();
    inner.height = Length::percent(50);
    ComputedStyle stretched = style();
    stretched.alignSelf = AlignItems::Stretch;
    Node *parent = addElement(*root, stretched);
    Node *child = addElement(*parent, inner);
    const LayoutBox box = layOut(*root, QSizeF(400, 200));
    COMPARE_RECTS(box, {{a, QRectF(10 + 38, 10 + 38, 190, 90)}, {parent, QRectF(10 + 38 + 190, 10, 0, 180)},
                        {child, QRectF(10 + 38 + 190, 10, 0, 90)}});
}

void TestLayout::percentageOfIndefiniteHeightIsAuto()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::FlexStart;
    ComputedStyle column = style();
    column.flexDirection = FlexDirection::Column;
    Node *col = addElement(*root, column);
    ComputedStyle row = style();
    row.alignItems = AlignItems::FlexStart;
    Node *item = addElement(*col, row);
    ComputedStyle half = style();
    half.width = Length::px(10);
    half.height = Length::percent(50);
    Node *pct = addElement(*item, half);
    addElement(*item, fixed(10, 40));
    const LayoutBox box = layOut(*root, QSizeF(400, 300));
    // The item's 40 px height comes from its content in an auto-height column: not
    // definite (§9.8), so 50% behaves as auto instead of giving 20 px.
    COMPARE_RECTS(box, {{item, QRectF(0, 0, 20, 40)}, {pct, QRectF(0, 0, 10, 0)}});
}

void TestLayout::boxSizing()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::FlexStart;
    ComputedStyle s = fixed(100, 40);
    s.padding = {Length::px(10), Length::px(10), Length::px(10), Length::px(10)};
    s.borderWidth = {5, 5, 5, 5};
    s.borderStyle = {BorderStyle::Solid, BorderStyle::Solid, BorderStyle::Solid, BorderStyle::Solid};
    Node *content = addElement(*root, s);
    s.boxSizing = BoxSizing::BorderBox;
    Node *border = addElement(*root, s);
    const LayoutBox box = layOut(*root, QSizeF(400, 200));
    COMPARE_RECTS(box, {{content, QRectF(0, 0, 130, 70)}, {border, QRectF(130, 0, 100, 40)}});
    const LayoutBox *b = find(box, border);
    COMPARE_RECT(b->contentBox(), QRectF(145, 15, 70, 10));
    QCOMPARE(b->border, QMarginsF(5, 5, 5, 5));
}

void TestLayout::minMaxSizes()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::FlexStart;
    ComputedStyle capped = fixed(300, 20);
    capped.maxWidth = Length::px(200);
    Node *a = addElement(*root, capped);
    ComputedStyle raised = fixed(100, 20);
    raised.minWidth = Length::px(150);
    raised.flexShrink = 0;
    Node *b = addElement(*root, raised);
    ComputedStyle tall = style();
    tall.width = Length::px(10);
    tall.minHeight = Length::px(30);
    tall.maxHeight = Length::px(5); // min wins over max
    Node *c = addElement(*root, tall);
    const LayoutBox box = layOut(*root, QSizeF(400, 200));
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 200, 20)}, {b, QRectF(200, 0, 150, 20)}, {c, QRectF(350, 0, 10, 30)}});
}

void TestLayout::automaticMinimumSizeKeepsLongestWord()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::FlexStart;
    Node *wordy = addElement(*root, style());
    addText(*wordy, QStringLiteral("aaaaaaaaaa bb")); // min-content 100 px
    ComputedStyle hidden = style();
    hidden.overflow = Overflow::Hidden; // scroll containers may shrink to 0
    Node *clipped = addTextElement(*root, hidden, QStringLiteral("cccccccccc"));
    const LayoutBox box = layOut(*root, QSizeF(100, 200));
    // 130 + 100 px into 100: the first may not go below its longest word (100 px);
    // the clipped one, shrinking by base size, gives the rest.
    COMPARE_RECTS(box, {{wordy, QRectF(0, 0, 100, 48)}, {clipped, QRectF(100, 0, 0, 24)}});
}

QTEST_GUILESS_MAIN(TestLayout)
#include "tst_layout.moc"
