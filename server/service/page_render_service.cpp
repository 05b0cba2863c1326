// The page-render use case (see page_render_service.h).

#include "server/service/page_render_service.h"

#include "server/service/content_validation.h"
#include "server/service/remote_images.h"
#include "server/service/size_presets.h"
#include "server/service/write_behind.h"
#include "server/store/crypto.h"
#include "server/store/repositories.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <climits>

namespace imprint::service {

Q_LOGGING_CATEGORY(lcPageRender, "imprint.render")

namespace {

constexpr qint64 kMemoTtlMs = 10000;

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

RenderUseCaseError storeError(store::ServiceError e)
{
    RenderUseCaseError out;
    out.kind = RenderUseCaseError::Kind::Store;
    out.store = std::move(e);
    return out;
}

/// A `kind` error (Render, StoredTemplateInvalid) carrying the renderer's `error`.
RenderUseCaseError renderFailure(RenderUseCaseError::Kind kind, render::RenderError error)
{
    RenderUseCaseError out;
    out.kind = kind;
    out.render = std::move(error);
    return out;
}

} // namespace

QString formatName(render::OutputFormat format)
{
    return render::outputFormatName(format);
}

common::Expected<store::StoredFile, RenderUseCaseError>
storeRender(const store::Database &db, WriteBehind *writeBehind, const store::FileStore &files, const QByteArray &bytes,
            render::OutputFormat format, const QString &spaceId, const QString &pageId)
{
    auto stored = files.put(bytes, formatName(format));
    if (!stored) {
        qCWarning(lcPageRender) << "storing a render failed:" << stored.error();
        RenderUseCaseError e;
        e.kind = RenderUseCaseError::Kind::StoreFailed;
        e.message = QStringLiteral("The render could not be stored.");
        return e;
    }
    store::RenderRecord row{
        store::randomId(QStringLiteral("rnd_")), spaceId, pageId, stored->sha256, formatName(format), stored->size};
    if (writeBehind)
        writeBehind->renderStored(std::move(row));
    else
        store::RenderRepository(db).insert(row);
    return *stored;
}

PageRenderService::PageRenderService(const store::Database &db, const store::Config &config, store::FileStore files,
                                     render::RenderContext &context, PageRenderSettings settings,
                                     net::RemoteImageFetcher *imageFetcher)
    : m_db(db)
    , m_config(config)
    , m_content(contentService(db))
    , m_files(std::move(files))
    , m_fonts(db, m_files)
    , m_assets(db, config, m_files)
    , m_context(context)
    , m_settings(settings)
    , m_imageFetcher(imageFetcher)
    , m_publishCache(std::max(1, settings.publishCacheEntries))
    , m_memo(32 * 1024)
    , m_templateCache(256)
{ }

PageRenderService::~PageRenderService() = default;

common::Expected<PageRenderService::CachedTemplate, render::RenderError>
PageRenderService::parsedTemplate(const store::TemplateRecord &t)
{
    // The version too: a pinned page's document is an older one of the same template.
    const QString key = t.id + QLatin1Char('@') + QString::number(t.updatedAt) + QLatin1Char('v')
                        + QString::number(t.version);
    {
        QMutexLocker lock(&m_templateMutex);
        if (auto *hit = m_templateCache.object(key))
            return *hit;
    }
    auto parsed = render::parseTemplate(t.document);
    if (!parsed)
        return parsed.error();
    CachedTemplate entry;
    entry.tmpl = std::make_shared<const render::Template>(std::move(*parsed));
    entry.mayNameUrl = templateMayNameUrl(*entry.tmpl);
    entry.mayNameAsset = AssetService::mayNameAsset(entry.tmpl->source);
    QMutexLocker lock(&m_templateMutex);
    m_templateCache.insert(key, new CachedTemplate(entry));
    return entry;
}

common::Expected<std::shared_ptr<const store::PublishedPage>, store::ServiceError>
PageRenderService::publishedPage(const QString &spaceId, const QString &pageId)
{
    const qint64 now = store::nowMs();
    quint64 forgetsBefore = 0;
    std::shared_ptr<const store::PublishedPage> cached;
    {
        QMutexLocker lock(&m_publishMutex);
        forgetsBefore = m_publishForgets;
        if (PublishEntry *e = m_publishCache.object(pageId)) {
            if (m_publishFeedLive.load() || now - e->loadedAtMs < m_settings.publishCacheTtlMs)
                cached = e->page;
        }
    }
    if (cached && !m_db.isSqlite()) {
        // Instances sharing PostgreSQL: the change feed evicts an entry when another
        // instance publishes, but a NOTIFY travels asynchronously and a request may reach
        // this instance before it does. One primary-key lookup of the version closes that
        // window, so a publish anywhere is what every instance renders next.
        const auto version = store::PublishedPageRepository(m_db).publishedAt(pageId);
        if (!version || !*version || **version != cached->publishedAt)
            cached.reset();
    }
    if (cached) {
        if (cached->spaceId != spaceId)
            return store::ServiceError::notFound(store::ProblemCode::PageNotFound,
                                                 QStringLiteral("Page '%1' was not found in this space.").arg(pageId));
        return cached;
    }
    auto loaded = m_content.published(spaceId, pageId);
    if (!loaded)
        return loaded.error();
    auto ptr = std::make_shared<const store::PublishedPage>(loaded.value());
    QMutexLocker lock(&m_publishMutex);
    if (m_publishForgets == forgetsBefore)
        m_publishCache.insert(pageId, new PublishEntry{ptr, now});
    return ptr;
}

void PageRenderService::forgetPublished(const QString &pageId)
{
    QMutexLocker lock(&m_publishMutex);
    ++m_publishForgets;
    m_publishCache.remove(pageId);
}

void PageRenderService::setPublishFeedLive(bool live)
{
    QMutexLocker lock(&m_publishMutex);
    m_publishFeedLive.store(live);
    ++m_publishForgets;
    m_publishCache.clear();
}

std::optional<RenderUseCaseError> checkExportSize(const store::Config &config, const QString &plan, int width,
                                                  int height)
{
    const auto limits = config.plan(plan);
    if (!limits)
        return checkExportSize(config, QStringLiteral("free"), width, height);
    const bool tooWide = width > limits->maxWidth;
    if (!tooWide && height <= limits->maxHeight)
        return std::nullopt; // the error is built only when needed: every render asks
    RenderUseCaseError e;
    e.kind = RenderUseCaseError::Kind::PlanLimit;
    e.plan = plan;
    e.limits = *limits;
    e.field = tooWide ? QStringLiteral("width") : QStringLiteral("height");
    e.value = tooWide ? width : height;
    return e;
}

/// A page and its template as loaded for one render.
struct PageRenderService::Loaded {
    store::PageRecord page;
    store::TemplateRecord record;
    qint64 version = 0; ///< the publish snapshot's, 0 for a draft
    CachedTemplate parsed; ///< the parsed template, with what was read of it once
};

common::Expected<PageRenderService::Loaded, RenderUseCaseError>
PageRenderService::loadInline(const QString &spaceId, const QJsonObject &document)
{
    // An inline template is a page of its own with no stored rows: its id is the hash of
    // the document (keys are sorted, so equal documents hash alike), which keys the memo,
    // the etag and the parsed-template cache, so an identical request is a memo hit.
    Loaded out;
    const QString hash = store::sha256Hex(QString::fromUtf8(QJsonDocument(document).toJson(QJsonDocument::Compact)));
    out.record.id = QStringLiteral("inline:") + hash.left(40);
    out.record.spaceId = spaceId;
    out.record.name = ContentService::templateName(document);
    out.record.document = document;
    out.record.version = 0;
    out.page.spaceId = spaceId;
    out.page.name = out.record.name;
    {
        // Already validated when cached: a repeat costs a hash, not a parse and a build.
        QMutexLocker lock(&m_templateMutex);
        if (auto *hit = m_templateCache.object(out.record.id + QStringLiteral("@0v0"))) {
            out.parsed = *hit;
            return out;
        }
    }
    if (auto invalid = checkInlineTemplate(document))
        return storeError(*invalid);
    auto parsed = parsedTemplate(out.record);
    if (!parsed)
        return renderFailure(RenderUseCaseError::Kind::Render, parsed.error());
    out.parsed = std::move(*parsed);
    return out;
}

std::optional<store::ServiceError> PageRenderService::checkInlineTemplate(const QJsonObject &document)
{
    // The same check as a stored template's, naming the field as the request does.
    auto invalid = templateValidator()(document);
    if (invalid && invalid->field.startsWith(QLatin1String("document")))
        invalid->field = QStringLiteral("template") + invalid->field.mid(8);
    return invalid;
}

common::Expected<PageRenderService::Loaded, RenderUseCaseError> PageRenderService::load(const PageRenderRequest &p)
{
    if (p.inlineTemplate)
        return loadInline(p.spaceId, *p.inlineTemplate);
    // Live rows for drafts, the publish snapshot otherwise.
    Loaded out;
    if (p.draft) {
        auto pg = m_content.getPage(p.spaceId, p.pageId);
        if (!pg)
            return storeError(pg.error());
        // A pinned page renders its version of the template, not the latest.
        auto tp = m_content.templateAt(p.spaceId, pg->templateId, pg->templateVersion);
        if (!tp)
            return storeError(tp.error());
        out.page = *pg;
        out.record = *tp;
    } else {
        auto snap = publishedPage(p.spaceId, p.pageId);
        if (!snap)
            return storeError(snap.error());
        out.page = snap.value()->page;
        out.record = snap.value()->tmpl;
        out.version = snap.value()->publishedAt;
    }
    if (!p.templateId.isEmpty() && p.templateId != out.page.templateId) {
        RenderUseCaseError e;
        e.kind = RenderUseCaseError::Kind::TemplateMismatch;
        e.message = QStringLiteral("Page '%1' does not use template '%2'.").arg(p.pageId, p.templateId);
        return e;
    }
    auto parsed = parsedTemplate(out.record);
    if (!parsed)
        return renderFailure(RenderUseCaseError::Kind::StoredTemplateInvalid, parsed.error());
    out.parsed = std::move(*parsed);
    return out;
}

common::Expected<QJsonObject, RenderUseCaseError> PageRenderService::templateDocument(const PageRenderRequest &p)
{
    if (p.inlineTemplate)
        return *p.inlineTemplate;
    auto loaded = load(p);
    if (!loaded)
        return loaded.error();
    return loaded->record.document;
}

std::shared_ptr<const PageRenderOutcome>
PageRenderService::compute(const PageRenderRequest &p, const Loaded &loaded, const render::RenderOptions &options,
                           const std::shared_ptr<const render::FontSet> &fonts, const QStringList &fontWarnings,
                           const QString &memoKey)
{
    ++m_executed;
    auto computed = std::make_shared<PageRenderOutcome>();
    const auto failed = [&](render::RenderError error) {
        computed->error = RenderUseCaseError{};
        computed->error->kind = RenderUseCaseError::Kind::Render;
        computed->error->render = std::move(error);
        return computed; // failures are not memoised
    };
    render::RenderRequest rq;
    rq.parsed = loaded.parsed.tmpl;
    rq.pageValues = loaded.page.variables;
    rq.options = options;
    rq.cancellation = p.cancellation;
    rq.tenant = p.spaceId;
    rq.fonts = fonts;
    // `asset:ID` and the space's asset URLs; everything else as before.
    rq.imageLoader = m_assets.loaderFor(p.spaceId, [this](const QString &url) { return m_context.images().load(url); });
    const qint64 scale = std::max<qint64>(1, qint64(options.scale));
    if (const auto limits = m_config.plan(p.plan)) // a content-sized image stays inside the plan
        rq.maxSize = QSize(int(limits->maxWidth / scale), int(limits->maxHeight / scale));
    // Remote images are fetched now, before the pipeline, which does no I/O.
    if (m_imageFetcher) {
        auto loader = prefetchRemoteImages(rq, m_context, *m_imageFetcher, loaded.parsed.mayNameUrl);
        if (!loader)
            return failed(loader.error());
        rq.imageLoader = std::move(*loader);
    }
    auto result = render::render(rq, m_context);
    if (!result)
        return failed(result.error());
    computed->result = std::move(*result);
    computed->result.warnings = fontWarnings + computed->result.warnings;
    if (p.storeFile) {
        QElapsedTimer st;
        st.start();
        auto stored = storeRender(m_db, m_writeBehind, m_files, computed->result.bytes, options.format, p.spaceId,
                                  p.pageId);
        if (!stored) {
            computed->error = stored.error();
            return computed;
        }
        computed->file = *stored;
        computed->storeMs = msSince(st);
    }
    QMutexLocker lock(&m_memoMutex);
    m_memo.insert(memoKey, new MemoEntry{computed, store::nowMs() + kMemoTtlMs},
                  std::max<qsizetype>(1, computed->result.bytes.size() / 1024));
    return computed;
}

common::Expected<PageRender, RenderUseCaseError> PageRenderService::render(const PageRenderRequest &p)
{
    QElapsedTimer total;
    total.start();

    // 1. load the page and its template.
    auto loadedOr = load(p);
    if (!loadedOr)
        return loadedOr.error();
    const Loaded &loaded = *loadedOr;
    const render::Template &tmpl = *loaded.parsed.tmpl;
    PageRender out;
    out.loadMs = msSince(total);

    // 2. size (a preset names it) against the space's plan.
    const auto asked = resolveRenderSize(loaded.record.document, p.size, p.options.width, p.options.height);
    if (!asked)
        return storeError(asked.error());
    const int width = asked->width() > 0 ? asked->width() : tmpl.width;
    const int height = asked->height() > 0 ? asked->height() : tmpl.height;
    // A scaled image is width × scale px wide: the plan bounds the pixels it gets.
    const qint64 scale = std::max<qint64>(1, qint64(p.options.scale));
    if (auto e = checkExportSize(m_config, p.plan, int(std::min<qint64>(qint64(width) * scale, INT_MAX)),
                                 int(std::min<qint64>(qint64(height) * scale, INT_MAX))))
        return *e;

    // The request's options resolved against the template, as the pipeline resolves them:
    // they key the memo and the etag.
    render::RenderOptions options = p.options;
    options.engine = p.options.engine.value_or(tmpl.engine.value_or(render::kDefaultEngine));
    options.emojiSet = p.options.emojiSet.value_or(tmpl.emojiSet);
    options.compression = p.options.compression.value_or(tmpl.pngCompression.value_or(render::PngCompression::Default));
    options.width = width;
    options.height = height;
    out.engine = *options.engine;

    // The space's fonts; the set's fingerprint keys the memo and the etag, so an upload
    // or a delete changes the image at once.
    QStringList fontWarnings;
    const std::shared_ptr<const render::FontSet> fonts = m_fonts.fontSetFor(p.spaceId, &fontWarnings);
    // So does the space's set of assets when the render may draw one: a deleted asset must
    // not come back from the memo, or as 304 Not Modified to a client holding the old tag.
    QString assets;
    if (loaded.parsed.mayNameAsset || AssetService::mayNameAsset(loaded.page.variables)
        || AssetService::mayNameAsset(options.tweaks)) {
        auto stamp = m_assets.changeStamp(p.spaceId);
        if (!stamp)
            return storeError(stamp.error());
        assets = *stamp;
    }

    // 3. render once per identical resolved request (memo, then single-flight).
    const QString key = QStringList{p.spaceId,
                                    fonts ? fonts->fingerprint() : QString(),
                                    assets,
                                    p.pageId,
                                    p.draft ? QStringLiteral("d") : QStringLiteral("p"),
                                    QString::number(loaded.version),
                                    QString::number(loaded.page.updatedAt),
                                    loaded.record.id,
                                    QString::number(loaded.record.updatedAt),
                                    QString::number(loaded.record.version),
                                    formatName(options.format),
                                    QString::number(options.quality),
                                    options.lossless ? QStringLiteral("L") : QString(),
                                    QString::number(options.speed),
                                    render::pngCompressionName(*options.compression),
                                    render::engineName(*options.engine),
                                    render::emojiSetName(*options.emojiSet),
                                    QString::number(width),
                                    QString::number(height),
                                    QString::number(scale),
                                    QString::fromUtf8(QJsonDocument(options.tweaks).toJson(QJsonDocument::Compact))}
                            .join(QLatin1Char('|'));
    // Whether the image is also stored does not change its bytes: the tag leaves it out,
    // and adds the build, whose renderer may draw the same input differently.
    out.etag = '"' + store::sha256Hex(key + QStringLiteral("|" IMPRINT_VERSION)).left(40).toLatin1() + '"';
    out.templateVersion = loaded.record.version;
    // The alt text from the same values the render substitutes (a bad tweak fails the
    // render itself, with its field named, so none is reported here).
    if (const auto values = render::resolveVariables(tmpl, loaded.page.variables, options.tweaks))
        out.alt = altText(tmpl, *values);
    if (p.ifNoneMatch.contains(out.etag) || p.ifNoneMatch.contains(QByteArrayLiteral("*"))) {
        out.page = loaded.page;
        out.notModified = true;
        return out;
    }
    const QString memoKey = key + (p.storeFile ? QStringLiteral("|s") : QStringLiteral("|"));
    std::shared_ptr<const PageRenderOutcome> memo;
    {
        QMutexLocker lock(&m_memoMutex);
        if (MemoEntry *e = m_memo.object(memoKey); e && e->expiresAtMs > store::nowMs())
            memo = e->outcome;
    }
    bool shared = false;
    // A render cut short because its own client left is no answer for the callers that
    // joined it: they render again (once) under their own cancellation.
    const auto cancelledForItsCaller = [&](const std::shared_ptr<const PageRenderOutcome> &o) {
        return shared && o->error && o->error->kind == RenderUseCaseError::Kind::Render
               && o->error->render.code == render::RenderErrorCode::RenderCancelled && !p.cancellation.isCancelled();
    };
    std::shared_ptr<const PageRenderOutcome> outcome;
    for (int attempt = 0; attempt < 2 && (!outcome || cancelledForItsCaller(outcome)); ++attempt) {
        outcome = memo ? memo
                       : m_flight.run(
                           memoKey, [&] { return compute(p, loaded, options, fonts, fontWarnings, memoKey); }, &shared);
    }
    if (shared || memo)
        ++m_shared;
    if (outcome->error)
        return *outcome->error;
    out.page = loaded.page;
    out.outcome = outcome;
    out.reused = memo || shared;
    return out;
}

} // namespace imprint::service
