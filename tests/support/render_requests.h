#pragma once
// What the render suites share to build a request and read a pipeline result: the request
// options a data row names by text, a template file rendered, and the error of a result
// for an assertion's message. The suites call the pipeline (server/render/pipeline.h) and
// assert on its common::Expected directly.

#include "server/render/pipeline.h"
#include "tests/support/fixtures.h"
#include "tests/support/render_context.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>

#include <optional>

namespace imprint::test {

/// What render() returns: the encoded image or the reason it was refused.
using RenderOutcome = common::Expected<render::RenderResult, render::RenderError>;

/// The engine a test names (any case); empty: none (the template's).
inline std::optional<render::Engine> engineOption(const QString &name)
{
    if (name.isEmpty())
        return std::nullopt;
    return render::parseEngine(name.toLower());
}

/// The `engine` column of a data-driven test: one row per engine that lays out itself
/// (takumi and satori; html is Chromium's).
inline void addRasterEngineRows()
{
    QTest::addColumn<QString>("engine");
    QTest::newRow("takumi") << "takumi";
    QTest::newRow("satori") << "satori";
}

/// The emoji set a test names; empty: none (the template's).
inline std::optional<render::EmojiSet> emojiOption(const QString &name)
{
    if (name.isEmpty())
        return std::nullopt;
    return render::parseEmojiSet(name);
}

/// A render of golden `name` (fixtures.h, fixtureTemplate()) with the engine `engine`
/// names; its document is empty when there is no such fixture.
inline render::RenderRequest goldenRequest(const QString &name, const QString &engine)
{
    render::RenderRequest request;
    request.document = render::test::fixtureTemplate(name);
    request.options.engine = engineOption(engine);
    return request;
}

/// The error of a pipeline result, or an empty RenderError when it succeeded: for
/// QVERIFY2's message, which QtTest evaluates whether the check passes or not.
template<typename T>
render::RenderError failureOf(const common::Expected<T, render::RenderError> &result)
{
    return result.error_or(render::RenderError{});
}

/// failureOf() as "field: message", the form the render suites print a failure in.
template<typename T>
QString failureText(const common::Expected<T, render::RenderError> &result)
{
    const render::RenderError error = failureOf(result);
    return error.field + QStringLiteral(": ") + error.message;
}

/// Renders the template document in the file at `path` (a JSON object) with the engine
/// `engine` names, through `context`; the render's error, or `invalid_template` when the
/// file cannot be read.
inline RenderOutcome renderTemplateFile(const QString &path, const QString &engine, render::RenderContext &context)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return render::RenderError{{}, QStringLiteral("cannot read %1").arg(path)};
    render::RenderRequest request;
    request.document = QJsonDocument::fromJson(file.readAll()).object();
    request.options.engine = engineOption(engine);
    return render::render(request, context);
}

/// Renders the template file at `path`, relative to the source tree (IMPRINT_SOURCE_DIR),
/// with the engine `engine` names through the suites' shared render context.
inline RenderOutcome renderSourceTemplate(const QString &path, const QString &engine)
{
    return renderTemplateFile(QStringLiteral(IMPRINT_SOURCE_DIR "/") + path, engine, renderContext());
}

} // namespace imprint::test
