// Template and page CRUD and publishing (DESIGN §3, §4 "GET/POST/PUT/DELETE /templates,
// /pages, POST /pages/{id}/publish"): session-authenticated, scoped to the session's
// space. Every role may manage content (members are the editors); key management stays
// owner/admin (api.cpp).
#include "server/http/auth.h"
#include "server/http/json.h"
#include "server/http/render_api.h"

#include <QJsonArray>

namespace imprint::http {

namespace {

QJsonValue isoOrNull(qint64 ms)
{
    return ms > 0 ? QJsonValue(store::isoFromMs(ms)) : QJsonValue(QJsonValue::Null);
}

QJsonObject templateJson(const store::TemplateRecord &t, bool withDocument = true)
{
    QJsonObject o{
        {QStringLiteral("id"), t.id},
        {QStringLiteral("name"), t.name},
        {QStringLiteral("width"), t.document.value(QStringLiteral("width"))},
        {QStringLiteral("height"), t.document.value(QStringLiteral("height"))},
        {QStringLiteral("rendererType"), t.document.value(QStringLiteral("rendererType")).toString(QStringLiteral("satori"))},
        {QStringLiteral("createdAt"), isoOrNull(t.createdAt)},
        {QStringLiteral("updatedAt"), isoOrNull(t.updatedAt)},
    };
    if (withDocument)
        o.insert(QStringLiteral("document"), t.document);
    return o;
}

QJsonObject pageJson(const store::PageRecord &p)
{
    return QJsonObject{
        {QStringLiteral("id"), p.id},
        {QStringLiteral("templateId"), p.templateId},
        {QStringLiteral("name"), p.name},
        {QStringLiteral("variables"), p.variables},
        {QStringLiteral("createdAt"), isoOrNull(p.createdAt)},
        {QStringLiteral("updatedAt"), isoOrNull(p.updatedAt)},
        {QStringLiteral("published"), p.publishedAt > 0},
        {QStringLiteral("publishedAt"), isoOrNull(p.publishedAt)},
    };
}

/// The template document of a POST/PUT body: `{"document": {...}}` or the document itself.
Outcome<QJsonObject> templateDocument(const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    const QJsonValue wrapped = body->value(QStringLiteral("document"));
    if (wrapped.isUndefined())
        return *body;
    if (!wrapped.isObject())
        return problem(400, QStringLiteral("invalid_field"), QStringLiteral("The field 'document' must be a JSON object."));
    return wrapped.toObject();
}

HttpResponse created(const QJsonObject &data)
{
    return HttpResponse::success(data, 201);
}

} // namespace

#define IMPRINT_SESSION_OR_RETURN(session)                                      \
    const auto session = authenticateSession(request, m_accounts);              \
    if (!session)                                                               \
        return session.error();                                                 \
    const QString spaceId = session->membership.space.id;                       \
    const QString actor = session->membership.user.id;

HttpResponse RenderApi::listTemplates(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    Q_UNUSED(actor)
    const auto list = m_content.listTemplates(spaceId);
    if (!list)
        return problemFor(list.error());
    QJsonArray items;
    for (const auto &t : list.value())
        items.append(templateJson(t, false));
    return HttpResponse::success(QJsonObject{{QStringLiteral("list"), items}, {QStringLiteral("count"), items.size()}});
}

HttpResponse RenderApi::createTemplate(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    const auto document = templateDocument(request);
    if (!document)
        return document.error();
    const auto t = m_content.createTemplate(spaceId, *document, actor);
    if (!t)
        return problemFor(t.error());
    return created(templateJson(*t));
}

HttpResponse RenderApi::getTemplate(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    Q_UNUSED(actor)
    const auto t = m_content.getTemplate(spaceId, request.pathParam(QStringLiteral("id")));
    if (!t)
        return problemFor(t.error());
    return HttpResponse::success(templateJson(*t));
}

HttpResponse RenderApi::updateTemplate(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    const auto document = templateDocument(request);
    if (!document)
        return document.error();
    const auto t = m_content.updateTemplate(spaceId, request.pathParam(QStringLiteral("id")), *document, actor);
    if (!t)
        return problemFor(t.error());
    return HttpResponse::success(templateJson(*t));
}

HttpResponse RenderApi::deleteTemplate(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    const auto done = m_content.deleteTemplate(spaceId, request.pathParam(QStringLiteral("id")), actor);
    if (!done)
        return problemFor(done.error());
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), QStringLiteral("Template deleted")}});
}

HttpResponse RenderApi::listPages(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    Q_UNUSED(actor)
    const auto list = m_content.listPages(spaceId);
    if (!list)
        return problemFor(list.error());
    QJsonArray items;
    for (const auto &p : list.value())
        items.append(pageJson(p));
    return HttpResponse::success(QJsonObject{{QStringLiteral("list"), items}, {QStringLiteral("count"), items.size()}});
}

HttpResponse RenderApi::createPage(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    const auto templateId = requiredString(*body, QStringLiteral("templateId"));
    if (!templateId)
        return templateId.error();
    const QJsonValue vars = body->value(QStringLiteral("variables"));
    if (!vars.isUndefined() && !vars.isNull() && !vars.isObject())
        return problem(400, QStringLiteral("invalid_field"), QStringLiteral("The field 'variables' must be an object."));
    const QJsonValue publish = body->value(QStringLiteral("publish"));
    if (!publish.isUndefined() && !publish.isBool())
        return problem(400, QStringLiteral("invalid_field"), QStringLiteral("The field 'publish' must be a boolean."));
    auto page = m_content.createPage(spaceId, *templateId, body->value(QStringLiteral("name")).toString(),
                                     vars.toObject(), actor);
    if (!page)
        return problemFor(page.error());
    store::PageRecord out = page.value();
    if (publish.toBool()) {
        const auto snap = m_content.publish(spaceId, out.id, actor);
        if (!snap)
            return problemFor(snap.error());
        out.publishedAt = snap->publishedAt;
    }
    return created(pageJson(out));
}

HttpResponse RenderApi::getPage(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    Q_UNUSED(actor)
    const auto p = m_content.getPage(spaceId, request.pathParam(QStringLiteral("id")));
    if (!p)
        return problemFor(p.error());
    return HttpResponse::success(pageJson(*p));
}

HttpResponse RenderApi::updatePage(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    std::optional<QString> templateId, name;
    std::optional<QJsonObject> variables;
    if (body->contains(QStringLiteral("templateId"))) {
        if (!body->value(QStringLiteral("templateId")).isString())
            return problem(400, QStringLiteral("invalid_field"), QStringLiteral("The field 'templateId' must be a string."));
        templateId = body->value(QStringLiteral("templateId")).toString();
    }
    if (body->contains(QStringLiteral("name"))) {
        if (!body->value(QStringLiteral("name")).isString())
            return problem(400, QStringLiteral("invalid_field"), QStringLiteral("The field 'name' must be a string."));
        name = body->value(QStringLiteral("name")).toString();
    }
    if (body->contains(QStringLiteral("variables"))) {
        if (!body->value(QStringLiteral("variables")).isObject())
            return problem(400, QStringLiteral("invalid_field"), QStringLiteral("The field 'variables' must be an object."));
        variables = body->value(QStringLiteral("variables")).toObject();
    }
    const auto p = m_content.updatePage(spaceId, request.pathParam(QStringLiteral("id")), templateId, name, variables, actor);
    if (!p)
        return problemFor(p.error());
    return HttpResponse::success(pageJson(*p));
}

HttpResponse RenderApi::deletePage(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    const QString id = request.pathParam(QStringLiteral("id"));
    const auto done = m_content.deletePage(spaceId, id, actor);
    if (!done)
        return problemFor(done.error());
    forgetPublished(id);
    return HttpResponse::success(QJsonObject{{QStringLiteral("message"), QStringLiteral("Page deleted")}});
}

HttpResponse RenderApi::publishPage(const HttpRequest &request)
{
    IMPRINT_SESSION_OR_RETURN(session)
    const QString id = request.pathParam(QStringLiteral("id"));
    const auto snap = m_content.publish(spaceId, id, actor);
    if (!snap)
        return problemFor(snap.error());
    forgetPublished(id);
    return HttpResponse::success(pageJson(snap->page));
}

#undef IMPRINT_SESSION_OR_RETURN

} // namespace imprint::http
