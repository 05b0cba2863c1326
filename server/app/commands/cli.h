#pragma once
// Shared plumbing of the `imprint` commands that work on a data directory (serve and
// the admin CLI): option parsing, opening config + database, password input, output.

#include "server/store/config.h"
#include "server/store/database.h"

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

/// A tiny argv reader: flags (`--json`), options with a value (`--plan pro` or
/// `--plan=pro`) and positionals, in any order.
class Args
{
public:
    /// Splits `args`; `valueOptions` names the options that take a value (without "--").
    /// Sets *error for a value option without a value or an unknown option.
    Args(const QStringList &args, const QStringList &valueOptions, const QStringList &flags, QString *error);
    QString value(const QString &name, const QString &fallback = {}) const { return m_values.value(name, fallback); }
    bool has(const QString &name) const { return m_values.contains(name) || m_flags.contains(name); }
    const QStringList &positionals() const { return m_positionals; }

private:
    QHash<QString, QString> m_values;
    QStringList m_flags;
    QStringList m_positionals;
};

/// The value options and flags of CommonOptions, to pass to Args.
QStringList commonValueOptions();
QStringList commonFlags();
/// CommonOptions out of parsed Args (resolves the default data directory).
CommonOptions commonOptions(const Args &args);

/// Config + migrated database of a data directory.
struct Environment {
    QString dataDir;
    store::Config config;
    std::unique_ptr<store::Database> db;
};

/// Creates the data directory if needed, loads the config, opens the database and
/// applies migrations. std::nullopt with *error set on any failure.
std::optional<Environment> openEnvironment(const CommonOptions &options, QString *error);

/// Reads a password: from a TTY with a no-echo prompt, asked twice; otherwise from
/// stdin, one line, or the same line twice (a mismatch is an error). Trailing CR/LF
/// stripped. std::nullopt with *error on mismatch or empty input.
std::optional<QString> readPassword(const QString &prompt, QString *error);

/// Prints an error: always as text on stderr, and with --json also as
/// {"error": {"code", "message"}} on stdout. Returns exit code 1.
int fail(const CommonOptions &options, const QString &code, const QString &message);

/// Prints `object` as one compact JSON line on stdout.
void printJson(const QJsonObject &object);

/// Prints a line on stdout (flushed).
void printLine(const QString &line);

} // namespace imprint::app
