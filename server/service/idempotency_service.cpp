#include "server/service/idempotency_service.h"

#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <QCryptographicHash>
#include <QScopeGuard>
#include <QSet>

#include <mutex>
#include <utility>

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

IdempotentRequest::IdempotentRequest(const store::Database &db, QByteArray claim)
    : m_db(&db)
    , m_claim(std::move(claim))
{ }

IdempotentRequest::IdempotentRequest(IdempotentRequest &&other) noexcept
    : m_db(other.m_db)
    , m_claim(std::exchange(other.m_claim, {}))
    , m_spaceId(std::move(other.m_spaceId))
    , m_key(std::move(other.m_key))
    , m_route(std::move(other.m_route))
    , m_writes(std::move(other.m_writes))
{ }

IdempotentRequest &IdempotentRequest::operator=(IdempotentRequest &&other) noexcept
{
    if (this != &other) {
        release();
        m_db = other.m_db;
        m_claim = std::exchange(other.m_claim, {});
        m_spaceId = std::move(other.m_spaceId);
        m_key = std::move(other.m_key);
        m_route = std::move(other.m_route);
        m_writes = std::move(other.m_writes);
    }
    return *this;
}

IdempotentRequest::~IdempotentRequest()
{
    release();
}

void IdempotentRequest::release()
{
    m_writes.reset(); // rolls back what did not commit
    if (m_claim.isEmpty())
        return;
    IdempotencyRepository(*m_db).unlock(m_claim);
    releaseInProcess(m_claim);
    m_claim.clear();
}

store::Result<std::variant<IdempotentAnswer, IdempotentRequest>>
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
    IdempotentRequest claimed(m_db, name); // released when left before the request runs
    {
        // Look and mark in one transaction (BEGIN IMMEDIATE on SQLite), committed before
        // the request runs: the mark is what a retry finds while no answer is stored.
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
                                             QStringLiteral("This Idempotency-Key was used for a different request; "
                                                            "use a new key for a new request."));
            if (entry->status != 0)
                return std::variant<IdempotentAnswer, IdempotentRequest>(
                    IdempotentAnswer{entry->status, entry->contentType, entry->body});
            // Unanswered, and nobody holds its claim: its request died before answering,
            // and its writes with it (they commit only with the answer).
            if (auto removed = repo.remove(spaceId, key, route); !removed)
                return removed.error();
        }
        if (auto inserted = repo.insertRunning(spaceId, key, route, hash, now); !inserted)
            return inserted.error();
        if (!tx.commit())
            return ServiceError::database();
    }
    claimed.m_spaceId = spaceId;
    claimed.m_key = key;
    claimed.m_route = route;
    claimed.m_writes = std::make_unique<store::DeferredTransaction>(m_db);
    return std::variant<IdempotentAnswer, IdempotentRequest>(std::move(claimed));
}

store::Result<store::Done> IdempotencyService::finish(IdempotentRequest &&request, const IdempotentAnswer &answer)
{
    IdempotentRequest ending = std::move(request);
    IdempotencyRepository repo(m_db);
    store::Result<store::Done> answered = store::Done{};
    if (answer.status >= 200 && answer.status < 300) {
        if (!ending.m_writes
            || !repo.complete(ending.m_spaceId, ending.m_key, ending.m_route, answer.status, answer.contentType,
                              answer.body)
            || !ending.m_writes->commit())
            // Taken now: releasing the claim below reconnects a broken connection, after
            // which the error would no longer say the database was unavailable.
            answered = ServiceError::database();
        // When it failed, the entry stays unanswered, its writes undone with the answer:
        // once the claim is released below, a retry runs again.
    } else {
        ending.m_writes.reset();
        (void)repo.remove(ending.m_spaceId, ending.m_key, ending.m_route);
    }
    ending.release();
    return answered;
}

} // namespace imprint::service
