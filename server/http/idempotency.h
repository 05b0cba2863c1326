#pragma once
// The Idempotency-Key request header (IETF httpapi draft "The Idempotency-Key HTTP Header
// Field") on the POST routes that create templates and pages: the transport side of
// service::IdempotencyService.

#include "server/http/auth.h"
#include "server/service/idempotency_service.h"

namespace imprint::http {

/// Wraps a session route so that a request carrying `Idempotency-Key` runs once per space,
/// route and key: a retry of the same request (same method, path and body) gets the first
/// 2xx answer again with `Idempotent-Replayed: true`; a different request with that key is
/// 400 `idempotency_key_reused`, and one sent while the first still runs 409
/// `idempotency_key_in_use` (both naming the field `Idempotency-Key`); a key that is not
/// 1–255 printable ASCII characters is 400 `invalid_idempotency_key`. The route's writes
/// commit with its stored answer (IdempotencyService::finish()): a non-2xx answer rolls
/// them back, and an answer that cannot be stored is the database error's problem (503
/// `database_unavailable` or 500 `database_error`) with nothing written. Without the header
/// the route runs as before. Not for routes whose answer holds a secret shown once (it
/// would be stored to replay). `service` must outlive the router.
SessionHandler withIdempotency(service::IdempotencyService &service, const QString &route, SessionHandler handler);

} // namespace imprint::http
