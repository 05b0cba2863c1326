#include "server/service/content_service.h"

#include "server/service/lookup.h"
#include "server/store/change_feed.h"
#include "server/store/crypto.h"
#include "server/store/repositories.h"
#include "server/store/sql.h"

namespace imprint::service {

using store::AuditRepository;
using store::nowMs;
using store::PageRecord;
using store::PageRepository;
using store::PublishedPage;
using store::PublishedPageRepository;
using store::randomId;
using store::TemplateRecord;
using store::TemplateRepository;
using store::Transaction;

namespace {

ServiceError templateMissing(const QString &id)
{
    return missingRow(ProblemCode::TemplateNotFound, QStringLiteral("Template '%1' was not found in this space."), id);
}

ServiceError pageMissing(const QString &id)
{
    return missingRow(ProblemCode::PageNotFound, QStringLiteral("Page '%1' was not found in this space."), id);
}

// Runs `write()` (an UPDATE or DELETE: whether it matched a row) and the audit row `action`
// of `targetId` in `spaceId` by `actor` in one transaction; `missing()`'s error when the
// write matched no row, Database when the audit row or the commit fails.
template<typename Write, typename Missing>
Result<Done> auditedChange(const store::Database &db, const QString &spaceId, const QString &actor,
                           const QString &action, const QString &targetId, Write write, Missing missing)
{
    Transaction tx(db);
    if (!tx.isOpen())
        return ServiceError::database();
    if (const auto changed = matched(write(), missing); !changed)
        return changed.error();
    if (!AuditRepository(db).append(spaceId, actor, action, targetId) || !tx.commit())
        return ServiceError::database();
    return Done{};
}

// Page variable values are strings or numbers, bounded like request tweaks.
std::optional<ServiceError> checkVariableShapes(const QJsonObject &variables)
{
    for (auto it = variables.begin(); it != variables.end(); ++it) {
        if (!it.value().isString() && !it.value().isDouble())
            return ServiceError::invalid(ProblemCode::InvalidVariable, QStringLiteral("variables.") + it.key(),
                                         QStringLiteral("Variable '%1' must be a string or a number.").arg(it.key()));
    }
    return std::nullopt;
}

} // namespace

std::vector<store::Role> ContentService::editorRoles()
{
    return {store::Role::Owner, store::Role::Admin, store::Role::Member};
}

QString ContentService::templateName(const QJsonObject &document)
{
    const QString name = document.value(QStringLiteral("name")).toString().trimmed().left(200);
    return name.isEmpty() ? QStringLiteral("Untitled") : name;
}

Result<TemplateRecord> ContentService::createTemplate(const QString &spaceId, const QJsonObject &document,
                                                      const QString &actor)
{
    if (auto e = m_validateTemplate(document))
        return *e;
    TemplateRecord t;
    t.id = randomId(QStringLiteral("tpl_"));
    t.spaceId = spaceId;
    t.name = templateName(document);
    t.document = document;
    t.createdAt = t.updatedAt = nowMs();
    t.version = 1;
    Transaction tx(m_db);
    if (!tx.isOpen() || !TemplateRepository(m_db).insert(t) || !recordVersion(t, actor)
        || !AuditRepository(m_db).append(spaceId, actor, QStringLiteral("template.create"), t.id) || !tx.commit())
        return ServiceError::database();
    return t;
}

Result<TemplateRecord> ContentService::updateTemplate(const QString &spaceId, const QString &id,
                                                      const QJsonObject &document, const QString &actor,
                                                      const QString &auditAction)
{
    if (auto e = m_validateTemplate(document))
        return *e;
    auto existing = getTemplate(spaceId, id);
    if (!existing)
        return existing.error();
    TemplateRecord t = *existing;
    t.name = templateName(document);
    t.document = document;
    t.updatedAt = nowMs();
    const auto changed = auditedChange(
        m_db, spaceId, actor, auditAction, t.id,
        [&]() -> Result<bool> {
            const auto updated = TemplateRepository(m_db).update(t);
            if (!updated || !*updated)
                return updated;
            // The number the statement counted up to, read under its row lock.
            const auto stored = TemplateRepository(m_db).byId(spaceId, id);
            if (!stored || !*stored)
                return ServiceError::database();
            t.version = (*stored)->version;
            if (!recordVersion(t, actor))
                return ServiceError::database();
            return true;
        },
        [&] { return templateMissing(id); });
    if (!changed)
        return changed.error();
    return t;
}

Result<Done> ContentService::deleteTemplate(const QString &spaceId, const QString &id, const QString &actor)
{
    if (auto existing = getTemplate(spaceId, id); !existing)
        return existing.error();
    const auto pages = TemplateRepository(m_db).pageCount(id);
    if (!pages)
        return pages.error();
    if (*pages > 0)
        return ServiceError{
            ProblemCode::TemplateInUse, QStringLiteral("id"),
            QStringLiteral("Template '%1' is used by %2 page(s); delete them first.").arg(id).arg(*pages)};
    return auditedChange(
        m_db, spaceId, actor, QStringLiteral("template.delete"), id,
        [&] { return TemplateRepository(m_db).remove(spaceId, id); }, [&] { return templateMissing(id); });
}

Result<TemplateRecord> ContentService::getTemplate(const QString &spaceId, const QString &id)
{
    return found(TemplateRepository(m_db).byId(spaceId, id), [&] { return templateMissing(id); });
}

Result<QList<TemplateRecord>> ContentService::listTemplates(const QString &spaceId)
{
    return TemplateRepository(m_db).list(spaceId);
}

Result<PageRecord> ContentService::createPage(const QString &spaceId, const QString &templateId, const QString &name,
                                              const QJsonObject &variables, const QString &actor, bool publish,
                                              std::optional<int> templateVersion)
{
    auto tmpl = templateAt(spaceId, templateId, templateVersion);
    if (!tmpl) {
        ServiceError e = tmpl.error();
        e.field = e.code == ProblemCode::TemplateVersionNotFound ? QStringLiteral("templateVersion")
                                                                 : QStringLiteral("templateId");
        return e;
    }
    if (auto e = checkVariableShapes(variables))
        return *e;
    if (auto e = m_validateVariables(tmpl->document, variables))
        return *e;
    PageRecord p;
    p.id = randomId(QStringLiteral("pg_"));
    p.spaceId = tmpl->spaceId;
    p.templateId = templateId;
    p.name = name.trimmed().isEmpty() ? tmpl->name : name.trimmed().left(200);
    p.variables = variables;
    p.templateVersion = templateVersion;
    p.createdAt = p.updatedAt = nowMs();
    Transaction tx(m_db);
    if (!tx.isOpen() || !PageRepository(m_db).insert(p)
        || !AuditRepository(m_db).append(p.spaceId, actor, QStringLiteral("page.create"), p.id))
        return ServiceError::database();
    if (publish) {
        const auto snapshot = writeSnapshot(p, *tmpl, actor);
        if (!snapshot)
            return snapshot.error();
        p.publishedAt = snapshot->publishedAt;
        p.publishedTemplateVersion = snapshot->tmpl.version;
    }
    if (!tx.commit())
        return ServiceError::database();
    if (publish)
        announceSnapshot(p.id);
    return p;
}

Result<PageRecord> ContentService::updatePage(const QString &spaceId, const QString &id,
                                              const std::optional<QString> &templateId,
                                              const std::optional<QString> &name,
                                              const std::optional<QJsonObject> &variables, const QString &actor,
                                              const std::optional<std::optional<int>> &templateVersion)
{
    auto current = getPage(spaceId, id);
    if (!current)
        return current.error();
    PageRecord p = *current;
    if (templateId && *templateId != p.templateId)
        p.templateVersion.reset();
    if (templateId)
        p.templateId = *templateId;
    if (templateVersion)
        p.templateVersion = *templateVersion;
    if (name)
        p.name = name->trimmed().isEmpty() ? p.name : name->trimmed().left(200);
    if (variables)
        p.variables = *variables;
    auto tmpl = templateAt(p.spaceId, p.templateId, p.templateVersion);
    if (!tmpl) {
        ServiceError e = tmpl.error();
        e.field = e.code == ProblemCode::TemplateVersionNotFound ? QStringLiteral("templateVersion")
                                                                 : QStringLiteral("templateId");
        return e;
    }
    if (auto e = checkVariableShapes(p.variables))
        return *e;
    if (auto e = m_validateVariables(tmpl->document, p.variables))
        return *e;
    p.updatedAt = nowMs();
    const auto changed = auditedChange(
        m_db, p.spaceId, actor, QStringLiteral("page.update"), p.id, [&] { return PageRepository(m_db).update(p); },
        [&] { return pageMissing(id); });
    if (!changed)
        return changed.error();
    return p;
}

Result<Done> ContentService::deletePage(const QString &spaceId, const QString &id, const QString &actor)
{
    const auto removed = auditedChange(
        m_db, spaceId, actor, QStringLiteral("page.delete"), id,
        [&] { return PageRepository(m_db).remove(spaceId, id); }, [&] { return pageMissing(id); });
    if (!removed)
        return removed.error();
    announceSnapshot(id);
    return Done{};
}

Result<PageRecord> ContentService::getPage(const QString &spaceId, const QString &id)
{
    return found(PageRepository(m_db).byId(spaceId, id), [&] { return pageMissing(id); });
}

Result<QList<PageRecord>> ContentService::listPages(const QString &spaceId)
{
    return PageRepository(m_db).list(spaceId);
}

Result<PublishedPage> ContentService::publish(const QString &spaceId, const QString &id, const QString &actor)
{
    // Read and write in one transaction so the snapshot pairs a page with the template
    // version it saw.
    Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    auto page = getPage(spaceId, id);
    if (!page)
        return page.error();
    auto tmpl = templateAt(page->spaceId, page->templateId, page->templateVersion);
    if (!tmpl)
        return tmpl.error();
    const auto snapshot = writeSnapshot(*page, *tmpl, actor);
    if (!snapshot)
        return snapshot.error();
    if (!tx.commit())
        return ServiceError::database();
    announceSnapshot(snapshot->pageId);
    return *snapshot;
}

void ContentService::announceSnapshot(const QString &pageId)
{
    // Dropped only once the snapshot is committed: dropped earlier, a render in between
    // would read the old snapshot again and cache it (the publish may be part of a longer
    // transaction, an Idempotency-Key's request).
    if (m_snapshotChanged)
        store::afterCommit(m_db, [listener = m_snapshotChanged, pageId] { listener(pageId); });
    // Other instances sharing a PostgreSQL database drop their cached snapshot when this
    // arrives (store::ChangeFeed); if it is lost, their publish-cache TTL still expires it.
    store::ChangeFeed::notify(m_db, QStringLiteral("page"), pageId);
}

Result<PublishedPage> ContentService::writeSnapshot(const PageRecord &page, const TemplateRecord &tmpl,
                                                    const QString &actor)
{
    PublishedPage s;
    s.pageId = page.id;
    s.spaceId = page.spaceId;
    s.page = page;
    s.tmpl = tmpl;
    s.publishedAt = nowMs();
    s.page.publishedAt = s.publishedAt;
    s.page.publishedTemplateVersion = tmpl.version;
    if (!PublishedPageRepository(m_db).upsert(s)
        || !AuditRepository(m_db).append(s.spaceId, actor, QStringLiteral("page.publish"), s.pageId))
        return ServiceError::database();
    return s;
}

Result<PublishedPage> ContentService::published(const QString &spaceId, const QString &pageId)
{
    const auto s = PublishedPageRepository(m_db).byPageId(pageId);
    if (!s)
        return s.error();
    if (*s && (spaceId.isEmpty() || (*s)->spaceId == spaceId))
        return **s;
    // Tell "no such page" from "not published" (the detail must say which, so a caller knows to publish).
    if (auto page = getPage(spaceId, pageId); !page)
        return page.error();
    return ServiceError::notFound(
        ProblemCode::PageNotPublished,
        QStringLiteral("Page '%1' has not been published; publish it (POST /api/v1/pages/%1/publish)"
                       " or render with draft: true.")
            .arg(pageId));
}

} // namespace imprint::service
