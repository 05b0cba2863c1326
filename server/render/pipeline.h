#pragma once
// The render pipeline (docs/architecture.md): template document → parse → variables → styled
// tree → layout → paint → encode. Thread-safe: concurrent render() calls share only the
// render context they are given (render_context.h), which is thread-safe.

#include "server/common/expected.h"
#include "server/render/cancellation.h"
#include "server/render/document/template.h"
#include "server/render/encode/encode.h"
#include "server/render/layout/layout.h"
#include "server/render/render_budget.h"
#include "server/render/render_context.h"
#include "server/render/render_options.h"
#include "server/render/text/font_set.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace imprint::render {

/// The format named `name` in kOutputFormats (server/common/render_enums.h; any case,
/// trimmed, "jpg" for jpeg); nullopt otherwise.
std::optional<OutputFormat> parseOutputFormat(const QString &name);
/// The Content-Type of `format` (kOutputFormats: "image/png", ...).
QString contentTypeFor(OutputFormat format);
/// The wire name of `format`, also its stored file's extension (kOutputFormats: "png", ...).
QString outputFormatName(OutputFormat format);

/// `image` encoded as `format` (encode.h): `quality` for WebP, JPEG and AVIF,
/// `lossless` for WebP, `speed` for AVIF, `compression` for PNG. SVG and PDF are not
/// raster formats: PNG is written. The encoder's message on failure.
common::Expected<QByteArray, QString> encodeImage(const QImage &image, OutputFormat format, int quality, bool lossless,
                                                  int speed, PngCompression compression = PngCompression::Default);

/// What to render.
struct RenderRequest {
    QJsonObject document; ///< template document or bare element tree (when `parsed` is null)
    std::shared_ptr<const Template> parsed; ///< an already parsed template (skips parsing)
    QJsonObject pageValues; ///< the page's variable values, name → value
    /// How to render it: engine, format, size, scale, encoder settings, emoji set,
    /// tweaks, parsed once by the transport that received the request.
    RenderOptions options;
    /// Loads `img` sources; empty: the render context's ImageCache.
    ImageLoader imageLoader;
    /// The space's uploaded fonts (font_set.h): `fontFamily` names them before the
    /// server's fonts. Null: none. Families of the internal form are dropped either way.
    std::shared_ptr<const FontSet> fonts;
    TemplateLimits limits;
    RenderBudget budget;
    /// The largest image this request may make, px (a plan's export limit): a template
    /// that leaves its size out gets an image as big as its content, up to this.
    QSize maxSize{8192, 8192};
    /// Polled between stages and display-list commands; a render past its deadline fails
    /// with render_budget_exceeded (field `deadline`), one cancelled otherwise with
    /// render_cancelled. Default: never cancels.
    RenderCancellation cancellation;
    /// Who the render is for (the space's id): engines with a bounded pool (the html
    /// engine's browser) share it fairly between tenants. Empty: one shared tenant.
    QString tenant;
};

/// Wall-clock time of each stage in ms.
struct RenderTimings {
    double parse = 0; ///< template parsing, variables, styled tree
    double layout = 0;
    double paint = 0;
    double encode = 0;
    /// The engine's own steps, in order, each with its ms (part of layout and paint): the
    /// html engine on Chromium reports queue (waiting for a pool slot), page (its context
    /// and page), load (the document, its resources and fonts) and capture (the
    /// screenshot or print). Empty for the other engines.
    QList<QPair<QString, double>> steps;
    double total() const { return parse + layout + paint + encode; }
};

/// The encoded image.
struct RenderResult {
    QByteArray bytes;
    QString contentType;
    QSize size; ///< px (× the request's scale); a PDF's page size in CSS px
    RenderTimings timings;
    QStringList warnings; ///< unsupported CSS, unloadable images, ...
};

/// A template turned into a laid-out tree (the stages before paint), for the layout
/// command and the tests. `layout` points into `root`, which this object owns.
struct LaidOutDocument {
    std::shared_ptr<const Template> tmpl;
    std::unique_ptr<Node> root;
    LayoutBox layout;
    QSize size; ///< px
    Engine engine = kDefaultEngine; ///< the engine that will paint it
    EmojiSet emojiSet = EmojiSet::Twemoji; ///< the resolved emoji set
    QHash<QString, QString> values; ///< the resolved variable values (the html engine's {{name}})
    QStringList warnings;
};

/// Runs parse, variables, tree building and layout for `request` with the text engine
/// and image cache of `context`. The error's code: the template's own codes, plus
/// `invalid_size`, `render_budget_exceeded`, `render_cancelled`.
common::Expected<LaidOutDocument, RenderError> layOut(const RenderRequest &request, RenderContext &context,
                                                      RenderTimings *timings = nullptr);

/// Renders `request` to encoded bytes with the resources of `context`: checks the scale,
/// lays the document out (layOut()), picks the engine's backend (render_backend.h), which
/// paints and encodes. Errors as layOut(), plus `invalid_engine` (a format or scale the
/// engine cannot draw), `encode_failed`, and the html engine's browser's
/// (`engine_unavailable`, `engine_busy`, image errors).
common::Expected<RenderResult, RenderError> render(const RenderRequest &request, RenderContext &context);

/// An image source of a document: the URL as an `img` names it after variable
/// substitution, and where (the template path of its `src`).
struct ImageSource {
    QString url;
    QString field;
};

/// The `img` sources `request` would load, in document order, found by building its
/// tree without loading any image (so a caller can fetch remote ones before render()
/// and hand them over through RenderRequest::imageLoader). The error when the template or
/// its variables are invalid (the errors render() would report).
common::Expected<QList<ImageSource>, RenderError> imageSources(const RenderRequest &request);

/// The most bytes of decoded images `request` may hold (imageByteLimit() for its canvas,
/// as the pipeline budgets them): for work done before the pipeline, such as decoding its
/// remote images. 0 when its template does not parse.
qint64 requestImageByteLimit(const RenderRequest &request);

/// The box tree as JSON, one object per element in document order with the fields of
/// the fixtures' layout.json: `id` (child-index path), `tag`, `x`, `y`, `w`, `h`
/// (border box, px, rounded to 1/100 px). Text runs are left out.
QJsonArray layoutToJson(const LayoutBox &root);

} // namespace imprint::render
