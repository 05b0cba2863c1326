#pragma once
// Templates, pages and published snapshots (docs/templates.md, §5 tables
// templates, pages, published_pages, renders): records, repositories (the only SQL) and
// the ContentService that applies the rules (space scoping, validation on save, one
// transaction per multi-row write, audit rows).
//
// The store does not link the render engine: template validation is injected as a
// TemplateValidator (the HTTP layer and the CLI pass one built on render::parseTemplate).

#include "server/store/database.h"
#include "server/store/services.h"

#include <QJsonObject>
#include <QList>

#include <functional>
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

/// Checks a template document before it is stored: std::nullopt when it is valid, else
/// an Invalid ServiceError naming the field ("document.root", "variables.title", ...).
using TemplateValidator = std::function<std::optional<ServiceError>(const QJsonObject &document)>;
/// Checks page variable values against a template document (unknown names, bad colours):
/// std::nullopt when valid, else an Invalid ServiceError naming "variables.NAME".
using VariablesValidator
    = std::function<std::optional<ServiceError>(const QJsonObject &document, const QJsonObject &variables)>;

/// CRUD and publishing of templates and pages, always scoped to one space. Thread-safe
/// as far as Database is (each thread its own connection).
class ContentService
{
public:
    ContentService(const Database &db, TemplateValidator validateTemplate, VariablesValidator validateVariables)
        : m_db(db)
        , m_validateTemplate(std::move(validateTemplate))
        , m_validateVariables(std::move(validateVariables))
    { }

    /// New template in `spaceId` from `document` (validated; Invalid otherwise). `actor`
    /// (user id or "cli") goes to the audit log.
    Result<TemplateRecord> createTemplate(const QString &spaceId, const QJsonObject &document, const QString &actor);
    /// Replaces the document of template `id` (validated; NotFound "template_not_found").
    /// Pages using it see the change in draft renders only until they are republished.
    Result<TemplateRecord> updateTemplate(const QString &spaceId, const QString &id, const QJsonObject &document,
                                          const QString &actor);
    /// Deletes template `id`; Conflict "template_in_use" while pages use it.
    Result<Done> deleteTemplate(const QString &spaceId, const QString &id, const QString &actor);
    Result<TemplateRecord> getTemplate(const QString &spaceId, const QString &id);
    Result<QList<TemplateRecord>> listTemplates(const QString &spaceId);

    /// New page of template `templateId` (must be in the same space: NotFound otherwise)
    /// with `variables` checked against it. name empty → the template's name.
    /// With `publish`, the page's publish snapshot is written in the same transaction:
    /// either both rows exist afterwards or neither does, so a failed request can be
    /// retried without making a duplicate page.
    Result<PageRecord> createPage(const QString &spaceId, const QString &templateId, const QString &name,
                                  const QJsonObject &variables, const QString &actor, bool publish = false);
    /// Changes a page. Unset optionals keep the current value. Never touches the
    /// published snapshot (docs/templates.md: renders without draft keep showing it).
    Result<PageRecord> updatePage(const QString &spaceId, const QString &id, const std::optional<QString> &templateId,
                                  const std::optional<QString> &name, const std::optional<QJsonObject> &variables,
                                  const QString &actor);
    /// Deletes a page and (cascade) its snapshot.
    Result<Done> deletePage(const QString &spaceId, const QString &id, const QString &actor);
    /// spaceId empty = any space (CLI).
    Result<PageRecord> getPage(const QString &spaceId, const QString &id);
    Result<QList<PageRecord>> listPages(const QString &spaceId);

    /// Freezes page `id` and its template into published_pages (one transaction with
    /// the audit row). spaceId empty = any space (CLI). Returns the snapshot.
    Result<PublishedPage> publish(const QString &spaceId, const QString &id, const QString &actor);
    /// The snapshot of page `pageId` in `spaceId`: NotFound "page_not_found" when the page
    /// does not exist in the space, NotFound "page_not_published" when it was never
    /// published. Reads the table only; callers put a cache in front.
    Result<PublishedPage> published(const QString &spaceId, const QString &pageId);

    /// The name a template document gives itself (its "name", trimmed, ≤ 200 chars), or "Untitled".
    static QString templateName(const QJsonObject &document);

private:
    /// Writes the publish snapshot of `page` with `tmpl` and its audit row; the caller
    /// holds the transaction. nullopt when a write failed.
    std::optional<PublishedPage> writeSnapshot(const PageRecord &page, const TemplateRecord &tmpl,
                                               const QString &actor);

    const Database &m_db;
    TemplateValidator m_validateTemplate;
    VariablesValidator m_validateVariables;
};

} // namespace imprint::store
