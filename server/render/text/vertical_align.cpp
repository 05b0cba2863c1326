// vertical-align (CSS 2 §10.8.1, https://www.w3.org/TR/CSS22/visudet.html#propdef-vertical-align),
// one function per step, in the order Chromium's inline layout applies them: a box's
// pending descendants are placed when the box ends (text-top/bottom against its font, then
// top/bottom against its aligned subtree), then the box's own value shifts it against its
// parent or leaves it pending on an ancestor.

#include "server/render/text/vertical_align.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace imprint::render {

namespace {

using K = VerticalAlign::Keyword;

/// Layout bounds above and below a baseline (Blink's FontHeight).
struct Bounds {
    qreal above = 0, below = 0;
    /// The bounds of a box moved down by `shift`.
    Bounds moved(qreal shift) const { return {above - shift, below + shift}; }
    void unite(const Bounds &o)
    {
        above = std::max(above, o.above);
        below = std::max(below, o.below);
    }
    qreal height() const { return above + below; }
};

/// Chromium's LayoutUnit keeps 1/64 px; a division truncates to it.
qreal floorTo64(qreal v)
{
    return std::floor(v * 64) / 64;
}

struct State {
    Bounds bounds; // the box and what has been aligned inside it so far
    std::vector<int> pending; // descendants placed when this box ends
    int reference = -1; // the box this one's shift is relative to
    qreal shift = 0; // its baseline below the reference's
};

bool isTopOrBottom(const VerticalAlign &a)
{
    return a.keyword == K::Top || a.keyword == K::Bottom;
}

/// Shifts each box pending on `box` whose keyword `shiftOf(child, keyword)` places (it
/// gives nullopt for the others) and grows `box`'s bounds by it.
template<typename ShiftOf>
void placePending(std::vector<State> &states, const std::vector<LineBoxEntry> &entries, int box, ShiftOf shiftOf)
{
    State &parent = states[size_t(box)];
    for (int c : parent.pending) {
        State &child = states[size_t(c)];
        const std::optional<qreal> shift = shiftOf(child, entries[size_t(c)].align.keyword);
        if (!shift)
            continue;
        child.shift = *shift;
        child.reference = box;
        parent.bounds.unite(child.bounds.moved(child.shift));
    }
}

// Step: text-top / text-bottom against the parent's content area (CSS 2 §10.8.1 "text-top", "text-bottom")
void placeTextEdgeDescendants(std::vector<State> &states, const std::vector<LineBoxEntry> &entries, int box)
{
    const LineBoxEntry &font = entries[size_t(box)];
    placePending(states, entries, box, [&font](const State &child, K keyword) -> std::optional<qreal> {
        if (keyword == K::TextTop)
            return -font.fontAscent + child.bounds.above;
        if (keyword == K::TextBottom)
            return font.fontDescent - child.bounds.below;
        return std::nullopt;
    });
}

// Step: top / bottom against the aligned subtree, which a taller box grows at its other edge
// (CSS 2 §10.8.1 "top", "bottom"; Blink's MetricsForTopAndBottomAlign)
void placeLineEdgeDescendants(std::vector<State> &states, const std::vector<LineBoxEntry> &entries, int box)
{
    State &parent = states[size_t(box)];
    const Bounds aligned = parent.bounds;
    Bounds max = aligned;
    for (int c : parent.pending) {
        const K keyword = entries[size_t(c)].align.keyword;
        const qreal height = states[size_t(c)].bounds.height();
        if (!isTopOrBottom(entries[size_t(c)].align) || height <= max.height())
            continue;
        max = keyword == K::Top ? Bounds{aligned.above, height - aligned.above}
                                : Bounds{height - aligned.below, aligned.below};
    }
    placePending(states, entries, box, [&max](const State &child, K keyword) -> std::optional<qreal> {
        if (keyword == K::Top)
            return child.bounds.above - max.above;
        if (keyword == K::Bottom)
            return max.below - child.bounds.below;
        return std::nullopt;
    });
    parent.pending.clear();
}

// Step: the box's own value: a shift against its parent's baseline, or pending on the
// parent (text-top/bottom) or on the nearest top/bottom-aligned ancestor (CSS 2 §10.8.1)
void alignBox(std::vector<State> &states, const std::vector<LineBoxEntry> &entries, int box)
{
    const LineBoxEntry &e = entries[size_t(box)];
    State &self = states[size_t(box)];
    const int parent = e.parent;
    const LineBoxEntry &p = entries[size_t(parent)];
    self.reference = parent;
    switch (e.align.keyword) {
    case K::Baseline: self.shift = 0; break;
    case K::Sub: self.shift = floorTo64(std::round(p.fontSize * 64) / 64 / 5) + 1; break;
    case K::Super: self.shift = -(floorTo64(std::round(p.fontSize * 64) / 64 / 3) + 1); break;
    case K::Length: self.shift = -qreal(e.align.length.resolve(float(e.lineHeight))); break;
    case K::Middle:
        self.shift = (self.bounds.above - self.bounds.below) / 2 - std::round(p.xHeight / 2 * 64) / 64;
        break;
    case K::TextTop:
    case K::TextBottom: states[size_t(parent)].pending.push_back(box); return;
    case K::Top:
    case K::Bottom: {
        int ancestor = parent;
        while (ancestor > 0 && !isTopOrBottom(entries[size_t(ancestor)].align))
            ancestor = entries[size_t(ancestor)].parent;
        states[size_t(ancestor)].pending.push_back(box);
        return;
    }
    }
    states[size_t(parent)].bounds.unite(self.bounds.moved(self.shift));
}

} // namespace

LineBoxAlignment alignLineBox(const std::vector<LineBoxEntry> &entries)
{
    LineBoxAlignment out;
    if (entries.empty())
        return out;
    std::vector<State> states(entries.size());
    for (size_t i = 0; i < entries.size(); ++i)
        states[i].bounds = {entries[i].above, entries[i].below};
    // Every descendant comes after its ancestors, so walking backwards ends each box
    // after everything inside it, as a box ends in document order.
    for (int i = int(entries.size()) - 1; i >= 0; --i) {
        if (!states[size_t(i)].pending.empty()) {
            placeTextEdgeDescendants(states, entries, i);
            placeLineEdgeDescendants(states, entries, i);
        }
        if (i > 0)
            alignBox(states, entries, i);
    }
    out.above = states[0].bounds.above;
    out.below = states[0].bounds.below;
    out.offsets.assign(entries.size(), 0);
    for (size_t i = 1; i < entries.size(); ++i)
        out.offsets[i] = states[i].shift + out.offsets[size_t(states[i].reference)];
    return out;
}

} // namespace imprint::render
