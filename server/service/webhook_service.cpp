// The webhook use cases (webhook_service.h).
#include "server/service/webhook_service.h"

#include "server/net/webhook_sender.h"
#include "server/service/json.h"
#include "server/service/lookup.h"
#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QUrl>

namespace imprint::service {

using store::nowMs;
using store::ServiceError;
using store::WebhookDelivery;
using store::WebhookEndpoint;
using store::WebhookRepository;

namespace {

/// Seconds as a list of delays in ms: "5,30,120" or a JSON array of numbers (fractions allowed).
QList<qint64> delaysMs(const QStringList &seconds)
{
    QList<qint64> out;
    for (const QString &s : seconds) {
        bool ok = false;
        const double v = s.trimmed().toDouble(&ok);
        if (ok && v >= 0)
            out.append(qint64(v * 1000));
    }
    return out;
}

ServiceError webhookNotFound(const QString &id)
{
    return missingRow(ProblemCode::WebhookNotFound, QStringLiteral("No webhook '%1' in this space."), id);
}

} // namespace

// ---------------------------------------------------------------- settings

WebhookSettings WebhookSettings::fromConfig(const store::Config &config)
{
    WebhookSettings s;
    const QJsonObject w = config.json().value(QStringLiteral("webhooks")).toObject();
    for (const QJsonValue &h : w.value(QStringLiteral("hostAllowlist")).toArray())
        s.hostAllowlist.append(h.toString().trimmed().toLower());
    s.connectTimeoutMs = w.value(QStringLiteral("connectTimeoutMs")).toInt(s.connectTimeoutMs);
    s.timeoutMs = w.value(QStringLiteral("timeoutMs")).toInt(s.timeoutMs);
    s.maxResponseBytes = qint64(w.value(QStringLiteral("maxResponseBytes")).toDouble(double(s.maxResponseBytes)));
    QStringList retry;
    for (const QJsonValue &v : w.value(QStringLiteral("retrySeconds")).toArray())
        retry.append(QString::number(v.toDouble(-1)));
    if (qEnvironmentVariableIsSet("IMPRINT_WEBHOOK_RETRY_SECONDS"))
        retry = qEnvironmentVariable("IMPRINT_WEBHOOK_RETRY_SECONDS").split(QLatin1Char(','));
    if (const QList<qint64> delays = delaysMs(retry); !delays.isEmpty())
        s.retryDelaysMs = delays;
    s.retryWindowMs = qint64(w.value(QStringLiteral("retryWindowSeconds")).toDouble(double(s.retryWindowMs) / 1000) * 1000);
    s.pollMs = std::max(10, w.value(QStringLiteral("pollMs")).toInt(s.pollMs));
    s.concurrency = std::max(1, w.value(QStringLiteral("concurrency")).toInt(s.concurrency));
    return s;
}

net::WebhookPolicy WebhookSettings::policy() const
{
    net::WebhookPolicy p;
    p.hostAllowlist = hostAllowlist;
    p.connectTimeoutMs = connectTimeoutMs;
    p.timeoutMs = timeoutMs;
    p.maxResponseBytes = maxResponseBytes;
    return p;
}

// ---------------------------------------------------------------- JSON

QJsonObject webhookJson(const WebhookEndpoint &e)
{
    return QJsonObject{
        {QStringLiteral("id"), e.id},
        {QStringLiteral("url"), e.url},
        {QStringLiteral("description"), e.description},
        {QStringLiteral("events"), QJsonArray::fromStringList(e.eventTypes)},
        {QStringLiteral("createdAt"), isoOrNull(e.createdAt)},
    };
}

QJsonObject deliveryJson(const WebhookDelivery &d)
{
    return QJsonObject{
        {QStringLiteral("id"), d.id},
        {QStringLiteral("webhookId"), d.endpointId},
        {QStringLiteral("eventType"), d.eventType},
        {QStringLiteral("state"), d.state},
        {QStringLiteral("attemptCount"), d.attempts},
        {QStringLiteral("nextAttemptAt"),
         d.state == QLatin1String("pending") ? isoOrNull(d.nextAttemptAt) : QJsonValue()},
        {QStringLiteral("lastStatus"), d.lastStatus > 0 ? QJsonValue(d.lastStatus) : QJsonValue()},
        {QStringLiteral("lastError"), d.lastError.isEmpty() ? QJsonValue() : QJsonValue(d.lastError)},
        {QStringLiteral("createdAt"), isoOrNull(d.createdAt)},
        {QStringLiteral("updatedAt"), isoOrNull(d.updatedAt)},
        {QStringLiteral("payload"), QJsonDocument::fromJson(d.payload).object()},
    };
}

QJsonObject deliveryLogJson(const DeliveryLogEntry &entry)
{
    QJsonObject out = deliveryJson(entry.delivery);
    QJsonArray attempts;
    for (const store::WebhookAttempt &a : entry.attempts)
        attempts.append(QJsonObject{
            {QStringLiteral("attempt"), a.attempt},
            {QStringLiteral("at"), isoOrNull(a.attemptedAt)},
            {QStringLiteral("status"), a.status > 0 ? QJsonValue(a.status) : QJsonValue()},
            {QStringLiteral("error"), a.error.isEmpty() ? QJsonValue() : QJsonValue(a.error)},
            {QStringLiteral("durationMs"), double(a.durationMs)},
        });
    out.insert(QStringLiteral("attempts"), attempts);
    return out;
}

// ---------------------------------------------------------------- the service

WebhookService::WebhookService(const store::Database &db, QString dataDir, WebhookSettings settings)
    : m_db(db)
    , m_serverKey(std::move(dataDir))
    , m_settings(std::move(settings))
{ }

const QStringList &WebhookService::eventTypes()
{
    static const QStringList types{QStringLiteral("render.completed"), QStringLiteral("render.failed"),
                                   QStringLiteral("batch.completed")};
    return types;
}

Result<QString> WebhookService::unseal(const QByteArray &sealed)
{
    const auto plain = m_serverKey.unseal(sealed);
    if (!plain)
        return plain.error();
    return QString::fromUtf8(*plain);
}

QByteArray WebhookService::signature(const QString &secret, const QString &id, qint64 timestampSeconds,
                                     const QByteArray &body)
{
    const QByteArray key = QByteArray::fromBase64(secret.mid(secret.indexOf(QLatin1Char('_')) + 1).toLatin1());
    const QByteArray signedContent = id.toUtf8() + '.' + QByteArray::number(timestampSeconds) + '.' + body;
    return "v1," + store::hmacSha256(key, signedContent).toBase64();
}

Result<CreatedWebhook> WebhookService::create(const QString &spaceId, const QString &urlIn, const QStringList &eventsIn,
                                              const QString &description, const QString &actor)
{
    const QUrl url(urlIn.trimmed(), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (urlIn.size() > 2000 || !url.isValid() || url.host().isEmpty()
        || (scheme != QLatin1String("http") && scheme != QLatin1String("https")))
        return ServiceError::invalid(ProblemCode::InvalidUrl, QStringLiteral("url"),
                                     QStringLiteral("'url' must be an absolute http or https URL of at most 2000 "
                                                    "characters."));
    if (const QString problem = net::checkWebhookTarget(url, m_settings.hostAllowlist); !problem.isEmpty())
        return ServiceError{ProblemCode::UrlRefused, QStringLiteral("url"),
                            QStringLiteral("This URL may not receive webhooks: %1.").arg(problem)};
    QStringList events;
    for (const QString &e : eventTypes()) // canonical order, each once
        if (eventsIn.contains(e))
            events.append(e);
    for (const QString &e : eventsIn)
        if (!eventTypes().contains(e))
            return ServiceError::invalid(ProblemCode::InvalidField, QStringLiteral("events"),
                                         QStringLiteral("'%1' is not an event; events are %2.")
                                             .arg(e, eventTypes().join(QStringLiteral(", "))));
    if (description.size() > 200)
        return ServiceError::invalid(ProblemCode::InvalidName, QStringLiteral("description"),
                                     QStringLiteral("A description is at most 200 characters."));
    const auto sealer = m_serverKey.box();
    if (!sealer)
        return sealer.error();
    CreatedWebhook out;
    out.secret = store::newWebhookSecret();
    out.endpoint.id = store::randomId(QStringLiteral("whk_"));
    out.endpoint.spaceId = spaceId;
    out.endpoint.url = url.toString(QUrl::FullyEncoded);
    out.endpoint.description = description;
    out.endpoint.eventTypes = events;
    out.endpoint.createdBy = actor;
    out.endpoint.createdAt = nowMs();
    store::Transaction tx(m_db);
    if (!tx.isOpen()
        || !WebhookRepository(m_db).insertEndpoint(out.endpoint, (*sealer)->seal(out.secret.toUtf8()))
        || !store::AuditRepository(m_db).append(spaceId, actor.isEmpty() ? QStringLiteral("cli") : actor,
                                                QStringLiteral("webhook.create"), out.endpoint.id, out.endpoint.url)
        || !tx.commit())
        return ServiceError::database();
    return out;
}

Result<WebhookPage> WebhookService::listPage(const QString &spaceId, int page, int perPage)
{
    WebhookRepository repo(m_db);
    return pageOf<WebhookEndpoint>(
        page, perPage, kMaxPage, kMaxPerPage, [&] { return repo.countActive(spaceId); },
        [&](int offset, int limit) { return repo.listActive(spaceId, offset, limit); });
}

Result<QList<WebhookEndpoint>> WebhookService::listAll(const QString &spaceId)
{
    return WebhookRepository(m_db).listAll(spaceId);
}

Result<WebhookEndpoint> WebhookService::get(const QString &spaceId, const QString &id)
{
    return found(WebhookRepository(m_db).activeById(spaceId, id), [&] { return webhookNotFound(id); });
}

Result<Done> WebhookService::remove(const QString &spaceIdIn, const QString &id, const QString &actor)
{
    QString spaceId = spaceIdIn;
    if (spaceId.isEmpty()) {
        const auto found = get({}, id);
        if (!found)
            return found.error();
        spaceId = found->spaceId;
    }
    store::Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    const auto disabled
        = matched(WebhookRepository(m_db).disable(spaceId, id, nowMs()), [&] { return webhookNotFound(id); });
    if (!disabled)
        return disabled.error();
    if (!store::AuditRepository(m_db).append(spaceId, actor.isEmpty() ? QStringLiteral("cli") : actor,
                                             QStringLiteral("webhook.delete"), id)
        || !tx.commit())
        return ServiceError::database();
    return Done{};
}

Result<DeliveryPage> WebhookService::deliveries(const QString &spaceId, const QString &id, int page, int perPage)
{
    if (const auto endpoint = get(spaceId, id); !endpoint)
        return endpoint.error();
    WebhookRepository repo(m_db);
    return pageOf<DeliveryLogEntry>(
        page, perPage, kMaxPage, kMaxPerPage, [&] { return repo.countDeliveries(id); },
        [&](int offset, int limit) -> Result<QList<DeliveryLogEntry>> {
            const auto rows = repo.listDeliveries(id, offset, limit);
            if (!rows)
                return rows.error();
            QList<DeliveryLogEntry> out;
            for (const WebhookDelivery &d : *rows) {
                auto attempts = repo.attemptsOf(d.id);
                if (!attempts)
                    return attempts.error();
                out.append(DeliveryLogEntry{d, *attempts});
            }
            return out;
        });
}

Result<WebhookDelivery> WebhookService::replay(const QString &spaceId, const QString &id, const QString &deliveryId)
{
    if (const auto endpoint = get(spaceId, id); !endpoint)
        return endpoint.error();
    WebhookRepository repo(m_db);
    const ServiceError notFound = ServiceError::notFound(
        ProblemCode::DeliveryNotFound,
        QStringLiteral("No delivery '%1' of webhook '%2' that can be replayed now.").arg(deliveryId, id));
    const auto found = repo.deliveryById(id, deliveryId);
    if (!found)
        return found.error();
    if (!*found)
        return notFound;
    const auto replayed = repo.replay(deliveryId, nowMs());
    if (!replayed)
        return replayed.error();
    if (!*replayed)
        return notFound;
    if (m_published)
        m_published();
    const auto now = repo.deliveryById(id, deliveryId);
    if (!now || !*now)
        return ServiceError::database();
    return **now;
}

Result<WebhookDelivery> WebhookService::enqueue(const QString &spaceId, const QString &endpointId,
                                                const QString &eventType, const QByteArray &payload)
{
    WebhookDelivery d;
    d.id = store::randomId(QStringLiteral("msg_"));
    d.endpointId = endpointId;
    d.spaceId = spaceId;
    d.eventType = eventType;
    d.payload = payload;
    d.state = QStringLiteral("pending");
    d.createdAt = d.updatedAt = d.roundStartedAt = d.nextAttemptAt = nowMs();
    if (const auto inserted = WebhookRepository(m_db).insertDelivery(d); !inserted)
        return inserted.error();
    return d;
}

namespace {

/// The body of an event as the Standard Webhooks specification recommends.
QByteArray eventPayload(const QString &eventType, const QJsonObject &data)
{
    return QJsonDocument(QJsonObject{
                             {QStringLiteral("type"), eventType},
                             {QStringLiteral("timestamp"),
                              QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
                             {QStringLiteral("data"), data},
                         })
        .toJson(QJsonDocument::Compact);
}

} // namespace

Result<WebhookDelivery> WebhookService::sendTest(const QString &spaceId, const QString &id)
{
    const auto endpoint = get(spaceId, id);
    if (!endpoint)
        return endpoint.error();
    auto queued = enqueue(endpoint->spaceId, id, testEventType(),
                          eventPayload(testEventType(), QJsonObject{{QStringLiteral("webhookId"), id}}));
    if (queued && m_published)
        m_published();
    return queued;
}

Result<int> WebhookService::publish(const QString &spaceId, const QString &eventType, const QJsonObject &data)
{
    WebhookRepository repo(m_db);
    const auto endpoints = repo.listActive(spaceId, 0, 1000);
    if (!endpoints)
        return endpoints.error();
    const QByteArray payload = eventPayload(eventType, data);
    int inserted = 0;
    for (const WebhookEndpoint &e : *endpoints) {
        if (!e.eventTypes.isEmpty() && !e.eventTypes.contains(eventType))
            continue;
        if (const auto queued = enqueue(spaceId, e.id, eventType, payload); !queued)
            return queued.error();
        ++inserted;
    }
    if (inserted > 0 && m_published)
        m_published();
    return inserted;
}

} // namespace imprint::service
