// Entry point of the one `imprint` executable (docs/architecture.md): picks the Qt application
// type the command needs, then hands over to the command dispatcher.
#include "server/app/commands/commands.h"

#include <QApplication>
#include <QGuiApplication>

#include <malloc.h>
#include <sys/stat.h>

#include <memory>

namespace {

/// Keeps freed render buffers (a 1200×630 render allocates ~8 MB: the ARGB32 canvas,
/// scanlines, the deflate output) inside the process instead of returning them to the
/// kernel after every render. On the 2-core VM class we deploy on, touching fresh pages
/// costs far more than the work done on them: `imprint bench` on c-card measured
/// paint 11.0 ms / encode 21.5 ms with glibc's defaults and 1.5 / 5.9 ms with these
/// settings (13 000 fewer minor page faults per 10 renders). RSS then holds each render
/// thread's peak, bounded by the render pool size.
void keepRenderBuffersResident()
{
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024); // glibc's maximum; also stops its dynamic threshold
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
}

} // namespace

int main(int argc, char **argv)
{
    keepRenderBuffersResident();
    // Everything the service writes (database, WAL, stored renders, config, backups)
    // holds accounts, key hashes or customers' images: readable by its owner only.
    ::umask(0077);
    const bool wantsWidgets = imprint::app::commandNeedsWidgets(argc, argv);
    // Headless commands (serve, render, bench, admin CLI) must not need a display.
    if (!wantsWidgets && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Headless commands run Qt's own event loop (QEventDispatcherUNIX) rather than GLib's:
    // GLib's wakes its loop through an eventfd whenever a socket notifier changes, two
    // writes, two reads and a poll more per HTTP answer (13 system calls a cached request
    // instead of 7; docs/performance.md, "System calls"). Nothing headless needs GLib's
    // loop; the console keeps it.
    if (!wantsWidgets && qEnvironmentVariableIsEmpty("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");

    std::unique_ptr<QGuiApplication> app;
    if (wantsWidgets)
        app = std::make_unique<QApplication>(argc, argv);
    else
        app = std::make_unique<QGuiApplication>(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("imprint"));
    QCoreApplication::setApplicationName(QStringLiteral("imprint"));
    QCoreApplication::setApplicationVersion(QStringLiteral(IMPRINT_VERSION));

    return imprint::app::runCommand(QCoreApplication::arguments());
}
