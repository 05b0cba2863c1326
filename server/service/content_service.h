#pragma once
// The template and page use cases: CRUD and publishing, always scoped to one space, with
// validation on save, one transaction per multi-row write and an audit row per change.
// The HTTP routes, the CLI and the demo seeding call it; the SQL stays in the store's
// repositories.

#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/models.h"

#include <QJsonObject>
#include <QList>

#include <functional>
#include <optional>
#include <vector>

namespace imprint::service {

using store::Done;
using store::Result;
using store::ProblemCode;
using store::ServiceError;

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
    /// Works on `db` (which must outlive it); every saved template passes `validateTemplate`
    /// and every page's variables `validateVariables` (service::contentService() passes the
    /// render engine's).
    ContentService(const store::Database &db, TemplateValidator validateTemplate, VariablesValidator validateVariables)
        : m_db(db)
        , m_validateTemplate(std::move(validateTemplate))
        , m_validateVariables(std::move(validateVariables))
    { }

    /// New template in `spaceId` from `document` (validated; Invalid otherwise). `actor`
    /// (user id or "cli") goes to the audit log.
    Result<store::TemplateRecord> createTemplate(const QString &spaceId, const QJsonObject &document,
                                                 const QString &actor);
    /// Replaces the document of template `id` (validated; NotFound "template_not_found").
    /// Pages using it see the change in draft renders only until they are republished.
    Result<store::TemplateRecord> updateTemplate(const QString &spaceId, const QString &id, const QJsonObject &document,
                                                 const QString &actor);
    /// Deletes template `id`; Conflict "template_in_use" while pages use it.
    Result<Done> deleteTemplate(const QString &spaceId, const QString &id, const QString &actor);
    /// Template `id` of `spaceId`; NotFound "template_not_found" when none.
    Result<store::TemplateRecord> getTemplate(const QString &spaceId, const QString &id);
    /// The templates of `spaceId`, oldest first.
    Result<QList<store::TemplateRecord>> listTemplates(const QString &spaceId);

    /// New page of template `templateId` (must be in the same space: NotFound otherwise)
    /// with `variables` checked against it. name empty → the template's name.
    /// With `publish`, the page's publish snapshot is written in the same transaction:
    /// either both rows exist afterwards or neither does, so a failed request can be
    /// retried without making a duplicate page.
    Result<store::PageRecord> createPage(const QString &spaceId, const QString &templateId, const QString &name,
                                         const QJsonObject &variables, const QString &actor, bool publish = false);
    /// Changes a page. Unset optionals keep the current value. Never touches the
    /// published snapshot (docs/templates.md: renders without draft keep showing it).
    Result<store::PageRecord> updatePage(const QString &spaceId, const QString &id,
                                         const std::optional<QString> &templateId, const std::optional<QString> &name,
                                         const std::optional<QJsonObject> &variables, const QString &actor);
    /// Deletes a page and (cascade) its snapshot.
    Result<Done> deletePage(const QString &spaceId, const QString &id, const QString &actor);
    /// Page `id` of `spaceId` (empty = any space, for the CLI); NotFound "page_not_found"
    /// when none.
    Result<store::PageRecord> getPage(const QString &spaceId, const QString &id);
    /// The pages of `spaceId`, oldest first, with their publish time joined.
    Result<QList<store::PageRecord>> listPages(const QString &spaceId);

    /// Freezes page `id` and its template into published_pages (one transaction with
    /// the audit row). spaceId empty = any space (CLI). Returns the snapshot.
    Result<store::PublishedPage> publish(const QString &spaceId, const QString &id, const QString &actor);
    /// The snapshot of page `pageId` in `spaceId`: NotFound "page_not_found" when the page
    /// does not exist in the space, NotFound "page_not_published" when it was never
    /// published. Reads the table only; callers put a cache in front.
    Result<store::PublishedPage> published(const QString &spaceId, const QString &pageId);

    /// Called with a page's id after a commit that wrote or removed its publish snapshot
    /// (publish, delete, create with publish), so that a cache in front of published()
    /// drops its copy at once. Runs on the thread of that call.
    using SnapshotListener = std::function<void(const QString &pageId)>;
    /// Replaces the listener (none by default).
    void setSnapshotListener(SnapshotListener listener) { m_snapshotChanged = std::move(listener); }

    /// The roles that may read, create, change, publish and delete a space's templates and
    /// pages: every role, since members are the editors. Transports check it
    /// against the caller's session.
    static std::vector<store::Role> editorRoles();

    /// The name a template document gives itself (its "name", trimmed, ≤ 200 chars), or "Untitled".
    static QString templateName(const QJsonObject &document);

private:
    /// Writes the publish snapshot of `page` with `tmpl` and its audit row; the caller
    /// holds the transaction. The database error when a write failed.
    Result<store::PublishedPage> writeSnapshot(const store::PageRecord &page, const store::TemplateRecord &tmpl,
                                               const QString &actor);

    const store::Database &m_db;
    TemplateValidator m_validateTemplate;
    VariablesValidator m_validateVariables;
    /// Tells the listener and, with PostgreSQL, every instance that `pageId`'s snapshot changed.
    void announceSnapshot(const QString &pageId);

    SnapshotListener m_snapshotChanged;
};

} // namespace imprint::service
