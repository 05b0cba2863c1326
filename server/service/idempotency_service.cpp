#include "server/service/idempotency_service.h"

#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <QCryptographicHash>
#include <QSet>

#include <memory>
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

/// The claim of (space, route, key) that begin() took for a request it let run, in this
/// process and on the database: released when destroyed, whichever way the request ends.
struct IdempotentRequest::Claim {
    Claim(const store::Database &db, QString spaceId, QString key, QString route)
        : db(db)
        , spaceId(std::move(spaceId))
        , key(std::move(key))
        , route(std::move(route))
    { }
    Claim(const Claim &) = delete;
    Claim &operator=(const Claim &) = delete;
    ~Claim()
    {
        const QByteArray name = claimName(spaceId, key, route);
        IdempotencyRepository(db).unlock(name);
        releaseInProcess(name);
    }

    const store::Database &db;
    const QString spaceId, key, route;
};

IdempotentRequest::IdempotentRequest(std::unique_ptr<Claim> claim)
    : m_claim(std::move(claim))
{ }

IdempotentRequest::IdempotentRequest(IdempotentRequest &&) noexcept = default;

IdempotentRequest::~IdempotentRequest() = default;

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
    // Released when left before the request runs.
    IdempotentRequest claimed(std::make_unique<IdempotentRequest::Claim>(m_db, spaceId, key, route));
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
    claimed.m_writes = std::make_unique<store::DeferredTransaction>(m_db);
    return std::variant<IdempotentAnswer, IdempotentRequest>(std::move(claimed));
}

store::Result<store::Done> IdempotencyService::finish(IdempotentRequest &&request, const IdempotentAnswer &answer)
{
    // Its writes end, then its claim is released, when `ending` is left.
    IdempotentRequest ending = std::move(request);
    const IdempotentRequest::Claim &claim = *ending.m_claim;
    IdempotencyRepository repo(m_db);
    if (answer.status < 200 || answer.status >= 300) {
        ending.m_writes.reset(); // rolled back: a corrected retry runs on a free key
        (void)repo.remove(claim.spaceId, claim.key, claim.route);
        return store::Done{};
    }
    if (repo.complete(claim.spaceId, claim.key, claim.route, answer.status, answer.contentType, answer.body)
        && ending.m_writes->commit())
        return store::Done{};
    // Taken before the claim's release, which reconnects a broken connection, after which
    // the error would no longer say the database was unavailable. The entry stays
    // unanswered, its writes undone with the answer: once the claim is released, a retry
    // runs again.
    return ServiceError::database();
}

} // namespace imprint::service
