// API key last-use times are written behind the request path (server/service/key_usage.h,
// docs/performance.md): not by the request that authenticates, but within the flush
// interval, and on a clean stop even when the interval has not come round.
#include "httpclient.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
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
bool prepare(const QString &dataDir, const QByteArray &config, QByteArray *token)
{
    if (runCli({"user", "add", "--email", "o@a.test", "--space", "alpha", "--create-space", "--role", "owner", "--data",
                dataDir},
               "password123\npassword123\n")
        != 0)
        return false;
    QByteArray out;
    if (runCli({"key", "create", "--space", "alpha", "--name", "k", "--json", "--data", dataDir}, {}, &out) != 0)
        return false;
    *token = QJsonDocument::fromJson(out).object().value("token").toString().toLatin1();
    QFile cfg(dataDir + "/config.json");
    if (!cfg.open(QIODevice::WriteOnly))
        return false;
    cfg.write(config);
    return !token->isEmpty();
}

} // namespace

class TestKeyUsage : public QObject
{
    Q_OBJECT

private slots:
    void cleanStopWritesPendingUse()
    {
        // An interval far longer than the test: only the shutdown flush can write it.
        QTemporaryDir dir;
        QByteArray token;
        QVERIFY(prepare(dir.path(), R"({"auth": {"keyUsageFlushMs": 600000}})", &token));
        ServerProcess server;
        QVERIFY2(server.start(dir.path()), server.log().constData());
        const HttpReply r
            = httpRequest(server.port(), "GET", "/api/v1/tokens/verify", {}, {{"Authorization", "Bearer " + token}});
        QCOMPARE(r.status, 200);
        // The request did not write it: the database has no time yet ...
        QCOMPARE(lastUsedAt(dir.path(), "k"), QString());
        server.stop(); // SIGTERM: the clean stop
        QVERIFY(!server.running());
        QVERIFY2(!lastUsedAt(dir.path(), "k").isEmpty(), server.log().constData());
    }

    void runningServiceWritesWithinTheInterval()
    {
        QTemporaryDir dir;
        QByteArray token;
        QVERIFY(prepare(dir.path(), R"({"auth": {"keyUsageFlushMs": 200}})", &token));
        ServerProcess server;
        QVERIFY2(server.start(dir.path()), server.log().constData());
        QCOMPARE(httpRequest(server.port(), "GET", "/api/v1/tokens/verify", {}, {{"Authorization", "Bearer " + token}})
                     .status,
                 200);
        QString seen;
        QElapsedTimer t;
        t.start();
        while (seen.isEmpty() && t.elapsed() < 10000) {
            QTest::qWait(100);
            seen = lastUsedAt(dir.path(), "k");
        }
        QVERIFY2(!seen.isEmpty(), "lastUsedAt was not written while the server ran");
        QVERIFY(server.running());
    }
};

QTEST_GUILESS_MAIN(TestKeyUsage)
#include "tst_key_usage.moc"
