#pragma once
// Hand-built layout trees for the layout suites: Node trees made directly as structs,
// measured by a fake with fixed-width glyphs (font-size / 2 px per character, line
// height 1.2 × font-size, baseline at 0.8 × font-size), so every expected number can be
// worked out on paper from the CSS text.

#include "server/render/layout/layout.h"
#include "tests/support/list_checks.h"

#include <QTest>

#include <cmath>
#include <initializer_list>
#include <memory>

namespace imprint::render::test {

/// Fixed-advance text: words separated by single spaces, greedy line breaking.
class FakeMeasurer : public TextMeasurer
{
public:
    int calls = 0;
    TextMetrics measure(const Node &run, qreal maxWidth) override
    {
        ++calls;
        const qreal advance = run.style.fontSize / 2;
        const qreal lineHeight = run.style.fontSize * 1.2;
        const QStringList words = run.text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        qreal widest = 0, line = -1;
        int lines = 0;
        for (const QString &word : words) {
            const qreal w = word.size() * advance;
            if (line < 0) {
                line = w;
                lines = 1;
            } else if (line + advance + w <= maxWidth) {
                line += advance + w;
            } else {
                widest = std::max(widest, line);
                line = w;
                ++lines;
            }
        }
        widest = std::max(widest, line);
        TextMetrics m;
        m.size = QSizeF(std::max<qreal>(widest, 0), lines * lineHeight);
        m.firstBaseline = run.style.fontSize * 0.8;
        return m;
    }
    /// Inline formatting contexts are the text engine's (tst_layout_inline uses the real
    /// one); the fake lays none out.
    InlineLayout layoutInline(const ComputedStyle &, const std::vector<InlineItem> &items, qreal) override
    {
        InlineLayout layout;
        layout.fragments.resize(items.size());
        layout.text.resize(items.size());
        return layout;
    }
};

inline ComputedStyle style(float fontSize = 20)
{
    ComputedStyle s;
    s.fontSize = fontSize;
    return s;
}

inline Node *addElement(Node &parent, const ComputedStyle &s, const QString &tag = QStringLiteral("div"))
{
    auto node = std::make_unique<Node>();
    node->tag = tag;
    node->style = s;
    node->id = parent.id + QLatin1Char('.') + QString::number(parent.children.size());
    parent.children.push_back(std::move(node));
    return parent.children.back().get();
}

inline Node *addText(Node &parent, const QString &text)
{
    auto node = std::make_unique<Node>();
    node->kind = Node::Kind::Text;
    node->text = text;
    node->style.fontSize = parent.style.fontSize;
    node->id = parent.id;
    parent.children.push_back(std::move(node));
    return parent.children.back().get();
}

/// A div of style `s` appended to `parent` holding one text run `text`; the div.
inline Node *addTextElement(Node &parent, const ComputedStyle &s, const QString &text)
{
    Node *element = addElement(parent, s);
    addText(*element, text);
    return element;
}

inline std::unique_ptr<Node> makeRoot(const ComputedStyle &s)
{
    auto root = std::make_unique<Node>();
    root->tag = QStringLiteral("div");
    root->style = s;
    root->id = QStringLiteral("0");
    return root;
}

inline const LayoutBox *find(const LayoutBox &box, const Node *node)
{
    if (box.node == node)
        return &box;
    for (const LayoutBox &child : box.children) {
        if (const LayoutBox *found = find(child, node))
            return found;
    }
    return nullptr;
}

inline QRectF rectOf(const LayoutBox &root, const Node *node)
{
    const LayoutBox *box = find(root, node);
    return box ? box->borderBox : QRectF(-1, -1, -1, -1);
}

inline bool fuzzyEqual(const QRectF &a, const QRectF &b)
{
    return std::abs(a.x() - b.x()) < 0.01 && std::abs(a.y() - b.y()) < 0.01 && std::abs(a.width() - b.width()) < 0.01
           && std::abs(a.height() - b.height()) < 0.01;
}

#define COMPARE_RECT(actual, expected) \
    do { \
        const QRectF a_ = (actual), e_ = (expected); \
        if (!fuzzyEqual(a_, e_)) \
            QFAIL(qPrintable(QStringLiteral("rect (%1, %2, %3×%4), expected (%5, %6, %7×%8)") \
                                 .arg(a_.x()) \
                                 .arg(a_.y()) \
                                 .arg(a_.width()) \
                                 .arg(a_.height()) \
                                 .arg(e_.x()) \
                                 .arg(e_.y()) \
                                 .arg(e_.width()) \
                                 .arg(e_.height()))); \
    } while (false)

/// One node's expected border box, for COMPARE_RECTS.
struct ExpectedRect {
    const Node *node;
    QRectF rect;
};

/// Compares the border box of each node in `expected` with its rect as COMPARE_RECT does
/// (0.01 px); at the first that differs, fails the test at `file`:`line` naming the
/// node's id and its place in the list, and returns false.
inline bool compareRects(const LayoutBox &root, std::initializer_list<ExpectedRect> expected, const char *file,
                         int line)
{
    int index = 0;
    for (const ExpectedRect &e : expected) {
        const QRectF a = rectOf(root, e.node);
        if (!fuzzyEqual(a, e.rect)) {
            const QString message = QStringLiteral("rect %1 (node %2): (%3, %4, %5×%6), expected (%7, %8, %9×%10)")
                                        .arg(index)
                                        .arg(e.node ? e.node->id : QStringLiteral("null"))
                                        .arg(a.x())
                                        .arg(a.y())
                                        .arg(a.width())
                                        .arg(a.height())
                                        .arg(e.rect.x())
                                        .arg(e.rect.y())
                                        .arg(e.rect.width())
                                        .arg(e.rect.height());
            QTest::qFail(qPrintable(message), file, line);
            return false;
        }
        ++index;
    }
    return true;
}

/// COMPARE_RECT for a list: COMPARE_RECTS(box, {{node, QRectF(...)}, ...}) checks each
/// node's border box in `box`, in order, and returns from the test at the first miss.
#define COMPARE_RECTS(box, ...) IMPRINT_CHECK_LIST(compareRects, (box), __VA_ARGS__)

/// The boxes of `root` laid out in `viewport` with a fresh FakeMeasurer.
inline LayoutBox layOut(const Node &root, QSizeF viewport)
{
    FakeMeasurer text;
    return layoutDocument(root, viewport, text);
}

inline ComputedStyle fixed(float w, float h)
{
    ComputedStyle s = style();
    s.width = Length::px(w);
    s.height = Length::px(h);
    return s;
}

} // namespace imprint::render::test
