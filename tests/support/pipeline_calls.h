#pragma once
// The render pipeline's calls in the shape the render suites were written against: the
// result (std::nullopt on failure) with the error copied to `*error`, over the pipeline's
// common::Expected API (server/render/pipeline.h), so the suites' assertions read as
// before. And the request options the suites name by text (a data row's engine name).

#include "server/render/pipeline.h"

#include <QFile>
#include <QJsonDocument>

#include <optional>

namespace imprint::render {

/// render() with its error in `*error` (may be null).
inline std::optional<RenderResult> render(const RenderRequest &request, RenderContext &context, RenderError *error)
{
    auto result = render(request, context);
    if (!result) {
        if (error)
            *error = result.error();
        return std::nullopt;
    }
    return std::move(*result);
}

/// layOut() with its error in `*error` (may be null).
inline std::optional<LaidOutDocument> layOut(const RenderRequest &request, RenderContext &context, RenderError *error,
                                             RenderTimings *timings = nullptr)
{
    auto doc = layOut(request, context, timings);
    if (!doc) {
        if (error)
            *error = doc.error();
        return std::nullopt;
    }
    return std::optional<LaidOutDocument>(std::move(doc).value());
}

} // namespace imprint::render

namespace imprint::test {

/// The engine a test names (any case); empty: none (the template's).
inline std::optional<render::Engine> engineOption(const QString &name)
{
    if (name.isEmpty())
        return std::nullopt;
    return render::parseEngine(name.toLower());
}

/// Renders the template document in the file at `path` (a JSON object) with the engine
/// `engine` names, through `context`; nullopt with `*error` set when the file cannot be
/// read or the render fails.
inline std::optional<render::RenderResult> renderTemplateFile(const QString &path, const QString &engine,
                                                              render::RenderContext &context, render::RenderError *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        error->message = QStringLiteral("cannot read %1").arg(path);
        return std::nullopt;
    }
    render::RenderRequest request;
    request.document = QJsonDocument::fromJson(file.readAll()).object();
    request.options.engine = engineOption(engine);
    return render::render(request, context, error);
}

/// The emoji set a test names; empty: none (the template's).
inline std::optional<render::EmojiSet> emojiOption(const QString &name)
{
    if (name.isEmpty())
        return std::nullopt;
    return render::parseEmojiSet(name);
}

} // namespace imprint::test
