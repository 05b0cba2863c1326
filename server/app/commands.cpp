#include "server/app/commands.h"

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
int runRenderCommand(const QStringList &args);
int runTemplateCommand(const QStringList &args);
int runPageCommand(const QStringList &args);
int runLayoutCommand(const QStringList &args);
int runBenchCommand(const QStringList &args);
int runConsoleCommand(const QStringList &args);
int runLocalDesktop(const QStringList &args);

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
        {"key", "API keys: create --space S --name N [--expires-days D] | list --space S | revoke ID", runKeyCommand},
        {"console", "admin console (Qt Widgets): [--server URL] [--lang de|fr|en]", runConsoleCommand},
        {"template", "templates: import FILE --space S [--json] | list --space S", runTemplateCommand},
        {"page", "pages: create --space S --template ID [--var k=v]... [--publish] | publish ID | list --space S", runPageCommand},
        {"render", "render a template file: TEMPLATE.json -o OUT.{png,webp,svg} [--engine E] [--tweak k=v]...", runRenderCommand},
        {"layout", "print a template's element boxes as JSON: TEMPLATE.json [--tweak k=v]...", runLayoutCommand},
        {"bench", "time renders: [--engine E] [--format F] [-n 30] FILES...", runBenchCommand},
    };
    return table;
}

int printUsage(QTextStream &out)
{
    out << "usage: imprint <command> [options]\n\ncommands:\n";
    for (const auto &c : commandTable())
        out << "  " << QString::fromLatin1(c.name).leftJustified(10) << c.summary << '\n';
    return 2;
}

} // namespace

bool commandNeedsWidgets(int argc, char **argv)
{
    return argc < 2 || std::strcmp(argv[1], "console") == 0;
}

int runCommand(const QStringList &arguments)
{
    QTextStream err(stderr);
    if (arguments.size() < 2)
        return runLocalDesktop({}); // `imprint` alone: local desktop mode (server + console)
    const QString name = arguments.at(1);
    if (name == QLatin1String("--help") || name == QLatin1String("help")) {
        QTextStream out(stdout);
        printUsage(out);
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
