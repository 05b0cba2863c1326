// The repositories of templates, pages, publish snapshots and renders (repositories.h;
// tables of docs/templates.md).
#include "server/store/repositories.h"

#include "server/store/crypto.h"
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

const QString kTemplateColumns = QStringLiteral("id, space_id, name, document, created_at, updated_at, version");

TemplateRecord templateFrom(const QSqlQuery &q)
{
    return TemplateRecord{q.value(0).toString(),    q.value(1).toString(),    q.value(2).toString(),
                          parseObject(q.value(3)),  q.value(4).toLongLong(), q.value(5).toLongLong(),
                          q.value(6).toInt()};
}

const QString kVersionColumns
    = QStringLiteral("template_id, space_id, version, name, document, actor, created_at");

TemplateVersionRecord versionFrom(const QSqlQuery &q)
{
    return TemplateVersionRecord{q.value(0).toString(), q.value(1).toString(),   q.value(2).toInt(),
                                 q.value(3).toString(), parseObject(q.value(4)), q.value(5).toString(),
                                 q.value(6).toLongLong()};
}

const QString kPageColumns = QStringLiteral(
    "p.id, p.space_id, p.template_id, p.name, p.variables, p.created_at, p.updated_at, pp.published_at,"
    " p.template_version, pp.template_version");

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
    if (!q.value(8).isNull())
        p.templateVersion = q.value(8).toInt();
    p.publishedTemplateVersion = q.value(9).isNull() ? 0 : q.value(9).toInt();
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
                       {QStringLiteral("updatedAt"), double(t.updatedAt)},
                       {QStringLiteral("version"), t.version}};
}

PublishedPage snapshotFrom(const QSqlQuery &q)
{
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
    // Snapshots written before template versions existed carry none (0).
    s.tmpl.version = tmpl.value(QStringLiteral("version")).toInt(0);
    s.page.publishedTemplateVersion = s.tmpl.version;
    return s;
}

/// A page's pin as a bound value: NULL when it follows the latest version.
QVariant pinOf(const PageRecord &p)
{
    return p.templateVersion ? QVariant(*p.templateVersion) : QVariant(QMetaType::fromType<int>());
}

} // namespace

Result<Done> TemplateRepository::insert(const TemplateRecord &t)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO templates (id, space_id, name, document, created_at, updated_at,"
                                     " version) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                      t.id, t.spaceId, t.name, compact(t.document), t.createdAt, t.updatedAt, t.version);
}

Result<bool> TemplateRepository::update(const TemplateRecord &t)
{
    return sql::writeMatched(
        m_db,
        QStringLiteral("UPDATE templates SET name = ?, document = ?, updated_at = ?, version = version + 1"
                       " WHERE id = ? AND space_id = ?"),
        t.name, compact(t.document), t.updatedAt, t.id, t.spaceId);
}

Result<bool> TemplateRepository::remove(const QString &spaceId, const QString &id)
{
    return sql::writeMatched(m_db, QStringLiteral("DELETE FROM templates WHERE id = ? AND space_id = ?"), id, spaceId);
}

Result<std::optional<TemplateRecord>> TemplateRepository::byId(const QString &spaceId, const QString &id)
{
    QSqlQuery q(m_db.connection());
    const bool any = spaceId.isEmpty();
    const QString sql = QStringLiteral("SELECT %1 FROM templates WHERE id = ?%2")
                            .arg(kTemplateColumns, any ? QString() : QStringLiteral(" AND space_id = ?"));
    return sql::firstRow(q, any ? sql::run(q, sql, id) : sql::run(q, sql, id, spaceId), templateFrom);
}

Result<QList<TemplateRecord>> TemplateRepository::list(const QString &spaceId)
{
    return sql::selectAll(
        m_db,
        QStringLiteral("SELECT %1 FROM templates WHERE space_id = ? ORDER BY created_at, id").arg(kTemplateColumns),
        templateFrom, spaceId);
}

Result<int> TemplateRepository::pageCount(const QString &id)
{
    return sql::selectCount(m_db, QStringLiteral("SELECT COUNT(*) FROM pages WHERE template_id = ?"), id);
}

Result<Done> PageRepository::insert(const PageRecord &p)
{
    return sql::write(
        m_db,
        QStringLiteral("INSERT INTO pages (id, space_id, template_id, name, variables, created_at, updated_at,"
                       " template_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
        p.id, p.spaceId, p.templateId, p.name, compact(p.variables), p.createdAt, p.updatedAt, pinOf(p));
}

Result<bool> PageRepository::update(const PageRecord &p)
{
    return sql::writeMatched(m_db,
                             QStringLiteral("UPDATE pages SET template_id = ?, name = ?, variables = ?, updated_at = ?,"
                                            " template_version = ? WHERE id = ? AND space_id = ?"),
                             p.templateId, p.name, compact(p.variables), p.updatedAt, pinOf(p), p.id, p.spaceId);
}

Result<bool> PageRepository::remove(const QString &spaceId, const QString &id)
{
    return sql::writeMatched(m_db, QStringLiteral("DELETE FROM pages WHERE id = ? AND space_id = ?"), id, spaceId);
}

Result<std::optional<PageRecord>> PageRepository::byId(const QString &spaceId, const QString &id)
{
    QSqlQuery q(m_db.connection());
    const bool any = spaceId.isEmpty();
    const QString sql = QStringLiteral("SELECT %1 FROM pages p LEFT JOIN published_pages pp ON pp.page_id = p.id"
                                       " WHERE p.id = ?%2")
                            .arg(kPageColumns, any ? QString() : QStringLiteral(" AND p.space_id = ?"));
    return sql::firstRow(q, any ? sql::run(q, sql, id) : sql::run(q, sql, id, spaceId), pageFrom);
}

Result<QList<PageRecord>> PageRepository::list(const QString &spaceId)
{
    return sql::selectAll(m_db,
                          QStringLiteral("SELECT %1 FROM pages p LEFT JOIN published_pages pp ON pp.page_id = p.id"
                                         " WHERE p.space_id = ? ORDER BY p.created_at, p.id")
                              .arg(kPageColumns),
                          pageFrom, spaceId);
}

Result<Done> PublishedPageRepository::upsert(const PublishedPage &s)
{
    const QString snapshot = compact(QJsonObject{{QStringLiteral("page"), pageToJson(s.page)},
                                                 {QStringLiteral("template"), templateToJson(s.tmpl)}});
    QSqlQuery q(m_db.connection());
    // DELETE + INSERT instead of an upsert clause: portable across SQLite and PostgreSQL;
    // the caller holds a transaction so readers never see the gap.
    if (!sql::run(q, QStringLiteral("DELETE FROM published_pages WHERE page_id = ?"), s.pageId))
        return ServiceError::database();
    return sql::write(
        q,
        QStringLiteral("INSERT INTO published_pages (page_id, space_id, snapshot, published_at, template_version)"
                       " VALUES (?, ?, ?, ?, ?)"),
        s.pageId, s.spaceId, snapshot, s.publishedAt, s.tmpl.version);
}

Result<std::optional<PublishedPage>> PublishedPageRepository::byPageId(const QString &pageId)
{
    return sql::selectOne(
        m_db, QStringLiteral("SELECT page_id, space_id, snapshot, published_at FROM published_pages WHERE page_id = ?"),
        snapshotFrom, pageId);
}

Result<std::optional<qint64>> PublishedPageRepository::publishedAt(const QString &pageId)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q, QStringLiteral("SELECT published_at FROM published_pages WHERE page_id = ?"), pageId))
        return ServiceError::database();
    if (!q.next())
        return std::optional<qint64>();
    return std::optional<qint64>(q.value(0).toLongLong());
}

Result<Done> TemplateVersionRepository::insert(const TemplateVersionRecord &v)
{
    return sql::write(
        m_db, QStringLiteral("INSERT INTO template_versions (%1) VALUES (?, ?, ?, ?, ?, ?, ?)").arg(kVersionColumns),
        v.templateId, v.spaceId, v.version, v.name, compact(v.document), v.actor, v.createdAt);
}

Result<std::optional<TemplateVersionRecord>> TemplateVersionRepository::byNumber(const QString &templateId,
                                                                                  int version)
{
    return sql::selectOne(
        m_db,
        QStringLiteral("SELECT %1 FROM template_versions WHERE template_id = ? AND version = ?").arg(kVersionColumns),
        versionFrom, templateId, version);
}

Result<int> TemplateVersionRepository::count(const QString &templateId)
{
    QSqlQuery q(m_db.connection());
    return sql::countOf(
        q, sql::run(q, QStringLiteral("SELECT COUNT(*) FROM template_versions WHERE template_id = ?"), templateId));
}

Result<QList<TemplateVersionRecord>> TemplateVersionRepository::range(const QString &templateId, int offset,
                                                                       int limit)
{
    // Each page of a history runs the same statement: cached and prepared once per thread.
    static const QString kSql = QStringLiteral("SELECT %1 FROM template_versions WHERE template_id = ?"
                                               " ORDER BY version DESC LIMIT ? OFFSET ?")
                                    .arg(kVersionColumns);
    return sql::cachedRows(m_db, kSql, versionFrom, templateId, limit, offset);
}

Result<Done> RenderRepository::insert(const RenderRecord &r)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO renders (id, space_id, page_id, sha256, format, bytes, created_at)"
                                     " VALUES (?, ?, ?, ?, ?, ?, ?)"),
                      r.id, r.spaceId.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(r.spaceId),
                      r.pageId.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(r.pageId), r.sha256,
                      r.format, r.bytes, r.createdAt ? r.createdAt : nowMs());
}

Result<int> RenderRepository::count()
{
    return sql::selectCount(m_db, QStringLiteral("SELECT COUNT(*) FROM renders"));
}

} // namespace imprint::store
