// The render budget (see render_budget.h).

#include "server/render/render_budget.h"
#include "server/render/document/markup.h"

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
};

void addLayer(EffectCost &cost, const QRectF &layer, const QRectF &canvas)
{
    ++cost.layers;
    const QRectF r = layer & canvas;
    if (r.isValid())
        cost.area += r.width() * r.height();
}

void countEffects(const LayoutBox &box, const QRectF &canvas, EffectCost &cost)
{
    if (box.node) {
        const ComputedStyle &s = box.node->style;
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
        countEffects(child, canvas, cost);
}

} // namespace

std::optional<RenderError> checkEffectBudget(const LayoutBox &root, QSize canvas, const RenderBudget &budget)
{
    // A shadow reaches at most its own extent past the canvas; beyond that it is clipped
    // before it is blurred, so the canvas bounds what a layer can cost.
    const QRectF bounds = QRectF(QPointF(0, 0), QSizeF(canvas)).adjusted(-512, -512, 512, 512);
    EffectCost cost;
    countEffects(root, bounds, cost);
    if (cost.layers > budget.maxEffectLayers)
        return budgetError(QStringLiteral("effects"),
                           QStringLiteral("the render draws %1 blurred shadow layers; at most %2 are allowed")
                               .arg(cost.layers)
                               .arg(budget.maxEffectLayers));
    const double maxArea
        = budget.blurredAreaPerCanvas * canvas.width() * canvas.height() + double(budget.blurredAreaBase);
    if (cost.area > maxArea)
        return budgetError(
            QStringLiteral("effects"),
            QStringLiteral("the render's shadows blur %1 megapixels; at most %2 are allowed for a %3×%4 px image")
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
