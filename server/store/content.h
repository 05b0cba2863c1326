#pragma once
// Templates, pages and published snapshots (docs/templates.md, §5 tables
// templates, pages, published_pages, renders): records and their repositories (the only
// SQL). The rules on top (space scoping, validation on save, one transaction per
// multi-row write, audit rows) are service::ContentService's.

#include "server/store/database.h"
#include "server/store/errors.h"

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

// The repositories follow repositories.h's convention: every call returns a Result whose
// only error is ServiceError::database(); a lookup that finds no row is a success holding
// std::nullopt, and an update or delete says whether a row matched.

/// templates
class TemplateRepository
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    explicit TemplateRepository(const Database &db)
        : m_db(db)
    { }
    /// Inserts `t` as a new row.
    Result<Done> insert(const TemplateRecord &t);
    /// Writes name, document and updatedAt of `t`; true when a row with t.id in t.spaceId matched.
    Result<bool> update(const TemplateRecord &t);
    /// Deletes template `id` of `spaceId`; true when a row matched.
    Result<bool> remove(const QString &spaceId, const QString &id);
    /// Template `id` of `spaceId` (empty: of any space), std::nullopt when none.
    Result<std::optional<TemplateRecord>> byId(const QString &spaceId, const QString &id);
    /// The templates of `spaceId`, oldest first.
    Result<QList<TemplateRecord>> list(const QString &spaceId);
    /// Pages that use template `id`.
    Result<int> pageCount(const QString &id);

private:
    const Database &m_db;
};

/// pages (publishedAt joined from published_pages)
class PageRepository
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    explicit PageRepository(const Database &db)
        : m_db(db)
    { }
    /// Inserts `p` as a new row.
    Result<Done> insert(const PageRecord &p);
    /// Writes templateId, name, variables and updatedAt of `p`; true when a row with p.id in
    /// p.spaceId matched.
    Result<bool> update(const PageRecord &p);
    /// Deletes page `id` of `spaceId` (its snapshot goes with it); true when a row matched.
    Result<bool> remove(const QString &spaceId, const QString &id);
    /// Page `id` of `spaceId` (empty: of any space, for CLI `page publish ID`), std::nullopt
    /// when none.
    Result<std::optional<PageRecord>> byId(const QString &spaceId, const QString &id);
    /// The pages of `spaceId`, oldest first.
    Result<QList<PageRecord>> list(const QString &spaceId);

private:
    const Database &m_db;
};

/// published_pages: one snapshot row per page (JSON {page, template}).
class PublishedPageRepository
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    explicit PublishedPageRepository(const Database &db)
        : m_db(db)
    { }
    /// Inserts or replaces the snapshot of page.id.
    Result<Done> upsert(const PublishedPage &snapshot);
    /// The snapshot of page `pageId` in any space, std::nullopt when it was never published.
    Result<std::optional<PublishedPage>> byPageId(const QString &pageId);

private:
    const Database &m_db;
};

/// renders
class RenderRepository
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    explicit RenderRepository(const Database &db)
        : m_db(db)
    { }
    /// Appends `r`, stamped with the current time.
    Result<Done> insert(const RenderRecord &r);
    /// Number of rows (tests, diagnostics).
    Result<int> count();

private:
    const Database &m_db;
};

} // namespace imprint::store
