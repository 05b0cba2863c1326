#include "server/render/paint/paint_order.h"

#include "server/render/document/node.h"

#include <algorithm>
#include <optional>

namespace imprint::render {

namespace {

/// The z-index that applies to `child`, or nullopt for auto / not applicable.
std::optional<int> usedZIndex(const LayoutBox &child, const LayoutBox *parent)
{
    const ComputedStyle &s = child.node->style;
    if (!s.zIndex)
        return std::nullopt;
    // Flex and grid items honour z-index without being positioned (CSS Grid 1 §9.5).
    const bool flexItem
        = parent && parent->node && !parent->node->isText()
          && (parent->node->style.display == Display::Flex || parent->node->style.display == Display::Grid)
          && s.position != Position::Absolute;
    if (s.position == Position::Static && !flexItem)
        return std::nullopt;
    return s.zIndex;
}

/// True when the child paints as a layer of its own, after in-flow content: positioned
/// boxes and stacking contexts.
bool paintsAsLayer(const LayoutBox &child, const LayoutBox *parent)
{
    return isStackingContext(child, parent)
           || (child.node && !child.node->isText() && child.node->style.position != Position::Static);
}

} // namespace

// CSS 2 §9.9.1, CSS Color 4 §3.2, CSS Transforms 1 §3 and 2 §7.1, §8, Filter Effects 1
// §4 and 2 §3, CSS Masking 1 §3 and §7, CSS Compositing 1 §3.3 and §5.3.
bool isStackingContext(const LayoutBox &box, const LayoutBox *parent)
{
    if (!box.node || box.node->isText())
        return false;
    const ComputedStyle &s = box.node->style;
    const EffectStyle &fx = s.effects;
    const bool effects = !fx.filter.empty() || !fx.backdropFilter.empty() || fx.clipPath || !fx.maskImage.empty()
                         || fx.mixBlendMode != BlendMode::Normal;
    return s.opacity < 1 || !s.transform.empty() || s.perspective > 0 || s.transformStyle == TransformStyle::Preserve3d
           || s.isolation == Isolation::Isolate || effects || s.willChangeStackingContext
           || usedZIndex(box, parent).has_value();
}

bool hasBlendingDescendant(const LayoutBox &box)
{
    for (const LayoutBox &c : box.children) {
        if (!c.node || c.node->isText() || c.node->style.display == Display::None)
            continue;
        if (c.node->style.effects.mixBlendMode != BlendMode::Normal || hasBlendingDescendant(c))
            return true;
    }
    return false;
}

bool isolatesBlending(const LayoutBox &box, const LayoutBox *parent)
{
    return parent && isStackingContext(box, parent) && hasBlendingDescendant(box);
}

PaintOrder paintOrder(const LayoutBox &box, const LayoutBox *parent)
{
    struct Entry {
        const LayoutBox *box;
        int tier; // 0 negative z, 1 in-flow, 2 z auto/0, 3 positive z
        int z;
        int order; // CSS Flexbox 1 §5.4: flex and grid items paint in order-modified document order
    };
    const bool itemsHaveOrder = box.node && !box.node->isText()
                                && (box.node->style.display == Display::Flex || box.node->style.display == Display::Grid);
    std::vector<Entry> entries;
    entries.reserve(box.children.size());
    for (const LayoutBox &c : box.children) {
        if (!c.node)
            continue;
        // Absolutely positioned children count as order 0 (§5.4).
        const int order = itemsHaveOrder && !c.node->isText() && !c.node->style.isOutOfFlow()
                              ? c.node->style.order
                              : 0;
        if (!paintsAsLayer(c, &box)) {
            entries.push_back({&c, 1, 0, order});
            continue;
        }
        const int z = usedZIndex(c, &box).value_or(0);
        entries.push_back({&c, z < 0 ? 0 : z == 0 ? 2 : 3, z, order});
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        if (a.tier != b.tier)
            return a.tier < b.tier;
        return a.z != b.z ? a.z < b.z : a.order < b.order;
    });
    const bool stackingContext = isStackingContext(box, parent);
    PaintOrder order;
    order.children.reserve(entries.size());
    for (const Entry &e : entries)
        (e.tier == 0 && !stackingContext ? order.beneath : order.children).push_back(e.box);
    return order;
}

} // namespace imprint::render
