#pragma once
// Command-line dispatcher of the `imprint` executable (its commands are listed in README.md).

#include <QStringList>

namespace imprint::app {

/// True when the command line (raw argv) starts the Qt Widgets console: `imprint`
/// with no arguments, or `imprint console ...`. Decides QApplication vs QGuiApplication.
bool commandNeedsWidgets(int argc, char **argv);

/// Runs the command named by arguments[1] with the rest as its arguments.
/// Returns the process exit code: 0 success, 1 runtime failure, 2 usage error
/// (unknown command or bad flags, with a message on stderr).
int runCommand(const QStringList &arguments);

} // namespace imprint::app
