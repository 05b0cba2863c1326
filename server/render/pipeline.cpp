#include "server/render/pipeline.h"

#include "server/render/render_backend.h"
#include "server/render/resources/emoji.h"
#include "server/render/resources/svg_sandbox.h"
#include "server/render/text/feature_faces.h"
#include "server/render/text/glyph_rendering.h"
#include "server/render/text/text_engine.h"

#include <QElapsedTimer>
#include <QJsonArray>

#include <cmath>

namespace imprint::render {

namespace {

constexpr int kMaxSide = 8192; // px; a bigger canvas is a mistake or an attack

/// The canvas a render's decoded images are budgeted against: its size, a content-sized
/// side at its largest (request.maxSize, at most kMaxSide).
QSize imageBudgetCanvas(const RenderRequest &request, int width, int height)
{
    return QSize(width > 0 ? width : std::min(request.maxSize.width(), kMaxSide),
                 height > 0 ? height : std::min(request.maxSize.height(), kMaxSide));
}

/// The scale decoded images are budgeted at: the request's when valid (render() refuses
/// it otherwise), else 1.
double budgetScale(const RenderOptions &options)
{
    return options.scale >= kMinRenderScale && options.scale <= kMaxRenderScale ? options.scale : 1;
}

/// Keeps a render's warnings readable and bounded: duplicates dropped, each one cut to
/// 240 characters (a warning may quote a value, and values can be megabyte data: URLs),
/// at most 50, then one line saying how many more there were.
void tidyWarnings(QStringList &warnings)
{
    constexpr int kMaxWarnings = 50;
    constexpr qsizetype kMaxLength = 240;
    warnings.removeDuplicates();
    const qsizetype total = warnings.size();
    if (total > kMaxWarnings)
        warnings.resize(kMaxWarnings);
    for (QString &w : warnings) {
        if (w.size() > kMaxLength)
            w = w.left(kMaxLength - 1) + QChar(0x2026);
    }
    if (total > kMaxWarnings)
        warnings << QStringLiteral("… and %1 more warnings").arg(total - kMaxWarnings);
}

void appendBoxes(const LayoutBox &box, QJsonArray &out)
{
    if (!box.node || box.node->isText())
        return;
    auto round2 = [](qreal v) { return std::round(v * 100) / 100; };
    QJsonObject o;
    o.insert(QStringLiteral("id"), box.node->id);
    o.insert(QStringLiteral("tag"), box.node->tag);
    o.insert(QStringLiteral("x"), round2(box.borderBox.x()));
    o.insert(QStringLiteral("y"), round2(box.borderBox.y()));
    o.insert(QStringLiteral("w"), round2(box.borderBox.width()));
    o.insert(QStringLiteral("h"), round2(box.borderBox.height()));
    out.append(o);
    for (const LayoutBox &c : box.children)
        appendBoxes(c, out);
}

void collectImageSources(const Node &node, QList<ImageSource> *out)
{
    if (node.isImage() && !node.src.isEmpty())
        out->append(ImageSource{node.src, node.srcField});
    // url() images of backgrounds and masks load as img sources do (paint's imageLoader).
    for (const auto &[layers, field] : {std::pair{&node.style.backgroundLayers, QStringLiteral("backgroundImage")},
                                        std::pair{&node.style.effects.maskImage, QStringLiteral("maskImage")}})
        for (const BackgroundLayer &layer : *layers)
            if (!layer.gradient && !layer.imageUrl.isEmpty())
                out->append(ImageSource{layer.imageUrl, field});
    for (const auto &child : node.children)
        collectImageSources(*child, out);
}

/// The request's template: the one it carries parsed, else its document parsed.
common::Expected<std::shared_ptr<const Template>, RenderError> templateOf(const RenderRequest &request)
{
    if (request.parsed)
        return request.parsed;
    auto parsed = parseTemplate(request.document, request.limits);
    if (!parsed)
        return parsed.error();
    return std::shared_ptr<const Template>(std::make_shared<const Template>(std::move(*parsed)));
}

} // namespace

RenderError renderError(const QString &field, const QString &message, RenderErrorCode code)
{
    RenderError e;
    e.field = field;
    e.message = message;
    e.code = code;
    return e;
}

std::optional<RenderError> cancelledError(const RenderCancellation &cancellation)
{
    const auto reason = cancellation.reason();
    if (!reason)
        return std::nullopt;
    switch (*reason) {
    case RenderCancellation::Reason::Deadline:
        return renderError(
            QStringLiteral("deadline"),
            QStringLiteral("the render took longer than its deadline of %1 ms").arg(cancellation.deadlineMs()),
            RenderErrorCode::RenderBudgetExceeded);
    case RenderCancellation::Reason::ShuttingDown:
        return renderError({}, QStringLiteral("the server is shutting down"), RenderErrorCode::RenderCancelled);
    case RenderCancellation::Reason::ClientGone: break;
    }
    return renderError({}, QStringLiteral("nobody waits for the result"), RenderErrorCode::RenderCancelled);
}

double lapMs(QElapsedTimer &timer)
{
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    return ms;
}

PngCompression pngCompressionOf(const RenderRequest &request, const Template &tmpl)
{
    return request.options.compression.value_or(tmpl.pngCompression.value_or(PngCompression::Default));
}

common::Expected<Engine, RenderError> parseEngineOption(const QString &name)
{
    const QString text = name.trimmed().toLower();
    if (const auto engine = parseEngine(text))
        return *engine;
    return renderError(QStringLiteral("engine"),
                       QStringLiteral("unknown engine '%1' (%2)").arg(text, engineNames().join(QStringLiteral(", "))),
                       RenderErrorCode::InvalidEngine);
}

common::Expected<EmojiSet, RenderError> parseEmojiSetOption(const QString &name)
{
    if (const auto set = kEmojiSetNames.parseAnyCase(name))
        return *set;
    return renderError(QStringLiteral("emojiType"),
                       QStringLiteral("unknown emojiType '%1' (%2)").arg(name, kEmojiSetNames.orList()),
                       RenderErrorCode::InvalidEmojiType);
}

common::Expected<QByteArray, QString> encodeImage(const QImage &image, OutputFormat format, int quality, bool lossless,
                                                  int speed, PngCompression compression)
{
    switch (format) {
    case OutputFormat::Webp: return encodeWebp(image, quality, lossless);
    case OutputFormat::Jpeg: return encodeJpeg(image, quality);
    case OutputFormat::Avif: return encodeAvif(image, quality, speed);
    case OutputFormat::Png:
    case OutputFormat::Svg:
    case OutputFormat::Pdf: break;
    }
    PngOptions png;
    png.compression = compression;
    return encodePng(image, png);
}

std::optional<OutputFormat> parseOutputFormat(const QString &name)
{
    const QString n = name.trimmed().toLower();
    return kOutputFormatNames.parse(n == QLatin1String("jpg") ? QStringLiteral("jpeg") : n);
}

QString contentTypeFor(OutputFormat format)
{
    return QString::fromLatin1(outputFormatInfo(format).contentType);
}

QString outputFormatName(OutputFormat format)
{
    return QString::fromLatin1(outputFormatInfo(format).name);
}

qint64 requestImageByteLimit(const RenderRequest &request)
{
    const auto tmpl = templateOf(request);
    if (!tmpl)
        return 0;
    const RenderOptions &o = request.options;
    const int width = o.width > 0 ? o.width : (*tmpl)->width;
    const int height = o.height > 0 ? o.height : (*tmpl)->height;
    return imageByteLimit(imageBudgetCanvas(request, width, height), budgetScale(o), request.budget);
}

common::Expected<QList<ImageSource>, RenderError> imageSources(const RenderRequest &request)
{
    const auto parsed = templateOf(request);
    if (!parsed)
        return parsed.error();
    const Template &tmpl = **parsed;
    if (!tmpl.root.isObject() && tmpl.markup.isEmpty())
        return QList<ImageSource>(); // html only: its engine loads no URL
    const auto values = resolveVariables(tmpl, request.pageValues, request.options.tweaks, request.limits);
    if (!values)
        return values.error();
    QStringList ignored;
    const ImageLoader none = [](const QString &) { return ImageResult(QStringLiteral("not loaded")); };
    const auto root = buildDocument(tmpl, *values, &ignored, none, request.limits);
    if (!root)
        return root.error();
    QList<ImageSource> out;
    collectImageSources(**root, &out);
    return out;
}

namespace {

// ---- layOut()'s stages, in order

/// The engine and emoji set of `doc`: the request's, else the template's, else the default.
void chooseEngine(const RenderRequest &request, LaidOutDocument &doc)
{
    doc.engine = request.options.engine.value_or(doc.tmpl->engine.value_or(kDefaultEngine));
    doc.emojiSet = request.options.emojiSet.value_or(doc.tmpl->emojiSet);
}

/// Whether `doc` is drawn from the template's `html` alone (no tree to lay out).
bool isHtmlOnly(const LaidOutDocument &doc)
{
    const Template &tmpl = *doc.tmpl;
    return doc.engine == Engine::Html && !tmpl.html.isEmpty() && !tmpl.root.isObject() && tmpl.markup.isEmpty();
}

/// The image size: the request's, else the template's; a side of 0 is sized by content.
common::Expected<QSize, RenderError> chooseSize(const RenderRequest &request, const LaidOutDocument &doc)
{
    const RenderOptions &o = request.options;
    const int width = o.width > 0 ? o.width : doc.tmpl->width;
    const int height = o.height > 0 ? o.height : doc.tmpl->height;
    if ((width == 0 || height == 0) && isHtmlOnly(doc))
        return renderError(QStringLiteral("width"), QStringLiteral("an html template needs its width and height"),
                           RenderErrorCode::InvalidSize);
    if (o.width < 0 || o.height < 0 || width < 0 || height < 0 || width > kMaxSide || height > kMaxSide) {
        const bool widthBad = o.width < 0 || width < 0 || width > kMaxSide;
        return renderError(widthBad ? QStringLiteral("width") : QStringLiteral("height"),
                           QStringLiteral("image size %1×%2 px is outside 1–%3 px").arg(width).arg(height).arg(kMaxSide),
                           RenderErrorCode::InvalidSize);
    }
    return QSize(width, height);
}

/// The styled tree of `doc` with its images decoded, each counted against the render
/// budget as it loads (a content-sized side against its largest size), and the space's
/// fonts applied.
common::Expected<common::Done, RenderError> buildTree(const RenderRequest &request, RenderContext &context,
                                                      LaidOutDocument &doc)
{
    const ImageLoader contextLoader = [&context](const QString &url) { return context.images().load(url); };
    const ImageLoader &loader = request.imageLoader ? request.imageLoader : contextLoader;
    const double scale = budgetScale(request.options);
    const QSize imageCanvas = imageBudgetCanvas(request, doc.size.width(), doc.size.height());
    RenderImageBudget images(imageByteLimit(imageCanvas, scale, request.budget), imageCanvas, scale);
    auto root = buildDocument(
        *doc.tmpl, doc.values, &doc.warnings, [&](const QString &url) { return images.load(url, loader); },
        request.limits, QSizeF(std::max(doc.size.width(), 0), std::max(doc.size.height(), 0)));
    if (!root)
        return root.error();
    doc.root = std::move(*root);
    // Background and mask images are decoded by the painter: data: URLs through the
    // context's cache, others through the request's loader (PaintResources::imageLoader).
    if (auto over = checkImageBudget(*doc.root, images, loader))
        return *over;
    applyFontSet(*doc.root, request.fonts ? *request.fonts : FontSet{}, &doc.warnings);
    warnMissingFeatures(*doc.root, request.fonts ? *request.fonts : FontSet{}, &doc.warnings);
    return common::Done{};
}

/// Lays out `doc`'s tree (sizing a content-sized side first) and checks the effect and
/// layer budgets of the result.
common::Expected<common::Done, RenderError> layOutTree(const RenderRequest &request, RenderContext &context,
                                                       LaidOutDocument &doc, RenderTimings *timings,
                                                       QElapsedTimer &timer)
{
    const int width = doc.size.width(), height = doc.size.height();
    const bool contentSized = width == 0 || height == 0;
    if (contentSized) {
        const QSize max(std::min(request.maxSize.width(), kMaxSide), std::min(request.maxSize.height(), kMaxSide));
        doc.size = contentSizedViewport(*doc.root, QSizeF(max), width, height, context.text());
    }
    doc.layout = layoutDocument(*doc.root, QSizeF(doc.size), context.text(), contentSized && height <= 0);
    if (timings)
        timings->layout = lapMs(timer);
    if (auto over = checkEffectBudget(doc.layout, doc.size, request.budget))
        return *over;
    // Only the raster player on an image paints every opacity group offscreen.
    const GroupLayers groups = doc.engine == Engine::Takumi && request.options.format != OutputFormat::Svg
                                   ? GroupLayers::Always
                                   : GroupLayers::InRasterScopes;
    if (doc.engine != Engine::Html) {
        if (auto over = checkLayerBudget(doc.layout, doc.size, budgetScale(request.options), groups, request.budget))
            return *over;
    }
    return common::Done{};
}

/// The scale check render() makes before anything else: in range, and 1 for a vector
/// output, which has no pixels to scale.
std::optional<RenderError> checkScale(const RenderOptions &options)
{
    const double scale = options.scale;
    if (!(scale >= kMinRenderScale && scale <= kMaxRenderScale))
        return renderError(QStringLiteral("scale"),
                           QStringLiteral("scale must be from %1 to %2").arg(kMinRenderScale).arg(kMaxRenderScale),
                           RenderErrorCode::InvalidSize);
    if (scale != 1 && outputFormatInfo(options.format).vector)
        return renderError(QStringLiteral("scale"),
                           QStringLiteral("scale applies to bitmap formats; %1 is a vector format drawn at any size")
                               .arg(outputFormatName(options.format)),
                           RenderErrorCode::InvalidSize);
    return std::nullopt;
}

} // namespace

/// A data: URL of `cluster`'s image in `set` for an inline svg's text (SvgRenderScope):
/// the set's SVG file; empty for Noto (drawn from the font) or a cluster the set lacks.
QString inlineSvgEmojiUrl(EmojiLibrary &library, EmojiSet set, QStringView cluster)
{
    if (set == EmojiSet::Noto)
        return {};
    const std::shared_ptr<const EmojiImage> image = library.image(cluster, set);
    return image ? QStringLiteral("data:image/svg+xml;base64,") + QString::fromLatin1(image->source.toBase64())
                 : QString();
}

/// The faces of `request`'s uploaded fonts an inline svg may name (SvgRenderScope).
SvgRenderScope::FontsFor inlineSvgFontsOf(const RenderRequest &request)
{
    if (!request.fonts || request.fonts->isEmpty())
        return {};
    return [fonts = request.fonts](const QByteArray &svg) { return svgRasterFonts(*fonts, svg); };
}

common::Expected<LaidOutDocument, RenderError> layOut(const RenderRequest &request, RenderContext &context,
                                                      RenderTimings *timings)
{
    QElapsedTimer timer;
    timer.start();
    // Before the tree is built: applying a space's fonts may already make font engines.
    useChromiumGlyphMasks();
    LaidOutDocument doc;
    // SVG images drawn for this render end with it (svg_sandbox.h); an inline svg's emoji
    // are drawn from the emoji set chosen below (chooseEngine()).
    const SvgRenderScope svgScope(request.cancellation, inlineSvgFontsOf(request),
                                  [&doc, &library = context.emoji()](QStringView cluster) {
                                      return inlineSvgEmojiUrl(library, doc.emojiSet, cluster);
                                  });
    auto tmpl = templateOf(request);
    if (!tmpl)
        return tmpl.error();
    doc.tmpl = std::move(*tmpl);
    chooseEngine(request, doc);
    const auto size = chooseSize(request, doc);
    if (!size)
        return size.error();
    doc.size = *size;
    auto values = resolveVariables(*doc.tmpl, request.pageValues, request.options.tweaks, request.limits);
    if (!values)
        return values.error();
    doc.values = std::move(*values);
    if (isHtmlOnly(doc)) {
        doc.root = std::make_unique<Node>(); // an html-only template: nothing to lay out
        if (timings)
            timings->parse = lapMs(timer);
        return doc;
    }
    if (auto built = buildTree(request, context, doc); !built)
        return built.error();
    if (timings)
        timings->parse = lapMs(timer);
    if (auto stopped = cancelledError(request.cancellation))
        return *stopped;
    if (auto laidOut = layOutTree(request, context, doc, timings, timer); !laidOut)
        return laidOut.error();
    if (auto stopped = cancelledError(request.cancellation))
        return *stopped;
    tidyWarnings(doc.warnings);
    return doc;
}

common::Expected<RenderResult, RenderError> render(const RenderRequest &request, RenderContext &context)
{
    if (auto bad = checkScale(request.options))
        return *bad;
    RenderResult result;
    const SvgRenderScope svgScope(request.cancellation, inlineSvgFontsOf(request));
    auto doc = layOut(request, context, &result.timings);
    if (!doc)
        return doc.error();
    const RenderBackend &backend = backendFor(doc->engine, context);
    if (auto refused = backend.refuse(request))
        return *refused;
    const double scale = request.options.scale;
    result.size = request.options.format == OutputFormat::Pdf
                      ? doc->size
                      : QSize(int(std::lround(doc->size.width() * scale)), int(std::lround(doc->size.height() * scale)));
    result.contentType = contentTypeFor(request.options.format);
    result.warnings = doc->warnings;
    if (auto drawn = backend.draw(*doc, request, context, result); !drawn)
        return drawn.error();
    if (result.bytes.isEmpty())
        return renderError(QStringLiteral("format"), QStringLiteral("encoding failed"), RenderErrorCode::EncodeFailed);
    tidyWarnings(result.warnings);
    return result;
}

QJsonArray layoutToJson(const LayoutBox &root)
{
    QJsonArray out;
    appendBoxes(root, out);
    return out;
}

} // namespace imprint::render
