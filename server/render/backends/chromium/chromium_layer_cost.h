#pragma once
// What a page's layers will cost the browser's compositor (issue 34, item 4, finding F5):
// every page of the html engine is drawn through one software compositor shared by all
// renders, and a page of 60 full-size `backdrop-filter: blur()` layers took it 21 s,
// while every other space's screenshot waited behind it. The page's laid-out tree is read
// once after it loaded (DOMSnapshot.captureSnapshot: no script of ours or the page's
// runs, shadow trees and same-process frames included; frames in other processes are
// read on their own sessions), each effect is weighed by its visible device pixels, and
// a page over the budget is refused before its screenshot is asked for. The weights were
// measured on Chromium 156's software compositor (docs/templates.md, "Compositing
// budget"). Internal to the html engine's browser.

#include "server/render/cancellation.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <array>

#include <condition_variable>
#include <map>
#include <mutex>

namespace imprint::render {

/// A page's compositing cost, in weighted device megapixels: one full-size
/// `backdrop-filter` of a small blur over a 1 Mpx image costs about 1.
struct LayerCost {
    double total = 0;
    /// The CSS property whose layers cost most, for the refusal's `field`
    /// (`backdrop-filter`, `filter`, `opacity`, `mix-blend-mode`, `mask-image`,
    /// `clip-path`, `transform`); empty when nothing costs.
    QString field;
    int layers = 0; ///< elements that cost anything
    /// The total by property, in layerCostProperties()' order (`transform` counts
    /// `will-change` too).
    std::array<double, 7> byProperty{};
};

/// The CSS properties a cost is told by, in LayerCost::byProperty's order:
/// `backdrop-filter`, `filter`, `opacity`, `mix-blend-mode`, `mask-image`, `clip-path`,
/// `transform`.
QStringList layerCostProperties();

/// The computed style properties DOMSnapshot.captureSnapshot is asked for, in the order
/// addSnapshotCost() reads them.
QJsonArray layerCostStyles();

/// Adds the cost of every document in `snapshot` (a DOMSnapshot.captureSnapshot result
/// asked with layerCostStyles()) to `cost`: each element's box and its descendants'
/// (a group's surface holds its overflow), in CSS px, cut to its document's viewport and
/// to `viewport` (CSS px), times `scale`² device pixels, times the weight of its effects.
void addSnapshotCost(const QJsonObject &snapshot, QSizeF viewport, double scale, LayerCost &cost);

/// The blur radius, CSS px, of a computed `filter` or `backdrop-filter` value: the sum of
/// its `blur()` radii and `drop-shadow()` blurs; a `url()` (an SVG filter, whose blur is
/// not in the value) counts as 50 px. 0 for `none` or filters without blur.
double filterBlurRadius(const QString &value);

/// The compositing cost each space's pages hold while they are drawn: a page within the
/// budget still waits while the pages its space is drawing would take the sum past it, so
/// one space's pages delay another space's screenshots by one budget's worth at most,
/// however many it sends at once. Thread-safe; shared by the renders of one browser.
class CompositingShares
{
public:
    /// `budget`: the sum a space may hold, weighted device megapixels (LayerCost).
    explicit CompositingShares(double budget) : m_budget(budget) { }

    /// What acquire() holds, given back when it is destroyed.
    class Hold
    {
    public:
        Hold() = default;
        Hold(Hold &&other) noexcept;
        Hold &operator=(Hold &&other) noexcept;
        ~Hold();
        Hold(const Hold &) = delete;
        Hold &operator=(const Hold &) = delete;

    private:
        friend class CompositingShares;
        Hold(CompositingShares *shares, QString tenant, double cost);
        CompositingShares *m_shares = nullptr;
        QString m_tenant;
        double m_cost = 0;
    };

    /// Holds `cost` for `tenant`: at once when it is 0, when the space holds nothing or
    /// when the sum stays within the budget; else once the space's other pages have given
    /// back enough. nullopt when `cancellation` stops the render first (its deadline).
    std::optional<Hold> acquire(const QString &tenant, double cost, const RenderCancellation &cancellation);

    /// What `tenant` holds now.
    double held(const QString &tenant) const;

private:
    void release(const QString &tenant, double cost);

    const double m_budget;
    mutable std::mutex m_mutex;
    std::condition_variable m_released;
    std::map<QString, double> m_held; ///< by tenant; a tenant holding nothing has no entry
};

} // namespace imprint::render
