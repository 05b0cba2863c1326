// The render budget (see render_budget.h).

#include "server/render/render_budget.h"
#include "server/render/document/markup.h"
#include "server/render/paint/geometry.h"

#include <cmath>

namespace imprint::render {

namespace {

RenderError budgetError(const QString &field, const QString &message)
{
    return RenderError{field, message, RenderErrorCode::RenderBudgetExceeded};
}

struct EffectCost {
    qint64 layers = 0;
    double area = 0;
    int maxNesting = 0;
};

void addLayer(EffectCost &cost, const QRectF &layer, const QRectF &canvas)
{
    ++cost.layers;
    const QRectF r = layer & canvas;
    if (r.isValid())
        cost.area += r.width() * r.height();
}

void countEffects(const LayoutBox &box, const QRectF &canvas, EffectCost &cost, int nesting = 0)
{
    if (box.node) {
        const ComputedStyle &s = box.node->style;
        const EffectStyle &fx = s.effects;
        if (!box.node->isText()
            && (!fx.filter.empty() || fx.clipPath || !fx.maskImage.empty() || fx.mixBlendMode != BlendMode::Normal)) {
            // One offscreen layer over the subtree's ink, blurred once per blur or shadow.
            const QRectF ink = inkBounds(box);
            int blurs = 0;
            for (const FilterOp &op : fx.filter)
                blurs += op.kind == FilterOp::Kind::Blur || op.kind == FilterOp::Kind::DropShadow;
            for (int i = 0; i <= blurs; ++i)
                addLayer(cost, ink, canvas);
            cost.maxNesting = std::max(cost.maxNesting, ++nesting);
        }
        if (!fx.backdropFilter.empty()) {
            // The backdrop under the border box (and, in SVG, everything painted before it).
            const qreal e = paint_detail::filterReach(fx.backdropFilter);
            addLayer(cost, box.borderBox.adjusted(-e, -e, e, e), canvas);
            addLayer(cost, canvas, canvas);
        }
        for (const Shadow &sh : s.boxShadow) {
            const qreal e = std::abs(sh.spread) + 1.5 * sh.blur + 2;
            addLayer(cost, box.borderBox.translated(sh.offsetX, sh.offsetY).adjusted(-e, -e, e, e), canvas);
        }
        if (box.node->isText()) {
            for (const Shadow &sh : s.textShadow) {
                if (sh.color.alpha() == 0)
                    continue;
                const qreal e = s.fontSize + 1.5 * sh.blur + 2;
                addLayer(cost, box.borderBox.translated(sh.offsetX, sh.offsetY).adjusted(-e, -e, e, e), canvas);
            }
        }
    }
    for (const LayoutBox &child : box.children)
        countEffects(child, canvas, cost, nesting);
}

} // namespace

std::optional<RenderError> checkEffectBudget(const LayoutBox &root, QSize canvas, const RenderBudget &budget)
{
    // A shadow reaches at most its own extent past the canvas; beyond that it is clipped
    // before it is blurred, so the canvas bounds what a layer can cost.
    const QRectF bounds = QRectF(QPointF(0, 0), QSizeF(canvas)).adjusted(-512, -512, 512, 512);
    EffectCost cost;
    countEffects(root, bounds, cost);
    if (cost.maxNesting > budget.maxEffectNesting)
        return budgetError(
            QStringLiteral("effects"),
            QStringLiteral("the render nests effect layers (filter, clipPath, maskImage, mixBlendMode) %1 "
                           "deep; at most %2 levels are allowed")
                .arg(cost.maxNesting)
                .arg(budget.maxEffectNesting));
    if (cost.layers > budget.maxEffectLayers)
        return budgetError(
            QStringLiteral("effects"),
            QStringLiteral("the render draws %1 blurred shadow and effect layers; at most %2 are allowed")
                .arg(cost.layers)
                .arg(budget.maxEffectLayers));
    const double maxArea
        = budget.blurredAreaPerCanvas * canvas.width() * canvas.height() + double(budget.blurredAreaBase);
    if (cost.area > maxArea)
        return budgetError(
            QStringLiteral("effects"),
            QStringLiteral("the render's shadows and effects blur %1 megapixels; at most %2 are allowed for a %3×%4 px "
                           "image")
                .arg(cost.area / 1e6, 0, 'f', 1)
                .arg(maxArea / 1e6, 0, 'f', 1)
                .arg(canvas.width())
                .arg(canvas.height()));
    return std::nullopt;
}

std::optional<RenderError> checkHtmlBudget(const QString &html, int maxElements, int maxDepth,
                                           const RenderBudget &budget)
{
    const auto nesting = htmlNesting(html, maxElements);
    if (!nesting)
        return budgetError(QStringLiteral("html"),
                           QStringLiteral("the html has more than %1 elements").arg(maxElements));
    if (nesting->depth > maxDepth)
        return budgetError(QStringLiteral("html"),
                           QStringLiteral("the html nests elements %1 deep; at most %2 levels are allowed")
                               .arg(nesting->depth)
                               .arg(maxDepth));
    if (nesting->tables > budget.maxHtmlTableNesting)
        return budgetError(QStringLiteral("html"),
                           QStringLiteral("the html nests tables %1 deep; at most %2 levels are allowed")
                               .arg(nesting->tables)
                               .arg(budget.maxHtmlTableNesting));
    return std::nullopt;
}

} // namespace imprint::render
