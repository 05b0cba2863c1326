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

namespace {

struct Entry {
    PaintItem item;
    int tier; // 0 negative z, 1 in-flow, 2 z auto/0, 3 positive z
    int z;
    int order; // CSS Flexbox 1 §5.4: flex and grid items paint in order-modified document order
};

/// The entry of a layer (a positioned box or a stacking context, painted after the
/// in-flow content of the nearest layer or the root above it): its tier by its z-index.
Entry layerEntry(PaintItem item, int order)
{
    const int z = usedZIndex(*item.box, item.parent).value_or(0);
    return {std::move(item), z < 0 ? 0 : z == 0 ? 2 : 3, z, order};
}

/// Appends the layers inside in-flow `box` (reached from the painting layer through
/// in-flow boxes only) in document order; `clips` are the overflow: hidden boxes on the
/// way, `box` included when it clips.
void liftLayers(const LayoutBox &box, std::vector<const LayoutBox *> clips, int order, std::vector<Entry> &entries)
{
    if (!box.node || box.node->isText() || box.node->style.display == Display::None)
        return;
    if (box.node->style.overflow == Overflow::Hidden)
        clips.push_back(&box);
    for (const LayoutBox &c : box.children) {
        if (!c.node || c.node->isText())
            continue;
        if (paintsAsLayer(c, &box)) {
            // An absolutely positioned box's containing block is a positioned ancestor,
            // outside every in-flow box on the way: their clips do not apply to it.
            const bool escapes = c.node->style.position == Position::Absolute;
            entries.push_back(layerEntry({&c, &box, escapes ? std::vector<const LayoutBox *>() : clips}, order));
        } else {
            liftLayers(c, clips, order, entries);
        }
    }
}

} // namespace

PaintOrder paintOrder(const LayoutBox &box, const LayoutBox *parent)
{
    const bool itemsHaveOrder = box.node && !box.node->isText()
                                && (box.node->style.display == Display::Flex || box.node->style.display == Display::Grid);
    // Only a layer or the root paints layers; any other box's are lifted by that ancestor.
    const bool paintsLayers = !parent || paintsAsLayer(box, parent);
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
            entries.push_back({{&c, &box, {}}, 1, 0, order});
            if (paintsLayers)
                liftLayers(c, {}, order, entries);
        } else if (paintsLayers) {
            entries.push_back(layerEntry({&c, &box, {}}, order));
        }
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        if (a.tier != b.tier)
            return a.tier < b.tier;
        return a.z != b.z ? a.z < b.z : a.order < b.order;
    });
    const bool stackingContext = isStackingContext(box, parent);
    PaintOrder order;
    order.children.reserve(entries.size());
    for (Entry &e : entries)
        (e.tier == 0 && !stackingContext ? order.beneath : order.children).push_back(std::move(e.item));
    return order;
}

} // namespace imprint::render
