#pragma once
// The render pipeline (docs/architecture.md): template document → parse → variables → styled
// tree → layout → paint → encode. Thread-safe: concurrent render() calls share only the
// render context they are given (render_context.h), which is thread-safe.

#include "server/render/cancellation.h"
#include "server/render/document/template.h"
#include "server/render/encode/encode.h"
#include "server/render/layout/layout.h"
#include "server/render/render_budget.h"
#include "server/render/render_context.h"
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

/// Output encodings. Pdf: only the html engine drawn by Chromium (Page.printToPDF).
enum class OutputFormat : quint8 { Png, Webp, Svg, Jpeg, Avif, Pdf };

/// Parses "png" / "webp" / "svg" / "jpeg" / "avif" / "pdf" (case-insensitive); nullopt otherwise.
std::optional<OutputFormat> parseOutputFormat(const QString &name);
/// "image/png", "image/webp", "image/svg+xml", "image/jpeg", "image/avif", "application/pdf".
QString contentTypeFor(OutputFormat format);
/// The stored file's extension of `format`: "png", "webp", "svg", "jpeg", "avif", "pdf".
QString outputFormatName(OutputFormat format);

/// The device scale factors a render may ask for (RenderRequest::scale).
constexpr double kMinRenderScale = 1;
constexpr double kMaxRenderScale = 3;

/// `image` encoded as `format` (encode.h): `quality` for WebP, JPEG and AVIF,
/// `lossless` for WebP, `speed` for AVIF, `compression` for PNG. SVG is not a raster
/// format: PNG is written. Empty on failure, with `*error` set if given.
QByteArray encodeImage(const QImage &image, OutputFormat format, int quality, bool lossless, int speed,
                       QString *error = nullptr, PngCompression compression = PngCompression::Default);

/// What to render.
struct RenderRequest {
    QJsonObject document; ///< template document or bare element tree (when `parsed` is null)
    std::shared_ptr<const Template> parsed; ///< an already parsed template (skips parsing)
    QJsonObject pageValues; ///< the page's variable values, name → value
    QJsonObject tweaks; ///< per-request overrides, name → value
    /// The engine's wire name, any case (render::parseEngine()). Empty: the template's
    /// `rendererType` when the document names one, else kDefaultEngine.
    QString engine;
    /// Emoji set: "twemoji", "openmoji" or "noto"; empty = the template's `emojiType`
    /// (default twemoji). Anything else is an error with code `invalid_emoji_type`.
    QString emojiType;
    OutputFormat format = OutputFormat::Png;
    int width = 0, height = 0; ///< px, 0 = the template's size
    /// Device scale factor (kMinRenderScale–kMaxRenderScale): the image is width × scale
    /// by height × scale px, the layout the same as at 1. The html engine (Chromium) and
    /// takumi honour it; satori and Qt's rich text refuse anything but 1 (invalid_engine,
    /// field `scale`).
    double scale = 1;
    int quality = 90; ///< WebP, JPEG and AVIF quality 1–100
    bool lossless = false; ///< WebP lossless
    int speed = kDefaultAvifSpeed; ///< AVIF encoder speed 0–10
    /// PNG size/speed tier; nullopt = the template's `compression`, else Default.
    std::optional<PngCompression> pngCompression;
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
    QString emojiType; ///< the resolved emoji set (twemoji, openmoji, noto)
    QHash<QString, QString> values; ///< the resolved variable values (the html engine's {{name}})
    QStringList warnings;
};

/// Runs parse, variables, tree building and layout for `request` with the text engine
/// and image cache of `context`. On failure returns nullopt and fills `error` (field,
/// message, code: the template's own codes, plus `invalid_engine`, `invalid_emoji_type`,
/// `invalid_size`, `render_budget_exceeded`, `render_cancelled`).
std::optional<LaidOutDocument> layOut(const RenderRequest &request, RenderContext &context, RenderError *error,
                                      RenderTimings *timings = nullptr);

/// Renders `request` to encoded bytes with the resources of `context`. On failure
/// returns nullopt and fills `error` (as layOut(), plus code `encode_failed`).
std::optional<RenderResult> render(const RenderRequest &request, RenderContext &context, RenderError *error);

/// An image source of a document: the URL as an `img` names it after variable
/// substitution, and where (the template path of its `src`).
struct ImageSource {
    QString url;
    QString field;
};

/// The `img` sources `request` would load, in document order, found by building its
/// tree without loading any image (so a caller can fetch remote ones before render()
/// and hand them over through RenderRequest::imageLoader). nullopt with `error` when the
/// template or its variables are invalid (the errors render() would report).
std::optional<QList<ImageSource>> imageSources(const RenderRequest &request, RenderError *error);

/// The most bytes of decoded images `request` may hold (imageByteLimit() for its canvas,
/// as the pipeline budgets them): for work done before the pipeline, such as decoding its
/// remote images. 0 when its template does not parse.
qint64 requestImageByteLimit(const RenderRequest &request);

/// The box tree as JSON, one object per element in document order with the fields of
/// the fixtures' layout.json: `id` (child-index path), `tag`, `x`, `y`, `w`, `h`
/// (border box, px, rounded to 1/100 px). Text runs are left out.
QJsonArray layoutToJson(const LayoutBox &root);

} // namespace imprint::render
