// GET /api/v1/usage end to end (docs/api.md, "Usage"; issue 32): a scripted run of
// renders with known counts per key, engine, error and cache hit against the real server,
// and the figures it answers must be exactly those; the query's checks and who may read it.
#include "../support/e2e_fixture.h"
#include "render_api_helpers.h"

#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QUrlQuery>

namespace {

QByteArray cardTemplate()
{
    const QJsonObject style{{"display", "flex"}, {"width", "100%"}, {"height", "100%"}, {"backgroundColor", "#336699"}};
    return json(QJsonObject{{"name", "Usage card"},
                            {"width", 120},
                            {"height", 60},
                            {"rendererType", "satori"},
                            {"root", QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", style}}}}}});
}

// Runs `sql` on the data directory's database; the first column of its first row (-1:
// none, or it failed).
qint64 scalar(const QString &dataDir, const QString &sql)
{
    const QString name = QStringLiteral("usage-rows");
    qint64 value = -1;
    {
        QSqlDatabase db = openTestDatabase(dataDir, name);
        QSqlQuery q(db);
        if (q.exec(sql) && q.next())
            value = q.value(0).toLongLong();
        else if (q.isActive() || q.lastError().type() == QSqlError::NoError)
            value = 0;
    }
    closeTestDatabase(name);
    return value;
}

// The group entry named `group` of a usage answer's `groups`; empty when absent.
QJsonObject groupOf(const QJsonObject &data, const QString &group)
{
    for (const QJsonValue &g : data.value("groups").toArray())
        if (g["group"].toString() == group)
            return g.toObject();
    return {};
}

} // namespace

class TestUsage : public QObject
{
    Q_OBJECT

    E2eFixture f;
    QByteArray m_keyB;
    QString m_keyIdA, m_keyIdB;
    qint64 m_bytes = 0; // body bytes of the successful renders sent
    QString m_errorCode; // the problem code of key B's failing renders
    QByteArray m_session; // the owner's

    HttpReply render(const QJsonObject &fields, const QByteArray &token) const
    {
        return f.request("POST", "/api/v1/render", json(fields), E2eFixture::bearer(token));
    }

    HttpReply usage(const QByteArray &query, const QByteArray &session) const
    {
        return f.get("/api/v1/usage" + (query.isEmpty() ? QByteArray() : "?" + query),
                     E2eFixture::bearer(session));
    }

    QString keyIdNamed(const QString &name) const
    {
        const HttpReply r = f.get("/api/v1/tokens/api-keys/index?perPage=100",
                                  E2eFixture::bearer(m_session));
        for (const QJsonValue &k : r.data().value("list").toArray())
            if (k["name"].toString() == name)
                return k["id"].toString();
        return {};
    }

private slots:
    void initTestCase()
    {
        E2eOptions w;
        w.keyName = QStringLiteral("a");
        w.pageTemplate = cardTemplate();
        // Rows reach the database within 50 ms; no rate limit in the way of the script;
        // rows kept 30 days.
        w.config = json(QJsonObject{{"auth", QJsonObject{{"keyUsageFlushMs", 50}}},
                                    {"render", QJsonObject{{"rateLimit", QJsonObject{{"perSecond", 0}}}}},
                                    {"usage", QJsonObject{{"retentionDays", 30}}}});
        w.start = false;
        QVERIFY2(f.setUp(w), f.failure());
        // Two rows of an earlier run, 40 and 10 days old: the first write of the server
        // prunes the first one only. Outside every range the tests below ask for.
        const qint64 day = 86400000;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (const qint64 age : {40 * day, 10 * day})
            QCOMPARE(scalar(f.dataDir(), QStringLiteral("INSERT INTO render_log (space_id, key_id, engine, format, status,"
                                                        " duration_us, cache_hit, bytes, created_at) SELECT id, NULL,"
                                                        " 'satori', 'png', 200, 1000, 0, 10, %1 FROM spaces")
                                             .arg(now - age)),
                     0);
        QCOMPARE(scalar(f.dataDir(), QStringLiteral("SELECT COUNT(*) FROM render_log")), 2);
        QVERIFY2(f.startServer(), f.failure());
        m_session = f.login("o@a.test");
        QVERIFY(!m_session.isEmpty());
        m_keyB = f.createKey("alpha", "b");
        QVERIFY(!m_keyB.isEmpty());
        m_keyIdA = keyIdNamed("a");
        m_keyIdB = keyIdNamed("b");
        QVERIFY(!m_keyIdA.isEmpty() && !m_keyIdB.isEmpty());
    }

    void scriptedRun()
    {
        // Key A: 5 satori renders of different widths (each a new render), then 2 repeats of
        // the first (an identical render within 10 s is reused: cache hits), then 3 takumi.
        const auto send = [&](const QString &engine, int width) {
            const HttpReply r = render({{"pageId", QString::fromLatin1(f.pageId())},
                                        {"renderType", engine},
                                        {"width", width},
                                        {"output", "binary"}},
                                       f.key());
            m_bytes += r.body.size();
            return r.status;
        };
        for (int i = 0; i < 5; ++i)
            QCOMPARE(send("satori", 100 + i), 200);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(send("satori", 100), 200);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(send("takumi", 200 + i), 200);
        // Key B: 2 renders of a page that does not exist.
        for (int i = 0; i < 2; ++i) {
            const HttpReply r = render({{"pageId", "pg_missing"}, {"output", "binary"}}, m_keyB);
            QCOMPARE(r.status, 404);
            m_errorCode = r.json().value("code").toString();
        }
        QVERIFY(!m_errorCode.isEmpty());
        // Not counted for the space: an anonymous pattern render and a refused token.
        QCOMPARE(f.get("/api/v1/render?pattern=waves-sunset&width=64&height=64").status / 100, 2);
        QCOMPARE(render({{"pageId", QString::fromLatin1(f.pageId())}}, "imp_wrong").status, 401);
    }

    void totalsMatchTheRun()
    {
        // The rows are written behind the requests: wait for the last of them.
        QJsonObject data;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 10000) {
            const HttpReply r = usage("group=engine", m_session);
            QCOMPARE(r.status, 200);
            data = r.data();
            if (data["totals"].toObject()["renders"].toInteger() >= 12)
                break;
            QTest::qWait(50);
        }
        const QJsonObject totals = data["totals"].toObject();
        QCOMPARE(totals["renders"].toInteger(), 12);
        QCOMPARE(totals["errors"].toInteger(), 2);
        QCOMPARE(totals["cacheHits"].toInteger(), 2);
        QCOMPARE(totals["bytes"].toInteger(), m_bytes);
        QCOMPARE(totals["errorsByCode"].toObject(), (QJsonObject{{m_errorCode, 2}}));
        QVERIFY(totals["p50Ms"].toDouble() > 0);
        QVERIFY(totals["p95Ms"].toDouble() >= totals["p50Ms"].toDouble());
        QCOMPARE(data["group"].toString(), QString("engine"));
        QCOMPARE(groupOf(data, "satori")["renders"].toInteger(), 7);
        QCOMPARE(groupOf(data, "satori")["cacheHits"].toInteger(), 2);
        QCOMPARE(groupOf(data, "takumi")["renders"].toInteger(), 3);
        QCOMPARE(groupOf(data, "unknown")["errors"].toInteger(), 2);
        QCOMPARE(data["groups"].toArray().size(), 3);
    }

    void groupsByKeyFormatAndCode()
    {
        QJsonObject data = usage("group=key", m_session).data();
        QCOMPARE(groupOf(data, m_keyIdA)["renders"].toInteger(), 10);
        QCOMPARE(groupOf(data, m_keyIdA)["errors"].toInteger(), 0);
        QCOMPARE(groupOf(data, m_keyIdB)["renders"].toInteger(), 2);
        QCOMPARE(groupOf(data, m_keyIdB)["errors"].toInteger(), 2);
        QCOMPARE(groupOf(data, m_keyIdB)["bytes"].toInteger(), 0);
        QVERIFY(groupOf(data, m_keyIdB)["p50Ms"].isNull()); // no successful answer to measure
        data = usage("group=format", m_session).data();
        QCOMPARE(groupOf(data, "png")["renders"].toInteger(), 12);
        data = usage("group=code", m_session).data();
        QCOMPARE(groupOf(data, m_errorCode)["renders"].toInteger(), 2);
        QCOMPARE(groupOf(data, "")["renders"].toInteger(), 10);
    }

    void bucketsCoverTheRange()
    {
        const QDate today = QDateTime::currentDateTimeUtc().date();
        const QByteArray range
            = "from=" + today.toString(Qt::ISODate).toLatin1() + "&to=" + today.addDays(1).toString(Qt::ISODate).toLatin1();
        QJsonObject data = usage(range + "&granularity=hour&group=engine", m_session).data();
        QJsonArray buckets = data["buckets"].toArray();
        QCOMPARE(buckets.size(), 24); // every hour of the day, the empty ones too
        qint64 renders = 0, takumi = 0;
        for (const QJsonValue &b : buckets) {
            renders += b["renders"].toInteger();
            for (const QJsonValue &g : b["groups"].toArray())
                if (g["group"].toString() == "takumi")
                    takumi += g["renders"].toInteger();
        }
        QCOMPARE(renders, 12);
        QCOMPARE(takumi, 3);
        QCOMPARE(buckets.first()["start"].toString(), today.toString(Qt::ISODate) + "T00:00:00Z");
        // Daily over a week: 7 buckets, today's the last, with every render.
        data = usage("from=" + today.addDays(-6).toString(Qt::ISODate).toLatin1() + "&to="
                         + today.addDays(1).toString(Qt::ISODate).toLatin1(),
                     m_session)
                   .data();
        buckets = data["buckets"].toArray();
        QCOMPARE(buckets.size(), 7);
        QCOMPARE(buckets.last()["renders"].toInteger(), 12);
        QCOMPARE(buckets.last()["errorsByCode"].toObject(), (QJsonObject{{m_errorCode, 2}}));
        QCOMPARE(buckets.first()["renders"].toInteger(), 0);
        // A range before the run has nothing.
        data = usage("from=2020-01-01&to=2020-01-02", m_session).data();
        QCOMPARE(data["totals"].toObject()["renders"].toInteger(), 0);
        QVERIFY(data["totals"].toObject()["p50Ms"].isNull());
    }

    void oldRowsArePruned()
    {
        const qint64 cutoff = QDateTime::currentMSecsSinceEpoch() - 30LL * 86400000;
        QCOMPARE(scalar(f.dataDir(), QStringLiteral("SELECT COUNT(*) FROM render_log WHERE created_at < %1").arg(cutoff)),
                 0);
        QCOMPARE(scalar(f.dataDir(), QStringLiteral("SELECT COUNT(*) FROM render_log")), 13); // 12 + the 10-day one
        const QDate today = QDateTime::currentDateTimeUtc().date();
        const QJsonObject data = usage("from=" + today.addDays(-20).toString(Qt::ISODate).toLatin1(), m_session).data();
        QCOMPARE(data["totals"].toObject()["renders"].toInteger(), 13);
    }

    void badQueriesNameTheField_data()
    {
        QTest::addColumn<QByteArray>("query");
        QTest::addColumn<QString>("field");
        QTest::newRow("granularity") << QByteArray("granularity=week") << "granularity";
        QTest::newRow("group") << QByteArray("group=colour") << "group";
        QTest::newRow("from after to") << QByteArray("from=2026-02-01&to=2026-01-01") << "from";
        QTest::newRow("from malformed") << QByteArray("from=yesterday") << "from";
        QTest::newRow("to malformed") << QByteArray("to=2026-13-01") << "to";
        QTest::newRow("hourly too long") << QByteArray("from=2026-01-01&to=2026-03-01&granularity=hour") << "to";
        QTest::newRow("daily too long") << QByteArray("from=2020-01-01&to=2026-01-01") << "to";
        QTest::newRow("unknown parameter") << QByteArray("groupBy=key") << "groupBy";
    }

    void badQueriesNameTheField()
    {
        QFETCH(QByteArray, query);
        QFETCH(QString, field);
        const HttpReply r = usage(query, m_session);
        QVERIFY2(isProblem(r, 400), r.body.constData());
        QCOMPARE(r.json()["code"].toString(), QString("invalid_parameter"));
        QCOMPARE(r.json()["field"].toString(), field);
    }

    void ownersAndAdminsOnly()
    {
        QVERIFY(f.addUser("m@a.test", "alpha", "member"));
        QVERIFY(f.addUser("ad@a.test", "alpha", "admin"));
        const HttpReply member = usage({}, f.login("m@a.test"));
        QVERIFY2(isProblem(member, 403), member.body.constData());
        QCOMPARE(usage({}, f.login("ad@a.test")).status, 200);
        // No session, or an API key instead of one: 401.
        QVERIFY(isProblem(f.get("/api/v1/usage"), 401));
        QVERIFY(isProblem(f.get("/api/v1/usage", E2eFixture::bearer(f.key())), 401));
    }
};

QTEST_GUILESS_MAIN(TestUsage)
#include "tst_usage.moc"
