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

#include <optional>

namespace imprint::service {

/// A stored answer to replay.
struct IdempotentAnswer {
    int status = 0;
    QByteArray contentType;
    QByteArray body;
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

    /// Starts a request sent with `key`: std::nullopt when it is new (run it, then call
    /// finish()), else the first request's answer to replay. Errors: Invalid
    /// `idempotency_key_reused` (field Idempotency-Key) when the key was used for a
    /// different request on this route; Conflict `idempotency_key_in_use` while the first
    /// request with it still runs (holds its claim, in this process or, on PostgreSQL, on
    /// any instance); the database's. A first request that died unanswered (its process
    /// killed, its connection lost) holds no claim: the retry runs at once.
    store::Result<std::optional<IdempotentAnswer>> begin(const QString &spaceId, const QString &key,
                                                         const QString &route, const QByteArray &request);
    /// Records the answer of a request begin() let run and releases its claim. A 2xx
    /// answer is kept for replay; any other frees the key, so that a corrected retry runs.
    /// Must follow every begin() that returned std::nullopt, on the same thread.
    void finish(const QString &spaceId, const QString &key, const QString &route, const IdempotentAnswer &answer);

private:
    const store::Database &m_db;
};

} // namespace imprint::service
