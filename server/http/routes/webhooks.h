#pragma once
// The webhooks of the caller's space (docs/api.md, "Webhooks"): POST/GET /api/v1/webhooks,
// GET/DELETE /api/v1/webhooks/{id}, GET /api/v1/webhooks/{id}/deliveries (the delivery
// log), POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/replay and POST
// /api/v1/webhooks/{id}/test. An owner's or admin's session, or an API key with the
// "webhooks" scope. URL, event and paging rules are WebhookService's.

#include "server/http/route_helpers.h"
#include "server/http/route_module.h"
#include "server/service/webhook_service.h"

namespace imprint::http {

/// The webhook routes over the account, key and webhook use cases (all must outlive this).
class WebhookRoutes : public RouteModule
{
public:
    WebhookRoutes(service::AccountService &accounts, service::ApiKeyService &keys, service::WebhookService &webhooks);

    void registerRoutes(Router &router) override;

private:
    SessionRoute createWebhook, listWebhooks, getWebhook, deleteWebhook, listDeliveries, replayDelivery, testWebhook;

    service::AccountService &m_accounts;
    service::ApiKeyService &m_keys;
    service::WebhookService &m_webhooks;
};

} // namespace imprint::http
