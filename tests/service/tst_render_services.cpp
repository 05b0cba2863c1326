// The render use cases on their own, over a real SQLite store and the real render
// pipeline. Page renders: what they load (draft rows or the publish snapshot), what they
// refuse (a foreign template, the plan's export size, a page of another space) and that
// identical requests render once. Pattern renders: catalogue lookups, the plan, and the
// cache (hit, miss, bypass that still refreshes the entry).

#include "server/service/account_service.h"
#include "server/service/content_validation.h"
#include "server/service/page_render_service.h"
#include "server/service/pattern_render_service.h"
#include "server/store/crypto.h"

#include <QImage>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <limits>


/// Passes when `expr` (a common::Expected<_, QString>) holds a value; fails with its error.
#define QVERIFY_OK(expr)                                                                                               \
    do {                                                                                                               \
        const auto result_ = (expr);                                                                                   \
        QVERIFY2(result_.has_value(), qPrintable(result_.error_or(QString())));                                       \
    } while (false)

using namespace imprint;

namespace {

const char *kTemplate = R"({"name": "Card", "width": 300, "height": 200, "rendererType": "takumi",
  "variables": [{"name": "bg", "type": "color", "default": "#336699"}],
  "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
           "backgroundColor": "{{bg}}"}}}})";

QColor centre(const QByteArray &png)
{
    QImage image;
    image.loadFromData(png, "PNG");
    return image.pixelColor(image.width() / 2, image.height() / 2);
}

} // namespace

class TestRenderServices : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    render::RenderContext m_context;
    std::unique_ptr<store::Database> m_db;
    QString m_space, m_otherSpace, m_templateId, m_pageId;

    /// A page render service over the suite's database, file store and render context.
    service::PageRenderService pageService()
    {
        return service::PageRenderService(*m_db, store::Config::defaults(), store::FileStore(m_dir.filePath("files")),
                                          m_context, {});
    }

    /// A render of the suite's page (published) for its free space.
    service::PageRenderRequest pageRequest() const
    {
        service::PageRenderRequest request;
        request.spaceId = m_space;
        request.plan = "free";
        request.pageId = m_pageId;
        return request;
    }

private slots:
    void initTestCase()
    {
        qputenv("IMPRINT_ARGON2_LIMITS", "min");
        QVERIFY(store::initCrypto());
        store::DatabaseSettings settings;
        settings.driver = QStringLiteral("QSQLITE");
        settings.sqlitePath = m_dir.filePath("service.db");
        m_db = std::make_unique<store::Database>(settings);
        QVERIFY_OK(m_db->migrate());
        service::AccountService accounts(*m_db, store::Config::defaults());
        const auto alpha = accounts.createSpace("alpha", "free", "test");
        const auto beta = accounts.createSpace("beta", "free", "test");
        QVERIFY(alpha && beta);
        m_space = alpha->id;
        m_otherSpace = beta->id;
        service::ContentService content = service::contentService(*m_db);
        const auto tmpl = content.createTemplate(m_space, QJsonDocument::fromJson(kTemplate).object(), "test");
        QVERIFY(tmpl);
        m_templateId = tmpl->id;
        const auto page = content.createPage(m_space, m_templateId, "Card", {{"bg", "#00ff00"}}, "test", true);
        QVERIFY(page);
        m_pageId = page->id;
        // A later draft change: published renders keep showing the snapshot.
        QVERIFY(
            content.updatePage(m_space, m_pageId, std::nullopt, std::nullopt, QJsonObject{{"bg", "#ff0000"}}, "test"));
    }

    void publishedVersusDraft()
    {
        service::PageRenderService pages = pageService();
        service::PageRenderRequest request = pageRequest();
        auto published = pages.render(request);
        QVERIFY(published);
        QCOMPARE(centre(published->outcome->result.bytes), QColor("#00ff00"));
        QCOMPARE(render::engineName(published->engine), QString("takumi"));
        request.draft = true;
        auto draft = pages.render(request);
        QVERIFY(draft);
        QCOMPARE(centre(draft->outcome->result.bytes), QColor("#ff0000"));
    }

    void identicalRequestsRenderOnce()
    {
        service::PageRenderService pages = pageService();
        service::PageRenderRequest request = pageRequest();
        request.storeFile = true;
        const auto first = pages.render(request);
        QVERIFY(first && first->outcome->file);
        QVERIFY(!first->reused);
        const auto second = pages.render(request);
        QVERIFY(second);
        QVERIFY(second->reused);
        QCOMPARE(second->outcome->file->sha256, first->outcome->file->sha256);
        QCOMPARE(pages.executed(), quint64(1));
        request.options.tweaks = {{"bg", "#0000ff"}}; // a different request renders again
        const auto third = pages.render(request);
        QVERIFY(third && !third->reused);
        QCOMPARE(centre(third->outcome->result.bytes), QColor("#0000ff"));
        QCOMPARE(pages.executed(), quint64(2));
    }

    void refusals()
    {
        using Kind = service::RenderUseCaseError::Kind;
        service::PageRenderService pages = pageService();
        service::PageRenderRequest request = pageRequest();

        request.templateId = "tpl_someoneelses";
        auto r = pages.render(request);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Kind::TemplateMismatch);
        request.templateId.clear();

        request.options.width = 1001; // free plan: 1000 × 1000
        r = pages.render(request);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Kind::PlanLimit);
        QCOMPARE(r.error().field, QString("width"));
        QCOMPARE(r.error().limits.maxWidth, 1000);
        // However large (a template may say 2^40, held at the largest int), it is the plan's 402.
        const auto huge = service::checkExportSize(store::Config::defaults(), "business",
                                                   std::numeric_limits<int>::max(), 630);
        QVERIFY(huge.has_value());
        QCOMPARE(huge->kind, Kind::PlanLimit);
        QCOMPARE(huge->field, QString("width"));
        request.options.width = 0;

        request.options.tweaks = {{"nope", "x"}};
        r = pages.render(request);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Kind::Render);
        QCOMPARE(r.error().render.field, QString("tweaks.nope"));
        request.options.tweaks = {};

        request.spaceId = m_otherSpace; // another space's key sees no such page
        r = pages.render(request);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Kind::Store);
        QCOMPARE(r.error().store.kind(), store::ServiceError::Kind::NotFound);
        QCOMPARE(pages.executed(), quint64(1)); // only the tweak error reached the pipeline
    }

    void patternsResolveCacheAndStore()
    {
        using Kind = service::RenderUseCaseError::Kind;
        auto catalog = render::PatternCatalog::load(QStringLiteral(IMPRINT_SOURCE_DIR "/resources/patterns"));
        QVERIFY2(catalog, qPrintable(catalog.error_or(QString())));
        const render::PatternInfo first = catalog->patterns().first();
        service::PatternRenderService patterns(*m_db, store::Config::defaults(), *catalog,
                                               store::FileStore(m_dir.filePath("files")), 64 * 1024 * 1024);
        service::PatternRenderRequest request;
        request.pattern = {first.key, first.variants.first().key};
        request.options.width = 200;
        request.options.height = 100;

        const auto job = patterns.prepare(request);
        QVERIFY(job);
        QCOMPARE(job->size, QSize(200, 100));
        QVERIFY(!patterns.cached(*job, true)); // a miss
        const auto bytes = patterns.render(*job);
        QVERIFY(bytes);
        QImage image;
        QVERIFY(image.loadFromData(*bytes, "PNG"));
        QCOMPARE(image.size(), QSize(200, 100));
        QCOMPARE(patterns.cached(*job, true), *bytes); // a hit
        QVERIFY(!patterns.cached(*job, false)); // cache: false bypasses
        QVERIFY(patterns.render(*job)); // and the render refreshes the entry
        const service::PatternRenderStats stats = patterns.stats();
        QCOMPARE(stats.hits, quint64(1));
        QCOMPARE(stats.misses, quint64(1));
        QCOMPARE(stats.bypass, quint64(1));
        QCOMPARE(stats.executed, quint64(2));
        QCOMPARE(stats.entries, 1);

        const auto stored = patterns.store(*job, *bytes, m_space);
        QVERIFY(stored);
        QVERIFY(QFile::exists(stored->path));

        request.pattern.variantKey = QStringLiteral("nosuchvariant");
        auto refused = patterns.prepare(request);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, Kind::VariantNotFound);
        request.pattern = {QStringLiteral("nosuchpattern"), QStringLiteral("x")};
        refused = patterns.prepare(request);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, Kind::PatternNotFound);
        request.pattern = {first.key, first.variants.first().key};
        request.options.width = 1001; // free plan
        refused = patterns.prepare(request);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, Kind::PlanLimit);
    }

    void snapshotChangesReachTheListener()
    {
        // A publish cache in front of published() learns of every snapshot write or
        // removal from the content use case itself, whichever front end made it.
        service::ContentService content = service::contentService(*m_db);
        QStringList heard;
        content.setSnapshotListener([&heard](const QString &pageId) { heard << pageId; });
        const auto page = content.createPage(m_space, m_templateId, "Listener", {}, "test", true);
        QVERIFY(page);
        QCOMPARE(heard, QStringList{page->id});
        QVERIFY(content.updatePage(m_space, page->id, std::nullopt, QString("Renamed"), std::nullopt, "test"));
        QCOMPARE(heard.size(), 1); // a draft change leaves the snapshot alone
        QVERIFY(content.publish(m_space, page->id, "test"));
        QCOMPARE(heard.size(), 2);
        QVERIFY(content.deletePage(m_space, page->id, "test"));
        QCOMPARE(heard, (QStringList{page->id, page->id, page->id}));
        QVERIFY(!content.deletePage(m_space, page->id, "test")); // nothing removed, nothing heard
        QCOMPARE(heard.size(), 3);
    }
};

QTEST_MAIN(TestRenderServices)
#include "tst_render_services.moc"
