#pragma once
// The render pipeline's calls in the shape the render suites were written against: the
// result (std::nullopt on failure) with the error copied to `*error`, over the pipeline's
// common::Expected API (server/render/pipeline.h), so the suites' assertions read as
// before. And the request options the suites name by text (a data row's engine name).

#include "server/render/pipeline.h"

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

/// The emoji set a test names; empty: none (the template's).
inline std::optional<render::EmojiSet> emojiOption(const QString &name)
{
    if (name.isEmpty())
        return std::nullopt;
    return render::parseEmojiSet(name);
}

} // namespace imprint::test
