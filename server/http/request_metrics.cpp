#include "server/http/request_metrics.h"

#include <algorithm>

namespace imprint::http {

void RequestMetrics::record(const QByteArray &method, const QString &route, int status, double seconds)
{
    const QString statusClass = QString::number(std::clamp(status / 100, 1, 5)) + QStringLiteral("xx");
    m_durations.observe({QString::fromLatin1(method), route, statusClass}, seconds);
}

QByteArray RequestMetrics::prometheusText() const
{
    // The counter is the histogram's _count under its conventional name, for dashboards
    // that rate() requests without knowing about the histogram.
    const QByteArray histogram = m_durations.prometheusText(
        "imprint_http_request_duration_seconds",
        "Time from a request's arrival to its answer, by method, route and status class.",
        {"method", "route", "status"});
    QByteArray counter = "# HELP imprint_http_requests_total HTTP requests answered, by method, route and status "
                         "class.\n# TYPE imprint_http_requests_total counter\n";
    for (const QByteArray &line : histogram.split('\n')) {
        if (!line.startsWith("imprint_http_request_duration_seconds_count"))
            continue;
        counter += "imprint_http_requests_total"
                   + line.mid(qsizetype(sizeof("imprint_http_request_duration_seconds_count")) - 1) + '\n';
    }
    return counter + histogram;
}

} // namespace imprint::http
