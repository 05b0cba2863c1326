// The four backends render::render() dispatches to (render_backend.h), one per way of
// painting: satori (a standalone SVG document, rasterised for bitmaps), takumi (QPainter on
// an image, or on QSvgGenerator for SVG), html on Qt's rich text and html on headless
// Chromium. Each paints, polls the cancellation between paint and encode (the image of a
// cancelled render is never encoded nor returned), and encodes.

#include "server/render/backends/chromium/chromium_browser.h"
#include "server/render/backends/html.h"
#include "server/render/backends/raster.h"
#include "server/render/backends/svg.h"
#include "server/render/document/html_page.h"
#include "server/render/paint/recorder.h"
#include "server/render/render_backend.h"
#include "server/render/render_budget.h"
#include "server/render/resources/svg_sandbox.h"

namespace imprint::render {

namespace {

using Drawn = common::Expected<common::Done, RenderError>;

/// Ends a backend's paint: its time, then the cancellation poll.
Drawn paintDone(const RenderRequest &request, RenderResult &result, QElapsedTimer &timer)
{
    result.timings.paint += lapMs(timer);
    if (auto stopped = cancelledError(request.cancellation))
        return *stopped;
    return common::Done{};
}

/// Encodes a painted `image` as the request's format into `result`, with its time.
Drawn encodeInto(const QImage &image, const RenderRequest &request, PngCompression compression, RenderResult &result,
                 QElapsedTimer &timer)
{
    const RenderOptions &o = request.options;
    auto bytes = encodeImage(image, o.format, o.quality, o.lossless, o.speed, compression);
    if (!bytes)
        return renderError(QStringLiteral("format"),
                           bytes.error().isEmpty() ? QStringLiteral("encoding failed") : bytes.error(),
                           RenderErrorCode::EncodeFailed);
    result.bytes = std::move(*bytes);
    result.timings.encode = lapMs(timer);
    return common::Done{};
}

/// Ends a backend that painted `image` for `doc`: its paint time, the cancellation poll,
/// then the image encoded as the request's format (its own PNG tier, else the template's).
Drawn finishRaster(const QImage &image, const LaidOutDocument &doc, const RenderRequest &request, RenderResult &result,
                   QElapsedTimer &timer)
{
    if (auto painted = paintDone(request, result, timer); !painted)
        return painted;
    return encodeInto(image, request, pngCompressionOf(request, *doc.tmpl), result, timer);
}

/// The SVG of a backend that paints through a QPainter: `paint` recorded into
/// QSvgGenerator as it draws (paint and encode are one step), then the cancellation poll.
Drawn recordSvg(const LaidOutDocument &doc, const RenderRequest &request, RenderResult &result, QElapsedTimer &timer,
                const std::function<void(QPainter &)> &paint)
{
    result.bytes = encodeSvg(doc.size, paint, doc.tmpl->name);
    return paintDone(request, result, timer);
}

/// Refuses PDF for an engine that does not print (every one but html on Chromium).
std::optional<RenderError> refusePdf(const RenderRequest &request, Engine engine)
{
    if (request.options.format != OutputFormat::Pdf)
        return std::nullopt;
    return renderError(QStringLiteral("format"),
                       engine == Engine::Html
                           ? QStringLiteral("PDF is printed by the html engine's Chromium, which this server "
                                            "does not use (render.html.browser); %1")
                                 .arg(chromiumInstallHint())
                           : QStringLiteral("the %1 engine makes no PDF; the engine that produces PDF is %2")
                                 .arg(engineName(engine), engineName(Engine::Html)),
                       RenderErrorCode::InvalidEngine);
}

/// The paint resources of `context` for one render, polling its cancellation.
PaintResources resourcesFor(RenderContext &context, const RenderRequest &request)
{
    PaintResources resources = context.paintResources();
    resources.cancellation = &request.cancellation;
    resources.imageLoader = request.imageLoader; // url() images as img sources load
    return resources;
}

/// The JSON engines' backends, which paint the laid-out tree: they print no PDF.
class TreeBackend : public RenderBackend
{
public:
    explicit TreeBackend(Engine engine)
        : m_engine(engine)
    { }

    std::optional<RenderError> refuse(const RenderRequest &request) const override
    {
        return refusePdf(request, m_engine);
    }

    Drawn draw(const LaidOutDocument &doc, const RenderRequest &request, RenderContext &context,
               RenderResult &result) const final
    {
        QElapsedTimer timer;
        timer.start();
        return drawTree(doc, request, resourcesFor(context, request), result, timer);
    }

protected:
    /// Paints `doc` with `resources` and encodes it into `result`; `timer` has run since
    /// draw() began, and each step takes its lap of it.
    virtual Drawn drawTree(const LaidOutDocument &doc, const RenderRequest &request, const PaintResources &resources,
                           RenderResult &result, QElapsedTimer &timer) const = 0;

private:
    Engine m_engine;
};

/// satori: the vector path, one SVG document; bitmaps are that document rasterised.
class SatoriBackend final : public TreeBackend
{
public:
    using TreeBackend::TreeBackend;

    Drawn drawTree(const LaidOutDocument &doc, const RenderRequest &request, const PaintResources &resources,
                   RenderResult &result, QElapsedTimer &timer) const override
    {
        const bool svgOut = request.options.format == OutputFormat::Svg;
        SvgOptions svgOptions;
        svgOptions.emojiSet = doc.emojiSet;
        svgOptions.title = doc.tmpl->name;
        svgOptions.deviceScale = svgOut ? 1 : request.options.scale;
        svgOptions.inlineSvgAsVector = svgOut || !svgSandboxOptions().enabled;
        svgOptions.groupOpacityAsPixels = !svgOut;
        svgOptions.largeImagesAtDevicePixels = !svgOut;
        QByteArray svg = renderSvgDocument(doc.layout, doc.size, resources, svgOptions, &result.warnings);
        if (auto painted = paintDone(request, result, timer); !painted)
            return painted;
        if (svgOut) {
            result.bytes = std::move(svg);
            result.timings.encode = lapMs(timer);
            return common::Done{};
        }
        const QImage image = rasteriseSvg(svg, result.size); // the whole document, scaled
        return finishRaster(image, doc, request, result, timer);
    }
};

/// takumi: the display list through QPainter, onto an image or, for SVG, into
/// QSvgGenerator, which records the drawing as it happens (paint and encode are one step).
class TakumiBackend final : public TreeBackend
{
public:
    using TreeBackend::TreeBackend;

    Drawn drawTree(const LaidOutDocument &doc, const RenderRequest &request, const PaintResources &resources,
                   RenderResult &result, QElapsedTimer &timer) const override
    {
        const EmojiSet emoji = doc.emojiSet;
        if (request.options.format == OutputFormat::Svg)
            return recordSvg(doc, request, result, timer,
                             [&](QPainter &p) { paintBoxTree(p, doc.layout, resources, emoji, &result.warnings); });
        // A scale other than 1: the same display list through a scaled painter, so text,
        // paths and gradients are drawn at the device resolution, not magnified.
        const double scale = request.options.scale;
        const QImage image = scale == 1 ? paintToImage(doc.layout, doc.size, resources, emoji, &result.warnings)
                                        : paintOnTransparentImage(result.size, [&](QPainter &p) {
                                              p.scale(scale, scale);
                                              paintBoxTree(p, doc.layout, resources, emoji, &result.warnings);
                                          });
        return finishRaster(image, doc, request, result, timer);
    }
};

/// html on Qt's rich text (render.html.browser qt): the template's `html`, or its tree
/// serialised, through QTextDocument.
class QtHtmlBackend final : public RenderBackend
{
public:
    std::optional<RenderError> refuse(const RenderRequest &request) const override
    {
        if (auto pdf = refusePdf(request, Engine::Html))
            return pdf;
        if (request.options.scale == 1)
            return std::nullopt;
        return renderError(QStringLiteral("scale"),
                           QStringLiteral("the html engine draws at scale 1 without Chromium (render.html.browser "
                                          "qt); the engines that draw scaled images are %1, %2 and html with "
                                          "Chromium")
                               .arg(engineName(Engine::Takumi), engineName(Engine::Satori)),
                           RenderErrorCode::InvalidEngine);
    }

    Drawn draw(const LaidOutDocument &doc, const RenderRequest &request, RenderContext &context,
               RenderResult &result) const override
    {
        QElapsedTimer timer;
        timer.start();
        HtmlOptions htmlOptions;
        htmlOptions.emojiSet = doc.emojiSet;
        const bool fromTree = doc.tmpl->html.isEmpty();
        htmlOptions.tree = fromTree ? doc.root.get() : nullptr;
        const QString html = fromTree ? treeToHtml(*doc.root) : substituteHtmlVariables(doc.tmpl->html, doc.values);
        // The tree's serialisation is bounded by construction (treeToHtml); user html is
        // checked before Qt's rich-text parser and layout see it.
        if (!fromTree) {
            if (auto over = checkHtmlBudget(html, request.limits.maxNodes, request.limits.maxDepth, request.budget))
                return *over;
        }
        const PaintResources resources = resourcesFor(context, request);
        if (request.options.format == OutputFormat::Svg)
            return recordSvg(doc, request, result, timer, [&](QPainter &p) {
                paintHtml(p, html, doc.size, resources, htmlOptions, &result.warnings);
            });
        const QImage image = renderHtmlImage(html, doc.size, resources, htmlOptions, &result.warnings);
        return finishRaster(image, doc, request, result, timer);
    }
};

/// The px font sizes our layout fitted `textFit: shrink-to-box` text at in `box`'s tree, by
/// the id of the element whose text it is (the smallest of its runs'), for the html
/// engine's page: Chromium has no such mode (templatePageHtml()).
void collectFittedFontSizes(const LayoutBox &box, const LayoutBox *parent, TextEngine &text,
                            QHash<QString, float> &out)
{
    if (box.node && box.node->isText()) {
        if (box.node->style.textFit.type != TextFit::Type::ShrinkToBox)
            return;
        const auto block = drawnText(box, parent, text);
        const float size = block ? block->fittedFontSize : 0;
        const auto it = out.constFind(box.node->id);
        if (size > 0 && (it == out.constEnd() || size < *it))
            out.insert(box.node->id, size);
        return;
    }
    for (const LayoutBox &child : box.children)
        collectFittedFontSizes(child, &box, text, out);
}

/// html on headless Chromium: the page as the browser sees it. Our layout's warnings
/// describe our engine, not this one, and are dropped.
class ChromiumHtmlBackend final : public RenderBackend
{
public:
    std::optional<RenderError> refuse(const RenderRequest &request) const override
    {
        if (request.options.format != OutputFormat::Svg)
            return std::nullopt;
        return renderError(QStringLiteral("format"),
                           QStringLiteral("the html engine draws no SVG; the engines that produce SVG are %1 and %2")
                               .arg(engineName(Engine::Satori), engineName(Engine::Takumi)),
                           RenderErrorCode::InvalidEngine);
    }

    Drawn draw(const LaidOutDocument &doc, const RenderRequest &request, RenderContext &context,
               RenderResult &result) const override
    {
        result.warnings.clear();
        auto page = pageHtml(doc, request, context, result);
        if (!page)
            return page.error();
        // `default` keeps Chromium's pixels exactly here (the `lossless` encoder): whoever
        // picks the html engine picks it to get what Chromium draws, and the edge snap of
        // `default` moved two conformance cards from 0.99900 to 0.99898 SSIM against
        // Chromium (docs/api.md, "PNG compression").
        PngCompression compression = pngCompressionOf(request, *doc.tmpl);
        if (compression == PngCompression::Default)
            compression = PngCompression::Lossless;
        ChromiumPage chromiumPage = pageFor(doc, request, context, compression);
        chromiumPage.html = std::move(*page);
        ChromiumTimings steps;
        auto captured = context.htmlBrowser()->capture(chromiumPage, request.cancellation, &steps, &result.warnings);
        result.timings.layout += steps.wait + steps.navigate();
        result.timings.paint = steps.capture;
        result.timings.steps = {{QStringLiteral("queue"), steps.wait},
                                {QStringLiteral("page"), steps.page},
                                {QStringLiteral("load"), steps.load},
                                {QStringLiteral("capture"), steps.capture}};
        QElapsedTimer timer;
        timer.start();
        if (!captured)
            return captured.error();
        if (chromiumPage.output == ChromiumPage::Output::Image)
            return encodeInto(captured->image, request, compression, result, timer);
        result.bytes = std::move(captured->bytes);
        result.timings.encode = lapMs(timer);
        return common::Done{};
    }

private:
    /// The page Chromium loads: the template's html or its tree, with the space's fonts as
    /// @font-face rules, checked against the html budget.
    static common::Expected<QString, RenderError> pageHtml(const LaidOutDocument &doc, const RenderRequest &request,
                                                           RenderContext &context, RenderResult &result)
    {
        const Template &tmpl = *doc.tmpl;
        const RenderOptions &o = request.options;
        const bool contentSized = (o.width > 0 ? o.width : tmpl.width) == 0 || (o.height > 0 ? o.height : tmpl.height) == 0;
        const PageEmoji emoji{doc.emojiSet, &context.emoji(), &result.warnings};
        QHash<QString, float> fitted;
        if (doc.root)
            collectFittedFontSizes(doc.layout, nullptr, context.text(), fitted);
        auto page = templatePageHtml(tmpl, doc.values, contentSized, request.limits, emoji, {}, fitted);
        if (page && request.fonts) {
            // Chromium does not see Qt's font database: the space's faces the page names go
            // in it as @font-face rules under the space's names, as the JSON engines resolve
            // them, at most 1 MiB of rules: the page travels base64 (4/3) in one DevTools
            // message, and a bound keeps a space with many fonts from making it huge.
            const QString rules = fontFaceRules(*request.fonts, *page, qsizetype(1) << 20, &result.warnings);
            if (!rules.isEmpty())
                page = templatePageHtml(tmpl, doc.values, contentSized, request.limits, emoji, rules, fitted);
        }
        if (!page)
            return page.error();
        if (!tmpl.html.isEmpty()) {
            if (auto over = checkHtmlBudget(*page, request.limits.maxNodes, request.limits.maxDepth, request.budget))
                return *over;
        }
        return std::move(*page);
    }

    /// What to ask the browser for, less the page itself.
    static ChromiumPage pageFor(const LaidOutDocument &doc, const RenderRequest &request, RenderContext &context,
                                PngCompression compression)
    {
        ChromiumPage chromiumPage;
        chromiumPage.size = doc.size;
        chromiumPage.tenant = request.tenant;
        chromiumPage.scale = request.options.scale;
        chromiumPage.allowScript
            = context.htmlAllowScript() && doc.tmpl->source.value(QLatin1String("htmlScript")).toBool(false);
        // Chromium's fast PNG is handed out as it is for the `fast` tier (exact pixels, the
        // least CPU). Every other tier decodes it and encodes it with our encoder
        // (docs/api.md, "PNG compression"): Chromium's own default zlib level cost eight
        // times the CPU of the fast one and our encode together, for a bigger file than
        // `default` writes.
        if (request.options.format == OutputFormat::Pdf)
            chromiumPage.output = ChromiumPage::Output::Pdf;
        else if (request.options.format == OutputFormat::Png && compression == PngCompression::Fast)
            chromiumPage.output = ChromiumPage::Output::Png;
        if (request.imageLoader)
            chromiumPage.loadAsset = request.imageLoader; // asset: and /api/v1/files/ URLs only
        return chromiumPage;
    }
};

} // namespace

const RenderBackend &backendFor(Engine engine, RenderContext &context)
{
    static const SatoriBackend satori(Engine::Satori);
    static const TakumiBackend takumi(Engine::Takumi);
    static const QtHtmlBackend qtHtml;
    static const ChromiumHtmlBackend chromium;
    switch (engine) {
    case Engine::Satori: return satori;
    case Engine::Takumi: return takumi;
    case Engine::Html: break;
    }
    if (context.htmlBrowser())
        return chromium;
    return qtHtml;
}

} // namespace imprint::render
