#include "server/app/commands/cli.h"

#include "server/store/crypto.h"

#include <QDir>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTextStream>

#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>

namespace imprint::app {

Args::Args(const QStringList &args, const QStringList &valueOptions, const QStringList &flags, QString *error)
{
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (!a.startsWith(QLatin1String("--")) || a == QLatin1String("--")) {
            m_positionals << a;
            continue;
        }
        QString name = a.mid(2);
        QString value;
        bool hasValue = false;
        if (const int eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            value = name.mid(eq + 1);
            name = name.left(eq);
            hasValue = true;
        }
        if (valueOptions.contains(name)) {
            if (!hasValue) {
                if (i + 1 >= args.size()) {
                    if (error)
                        *error = QStringLiteral("--%1 needs a value").arg(name);
                    return;
                }
                value = args.at(++i);
            }
            m_values.insert(name, value);
        } else if (flags.contains(name) && !hasValue) {
            m_flags << name;
        } else if (error) {
            *error = QStringLiteral("unknown option --%1").arg(name);
            return;
        }
    }
}

QStringList commonValueOptions()
{
    return {QStringLiteral("data"), QStringLiteral("database")};
}

QStringList commonFlags()
{
    return {QStringLiteral("json")};
}

CommonOptions commonOptions(const Args &args)
{
    CommonOptions o;
    o.dataDir = args.value(QStringLiteral("data"));
    if (o.dataDir.isEmpty())
        o.dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    o.dataDir = QDir(o.dataDir).absolutePath();
    o.databaseUrl = args.value(QStringLiteral("database"));
    o.json = args.has(QStringLiteral("json"));
    return o;
}

std::optional<Environment> openEnvironment(const CommonOptions &options, QString *error)
{
    if (!store::initCrypto()) {
        *error = QStringLiteral("libsodium failed to initialise");
        return std::nullopt;
    }
    if (!QDir().mkpath(options.dataDir)) {
        *error = QStringLiteral("cannot create the data directory %1").arg(options.dataDir);
        return std::nullopt;
    }
    auto config = store::Config::load(options.dataDir, error);
    if (!config)
        return std::nullopt;
    auto settings = store::DatabaseSettings::fromUrl(options.databaseUrl, options.dataDir, error);
    if (!settings)
        return std::nullopt;
    Environment env{options.dataDir, *config, std::make_unique<store::Database>(*settings)};
    if (!env.db->migrate(error))
        return std::nullopt;
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

std::optional<QString> readPassword(const QString &prompt, QString *error)
{
    std::optional<std::string> first, second;
    if (isatty(STDIN_FILENO)) {
        first = promptNoEcho(prompt + QStringLiteral(": "));
        second = promptNoEcho(QStringLiteral("Repeat: "));
    } else {
        first = readLine();
        second = readLine();
    }
    if (!first || first->empty()) {
        *error = QStringLiteral("no password given on stdin");
        return std::nullopt;
    }
    if (second && !second->empty() && *second != *first) {
        *error = QStringLiteral("the two passwords differ");
        return std::nullopt;
    }
    if (isatty(STDIN_FILENO) && (!second || *second != *first)) {
        *error = QStringLiteral("the two passwords differ");
        return std::nullopt;
    }
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
