#include "server/app/commands/commands.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstring>
#include <functional>

namespace imprint::app {

// Each command's entry point lives in its own file beside this one; the table below
// is the one place that names them all.
int runServeCommand(const QStringList &args);
int runSpaceCommand(const QStringList &args);
int runUserCommand(const QStringList &args);
int runKeyCommand(const QStringList &args);
int runSigningKeyCommand(const QStringList &args);
int runUrlCommand(const QStringList &args);
int runWebhookCommand(const QStringList &args);
int runRenderCommand(const QStringList &args);
int runTemplateCommand(const QStringList &args);
int runPageCommand(const QStringList &args);
int runFontCommand(const QStringList &args);
int runAssetCommand(const QStringList &args);
int runLayoutCommand(const QStringList &args);
int runBenchCommand(const QStringList &args);
int runDbCommand(const QStringList &args);
int runJobCommand(const QStringList &args); // server/app/cli_jobs.cpp
int runConsoleCommand(const QStringList &args);
int runLocalDesktop(const QStringList &args);
bool consoleWouldOpenWindow(const QStringList &args, bool console);

namespace {

struct CommandEntry {
    const char *name;
    const char *summary;
    std::function<int(const QStringList &)> run;
};

const std::vector<CommandEntry> &commandTable()
{
    static const std::vector<CommandEntry> table = {
        {"serve", "HTTP service: [--listen HOST:PORT] [--data DIR] [--database URL] [--demo]", runServeCommand},
        {"space", "spaces: create NAME [--plan P] | list | set-plan NAME PLAN", runSpaceCommand},
        {"user", "users: add --email E --space S --role R | passwd --email E | list", runUserCommand},
        {"key", "API keys: create --space S --name N [--expires-days D] [--scopes render,content] | list --space S | revoke ID", runKeyCommand},
        {"signing-key", "URL-signing keys: create --space S --name N | list --space S | revoke ID",
         runSigningKeyCommand},
        {"url", "signed render URLs: sign --space S --signing-key ID [--expires SECONDS] URL", runUrlCommand},
        {"webhook", "webhooks: add --space S URL [--events E,...] | list --space S | remove --space S ID",
         runWebhookCommand},
        {"console", "admin console (Qt Widgets): [--server URL] [--lang de|fr|en] [--screenshot PNG] (--help: all)",
         runConsoleCommand},
        {"template", "templates: import FILE --space S [--json] | list --space S | versions ID | rollback ID N",
         runTemplateCommand},
        {"page", "pages: create --space S --template ID [--var k=v]... [--publish] | publish ID | list --space S",
         runPageCommand},
        {"render", "render a template file: TEMPLATE.json -o OUT.{png,webp,svg} [--engine E] [--tweak k=v]...",
         runRenderCommand},
        {"font", "a space's fonts: add --space S FILE [--family NAME] [--json] | list --space S | remove --space S ID",
         runFontCommand},
        {"asset", "a space's images: add --space S FILE [--json] | list --space S | remove --space S ID",
         runAssetCommand},
        {"layout", "print a template's element boxes as JSON: TEMPLATE.json [--tweak k=v]...", runLayoutCommand},
        {"bench", "time renders: [--engine E] [--format F] [-n 30] FILES...", runBenchCommand},
        {"job", "render jobs: create --space S (--file JOB.json | --page ID [--format F]...) | show ID --space S",
         runJobCommand},
        {"db", "move a SQLite installation: copy --from DATA_DIR --to postgres://… [--files-to DIR]", runDbCommand},
    };
    return table;
}

int printUsage(QTextStream &out)
{
    out << "usage: imprint <command> [options]\n"
           "       imprint [console options]   local desktop mode: a server on a free localhost port\n"
           "                                   and the console signed in to it (see imprint console --help)\n"
           "       imprint --version\n"
           "       imprint <command> --help      that command's usage and options\n"
           "\ncommands:\n";
    for (const auto &c : commandTable())
        out << "  " << QString::fromLatin1(c.name).leftJustified(12) << c.summary << '\n';
    return 2;
}

bool isHelp(const QString &arg)
{
    return arg == QLatin1String("--help") || arg == QLatin1String("-h") || arg == QLatin1String("help");
}

bool isVersion(const QString &arg)
{
    return arg == QLatin1String("--version") || arg == QLatin1String("-v");
}

// `imprint` alone or followed only by console options (`imprint --lang de`): local
// desktop mode. A command name never starts with '-'.
bool isLocalDesktop(const QStringList &arguments)
{
    return arguments.size() < 2
           || (arguments.at(1).startsWith(QLatin1Char('-')) && !isHelp(arguments.at(1)) && !isVersion(arguments.at(1)));
}

} // namespace

bool commandNeedsWidgets(int argc, char **argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    // Only a window needs a display: --help, --version and usage errors print and exit,
    // so they must work on a headless machine too (a QApplication there aborts).
    if (isLocalDesktop(arguments))
        return consoleWouldOpenWindow(arguments.mid(1), false);
    if (arguments.at(1) == QLatin1String("console"))
        return consoleWouldOpenWindow(arguments.mid(2), true);
    return false;
}

int runCommand(const QStringList &arguments)
{
    QTextStream err(stderr);
    if (isLocalDesktop(arguments))
        return runLocalDesktop(arguments.mid(1)); // server + console in this process
    const QString name = arguments.at(1);
    if (isHelp(name)) {
        QTextStream out(stdout);
        printUsage(out);
        return 0;
    }
    if (isVersion(name)) {
        QTextStream(stdout) << "imprint " << QCoreApplication::applicationVersion() << '\n';
        return 0;
    }
    for (const auto &c : commandTable()) {
        if (name == QLatin1String(c.name))
            return c.run(arguments.mid(2));
    }
    err << "imprint: unknown command '" << name << "'\n";
    return printUsage(err);
}

} // namespace imprint::app
