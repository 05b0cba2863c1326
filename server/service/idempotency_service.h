#pragma once
// Idempotency keys for the POST routes that create (docs/api.md, "Retries"): a client that
// sends `Idempotency-Key: K` may retry the same request after a timeout or a lost
// connection and gets the first answer again instead of a second key, template or page
// (the IETF httpapi draft "The Idempotency-Key HTTP Header Field"). Keys are per space and
// route and kept for a day. Nothing here knows HTTP: the transport passes the key, what
// was asked and the answer.

#include "server/store/database.h"
#include "server/store/errors.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>
#include <variant>

namespace imprint::store {
class DeferredTransaction;
}

namespace imprint::service {

/// A stored answer to replay.
struct IdempotentAnswer {
    int status = 0;
    QByteArray contentType;
    QByteArray body;
};

/// A request begin() let run: the transaction its writes join, so that they commit with
/// its answer (IdempotencyService::finish()). Move-only; on the thread that began it.
class IdempotentRequest
{
public:
    IdempotentRequest(IdempotentRequest &&) noexcept;
    IdempotentRequest &operator=(IdempotentRequest &&) = delete;
    /// Without finish(): rolls the writes back and releases the claim, as for a request
    /// that died unanswered.
    ~IdempotentRequest();

private:
    friend class IdempotencyService;
    struct Claim; // the key's claim, released when it is destroyed
    explicit IdempotentRequest(std::unique_ptr<Claim> claim);

    // In this order: the writes end (roll back unless committed) before the claim goes.
    std::unique_ptr<Claim> m_claim;
    std::unique_ptr<store::DeferredTransaction> m_writes;
};

class IdempotencyService
{
public:
    static constexpr qint64 kKeepMs = 24LL * 3600 * 1000; ///< how long an answer is replayed

    explicit IdempotencyService(const store::Database &db)
        : m_db(db)
    { }

    /// Whether `key` is usable: 1–255 printable ASCII characters.
    static bool isValidKey(const QString &key);

    /// Starts a request sent with `key`: the first request's answer to replay, or, when it
    /// is new, an IdempotentRequest holding the key's claim and a transaction of this
    /// thread's connection that begins with the request's first write and holds every
    /// later one (store::DeferredTransaction); run the request, then call finish() on
    /// this thread. Errors: Invalid
    /// `idempotency_key_reused` (field Idempotency-Key) when the key was used for a
    /// different request on this route; Conflict `idempotency_key_in_use` while the first
    /// request with it still runs (holds its claim, in this process or, on PostgreSQL, on
    /// any instance); the database's. A first request that died unanswered (its process
    /// killed, its connection lost) holds no claim and wrote nothing: the retry runs at once.
    store::Result<std::variant<IdempotentAnswer, IdempotentRequest>>
    begin(const QString &spaceId, const QString &key, const QString &route, const QByteArray &request);
    /// Ends a request begin() let run and releases its claim. A 2xx answer is stored for
    /// replay in the request's own transaction, which then commits: the writes and their
    /// answer are kept together or not at all, so a crash or a lost connection in between
    /// cannot leave a write whose retry runs again (docs/api.md, "Retries"). Any other
    /// answer rolls the request's writes back and frees the key, so that a corrected retry
    /// runs. The database error when the 2xx answer could not be stored or committed:
    /// nothing of the request was written (or, when only the COMMIT's acknowledgement was
    /// lost, the retry replays it), and the transport answers that error instead.
    store::Result<store::Done> finish(IdempotentRequest &&request, const IdempotentAnswer &answer);

private:
    const store::Database &m_db;
};

} // namespace imprint::service
