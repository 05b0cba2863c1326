// Render jobs on several instances sharing one PostgreSQL database (docs/deployment.md,
// "Job workers"; issue 31): three `imprint serve` work one batch together, claiming items
// with FOR UPDATE SKIP LOCKED; one is killed with SIGKILL in the middle of it. The items it
// held are taken again by the others once their lease expires, and every item ends with
// exactly one result: one finished row each, the job's counts equal to the items, no item
// left running or queued. Always needs PostgreSQL: registered with the `postgres` fixture
// only (tests/http/CMakeLists.txt).
#include "httpclient.h"
#include "render_api_helpers.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>
#include <QThread>
#include <QUrl>

#include <array>

#include <signal.h>

using Headers = QList<QPair<QByteArray, QByteArray>>;

namespace {

Headers bearer(const QByteArray &token)
{
    return {{"Authorization", "Bearer " + token}};
}

// A card that takes a few milliseconds, so that workers spend most of their time holding
// an item: a large blurred layer and a gradient, takumi, 600×315.
QByteArray slowTemplate()
{
    return QByteArray("{\"name\": \"Slow\", \"width\": 600, \"height\": 315, \"rendererType\": \"takumi\","
                      " \"variables\": [{\"name\": \"n\", \"type\": \"text\", \"default\": \"0\"}],"
                      " \"root\": {\"type\": \"div\", \"props\": {\"style\": {\"display\": \"flex\","
                      " \"width\": \"100%\", \"height\": \"100%\", \"alignItems\": \"center\","
                      " \"justifyContent\": \"center\", \"fontSize\": 90,"
                      " \"backgroundImage\": \"linear-gradient(135deg, #1e3a8a, #be185d)\"},"
                      " \"children\": [{\"type\": \"div\", \"props\": {\"style\": {\"filter\": \"blur(12px)\","
                      " \"width\": 520, \"height\": 260, \"backgroundColor\": \"#fde68a\", \"display\": \"flex\","
                      " \"alignItems\": \"center\", \"justifyContent\": \"center\"}, \"children\": \"Item {{n}}\"}}]}}}");
}

// Short leases, so that the killed instance's items come back within the suite's time;
// quick polls; two workers per instance.
const QByteArray kConfig = "{\"jobs\": {\"leaseMs\": 3000, \"pollMs\": 50, \"workers\": 2}}";

constexpr int kItems = 120;

} // namespace

class TestRenderJobsCluster : public QObject
{
    Q_OBJECT

    std::array<QTemporaryDir, 3> m_dirs;
    std::array<ServerProcess, 3> m_servers;
    QString m_url; // the database of m_dirs[0], which all three instances share
    QByteArray m_key;
    QByteArray m_pageId;

    /// A connection to the shared database, opened once.
    QSqlDatabase db() const
    {
        const QString name = QStringLiteral("jobs_cluster");
        return QSqlDatabase::contains(name) ? QSqlDatabase::database(name) : openTestDatabase(m_dirs[0].path(), name);
    }
    /// The integers of the first row of `sql` on the shared database.
    QList<qint64> row(const QString &sql)
    {
        QSqlQuery q(db());
        QList<qint64> out;
        if (q.exec(sql) && q.next()) {
            for (int i = 0; i < q.record().count(); ++i)
                out.append(q.value(i).toLongLong());
        }
        return out;
    }
    /// `args` of the CLI on the shared database; its exit code, what it printed in *out.
    int cli(QStringList args, QByteArray *out = nullptr)
    {
        return runCli(args << "--data" << m_dirs[0].path() << "--database" << m_url, {}, out);
    }
    quint16 port(int i) const { return m_servers[i].port(); }

private slots:
    void initTestCase()
    {
        QVERIFY2(testUsesPostgres(), "needs the postgres fixture (IMPRINT_TEST_DATABASE_FILE)");
        m_url = testDatabaseUrl(m_dirs[0].path());
        for (const QTemporaryDir &dir : m_dirs) {
            QVERIFY(dir.isValid());
            QFile config(dir.filePath("config.json"));
            QVERIFY(config.open(QIODevice::WriteOnly) && config.write(kConfig) == kConfig.size());
        }
        QCOMPARE(cli({"space", "create", "alpha", "--plan", "pro"}), 0);
        QByteArray out;
        QCOMPARE(cli({"key", "create", "--space", "alpha", "--name", "k", "--json"}, &out), 0);
        m_key = QJsonDocument::fromJson(out).object().value("token").toString().toLatin1();
        QVERIFY(!m_key.isEmpty());
        QTemporaryFile file;
        QVERIFY(file.open() && file.write(slowTemplate()) > 0);
        file.close();
        QCOMPARE(cli({"template", "import", file.fileName(), "--space", "alpha", "--json"}, &out), 0);
        const QString templateId = QJsonDocument::fromJson(out).object().value("id").toString();
        QCOMPARE(cli({"page", "create", "--space", "alpha", "--template", templateId, "--publish", "--json"}, &out), 0);
        m_pageId = QJsonDocument::fromJson(out).object().value("id").toString().toLatin1();
        QVERIFY(!m_pageId.isEmpty());
        for (int i = 0; i < 3; ++i)
            QVERIFY2(m_servers[i].start(m_dirs[i].path(), {"--database", m_url}), m_servers[i].log().constData());
    }

    void cleanupTestCase()
    {
        for (ServerProcess &s : m_servers)
            s.stop();
        closeTestDatabase(QStringLiteral("jobs_cluster"));
    }

    void everyItemCompletesOnceThoughAnInstanceIsKilled()
    {
        QJsonArray items;
        for (int i = 0; i < kItems; ++i)
            items.append(QJsonObject{{"pageId", QString::fromLatin1(m_pageId)},
                                     {"tweaks", QJsonObject{{"n", QString::number(i)}}}});
        QElapsedTimer total;
        total.start();
        const HttpReply created = httpRequest(port(1), "POST", "/api/v1/renders", json({{"items", items}}), bearer(m_key));
        QCOMPARE(created.status, 202);
        const QString id = created.data().value("id").toString();
        const QString job = QStringLiteral("job_id = '%1'").arg(id);

        // Once a fifth is done, kill instance 0 while it holds items. A render takes a few
        // milliseconds, so a kill at a random moment may find the victim between two claims:
        // it is frozen first (SIGSTOP), its statements already sent are given time to commit,
        // and it is killed only once the database shows it holding a lease; otherwise it goes
        // on and is caught again a moment later.
        const qint64 victim = m_servers[0].pid();
        const QString victimLeases
            = QStringLiteral("lease_owner LIKE '%/%1/%'").arg(victim); // "<host>/<pid>/<random>/<claim>"
        const QString victimRunning = "SELECT COUNT(*) FROM job_items WHERE state = 'running' AND " + victimLeases
                                      + " AND " + job;
        QElapsedTimer t;
        t.start();
        while (row("SELECT COUNT(*) FROM job_items WHERE state = 'done' AND " + job).value(0) < kItems / 5
               && t.elapsed() < 20000)
            QThread::msleep(10);
        qint64 orphaned = 0;
        int attempt = 0;
        for (; attempt < 50 && orphaned == 0; ++attempt) {
            QVERIFY2(::kill(pid_t(victim), SIGSTOP) == 0, "kill -STOP");
            QThread::msleep(100);
            orphaned = row(victimRunning).value(0);
            if (orphaned == 0) {
                QVERIFY2(::kill(pid_t(victim), SIGCONT) == 0, "kill -CONT");
                QThread::msleep(attempt % 7 + 1);
            }
        }
        QVERIFY2(::kill(pid_t(victim), SIGKILL) == 0, "kill -9");
        m_servers[0].waitForExit(5000);
        QCOMPARE(row(victimRunning).value(0), orphaned); // nothing the frozen victim held moved on
        const QStringList orphans = [&] {
            QStringList list;
            QSqlQuery q(db());
            q.exec("SELECT idx FROM job_items WHERE state = 'running' AND " + victimLeases + " AND " + job);
            while (q.next())
                list << q.value(0).toString();
            return list;
        }();
        QVERIFY2(orphaned >= 1, "instance 0 should be caught holding an item within 50 tries");
        qInfo("instance 0 caught holding %lld items on try %d", orphaned, attempt);

        // The survivors finish the batch, the orphans once their lease expired.
        const QByteArray location = created.header("Location");
        HttpReply r;
        while (t.elapsed() < 30000) {
            r = httpRequest(port(2), "GET", location, {}, bearer(m_key));
            if (!r.data().value("finishedAt").isNull())
                break;
            QThread::msleep(50);
        }
        const double seconds = double(total.elapsed()) / 1000;
        QCOMPARE(r.data().value("state").toString(), QStringLiteral("completed"));
        qInfo("%d items on 3 instances, one killed: %.2f s (%.1f items/s), %lld orphaned items retaken, %lld claimed "
              "more than once in all",
              kItems, seconds, kItems / seconds, orphaned,
              row("SELECT COUNT(*) FROM job_items WHERE attempts > 1 AND " + job).value(0));
        for (int i = 1; i < 3; ++i) {
            for (const QByteArray &line : m_servers[i].log().split('\n'))
                if (line.contains("imprint.jobs"))
                    qInfo("instance %d: %s", i, line.constData());
        }

        // Exactly one result per item: every row done with a file and no lease, the job's
        // counters (incremented only by a completion that held the lease) equal to the items.
        QCOMPARE(row("SELECT COUNT(*), COUNT(file_sha256), COUNT(lease_owner) FROM job_items WHERE state = 'done' AND "
                     + job),
                 (QList<qint64>{kItems, kItems, 0}));
        QCOMPARE(row("SELECT item_count, done_count, failed_count FROM jobs WHERE id = '" + id + "'"),
                 (QList<qint64>{kItems, kItems, 0}));
        QCOMPARE(row("SELECT COUNT(*) FROM job_items WHERE state IN ('queued', 'running') AND " + job).value(0), 0);
        // The orphans were claimed again, and finished by a survivor. (On a loaded machine a
        // render may also outlive its lease and be claimed again: its first result is then
        // dropped, which the counts above hold.)
        QCOMPARE(row("SELECT COUNT(*) FROM job_items WHERE attempts >= 2 AND idx IN (" + orphans.join(',') + ") AND "
                     + job)
                     .value(0),
                 orphaned);
        // Each item's image is its own (the tweak differs): no two items share a file.
        QCOMPARE(row("SELECT COUNT(DISTINCT file_sha256) FROM job_items WHERE " + job).value(0), qint64(kItems));
        // And the files are served by a survivor.
        const QJsonObject last = r.data().value("items").toArray().last().toObject();
        const HttpReply file
            = httpRequest(port(1), "GET", QUrl(last.value("file").toObject().value("url").toString()).path().toLatin1());
        QCOMPARE(file.status, 200);
        QCOMPARE(decode(file.body, "png").size(), QSize(600, 315));
    }
};

QTEST_MAIN(TestRenderJobsCluster)
#include "tst_render_jobs_cluster.moc"
