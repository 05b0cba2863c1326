// A page's compositing cost from its DOMSnapshot (chromium_layer_cost.h).
#include "server/render/backends/chromium/chromium_layer_cost.h"

#include <QRectF>
#include <QRegularExpression>

#include <algorithm>
#include <chrono>
#include <iterator>
#include <numeric>
#include <utility>
#include <vector>

namespace imprint::render {

namespace {

// The weights, per device megapixel an element's group covers, measured on Chromium 156's
// software compositor on a loaded 2-core machine (docs/templates.md, "Compositing
// budget": screenshots of N full-size layers of each kind); 1 is about half a second
// there. A backdrop filter is by far the costliest: its surface reads back and filters
// everything under it, about 0.5 s a megapixel with a small blur, 1.5 s at 100 px. A
// `filter` blur or drop shadow is drawn in its own surface, 5 to 25 times cheaper, but
// inside another filter's surface its cost grows with the depth (60 nested 3 px blurs:
// 16 s). Blend modes, masks, clip paths, transforms and opacity groups cost little each
// (3 to 8 ms a full-size layer) but are counted, so thousands stacked are too.
constexpr double kBackdropBase = 1.0;
constexpr double kBackdropBlurPx = 60; // the blur radius (device px) that doubles a backdrop's cost
constexpr double kFilterBase = 0.04;
constexpr double kFilterBlurPx = 10; // the blur radius (device px) that doubles a filter's cost
constexpr double kGroup = 0.02; // an opacity group, blend, mask, clip path or transformed layer
constexpr double kUrlFilterBlurPx = 50; // an SVG filter: its blur is not in the value

// The computed properties read (layerCostStyles()), in this order; the first seven are
// what a cost is told by (LayerCost::byProperty), `will-change` counts as `transform`.
enum Style { Backdrop, Filter, Opacity, Blend, Mask, Clip, Transform, WillChange };
constexpr const char *kStyleNames[] = {"backdrop-filter", "filter",    "opacity",   "mix-blend-mode",
                                       "mask-image",      "clip-path", "transform", "will-change"};
static_assert(std::size(kStyleNames) == WillChange + 1);
static_assert(std::tuple_size_v<decltype(LayerCost::byProperty)> == WillChange);

/// The px lengths in `value`, in order.
std::vector<double> lengths(const QString &value)
{
    static const QRegularExpression px(QStringLiteral(R"((-?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)px)"));
    std::vector<double> out;
    for (auto it = px.globalMatch(value); it.hasNext();)
        out.push_back(it.next().captured(1).toDouble());
    return out;
}

/// The string at `index` of a snapshot's string table, empty for -1 or out of range.
QString stringAt(const QJsonArray &strings, int index)
{
    return index >= 0 && index < strings.size() ? strings.at(index).toString() : QString();
}

QRectF rectOf(const QJsonValue &value)
{
    const QJsonArray r = value.toArray();
    if (r.size() < 4)
        return {};
    return QRectF(r.at(0).toDouble(), r.at(1).toDouble(), r.at(2).toDouble(), r.at(3).toDouble());
}

/// Each element's weight per device megapixel, by property, from its computed styles.
struct Weights {
    std::array<double, WillChange> w{}; // by Style; Transform counts will-change too
    double sum() const { return std::accumulate(w.begin(), w.end(), 0.0); }
};

Weights weightsOf(const QJsonArray &styleIndexes, const QJsonArray &strings, double scale)
{
    Weights out;
    const auto style = [&](Style s) { return stringAt(strings, styleIndexes.at(s).toInt(-1)); };
    const QString backdrop = style(Backdrop);
    if (!backdrop.isEmpty() && backdrop != QLatin1String("none"))
        out.w[Backdrop] = kBackdropBase * (1 + filterBlurRadius(backdrop) * scale / kBackdropBlurPx);
    const QString filter = style(Filter);
    if (!filter.isEmpty() && filter != QLatin1String("none"))
        out.w[Filter] = kFilterBase * (1 + filterBlurRadius(filter) * scale / kFilterBlurPx);
    const QString opacity = style(Opacity);
    if (!opacity.isEmpty() && opacity.toDouble() < 1)
        out.w[Opacity] = kGroup;
    const QString blend = style(Blend);
    if (!blend.isEmpty() && blend != QLatin1String("normal"))
        out.w[Blend] = kGroup;
    const QString mask = style(Mask);
    if (!mask.isEmpty() && mask != QLatin1String("none"))
        out.w[Mask] = kGroup;
    const QString clip = style(Clip);
    if (!clip.isEmpty() && clip != QLatin1String("none"))
        out.w[Clip] = kGroup;
    // A transform or a will-change may give the element a layer of its own (a computed
    // transform is a matrix, so a 3D one cannot be told apart): counted as one, once.
    const QString transform = style(Transform), willChange = style(WillChange);
    if ((!transform.isEmpty() && transform != QLatin1String("none"))
        || (!willChange.isEmpty() && willChange != QLatin1String("auto")))
        out.w[Transform] = kGroup;
    return out;
}

void addDocumentCost(const QJsonObject &document, const QJsonArray &strings, QSizeF viewport, double scale,
                     LayerCost &cost)
{
    const QJsonObject tree = document.value(QLatin1String("nodes")).toObject();
    const QJsonArray parents = tree.value(QLatin1String("parentIndex")).toArray();
    // A text node's computed style is its element's: only elements (and their pseudo
    // elements) count.
    const QJsonArray types = tree.value(QLatin1String("nodeType")).toArray();
    const QJsonObject layout = document.value(QLatin1String("layout")).toObject();
    const QJsonArray nodeIndex = layout.value(QLatin1String("nodeIndex")).toArray();
    const QJsonArray styles = layout.value(QLatin1String("styles")).toArray();
    const QJsonArray bounds = layout.value(QLatin1String("bounds")).toArray();
    const qsizetype nodes = parents.size();
    // Each node's extent: its own boxes and its descendants', which its group's surface
    // holds (a filtered 0 × 0 box with a full-size child costs the full size).
    std::vector<QRectF> extent(static_cast<size_t>(nodes));
    std::vector<qsizetype> firstLayout(static_cast<size_t>(nodes), -1);
    QRectF frame(QPointF(0, 0), viewport);
    for (qsizetype i = 0; i < nodeIndex.size() && i < bounds.size(); ++i) {
        const qsizetype node = nodeIndex.at(i).toInteger(-1);
        if (node < 0 || node >= nodes)
            continue;
        const QRectF box = rectOf(bounds.at(i));
        if (node == 0 && box.isValid())
            frame = frame.intersected(QRectF(QPointF(0, 0), box.size())); // a frame's own viewport
        extent[size_t(node)] = extent[size_t(node)].united(box);
        if (firstLayout[size_t(node)] < 0)
            firstLayout[size_t(node)] = i;
    }
    // Nodes come in tree order, a parent before its children.
    for (qsizetype n = nodes - 1; n > 0; --n) {
        const qsizetype parent = parents.at(n).toInteger(-1);
        if (parent >= 0 && parent < n)
            extent[size_t(parent)] = extent[size_t(parent)].united(extent[size_t(n)]);
    }
    // How many filters and backdrop filters each node is inside: a filter's surface is
    // drawn again for each one around it.
    std::vector<int> filterDepth(static_cast<size_t>(nodes), 0);
    std::vector<bool> filters(static_cast<size_t>(nodes), false);
    for (qsizetype n = 0; n < nodes; ++n) {
        const qsizetype at = firstLayout[size_t(n)];
        const qsizetype parent = parents.at(n).toInteger(-1);
        if (parent >= 0 && parent < n)
            filterDepth[size_t(n)] = filterDepth[size_t(parent)] + (filters[size_t(parent)] ? 1 : 0);
        if (at < 0 || at >= styles.size() || types.at(n).toInt() != 1)
            continue;
        Weights w = weightsOf(styles.at(at).toArray(), strings, scale);
        if (w.sum() <= 0)
            continue;
        filters[size_t(n)] = w.w[Backdrop] > 0 || w.w[Filter] > 0;
        w.w[Backdrop] *= 1 + filterDepth[size_t(n)];
        w.w[Filter] *= 1 + filterDepth[size_t(n)];
        const QRectF visible = extent[size_t(n)].intersected(frame);
        const double megapixels = visible.isValid() ? visible.width() * visible.height() * scale * scale / 1e6 : 0;
        ++cost.layers;
        for (size_t p = 0; p < w.w.size(); ++p)
            cost.byProperty[p] += megapixels * w.w[p];
        cost.total += megapixels * w.sum();
    }
}

} // namespace

QJsonArray layerCostStyles()
{
    QJsonArray names;
    for (const char *name : kStyleNames)
        names.append(QLatin1String(name));
    return names;
}

QStringList layerCostProperties()
{
    QStringList names;
    for (int s = 0; s < WillChange; ++s)
        names.append(QLatin1String(kStyleNames[s]));
    return names;
}

double filterBlurRadius(const QString &value)
{
    // Computed values (CSS Filter Effects 1 §5) are in px: `blur(30px)`,
    // `drop-shadow(rgb(0, 0, 0) 2px 4px 30px)` (offsets, then the blur).
    static const QRegularExpression function(QStringLiteral(R"((blur|drop-shadow|url)\(((?:[^()]|\([^()]*\))*)\))"));
    double radius = 0;
    for (auto it = function.globalMatch(value); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString name = m.captured(1);
        if (name == QLatin1String("url")) {
            radius += kUrlFilterBlurPx;
            continue;
        }
        const std::vector<double> px = lengths(m.captured(2));
        const size_t blurAt = name == QLatin1String("blur") ? 0 : 2;
        if (px.size() > blurAt)
            radius += std::max(0.0, px[blurAt]);
    }
    return radius;
}

void addSnapshotCost(const QJsonObject &snapshot, QSizeF viewport, double scale, LayerCost &cost)
{
    const QJsonArray strings = snapshot.value(QLatin1String("strings")).toArray();
    for (const QJsonValue &document : snapshot.value(QLatin1String("documents")).toArray())
        addDocumentCost(document.toObject(), strings, viewport, scale, cost);
    const auto worst = std::max_element(cost.byProperty.begin(), cost.byProperty.end());
    cost.field = *worst > 0 ? QString::fromLatin1(kStyleNames[worst - cost.byProperty.begin()]) : QString();
}

CompositingShares::Hold::Hold(CompositingShares *shares, QString tenant, double cost)
    : m_shares(shares), m_tenant(std::move(tenant)), m_cost(cost)
{
}

CompositingShares::Hold::Hold(Hold &&other) noexcept
    : m_shares(std::exchange(other.m_shares, nullptr)), m_tenant(std::move(other.m_tenant)), m_cost(other.m_cost)
{
}

CompositingShares::Hold &CompositingShares::Hold::operator=(Hold &&other) noexcept
{
    if (this != &other) {
        if (m_shares)
            m_shares->release(m_tenant, m_cost);
        m_shares = std::exchange(other.m_shares, nullptr);
        m_tenant = std::move(other.m_tenant);
        m_cost = other.m_cost;
    }
    return *this;
}

CompositingShares::Hold::~Hold()
{
    if (m_shares)
        m_shares->release(m_tenant, m_cost);
}

std::optional<CompositingShares::Hold> CompositingShares::acquire(const QString &tenant, double cost,
                                                                  const RenderCancellation &cancellation)
{
    if (cost <= 0)
        return Hold();
    std::unique_lock lock(m_mutex);
    for (;;) {
        const auto it = m_held.find(tenant);
        if (it == m_held.end() || it->second + cost <= m_budget) {
            m_held[tenant] += cost;
            return Hold(this, tenant, cost);
        }
        if (cancellation.isCancelled())
            return std::nullopt;
        // In slices: the cancellation may also come from the client or a shutdown, which
        // do not notify this condition.
        m_released.wait_for(lock, std::chrono::milliseconds(50));
    }
}

double CompositingShares::held(const QString &tenant) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_held.find(tenant);
    return it == m_held.end() ? 0 : it->second;
}

void CompositingShares::release(const QString &tenant, double cost)
{
    {
        std::lock_guard lock(m_mutex);
        const auto it = m_held.find(tenant);
        if (it == m_held.end())
            return;
        it->second -= cost;
        // Sums of doubles: what is left of a space's last page is rounding, not a hold.
        if (it->second <= 1e-9)
            m_held.erase(it);
    }
    m_released.notify_all();
}

} // namespace imprint::render
