#pragma once
// Every machine-readable problem code the service answers with that is not a render
// stage's (those are render::RenderErrorCode, server/render/error.h), in one table:
// the code, its wire name (the problem+json `code`, docs/api.md "Errors") and its HTTP
// status. Services return a ProblemCode (store::ServiceError); the HTTP layer
// (server/http/problem.cpp) maps it to the status and title through this table, so no
// code is spelled anywhere else. tst_problem holds docs/api.md's list against it.

#include <QString>

#include <optional>
#include <span>

namespace imprint::common {

/// A problem code. The comment of each names its wire name; the table says its status.
enum class ProblemCode {
    // 400: the request is malformed or names bad input
    BadRequest, ///< bad_request: malformed HTTP framing
    InvalidBody, ///< invalid_body
    MalformedJson, ///< malformed_json
    MissingField, ///< missing_field
    InvalidField, ///< invalid_field
    InvalidParameter, ///< invalid_parameter
    UnknownField, ///< unknown_field
    AmbiguousRender, ///< ambiguous_render
    InvalidPattern, ///< invalid_pattern
    InvalidTemplate, ///< invalid_template (also a render code)
    InvalidVariable, ///< invalid_variable (also a render code)
    InvalidName, ///< invalid_name
    InvalidEmail, ///< invalid_email
    InvalidPassword, ///< invalid_password
    InvalidPlan, ///< invalid_plan
    InvalidExpiresAt, ///< invalid_expires_at
    InvalidExpires, ///< invalid_expires
    InvalidScopes, ///< invalid_scopes
    InvalidUrl, ///< invalid_url
    InvalidFont, ///< invalid_font
    InvalidImage, ///< invalid_image
    MissingBody, ///< missing_body
    UnsupportedMediaType, ///< unsupported_media_type
    InvalidIdempotencyKey, ///< invalid_idempotency_key
    IdempotencyKeyReused, ///< idempotency_key_reused
    // 401: who is asking is not known
    MissingToken, ///< missing_token
    InvalidToken, ///< invalid_token
    TokenExpired, ///< token_expired
    NotLoggedIn, ///< not_logged_in
    InvalidCredentials, ///< invalid_credentials
    NoMembership, ///< no_membership
    // 402: over a limit of the space's plan
    ExportSizeExceeded, ///< export_size_exceeded
    AssetQuotaExceeded, ///< asset_quota_exceeded
    // 403
    Forbidden, ///< forbidden
    MissingScope, ///< missing_scope
    SignatureInvalid, ///< signature_invalid
    SignatureExpired, ///< signature_expired
    // 404
    NotFound, ///< not_found: no route
    KeyNotFound, ///< key_not_found
    SigningKeyNotFound, ///< signing_key_not_found
    TemplateNotFound, ///< template_not_found
    PageNotFound, ///< page_not_found
    PageNotPublished, ///< page_not_published
    TemplateMismatch, ///< template_mismatch
    SpaceNotFound, ///< space_not_found
    UserNotFound, ///< user_not_found
    PatternNotFound, ///< pattern_not_found
    VariantNotFound, ///< variant_not_found
    FileNotFound, ///< file_not_found
    FontNotFound, ///< font_not_found
    AssetNotFound, ///< asset_not_found
    WebhookNotFound, ///< webhook_not_found
    DeliveryNotFound, ///< delivery_not_found
    JobNotFound, ///< job_not_found
    TemplateVersionNotFound, ///< template_version_not_found
    // 405, 408
    MethodNotAllowed, ///< method_not_allowed
    RequestTimeout, ///< request_timeout
    // 409
    SpaceExists, ///< space_exists
    TemplateInUse, ///< template_in_use
    InvalidStoredTemplate, ///< invalid_stored_template
    IdempotencyKeyInUse, ///< idempotency_key_in_use
    // 422: understood, but refused by a policy
    UrlRefused, ///< url_refused: a webhook URL the address policy forbids
    // 413, 429, 431
    BodyTooLarge, ///< body_too_large
    BatchTooLarge, ///< batch_too_large
    RateLimited, ///< rate_limited
    JobQueueFull, ///< job_queue_full
    TooManyLoginAttempts, ///< too_many_login_attempts
    HeadersTooLarge, ///< headers_too_large
    // 422: well-formed, but the template cannot do it
    UnknownSize, ///< unknown_size: a size name the template does not offer
    SizeConflict, ///< size_conflict: a size name together with width or height
    // 500: a fault of ours
    InternalError, ///< internal_error
    DatabaseError, ///< database_error
    RenderFailed, ///< render_failed
    RenderAbandoned, ///< render_abandoned: a job item whose worker died every attempt
    StoreFailed, ///< store_failed
    FileUnreadable, ///< file_unreadable
    SigningKeyStore, ///< signing_key_store
    // 503: retry later (with Retry-After)
    QueueFull, ///< queue_full
    ShuttingDown, ///< shutting_down
    DatabaseUnavailable, ///< database_unavailable
    // 505: a request line of another major version than HTTP/1
    HttpVersionNotSupported, ///< http_version_not_supported
};

/// One row of the table.
struct ProblemRow {
    ProblemCode code;
    const char *name; ///< the wire name, snake_case
    int status; ///< the HTTP status it is answered with
};

/// Every row, in the enum's order (one per code).
std::span<const ProblemRow> problemTable();

/// The wire name of `code` ("page_not_found", ...).
QString problemCodeName(ProblemCode code);

/// The HTTP status `code` is answered with (400 ... 503).
int problemStatus(ProblemCode code);

/// The problem's RFC 9457 `title`: the reason phrase of its status ("Not Found"), as
/// every problem has carried it since the first release.
QString problemTitle(ProblemCode code);

/// The code whose wire name is `name`; std::nullopt for a name the table does not hold.
std::optional<ProblemCode> parseProblemCode(const QString &name);

} // namespace imprint::common
