// Inline formatting contexts (CSS Inline 3, CSS 2 §9.4.2 and §10.8): text runs and inline
// boxes of a block container laid out as one paragraph. Templates are built and laid out
// with the real text module (DejaVu Sans, as in Chromium). Numbers are worked out from
// DejaVu Sans' metrics (ascent 0.928 em, descent 0.236 em, no line gap; Chromium rounds
// each to whole px): 20 px → 19 + 5 = 24 px lines, 40 px → 37 + 9 = 46 px. Advances are
// checked against each other rather than hard-coded; tst_layout_fixtures holds the
// Chromium-measured boxes (conformance/inline-*).

#include "server/render/document/template.h"
#include "server/render/layout/layout.h"
#include "server/render/text/text_engine.h"
#include "server/render/text/vertical_align.h"
#include "tests/support/render_context.h"

#include <QJsonDocument>

#include <QTest>
#include <functional>

using namespace imprint::render;

namespace {

struct Laid {
    std::unique_ptr<Node> root;
    LayoutBox box;
};

/// Builds `json` (a bare element tree with a 600×400 root) and lays it out.
Laid lay(const char *json, QSizeF viewport = QSizeF(600, 400))
{
    RenderError error;
    QJsonObject root = QJsonDocument::fromJson(QByteArray(json)).object();
    const auto tmpl = parseTemplate(QJsonObject{{QStringLiteral("width"), viewport.width()},
                                                {QStringLiteral("height"), viewport.height()},
                                                {QStringLiteral("root"), root}});
    error = tmpl.error_or(error);
    if (!tmpl)
        qFatal("template: %s", qPrintable(error.message));
    const auto values = resolveVariables(*tmpl, {}, {});
    error = values.error_or(error);
    Laid out;
    auto built = buildDocument(*tmpl, *values);
    error = built.error_or(error);
    if (!built)
        qFatal("document: %s", qPrintable(error.message));
    out.root = std::move(*built);
    out.box = layoutDocument(*out.root, viewport, imprint::test::renderContext().text());
    return out;
}

/// The box of the element or text run with child-index path `id` (a text run's box
/// carries its element's id, so runs are found by their own path through `children`).
const LayoutBox *find(const LayoutBox &box, const QString &path)
{
    const QStringList parts = path.split(u'.');
    const LayoutBox *at = &box;
    for (qsizetype i = 1; i < parts.size(); ++i) {
        const int index = parts[i].toInt();
        const LayoutBox *next = nullptr;
        for (const LayoutBox &c : at->children) {
            if (c.node && at->node && index < int(at->node->children.size())
                && c.node == at->node->children[size_t(index)].get())
                next = &c;
        }
        if (!next)
            return nullptr;
        at = next;
    }
    return at;
}

} // namespace

class TestLayoutInline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsOfDifferentSizesShareALineOnTheBaseline();
    void spansAtUnsharedFractionalSizesAreExact();
    void inlineBoxWrapsIntoFragments();
    void horizontalEdgesTakeRoomVerticalOnesDoNot();
    void forcedBreakStartsALine();
    void blockChildSplitsTheParagraph();
    void textAlignAndDirectionPlaceLines();
    void linesFitAndAlignByTheirAdvanceNotTheirInk();
    void lineClampEllipsizesAcrossRuns();
    void intrinsicWidthsSumTheRuns();
    void flexContainerKeepsFlexItems();
    void inlineBlockIsAtomic();
    void wrappedAtomicInlineGrowsOnlyItsOwnLine();
    void lineBreaksMakeLinesAsChromium();
    void textOverflowCutAfterASpaceKeepsIt();
    void balanceKeepsTheLineCountAtTheNarrowestWidth();
    void balanceAndPrettyBreakAsChromium_data();
    void balanceAndPrettyBreakAsChromium();
    void syntheticSmallCapsStayInTheirRuns();
    void textIndentShiftsOnlyTheFirstLine();
    void verticalAlignShiftsAgainstTheParentBaseline();
    void verticalAlignTextEdgesAndMiddle();
    void verticalAlignTopAndBottomGrowTheLine();
    void verticalAlignInParagraphs();
    void inlineBlockBaselineIsItsLastLine();
    void verticalAlignIsIgnoredOnFlexItems();
    void ltrBoxInRtlLineSpansOnlyItsText();
    void rtlBoxInLtrLineSpansOnlyItsText();
    void bidiReorderingSplitsAnInlineBox();
    void rtlBoxWrapsWithItsEdgesWhereItStartsAndEnds();
};

// CSS 2 §10.8.1: each inline box contributes its line-height around the shared baseline;
// the line box is the strut of the container plus every box on the line.
void TestLayoutInline::runsOfDifferentSizesShareALineOnTheBaseline()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20},"children":["ab ",{"type":"span","props":{"style":{"fontSize":40},"children":"cd"}}]}})");
    const LayoutBox *text = find(l.box, QStringLiteral("0.0"));
    const LayoutBox *span = find(l.box, QStringLiteral("0.1"));
    QVERIFY(text && span);
    // 40 px: 37 above the baseline, 9 below; 20 px: 19 and 5. Line: 37 + 9 = 46, baseline at 37.
    QCOMPARE(l.box.children.size(), size_t(2));
    QCOMPARE(span->borderBox.top(), 0.0);
    QCOMPARE(span->borderBox.height(), 46.0);
    QCOMPARE(text->borderBox.top(), 37.0 - 19.0);
    QCOMPARE(text->borderBox.height(), 24.0);
    QCOMPARE(span->firstBaseline, 37.0);
    QCOMPARE(text->firstBaseline, 19.0);
    QVERIFY(span->borderBox.left() > text->borderBox.left() + 20); // "ab " comes first
    // The container's content height is the one line box.
    const LayoutBox tall = lay(R"({"type":"div","props":{"style":{"flexDirection":"column"},"children":[
        {"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans","fontSize":20},
        "children":["ab ",{"type":"span","props":{"style":{"fontSize":40},"children":"cd"}}]}}]}})")
                               .box;
    QCOMPARE(tall.children.at(0).borderBox.height(), 46.0);
}

// Issue 29: a 22.5 px paragraph with a 13.6 px span (no common ratio to whole sizes) kept
// the whole sizes' advances: the span was 149 px wide where Chromium's is 144.83
// (conformance/text-fractional-mixed). Each run is laid out and drawn at its exact size.
void TestLayoutInline::spansAtUnsharedFractionalSizesAreExact()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"Noto Sans",
        "fontSize":22.5},"children":["A 22.5 px headline with ",{"type":"span","props":{"style":{"fontSize":13.6},
        "children":"a 13.6 px span inside it"}}," and more text after it"]}})");
    const LayoutBox *span = find(l.box, QStringLiteral("0.1"));
    QVERIFY(span);
    QVERIFY2(std::abs(span->borderBox.width() - 144.83) < 0.5, qPrintable(QString::number(span->borderBox.width())));
    QCOMPARE(span->borderBox.height(), 19.0); // Chromium's content area at 13.6 px
    for (const LayoutBox &box : {l.box.children.at(0), span->children.at(0)}) {
        QVERIFY(box.text && !box.text->lines.empty());
        const qreal exact = box.node->style.fontSize;
        for (const QGlyphRun &run : box.text->lines.front().glyphRuns)
            QVERIFY2(std::abs(run.rawFont().pixelSize() - exact) < 1e-3,
                     qPrintable(QStringLiteral("%1 px for %2 px").arg(run.rawFont().pixelSize()).arg(exact)));
    }
}

// CSS Inline 3 §2.2: an inline box that wraps has one fragment per line, the later ones
// starting at the line's start edge.
void TestLayoutInline::inlineBoxWrapsIntoFragments()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","width":200,"fontFamily":"DejaVu Sans",
        "fontSize":20,"lineHeight":"30px"},"children":["Some words ",{"type":"b","props":{"children":
        "then bold words that wrap"}}," tail"]}})");
    const LayoutBox *b = find(l.box, QStringLiteral("0.1"));
    QVERIFY(b);
    QVERIFY2(b->fragments.size() >= 2, "the bold run spans lines");
    QCOMPARE(b->fragments[1].left(), 0.0);
    // Lines are 30 px; a 20 px content area (19 + 5 = 24) sits 3 px below the line top.
    QCOMPARE(b->fragments[0].top(), 3.0);
    QCOMPARE(b->fragments[1].top(), 33.0);
    QCOMPARE(b->fragments[0].height(), 24.0);
    QCOMPARE(b->borderBox, b->fragments[0].united(b->fragments.back()).united(b->fragments[1]));
    for (const QRectF &f : b->fragments)
        QVERIFY(f.right() <= 200.5);
    const LayoutBox *tail = find(l.box, QStringLiteral("0.2"));
    QVERIFY(tail && tail->borderBox.top() >= b->fragments.back().top());
}

// CSS 2 §10.8.1 / §9.4.2: horizontal margin, border and padding of an inline box push the
// text beside it; vertical padding paints outside the line without growing it.
void TestLayoutInline::horizontalEdgesTakeRoomVerticalOnesDoNot()
{
    const char *plain = R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20},"children":["a",{"type":"span","props":{"children":"b"}},"c"]}})";
    const char *padded = R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20},"children":["a",{"type":"span","props":{"style":{"padding":"10px 7px","marginLeft":5,
        "borderLeft":"3px solid red"},"children":"b"}},"c"]}})";
    const Laid a = lay(plain), b = lay(padded);
    const LayoutBox *spanA = find(a.box, QStringLiteral("0.1")), *spanB = find(b.box, QStringLiteral("0.1"));
    const LayoutBox *cA = find(a.box, QStringLiteral("0.2")), *cB = find(b.box, QStringLiteral("0.2"));
    QVERIFY(spanA && spanB && cA && cB);
    // Start edge 5 + 3 + 7, end edge 7: "c" moves 22 px.
    QVERIFY(std::abs(cB->borderBox.left() - cA->borderBox.left() - 22) < 0.05);
    // The border box starts after the margin and is 3 + 7 + 7 wider than the text.
    QVERIFY(std::abs(spanB->borderBox.left() - spanA->borderBox.left() - 5) < 0.05);
    QVERIFY(std::abs(spanB->borderBox.width() - spanA->borderBox.width() - 17) < 0.05);
    // Vertically: the content area (24) plus 10 + 10 padding, reaching above the line.
    QCOMPARE(spanB->borderBox.height(), 44.0);
    QCOMPARE(spanB->borderBox.top(), -10.0);
    QCOMPARE(b.box.children.size(), size_t(3));
    QCOMPARE(a.box.children.at(0).borderBox.top(), b.box.children.at(0).borderBox.top());
}

// HTML §15.3.3: br ends the line; the next text starts a new one at the start edge.
void TestLayoutInline::forcedBreakStartsALine()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20},"children":["one",{"type":"br"},{"type":"i","props":{"children":"two"}}]}})");
    const LayoutBox *two = find(l.box, QStringLiteral("0.2"));
    QVERIFY(two);
    QCOMPARE(two->borderBox.topLeft(), QPointF(0, 24));
}

// CSS 2 §9.2.1.1: inline content before and after a block box forms two anonymous blocks.
void TestLayoutInline::blockChildSplitsTheParagraph()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20},"children":["one ",{"type":"b","props":{"children":"two"}},{"type":"div","props":{
        "style":{"height":50}}},{"type":"em","props":{"children":"three"}}]}})");
    const LayoutBox *div = find(l.box, QStringLiteral("0.2"));
    const LayoutBox *em = find(l.box, QStringLiteral("0.3"));
    QVERIFY(div && em);
    QCOMPARE(div->borderBox, QRectF(0, 24, 600, 50));
    QCOMPARE(em->borderBox.topLeft(), QPointF(0, 74));
}

// CSS Text 3 §7.1: text-align places each line; start follows the direction.
void TestLayoutInline::textAlignAndDirectionPlaceLines()
{
    const Laid centred = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20,"textAlign":"center"},"children":["ab",{"type":"span","props":{"children":"cd"}}]}})");
    const LayoutBox *ab = find(centred.box, QStringLiteral("0.0"));
    const LayoutBox *cd = find(centred.box, QStringLiteral("0.1"));
    QVERIFY(ab && cd);
    const qreal left = ab->borderBox.left(), right = cd->borderBox.right();
    QVERIFY(std::abs((600 - right) - left) < 0.05);
    const Laid rtl = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20,"direction":"rtl"},"children":["שלום ",{"type":"b","props":{"children":"עולם"}}]}})");
    const LayoutBox *first = find(rtl.box, QStringLiteral("0.0"));
    const LayoutBox *bold = find(rtl.box, QStringLiteral("0.1"));
    QVERIFY(first && bold);
    QVERIFY(std::abs(first->borderBox.right() - 600) < 0.05); // the first word at the right edge
    QVERIFY(bold->borderBox.right() <= first->borderBox.left() + 0.05);
}

// CSS Text 3 §5.1 and §7.1: a line fits, sizes its box and is aligned by its glyphs'
// advances, as in Chromium; the leg of a bold "k" inks past its advance and overhangs the
// box. The figures are Chromium's boxes (scripts/chromium-oracle): "Ultralight Daypack" in
// 52 px DejaVu Sans Bold is 546.77 px, "Daypack" 248.28 px; Qt adds the k's ~1 px of ink,
// which wrapped the title in a 547 px box and widened the pill.
void TestLayoutInline::linesFitAndAlignByTheirAdvanceNotTheirInk()
{
    // A run and a rich paragraph (a span) in a box 0.23 px wider than the text's advance.
    const Laid run = lay(R"({"type":"div","props":{"style":{"display":"block","width":547,
        "fontFamily":"DejaVu Sans","fontSize":52,"fontWeight":700},"children":"Ultralight Daypack"}})");
    QCOMPARE(run.box.children.at(0).borderBox.height(), 60.0); // one 48 + 12 px line, not two
    const Laid rich = lay(R"({"type":"div","props":{"style":{"display":"block","width":547,
        "fontFamily":"DejaVu Sans","fontSize":52,"fontWeight":700},
        "children":["Ultralight ",{"type":"span","props":{"children":"Daypack"}}]}})");
    QCOMPARE(rich.box.children.at(0).borderBox.height(), 60.0);
    // A shrink-to-fit pill is as wide as the advances.
    const Laid pill = lay(R"({"type":"div","props":{"style":{"alignItems":"flex-start"},"children":[
        {"type":"div","props":{"style":{"fontFamily":"DejaVu Sans","fontSize":52,"fontWeight":700},
        "children":"Daypack"}}]}})");
    QVERIFY2(std::abs(pill.box.children.at(0).borderBox.width() - 248.28) < 0.3,
             qPrintable(QString::number(pill.box.children.at(0).borderBox.width())));
    // Right-aligned, the last advance ends at the box's edge.
    const Laid right = lay(R"({"type":"div","props":{"style":{"display":"block","width":500,"textAlign":"right",
        "fontFamily":"DejaVu Sans","fontSize":52,"fontWeight":700},
        "children":["Day",{"type":"span","props":{"children":"pack"}}]}})");
    const LayoutBox *pack = find(right.box, QStringLiteral("0.1"));
    QVERIFY(pack);
    QVERIFY2(std::abs(pack->borderBox.right() - 500) < 0.05, qPrintable(QString::number(pack->borderBox.right())));
}

// CSS Overflow 4 §line-clamp: the lines of all runs count; the last kept line ends in "…".
void TestLayoutInline::lineClampEllipsizesAcrossRuns()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"alignItems":"flex-start"},"children":[{"type":"div",
        "props":{"style":{"display":"block","width":200,"fontFamily":"DejaVu Sans",
        "fontSize":20,"lineClamp":2},"children":["many words here ",{"type":"b","props":{"children":
        "and bold words too"}}," and more words after them"]}}]}})");
    const LayoutBox &para = l.box.children.at(0);
    QCOMPARE(para.borderBox.height(), 48.0); // two 24 px lines
    bool ellipsized = false;
    const std::function<void(const LayoutBox &)> visit = [&](const LayoutBox &c) {
        if (c.text && c.text->ellipsized)
            ellipsized = true;
        if (c.text) { // drawn lines (paragraph coordinates: the paragraph is at 0,0)
            for (const TextLine &line : c.text->lines)
                QVERIFY(line.left + line.width <= 200.5 && line.top + line.height <= 48.5);
        }
        for (const LayoutBox &child : c.children)
            visit(child);
    };
    visit(para);
    QVERIFY(ellipsized);
    // The runs after the clamp are laid out below it, as in Chromium, but draw nothing.
    const LayoutBox *after = find(l.box, QStringLiteral("0.0.2"));
    QVERIFY(after && after->borderBox.top() >= 48 && after->text && after->text->lines.empty());
}

// CSS Sizing 3 §5.2: the paragraph's max-content width is its unbroken line, min-content
// its longest word; a shrink-to-fit parent takes them.
void TestLayoutInline::intrinsicWidthsSumTheRuns()
{
    const Laid one = lay(R"({"type":"div","props":{"style":{"alignItems":"flex-start"},"children":[
        {"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans","fontSize":20},
        "children":["ab ",{"type":"b","props":{"children":"cd"}}]}}]}})");
    const LayoutBox &para = one.box.children.at(0);
    const LayoutBox *b = find(one.box, QStringLiteral("0.0.1"));
    QVERIFY(b);
    QVERIFY(std::abs(para.borderBox.width() - b->borderBox.right()) < 0.05);
    const Laid narrow = lay(R"({"type":"div","props":{"style":{"alignItems":"flex-start"},"children":[
        {"type":"div","props":{"style":{"display":"block","width":"min-content","fontFamily":"DejaVu Sans",
        "fontSize":20},"children":["ab ",{"type":"b","props":{"children":"cdcdcd"}}]}}]}})");
    const LayoutBox *bold = find(narrow.box, QStringLiteral("0.0.1"));
    QVERIFY(bold);
    QVERIFY(std::abs(narrow.box.children.at(0).borderBox.width() - bold->borderBox.width()) < 0.05);
    QCOMPARE(bold->borderBox.top(), 24.0); // the longer word went to line 2
}

// Compatibility (docs/templates.md): in a flex container (a div by default) the children
// stay flex items, as in Chromium: an inline span is blockified, not a paragraph run.
void TestLayoutInline::flexContainerKeepsFlexItems()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"fontFamily":"DejaVu Sans","fontSize":20},
        "children":["ab ",{"type":"span","props":{"style":{"padding":10},"children":"cd"}}]}})");
    const LayoutBox *span = find(l.box, QStringLiteral("0.1"));
    QVERIFY(span);
    QVERIFY(span->fragments.empty());
    QCOMPARE(span->borderBox.top(), 0.0); // a stretched flex item, its padding inside its box
    QCOMPARE(span->borderBox.height(), 400.0);
}

// CSS 2 §10.8.1: an inline-block is atomic: it sits on the baseline with its own first
// line's baseline, and its height grows the line box.
void TestLayoutInline::inlineBlockIsAtomic()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20},"children":["ab ",{"type":"span","props":{"style":{"display":"inline-block",
        "paddingTop":30},"children":"cd"}}]}})");
    const LayoutBox *block = find(l.box, QStringLiteral("0.1"));
    const LayoutBox *text = find(l.box, QStringLiteral("0.0"));
    QVERIFY(block && text);
    // Its baseline is 30 + 19 from its top: the line's baseline is at 49, the line 49 + 5 tall.
    QCOMPARE(block->borderBox.top(), 0.0);
    QCOMPARE(block->borderBox.height(), 54.0);
    QCOMPARE(text->borderBox.top(), 49.0 - 19.0);
    QCOMPARE(l.box.children.size(), size_t(2));
}

// An atomic inline too wide for what is left of the line goes to the next line, and only
// that line takes its height (CSS 2 §10.8): the first line stays as tall as its text.
void TestLayoutInline::wrappedAtomicInlineGrowsOnlyItsOwnLine()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"alignItems":"flex-start"},"children":[
        {"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans","fontSize":20},
        "children":["ab ",{"type":"div","props":{"style":{"display":"inline-block","width":580,"height":100}}},
        " cd"]}}]}})");
    const LayoutBox *paragraph = find(l.box, QStringLiteral("0.0"));
    const LayoutBox *before = find(l.box, QStringLiteral("0.0.0"));
    const LayoutBox *block = find(l.box, QStringLiteral("0.0.1"));
    QVERIFY(paragraph && before && block);
    QCOMPARE(before->borderBox.top(), 0.0);
    QCOMPARE(block->borderBox.top(), 24.0);
    // The second line: the box on the baseline (its bottom), the font's descent below it;
    // " cd" does not fit beside it, so it makes a third line (Chromium: 153 px in all).
    QCOMPARE(paragraph->borderBox.height(), 24.0 + 105.0 + 24.0);
}

// A br is text to Chromium (LayoutBR): in a flex container it joins the text beside it in
// one anonymous item, or alone is an item one line tall; a br that ends a paragraph starts
// no line. Heights as Chromium lays them out (DejaVu Sans 16 px, line-height 1.5: 24 px lines).
void TestLayoutInline::lineBreaksMakeLinesAsChromium()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"alignItems":"flex-start","fontFamily":"DejaVu Sans",
        "fontSize":16,"lineHeight":1.5},"children":[
        {"type":"div","props":{"style":{"flexDirection":"column","width":150},
          "children":["Lost Island AB ",{"type":"br"}," Sveavägen 21",{"type":"br"}]}},
        {"type":"div","props":{"style":{"flexDirection":"column","width":150},
          "children":[{"type":"span","props":{"children":"a"}},{"type":"br"},{"type":"span","props":{"children":"b"}}]}},
        {"type":"div","props":{"style":{"display":"block","width":150},"children":["a",{"type":"br"}]}},
        {"type":"div","props":{"style":{"display":"block","width":150},"children":["a",{"type":"br"},{"type":"br"},"b"]}},
        {"type":"div","props":{"style":{"width":150},"children":[{"type":"br"},{"type":"br"}]}}]}})");
    const qreal expected[] = {48, 72, 24, 72, 48};
    for (int i = 0; i < 5; ++i) {
        const LayoutBox *box = find(l.box, QStringLiteral("0.%1").arg(i));
        QVERIFY(box);
        QCOMPARE(box->borderBox.height(), expected[i]);
    }
    const LayoutBox *lone = find(l.box, QStringLiteral("0.1.1"));
    QVERIFY(lone);
    QCOMPARE(lone->borderBox.top(), 24.0);
    QCOMPARE(lone->borderBox.height(), 24.0);
}

// text-overflow in a paragraph: a cut after a space keeps it before "…", as Chromium draws
// "anchor …" (tst_text holds the same for a flex item's text). Compared by where the
// ellipsis glyph starts.
void TestLayoutInline::textOverflowCutAfterASpaceKeepsIt()
{
    // A span keeps the paragraph an inline formatting context of its own (a lone text
    // child is shaped as a text run, which tst_text covers).
    const auto ellipsisAt = [](const char *text, const char *overflow) {
        const QString json = QStringLiteral(R"({"type":"div","props":{"style":{"alignItems":"flex-start"},"children":[
            {"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans","fontSize":30,
            "whiteSpace":"nowrap","overflow":"hidden","textOverflow":"%1","width":150},
            "children":["%2",{"type":"span","props":{"children":"where"}}]}}]}})")
                                 .arg(QLatin1String(overflow), QString::fromUtf8(text));
        const Laid l = lay(json.toUtf8().constData());
        const LayoutBox *run = find(l.box, QStringLiteral("0.0.0"));
        qreal last = -1; // x of the run's last glyph
        if (run && run->text)
            for (const TextLine &line : run->text->lines)
                for (const QGlyphRun &g : line.glyphRuns)
                    for (const QPointF &p : g.positions())
                        last = std::max(last, p.x());
        return last;
    };
    const qreal cut = ellipsisAt("anchor what ", "ellipsis");
    const qreal spaced = ellipsisAt("anchor \u2026", "clip");
    const qreal tight = ellipsisAt("anchor\u2026", "clip");
    QVERIFY(cut > 0);
    QCOMPARE(cut, spaced);
    QVERIFY2(spaced > tight + 5, qPrintable(QStringLiteral("%1 %2").arg(spaced).arg(tight)));
}

// CSS Text 4 §6.2 text-wrap: balance of a paragraph the score line breaker does not model
// (here a soft hyphen, whose break would add a hyphen and a penalty): the same number of
// lines as auto, each as short as the count allows (Blink's older balancer bisected the
// width); the lines still align in the full box.
void TestLayoutInline::balanceKeepsTheLineCountAtTheNarrowestWidth()
{
    ComputedStyle s;
    s.fontFamily = {QStringLiteral("DejaVu Sans")};
    s.fontSize = 20;
    const QString text = QStringLiteral("Ship beautiful social cards from a single JSON template in milli\u00adseconds");
    TextEngine &engine = imprint::test::renderContext().text();
    const auto autoBlock = engine.shape(s, text, 300);
    s.textWrapStyle = TextWrapStyle::Balance;
    const auto balanced = engine.shape(s, text, 300);
    QCOMPARE(balanced->lines.size(), autoBlock->lines.size());
    QVERIFY(autoBlock->lines.size() == 3);
    QVERIFY2(balanced->size.width() < autoBlock->size.width() - 20, "balanced lines are narrower");
    // One px narrower than the balanced lines, auto wrapping needs a fourth line: the
    // balanced width is the narrowest that keeps three.
    s.textWrapStyle = TextWrapStyle::Auto;
    QVERIFY(engine.shape(s, text, balanced->size.width() - 1)->lines.size() > 3);
}

// CSS Text 4 §6.2 text-wrap: balance and pretty choose their breaks as Chromium's score
// line breaker does (Minikin's: the least squared room left, a penalty per line and one for
// breaking before the last word; under pretty the last line's room is free): the lines
// below are Chromium 156's for the same text, font and width. The width bisection kept
// "by" on the second line of the first headline; a greedy paragraph left "today" alone.
void TestLayoutInline::balanceAndPrettyBreakAsChromium_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("fontSize");
    QTest::addColumn<int>("weight");
    QTest::addColumn<QString>("family");
    QTest::addColumn<bool>("balance");
    QTest::addColumn<QStringList>("lines");
    QTest::newRow("three lines, the shorter middle") // the Tailwind card's text-balance headline
        << "A headline balanced across two lines by text-balance" << 672 << 60 << 700 << "Noto Sans" << true
        << QStringList{"A headline balanced", "across two lines", "by text-balance"};
    QTest::newRow("even thirds") << "Ship beautiful social cards from a single JSON template in milliseconds" << 300
                                 << 20 << 400 << "DejaVu Sans" << true
                                 << QStringList{"Ship beautiful social", "cards from a single JSON",
                                                "template in milliseconds"};
    QTest::newRow("four lines") << "How we cut our Open Graph image pipeline from four seconds to forty milliseconds"
                                << 700 << 48 << 700 << "DejaVu Sans" << true
                                << QStringList{"How we cut our Open", "Graph image pipeline", "from four seconds",
                                               "to forty milliseconds"};
    QTest::newRow("pretty, a word alone") << "The the everywhere by social fox open by jumps text" << 380 << 28 << 400
                                          << "Inter" << false
                                          << QStringList{"The the everywhere", "by social fox open by", "jumps text"};
    QTest::newRow("pretty, bold") << "For and and today the for social with everywhere social brown today" << 380
                                  << 24 << 700 << "Inter" << false
                                  << QStringList{"For and and today the for", "social with everywhere social",
                                                 "brown today"};
}

void TestLayoutInline::balanceAndPrettyBreakAsChromium()
{
    QFETCH(QString, text);
    QFETCH(int, width);
    QFETCH(int, fontSize);
    QFETCH(int, weight);
    QFETCH(QString, family);
    QFETCH(bool, balance);
    QFETCH(QStringList, lines);
    ComputedStyle s;
    s.fontFamily = {family};
    s.fontSize = float(fontSize);
    s.fontWeight = weight;
    s.lineHeight = LineHeight{LineHeight::Type::Number, 1.2f};
    s.textWrapStyle = balance ? TextWrapStyle::Balance : TextWrapStyle::Pretty;
    const auto block = imprint::test::renderContext().text().shape(s, text, width);
    QStringList got;
    for (const TextLine &line : block->lines)
        got << text.mid(line.textStart, line.textLength).trimmed();
    QCOMPARE(got, lines);
}

// Small capitals Inter lacks are synthesized per run (font_features.h): in a small-caps
// paragraph a span set back to `normal` keeps its lowercase letters at full size. The
// paragraph's capitals once applied to every run of the layout, the span's too (238.77 px
// wide and at x 272.38 in Chromium 156).
void TestLayoutInline::syntheticSmallCapsStayInTheirRuns()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"alignItems":"flex-start","fontFamily":"Inter",
        "fontSize":36},"children":[{"type":"p","props":{"style":{"display":"block","margin":0,
        "fontVariantCaps":"small-caps"},"children":["Small caps with ",{"type":"span","props":{"style":{
        "fontVariantCaps":"normal"},"children":"a normal span"}}," after"]}}]}})",
                       QSizeF(900, 200));
    const LayoutBox *span = find(l.box, QStringLiteral("0.0.1"));
    QVERIFY(span);
    QVERIFY2(std::abs(span->borderBox.width() - 238.77) < 1 && std::abs(span->borderBox.left() - 252.38) < 1,
             qPrintable(QStringLiteral("%1 wide at %2").arg(span->borderBox.width()).arg(span->borderBox.left())));
}

// CSS Text 3 §8.1: text-indent moves the first line of the paragraph (not each run) in
// from the start edge and narrows it; a percentage is of the block's width.
void TestLayoutInline::textIndentShiftsOnlyTheFirstLine()
{
    // Inline paragraph: "ab" starts at the indent, the span follows it on the same line.
    const Laid px = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20,"textIndent":40},"children":["ab",{"type":"span","props":{"children":"cd"}}]}})");
    const LayoutBox *ab = find(px.box, QStringLiteral("0.0"));
    const LayoutBox *cd = find(px.box, QStringLiteral("0.1"));
    QVERIFY(ab && cd);
    QCOMPARE(ab->borderBox.left(), 40.0);
    QVERIFY(std::abs(cd->borderBox.left() - ab->borderBox.right()) < 0.05);
    const Laid pct = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20,"textIndent":"10%"},"children":["ab",{"type":"span","props":{"children":"cd"}}]}})");
    QCOMPARE(find(pct.box, QStringLiteral("0.0"))->borderBox.left(), 60.0); // 10% of 600

    // Single run, shaped at 300px: the first line starts at 50, the next ones at 0, and the
    // first line is 50px narrower. "aaaa " is 5 × 12.04 = 60.2px at 20px DejaVu Sans.
    const Laid run = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20,"textIndent":50},"children":"aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa"}})");
    const Node &text = *run.root->children.front();
    const auto block = imprint::test::renderContext().text().shape(text, 300);
    QVERIFY(block && block->lines.size() >= 2);
    QCOMPARE(block->lines[0].left, 50.0);
    QCOMPARE(block->lines[1].left, 0.0);
    QVERIFY2(block->lines[0].width <= 250.05, qPrintable(QString::number(block->lines[0].width)));
    QVERIFY(block->lines[1].width > 250.05); // the later lines use the whole 300px
    // RTL: the indent is on the right; the first line ends 50px before the right edge.
    ComputedStyle rtl = text.style;
    rtl.direction = Direction::Rtl;
    const auto rtlBlock = imprint::test::renderContext().text().shape(rtl, QStringLiteral("שלום עולם"), 300);
    QVERIFY(std::abs(rtlBlock->lines[0].left + rtlBlock->lines[0].width - 250) < 0.05);
    // The indent counts in the max-content width (intrinsic sizing).
    const auto unbounded = imprint::test::renderContext().text().shape(text.style, QStringLiteral("ab"),
                                                                       std::numeric_limits<qreal>::infinity());
    QCOMPARE(unbounded->lines[0].left, 50.0);
    QVERIFY(std::abs(unbounded->size.width() - (50 + unbounded->lines[0].width)) < 0.01);
}

namespace {

using VA = VerticalAlign::Keyword;

/// A line-box entry with the layout bounds `above`/`below` and, as a parent, a font of
/// `fontSize` px with ascent `ascent`, descent `descent` and x-height `xHeight`.
LineBoxEntry entry(int parent, VerticalAlign align, qreal above, qreal below, qreal fontSize = 20, qreal ascent = 19,
                   qreal descent = 5, qreal xHeight = 10.5)
{
    LineBoxEntry e;
    e.parent = parent;
    e.align = align;
    e.above = above;
    e.below = below;
    e.fontSize = fontSize;
    e.fontAscent = ascent;
    e.fontDescent = descent;
    e.xHeight = xHeight;
    e.lineHeight = above + below;
    return e;
}

VerticalAlign va(VA keyword, Length length = Length::px(0))
{
    return VerticalAlign{keyword, length};
}

} // namespace

// CSS 2 §10.8.1 baseline-relative values, as Chromium computes them: sub lowers the
// baseline by 1/5 of the parent's font size + 1 px, super raises it by 1/3 + 1 px (in
// 1/64 px), a length raises it by that length, a percentage by that share of the box's
// own line-height; shifts of nested boxes add up.
void TestLayoutInline::verticalAlignShiftsAgainstTheParentBaseline()
{
    const LineBoxEntry root = entry(-1, {}, 19, 5);
    // sub: 20 / 5 + 1 = 5 px down; the shifted box (19 above, 5 below) reaches 10 below.
    LineBoxAlignment a = alignLineBox({root, entry(0, va(VA::Sub), 19, 5)});
    QCOMPARE(a.offsets[1], 5.0);
    QCOMPARE(a.above, 19.0);
    QCOMPARE(a.below, 10.0);
    // super: 20 / 3 = 6.65625 in 1/64 px, + 1 px up; the box's top is 26.65625 above.
    a = alignLineBox({root, entry(0, va(VA::Super), 19, 5)});
    QCOMPARE(a.offsets[1], -7.65625);
    QCOMPARE(a.above, 26.65625);
    QCOMPARE(a.below, 5.0);
    // A length raises (negative lowers); a percentage is of the box's own line-height (24 px).
    a = alignLineBox(
        {root, entry(0, va(VA::Length, Length::px(12)), 10, 2), entry(0, va(VA::Length, Length::percent(-50)), 19, 5)});
    QCOMPARE(a.offsets[1], -12.0);
    QCOMPARE(a.offsets[2], 12.0);
    QCOMPARE(a.above, 22.0); // 10 + 12
    QCOMPARE(a.below, 17.0); // 5 + 12
    // Nested: a super box (parent 40 px: 40 / 3 = 13.328125, + 1) inside a box raised 10 px.
    a = alignLineBox(
        {root, entry(0, va(VA::Length, Length::px(10)), 37, 9, 40, 37, 9), entry(1, va(VA::Super), 10, 3)});
    QCOMPARE(a.offsets[1], -10.0);
    QCOMPARE(a.offsets[2], -10.0 - 14.328125);
    QCOMPARE(a.above, 47.0); // the outer box: 37 + 10; the inner one reaches 34.328125
    QCOMPARE(a.below, 5.0);
    // baseline: no shift; the line is the union of the strut and the box.
    a = alignLineBox({root, entry(0, {}, 37, 9)});
    QCOMPARE(a.offsets[1], 0.0);
    QCOMPARE(a.above + a.below, 46.0);
}

// CSS 2 §10.8.1: text-top / text-bottom put the box's top / bottom at the parent's content
// area edge (its font's ascent 19 / descent 5, not the half-leading); middle puts the box's
// midpoint half the parent's x-height (10.5 px) above the baseline.
void TestLayoutInline::verticalAlignTextEdgesAndMiddle()
{
    const LineBoxEntry root = entry(-1, {}, 25, 11); // a 20 px font in 36 px lines
    LineBoxAlignment a = alignLineBox({root, entry(0, va(VA::TextTop), 10, 3), entry(0, va(VA::TextBottom), 10, 3)});
    QCOMPARE(a.offsets[1] - 10, -19.0); // top at the parent's ascent
    QCOMPARE(a.offsets[2] + 3, 5.0); // bottom at its descent
    QCOMPARE(a.above, 25.0);
    QCOMPARE(a.below, 11.0);
    // A 40 × 40 image (baseline at its bottom): its middle at 5.25 px above the baseline.
    a = alignLineBox({root, entry(0, va(VA::Middle), 40, 0)});
    QCOMPARE(a.offsets[1], 20.0 - 5.25);
    QCOMPARE(a.above, 25.25); // 40 - 14.75
    QCOMPARE(a.below, 14.75);
    // text-top inside a box: against that box's font (40 px: ascent 37), moved with the box.
    a = alignLineBox({root, entry(0, va(VA::Sub), 37, 9, 40, 37, 9), entry(1, va(VA::TextTop), 10, 3)});
    QCOMPARE(a.offsets[1], 5.0);
    QCOMPARE(a.offsets[2], 5.0 - 37 + 10);
}

// CSS 2 §10.8.1 top / bottom: aligned last, against the line's aligned subtree; a taller
// box keeps that edge and grows the line at the other one.
void TestLayoutInline::verticalAlignTopAndBottomGrowTheLine()
{
    const LineBoxEntry root = entry(-1, {}, 19, 5);
    // A 10 px tall box at the top and one at the bottom of a 24 px line.
    LineBoxAlignment a = alignLineBox({root, entry(0, va(VA::Top), 8, 2), entry(0, va(VA::Bottom), 8, 2)});
    QCOMPARE(a.offsets[1] - 8, -19.0);
    QCOMPARE(a.offsets[2] + 2, 5.0);
    QCOMPARE(a.above + a.below, 24.0);
    // A 60 px image at the top: the line keeps its baseline 19 px below the top and grows
    // below to 60; a 24 px span at the bottom then sits on the new bottom edge.
    a = alignLineBox({root, entry(0, va(VA::Top), 60, 0), entry(0, va(VA::Bottom), 19, 5)});
    QCOMPARE(a.above, 19.0);
    QCOMPARE(a.below, 41.0);
    QCOMPARE(a.offsets[1] - 60, -19.0);
    QCOMPARE(a.offsets[2], 36.0);
    // The same image at the bottom grows the line above instead.
    a = alignLineBox({root, entry(0, va(VA::Bottom), 60, 0)});
    QCOMPARE(a.above, 55.0);
    QCOMPARE(a.below, 5.0);
    QCOMPARE(a.offsets[1], 5.0);
    // Not part of the aligned subtree: a raised box does not move a top-aligned one's place,
    // which is the top of the whole line.
    a = alignLineBox({root, entry(0, va(VA::Length, Length::px(20)), 19, 5), entry(0, va(VA::Top), 8, 2)});
    QCOMPARE(a.above, 39.0);
    QCOMPARE(a.offsets[2] - 8, -39.0);
    // Inside a top-aligned box, a bottom-aligned one aligns against that box (its subtree
    // is 24 px: 19 above, 5 below), and moves with it.
    a = alignLineBox({root, entry(0, va(VA::Length, Length::px(20)), 19, 5), entry(0, va(VA::Top), 19, 5),
                      entry(2, va(VA::Bottom), 4, 0)});
    QCOMPARE(a.offsets[2], -39.0 + 19);
    QCOMPARE(a.offsets[3], a.offsets[2] + 5);
}

// The same steps on real paragraphs (DejaVu Sans 20 px: 19 + 5 px lines).
void TestLayoutInline::verticalAlignInParagraphs()
{
    // sub: the span's box 5 px lower; the line 29 px tall, its baseline still 19 px down.
    Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20},"children":["ab",{"type":"span","props":{"style":{"verticalAlign":"sub"},"children":"cd"}}]}})");
    QCOMPARE(find(l.box, QStringLiteral("0.0"))->borderBox.top(), 0.0);
    QCOMPARE(find(l.box, QStringLiteral("0.1"))->borderBox.top(), 5.0);
    QCOMPARE(find(l.box, QStringLiteral("0.1"))->firstBaseline, 19.0);
    QCOMPARE(l.box.children.size(), size_t(2));
    const LayoutBox column = lay(R"({"type":"div","props":{"style":{"flexDirection":"column"},"children":[
        {"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans","fontSize":20},
        "children":["ab",{"type":"sup","props":{"style":{"fontSize":20},"children":"cd"}}]}}]}})")
                                 .box;
    // sup (vertical-align: super by default): 7.65625 up, so the line is 31.65625 tall.
    QCOMPARE(column.children.at(0).borderBox.height(), 31.65625);
    QCOMPARE(column.children.at(0).children.at(0).borderBox.top(), 7.65625);
    QCOMPARE(column.children.at(0).children.at(1).borderBox.top(), 0.0);
    // A 60 px image at the top and a span at the bottom: the line is the image's height,
    // the text on the line's baseline 19 px down, the span's box ending at the line's bottom.
    l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans","fontSize":20},
        "children":["ab",{"type":"img","props":{"src":"data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHdpZHRoPSIxMCIgaGVpZ2h0PSI2MCIvPg==",
        "style":{"width":10,"height":60,"verticalAlign":"top"}}},
        {"type":"span","props":{"style":{"verticalAlign":"bottom"},"children":"cd"}}]}})");
    QCOMPARE(find(l.box, QStringLiteral("0.1"))->borderBox,
             QRectF(find(l.box, QStringLiteral("0.1"))->borderBox.left(), 0, 10, 60));
    QCOMPARE(find(l.box, QStringLiteral("0.0"))->borderBox.top(), 0.0);
    QCOMPARE(find(l.box, QStringLiteral("0.2"))->borderBox.top(), 36.0);
    QCOMPARE(find(l.box, QStringLiteral("0.2"))->borderBox.bottom(), 60.0);
}

// CSS 2 §10.8.1: an inline-block's baseline is its last line box's; with overflow other
// than visible, or without line boxes, its bottom margin edge.
void TestLayoutInline::inlineBlockBaselineIsItsLastLine()
{
    // "aa bb" in 30 px wraps into two 24 px lines: the baseline 24 + 19 = 43 px down.
    Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans","fontSize":20},
        "children":["x",{"type":"div","props":{"style":{"display":"inline-block","width":30},"children":"aa bb"}}]}})");
    QCOMPARE(find(l.box, QStringLiteral("0.1"))->borderBox.height(), 48.0);
    QCOMPARE(find(l.box, QStringLiteral("0.1"))->borderBox.top(), 0.0);
    QCOMPARE(find(l.box, QStringLiteral("0.0"))->borderBox.top(), 43.0 - 19.0);
    // The same in a paragraph of its own inside the inline-block (a nested block's lines count).
    l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans","fontSize":20},
        "children":["x",{"type":"div","props":{"style":{"display":"inline-block","width":30},"children":[
        {"type":"div","props":{"style":{"display":"block"},"children":["aa ",{"type":"b","props":{"children":"bb"}}]}},
        {"type":"div","props":{"style":{"height":10}}}]}}]}})");
    QCOMPARE(find(l.box, QStringLiteral("0.1"))->borderBox.height(), 58.0);
    QCOMPARE(find(l.box, QStringLiteral("0.0"))->borderBox.top(), 43.0 - 19.0);
    // overflow: hidden: the bottom margin edge (48 + 4 px of margin) is the baseline.
    l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans","fontSize":20},
        "children":["x",{"type":"div","props":{"style":{"display":"inline-block","width":30,"overflow":"hidden",
        "marginBottom":4},"children":"aa bb"}}]}})");
    QCOMPARE(find(l.box, QStringLiteral("0.0"))->borderBox.top(), 52.0 - 19.0);
    // No line boxes: the bottom margin edge too.
    l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans","fontSize":20},
        "children":["x",{"type":"div","props":{"style":{"display":"inline-block","width":30,"height":40}}}]}})");
    QCOMPARE(find(l.box, QStringLiteral("0.0"))->borderBox.top(), 40.0 - 19.0);
}

// CSS 2 §10.8.1 applies to inline-level boxes: on a flex item vertical-align does nothing
// (and warns of nothing, as CSS ignores it there).
void TestLayoutInline::verticalAlignIsIgnoredOnFlexItems()
{
    const Laid plain = lay(R"({"type":"div","props":{"style":{"fontFamily":"DejaVu Sans","fontSize":20},
        "children":[{"type":"div","props":{"children":"ab"}},{"type":"div","props":{"style":{"fontSize":40},"children":"cd"}}]}})");
    const Laid aligned = lay(R"({"type":"div","props":{"style":{"fontFamily":"DejaVu Sans","fontSize":20},
        "children":[{"type":"div","props":{"style":{"verticalAlign":"bottom"},"children":"ab"}},
        {"type":"div","props":{"style":{"fontSize":40,"verticalAlign":"super"},"children":"cd"}}]}})");
    QCOMPARE(find(aligned.box, QStringLiteral("0.0"))->borderBox, find(plain.box, QStringLiteral("0.0"))->borderBox);
    QCOMPARE(find(aligned.box, QStringLiteral("0.1"))->borderBox, find(plain.box, QStringLiteral("0.1"))->borderBox);
    QVERIFY(aligned.root->children[0]->style.verticalAlign.keyword == VerticalAlign::Keyword::Bottom);
}

// UAX #9 §3.4 L2 and CSS Inline 3 §2.2: "sub" in a Hebrew line is one left-to-right run,
// drawn left of the Hebrew before it. Its box is that run plus its padding: s, u, b in
// DejaVu Sans are 1067 + 1298 + 1300 units of 2048, at 20 px 35.79 px, + 2 × 5 px padding
// = 45.79 px. It sits between the two Hebrew words, touching both.
void TestLayoutInline::ltrBoxInRtlLineSpansOnlyItsText()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20,"direction":"rtl"},"children":["שלום ",{"type":"span","props":{"style":{"padding":"0 5px",
        "verticalAlign":"sub"},"children":"sub"}}," עולם"]}})");
    const LayoutBox *first = find(l.box, QStringLiteral("0.0"));
    const LayoutBox *span = find(l.box, QStringLiteral("0.1"));
    const LayoutBox *last = find(l.box, QStringLiteral("0.2"));
    QVERIFY(first && span && last);
    QVERIFY2(std::abs(span->borderBox.width() - 45.79) < 0.05, qPrintable(QString::number(span->borderBox.width())));
    QCOMPARE(span->fragments.size(), size_t(1));
    QVERIFY(std::abs(first->borderBox.right() - 600) < 0.05);
    QVERIFY(std::abs(span->borderBox.right() - first->borderBox.left()) < 0.05);
    QVERIFY(std::abs(last->borderBox.right() - span->borderBox.left()) < 0.05);
    // Its text sits inside the padding on both sides.
    const QRectF text = span->children.at(0).borderBox;
    QVERIFY2(std::abs(text.left() - span->borderBox.left() - 5) < 0.05, qPrintable(QString::number(text.left())));
    QVERIFY(std::abs(span->borderBox.right() - text.right() - 5) < 0.05);
}

// The mirror case: a Hebrew word in an English line is one right-to-left run, its box the
// run plus padding (ש ל ו ם: 1451 + 1164 + 558 + 1359 units, 44.26 px at 20 px, + 12).
void TestLayoutInline::rtlBoxInLtrLineSpansOnlyItsText()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20},"children":["say ",{"type":"b","props":{"style":{"padding":"0 6px","fontWeight":400},
        "children":"שלום"}}," now"]}})");
    const LayoutBox *say = find(l.box, QStringLiteral("0.0"));
    const LayoutBox *b = find(l.box, QStringLiteral("0.1"));
    const LayoutBox *now = find(l.box, QStringLiteral("0.2"));
    QVERIFY(say && b && now);
    QVERIFY2(std::abs(b->borderBox.width() - 56.26) < 0.1, qPrintable(QString::number(b->borderBox.width())));
    QVERIFY(std::abs(b->borderBox.left() - say->borderBox.right()) < 0.05);
    QVERIFY(std::abs(now->borderBox.left() - b->borderBox.right()) < 0.05);
}

// CSS Writing Modes 3 §2.4 / CSS Inline 3 §2.2: in a right-to-left line, "Hello world"
// is one left-to-right run at the right end and " שלום" follows it leftwards, so a span
// over "world שלום" is two pieces with "Hello " between them, one fragment each, left to
// right as getClientRects() lists them; the box is their union. As in Blink, its left
// padding goes to the leftmost piece and its right padding to the rightmost, although
// its start ("world") is in the right piece's run on that run's left.
void TestLayoutInline::bidiReorderingSplitsAnInlineBox()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","fontFamily":"DejaVu Sans",
        "fontSize":20,"direction":"rtl"},"children":["Hello ",{"type":"span","props":{"style":{
        "backgroundColor":"#fde68a","paddingLeft":3,"paddingRight":4},"children":"world שלום"}}]}})");
    const LayoutBox *hello = find(l.box, QStringLiteral("0.0"));
    const LayoutBox *span = find(l.box, QStringLiteral("0.1"));
    QVERIFY(hello && span);
    QCOMPARE(span->fragments.size(), size_t(2));
    const QRectF left = span->fragments[0], right = span->fragments[1];
    QVERIFY(std::abs(right.right() - 600) < 0.05); // "world" ends the run at the line's start
    QVERIFY(std::abs(hello->borderBox.right() - right.left()) < 0.05);
    QVERIFY(std::abs(left.right() - hello->borderBox.left()) < 0.05);
    // w o r l d: 1675 + 1253 + 842 + 569 + 1300 units = 55.07 px, + 4; space + ש ל ו ם:
    // 651 + 4532 = 50.62 px, + 3 (Qt rounds each advance to 1/64 px).
    QVERIFY2(std::abs(right.width() - 59.07) < 0.1, qPrintable(QString::number(right.width())));
    QVERIFY2(std::abs(left.width() - 53.62) < 0.1, qPrintable(QString::number(left.width())));
    QCOMPARE(span->borderBox, left.united(right));
    QCOMPARE(span->fragmentEdges.size(), size_t(2));
    QVERIFY(span->fragmentEdges[0].left && !span->fragmentEdges[0].right);
    QVERIFY(!span->fragmentEdges[1].left && span->fragmentEdges[1].right);
    // "world" starts at its piece's left edge; the padding is on the right.
    const LayoutBox &text = span->children.at(0);
    QVERIFY(text.text && !text.text->lines.empty());
    qreal glyphLeft = 1e9;
    for (const QGlyphRun &run : text.text->lines.front().glyphRuns) {
        for (const QPointF &p : run.positions()) {
            const qreal x = p.x() + text.borderBox.left() + text.textOrigin.x();
            if (x > hello->borderBox.right() - 0.5) // a glyph of "world"
                glyphLeft = std::min(glyphLeft, x);
        }
    }
    QVERIFY2(std::abs(glyphLeft - right.left()) < 0.05, qPrintable(QString::number(glyphLeft - right.left())));
}

// An rtl box over two lines: its start edge (right padding) on the first line's fragment,
// its end edge (left padding) on the second's, wherever bidi puts its runs; the painter
// reads them from fragmentEdges.
void TestLayoutInline::rtlBoxWrapsWithItsEdgesWhereItStartsAndEnds()
{
    const Laid l = lay(R"({"type":"div","props":{"style":{"display":"block","width":300,"fontFamily":"DejaVu Sans",
        "fontSize":20,"direction":"rtl"},"children":["שלום ",{"type":"span","props":{"style":{
        "paddingLeft":7,"paddingRight":3},"children":"Open Graph images for every page"}}," עולם"]}})");
    const LayoutBox *span = find(l.box, QStringLiteral("0.1"));
    QVERIFY(span);
    QVERIFY(span->fragments.size() >= 2);
    QCOMPARE(span->fragmentEdges.size(), span->fragments.size());
    QVERIFY(!span->fragmentEdges.front().left && span->fragmentEdges.front().right);
    QVERIFY(span->fragmentEdges.back().left && !span->fragmentEdges.back().right);
    for (size_t i = 1; i + 1 < span->fragments.size(); ++i)
        QVERIFY(!span->fragmentEdges[i].left && !span->fragmentEdges[i].right);
    // Later lines start at the right edge of the 300 px block.
    QVERIFY(std::abs(span->fragments.back().right() - 300) < 0.05);
}

QTEST_MAIN(TestLayoutInline)
#include "tst_layout_inline.moc"
