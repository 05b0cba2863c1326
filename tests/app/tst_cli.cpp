// The command line of `imprint`, run as a child process the way a user types it: every
// subcommand's --help, --version, usage errors (exit 2, naming the option, with the
// subcommand's usage), none of which needs a display or creates a database; and the
// admin CLI's rules on spaces (user add never makes one by accident, the default plan).
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "../support/test_database.h"

namespace {

struct Run {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QByteArray out;
    QByteArray err;
};

/// Runs the binary without any display (no QT_QPA_PLATFORM, DISPLAY or WAYLAND_DISPLAY):
/// what a server or a CI machine has.
Run run(const QStringList &args, const QByteArray &stdinData = {})
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("IMPRINT_ARGON2_LIMITS"), QStringLiteral("min"));
    QProcess p;
    p.setProcessEnvironment(env);
    // Against PostgreSQL (the tst_cli_postgres variant), each --data DIR gets its database.
    QStringList all = args;
    const qsizetype data = args.indexOf(QStringLiteral("--data"));
    if (data >= 0 && data + 1 < args.size() && testUsesPostgres()) {
        // Right after --data DIR: an option left without its value stays last.
        all.insert(data + 2, testDatabaseUrl(args.at(data + 1)));
        all.insert(data + 2, QStringLiteral("--database"));
    }
    p.start(QStringLiteral(IMPRINT_BINARY), all);
    Run r;
    if (!p.waitForStarted(10000))
        return r;
    p.write(stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000))
        return r;
    r.exitCode = p.exitCode();
    r.status = p.exitStatus();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QJsonObject json(const QByteArray &line)
{
    return QJsonDocument::fromJson(line).object();
}

} // namespace

class TstCli : public QObject
{
    Q_OBJECT

private slots:
    void version()
    {
        const Run r = run({"--version"});
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(QRegularExpression("^imprint \\d+\\.\\d+\\.\\d+\\n$").match(QString::fromUtf8(r.out)).hasMatch(),
                 r.out.constData());
    }

    void helpOfEveryCommand_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("mentions"); // an option that command's help must list
        QTest::newRow("serve") << "serve"
                               << "--listen";
        QTest::newRow("space") << "space"
                               << "--plan";
        QTest::newRow("user") << "user"
                              << "--create-space";
        QTest::newRow("key") << "key"
                             << "--expires-days";
        QTest::newRow("signing-key") << "signing-key"
                                     << "--space";
        QTest::newRow("url") << "url"
                             << "--signing-key";
        QTest::newRow("template") << "template"
                                  << "--space";
        QTest::newRow("page") << "page"
                              << "--var";
        QTest::newRow("render") << "render"
                                << "--tweak";
        QTest::newRow("font") << "font"
                              << "--family";
        QTest::newRow("asset") << "asset"
                               << "--space";
        QTest::newRow("layout") << "layout"
                                << "--width";
        QTest::newRow("bench") << "bench"
                               << "--engine";
        QTest::newRow("db") << "db"
                            << "--files-to";
    }

    void helpOfEveryCommand()
    {
        QFETCH(QString, command);
        QFETCH(QString, mentions);
        for (const char *flag : {"--help", "-h"}) {
            const Run r = run({command, flag});
            QCOMPARE(r.status, QProcess::NormalExit);
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out.startsWith(("usage: imprint " + command).toUtf8()), r.out.constData());
            QVERIFY2(r.out.contains(mentions.toUtf8()), r.out.constData());
            QVERIFY2(r.out.contains("--help"), r.out.constData());
        }
    }

    void benchVariesATextVariable()
    {
        // --vary: each timed render brings a title no render shaped before, as uncached
        // page renders do; the line says which variable varied.
        const QString card = QStringLiteral(IMPRINT_SOURCE_DIR "/docs/examples/og-card.json");
        Run r = run({"bench", "-n", "2", "--vary", "title", card});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject line = QJsonDocument::fromJson(r.out.trimmed()).object();
        QCOMPARE(line.value("vary").toString(), QStringLiteral("title"));
        QCOMPARE(line.value("n").toInt(), 2);
        QVERIFY(line.value("bytes").toInt() > 1000);
        // A variable the template does not have is a usage error naming it.
        r = run({"bench", "-n", "2", "--vary", "subtitle", card});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--vary: og-card.json has no text variable 'subtitle'"), r.err.constData());
        QVERIFY2(r.out.isEmpty(), r.out.constData());
    }

    void consoleHelpNeedsNoDisplay()
    {
        Run r = run({"console", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("Usage: imprint console [options]"), r.out.constData());
        r = run({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("imprint <command> --help"), r.out.constData());
    }

    void unknownOptionIsAUsageError_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named"); // what the error must name
        QTest::addColumn<QString>("usage"); // how the usage printed after it starts
        QTest::newRow("top level") << QStringList{"--bogus"} << "bogus"
                                   << "Usage: imprint [options]";
        QTest::newRow("console") << QStringList{"console", "--bogus"} << "bogus"
                                 << "Usage: imprint console";
        QTest::newRow("space") << QStringList{"space", "list", "--bogus"} << "bogus"
                               << "usage: imprint space";
        QTest::newRow("user") << QStringList{"user", "list", "--nope=1"} << "nope"
                              << "usage: imprint user";
        QTest::newRow("key") << QStringList{"key", "list", "--space", "a", "--x"} << "'x'"
                             << "usage: imprint key";
        QTest::newRow("url") << QStringList{"url", "sign", "--bogus"} << "bogus"
                             << "usage: imprint url";
        QTest::newRow("page") << QStringList{"page", "list", "--bogus"} << "bogus"
                              << "usage: imprint page";
        QTest::newRow("serve") << QStringList{"serve", "--bogus"} << "bogus"
                               << "usage: imprint serve";
        QTest::newRow("render") << QStringList{"render", "t.json", "--bogus"} << "bogus"
                                << "usage: imprint render";
        QTest::newRow("bench") << QStringList{"bench", "--bogus"} << "bogus"
                               << "usage: imprint bench";
        QTest::newRow("db") << QStringList{"db", "copy", "--bogus"} << "bogus"
                            << "usage: imprint db";
        QTest::newRow("db without --to") << QStringList{"db", "copy", "--from", "x"} << "--to are required"
                                         << "usage: imprint db";
        QTest::newRow("missing value") << QStringList{"space", "create", "x", "--plan"}
                                       << "Missing value after '--plan'"
                                       << "usage: imprint space";
        QTest::newRow("missing value, render") << QStringList{"render", "t.json", "-o"} << "Missing value after '-o'"
                                               << "usage: imprint render";
        QTest::newRow("bad number") << QStringList{"bench", "-n", "zero", "x.json"} << "-n must be a whole number"
                                    << "usage: imprint bench";
    }

    void unknownOptionIsAUsageError()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        QFETCH(QString, usage);
        QTemporaryDir dir;
        // Even with a data directory named, a usage error creates nothing.
        const QString data = dir.filePath("data");
        if (args.first() != "--bogus" && args.first() != "console" && args.first() != "render"
            && args.first() != "bench" && args.first() != "db")
            args = QStringList{args.first(), "--data", data} + args.mid(1); // before a value-less last option
        const Run r = run(args);
        QCOMPARE(r.status, QProcess::NormalExit); // not Qt's abort for want of a display
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(named.toUtf8()), r.err.constData());
        QVERIFY2(r.err.contains(usage.toUtf8()), r.err.constData());
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFileInfo::exists(data));
    }

    void noSubcommandPrintsUsageAndCreatesNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("space") << QStringList{"space"};
        QTest::newRow("page") << QStringList{"page"};
        QTest::newRow("user") << QStringList{"user", "frobnicate"};
        QTest::newRow("key create without --name") << QStringList{"key", "create", "--space", "a"};
        QTest::newRow("template") << QStringList{"template", "list"};
    }

    void noSubcommandPrintsUsageAndCreatesNothing()
    {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        const QString data = dir.filePath("data");
        const Run r = run(args + QStringList{"--data", data});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("usage: imprint " + args.first().toUtf8()), r.err.constData());
        QVERIFY(!QFileInfo::exists(data));
    }

    void userAddRefusesAnUnknownSpace()
    {
        QTemporaryDir dir;
        const QString data = dir.path();
        Run r = run(
            {"user", "add", "--email", "ana@acme.test", "--space", "acme", "--role", "owner", "--data", data, "--json"},
            "a long password\n");
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(json(r.out).value("error").toObject().value("code").toString(), QString("space_not_found"));
        QVERIFY2(r.err.contains("imprint space create acme --plan"), r.err.constData());
        r = run({"space", "list", "--json", "--data", data});
        QCOMPARE(json(r.out).value("spaces").toArray().size(), 0); // nothing was created
        r = run({"user", "list", "--json", "--data", data});
        QCOMPARE(json(r.out).value("users").toArray().size(), 0);

        // Created first, it works; --create-space makes it on the default plan.
        QCOMPARE(run({"space", "create", "acme", "--plan", "business", "--data", data}).exitCode, 0);
        QCOMPARE(run({"user", "add", "--email", "ana@acme.test", "--space", "acme", "--role", "owner", "--data", data},
                     "a long password\n")
                     .exitCode,
                 0);
        r = run(
            {"user", "add", "--email", "bo@acme.test", "--space", "beta", "--create-space", "--data", data, "--json"},
            "a long password\n");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r.out).value("space").toString(), QString("beta"));
        r = run({"space", "list", "--json", "--data", data});
        QMap<QString, QString> plans;
        for (const QJsonValue &s : json(r.out).value("spaces").toArray())
            plans.insert(s["name"].toString(), s["plan"].toString());
        QCOMPARE(plans.value("acme"), QString("business"));
        QCOMPARE(plans.value("beta"), QString("pro"));
    }

    // `imprint font` and `imprint asset` add, list and remove a space's uploads, with the
    // HTTP routes' validation (docs/fonts-and-images.md).
    void fontAndAssetCommands()
    {
        QTemporaryDir dir;
        const QString data = dir.path();
        QCOMPARE(run({"space", "create", "acme", "--data", data}).exitCode, 0);
        const QString fonts = QStringLiteral(IMPRINT_SOURCE_DIR "/tests/http/fonts/");
        Run r = run({"font", "add", "--space", "acme", fonts + "ComicNeue-Regular.woff2", "--family", "Brand", "--json",
                     "--data", data});
        QCOMPARE(r.exitCode, 0);
        const QString id = json(r.out).value("id").toString();
        QVERIFY2(id.startsWith("fnt_"), r.out.constData());
        QCOMPARE(json(r.out).value("family").toString(), QString("Brand"));
        r = run({"font", "list", "--space", "acme", "--json", "--data", data});
        QCOMPARE(json(r.out).value("count").toInt(), 1);
        r = run({"font", "add", "--space", "acme", fonts + "README.md", "--json", "--data", data});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(json(r.out).value("error").toObject().value("code").toString(), QString("invalid_font"));
        QCOMPARE(run({"font", "remove", "--space", "acme", id, "--data", data}).exitCode, 0);
        QCOMPARE(run({"font", "remove", "--space", "acme", id, "--data", data}).exitCode, 1);

        r = run({"asset", "add", "--space", "acme", QStringLiteral(IMPRINT_SOURCE_DIR "/docs/examples/logo.svg"),
                 "--json", "--data", data});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r.out).value("width").toInt(), 120);
        QCOMPARE(json(r.out).value("contentType").toString(), QString("image/svg+xml"));
        r = run({"asset", "list", "--space", "acme", "--json", "--data", data});
        QCOMPARE(json(r.out).value("count").toInt(), 1);
        QCOMPARE(run({"font", "list", "--data", data}).exitCode, 2); // --space is required
    }

    void defaultPlanIsConfigurable()
    {
        QTemporaryDir dir;
        Run r = run({"space", "create", "one", "--json", "--data", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(json(r.out).value("plan").toString(), QString("pro")); // the standard card fits
        QFile config(dir.filePath("config.json"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(R"({"spaces": {"defaultPlan": "business"}})");
        config.close();
        r = run({"space", "create", "two", "--json", "--data", dir.path()});
        QCOMPARE(json(r.out).value("plan").toString(), QString("business"));
        r = run({"space", "create", "three", "--plan", "free", "--json", "--data", dir.path()});
        QCOMPARE(json(r.out).value("plan").toString(), QString("free"));
    }
};

QTEST_GUILESS_MAIN(TstCli)
#include "tst_cli.moc"
