#include "server/service/idempotency_service.h"

#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <QCryptographicHash>

namespace imprint::service {

using store::IdempotencyRepository;
using store::ServiceError;

bool IdempotencyService::isValidKey(const QString &key)
{
    if (key.isEmpty() || key.size() > 255)
        return false;
    for (const QChar c : key)
        if (c.unicode() < 0x21 || c.unicode() > 0x7e)
            return false;
    return true;
}

store::Result<std::optional<IdempotentAnswer>>
IdempotencyService::begin(const QString &spaceId, const QString &key, const QString &route, const QByteArray &request)
{
    const QByteArray hash = QCryptographicHash::hash(request, QCryptographicHash::Sha256).toHex();
    const qint64 now = store::nowMs();
    IdempotencyRepository repo(m_db);
    // Look and claim in one transaction (BEGIN IMMEDIATE on SQLite): of two concurrent
    // first requests with one key, exactly one runs.
    store::Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    if (auto pruned = repo.removeOlderThan(now - kKeepMs); !pruned)
        return pruned.error();
    auto found = repo.find(spaceId, key, route);
    if (!found)
        return found.error();
    if (const auto &entry = *found) {
        if (entry->requestHash != hash)
            return ServiceError::invalid(QStringLiteral("idempotency_key_reused"), QStringLiteral("Idempotency-Key"),
                                         QStringLiteral("This Idempotency-Key was used for a different request; use "
                                                        "a new key for a new request."));
        if (entry->status != 0)
            return std::optional<IdempotentAnswer>(IdempotentAnswer{entry->status, entry->contentType, entry->body});
        if (now - entry->createdAt < kRunningMs)
            return ServiceError::conflict(QStringLiteral("idempotency_key_in_use"),
                                          QStringLiteral("The first request with this Idempotency-Key is still "
                                                         "running; retry when it has answered."),
                                          QStringLiteral("Idempotency-Key"));
        if (auto removed = repo.remove(spaceId, key, route); !removed) // that request was lost
            return removed.error();
    }
    if (auto inserted = repo.insertRunning(spaceId, key, route, hash, now); !inserted)
        return inserted.error();
    if (!tx.commit())
        return ServiceError::database();
    return std::optional<IdempotentAnswer>();
}

void IdempotencyService::finish(const QString &spaceId, const QString &key, const QString &route,
                                const IdempotentAnswer &answer)
{
    IdempotencyRepository repo(m_db);
    // A failure here costs only the replay: the write itself is done. A retry then finds
    // the key running (409) until kRunningMs, or freed.
    if (answer.status >= 200 && answer.status < 300)
        (void)repo.complete(spaceId, key, route, answer.status, answer.contentType, answer.body);
    else
        (void)repo.remove(spaceId, key, route);
}

} // namespace imprint::service
