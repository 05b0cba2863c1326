#pragma once
// The render counters the render routes count and GET /metrics reports
// (routes/render.h, routes/meta.h): one object, built once in the composition root and
// handed to both, so neither module owns the other's state.

#include "server/common/histogram.h"

#include <atomic>

namespace imprint::http {

/// Render latencies and signed-URL answers since start. Thread-safe (atomics and the
/// histograms' own locking).
struct RenderMetrics {
    /// Render latency per engine ("pattern" for pattern renders).
    common::LabeledHistograms renderDurations;
    /// Page renders per stage (auth, load, parse, layout, paint, encode, store), finer
    /// buckets than the request histogram: most stages take well under a millisecond.
    common::LabeledHistograms stageDurations{
        {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}};
    std::atomic<quint64> signedServed{0}; ///< signed URLs answered with the image
    std::atomic<quint64> signedNotModified{0}; ///< signed URLs answered 304
};

} // namespace imprint::http
