#pragma once
// Latency histograms for /metrics in the Prometheus exposition format
// (https://prometheus.io/docs/instrumenting/exposition_formats/): fixed upper bounds in
// seconds, one series per label set, safe to record from any thread.

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QMutex>
#include <QPair>
#include <QString>

#include <vector>

namespace imprint::common {

/// Histograms of one metric, one per label set (e.g. route, method and status class).
class LabeledHistograms
{
public:
    /// Label values in the order of the names given to prometheusText().
    using Labels = QStringList;

    /// `bounds` are the buckets' upper bounds in seconds, ascending; +Inf is implied.
    explicit LabeledHistograms(std::vector<double> bounds = defaultBounds());

    /// 5 ms to 10 s in roughly 1-2.5-5 steps: HTTP answers and renders both fall in it.
    static std::vector<double> defaultBounds();

    /// Counts one observation of `seconds` for `labels`. Thread-safe.
    void observe(const Labels &labels, double seconds);

    /// Observations so far for `labels` (0 when none). Thread-safe.
    quint64 count(const Labels &labels) const;

    /// The `NAME_bucket{…,le="…"}` (cumulative, as the format requires), `NAME_sum` and
    /// `NAME_count` lines of every label set, after `# HELP` and `# TYPE NAME histogram`.
    /// `labelNames` name the label values in order; values are escaped as the format asks
    /// (backslash, double quote, newline). Series are sorted by label values.
    QByteArray prometheusText(const QByteArray &name, const QByteArray &help, const QList<QByteArray> &labelNames) const;

private:
    struct Series {
        std::vector<quint64> buckets; ///< per bound, not cumulative; last = above every bound
        double sum = 0;
        quint64 count = 0;
    };
    std::vector<double> m_bounds;
    mutable QMutex m_mutex;
    QMap<Labels, Series> m_series;
};

/// `value` escaped for a Prometheus label value: \\ , \" and \n.
QByteArray prometheusLabelValue(const QString &value);

/// A Prometheus sample value: integers without a fraction, others in shortest form.
QByteArray prometheusNumber(double value);

} // namespace imprint::common
