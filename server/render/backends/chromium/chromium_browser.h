#pragma once
// The html engine's browser (docs/templates.md, "The html engine"): headless Chromium
// (Debian's `chromium`) as a child process, driven over the Chrome DevTools Protocol
// (https://chromedevtools.github.io/devtools-protocol/) on the pipe transport
// (--remote-debugging-pipe: NUL-separated JSON messages on fds 3 and 4), so no port is
// opened that a page or another local process could reach.
//
// The browser has no network (chromium_process.h: a network namespace of its own where the
// kernel allows one, and always a proxy that refuses every connection): what a page may
// load is answered over the pipe by the policy below, and nothing else reaches an address.
//
// Each render gets a fresh browser context (no cookies, storage or cache shared with
// another render), JavaScript off in every frame unless the page asks and the server
// allows it (off in the whole browser when the server does not), fetch, XHR, WebSocket,
// beacons and workers refused by the document's Content-Security-Policy (which srcdoc and
// about:blank frames inherit), every request of every frame and worker intercepted
// (Fetch domain, on the page and on each target auto-attached under it, sandboxed
// frames in other renderer processes included): the document itself is served
// at http://imprint.invalid/ (a name that never resolves) so relative URLs resolve to
// requests the interception sees, data: URLs load, `asset:` URLs and the service's file
// URLs (/api/v1/files/…, relative or on any host) are answered by ChromiumPage::loadAsset
// (the render's space's assets), other images over http(s) with the bytes
// ChromiumOptions::fetch gets (the server's remote image policy and cache), everything
// else is refused. A bounded number of renders run at
// once; a render that passes its deadline has its context disposed; a browser that
// dies or grows past its memory bound is restarted at once by a thread of its own.

#include "server/common/expected.h"
#include "server/render/cancellation.h"
#include "server/render/error.h"
#include "server/render/resources/image_decoder.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

namespace imprint::render {

/// How the browser is started and bounded.
struct ChromiumOptions {
    QString executable = QStringLiteral("/usr/bin/chromium");
    /// Renders at once (`render.html.pool`); 0: defaultPool(). A render's thread mostly
    /// waits on the browser, and one space may hold all but one slot: a pool the size of
    /// the cores left one space one slot on 2 cores, and the cores idle between its steps.
    int pool = 0;
    /// The pool when none is configured: the cores + 2 (4 on 2 cores, so one space runs 3
    /// renders at once and keeps both cores busy, and another space still finds a slot).
    static int defaultPool();
    int queue = 16; ///< renders waiting for a slot; one more is refused with engine_busy
    /// Slots one tenant (a space) may hold at once (`render.html.maxPerSpace`); 0: all
    /// but one of the pool (at least 1), so one space cannot starve another.
    int maxPerTenant = 0;
    /// How long a render may wait for a slot (`render.html.queueTimeoutMs`) before it is
    /// refused with engine_busy; the wait is not charged to its deadline.
    int queueTimeoutMs = 5000;
    qint64 maxMemoryBytes = qint64(1536) * 1024 * 1024; ///< whole browser's RSS before a restart
    /// While renders run, the browser's RSS is measured every 250 ms: past this many times
    /// maxMemoryBytes it is ended at once, and the renders then running are refused with
    /// render_budget_exceeded (field `memory`). One page made the shared compositor (the
    /// GPU process) take 12 GiB, and keep every other space's page waiting for a minute.
    /// 0: not watched during renders (the bound between renders alone).
    int hardMemoryFactor = 2;
    int memoryCheckEvery = 50; ///< renders between two measurements of the browser's RSS
    /// A page's compositing budget (`render.html.maxLayerCost`; chromium_layer_cost.h):
    /// its effects' visible device megapixels, weighted by what they cost the browser's
    /// one compositor (a full-size backdrop blur about 1 a megapixel, a filter blur a
    /// fiftieth of it), read once the page loaded; a page over it is refused with
    /// render_budget_exceeded (`field`: the costliest CSS property) before its screenshot
    /// holds the compositor that every other render's screenshot needs. 0: unbounded.
    double maxLayerCost = 16;
    int jsHeapMb = 128; ///< V8 old-space limit per renderer (--js-flags=--max-old-space-size)
    /// Pages may run JavaScript when they ask (`render.html.allowScript`); false: scripts
    /// are off in the whole browser (--blink-settings=scriptEnabled=false).
    bool allowScript = false;
    /// The account the browser runs as when the server runs as root (`render.html.user`;
    /// `scripts/deps` creates it): with it, Chromium keeps its sandbox. A server running as
    /// root without it runs the browser as root, without the sandbox (/health says so).
    QString user = QStringLiteral("imprint-browser");
    /// Start the browser in a network namespace of its own when the kernel allows (false:
    /// the refusing proxy alone; for tests of that layer).
    bool isolateNetwork = true;
    /// Fetches an image the page requests over http(s) (an `<img>`, a CSS image) under the
    /// caller's policy, by `deadline` at the latest: the encoded bytes, or why not (one
    /// sentence for the render's warnings). Called on a thread of its own, any number at
    /// once. Empty (the default): every such request fails. The server wires the remote
    /// image fetcher here (server/app/service.cpp, docs/remote-images.md).
    std::function<common::Expected<QByteArray, QString>(const QUrl &url, QDeadlineTimer deadline)> fetch;
    /// While the browser's first start is under way a render waits for it until the
    /// render's deadline (true: a command or a test), or is answered engine_starting at
    /// once (false: the server, which starts the browser with start() and tells clients to
    /// come back; docs/api.md). A restart (after a crash, a memory kill or a memory
    /// restart) is waited for either way, within the render's deadline.
    bool waitForStart = true;
};

/// Loads an `asset:ID` URL, or a URL whose path is /api/v1/files/<name>, that the page
/// requests: the decoded image, or why not (then the request is refused). A render's
/// ImageLoader serves as one.
using ChromiumAssetLoader = ImageLoader;

/// One page to draw.
struct ChromiumPage {
    /// What the browser hands back: the screenshot decoded (to encode it ourselves), the
    /// screenshot's PNG bytes as Chromium wrote them, or the page printed to PDF. Both
    /// screenshots of up to 8 million device pixels are taken with Chromium's fast PNG
    /// writer (`optimizeForSpeed`: zlib's fastest level): its default level cost about
    /// 160 ms of the browser's CPU for a 1200×630 card, two thirds of an html render,
    /// where the fast one and our own encoder after it cost under 20 (docs/performance.md,
    /// "The screenshot's PNG").
    enum class Output : quint8 { Image, Png, Pdf };

    QString html; ///< a complete HTML document (UTF-8 when sent)
    QSize size; ///< viewport, CSS px
    double scale = 1; ///< device scale factor: the image is size × scale px
    bool allowScript = false; ///< run the page's JavaScript (the server config must allow it)
    /// Who the render is for (the space's id): the pool is shared fairly between tenants.
    QString tenant{};
    Output output = Output::Image;
    /// Answers the page's `asset:` requests and its requests for the service's stored files
    /// (/api/v1/files/…, a relative URL or an absolute one on any host; it decides which the
    /// render's space may read): the space's stored assets, served to the page as PNG, an
    /// SVG as its sanitised source (svgSource()). Empty: both refused with a warning.
    ChromiumAssetLoader loadAsset{};
};

/// What a render produced (ChromiumPage::output says which field is set).
struct ChromiumCapture {
    QImage image; ///< Output::Image: Format_ARGB32_Premultiplied, size × scale px
    QByteArray bytes; ///< Output::Png: a PNG of size × scale px; Output::Pdf: a one-page PDF of size
};

/// Wall-clock time of a render's steps, ms.
struct ChromiumTimings {
    double wait = 0; ///< for a pool slot (and a browser start)
    double page = 0; ///< the browser context and its page, set up
    double load = 0; ///< the document, its resources and fonts loaded (layout and paint happen here)
    double capture = 0; ///< screenshot (and PNG decode) or print
    /// Context, page, load and fonts: the navigation's whole time.
    double navigate() const { return page + load; }
};

/// A headless Chromium shared by every render of one RenderContext. Thread-safe: any
/// number of threads may call render(); each call blocks its thread until the image is
/// there, the deadline passes or the browser fails.
class ChromiumBrowser
{
public:
    explicit ChromiumBrowser(ChromiumOptions options = {});
    ~ChromiumBrowser();
    ChromiumBrowser(const ChromiumBrowser &) = delete;
    ChromiumBrowser &operator=(const ChromiumBrowser &) = delete;

    /// Starts the browser now, in the background (a thread of this object), when it is not
    /// running or starting; returns at once. Without it the first render starts it. A
    /// browser that dies or is restarted for its memory is started again the same way.
    void start();

    /// Ends the browser's processes at once, without waiting for the renders that use it
    /// (they fail); no browser is started after it. For a process that is stopping and may
    /// end without its destructors (`imprint serve`). Its profile is removed by the
    /// destructor, or else by the next start, as after `kill -9`: removing it here took up
    /// to half a second while the killed browser still wrote to it.
    void endNow();

    /// Whether `executable` exists and can be run.
    static bool isInstalled(const QString &executable = QStringLiteral("/usr/bin/chromium"));

    /// Draws `page` (the browser started on first use unless start() started it). Returns
    /// a Format_ARGB32_Premultiplied image of size × scale px, or the error:
    /// engine_unavailable (Chromium not installed or it does not start), engine_starting
    /// (the browser's first start is under way and ChromiumOptions::waitForStart is false;
    /// the render's deadline is never spent on a first start), engine_busy (the pool's queue is full),
    /// render_budget_exceeded / render_cancelled (from `cancellation`; the page is freed),
    /// encode_failed (the browser failed mid-render; the next render restarts it).
    /// `warnings` (when not null) gets one entry per request of the page that was refused
    /// or failed, naming its URL; the page is drawn without it.
    common::Expected<QImage, RenderError> render(const ChromiumPage &page, const RenderCancellation &cancellation,
                                                 ChromiumTimings *timings = nullptr, QStringList *warnings = nullptr);

    /// As render(), with the output `page.output` asks for: Output::Png hands Chromium's
    /// screenshot PNG through untouched (no decode and re-encode), Output::Pdf prints the
    /// page (Page.printToPDF) on one sheet of the page's size (CSS px at 96 per inch), no
    /// margins, backgrounds printed.
    common::Expected<ChromiumCapture, RenderError> capture(const ChromiumPage &page,
                                                           const RenderCancellation &cancellation,
                                                           ChromiumTimings *timings = nullptr,
                                                           QStringList *warnings = nullptr);

    /// The browser's process id, 0 when not running (for tests and metrics).
    qint64 processId() const;
    /// How many times the browser was started.
    int starts() const;
    /// The resident memory of the browser and all its processes, bytes (0 when not running).
    qint64 memoryBytes() const;

    /// The engine's state for /health: whether the browser runs, how it is kept off the
    /// network, the pool's use, and how long the oldest running render has held its slot.
    struct State {
        bool running = false; ///< a browser process is up
        bool starting = false; ///< a browser is being started
        bool networkNamespace = false; ///< it runs (or will run) in a network namespace of its own
        bool sandboxed = false; ///< it runs with Chromium's sandbox
        QString user; ///< the account it runs as, empty when the server's own
        int active = 0, waiting = 0; ///< renders holding and waiting for a slot
        qint64 oldestActiveMs = 0; ///< age of the oldest running render, ms (0 when none)
    };
    State state() const;

    struct Private;

private:
    std::unique_ptr<Private> d;
};

/// How to install Chromium, for engine_unavailable's message.
QString chromiumInstallHint();

} // namespace imprint::render
