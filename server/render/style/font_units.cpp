#include "server/render/style/font_units.h"

#include "server/render/style/computed_style.h"

#include <atomic>

namespace imprint::render {

namespace {
std::atomic<FontUnitMeasure> g_measure{nullptr};
std::atomic<ClusterAdvanceMeasure> g_clusterMeasure{nullptr};
} // namespace

void setFontUnitMeasure(FontUnitMeasure measure)
{
    g_measure.store(measure, std::memory_order_release);
}

FontUnitSizes fontUnitSizes(const ComputedStyle &style)
{
    if (const FontUnitMeasure measure = g_measure.load(std::memory_order_acquire))
        return measure(style);
    return {style.fontSize * 0.5, style.fontSize * 0.5, style.fontSize * 0.8, style.fontSize * 0.2};
}

void setClusterAdvanceMeasure(ClusterAdvanceMeasure measure)
{
    g_clusterMeasure.store(measure, std::memory_order_release);
}

QList<qreal> clusterAdvances(const ComputedStyle &style, const QStringList &clusters)
{
    if (const ClusterAdvanceMeasure measure = g_clusterMeasure.load(std::memory_order_acquire))
        return measure(style, clusters);
    return QList<qreal>(clusters.size(), style.fontSize * 0.5);
}

bool mayHoldFontUnit(QStringView text)
{
    for (qsizetype i = 1; i + 1 < text.size(); ++i) {
        const char16_t a = text[i].toLower().unicode(), b = text[i + 1].toLower().unicode();
        if (((a == u'c' && b == u'h') || (a == u'e' && b == u'x')) && (text[i - 1].isDigit() || text[i - 1] == u'.'))
            return true;
    }
    return false;
}

} // namespace imprint::render
