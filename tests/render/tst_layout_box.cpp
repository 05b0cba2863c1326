// Box layout tests outside the flex algorithm proper: absolute and relative
// positioning (CSS Position 3), display none, block stacking, replaced elements and
// aspect-ratio (CSS Sizing 4), and the engine's caching and linear cost on deep and wide
// trees. Trees are hand-built (tests/support/layout_tree.h); every number is worked out
// on paper.

#include "server/render/layout/layout.h"
#include "tests/support/layout_tree.h"

#include <QTest>

#include <cmath>

using namespace imprint::render;
using namespace imprint::render::test;

namespace {

/// A display: block, position: relative style: the containing block of the intrinsic
/// size keyword cases' absolute boxes.
ComputedStyle relativeBlock()
{
    ComputedStyle s = style();
    s.display = imprint::render::Display::Block;
    s.position = Position::Relative;
    return s;
}

} // namespace

class TestLayoutBox : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void absoluteWithInsets();
    void absoluteStaticPosition();
    void absoluteContainingBlockIsNearestPositionedAncestor();
    void transformedOrFilteredAncestorsContainAbsolutes();
    void relativeOffsets();
    void displayNoneRemovesBox();
    void blockStacking();
    void nestedColumnInRowSizedByContent();
    void columnStretchedTextWrapsAtContainerWidth();
    void imageKeepsAspectRatio();
    void aspectRatioProperty();
    void stretchedImageTakesWidthFromRatio();
    void intrinsicSizeKeywordsInColumn();
    void intrinsicSizeKeywordsInShrinkingRow();
    void intrinsicSizeKeywordsInBlockAndAbsolute();
    void heightKeywordsAreTheContentHeight();
    void measurementsAreCached();
    void deepTreesStayLinear();
    void wideTreesStayFast();
};

void TestLayoutBox::absoluteWithInsets()
{
    auto root = makeRoot(style());
    ComputedStyle cs = fixed(400, 300);
    cs.position = Position::Relative;
    cs.borderWidth = {10, 10, 10, 10};
    cs.borderStyle = {BorderStyle::Solid, BorderStyle::Solid, BorderStyle::Solid, BorderStyle::Solid};
    Node *container = addElement(*root, cs);
    Node *inflow = addElement(*container, fixed(20, 20));
    ComputedStyle stretched = style();
    stretched.position = Position::Absolute;
    stretched.inset = {Length::px(5), Length::px(30), Length::autoLength(), Length::px(20)};
    stretched.height = Length::px(50);
    Node *a = addElement(*container, stretched);
    ComputedStyle anchored = fixed(50, 40);
    anchored.position = Position::Absolute;
    anchored.inset = {Length::autoLength(), Length::px(10), Length::px(20), Length::autoLength()};
    Node *b = addElement(*container, anchored);
    ComputedStyle shrink = style();
    shrink.position = Position::Absolute;
    shrink.inset[Top] = Length::px(0);
    shrink.inset[Left] = Length::percent(50);
    Node *c = addTextElement(*container, shrink, QStringLiteral("abc de"));
    const LayoutBox box = layOut(*root, QSizeF(500, 500));
    COMPARE_RECTS(box, {{container, QRectF(0, 0, 420, 320)},
                        {inflow, QRectF(10, 10, 20, 20)}, // abspos boxes take no room
                        {a, QRectF(30, 15, 350, 50)}, // width from left + right
                        {b, QRectF(350, 250, 50, 40)}, // right/bottom anchoring
                        {c, QRectF(210, 10, 60, 24)}}); // shrink-to-fit width
    // Document order is kept in the box tree.
    const LayoutBox *cont = find(box, container);
    QCOMPARE(int(cont->children.size()), 4);
    QCOMPARE(cont->children[1].node, a);
}

void TestLayoutBox::absoluteStaticPosition()
{
    auto root = makeRoot(style());
    root->style.justifyContent = JustifyContent::Center;
    root->style.alignItems = AlignItems::FlexEnd;
    ComputedStyle s = fixed(100, 50);
    s.position = Position::Absolute;
    Node *a = addElement(*root, s);
    ComputedStyle topOnly = s;
    topOnly.inset[Top] = Length::px(7);
    Node *b = addElement(*root, topOnly);
    const LayoutBox box = layOut(*root, QSizeF(400, 300));
    COMPARE_RECTS(box, {{a, QRectF(150, 250, 100, 50)}, {b, QRectF(150, 7, 100, 50)}});
}

void TestLayoutBox::absoluteContainingBlockIsNearestPositionedAncestor()
{
    ComputedStyle rs = style();
    rs.padding = {Length::px(20), Length::px(20), Length::px(20), Length::px(20)};
    auto root = makeRoot(rs); // static: its abspos descendants use the viewport
    ComputedStyle cs = fixed(200, 100);
    cs.padding[Left] = Length::px(30);
    Node *plain = addElement(*root, cs);
    ComputedStyle corner = fixed(10, 10);
    corner.position = Position::Absolute;
    corner.inset[Top] = Length::px(0);
    corner.inset[Right] = Length::px(0);
    Node *a = addElement(*plain, corner);
    ComputedStyle staticX = fixed(10, 10);
    staticX.position = Position::Absolute;
    staticX.inset[Bottom] = Length::px(5);
    Node *b = addElement(*plain, staticX);
    ComputedStyle positioned = fixed(100, 50);
    positioned.position = Position::Relative;
    positioned.margin[Left] = Length::px(7);
    Node *rel = addElement(*root, positioned);
    Node *inner = addElement(*rel, style());
    ComputedStyle full = style();
    full.position = Position::Absolute;
    full.inset = {Length::px(0), Length::px(0), Length::px(0), Length::px(0)};
    Node *c = addElement(*inner, full);
    const LayoutBox box = layOut(*root, QSizeF(500, 400));
    COMPARE_RECTS(box, {{a, QRectF(490, 0, 10, 10)}, // viewport corner, not the parent's
                        {b, QRectF(50, 385, 10, 10)}, // static x inside the parent, bottom from the viewport
                        {rel, QRectF(257, 20, 100, 50)},
                        {c, QRectF(257, 20, 100, 50)}}); // the relative grandparent's padding box
}

void TestLayoutBox::transformedOrFilteredAncestorsContainAbsolutes()
{
    // CSS Transforms 1 §2, Transforms 2 §7.1 and §8, Filter Effects 1 §5: a static
    // element with a transform, a perspective, preserve-3d or a filter is the containing
    // block of its absolutely placed descendants, as a positioned one is.
    auto root = makeRoot(style()); // static, 500×400
    std::vector<std::pair<Node *, Node *>> cases;
    for (int i = 0; i < 4; ++i) {
        ComputedStyle cs = fixed(100, 80);
        cs.margin[Left] = Length::px(10 + 110 * i);
        if (i == 0)
            cs.transform.push_back(
                TransformOp{.kind = TransformOp::Kind::Rotate3d, .x = Length::px(0), .y = Length::px(0), .a = 0});
        else if (i == 1)
            cs.perspective = 500;
        else if (i == 2)
            cs.transformStyle = TransformStyle::Preserve3d;
        else
            cs.effects.filter.push_back(FilterOp{.kind = FilterOp::Kind::Blur, .amount = 0, .shadow = {}});
        Node *parent = addElement(*root, cs);
        ComputedStyle corner = fixed(10, 10);
        corner.position = Position::Absolute;
        corner.inset[Bottom] = Length::px(0);
        corner.inset[Right] = Length::px(0);
        cases.emplace_back(parent, addElement(*parent, corner));
    }
    const LayoutBox box = layOut(*root, QSizeF(500, 400));
    for (const auto &[parent, corner] : cases) {
        const QRectF p = rectOf(box, parent);
        COMPARE_RECT(rectOf(box, corner), QRectF(p.right() - 10, p.bottom() - 10, 10, 10));
    }
}

void TestLayoutBox::relativeOffsets()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::FlexStart;
    ComputedStyle s = fixed(50, 20);
    s.position = Position::Relative;
    s.inset = {Length::px(5), Length::autoLength(), Length::autoLength(), Length::px(10)};
    Node *a = addElement(*root, s);
    ComputedStyle t = fixed(50, 20);
    t.position = Position::Relative;
    t.inset = {Length::autoLength(), Length::px(10), Length::px(4), Length::autoLength()};
    Node *b = addElement(*root, t);
    const LayoutBox box = layOut(*root, QSizeF(400, 300));
    COMPARE_RECTS(box, {{a, QRectF(10, 5, 50, 20)},
                        {b, QRectF(40, -4, 50, 20)}}); // siblings keep their static place
}

void TestLayoutBox::displayNoneRemovesBox()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::FlexStart;
    root->style.columnGap = Length::px(10);
    ComputedStyle none = fixed(50, 20);
    none.display = imprint::render::Display::None;
    Node *hidden = addElement(*root, none);
    addElement(*hidden, fixed(10, 10));
    Node *shown = addElement(*root, fixed(50, 20));
    const LayoutBox box = layOut(*root, QSizeF(400, 300));
    QCOMPARE(int(box.children.size()), 1);
    QVERIFY(!find(box, hidden));
    COMPARE_RECT(rectOf(box, shown), QRectF(0, 0, 50, 20)); // no gap for the missing box
}

void TestLayoutBox::blockStacking()
{
    ComputedStyle rs = style();
    rs.display = imprint::render::Display::Block;
    rs.padding[Top] = Length::px(5);
    auto root = makeRoot(rs);
    ComputedStyle first = style();
    first.height = Length::px(50);
    first.margin = {Length::px(10), Length::px(10), Length::px(10), Length::px(10)};
    Node *a = addElement(*root, first);
    ComputedStyle second = style();
    second.height = Length::px(30);
    second.margin[Top] = Length::px(20);
    second.width = Length::px(100);
    second.margin[Left] = Length::autoLength();
    second.margin[Right] = Length::autoLength();
    Node *b = addElement(*root, second);
    ComputedStyle out = fixed(20, 20);
    out.position = Position::Absolute;
    Node *abs = addElement(*root, out);
    ComputedStyle para = style();
    para.display = imprint::render::Display::Block;
    Node *p = addElement(*root, para);
    Node *run = addText(*p, QStringLiteral("aaaa bbbb cccc dddd"));
    FakeMeasurer text;
    const LayoutBox box = layoutDocument(*root, QSizeF(150, 400), text);
    COMPARE_RECTS(box, {{a, QRectF(10, 15, 130, 50)},
                        {b, QRectF(25, 85, 100, 30)}, // margins 10 and 20 collapse to 20
                        {abs, QRectF(0, 115, 20, 20)}}); // static position: where it would flow
    // The paragraph's text is one block-wide box: 150 px holds three words a line.
    COMPARE_RECTS(box, {{p, QRectF(0, 115, 150, 48)}, {run, QRectF(0, 115, 150, 48)}});
}

void TestLayoutBox::nestedColumnInRowSizedByContent()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::FlexStart;
    root->style.padding[Left] = Length::px(8);
    ComputedStyle column = style();
    column.flexDirection = FlexDirection::Column;
    Node *col = addElement(*root, column);
    Node *shortLine = addTextElement(*col, style(), QStringLiteral("aaaa"));
    Node *longLine = addTextElement(*col, style(), QStringLiteral("bbbbb bbbbb"));
    Node *after = addElement(*root, fixed(10, 10));
    const LayoutBox box = layOut(*root, QSizeF(600, 300));
    // The column is as wide as its widest child's max-content (110 px) and its items
    // stretch to that width.
    COMPARE_RECTS(box, {{col, QRectF(8, 0, 110, 48)}, {shortLine, QRectF(8, 0, 110, 24)},
                        {longLine, QRectF(8, 24, 110, 24)}, {after, QRectF(118, 0, 10, 10)}});
}

void TestLayoutBox::columnStretchedTextWrapsAtContainerWidth()
{
    auto root = makeRoot(style());
    root->style.flexDirection = FlexDirection::Column;
    root->style.padding = {Length::px(0), Length::px(10), Length::px(0), Length::px(10)};
    Node *item = addElement(*root, style());
    Node *run = addText(*item, QStringLiteral("aaaa bbbb cccc"));
    Node *next = addElement(*root, fixed(10, 10));
    const LayoutBox box = layOut(*root, QSizeF(120, 300));
    // 100 px of content width: "aaaa bbbb" / "cccc", and the next item below both lines.
    COMPARE_RECTS(box, {{item, QRectF(10, 0, 100, 48)},
                        {run, QRectF(10, 0, 100, 48)}, // the anonymous item shrank to the line
                        {next, QRectF(10, 48, 10, 10)}});
}

void TestLayoutBox::imageKeepsAspectRatio()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::FlexStart;
    ComputedStyle s = style();
    s.width = Length::px(100);
    Node *img = addElement(*root, s, QStringLiteral("img"));
    img->image = QImage(200, 80, QImage::Format_ARGB32);
    Node *natural = addElement(*root, style(), QStringLiteral("img"));
    natural->image = QImage(30, 20, QImage::Format_ARGB32);
    ComputedStyle byHeight = style();
    byHeight.height = Length::px(60);
    Node *tall = addElement(*root, byHeight, QStringLiteral("img"));
    tall->image = QImage(200, 80, QImage::Format_ARGB32);
    ComputedStyle capped = style();
    capped.maxWidth = Length::px(100);
    Node *big = addElement(*root, capped, QStringLiteral("img"));
    big->image = QImage(400, 200, QImage::Format_ARGB32);
    ComputedStyle pinned = style();
    pinned.position = Position::Absolute;
    pinned.inset = {Length::px(0), Length::px(0), Length::autoLength(), Length::px(0)};
    Node *abs = addElement(*root, pinned, QStringLiteral("img"));
    abs->image = QImage(30, 20, QImage::Format_ARGB32);
    const LayoutBox box = layOut(*root, QSizeF(400, 300));
    COMPARE_RECTS(box, {{img, QRectF(0, 0, 100, 40)}, {natural, QRectF(100, 0, 30, 20)},
                        {tall, QRectF(130, 0, 150, 60)}, {big, QRectF(280, 0, 100, 50)},
                        {abs, QRectF(0, 0, 30, 20)}}); // insets do not stretch an img
}

void TestLayoutBox::aspectRatioProperty()
{
    auto root = makeRoot(style());
    root->style.alignItems = AlignItems::FlexStart;
    ComputedStyle s = style();
    s.width = Length::px(100);
    s.aspectRatio = 2;
    s.padding = {Length::px(10), Length::px(10), Length::px(10), Length::px(10)};
    Node *content = addElement(*root, s);
    s.boxSizing = BoxSizing::BorderBox;
    Node *border = addElement(*root, s);
    const LayoutBox box = layOut(*root, QSizeF(400, 300));
    // The ratio sizes the box-sizing box: content 100×50, or border box 100×50.
    COMPARE_RECTS(box, {{content, QRectF(0, 0, 120, 70)}, {border, QRectF(120, 0, 100, 50)}});
}

// FakeMeasurer at font size 20: 10 px a character, 10 px a space, 24 px a line.
void TestLayoutBox::intrinsicSizeKeywordsInColumn()
{
    auto root = makeRoot(style());
    root->style.flexDirection = FlexDirection::Column;
    ComputedStyle pillStyle = style();
    pillStyle.width = Length::fitContent();
    pillStyle.padding = {Length::px(0), Length::px(10), Length::px(0), Length::px(10)};
    Node *pill = addTextElement(*root, pillStyle, QStringLiteral("ab cd"));
    ComputedStyle fit = style();
    fit.width = Length::fitContent();
    Node *wide = addTextElement(*root, fit, QStringLiteral("aaaa bbbb cccc dddd eeee ffff gggg"));
    ComputedStyle minContent = style();
    minContent.width = Length::minContent();
    Node *narrow = addTextElement(*root, minContent, QStringLiteral("aaa bbbbb"));
    ComputedStyle capped = style();
    capped.maxWidth = Length::maxContent();
    Node *headline = addTextElement(*root, capped, QStringLiteral("ab"));
    const LayoutBox box = layOut(*root, QSizeF(300, 400));
    // pill: fit-content: the max-content width (50 + 20 padding) rather than stretching.
    // wide: max-content 340 > 300 available: fit-content fills the column, six words a line.
    // narrow: min-content: the longest word, "bbbbb", one word a line.
    // headline: stretched to 300, then clamped by max-width: max-content.
    COMPARE_RECTS(box, {{pill, QRectF(0, 0, 70, 24)}, {wide, QRectF(0, 24, 300, 48)}, {narrow, QRectF(0, 72, 50, 48)},
                        {headline, QRectF(0, 120, 20, 24)}});
}

void TestLayoutBox::intrinsicSizeKeywordsInShrinkingRow()
{
    auto root = makeRoot(style());
    ComputedStyle basis = style();
    basis.flexBasis = Length::maxContent();
    Node *a = addTextElement(*root, basis, QStringLiteral("aaaa bbbb"));
    ComputedStyle floor = style();
    floor.width = Length::px(10);
    floor.minWidth = Length::minContent();
    floor.overflow = Overflow::Hidden;
    Node *b = addTextElement(*root, floor, QStringLiteral("cccccc dd"));
    ComputedStyle tall = style();
    tall.height = Length::maxContent();
    Node *c = addTextElement(*root, tall, QStringLiteral("e"));
    const LayoutBox box = layOut(*root, QSizeF(120, 100));
    // Bases 90 (max-content), 10 clamped up to min-content 60 (frozen), 10: 40 px too
    // many. a would shrink by 36 and c by 4, but c's automatic minimum is its 10 px
    // content, so c freezes and a gives up all 40, still above its 40 px min-content.
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 50, 100)}, {b, QRectF(50, 0, 60, 100)}});
    // height: max-content is not auto, so align-items: stretch leaves it at its content.
    COMPARE_RECT(rectOf(box, c), QRectF(110, 0, 10, 24));
}

void TestLayoutBox::intrinsicSizeKeywordsInBlockAndAbsolute()
{
    auto root = makeRoot(relativeBlock());
    ComputedStyle centred = style();
    centred.width = Length::fitContent();
    centred.margin[Left] = Length::autoLength();
    centred.margin[Right] = Length::autoLength();
    Node *a = addTextElement(*root, centred, QStringLiteral("ab cd"));
    ComputedStyle overflowing = style();
    overflowing.width = Length::maxContent();
    Node *b = addTextElement(*root, overflowing, QStringLiteral("aaaa bbbb cccc dddd eeee ffff gggg"));
    ComputedStyle abs = style();
    abs.position = Position::Absolute;
    abs.inset = {Length::px(100), Length::px(10), Length::autoLength(), Length::px(10)};
    abs.width = Length::fitContent();
    Node *c = addTextElement(*root, abs, QStringLiteral("aaaa bbbb cccc dddd"));
    const LayoutBox box = layOut(*root, QSizeF(200, 300));
    // a: auto margins centre the 50 px box in the 200 px containing block.
    // b: max-content ignores the containing block and overflows it.
    // c: fit-content between insets: 180 px available < 190 max-content, so two lines.
    COMPARE_RECTS(box, {{a, QRectF(75, 0, 50, 24)}, {b, QRectF(0, 24, 340, 24)}, {c, QRectF(10, 100, 180, 48)}});
}

void TestLayoutBox::heightKeywordsAreTheContentHeight()
{
    auto root = makeRoot(relativeBlock());
    ComputedStyle capped = style();
    capped.display = imprint::render::Display::Block;
    capped.height = Length::px(100);
    capped.maxHeight = Length::minContent();
    Node *a = addElement(*root, capped);
    addElement(*a, fixed(10, 30));
    ComputedStyle floored = style();
    floored.height = Length::px(5);
    floored.minHeight = Length::fitContent();
    floored.padding[Top] = Length::px(4);
    Node *b = addElement(*root, floored);
    addElement(*b, fixed(10, 20));
    ComputedStyle abs = style();
    abs.position = Position::Absolute;
    abs.inset = {Length::px(10), Length::autoLength(), Length::px(10), Length::px(0)};
    abs.height = Length::maxContent();
    Node *c = addTextElement(*root, abs, QStringLiteral("ab"));
    FakeMeasurer text;
    const LayoutBox box = layoutDocument(*root, QSizeF(200, 300), text);
    // A block's min-content and max-content heights are its content height: 30 caps
    // the 100 px height; 20 content + 4 padding lifts the 5 px one.
    COMPARE_RECTS(box, {{a, QRectF(0, 0, 200, 30)}, {b, QRectF(0, 30, 200, 24)}});
    // Between top and bottom insets a height keyword is still one line of text, 24 px.
    COMPARE_RECT(rectOf(box, c), QRectF(0, 10, 20, 24));
}

void TestLayoutBox::measurementsAreCached()
{
    auto root = makeRoot(style());
    root->style.flexDirection = FlexDirection::Column;
    for (int i = 0; i < 5; ++i)
        addTextElement(*root, style(), QStringLiteral("some words here"));
    FakeMeasurer text;
    layoutDocument(*root, QSizeF(400, 300), text);
    // Each run is asked about a handful of widths at most, not once per algorithm step.
    QVERIFY2(text.calls <= 5 * 4, qPrintable(QString::number(text.calls)));
}

void TestLayoutBox::deepTreesStayLinear()
{
    // 64 levels (the template limit) of alternating rows and columns, stretched and
    // centred, around one text run: each level must not multiply its children's work.
    auto root = makeRoot(style());
    Node *parent = root.get();
    for (int depth = 0; depth < 63; ++depth) {
        ComputedStyle s = style();
        s.flexDirection = depth % 2 ? FlexDirection::Column : FlexDirection::Row;
        s.alignItems = depth % 3 ? AlignItems::Stretch : AlignItems::Center;
        s.padding[Left] = Length::px(1);
        s.flexGrow = 1;
        parent = addElement(*parent, s);
    }
    Node *run = addText(*parent, QStringLiteral("deep words"));
    FakeMeasurer text;
    QElapsedTimer timer;
    timer.start();
    const LayoutBox box = layoutDocument(*root, QSizeF(400, 300), text);
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY(find(box, run));
    QCOMPARE(rectOf(box, run).height(), 24.0);
    QVERIFY2(text.calls < 20, qPrintable(QString::number(text.calls)));
}

void TestLayoutBox::stretchedImageTakesWidthFromRatio()
{
    auto root = makeRoot(style());
    Node *img = addElement(*root, style(), QStringLiteral("img"));
    img->image = QImage(50, 25, QImage::Format_ARGB32);
    const LayoutBox box = layOut(*root, QSizeF(400, 100));
    // Stretched to the 100 px line, a definite cross size (§9.8): width through the ratio.
    COMPARE_RECT(rectOf(box, img), QRectF(0, 0, 200, 100));
}

void TestLayoutBox::wideTreesStayFast()
{
    // The node limit's worth of wrapped chips, each a box around a text run.
    auto root = makeRoot(style());
    root->style.flexWrap = FlexWrap::Wrap;
    root->style.alignContent = AlignContent::FlexStart;
    root->style.columnGap = Length::px(4);
    std::vector<Node *> chips;
    for (int i = 0; i < 999; ++i) {
        Node *chip = addTextElement(*root, style(), QStringLiteral("ab cd"));
        chips.push_back(chip);
    }
    FakeMeasurer text;
    QElapsedTimer timer;
    timer.start();
    const LayoutBox box = layoutDocument(*root, QSizeF(1200, 630), text);
    QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
    // 50 px chips + 4 px gaps: 22 per 1200 px line, 24 px lines.
    COMPARE_RECTS(box, {{chips[21], QRectF(21 * 54, 0, 50, 24)}, {chips[22], QRectF(0, 24, 50, 24)}});
    QVERIFY2(text.calls < 999 * 4, qPrintable(QString::number(text.calls)));
}

QTEST_GUILESS_MAIN(TestLayoutBox)
#include "tst_layout_box.moc"
