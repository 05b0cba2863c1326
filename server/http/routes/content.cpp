// Template and page CRUD, publishing and template versions (content.h): each reads the
// request into a call of ContentService and writes its result as the response.
#include "server/http/routes/content.h"

#include "server/http/json.h"
#include "server/http/route_helpers.h"
#include "server/service/content_validation.h"
#include "server/service/json.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <limits>

namespace imprint::http {

using service::pageJson;
using service::templateJson;

namespace {

/// The template document of a POST/PUT body: `{"document": {...}}` or the document itself.
Outcome<QJsonObject> templateDocument(const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    const QJsonValue wrapped = body->value(QStringLiteral("document"));
    if (wrapped.isUndefined())
        return *body; // the document itself: its own validation names unknown members
    if (auto e = rejectUnknownFields(*body, {QStringLiteral("document")}, QStringLiteral("a template body")))
        return *e;
    if (!wrapped.isObject())
        return problem(400, QStringLiteral("invalid_field"),
                       QStringLiteral("The field 'document' must be a JSON object."));
    return wrapped.toObject();
}

/// The body of a POST/PUT template as the source its invalid_template problems point into
/// (`line`, `column`): the service names fields `document.X`, which is X of an unwrapped
/// body and document.X of a wrapped one.
TemplateSource bodySource(const HttpRequest &request)
{
    const bool wrapped = QJsonDocument::fromJson(request.body).object().contains(QStringLiteral("document"));
    return {request.body, QStringLiteral("document."), wrapped ? QStringLiteral("document.") : QString()};
}

// The members of a page body (POST takes `publish` too).
const QStringList kPageFields = {QStringLiteral("templateId"), QStringLiteral("name"), QStringLiteral("variables"),
                                 QStringLiteral("templateVersion")};

/// A page's `templateVersion` (docs/api.md, "Template versions"): absent → nullopt,
/// null → follow the latest (an engaged nullopt), a number ≥ 1 → pinned; else 400.
Outcome<std::optional<std::optional<int>>> templateVersionOf(const QJsonObject &body)
{
    if (!body.contains(QStringLiteral("templateVersion")))
        return std::optional<std::optional<int>>();
    const QJsonValue v = body.value(QStringLiteral("templateVersion"));
    if (v.isNull())
        return std::optional<std::optional<int>>(std::optional<int>());
    if (!v.isDouble() || v.toDouble() != double(v.toInteger()) || v.toInteger() < 1 || v.toInteger() > 1000000000)
        return fieldProblem(400, QStringLiteral("invalid_field"), QStringLiteral("templateVersion"),
                            QStringLiteral("The field 'templateVersion' must be a version number or null."));
    return std::optional<std::optional<int>>(std::optional<int>(int(v.toInteger())));
}

QJsonObject fullTemplateJson(const store::TemplateRecord &t)
{
    return templateJson(t);
}

/// A template write's answer: the stored template, and `warnings` — what a render with the
/// variables' defaults would warn about (service::templateWarnings()), so a typo such as
/// `fontSzie` is seen when the template is saved, not on some later JSON render.
QJsonObject writtenTemplateJson(const store::TemplateRecord &t)
{
    QJsonObject o = fullTemplateJson(t);
    o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(service::templateWarnings(t.document)));
    return o;
}

QJsonObject pageJsonOf(const store::PageRecord &p)
{
    return pageJson(p);
}

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

void ContentRoutes::registerRoutes(Router &router)
{
    // Templates and pages are the same collection of routes: list and create on the
    // collection, get, replace and delete on one of it; a create takes an Idempotency-Key.
    struct Collection {
        QString path;
        SessionRoute ContentRoutes::*list, ContentRoutes::*create, ContentRoutes::*get, ContentRoutes::*update,
            ContentRoutes::*remove;
    };
    const ContentAccess &content = m_access;
    for (const Collection &c : {Collection{QStringLiteral("/templates"), &ContentRoutes::listTemplates,
                                           &ContentRoutes::createTemplate, &ContentRoutes::getTemplate,
                                           &ContentRoutes::updateTemplate, &ContentRoutes::deleteTemplate},
                                Collection{QStringLiteral("/pages"), &ContentRoutes::listPages,
                                           &ContentRoutes::createPage, &ContentRoutes::getPage,
                                           &ContentRoutes::updatePage, &ContentRoutes::deletePage}}) {
        const QString one = c.path + QStringLiteral("/{id}");
        addRoutes(router, {
            onWorkers("GET", c.path, content(this, c.list)),
            onWorkers("POST", c.path, content.once(QStringLiteral("POST ") + c.path, this, c.create)),
            onWorkers("GET", one, content(this, c.get)),
            onWorkers("PUT", one, content(this, c.update)),
            onWorkers("DELETE", one, content(this, c.remove)),
        });
    }
    addRoutes(router, {onWorkers("POST", QStringLiteral("/pages/{id}/publish"),
                                 content.once(QStringLiteral("POST /pages/{id}/publish"), this,
                                              &ContentRoutes::publishPage)),
                       // Template versions (issue 31): the history of one template.
                       onWorkers("GET", QStringLiteral("/templates/{id}/versions"),
                                 content(this, &ContentRoutes::listVersions)),
                       onWorkers("GET", QStringLiteral("/templates/{id}/versions/{version}"),
                                 content(this, &ContentRoutes::getVersion)),
                       onWorkers("POST", QStringLiteral("/templates/{id}/rollback"),
                                 content.once(QStringLiteral("POST /templates/{id}/rollback"), this,
                                              &ContentRoutes::rollback))});
}

HttpResponse ContentRoutes::listTemplates(const SessionContext &session, const HttpRequest &)
{
    return listed(m_content.listTemplates(session.spaceId),
                  [](const store::TemplateRecord &t) { return templateJson(t, false); });
}

HttpResponse ContentRoutes::createTemplate(const SessionContext &session, const HttpRequest &request)
{
    const auto document = templateDocument(request);
    if (!document)
        return document.error();
    return withSourcePosition(
        answerWith(m_content.createTemplate(session.spaceId, *document, session.actor), writtenTemplateJson, 201),
        bodySource(request));
}

HttpResponse ContentRoutes::getTemplate(const SessionContext &session, const HttpRequest &request)
{
    return answerWith(m_content.getTemplate(session.spaceId, request.pathParam(QStringLiteral("id"))),
                      fullTemplateJson);
}

HttpResponse ContentRoutes::updateTemplate(const SessionContext &session, const HttpRequest &request)
{
    const auto document = templateDocument(request);
    if (!document)
        return document.error();
    return withSourcePosition(answerWith(m_content.updateTemplate(session.spaceId, request.pathParam(QStringLiteral("id")),
                                                                  *document, session.actor),
                                         writtenTemplateJson),
                              bodySource(request));
}

HttpResponse ContentRoutes::deleteTemplate(const SessionContext &session, const HttpRequest &request)
{
    return doneOr(m_content.deleteTemplate(session.spaceId, request.pathParam(QStringLiteral("id")), session.actor),
                  QStringLiteral("Template deleted"));
}

HttpResponse ContentRoutes::listPages(const SessionContext &session, const HttpRequest &)
{
    return listed(m_content.listPages(session.spaceId), pageJsonOf);
}

HttpResponse ContentRoutes::createPage(const SessionContext &session, const HttpRequest &request)
{
    const auto body
        = jsonObjectBody(request, kPageFields + QStringList{QStringLiteral("publish")}, QStringLiteral("a page"));
    if (!body)
        return body.error();
    const auto templateId = requiredString(*body, QStringLiteral("templateId"));
    if (!templateId)
        return templateId.error();
    const QJsonValue vars = body->value(QStringLiteral("variables"));
    if (!vars.isUndefined() && !vars.isNull() && !vars.isObject())
        return problem(400, QStringLiteral("invalid_field"),
                       QStringLiteral("The field 'variables' must be an object."));
    const QJsonValue publish = body->value(QStringLiteral("publish"));
    if (!publish.isUndefined() && !publish.isBool())
        return problem(400, QStringLiteral("invalid_field"), QStringLiteral("The field 'publish' must be a boolean."));
    const auto pin = templateVersionOf(*body);
    if (!pin)
        return pin.error();
    return answerWith(m_content.createPage(session.spaceId, *templateId, body->value(QStringLiteral("name")).toString(),
                                           vars.toObject(), session.actor, publish.toBool(), pin->value_or(std::nullopt)),
                      pageJsonOf, 201);
}

HttpResponse ContentRoutes::getPage(const SessionContext &session, const HttpRequest &request)
{
    return answerWith(m_content.getPage(session.spaceId, request.pathParam(QStringLiteral("id"))), pageJsonOf);
}

HttpResponse ContentRoutes::updatePage(const SessionContext &session, const HttpRequest &request)
{
    // Publishing is POST /pages/{id}/publish, so `publish` is unknown here.
    const auto body = jsonObjectBody(request, kPageFields, QStringLiteral("a page update"));
    if (!body)
        return body.error();
    std::optional<QString> templateId, name;
    std::optional<QJsonObject> variables;
    if (body->contains(QStringLiteral("templateId"))) {
        if (!body->value(QStringLiteral("templateId")).isString())
            return problem(400, QStringLiteral("invalid_field"),
                           QStringLiteral("The field 'templateId' must be a string."));
        templateId = body->value(QStringLiteral("templateId")).toString();
    }
    if (body->contains(QStringLiteral("name"))) {
        if (!body->value(QStringLiteral("name")).isString())
            return problem(400, QStringLiteral("invalid_field"), QStringLiteral("The field 'name' must be a string."));
        name = body->value(QStringLiteral("name")).toString();
    }
    if (body->contains(QStringLiteral("variables"))) {
        if (!body->value(QStringLiteral("variables")).isObject())
            return problem(400, QStringLiteral("invalid_field"),
                           QStringLiteral("The field 'variables' must be an object."));
        variables = body->value(QStringLiteral("variables")).toObject();
    }
    const auto pin = templateVersionOf(*body);
    if (!pin)
        return pin.error();
    return answerWith(m_content.updatePage(session.spaceId, request.pathParam(QStringLiteral("id")), templateId, name,
                                           variables, session.actor, *pin),
                      pageJsonOf);
}

HttpResponse ContentRoutes::deletePage(const SessionContext &session, const HttpRequest &request)
{
    return doneOr(m_content.deletePage(session.spaceId, request.pathParam(QStringLiteral("id")), session.actor),
                  QStringLiteral("Page deleted"));
}

HttpResponse ContentRoutes::publishPage(const SessionContext &session, const HttpRequest &request)
{
    const auto snap = m_content.publish(session.spaceId, request.pathParam(QStringLiteral("id")), session.actor);
    if (!snap)
        return problemFor(snap.error());
    return HttpResponse::success(pageJson(snap->page));
}

HttpResponse ContentRoutes::listVersions(const SessionContext &session, const HttpRequest &request)
{
    VersionIndex index{m_content, request.pathParam(QStringLiteral("id"))};
    return pagedIndex(index, session.spaceId, request,
                      [](const store::TemplateVersionRecord &v) { return service::templateVersionJson(v, false); });
}

HttpResponse ContentRoutes::getVersion(const SessionContext &session, const HttpRequest &request)
{
    const auto n = versionNumber(request.pathParam(QStringLiteral("version")), QStringLiteral("version"));
    if (!n)
        return n.error();
    return answerWith(m_content.getVersion(session.spaceId, request.pathParam(QStringLiteral("id")), *n),
                      [](const store::TemplateVersionRecord &v) { return service::templateVersionJson(v); });
}

HttpResponse ContentRoutes::rollback(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request, {QStringLiteral("version")}, QStringLiteral("a rollback"));
    if (!body)
        return body.error();
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
