#pragma once
// The template and page use cases: CRUD and publishing, always scoped to one space, with
// validation on save, one transaction per multi-row write and an audit row per change.
// The HTTP routes, the CLI and the demo seeding call it; the SQL stays in the store's
// repositories.

#include "server/service/paging.h"
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
class ContentService : public StandardPaging
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
    /// Replaces the document of template `id` (validated; NotFound "template_not_found")
    /// and stores it as the next version, in one transaction. Pages following the latest
    /// version see the change in draft renders only until they are republished; pinned
    /// pages not at all. `auditAction` names the change in the audit log.
    Result<store::TemplateRecord> updateTemplate(const QString &spaceId, const QString &id, const QJsonObject &document,
                                                 const QString &actor,
                                                 const QString &auditAction = QStringLiteral("template.update"));
    /// Deletes template `id`; Conflict "template_in_use" while pages use it.
    Result<Done> deleteTemplate(const QString &spaceId, const QString &id, const QString &actor);
    /// Template `id` of `spaceId`; NotFound "template_not_found" when none.
    Result<store::TemplateRecord> getTemplate(const QString &spaceId, const QString &id);
    /// The templates of `spaceId`, oldest first.
    Result<QList<store::TemplateRecord>> listTemplates(const QString &spaceId);

    /// New page of template `templateId` (must be in the same space: NotFound otherwise)
    /// with `variables` checked against it (against version `templateVersion` when the
    /// page is pinned to one: NotFound "template_version_not_found" when it has none; nullopt
    /// follows the latest). name empty → the template's name.
    /// With `publish`, the page's publish snapshot is written in the same transaction:
    /// either both rows exist afterwards or neither does, so a failed request can be
    /// retried without making a duplicate page.
    Result<store::PageRecord> createPage(const QString &spaceId, const QString &templateId, const QString &name,
                                         const QJsonObject &variables, const QString &actor, bool publish = false,
                                         std::optional<int> templateVersion = std::nullopt);
    /// Changes a page. Unset optionals keep the current value; `templateVersion` set to
    /// nullopt inside unpins (follow the latest), and a new templateId without it unpins
    /// too (another template's numbers mean nothing). Never touches the published
    /// snapshot (docs/templates.md: renders without draft keep showing it).
    Result<store::PageRecord> updatePage(const QString &spaceId, const QString &id,
                                         const std::optional<QString> &templateId, const std::optional<QString> &name,
                                         const std::optional<QJsonObject> &variables, const QString &actor,
                                         const std::optional<std::optional<int>> &templateVersion = std::nullopt);
    /// Deletes a page and (cascade) its snapshot.
    Result<Done> deletePage(const QString &spaceId, const QString &id, const QString &actor);
    /// Page `id` of `spaceId` (empty = any space, for the CLI); NotFound "page_not_found"
    /// when none.
    Result<store::PageRecord> getPage(const QString &spaceId, const QString &id);
    /// The pages of `spaceId`, oldest first, with their publish time joined.
    Result<QList<store::PageRecord>> listPages(const QString &spaceId);

    /// Freezes page `id` and its template (the pinned version, else the latest) into
    /// published_pages with the version's number (one transaction with the audit row).
    /// spaceId empty = any space (CLI). Returns the snapshot.
    Result<store::PublishedPage> publish(const QString &spaceId, const QString &id, const QString &actor);
    /// The snapshot of page `pageId` in `spaceId`: NotFound "page_not_found" when the page
    /// does not exist in the space, NotFound "page_not_published" when it was never
    /// published. Reads the table only; callers put a cache in front.
    Result<store::PublishedPage> published(const QString &spaceId, const QString &pageId);

    // ---- template versions (template_versions.cpp; docs/api.md "Template versions")

    /// Page `page` (1..kMaxPage) of `perPage` (1..kMaxPerPage) versions of template
    /// `templateId` of `spaceId`, newest first; NotFound "template_not_found"; Invalid
    /// "invalid_parameter" outside the ranges.
    Result<ListPage<store::TemplateVersionRecord>> listVersions(const QString &spaceId, const QString &templateId,
                                                                int page, int perPage);
    /// Version `version` of template `templateId` of `spaceId`; NotFound
    /// "template_not_found" or "template_version_not_found" (field version).
    Result<store::TemplateVersionRecord> getVersion(const QString &spaceId, const QString &templateId, int version);
    /// Template `templateId` with the document of version `version` (nullopt: the latest,
    /// as getTemplate()): what a page pinned to it renders. Errors as getVersion().
    Result<store::TemplateRecord> templateAt(const QString &spaceId, const QString &templateId,
                                             std::optional<int> version);
    /// Stores the document of version `version` again as the template's next version (a
    /// rollback is a new version: history is never rewritten) and returns the template;
    /// errors as getVersion() and updateTemplate(). Audit action "template.rollback".
    Result<store::TemplateRecord> rollback(const QString &spaceId, const QString &templateId, int version,
                                           const QString &actor);

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
    /// Stores `t` (as just inserted or updated) as its version `t.version`, by `actor`;
    /// the caller holds the transaction.
    Result<Done> recordVersion(const store::TemplateRecord &t, const QString &actor);
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
