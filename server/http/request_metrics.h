#pragma once
// Counts and latencies of HTTP answers for GET /api/v1/metrics in the Prometheus text
// format (docs/api.md, "Metrics"). Recorded by the Responder when it writes an answer.

#include "server/common/histogram.h"

#include <QByteArray>
#include <QString>

namespace imprint::http {

class RequestMetrics
{
public:
    /// Counts one answer: `method`, the matched route's pattern (e.g.
    /// "/api/v1/pages/{id}", so ids do not make a series each; "unmatched" when no route
    /// matched), `status` (reported by class, "2xx" …) and the time from the request's
    /// arrival to the answer, in seconds. Thread-safe.
    void record(const QByteArray &method, const QString &route, int status, double seconds);

    /// The families imprint_http_requests_total (counter) and
    /// imprint_http_request_duration_seconds (histogram), labels method, route, status.
    QByteArray prometheusText() const;

private:
    common::LabeledHistograms m_durations;
};

} // namespace imprint::http
