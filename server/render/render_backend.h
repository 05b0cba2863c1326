#pragma once
// The pipeline's one seam between layout and bytes: a backend per engine (satori: a
// standalone SVG document; takumi: QPainter on an image; html: headless Chromium or Qt's
// rich text) that paints a laid-out document and encodes it in the request's format.
// render::render() (pipeline.cpp) picks one with backendFor() and calls it; adding an
// engine is one class in render_backends.cpp and one row in render_enums.h.

#include "server/common/expected.h"
#include "server/render/pipeline.h"

#include <QElapsedTimer>

#include <optional>

namespace imprint::render {

/// Paints and encodes one engine's renders. Stateless and thread-safe: one instance per
/// engine serves every render.
class RenderBackend
{
public:
    virtual ~RenderBackend() = default;

    /// Why this backend cannot draw `request` at all (a format or a scale it has not), checked
    /// before anything is painted: code `invalid_engine`. nullopt when it can.
    virtual std::optional<RenderError> refuse(const RenderRequest &request) const = 0;

    /// Paints `doc` (laid out for `request`) with `context`'s resources and encodes it as
    /// request.options.format into `result`: its bytes, warnings, and the paint and encode
    /// timings (the parse and layout ones are the pipeline's; a backend that lays out
    /// again, as Chromium does, adds to them). The error when it cannot: cancelled, over
    /// budget, the encoder's, the browser's.
    virtual common::Expected<common::Done, RenderError> draw(const LaidOutDocument &doc, const RenderRequest &request,
                                                             RenderContext &context, RenderResult &result) const
        = 0;
};

/// The backend that paints `engine` with `context`: for the html engine, Chromium when the
/// context has a browser, else Qt's rich text.
const RenderBackend &backendFor(Engine engine, RenderContext &context);

// ---- helpers shared by the pipeline's stages and the backends (pipeline.cpp)

/// A RenderError of `code` on `field`.
RenderError renderError(const QString &field, const QString &message, RenderErrorCode code);

/// The error of a render stopped by `cancellation`, or nullopt while it may go on: past
/// the deadline it is over budget (the deadline is a render limit like the others),
/// otherwise cancelled.
std::optional<RenderError> cancelledError(const RenderCancellation &cancellation);

/// The ms since `timer` last started, restarting it (one stage's wall time).
double lapMs(QElapsedTimer &timer);

/// The PNG tier of `request`: its own, else its template's, else Default.
PngCompression pngCompressionOf(const RenderRequest &request, const Template &tmpl);

} // namespace imprint::render
