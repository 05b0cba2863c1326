#pragma once
// Webhooks of a space (docs/api.md, "Webhooks"; issue 31): endpoints with a secret shown
// once, events published into an outbox (one delivery row per matching endpoint), the
// delivery log, replay and a test event. Delivery itself is the WebhookDispatcher's
// (webhook_dispatcher.h). Messages follow the Standard Webhooks specification
// (https://www.standardwebhooks.com/): body {"type", "timestamp", "data"}, headers
// webhook-id, webhook-timestamp and webhook-signature "v1,<base64 HMAC-SHA256>".

#include "server/service/paging.h"
#include "server/service/server_key.h"
#include "server/store/config.h"
#include "server/store/crypto.h"
#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/models.h"
#include "server/store/webhook_repository.h"

#include <QJsonObject>
#include <QMutex>

#include <functional>
#include <optional>
#include <vector>

namespace imprint::net {
struct WebhookPolicy;
}

namespace imprint::service {

using store::Done;
using store::Result;

/// The "webhooks" section of the configuration (docs/deployment.md, "Webhooks").
struct WebhookSettings {
    QStringList hostAllowlist; ///< webhooks.hostAllowlist: hosts that may be loopback or private
    int connectTimeoutMs = 5000; ///< webhooks.connectTimeoutMs
    int timeoutMs = 15000; ///< webhooks.timeoutMs: one attempt
    qint64 maxResponseBytes = 64 * 1024; ///< webhooks.maxResponseBytes
    /// webhooks.retrySeconds (or IMPRINT_WEBHOOK_RETRY_SECONDS, comma-separated): the
    /// delay after the 1st, 2nd, ... failed attempt; the last repeats.
    QList<qint64> retryDelaysMs{5000, 30000, 120000, 600000, 1800000, 7200000, 18000000, 36000000};
    qint64 retryWindowMs = 24LL * 3600 * 1000; ///< webhooks.retryWindowSeconds: then failed
    int pollMs = 1000; ///< webhooks.pollMs: how often due deliveries are looked for
    int concurrency = 8; ///< webhooks.concurrency: deliveries sent at once per instance

    /// The settings of `config`, then the environment variable (missing keys keep the defaults).
    static WebhookSettings fromConfig(const store::Config &config);
    /// The network policy of these settings.
    net::WebhookPolicy policy() const;
};

/// A new endpoint with its secret (shown once; stored sealed).
struct CreatedWebhook {
    store::WebhookEndpoint endpoint;
    QString secret; ///< "whsec_<base64>"
};

/// A delivery with its attempts, as the delivery log shows it.
struct DeliveryLogEntry {
    store::WebhookDelivery delivery;
    QList<store::WebhookAttempt> attempts;
};

using WebhookPage = ListPage<store::WebhookEndpoint>;
using DeliveryPage = ListPage<DeliveryLogEntry>;

/// The webhook use cases. Thread-safe as far as the Database is.
class WebhookService : public StandardPaging
{
public:
    /// Works on `db`, which must outlive it; secrets are sealed under `dataDir/signing.key`
    /// (the server key of URL-signing secrets).
    WebhookService(const store::Database &db, QString dataDir, WebhookSettings settings);

    /// The events a space may subscribe to: render.completed, render.failed, batch.completed.
    static const QStringList &eventTypes();
    /// The event POST /webhooks/{id}/test sends (to that endpoint only, whatever its filter).
    static QString testEventType() { return QStringLiteral("webhook.test"); }

    /// New endpoint of `spaceId` for `url` receiving `events` (empty: all). Invalid
    /// "invalid_url" (field url) for anything but an absolute http(s) URL of at most 2000
    /// characters, "invalid_field" (field events) for an unknown event, "invalid_name"
    /// (field description) over 200 characters; 422 "url_refused" (field url) when the
    /// address policy forbids the host or an address it resolves to. Audit "webhook.create".
    Result<CreatedWebhook> create(const QString &spaceId, const QString &url, const QStringList &events,
                                  const QString &description, const QString &actor);
    /// Page `page` of `perPage` active endpoints, newest first (paging.h).
    Result<WebhookPage> listPage(const QString &spaceId, int page, int perPage);
    /// Every endpoint of a space, deleted ones included (CLI).
    Result<QList<store::WebhookEndpoint>> listAll(const QString &spaceId);
    /// Active endpoint `id` of `spaceId`; NotFound "webhook_not_found" (also another space's).
    Result<store::WebhookEndpoint> get(const QString &spaceId, const QString &id);
    /// Deletes endpoint `id` of `spaceId` (empty: of whatever space owns it — CLI only):
    /// nothing more is sent to it; its pending deliveries end as failed. Audit "webhook.delete".
    Result<Done> remove(const QString &spaceId, const QString &id, const QString &actor);

    /// Page `page` of `perPage` deliveries of endpoint `id`, newest first, each with its
    /// attempts; NotFound "webhook_not_found".
    Result<DeliveryPage> deliveries(const QString &spaceId, const QString &id, int page, int perPage);
    /// Sends delivery `deliveryId` of endpoint `id` again (same webhook-id, same body), now,
    /// with a fresh retry window; NotFound "webhook_not_found", "delivery_not_found"
    /// (also while an attempt of it is in flight: try again in a moment).
    Result<store::WebhookDelivery> replay(const QString &spaceId, const QString &id, const QString &deliveryId);
    /// Queues a webhook.test event for endpoint `id` alone; NotFound "webhook_not_found".
    Result<store::WebhookDelivery> sendTest(const QString &spaceId, const QString &id);

    /// Publishes event `eventType` of `spaceId` with `data`: one pending delivery per active
    /// endpoint of the space whose filter takes the event; the number of rows. Only inserts,
    /// and opens no transaction: call it inside the caller's open Transaction on the same
    /// thread (the rows then commit or roll back with the caller's). The worker picks them
    /// up within webhooks.pollMs (or at once when it is woken).
    Result<int> publish(const QString &spaceId, const QString &eventType, const QJsonObject &data);

    /// The "v1,<base64>" signature of the Standard Webhooks specification: HMAC-SHA256 of
    /// "`id`.`timestampSeconds`.`body`" under the base64-decoded part of `secret` after "whsec_".
    static QByteArray signature(const QString &secret, const QString &id, qint64 timestampSeconds,
                                const QByteArray &body);
    /// The plain "whsec_" secret of a sealed one; Database "signing_key_store" when the
    /// server key is unusable or does not open it.
    Result<QString> unseal(const QByteArray &sealed);

    /// Called after publish() inserted rows (the dispatcher's wake()); set before serving.
    void setPublishedHook(std::function<void()> hook) { m_published = std::move(hook); }

    const WebhookSettings &settings() const { return m_settings; }

    /// The roles that may manage a space's webhooks: owners and admins (or a "webhooks" key).
    static std::vector<store::Role> managerRoles() { return {store::Role::Owner, store::Role::Admin}; }

private:
    /// Inserts a delivery of `payload` for `endpointId`, due now.
    Result<store::WebhookDelivery> enqueue(const QString &spaceId, const QString &endpointId, const QString &eventType,
                                           const QByteArray &payload);

    const store::Database &m_db;
    ServerKey m_serverKey;
    WebhookSettings m_settings;
    std::function<void()> m_published;
};

/// The delivery JSON of the API: id, webhookId, eventType, state, attempts, nextAttemptAt
/// (null unless pending), lastStatus, lastError, createdAt, updatedAt, payload (object).
QJsonObject deliveryJson(const store::WebhookDelivery &d);
/// An endpoint's JSON without its secret: id, url, description, events, createdAt.
QJsonObject webhookJson(const store::WebhookEndpoint &e);
/// deliveryJson() plus "attempts": [{attempt, at, status, error, durationMs}].
QJsonObject deliveryLogJson(const DeliveryLogEntry &entry);

} // namespace imprint::service
