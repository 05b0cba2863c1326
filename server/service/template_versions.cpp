// Template versions (content_service.h, docs/api.md "Template versions"): every saved
// document of a template is a numbered row of template_versions; pages may pin one, a
// rollback stores an old one again as the newest.
#include "server/service/content_service.h"

#include "server/service/lookup.h"
#include "server/store/repositories.h"

namespace imprint::service {

using store::TemplateRecord;
using store::TemplateVersionRecord;
using store::TemplateVersionRepository;

namespace {

ServiceError versionMissing(const QString &templateId, int version)
{
    return ServiceError::notFound(ProblemCode::TemplateVersionNotFound,
                                  QStringLiteral("Template '%1' has no version %2.").arg(templateId).arg(version),
                                  QStringLiteral("version"));
}

} // namespace

Result<Done> ContentService::recordVersion(const TemplateRecord &t, const QString &actor)
{
    return TemplateVersionRepository(m_db).insert(
        TemplateVersionRecord{t.id, t.spaceId, t.version, t.name, t.document, actor, t.updatedAt});
}

Result<ListPage<TemplateVersionRecord>> ContentService::listVersions(const QString &spaceId,
                                                                     const QString &templateId, int page, int perPage)
{
    if (auto tmpl = getTemplate(spaceId, templateId); !tmpl)
        return tmpl.error();
    TemplateVersionRepository versions(m_db);
    return pageOf<TemplateVersionRecord>(
        page, perPage, kMaxPage, kMaxPerPage, [&] { return versions.count(templateId); },
        [&](int offset, int limit) { return versions.range(templateId, offset, limit); });
}

Result<TemplateVersionRecord> ContentService::getVersion(const QString &spaceId, const QString &templateId,
                                                         int version)
{
    // The template's space is checked first: another space's template is not found,
    // whatever its versions.
    if (auto tmpl = getTemplate(spaceId, templateId); !tmpl)
        return tmpl.error();
    return found(TemplateVersionRepository(m_db).byNumber(templateId, version),
                        [&] { return versionMissing(templateId, version); });
}

Result<TemplateRecord> ContentService::templateAt(const QString &spaceId, const QString &templateId,
                                                  std::optional<int> version)
{
    auto tmpl = getTemplate(spaceId, templateId);
    if (!tmpl || !version || *version == tmpl->version)
        return tmpl;
    const auto row = TemplateVersionRepository(m_db).byNumber(templateId, *version);
    if (!row)
        return row.error();
    if (!*row)
        return versionMissing(templateId, *version);
    TemplateRecord t = *tmpl;
    t.name = (*row)->name;
    t.document = (*row)->document;
    t.updatedAt = (*row)->createdAt;
    t.version = (*row)->version;
    return t;
}

Result<TemplateRecord> ContentService::rollback(const QString &spaceId, const QString &templateId, int version,
                                                const QString &actor)
{
    const auto old = getVersion(spaceId, templateId, version);
    if (!old)
        return old.error();
    // The version's own space: the CLI names a template of any space (spaceId empty).
    return updateTemplate(old->spaceId, templateId, old->document, actor, QStringLiteral("template.rollback"));
}

} // namespace imprint::service
