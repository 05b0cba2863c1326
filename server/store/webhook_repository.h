#pragma once
// The webhook tables of migration 10 (docs/api.md, "Webhooks"): a space's endpoints, the
// outbox of deliveries and the log of their attempts. Like every repository (repositories.h)
// it works on the calling thread's connection, so a caller's open Transaction covers it,
// and its only error is ServiceError::database().

#include "server/store/database.h"
#include "server/store/errors.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace imprint::store {

/// A webhook endpoint of a space (without its secret).
struct WebhookEndpoint {
    QString id; ///< "whk_…"
    QString spaceId;
    QString url;
    QString description;
    QStringList eventTypes; ///< the events it receives; empty = every event
    QString createdBy; ///< user or key id; empty when made by the CLI
    qint64 createdAt = 0; ///< epoch ms
    qint64 disabledAt = 0; ///< epoch ms; 0 while active
};

/// An endpoint with its sealed secret (SecretBox::seal() of the whsec_ text).
struct WebhookEndpointSecret {
    WebhookEndpoint endpoint;
    QByteArray sealedSecret;
};

/// One event for one endpoint: a row of the outbox.
struct WebhookDelivery {
    QString id; ///< "msg_…": the webhook-id header, the same on every attempt
    QString endpointId;
    QString spaceId;
    QString eventType; ///< "render.completed", ...
    QByteArray payload; ///< the JSON body, sent byte for byte as stored
    QString state; ///< "pending", "delivered" or "failed"
    int attempts = 0; ///< attempts made, every round
    int roundAttempts = 0; ///< attempts since the row was created or last replayed
    qint64 roundStartedAt = 0; ///< epoch ms: creation or last replay (the retry window starts here)
    qint64 nextAttemptAt = 0; ///< epoch ms
    int lastStatus = 0; ///< HTTP status of the last answer; 0 = none
    QString lastError; ///< why the last attempt failed; empty when it did not
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
};

/// One attempt of a delivery.
struct WebhookAttempt {
    int attempt = 0; ///< 1, 2, ... over every round
    qint64 attemptedAt = 0; ///< epoch ms
    int status = 0; ///< HTTP status; 0 = no answer
    QString error; ///< empty on a 2xx
    qint64 durationMs = 0;
};

/// How an attempt ended, as the worker records it.
struct WebhookOutcome {
    QString state; ///< the delivery's new state
    qint64 nextAttemptAt = 0; ///< when state is "pending"
    WebhookAttempt attempt;
};

/// webhook_endpoints, webhook_deliveries and webhook_attempts.
class WebhookRepository
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    explicit WebhookRepository(const Database &db)
        : m_db(db)
    { }

    /// Inserts `endpoint` with its sealed secret.
    Result<Done> insertEndpoint(const WebhookEndpoint &endpoint, const QByteArray &sealedSecret);
    /// Active endpoints of `spaceId`.
    Result<int> countActive(const QString &spaceId);
    /// `limit` active endpoints of `spaceId` from `offset`, newest first.
    Result<QList<WebhookEndpoint>> listActive(const QString &spaceId, int offset, int limit);
    /// Every endpoint of `spaceId`, disabled ones included, newest first (CLI).
    Result<QList<WebhookEndpoint>> listAll(const QString &spaceId);
    /// Active endpoint `id` of `spaceId` (empty: of any space), std::nullopt when none.
    Result<std::optional<WebhookEndpoint>> activeById(const QString &spaceId, const QString &id);
    /// Sets disabled_at of active endpoint `id` of `spaceId`; true when one matched.
    Result<bool> disable(const QString &spaceId, const QString &id, qint64 now);

    /// Inserts a pending delivery (attempts 0, due at nextAttemptAt).
    Result<Done> insertDelivery(const WebhookDelivery &delivery);
    /// Deliveries of endpoint `endpointId`.
    Result<int> countDeliveries(const QString &endpointId);
    /// `limit` deliveries of `endpointId` from `offset`, newest first.
    Result<QList<WebhookDelivery>> listDeliveries(const QString &endpointId, int offset, int limit);
    /// Delivery `id` of endpoint `endpointId`, std::nullopt when none.
    Result<std::optional<WebhookDelivery>> deliveryById(const QString &endpointId, const QString &id);
    /// Every attempt of delivery `id`, oldest first.
    Result<QList<WebhookAttempt>> attemptsOf(const QString &deliveryId);
    /// Makes delivery `id` pending again, due now, with a new retry round; false when it is
    /// leased by a worker right now (an attempt in flight) or does not exist.
    Result<bool> replay(const QString &id, qint64 now);

    /// Claims up to `limit` due deliveries (pending, next_attempt_at ≤ now, no live lease)
    /// for `owner` until `leaseUntil`, in one transaction: on PostgreSQL the candidates are
    /// locked FOR UPDATE SKIP LOCKED, so instances claiming at once take different rows;
    /// every claim is a conditional UPDATE, so a row is never leased twice. The claimed
    /// rows with their endpoints (disabled ones included, so the worker can fail them).
    Result<QList<std::pair<WebhookDelivery, WebhookEndpointSecret>>> claimDue(const QString &owner, qint64 now,
                                                                               qint64 leaseUntil, int limit);
    /// Records attempt `outcome.attempt` of delivery `id` and its new state, and releases
    /// the lease, if `owner` still holds it (false otherwise: nothing written).
    Result<bool> finishAttempt(const QString &id, const QString &owner, const WebhookOutcome &outcome);

private:
    const Database &m_db;
};

} // namespace imprint::store
