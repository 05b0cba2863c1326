// `imprint console [--server URL] [--lang de|fr|en]`: the Qt Widgets admin console
// against a running server, and `imprint` with no arguments: local desktop mode.
#include "gui/i18n.h"
#include "gui/mainwindow.h"
#include "gui/previewtab.h"
#include "gui/screenshot.h"
#include "gui/signinpage.h"
#include "gui/studiotab.h"
#include "server/app/commands/cli.h"
#include "server/app/service.h"
#include "server/common/text.h"
#include "shared/apiclient.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>

namespace imprint::app {

namespace {

struct ConsoleOptions {
    QString server;
    bool serverLocked = false;
    QString lang;
    QString screenshot;
    QString email;
    QString tab;
    bool render = false;
    QSize size;
    QString dataDir; // local mode only; empty: the default data directory
    QString databaseUrl; // local mode only; empty: SQLite in the data directory
};

// Parses the console flags; returns 0 to go on, -1 after --help, else an exit code (2
// usage error). `quiet` prints nothing: main() asks before it creates the application.
int parseConsoleOptions(const QStringList &args, ConsoleOptions &o, const QString &command, bool quiet = false)
{
    QString ignored;
    QTextStream discard(&ignored);
    QTextStream realOut(stdout), realErr(stderr);
    QTextStream &out = quiet ? discard : realOut;
    QTextStream &err = quiet ? discard : realErr;
    const QString name = command.isEmpty() ? QStringLiteral("imprint") : QStringLiteral("imprint ") + command;
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Imprint admin console"));
    p.addHelpOption();
    // Bare `imprint` runs its own server: it takes that server's data options instead of
    // an address to connect to.
    const bool localMode = command.isEmpty();
    if (localMode) {
        p.addOption(
            {QStringLiteral("data"),
             QStringLiteral("Data directory of the local server (default: %1).")
                 .arg(QDir::toNativeSeparators(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))),
             QStringLiteral("DIR")});
        p.addOption({QStringLiteral("database"),
                     QStringLiteral("Database URL of the local server (default: SQLite in the data directory)."),
                     QStringLiteral("URL")});
    } else {
        p.addOption({QStringLiteral("server"), QStringLiteral("Server address, e.g. http://localhost:8080."),
                     QStringLiteral("URL")});
    }
    p.addOption({QStringLiteral("lang"), QStringLiteral("Console language: en, de or fr (default: system)."),
                 QStringLiteral("LANG")});
    p.addOption({QStringLiteral("screenshot"),
                 QStringLiteral("Save the window as a PNG once shown and loaded, then exit."), QStringLiteral("PATH")});
    p.addOption({QStringLiteral("email"),
                 QStringLiteral("Sign in with this account at start; the password comes from "
                                "the IMPRINT_CONSOLE_PASSWORD environment variable."),
                 QStringLiteral("EMAIL")});
    p.addOption(
        {QStringLiteral("tab"), QStringLiteral("Tab to open after sign-in: %1.").arg(common::orList(gui::MainWindow::tabNames())),
         QStringLiteral("TAB")});
    p.addOption({QStringLiteral("render"),
                 QStringLiteral("Render the first page on the Preview tab at start (renders need an API "
                                "key: the IMPRINT_CONSOLE_API_KEY environment variable fills it in).")});
    p.addOption({QStringLiteral("size"), QStringLiteral("Window size, e.g. 1100x700."), QStringLiteral("WxH")});
    QStringList argv = args;
    argv.prepend(name);
    // helpText() names the executable file only; say which mode these options are for.
    auto help = [&p, &name] {
        QString text = p.helpText();
        text.replace(0, text.indexOf(QLatin1Char('\n')), QStringLiteral("Usage: %1 [options]").arg(name));
        return text;
    };
    if (!p.parse(argv)) {
        err << name << ": " << p.errorText() << '\n' << help();
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        out << help();
        return -1;
    }
    if (!p.positionalArguments().isEmpty()) {
        err << name << ": unexpected argument '" << p.positionalArguments().first() << "'\n" << help();
        return 2;
    }
    if (localMode) {
        o.dataDir = p.value(QStringLiteral("data"));
        o.databaseUrl = p.value(QStringLiteral("database"));
    } else {
        o.server = p.value(QStringLiteral("server"));
    }
    if (!o.server.isEmpty() && !client::ApiClient::normalizeServerUrl(o.server).isValid()) {
        err << name << ": not a server address: " << o.server << '\n';
        return 2;
    }
    o.lang = p.value(QStringLiteral("lang"));
    if (!o.lang.isEmpty() && o.lang != QLatin1String("en") && !gui::availableLanguages().contains(o.lang)) {
        err << name << ": --lang must be en, de or fr\n";
        return 2;
    }
    o.screenshot = p.value(QStringLiteral("screenshot"));
    o.email = p.value(QStringLiteral("email"));
    o.tab = p.value(QStringLiteral("tab"));
    if (p.isSet(QStringLiteral("tab")) && !gui::MainWindow::tabNames().contains(o.tab)) {
        err << name << ": --tab must be " << common::orList(gui::MainWindow::tabNames()) << '\n';
        return 2;
    }
    o.render = p.isSet(QStringLiteral("render"));
    const QStringList size = p.value(QStringLiteral("size")).split(QLatin1Char('x'));
    if (size.size() == 2)
        o.size = QSize(size[0].toInt(), size[1].toInt());
    return 0;
}

int runConsoleWindow(const ConsoleOptions &o, const QString &notice = QString(),
                     const QString &prefillEmail = QString())
{
    if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
        QTextStream(stderr) << "imprint console: needs a widgets application\n";
        return 1;
    }
    gui::installTranslations(o.lang);
    gui::MainWindow window;
    if (!o.server.isEmpty())
        window.setServerUrl(client::ApiClient::normalizeServerUrl(o.server).toString(), o.serverLocked);
    if (o.size.isValid() && !o.size.isEmpty())
        window.resize(o.size);
    if (!prefillEmail.isEmpty())
        window.signInPage()->setEmail(prefillEmail);
    window.signInPage()->reset();
    if (!notice.isEmpty())
        window.signInPage()->showNotice(notice);

    // Page renders need an API key (docs/api.md); taken from the environment, like the
    // password, so it shows in no process list.
    const QString apiKey = qEnvironmentVariable("IMPRINT_CONSOLE_API_KEY");
    if (!apiKey.isEmpty())
        QObject::connect(&window, &gui::MainWindow::signedIn, &window, [&window, apiKey] {
            window.previewTab()->offerApiKey(apiKey);
            window.studioTab()->offerApiKey(apiKey);
        });
    if (!o.tab.isEmpty()) {
        const QString tab = o.tab;
        QObject::connect(&window, &gui::MainWindow::signedIn, &window, [&window, tab] { window.showTab(tab); });
    }
    if (o.render) {
        auto *preview = window.previewTab();
        QObject::connect(preview, &gui::PreviewTab::templateLoaded, preview, [preview] {
            static bool once = false;
            if (!once) {
                once = true;
                preview->render();
            }
        });
    }
    window.show();

    const QString email = o.email;
    const QString password = qEnvironmentVariable("IMPRINT_CONSOLE_PASSWORD");
    if (!email.isEmpty() && !password.isEmpty())
        QTimer::singleShot(0, &window, [&window, email, password] { window.signIn(email, password); });

    // Scripted (a screenshot): a sign-in that fails is reported and ends the run with 1
    // once the screenshot of the refused form is written.
    bool signInFailed = false;
    int screenshotResult = 0;
    if (!o.screenshot.isEmpty()) {
        QObject::connect(&window, &gui::MainWindow::signInFailed, &window, [&signInFailed](const QString &message) {
            signInFailed = true;
            QTextStream(stderr) << "imprint console: sign-in failed: " << message << '\n';
        });
        gui::screenshotWhenSettled(&window, window.client(), o.screenshot, [&screenshotResult, &o](bool ok) {
            if (!ok) {
                QTextStream(stderr) << "imprint console: could not write " << o.screenshot << '\n';
                screenshotResult = 1;
            }
            QCoreApplication::quit();
        });
    }
    const int rc = QApplication::exec();
    if (screenshotResult)
        return screenshotResult;
    return signInFailed && rc == 0 ? 1 : rc;
}

} // namespace

/// Whether `imprint console ARGS` (console == true) or `imprint ARGS` (local desktop mode)
/// would open a window: false for --help and for any usage error, which then need no
/// display (main() creates a QApplication only when this holds).
bool consoleWouldOpenWindow(const QStringList &args, bool console)
{
    ConsoleOptions o;
    return parseConsoleOptions(args, o, console ? QStringLiteral("console") : QString(), true) == 0;
}

int runConsoleCommand(const QStringList &args)
{
    ConsoleOptions o;
    const int rc = parseConsoleOptions(args, o, QStringLiteral("console"));
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    return runConsoleWindow(o);
}

// `imprint` alone: the server on a free localhost port in this process (the default data
// directory unless --data/--database say otherwise), and the console connected to it,
// its server address fixed.
int runLocalDesktop(const QStringList &args)
{
    ConsoleOptions o;
    const int rc = parseConsoleOptions(args, o, QString());
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    gui::installTranslations(o.lang);

    QString error;
    CommonOptions options = defaultCommonOptions();
    if (!o.dataDir.isEmpty())
        options.dataDir = o.dataDir;
    if (!o.databaseUrl.isEmpty())
        options.databaseUrl = o.databaseUrl;
    auto env = openEnvironment(options);
    std::unique_ptr<Service> service;
    quint16 port = 0;
    if (!env) {
        error = env.error();
    } else if (auto created = Service::create(*env); created) {
        service = std::move(created).value();
    } else {
        error = created.error();
    }
    if (service) {
        const auto listening = service->server().listen(QHostAddress::LocalHost, 0);
        if (listening)
            port = *listening;
        else
            error = listening.error();
    }
    if (port == 0) {
        QTextStream(stderr) << "imprint: local server not started: " << error << '\n';
        return runConsoleWindow(
            o, QCoreApplication::translate("imprint::app", "The local server could not be started: %1").arg(error));
    }
    QTextStream out(stdout);
    out << "imprint: local server on http://127.0.0.1:" << port << " (data " << env->dataDir << ")\n";
    out.flush();

    o.server = QStringLiteral("http://127.0.0.1:%1").arg(port);
    o.serverLocked = true;
    QString notice;
    QString email;
    const auto users = service->services().accounts().listUsers(QString());
    if (users.has_value() && users->isEmpty()) {
        notice = QCoreApplication::translate(
                     "imprint::app", "There is no account in %1 yet. Create one with “imprint user add "
                                     "--email you@example.com --space NAME --create-space --role owner”, or start "
                                     "“imprint serve --demo” once for a demo account.")
                     .arg(QDir::toNativeSeparators(env->dataDir));
    } else if (users.has_value()) {
        for (const auto &m : users.value())
            if (m.role == store::Role::Owner) {
                email = m.user.email;
                break;
            }
    }
    return runConsoleWindow(o, notice, email);
}

} // namespace imprint::app
