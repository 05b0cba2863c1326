#pragma once
// The page-render use case (docs/api.md, "Page renders"): load a page and its template
// (live rows for drafts, the publish snapshot otherwise), check the export size against
// the space's plan, render once per identical resolved request (a short-lived memo and
// single-flight), and store the image when asked. Transports (HTTP today) turn the
// result into a response; nothing here knows HTTP.

#include "server/common/single_flight.h"
#include "server/render/pipeline.h"
#include "server/service/content_service.h"
#include "server/service/upload_service.h"
#include "server/store/config.h"
#include "server/store/database.h"
#include "server/store/file_store.h"

#include <QCache>
#include <QJsonObject>
#include <QMutex>

#include <atomic>
#include <memory>
#include <optional>

namespace imprint::net {
class RemoteImageFetcher;
}

namespace imprint::service {

class WriteBehind;

/// What a caller asks to render: a stored page, or an inline template document, and how
/// to render it.
struct PageRenderRequest {
    QString spaceId; ///< the caller's space (the API key's)
    QString plan; ///< that space's plan, for the export size check
    QString pageId; ///< the stored page; ignored (and not read) for an inline render
    /// An inline render (docs/api.md, "Inline renders"): this template document, as
    /// `POST /templates` takes it, instead of a stored page; its values come from
    /// `options.tweaks`. Nothing is stored but the image, and that only with storeFile.
    /// Validated here: an Invalid store error, code invalid_template, field "template.<path>".
    std::optional<QJsonObject> inlineTemplate;
    QString templateId; ///< when set, must be the page's template (404 otherwise)
    bool draft = false; ///< live rows instead of the publish snapshot
    /// How to render it, as the transport parsed it (engine, format, size, scale, encoder
    /// settings, emoji set, tweaks). The plan's export size applies to the image's pixels,
    /// width × scale by height × scale.
    render::RenderOptions options;
    /// A size preset (docs/templates.md, "Sizes"): a built-in name or one of the
    /// template's own, resolved against the template rendered (resolveRenderSize()); empty
    /// = options.width/height. Unknown: 422 unknown_size; with a width or height: 422
    /// size_conflict.
    QString size;
    bool storeFile = false; ///< write the image to the file store (JSON answers with a URL)
    /// The render's deadline and cancel (render::RenderRequest::cancellation); a request
    /// that joins an identical render in flight is bound by that render's.
    render::RenderCancellation cancellation;
    /// Entity tags the caller already holds (RFC 9110 §13.1.2, opaque, quotes included;
    /// "*" matches any): when the render's etag is among them it is not rendered and the
    /// result says notModified.
    QList<QByteArray> ifNoneMatch;
};

/// Why a page or pattern render failed; each kind has one HTTP status
/// (server/http/problem.cpp).
struct RenderUseCaseError {
    enum class Kind : quint8 {
        Store, ///< page or template missing, unpublished, database: `store`
        TemplateMismatch, ///< `templateId` is not the page's template (404)
        StoredTemplateInvalid, ///< the stored template no longer parses: `render` (409)
        PlanLimit, ///< width or height over the plan: `field`, `value`, `limits` (402)
        Render, ///< the pipeline refused the render: `render`
        StoreFailed, ///< writing the image failed (500)
        PatternNotFound, ///< no such pattern key: `message` (404)
        VariantNotFound, ///< the pattern has no such variant: `message` (404)
        PatternFailed, ///< the pattern did not render (500)
    };
    Kind kind = Kind::Store;
    store::ServiceError store;
    render::RenderError render;
    QString field; ///< PlanLimit: "width" or "height"
    int value = 0; ///< PlanLimit: the size asked for, px (× scale: the image's pixels)
    QString plan; ///< PlanLimit: the plan whose limit applied
    store::PlanLimits limits; ///< PlanLimit: that plan's limits
    QString message; ///< TemplateMismatch, StoreFailed, Pattern*: a sentence for the caller
};

/// One computed render, shared by every request that asked for the same thing.
struct PageRenderOutcome {
    render::RenderResult result;
    std::optional<store::StoredFile> file; ///< set when the request asked to store it
    double storeMs = 0; ///< time spent storing, ms
    /// Set when the render failed: every request that shared it gets the same reason.
    std::optional<RenderUseCaseError> error;
};

/// A finished page render.
struct PageRender {
    store::PageRecord page; ///< the page as rendered
    render::Engine engine = render::kDefaultEngine; ///< the engine used
    std::shared_ptr<const PageRenderOutcome> outcome;
    double loadMs = 0; ///< loading page and template, ms
    /// True when an identical render (same page, template and publish versions, tweaks and
    /// output) computed the image in the last 10 s or at the same moment: this request
    /// did no layout, paint, encode or store of its own.
    bool reused = false;
    /// Strong entity tag (quoted) of the image: a hash of everything that determines its
    /// bytes (page, template and publish versions, tweaks, format, quality, engine, emoji
    /// set, size, and this build's version), so equal tags mean equal bytes.
    QByteArray etag;
    /// True when etag was among the request's ifNoneMatch: `outcome` is null, nothing rendered.
    bool notModified = false;
    /// The template's `alt` with this render's variable values (docs/templates.md, "Alt
    /// text"); empty when the template has none.
    QString alt;
    /// The template version rendered (a pinned page's, the snapshot's, else the latest);
    /// 0 for an inline render or a snapshot older than template versions.
    int templateVersion = 0;
};

/// Tunables of the publish cache.
struct PageRenderSettings {
    int publishCacheEntries = 1000; ///< render.publishCache.entries
    /// render.publishCache.ttlMs: how long a snapshot stays cached while no change feed
    /// tells this instance of other processes' publishes (this instance's publishes evict
    /// at once; with PostgreSQL every hit is also checked against the row's version).
    int publishCacheTtlMs = 5000;
};

/// The page-render use case. Thread-safe: called from the worker pool.
class PageRenderService
{
public:
    /// `files` stores rendered images; `db` is the content and render-log store; renders
    /// run with `context`'s fonts, image cache and emoji sets (it must outlive this).
    /// `imageFetcher` (may be null; must outlive this) fetches `http(s)://` image sources
    /// before a render (docs/remote-images.md); without one they are skipped with a warning.
    PageRenderService(const store::Database &db, const store::Config &config, store::FileStore files,
                      render::RenderContext &context, PageRenderSettings settings,
                      net::RemoteImageFetcher *imageFetcher = nullptr);
    ~PageRenderService();
    PageRenderService(const PageRenderService &) = delete;
    PageRenderService &operator=(const PageRenderService &) = delete;

    /// Renders `request`; the error says why not (see RenderUseCaseError).
    common::Expected<PageRender, RenderUseCaseError> render(const PageRenderRequest &request);

    /// The template document `request` would render, without rendering: the inline one,
    /// the page's publish snapshot's, or for a draft the live page's (pinned) version —
    /// what a render job's `sizes: "all"` expands against. Errors as render()'s loading
    /// (page or template not found, not published, a stored template that no longer parses).
    common::Expected<QJsonObject, RenderUseCaseError> templateDocument(const PageRenderRequest &request);

    /// Checks an inline render's template `document` as render() does before it renders
    /// (the check of a stored template: parsed, and its tree built with the defaults),
    /// without rendering: an Invalid error, code invalid_template, field "template.<path>";
    /// nullopt when it is valid. A render job checks its inline items so before queueing.
    static std::optional<store::ServiceError> checkInlineTemplate(const QJsonObject &document);

    /// Drops the cached publish snapshot of `pageId` (after a publish or a delete here or,
    /// through store::ChangeFeed, on another instance).
    void forgetPublished(const QString &pageId);
    /// Whether another instance's publishes reach forgetPublished() (a live change feed):
    /// then cached snapshots stay until told otherwise; else they expire after
    /// render.publishCache.ttlMs. Either change drops every cached snapshot (notifications
    /// may have been missed while the feed was down).
    void setPublishFeedLive(bool live);

    /// Hands render-log rows to `writer` (may be null: written at once), which must
    /// outlive this.
    void setWriteBehind(WriteBehind *writer) { m_writeBehind = writer; }

    /// Renders computed since start (not served from the memo or shared with an
    /// identical concurrent request), and renders that reused one.
    quint64 executed() const { return m_executed.load(); }
    quint64 shared() const { return m_shared.load(); }

private:
    common::Expected<std::shared_ptr<const store::PublishedPage>, store::ServiceError>
    publishedPage(const QString &spaceId, const QString &pageId);
    /// A parsed template and what its renders ask of it every time: whether its source
    /// may name a remote image (templateMayNameUrl()), walked once per parse.
    struct CachedTemplate {
        std::shared_ptr<const render::Template> tmpl;
        bool mayNameUrl = true;
        bool mayNameAsset = true; ///< AssetService::mayNameAsset() of its document
    };
    /// `t`'s document parsed, from the cache when its version was parsed before; the
    /// parser's error when it does not parse (failures are not cached).
    common::Expected<CachedTemplate, render::RenderError> parsedTemplate(const store::TemplateRecord &t);
    struct Loaded;
    common::Expected<Loaded, RenderUseCaseError> load(const PageRenderRequest &request);
    common::Expected<Loaded, RenderUseCaseError> loadInline(const QString &spaceId, const QJsonObject &document);
    std::shared_ptr<const PageRenderOutcome> compute(const PageRenderRequest &request, const Loaded &loaded,
                                                     const render::RenderOptions &options,
                                                     const std::shared_ptr<const render::FontSet> &fonts,
                                                     const QStringList &fontWarnings, const QString &memoKey);

    const store::Database &m_db;
    store::Config m_config;
    ContentService m_content;
    store::FileStore m_files;
    FontService m_fonts; // the space's fonts for each render
    AssetService m_assets; // `asset:ID` in image sources
    render::RenderContext &m_context;
    PageRenderSettings m_settings;
    net::RemoteImageFetcher *m_imageFetcher = nullptr;
    WriteBehind *m_writeBehind = nullptr;
    common::SingleFlight<std::shared_ptr<const PageRenderOutcome>> m_flight;

    struct PublishEntry {
        std::shared_ptr<const store::PublishedPage> page;
        qint64 loadedAtMs = 0;
    };
    QMutex m_publishMutex;
    QCache<QString, PublishEntry> m_publishCache;
    // Bumped by every forget: a snapshot read from the database before a forget that
    // arrives during the read is not cached (it may be the version just replaced).
    quint64 m_publishForgets = 0;
    std::atomic<bool> m_publishFeedLive{false};
    // Recent outcomes by full resolved key (page/template versions included, so an entry
    // can never be stale): requests that queued behind an identical render reuse its
    // result. Cost in KiB, bounded (32 MiB), 10 s TTL.
    struct MemoEntry {
        std::shared_ptr<const PageRenderOutcome> outcome;
        qint64 expiresAtMs = 0;
    };
    QMutex m_memoMutex;
    QCache<QString, MemoEntry> m_memo;
    QMutex m_templateMutex;
    QCache<QString, CachedTemplate> m_templateCache;
    std::atomic<quint64> m_executed{0};
    std::atomic<quint64> m_shared{0};
};

/// The export-size check of a space's plan (docs/api.md, "Plans"): a PlanLimit error when
/// `width` or `height` px is over the plan's maximum; a plan the config no longer names
/// gets the free plan's limits.
std::optional<RenderUseCaseError> checkExportSize(const store::Config &config, const QString &plan, int width,
                                                  int height);

/// Writes a rendered image to `files` and its row to the render log of `db` (`pageId`
/// empty for a pattern): through `writeBehind` when not null (within its flush interval,
/// off the request path), else at once. A StoreFailed error when the file cannot be written.
common::Expected<store::StoredFile, RenderUseCaseError>
storeRender(const store::Database &db, WriteBehind *writeBehind, const store::FileStore &files, const QByteArray &bytes,
            render::OutputFormat format, const QString &spaceId, const QString &pageId);

/// The file extension and `format` name of an output format: "png", "webp", "svg",
/// "jpeg", "avif".
QString formatName(render::OutputFormat format);

} // namespace imprint::service
