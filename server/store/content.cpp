#include "server/store/content.h"

#include "server/store/crypto.h"
#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace imprint::store {

namespace {

QString compact(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QJsonObject parseObject(const QVariant &v)
{
    return QJsonDocument::fromJson(v.toString().toUtf8()).object();
}

const QString kTemplateColumns = QStringLiteral("id, space_id, name, document, created_at, updated_at");

TemplateRecord templateFrom(const QSqlQuery &q)
{
    return TemplateRecord{q.value(0).toString(),   q.value(1).toString(),   q.value(2).toString(),
                          parseObject(q.value(3)), q.value(4).toLongLong(), q.value(5).toLongLong()};
}

const QString kPageColumns = QStringLiteral(
    "p.id, p.space_id, p.template_id, p.name, p.variables, p.created_at, p.updated_at, pp.published_at");

PageRecord pageFrom(const QSqlQuery &q)
{
    PageRecord p;
    p.id = q.value(0).toString();
    p.spaceId = q.value(1).toString();
    p.templateId = q.value(2).toString();
    p.name = q.value(3).toString();
    p.variables = parseObject(q.value(4));
    p.createdAt = q.value(5).toLongLong();
    p.updatedAt = q.value(6).toLongLong();
    p.publishedAt = q.value(7).isNull() ? 0 : q.value(7).toLongLong();
    return p;
}

QJsonObject pageToJson(const PageRecord &p)
{
    return QJsonObject{{QStringLiteral("id"), p.id},
                       {QStringLiteral("templateId"), p.templateId},
                       {QStringLiteral("name"), p.name},
                       {QStringLiteral("variables"), p.variables},
                       {QStringLiteral("updatedAt"), double(p.updatedAt)}};
}

QJsonObject templateToJson(const TemplateRecord &t)
{
    return QJsonObject{{QStringLiteral("id"), t.id},
                       {QStringLiteral("name"), t.name},
                       {QStringLiteral("document"), t.document},
                       {QStringLiteral("updatedAt"), double(t.updatedAt)}};
}

ServiceError templateMissing(const QString &id)
{
    return ServiceError::notFound(QStringLiteral("template_not_found"),
                                  QStringLiteral("Template '%1' was not found in this space.").arg(id));
}

ServiceError pageMissing(const QString &id)
{
    return ServiceError::notFound(QStringLiteral("page_not_found"),
                                  QStringLiteral("Page '%1' was not found in this space.").arg(id));
}

// Page variable values are strings or numbers, bounded like request tweaks.
std::optional<ServiceError> checkVariableShapes(const QJsonObject &variables)
{
    for (auto it = variables.begin(); it != variables.end(); ++it) {
        if (!it.value().isString() && !it.value().isDouble())
            return ServiceError::invalid(QStringLiteral("invalid_variable"), QStringLiteral("variables.") + it.key(),
                                         QStringLiteral("Variable '%1' must be a string or a number.").arg(it.key()));
    }
    return std::nullopt;
}

} // namespace

// ---------------------------------------------------------------- repositories

bool TemplateRepository::insert(const TemplateRecord &t)
{
    QSqlQuery q(m_db.connection());
    return sql::run(q,
                    QStringLiteral("INSERT INTO templates (id, space_id, name, document, created_at, updated_at)"
                                   " VALUES (?, ?, ?, ?, ?, ?)"),
                    t.id, t.spaceId, t.name, compact(t.document), t.createdAt, t.updatedAt);
}

bool TemplateRepository::update(const TemplateRecord &t, bool *found)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(
            q,
            QStringLiteral("UPDATE templates SET name = ?, document = ?, updated_at = ? WHERE id = ? AND space_id = ?"),
            t.name, compact(t.document), t.updatedAt, t.id, t.spaceId))
        return false;
    *found = q.numRowsAffected() > 0;
    return true;
}

bool TemplateRepository::remove(const QString &spaceId, const QString &id, bool *found)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q, QStringLiteral("DELETE FROM templates WHERE id = ? AND space_id = ?"), id, spaceId))
        return false;
    *found = q.numRowsAffected() > 0;
    return true;
}

std::optional<TemplateRecord> TemplateRepository::byId(const QString &spaceId, const QString &id, bool *ok)
{
    QSqlQuery q(m_db.connection());
    const bool any = spaceId.isEmpty();
    const QString sql = QStringLiteral("SELECT %1 FROM templates WHERE id = ?%2")
                            .arg(kTemplateColumns, any ? QString() : QStringLiteral(" AND space_id = ?"));
    const bool ran = any ? sql::run(q, sql, id) : sql::run(q, sql, id, spaceId);
    sql::setOk(ok, ran);
    if (!ran || !q.next())
        return std::nullopt;
    return templateFrom(q);
}

std::optional<QList<TemplateRecord>> TemplateRepository::list(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(
            q,
            QStringLiteral("SELECT %1 FROM templates WHERE space_id = ? ORDER BY created_at, id").arg(kTemplateColumns),
            spaceId))
        return std::nullopt;
    QList<TemplateRecord> out;
    while (q.next())
        out.append(templateFrom(q));
    return out;
}

std::optional<int> TemplateRepository::pageCount(const QString &id)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q, QStringLiteral("SELECT COUNT(*) FROM pages WHERE template_id = ?"), id) || !q.next())
        return std::nullopt;
    return q.value(0).toInt();
}

bool PageRepository::insert(const PageRecord &p)
{
    QSqlQuery q(m_db.connection());
    return sql::run(
        q,
        QStringLiteral("INSERT INTO pages (id, space_id, template_id, name, variables, created_at, updated_at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)"),
        p.id, p.spaceId, p.templateId, p.name, compact(p.variables), p.createdAt, p.updatedAt);
}

bool PageRepository::update(const PageRecord &p, bool *found)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q,
                  QStringLiteral("UPDATE pages SET template_id = ?, name = ?, variables = ?, updated_at = ?"
                                 " WHERE id = ? AND space_id = ?"),
                  p.templateId, p.name, compact(p.variables), p.updatedAt, p.id, p.spaceId))
        return false;
    *found = q.numRowsAffected() > 0;
    return true;
}

bool PageRepository::remove(const QString &spaceId, const QString &id, bool *found)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q, QStringLiteral("DELETE FROM pages WHERE id = ? AND space_id = ?"), id, spaceId))
        return false;
    *found = q.numRowsAffected() > 0;
    return true;
}

std::optional<PageRecord> PageRepository::byId(const QString &spaceId, const QString &id, bool *ok)
{
    QSqlQuery q(m_db.connection());
    const bool any = spaceId.isEmpty();
    const QString sql = QStringLiteral("SELECT %1 FROM pages p LEFT JOIN published_pages pp ON pp.page_id = p.id"
                                       " WHERE p.id = ?%2")
                            .arg(kPageColumns, any ? QString() : QStringLiteral(" AND p.space_id = ?"));
    const bool ran = any ? sql::run(q, sql, id) : sql::run(q, sql, id, spaceId);
    sql::setOk(ok, ran);
    if (!ran || !q.next())
        return std::nullopt;
    return pageFrom(q);
}

std::optional<QList<PageRecord>> PageRepository::list(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q,
                  QStringLiteral("SELECT %1 FROM pages p LEFT JOIN published_pages pp ON pp.page_id = p.id"
                                 " WHERE p.space_id = ? ORDER BY p.created_at, p.id")
                      .arg(kPageColumns),
                  spaceId))
        return std::nullopt;
    QList<PageRecord> out;
    while (q.next())
        out.append(pageFrom(q));
    return out;
}

bool PublishedPageRepository::upsert(const PublishedPage &s)
{
    const QString snapshot = compact(QJsonObject{{QStringLiteral("page"), pageToJson(s.page)},
                                                 {QStringLiteral("template"), templateToJson(s.tmpl)}});
    QSqlQuery q(m_db.connection());
    // DELETE + INSERT instead of an upsert clause: portable across SQLite and PostgreSQL;
    // the caller holds a transaction so readers never see the gap.
    return sql::run(q, QStringLiteral("DELETE FROM published_pages WHERE page_id = ?"), s.pageId)
           && sql::run(
               q,
               QStringLiteral(
                   "INSERT INTO published_pages (page_id, space_id, snapshot, published_at) VALUES (?, ?, ?, ?)"),
               s.pageId, s.spaceId, snapshot, s.publishedAt);
}

std::optional<PublishedPage> PublishedPageRepository::byPageId(const QString &pageId, bool *ok)
{
    QSqlQuery q(m_db.connection());
    const bool ran = sql::run(
        q, QStringLiteral("SELECT page_id, space_id, snapshot, published_at FROM published_pages WHERE page_id = ?"),
        pageId);
    sql::setOk(ok, ran);
    if (!ran || !q.next())
        return std::nullopt;
    PublishedPage s;
    s.pageId = q.value(0).toString();
    s.spaceId = q.value(1).toString();
    s.publishedAt = q.value(3).toLongLong();
    const QJsonObject snap = parseObject(q.value(2));
    const QJsonObject page = snap.value(QStringLiteral("page")).toObject();
    const QJsonObject tmpl = snap.value(QStringLiteral("template")).toObject();
    s.page.id = page.value(QStringLiteral("id")).toString();
    s.page.spaceId = s.spaceId;
    s.page.templateId = page.value(QStringLiteral("templateId")).toString();
    s.page.name = page.value(QStringLiteral("name")).toString();
    s.page.variables = page.value(QStringLiteral("variables")).toObject();
    s.page.updatedAt = qint64(page.value(QStringLiteral("updatedAt")).toDouble());
    s.page.publishedAt = s.publishedAt;
    s.tmpl.id = tmpl.value(QStringLiteral("id")).toString();
    s.tmpl.spaceId = s.spaceId;
    s.tmpl.name = tmpl.value(QStringLiteral("name")).toString();
    s.tmpl.document = tmpl.value(QStringLiteral("document")).toObject();
    s.tmpl.updatedAt = qint64(tmpl.value(QStringLiteral("updatedAt")).toDouble());
    return s;
}

bool RenderRepository::insert(const RenderRecord &r)
{
    QSqlQuery q(m_db.connection());
    return sql::run(q,
                    QStringLiteral("INSERT INTO renders (id, space_id, page_id, sha256, format, bytes, created_at)"
                                   " VALUES (?, ?, ?, ?, ?, ?, ?)"),
                    r.id, r.spaceId.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(r.spaceId),
                    r.pageId.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(r.pageId), r.sha256,
                    r.format, r.bytes, nowMs());
}

std::optional<int> RenderRepository::count()
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q, QStringLiteral("SELECT COUNT(*) FROM renders")) || !q.next())
        return std::nullopt;
    return q.value(0).toInt();
}

// ---------------------------------------------------------------- service

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
    Transaction tx(m_db);
    if (!tx.isOpen() || !TemplateRepository(m_db).insert(t)
        || !AuditRepository(m_db).append(spaceId, actor, QStringLiteral("template.create"), t.id) || !tx.commit())
        return ServiceError::database();
    return t;
}

Result<TemplateRecord> ContentService::updateTemplate(const QString &spaceId, const QString &id,
                                                      const QJsonObject &document, const QString &actor)
{
    if (auto e = m_validateTemplate(document))
        return *e;
    bool ok = false;
    auto existing = TemplateRepository(m_db).byId(spaceId, id, &ok);
    if (!ok)
        return ServiceError::database();
    if (!existing)
        return templateMissing(id);
    TemplateRecord t = *existing;
    t.name = templateName(document);
    t.document = document;
    t.updatedAt = nowMs();
    bool found = false;
    Transaction tx(m_db);
    if (!tx.isOpen() || !TemplateRepository(m_db).update(t, &found))
        return ServiceError::database();
    if (!found)
        return templateMissing(id);
    if (!AuditRepository(m_db).append(spaceId, actor, QStringLiteral("template.update"), t.id) || !tx.commit())
        return ServiceError::database();
    return t;
}

Result<Done> ContentService::deleteTemplate(const QString &spaceId, const QString &id, const QString &actor)
{
    bool ok = false;
    if (!TemplateRepository(m_db).byId(spaceId, id, &ok))
        return ok ? Result<Done>(templateMissing(id)) : Result<Done>(ServiceError::database());
    const auto pages = TemplateRepository(m_db).pageCount(id);
    if (!pages)
        return ServiceError::database();
    if (*pages > 0)
        return ServiceError{
            ServiceError::Kind::Conflict, QStringLiteral("template_in_use"), QStringLiteral("id"),
            QStringLiteral("Template '%1' is used by %2 page(s); delete them first.").arg(id).arg(*pages)};
    bool found = false;
    Transaction tx(m_db);
    if (!tx.isOpen() || !TemplateRepository(m_db).remove(spaceId, id, &found))
        return ServiceError::database();
    if (!found)
        return templateMissing(id);
    if (!AuditRepository(m_db).append(spaceId, actor, QStringLiteral("template.delete"), id) || !tx.commit())
        return ServiceError::database();
    return Done{};
}

Result<TemplateRecord> ContentService::getTemplate(const QString &spaceId, const QString &id)
{
    bool ok = false;
    auto t = TemplateRepository(m_db).byId(spaceId, id, &ok);
    if (!ok)
        return ServiceError::database();
    if (!t)
        return templateMissing(id);
    return *t;
}

Result<QList<TemplateRecord>> ContentService::listTemplates(const QString &spaceId)
{
    auto list = TemplateRepository(m_db).list(spaceId);
    if (!list)
        return ServiceError::database();
    return *list;
}

Result<PageRecord> ContentService::createPage(const QString &spaceId, const QString &templateId, const QString &name,
                                              const QJsonObject &variables, const QString &actor, bool publish)
{
    auto tmpl = getTemplate(spaceId, templateId);
    if (!tmpl) {
        ServiceError e = tmpl.error();
        e.field = QStringLiteral("templateId");
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
    p.createdAt = p.updatedAt = nowMs();
    Transaction tx(m_db);
    if (!tx.isOpen() || !PageRepository(m_db).insert(p)
        || !AuditRepository(m_db).append(p.spaceId, actor, QStringLiteral("page.create"), p.id))
        return ServiceError::database();
    if (publish) {
        const auto snapshot = writeSnapshot(p, *tmpl, actor);
        if (!snapshot)
            return ServiceError::database();
        p.publishedAt = snapshot->publishedAt;
    }
    if (!tx.commit())
        return ServiceError::database();
    return p;
}

Result<PageRecord> ContentService::updatePage(const QString &spaceId, const QString &id,
                                              const std::optional<QString> &templateId,
                                              const std::optional<QString> &name,
                                              const std::optional<QJsonObject> &variables, const QString &actor)
{
    auto current = getPage(spaceId, id);
    if (!current)
        return current.error();
    PageRecord p = *current;
    if (templateId)
        p.templateId = *templateId;
    if (name)
        p.name = name->trimmed().isEmpty() ? p.name : name->trimmed().left(200);
    if (variables)
        p.variables = *variables;
    auto tmpl = getTemplate(p.spaceId, p.templateId);
    if (!tmpl) {
        ServiceError e = tmpl.error();
        e.field = QStringLiteral("templateId");
        return e;
    }
    if (auto e = checkVariableShapes(p.variables))
        return *e;
    if (auto e = m_validateVariables(tmpl->document, p.variables))
        return *e;
    p.updatedAt = nowMs();
    bool found = false;
    Transaction tx(m_db);
    if (!tx.isOpen() || !PageRepository(m_db).update(p, &found))
        return ServiceError::database();
    if (!found)
        return pageMissing(id);
    if (!AuditRepository(m_db).append(p.spaceId, actor, QStringLiteral("page.update"), p.id) || !tx.commit())
        return ServiceError::database();
    return p;
}

Result<Done> ContentService::deletePage(const QString &spaceId, const QString &id, const QString &actor)
{
    bool found = false;
    Transaction tx(m_db);
    if (!tx.isOpen() || !PageRepository(m_db).remove(spaceId, id, &found))
        return ServiceError::database();
    if (!found)
        return pageMissing(id);
    if (!AuditRepository(m_db).append(spaceId, actor, QStringLiteral("page.delete"), id) || !tx.commit())
        return ServiceError::database();
    return Done{};
}

Result<PageRecord> ContentService::getPage(const QString &spaceId, const QString &id)
{
    bool ok = false;
    auto p = PageRepository(m_db).byId(spaceId, id, &ok);
    if (!ok)
        return ServiceError::database();
    if (!p)
        return pageMissing(id);
    return *p;
}

Result<QList<PageRecord>> ContentService::listPages(const QString &spaceId)
{
    auto list = PageRepository(m_db).list(spaceId);
    if (!list)
        return ServiceError::database();
    return *list;
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
    auto tmpl = getTemplate(page->spaceId, page->templateId);
    if (!tmpl)
        return tmpl.error();
    const auto snapshot = writeSnapshot(*page, *tmpl, actor);
    if (!snapshot || !tx.commit())
        return ServiceError::database();
    return *snapshot;
}

std::optional<PublishedPage> ContentService::writeSnapshot(const PageRecord &page, const TemplateRecord &tmpl,
                                                           const QString &actor)
{
    PublishedPage s;
    s.pageId = page.id;
    s.spaceId = page.spaceId;
    s.page = page;
    s.tmpl = tmpl;
    s.publishedAt = nowMs();
    s.page.publishedAt = s.publishedAt;
    if (!PublishedPageRepository(m_db).upsert(s)
        || !AuditRepository(m_db).append(s.spaceId, actor, QStringLiteral("page.publish"), s.pageId))
        return std::nullopt;
    return s;
}

Result<PublishedPage> ContentService::published(const QString &spaceId, const QString &pageId)
{
    bool ok = false;
    auto s = PublishedPageRepository(m_db).byPageId(pageId, &ok);
    if (!ok)
        return ServiceError::database();
    if (s && (spaceId.isEmpty() || s->spaceId == spaceId))
        return *s;
    // Tell "no such page" from "not published" (the detail must say which, so a caller knows to publish).
    auto page = PageRepository(m_db).byId(spaceId, pageId, &ok);
    if (!ok)
        return ServiceError::database();
    if (!page)
        return pageMissing(pageId);
    return ServiceError::notFound(
        QStringLiteral("page_not_published"),
        QStringLiteral("Page '%1' has not been published; publish it (POST /api/v1/pages/%1/publish)"
                       " or render with draft: true.")
            .arg(pageId));
}

} // namespace imprint::store
