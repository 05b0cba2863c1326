#include "server/common/histogram.h"

#include <QLocale>
#include <QMutexLocker>

#include <algorithm>
#include <cmath>

namespace imprint::common {

LabeledHistograms::LabeledHistograms(std::vector<double> bounds)
    : m_bounds(std::move(bounds))
{
    std::sort(m_bounds.begin(), m_bounds.end());
}

std::vector<double> LabeledHistograms::defaultBounds()
{
    return {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
}

void LabeledHistograms::observe(const Labels &labels, double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        seconds = 0;
    const size_t bucket = size_t(std::lower_bound(m_bounds.begin(), m_bounds.end(), seconds) - m_bounds.begin());
    QMutexLocker lock(&m_mutex);
    Series &s = m_series[labels];
    if (s.buckets.empty())
        s.buckets.assign(m_bounds.size() + 1, 0);
    ++s.buckets[bucket];
    s.sum += seconds;
    ++s.count;
}

quint64 LabeledHistograms::count(const Labels &labels) const
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_series.constFind(labels);
    return it == m_series.constEnd() ? 0 : it->count;
}

QByteArray prometheusLabelValue(const QString &value)
{
    QByteArray out;
    for (const char c : value.toUtf8()) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

QByteArray prometheusNumber(double value)
{
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    if (value == std::floor(value) && std::abs(value) < 1e15)
        return QByteArray::number(qint64(value));
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

QByteArray LabeledHistograms::prometheusText(const QByteArray &name, const QByteArray &help,
                                             const QList<QByteArray> &labelNames) const
{
    QByteArray out = "# HELP " + name + ' ' + help + "\n# TYPE " + name + " histogram\n";
    QMutexLocker lock(&m_mutex);
    for (auto it = m_series.constBegin(); it != m_series.constEnd(); ++it) {
        QByteArray labels;
        for (qsizetype i = 0; i < labelNames.size(); ++i)
            labels += labelNames[i] + "=\"" + prometheusLabelValue(it.key().value(i)) + "\",";
        quint64 cumulative = 0;
        for (size_t b = 0; b <= m_bounds.size(); ++b) {
            cumulative += it->buckets[b];
            const QByteArray le = b < m_bounds.size() ? prometheusNumber(m_bounds[b]) : QByteArray("+Inf");
            out += name + "_bucket{" + labels + "le=\"" + le + "\"} " + QByteArray::number(cumulative) + '\n';
        }
        labels.chop(1); // the trailing comma
        const QByteArray braces = labels.isEmpty() ? QByteArray() : '{' + labels + '}';
        out += name + "_sum" + braces + ' ' + prometheusNumber(it->sum) + '\n';
        out += name + "_count" + braces + ' ' + QByteArray::number(it->count) + '\n';
    }
    return out;
}

} // namespace imprint::common
