#include "server/render/pipeline.h"

#include "server/render/backends/chromium/chromium_browser.h"
#include "server/render/backends/html.h"
#include "server/render/backends/raster.h"
#include "server/render/backends/svg.h"
#include "server/render/document/html_page.h"
#include "server/render/encode/encode.h"
#include "server/render/render_budget.h"
#include "server/render/resources/emoji.h"
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

double elapsedMs(QElapsedTimer &timer)
{
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    return ms;
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

RenderError makeError(const QString &field, const QString &message, RenderErrorCode code)
{
    RenderError e;
    e.field = field;
    e.message = message;
    e.code = code;
    return e;
}

/// The error of a render stopped by `cancellation`, or nullopt while it may go on: past
/// the deadline it is over budget (the deadline is a render limit like the others),
/// otherwise cancelled.
std::optional<RenderError> cancelledError(const RenderCancellation &cancellation)
{
    const auto reason = cancellation.reason();
    if (!reason)
        return std::nullopt;
    switch (*reason) {
    case RenderCancellation::Reason::Deadline:
        return makeError(
            QStringLiteral("deadline"),
            QStringLiteral("the render took longer than its deadline of %1 ms").arg(cancellation.deadlineMs()),
            RenderErrorCode::RenderBudgetExceeded);
    case RenderCancellation::Reason::ShuttingDown:
        return makeError({}, QStringLiteral("the server is shutting down"), RenderErrorCode::RenderCancelled);
    case RenderCancellation::Reason::ClientGone: break;
    }
    return makeError({}, QStringLiteral("nobody waits for the result"), RenderErrorCode::RenderCancelled);
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

} // namespace

QByteArray encodeImage(const QImage &image, OutputFormat format, int quality, bool lossless, int speed, QString *error,
                       PngCompression compression)
{
    switch (format) {
    case OutputFormat::Webp: return encodeWebp(image, quality, lossless, error);
    case OutputFormat::Jpeg: return encodeJpeg(image, quality, error);
    case OutputFormat::Avif: return encodeAvif(image, quality, speed, error);
    case OutputFormat::Png:
    case OutputFormat::Svg:
    case OutputFormat::Pdf: break;
    }
    PngOptions png;
    png.compression = compression;
    return encodePng(image, png, error);
}

std::optional<OutputFormat> parseOutputFormat(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("png"))
        return OutputFormat::Png;
    if (n == QLatin1String("webp"))
        return OutputFormat::Webp;
    if (n == QLatin1String("svg"))
        return OutputFormat::Svg;
    if (n == QLatin1String("jpeg") || n == QLatin1String("jpg"))
        return OutputFormat::Jpeg;
    if (n == QLatin1String("avif"))
        return OutputFormat::Avif;
    if (n == QLatin1String("pdf"))
        return OutputFormat::Pdf;
    return std::nullopt;
}

QString contentTypeFor(OutputFormat format)
{
    switch (format) {
    case OutputFormat::Png: return QStringLiteral("image/png");
    case OutputFormat::Webp: return QStringLiteral("image/webp");
    case OutputFormat::Svg: return QStringLiteral("image/svg+xml");
    case OutputFormat::Jpeg: return QStringLiteral("image/jpeg");
    case OutputFormat::Avif: return QStringLiteral("image/avif");
    case OutputFormat::Pdf: return QStringLiteral("application/pdf");
    }
    return {};
}

QString outputFormatName(OutputFormat format)
{
    switch (format) {
    case OutputFormat::Png: return QStringLiteral("png");
    case OutputFormat::Webp: return QStringLiteral("webp");
    case OutputFormat::Svg: return QStringLiteral("svg");
    case OutputFormat::Jpeg: return QStringLiteral("jpeg");
    case OutputFormat::Avif: return QStringLiteral("avif");
    case OutputFormat::Pdf: return QStringLiteral("pdf");
    }
    return {};
}

namespace {

void collectImageSources(const Node &node, QList<ImageSource> *out)
{
    if (node.isImage() && !node.src.isEmpty())
        out->append(ImageSource{node.src, node.srcField});
    for (const auto &child : node.children)
        collectImageSources(*child, out);
}

} // namespace

qint64 requestImageByteLimit(const RenderRequest &request)
{
    std::shared_ptr<const Template> tmpl = request.parsed;
    if (!tmpl) {
        RenderError ignored;
        auto parsed = parseTemplate(request.document, &ignored, request.limits);
        if (!parsed)
            return 0;
        tmpl = std::make_shared<const Template>(std::move(*parsed));
    }
    const int width = request.width > 0 ? request.width : tmpl->width;
    const int height = request.height > 0 ? request.height : tmpl->height;
    const double scale = request.scale >= kMinRenderScale && request.scale <= kMaxRenderScale ? request.scale : 1;
    return imageByteLimit(imageBudgetCanvas(request, width, height), scale, request.budget);
}

std::optional<QList<ImageSource>> imageSources(const RenderRequest &request, RenderError *error)
{
    RenderError local;
    RenderError &err = error ? *error : local;
    std::shared_ptr<const Template> tmpl = request.parsed;
    if (!tmpl) {
        auto parsed = parseTemplate(request.document, &err, request.limits);
        if (!parsed)
            return std::nullopt;
        tmpl = std::make_shared<const Template>(std::move(*parsed));
    }
    if (!tmpl->root.isObject() && tmpl->markup.isEmpty())
        return QList<ImageSource>(); // html only: its engine loads no URL
    const auto values = resolveVariables(*tmpl, request.pageValues, request.tweaks, &err, request.limits);
    if (!values)
        return std::nullopt;
    QStringList ignored;
    const ImageLoader none = [](const QString &, QString *why) {
        *why = QStringLiteral("not loaded");
        return QImage();
    };
    const auto root = buildDocument(*tmpl, *values, &err, &ignored, none, request.limits);
    if (!root)
        return std::nullopt;
    QList<ImageSource> out;
    collectImageSources(*root, &out);
    return out;
}

std::optional<LaidOutDocument> layOut(const RenderRequest &request, RenderContext &context, RenderError *error,
                                      RenderTimings *timings)
{
    RenderError local;
    RenderError &err = error ? *error : local;
    QElapsedTimer timer;
    timer.start();

    LaidOutDocument doc;
    doc.tmpl = request.parsed;
    if (!doc.tmpl) {
        auto parsed = parseTemplate(request.document, &err, request.limits);
        if (!parsed)
            return std::nullopt;
        doc.tmpl = std::make_shared<const Template>(std::move(*parsed));
    }
    const Template &tmpl = *doc.tmpl;

    // The request's engine, else the template's rendererType when it names one, else the default.
    const QString engineText = request.engine.trimmed().toLower();
    const QString chosen = !engineText.isEmpty()                                 ? engineText
                           : tmpl.source.contains(QLatin1String("rendererType")) ? tmpl.rendererType.toLower()
                                                                                 : engineName(kDefaultEngine);
    const auto engine = parseEngine(chosen);
    if (!engine) {
        err = makeError(
            QStringLiteral("engine"),
            QStringLiteral("unknown engine '%1' (%2)").arg(chosen, engineNames().join(QStringLiteral(", "))),
            RenderErrorCode::InvalidEngine);
        return std::nullopt;
    }
    // The request's emojiType, else the template's.
    const QString emojiType = request.emojiType.trimmed().isEmpty() ? tmpl.emojiType : request.emojiType;
    const auto emojiSet = parseEmojiSet(emojiType);
    if (!emojiSet) {
        err = makeError(QStringLiteral("emojiType"),
                        QStringLiteral("unknown emojiType '%1' (twemoji, openmoji or noto)").arg(emojiType),
                        RenderErrorCode::InvalidEmojiType);
        return std::nullopt;
    }
    doc.emojiType = emojiSetName(*emojiSet);
    doc.engine = *engine;

    const int width = request.width > 0 ? request.width : tmpl.width;
    const int height = request.height > 0 ? request.height : tmpl.height;
    const bool contentSized = width == 0 || height == 0;
    const bool htmlOnly
        = *engine == Engine::Html && !tmpl.html.isEmpty() && !tmpl.root.isObject() && tmpl.markup.isEmpty();
    if (contentSized && htmlOnly) {
        err = makeError(QStringLiteral("width"), QStringLiteral("an html template needs its width and height"),
                        RenderErrorCode::InvalidSize);
        return std::nullopt;
    }
    if (request.width < 0 || request.height < 0 || width < 0 || height < 0 || width > kMaxSide || height > kMaxSide) {
        const bool widthBad = request.width < 0 || width < 0 || width > kMaxSide;
        err = makeError(widthBad ? QStringLiteral("width") : QStringLiteral("height"),
                        QStringLiteral("image size %1×%2 px is outside 1–%3 px").arg(width).arg(height).arg(kMaxSide),
                        RenderErrorCode::InvalidSize);
        return std::nullopt;
    }
    doc.size = QSize(width, height);

    const auto values = resolveVariables(tmpl, request.pageValues, request.tweaks, &err, request.limits);
    if (!values)
        return std::nullopt;
    doc.values = *values;
    if (htmlOnly) {
        doc.root = std::make_unique<Node>(); // an html-only template: nothing to lay out
        if (timings)
            timings->parse = elapsedMs(timer);
        return doc;
    }
    const ImageLoader contextLoader
        = [&context](const QString &url, QString *why) { return context.images().load(url, why); };
    const ImageLoader &loader = request.imageLoader ? request.imageLoader : contextLoader;
    // Decoded images count against the render budget as they load (a content-sized side
    // against its largest size); render() has checked the scale.
    const double scale = request.scale >= kMinRenderScale && request.scale <= kMaxRenderScale ? request.scale : 1;
    const QSize imageCanvas = imageBudgetCanvas(request, width, height);
    RenderImageBudget images(imageByteLimit(imageCanvas, scale, request.budget), imageCanvas, scale);
    doc.root = buildDocument(
        tmpl, *values, &err, &doc.warnings,
        [&](const QString &url, QString *why) {
            auto image = images.load(url, loader);
            if (!image && why)
                *why = image.error();
            return image ? *image : QImage();
        },
        request.limits,
        QSizeF(std::max(width, 0), std::max(height, 0)));
    if (!doc.root)
        return std::nullopt;
    // Background images are decoded by the painter through the context's cache.
    if (auto over = checkImageBudget(*doc.root, images, contextLoader)) {
        err = *over;
        return std::nullopt;
    }
    applyFontSet(*doc.root, request.fonts ? *request.fonts : FontSet{}, &doc.warnings);
    if (timings)
        timings->parse = elapsedMs(timer);
    if (auto stopped = cancelledError(request.cancellation)) {
        err = *stopped;
        return std::nullopt;
    }

    if (contentSized) {
        const QSize max(std::min(request.maxSize.width(), kMaxSide), std::min(request.maxSize.height(), kMaxSide));
        doc.size = contentSizedViewport(*doc.root, QSizeF(max), width, height, context.text());
    }
    doc.layout = layoutDocument(*doc.root, QSizeF(doc.size), context.text(), contentSized && height <= 0);
    if (timings)
        timings->layout = elapsedMs(timer);
    if (auto over = checkEffectBudget(doc.layout, doc.size, request.budget)) {
        err = *over;
        return std::nullopt;
    }
    // Only the raster player on an image paints every opacity group offscreen.
    const GroupLayers groups = doc.engine == Engine::Takumi && request.format != OutputFormat::Svg
                                   ? GroupLayers::Always
                                   : GroupLayers::InRasterScopes;
    if (doc.engine != Engine::Html) {
        if (auto over = checkLayerBudget(doc.layout, doc.size, scale, groups, request.budget)) {
            err = *over;
            return std::nullopt;
        }
    }
    if (auto stopped = cancelledError(request.cancellation)) {
        err = *stopped;
        return std::nullopt;
    }
    tidyWarnings(doc.warnings);
    return doc;
}

std::optional<RenderResult> render(const RenderRequest &request, RenderContext &context, RenderError *error)
{
    RenderResult result;
    // The device scale factor: the canvas is scaled, the layout is not. A vector output
    // has no pixels to scale.
    const double scale = request.scale;
    if (!(scale >= kMinRenderScale && scale <= kMaxRenderScale)) {
        if (error)
            *error = makeError(QStringLiteral("scale"),
                               QStringLiteral("scale must be from %1 to %2").arg(kMinRenderScale).arg(kMaxRenderScale),
                               RenderErrorCode::InvalidSize);
        return std::nullopt;
    }
    if (scale != 1 && (request.format == OutputFormat::Svg || request.format == OutputFormat::Pdf)) {
        if (error)
            *error
                = makeError(QStringLiteral("scale"),
                            QStringLiteral("scale applies to bitmap formats; %1 is a vector format drawn at any size")
                                .arg(outputFormatName(request.format)),
                            RenderErrorCode::InvalidSize);
        return std::nullopt;
    }
    auto doc = layOut(request, context, error, &result.timings);
    if (!doc)
        return std::nullopt;
    const bool chromium = doc->engine == Engine::Html && context.htmlBrowser();
    if (request.format == OutputFormat::Pdf && !chromium) {
        if (error)
            *error = makeError(QStringLiteral("format"),
                               doc->engine == Engine::Html
                                   ? QStringLiteral("PDF is printed by the html engine's Chromium, which this server "
                                                    "does not use (render.html.browser); %1")
                                         .arg(chromiumInstallHint())
                                   : QStringLiteral("the %1 engine makes no PDF; the engine that produces PDF is %2")
                                         .arg(engineName(doc->engine), engineName(Engine::Html)),
                               RenderErrorCode::InvalidEngine);
        return std::nullopt;
    }
    if (scale != 1 && doc->engine == Engine::Html && !chromium) {
        if (error)
            *error = makeError(QStringLiteral("scale"),
                               QStringLiteral("the html engine draws at scale 1 without Chromium (render.html.browser "
                                              "qt); the engines that draw scaled images are %1, %2 and html with "
                                              "Chromium")
                                   .arg(engineName(Engine::Takumi), engineName(Engine::Satori)),
                               RenderErrorCode::InvalidEngine);
        return std::nullopt;
    }
    result.size = request.format == OutputFormat::Pdf ? doc->size
                                                      : QSize(int(std::lround(doc->size.width() * scale)),
                                                              int(std::lround(doc->size.height() * scale)));
    result.contentType = contentTypeFor(request.format);
    result.warnings = doc->warnings;

    QElapsedTimer timer;
    timer.start();
    QString encodeError;
    const PngCompression pngCompression = request.pngCompression.value_or(
        parsePngCompression(doc->tmpl->compression).value_or(PngCompression::Default));
    PaintResources resources = context.paintResources();
    resources.cancellation = &request.cancellation;
    // Between paint and encode (and after a paint the players cut short): the image of a
    // cancelled render is never encoded nor returned.
    const auto stopped = [&]() -> bool {
        if (auto e = cancelledError(request.cancellation)) {
            if (error)
                *error = *e;
            return true;
        }
        return false;
    };
    if (doc->engine == Engine::Satori) {
        // The vector path: one SVG document; bitmaps are that document rasterised.
        SvgOptions svgOptions;
        svgOptions.emojiSet = parseEmojiSet(doc->emojiType).value_or(EmojiSet::Twemoji);
        svgOptions.title = doc->tmpl->name;
        svgOptions.deviceScale = request.format == OutputFormat::Svg ? 1 : scale;
        const QByteArray svg = renderSvgDocument(doc->layout, doc->size, resources, svgOptions, &result.warnings);
        result.timings.paint = elapsedMs(timer);
        if (stopped())
            return std::nullopt;
        if (request.format == OutputFormat::Svg) {
            result.bytes = svg;
        } else {
            const QImage image = rasteriseSvg(svg, result.size); // the whole document, scaled
            result.timings.paint += elapsedMs(timer);
            if (stopped())
                return std::nullopt;
            result.bytes = encodeImage(image, request.format, request.quality, request.lossless, request.speed,
                                       &encodeError, pngCompression);
        }
        result.timings.encode = elapsedMs(timer);
    } else if (chromium) {
        // Headless Chromium: the page as the browser sees it; our layout's warnings
        // describe our engine, not this one, and are dropped.
        if (request.format == OutputFormat::Svg) {
            if (error)
                *error = makeError(QStringLiteral("format"),
                                   QStringLiteral("the html engine draws no SVG; the engines that produce SVG are %1 "
                                                  "and %2")
                                       .arg(engineName(Engine::Satori), engineName(Engine::Takumi)),
                                   RenderErrorCode::InvalidEngine);
            return std::nullopt;
        }
        result.warnings.clear();
        const Template &tmpl = *doc->tmpl;
        const bool contentSized = (request.width > 0 ? request.width : tmpl.width) == 0
                                  || (request.height > 0 ? request.height : tmpl.height) == 0;
        const PageEmoji emoji{parseEmojiSet(doc->emojiType).value_or(EmojiSet::Twemoji), &context.emoji(),
                              &result.warnings};
        auto page = templatePageHtml(tmpl, doc->values, contentSized, request.limits, error, emoji);
        if (page && request.fonts) {
            // Chromium does not see Qt's font database: the space's faces the page names go
            // in it as @font-face rules under the space's names, as the JSON engines resolve
            // them, at most 1 MiB of rules: the page travels base64 (4/3) in one DevTools
            // message, and a bound keeps a space with many fonts from making it huge.
            const QString rules = fontFaceRules(*request.fonts, *page, qsizetype(1) << 20, &result.warnings);
            if (!rules.isEmpty())
                page = templatePageHtml(tmpl, doc->values, contentSized, request.limits, error, emoji, rules);
        }
        if (!page)
            return std::nullopt;
        if (!tmpl.html.isEmpty()) {
            if (auto over = checkHtmlBudget(*page, request.limits.maxNodes, request.limits.maxDepth, request.budget)) {
                if (error)
                    *error = *over;
                return std::nullopt;
            }
        }
        ChromiumPage chromiumPage;
        chromiumPage.html = *page;
        chromiumPage.size = doc->size;
        chromiumPage.tenant = request.tenant;
        chromiumPage.scale = scale;
        chromiumPage.allowScript
            = context.htmlAllowScript() && tmpl.source.value(QLatin1String("htmlScript")).toBool(false);
        // Chromium's PNG is handed out as it is (no decode and re-encode) unless the
        // `small` tier asks for what only our encoder does: a quantised palette
        // (docs/api.md, "PNG compression"). `fast` asks Chromium for its fast zlib level.
        if (request.format == OutputFormat::Pdf) {
            chromiumPage.output = ChromiumPage::Output::Pdf;
        } else if (request.format == OutputFormat::Png && pngCompression != PngCompression::Small) {
            chromiumPage.output = ChromiumPage::Output::Png;
            chromiumPage.fastPng = pngCompression == PngCompression::Fast;
        }
        if (request.imageLoader)
            chromiumPage.loadAsset = request.imageLoader; // asset: and /api/v1/files/ URLs only
        ChromiumTimings steps;
        RenderError browserError;
        auto captured = context.htmlBrowser()->capture(chromiumPage, request.cancellation, &browserError, &steps,
                                                       &result.warnings);
        result.timings.layout += steps.wait + steps.navigate;
        result.timings.paint = steps.capture;
        timer.restart();
        if (!captured) {
            if (error)
                *error = browserError;
            return std::nullopt;
        }
        if (chromiumPage.output == ChromiumPage::Output::Image)
            result.bytes = encodeImage(captured->image, request.format, request.quality, request.lossless,
                                       request.speed, &encodeError, pngCompression);
        else
            result.bytes = std::move(captured->bytes);
        result.timings.encode = elapsedMs(timer);
    } else if (doc->engine == Engine::Html) {
        HtmlOptions htmlOptions;
        htmlOptions.emojiSet = parseEmojiSet(doc->emojiType).value_or(EmojiSet::Twemoji);
        const bool fromTree = doc->tmpl->html.isEmpty();
        htmlOptions.tree = fromTree ? doc->root.get() : nullptr;
        const QString html = fromTree ? treeToHtml(*doc->root) : substituteHtmlVariables(doc->tmpl->html, doc->values);
        // The tree's serialisation is bounded by construction (treeToHtml); user html is
        // checked before Qt's rich-text parser and layout see it.
        if (!fromTree) {
            if (auto over = checkHtmlBudget(html, request.limits.maxNodes, request.limits.maxDepth, request.budget)) {
                if (error)
                    *error = *over;
                return std::nullopt;
            }
        }
        if (request.format == OutputFormat::Svg) {
            result.bytes = encodeSvg(
                doc->size,
                [&](QPainter &p) { paintHtml(p, html, doc->size, resources, htmlOptions, &result.warnings); },
                doc->tmpl->name);
            result.timings.paint = elapsedMs(timer);
        } else {
            const QImage image = renderHtmlImage(html, doc->size, resources, htmlOptions, &result.warnings);
            result.timings.paint = elapsedMs(timer);
            if (stopped())
                return std::nullopt;
            result.bytes = encodeImage(image, request.format, request.quality, request.lossless, request.speed,
                                       &encodeError, pngCompression);
            result.timings.encode = elapsedMs(timer);
        }
    } else if (request.format == OutputFormat::Svg) {
        // The SVG device records the drawing as it happens: paint and encode are one step.
        const EmojiSet emoji = parseEmojiSet(doc->emojiType).value_or(EmojiSet::Twemoji);
        result.bytes = encodeSvg(
            doc->size, [&](QPainter &p) { paintBoxTree(p, doc->layout, resources, emoji, &result.warnings); },
            doc->tmpl->name);
        result.timings.paint = elapsedMs(timer);
        if (stopped())
            return std::nullopt;
    } else {
        const EmojiSet emoji = parseEmojiSet(doc->emojiType).value_or(EmojiSet::Twemoji);
        // A scale other than 1: the same display list through a scaled painter, so text,
        // paths and gradients are drawn at the device resolution, not magnified.
        const QImage image = scale == 1 ? paintToImage(doc->layout, doc->size, resources, emoji, &result.warnings)
                                        : paintOnTransparentImage(result.size, [&](QPainter &p) {
                                              p.scale(scale, scale);
                                              paintBoxTree(p, doc->layout, resources, emoji, &result.warnings);
                                          });
        result.timings.paint = elapsedMs(timer);
        if (stopped())
            return std::nullopt;
        result.bytes = encodeImage(image, request.format, request.quality, request.lossless, request.speed,
                                   &encodeError, pngCompression);
        result.timings.encode = elapsedMs(timer);
    }
    if (result.bytes.isEmpty()) {
        if (error)
            *error = makeError(QStringLiteral("format"),
                               encodeError.isEmpty() ? QStringLiteral("encoding failed") : encodeError,
                               RenderErrorCode::EncodeFailed);
        return std::nullopt;
    }
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
