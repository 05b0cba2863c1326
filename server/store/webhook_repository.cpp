// The SQL of the webhook tables (webhook_repository.h).
#include "server/store/webhook_repository.h"

#include "server/store/sql.h"

#include <QSqlQuery>
#include <QVariant>

namespace imprint::store {

using sql::orNull;

namespace {

const QString kEndpointColumns
    = QStringLiteral("e.id, e.space_id, e.url, e.description, e.event_types, e.created_by, e.created_at, e.disabled_at");
constexpr int kEndpointColumnCount = 8;

WebhookEndpoint endpointFrom(const QSqlQuery &q, int at = 0)
{
    WebhookEndpoint e;
    e.id = q.value(at).toString();
    e.spaceId = q.value(at + 1).toString();
    e.url = q.value(at + 2).toString();
    e.description = q.value(at + 3).toString();
    e.eventTypes = q.value(at + 4).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    e.createdBy = q.value(at + 5).toString();
    e.createdAt = q.value(at + 6).toLongLong();
    e.disabledAt = q.value(at + 7).toLongLong();
    return e;
}

const QString kDeliveryColumns = QStringLiteral(
    "d.id, d.endpoint_id, d.space_id, d.event_type, d.payload, d.state, d.attempts, d.round_attempts,"
    " d.round_started_at, d.next_attempt_at, d.last_status, d.last_error, d.created_at, d.updated_at");
constexpr int kDeliveryColumnCount = 14;

WebhookDelivery deliveryFrom(const QSqlQuery &q)
{
    using D = WebhookDelivery;
    return sql::rowOf(q, 0, &D::id, &D::endpointId, &D::spaceId, &D::eventType, &D::payload, &D::state, &D::attempts,
                      &D::roundAttempts, &D::roundStartedAt, &D::nextAttemptAt, &D::lastStatus, &D::lastError,
                      &D::createdAt, &D::updatedAt);
}

} // namespace

// ---- endpoints

Result<Done> WebhookRepository::insertEndpoint(const WebhookEndpoint &e, const QByteArray &sealedSecret)
{
    QSqlQuery q(m_db.connection());
    // An empty QString binds as NULL: COALESCE keeps "no description" and "every event" as ''.
    return sql::write(q,
                      QStringLiteral("INSERT INTO webhook_endpoints (id, space_id, url, description, event_types,"
                                     " secret_box, created_by, created_at) VALUES (?, ?, ?, COALESCE(?, ''), COALESCE(?, ''), ?, ?, ?)"),
                      e.id, e.spaceId, e.url, e.description, e.eventTypes.join(QLatin1Char(' ')),
                      QString::fromLatin1(sealedSecret.toBase64()), orNull(e.createdBy), e.createdAt);
}

Result<int> WebhookRepository::countActive(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    return sql::countOf(
        q, sql::run(q, QStringLiteral("SELECT COUNT(*) FROM webhook_endpoints WHERE space_id = ? AND disabled_at IS NULL"),
                    spaceId));
}

Result<QList<WebhookEndpoint>> WebhookRepository::listActive(const QString &spaceId, int offset, int limit)
{
    QSqlQuery q(m_db.connection());
    const bool ran = sql::run(q,
                              QStringLiteral("SELECT %1 FROM webhook_endpoints e WHERE e.space_id = ? AND e.disabled_at"
                                             " IS NULL ORDER BY e.created_at DESC, e.id DESC LIMIT ? OFFSET ?")
                                  .arg(kEndpointColumns),
                              spaceId, limit, offset);
    return sql::allRows(q, ran, [](const QSqlQuery &row) { return endpointFrom(row); });
}

Result<QList<WebhookEndpoint>> WebhookRepository::listAll(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    const bool ran = sql::run(q,
                              QStringLiteral("SELECT %1 FROM webhook_endpoints e WHERE e.space_id = ?"
                                             " ORDER BY e.created_at DESC, e.id DESC")
                                  .arg(kEndpointColumns),
                              spaceId);
    return sql::allRows(q, ran, [](const QSqlQuery &row) { return endpointFrom(row); });
}

Result<std::optional<WebhookEndpoint>> WebhookRepository::activeById(const QString &spaceId, const QString &id)
{
    QSqlQuery q(m_db.connection());
    const QString sql = QStringLiteral("SELECT %1 FROM webhook_endpoints e WHERE e.id = ? AND e.disabled_at IS NULL%2")
                            .arg(kEndpointColumns, spaceId.isEmpty() ? QString() : QStringLiteral(" AND e.space_id = ?"));
    const bool ran = spaceId.isEmpty() ? sql::run(q, sql, id) : sql::run(q, sql, id, spaceId);
    return sql::firstRow(q, ran, [](const QSqlQuery &row) { return endpointFrom(row); });
}

Result<bool> WebhookRepository::disable(const QString &spaceId, const QString &id, qint64 now)
{
    return sql::writeMatched(m_db,
                             QStringLiteral("UPDATE webhook_endpoints SET disabled_at = ?"
                                            " WHERE id = ? AND space_id = ? AND disabled_at IS NULL"),
                             now, id, spaceId);
}

// ---- deliveries

Result<Done> WebhookRepository::insertDelivery(const WebhookDelivery &d)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO webhook_deliveries (id, endpoint_id, space_id, event_type, payload,"
                                     " state, attempts, round_attempts, round_started_at, next_attempt_at, created_at,"
                                     " updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?, ?, ?)"),
                      d.id, d.endpointId, d.spaceId, d.eventType, QString::fromUtf8(d.payload), d.createdAt,
                      d.nextAttemptAt, d.createdAt, d.createdAt);
}

Result<int> WebhookRepository::countDeliveries(const QString &endpointId)
{
    QSqlQuery q(m_db.connection());
    return sql::countOf(
        q, sql::run(q, QStringLiteral("SELECT COUNT(*) FROM webhook_deliveries WHERE endpoint_id = ?"), endpointId));
}

Result<QList<WebhookDelivery>> WebhookRepository::listDeliveries(const QString &endpointId, int offset, int limit)
{
    return sql::selectAll(m_db,
                          QStringLiteral("SELECT %1 FROM webhook_deliveries d WHERE d.endpoint_id = ?"
                                         " ORDER BY d.created_at DESC, d.id DESC LIMIT ? OFFSET ?")
                              .arg(kDeliveryColumns),
                          deliveryFrom, endpointId, limit, offset);
}

Result<std::optional<WebhookDelivery>> WebhookRepository::deliveryById(const QString &endpointId, const QString &id)
{
    return sql::selectOne(m_db,
                          QStringLiteral("SELECT %1 FROM webhook_deliveries d WHERE d.id = ? AND d.endpoint_id = ?")
                              .arg(kDeliveryColumns),
                          deliveryFrom, id, endpointId);
}

Result<QList<WebhookAttempt>> WebhookRepository::attemptsOf(const QString &deliveryId)
{
    QSqlQuery q(m_db.connection());
    const bool ran = sql::run(q,
                              QStringLiteral("SELECT attempt, attempted_at, status, error, duration_ms"
                                             " FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt"),
                              deliveryId);
    return sql::allRows(q, ran, [](const QSqlQuery &row) {
        return WebhookAttempt{row.value(0).toInt(), row.value(1).toLongLong(), row.value(2).toInt(),
                              row.value(3).toString(), row.value(4).toLongLong()};
    });
}

Result<bool> WebhookRepository::replay(const QString &id, qint64 now)
{
    return sql::writeMatched(m_db,
                             QStringLiteral("UPDATE webhook_deliveries SET state = 'pending', round_attempts = 0,"
                                            " round_started_at = ?, next_attempt_at = ?, updated_at = ?"
                                            " WHERE id = ? AND (lease_until IS NULL OR lease_until < ?)"),
                             now, now, now, id, now);
}

// ---- the worker's claim and report

Result<QList<std::pair<WebhookDelivery, WebhookEndpointSecret>>>
WebhookRepository::claimDue(const QString &owner, qint64 now, qint64 leaseUntil, int limit)
{
    Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    QSqlQuery q(m_db.connection());
    // The lock clause is PostgreSQL's: instances claiming at once skip each other's rows
    // instead of queueing behind them. SQLite's BEGIN IMMEDIATE serialises the claimers.
    const bool ran = sql::run(q,
                              QStringLiteral("SELECT id FROM webhook_deliveries WHERE state = 'pending'"
                                             " AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)"
                                             " ORDER BY next_attempt_at LIMIT ?%1")
                                  .arg(m_db.isSqlite() ? QString() : QStringLiteral(" FOR UPDATE SKIP LOCKED")),
                              now, now, limit);
    const auto ids = sql::allRows(q, ran, [](const QSqlQuery &row) { return row.value(0).toString(); });
    if (!ids)
        return ids.error();
    QList<std::pair<WebhookDelivery, WebhookEndpointSecret>> claimed;
    for (const QString &id : *ids) {
        const auto leased = sql::writeMatched(q,
                                              QStringLiteral("UPDATE webhook_deliveries SET lease_owner = ?,"
                                                             " lease_until = ? WHERE id = ? AND state = 'pending'"
                                                             " AND (lease_until IS NULL OR lease_until < ?)"),
                                              owner, leaseUntil, id, now);
        if (!leased)
            return leased.error();
        if (!*leased)
            continue;
        const bool read = sql::run(q,
                                   QStringLiteral("SELECT %1, %2, e.secret_box FROM webhook_deliveries d"
                                                  " JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.id = ?")
                                       .arg(kDeliveryColumns, kEndpointColumns),
                                   id);
        const auto row = sql::firstRow(q, read, [](const QSqlQuery &r) {
            WebhookEndpointSecret e{endpointFrom(r, kDeliveryColumnCount),
                                    QByteArray::fromBase64(
                                        r.value(kDeliveryColumnCount + kEndpointColumnCount).toString().toLatin1())};
            return std::make_pair(deliveryFrom(r), e);
        });
        if (!row)
            return row.error();
        if (*row)
            claimed.append(**row);
    }
    if (!tx.commit())
        return ServiceError::database();
    return claimed;
}

Result<bool> WebhookRepository::finishAttempt(const QString &id, const QString &owner, const WebhookOutcome &o)
{
    Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    QSqlQuery q(m_db.connection());
    const qint64 now = nowMs();
    const auto matched = sql::writeMatched(
        q,
        QStringLiteral("UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1,"
                       " round_attempts = round_attempts + 1, next_attempt_at = ?, last_status = ?, last_error = ?,"
                       " updated_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?"),
        o.state, o.nextAttemptAt, o.attempt.status > 0 ? QVariant(o.attempt.status) : QVariant(QMetaType::fromType<int>()),
        orNull(o.attempt.error), now, id, owner);
    if (!matched || !*matched)
        return matched;
    const auto logged = sql::write(q,
                                   QStringLiteral("INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at,"
                                                  " status, error, duration_ms) VALUES (?, ?, ?, ?, ?, ?)"),
                                   id, o.attempt.attempt, o.attempt.attemptedAt,
                                   o.attempt.status > 0 ? QVariant(o.attempt.status)
                                                        : QVariant(QMetaType::fromType<int>()),
                                   orNull(o.attempt.error), o.attempt.durationMs);
    if (!logged)
        return logged.error();
    if (!tx.commit())
        return ServiceError::database();
    return true;
}

} // namespace imprint::store
