#include "server/render/backends/chromium/chromium_browser.h"

#include "server/render/resources/image_decoder.h"

#include <QBuffer>
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
/// fastest level: it travels a pipe, not a network).
QByteArray assetPng(const QImage &image)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG", 90);
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

double elapsedMs(QElapsedTimer &timer)
{
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    return ms;
}

/// One running Chromium: its process group, the two pipe ends and the thread that reads
/// the browser's messages and files them by command id or session.
class Connection
{
public:
    ~Connection() { stop(); }

    /// Starts `argv` with the DevTools pipe on fds 3 (ours → browser) and 4 (browser → ours).
    bool start(const QStringList &args, QString *why)
    {
        // A write to a browser that just died must fail with EPIPE, not end this process.
        std::signal(SIGPIPE, SIG_IGN);
        int toBrowser[2], fromBrowser[2];
        if (pipe2(toBrowser, O_CLOEXEC) != 0 || pipe2(fromBrowser, O_CLOEXEC) != 0) {
            *why = QStringLiteral("pipe: %1").arg(QString::fromLocal8Bit(strerror(errno)));
            return false;
        }
        std::vector<QByteArray> storage;
        for (const QString &a : args)
            storage.push_back(a.toLocal8Bit());
        std::vector<char *> argv;
        for (QByteArray &a : storage)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        const pid_t pid = fork();
        if (pid < 0) {
            *why = QStringLiteral("fork: %1").arg(QString::fromLocal8Bit(strerror(errno)));
            return false;
        }
        if (pid == 0) {
            // The child: its own process group (so a restart ends every Chromium process),
            // the pipe ends at 3 and 4 whatever numbers they had, nothing else inherited.
            setpgid(0, 0);
            const int in = fcntl(toBrowser[0], F_DUPFD, 10), out = fcntl(fromBrowser[1], F_DUPFD, 10);
            const int null = open("/dev/null", O_RDWR);
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
            dup2(in, 3);
            dup2(out, 4);
            execv(argv[0], argv.data());
            _exit(127);
        }
        setpgid(pid, pid);
        ::close(toBrowser[0]);
        ::close(fromBrowser[1]);
        m_pid = pid;
        m_write = toBrowser[1];
        m_read = fromBrowser[0];
        m_reader = std::thread([this] { readLoop(); });
        return true;
    }

    void stop()
    {
        if (m_pid > 0) {
            ::kill(-m_pid, SIGKILL);
            ::kill(m_pid, SIGKILL);
        }
        if (m_write >= 0)
            ::close(m_write);
        m_write = -1;
        if (m_reader.joinable())
            m_reader.join();
        if (m_read >= 0)
            ::close(m_read);
        m_read = -1;
        if (m_pid > 0)
            waitpid(m_pid, nullptr, 0);
        m_pid = 0;
    }

    /// Ends the browser's processes; the reader then sees the pipe close and every
    /// waiter is told the browser is gone. Resources are released by the destructor.
    void kill()
    {
        if (m_pid > 0)
            ::kill(-m_pid, SIGKILL);
    }

    bool alive() const
    {
        std::lock_guard lock(m_mutex);
        return !m_dead;
    }
    pid_t pid() const { return m_pid; }

    /// Sends a command; returns its id (0 when the browser is gone). `discard`: its answer
    /// is dropped when it comes.
    int send(const QString &method, const QJsonObject &params, const QString &session = {}, bool discard = false)
    {
        QJsonObject message{{QStringLiteral("method"), method}, {QStringLiteral("params"), params}};
        int id;
        {
            std::lock_guard lock(m_mutex);
            if (m_dead)
                return 0;
            id = ++m_nextId;
            if (discard)
                m_discard.insert(id);
        }
        message.insert(QStringLiteral("id"), id);
        if (!session.isEmpty())
            message.insert(QStringLiteral("sessionId"), session);
        QByteArray bytes = QJsonDocument(message).toJson(QJsonDocument::Compact);
        bytes.append('\0');
        std::lock_guard lock(m_writeMutex);
        qsizetype done = 0;
        while (done < bytes.size()) {
            const ssize_t n = ::write(m_write, bytes.constData() + done, size_t(bytes.size() - done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                markDead();
                return 0;
            }
            done += n;
        }
        return id;
    }

    /// What a wait ended with.
    enum class Wait { Ready, Event, Dead, Timeout };

    /// Waits up to `ms` for the answer to `id` (into `*answer`) or an event of `session`
    /// (into `*event`, when not null).
    Wait wait(int id, const QString &session, QJsonObject *answer, QJsonObject *event, int ms)
    {
        std::unique_lock lock(m_mutex);
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        for (;;) {
            if (id) {
                auto it = m_answers.find(id);
                if (it != m_answers.end()) {
                    *answer = std::move(it->second);
                    m_answers.erase(it);
                    return Wait::Ready;
                }
            }
            if (event) {
                auto q = m_events.find(session);
                if (q != m_events.end() && !q->second.empty()) {
                    *event = std::move(q->second.front());
                    q->second.pop_front();
                    return Wait::Event;
                }
            }
            if (m_dead)
                return Wait::Dead;
            if (m_changed.wait_until(lock, until) == std::cv_status::timeout)
                return Wait::Timeout;
        }
    }

    /// Forgets the events of a session that has ended.
    void dropSession(const QString &session)
    {
        std::lock_guard lock(m_mutex);
        m_events.erase(session);
    }

private:
    void markDead()
    {
        std::lock_guard lock(m_mutex);
        m_dead = true;
        m_changed.notify_all();
    }

    void readLoop()
    {
        QByteArray buffer;
        char chunk[65536];
        for (;;) {
            const ssize_t n = ::read(m_read, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            buffer.append(chunk, n);
            qsizetype start = 0;
            for (qsizetype end; (end = buffer.indexOf('\0', start)) >= 0; start = end + 1)
                deliver(QJsonDocument::fromJson(buffer.mid(start, end - start)).object());
            buffer.remove(0, start);
        }
        markDead();
    }

    void deliver(const QJsonObject &message)
    {
        std::lock_guard lock(m_mutex);
        const int id = message.value(QLatin1String("id")).toInt();
        if (id) {
            if (!m_discard.erase(id))
                m_answers.emplace(id, message);
        } else {
            const QString session = message.value(QLatin1String("sessionId")).toString();
            // Events of the browser target and of sessions nobody waits on are not kept.
            if (!session.isEmpty())
                m_events[session].push_back(message);
        }
        m_changed.notify_all();
    }

    pid_t m_pid = 0;
    int m_write = -1, m_read = -1;
    std::thread m_reader;
    std::mutex m_writeMutex;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_dead = false;
    int m_nextId = 0;
    std::set<int> m_discard;
    std::map<int, QJsonObject> m_answers;
    std::map<QString, std::deque<QJsonObject>> m_events;
};

qint64 groupMemoryBytes(pid_t group)
{
    if (group <= 0)
        return 0;
    qint64 total = 0;
    const long page = sysconf(_SC_PAGESIZE);
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &p : pids) {
        bool ok = false;
        p.toInt(&ok);
        if (!ok)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(p));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // Fields after the command name (which may hold spaces) start after the last ')'.
        const QList<QByteArray> f = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (f.size() > 21 && f.at(2).toLongLong() == group) // pgrp, then rss (field 24)
            total += f.at(21).toLongLong() * page;
    }
    return total;
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
    std::shared_ptr<Connection> connection;
    std::unique_ptr<QTemporaryDir> profile;
    int starts = 0;
    int rendersSinceCheck = 0;
    /// The browser is past its memory bound: no render starts until the running ones
    /// have ended, then it is restarted (under steady load the pool is never idle).
    bool restartPending = false;

    /// The running browser, started when there is none or the last one died.
    std::shared_ptr<Connection> browser(QString *why)
    {
        std::lock_guard lock(mutex);
        if (connection && connection->alive())
            return connection;
        connection.reset(); // the old one's destructor ends its processes
        if (!ChromiumBrowser::isInstalled(options.executable)) {
            *why = QStringLiteral("%1 was not found; %2").arg(options.executable, chromiumInstallHint());
            return nullptr;
        }
        profile = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/imprint-chromium-XXXXXX"));
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
            QStringLiteral("--js-flags=--max-old-space-size=%1").arg(options.jsHeapMb), QStringLiteral("about:blank")};
        // Chromium's sandbox cannot run as root; elsewhere it stays on.
        if (geteuid() == 0)
            args.insert(2, QStringLiteral("--no-sandbox"));
        auto c = std::make_shared<Connection>();
        if (!c->start(args, why))
            return nullptr;
        QJsonObject answer;
        const int id = c->send(QStringLiteral("Browser.getVersion"), {});
        if (!id || c->wait(id, {}, &answer, nullptr, 30000) != Connection::Wait::Ready) {
            *why = QStringLiteral("%1 did not start; %2").arg(options.executable, chromiumInstallHint());
            return nullptr;
        }
        ++starts;
        connection = c;
        return c;
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
            restartPending = groupMemoryBytes(connection->pid()) > options.maxMemoryBytes;
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
    return groupMemoryBytes(pid_t(processId()));
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

    // A slot of the pool, or engine_busy when too many wait already.
    {
        std::unique_lock lock(d->mutex);
        if (d->active >= d->options.pool && d->waiting >= d->options.queue) {
            err = makeError({},
                            QStringLiteral("the html engine's queue is full (%1 renders running, %2 waiting)")
                                .arg(d->active)
                                .arg(d->waiting),
                            RenderErrorCode::EngineBusy);
            return std::nullopt;
        }
        ++d->waiting;
        const auto full = [&] { return d->active >= d->options.pool || (d->restartPending && d->active > 0); };
        while (full()) {
            d->slotFree.wait_for(lock, std::chrono::milliseconds(50));
            if (cancellation.isCancelled())
                break;
        }
        --d->waiting;
        if (full()) {
            err = makeError(QStringLiteral("deadline"), QStringLiteral("stopped while waiting for the html engine"),
                            cancellation.reason() == RenderCancellation::Reason::Deadline
                                ? RenderErrorCode::RenderBudgetExceeded
                                : RenderErrorCode::RenderCancelled);
            return std::nullopt;
        }
        ++d->active;
    }
    struct SlotGuard {
        Private *d;
        ~SlotGuard()
        {
            {
                std::lock_guard lock(d->mutex);
                --d->active;
            }
            d->slotFree.notify_one();
            d->checkMemory();
        }
    } slot{d.get()};

    // One try; a page whose renderer died under it (not from a deadline) is tried once
    // more in a fresh context, on a fresh browser if the old one is gone.
    bool rendererGone = false;
    auto attempt = [&]() -> std::optional<ChromiumCapture> {
        QString why;
        const std::shared_ptr<Connection> c = d->browser(&why);
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
            QString url;
            std::future<FetchOutcome> outcome;
        };
        std::vector<PendingFetch> fetches;
        bool documentServed = false;
        const auto warn = [&](const QString &url, const QString &why) {
            if (warnings)
                warnings->append(QStringLiteral("html: %1 was not loaded: %2").arg(url.left(300), why));
        };
        const auto failRequest = [&](const QString &requestId) {
            c->send(QStringLiteral("Fetch.failRequest"),
                    {{QStringLiteral("requestId"), requestId},
                     {QStringLiteral("errorReason"), QStringLiteral("BlockedByClient")}},
                    session, true);
        };
        const auto fulfil = [&](const QString &requestId, const QByteArray &bytes) {
            c->send(QStringLiteral("Fetch.fulfillRequest"),
                    {{QStringLiteral("requestId"), requestId},
                     {QStringLiteral("responseCode"), 200},
                     {QStringLiteral("responseHeaders"),
                      QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Content-Type")},
                                             {QStringLiteral("value"), imageMediaType(bytes)}},
                                 QJsonObject{{QStringLiteral("name"), QStringLiteral("Cache-Control")},
                                             {QStringLiteral("value"), QStringLiteral("no-store")}}}},
                     {QStringLiteral("body"), QString::fromLatin1(bytes.toBase64())}},
                    session, true);
        };
        // Answers the page's requests as they are paused: the document itself, data: URLs
        // load, asset: URLs and the service's file URLs are served from the space's assets,
        // other images over http(s) go to the fetch hook on a thread of their own, the rest
        // is refused.
        auto handleEvent = [&](const QJsonObject &event) {
            if (event.value(QLatin1String("method")).toString() != QLatin1String("Fetch.requestPaused"))
                return;
            const QJsonObject params = event.value(QLatin1String("params")).toObject();
            const QString requestId = params.value(QLatin1String("requestId")).toString();
            const QString urlText
                = params.value(QLatin1String("request")).toObject().value(QLatin1String("url")).toString();
            const QUrl url(urlText);
            const QString scheme = url.scheme();
            if (scheme == QLatin1String("data")) {
                c->send(QStringLiteral("Fetch.continueRequest"), {{QStringLiteral("requestId"), requestId}}, session,
                        true);
                return;
            }
            const QString resourceType = params.value(QLatin1String("resourceType")).toString();
            if (!documentServed && urlText == kPageUrl && resourceType == QLatin1String("Document")) {
                // The page itself, once: from this origin it is the only document.
                documentServed = true;
                c->send(QStringLiteral("Fetch.fulfillRequest"),
                        {{QStringLiteral("requestId"), requestId},
                         {QStringLiteral("responseCode"), 200},
                         {QStringLiteral("responseHeaders"),
                          QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("Content-Type")},
                                                 {QStringLiteral("value"), QStringLiteral("text/html; charset=utf-8")}},
                                     QJsonObject{{QStringLiteral("name"), QStringLiteral("Cache-Control")},
                                                 {QStringLiteral("value"), QStringLiteral("no-store")}}}},
                         {QStringLiteral("body"), QString::fromLatin1(page.html.toUtf8().toBase64())}},
                        session, true);
                return;
            }
            if (urlText == kPageUrl + QLatin1String("favicon.ico")) {
                // The browser's own request for the page's icon, which no render draws.
                failRequest(requestId);
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
                    failRequest(requestId);
                    warn(urlText, why.isEmpty() ? QStringLiteral("the asset did not load") : why);
                    return;
                }
                // An SVG asset goes in as its sanitised source, so the browser draws it at the
                // size and device scale it is shown at.
                const QByteArray svg = svgSource(asset);
                fulfil(requestId, svg.isEmpty() ? assetPng(asset) : svg);
                return;
            }
            const bool web = scheme == QLatin1String("http") || scheme == QLatin1String("https");
            const bool image = resourceType == QLatin1String("Image");
            // A relative URL other than a stored file's resolves to the page's own origin,
            // which serves nothing else.
            const bool ownOrigin = url.host() == QUrl(kPageUrl).host();
            if (!web || !image || ownOrigin || serviceFile || !d->options.fetch) {
                failRequest(requestId);
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
            fetches.push_back(PendingFetch{requestId, urlText,
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
                    fulfil(it->requestId, *o.bytes);
                } else {
                    failRequest(it->requestId);
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
            const int id = c->send(method, params, onPage ? session : QString());
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
                case Connection::Wait::Ready: {
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
                case Connection::Wait::Event:
                    if (event.value(QLatin1String("method")).toString() == QLatin1String("Inspector.detached")) {
                        err = makeError({}, QStringLiteral("the page's renderer stopped"),
                                        RenderErrorCode::EncodeFailed);
                        rendererGone = true;
                        return false;
                    }
                    // An event can come before the answer it follows (the load event
                    // before Page.navigate's): waitEvent() must still see it.
                    seen.insert(event.value(QLatin1String("method")).toString());
                    handleEvent(event);
                    break;
                case Connection::Wait::Dead:
                    err = makeError({}, QStringLiteral("the browser stopped during the render"),
                                    RenderErrorCode::EncodeFailed);
                    return false;
                case Connection::Wait::Timeout: break;
                }
            }
        };
        // Waits for the page's event `name`, serving its requests meanwhile.
        auto waitEvent = [&](const QString &name) -> bool {
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
                case Connection::Wait::Event:
                    if (event.value(QLatin1String("method")).toString() == name)
                        return true;
                    if (event.value(QLatin1String("method")).toString() == QLatin1String("Inspector.detached")) {
                        err = makeError({}, QStringLiteral("the page's renderer stopped"),
                                        RenderErrorCode::EncodeFailed);
                        rendererGone = true;
                        return false;
                    }
                    handleEvent(event);
                    break;
                case Connection::Wait::Dead:
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
        ok = ok
             && call(QStringLiteral("Fetch.enable"),
                     {{QStringLiteral("patterns"),
                       QJsonArray{QJsonObject{{QStringLiteral("urlPattern"), QStringLiteral("*")}}}}},
                     true);
        if (!page.allowScript)
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
        if (!contextId.isEmpty()) {
            const int id = c->send(QStringLiteral("Target.disposeBrowserContext"),
                                   {{QStringLiteral("browserContextId"), contextId}});
            QJsonObject answer;
            QElapsedTimer disposing;
            disposing.start();
            const auto w = id ? c->wait(id, {}, &answer, nullptr, 2000) : Connection::Wait::Dead;
            if (qEnvironmentVariableIsSet("IMPRINT_CHROMIUM_DEBUG"))
                qInfo("chromium: wait %.0f navigate %.0f capture %.0f dispose %lld ms (%d)", t.wait, t.navigate,
                      t.capture, disposing.elapsed(), int(w));
            if (w != Connection::Wait::Ready)
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
