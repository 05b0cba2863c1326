#pragma once
// Errors of the layers below as RFC 9457 problem+json responses: the one place that
// decides which error code gets which HTTP status. Bad input is always a 4xx naming the
// offending field; only faults of ours (database, encoder) are 5xx.

#include "server/http/message.h"
#include "server/render/error.h"
#include "server/service/page_render_service.h"
#include "server/store/errors.h"

namespace imprint::http {

/// problem() with an extra `field` member naming the offending input (left out when
/// `field` is empty).
HttpResponse fieldProblem(int status, const QString &code, const QString &field, const QString &detail);

/// problem() for a code of the problem table (server/common/problem_code.h): its status
/// and wire name, `detail` as given.
HttpResponse problem(common::ProblemCode code, const QString &detail);

/// fieldProblem() for a code of the problem table: its status and wire name.
HttpResponse fieldProblem(common::ProblemCode code, const QString &field, const QString &detail);

/// The status of a render error code: 422 for render_budget_exceeded (the input is valid
/// but too costly to render, or took longer than the render deadline), 500 for
/// encode_failed (ours), 503 for render_cancelled (the server is stopping; retry) and
/// engine_busy (the html engine's queue is full; retry) and engine_starting (its browser
/// is starting; retry), 501 for engine_unavailable
/// (Chromium is not installed), 400 for every other code.
int statusFor(render::RenderErrorCode code);

/// The problem+json form of a service error, status and wire name from its code's row of
/// the problem table; `message` passes through, a
/// 4xx's `field` becomes the problem's `field` member, and
/// a retryAfterSeconds above 0 becomes a Retry-After header.
HttpResponse problemFor(const store::ServiceError &error);

/// The problem+json form of a render error, status from statusFor(). The detail is
/// "FIELD: message" and `field` names the input; the engine's field "engine" is reported
/// as the request's "renderType". encode_failed hides the message (it is about us).
HttpResponse problemFor(const render::RenderError &error);

/// The problem+json form of a page- or pattern-render error: Store as problemFor(ServiceError),
/// TemplateMismatch 404 `template_mismatch` (field templateId), StoredTemplateInvalid 409
/// `invalid_stored_template`, PlanLimit 402 `export_size_exceeded` (field width/height),
/// Render as problemFor(RenderError), StoreFailed 500 `store_failed`, PatternNotFound and
/// VariantNotFound 404 (field pattern), PatternFailed 500 `render_failed`.
HttpResponse problemFor(const service::RenderUseCaseError &error);

/// Where a request's template document is written, so that an `invalid_template` problem
/// about it can name the line and column besides its `field` (docs/api.md, "Responses and
/// errors"). `text` is the JSON source (the request body, or the text of a `template`
/// string); a problem field `fieldPrefix` + P is the member at `pathPrefix` + P of it.
struct TemplateSource {
    QByteArray text;
    QString fieldPrefix;
    QString pathPrefix;
};

/// `response` with `line` and `column` (1-based, common::locateJsonPath()) added when it
/// is a 400 `invalid_template` whose `field` can be found in `source`; unchanged
/// otherwise (another problem, a field outside the document, a source that is not JSON).
HttpResponse withSourcePosition(HttpResponse response, const TemplateSource &source);

/// 400 `invalid_template` naming `field`, with `line` and `column` members: a template's
/// JSON syntax error `what` (QJsonParseError::errorString()) at UTF-8 byte `offset` of
/// `text` (QJsonParseError::offset); the detail says the line and column too.
HttpResponse syntaxProblem(const QString &field, const QString &what, const QByteArray &text, qsizetype offset);

} // namespace imprint::http
