#include "server/render/backends/chromium/chromium_browser.h"

#include "server/render/backends/chromium/chromium_layer_cost.h"

#include "server/render/backends/chromium/chromium_page_run.h"
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
#include <QThread>

#include <cmath>
#include <atomic>
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

/// The longest a render waits for a browser restart (after a crash or for memory) before
/// it is answered engine_starting, besides half its deadline (5 s of the default 10 s): a
/// restart takes 1-2.5 s on a loaded 2-core machine, more when the suites run beside it.
constexpr qint64 kRestartWaitMs = 6000;

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

int ChromiumOptions::defaultPool()
{
    return std::max(1, QThread::idealThreadCount()) + 2;
}

QString chromiumInstallHint()
{
    return QStringLiteral("the html engine needs Chromium: install it with `scripts/deps` "
                          "(or `apt-get install chromium`)");
}

struct ChromiumBrowser::Private {
    ChromiumOptions options;
    /// What each space's pages being drawn cost the one compositor (made with `options`).
    std::unique_ptr<CompositingShares> compositing;
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
    std::weak_ptr<DevToolsPipe> killedForMemory; // the last browser watchMemory() ended
    ChromiumNetworkIsolation isolation = ChromiumNetworkIsolation::ProxyOnly;
    bool runningSandboxed = false; // the running browser has Chromium's sandbox
    QString runningAs; // the account it runs as, empty: this process's
    int starts = 0;
    int rendersSinceCheck = 0;
    /// The browser is past its memory bound: no render starts until the running ones
    /// have ended, then it is restarted (under steady load the pool is never idle).
    bool restartPending = false;
    // The starter thread (starterLoop()) and what it is told and tells.
    std::thread starter;
    std::condition_variable startChanged;
    std::atomic<bool> stopping = false; // read by launch() without the lock
    bool wanted = false; // a browser should run (asked by start() or a render)
    bool starting = false; // a start is under way
    QElapsedTimer startedAt; // since the start under way began
    QString startFailure; // why the last start failed, until a render asks again

    /// A page kept open between renders of one tenant (ChromiumPageRun::kept()).
    struct WarmPage {
        std::weak_ptr<DevToolsPipe> browser; // the browser it lives in: none after a restart
        QString tenant;
        ChromiumKeptPage page;
        qint64 idleSince = 0; // clock ms
    };
    std::vector<WarmPage> warm; // oldest first; at most options.pool
    /// A warm page is used for this many renders, then disposed of: a renderer's memory
    /// grows with the documents it has drawn, and a fresh one is cheap once in a while.
    static constexpr int kWarmPageUses = 50;
    /// A warm page idle this long is disposed of when next looked at.
    static constexpr qint64 kWarmPageIdleMs = 60000;

    /// A warm page of `tenant` in `browser`, taken out of the list, or nullopt. Pages of
    /// another browser (a restart came between) are forgotten; idle ones disposed of.
    std::optional<ChromiumKeptPage> takeWarmPage(const std::shared_ptr<DevToolsPipe> &browser, const QString &tenant)
    {
        std::vector<ChromiumKeptPage> stale;
        std::optional<ChromiumKeptPage> found;
        {
            std::lock_guard lock(mutex);
            const qint64 now = clock.elapsed();
            for (auto it = warm.begin(); it != warm.end();) {
                const std::shared_ptr<DevToolsPipe> in = it->browser.lock();
                if (in != browser || now - it->idleSince > kWarmPageIdleMs) {
                    if (in == browser)
                        stale.push_back(it->page);
                    it = warm.erase(it);
                } else if (!found && it->tenant == tenant) {
                    found = it->page;
                    it = warm.erase(it);
                } else {
                    ++it;
                }
            }
        }
        for (const ChromiumKeptPage &p : stale)
            disposeKeptPage(*browser, p);
        return found;
    }

    /// Keeps `page` of `tenant` open in `browser` for a next render, disposing of the
    /// oldest warm page when there are more than the pool's slots, or of `page` itself
    /// when it has been used kWarmPageUses times.
    void keepWarmPage(const std::shared_ptr<DevToolsPipe> &browser, const QString &tenant, const ChromiumKeptPage &page)
    {
        std::vector<ChromiumKeptPage> dispose;
        {
            std::lock_guard lock(mutex);
            if (page.uses >= kWarmPageUses || browser != connection) {
                dispose.push_back(page);
            } else {
                warm.push_back(WarmPage{browser, tenant, page, clock.elapsed()});
                while (int(warm.size()) > options.pool) {
                    if (warm.front().browser.lock() == browser)
                        dispose.push_back(warm.front().page);
                    warm.erase(warm.begin());
                }
            }
        }
        for (const ChromiumKeptPage &p : dispose)
            disposeKeptPage(*browser, p);
    }

    /// What one start of the browser made: the running browser and how it runs, or why not.
    struct Launched {
        std::shared_ptr<DevToolsPipe> pipe;
        std::unique_ptr<QTemporaryDir> profile;
        ChromiumNetworkIsolation isolation = ChromiumNetworkIsolation::ProxyOnly;
        bool sandboxed = false;
        QString user;
        QString why;
    };

    /// Starts a browser (slow: a second or more, longer under load), without the lock:
    /// renders and /health go on meanwhile. Gives up when `stopping` is set.
    Launched launch(quint16 proxyPort)
    {
        Launched l;
        // The profile's name carries this process's id, so a later server can tell a
        // dead one's leftovers (removeStaleProfiles()) from a live neighbour's.
        l.profile = std::make_unique<QTemporaryDir>(
            QDir::tempPath() + QStringLiteral("/imprint-chromium-%1-XXXXXX").arg(QCoreApplication::applicationPid()));
        // As root the browser runs as an unprivileged account, with Chromium's sandbox.
        const std::optional<ProcessAccount> user = unprivilegedAccount(options.user);
        if (user && ::chown(QFile::encodeName(l.profile->path()).constData(), user->uid, user->gid) != 0) {
            l.why = QStringLiteral("the browser's profile could not be given to %1").arg(user->name);
            return l;
        }
        QStringList args{
            options.executable, QStringLiteral("--headless=new"), QStringLiteral("--remote-debugging-pipe"),
            QStringLiteral("--user-data-dir=%1").arg(l.profile->path()), QStringLiteral("--disable-gpu"),
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
        args += chromiumNetworkSwitches(proxyPort);
        // Scripts off in every renderer, every frame of every page, unless the server lets
        // templates opt in (then each page that did not is switched off over DevTools).
        if (!options.allowScript)
            args += QStringLiteral("--blink-settings=scriptEnabled=false");
        args += QStringLiteral("about:blank");
        // Chromium's sandbox cannot run as root: a server running as root without the
        // unprivileged account runs the browser as root without it (and says so).
        l.sandboxed = geteuid() != 0 || user.has_value();
        if (!l.sandboxed)
            args.insert(2, QStringLiteral("--no-sandbox"));
        l.isolation = options.isolateNetwork && chromiumCanIsolateNetwork() ? ChromiumNetworkIsolation::Namespace
                                                                           : ChromiumNetworkIsolation::ProxyOnly;
        const auto started = [&](const std::shared_ptr<DevToolsPipe> &pipe) {
            if (auto started = pipe->start(args, l.isolation, user, l.profile->path()); !started) {
                l.why = started.error();
                return DevToolsPipe::Wait::Dead;
            }
            QJsonObject answer;
            const int id = pipe->send(QStringLiteral("Browser.getVersion"), {});
            if (!id)
                return DevToolsPipe::Wait::Dead;
            // Up to 30 s (a loaded machine), in slices so that a server stopping meanwhile
            // need not wait.
            for (int waited = 0; waited < 30000 && !stopping; waited += 100) {
                const auto w = pipe->wait(id, {}, &answer, nullptr, 100);
                if (w != DevToolsPipe::Wait::Timeout)
                    return w;
            }
            return DevToolsPipe::Wait::Timeout;
        };
        auto c = std::make_shared<DevToolsPipe>();
        auto w = started(c);
        if (w == DevToolsPipe::Wait::Dead && l.sandboxed && !stopping) {
            // The host refuses Chromium's sandbox (no user namespaces for the account):
            // without it, still unprivileged and still off the network.
            qWarning("chromium: the browser did not start with its sandbox; starting it without");
            c = std::make_shared<DevToolsPipe>();
            args.insert(2, QStringLiteral("--no-sandbox"));
            l.sandboxed = false;
            w = started(c);
        }
        if (w != DevToolsPipe::Wait::Ready) {
            if (l.why.isEmpty())
                l.why = QStringLiteral("%1 did not start; %2").arg(options.executable, chromiumInstallHint());
            return l;
        }
        l.user = user ? user->name : QString();
        l.pipe = std::move(c);
        return l;
    }

    /// While renders run (the lock held by `lock`, released while /proc is read): ends a
    /// browser past options.hardMemoryFactor × maxMemoryBytes at once, remembering it in
    /// killedForMemory so that its renders are told why. Between renders the softer bound
    /// (checkMemory()) restarts it without failing anything.
    void watchMemory(std::unique_lock<std::mutex> &lock)
    {
        if (!connection || active == 0 || options.hardMemoryFactor <= 0 || !connection->alive())
            return;
        const std::shared_ptr<DevToolsPipe> watched = connection;
        lock.unlock();
        const qint64 bytes = processGroupMemoryBytes(watched->pid());
        lock.lock();
        const qint64 bound = options.maxMemoryBytes * options.hardMemoryFactor;
        if (bytes <= bound || watched != connection)
            return;
        qWarning("chromium: the browser took %lld MiB during a render, over its bound of %lld MiB; it is restarted",
                 static_cast<long long>(bytes >> 20), static_cast<long long>(bound >> 20));
        killedForMemory = watched;
        watched->kill();
    }

    /// Whether a browser runs and answers (the lock held).
    bool ready() const { return connection && connection->alive(); }

    /// The starter thread: starts the browser whenever one is wanted and none runs (the
    /// first start, after a crash, after a memory restart), so that no render waits for it.
    void starterLoop()
    {
        std::unique_lock lock(mutex);
        while (!stopping) {
            if (connection && !connection->alive()) {
                connection.reset(); // the old one's destructor ends its processes
                slotFree.notify_all();
            }
            if (!wanted || connection || restartPending) {
                // A browser that dies is noticed within 250 ms even when no render runs.
                startChanged.wait_for(lock, std::chrono::milliseconds(250));
                watchMemory(lock);
                continue;
            }
            starting = true;
            startedAt.restart();
            if (!refusingPort)
                refusingPort = std::make_unique<RefusingPort>();
            const quint16 port = refusingPort->port();
            lock.unlock();
            Launched l = launch(port);
            lock.lock();
            starting = false;
            if (l.pipe) {
                profile = std::move(l.profile);
                isolation = l.isolation;
                runningSandboxed = l.sandboxed;
                runningAs = l.user;
                startFailure.clear();
                ++starts;
                rendersSinceCheck = 0;
                connection = std::move(l.pipe);
            } else {
                // Not again until a render asks: a browser that cannot start would
                // otherwise be tried in a loop.
                startFailure = l.why;
                wanted = false;
            }
            startChanged.notify_all();
        }
    }

    /// The running browser for a render (the lock held by `lock`), or nullptr with `*err`:
    /// engine_unavailable when Chromium is missing or did not start; when its first start
    /// is under way, engine_starting at once (options.waitForStart false), else waits for
    /// the start until the render's deadline (render_budget_exceeded / render_cancelled).
    /// A restart (after a crash or a memory kill or restart) is waited for: it takes a
    /// second or two, and answering engine_starting meanwhile failed every space's html
    /// renders for the one render that made the browser grow. That wait is bounded
    /// (kRestartWaitMs, and half the render's deadline): a restart that takes longer is
    /// answered engine_starting, so a render never spends its deadline on a browser.
    std::shared_ptr<DevToolsPipe> browser(std::unique_lock<std::mutex> &lock, const RenderCancellation &cancellation,
                                          RenderError *err)
    {
        if (ready())
            return connection;
        const bool waitForStart = options.waitForStart || starts > 0;
        if (!ChromiumBrowser::isInstalled(options.executable)) {
            *err = RenderError{QStringLiteral("renderType"),
                               QStringLiteral("%1 was not found; %2").arg(options.executable, chromiumInstallHint()),
                               RenderErrorCode::EngineUnavailable};
            return nullptr;
        }
        const bool failedBefore = !starting && !wanted && !startFailure.isEmpty();
        if (failedBefore && !waitForStart) {
            // Said once; the next render's request starts another try.
            *err = RenderError{QStringLiteral("renderType"), startFailure, RenderErrorCode::EngineUnavailable};
            startFailure.clear();
            wanted = true;
            startChanged.notify_all();
            return nullptr;
        }
        if (!wanted || failedBefore) {
            wanted = true;
            startFailure.clear();
        }
        startChanged.notify_all();
        if (!waitForStart) {
            *err = RenderError{{},
                               starting ? QStringLiteral("its browser is starting (for %1 ms so far); try again shortly")
                                              .arg(startedAt.elapsed())
                                        : QStringLiteral("its browser is starting; try again shortly"),
                               RenderErrorCode::EngineStarting};
            return nullptr;
        }
        QElapsedTimer waited;
        waited.start();
        const QDeadlineTimer deadline = cancellation.deadline();
        const qint64 restartWaitMs = deadline.isForever()
                                         ? kRestartWaitMs
                                         : std::min<qint64>(kRestartWaitMs, std::max<qint64>(deadline.remainingTime() / 2, 0));
        while (!ready()) {
            if (!options.waitForStart && waited.elapsed() >= restartWaitMs && !cancellation.isCancelled()) {
                *err = RenderError{{},
                                   QStringLiteral("its browser is restarting (for %1 ms so far); try again shortly")
                                       .arg(startedAt.elapsed()),
                                   RenderErrorCode::EngineStarting};
                return nullptr;
            }
            if (!starting && !wanted) {
                *err = RenderError{QStringLiteral("renderType"), startFailure, RenderErrorCode::EngineUnavailable};
                return nullptr;
            }
            if (cancellation.isCancelled()) {
                *err = RenderError{QStringLiteral("deadline"),
                                   QStringLiteral("the html engine's browser did not start within the render's "
                                                  "deadline of %1 ms")
                                       .arg(cancellation.deadlineMs()),
                                   cancellation.reason() == RenderCancellation::Reason::Deadline
                                       ? RenderErrorCode::RenderBudgetExceeded
                                       : RenderErrorCode::RenderCancelled};
                return nullptr;
            }
            startChanged.wait_for(lock, std::chrono::milliseconds(50));
        }
        return connection;
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
            *err = RenderError{{}, why, RenderErrorCode::EngineBusy};
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
            *err = RenderError{QStringLiteral("deadline"), QStringLiteral("stopped while waiting for the html engine"),
                               cancellation.reason() == RenderCancellation::Reason::Deadline
                                   ? RenderErrorCode::RenderBudgetExceeded
                                   : RenderErrorCode::RenderCancelled};
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
            startChanged.notify_all(); // the starter starts the next one now
        }
    }
};

ChromiumBrowser::ChromiumBrowser(ChromiumOptions options)
    : d(std::make_unique<Private>())
{
    d->options = std::move(options);
    d->compositing = std::make_unique<CompositingShares>(d->options.maxLayerCost);
    if (d->options.pool <= 0)
        d->options.pool = ChromiumOptions::defaultPool();
    d->clock.start();
    d->startedAt.start();
    removeStaleProfiles();
    d->starter = std::thread([p = d.get()] { p->starterLoop(); });
}

ChromiumBrowser::~ChromiumBrowser()
{
    {
        std::lock_guard lock(d->mutex);
        d->stopping = true;
    }
    d->startChanged.notify_all();
    d->starter.join();
}

void ChromiumBrowser::start()
{
    std::lock_guard lock(d->mutex);
    if (!isInstalled(d->options.executable))
        return;
    d->wanted = true;
    d->startFailure.clear();
    d->startChanged.notify_all();
}

void ChromiumBrowser::endNow()
{
    std::lock_guard lock(d->mutex);
    d->stopping = true; // a start under way gives up; its browser dies with this process
    d->wanted = false;
    if (d->connection)
        d->connection->kill();
    d->startChanged.notify_all();
}

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
    s.running = d->ready();
    s.starting = d->starting;
    s.networkNamespace = s.running ? d->isolation == ChromiumNetworkIsolation::Namespace
                                   : d->options.isolateNetwork && chromiumCanIsolateNetwork();
    s.sandboxed = s.running && d->runningSandboxed;
    s.user = s.running ? d->runningAs : QString();
    s.active = d->active;
    s.waiting = d->waiting;
    s.oldestActiveMs = d->activeSince.empty() ? 0 : d->clock.elapsed() - *d->activeSince.begin();
    return s;
}

common::Expected<QImage, RenderError> ChromiumBrowser::render(const ChromiumPage &page,
                                                              const RenderCancellation &cancellation,
                                                              ChromiumTimings *timings, QStringList *warnings)
{
    ChromiumPage imagePage = page;
    imagePage.output = ChromiumPage::Output::Image;
    auto out = capture(imagePage, cancellation, timings, warnings);
    if (!out)
        return out.error();
    return std::move(out->image);
}

common::Expected<ChromiumCapture, RenderError> ChromiumBrowser::capture(const ChromiumPage &page,
                                                                        const RenderCancellation &cancellation,
                                                                        ChromiumTimings *timings, QStringList *warnings)
{
    RenderError err;
    ChromiumTimings localTimings;
    ChromiumTimings &t = timings ? *timings : localTimings;
    QElapsedTimer timer;
    timer.start();
    // IMPRINT_CHROMIUM_DEBUG: each step of the render on the log, read once per render.
    const bool debug = qEnvironmentVariableIsSet("IMPRINT_CHROMIUM_DEBUG");
    // Script runs only where the page asks and the server allows: the browser was started
    // with scripts off everywhere otherwise.
    const bool allowScript = page.allowScript && d->options.allowScript;

    // No render waits in the queue for a browser that is not there: engine_starting
    // (or engine_unavailable) at once, and the browser is started if it was not.
    if (!d->options.waitForStart) {
        std::unique_lock lock(d->mutex);
        if (!d->browser(lock, cancellation, &err))
            return err;
    }
    // A slot of the pool, or engine_busy when too many wait already.
    if (!d->acquireSlot(page.tenant, cancellation, &err))
        return err;
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
    // more in a fresh context, on a fresh browser if the old one is gone (then once more).
    bool rendererGone = false;
    bool browserGone = false; // the last try's browser died under it
    // `mayAdopt`: the first try may take the space's warm page; a retry never does, since a
    // kept page can be the one that failed (its session gone with its renderer: 2 of 1 000
    // renders in the two-space soak failed twice so, at a load average of 7).
    auto attempt = [&](bool mayAdopt) -> std::optional<ChromiumCapture> {
        std::shared_ptr<DevToolsPipe> c;
        {
            std::unique_lock lock(d->mutex);
            c = d->browser(lock, cancellation, &err);
        }
        rendererGone = false;
        browserGone = false;
        if (!c)
            return std::nullopt;
        t.wait = elapsedMs(timer);
        std::optional<ChromiumCapture> out;
        {
            ChromiumPageRun run(c, page, cancellation, d->options.fetch, allowScript, debug, warnings, timer);
            run.setLayerBudget(d->options.maxLayerCost, d->compositing.get());
            // A page that may run script is always fresh and never kept: what a script
            // stores (cookies, storage) must not reach even the same space's next render.
            if (!allowScript) {
                if (const auto warmPage = mayAdopt ? d->takeWarmPage(c, page.tenant) : std::nullopt)
                    run.adopt(*warmPage);
                run.setMayKeep(true);
            }
            out = run.run(t);
            if (!out) {
                err = run.error();
                rendererGone = run.rendererGone();
            }
            if (run.kept())
                d->keepWarmPage(c, page.tenant, *run.kept());
        } // leaving the run waits for its fetches still running
        browserGone = !out && !c->alive();
        if (browserGone) {
            d->startChanged.notify_all(); // the starter replaces it now
            std::lock_guard lock(d->mutex);
            if (d->killedForMemory.lock() == c) {
                err = RenderError{QStringLiteral("memory"),
                                  QStringLiteral("the html engine's browser grew past %1 MiB while this render ran; "
                                                 "it was restarted")
                                      .arg((d->options.maxMemoryBytes * d->options.hardMemoryFactor) >> 20),
                                  RenderErrorCode::RenderBudgetExceeded};
                rendererGone = false;
            }
        }
        return out;
    };
    // A try that lost its browser (killed, crashed) does not use up the retry: the render
    // waits for the restarted browser, whose first page may lose its renderer too.
    auto out = attempt(true);
    for (int tries = 1, retries = 1; !out && tries < 3 && !cancellation.isCancelled(); ++tries) {
        if (!(rendererGone || err.code == RenderErrorCode::EncodeFailed) || (!browserGone && retries-- == 0))
            break;
        out = attempt(false);
    }
    if (!out)
        return err;
    return std::move(*out);
}

} // namespace imprint::render
