// Inline formatting contexts (CSS Inline 3, CSS 2 §9.4.2): the text runs and inline
// boxes of a block container laid out as one paragraph. The text module breaks the
// paragraph into line boxes (TextMeasurer::layoutInline); this file turns the element
// tree into its items, sizes the atomic inlines (img, inline-block) and turns the
// fragments it gets back into boxes: one per text run, one per inline box with a border
// box per line.

#include "server/render/layout/layout_internal.h"

#include <algorithm>
#include <cmath>

namespace imprint::render::detail {

namespace {

bool isInlineBox(const Node &node)
{
    return !node.isText() && node.style.display == Display::Inline && !node.isImage()
           && node.tag != QLatin1String("br");
}

/// The used size of an atomic inline (CSS 2 §10.3.9 inline-block shrink-to-fit, §10.3.2
/// replaced), laid out at (0,0).
LayoutBox layoutAtomic(LayoutEngine &engine, const Node &node, qreal cbWidth, qreal percentHeight)
{
    LayoutRequest request;
    request.cbWidth = cbWidth;
    request.cbHeight = percentHeight;
    if (!node.isImage() && node.style.width.isAuto()) {
        const BoxEdges e = LayoutEngine::resolveEdges(node.style, cbWidth);
        const qreal available = cbWidth >= 0 && std::isfinite(cbWidth) ? cbWidth - e.marginWidth() : kMaxContent;
        request.width = std::min(std::max(engine.intrinsicWidth(node, IntrinsicMode::MinContent), available),
                                 engine.intrinsicWidth(node, IntrinsicMode::MaxContent));
    }
    return engine.layout(node, request);
}

InlineItem makeItem(InlineItem::Kind kind, const Node &node, qreal edge = 0, qreal margin = 0)
{
    InlineItem item;
    item.kind = kind;
    item.node = &node;
    item.edge = edge;
    item.margin = margin;
    return item;
}

// Step: the inline content as items in document order (CSS Inline 3 §2, CSS Text 3 §4.1 white space per run)
void collectItems(LayoutEngine &engine, const Node &node, qreal cbWidth, qreal percentHeight,
                  std::vector<InlineItem> &items, std::vector<LayoutBox> &atomics)
{
    if (node.isText()) {
        items.push_back(makeItem(InlineItem::Kind::Text, node));
        atomics.emplace_back();
        return;
    }
    const ComputedStyle &s = node.style;
    if (s.display == Display::None || s.isOutOfFlow())
        return;
    if (node.tag == QLatin1String("br")) {
        items.push_back(makeItem(InlineItem::Kind::Break, node));
        atomics.emplace_back();
        return;
    }
    if (isInlineBox(node)) {
        const BoxEdges e = LayoutEngine::resolveEdges(s, cbWidth);
        const bool rtl = s.direction == Direction::Rtl;
        const qreal leftEdge = e.margin.left() + e.border.left() + e.padding.left();
        const qreal rightEdge = e.margin.right() + e.border.right() + e.padding.right();
        items.push_back(makeItem(InlineItem::Kind::Open, node, rtl ? rightEdge : leftEdge,
                                 rtl ? e.margin.right() : e.margin.left()));
        atomics.emplace_back();
        for (const auto &child : node.children)
            collectItems(engine, *child, cbWidth, percentHeight, items, atomics);
        items.push_back(makeItem(InlineItem::Kind::Close, node, rtl ? leftEdge : rightEdge,
                                 rtl ? e.margin.left() : e.margin.right()));
        atomics.emplace_back();
        return;
    }
    // Atomic inline: an img, an inline-block, or a block-level box met inside inline
    // content (laid out as an inline-block rather than split around).
    LayoutBox box = layoutAtomic(engine, node, cbWidth, percentHeight);
    const BoxEdges e = LayoutEngine::resolveEdges(s, cbWidth);
    InlineItem item = makeItem(InlineItem::Kind::Atomic, node);
    item.size = QSizeF(box.borderBox.width() + e.marginWidth(), box.borderBox.height() + e.marginHeight());
    // CSS 2 §10.8.1: an inline-block's baseline is that of its last line box in the
    // normal flow; an img's, and an inline-block's without line boxes or with overflow
    // other than visible, is its bottom margin edge.
    const bool ownLines = !node.isImage() && box.lastLineBaseline && s.overflow == Overflow::Visible;
    item.baseline = ownLines ? e.margin.top() + *box.lastLineBaseline : item.size.height();
    items.push_back(item);
    box.borderBox.moveTo(e.margin.left(), e.margin.top());
    atomics.push_back(std::move(box));
}

QRectF unite(const std::vector<QRectF> &rects)
{
    QRectF bounds;
    for (const QRectF &r : rects)
        bounds = bounds.isNull() ? r : bounds.united(r);
    return bounds;
}

void translateBox(LayoutBox &box, QPointF by)
{
    box.borderBox.translate(by);
    for (QRectF &fragment : box.fragments)
        fragment.translate(by);
}

// Step: boxes from fragments (CSS Inline 3 §2.2): text runs get their glyphs, inline boxes a
// border box per line grown by their vertical padding and border, atomic inlines their place.
LayoutBox buildBox(const Node &node, const InlineLayout &layout, const std::vector<InlineItem> &items,
                   std::vector<LayoutBox> &atomics, size_t &k, QPointF origin, qreal cbWidth)
{
    LayoutBox box;
    box.node = &node;
    if (node.isText() || node.tag == QLatin1String("br")) {
        std::vector<QRectF> rects;
        for (const InlineFragment &f : layout.fragments[k])
            rects.push_back(f.rect.translated(origin));
        box.borderBox = rects.empty() ? QRectF(origin, QSizeF(0, 0)) : unite(rects);
        box.text = layout.text[k];
        box.textOrigin = origin - box.borderBox.topLeft();
        if (!layout.fragments[k].empty())
            box.firstBaseline = layout.fragments[k].front().baseline + origin.y() - box.borderBox.top();
        ++k;
        return box;
    }
    if (items[k].kind == InlineItem::Kind::Atomic) {
        box = std::move(atomics[k]);
        if (!layout.fragments[k].empty())
            translateBox(box, layout.fragments[k].front().rect.topLeft() + origin);
        else
            translateBox(box, origin);
        ++k;
        return box;
    }
    // An inline box: Open, its content, Close.
    const size_t open = k++;
    const BoxEdges e = LayoutEngine::resolveEdges(node.style, cbWidth);
    box.border = e.border;
    box.padding = e.padding;
    for (const InlineFragment &f : layout.fragments[open]) {
        box.fragments.push_back(QRectF(f.rect.left(), f.rect.top() - e.padding.top() - e.border.top(), f.rect.width(),
                                       f.rect.height() + e.paddingBorderHeight())
                                    .translated(origin));
        box.fragmentEdges.push_back({f.leftEdge, f.rightEdge});
    }
    std::vector<LayoutBox> children;
    for (const auto &child : node.children) {
        if (!child->isText() && (child->style.display == Display::None || child->style.isOutOfFlow()))
            continue;
        children.push_back(buildBox(*child, layout, items, atomics, k, origin, cbWidth));
    }
    ++k; // Close
    box.borderBox = box.fragments.empty() ? QRectF(origin, QSizeF(0, 0)) : unite(box.fragments);
    box.firstBaseline = layout.fragments[open].empty()
                            ? 0
                            : layout.fragments[open].front().baseline + origin.y() - box.borderBox.top();
    for (LayoutBox &child : children) {
        translateBox(child, -box.borderBox.topLeft());
        box.children.push_back(std::move(child));
    }
    return box;
}

} // namespace

bool isInlineLevel(const Node &node)
{
    if (node.isText())
        return true;
    const Display d = node.style.display;
    return (d == Display::Inline || d == Display::InlineBlock) && !node.style.isOutOfFlow();
}

std::vector<InlineRun> inlineRuns(const Node &container)
{
    std::vector<InlineRun> runs;
    const int count = int(container.children.size());
    for (int i = 0; i < count;) {
        const Node &child = *container.children[size_t(i)];
        if (!isInlineLevel(child)) {
            ++i;
            continue;
        }
        InlineRun run{i, i, false};
        while (run.last < count) {
            const Node &c = *container.children[size_t(run.last)];
            if (!isInlineLevel(c) && !(c.style.display == Display::None && !c.isText()))
                break;
            run.formatsInline = run.formatsInline || (!c.isText() && c.style.display != Display::None);
            ++run.last;
        }
        runs.push_back(run);
        i = run.last;
    }
    return runs;
}

InlineResult layoutInlineChildren(LayoutEngine &engine, const Node &container, const InlineRun &run, qreal contentWidth,
                                  qreal percentHeight, QPointF origin)
{
    std::vector<InlineItem> items;
    std::vector<LayoutBox> atomics;
    for (int i = run.first; i < run.last; ++i)
        collectItems(engine, *container.children[size_t(i)], contentWidth, percentHeight, items, atomics);
    const InlineLayout layout = engine.layoutInline(container, run.first, items, contentWidth);
    InlineResult result;
    result.height = layout.size.height();
    result.width = layout.size.width();
    if (!layout.lines.empty()) {
        result.baseline = origin.y() + layout.firstBaseline;
        result.lastBaseline = origin.y() + layout.lastBaseline;
    }
    size_t k = 0;
    for (int i = run.first; i < run.last; ++i) {
        const Node &child = *container.children[size_t(i)];
        if (!child.isText() && (child.style.display == Display::None || child.style.isOutOfFlow()))
            continue;
        result.boxes.emplace_back(i, buildBox(child, layout, items, atomics, k, origin, contentWidth));
    }
    return result;
}

qreal lineBreakBoxHeight(LayoutEngine &engine, const Node &br, qreal contentWidth)
{
    const std::vector<InlineItem> items{makeItem(InlineItem::Kind::Break, br)};
    return engine.layoutInline(br, 0, items, contentWidth).size.height();
}

qreal inlineContentWidth(LayoutEngine &engine, const Node &container, const InlineRun &run, IntrinsicMode mode)
{
    std::vector<InlineItem> items;
    std::vector<LayoutBox> atomics;
    for (int i = run.first; i < run.last; ++i)
        collectItems(engine, *container.children[size_t(i)], -1, -1, items, atomics);
    return engine.layoutInline(container, run.first, items, mode == IntrinsicMode::MinContent ? 0 : kMaxContent)
        .size.width();
}

} // namespace imprint::render::detail
