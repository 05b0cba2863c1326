#pragma once
// One attempt at drawing a page on the html engine's browser (chromium_browser.h), in the
// steps of ChromiumBrowser::capture(): open a fresh browser context and its page with
// request interception (openPage), navigate and wait for the load and the fonts
// (navigate; a kept page has the document written into its open one: writeDocument),
// screenshot or print (takeOutput), release the context whatever happened (release). Meanwhile every DevTools call serves the page's paused requests (the
// document, data: URLs, the space's assets, http(s) images through the fetch hook) and
// attaches the frames and workers it makes. Internal to the html engine's browser.

#include "server/render/backends/chromium/chromium_browser.h"
#include "server/render/backends/chromium/chromium_layer_cost.h"
#include "server/render/backends/chromium/chromium_process.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QSet>

#include <future>
#include <memory>
#include <optional>
#include <vector>

namespace imprint::render {

/// A page kept open after a render, for the next render of the same tenant
/// (ChromiumBrowser's warm pages, issue 33): its browser context and the session attached
/// to it. Only pages that ran no script are kept, so nothing a page could store carries
/// over, and only for the same tenant, so nothing crosses spaces.
struct ChromiumKeptPage {
    QString contextId;
    QString session;
    int uses = 0; ///< renders drawn on it so far
    QSize size; ///< its viewport, CSS px
    double scale = 1; ///< its device scale factor
    /// The loader of its document: a document written into it keeps it, and its load
    /// lifecycle event names it.
    QString loaderId;
    /// Its document asked for nothing but data: URLs, so a next document may be written
    /// into it (ChromiumPageRun::writeDocument()): a written document keeps the images its
    /// predecessor loaded, by URL, whatever they are now (Chromium's list of available
    /// images; Cache-Control and Network.setCacheDisabled do not clear it).
    bool writable = false;
    /// It is drawn small again (ChromiumPageRun::setViewport()), as the next document
    /// must be until its layers are weighed: the next render saves that round trip.
    bool held = false;
};

/// One page render on `pipe`'s browser. Not thread-safe; one per attempt.
class ChromiumPageRun
{
public:
    using FetchHook = decltype(ChromiumOptions::fetch);

    /// Draws `page` on `pipe` under `cancellation`, fetching http(s) images with `fetch`
    /// (may be empty: refused), with script when `allowScript`; warnings about what the
    /// page could not load go to `warnings` (may be null), each step on the log when
    /// `debug`. `timer` runs since the render began (the steps' times are laps of it).
    ChromiumPageRun(std::shared_ptr<DevToolsPipe> pipe, const ChromiumPage &page,
                    const RenderCancellation &cancellation, FetchHook fetch, bool allowScript, bool debug,
                    QStringList *warnings, QElapsedTimer &timer);
    /// Waits for the fetches still running, which end by the render's deadline (or the
    /// fetch policy's time limit).
    ~ChromiumPageRun();
    ChromiumPageRun(const ChromiumPageRun &) = delete;
    ChromiumPageRun &operator=(const ChromiumPageRun &) = delete;

    /// Draws on `page` (a page an earlier run kept) instead of opening a fresh one: its
    /// viewport is set to this render's (when it differs) and the previous render's leftover events are
    /// dropped. Call before run().
    void adopt(const ChromiumKeptPage &page) { m_adopted = page; }
    /// Whether run() may keep the page open when it captured (kept() then says so)
    /// instead of disposing of its browser context.
    void setMayKeep(bool mayKeep) { m_mayKeep = mayKeep; }
    /// The page's compositing budget (chromium_layer_cost.h), weighted device megapixels:
    /// a loaded page whose layers cost more is refused with render_budget_exceeded before
    /// its screenshot is asked for. 0: not checked. `shares` (may be null): the page then
    /// also waits for its space's share of the budget before it is drawn full size, and
    /// holds its cost until this run ends.
    void setLayerBudget(double budget, CompositingShares *shares = nullptr)
    {
        m_layerBudget = budget;
        m_shares = shares;
    }
    /// After run(): the page left open for a next render (its owner keeps it or disposes
    /// of it with disposeKeptPage()), or nullopt when run() disposed of it.
    const std::optional<ChromiumKeptPage> &kept() const { return m_kept; }

    /// Runs every step, filling `timings`' navigate and capture times: the capture, or
    /// nullopt with error() set.
    std::optional<ChromiumCapture> run(ChromiumTimings &timings);

    /// Why run() failed.
    const RenderError &error() const { return m_err; }
    /// Whether it failed because the page's renderer died (not from a deadline): worth
    /// one more try in a fresh context.
    bool rendererGone() const { return m_rendererGone; }

private:
    struct PendingFetch;

    bool openPage();
    bool resetPage();
    bool setViewport(bool hold);
    QJsonObject viewportMetrics(bool hold) const;
    /// Whether the page is drawn small until its layers are weighed (setViewport()).
    bool held() const { return m_layerBudget > 0; }
    bool navigate();
    bool writeDocument();
    bool waitFonts();
    bool withinLayerBudget();
    std::optional<ChromiumCapture> takeOutput();
    void release(bool captured, const ChromiumTimings &timings);

    bool call(const QString &method, const QJsonObject &params, bool onPage, QJsonObject *result = nullptr);
    bool callOn(const QString &session, const QString &method, const QJsonObject &params, QJsonObject *result);
    bool waitLoad(const QString &loader);
    bool screenshot(const QJsonObject &params, QJsonObject *result);
    /// Waits one poll for an event of the page and handles it, or for the answer to `id`
    /// (when not 0: into `*answer`, `*answered` set); false (error() set) when the page's
    /// renderer or the browser is gone.
    bool serveOnce(int id = 0, QJsonObject *answer = nullptr, bool *answered = nullptr);
    void noteLoad(const QJsonObject &event);
    bool detached(const QJsonObject &event);
    RenderError stoppedError() const;
    int pollMs() const { return m_fetches.empty() ? 50 : 5; }

    void handleEvent(const QJsonObject &event);
    void handlePaused(const QJsonObject &params, const QString &target);
    bool serveDocument(const QString &requestId, const QString &target, const QString &urlText,
                       const QString &resourceType);
    void serveAsset(const QString &requestId, const QString &target, const QString &urlText);
    void attachChild(const QJsonObject &params);
    void serveFetches();
    void fulfil(const QString &requestId, const QByteArray &bytes, const QString &target, const QString &urlText);
    void failRequest(const QString &requestId, const QString &target);
    void warn(const QString &url, const QString &why);

    std::shared_ptr<DevToolsPipe> m_c;
    const ChromiumPage &m_page;
    const RenderCancellation &m_cancellation;
    FetchHook m_fetch;
    const bool m_allowScript;
    const bool m_debug;
    QStringList *m_warnings;
    QElapsedTimer &m_timer;
    RenderError m_err;
    bool m_rendererGone = false;
    QString m_session, m_contextId;
    QString m_loaderId; // the loader of the page's document (navigate())
    bool m_askedUrls = false; // the page asked for a URL other than its document's and data:
    std::vector<PendingFetch> m_fetches; // the page's http(s) images being fetched
    bool m_documentServed = false;
    QStringList m_children; // sessions of the frames and workers attached under the page
    QStringList m_frames; // those of m_children that are frames (in other renderer processes)
    double m_layerBudget = 0;
    CompositingShares *m_shares = nullptr;
    std::optional<CompositingShares::Hold> m_compositingHold; ///< given back when the run ends
    QSet<QString> m_loaded; // loaderIds whose load lifecycle event has come
    std::optional<ChromiumKeptPage> m_adopted; // the kept page this run draws on
    bool m_mayKeep = false;
    std::optional<ChromiumKeptPage> m_kept; // the page left open by release()
};

/// Disposes of a kept page's browser context on `pipe` without waiting for the answer
/// (the context's renderer ends with it).
void disposeKeptPage(DevToolsPipe &pipe, const ChromiumKeptPage &page);

} // namespace imprint::render
