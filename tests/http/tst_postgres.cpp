// PostgreSQL as the database of `imprint serve` (docs/deployment.md, "PostgreSQL"), on a
// throw-away cluster of this suite's own (scripts/pg-cluster), since it stops and restarts
// it: several instances migrating one fresh database at once, the server through a
// PostgreSQL restart and an outage (503 + Retry-After, never a 500, and it recovers without
// a restart of its own), a COMMIT on a connection PostgreSQL ended (503-kind, not 500),
// statements cached before a reconnect and statements of a transaction whose connection
// ended (the next transaction unharmed; the rest of that one failing, 503-kind), a
// create whose connection ends between its write and its recorded answer (nothing written,
// the retry creates once), and `imprint db copy` from a SQLite data directory.
#include "httpclient.h"
#include "server/store/database.h"
#include "server/store/sql.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUrl>

#include <array>
#include <memory>

namespace {

QList<QPair<QByteArray, QByteArray>> bearer(const QByteArray &token)
{
    return {{"Authorization", "Bearer " + token}};
}

} // namespace

class TstPostgres : public QObject
{
    Q_OBJECT

    QTemporaryDir m_root;
    QString m_cluster; // scripts/pg-cluster's DIR
    QString m_server; // its URL (database "imprint")

    static QString script() { return QStringLiteral(IMPRINT_SOURCE_DIR "/scripts/pg-cluster"); }

    bool cluster(const QString &command, QByteArray *out = nullptr)
    {
        QProcess p;
        p.start(script(), {command, m_cluster});
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            qWarning() << "pg-cluster" << command << p.readAllStandardError();
            return false;
        }
        if (out)
            *out = p.readAllStandardOutput();
        return true;
    }

    /// A fresh, empty database on the cluster; its URL.
    QString newDatabase(const QString &name)
    {
        QProcess psql;
        psql.start(QStringLiteral("psql"), {m_server, QStringLiteral("-qAt"), QStringLiteral("-c"),
                                            QStringLiteral("CREATE DATABASE %1").arg(name)});
        if (!psql.waitForFinished(30000) || psql.exitCode() != 0)
            return {};
        return m_server.left(m_server.lastIndexOf(u'/') + 1) + name;
    }

    static QSqlDatabase open(const QString &url, const QString &connection)
    {
        const QUrl u(url);
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connection);
        db.setHostName(u.host());
        db.setPort(u.port());
        db.setUserName(u.userName());
        db.setDatabaseName(u.path().mid(1));
        db.open();
        return db;
    }

    /// A space with a content-scoped API key in the database `url` (data directory
    /// `dataDir`), made by the CLI; the key's token.
    static QByteArray contentKey(const QString &dataDir, const QString &url)
    {
        if (runCli({"space", "create", "acme", "--data", dataDir, "--database", url}) != 0)
            return {};
        QByteArray out;
        if (runCli({"key", "create", "--space", "acme", "--name", "probe", "--scopes", "content", "--json", "--data",
                    dataDir, "--database", url},
                   {}, &out)
            != 0)
            return {};
        return QJsonDocument::fromJson(out).object().value("token").toString().toLatin1();
    }

    /// `imprint serve` on a fresh database of the cluster with a space and a content key.
    struct Served {
        QTemporaryDir dir;
        QString url; ///< the database's
        QByteArray token; ///< the content key's
        ServerProcess server;
    };
    /// Makes `served`'s database `name`, its key and its server; false when a step failed.
    bool serve(const QString &name, Served *served)
    {
        served->url = newDatabase(name);
        if (served->url.isEmpty())
            return false;
        served->token = contentKey(served->dir.path(), served->url);
        return !served->token.isEmpty() && served->server.start(served->dir.path(), {"--database", served->url});
    }

    /// The backend process id of this thread's connection of `db`; 0 when it cannot be read.
    static int backendOf(const imprint::store::Database &db)
    {
        QSqlQuery q(db.connection());
        return q.exec("SELECT pg_backend_pid()") && q.next() ? q.value(0).toInt() : 0;
    }

    /// Ends the PostgreSQL backend `pid` as a restart does (pg_terminate_backend).
    bool terminate(int pid)
    {
        QProcess psql;
        psql.start(QStringLiteral("psql"), {m_server, QStringLiteral("-qAt"), QStringLiteral("-c"),
                                            QStringLiteral("SELECT pg_terminate_backend(%1)").arg(pid)});
        return psql.waitForFinished(30000) && psql.exitCode() == 0;
    }

    /// A Database on a fresh, empty database `name` of the cluster with the table `table`
    /// (`CREATE TABLE` text); null when a step failed.
    std::unique_ptr<imprint::store::Database> freshDatabase(const QString &name, const char *table)
    {
        const QString url = newDatabase(name);
        if (url.isEmpty())
            return nullptr;
        const auto settings = imprint::store::DatabaseSettings::fromUrl(url, QString());
        if (!settings)
            return nullptr;
        auto db = std::make_unique<imprint::store::Database>(*settings);
        return QSqlQuery(db->connection()).exec(QString::fromLatin1(table)) ? std::move(db) : nullptr;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        // The cluster runs as the `postgres` user when the suite runs as root: it must be
        // able to reach its directory.
        QFile::setPermissions(m_root.path(), QFile::permissions(m_root.path()) | QFileDevice::ExeOther
                                                 | QFileDevice::ExeGroup | QFileDevice::ReadOther);
        m_cluster = m_root.filePath("pg");
        QByteArray out;
        QVERIFY(cluster("start", &out));
        m_server = QString::fromUtf8(out).trimmed();
        QVERIFY2(m_server.startsWith("postgres://"), out.constData());
    }

    void cleanupTestCase()
    {
        if (!m_server.isEmpty())
            cluster("stop");
    }

    /// Three instances start at once on one fresh database: each comes up, and the
    /// advisory lock around the migrations lets exactly one apply each version.
    void concurrentMigrationsApplyEachVersionOnce()
    {
        const QString url = newDatabase("migrate_three");
        QVERIFY(!url.isEmpty());
        std::vector<std::unique_ptr<QTemporaryDir>> keep;
        std::vector<std::unique_ptr<QProcess>> servers;
        for (int i = 0; i < 3; ++i) {
            keep.push_back(std::make_unique<QTemporaryDir>());
            auto p = std::make_unique<QProcess>();
            p->setProcessEnvironment(imprintEnvironment());
            p->setProcessChannelMode(QProcess::MergedChannels);
            p->setStandardOutputFile(keep.back()->filePath("server.log"));
            p->start(QStringLiteral(IMPRINT_BINARY),
                     {"serve", "--listen", "127.0.0.1:0", "--data", keep.back()->path(), "--database", url});
            servers.push_back(std::move(p));
        }
        static const QRegularExpression listening(QStringLiteral("listening on http://127\\.0\\.0\\.1:(\\d+)"));
        for (int i = 0; i < 3; ++i) {
            const auto port = [&] {
                QFile log(keep[i]->filePath("server.log"));
                return log.open(QIODevice::ReadOnly)
                           ? quint16(listening.match(QString::fromUtf8(log.readAll())).captured(1).toUInt())
                           : quint16(0);
            };
            QTRY_VERIFY_WITH_TIMEOUT(port() != 0 || servers[i]->state() == QProcess::NotRunning, 20000);
            QVERIFY2(port() != 0, qPrintable(keep[i]->filePath("server.log")));
            QCOMPARE(httpRequest(port(), "GET", "/api/v1/health").status, 200);
        }
        {
            QSqlDatabase db = open(url, "migrations");
            QVERIFY2(db.isOpen(), qPrintable(db.lastError().text()));
            QSqlQuery q(db);
            QVERIFY(q.exec("SELECT COUNT(*), COUNT(DISTINCT version), MAX(version) FROM schema_migrations"));
            QVERIFY(q.next());
            QVERIFY(q.value(2).toInt() >= 7);
            QCOMPARE(q.value(0).toInt(), q.value(2).toInt()); // versions 1..latest, each once
            QCOMPARE(q.value(1).toInt(), q.value(2).toInt());
        }
        QSqlDatabase::removeDatabase("migrations");
        for (auto &p : servers) {
            p->terminate();
            p->waitForFinished(5000);
        }
    }

    /// PostgreSQL restarts, then goes away for a while and comes back, under a running
    /// server: the requests in between succeed or get 503 `database_unavailable` with
    /// Retry-After, never a 500, and afterwards everything works without restarting imprint.
    void serverRidesOutRestartAndOutage()
    {
        Served served;
        QVERIFY(serve("outage", &served));
        const QByteArray &token = served.token;
        ServerProcess &server = served.server;
        const auto probe = [&] { return httpRequest(server.port(), "GET", "/api/v1/templates", {}, bearer(token)); };
        QCOMPARE(probe().status, 200);

        const auto checkGap = [](const HttpReply &r) {
            if (r.status == 200)
                return true;
            return r.status == 503 && r.header("Content-Type") == "application/problem+json"
                   && r.json().value("code").toString() == "database_unavailable"
                   && r.header("Retry-After").toInt() >= 1;
        };

        // A restart while requests keep coming.
        QProcess restart;
        restart.start(script(), {"restart", m_cluster});
        QVERIFY(restart.waitForStarted());
        int during = 0;
        while (!restart.waitForFinished(20)) {
            const HttpReply r = probe();
            if (!checkGap(r))
                qWarning().noquote() << server.log().right(3000); // what the server said about it
            QVERIFY2(checkGap(r), r.body.constData());
            ++during;
        }
        QCOMPARE(restart.exitCode(), 0);
        QVERIFY(during > 0);
        HttpReply r = probe();
        QVERIFY2(r.status == 200, r.body.constData());

        // An outage: every request is 503 + Retry-After, and /health says why.
        QVERIFY(cluster("down"));
        for (int i = 0; i < 3; ++i) {
            r = probe();
            QCOMPARE(r.status, 503);
            QVERIFY2(checkGap(r), r.body.constData());
        }
        r = httpRequest(server.port(), "GET", "/api/v1/health");
        QCOMPARE(r.status, 503);
        QCOMPARE(r.json().value("database").toString(), QString("unavailable"));
        // A write is refused the same way, and not half-done.
        r = httpRequest(server.port(), "POST", "/api/v1/templates",
                        R"({"name": "Outage", "width": 80, "height": 40, "root": {"type": "div"}})", bearer(token));
        QVERIFY2(r.status == 503 && checkGap(r), r.body.constData());

        QVERIFY(cluster("up"));
        r = probe();
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(httpRequest(server.port(), "GET", "/api/v1/health").status, 200);
        QVERIFY(server.log().contains("reconnect") || server.log().contains("cannot open"));
    }

    /// PostgreSQL ends a connection while a transaction is open on it (a restart, a
    /// failover, pg_terminate_backend): COMMIT fails and the request is a 503-kind
    /// `database_unavailable` the client retries, never a 500 `database_error` (before,
    /// one page create in the cluster load test got a 500 so). The transaction's write is
    /// not there, and the next transaction reconnects by itself.
    void commitOnLostConnectionIsUnavailable()
    {
        using namespace imprint::store;
        const auto database = freshDatabase("lostcommit", "CREATE TABLE lost_commit (n INTEGER)");
        QVERIFY(database);
        Database &db = *database;
        const int backend = backendOf(db);
        QVERIFY(backend != 0);
        {
            Transaction tx(db);
            QVERIFY(tx.isOpen());
            QSqlQuery insert(db.connection());
            QVERIFY(sql::run(insert, QStringLiteral("INSERT INTO lost_commit (n) VALUES (?)"), 1));
            QVERIFY(terminate(backend));
            QVERIFY(!tx.commit());
            const ServiceError failed = ServiceError::database();
            QCOMPARE(failed.kind(), ServiceError::Kind::Unavailable);
            QCOMPARE(failed.codeName(), QString("database_unavailable"));
            QVERIFY(failed.retryAfterSeconds >= 1);
        }
        Transaction again(db);
        QVERIFY(again.isOpen());
        QSqlQuery count(db.connection());
        QVERIFY(sql::run(count, QStringLiteral("SELECT COUNT(*) FROM lost_commit")));
        QVERIFY(count.next());
        QCOMPARE(count.value(0).toInt(), 0);
        QVERIFY(!databaseUnavailable());
    }

    /// A statement cached on a connection PostgreSQL then ended (a restart) is prepared
    /// again inside the first transaction on the new connection; freeing the old one
    /// must not touch the new session. Before, QPSQL freed it with a DEALLOCATE of a name
    /// the new session never had, that error aborted the transaction, and every later
    /// statement of it failed (25P02): the write-behind's render-log rows in the cluster
    /// load test, retried for as long as the instance ran.
    void statementsCachedBeforeAReconnectDoNotAbortTheNextTransaction()
    {
        using namespace imprint::store;
        const auto database = freshDatabase("stalecache", "CREATE TABLE stale_cache (n INTEGER)");
        QVERIFY(database);
        Database &db = *database;
        const QString insert = QStringLiteral("INSERT INTO stale_cache (n) VALUES (?)");
        QVERIFY(sql::cachedWrite(db, insert, 1));
        QVERIFY(terminate(backendOf(db)));
        {
            Transaction tx(db); // its BEGIN meets the ended connection and reconnects
            QVERIFY(tx.isOpen());
            const auto written = sql::cachedWrite(db, insert, 2);
            QVERIFY2(written, qPrintable(written ? QString() : written.error().message));
            QVERIFY(sql::cachedWrite(db, insert, 3));
            QVERIFY(tx.commit());
        }
        const auto rows = sql::cachedRows(db, QStringLiteral("SELECT n FROM stale_cache ORDER BY n"),
                                          [](const QSqlQuery &q) { return q.value(0).toInt(); });
        QVERIFY(rows);
        QCOMPARE(*rows, (QList<int>{1, 2, 3}));
    }

    /// PostgreSQL ends the connection while a transaction is open on it, and the next
    /// statement is one never prepared on this connection: preparing it fails, and the
    /// error is the 503-kind `database_unavailable`, not a 500 `database_error` (before,
    /// checking whether the connection was still open forgot the loss, the statement was
    /// prepared once more, and the load test's page create got a 500 during the restart).
    void preparingOnALostConnectionInATransactionIsUnavailable()
    {
        using namespace imprint::store;
        const auto database = freshDatabase("lostprepare", "CREATE TABLE lost_prepare (n INTEGER)");
        QVERIFY(database);
        Database &db = *database;
        {
            Transaction tx(db);
            QVERIFY(tx.isOpen());
            QVERIFY(terminate(backendOf(db)));
            const auto rows = sql::cachedRows(db, QStringLiteral("SELECT n FROM lost_prepare WHERE n = ?"),
                                              [](const QSqlQuery &q) { return q.value(0).toInt(); }, 1);
            QVERIFY(!rows);
            QCOMPARE(rows.error().codeName(), QString("database_unavailable"));
            // A later write of the transaction fails too, rather than running on a new
            // session outside it and committing alone.
            const auto written = sql::write(db, QStringLiteral("INSERT INTO lost_prepare (n) VALUES (?)"), 1);
            QVERIFY(!written);
            QCOMPARE(written.error().codeName(), QString("database_unavailable"));
        }
        // The transaction over, the next statement reconnects.
        QVERIFY(sql::cachedWrite(db, QStringLiteral("INSERT INTO lost_prepare (n) VALUES (?)"), 2));
        const auto rows = sql::cachedRows(db, QStringLiteral("SELECT n FROM lost_prepare"),
                                          [](const QSqlQuery &q) { return q.value(0).toInt(); });
        QVERIFY(rows);
        QCOMPARE(*rows, QList<int>{2});
    }

    /// PostgreSQL ends the connection of a create sent with an Idempotency-Key after its
    /// write and before its answer is recorded (a restart, a failover: here
    /// pg_terminate_backend while a trigger holds the answer's UPDATE). The request is a
    /// 503 `database_unavailable`, nothing of it is written, and its retry with the key
    /// creates the template once. Before, the template committed on its own and the retry
    /// of the unanswered key made a second one.
    void answerLostWithItsConnectionUndoesTheWrite()
    {
        Served served;
        QVERIFY(serve("lostanswer", &served));
        const QByteArray &token = served.token;
        ServerProcess &server = served.server;
        const QByteArray body = R"({"name": "Held", "width": 80, "height": 40, "root": {"type": "div"}})";
        const auto post = [&] {
            return httpRequest(server.port(), "POST", "/api/v1/templates", body,
                               bearer(token) + QList<QPair<QByteArray, QByteArray>>{{"Idempotency-Key", "k-held"}});
        };
        const auto held = [&] {
            const HttpReply r = httpRequest(server.port(), "GET", "/api/v1/templates", {}, bearer(token));
            int n = 0;
            for (const QJsonValue &t : r.json().value("data").toObject().value("list").toArray())
                n += t.toObject().value("name").toString() == "Held";
            return r.status == 200 ? n : -1;
        };
        {
            QSqlDatabase admin = open(served.url, "lostanswer");
            QVERIFY2(admin.isOpen(), qPrintable(admin.lastError().text()));
            QSqlQuery q(admin);
            QVERIFY(q.exec("CREATE FUNCTION hold_answers() RETURNS trigger LANGUAGE plpgsql AS"
                           " $$ BEGIN PERFORM pg_advisory_xact_lock(4242); RETURN NEW; END $$"));
            QVERIFY(q.exec("CREATE TRIGGER hold_answers BEFORE UPDATE ON idempotency_keys"
                           " FOR EACH ROW EXECUTE FUNCTION hold_answers()"));
            QVERIFY(q.exec("SELECT pg_advisory_lock(4242)"));

            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, server.port());
            QVERIFY(socket.waitForConnected(5000));
            socket.write("POST /api/v1/templates HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         "Idempotency-Key: k-held\r\nAuthorization: Bearer "
                         + token + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            QVERIFY(socket.waitForBytesWritten(5000));
            // The request's backend, waiting in the trigger: its write is done, its answer not.
            int backend = 0;
            for (int i = 0; i < 400 && backend == 0; ++i) {
                QVERIFY(q.exec("SELECT pid FROM pg_locks"
                               " WHERE locktype = 'advisory' AND objid = 4242 AND NOT granted"));
                if (q.next())
                    backend = q.value(0).toInt();
                else
                    QThread::msleep(25);
            }
            QVERIFY2(backend != 0, "the answer's UPDATE never waited in the trigger");
            QVERIFY(q.exec(QStringLiteral("SELECT pg_terminate_backend(%1)").arg(backend)));
            const HttpReply lost = readReply(socket);
            QVERIFY2(lost.status == 503 && lost.json().value("code").toString() == "database_unavailable",
                     lost.body.constData());
            QVERIFY(q.exec("SELECT pg_advisory_unlock(4242)"));
            QVERIFY(q.exec("DROP TRIGGER hold_answers ON idempotency_keys"));
        }
        QSqlDatabase::removeDatabase("lostanswer");
        QCOMPARE(held(), 0);

        HttpReply r = post();
        QVERIFY2(r.status == 201, r.body.constData());
        QVERIFY(r.header("Idempotent-Replayed").isEmpty());
        const QString id = r.json().value("data").toObject().value("id").toString();
        r = post();
        QCOMPARE(r.status, 201);
        QCOMPARE(r.header("Idempotent-Replayed"), QByteArray("true"));
        QCOMPARE(r.json().value("data").toObject().value("id").toString(), id);
        QCOMPARE(held(), 1);
    }

    /// The change feed's LISTEN connection across a PostgreSQL outage: `/metrics` shows it
    /// go down and come back by itself, and a publish made on one instance after that
    /// reaches the other's feed at once (its publish cache TTL is ten minutes here, so
    /// the TTL cannot be what refreshes it) and is what the other renders.
    void changeFeedReconnectsAfterOutage()
    {
        const QString url = newDatabase("feed");
        QVERIFY(!url.isEmpty());
        std::array<QTemporaryDir, 2> dirs;
        const QByteArray config = R"({"render": {"publishCache": {"ttlMs": 600000}, "rateLimit": {"perSecond": 0}}})";
        for (const QTemporaryDir &dir : dirs) {
            QFile f(dir.filePath("config.json"));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(config) == config.size());
        }
        QVERIFY(runCli({"space", "create", "acme", "--data", dirs[0].path(), "--database", url}) == 0);
        QByteArray out;
        QVERIFY(runCli({"key", "create", "--space", "acme", "--name", "feed", "--scopes", "render,content", "--json",
                        "--data", dirs[0].path(), "--database", url},
                       {}, &out)
                == 0);
        const QByteArray token = QJsonDocument::fromJson(out).object().value("token").toString().toLatin1();
        QVERIFY(!token.isEmpty());
        std::array<ServerProcess, 2> servers;
        for (int i = 0; i < 2; ++i)
            QVERIFY2(servers[i].start(dirs[i].path(), {"--database", url}), servers[i].log().constData());
        const quint16 a = servers[0].port(), b = servers[1].port();

        // One sample of B's Prometheus metrics; -1 when absent.
        const auto metric = [&](const QByteArray &name) {
            const HttpReply r = httpRequest(b, "GET", "/api/v1/metrics?format=prometheus");
            for (const QByteArray &line : r.body.split('\n'))
                if (line.startsWith(name + ' '))
                    return line.mid(name.size() + 1).toDouble();
            return -1.0;
        };
        const auto templateOf = [](const char *color) {
            const QJsonObject style{{"width", "100%"}, {"height", "100%"}, {"backgroundColor", color}};
            return QJsonDocument(
                       QJsonObject{{"name", "Flat"},
                                   {"width", 40},
                                   {"height", 20},
                                   {"rendererType", "takumi"},
                                   {"root", QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", style}}}}}})
                .toJson(QJsonDocument::Compact);
        };
        const auto render = [&](quint16 port, const QByteArray &page) {
            return httpRequest(port, "GET", "/api/v1/render?pageId=" + page + "&format=png&output=binary", {},
                               bearer(token));
        };
        QTRY_COMPARE_WITH_TIMEOUT(metric("imprint_change_feed_connected"), 1.0, 10000);
        QCOMPARE(metric("imprint_change_feed_connects_total"), 1.0);

        HttpReply r = httpRequest(a, "POST", "/api/v1/templates", templateOf("#ff0000"), bearer(token));
        QCOMPARE(r.status, 201);
        const QByteArray templateId = r.data().value("id").toString().toLatin1();
        r = httpRequest(a, "POST", "/api/v1/pages",
                        QJsonDocument(QJsonObject{{"templateId", QString::fromLatin1(templateId)}, {"publish", true}})
                            .toJson(QJsonDocument::Compact),
                        bearer(token));
        QCOMPARE(r.status, 201);
        const QByteArray page = r.data().value("id").toString().toLatin1();
        const HttpReply red = render(b, page); // B caches the red snapshot
        QCOMPARE(red.status, 200);

        // PostgreSQL goes away: B's probe notices within its second, then it comes back.
        QVERIFY(cluster("down"));
        QTRY_COMPARE_WITH_TIMEOUT(metric("imprint_change_feed_connected"), 0.0, 5000);
        QVERIFY(cluster("up"));
        QTRY_COMPARE_WITH_TIMEOUT(metric("imprint_change_feed_connected"), 1.0, 15000);
        QCOMPARE(metric("imprint_change_feed_connects_total"), 2.0);
        QTRY_COMPARE_WITH_TIMEOUT(render(b, page).status, 200, 10000); // B caches it again
        QTRY_COMPARE_WITH_TIMEOUT(render(a, page).status, 200, 10000);

        // A publish on A after the outage: B hears it at once, and renders the new version.
        const double heard = metric("imprint_change_feed_notifications_total");
        QVERIFY(heard >= 1); // the first publish
        QCOMPARE(httpRequest(a, "PUT", "/api/v1/templates/" + templateId, templateOf("#0000ff"), bearer(token)).status,
                 200);
        QCOMPARE(httpRequest(a, "POST", "/api/v1/pages/" + page + "/publish", {}, bearer(token)).status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(metric("imprint_change_feed_notifications_total") > heard, 2000);
        const HttpReply blue = render(b, page);
        QCOMPARE(blue.status, 200);
        QVERIFY(blue.body != red.body);
        QCOMPARE(blue.body, render(a, page).body);
        QVERIFY(servers[1].log().contains("change feed: listen connection lost"));
    }

    /// `imprint db copy`: content made on SQLite through the CLI moves to PostgreSQL with
    /// its files (into the database's blobs table, where instances on PostgreSQL read them);
    /// a server on the copy with an empty data directory serves it; a second copy is refused.
    void dbCopyMovesASqliteInstallation()
    {
        QTemporaryDir old;
        const QString sqlite = old.filePath("imprint.db");
        const QByteArray kTemplate = R"({"name": "Card", "width": 80, "height": 40, "rendererType": "takumi",
          "root": {"type": "div", "props": {"style": {"display": "flex", "width": 80, "height": 40,
          "backgroundColor": "#336699"}}}})";
        QVERIFY(runCli({"space", "create", "acme", "--data", old.path(), "--database", sqlite}) == 0);
        const QByteArray pageId = publishedPage(old.path(), "acme", kTemplate);
        QVERIFY(pageId.startsWith("pg_"));
        QByteArray out;
        QCOMPARE(runCli({"key", "create", "--space", "acme", "--name", "k", "--scopes", "render,content", "--json",
                         "--data", old.path(), "--database", sqlite},
                        {}, &out),
                 0);
        const QByteArray token = QJsonDocument::fromJson(out).object().value("token").toString().toLatin1();
        QCOMPARE(
            runCli({"asset", "add", "--space", "acme", QStringLiteral(IMPRINT_SOURCE_DIR "/docs/examples/logo.svg"),
                    "--data", old.path(), "--database", sqlite}),
            0);

        const QString url = newDatabase("copied");
        QTemporaryDir fresh;
        QCOMPARE(runCli({"db", "copy", "--from", old.path(), "--to", url, "--json"}, {}, &out), 0);
        const QJsonObject report = QJsonDocument::fromJson(out).object();
        const QJsonObject tables = report.value("tables").toObject();
        QCOMPARE(tables.value("spaces").toInt(), 1);
        QCOMPARE(tables.value("templates").toInt(), 1);
        QCOMPARE(tables.value("pages").toInt(), 1);
        QCOMPARE(tables.value("published_pages").toInt(), 1);
        QCOMPARE(tables.value("api_keys").toInt(), 1);
        QCOMPARE(tables.value("assets").toInt(), 1);
        QVERIFY(tables.value("audit_log").toInt() >= 1);
        QCOMPARE(report.value("files").toObject().value("files").toInt(), 1);
        QCOMPARE(report.value("files").toObject().value("copied").toInt(), 1);
        int sum = 0;
        for (const QJsonValue v : tables)
            sum += v.toInt();
        QCOMPARE(report.value("rows").toInt(), sum);

        // The target is no longer empty: a second copy is refused and changes nothing.
        QByteArray err;
        QCOMPARE(runCli({"db", "copy", "--from", old.path(), "--to", url}, {}, &err), 1);

        // A server on the copy (a new, empty data directory: the files come from the database).
        QVERIFY(!QFileInfo::exists(fresh.filePath("imprint.db")));
        QVERIFY(!QFileInfo::exists(fresh.filePath("files")));
        ServerProcess server;
        QVERIFY(server.start(fresh.path(), {"--database", url}));
        HttpReply r = httpRequest(server.port(), "GET", "/api/v1/templates", {}, bearer(token));
        QCOMPARE(r.status, 200);
        QVERIFY2(r.body.contains("\"Card\""), r.body.constData());
        r = httpRequest(server.port(), "GET", "/api/v1/render?pageId=" + pageId + "&output=binary", {}, bearer(token));
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.startsWith("\x89PNG"));
        r = httpRequest(server.port(), "GET", "/api/v1/assets", {}, bearer(token));
        QCOMPARE(r.status, 200);
        static const QRegularExpression fileUrl(QStringLiteral("/api/v1/files/[0-9a-f]{64}\\.svg"));
        const QString path = fileUrl.match(QString::fromUtf8(r.body)).captured(0);
        QVERIFY2(!path.isEmpty(), r.body.constData());
        r = httpRequest(server.port(), "GET", path.toLatin1());
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.contains("<svg"));
        QVERIFY(!QFileInfo::exists(fresh.filePath("imprint.db")));
    }
};

QTEST_GUILESS_MAIN(TstPostgres)
#include "tst_postgres.moc"
