#pragma once
// Templates, pages and published snapshots (docs/templates.md, §5 tables
// templates, pages, published_pages, renders): records and their repositories (the only
// SQL). The rules on top (space scoping, validation on save, one transaction per
// multi-row write, audit rows) are service::ContentService's.

#include "server/store/database.h"

#include <QJsonObject>
#include <QList>

#include <optional>

namespace imprint::store {

/// A stored template: its JSON document as given (docs/templates.md), validated when saved.
struct TemplateRecord {
    QString id; ///< "tpl_…"
    QString spaceId;
    QString name; ///< the document's "name", or "Untitled"
    QJsonObject document;
    qint64 createdAt = 0; ///< epoch ms
    qint64 updatedAt = 0;
};

/// A stored page: a template plus variable values (docs/templates.md).
struct PageRecord {
    QString id; ///< "pg_…"
    QString spaceId;
    QString templateId;
    QString name;
    QJsonObject variables; ///< name → value (string or number)
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
    qint64 publishedAt = 0; ///< 0 when never published (joined from published_pages)
};

/// A frozen page + template (docs/templates.md): what non-draft renders read.
struct PublishedPage {
    QString pageId;
    QString spaceId;
    PageRecord page; ///< the page as it was when published
    TemplateRecord tmpl; ///< its template as it was when published
    qint64 publishedAt = 0; ///< epoch ms
};

/// One stored render (the renders table): which file a render produced, for audit and
/// for garbage collection of DATA/files later.
struct RenderRecord {
    QString id;
    QString spaceId; ///< empty for anonymous pattern renders
    QString pageId; ///< empty for pattern renders
    QString sha256;
    QString format; ///< "png", "webp", "svg"
    qint64 bytes = 0;
};

/// templates
class TemplateRepository
{
public:
    explicit TemplateRepository(const Database &db)
        : m_db(db)
    { }
    bool insert(const TemplateRecord &t);
    /// False on SQL failure; *found whether a row of that space matched.
    bool update(const TemplateRecord &t, bool *found);
    bool remove(const QString &spaceId, const QString &id, bool *found);
    std::optional<TemplateRecord> byId(const QString &spaceId, const QString &id, bool *ok = nullptr);
    std::optional<QList<TemplateRecord>> list(const QString &spaceId);
    /// Pages that use template `id`.
    std::optional<int> pageCount(const QString &id);

private:
    const Database &m_db;
};

/// pages (publishedAt joined from published_pages)
class PageRepository
{
public:
    explicit PageRepository(const Database &db)
        : m_db(db)
    { }
    bool insert(const PageRecord &p);
    bool update(const PageRecord &p, bool *found);
    bool remove(const QString &spaceId, const QString &id, bool *found);
    /// spaceId empty = any space (CLI `page publish ID`).
    std::optional<PageRecord> byId(const QString &spaceId, const QString &id, bool *ok = nullptr);
    std::optional<QList<PageRecord>> list(const QString &spaceId);

private:
    const Database &m_db;
};

/// published_pages: one snapshot row per page (JSON {page, template}).
class PublishedPageRepository
{
public:
    explicit PublishedPageRepository(const Database &db)
        : m_db(db)
    { }
    /// Inserts or replaces the snapshot of page.id.
    bool upsert(const PublishedPage &snapshot);
    std::optional<PublishedPage> byPageId(const QString &pageId, bool *ok = nullptr);

private:
    const Database &m_db;
};

/// renders
class RenderRepository
{
public:
    explicit RenderRepository(const Database &db)
        : m_db(db)
    { }
    bool insert(const RenderRecord &r);
    /// Number of rows (tests, diagnostics).
    std::optional<int> count();

private:
    const Database &m_db;
};

} // namespace imprint::store
