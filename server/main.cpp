// Entry point of the one `imprint` executable (DESIGN.md §1): picks the Qt application
// type the command needs, then hands over to the command dispatcher.
#include "server/app/commands.h"

#include <QApplication>
#include <QGuiApplication>

#include <memory>

int main(int argc, char **argv)
{
    const bool wantsWidgets = imprint::app::commandNeedsWidgets(argc, argv);
    // Headless commands (serve, render, bench, admin CLI) must not need a display.
    if (!wantsWidgets && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

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
