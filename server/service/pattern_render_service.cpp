// The pattern-render use case (see pattern_render_service.h).

#include "server/service/pattern_render_service.h"
#include "server/render/encode/encode.h"

#include <charconv>

namespace imprint::service {

PatternRenderService::PatternRenderService(const store::Database &db, const store::Config &config,
                                           render::PatternCatalog catalog, store::FileStore files, qint64 cacheBytes)
    : m_db(db)
    , m_config(config)
    , m_catalog(std::move(catalog))
    , m_files(std::move(files))
    , m_cache(cacheBytes)
{ }

common::Expected<PatternJob, RenderUseCaseError>
PatternRenderService::prepare(const PatternRenderRequest &request) const
{
    RenderUseCaseError e;
    switch (m_catalog.lookup(request.pattern)) {
    case render::PatternLookup::UnknownPattern:
        e.kind = RenderUseCaseError::Kind::PatternNotFound;
        e.message = QStringLiteral("There is no pattern '%1' (GET /api/v1/patterns lists them).")
                        .arg(request.pattern.patternKey);
        return e;
    case render::PatternLookup::UnknownVariant:
        e.kind = RenderUseCaseError::Kind::VariantNotFound;
        e.message = QStringLiteral("Pattern '%1' has no variant '%2'.")
                        .arg(request.pattern.patternKey, request.pattern.variantKey);
        return e;
    case render::PatternLookup::Found: break;
    }
    const render::PatternInfo *info = m_catalog.pattern(request.pattern.patternKey);
    PatternJob job;
    job.request = request;
    const render::RenderOptions &o = request.options;
    job.size = QSize(o.width > 0 ? o.width : info->defaultSize.width(),
                     o.height > 0 ? o.height : info->defaultSize.height());
    if (auto over = checkExportSize(m_config, request.plan, job.size.width(), job.size.height()))
        return *over;
    // Appended into one buffer, not QString::arg()ed or concatenated through temporaries:
    // this runs on every pattern request, cached or not.
    const auto appendNumber = [](QString &to, int n) {
        char digits[16];
        const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
        to.append(QLatin1StringView(digits, end - digits));
    };
    QString &key = job.key;
    key.reserve(request.pattern.patternKey.size() + request.pattern.variantKey.size() + 48);
    key.append(request.pattern.patternKey).append(u'-').append(request.pattern.variantKey).append(u'|');
    appendNumber(key, job.size.width());
    key.append(u'x');
    appendNumber(key, job.size.height());
    key.append(u'|').append(formatName(o.format)).append(u'|');
    appendNumber(key, o.quality);
    key.append(o.lossless ? QLatin1StringView("L|s") : QLatin1StringView("|s"));
    appendNumber(key, o.speed);
    key.append(u'|').append(render::pngCompressionName(o.compression.value_or(render::PngCompression::Default)));
    job.contentType = render::contentTypeFor(o.format).toLatin1();
    return job;
}

std::optional<QByteArray> PatternRenderService::cached(const PatternJob &job, bool useCache)
{
    if (!useCache) {
        ++m_bypass;
        return std::nullopt;
    }
    auto hit = m_cache.get(job.key);
    ++(hit ? m_hits : m_misses);
    return hit;
}

common::Expected<QByteArray, RenderUseCaseError> PatternRenderService::render(const PatternJob &job, bool *shared)
{
    bool joined = false;
    const QByteArray bytes = m_flight.run(
        job.key,
        [&]() -> QByteArray {
            ++m_executed;
            const QImage image = render::renderPattern(m_catalog, job.request.pattern, job.size);
            if (image.isNull())
                return {};
            const render::RenderOptions &o = job.request.options;
            auto out = render::encodeImage(image, o.format, o.quality, o.lossless, o.speed,
                                           o.compression.value_or(render::PngCompression::Default));
            if (!out)
                return {};
            m_cache.put(job.key, *out); // also refreshes the entry after cache: false
            return std::move(*out);
        },
        &joined);
    if (joined)
        ++m_shared;
    if (shared)
        *shared = joined;
    if (bytes.isEmpty()) {
        RenderUseCaseError e;
        e.kind = RenderUseCaseError::Kind::PatternFailed;
        e.message = QStringLiteral("The pattern could not be rendered.");
        return e;
    }
    return bytes;
}

common::Expected<store::StoredFile, RenderUseCaseError>
PatternRenderService::store(const PatternJob &job, const QByteArray &bytes, const QString &spaceId)
{
    return storeRender(m_db, m_writeBehind, m_files, bytes, job.request.options.format, spaceId, {});
}

PatternRenderStats PatternRenderService::stats() const
{
    PatternRenderStats s;
    s.hits = m_hits.load();
    s.misses = m_misses.load();
    s.bypass = m_bypass.load();
    s.executed = m_executed.load();
    s.shared = m_shared.load();
    s.entries = m_cache.count();
    s.bytes = m_cache.sizeBytes();
    s.capacityBytes = m_cache.capacityBytes();
    return s;
}

} // namespace imprint::service
