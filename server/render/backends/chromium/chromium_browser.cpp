#include "server/render/backends/chromium/chromium_browser.h"

#include "server/render/backends/chromium/chromium_process.h"

#include "server/render/resources/image_decoder.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>

#include <cmath>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace imprint::render {

namespace {

RenderError makeError(const QString &field, const QString &message, RenderErrorCode code)
{
    RenderError e;
    e.field = field;
    e.message = message;
    e.code = code;
    return e;
}

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
struct FetchOutcome {
    std::optional<QByteArray> bytes;
    QString why;
};

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

/// Removes the browser profiles (imprint-chromium-PID-…) that servers which are no longer
/// running left in the temporary directory (a server killed with SIGKILL cleans nothing).
void removeStaleProfiles()
{
    static const QRegularExpression name(QStringLiteral("^imprint-chromium-(\\d+)-"));
    const QDir temp(QDir::tempPath());
    for (const QString &entry : temp.entryList({QStringLiteral("imprint-chromium-*")}, QDir::Dirs | QDir::Hidden)) {
        const auto m = name.match(entry);
        if (!m.hasMatch())
            continue;
        const qint64 pid = m.captured(1).toLongLong();
        if (pid == QCoreApplication::applicationPid() || (::kill(pid_t(pid), 0) == 0 || errno == EPERM))
            continue; // a live server's
        QDir(temp.filePath(entry)).removeRecursively();
    }
}

double elapsedMs(QElapsedTimer &timer)
{
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    return ms;
}

} // namespace

QString chromiumInstallHint()
{
    return QStringLiteral("the html engine needs Chromium: install it with `scripts/deps` "
                          "(or `apt-get install chromium`)");
}

struct ChromiumBrowser::Private {
    ChromiumOptions options;
    std::mutex mutex; // guards everything below
    std::condition_variable slotFree;
    int active = 0, waiting = 0;
    std::shared_ptr<DevToolsPipe> connection;
    std::unique_ptr<QTemporaryDir> profile;
    QElapsedTimer clock; // started with the object: slot ages
    std::multiset<qint64> activeSince; // when each running render took its slot, clock ms
    std::map<quint64, QString> queue; // waiting renders: ticket (arrival order) → tenant
    std::map<QString, int> activeByTenant; // slots each tenant holds
    quint64 nextTicket = 0;
    std::unique_ptr<RefusingPort> refusingPort; // the browser's proxy: refuses every connection
    ChromiumNetworkIsolation isolation = ChromiumNetworkIsolation::ProxyOnly;
    bool runningSandboxed = false; // the running browser has Chromium's sandbox
    QString runningAs; // the account it runs as, empty: this process's
    int starts = 0;
    int rendersSinceCheck = 0;
    /// The browser is past its memory bound: no render starts until the running ones
    /// have ended, then it is restarted (under steady load the pool is never idle).
    bool restartPending = false;

    /// The running browser, started when there is none or the last one died.
    std::shared_ptr<DevToolsPipe> browser(QString *why)
    {
        std::lock_guard lock(mutex);
        if (connection && connection->alive())
            return connection;
        connection.reset(); // the old one's destructor ends its processes
        if (!ChromiumBrowser::isInstalled(options.executable)) {
            *why = QStringLiteral("%1 was not found; %2").arg(options.executable, chromiumInstallHint());
            return nullptr;
        }
        // The profile's name carries this process's id, so a later server can tell a
        // dead one's leftovers (removeStaleProfiles()) from a live neighbour's.
        profile.reset();
        profile = std::make_unique<QTemporaryDir>(
            QDir::tempPath() + QStringLiteral("/imprint-chromium-%1-XXXXXX").arg(QCoreApplication::applicationPid()));
        // As root the browser runs as an unprivileged account, with Chromium's sandbox.
        const std::optional<ChromiumUser> user = chromiumUser(options.user);
        if (user && ::chown(QFile::encodeName(profile->path()).constData(), user->uid, user->gid) != 0) {
            *why = QStringLiteral("the browser's profile could not be given to %1").arg(user->name);
            return nullptr;
        }
        if (!refusingPort)
            refusingPort = std::make_unique<RefusingPort>();
        QStringList args{
            options.executable, QStringLiteral("--headless=new"), QStringLiteral("--remote-debugging-pipe"),
            QStringLiteral("--user-data-dir=%1").arg(profile->path()), QStringLiteral("--disable-gpu"),
            QStringLiteral("--disable-extensions"), QStringLiteral("--disable-background-networking"),
            QStringLiteral("--disable-component-update"), QStringLiteral("--disable-default-apps"),
            QStringLiteral("--disable-sync"), QStringLiteral("--no-first-run"),
            QStringLiteral("--no-default-browser-check"), QStringLiteral("--mute-audio"),
            QStringLiteral("--hide-scrollbars"),
            // The flags of scripts/chromium-oracle, so renders match the references.
            QStringLiteral("--font-render-hinting=none"), QStringLiteral("--force-device-scale-factor=1"),
            QStringLiteral("--default-background-color=00000000"),
            QStringLiteral("--js-flags=--max-old-space-size=%1").arg(options.jsHeapMb),
            // Every frame of a page in the page's renderer, where the page's request
            // interception sees its requests (sandboxed and cross-site frames would each get
            // a process of their own); a frame that still gets one is attached (attachChild).
            QStringLiteral("--disable-features=IsolateSandboxedIframes"),
            QStringLiteral("--disable-site-isolation-trials")};
        args += chromiumNetworkSwitches(refusingPort->port());
        // Scripts off in every renderer, every frame of every page, unless the server lets
        // templates opt in (then each page that did not is switched off over DevTools).
        if (!options.allowScript)
            args += QStringLiteral("--blink-settings=scriptEnabled=false");
        args += QStringLiteral("about:blank");
        // Chromium's sandbox cannot run as root: a server running as root without the
        // unprivileged account runs the browser as root without it (and says so).
        bool sandboxed = geteuid() != 0 || user.has_value();
        if (!sandboxed)
            args.insert(2, QStringLiteral("--no-sandbox"));
        isolation = options.isolateNetwork && chromiumCanIsolateNetwork() ? ChromiumNetworkIsolation::Namespace
                                                                         : ChromiumNetworkIsolation::ProxyOnly;
        auto c = std::make_shared<DevToolsPipe>();
        const auto started = [&](const std::shared_ptr<DevToolsPipe> &pipe) {
            if (!pipe->start(args, isolation, why, user, profile->path()))
                return DevToolsPipe::Wait::Dead;
            QJsonObject answer;
            const int id = pipe->send(QStringLiteral("Browser.getVersion"), {});
            return id ? pipe->wait(id, {}, &answer, nullptr, 30000) : DevToolsPipe::Wait::Dead;
        };
        auto w = started(c);
        if (w == DevToolsPipe::Wait::Dead && sandboxed) {
            // The host refuses Chromium's sandbox (no user namespaces for the account):
            // without it, still unprivileged and still off the network.
            qWarning("chromium: the browser did not start with its sandbox; starting it without");
            c = std::make_shared<DevToolsPipe>();
            args.insert(2, QStringLiteral("--no-sandbox"));
            sandboxed = false;
            w = started(c);
        }
        if (w != DevToolsPipe::Wait::Ready) {
            if (why->isEmpty())
                *why = QStringLiteral("%1 did not start; %2").arg(options.executable, chromiumInstallHint());
            return nullptr;
        }
        runningSandboxed = sandboxed;
        runningAs = user ? user->name : QString();
        ++starts;
        connection = c;
        return c;
    }

    /// The most slots one tenant may hold at once: the configured bound, else all but one
    /// (so one space's slow pages always leave a slot for another's).
    int maxPerTenant() const
    {
        return options.maxPerTenant > 0 ? std::min(options.maxPerTenant, options.pool)
                                        : std::max(1, options.pool - 1);
    }

    /// Waits for a slot of the pool for `tenant` (docs/templates.md, "Under load"): a
    /// tenant holds at most maxPerTenant() slots; a freed slot goes to the waiter whose
    /// tenant holds fewest, the earliest first; the wait is not charged to the render's
    /// deadline (it is moved by the time waited) but lasts at most options.queueTimeoutMs.
    /// False with `*err`: engine_busy when the queue is full or the wait ran out,
    /// render_budget_exceeded / render_cancelled when the render was stopped meanwhile.
    bool acquireSlot(const QString &tenant, const RenderCancellation &cancellation, RenderError *err)
    {
        std::unique_lock lock(mutex);
        const auto busy = [&](const QString &why) {
            *err = makeError({}, why, RenderErrorCode::EngineBusy);
            return false;
        };
        if (active >= options.pool && waiting >= options.queue)
            return busy(QStringLiteral("the html engine's queue is full (%1 renders running, %2 waiting)")
                            .arg(active)
                            .arg(waiting));
        const quint64 ticket = ++nextTicket;
        queue.emplace(ticket, tenant);
        ++waiting;
        QElapsedTimer waited;
        waited.start();
        const auto held = [&](const QString &t) {
            const auto it = activeByTenant.find(t);
            return it == activeByTenant.end() ? 0 : it->second;
        };
        // Whether this waiter's turn has come: a slot is free, its tenant is under its
        // bound, and no eligible waiter's tenant holds fewer slots or came first with as few.
        const auto myTurn = [&] {
            if (active >= options.pool || (restartPending && active > 0) || held(tenant) >= maxPerTenant())
                return false;
            for (const auto &[otherTicket, other] : queue) {
                if (otherTicket == ticket)
                    continue;
                const int h = held(other);
                if (h < maxPerTenant() && (h < held(tenant) || (h == held(tenant) && otherTicket < ticket)))
                    return false;
            }
            return true;
        };
        bool timedOut = false;
        qint64 charged = 0; // ms of the wait the deadline has been moved by
        while (!myTurn()) {
            slotFree.wait_for(lock, std::chrono::milliseconds(50));
            // Moved as the wait goes on, so the deadline cannot pass while waiting.
            const qint64 now = waited.elapsed();
            cancellation.extendDeadline(now - charged);
            charged = now;
            if (cancellation.isCancelled())
                break;
            if (waited.elapsed() >= options.queueTimeoutMs) {
                timedOut = true;
                break;
            }
        }
        queue.erase(ticket);
        --waiting;
        if (!myTurn()) {
            slotFree.notify_all(); // this waiter no longer stands in anyone's way
            if (timedOut)
                return busy(QStringLiteral("the html engine had no free slot for %1 ms (%2 renders running, %3 "
                                           "waiting)")
                                .arg(options.queueTimeoutMs)
                                .arg(active)
                                .arg(waiting));
            *err = makeError(QStringLiteral("deadline"), QStringLiteral("stopped while waiting for the html engine"),
                             cancellation.reason() == RenderCancellation::Reason::Deadline
                                 ? RenderErrorCode::RenderBudgetExceeded
                                 : RenderErrorCode::RenderCancelled);
            return false;
        }
        ++active;
        ++activeByTenant[tenant];
        cancellation.extendDeadline(waited.elapsed() - charged);
        return true;
    }

    /// Restarts the browser between renders when it has grown past its bound: measured
    /// every options.memoryCheckEvery renders; over the bound, new renders wait for the running ones to end.
    void checkMemory()
    {
        std::lock_guard lock(mutex);
        if (!connection)
            return;
        if (!restartPending && ++rendersSinceCheck >= options.memoryCheckEvery) {
            rendersSinceCheck = 0;
            restartPending = processGroupMemoryBytes(connection->pid()) > options.maxMemoryBytes;
        }
        if (restartPending && active == 0) {
            restartPending = false;
            connection.reset(); // the destructor ends every process of the old browser
            slotFree.notify_all();
        }
    }
};

ChromiumBrowser::ChromiumBrowser(ChromiumOptions options)
    : d(std::make_unique<Private>())
{
    d->options = std::move(options);
    d->options.pool = std::max(1, d->options.pool);
    d->clock.start();
    removeStaleProfiles();
}

ChromiumBrowser::~ChromiumBrowser() = default;

bool ChromiumBrowser::isInstalled(const QString &executable)
{
    const QFileInfo info(executable);
    return info.isFile() && info.isExecutable();
}

qint64 ChromiumBrowser::processId() const
{
    std::lock_guard lock(d->mutex);
    return d->connection && d->connection->alive() ? d->connection->pid() : 0;
}

int ChromiumBrowser::starts() const
{
    std::lock_guard lock(d->mutex);
    return d->starts;
}

qint64 ChromiumBrowser::memoryBytes() const
{
    return processGroupMemoryBytes(pid_t(processId()));
}

ChromiumBrowser::State ChromiumBrowser::state() const
{
    std::lock_guard lock(d->mutex);
    State s;
    s.running = d->connection && d->connection->alive();
    s.networkNamespace = s.running ? d->isolation == ChromiumNetworkIsolation::Namespace
                                   : d->options.isolateNetwork && chromiumCanIsolateNetwork();
    s.sandboxed = s.running && d->runningSandboxed;
    s.user = s.running ? d->runningAs : QString();
    s.active = d->active;
    s.waiting = d->waiting;
    s.oldestActiveMs = d->activeSince.empty() ? 0 : d->clock.elapsed() - *d->activeSince.begin();
    return s;
}

std::optional<QImage> ChromiumBrowser::render(const ChromiumPage &page, const RenderCancellation &cancellation,
                                              RenderError *error, ChromiumTimings *timings, QStringList *warnings)
{
    ChromiumPage imagePage = page;
    imagePage.output = ChromiumPage::Output::Image;
    auto out = capture(imagePage, cancellation, error, timings, warnings);
    if (!out)
        return std::nullopt;
    return std::move(out->image);
}

std::optional<ChromiumCapture> ChromiumBrowser::capture(const ChromiumPage &page,
                                                        const RenderCancellation &cancellation, RenderError *error,
                                                        ChromiumTimings *timings, QStringList *warnings)
{
    RenderError local;
    RenderError &err = error ? *error : local;
    ChromiumTimings localTimings;
    ChromiumTimings &t = timings ? *timings : localTimings;
    QElapsedTimer timer;
    timer.start();
    // IMPRINT_CHROMIUM_DEBUG: each step of the render on the log, read once per render.
    const bool debug = qEnvironmentVariableIsSet("IMPRINT_CHROMIUM_DEBUG");
    // Script runs only where the page asks and the server allows: the browser was started
    // with scripts off everywhere otherwise.
    const bool allowScript = page.allowScript && d->options.allowScript;

    // A slot of the pool, or engine_busy when too many wait already.
    if (!d->acquireSlot(page.tenant, cancellation, &err))
        return std::nullopt;
    const qint64 slotSince = d->clock.elapsed();
    {
        std::lock_guard lock(d->mutex);
        d->activeSince.insert(slotSince);
    }
    struct SlotGuard {
        Private *d;
        qint64 since;
        QString tenant;
        ~SlotGuard()
        {
            {
                std::lock_guard lock(d->mutex);
                --d->active;
                d->activeSince.erase(d->activeSince.find(since));
                if (--d->activeByTenant[tenant] <= 0)
                    d->activeByTenant.erase(tenant);
            }
            d->slotFree.notify_all(); // the waiter whose turn it is, whichever that is
            d->checkMemory();
        }
    } slot{d.get(), slotSince, page.tenant};

    // One try; a page whose renderer died under it (not from a deadline) is tried once
    // more in a fresh context, on a fresh browser if the old one is gone.
    bool rendererGone = false;
    auto attempt = [&]() -> std::optional<ChromiumCapture> {
        QString why;
        const std::shared_ptr<DevToolsPipe> c = d->browser(&why);
        rendererGone = false;
        if (!c) {
            err = makeError(QStringLiteral("renderType"), why, RenderErrorCode::EngineUnavailable);
            return std::nullopt;
        }
        t.wait = elapsedMs(timer);

        QString session, contextId;
        // The page's http(s) images being fetched, answered when their fetch ends. Declared
        // before anything that could outlive it: leaving the attempt waits for fetches still
        // running, which end by the render's deadline (or the fetch policy's time limit).
        struct PendingFetch {
            QString requestId;
            QString target; // the session the request was paused in
            QString url;
            std::future<FetchOutcome> outcome;
        };
        std::vector<PendingFetch> fetches;
        bool documentServed = false;
        QStringList children; // sessions of the frames and workers attached under the page
        const auto warn = [&](const QString &url, const QString &why) {
            if (warnings)
                warnings->append(QStringLiteral("html: %1 was not loaded: %2").arg(url.left(300), why));
        };
        // Replies go to the session the request was paused in: the page's, or a frame's
        // or worker's auto-attached under it.
        const auto failRequest = [&](const QString &requestId, const QString &target) {
            c->send(QStringLiteral("Fetch.failRequest"),
                    {{QStringLiteral("requestId"), requestId},
                     {QStringLiteral("errorReason"), QStringLiteral("BlockedByClient")}},
                    target, true);
        };
        const auto fulfil = [&](const QString &requestId, const QByteArray &bytes, const QString &target,
                                const QString &urlText) {
            // base64 is 4/3 of the bytes: a body over the pipe's message bound is refused
            // here, before a write the browser would never finish reading.
            if ((bytes.size() + 2) / 3 * 4 + 4096 > DevToolsPipe::kMaxMessageBytes) {
                failRequest(requestId, target);
                warn(urlText, QStringLiteral("it is %1 MiB, over the html engine's bound of %2 MiB per resource")
                                  .arg(double(bytes.size()) / (1 << 20), 0, 'f', 1)
                                  .arg(DevToolsPipe::kMaxMessageBytes * 3 / 4 >> 20));
                return;
            }
            c->send(QStringLiteral("Fetch.fulfillRequest"),
                    {{QStringLiteral("requestId"), requestId},
                     {QStringLiteral("responseCode"), 200},
                     {QStringLiteral("responseHeaders"),
                      QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Content-Type")},
                                             {QStringLiteral("value"), imageMediaType(bytes)}},
                                 QJsonObject{{QStringLiteral("name"), QStringLiteral("Cache-Control")},
                                             {QStringLiteral("value"), QStringLiteral("no-store")}}}},
                     {QStringLiteral("body"), QString::fromLatin1(bytes.toBase64())}},
                    target, true, cancellation.deadline());
        };
        // A frame in another renderer process (a sandboxed or cross-site iframe) or a worker,
        // auto-attached under the page and paused before it runs: it gets the page's request
        // interception and script switch, and attaches its own children in turn; then it
        // runs. A worker never does: workers are refused (docs/templates.md).
        auto attachChild = [&](const QJsonObject &params) {
            const QString child = params.value(QLatin1String("sessionId")).toString();
            const QString type
                = params.value(QLatin1String("targetInfo")).toObject().value(QLatin1String("type")).toString();
            if (child.isEmpty())
                return;
            if (debug)
                qInfo("chromium: attached %s %s", qPrintable(type),
                      qPrintable(params.value(QLatin1String("targetInfo")).toObject().value(QLatin1String("url")).toString()));
            c->route(child, session);
            children.append(child);
            if (type != QLatin1String("iframe")) {
                warn(params.value(QLatin1String("targetInfo")).toObject().value(QLatin1String("url")).toString(),
                     QStringLiteral("the html engine runs no %1").arg(type));
                return; // left paused until the context is disposed
            }
            c->send(QStringLiteral("Fetch.enable"),
                    {{QStringLiteral("patterns"),
                      QJsonArray{QJsonObject{{QStringLiteral("urlPattern"), QStringLiteral("*")}}}}},
                    child, true);
            if (!allowScript)
                c->send(QStringLiteral("Emulation.setScriptExecutionDisabled"), {{QStringLiteral("value"), true}},
                        child, true);
            c->send(QStringLiteral("Target.setAutoAttach"), autoAttachParams(), child, true);
            c->send(QStringLiteral("Runtime.runIfWaitingForDebugger"), {}, child, true);
        };
        // Answers the page's requests as they are paused: the document itself, data: URLs
        // load, asset: URLs and the service's file URLs are served from the space's assets,
        // other images over http(s) go to the fetch hook on a thread of their own, the rest
        // is refused.
        auto handleEvent = [&](const QJsonObject &event) {
            const QString method = event.value(QLatin1String("method")).toString();
            const QString target = event.value(QLatin1String("sessionId")).toString();
            if (method == QLatin1String("Target.attachedToTarget")) {
                attachChild(event.value(QLatin1String("params")).toObject());
                return;
            }
            if (method != QLatin1String("Fetch.requestPaused"))
                return;
            const QJsonObject params = event.value(QLatin1String("params")).toObject();
            const QString requestId = params.value(QLatin1String("requestId")).toString();
            const QString urlText
                = params.value(QLatin1String("request")).toObject().value(QLatin1String("url")).toString();
            const QUrl url(urlText);
            const QString scheme = url.scheme();
            if (scheme == QLatin1String("data")) {
                c->send(QStringLiteral("Fetch.continueRequest"), {{QStringLiteral("requestId"), requestId}}, target,
                        true);
                return;
            }
            const QString resourceType = params.value(QLatin1String("resourceType")).toString();
            if (!documentServed && target == session && urlText == kPageUrl
                && resourceType == QLatin1String("Document")) {
                // The page itself, once: from this origin it is the only document.
                documentServed = true;
                c->send(QStringLiteral("Fetch.fulfillRequest"),
                        {{QStringLiteral("requestId"), requestId},
                         {QStringLiteral("responseCode"), 200},
                         {QStringLiteral("responseHeaders"),
                          QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Content-Type")},
                                                 {QStringLiteral("value"), QStringLiteral("text/html; charset=utf-8")}},
                                     QJsonObject{{QStringLiteral("name"), QStringLiteral("Cache-Control")},
                                                 {QStringLiteral("value"), QStringLiteral("no-store")}},
                                     QJsonObject{{QStringLiteral("name"), QStringLiteral("Content-Security-Policy")},
                                                 {QStringLiteral("value"), pageContentSecurityPolicy(allowScript)}}}},
                         {QStringLiteral("body"), QString::fromLatin1(page.html.toUtf8().toBase64())}},
                        session, true, cancellation.deadline());
                return;
            }
            if (urlText == kPageUrl + QLatin1String("favicon.ico")) {
                // The browser's own request for the page's icon, which no render draws.
                failRequest(requestId, target);
                return;
            }
            const bool serviceFile = isServiceFileUrl(url);
            if ((scheme == QLatin1String("asset") || serviceFile) && page.loadAsset) {
                // The space's stored assets (`asset:ID`, or the service's own file URL of one),
                // looked up as the JSON engines do (a database row and a stored file, no
                // network), only the render's space's: answered at once.
                QString why;
                const QImage asset = page.loadAsset(urlText, &why);
                if (asset.isNull()) {
                    failRequest(requestId, target);
                    warn(urlText, why.isEmpty() ? QStringLiteral("the asset did not load") : why);
                    return;
                }
                // An SVG asset goes in as its sanitised source, so the browser draws it at the
                // size and device scale it is shown at; a raster one no larger than the page
                // can use.
                const QByteArray svg = svgSource(asset);
                fulfil(requestId, svg.isEmpty() ? assetPng(boundedForPage(asset, page)) : svg, target, urlText);
                return;
            }
            const bool web = scheme == QLatin1String("http") || scheme == QLatin1String("https");
            const bool image = resourceType == QLatin1String("Image");
            // A relative URL other than a stored file's resolves to the page's own origin,
            // which serves nothing else.
            const bool ownOrigin = url.host() == QUrl(kPageUrl).host();
            if (!web || !image || ownOrigin || serviceFile || !d->options.fetch) {
                failRequest(requestId, target);
                warn(urlText, !web     ? QStringLiteral("the html engine loads only data: URLs, asset: images, the "
                                                            "space's files and http(s) images")
                              : !image ? QStringLiteral("the html engine loads only images over http(s)")
                              : serviceFile ? QStringLiteral("this render has no files to load")
                              : ownOrigin   ? QStringLiteral("a relative URL loads only the space's files "
                                                               "(/api/v1/files/…)")
                                            : QStringLiteral("this server loads no remote images"));
                return;
            }
            const QDeadlineTimer deadline = cancellation.deadline();
            fetches.push_back(PendingFetch{requestId, target, urlText,
                                           std::async(std::launch::async, [fetch = d->options.fetch, url, deadline] {
                                               FetchOutcome o;
                                               o.bytes = fetch(url, deadline, &o.why);
                                               return o;
                                           })});
        };
        // Hands the page the fetches that have ended.
        auto serveFetches = [&]() {
            for (auto it = fetches.begin(); it != fetches.end();) {
                if (it->outcome.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
                    ++it;
                    continue;
                }
                const FetchOutcome o = it->outcome.get();
                if (o.bytes) {
                    fulfil(it->requestId, *o.bytes, it->target, it->url);
                } else {
                    failRequest(it->requestId, it->target);
                    warn(it->url, o.why);
                }
                it = fetches.erase(it);
            }
        };
        // How long one wait for the browser lasts: short while a fetch may end meanwhile.
        const auto pollMs = [&] { return fetches.empty() ? 50 : 5; };
        auto stoppedError = [&]() {
            const auto reason = cancellation.reason();
            if (reason == RenderCancellation::Reason::Deadline)
                return makeError(
                    QStringLiteral("deadline"),
                    QStringLiteral("the render took longer than its deadline of %1 ms").arg(cancellation.deadlineMs()),
                    RenderErrorCode::RenderBudgetExceeded);
            return makeError({}, QStringLiteral("the render was stopped"), RenderErrorCode::RenderCancelled);
        };
        QSet<QString> seen; // methods of the page events call() took in while waiting
        // Sends `method` and waits for its answer, serving the page's requests meanwhile.
        auto call = [&](const QString &method, const QJsonObject &params, bool onPage,
                        QJsonObject *result = nullptr) -> bool {
            const int id = c->send(method, params, onPage ? session : QString(), false, cancellation.deadline());
            if (debug)
                qInfo("chromium: %s at %.0f ms", qPrintable(method), double(timer.nsecsElapsed()) / 1e6);
            for (;;) {
                if (!id) {
                    err = makeError({}, QStringLiteral("the browser stopped during the render"),
                                    RenderErrorCode::EncodeFailed);
                    return false;
                }
                if (cancellation.isCancelled()) {
                    err = stoppedError();
                    return false;
                }
                serveFetches();
                QJsonObject answer, event;
                switch (c->wait(id, session, &answer, session.isEmpty() ? nullptr : &event, pollMs())) {
                case DevToolsPipe::Wait::Ready: {
                    if (answer.contains(QLatin1String("error"))) {
                        err = makeError({},
                                        QStringLiteral("Chromium: %1: %2")
                                            .arg(method, answer.value(QLatin1String("error"))
                                                             .toObject()
                                                             .value(QLatin1String("message"))
                                                             .toString()),
                                        RenderErrorCode::EncodeFailed);
                        return false;
                    }
                    if (result)
                        *result = answer.value(QLatin1String("result")).toObject();
                    return true;
                }
                case DevToolsPipe::Wait::Event:
                    if (event.value(QLatin1String("method")).toString() == QLatin1String("Inspector.detached")
                        && event.value(QLatin1String("sessionId")).toString() == session) {
                        err = makeError({}, QStringLiteral("the page's renderer stopped"),
                                        RenderErrorCode::EncodeFailed);
                        if (debug)
                            qInfo("chromium: detached: %s", QJsonDocument(event).toJson(QJsonDocument::Compact).constData());
                        rendererGone = true;
                        return false;
                    }
                    // An event can come before the answer it follows (the load event
                    // before Page.navigate's): waitEvent() must still see it.
                    seen.insert(event.value(QLatin1String("method")).toString());
                    handleEvent(event);
                    break;
                case DevToolsPipe::Wait::Dead:
                    err = makeError({}, QStringLiteral("the browser stopped during the render"),
                                    RenderErrorCode::EncodeFailed);
                    return false;
                case DevToolsPipe::Wait::Timeout: break;
                }
            }
        };
        // Waits for the page's event `name`, serving its requests meanwhile.
        auto waitEvent = [&](const QString &name) -> bool {
            if (debug)
                qInfo("chromium: waiting for %s at %.0f ms", qPrintable(name), double(timer.nsecsElapsed()) / 1e6);
            if (seen.contains(name))
                return true;
            for (;;) {
                if (cancellation.isCancelled()) {
                    err = stoppedError();
                    return false;
                }
                serveFetches();
                QJsonObject answer, event;
                switch (c->wait(0, session, &answer, &event, pollMs())) {
                case DevToolsPipe::Wait::Event:
                    if (event.value(QLatin1String("method")).toString() == name)
                        return true;
                    if (event.value(QLatin1String("method")).toString() == QLatin1String("Inspector.detached")
                        && event.value(QLatin1String("sessionId")).toString() == session) {
                        err = makeError({}, QStringLiteral("the page's renderer stopped"),
                                        RenderErrorCode::EncodeFailed);
                        if (debug)
                            qInfo("chromium: detached: %s", QJsonDocument(event).toJson(QJsonDocument::Compact).constData());
                        rendererGone = true;
                        return false;
                    }
                    handleEvent(event);
                    break;
                case DevToolsPipe::Wait::Dead:
                    err = makeError({}, QStringLiteral("the browser stopped during the render"),
                                    RenderErrorCode::EncodeFailed);
                    return false;
                default: break;
                }
            }
        };

        const int width = page.size.width(), height = page.size.height();
        QJsonObject r;
        bool ok = call(QStringLiteral("Target.createBrowserContext"), {{QStringLiteral("disposeOnDetach"), true}},
                       false, &r);
        contextId = r.value(QLatin1String("browserContextId")).toString();
        ok = ok
             && call(QStringLiteral("Target.createTarget"),
                     {{QStringLiteral("url"), QStringLiteral("about:blank")},
                      {QStringLiteral("browserContextId"), contextId},
                      {QStringLiteral("width"), width},
                      {QStringLiteral("height"), height}},
                     false, &r);
        const QString targetId = r.value(QLatin1String("targetId")).toString();
        ok = ok
             && call(QStringLiteral("Target.attachToTarget"),
                     {{QStringLiteral("targetId"), targetId}, {QStringLiteral("flatten"), true}}, false, &r);
        if (ok)
            session = r.value(QLatin1String("sessionId")).toString();
        ok = ok && call(QStringLiteral("Page.enable"), {}, true);
        // Every frame and worker the page makes in another process is attached, paused,
        // before it loads anything (attachChild), so the policy below sees its requests.
        ok = ok && call(QStringLiteral("Target.setAutoAttach"), autoAttachParams(), true);
        ok = ok
             && call(QStringLiteral("Fetch.enable"),
                     {{QStringLiteral("patterns"),
                       QJsonArray{QJsonObject{{QStringLiteral("urlPattern"), QStringLiteral("*")}}}}},
                     true);
        if (!allowScript)
            ok = ok
                 && call(QStringLiteral("Emulation.setScriptExecutionDisabled"), {{QStringLiteral("value"), true}},
                         true);
        ok = ok
             && call(QStringLiteral("Emulation.setDeviceMetricsOverride"),
                     {{QStringLiteral("width"), width},
                      {QStringLiteral("height"), height},
                      {QStringLiteral("deviceScaleFactor"), page.scale},
                      {QStringLiteral("mobile"), false}},
                     true);
        ok = ok
             && call(QStringLiteral("Emulation.setDefaultBackgroundColorOverride"),
                     {{QStringLiteral("color"), QJsonObject{{QStringLiteral("r"), 0},
                                                            {QStringLiteral("g"), 0},
                                                            {QStringLiteral("b"), 0},
                                                            {QStringLiteral("a"), 0}}}},
                     true);
        // The document is served by the interception at kPageUrl (handleEvent), so relative
        // URLs in it (`/api/v1/files/…`) resolve to requests the interception answers.
        ok = ok && call(QStringLiteral("Page.navigate"), {{QStringLiteral("url"), kPageUrl}}, true);
        ok = ok && waitEvent(QStringLiteral("Page.loadEventFired"));
        // Web fonts may still be loading at the load event.
        ok = ok
             && call(QStringLiteral("Runtime.evaluate"),
                     {{QStringLiteral("expression"), QStringLiteral("document.fonts.ready.then(() => 0)")},
                      {QStringLiteral("awaitPromise"), true}},
                     true);
        t.navigate = elapsedMs(timer);
        std::optional<ChromiumCapture> out;
        if (page.output == ChromiumPage::Output::Pdf) {
            // One sheet the page's size: CSS px at 96 per inch (CSS Values 4 §6.2).
            ok = ok
                 && call(QStringLiteral("Page.printToPDF"),
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
            QJsonObject params{{QStringLiteral("format"), QStringLiteral("png")},
                               {QStringLiteral("clip"), QJsonObject{{QStringLiteral("x"), 0},
                                                                    {QStringLiteral("y"), 0},
                                                                    {QStringLiteral("width"), width},
                                                                    {QStringLiteral("height"), height},
                                                                    {QStringLiteral("scale"), 1}}}};
            if (page.output == ChromiumPage::Output::Png && page.fastPng)
                params.insert(QStringLiteral("optimizeForSpeed"), true);
            ok = ok && call(QStringLiteral("Page.captureScreenshot"), params, true, &r);
        }
        if (ok) {
            QByteArray bytes = QByteArray::fromBase64(r.value(QLatin1String("data")).toString().toLatin1());
            if (page.output == ChromiumPage::Output::Image) {
                const QImage shot = QImage::fromData(bytes, "PNG");
                if (shot.isNull())
                    err = makeError({}, QStringLiteral("Chromium's screenshot did not decode"),
                                    RenderErrorCode::EncodeFailed);
                else
                    out = ChromiumCapture{shot.convertToFormat(QImage::Format_ARGB32_Premultiplied), {}};
            } else if (bytes.isEmpty()) {
                err = makeError({},
                                QStringLiteral("Chromium returned no %1")
                                    .arg(page.output == ChromiumPage::Output::Pdf ? QStringLiteral("PDF")
                                                                                  : QStringLiteral("screenshot")),
                                RenderErrorCode::EncodeFailed);
            } else {
                out = ChromiumCapture{{}, std::move(bytes)};
            }
        }
        t.capture = elapsedMs(timer);

        // Free the page whatever happened: disposing the context closes its page and ends its
        // renderer (a page stuck in a script loop included). A browser that does not answer
        // within 2 s is ended; the next render starts a new one.
        if (!session.isEmpty())
            c->dropSession(session);
        for (const QString &child : std::as_const(children))
            c->dropSession(child);
        if (!contextId.isEmpty()) {
            const int id = c->send(QStringLiteral("Target.disposeBrowserContext"),
                                   {{QStringLiteral("browserContextId"), contextId}});
            QJsonObject answer;
            QElapsedTimer disposing;
            disposing.start();
            const auto w = id ? c->wait(id, {}, &answer, nullptr, 2000) : DevToolsPipe::Wait::Dead;
            if (debug)
                qInfo("chromium: wait %.0f navigate %.0f capture %.0f dispose %lld ms (%d) %s", t.wait, t.navigate,
                      t.capture, disposing.elapsed(), int(w), out ? "" : qPrintable(err.message));
            if (w != DevToolsPipe::Wait::Ready)
                c->kill();
        }
        if (!out && !c->alive()) {
            std::lock_guard lock(d->mutex);
            if (d->connection == c)
                d->connection.reset();
        }
        return out;
    };
    auto out = attempt();
    if (!out && (rendererGone || err.code == RenderErrorCode::EncodeFailed) && !cancellation.isCancelled())
        out = attempt();
    return out;
}

} // namespace imprint::render
