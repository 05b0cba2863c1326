// API key last-use times and render-log rows are written behind the request path
// (server/service/write_behind.h, docs/performance.md): not by the request that
// authenticates or renders, but within the flush interval, and on a clean stop even when
// the interval has not come round.
#include "../support/e2e_fixture.h"

#include <QSqlQuery>

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace {

/// lastUsedAt of key `name` in `space` as the CLI reads it from the database ("" = never).
QString lastUsedAt(const QString &dataDir, const QString &name)
{
    QByteArray out;
    if (runCli({"key", "list", "--space", "alpha", "--json", "--data", dataDir}, {}, &out) != 0)
        return QStringLiteral("(key list failed)");
    for (const QJsonValue &k : QJsonDocument::fromJson(out).object().value("keys").toArray())
        if (k["name"].toString() == name)
            return k["lastUsedAt"].toString();
    return QStringLiteral("(no key %1)").arg(name);
}

/// A data directory with space "alpha", key `name` (its token in *token) and `config`.
/// The world of these tests: owner o@a.test of space alpha, its key "k", DATA/config.json
/// of `config`, the server started (nobody logged in).
E2eOptions world(const QByteArray &config)
{
    E2eOptions w;
    w.keyName = QStringLiteral("k");
    w.config = config;
    w.login = false;
    return w;
}

int renderRows(const QString &dataDir)
{
    const QString name = QStringLiteral("render-rows");
    int rows = -1;
    {
        QSqlDatabase db = openTestDatabase(dataDir, name);
        QSqlQuery q(db);
        if (q.exec(QStringLiteral("SELECT COUNT(*) FROM renders")) && q.next())
            rows = q.value(0).toInt();
    }
    closeTestDatabase(name);
    return rows;
}

/// `n` anonymous pattern renders answered as JSON, each of which stores its image and
/// logs a row (repeats come from the pattern cache, so they are fast). False at the
/// first that is not a 200 with a file URL.
bool storeRenders(quint16 port, int n)
{
    for (int i = 0; i < n; ++i) {
        const HttpReply r = httpRequest(port, "GET", "/api/v1/render?pattern=waves-sunset&width=64&height=64", {},
                                        {{"Accept", "application/json"}});
        if (r.status != 200 || !r.body.contains("/api/v1/files/"))
            return false;
    }
    return true;
}

/// GET /api/v1/tokens/verify with the API key of `e2e`: a use of the key the server
/// records (its lastUsedAt) behind the request.
HttpReply verifyKey(E2eFixture &e2e)
{
    return httpRequest(e2e.server().port(), "GET", "/api/v1/tokens/verify", {},
                       {{"Authorization", "Bearer " + e2e.key()}});
}

} // namespace

class TestWriteBehind : public QObject
{
    Q_OBJECT

private slots:
    void cleanStopWritesPendingUse()
    {
        // An interval far longer than the test: only the shutdown flush can write it.
        E2eFixture e2e;
        QVERIFY2(e2e.setUp(world(R"({"auth": {"keyUsageFlushMs": 600000}})")), e2e.failure());
        const QString dir = e2e.dataDir();
        ServerProcess &server = e2e.server();
        QCOMPARE(verifyKey(e2e).status, 200);
        // The request did not write it: the database has no time yet ...
        QCOMPARE(lastUsedAt(dir, "k"), QString());
        server.stop(); // SIGTERM: the clean stop
        QVERIFY(!server.running());
        QVERIFY2(!lastUsedAt(dir, "k").isEmpty(), server.log().constData());
    }

    void runningServiceWritesWithinTheInterval()
    {
        E2eFixture e2e;
        QVERIFY2(e2e.setUp(world(R"({"auth": {"keyUsageFlushMs": 200}})")), e2e.failure());
        QCOMPARE(verifyKey(e2e).status, 200);
        QString seen;
        QElapsedTimer t;
        t.start();
        while (seen.isEmpty() && t.elapsed() < 10000) {
            QTest::qWait(100);
            seen = lastUsedAt(e2e.dataDir(), "k");
        }
        QVERIFY2(!seen.isEmpty(), "lastUsedAt was not written while the server ran");
        QVERIFY(e2e.server().running());
    }

    void renderRowsWrittenWithinASecond()
    {
        // The default interval (1 s): every row is in the database soon after the renders,
        // while the server keeps running.
        E2eFixture e2e;
        QVERIFY2(e2e.setUp(world(R"({"render": {"rateLimit": {"perSecond": 0}}})")), e2e.failure());
        const QString dir = e2e.dataDir();
        ServerProcess &server = e2e.server();
        const int before = renderRows(dir);
        QCOMPARE(before, 0);
        QVERIFY(storeRenders(server.port(), 30));
        QElapsedTimer t;
        t.start();
        int rows = 0;
        while (rows < 30 && t.elapsed() < 5000) {
            QTest::qWait(50);
            rows = renderRows(dir);
        }
        QCOMPARE(rows, 30);
        // One flush interval plus the time to write it; generous for a loaded machine.
        QVERIFY2(t.elapsed() < 2500, qPrintable(QStringLiteral("rows took %1 ms").arg(t.elapsed())));
        QVERIFY(server.running());
    }

    void cleanStopKeepsEveryRenderRow()
    {
        // An interval far longer than the test: only the shutdown flush can write them.
        E2eFixture e2e;
        const QByteArray config = R"({"auth": {"keyUsageFlushMs": 600000}, "render": {"rateLimit": {"perSecond": 0}}})";
        QVERIFY2(e2e.setUp(world(config)), e2e.failure());
        const QString dir = e2e.dataDir();
        ServerProcess &server = e2e.server();
        QVERIFY(storeRenders(server.port(), 50));
        server.stop(); // SIGTERM: the clean stop
        QVERIFY(!server.running());
        QCOMPARE(renderRows(dir), 50);
    }
};

QTEST_GUILESS_MAIN(TestWriteBehind)
#include "tst_write_behind.moc"
