// CSS Grid Layout 1 (server/render/layout/grid_formatting_context.cpp): one test per
// step of the placement (§8.5) and sizing (§11) algorithms and of alignment (§10), plus
// the grid properties' parsing and warnings. Trees are hand-built
// (tests/support/layout_tree.h: 20 px text is 10 px per character, 24 px per line) and
// every expected number is worked out in the comment beside it.

#include "server/render/css/grid.h"
#include "server/render/layout/layout.h"
#include "server/render/style/computed_style.h"
#include "tests/support/layout_tree.h"

#include <QTest>

using namespace imprint::render;
using namespace imprint::render::test;

namespace {

GridTrackList tracks(const QString &text)
{
    auto list = css::gridTrackList(text, 20, 16);
    if (!list)
        qFatal("bad track list in test: %s (%s)", qPrintable(text), qPrintable(list.error()));
    return *list;
}

GridLine line(const QString &text)
{
    auto l = css::gridLine(text);
    if (!l)
        qFatal("bad grid line in test: %s", qPrintable(text));
    return *l;
}

/// A grid `width` px wide (auto height) in a root that does not stretch it.
struct GridFixture {
    std::unique_ptr<Node> root;
    Node *grid = nullptr;

    explicit GridFixture(const QString &columns, const QString &rows = QString(), float width = 300)
    {
        ComputedStyle rs = style();
        rs.alignItems = AlignItems::FlexStart;
        root = makeRoot(rs);
        ComputedStyle gs = style();
        gs.display = imprint::render::Display::Grid;
        gs.width = Length::px(width);
        if (!columns.isEmpty())
            gs.grid.templateColumns = tracks(columns);
        if (!rows.isEmpty())
            gs.grid.templateRows = tracks(rows);
        grid = addElement(*root, gs);
    }
    Node *item(const QString &text = QString(), const std::function<void(ComputedStyle &)> &adjust = {})
    {
        ComputedStyle s = style();
        if (adjust)
            adjust(s);
        Node *n = addElement(*grid, s);
        if (!text.isEmpty())
            addText(*n, text);
        return n;
    }
    LayoutBox layout(QSizeF viewport = QSizeF(1000, 1000))
    {
        FakeMeasurer text;
        return layoutDocument(*root, viewport, text);
    }
};

} // namespace

class TestLayoutGrid : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Parsing (css/grid.cpp, style/grid_properties.cpp)
    void parsesTrackListsWithNamesAndRepeat();
    void parsesPlacementShorthands();
    void badValuesWarnAndKeepTheInitialValue();
    // §7 explicit and implicit grid, §8 placement
    void explicitGridFixedTracks();
    void lineBasedPlacement();
    void autoPlacementSparseAndDense();
    void autoFlowColumn();
    void implicitTracksCycleAndLeadingLines();
    void namedAreasAndLines();
    void autoRepeatFillAndFit();
    // §11 grid sizing
    void initializeAndMaximizeTracks();
    void nonSpanningItemsSizeIntrinsicTracks();
    void spanningItemsGrowIntrinsicTracks();
    void itemsCrossingFlexibleTracks();
    void expandFlexibleTracks();
    void flexibleTracksUnderMaxContent();
    void stretchAutoTracks();
    void rowsFromItemHeights();
    // §10 alignment, rtl, abspos, intrinsic size
    void contentAndSelfAlignment();
    void rtlRunsColumnsFromTheRight();
    void aspectRatioItemsFillTheColumn();
    void absoluteChildStartsAtThePaddingBox();
    void contentSizedGrid();
    void extremeLinesStayBounded();
};

void TestLayoutGrid::parsesTrackListsWithNamesAndRepeat()
{
    const GridTrackList list
        = tracks(QStringLiteral("[a] 10px repeat(2, [b] 1fr) minmax(20px, auto) fit-content(5em) [c d]"));
    QCOMPARE(int(list.sizes.size()), 5);
    QCOMPARE(list.sizes[0].min.type, TrackBreadth::Type::Fixed);
    QCOMPARE(list.sizes[0].min.length, Length::px(10));
    QCOMPARE(list.sizes[1].min.type, TrackBreadth::Type::Auto); // 1fr = minmax(auto, 1fr)
    QCOMPARE(list.sizes[1].max.flex, 1.f);
    QCOMPARE(list.sizes[3].min.length, Length::px(20));
    QCOMPARE(list.sizes[3].max.type, TrackBreadth::Type::Auto);
    QCOMPARE(list.sizes[4].max.type, TrackBreadth::Type::FitContent);
    QCOMPARE(list.sizes[4].max.length, Length::px(100)); // 5em at 20px
    QCOMPARE(list.names.size(), std::size_t(6));
    QCOMPARE(list.names[0], QStringList{QStringLiteral("a")});
    QCOMPARE(list.names[1], QStringList{QStringLiteral("b")});
    QCOMPARE(list.names[2], QStringList{QStringLiteral("b")});
    QCOMPARE(list.names[5], (QStringList{QStringLiteral("c"), QStringLiteral("d")}));

    const GridTrackList fill = tracks(QStringLiteral("50px [x] repeat(auto-fill, [r] 100px [s]) [y] 30px"));
    QCOMPARE(fill.autoRepeat, GridTrackList::AutoRepeat::Fill);
    QCOMPARE(fill.repeatAt, 1);
    const ExpandedTracks expanded = expandTrackList(fill, 2);
    QCOMPARE(int(expanded.sizes.size()), 4); // 50 100 100 30
    QCOMPARE(expanded.names[1], (QStringList{QStringLiteral("x"), QStringLiteral("r")}));
    QCOMPARE(expanded.names[2], (QStringList{QStringLiteral("s"), QStringLiteral("r")}));
    QCOMPARE(expanded.names[3], (QStringList{QStringLiteral("s"), QStringLiteral("y")}));
}

void TestLayoutGrid::parsesPlacementShorthands()
{
    QStringList warnings;
    const ComputedStyle s
        = computeStyle(QJsonObject{{QStringLiteral("display"), QStringLiteral("grid")},
                                   {QStringLiteral("gridColumn"), QStringLiteral("2 / span 3")},
                                   {QStringLiteral("gridRow"), QStringLiteral("main")},
                                   {QStringLiteral("gridAutoFlow"), QStringLiteral("column dense")},
                                   {QStringLiteral("gridTemplateAreas"), QStringLiteral("\"a a\" \". b\"")},
                                   {QStringLiteral("placeItems"), QStringLiteral("center end")}},
                       nullptr, QStringLiteral("div"), 16, QStringLiteral("root.style"), &warnings);
    QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
    QCOMPARE(s.display, imprint::render::Display::Grid);
    QCOMPARE(s.grid.columnStart, line(QStringLiteral("2")));
    QCOMPARE(s.grid.columnEnd, line(QStringLiteral("span 3")));
    // A name alone is copied into the omitted end line (§8.4).
    QCOMPARE(s.grid.rowStart, line(QStringLiteral("main")));
    QCOMPARE(s.grid.rowEnd, line(QStringLiteral("main")));
    QVERIFY(s.grid.autoFlowColumn && s.grid.autoFlowDense);
    QCOMPARE(s.grid.templateAreas.rows, 2);
    QCOMPARE(s.grid.templateAreas.columns, 2);
    QCOMPARE(s.grid.templateAreas.areas.size(), std::size_t(2));
    QCOMPARE(s.grid.templateAreas.areas[1].name, QStringLiteral("b"));
    QCOMPARE(s.grid.templateAreas.areas[1].columnStart, 1);
    QCOMPARE(s.alignItems, AlignItems::Center);
    QCOMPARE(s.grid.justifyItems, JustifyItems::End);
}

void TestLayoutGrid::badValuesWarnAndKeepTheInitialValue()
{
    QStringList warnings;
    const ComputedStyle s = computeStyle(
        QJsonObject{{QStringLiteral("gridTemplateColumns"), QStringLiteral("repeat(0, 10px)")},
                    {QStringLiteral("gridTemplateRows"), QStringLiteral("10px 1fr repeat(auto-fill, 20px)")},
                    {QStringLiteral("gridTemplateAreas"), QStringLiteral("'a b' 'b a'")},
                    {QStringLiteral("gridColumn"), QStringLiteral("span 0")},
                    {QStringLiteral("justifySelf"), QStringLiteral("sideways")}},
        nullptr, QStringLiteral("div"), 16, QStringLiteral("root.style"), &warnings);
    QCOMPARE(warnings.size(), 5);
    QVERIFY(warnings[0].startsWith(QStringLiteral("root.style.gridColumn:")));
    QVERIFY(warnings.join(u'\n').contains(QStringLiteral("gridTemplateAreas: area \"a\" is not a rectangle")));
    QVERIFY(warnings.join(u'\n').contains(QStringLiteral("gridTemplateColumns: invalid repeat() count")));
    QVERIFY(
        warnings.join(u'\n').contains(QStringLiteral("gridTemplateRows: repeat(auto-fill | auto-fit) needs fixed")));
    QVERIFY(s.grid.templateColumns.isNone());
    QVERIFY(s.grid.columnStart.isAuto());
    QCOMPARE(s.grid.justifySelf, JustifyItems::Auto);
}

void TestLayoutGrid::explicitGridFixedTracks()
{
    // §11.4: fixed tracks start (and stay) at their size; items stretch into their cells.
    GridFixture f(QStringLiteral("100px 50px"), QStringLiteral("30px 40px"));
    Node *a = f.item(), *b = f.item(), *c = f.item(), *d = f.item();
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{f.grid, QRectF(0, 0, 300, 70)}, {a, QRectF(0, 0, 100, 30)}, {b, QRectF(100, 0, 50, 30)},
                        {c, QRectF(0, 30, 100, 40)}, {d, QRectF(100, 30, 50, 40)}});
}

void TestLayoutGrid::lineBasedPlacement()
{
    // §8.3 and §8.5 steps 1–2, 4 on four 50px columns and 20px rows.
    GridFixture f(QStringLiteral("repeat(4, 50px)"));
    f.grid->style.grid.autoRows
        = {TrackSize{{TrackBreadth::Type::Fixed, Length::px(20), 0}, {TrackBreadth::Type::Fixed, Length::px(20), 0}}};
    Node *a = f.item({}, [](ComputedStyle &s) {
        s.grid.columnStart = line(QStringLiteral("2"));
        s.grid.columnEnd = line(QStringLiteral("4"));
    });
    Node *b = f.item({}, [](ComputedStyle &s) {
        s.grid.columnStart = line(QStringLiteral("-2")); // the last column
        s.grid.columnEnd = line(QStringLiteral("-1"));
        s.grid.rowStart = line(QStringLiteral("2"));
    });
    Node *c = f.item({}, [](ComputedStyle &s) { // locked to row 2 (step 2)
        s.grid.rowStart = line(QStringLiteral("2"));
        s.grid.columnEnd = line(QStringLiteral("span 2"));
    });
    Node *d = f.item(), *e = f.item(), *g = f.item(); // auto-placed (step 4)
    const LayoutBox box = f.layout();
    // a has a definite column only: step 4 puts it in the first row, the cursor at column 2.
    COMPARE_RECTS(box, {{a, QRectF(50, 0, 100, 20)}, {b, QRectF(150, 20, 50, 20)}, {c, QRectF(0, 20, 100, 20)}});
    // Sparse placement never moves the cursor back: d goes past a, not before it, ...
    COMPARE_RECT(rectOf(box, d), QRectF(150, 0, 50, 20));
    // ... e to the second row's first free cell, g to the third row.
    COMPARE_RECTS(box, {{e, QRectF(100, 20, 50, 20)}, {g, QRectF(0, 40, 50, 20)}});
}

void TestLayoutGrid::autoPlacementSparseAndDense()
{
    // §8.5 step 4: sparse never goes back; dense fills the hole a span-2 item left.
    for (bool dense : {false, true}) {
        GridFixture f(QStringLiteral("50px 50px 50px"));
        f.grid->style.grid.autoFlowDense = dense;
        f.grid->style.grid.autoRows = {
            TrackSize{{TrackBreadth::Type::Fixed, Length::px(20), 0}, {TrackBreadth::Type::Fixed, Length::px(20), 0}}};
        const auto span2 = [](ComputedStyle &s) { s.grid.columnStart = line(QStringLiteral("span 2")); };
        Node *a = f.item({}, span2), *b = f.item({}, span2), *c = f.item();
        const LayoutBox box = f.layout();
        COMPARE_RECTS(box, {{a, QRectF(0, 0, 100, 20)}, {b, QRectF(0, 20, 100, 20)}});
        COMPARE_RECT(rectOf(box, c), dense ? QRectF(100, 0, 50, 20) : QRectF(100, 20, 50, 20));
    }
}

void TestLayoutGrid::autoFlowColumn()
{
    // grid-auto-flow: column fills each column top to bottom, adding 30px columns.
    GridFixture f(QString(), QStringLiteral("20px 20px"));
    f.grid->style.grid.autoFlowColumn = true;
    f.grid->style.grid.autoColumns
        = {TrackSize{{TrackBreadth::Type::Fixed, Length::px(30), 0}, {TrackBreadth::Type::Fixed, Length::px(30), 0}}};
    f.grid->style.justifyContent = JustifyContent::Start;
    Node *a = f.item(), *b = f.item(), *c = f.item();
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 30, 20)}, {b, QRectF(0, 20, 30, 20)}, {c, QRectF(30, 0, 30, 20)}});
}

void TestLayoutGrid::implicitTracksCycleAndLeadingLines()
{
    // §7.5–7.6: one explicit 50px column; column 3 adds two implicit 10px columns after
    // it, line -3 one before it; implicit rows cycle 20px, 30px.
    GridFixture f(QStringLiteral("50px"));
    f.grid->style.justifyContent = JustifyContent::Start;
    const auto fixedSize = [](float px) {
        return TrackSize{{TrackBreadth::Type::Fixed, Length::px(px), 0},
                         {TrackBreadth::Type::Fixed, Length::px(px), 0}};
    };
    f.grid->style.grid.autoColumns = {fixedSize(10)};
    f.grid->style.grid.autoRows = {fixedSize(20), fixedSize(30)};
    Node *a = f.item({}, [](ComputedStyle &s) { s.grid.columnStart = line(QStringLiteral("3")); });
    Node *b = f.item({}, [](ComputedStyle &s) { s.grid.columnStart = line(QStringLiteral("-3")); });
    const LayoutBox box = f.layout();
    // Columns: 10 (leading) | 50 (explicit) | 10 | 10.
    COMPARE_RECT(rectOf(box, a), QRectF(70, 0, 10, 20));
    // b's column starts before a's, so the sparse cursor moves to the next row (30px).
    COMPARE_RECTS(box, {{b, QRectF(0, 20, 10, 30)}, {f.grid, QRectF(0, 0, 300, 50)}});
}

void TestLayoutGrid::namedAreasAndLines()
{
    // §7.3 areas and their implicit NAME-start/NAME-end lines, §8.3 named lines.
    GridFixture f(QStringLiteral("[left] 100px [mid] 60px [right]"), QStringLiteral("20px 30px"));
    f.grid->style.grid.templateAreas = *css::gridTemplateAreas(QStringLiteral("'top top' 'side main'"));
    Node *main = f.item({}, [](ComputedStyle &s) {
        s.grid.rowStart = s.grid.rowEnd = s.grid.columnStart = s.grid.columnEnd = line(QStringLiteral("main"));
    });
    Node *top = f.item({}, [](ComputedStyle &s) {
        s.grid.columnStart = line(QStringLiteral("top-start"));
        s.grid.columnEnd = line(QStringLiteral("top-end"));
    });
    Node *named = f.item({}, [](ComputedStyle &s) {
        s.grid.columnStart = line(QStringLiteral("mid"));
        s.grid.columnEnd = line(QStringLiteral("right"));
        s.grid.rowStart = line(QStringLiteral("2"));
    });
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{main, QRectF(100, 20, 60, 30)}, {top, QRectF(0, 0, 160, 20)}});
    // Its cell is main's: the grid has no third row of 2, so it shares the cell (§8.5
    // step 1 places definite items even where they overlap).
    COMPARE_RECT(rectOf(box, named), QRectF(100, 20, 60, 30));
}

void TestLayoutGrid::autoRepeatFillAndFit()
{
    // §7.2.3.2: (350 + 10 gap) / (100 + 10) = 3 repetitions.
    GridFixture fill(QStringLiteral("repeat(auto-fill, 100px)"), QString(), 350);
    fill.grid->style.columnGap = Length::px(10);
    Node *items[4];
    for (Node *&n : items)
        n = fill.item();
    LayoutBox box = fill.layout();
    COMPARE_RECTS(box, {{items[2], QRectF(220, 0, 100, 0)},
                        {items[3], QRectF(0, 0, 100, 0)}}); // second (empty, 0px) row
    // auto-fit collapses the two empty tracks and their gaps: one track centred.
    GridFixture fit(QStringLiteral("repeat(auto-fit, 100px)"), QString(), 350);
    fit.grid->style.columnGap = Length::px(10);
    fit.grid->style.justifyContent = JustifyContent::Center;
    Node *only = fit.item();
    box = fit.layout();
    COMPARE_RECT(rectOf(box, only), QRectF(125, 0, 100, 0));
}

void TestLayoutGrid::initializeAndMaximizeTracks()
{
    // §11.4 base 50 / limit 100 each; §11.6 shares the 50px free space up to the limits.
    GridFixture f(QStringLiteral("minmax(50px, 100px) minmax(50px, 100px)"), QString(), 150);
    Node *a = f.item(), *b = f.item();
    LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 75, 0)}, {b, QRectF(75, 0, 75, 0)}});
    // With more room both stop at their growth limit of 100.
    f.grid->style.width = Length::px(300);
    box = f.layout();
    COMPARE_RECT(rectOf(box, b), QRectF(100, 0, 100, 0));
}

void TestLayoutGrid::nonSpanningItemsSizeIntrinsicTracks()
{
    // §11.5 step 2: min-content → 30 ("aa bbb" wraps), max-content → 40 ("cc d"),
    // auto → base 10 (minimum contribution) and limit 10; the auto track then takes the
    // 320px left (§11.8). The first item wraps to two lines, so the row is 48px.
    GridFixture f(QStringLiteral("min-content max-content auto"), QString(), 400);
    Node *a = f.item(QStringLiteral("aa bbb")), *b = f.item(QStringLiteral("cc d")), *c = f.item(QStringLiteral("e"));
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 30, 48)}, {b, QRectF(30, 0, 40, 48)}, {c, QRectF(70, 0, 330, 48)}});
}

void TestLayoutGrid::spanningItemsGrowIntrinsicTracks()
{
    // §11.5 step 3: the spanning item's minimum contribution (40) grows both 10px base
    // sizes to 20, its max-content contribution (90) both growth limits to 45; §11.6
    // then maximizes the tracks to 45 each (justify-content: start stops §11.8).
    GridFixture f(QStringLiteral("auto auto"));
    f.grid->style.justifyContent = JustifyContent::Start;
    Node *a = f.item(QStringLiteral("a")), *b = f.item(QStringLiteral("b"));
    Node *span = f.item(QStringLiteral("cccc dddd"), [](ComputedStyle &s) {
        s.grid.columnStart = line(QStringLiteral("1"));
        s.grid.columnEnd = line(QStringLiteral("3"));
    });
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 45, 24)}, {b, QRectF(45, 0, 45, 24)}, {span, QRectF(0, 24, 90, 24)}});
}

void TestLayoutGrid::itemsCrossingFlexibleTracks()
{
    // §11.5 step 4: 1fr is minmax(auto, 1fr), so the unbreakable 80px word sets the first
    // track's base size; §11.7.1 then treats it as inflexible and gives 1fr = 20px.
    GridFixture f(QStringLiteral("1fr 1fr"), QString(), 100);
    Node *a = f.item(QStringLiteral("aaaaaaaa")), *b = f.item(QStringLiteral("b"));
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 80, 24)}, {b, QRectF(80, 0, 20, 24)}});
}

void TestLayoutGrid::expandFlexibleTracks()
{
    // §11.7 with definite free space: 300px / 3fr = 100px per fr; gaps come off first.
    GridFixture f(QStringLiteral("1fr 2fr"), QString(), 310);
    f.grid->style.columnGap = Length::px(10);
    Node *a = f.item(), *b = f.item();
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 100, 0)}, {b, QRectF(110, 0, 200, 0)}});
}

void TestLayoutGrid::flexibleTracksUnderMaxContent()
{
    // §11.7 with indefinite free space (the grid is a flex item of auto width): the flex
    // fraction is the largest max-content contribution per fr, 20px ("aa" in 1fr), so
    // the grid is 20 + 40 = 60px wide.
    GridFixture f(QStringLiteral("1fr 2fr"));
    f.grid->style.width = Length::autoLength();
    f.grid->style.flexShrink = 0;
    Node *a = f.item(QStringLiteral("aa")), *b = f.item(QStringLiteral("b"));
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{f.grid, QRectF(0, 0, 60, 24)}, {a, QRectF(0, 0, 20, 24)}, {b, QRectF(20, 0, 40, 24)}});
}

void TestLayoutGrid::stretchAutoTracks()
{
    // §11.8: after 10px and 20px, the 270px left is shared by the two auto tracks.
    GridFixture f(QStringLiteral("auto auto"));
    Node *a = f.item(QStringLiteral("a")), *b = f.item(QStringLiteral("bb"));
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 145, 24)}, {b, QRectF(145, 0, 155, 24)}});
}

void TestLayoutGrid::rowsFromItemHeights()
{
    // §11.1 step 2: rows are sized after the columns, from the items' heights at their
    // column widths: "aaa bbb" in a 40px column wraps to two lines (48px); the other
    // item stretches to the row. A 1fr row in a 200px-high grid takes what is left.
    GridFixture f(QStringLiteral("40px 100px"), QStringLiteral("auto 1fr"));
    f.grid->style.height = Length::px(200);
    Node *a = f.item(QStringLiteral("aaa bbb")), *b = f.item(QStringLiteral("c")), *c = f.item();
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 40, 48)}, {b, QRectF(40, 0, 100, 48)}, {c, QRectF(0, 48, 40, 152)}});
}

void TestLayoutGrid::contentAndSelfAlignment()
{
    // §10.5 justify-content: space-between puts the second column at 200, align-content:
    // end the two 40px rows at 20 and 60; §10.3–10.4 justify-self: center sizes "ab" to
    // fit (20px) and centres it, align-self: end puts its 24px box at the row's bottom.
    GridFixture f(QStringLiteral("100px 100px"), QStringLiteral("40px 40px"));
    f.grid->style.height = Length::px(100);
    f.grid->style.justifyContent = JustifyContent::SpaceBetween;
    f.grid->style.alignContent = AlignContent::FlexEnd;
    Node *a = f.item(QStringLiteral("ab"), [](ComputedStyle &s) {
        s.grid.justifySelf = JustifyItems::Center;
        s.alignSelf = AlignItems::FlexEnd;
    });
    Node *b = f.item(); // row 1 column 2 is taken (step 1), so it goes to row 2
    Node *margins = f.item(QStringLiteral("m"), [](ComputedStyle &s) {
        s.grid.rowStart = line(QStringLiteral("1"));
        s.grid.columnStart = line(QStringLiteral("2"));
        s.margin[Left] = Length::autoLength(); // an auto margin takes the free space
    });
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{a, QRectF(40, 36, 20, 24)}, {b, QRectF(0, 60, 100, 40)}, {margins, QRectF(290, 20, 10, 40)}});
}

void TestLayoutGrid::rtlRunsColumnsFromTheRight()
{
    GridFixture f(QStringLiteral("100px 50px"));
    f.grid->style.direction = Direction::Rtl;
    Node *a = f.item(), *b = f.item();
    Node *start = f.item(QStringLiteral("ab"), [](ComputedStyle &s) { s.grid.justifySelf = JustifyItems::Start; });
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{a, QRectF(200, 0, 100, 0)}, {b, QRectF(150, 0, 50, 0)},
                        {start, QRectF(280, 0, 20, 24)}}); // start is the right edge
}

void TestLayoutGrid::aspectRatioItemsFillTheColumn()
{
    // §6.6: with `normal` self-alignment a box with an aspect ratio is sized as a block:
    // as wide as its column, as high as the ratio makes it (Tailwind's `aspect-square`
    // tile; Chromium 276×276 and 276×138 in 276 px columns). It shrank to its text.
    GridFixture f(QStringLiteral("200px 200px"), QStringLiteral("300px"));
    Node *square = f.item(QStringLiteral("ab"), [](ComputedStyle &s) { s.aspectRatio = 1; });
    Node *wide = f.item(QStringLiteral("ab"), [](ComputedStyle &s) { s.aspectRatio = 2; });
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{square, QRectF(0, 0, 200, 200)}, {wide, QRectF(200, 0, 200, 100)}});
}

void TestLayoutGrid::absoluteChildStartsAtThePaddingBox()
{
    // CSS Grid 1 §9.1: a positioned grid's auto lines are its padding edges.
    GridFixture f(QStringLiteral("1fr"));
    f.grid->style.position = Position::Relative;
    f.grid->style.padding = {Length::px(10), Length::px(10), Length::px(10), Length::px(10)};
    Node *inflow = f.item({}, [](ComputedStyle &s) { s.height = Length::px(20); });
    Node *abs = f.item({}, [](ComputedStyle &s) {
        s.position = Position::Absolute;
        s.width = Length::px(30);
        s.height = Length::px(30);
    });
    const LayoutBox box = f.layout();
    COMPARE_RECTS(box, {{inflow, QRectF(10, 10, 300, 20)}, {abs, QRectF(0, 0, 30, 30)}});
}

void TestLayoutGrid::contentSizedGrid()
{
    // A content-sized image of a grid: its max-content width is its auto columns'
    // max-content contributions (30 + 20) plus the 10px gap.
    ComputedStyle gs = style();
    gs.display = imprint::render::Display::Grid;
    gs.grid.templateColumns = tracks(QStringLiteral("auto auto"));
    gs.columnGap = Length::px(10);
    auto root = makeRoot(gs);
    addText(*addElement(*root, style()), QStringLiteral("aaa"));
    addText(*addElement(*root, style()), QStringLiteral("bb"));
    FakeMeasurer text;
    QCOMPARE(contentSizedViewport(*root, QSizeF(1000, 1000), 0, 0, text), QSize(60, 24));
}

void TestLayoutGrid::extremeLinesStayBounded()
{
    // Line numbers far outside the grid and huge spans are clamped (1000 lines each way):
    // the layout stays fast and every item gets a box.
    GridFixture f(QStringLiteral("10px"));
    f.grid->style.grid.autoFlowDense = true;
    Node *far = f.item({}, [](ComputedStyle &s) {
        s.grid.columnStart = line(QStringLiteral("-99999"));
        s.grid.columnEnd = line(QStringLiteral("99999"));
    });
    std::vector<Node *> spans;
    for (int i = 0; i < 50; ++i)
        spans.push_back(f.item({}, [](ComputedStyle &s) {
            s.grid.rowStart = line(QStringLiteral("span 5000"));
            s.grid.columnStart = line(QStringLiteral("span 3"));
        }));
    QElapsedTimer timer;
    timer.start();
    const LayoutBox box = f.layout();
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY(find(box, far));
    for (Node *n : spans)
        QVERIFY(find(box, n));
}

QTEST_MAIN(TestLayoutGrid)
#include "tst_layout_grid.moc"
