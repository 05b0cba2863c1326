// `imprint serve` (docs/architecture.md).
#include "server/app/commands/cli.h"
#include "server/app/commands/demo.h"
#include "server/app/memory_trim.h"
#include "server/app/service.h"
#include "server/common/log_writer.h"
#include "server/store/crypto.h"

#include <QJsonObject>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QSocketNotifier>
#include <QTextStream>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>
#include <unistd.h>
#include <utility>

namespace imprint::app {

namespace {

int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] const auto n = ::write(g_signalPipe[1], &c, 1);
}

/// How long past the grace period a stop may take (docs/deployment.md): the last answers
/// get HttpServer::kShutdownFlushMs to leave, the workers the rest; a render that has not
/// ended by then is left behind and the process ends without it.
constexpr int kStopMarginMs = 500;

/// When the workers must have ended after a stop was asked for (expired: none asked).
QDeadlineTimer g_workersBy;
/// Set once a stop has written what a clean stop keeps and ended the browser
/// (Service::endNow()): what the destructors still do is tidying.
std::atomic<bool> g_kept{false};

// SIGINT/SIGTERM shut the server down gracefully: no new connections, renders in flight
// get `graceMs` to finish, the rest are cancelled and answered 503; then the event loop
// ends and the workers get what is left of kStopMarginMs (runServeCommand()). A second
// signal quits at once, waiting for no worker.
void installQuitOnSignals(http::HttpServer &server, int graceMs)
{
    if (::pipe(g_signalPipe) != 0)
        return;
    auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, QCoreApplication::instance());
    QObject::connect(&server, &http::HttpServer::drained, QCoreApplication::instance(), &QCoreApplication::quit,
                     Qt::QueuedConnection);
    QObject::connect(notifier, &QSocketNotifier::activated, QCoreApplication::instance(), [&server, graceMs] {
        char c;
        [[maybe_unused]] const auto n = ::read(g_signalPipe[0], &c, 1);
        static bool second = false;
        if (std::exchange(second, true)) {
            g_workersBy = QDeadlineTimer(0);
            QCoreApplication::quit();
            return;
        }
        printLine(QStringLiteral("imprint: stopping (renders in flight get %1 ms)").arg(graceMs));
        const qint64 stopMs = qint64(std::max(graceMs, 0)) + kStopMarginMs;
        g_workersBy = QDeadlineTimer(stopMs - 350); // the last 350 ms: the write-behind, the browser, the exit
        server.shutdown(graceMs);
        // The process ends by the grace period and its margin even while the destructors
        // still tidy up (reaping the browser's processes took 0.3 s), once what a clean
        // stop keeps is written. Should that block (a database that does not answer the
        // last writes), it ends 1 s later all the same: every acknowledged write is already
        // committed, and the browser dies with the process (its parent-death signal).
        std::thread([stopMs] {
            std::this_thread::sleep_for(std::chrono::milliseconds(stopMs));
            if (g_kept)
                _exit(0);
            std::this_thread::sleep_for(std::chrono::milliseconds(1000));
            static const char line[] = "imprint: still stopping 1 s past the grace period and its margin; ending now\n";
            [[maybe_unused]] const auto n = ::write(2, line, sizeof line - 1);
            _exit(1);
        }).detach();
    });
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    std::signal(SIGPIPE, SIG_IGN);
}

bool parseListen(const QString &text, QHostAddress *address, quint16 *port)
{
    const int colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon < 0)
        return false;
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    bool ok = false;
    const uint p = text.mid(colon + 1).toUInt(&ok);
    if (!ok || p > 65535)
        return false;
    if (host.isEmpty() || host == QLatin1String("*"))
        *address = QHostAddress::Any;
    else if (host == QLatin1String("localhost"))
        *address = QHostAddress::LocalHost;
    else if (!address->setAddress(host))
        return false;
    *port = quint16(p);
    return true;
}

} // namespace

int runServeCommand(const QStringList &arguments)
{
    CommandLine args(QStringLiteral("serve"), QStringLiteral("imprint serve [--listen HOST:PORT] [--data DIR] "
                                                             "[--database URL] [--demo] [--max-connections N]"));
    args.addCommonOptions();
    args.addValueOption({QStringLiteral("listen")}, QStringLiteral("Address to listen on (default 127.0.0.1:8080)."),
                        QStringLiteral("HOST:PORT"));
    args.addValueOption({QStringLiteral("max-connections")},
                        QStringLiteral("Open-connection cap (default: http.maxConnections)."), QStringLiteral("N"));
    args.addFlag({QStringLiteral("demo")}, QStringLiteral("Seed a demo space, account, key and pages."));
    if (const int rc = args.parse(arguments); rc >= 0)
        return rc;
    if (!args.positionals().isEmpty())
        return args.usageError(QStringLiteral("unexpected argument '%1'").arg(args.positionals().first()));
    // Before anything logs, and outliving every thread that does (the service below): the
    // access log's lines leave in batches, not in a system call each (docs/deployment.md, "Logs").
    common::LogWriter logWriter;
    const CommonOptions options = commonOptions(args);
    QHostAddress address;
    quint16 port = 0;
    const QString listen = args.value(QStringLiteral("listen"), QStringLiteral("127.0.0.1:8080"));
    if (!parseListen(listen, &address, &port)) {
        QTextStream(stderr) << "imprint serve: --listen wants HOST:PORT, got '" << listen << "'\n";
        return 2;
    }

    auto env = openEnvironment(options);
    if (!env)
        return fail(options, QStringLiteral("startup_failed"), env.error());
    if (args.isSet(QStringLiteral("max-connections"))) {
        bool ok = false;
        const int cap = args.value(QStringLiteral("max-connections")).toInt(&ok);
        if (!ok || cap < 1) {
            QTextStream(stderr) << "imprint serve: --max-connections wants a positive integer\n";
            return 2;
        }
        env->config.setMaxConnections(cap);
    }

    if (const auto proxies = http::TrustedProxies::parse(env->config.trustedProxies()); !proxies)
        return fail(options, QStringLiteral("startup_failed"),
                    QStringLiteral("http.trustedProxies: ") + proxies.error());

    if (const QJsonValue io = env->config.json().value(QStringLiteral("http")).toObject().value(QStringLiteral("ioThreads"));
        !io.isUndefined() && (!io.isDouble() || io.toInt(-1) < 0 || io.toInt(-1) > 64))
        QTextStream(stderr) << "imprint serve: warning: http.ioThreads wants an integer from 0 (one per core) to 64; "
                               "using "
                            << serverLimits(env->config).ioThreads << "\n";

    // Every thread that queries holds one connection (server/store/database.h): the
    // render and login pools, the event loop's thread and the I/O threads beyond it (they
    // authenticate pattern renders).
    const http::ServerLimits limits = serverLimits(env->config);
    const int ioThreads = http::ioThreadsFor(limits.ioThreads);
    const int queryingThreads
        = (limits.workerThreads > 0 ? limits.workerThreads : QThread::idealThreadCount()) + limits.browserThreads
          + limits.loginThreads + 1 + (ioThreads > 1 ? ioThreads : 0);
    if (const int bound = env->db->settings().maxConnections; bound > 0 && bound < queryingThreads)
        QTextStream(stderr) << "imprint serve: warning: database.maxConnections " << bound << " is below the "
                            << queryingThreads << " threads that query; requests on the others answer 503\n";

    const quint64 fdLimit = http::raiseOpenFileLimit();
    auto created = Service::create(*env);
    if (!created)
        return fail(options, QStringLiteral("startup_failed"), created.error());
    const std::unique_ptr<Service> service = std::move(created).value();

    const auto listening = service->server().listen(address, port);
    if (!listening)
        return fail(options, QStringLiteral("listen_failed"),
                    QStringLiteral("cannot listen on %1: %2").arg(listen, listening.error()));
    const quint16 bound = *listening;
    // The html engine's browser starts now, beside the listening server: the first html
    // renders are answered 503 engine_starting until it runs, not held for seconds.
    service->startEngines();
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
                             ? QStringLiteral("[%1]").arg(address.toString())
                             : address.toString();
    const QString base = QStringLiteral("http://%1:%2")
                             .arg(address == QHostAddress::Any ? QStringLiteral("127.0.0.1") : host)
                             .arg(bound);
    printLine(QStringLiteral("imprint %1 listening on %2 (data %3, %4, max %5 connections, fd limit %6)")
                  .arg(QStringLiteral(IMPRINT_VERSION), base, env->dataDir, env->db->settings().describe())
                  .arg(env->config.maxConnections())
                  .arg(fdLimit));

    if (args.isSet(QStringLiteral("demo"))) {
        auto demo = seedDemo(*env);
        if (!demo)
            return fail(options, QStringLiteral("demo_failed"), demo.error());
        printLine(demoBanner(*demo, base) + demoRenderBanner(*env, *demo, base) + demoClosingBanner(*demo, base));
    }
    installQuitOnSignals(service->server(), env->config.shutdownGraceMs());
    const MemoryTrimmer trimmer(1000); // RSS flat over a long run (docs/performance.md, "Memory")
    const int rc = QCoreApplication::exec();
    const bool stopped = service->stopWorkers(g_workersBy);
    if (!stopped)
        printLine(QStringLiteral("imprint: a render or webhook attempt did not stop within the grace period; ending "
                                 "without it"));
    // What a clean stop keeps, kept now: the write-behind's rows written (every other
    // write is committed already), the browser ended.
    service->endNow();
    logWriter.flush(); // the process may end by _exit() from here on
    g_kept = true;
    printLine(QStringLiteral("imprint: stopped"));
    if (!stopped) {
        // A render that never looks at its cancellation (or a webhook attempt waiting for
        // its endpoint) would hold the destructors past the grace period: end without them.
        // Its answer was sent (503); a transaction it had open is rolled back with its
        // connection.
        std::fflush(nullptr);
        _exit(rc);
    }
    return rc;
}

} // namespace imprint::app
