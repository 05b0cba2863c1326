#include "server/common/problem_code.h"

#include <array>

namespace imprint::common {

namespace {

// The table of problem_code.h, in the enum's order (problemTable() indexes it by code).
constexpr std::array kRows{
    ProblemRow{ProblemCode::BadRequest, "bad_request", 400},
    ProblemRow{ProblemCode::InvalidBody, "invalid_body", 400},
    ProblemRow{ProblemCode::MalformedJson, "malformed_json", 400},
    ProblemRow{ProblemCode::MissingField, "missing_field", 400},
    ProblemRow{ProblemCode::InvalidField, "invalid_field", 400},
    ProblemRow{ProblemCode::InvalidParameter, "invalid_parameter", 400},
    ProblemRow{ProblemCode::UnknownField, "unknown_field", 400},
    ProblemRow{ProblemCode::AmbiguousRender, "ambiguous_render", 400},
    ProblemRow{ProblemCode::InvalidPattern, "invalid_pattern", 400},
    ProblemRow{ProblemCode::InvalidTemplate, "invalid_template", 400},
    ProblemRow{ProblemCode::InvalidVariable, "invalid_variable", 400},
    ProblemRow{ProblemCode::InvalidName, "invalid_name", 400},
    ProblemRow{ProblemCode::InvalidEmail, "invalid_email", 400},
    ProblemRow{ProblemCode::InvalidPassword, "invalid_password", 400},
    ProblemRow{ProblemCode::InvalidPlan, "invalid_plan", 400},
    ProblemRow{ProblemCode::InvalidExpiresAt, "invalid_expires_at", 400},
    ProblemRow{ProblemCode::InvalidExpires, "invalid_expires", 400},
    ProblemRow{ProblemCode::InvalidScopes, "invalid_scopes", 400},
    ProblemRow{ProblemCode::InvalidUrl, "invalid_url", 400},
    ProblemRow{ProblemCode::InvalidFont, "invalid_font", 400},
    ProblemRow{ProblemCode::InvalidImage, "invalid_image", 400},
    ProblemRow{ProblemCode::MissingBody, "missing_body", 400},
    ProblemRow{ProblemCode::UnsupportedMediaType, "unsupported_media_type", 400},
    ProblemRow{ProblemCode::InvalidIdempotencyKey, "invalid_idempotency_key", 400},
    ProblemRow{ProblemCode::IdempotencyKeyReused, "idempotency_key_reused", 400},
    ProblemRow{ProblemCode::MissingToken, "missing_token", 401},
    ProblemRow{ProblemCode::InvalidToken, "invalid_token", 401},
    ProblemRow{ProblemCode::TokenExpired, "token_expired", 401},
    ProblemRow{ProblemCode::NotLoggedIn, "not_logged_in", 401},
    ProblemRow{ProblemCode::InvalidCredentials, "invalid_credentials", 401},
    ProblemRow{ProblemCode::NoMembership, "no_membership", 401},
    ProblemRow{ProblemCode::ExportSizeExceeded, "export_size_exceeded", 402},
    ProblemRow{ProblemCode::AssetQuotaExceeded, "asset_quota_exceeded", 402},
    ProblemRow{ProblemCode::Forbidden, "forbidden", 403},
    ProblemRow{ProblemCode::MissingScope, "missing_scope", 403},
    ProblemRow{ProblemCode::SignatureInvalid, "signature_invalid", 403},
    ProblemRow{ProblemCode::SignatureExpired, "signature_expired", 403},
    ProblemRow{ProblemCode::NotFound, "not_found", 404},
    ProblemRow{ProblemCode::KeyNotFound, "key_not_found", 404},
    ProblemRow{ProblemCode::SigningKeyNotFound, "signing_key_not_found", 404},
    ProblemRow{ProblemCode::TemplateNotFound, "template_not_found", 404},
    ProblemRow{ProblemCode::PageNotFound, "page_not_found", 404},
    ProblemRow{ProblemCode::PageNotPublished, "page_not_published", 404},
    ProblemRow{ProblemCode::TemplateMismatch, "template_mismatch", 404},
    ProblemRow{ProblemCode::SpaceNotFound, "space_not_found", 404},
    ProblemRow{ProblemCode::UserNotFound, "user_not_found", 404},
    ProblemRow{ProblemCode::PatternNotFound, "pattern_not_found", 404},
    ProblemRow{ProblemCode::VariantNotFound, "variant_not_found", 404},
    ProblemRow{ProblemCode::FileNotFound, "file_not_found", 404},
    ProblemRow{ProblemCode::FontNotFound, "font_not_found", 404},
    ProblemRow{ProblemCode::AssetNotFound, "asset_not_found", 404},
    ProblemRow{ProblemCode::WebhookNotFound, "webhook_not_found", 404},
    ProblemRow{ProblemCode::DeliveryNotFound, "delivery_not_found", 404},
    ProblemRow{ProblemCode::JobNotFound, "job_not_found", 404},
    ProblemRow{ProblemCode::TemplateVersionNotFound, "template_version_not_found", 404},
    ProblemRow{ProblemCode::MethodNotAllowed, "method_not_allowed", 405},
    ProblemRow{ProblemCode::RequestTimeout, "request_timeout", 408},
    ProblemRow{ProblemCode::SpaceExists, "space_exists", 409},
    ProblemRow{ProblemCode::TemplateInUse, "template_in_use", 409},
    ProblemRow{ProblemCode::InvalidStoredTemplate, "invalid_stored_template", 409},
    ProblemRow{ProblemCode::IdempotencyKeyInUse, "idempotency_key_in_use", 409},
    ProblemRow{ProblemCode::UrlRefused, "url_refused", 422},
    ProblemRow{ProblemCode::BodyTooLarge, "body_too_large", 413},
    ProblemRow{ProblemCode::BatchTooLarge, "batch_too_large", 413},
    ProblemRow{ProblemCode::RateLimited, "rate_limited", 429},
    ProblemRow{ProblemCode::JobQueueFull, "job_queue_full", 429},
    ProblemRow{ProblemCode::TooManyLoginAttempts, "too_many_login_attempts", 429},
    ProblemRow{ProblemCode::HeadersTooLarge, "headers_too_large", 431},
    ProblemRow{ProblemCode::UnknownSize, "unknown_size", 422},
    ProblemRow{ProblemCode::SizeConflict, "size_conflict", 422},
    ProblemRow{ProblemCode::InternalError, "internal_error", 500},
    ProblemRow{ProblemCode::DatabaseError, "database_error", 500},
    ProblemRow{ProblemCode::RenderFailed, "render_failed", 500},
    ProblemRow{ProblemCode::RenderAbandoned, "render_abandoned", 500},
    ProblemRow{ProblemCode::StoreFailed, "store_failed", 500},
    ProblemRow{ProblemCode::FileUnreadable, "file_unreadable", 500},
    ProblemRow{ProblemCode::SigningKeyStore, "signing_key_store", 500},
    ProblemRow{ProblemCode::QueueFull, "queue_full", 503},
    ProblemRow{ProblemCode::ShuttingDown, "shutting_down", 503},
    ProblemRow{ProblemCode::DatabaseUnavailable, "database_unavailable", 503},
    ProblemRow{ProblemCode::HttpVersionNotSupported, "http_version_not_supported", 505},
};

// The reason phrase of each status the table uses: the `title` of its problems.
struct StatusTitle {
    int status;
    const char *title;
};
constexpr std::array kTitles{
    StatusTitle{400, "Bad Request"},
    StatusTitle{401, "Unauthorized"},
    StatusTitle{402, "Payment Required"},
    StatusTitle{403, "Forbidden"},
    StatusTitle{404, "Not Found"},
    StatusTitle{405, "Method Not Allowed"},
    StatusTitle{408, "Request Timeout"},
    StatusTitle{409, "Conflict"},
    StatusTitle{413, "Payload Too Large"},
    StatusTitle{422, "Unprocessable Content"},
    StatusTitle{429, "Too Many Requests"},
    StatusTitle{431, "Request Header Fields Too Large"},
    StatusTitle{500, "Internal Server Error"},
    StatusTitle{503, "Service Unavailable"},
    StatusTitle{505, "HTTP Version Not Supported"},
};

constexpr bool inEnumOrder()
{
    for (std::size_t i = 0; i < kRows.size(); ++i)
        if (static_cast<std::size_t>(kRows[i].code) != i)
            return false;
    return true;
}
static_assert(inEnumOrder(), "problem_code.cpp: kRows must list every ProblemCode once, in the enum's order");
static_assert(static_cast<std::size_t>(ProblemCode::HttpVersionNotSupported) + 1 == kRows.size(),
              "problem_code.cpp: a ProblemCode has no row");

const ProblemRow &rowOf(ProblemCode code)
{
    return kRows[static_cast<std::size_t>(code)];
}

} // namespace

std::span<const ProblemRow> problemTable()
{
    return kRows;
}

QString problemCodeName(ProblemCode code)
{
    return QString::fromLatin1(rowOf(code).name);
}

int problemStatus(ProblemCode code)
{
    return rowOf(code).status;
}

QString problemTitle(ProblemCode code)
{
    const int status = problemStatus(code);
    for (const StatusTitle &t : kTitles)
        if (t.status == status)
            return QString::fromLatin1(t.title);
    return QStringLiteral("Unknown");
}

std::optional<ProblemCode> parseProblemCode(const QString &name)
{
    for (const ProblemRow &row : kRows)
        if (name == QLatin1String(row.name))
            return row.code;
    return std::nullopt;
}

} // namespace imprint::common
