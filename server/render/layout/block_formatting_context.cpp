// display:block containers: children stacked as block-level boxes (CSS 2 §9.4.1 block
// formatting context, widths per §10.3.3). Text content becomes one block-wide text box,
// the form line clamping needs. Margins between siblings collapse (§8.3.1); margins
// through parents do not, which the templates this serves never rely on.

#include "server/render/layout/layout_internal.h"

#include <algorithm>

namespace imprint::render::detail {

FormattingResult layoutBlockChildren(LayoutEngine &engine, const Node &container, const BoxEdges &edges,
                                     qreal contentWidth, qreal percentHeight)
{
    FormattingResult result;
    const QPointF origin(edges.border.left() + edges.padding.left(), edges.border.top() + edges.padding.top());
    qreal cursor = 0;
    qreal pendingMargin = 0; // bottom margin of the previous sibling, collapsing with the next top margin
    bool first = true;
    const std::vector<InlineRun> runs = inlineRuns(container);
    for (int index = 0; index < int(container.children.size()); ++index) {
        const Node &child = *container.children[index];
        // CSS 2 §9.2.1.1: inline content among block boxes is an anonymous block holding
        // one inline formatting context.
        const auto run = std::find_if(runs.begin(), runs.end(),
                                      [index](const InlineRun &r) { return r.formatsInline && r.first == index; });
        if (run != runs.end()) {
            cursor += pendingMargin;
            pendingMargin = 0;
            InlineResult inlines = layoutInlineChildren(engine, container, *run, contentWidth, percentHeight,
                                                        QPointF(origin.x(), origin.y() + cursor));
            if (!result.baseline && inlines.baseline)
                result.baseline = inlines.baseline;
            if (inlines.lastBaseline)
                result.lastBaseline = inlines.lastBaseline;
            cursor += inlines.height;
            for (auto &entry : inlines.boxes)
                result.boxes.push_back(std::move(entry));
            first = false;
            index = run->last - 1;
            continue;
        }
        if (generatesNoBox(child))
            continue;
        if (!child.isText() && child.style.isOutOfFlow()) {
            // CSS 2 §10.3.7: the static position is where the box would start in flow,
            // below the previous sibling's margin.
            result.staticPositions.emplace_back(
                index, QPointF(origin.x(), origin.y() + cursor + std::max<qreal>(0, pendingMargin)));
            continue;
        }
        LayoutRequest request;
        request.cbWidth = contentWidth;
        request.cbHeight = percentHeight;
        request.availableWidth = contentWidth;
        if (child.isText()) {
            LayoutBox box = engine.layout(child, request);
            cursor += pendingMargin;
            pendingMargin = 0;
            box.borderBox.moveTo(origin.x(), origin.y() + cursor);
            if (!result.baseline)
                result.baseline = origin.y() + cursor + box.firstBaseline;
            if (box.lastLineBaseline)
                result.lastBaseline = origin.y() + cursor + *box.lastLineBaseline;
            cursor += box.borderBox.height();
            result.boxes.emplace_back(index, std::move(box));
            first = false;
            continue;
        }
        const ComputedStyle &cs = child.style;
        const BoxEdges ce = LayoutEngine::resolveEdges(cs, contentWidth);
        LayoutBox box = engine.layout(child, request);
        const qreal width = box.borderBox.width();

        // CSS 2 §10.3.3: auto margins take the space the width leaves over; when none is
        // auto the box is over-constrained and the end margin gives way: the right one in
        // ltr, the left one in rtl (the containing block's direction).
        qreal marginLeft = ce.margin.left();
        const qreal free = contentWidth - width - ce.margin.left() - ce.margin.right();
        if (ce.marginAuto[Left] && ce.marginAuto[Right])
            marginLeft = std::max<qreal>(0, free / 2);
        else if (ce.marginAuto[Left])
            marginLeft = std::max<qreal>(0, free + ce.margin.left());
        else if (!ce.marginAuto[Right] && container.style.direction == Direction::Rtl)
            marginLeft = free + ce.margin.left();

        const qreal top = ce.margin.top(), bottom = ce.margin.bottom();
        const qreal collapsed = first                              ? top
                                : (top >= 0 && pendingMargin >= 0) ? std::max(top, pendingMargin)
                                : (top < 0 && pendingMargin < 0)   ? std::min(top, pendingMargin)
                                                                   : top + pendingMargin;
        cursor += collapsed;
        QPointF position(origin.x() + marginLeft, origin.y() + cursor);
        position += relativeOffset(cs, contentWidth, percentHeight);
        box.borderBox.moveTo(position);
        if (!result.baseline)
            result.baseline = position.y() + box.firstBaseline;
        // A child that clips its overflow keeps its lines to itself (as Chromium, which
        // skips scroll containers when it looks for an inline-block's last line).
        if (box.lastLineBaseline && cs.overflow == Overflow::Visible)
            result.lastBaseline = position.y() + *box.lastLineBaseline;
        cursor += box.borderBox.height();
        pendingMargin = bottom;
        first = false;
        result.boxes.emplace_back(index, std::move(box));
    }
    result.contentHeight = std::max<qreal>(0, cursor + pendingMargin);
    return result;
}

} // namespace imprint::render::detail
