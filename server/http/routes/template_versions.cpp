// Template versions (template_versions.h): each reads the request into a call of
// ContentService and writes its result as the response.
#include "server/http/routes/template_versions.h"

#include "server/http/json.h"
#include "server/service/json.h"

#include <limits>

namespace imprint::http {

namespace {

/// The versions of one template as pagedIndex() pages a space's records.
struct VersionIndex {
    service::ContentService &content;
    QString templateId;
    static constexpr int kDefaultPerPage = service::ContentService::kDefaultPerPage;
    static constexpr int kMaxPerPage = service::ContentService::kMaxPerPage;
    static constexpr int kMaxPage = service::ContentService::kMaxPage;

    auto listPage(const QString &spaceId, int page, int perPage)
    {
        return content.listVersions(spaceId, templateId, page, perPage);
    }
};

/// A version number from the path or a body: a whole number ≥ 1, else 400 naming `field`.
Outcome<int> versionNumber(const QJsonValue &v, const QString &field)
{
    bool ok = v.isDouble() && v.toDouble() == double(v.toInteger()) && v.toInteger() >= 1
              && v.toInteger() <= std::numeric_limits<int>::max();
    int n = ok ? int(v.toInteger()) : 0;
    if (v.isString()) {
        n = v.toString().toInt(&ok);
        ok = ok && n >= 1;
    }
    if (!ok)
        return fieldProblem(400, QStringLiteral("invalid_parameter"), field,
                            QStringLiteral("'%1' must be a version number (1, 2, ...).").arg(field));
    return n;
}

} // namespace

void TemplateVersionRoutes::registerRoutes(Router &router)
{
    const ContentAccess &content = m_access;
    addRoutes(router, {
        onWorkers("GET", QStringLiteral("/templates/{id}/versions"),
                  content(this, &TemplateVersionRoutes::listVersions)),
        onWorkers("GET", QStringLiteral("/templates/{id}/versions/{version}"),
                  content(this, &TemplateVersionRoutes::getVersion)),
        onWorkers("POST", QStringLiteral("/templates/{id}/rollback"),
                  content.once(QStringLiteral("POST /templates/{id}/rollback"), this,
                               &TemplateVersionRoutes::rollback)),
    });
}

HttpResponse TemplateVersionRoutes::listVersions(const SessionContext &session, const HttpRequest &request)
{
    VersionIndex index{m_content, request.pathParam(QStringLiteral("id"))};
    return pagedIndex(index, session.spaceId, request,
                      [](const store::TemplateVersionRecord &v) { return service::templateVersionJson(v, false); });
}

HttpResponse TemplateVersionRoutes::getVersion(const SessionContext &session, const HttpRequest &request)
{
    const auto n = versionNumber(request.pathParam(QStringLiteral("version")), QStringLiteral("version"));
    if (!n)
        return n.error();
    return answerWith(m_content.getVersion(session.spaceId, request.pathParam(QStringLiteral("id")), *n),
                      [](const store::TemplateVersionRecord &v) { return service::templateVersionJson(v); });
}

HttpResponse TemplateVersionRoutes::rollback(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    if (auto e = rejectUnknownFields(*body, {QStringLiteral("version")}, QStringLiteral("a rollback")))
        return *e;
    if (!body->contains(QStringLiteral("version")))
        return fieldProblem(400, QStringLiteral("missing_field"), QStringLiteral("version"),
                            QStringLiteral("Give the 'version' to roll back to."));
    const QJsonValue v = body->value(QStringLiteral("version"));
    const auto n = versionNumber(v.isString() ? QJsonValue() : v, QStringLiteral("version"));
    if (!n)
        return n.error();
    return answerWith(
        m_content.rollback(session.spaceId, request.pathParam(QStringLiteral("id")), *n, session.actor),
        [](const store::TemplateRecord &t) { return service::templateJson(t); });
}

} // namespace imprint::http
