// Template and page CRUD and publishing (GET/POST/PUT/DELETE /templates, /pages,
// POST /pages/{id}/publish): session-authenticated through withSession() for the roles
// ContentService::editorRoles() names, scoped to the session's space.
#include "server/http/auth.h"
#include "server/http/json.h"
#include "server/http/render_api.h"
#include "server/service/json.h"

#include <QJsonArray>

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

// The members of a page body (POST takes `publish` too).
const QStringList kPageFields = {QStringLiteral("templateId"), QStringLiteral("name"), QStringLiteral("variables")};

HttpResponse created(const QJsonObject &data)
{
    return HttpResponse::success(data, 201);
}

} // namespace

HttpResponse RenderApi::listTemplates(const SessionContext &session, const HttpRequest &request)
{
    const auto list = m_content.listTemplates(session.spaceId);
    if (!list)
        return problemFor(list.error());
    QJsonArray items;
    for (const auto &t : list.value())
        items.append(templateJson(t, false));
    return HttpResponse::success(QJsonObject{{QStringLiteral("list"), items}, {QStringLiteral("count"), items.size()}});
}

HttpResponse RenderApi::createTemplate(const SessionContext &session, const HttpRequest &request)
{
    const auto document = templateDocument(request);
    if (!document)
        return document.error();
    const auto t = m_content.createTemplate(session.spaceId, *document, session.actor);
    if (!t)
        return problemFor(t.error());
    return created(templateJson(*t));
}

HttpResponse RenderApi::getTemplate(const SessionContext &session, const HttpRequest &request)
{
    const auto t = m_content.getTemplate(session.spaceId, request.pathParam(QStringLiteral("id")));
    if (!t)
        return problemFor(t.error());
    return HttpResponse::success(templateJson(*t));
}

HttpResponse RenderApi::updateTemplate(const SessionContext &session, const HttpRequest &request)
{
    const auto document = templateDocument(request);
    if (!document)
        return document.error();
    const auto t
        = m_content.updateTemplate(session.spaceId, request.pathParam(QStringLiteral("id")), *document, session.actor);
    if (!t)
        return problemFor(t.error());
    return HttpResponse::success(templateJson(*t));
}

HttpResponse RenderApi::deleteTemplate(const SessionContext &session, const HttpRequest &request)
{
    const auto done = m_content.deleteTemplate(session.spaceId, request.pathParam(QStringLiteral("id")), session.actor);
    if (!done)
        return problemFor(done.error());
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), QStringLiteral("Template deleted")}});
}

HttpResponse RenderApi::listPages(const SessionContext &session, const HttpRequest &request)
{
    const auto list = m_content.listPages(session.spaceId);
    if (!list)
        return problemFor(list.error());
    QJsonArray items;
    for (const auto &p : list.value())
        items.append(pageJson(p));
    return HttpResponse::success(QJsonObject{{QStringLiteral("list"), items}, {QStringLiteral("count"), items.size()}});
}

HttpResponse RenderApi::createPage(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    if (auto e = rejectUnknownFields(*body, kPageFields + QStringList{QStringLiteral("publish")},
                                     QStringLiteral("a page")))
        return *e;
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
    const auto page = m_content.createPage(session.spaceId, *templateId, body->value(QStringLiteral("name")).toString(),
                                           vars.toObject(), session.actor, publish.toBool());
    if (!page)
        return problemFor(page.error());
    return created(pageJson(*page));
}

HttpResponse RenderApi::getPage(const SessionContext &session, const HttpRequest &request)
{
    const auto p = m_content.getPage(session.spaceId, request.pathParam(QStringLiteral("id")));
    if (!p)
        return problemFor(p.error());
    return HttpResponse::success(pageJson(*p));
}

HttpResponse RenderApi::updatePage(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    // Publishing is POST /pages/{id}/publish, so `publish` is unknown here.
    if (auto e = rejectUnknownFields(*body, kPageFields, QStringLiteral("a page update")))
        return *e;
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
    const auto p = m_content.updatePage(session.spaceId, request.pathParam(QStringLiteral("id")), templateId, name,
                                        variables, session.actor);
    if (!p)
        return problemFor(p.error());
    return HttpResponse::success(pageJson(*p));
}

HttpResponse RenderApi::deletePage(const SessionContext &session, const HttpRequest &request)
{
    const QString id = request.pathParam(QStringLiteral("id"));
    const auto done = m_content.deletePage(session.spaceId, id, session.actor);
    if (!done)
        return problemFor(done.error());
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), QStringLiteral("Page deleted")}});
}

HttpResponse RenderApi::publishPage(const SessionContext &session, const HttpRequest &request)
{
    const QString id = request.pathParam(QStringLiteral("id"));
    const auto snap = m_content.publish(session.spaceId, id, session.actor);
    if (!snap)
        return problemFor(snap.error());
    return HttpResponse::success(pageJson(snap->page));
}

} // namespace imprint::http
