// imprint-svg-raster: draws one untrusted SVG document (issue 34, item 8). Started by the
// server per document (server/render/resources/svg_sandbox.h) with the job on standard
// input (svg_raster.h's format) and the answer — the pixels, or why not — on standard
// output. Before it reads a byte of the job it limits itself: killed when its parent
// ends, the unprivileged account when started as root, no new privileges, no core file,
// an address-space and a CPU-time limit. The parent kills it at the deadline.
//
//   imprint-svg-raster --parent PID --memory-mb N --cpu-seconds N [--user NAME]
//
// Exit status: 0 an answer was written; 2 bad arguments or job; 3 out of memory;
// 125 the parent was gone; 124 the account could not be taken.
//
// It draws with librsvg (rsvg_draw.h), not QtSvg: clipPath, mask, filter and symbols as
// browsers draw them. Text is pango's, on the fontconfig configuration FONTCONFIG_FILE
// names (the server's hermetic one), with the space's uploaded faces the job carries
// (job_fonts.h); no Qt application object is needed.

#include "server/common/fd_io.h"
#include "server/render/resources/process_account.h"
#include "server/render/resources/svg_raster.h"
#include "server/svg_raster/job_fonts.h"
#include "server/svg_raster/rsvg_draw.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <grp.h>
#include <new>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

// AddressSanitizer (the fuzz and sanitizer builds, scripts/sanitize) reserves terabytes of
// address space for its shadow memory at start: under RLIMIT_AS the helper could not start,
// and every SVG would be refused. Those builds keep the CPU limit and the wall-clock kill;
// the memory limit holds in every build a server runs.
#if defined(__SANITIZE_ADDRESS__)
#define IMPRINT_SVG_RASTER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IMPRINT_SVG_RASTER_ASAN 1
#endif
#endif
#ifndef IMPRINT_SVG_RASTER_ASAN
#define IMPRINT_SVG_RASTER_ASAN 0
#endif


namespace {

/// The command line's switches.
struct Arguments {
    pid_t parent = 0;
    long memoryMb = 0;
    long cpuSeconds = 0;
    const char *user = nullptr;
};

bool parseArguments(int argc, char **argv, Arguments *a)
{
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *name = argv[i], *value = argv[i + 1];
        if (std::strcmp(name, "--parent") == 0)
            a->parent = pid_t(std::atol(value));
        else if (std::strcmp(name, "--memory-mb") == 0)
            a->memoryMb = std::atol(value);
        else if (std::strcmp(name, "--cpu-seconds") == 0)
            a->cpuSeconds = std::atol(value);
        else if (std::strcmp(name, "--user") == 0)
            a->user = value;
        else
            return false;
    }
    return a->parent > 0 && a->memoryMb > 0 && a->cpuSeconds > 0;
}

/// Dies with the parent; true while the parent that started us still lives.
bool tieToParent(pid_t parent)
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    return ::getppid() == parent;
}

/// As root: becomes `name` (groups dropped), the account the browser uses too
/// (render::unprivilegedAccount()). Without root or without the account: stays as it is
/// (the server runs unprivileged, or the account was not made: deployment.md).
bool dropPrivileges(const char *name)
{
    const auto account = imprint::render::unprivilegedAccount(QString::fromLocal8Bit(name ? name : ""));
    if (!account)
        return true;
    return ::setgroups(0, nullptr) == 0 && ::setgid(account->gid) == 0 && ::setuid(account->uid) == 0;
}

void limit(int resource, rlim_t value)
{
    const rlimit l{value, value};
    ::setrlimit(resource, &l);
}

QByteArray readAll(int fd)
{
    QByteArray bytes;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0)
            bytes.append(buffer, n);
        else if (n == 0 || errno != EINTR)
            return bytes;
    }
}

} // namespace

int main(int argc, char **argv)
{
    Arguments args;
    if (!parseArguments(argc, argv, &args))
        return 2;
    if (!tieToParent(args.parent))
        return 125;
    if (!dropPrivileges(args.user))
        return 124;
    // A change of user clears the parent-death signal (prctl(2)): arm it again.
    if (!tieToParent(args.parent))
        return 125;
    ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    limit(RLIMIT_CORE, 0);
    limit(RLIMIT_CPU, rlim_t(args.cpuSeconds));
#if !IMPRINT_SVG_RASTER_ASAN
    limit(RLIMIT_AS, rlim_t(args.memoryMb) << 20);
#endif
    try {
        const auto job = imprint::render::decodeSvgRasterJob(readAll(0));
        if (!job)
            return 2;
        // Before librsvg lays out any text: pango reads fontconfig's fonts then.
        imprint::render::addJobFonts(job->fonts);
        const auto drawn = imprint::render::drawSvgJobWithRsvg(*job);
        if (!drawn && drawn.error().startsWith(QLatin1String("out of memory")))
            return 3;
        const QByteArray answer = drawn ? *drawn : imprint::render::encodeSvgRasterRefusal(drawn.error());
        return imprint::common::writeAll(1, answer) ? 0 : 2;
    } catch (const std::bad_alloc &) {
        return 3;
    }
}
