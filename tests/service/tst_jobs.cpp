// The render job queue without a transport (server/service/job_service.h,
// server/store/job_repository.h), over a real SQLite store: leases (an expired one is
// claimed again, its old owner can no longer record), exactly one result per item, the
// JobEvents hook called inside the recording transaction (its outbox row commits with the
// result) with one batch.completed per job, and JobRunner working a queue with a fake
// executor: transient failures retried, an item that never finishes abandoned.

#include "server/service/account_service.h"
#include "server/service/job_service.h"
#include "server/store/crypto.h"

#include <QElapsedTimer>
#include <QSet>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace imprint;

namespace {

/// Records every event, and writes it to the test's `outbox` table on the connection of
/// the recording transaction, as the webhook outbox does.
class RecordingEvents : public service::JobEvents
{
public:
    explicit RecordingEvents(const store::Database &db)
        : m_db(db)
    { }
    bool jobEvent(const QString &spaceId, const QString &type, const QJsonObject &data) override
    {
        QSqlQuery q(m_db.connection());
        // Inside the transaction the item's row already says what the event says.
        q.prepare("SELECT state FROM job_items WHERE job_id = ? AND idx = ?");
        q.addBindValue(data.value("jobId").toString(data.value("id").toString()));
        q.addBindValue(data.value("index").toInt());
        q.exec();
        const QString state = q.next() ? q.value(0).toString() : QString();
        q.prepare("INSERT INTO outbox (type, job_id) VALUES (?, ?)");
        q.addBindValue(type);
        q.addBindValue(data.value("jobId").toString(data.value("id").toString()));
        const bool written = q.exec();
        QMutexLocker lock(&m_mutex);
        events.append({spaceId, type, state});
        return written;
    }
    int count(const QString &type) const
    {
        QMutexLocker lock(&m_mutex);
        return int(std::count_if(events.begin(), events.end(), [&](const QStringList &e) { return e[1] == type; }));
    }
    QList<QStringList> events; // space, type, the item's state seen in the transaction

private:
    const store::Database &m_db;
    mutable QMutex m_mutex;
};

store::JobItemRecord doneResult(const store::ClaimedJobItem &item)
{
    store::JobItemRecord r;
    r.jobId = item.jobId;
    r.index = item.index;
    r.state = QStringLiteral("done");
    r.finishedAt = store::nowMs();
    r.fileSha256 = QString(64, QChar('a'));
    r.fileExt = QStringLiteral("png");
    r.contentType = QStringLiteral("image/png");
    r.width = 10;
    r.height = 5;
    r.bytes = 100;
    return r;
}

} // namespace

class TestJobs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<store::Database> m_db;
    QString m_space;

    int outboxRows(const QString &jobId)
    {
        QSqlQuery q(m_db->connection());
        q.prepare("SELECT COUNT(*) FROM outbox WHERE job_id = ?");
        q.addBindValue(jobId);
        return q.exec() && q.next() ? q.value(0).toInt() : -1;
    }
    QString newJob(int items)
    {
        service::JobService jobs(*m_db, {});
        QList<QJsonObject> renders;
        for (int i = 0; i < items; ++i)
            renders.append(QJsonObject{{"pageId", "pg_x"}, {"n", i}});
        const auto job = jobs.create(m_space, "test", "http://img.test", renders);
        return job ? job->job.id : QString();
    }

    /// Runs `runner` until `events` heard of a finished job (at most 10 s), then stops it.
    static void runUntilFinished(service::JobRunner &runner, const RecordingEvents &events)
    {
        runner.start();
        QElapsedTimer t;
        t.start();
        while (events.count("batch.completed") == 0 && t.elapsed() < 10000)
            QTest::qWait(20);
        runner.stop();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(store::initCrypto());
        store::DatabaseSettings settings;
        settings.driver = QStringLiteral("QSQLITE");
        settings.sqlitePath = m_dir.filePath("jobs.db");
        m_db = std::make_unique<store::Database>(settings);
        QVERIFY(m_db->migrate().has_value());
        service::AccountService accounts(*m_db, store::Config::defaults());
        const auto space = accounts.createSpace("alpha", "pro", "test");
        QVERIFY(space);
        m_space = space->id;
        QVERIFY(QSqlQuery(m_db->connection()).exec("CREATE TABLE outbox (type TEXT, job_id TEXT)"));
    }

    void anExpiredLeaseIsClaimedAgainAndItsOwnerCannotRecord()
    {
        const QString id = newJob(3);
        QVERIFY(!id.isEmpty());
        store::JobRepository repo(*m_db);
        const qint64 now = store::nowMs() + 1;
        const auto a = repo.claim("A", now, 1000, 10);
        QVERIFY(a && a->size() == 3);
        QCOMPARE(a->at(0).attempts, 1);
        QCOMPARE(a->at(0).plan, QStringLiteral("pro"));
        QVERIFY(repo.claim("B", now + 500, 1000, 10)->isEmpty()); // leases still live
        const auto b = repo.claim("B", now + 2000, 1000, 1); // A "died": its leases expired
        QVERIFY(b && b->size() == 1);
        QCOMPARE(b->at(0).attempts, 2);
        QCOMPARE(b->at(0).index, 0);

        RecordingEvents events(*m_db);
        const auto announce = [&](const store::JobProgress &p) {
            return events.jobEvent(m_space, "render.completed", QJsonObject{{"jobId", p.job.id}, {"index", 0}});
        };
        // An event that cannot be written takes the result with it: nothing is recorded,
        // and the item stays B's to record again.
        QVERIFY(!repo.complete("B", doneResult(b->at(0)), [](const store::JobProgress &) { return false; }));
        QCOMPARE(outboxRows(id), 0);
        // A's late result for item 0 is dropped: no row changed, no event.
        QCOMPARE(repo.complete("A", doneResult(a->at(0)), announce).value_or(true), false);
        QCOMPARE(events.events.size(), 0);
        QCOMPARE(repo.complete("B", doneResult(b->at(0)), announce).value_or(false), true);
        // Recorded once: B again, or anyone, changes nothing.
        QCOMPARE(repo.complete("B", doneResult(b->at(0)), announce).value_or(true), false);
        QCOMPARE(events.events.size(), 1);
        QCOMPARE(events.events[0][2], QStringLiteral("done"));
        QCOMPARE(outboxRows(id), 1);
        // A still holds items 1 and 2 (their leases expired, but nobody claimed them).
        bool finished = false;
        for (int i = 1; i < 3; ++i)
            QVERIFY(repo.complete("A", doneResult(a->at(i)), [&](const store::JobProgress &p) {
                finished = finished || p.jobFinished;
                return true;
            }).value_or(false));
        QVERIFY(finished);
        const auto view = service::JobService(*m_db, {}).get(m_space, id);
        QVERIFY(view);
        QCOMPARE(service::jobState(*view), QStringLiteral("completed"));
        QCOMPARE(view->job.doneCount, 3);
        QVERIFY(view->job.finishedAt > 0);
        // Another space does not see it.
        const auto other = service::AccountService(*m_db, store::Config::defaults()).createSpace("beta", "pro", "t");
        QVERIFY(other);
        QCOMPARE(service::JobService(*m_db, {}).get(other->id, id).error().code, common::ProblemCode::JobNotFound);
    }

    void theRunnerWorksTheQueueAndAnnouncesEachResultOnce()
    {
        const QString id = newJob(12);
        RecordingEvents events(*m_db);
        std::atomic<int> calls{0};
        QMutex seenMutex;
        QSet<int> retried;
        service::JobSettings settings;
        settings.workers = 3;
        settings.pollMs = 20;
        service::JobRunner runner(
            *m_db, settings,
            [&](const store::ClaimedJobItem &item, const QJsonObject &request, const render::RenderCancellation &) {
                ++calls;
                service::JobItemOutcome o;
                const int n = request.value("n").toInt();
                QMutexLocker lock(&seenMutex);
                if (n == 4 && !retried.contains(n)) { // a busy engine, once
                    retried.insert(n);
                    o.kind = service::JobItemOutcome::Kind::Retry;
                    o.problem = QJsonObject{{"code", "engine_busy"}, {"status", 503}};
                    return o;
                }
                if (n == 7) {
                    o.problem = QJsonObject{{"code", "page_not_found"}, {"status", 404}, {"detail", "No page."}};
                    return o;
                }
                o.kind = service::JobItemOutcome::Kind::Done;
                o.file = doneResult(item);
                o.file.fileSha256 = QString(64, QChar('b'));
                return o;
            },
            [](const QString &) { return qint64(1000); }, &events);
        runUntilFinished(runner, events);
        QCOMPARE(events.count("batch.completed"), 1);
        QCOMPARE(events.count("render.completed"), 11);
        QCOMPARE(events.count("render.failed"), 1);
        QCOMPARE(calls.load(), 13); // 12 items, one of them twice
        QCOMPARE(outboxRows(id), 13);
        const auto view = service::JobService(*m_db, {}).get(m_space, id);
        QVERIFY(view);
        QCOMPARE(service::jobState(*view), QStringLiteral("partial"));
        QCOMPARE(view->items.at(4).attempts, 2);
        QCOMPARE(view->items.at(7).problemCode, QStringLiteral("page_not_found"));
        const QJsonObject json = service::jobJson(*view, "http://img.test", true);
        QCOMPARE(json["items"][3]["file"]["url"].toString(),
                 QStringLiteral("http://img.test/api/v1/files/%1.png").arg(QString(64, QChar('b'))));
        QCOMPARE(json["items"][7]["error"]["detail"].toString(), QStringLiteral("No page."));
        QCOMPARE(runner.runTimes().count({"done"}), quint64(11));
    }

    void anItemWhoseWorkersKeepDyingIsAbandoned()
    {
        const QString id = newJob(1);
        store::JobRepository repo(*m_db);
        // Three claims that never record (their processes died): leases of 0 ms.
        qint64 now = store::nowMs() + 1;
        for (int i = 0; i < 3; ++i)
            QCOMPARE(repo.claim(QStringLiteral("dead%1").arg(i), now += 10, 0, 1)->size(), 1);
        RecordingEvents events(*m_db);
        service::JobSettings settings;
        settings.workers = 1;
        settings.pollMs = 20;
        int calls = 0;
        service::JobRunner runner(
            *m_db, settings,
            [&](const store::ClaimedJobItem &, const QJsonObject &, const render::RenderCancellation &) {
                ++calls;
                return service::JobItemOutcome{};
            },
            {}, &events);
        runUntilFinished(runner, events);
        QCOMPARE(calls, 0);
        const auto view = service::JobService(*m_db, {}).get(m_space, id);
        QVERIFY(view);
        QCOMPARE(view->items.at(0).state, QStringLiteral("failed"));
        QCOMPARE(view->items.at(0).problemCode, QStringLiteral("render_abandoned"));
        QCOMPARE(view->items.at(0).attempts, 4);
    }
};

QTEST_GUILESS_MAIN(TestJobs)
#include "tst_jobs.moc"
