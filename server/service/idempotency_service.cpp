#include "server/service/idempotency_service.h"

#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <QCryptographicHash>
#include <QScopeGuard>
#include <QSet>

#include <mutex>

namespace imprint::service {

using store::IdempotencyRepository;
using store::ProblemCode;
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

namespace {

/// The claims held by requests running in this process (IdempotencyService::begin() to
/// finish()): exact within one process, where a PostgreSQL session lock would let two
/// requests of one thread's connection in.
std::mutex g_claimsMutex;
QSet<QByteArray> g_claims;

QByteArray claimName(const QString &spaceId, const QString &key, const QString &route)
{
    return spaceId.toUtf8() + '\n' + route.toUtf8() + '\n' + key.toUtf8();
}

bool claimInProcess(const QByteArray &name)
{
    std::lock_guard lock(g_claimsMutex);
    if (g_claims.contains(name))
        return false;
    g_claims.insert(name);
    return true;
}

void releaseInProcess(const QByteArray &name)
{
    std::lock_guard lock(g_claimsMutex);
    g_claims.remove(name);
}

ServiceError keyInUse()
{
    return ServiceError::conflict(ProblemCode::IdempotencyKeyInUse,
                                  QStringLiteral("The first request with this Idempotency-Key is still "
                                                 "running; retry when it has answered."),
                                  QStringLiteral("Idempotency-Key"));
}

} // namespace

store::Result<std::optional<IdempotentAnswer>>
IdempotencyService::begin(const QString &spaceId, const QString &key, const QString &route, const QByteArray &request)
{
    const QByteArray hash = QCryptographicHash::hash(request, QCryptographicHash::Sha256).toHex();
    const qint64 now = store::nowMs();
    const QByteArray name = claimName(spaceId, key, route);
    IdempotencyRepository repo(m_db);
    // "Still running" is a claim held by a live request, here or on another instance,
    // not a row's age: a claim dies with its request's process or connection, so a retry
    // after a crash, a kill or a PostgreSQL restart runs at once instead of waiting.
    if (!claimInProcess(name))
        return keyInUse();
    auto locked = repo.tryLock(name);
    if (!locked || !*locked) {
        releaseInProcess(name);
        return locked ? keyInUse() : locked.error();
    }
    auto claimed = qScopeGuard([&] {
        repo.unlock(name);
        releaseInProcess(name);
    });
    // Look and mark in one transaction (BEGIN IMMEDIATE on SQLite).
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
            return ServiceError::invalid(ProblemCode::IdempotencyKeyReused, QStringLiteral("Idempotency-Key"),
                                         QStringLiteral("This Idempotency-Key was used for a different request; use "
                                                        "a new key for a new request."));
        if (entry->status != 0)
            return std::optional<IdempotentAnswer>(IdempotentAnswer{entry->status, entry->contentType, entry->body});
        // Unanswered, and nobody holds its claim: its request died before answering.
        if (auto removed = repo.remove(spaceId, key, route); !removed)
            return removed.error();
    }
    if (auto inserted = repo.insertRunning(spaceId, key, route, hash, now); !inserted)
        return inserted.error();
    if (!tx.commit())
        return ServiceError::database();
    claimed.dismiss(); // held until finish()
    return std::optional<IdempotentAnswer>();
}

void IdempotencyService::finish(const QString &spaceId, const QString &key, const QString &route,
                                const IdempotentAnswer &answer)
{
    IdempotencyRepository repo(m_db);
    // A failure here costs only the replay: the write itself is done. A retry then finds
    // the entry unanswered and unclaimed and runs again.
    if (answer.status >= 200 && answer.status < 300)
        (void)repo.complete(spaceId, key, route, answer.status, answer.contentType, answer.body);
    else
        (void)repo.remove(spaceId, key, route);
    const QByteArray name = claimName(spaceId, key, route);
    repo.unlock(name);
    releaseInProcess(name);
}

} // namespace imprint::service
