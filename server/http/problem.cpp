#include "server/http/problem.h"

#include "server/common/json_source.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace imprint::http {

HttpResponse fieldProblem(int status, const QString &code, const QString &field, const QString &detail)
{
    HttpResponse r = problem(status, code, detail);
    if (field.isEmpty())
        return r;
    QJsonObject body = QJsonDocument::fromJson(r.body).object();
    body.insert(QStringLiteral("field"), field);
    r.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return r;
}

HttpResponse problem(common::ProblemCode code, const QString &detail)
{
    return problem(common::problemStatus(code), common::problemCodeName(code), detail);
}

HttpResponse fieldProblem(common::ProblemCode code, const QString &field, const QString &detail)
{
    return fieldProblem(common::problemStatus(code), common::problemCodeName(code), field, detail);
}

int statusFor(render::RenderErrorCode code)
{
    using Code = render::RenderErrorCode;
    switch (code) {
    case Code::InvalidTemplate:
    case Code::InvalidVariable:
    case Code::UnknownVariable:
    case Code::ValueTooLong:
    case Code::TooDeep:
    case Code::TooManyNodes:
    case Code::InvalidSize:
    case Code::InvalidEngine:
    case Code::InvalidEmojiType: return 400;
    case Code::RenderBudgetExceeded:
    // A remote image the server would not or could not fetch: the request names it, so
    // the answer is the caller's to fix, never a 5xx (docs/remote-images.md).
    case Code::ImageUnavailable:
    case Code::ImageRefused:
    case Code::ImageTooLarge: return 422;
    case Code::EncodeFailed: return 500;
    case Code::RenderCancelled:
    case Code::EngineBusy:
    case Code::EngineStarting: return 503;
    case Code::EngineUnavailable: return 501;
    }
    return 500;
}

HttpResponse problemFor(const store::ServiceError &error)
{
    // A 5xx says nothing about the caller's input, so only a 4xx names a field.
    HttpResponse r = error.status() < 500 ? fieldProblem(error.code, error.field, error.message)
                                          : problem(error.code, error.message);
    if (error.retryAfterSeconds > 0)
        return r.withHeader("Retry-After", QByteArray::number(error.retryAfterSeconds));
    return r;
}

HttpResponse problemFor(const render::RenderError &error)
{
    const render::RenderErrorCode code = error.code;
    const int status = statusFor(code);
    const QString name = render::renderErrorCodeName(code);
    if (code == render::RenderErrorCode::RenderCancelled)
        return problem(status, name, QStringLiteral("The render was stopped: %1").arg(error.message))
            .withHeader("Retry-After", "1");
    if (code == render::RenderErrorCode::EngineBusy)
        return problem(status, name, QStringLiteral("The engine is busy: %1").arg(error.message))
            .withHeader("Retry-After", "1");
    if (code == render::RenderErrorCode::EngineStarting)
        return problem(status, name, QStringLiteral("The engine is starting: %1").arg(error.message))
            .withHeader("Retry-After", "1");
    if (code == render::RenderErrorCode::EngineUnavailable)
        return problem(status, name, QStringLiteral("The engine is not available: %1").arg(error.message));
    if (status >= 500)
        return problem(status, name, QStringLiteral("Encoding the image failed."));
    const QString field = error.field == QLatin1String("engine") ? QStringLiteral("renderType") : error.field;
    return fieldProblem(status, name, field,
                        field.isEmpty() ? error.message : QStringLiteral("%1: %2").arg(field, error.message));
}

HttpResponse problemFor(const service::RenderUseCaseError &error)
{
    using Kind = service::RenderUseCaseError::Kind;
    switch (error.kind) {
    case Kind::Store: return problemFor(error.store);
    case Kind::TemplateMismatch:
        return fieldProblem(common::ProblemCode::TemplateMismatch, QStringLiteral("templateId"), error.message);
    case Kind::StoredTemplateInvalid:
        return fieldProblem(common::ProblemCode::InvalidStoredTemplate, QStringLiteral("templateId"),
                            QStringLiteral("The stored template no longer parses: %1").arg(error.render.message));
    case Kind::PlanLimit:
        return fieldProblem(common::ProblemCode::ExportSizeExceeded, error.field,
                            QStringLiteral("%1 %2 px exceeds the %3 plan's maximum export size of %4×%5 px. "
                                           "The server's operator can change a space's plan with "
                                           "`imprint space set-plan SPACE PLAN`.")
                                .arg(error.field)
                                .arg(error.value)
                                .arg(error.plan)
                                .arg(error.limits.maxWidth)
                                .arg(error.limits.maxHeight));
    case Kind::Render: return problemFor(error.render);
    case Kind::StoreFailed: return problem(common::ProblemCode::StoreFailed, error.message);
    case Kind::PatternNotFound:
        return fieldProblem(common::ProblemCode::PatternNotFound, QStringLiteral("pattern"), error.message);
    case Kind::VariantNotFound:
        return fieldProblem(common::ProblemCode::VariantNotFound, QStringLiteral("pattern"), error.message);
    case Kind::PatternFailed: return problem(common::ProblemCode::RenderFailed, error.message);
    }
    return problem(common::ProblemCode::InternalError, QStringLiteral("The render failed."));
}

namespace {

HttpResponse withPosition(HttpResponse r, const common::SourcePosition &at)
{
    QJsonObject body = QJsonDocument::fromJson(r.body).object();
    body.insert(QStringLiteral("line"), at.line);
    body.insert(QStringLiteral("column"), at.column);
    r.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return r;
}

} // namespace

HttpResponse withSourcePosition(HttpResponse response, const TemplateSource &source)
{
    if (response.status != 400 || source.text.isEmpty())
        return response;
    const QJsonObject body = QJsonDocument::fromJson(response.body).object();
    const QString field = body.value(QStringLiteral("field")).toString();
    if (body.value(QStringLiteral("code")).toString() != QLatin1String("invalid_template")
        || body.contains(QStringLiteral("line"))
        || !(field.startsWith(source.fieldPrefix) || field + u'.' == source.fieldPrefix))
        return response;
    QString path = source.pathPrefix + field.mid(source.fieldPrefix.size());
    if (path.endsWith(u'.'))
        path.chop(1); // the field is the document itself
    const auto offset = common::locateJsonPath(source.text, path);
    if (!offset)
        return response;
    return withPosition(std::move(response), common::sourcePosition(source.text, *offset));
}

HttpResponse syntaxProblem(const QString &field, const QString &what, const QByteArray &text, qsizetype offset)
{
    const common::SourcePosition at = common::sourcePosition(text, offset);
    const QString detail = QStringLiteral("The template is not valid JSON at line %1, column %2: %3.")
                               .arg(at.line)
                               .arg(at.column)
                               .arg(what);
    return withPosition(fieldProblem(common::ProblemCode::InvalidTemplate, field, detail), at);
}

} // namespace imprint::http
