#pragma once
// The pattern-render use case (docs/api.md, "Pattern renders"): resolve a
// `{patternKey}-{variantKey}` against the catalogue and the plan's export size, serve
// repeats from a byte-bounded LRU of encoded images, render a miss once across
// concurrent callers, and store the image when the caller wants a URL.

#include "server/common/lru_cache.h"
#include "server/common/single_flight.h"
#include "server/patterns/patterns.h"
#include "server/render/render_options.h"
#include "server/service/page_render_service.h"

#include <QSize>

#include <atomic>

namespace imprint::service {

/// What a caller asks to render.
struct PatternRenderRequest {
    render::PatternPath pattern;
    QString plan = QStringLiteral("free"); ///< the caller's plan (anonymous: free)
    /// The render options as the edge parsed them, as for a page render. A pattern reads
    /// the size (px, 0 = the pattern's default size), the format (a bitmap one: the edge
    /// refuses the vector formats), quality, lossless, speed and the PNG tier (none given:
    /// Default); the edge refuses a scale other than 1, and the engine, emoji set and
    /// tweaks do not apply.
    render::RenderOptions options;
};

/// A request resolved against the catalogue and the plan: what to render and under which
/// cache key.
struct PatternJob {
    PatternRenderRequest request;
    QSize size; ///< px
    QString key; ///< cache and single-flight key
    QByteArray contentType; ///< render::contentTypeFor(format)
};

/// Counters of the pattern cache and renders, for GET /metrics.
struct PatternRenderStats {
    quint64 hits = 0, misses = 0, bypass = 0; ///< cache lookups
    quint64 executed = 0, shared = 0; ///< renders computed / joined to an identical one
    int entries = 0; ///< cached images
    qint64 bytes = 0, capacityBytes = 0; ///< cache use and budget, bytes
};

/// The pattern-render use case. Thread-safe.
class PatternRenderService
{
public:
    /// `cacheBytes` bounds the LRU of encoded images; `files` stores images asked for as URLs.
    PatternRenderService(const store::Database &db, const store::Config &config, render::PatternCatalog catalog,
                         store::FileStore files, qint64 cacheBytes);

    /// The catalogue (GET /patterns lists it).
    const render::PatternCatalog &catalog() const { return m_catalog; }

    /// Resolves `request`: PatternNotFound / VariantNotFound, or PlanLimit when the size is
    /// over the plan.
    common::Expected<PatternJob, RenderUseCaseError> prepare(const PatternRenderRequest &request) const;

    /// The cached image of `job`, looked up only when `useCache` (`cache: false` skips the
    /// lookup, and the render that follows refreshes the entry). Counts hit, miss or bypass.
    std::optional<QByteArray> cached(const PatternJob &job, bool useCache);

    /// Renders and encodes `job` once across concurrent callers (`shared` set for those
    /// that joined another's render) and refreshes the cache. PatternFailed when the
    /// pattern does not draw or encode.
    common::Expected<QByteArray, RenderUseCaseError> render(const PatternJob &job, bool *shared = nullptr);

    /// Stores `bytes` of `job` for the caller's space (empty for anonymous callers).
    common::Expected<store::StoredFile, RenderUseCaseError> store(const PatternJob &job, const QByteArray &bytes,
                                                                  const QString &spaceId);

    PatternRenderStats stats() const;

    /// Hands render-log rows to `writer` (may be null: written at once), which must
    /// outlive this.
    void setWriteBehind(WriteBehind *writer) { m_writeBehind = writer; }

private:
    const store::Database &m_db;
    WriteBehind *m_writeBehind = nullptr;
    store::Config m_config;
    render::PatternCatalog m_catalog;
    store::FileStore m_files;
    common::ByteLruCache m_cache;
    common::SingleFlight<QByteArray> m_flight;
    std::atomic<quint64> m_hits{0}, m_misses{0}, m_bypass{0}, m_executed{0}, m_shared{0};
};

} // namespace imprint::service
