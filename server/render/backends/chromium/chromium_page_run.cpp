// The steps of one page render on the html engine's browser (chromium_page_run.h).
#include "server/render/backends/chromium/chromium_page_run.h"

#include "server/render/backends/chromium/chromium_layer_cost.h"

#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_raster.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

#include <cmath>
#include <functional>

namespace imprint::render {

namespace {

/// The media type of an image the page fetched, from its bytes (Chromium draws an SVG in
/// an `<img>` only when it is served as one).
QString imageMediaType(const QByteArray &bytes)
{
    switch (sniffImageFormat(bytes)) {
    case ImageFormat::Png: return QStringLiteral("image/png");
    case ImageFormat::Jpeg: return QStringLiteral("image/jpeg");
    case ImageFormat::Gif: return QStringLiteral("image/gif");
    case ImageFormat::Webp: return QStringLiteral("image/webp");
    case ImageFormat::Svg: return QStringLiteral("image/svg+xml");
    case ImageFormat::Unknown: break;
    }
    return QStringLiteral("application/octet-stream");
}

/// An asset decoded by the space's loader, as the PNG the page is served (lossless; zlib's
/// fastest level, 1: it travels a pipe, not a network. Qt's quality q maps to level
/// (100 - q) × 9 / 91, so 80 is level 1; 90, used before, was level 0: no compression).
QByteArray assetPng(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG", 80);
    return bytes;
}

/// The address the page's document is served at (RFC 2606 reserves .invalid: it never
/// resolves). Relative URLs in the page resolve against it, so `/api/v1/files/…` names a
/// request the interception sees; nothing at this origin reaches a network.
const QString kPageUrl = QStringLiteral("http://imprint.invalid/");

/// Whether `url` names one of the service's stored files: an http(s) URL on any host (the
/// page's origin for a relative URL, the server's own name for an absolute one) whose path
/// is /api/v1/files/<name>. Those go to the page's asset loader, never to the network.
bool isServiceFileUrl(const QUrl &url)
{
    static const QRegularExpression path(QStringLiteral("^/api/v1/files/[^/]+$"));
    return (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"))
           && path.match(url.path()).hasMatch();
}

/// What a fetch for the page ended with: the bytes, or why not.
using FetchOutcome = common::Expected<QByteArray, QString>;

/// The Content-Security-Policy the page's document is served with (CSP 3,
/// https://www.w3.org/TR/CSP3/). A srcdoc or about:blank frame inherits it, so it holds
/// in frames the page makes too. Script only when the page may run it; never a
/// connection (fetch, XHR, WebSocket, EventSource, beacons), a worker, a plugin, a form
/// submission or a <base>: none has anything to do in an image. Images, styles, fonts
/// and media stay open to every URL so that each request reaches the interception, which
/// answers it or refuses it with a warning naming it.
QString pageContentSecurityPolicy(bool allowScript)
{
    return QStringLiteral("script-src %1; connect-src 'none'; worker-src 'none'; object-src 'none'; "
                          "form-action 'none'; base-uri 'none'; manifest-src 'none'")
        .arg(allowScript ? QStringLiteral("'unsafe-inline' 'unsafe-eval' data:") : QStringLiteral("'none'"));
}

/// Target.setAutoAttach's parameters: every new frame and worker target under a session is
/// attached on it (one flat pipe) and waits for Runtime.runIfWaitingForDebugger.
QJsonObject autoAttachParams()
{
    return {{QStringLiteral("autoAttach"), true},
            {QStringLiteral("waitForDebuggerOnStart"), true},
            {QStringLiteral("flatten"), true}};
}

/// A raster asset no larger than the page can show: at most 4 × the page's device pixels
/// (and never below 4 MP), larger ones scaled down, aspect kept, before they are encoded.
/// An image is drawn at most at its box's size, and a box larger than the page is cut by
/// it, so only extreme zooms (background-size over 200 %) see the difference; without
/// the bound one 98 KB PNG of 8192 × 4096 px became a 134 MB message per render.
QImage boundedForPage(const QImage &image, const ChromiumPage &page)
{
    const double devicePixels = double(page.size.width()) * page.size.height() * page.scale * page.scale;
    const double bound = std::max(4.0 * devicePixels, 4e6);
    const double pixels = double(image.width()) * image.height();
    if (pixels <= bound)
        return image;
    const double f = std::sqrt(bound / pixels);
    return image.scaled(std::max(1, int(image.width() * f)), std::max(1, int(image.height() * f)),
                        Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

/// Why the image in data: URL `urlText` is not handed to the browser: its header states
/// a size over the decoder's limits (8192 px a side, 33 MP), the bound every image the
/// JSON engines decode and every asset the page is served keeps. nullopt for anything
/// else (not an image, a size the header does not state): the browser gets it as it is.
/// Read from the header alone, nothing decoded: a 43 KB 1-bit PNG states 16384 × 16384
/// px, 1 GiB once the browser decodes it.
std::optional<QString> oversizedDataImage(const QString &urlText)
{
    const auto bytes = dataUrlBytes(urlText);
    if (!bytes)
        return std::nullopt;
    const std::optional<QSize> size = imageHeaderSize(*bytes);
    if (!size)
        return std::nullopt;
    const ImageDecodeLimits limits;
    return imageSizeRefusal(*size, limits.maxSide, limits.maxPixels);
}

/// `html` with every data: URL whose image is over the decoder's limits
/// (oversizedDataImage()) replaced by an empty one, `data:,`, each calling `refused` with
/// the URL and why. The browser decodes a data: URL itself, in its renderer, where the
/// page's request interception never sees it: so they are bounded in the document. A URL
/// ends at a quote, a bracket, whitespace, `<`, `>` or `&` (so one inside an escaped
/// srcdoc attribute is found too).
QString withoutOversizedDataImages(const QString &html, const std::function<void(const QString &, const QString &)> &refused)
{
    static const QRegularExpression dataUrl(QStringLiteral(R"(data:[^,\s'"()<>&]*,[^\s'"()<>&]*)"),
                                            QRegularExpression::CaseInsensitiveOption);
    if (!html.contains(QLatin1String("data:"), Qt::CaseInsensitive))
        return html;
    QString out;
    qsizetype copied = 0;
    for (auto it = dataUrl.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const std::optional<QString> why = oversizedDataImage(m.captured());
        if (!why)
            continue;
        out += QStringView(html).mid(copied, m.capturedStart() - copied);
        out += QLatin1String("data:,");
        copied = m.capturedEnd();
        refused(m.captured().left(48) + QStringLiteral("…"), *why);
    }
    if (copied == 0)
        return html;
    out += QStringView(html).mid(copied);
    return out;
}

double elapsedMs(QElapsedTimer &timer)
{
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    return ms;
}

/// The error of a DevTools exchange that broke: the browser's fault, not the input's.
RenderError browserError(const QString &message)
{
    return RenderError{{}, message, RenderErrorCode::EncodeFailed};
}

} // namespace

/// An http(s) image of the page being fetched, answered when its fetch ends.
struct ChromiumPageRun::PendingFetch {
    QString requestId;
    QString target; // the session the request was paused in
    QString url;
    std::future<FetchOutcome> outcome;
};

ChromiumPageRun::ChromiumPageRun(std::shared_ptr<DevToolsPipe> pipe, const ChromiumPage &page,
                                 const RenderCancellation &cancellation, FetchHook fetch, bool allowScript, bool debug,
                                 QStringList *warnings, QElapsedTimer &timer)
    : m_c(std::move(pipe))
    , m_page(page)
    , m_cancellation(cancellation)
    , m_fetch(std::move(fetch))
    , m_allowScript(allowScript)
    , m_debug(debug)
    , m_warnings(warnings)
    , m_timer(timer)
{ }

ChromiumPageRun::~ChromiumPageRun() = default;

std::optional<ChromiumCapture> ChromiumPageRun::run(ChromiumTimings &t)
{
    bool ok = m_adopted ? resetPage() : openPage();
    t.page = elapsedMs(m_timer);
    ok = ok && navigate() && withinLayerBudget();
    t.load = elapsedMs(m_timer);
    std::optional<ChromiumCapture> out;
    if (ok)
        out = takeOutput();
    t.capture = elapsedMs(m_timer);
    release(out.has_value(), t);
    return out;
}

// ---- the steps

bool ChromiumPageRun::openPage()
{
    const int width = m_page.size.width(), height = m_page.size.height();
    QJsonObject r;
    bool ok = call(QStringLiteral("Target.createBrowserContext"), {{QStringLiteral("disposeOnDetach"), true}}, false,
                   &r);
    m_contextId = r.value(QLatin1String("browserContextId")).toString();
    ok = ok
         && call(QStringLiteral("Target.createTarget"),
                 {{QStringLiteral("url"), QStringLiteral("about:blank")},
                  {QStringLiteral("browserContextId"), m_contextId},
                  {QStringLiteral("width"), width},
                  {QStringLiteral("height"), height}},
                 false, &r);
    const QString targetId = r.value(QLatin1String("targetId")).toString();
    ok = ok
         && call(QStringLiteral("Target.attachToTarget"),
                 {{QStringLiteral("targetId"), targetId}, {QStringLiteral("flatten"), true}}, false, &r);
    if (ok)
        m_session = r.value(QLatin1String("sessionId")).toString();
    ok = ok && call(QStringLiteral("Page.enable"), {}, true);
    // Lifecycle events name the navigation (loaderId) they belong to: the page's initial
    // about:blank fires a load event of its own, late under load, which must not be taken
    // for the document's (navigate()).
    ok = ok && call(QStringLiteral("Page.setLifecycleEventsEnabled"), {{QStringLiteral("enabled"), true}}, true);
    // Every frame and worker the page makes in another process is attached, paused,
    // before it loads anything (attachChild), so the policy below sees its requests.
    ok = ok && call(QStringLiteral("Target.setAutoAttach"), autoAttachParams(), true);
    ok = ok
         && call(QStringLiteral("Fetch.enable"),
                 {{QStringLiteral("patterns"),
                   QJsonArray{QJsonObject{{QStringLiteral("urlPattern"), QStringLiteral("*")}}}}},
                 true);
    if (!m_allowScript)
        ok = ok
             && call(QStringLiteral("Emulation.setScriptExecutionDisabled"), {{QStringLiteral("value"), true}}, true);
    ok = ok && setViewport(held());
    ok = ok
         && call(QStringLiteral("Emulation.setDefaultBackgroundColorOverride"),
                 {{QStringLiteral("color"), QJsonObject{{QStringLiteral("r"), 0},
                                                        {QStringLiteral("g"), 0},
                                                        {QStringLiteral("b"), 0},
                                                        {QStringLiteral("a"), 0}}}},
                 true);
    return ok;
}

bool ChromiumPageRun::resetPage()
{
    // Everything openPage() set stays set on the page (interception, auto-attach, the
    // script switch, the background); only the size is this render's. The events the
    // previous render left (late lifecycle events of its document) are dropped, and
    // navigate() waits for its own navigation's load by loaderId anyway.
    m_contextId = m_adopted->contextId;
    m_session = m_adopted->session;
    m_c->dropSession(m_session);
    // A round trip through the browser's busy main thread saved when the size stays.
    if (m_adopted->size == m_page.size && m_adopted->scale == m_page.scale && (m_adopted->held || !held()))
        return true;
    return setViewport(held());
}

bool ChromiumPageRun::setViewport(bool hold)
{
    return call(QStringLiteral("Emulation.setDeviceMetricsOverride"), viewportMetrics(hold), true);
}

QJsonObject ChromiumPageRun::viewportMetrics(bool hold) const
{
    QJsonObject metrics{{QStringLiteral("width"), m_page.size.width()},
                        {QStringLiteral("height"), m_page.size.height()},
                        {QStringLiteral("deviceScaleFactor"), m_page.scale},
                        {QStringLiteral("mobile"), false}};
    // The view drawn at a hundredth of its size (the layout is the page's own): what the
    // compositor draws of a page before withinLayerBudget() weighed it costs next to
    // nothing.
    if (hold)
        metrics.insert(QStringLiteral("scale"), 0.01);
    return metrics;
}

bool ChromiumPageRun::navigate()
{
    if (m_adopted && m_adopted->writable && !m_adopted->loaderId.isEmpty())
        return writeDocument();
    // The document is served by the interception at kPageUrl (handleEvent), so relative
    // URLs in it (`/api/v1/files/…`) resolve to requests the interception answers.
    QJsonObject navigated;
    bool ok = call(QStringLiteral("Page.navigate"), {{QStringLiteral("url"), kPageUrl}}, true, &navigated);
    const QString loader = navigated.value(QLatin1String("loaderId")).toString();
    m_loaderId = loader;
    if (ok && (loader.isEmpty() || navigated.contains(QLatin1String("errorText")))) {
        m_err = browserError(QStringLiteral("Chromium did not load the page: %1")
                                 .arg(navigated.value(QLatin1String("errorText")).toString()));
        return false;
    }
    // The load of this navigation, not any load: a screenshot taken while the navigation
    // was still committing (after the about:blank's late load event) waited for a frame
    // that never came, until the deadline (issue 33, item 4).
    ok = ok && waitLoad(loader);
    return ok && waitFonts();
}

// A kept page gets its next document written into the open one (document.open, write,
// close), as Playwright's setContent() does, instead of a navigation: no request, no
// commit, no new document and frame in the renderer (the renderer's share of a render
// was 30 ms against Playwright's 12). The document keeps its URL (kPageUrl, so relative
// URLs resolve as before) and the Content-Security-Policy it was served with: a kept
// page never ran script, so that is the no-script policy, as this render's. Its load
// lifecycle event comes once its images (CSS backgrounds too) have loaded, under the
// loader of the first document; document.readyState says `complete` before, so it is
// the event that is waited for.
bool ChromiumPageRun::writeDocument()
{
    m_loaderId = m_adopted->loaderId;
    const QString page = withoutOversizedDataImages(
        m_page.html, [this](const QString &url, const QString &why) { warn(url, why); });
    // The document as a JavaScript string literal: a JSON string is one.
    const QString literal = QString::fromUtf8(QJsonDocument(QJsonArray{page}).toJson(QJsonDocument::Compact));
    bool ok = call(QStringLiteral("Runtime.evaluate"),
                   {{QStringLiteral("expression"),
                     QStringLiteral("document.open(); document.write(%1[0]); document.close(); 0").arg(literal)}},
                   true);
    ok = ok && waitLoad(m_loaderId);
    return ok && waitFonts();
}

bool ChromiumPageRun::waitFonts()
{
    // Web fonts may still be loading at the load event.
    return call(QStringLiteral("Runtime.evaluate"),
                {{QStringLiteral("expression"), QStringLiteral("document.fonts.ready.then(() => 0)")},
                 {QStringLiteral("awaitPromise"), true}},
                true);
}

// The page's layers are weighed before the compositor draws them (chromium_layer_cost.h):
// a page loads and lays out in its own renderer, but its screenshot is drawn by the
// browser's one compositor, where a costly page holds every other render's screenshot.
// DOMSnapshot reads the laid-out tree without running script (the page's may be off),
// shadow trees and same-process frames included; a frame in another process is read on
// its own session (one gone meanwhile is skipped).
bool ChromiumPageRun::withinLayerBudget()
{
    if (m_layerBudget <= 0)
        return true;
    const QJsonObject params{{QStringLiteral("computedStyles"), layerCostStyles()}};
    LayerCost cost;
    QJsonObject snapshot;
    if (!call(QStringLiteral("DOMSnapshot.captureSnapshot"), params, true, &snapshot))
        return false;
    addSnapshotCost(snapshot, QSizeF(m_page.size), m_page.scale, cost);
    for (const QString &frame : std::as_const(m_frames)) {
        if (!callOn(frame, QStringLiteral("DOMSnapshot.captureSnapshot"), params, &snapshot)) {
            if (m_cancellation.isCancelled() || !m_c->alive())
                return false;
            m_err = {};
            continue;
        }
        addSnapshotCost(snapshot, QSizeF(m_page.size), m_page.scale, cost);
    }
    if (m_debug) {
        QStringList parts;
        const QStringList properties = layerCostProperties();
        for (qsizetype p = 0; p < properties.size(); ++p)
            parts.append(QStringLiteral("%1 %2").arg(properties.at(p)).arg(cost.byProperty[size_t(p)], 0, 'f', 2));
        qInfo("chromium: layer cost %.2f (%s, %d layers) at %.0f ms", cost.total, qPrintable(parts.join(u' ')),
              cost.layers, double(m_timer.nsecsElapsed()) / 1e6);
    }
    if (cost.total <= m_layerBudget) {
        if (m_shares) {
            m_compositingHold = m_shares->acquire(m_page.tenant, cost.total, m_cancellation);
            if (!m_compositingHold) {
                m_err = stoppedError();
                return false;
            }
        }
        return setViewport(false);
    }
    m_err = RenderError{cost.field,
                        QStringLiteral("the page's layers would cost the html engine's shared compositor %1, over its "
                                       "budget of %2 (render.html.maxLayerCost; most from %3): use fewer or smaller "
                                       "backdrop filters and blurs")
                            .arg(cost.total, 0, 'f', 1)
                            .arg(m_layerBudget, 0, 'f', 1)
                            .arg(cost.field),
                        RenderErrorCode::RenderBudgetExceeded};
    return false;
}

std::optional<ChromiumCapture> ChromiumPageRun::takeOutput()
{
    const int width = m_page.size.width(), height = m_page.size.height();
    QJsonObject r;
    bool ok = false;
    if (m_page.output == ChromiumPage::Output::Pdf) {
        // One sheet the page's size: CSS px at 96 per inch (CSS Values 4 §6.2).
        ok = call(QStringLiteral("Page.printToPDF"),
                  {{QStringLiteral("paperWidth"), width / 96.0},
                   {QStringLiteral("paperHeight"), height / 96.0},
                   {QStringLiteral("marginTop"), 0},
                   {QStringLiteral("marginBottom"), 0},
                   {QStringLiteral("marginLeft"), 0},
                   {QStringLiteral("marginRight"), 0},
                   {QStringLiteral("printBackground"), true},
                   {QStringLiteral("preferCSSPageSize"), false},
                   {QStringLiteral("pageRanges"), QStringLiteral("1")}},
                  true, &r);
    } else {
        // The viewport is the page's size already (openPage()). No clip: a clip makes
        // Chromium override the device metrics for the shot and wait for a frame drawn with
        // them; when they equal the page's own, under load that frame now and then never
        // came and the render waited out its deadline (issue 33, item 4).
        // Chromium's fast PNG writer (ChromiumPage::Output) up to 8 million device pixels:
        // its PNG is at most about the raw RGBA bytes (32 MiB), whose base64 still fits a
        // DevTools message (DevToolsPipe::kMaxMessageBytes). Above that the default level's
        // smaller file keeps the room a big image needs.
        constexpr double kFastWriterMaxPixels = 8e6;
        const bool fastWriter = double(width) * height * m_page.scale * m_page.scale <= kFastWriterMaxPixels;
        ok = screenshot({{QStringLiteral("format"), QStringLiteral("png")},
                         {QStringLiteral("optimizeForSpeed"), fastWriter}},
                        &r);
    }
    if (!ok)
        return std::nullopt;
    QByteArray bytes = QByteArray::fromBase64(r.value(QLatin1String("data")).toString().toLatin1());
    if (m_page.output == ChromiumPage::Output::Image) {
        const QImage shot = QImage::fromData(bytes, "PNG");
        if (shot.isNull()) {
            m_err = browserError(QStringLiteral("Chromium's screenshot did not decode"));
            return std::nullopt;
        }
        return ChromiumCapture{shot.convertToFormat(QImage::Format_ARGB32_Premultiplied), {}};
    }
    if (bytes.isEmpty()) {
        m_err = browserError(QStringLiteral("Chromium returned no %1")
                                 .arg(m_page.output == ChromiumPage::Output::Pdf ? QStringLiteral("PDF")
                                                                                 : QStringLiteral("screenshot")));
        return std::nullopt;
    }
    return ChromiumCapture{{}, std::move(bytes)};
}

void ChromiumPageRun::release(bool captured, const ChromiumTimings &t)
{
    // Free the page whatever happened: disposing the context closes its page and ends its
    // renderer (a page stuck in a script loop included). A browser that does not answer
    // within 2 s is ended; the next render starts a new one.
    for (const QString &child : std::as_const(m_children))
        m_c->dropSession(child);
    // A page that drew its render and ran no script is left open for the next render of
    // its tenant (ChromiumBrowser decides whether to keep it): the browser context and
    // the renderer process, over a third of an html render's time, are then made once.
    if (captured && m_mayKeep && !m_allowScript && !m_contextId.isEmpty() && !m_session.isEmpty()) {
        m_kept = ChromiumKeptPage{m_contextId, m_session, m_adopted ? m_adopted->uses + 1 : 1,
                                  m_page.size, m_page.scale, m_loaderId, !m_askedUrls, held()};
        if (held()) // not waited for: the next render's first command on the page comes after it
            m_c->send(QStringLiteral("Emulation.setDeviceMetricsOverride"), viewportMetrics(true), m_session, true);
        if (m_debug)
            qInfo("chromium: wait %.0f navigate %.0f capture %.0f, page kept (%d renders)", t.wait, t.navigate(),
                  t.capture, m_kept->uses);
        return;
    }
    if (!m_session.isEmpty())
        m_c->dropSession(m_session);
    if (m_contextId.isEmpty())
        return;
    const int id
        = m_c->send(QStringLiteral("Target.disposeBrowserContext"), {{QStringLiteral("browserContextId"), m_contextId}});
    QJsonObject answer;
    QElapsedTimer disposing;
    disposing.start();
    const auto w = id ? m_c->wait(id, {}, &answer, nullptr, 2000) : DevToolsPipe::Wait::Dead;
    if (m_debug)
        qInfo("chromium: wait %.0f navigate %.0f capture %.0f dispose %lld ms (%d) %s", t.wait, t.navigate(), t.capture,
              disposing.elapsed(), int(w), captured ? "" : qPrintable(m_err.message));
    if (w != DevToolsPipe::Wait::Ready)
        m_c->kill();
}

void disposeKeptPage(DevToolsPipe &pipe, const ChromiumKeptPage &page)
{
    pipe.dropSession(page.session);
    pipe.send(QStringLiteral("Target.disposeBrowserContext"), {{QStringLiteral("browserContextId"), page.contextId}},
              {}, true);
}

// ---- DevTools calls, serving the page meanwhile

// Chromium now and then never answers a Page.captureScreenshot under load (seen on a
// loaded 2-core machine: the page loaded, its fonts ready, the renderer answering other
// commands at once, and a second captureScreenshot of the same page answered in tens of
// ms): the render then waited out its deadline (issue 33, item 4). So the screenshot is
// asked again each time kScreenshotReaskMs passes without an answer, and the first
// answer of any is taken; the others are dropped when they come.
bool ChromiumPageRun::screenshot(const QJsonObject &params, QJsonObject *result)
{
    constexpr int kScreenshotReaskMs = 2500;
    std::vector<int> asked;
    QElapsedTimer sinceAsked;
    for (;;) {
        if (asked.empty() || sinceAsked.elapsed() >= kScreenshotReaskMs) {
            const int id = m_c->send(QStringLiteral("Page.captureScreenshot"), params, m_session, false,
                                     m_cancellation.deadline());
            if (!id) {
                m_err = browserError(QStringLiteral("the browser stopped during the render"));
                return false;
            }
            if (m_debug && !asked.empty())
                qInfo("chromium: no screenshot after %lld ms; asked again", sinceAsked.elapsed());
            asked.push_back(id);
            sinceAsked.start();
        }
        if (m_cancellation.isCancelled()) {
            m_err = stoppedError();
            return false;
        }
        serveFetches();
        // The answer to `id` (one of `asked`): the screenshot, or the error it names.
        const auto take = [&](int id, const QJsonObject &answer) {
            std::erase(asked, id);
            for (const int other : asked)
                m_c->discardAnswer(other);
            if (answer.contains(QLatin1String("error"))) {
                m_err = browserError(
                    QStringLiteral("Chromium: Page.captureScreenshot: %1")
                        .arg(answer.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString()));
                return false;
            }
            *result = answer.value(QLatin1String("result")).toObject();
            return true;
        };
        for (const int id : std::vector<int>(asked.begin(), asked.end() - 1)) {
            QJsonObject answer;
            if (m_c->wait(id, {}, &answer, nullptr, 0) == DevToolsPipe::Wait::Ready)
                return take(id, answer);
        }
        // The newest ask is waited on with the page's events, so its answer is taken the
        // moment it comes: waiting on the events alone let it lie for a whole poll (50 ms
        // when no fetch runs), a sixth of a render.
        QJsonObject answer;
        bool answered = false;
        if (!serveOnce(asked.back(), &answer, &answered))
            return false;
        if (answered)
            return take(asked.back(), answer);
    }
}

RenderError ChromiumPageRun::stoppedError() const
{
    const auto reason = m_cancellation.reason();
    if (reason == RenderCancellation::Reason::Deadline)
        return RenderError{
            QStringLiteral("deadline"),
            QStringLiteral("the render took longer than its deadline of %1 ms").arg(m_cancellation.deadlineMs()),
            RenderErrorCode::RenderBudgetExceeded};
    return RenderError{{}, QStringLiteral("the render was stopped"), RenderErrorCode::RenderCancelled};
}

bool ChromiumPageRun::detached(const QJsonObject &event)
{
    if (event.value(QLatin1String("method")).toString() != QLatin1String("Inspector.detached")
        || event.value(QLatin1String("sessionId")).toString() != m_session)
        return false;
    m_err = browserError(QStringLiteral("the page's renderer stopped"));
    if (m_debug)
        qInfo("chromium: detached: %s", QJsonDocument(event).toJson(QJsonDocument::Compact).constData());
    m_rendererGone = true;
    return true;
}

bool ChromiumPageRun::call(const QString &method, const QJsonObject &params, bool onPage, QJsonObject *result)
{
    return callOn(onPage ? m_session : QString(), method, params, result);
}

bool ChromiumPageRun::callOn(const QString &session, const QString &method, const QJsonObject &params,
                             QJsonObject *result)
{
    const int id = m_c->send(method, params, session, false, m_cancellation.deadline());
    if (m_debug)
        qInfo("chromium: %s at %.0f ms", qPrintable(method), double(m_timer.nsecsElapsed()) / 1e6);
    for (;;) {
        if (!id) {
            m_err = browserError(QStringLiteral("the browser stopped during the render"));
            return false;
        }
        if (m_cancellation.isCancelled()) {
            m_err = stoppedError();
            return false;
        }
        serveFetches();
        QJsonObject answer;
        bool answered = false;
        if (!serveOnce(id, &answer, &answered))
            return false;
        if (!answered)
            continue;
        if (answer.contains(QLatin1String("error"))) {
            m_err = browserError(
                QStringLiteral("Chromium: %1: %2")
                    .arg(method, answer.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString()));
            return false;
        }
        if (result)
            *result = answer.value(QLatin1String("result")).toObject();
        return true;
    }
}

void ChromiumPageRun::noteLoad(const QJsonObject &event)
{
    if (event.value(QLatin1String("method")).toString() != QLatin1String("Page.lifecycleEvent"))
        return;
    const QJsonObject params = event.value(QLatin1String("params")).toObject();
    if (params.value(QLatin1String("name")).toString() == QLatin1String("load"))
        m_loaded.insert(params.value(QLatin1String("loaderId")).toString());
}

bool ChromiumPageRun::waitLoad(const QString &loader)
{
    if (m_debug)
        qInfo("chromium: waiting for the load of %s at %.0f ms", qPrintable(loader),
              double(m_timer.nsecsElapsed()) / 1e6);
    for (;;) {
        if (m_loaded.contains(loader))
            return true;
        if (m_cancellation.isCancelled()) {
            m_err = stoppedError();
            return false;
        }
        serveFetches();
        if (!serveOnce())
            return false;
    }
}

bool ChromiumPageRun::serveOnce(int id, QJsonObject *answer, bool *answered)
{
    QJsonObject ready, event;
    switch (m_c->wait(id, m_session, &ready, m_session.isEmpty() ? nullptr : &event, pollMs())) {
    case DevToolsPipe::Wait::Ready:
        *answer = std::move(ready);
        *answered = true;
        return true;
    case DevToolsPipe::Wait::Event:
        if (detached(event))
            return false;
        // An event can come before the answer it follows (the load event before
        // Page.navigate's): waitLoad() must still see it.
        noteLoad(event);
        handleEvent(event);
        return true;
    case DevToolsPipe::Wait::Dead:
        m_err = browserError(QStringLiteral("the browser stopped during the render"));
        return false;
    case DevToolsPipe::Wait::Timeout: break;
    }
    return true;
}

// ---- the page's requests and targets

void ChromiumPageRun::warn(const QString &url, const QString &why)
{
    if (m_warnings)
        m_warnings->append(QStringLiteral("html: %1 was not loaded: %2").arg(url.left(300), why));
}

// Replies go to the session the request was paused in: the page's, or a frame's or
// worker's auto-attached under it.
void ChromiumPageRun::failRequest(const QString &requestId, const QString &target)
{
    m_c->send(QStringLiteral("Fetch.failRequest"),
              {{QStringLiteral("requestId"), requestId}, {QStringLiteral("errorReason"), QStringLiteral("BlockedByClient")}},
              target, true);
}

void ChromiumPageRun::fulfil(const QString &requestId, const QByteArray &bytes, const QString &target,
                             const QString &urlText)
{
    // base64 is 4/3 of the bytes: a body over the pipe's message bound is refused
    // here, before a write the browser would never finish reading.
    if ((bytes.size() + 2) / 3 * 4 + 4096 > DevToolsPipe::kMaxMessageBytes) {
        failRequest(requestId, target);
        warn(urlText, QStringLiteral("it is %1 MiB, over the html engine's bound of %2 MiB per resource")
                          .arg(double(bytes.size()) / (1 << 20), 0, 'f', 1)
                          .arg(DevToolsPipe::kMaxMessageBytes * 3 / 4 >> 20));
        return;
    }
    m_c->send(QStringLiteral("Fetch.fulfillRequest"),
              {{QStringLiteral("requestId"), requestId},
               {QStringLiteral("responseCode"), 200},
               {QStringLiteral("responseHeaders"),
                QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Content-Type")},
                                       {QStringLiteral("value"), imageMediaType(bytes)}},
                           QJsonObject{{QStringLiteral("name"), QStringLiteral("Cache-Control")},
                                       {QStringLiteral("value"), QStringLiteral("no-store")}}}},
               {QStringLiteral("body"), QString::fromLatin1(bytes.toBase64())}},
              target, true, m_cancellation.deadline());
}

// A frame in another renderer process (a sandboxed or cross-site iframe) or a worker,
// auto-attached under the page and paused before it runs: it gets the page's request
// interception and script switch, and attaches its own children in turn; then it runs.
// A worker never does: workers are refused (docs/templates.md).
void ChromiumPageRun::attachChild(const QJsonObject &params)
{
    const QString child = params.value(QLatin1String("sessionId")).toString();
    const QJsonObject info = params.value(QLatin1String("targetInfo")).toObject();
    const QString type = info.value(QLatin1String("type")).toString();
    if (child.isEmpty())
        return;
    if (m_debug)
        qInfo("chromium: attached %s %s", qPrintable(type), qPrintable(info.value(QLatin1String("url")).toString()));
    m_c->route(child, m_session);
    m_children.append(child);
    if (type == QLatin1String("iframe"))
        m_frames.append(child);
    if (type != QLatin1String("iframe")) {
        warn(info.value(QLatin1String("url")).toString(), QStringLiteral("the html engine runs no %1").arg(type));
        return; // left paused until the context is disposed
    }
    m_c->send(QStringLiteral("Fetch.enable"),
              {{QStringLiteral("patterns"), QJsonArray{QJsonObject{{QStringLiteral("urlPattern"), QStringLiteral("*")}}}}},
              child, true);
    if (!m_allowScript)
        m_c->send(QStringLiteral("Emulation.setScriptExecutionDisabled"), {{QStringLiteral("value"), true}}, child,
                  true);
    m_c->send(QStringLiteral("Target.setAutoAttach"), autoAttachParams(), child, true);
    m_c->send(QStringLiteral("Runtime.runIfWaitingForDebugger"), {}, child, true);
}

void ChromiumPageRun::handleEvent(const QJsonObject &event)
{
    const QString method = event.value(QLatin1String("method")).toString();
    if (method == QLatin1String("Target.attachedToTarget"))
        attachChild(event.value(QLatin1String("params")).toObject());
    else if (method == QLatin1String("Fetch.requestPaused"))
        handlePaused(event.value(QLatin1String("params")).toObject(), event.value(QLatin1String("sessionId")).toString());
}

// Answers the page's requests as they are paused: the document itself, data: URLs load,
// asset: URLs and the service's file URLs are served from the space's assets, other
// images over http(s) go to the fetch hook on a thread of their own, the rest is refused.
void ChromiumPageRun::handlePaused(const QJsonObject &params, const QString &target)
{
    const QString requestId = params.value(QLatin1String("requestId")).toString();
    const QString urlText = params.value(QLatin1String("request")).toObject().value(QLatin1String("url")).toString();
    const QUrl url(urlText);
    const QString scheme = url.scheme();
    if (scheme == QLatin1String("data")) {
        if (const std::optional<QString> refused = oversizedDataImage(urlText)) {
            failRequest(requestId, target);
            warn(urlText, *refused);
            return;
        }
        m_c->send(QStringLiteral("Fetch.continueRequest"), {{QStringLiteral("requestId"), requestId}}, target, true);
        return;
    }
    const QString resourceType = params.value(QLatin1String("resourceType")).toString();
    if (serveDocument(requestId, target, urlText, resourceType))
        return;
    if (urlText == kPageUrl + QLatin1String("favicon.ico")) {
        // The browser's own request for the page's icon, which no render draws.
        failRequest(requestId, target);
        return;
    }
    // Anything else may be kept by URL in the document (writeDocument()).
    m_askedUrls = true;
    const bool serviceFile = isServiceFileUrl(url);
    if ((scheme == QLatin1String("asset") || serviceFile) && m_page.loadAsset) {
        serveAsset(requestId, target, urlText);
        return;
    }
    const bool web = scheme == QLatin1String("http") || scheme == QLatin1String("https");
    const bool image = resourceType == QLatin1String("Image");
    // A relative URL other than a stored file's resolves to the page's own origin,
    // which serves nothing else.
    const bool ownOrigin = url.host() == QUrl(kPageUrl).host();
    if (!web || !image || ownOrigin || serviceFile || !m_fetch) {
        failRequest(requestId, target);
        warn(urlText, !web          ? QStringLiteral("the html engine loads only data: URLs, asset: images, the "
                                                     "space's files and http(s) images")
                      : !image      ? QStringLiteral("the html engine loads only images over http(s)")
                      : serviceFile ? QStringLiteral("this render has no files to load")
                      : ownOrigin   ? QStringLiteral("a relative URL loads only the space's files "
                                                     "(/api/v1/files/…)")
                                    : QStringLiteral("this server loads no remote images"));
        return;
    }
    const QDeadlineTimer deadline = m_cancellation.deadline();
    m_fetches.push_back(PendingFetch{requestId, target, urlText,
                                     std::async(std::launch::async,
                                                [fetch = m_fetch, url, deadline] { return fetch(url, deadline); })});
}

bool ChromiumPageRun::serveDocument(const QString &requestId, const QString &target, const QString &urlText,
                                    const QString &resourceType)
{
    if (m_documentServed || target != m_session || urlText != kPageUrl || resourceType != QLatin1String("Document"))
        return false;
    // The page itself, once: from this origin it is the only document.
    m_documentServed = true;
    const QString page = withoutOversizedDataImages(
        m_page.html, [this](const QString &url, const QString &why) { warn(url, why); });
    m_c->send(QStringLiteral("Fetch.fulfillRequest"),
              {{QStringLiteral("requestId"), requestId},
               {QStringLiteral("responseCode"), 200},
               {QStringLiteral("responseHeaders"),
                QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Content-Type")},
                                       {QStringLiteral("value"), QStringLiteral("text/html; charset=utf-8")}},
                           QJsonObject{{QStringLiteral("name"), QStringLiteral("Cache-Control")},
                                       {QStringLiteral("value"), QStringLiteral("no-store")}},
                           QJsonObject{{QStringLiteral("name"), QStringLiteral("Content-Security-Policy")},
                                       {QStringLiteral("value"), pageContentSecurityPolicy(m_allowScript)}}}},
               {QStringLiteral("body"), QString::fromLatin1(page.toUtf8().toBase64())}},
              m_session, true, m_cancellation.deadline());
    return true;
}

// The space's stored assets (`asset:ID`, or the service's own file URL of one), looked up
// as the JSON engines do (a database row and a stored file, no network), only the
// render's space's: answered at once.
void ChromiumPageRun::serveAsset(const QString &requestId, const QString &target, const QString &urlText)
{
    const ImageResult loaded = m_page.loadAsset(urlText);
    if (!loaded || loaded->isNull()) {
        const QString why = loaded.error_or(QString());
        failRequest(requestId, target);
        warn(urlText, why.isEmpty() ? QStringLiteral("the asset did not load") : why);
        return;
    }
    const QImage &asset = *loaded;
    // An SVG asset goes in as its sanitised source, so the browser draws it at the size
    // and device scale it is shown at; a raster one no larger than the page can use.
    const QByteArray svg = svgSource(asset);
    fulfil(requestId, svg.isEmpty() ? assetPng(boundedForPage(asset, m_page)) : svg, target, urlText);
}

// Hands the page the fetches that have ended.
void ChromiumPageRun::serveFetches()
{
    for (auto it = m_fetches.begin(); it != m_fetches.end();) {
        if (it->outcome.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
            ++it;
            continue;
        }
        const FetchOutcome o = it->outcome.get();
        if (o) {
            fulfil(it->requestId, *o, it->target, it->url);
        } else {
            failRequest(it->requestId, it->target);
            warn(it->url, o.error());
        }
        it = m_fetches.erase(it);
    }
}

} // namespace imprint::render
