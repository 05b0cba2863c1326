#include "server/app/commands/cli.h"

#include "server/service/account_service.h"
#include "server/store/crypto.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTextStream>

#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

namespace imprint::app {

CommandLine::CommandLine(const QString &command, const QString &synopsis)
    : m_command(command)
    , m_synopsis(synopsis)
{
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    m_parser.addOption({{QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help and exit.")});
}

void CommandLine::addValueOption(const QStringList &names, const QString &description, const QString &valueName)
{
    m_parser.addOption(QCommandLineOption(names, description, valueName));
}

void CommandLine::addFlag(const QStringList &names, const QString &description)
{
    m_parser.addOption(QCommandLineOption(names, description));
}

void CommandLine::addCommonOptions()
{
    addValueOption({QStringLiteral("data")},
                   QStringLiteral("Data directory (default: %1).")
                       .arg(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)),
                   QStringLiteral("DIR"));
    addValueOption({QStringLiteral("database")},
                   QStringLiteral("Database URL, e.g. postgres://… (default: SQLite in the data directory)."),
                   QStringLiteral("URL"));
    addFlag({QStringLiteral("json")}, QStringLiteral("Print one JSON object on stdout."));
}

void CommandLine::addSpaceOptions()
{
    addCommonOptions();
    addValueOption({QStringLiteral("space")}, QStringLiteral("The space's name."), QStringLiteral("NAME"));
}

int CommandLine::parse(const QStringList &args)
{
    if (!m_parser.parse(QStringList{QStringLiteral("imprint")} + args))
        return usageError(m_parser.errorText());
    if (m_parser.isSet(QStringLiteral("help"))) {
        QTextStream out(stdout);
        out << helpText();
        return 0;
    }
    return -1;
}

QString CommandLine::helpText() const
{
    // QCommandLineParser's own first line names the executable file only; the synopsis
    // says which subcommand and which verbs.
    QString options = m_parser.helpText();
    const qsizetype from = options.indexOf(QLatin1String("Options:"));
    options = from >= 0 ? options.mid(from) : QString();
    return QStringLiteral("usage: %1\n\n%2").arg(m_synopsis, options);
}

int CommandLine::usageError(const QString &message) const
{
    QTextStream err(stderr);
    if (!message.isEmpty())
        err << "imprint " << m_command << ": " << message << '\n';
    err << helpText();
    return 2;
}

QString CommandLine::value(const QString &name, const QString &fallback) const
{
    return m_parser.isSet(name) ? m_parser.value(name) : fallback;
}

CommonOptions defaultCommonOptions()
{
    CommonOptions o;
    o.dataDir = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).absolutePath();
    return o;
}

CommonOptions commonOptions(const CommandLine &line)
{
    CommonOptions o = defaultCommonOptions();
    if (const QString dir = line.value(QStringLiteral("data")); !dir.isEmpty())
        o.dataDir = QDir(dir).absolutePath();
    o.databaseUrl = line.value(QStringLiteral("database"));
    o.json = line.isSet(QStringLiteral("json"));
    return o;
}

common::Expected<Environment, QString> openEnvironment(const CommonOptions &options)
{
    if (!store::initCrypto())
        return QStringLiteral("libsodium failed to initialise");
    if (!QDir().mkpath(options.dataDir))
        return QStringLiteral("cannot create the data directory %1").arg(options.dataDir);
    auto config = store::Config::load(options.dataDir);
    if (!config)
        return config.error();
    auto settings = store::DatabaseSettings::fromUrl(options.databaseUrl, options.dataDir);
    if (!settings)
        return settings.error();
    settings->maxConnections = config->databaseMaxConnections();
    Environment env{options.dataDir, *config, std::make_unique<store::Database>(*settings)};
    if (const auto migrated = env.db->migrate(); !migrated)
        return migrated.error();
    return env;
}

namespace {

std::optional<std::string> readLine()
{
    std::string line;
    if (!std::getline(std::cin, line))
        return std::nullopt;
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.pop_back();
    return line;
}

std::optional<std::string> promptNoEcho(const QString &prompt)
{
    std::fprintf(stderr, "%s", prompt.toLocal8Bit().constData());
    std::fflush(stderr);
    termios old{};
    const bool tty = tcgetattr(STDIN_FILENO, &old) == 0;
    if (tty) {
        termios quiet = old;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    }
    auto line = readLine();
    if (tty)
        tcsetattr(STDIN_FILENO, TCSANOW, &old);
    std::fprintf(stderr, "\n");
    return line;
}

} // namespace

common::Expected<QString, QString> readPassword(const QString &prompt)
{
    using Failed = common::Unexpected<QString>;
    std::optional<std::string> first, second;
    if (isatty(STDIN_FILENO)) {
        first = promptNoEcho(prompt + QStringLiteral(": "));
        second = promptNoEcho(QStringLiteral("Repeat: "));
    } else {
        first = readLine();
        second = readLine();
    }
    if (!first || first->empty())
        return Failed(QStringLiteral("no password given on stdin"));
    if (second && !second->empty() && *second != *first)
        return Failed(QStringLiteral("the two passwords differ"));
    if (isatty(STDIN_FILENO) && (!second || *second != *first))
        return Failed(QStringLiteral("the two passwords differ"));
    return QString::fromStdString(*first);
}

int fail(const CommonOptions &options, const QString &code, const QString &message)
{
    QTextStream(stderr) << "imprint: " << message << '\n';
    if (options.json)
        printJson(QJsonObject{{QStringLiteral("error"),
                               QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}});
    return 1;
}

int fail(const CommonOptions &options, const store::ServiceError &error)
{
    return fail(options, error.codeName(), error.message);
}

common::Expected<Environment, int> openData(const CommandLine &line, CommonOptions *options)
{
    *options = commonOptions(line);
    auto opened = openEnvironment(*options);
    if (!opened)
        return common::Unexpected<int>(fail(*options, QStringLiteral("startup_failed"), opened.error()));
    return std::move(*opened);
}

int openSpaceCommand(CommandLine &line, const QStringList &arguments, SpaceCommand *c, bool addReadsFile)
{
    if (int rc = line.parse(arguments); rc >= 0)
        return rc;
    const QStringList pos = line.positionals();
    c->verb = pos.value(0);
    const bool withArgument = c->verb == QLatin1String("add") || c->verb == QLatin1String("remove");
    if (!(withArgument && pos.size() == 2) && !(c->verb == QLatin1String("list") && pos.size() == 1))
        return line.usageError(pos.isEmpty() ? QStringLiteral("missing subcommand")
                                             : QStringLiteral("unknown subcommand or wrong number of arguments"));
    c->argument = pos.value(1);
    const QString spaceName = line.value(QStringLiteral("space"));
    if (spaceName.isEmpty())
        return line.usageError(QStringLiteral("--space is required"));
    auto env = openData(line, &c->options);
    if (!env)
        return env.error();
    c->env = std::move(*env);
    auto space = service::AccountService(*c->env->db, c->env->config).spaceByName(spaceName);
    if (!space)
        return fail(c->options, space.error());
    c->space = *space;
    if (addReadsFile && c->verb == QLatin1String("add")) {
        QFile f(c->argument);
        if (!f.open(QIODevice::ReadOnly))
            return fail(c->options, QStringLiteral("file_unreadable"),
                        QStringLiteral("cannot read %1: %2").arg(c->argument, f.errorString()));
        c->input = f.readAll();
    }
    return -1;
}

void printJson(const QJsonObject &object)
{
    QTextStream out(stdout);
    out << QJsonDocument(object).toJson(QJsonDocument::Compact) << '\n';
    out.flush();
}

void printLine(const QString &line)
{
    QTextStream out(stdout);
    out << line << '\n';
    out.flush();
}

} // namespace imprint::app
