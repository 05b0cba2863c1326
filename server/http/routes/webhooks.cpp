// The webhook routes (webhooks.h): each reads the request into a call of WebhookService
// and writes its result as the response.
#include "server/http/routes/webhooks.h"

#include "server/http/json.h"

#include <QJsonArray>

namespace imprint::http {

WebhookRoutes::WebhookRoutes(service::AccountService &accounts, service::ApiKeyService &keys,
                             service::WebhookService &webhooks)
    : m_accounts(accounts)
    , m_keys(keys)
    , m_webhooks(webhooks)
{ }

void WebhookRoutes::registerRoutes(Router &router)
{
    // Owners and admins, or a key with the "webhooks" scope (a pipeline that registers its
    // own receiver).
    const auto manager = [this](SessionRoute WebhookRoutes::*handler) {
        return withSessionOrKey(m_accounts, m_keys, service::WebhookService::managerRoles(),
                                QStringLiteral("webhooks"), sessionMethod(this, handler));
    };
    addRoutes(router, {
        // Creating resolves the URL's host to check its addresses: not on the server thread.
        onWorkers("POST", QStringLiteral("/webhooks"), manager(&WebhookRoutes::createWebhook)),
        onServerThread("GET", QStringLiteral("/webhooks"), manager(&WebhookRoutes::listWebhooks)),
        onServerThread("GET", QStringLiteral("/webhooks/{id}"), manager(&WebhookRoutes::getWebhook)),
        onServerThread("DELETE", QStringLiteral("/webhooks/{id}"), manager(&WebhookRoutes::deleteWebhook)),
        onWorkers("GET", QStringLiteral("/webhooks/{id}/deliveries"), manager(&WebhookRoutes::listDeliveries)),
        onServerThread("POST", QStringLiteral("/webhooks/{id}/deliveries/{deliveryId}/replay"),
                       manager(&WebhookRoutes::replayDelivery)),
        onServerThread("POST", QStringLiteral("/webhooks/{id}/test"), manager(&WebhookRoutes::testWebhook)),
    });
}

HttpResponse WebhookRoutes::createWebhook(const SessionContext &session, const HttpRequest &request)
{
    const auto body = jsonObjectBody(request);
    if (!body)
        return body.error();
    if (auto e = rejectUnknownFields(*body, {QStringLiteral("url"), QStringLiteral("events"), QStringLiteral("description")},
                                     QStringLiteral("a webhook")))
        return *e;
    const QJsonValue url = body->value(QStringLiteral("url"));
    if (!url.isString())
        return fieldProblem(400, url.isUndefined() ? QStringLiteral("missing_field") : QStringLiteral("invalid_field"),
                            QStringLiteral("url"), QStringLiteral("The field 'url' must be an http or https URL."));
    QStringList events;
    if (const QJsonValue v = body->value(QStringLiteral("events")); !v.isUndefined() && !v.isNull()) {
        for (const QJsonValue &e : v.toArray())
            events.append(e.toString());
        if (!v.isArray() || events.contains(QString()))
            return fieldProblem(400, QStringLiteral("invalid_field"), QStringLiteral("events"),
                                QStringLiteral("The field 'events' must be an array of event names: %1.")
                                    .arg(service::WebhookService::eventTypes().join(QStringLiteral(", "))));
    }
    const QJsonValue description = body->value(QStringLiteral("description"));
    if (!description.isUndefined() && !description.isNull() && !description.isString())
        return fieldProblem(400, QStringLiteral("invalid_field"), QStringLiteral("description"),
                            QStringLiteral("The field 'description' must be a string."));
    const auto created
        = m_webhooks.create(session.spaceId, url.toString(), events, description.toString(), session.actor);
    if (!created)
        return problemFor(created.error());
    QJsonObject data = service::webhookJson(created->endpoint);
    data.insert(QStringLiteral("secret"), created->secret);
    // The secret is in this answer only: no cache may keep it.
    return HttpResponse::success(data, 201).withHeader("Cache-Control", "no-store");
}

HttpResponse WebhookRoutes::listWebhooks(const SessionContext &session, const HttpRequest &request)
{
    return pagedIndex(m_webhooks, session.spaceId, request, service::webhookJson);
}

HttpResponse WebhookRoutes::getWebhook(const SessionContext &session, const HttpRequest &request)
{
    return answerWith(m_webhooks.get(session.spaceId, request.pathParam(QStringLiteral("id"))), service::webhookJson);
}

HttpResponse WebhookRoutes::deleteWebhook(const SessionContext &session, const HttpRequest &request)
{
    if (const auto body = jsonObjectBody(request, true); !body)
        return body.error();
    return doneOr(m_webhooks.remove(session.spaceId, request.pathParam(QStringLiteral("id")), session.actor),
                  QStringLiteral("Webhook deleted"));
}

HttpResponse WebhookRoutes::listDeliveries(const SessionContext &session, const HttpRequest &request)
{
    using Service = service::WebhookService;
    const auto page = queryInt(request, QStringLiteral("page"), 1, 1, Service::kMaxPage);
    if (!page)
        return page.error();
    const auto perPage = queryInt(request, QStringLiteral("perPage"), Service::kDefaultPerPage, 1, Service::kMaxPerPage);
    if (!perPage)
        return perPage.error();
    const auto log = m_webhooks.deliveries(session.spaceId, request.pathParam(QStringLiteral("id")), *page, *perPage);
    if (!log)
        return problemFor(log.error());
    return pagedList(*log, service::deliveryLogJson);
}

HttpResponse WebhookRoutes::replayDelivery(const SessionContext &session, const HttpRequest &request)
{
    if (const auto body = jsonObjectBody(request, true); !body)
        return body.error();
    return answerWith(m_webhooks.replay(session.spaceId, request.pathParam(QStringLiteral("id")),
                                        request.pathParam(QStringLiteral("deliveryId"))),
                      service::deliveryJson, 202);
}

HttpResponse WebhookRoutes::testWebhook(const SessionContext &session, const HttpRequest &request)
{
    if (const auto body = jsonObjectBody(request, true); !body)
        return body.error();
    return answerWith(m_webhooks.sendTest(session.spaceId, request.pathParam(QStringLiteral("id"))),
                      service::deliveryJson, 202);
}

} // namespace imprint::http
