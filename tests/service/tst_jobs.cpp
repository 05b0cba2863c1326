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
#include <QTest>

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
    QString newJob(int items, const QString &space = {})
    {
        service::JobService jobs(*m_db, {});
        QList<QJsonObject> renders;
        for (int i = 0; i < items; ++i)
            renders.append(QJsonObject{{"pageId", "pg_x"}, {"n", i}});
        const auto job = jobs.create(space.isEmpty() ? m_space : space, "test", "http://img.test", renders);
        return job ? job->job.id : QString();
    }
    QString newSpace(const QString &name)
    {
        service::AccountService accounts(*m_db, store::Config::defaults());
        const auto space = accounts.createSpace(name, "pro", "test");
        return space ? space->id : QString();
    }
    /// Claims whatever earlier tests left claimable, with a lease that outlives the test,
    /// so that it neither competes nor counts as rendering in another space.
    void parkLeftovers(qint64 now)
    {
        store::JobRepository repo(*m_db);
        while (!repo.claim("parked", now, 3600 * 1000, 100)->isEmpty()) { }
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

    // One space's batch does not make another's single render wait for all of it: a worker
    // takes the oldest item of the space with the fewest items rendering.
    void workersShareThemselvesBetweenSpaces()
    {
        const qint64 now = store::nowMs() + 1;
        parkLeftovers(now);
        const QString beta = newSpace("beta"), gamma = newSpace("gamma");
        const QString big = newJob(3, beta);
        QTest::qWait(5); // gamma's job is queued later
        const QString small = newJob(1, gamma);
        QVERIFY(!big.isEmpty() && !small.isEmpty());
        store::JobRepository repo(*m_db);
        const auto first = repo.claim("W1", now + 10, 60000, 1);
        QVERIFY(first && first->size() == 1);
        QCOMPARE(first->front().jobId, big); // nobody renders: the oldest item
        const auto second = repo.claim("W2", now + 10, 60000, 1);
        QVERIFY(second && second->size() == 1);
        QCOMPARE(second->front().jobId, small); // beta renders one, gamma none
        const auto third = repo.claim("W3", now + 10, 60000, 1);
        QCOMPARE(third->front().jobId, big); // one each: the oldest again
        QCOMPARE(third->front().index, 1);
    }

    // jobs.maxQueuedPerSpace bounds what a space may have queued or rendering: a job that
    // would pass it is 429 job_queue_full with Retry-After, and nothing of it is queued.
    void aSpaceQueuesAtMostItsLimit()
    {
        const QString delta = newSpace("delta");
        service::JobSettings settings;
        settings.maxQueuedPerSpace = 5;
        service::JobService jobs(*m_db, settings);
        const QList<QJsonObject> three(3, QJsonObject{{"pageId", "pg_x"}});
        QVERIFY(jobs.create(delta, "test", "http://img.test", three).has_value());
        const auto refused = jobs.create(delta, "test", "http://img.test", three);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, common::ProblemCode::JobQueueFull);
        QCOMPARE(common::problemStatus(refused.error().code), 429);
        QCOMPARE(refused.error().retryAfterSeconds, 30);
        QVERIFY2(refused.error().message.contains(QLatin1String("3 renders queued or rendering")),
                 qPrintable(refused.error().message));
        QCOMPARE(*store::JobRepository(*m_db).unfinishedItems(delta), 3);
        QVERIFY(jobs.create(delta, "test", "http://img.test", three.mid(0, 2)).has_value()); // exactly 5
        // Another space has its own limit.
        QVERIFY(jobs.create(newSpace("epsilon"), "test", "http://img.test", three).has_value());
    }

    // jobs.retentionDays: a finished job goes with its items that many days after it finished;
    // an unfinished one stays whatever its age.
    void finishedJobsAreDeletedAfterTheRetention()
    {
        const qint64 now = store::nowMs() + 1;
        parkLeftovers(now);
        const QString zeta = newSpace("zeta");
        const QString finished = newJob(1, zeta);
        QTest::qWait(5); // queued later, so claimed after `finished`
        const QString unfinished = newJob(1, zeta);
        store::JobRepository repo(*m_db);
        const auto claimed = repo.claim("R", now + 10, 60000, 1);
        QVERIFY(claimed && claimed->size() == 1 && claimed->front().jobId == finished);
        QVERIFY(*repo.complete("R", doneResult(claimed->front()), [](const store::JobProgress &) { return true; }));
        service::JobService jobs(*m_db, {}); // 30 days
        const qint64 day = 86400 * 1000LL;
        QCOMPARE(*jobs.deleteExpired(now + 29 * day), qint64(0));
        QVERIFY(jobs.get(zeta, finished).has_value());
        QVERIFY(*jobs.deleteExpired(now + 31 * day) >= 1); // with the jobs earlier tests finished
        QCOMPARE(jobs.get(zeta, finished).error().code, common::ProblemCode::JobNotFound);
        QVERIFY(repo.items(finished)->isEmpty()); // the items went with it
        QVERIFY(jobs.get(zeta, unfinished).has_value());
        service::JobSettings keepAll;
        keepAll.retentionDays = 0;
        QCOMPARE(*service::JobService(*m_db, keepAll).deleteExpired(now + 3650 * day), qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestJobs)
#include "tst_jobs.moc"
