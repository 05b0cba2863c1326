// Untrusted SVG drawn by a sandboxed helper process (see svg_sandbox.h).

#include "server/render/resources/svg_sandbox.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFileInfo>
#include <QMutex>
#include <QMutexLocker>

#include <algorithm>
#include <atomic>
#include <utility>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace imprint::render {

namespace {

/// A cached result: the pixels, or why there are none.
struct CachedRaster {
    QImage image;
    QString error;
};

QMutex g_optionsMutex;
SvgSandboxOptions g_options;
std::atomic<quint64> g_started{0};
thread_local RenderCancellation t_render;
thread_local SvgRenderScope::FontsFor t_fonts;
thread_local SvgRenderScope::EmojiFor t_emoji;

CountedCache<CachedRaster> &cache()
{
    static CountedCache<CachedRaster> instance(SvgSandboxOptions().cacheBytes, true);
    return instance;
}

/// The faces a job carries, for its cache key: each file's family is its content hash.
QString fontsKey(const QList<SvgRasterFont> &fonts)
{
    QString key;
    for (const SvgRasterFont &f : fonts)
        key += QStringLiteral("/%1=%2:%3%4").arg(f.family.toLower(), f.fileFamily).arg(f.weight).arg(f.italic ? u'i' : u'n');
    return key;
}

QString cacheKey(const SvgRasterJob &job)
{
    const QByteArray hash = QCryptographicHash::hash(job.svg, QCryptographicHash::Sha256).toHex();
    return QStringLiteral("%1/%2/%3x%4/%5/%6")
        .arg(QLatin1String(hash))
        .arg(int(job.mode))
        .arg(job.size.width())
        .arg(job.size.height())
        .arg(job.maxSide)
        .arg(job.maxPixels)
        + QStringLiteral("/%1,%2,%3,%4")
              .arg(job.target.x(), 0, 'g', 17)
              .arg(job.target.y(), 0, 'g', 17)
              .arg(job.target.width(), 0, 'g', 17)
              .arg(job.target.height(), 0, 'g', 17)
        + (job.matrix.isIdentity() ? QString()
                                   : QStringLiteral("/%1,%2,%3,%4,%5,%6")
                                         .arg(job.matrix.m11, 0, 'g', 17)
                                         .arg(job.matrix.m12, 0, 'g', 17)
                                         .arg(job.matrix.m21, 0, 'g', 17)
                                         .arg(job.matrix.m22, 0, 'g', 17)
                                         .arg(job.matrix.dx, 0, 'g', 17)
                                         .arg(job.matrix.dy, 0, 'g', 17))
        + fontsKey(job.fonts);
}

/// The pipe's two ends: ours and the helper's (its standard input and output).
struct SocketPair {
    int ours = -1, theirs = -1;
    ~SocketPair()
    {
        if (ours >= 0)
            ::close(ours);
        if (theirs >= 0)
            ::close(theirs);
    }
};

/// The helper's environment: what Qt and fontconfig need to draw as this process does
/// (the hermetic font configuration, the fontconfig cache's home, the locale), nothing
/// else — not the database URL or any secret the server was started with.
std::vector<QByteArray> helperEnvironment()
{
    static const char *const kept[] = {"FONTCONFIG_", "FC_", "QT_", "HOME=", "XDG_CACHE_HOME=", "XDG_RUNTIME_DIR=",
                                       "LANG=", "LC_", "TZ=", "PATH="};
    std::vector<QByteArray> env;
    for (char **e = environ; *e; ++e) {
        if (std::any_of(std::begin(kept), std::end(kept), [e](const char *prefix) {
                return std::strncmp(*e, prefix, std::strlen(prefix)) == 0;
            }))
            env.emplace_back(*e);
    }
    return env;
}

/// Starts the helper with `pair.theirs` as its standard input and output, in a process
/// group of its own, with default signal dispositions, no other descriptor and
/// helperEnvironment().
common::Expected<pid_t, QString> spawnHelper(const QString &helper, const QStringList &args, const SocketPair &pair)
{
    QByteArrayList storage{QFile::encodeName(helper)};
    for (const QString &a : args)
        storage << a.toLocal8Bit();
    std::vector<char *> argv(size_t(storage.size()) + 1, nullptr); // ends with the null execve() wants
    std::transform(storage.begin(), storage.end(), argv.begin(), [](QByteArray &a) { return a.data(); });
    std::vector<QByteArray> environment = helperEnvironment();
    std::vector<char *> envp(environment.size() + 1, nullptr);
    std::transform(environment.begin(), environment.end(), envp.begin(), [](QByteArray &e) { return e.data(); });
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_adddup2(&actions, pair.theirs, 0);
    posix_spawn_file_actions_adddup2(&actions, pair.theirs, 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
        return QStringLiteral("the SVG rasteriser %1 could not start: %2")
            .arg(helper, QString::fromLocal8Bit(strerror(rc)));
    g_started.fetch_add(1, std::memory_order_relaxed);
    return pid;
}

/// What talking to the helper ended with.
struct Exchange {
    QByteArray answer;
    bool timedOut = false;
    bool overlong = false;
};

/// Writes `input` to the helper and reads its answer until it closes the pipe, the answer
/// passes `maxAnswer` bytes, `deadline` passes or `cancellation` cancels (both count as
/// timed out). Never blocks past the deadline.
Exchange exchange(int fd, const QByteArray &input, qint64 maxAnswer, QDeadlineTimer deadline,
                  const RenderCancellation &cancellation)
{
    Exchange e;
    qsizetype written = 0;
    char buffer[65536];
    for (;;) {
        pollfd p{fd, short(POLLIN | (written < input.size() ? POLLOUT : 0)), 0};
        const qint64 left = deadline.remainingTime();
        if (left == 0 || cancellation.isCancelled()) {
            e.timedOut = true;
            return e;
        }
        // Woken every 50 ms at most to see whether the render was cancelled meanwhile.
        const int ready = ::poll(&p, 1, int(left < 0 ? 50 : std::min<qint64>(left, 50)));
        if (ready < 0 && errno != EINTR)
            return e;
        if (ready <= 0)
            continue;
        if (p.revents & POLLOUT) {
            const ssize_t n = ::send(fd, input.constData() + written, size_t(input.size() - written), MSG_NOSIGNAL);
            if (n > 0 && (written += n) == input.size())
                ::shutdown(fd, SHUT_WR); // the helper reads to the end of its input
            else if (n < 0 && errno != EAGAIN && errno != EINTR)
                written = input.size(); // it stopped reading: its answer (or death) tells why
        }
        if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
                return e;
            if (n > 0)
                e.answer.append(buffer, n);
            if (e.answer.size() > maxAnswer) {
                e.overlong = true;
                return e;
            }
        }
    }
}

/// Why the helper that ended with `status` gave no answer, one sentence.
QString helperDeath(int status, const SvgSandboxOptions &options)
{
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
        return QStringLiteral("SVG image refused: drawing it used more than its CPU time");
    if (WIFSIGNALED(status))
        return QStringLiteral("SVG image refused: its rasteriser ended with signal %1 (out of its %2 MiB of memory?)")
            .arg(WTERMSIG(status))
            .arg(options.maxMemoryMb);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
        return QStringLiteral("SVG image refused: drawing it needed more than %1 MiB of memory").arg(options.maxMemoryMb);
    return QStringLiteral("the SVG rasteriser failed (exit status %1)").arg(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

QStringList helperArguments(const SvgSandboxOptions &options, QDeadlineTimer deadline)
{
    const qint64 left = deadline.isForever() ? options.timeoutMs : deadline.remainingTime();
    // RLIMIT_CPU backs the wall clock: whole seconds, at least one past the deadline.
    const qint64 cpuSeconds = std::max<qint64>(1, (std::max<qint64>(left, 0) + 1999) / 1000);
    QStringList args{QStringLiteral("--parent"),     QString::number(getpid()),
                     QStringLiteral("--memory-mb"),  QString::number(options.maxMemoryMb),
                     QStringLiteral("--cpu-seconds"), QString::number(cpuSeconds)};
    if (!options.user.isEmpty())
        args << QStringLiteral("--user") << options.user;
    return args;
}

} // namespace

void setSvgSandboxOptions(const SvgSandboxOptions &options)
{
    {
        QMutexLocker lock(&g_optionsMutex);
        g_options = options;
    }
    cache().setCapacity(options.cacheBytes);
    cache().clear();
}

SvgSandboxOptions svgSandboxOptions()
{
    QMutexLocker lock(&g_optionsMutex);
    return g_options;
}

QString defaultSvgRasterHelper()
{
    if (QCoreApplication::instance()) {
        const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/imprint-svg-raster");
        if (QFileInfo(beside).isExecutable())
            return beside;
    }
#ifdef IMPRINT_SVG_RASTER_BUILD_PATH
    return QStringLiteral(IMPRINT_SVG_RASTER_BUILD_PATH);
#else
    return QStringLiteral("imprint-svg-raster");
#endif
}

SvgRenderScope::SvgRenderScope(RenderCancellation cancellation, FontsFor fontsFor, EmojiFor emojiFor)
    : m_previous(std::exchange(t_render, std::move(cancellation)))
    , m_previousFonts(std::exchange(t_fonts, std::move(fontsFor)))
    , m_previousEmoji(std::exchange(t_emoji, std::move(emojiFor)))
{ }

SvgRenderScope::~SvgRenderScope()
{
    t_render = m_previous;
    t_fonts = std::move(m_previousFonts);
    t_emoji = std::move(m_previousEmoji);
}

QString SvgRenderScope::inlineSvgEmoji(QStringView cluster)
{
    return t_emoji ? t_emoji(cluster) : QString();
}

QList<SvgRasterFont> SvgRenderScope::inlineSvgFonts(const QByteArray &svg)
{
    return t_fonts ? t_fonts(svg) : QList<SvgRasterFont>();
}

RenderCancellation SvgRenderScope::current()
{
    return t_render;
}

common::Expected<QImage, QString> rasteriseSvgInHelper(const SvgRasterJob &job, const SvgSandboxOptions &options,
                                                       QDeadlineTimer deadline, bool *timedOut,
                                                       const RenderCancellation &cancellation)
{
    if (timedOut)
        *timedOut = false;
    SocketPair pair;
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return QStringLiteral("the SVG rasteriser could not start: %1").arg(QString::fromLocal8Bit(strerror(errno)));
    pair.ours = fds[0];
    pair.theirs = fds[1];
    const QString helper = options.helper.isEmpty() ? defaultSvgRasterHelper() : options.helper;
    const auto pid = spawnHelper(helper, helperArguments(options, deadline), pair);
    if (!pid)
        return pid.error();
    ::close(pair.theirs);
    pair.theirs = -1;
    fcntl(pair.ours, F_SETFL, fcntl(pair.ours, F_GETFL) | O_NONBLOCK);
    const Exchange e
        = exchange(pair.ours, encodeSvgRasterJob(job), maxSvgRasterAnswerBytes(job), deadline, cancellation);
    if (e.timedOut || e.overlong) {
        ::kill(-*pid, SIGKILL); // its process group: whatever it started ends too
        ::kill(*pid, SIGKILL);
    }
    int status = 0;
    while (::waitpid(*pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (e.timedOut) {
        if (timedOut)
            *timedOut = true;
        return QStringLiteral("SVG image refused: drawing it took longer than its deadline");
    }
    if (e.overlong)
        return QStringLiteral("the SVG rasteriser's answer is larger than the image it was asked for");
    if (e.answer.isEmpty() || !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        return helperDeath(status, options);
    return decodeSvgRasterAnswer(e.answer, job);
}

common::Expected<QImage, QString> rasteriseUntrustedSvg(const SvgRasterJob &job)
{
    const SvgSandboxOptions options = svgSandboxOptions();
    CountedCache<CachedRaster> *results = &cache();
    const QString key = cacheKey(job);
    if (auto hit = results->find(key)) {
        if (!hit->error.isEmpty())
            return hit->error;
        return hit->image;
    }
    common::Expected<QImage, QString> drawn = QImage();
    bool renderDeadline = false; // ended by the render's deadline, not the document's bound
    if (!options.enabled) {
        drawn = drawSvgJob(job);
    } else {
        QDeadlineTimer deadline(std::max(options.timeoutMs, 1));
        const RenderCancellation render = SvgRenderScope::current();
        if (render.deadline() < deadline) {
            deadline = render.deadline();
            renderDeadline = true;
        }
        bool timedOut = false;
        drawn = rasteriseSvgInHelper(job, options, deadline, &timedOut, render);
        renderDeadline = renderDeadline || render.isCancelled();
        if (timedOut && renderDeadline)
            return QStringLiteral("SVG image not drawn: the render ended (its deadline, or cancelled) while it was drawn");
        if (timedOut)
            drawn = QStringLiteral("SVG image refused: drawing it took longer than %1 ms").arg(options.timeoutMs);
        if (!drawn && drawn.error().startsWith(QLatin1String("the SVG rasteriser could not start")))
            return drawn; // not the document's fault: tried again next time
    }
    // Failures are kept too: a document that took the whole bound takes it again.
    const qint64 cost = drawn ? drawn->sizeInBytes() + 256 : 256;
    if (cost <= results->capacity() / 4)
        results->insert(key, drawn ? CachedRaster{*drawn, {}} : CachedRaster{{}, drawn.error()}, cost);
    return drawn;
}

CacheStats svgRasterCacheStats()
{
    return cache().stats();
}

quint64 svgRasterHelpersStarted()
{
    return g_started.load(std::memory_order_relaxed);
}

void clearSvgRasterCache()
{
    cache().clear();
}

} // namespace imprint::render
