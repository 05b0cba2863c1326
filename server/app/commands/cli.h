#pragma once
// Shared plumbing of the `imprint` commands that work on a data directory (serve and
// the admin CLI): option parsing, opening config + database, password input, output.

#include "server/store/config.h"
#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/models.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <memory>
#include <optional>

namespace imprint::app {

/// Options every data command accepts: --data DIR, --database URL, --json.
struct CommonOptions {
    QString dataDir; ///< default: QStandardPaths AppDataLocation
    QString databaseUrl; ///< empty: SQLite in dataDir
    bool json = false; ///< print one JSON object on stdout
};

/// One subcommand's command line, parsed by QCommandLineParser so that every command
/// answers --help, names an unknown option or a missing value the same way, and
/// accepts `--opt value`, `--opt=value` and options anywhere between positionals.
/// Single-dash words are long options (`-n 30`, `-o out.png`), as the commands always took.
class CommandLine
{
public:
    /// `command` is what follows `imprint` (e.g. "space"); `synopsis` the usage lines
    /// printed after "usage: " by --help and on a usage error.
    CommandLine(const QString &command, const QString &synopsis);
    /// An option taking a value (`names` without dashes, e.g. {"o", "output"}).
    void addValueOption(const QStringList &names, const QString &description, const QString &valueName);
    /// An option without a value.
    void addFlag(const QStringList &names, const QString &description);
    /// --data DIR, --database URL and --json (see CommonOptions).
    void addCommonOptions();
    /// addCommonOptions() and --space NAME, the space a command acts on.
    void addSpaceOptions();
    /// Parses `args`. Returns -1 when the command should go on, 0 after printing --help
    /// on stdout, 2 after printing the error and the usage on stderr.
    int parse(const QStringList &args);
    /// Prints "imprint COMMAND: message" (when message is not empty) and the usage on
    /// stderr; returns exit code 2.
    int usageError(const QString &message = QString()) const;
    /// The usage with every option, as --help prints it.
    QString helpText() const;

    QString value(const QString &name, const QString &fallback = {}) const;
    QStringList values(const QString &name) const { return m_parser.values(name); }
    bool isSet(const QString &name) const { return m_parser.isSet(name); }
    QStringList positionals() const { return m_parser.positionalArguments(); }

private:
    QString m_command;
    QString m_synopsis;
    QCommandLineParser m_parser;
};

/// CommonOptions out of a parsed command line with addCommonOptions() (resolves the
/// default data directory).
CommonOptions commonOptions(const CommandLine &line);
/// CommonOptions with the default data directory and database.
CommonOptions defaultCommonOptions();

/// Config + migrated database of a data directory.
struct Environment {
    QString dataDir;
    store::Config config;
    std::unique_ptr<store::Database> db;
};

/// Creates the data directory if needed, loads the config, opens the database and
/// applies migrations. The error says what failed.
common::Expected<Environment, QString> openEnvironment(const CommonOptions &options);

/// Reads a password: from a TTY with a no-echo prompt, asked twice; otherwise from
/// stdin, one line, or the same line twice (a mismatch is an error). Trailing CR/LF
/// stripped. The error says why on mismatch or empty input.
common::Expected<QString, QString> readPassword(const QString &prompt);

/// Prints an error: always as text on stderr, and with --json also as
/// {"error": {"code", "message"}} on stdout. Returns exit code 1.
int fail(const CommonOptions &options, const QString &code, const QString &message);

/// fail() with a service error's code (its wire name) and message.
int fail(const CommonOptions &options, const store::ServiceError &error);

/// Opens the data directory once a command line is known to be complete, so that a
/// usage error or --help never creates a database: sets *options from `line`. Returns
/// the open environment, or the exit code of the failure it printed.
common::Expected<Environment, int> openData(const CommandLine &line, CommonOptions *options);

/// A space's add|list|remove command line (`font`, `asset`, `webhook`), parsed, with the
/// data directory open and the space of --space looked up (openSpaceCommand()).
struct SpaceCommand {
    QString verb; ///< add, list or remove
    QString argument; ///< add: FILE or URL; remove: ID
    QByteArray input; ///< add, when its argument is a file: the file's bytes
    CommonOptions options;
    std::optional<Environment> env;
    store::Space space;
};

/// Parses `arguments` as `add --space NAME ARG | list --space NAME | remove --space NAME
/// ID` into *c, opens the data directory and looks the space up; with `addReadsFile`, add's
/// ARG is a file read into c->input. Returns -1 to go on, else the exit code of what it
/// printed (--help, a usage error, a directory, space or file that does not open).
int openSpaceCommand(CommandLine &line, const QStringList &arguments, SpaceCommand *c, bool addReadsFile);

/// Prints `object` as one compact JSON line on stdout.
void printJson(const QJsonObject &object);

/// Prints a line on stdout (flushed).
void printLine(const QString &line);

/// A listing verb's rows (`key list`, `font list`, ...): as text, prints `lineOf(row)` for
/// each row, one line per row, in order; returns every row as `jsonOf(row)` for the
/// command's --json object (printList(), printCountedList()).
template<typename Rows, typename JsonOf, typename LineOf>
QJsonArray listRows(const CommonOptions &options, const Rows &rows, JsonOf jsonOf, LineOf lineOf)
{
    QJsonArray array;
    for (const auto &row : rows) {
        array.append(jsonOf(row));
        if (!options.json)
            printLine(lineOf(row));
    }
    return array;
}

/// listRows(), with --json printed as {"<arrayName>": [...]} (the admin commands). Exit code 0.
template<typename Rows, typename JsonOf, typename LineOf>
int printList(const CommonOptions &options, const QString &arrayName, const Rows &rows, JsonOf jsonOf, LineOf lineOf)
{
    const QJsonArray array = listRows(options, rows, jsonOf, lineOf);
    if (options.json)
        printJson({{arrayName, array}});
    return 0;
}

/// listRows(), with --json printed as {"list": [...], "count": N}, the form of the API's
/// list answers; `count` is the total when the rows are one page of it, -1 for the
/// number of rows. Exit code 0.
template<typename Rows, typename JsonOf, typename LineOf>
int printCountedList(const CommonOptions &options, const Rows &rows, JsonOf jsonOf, LineOf lineOf, int count = -1)
{
    const QJsonArray array = listRows(options, rows, jsonOf, lineOf);
    if (options.json)
        printJson(
            QJsonObject{{QStringLiteral("list"), array}, {QStringLiteral("count"), count < 0 ? array.size() : count}});
    return 0;
}

} // namespace imprint::app
