// Webhooks end to end (docs/api.md, "Webhooks"; issue 31): the real server with a
// receiver on 127.0.0.2, a loopback address its configuration allowlists while 127.0.0.1
// stays refused. Every delivery the receiver gets is verified with the reference Standard
// Webhooks library (npm `standardwebhooks`, scripts/fetch-tools) run by node, not with
// Imprint's own code. Retry delays are shortened by the test's configuration.

#include "../support/e2e_fixture.h"
#include "../support/server_thread.h"
#include "../support/test_database.h"

#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryFile>
#include <QThread>
#include <QTest>

namespace {

/// One request the receiver got.
struct Received {
    QByteArray id, timestamp, signature, body;
};

/// A webhook receiver: a QHttpServer on its own thread (the test blocks on its client
/// calls), answering POST /hook with 500 for the first failFirst() requests, then 204.
class Receiver
{
public:
    explicit Receiver(const QHostAddress &address)
    {
        m_server.run([this, address](QObject *owner) {
            m_http = new QHttpServer(owner);
            m_http->route(QStringLiteral("/hook"), [this](const QHttpServerRequest &r) {
                QMutexLocker lock(&m_mutex);
                m_received.append(
                    {r.value("webhook-id"), r.value("webhook-timestamp"), r.value("webhook-signature"), r.body()});
                const bool fail = m_failures > 0;
                m_failures -= fail ? 1 : 0;
                return QHttpServerResponse(fail ? QHttpServerResponder::StatusCode::InternalServerError
                                                : QHttpServerResponder::StatusCode::NoContent);
            });
            m_port = m_http->listen(address, 0);
        });
    }
    quint16 port() const { return m_port; }
    void failFirst(int n)
    {
        QMutexLocker lock(&m_mutex);
        m_failures = n;
    }
    QList<Received> received() const
    {
        QMutexLocker lock(&m_mutex);
        return m_received;
    }

private:
    QHttpServer *m_http = nullptr;
    quint16 m_port = 0;
    mutable QMutex m_mutex;
    int m_failures = 0;
    QList<Received> m_received;
    ServerThread m_server; // last: stopped first, before the state its handler writes
};

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class TestWebhooks : public QObject
{
    Q_OBJECT

    E2eFixture m_e2e;
    std::unique_ptr<Receiver> m_receiver;

    Headers owner() const { return E2eFixture::bearer(m_e2e.session()); }

    QByteArray hookUrl(const char *host = "127.0.0.2") const
    {
        return "http://" + QByteArray(host) + ':' + QByteArray::number(m_receiver->port()) + "/hook";
    }

    /// POST /webhooks for `url`; the reply.
    HttpReply create(const QByteArray &url, const QJsonArray &events = {}, const Headers &auth = {}) const
    {
        QJsonObject body{{"url", QString::fromUtf8(url)}};
        if (!events.isEmpty())
            body.insert("events", events);
        return m_e2e.request("POST", "/api/v1/webhooks", json(body), auth.isEmpty() ? owner() : auth);
    }

    /// The delivery log of webhook `id`, newest first.
    QJsonArray deliveries(const QString &id) const
    {
        return m_e2e.get("/api/v1/webhooks/" + id.toUtf8() + "/deliveries", owner()).data().value("list").toArray();
    }

    /// Waits up to `ms` until delivery `deliveryId` of webhook `id` is in `state`; its JSON.
    QJsonObject waitForState(const QString &id, const QString &deliveryId, const QString &state, int ms = 8000) const
    {
        QElapsedTimer clock;
        clock.start();
        QJsonObject last;
        while (clock.elapsed() < ms) {
            for (const QJsonValue &d : deliveries(id))
                if (d.toObject().value("id").toString() == deliveryId)
                    last = d.toObject();
            if (last.value("state").toString() == state)
                return last;
            QThread::msleep(50);
        }
        return last;
    }

    /// Runs the reference verifier once over `received`, each request checked with its
    /// secret; its output lines ("ok ID" or "bad ID: why"), in order.
    static QStringList verifyIndependently(const QList<std::pair<QString, Received>> &received, int *exitCode)
    {
        QJsonArray list;
        for (const auto &[secret, r] : received)
            list.append(QJsonObject{{"secret", secret},
                                    {"id", QString::fromUtf8(r.id)},
                                    {"timestamp", QString::fromUtf8(r.timestamp)},
                                    {"signature", QString::fromUtf8(r.signature)},
                                    {"body", QString::fromUtf8(r.body)}});
        QTemporaryFile file;
        file.open();
        file.write(QJsonDocument(list).toJson());
        file.flush();
        const QString tools = qEnvironmentVariableIsSet("IMPRINT_TOOLS_DIR")
                                  ? qEnvironmentVariable("IMPRINT_TOOLS_DIR")
                                  : QDir::homePath() + QStringLiteral("/.cache/imprint/tools");
        QProcess node;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("NODE_PATH", tools + "/standardwebhooks-" IMPRINT_STANDARDWEBHOOKS_VERSION "/node_modules");
        node.setProcessEnvironment(env);
        node.start("node", {QStringLiteral(IMPRINT_SOURCE_DIR "/tests/http/webhook_verify.cjs"), file.fileName()});
        node.waitForFinished(20000);
        *exitCode = node.exitStatus() == QProcess::NormalExit ? node.exitCode() : -1;
        return QString::fromUtf8(node.readAllStandardOutput() + node.readAllStandardError())
            .split('\n', Qt::SkipEmptyParts);
    }

private slots:
    void initTestCase()
    {
        const QString tools = qEnvironmentVariableIsSet("IMPRINT_TOOLS_DIR")
                                  ? qEnvironmentVariable("IMPRINT_TOOLS_DIR")
                                  : QDir::homePath() + QStringLiteral("/.cache/imprint/tools");
        QVERIFY2(QFile::exists(tools + "/standardwebhooks-" IMPRINT_STANDARDWEBHOOKS_VERSION
                                       "/node_modules/standardwebhooks/package.json"),
                 "the standardwebhooks package is missing: run scripts/fetch-tools");
        m_receiver = std::make_unique<Receiver>(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(m_receiver->port() != 0);
        E2eOptions options = E2eOptions::withOwner("alpha", "o@a.test");
        // Retries after 0.3 s, then 0.6 s: the backoff seen in seconds, not hours.
        options.config = json(QJsonObject{
            {"webhooks", QJsonObject{{"hostAllowlist", QJsonArray{"127.0.0.2"}},
                                     {"retrySeconds", QJsonArray{0.3, 0.6}},
                                     {"pollMs", 100},
                                     {"timeoutMs", 3000}}}});
        QVERIFY2(m_e2e.setUp(options), m_e2e.failure());
    }

    void cleanupTestCase() { m_receiver.reset(); }

    // The secret is in the 201 only; reading the webhook back never shows it.
    void secretShownOnce()
    {
        const HttpReply created = create(hookUrl(), {"render.completed", "render.failed"});
        QCOMPARE(created.status, 201);
        QCOMPARE(created.header("Cache-Control"), QByteArray("no-store"));
        const QString id = created.data().value("id").toString();
        QVERIFY(id.startsWith("whk_"));
        const QString secret = created.data().value("secret").toString();
        QVERIFY2(secret.startsWith("whsec_") && QByteArray::fromBase64(secret.mid(6).toLatin1()).size() == 32,
                 qPrintable(secret));
        QCOMPARE(created.data().value("events").toArray(), (QJsonArray{"render.completed", "render.failed"}));

        const HttpReply one = m_e2e.get("/api/v1/webhooks/" + id.toUtf8(), owner());
        QCOMPARE(one.status, 200);
        QVERIFY(!one.data().contains("secret"));
        QVERIFY(!one.body.contains(secret.toUtf8()));
        const HttpReply list = m_e2e.get("/api/v1/webhooks?perPage=100", owner());
        QCOMPARE(list.status, 200);
        QVERIFY(!list.body.contains(secret.toUtf8()));
        QVERIFY(list.body.contains(id.toUtf8()));
        QCOMPARE(m_e2e.request("DELETE", "/api/v1/webhooks/" + id.toUtf8(), {}, owner()).status, 200);
        QCOMPARE(m_e2e.get("/api/v1/webhooks/" + id.toUtf8(), owner()).status, 404);
    }

    // Bad input names its field; a loopback address that is not allowlisted is refused at
    // once with 422 url_refused.
    void refusedAtCreate()
    {
        const HttpReply loopback = create(hookUrl("127.0.0.1"));
        QCOMPARE(loopback.status, 422);
        QCOMPARE(loopback.json().value("code").toString(), QStringLiteral("url_refused"));
        QCOMPARE(loopback.json().value("field").toString(), QStringLiteral("url"));
        QVERIFY2(loopback.json().value("detail").toString().contains("loopback"), loopback.body.constData());
        const HttpReply named = create("http://localhost:" + QByteArray::number(m_receiver->port()) + "/hook");
        QCOMPARE(named.status, 422); // the name resolves to loopback: the address decides
        const HttpReply privateNet = create("http://10.1.2.3/hook");
        QCOMPARE(privateNet.status, 422);
        const HttpReply scheme = create("ftp://127.0.0.2/hook");
        QCOMPARE(scheme.status, 400);
        QCOMPARE(scheme.json().value("field").toString(), QStringLiteral("url"));
        const HttpReply event = create(hookUrl(), {"render.done"});
        QCOMPARE(event.status, 400);
        QCOMPARE(event.json().value("field").toString(), QStringLiteral("events"));
    }

    // A receiver that fails twice: the test event is retried after the configured delays,
    // then delivered; every attempt is in the log and every request verifies with the
    // reference library under the secret the 201 showed.
    void retriedThenDeliveredAndVerified()
    {
        const HttpReply created = create(hookUrl());
        QCOMPARE(created.status, 201);
        const QString id = created.data().value("id").toString();
        const QString secret = created.data().value("secret").toString();
        const int before = m_receiver->received().size();
        m_receiver->failFirst(2);
        const HttpReply test = m_e2e.request("POST", "/api/v1/webhooks/" + id.toUtf8() + "/test", {}, owner());
        QCOMPARE(test.status, 202);
        const QString deliveryId = test.data().value("id").toString();
        QVERIFY(deliveryId.startsWith("msg_"));
        QCOMPARE(test.data().value("payload").toObject().value("type").toString(), QStringLiteral("webhook.test"));

        const QJsonObject delivered = waitForState(id, deliveryId, "delivered");
        QCOMPARE(delivered.value("state").toString(), QStringLiteral("delivered"));
        const QJsonArray attempts = delivered.value("attempts").toArray();
        QCOMPARE(attempts.size(), 3);
        QCOMPARE(attempts[0].toObject().value("status").toInt(), 500);
        QCOMPARE(attempts[1].toObject().value("status").toInt(), 500);
        QCOMPARE(attempts[2].toObject().value("status").toInt(), 204);
        // Exponential backoff as configured: ≥ 0.3 s, then ≥ 0.6 s between attempts.
        const auto at = [&](int i) {
            return QDateTime::fromString(attempts[i].toObject().value("at").toString(), Qt::ISODateWithMs);
        };
        QVERIFY2(at(0).msecsTo(at(1)) >= 300, qPrintable(QString::number(at(0).msecsTo(at(1)))));
        QVERIFY2(at(1).msecsTo(at(2)) >= 600, qPrintable(QString::number(at(1).msecsTo(at(2)))));

        const QList<Received> got = m_receiver->received().mid(before);
        QCOMPARE(got.size(), 3);
        for (const Received &r : got) {
            QCOMPARE(r.id, deliveryId.toUtf8()); // one webhook-id across retries
            const QJsonObject body = QJsonDocument::fromJson(r.body).object();
            QCOMPARE(body.value("type").toString(), QStringLiteral("webhook.test"));
            QVERIFY(QDateTime::fromString(body.value("timestamp").toString(), Qt::ISODateWithMs).isValid());
        }
        // Replay: the same message (id and body) once more, logged as a 4th attempt.
        const HttpReply replay = m_e2e.request(
            "POST", "/api/v1/webhooks/" + id.toUtf8() + "/deliveries/" + deliveryId.toUtf8() + "/replay", {}, owner());
        QCOMPARE(replay.status, 202);
        QTRY_VERIFY_WITH_TIMEOUT(m_receiver->received().size() == before + 4, 5000);
        const Received again = m_receiver->received().last();
        QCOMPARE(again.id, deliveryId.toUtf8());
        QCOMPARE(again.body, got.first().body);
        QCOMPARE(waitForState(id, deliveryId, "delivered").value("attemptCount").toInt(), 4);

        // Every request verifies with the reference library; and it can fail: a changed
        // body, or another secret, is refused.
        QList<std::pair<QString, Received>> checks;
        for (const Received &r : got + QList<Received>{again})
            checks.append({secret, r});
        Received tampered = got.first();
        tampered.body.replace("webhook.test", "webhook.tost");
        checks.append({secret, tampered});
        checks.append({QStringLiteral("whsec_") + QString::fromLatin1(QByteArray(32, 'x').toBase64()), got.first()});
        int exitCode = -1;
        const QStringList verified = verifyIndependently(checks, &exitCode);
        QCOMPARE(verified.size(), 6);
        for (int i = 0; i < 4; ++i)
            QVERIFY2(verified[i].startsWith("ok "), qPrintable(verified.join('\n')));
        QVERIFY2(verified[4].startsWith("bad ") && verified[5].startsWith("bad "), qPrintable(verified.join('\n')));
        QCOMPARE(exitCode, 1);

        const HttpReply metrics = m_e2e.get("/api/v1/metrics?format=prometheus");
        QVERIFY2(metrics.body.contains("imprint_webhook_deliveries_total{status=\"retrying\"} 2"), metrics.body.constData());
        QVERIFY(metrics.body.contains("imprint_webhook_attempt_duration_seconds_count{result=\"delivered\"}"));
    }

    // A job's results reach the space's webhooks (issue 31): render.completed for each item
    // done, render.failed for the one the plan refuses, batch.completed once, each event
    // exactly once (its row is written in the transaction that records the result) and
    // verified by the reference library.
    void jobResultsAreDelivered()
    {
        // Only this test's endpoint listens: the earlier tests' ones are removed.
        const QJsonArray existing = m_e2e.get("/api/v1/webhooks", owner()).data().value("list").toArray();
        for (const QJsonValue &w : existing)
            QCOMPARE(m_e2e.request("DELETE", "/api/v1/webhooks/" + w.toObject().value("id").toString().toUtf8(), {},
                                   owner())
                         .status,
                     200);
        const HttpReply created
            = create(hookUrl(), QJsonArray{"render.completed", "render.failed", "batch.completed"});
        QCOMPARE(created.status, 201);
        const QString secret = created.data().value("secret").toString();
        const int before = m_receiver->received().size();
        const QJsonObject card{
            {"width", 120},
            {"height", 60},
            {"root", QJsonObject{{"type", "div"},
                                 {"props", QJsonObject{{"style", QJsonObject{{"width", "100%"},
                                                                              {"height", "100%"},
                                                                              {"backgroundColor", "#0a0"}}}}}}}};
        // Item 2 is wider than the free plan exports: it fails when rendered.
        const QJsonArray items{QJsonObject{{"template", card}}, QJsonObject{{"template", card}, {"format", "webp"}},
                               QJsonObject{{"template", card}, {"width", 90000}}};
        const HttpReply job = m_e2e.request("POST", "/api/v1/renders", json(QJsonObject{{"items", items}}), owner());
        QCOMPARE(job.status, 202);
        const QString jobId = job.data().value("id").toString();
        QTRY_VERIFY_WITH_TIMEOUT(m_receiver->received().size() >= before + 4, 15000);
        QTest::qWait(500); // nothing more may come
        const QList<Received> got = m_receiver->received().mid(before);
        QCOMPARE(got.size(), 4);
        QMap<QString, int> byType;
        QSet<QByteArray> ids;
        QList<std::pair<QString, Received>> checks;
        for (const Received &r : got) {
            const QJsonObject body = QJsonDocument::fromJson(r.body).object();
            const QString type = body.value("type").toString();
            ++byType[type];
            ids.insert(r.id);
            checks.append({secret, r});
            const QJsonObject data = body.value("data").toObject();
            if (type == QLatin1String("batch.completed")) {
                QCOMPARE(data.value("id").toString(), jobId);
                QCOMPARE(data.value("state").toString(), QStringLiteral("partial"));
            } else {
                QCOMPARE(data.value("jobId").toString(), jobId);
            }
            if (type == QLatin1String("render.completed"))
                QVERIFY2(data.value("file").toObject().value("url").toString().startsWith("http"), r.body.constData());
            if (type == QLatin1String("render.failed"))
                QCOMPARE(data.value("error").toObject().value("code").toString(), QStringLiteral("export_size_exceeded"));
        }
        QCOMPARE(byType.value("render.completed"), 2);
        QCOMPARE(byType.value("render.failed"), 1);
        QCOMPARE(byType.value("batch.completed"), 1);
        QCOMPARE(ids.size(), 4); // one message per event
        int exitCode = -1;
        const QStringList verified = verifyIndependently(checks, &exitCode);
        QCOMPARE(verified.size(), 4);
        for (const QString &line : verified)
            QVERIFY2(line.startsWith("ok "), qPrintable(verified.join('\n')));
        QCOMPARE(exitCode, 0);
    }

    // The address is checked again at delivery time, after the lookup: a URL whose host
    // now resolves to loopback (as DNS may change after creation) is never connected to.
    void refusedAtDelivery()
    {
        const HttpReply created = create(hookUrl());
        QCOMPARE(created.status, 201);
        const QString id = created.data().value("id").toString();
        {
            QSqlDatabase db = openTestDatabase(m_e2e.dataDir(), "rebind");
            QSqlQuery q(db);
            QVERIFY(q.exec("UPDATE webhook_endpoints SET url = 'http://localhost:"
                           + QString::number(m_receiver->port()) + "/hook' WHERE id = '" + id + "'"));
        }
        closeTestDatabase("rebind");
        const int before = m_receiver->received().size();
        const HttpReply test = m_e2e.request("POST", "/api/v1/webhooks/" + id.toUtf8() + "/test", {}, owner());
        QCOMPARE(test.status, 202);
        const QString deliveryId = test.data().value("id").toString();
        QJsonObject d;
        QTRY_VERIFY_WITH_TIMEOUT((d = waitForState(id, deliveryId, "pending", 100)).value("attemptCount").toInt() >= 1,
                                 5000);
        QVERIFY2(d.value("lastError").toString().contains("loopback"), qPrintable(d.value("lastError").toString()));
        QVERIFY(d.value("lastStatus").isNull());
        QCOMPARE(m_receiver->received().size(), before);
        QCOMPARE(m_e2e.request("DELETE", "/api/v1/webhooks/" + id.toUtf8(), {}, owner()).status, 200);
    }

    // Another space's webhook does not exist for this one; keys need the webhooks scope.
    void isolationAndScopes()
    {
        const HttpReply created = create(hookUrl());
        QCOMPARE(created.status, 201);
        const QByteArray id = created.data().value("id").toString().toUtf8();
        QVERIFY(m_e2e.addOwner("b@b.test", "beta"));
        const Headers beta = E2eFixture::bearer(m_e2e.login("b@b.test"));
        const HttpReply other = m_e2e.get("/api/v1/webhooks/" + id, beta);
        QCOMPARE(other.status, 404);
        QCOMPARE(other.json().value("code").toString(), QStringLiteral("webhook_not_found"));
        QCOMPARE(m_e2e.get("/api/v1/webhooks/" + id + "/deliveries", beta).status, 404);
        QCOMPARE(m_e2e.request("POST", "/api/v1/webhooks/" + id + "/test", {}, beta).status, 404);
        QCOMPARE(m_e2e.request("DELETE", "/api/v1/webhooks/" + id, {}, beta).status, 404);
        QCOMPARE(m_e2e.get("/api/v1/webhooks", beta).data().value("count").toInt(), 0);

        const QByteArray hooksKey = m_e2e.createKey("alpha", "hooks", {"webhooks"});
        QVERIFY(!hooksKey.isEmpty());
        QCOMPARE(m_e2e.get("/api/v1/webhooks/" + id, E2eFixture::bearer(hooksKey)).status, 200);
        const QByteArray renderKey = m_e2e.createKey("alpha", "render-only");
        const HttpReply refused = m_e2e.get("/api/v1/webhooks", E2eFixture::bearer(renderKey));
        QCOMPARE(refused.status, 403);
        QCOMPARE(refused.json().value("code").toString(), QStringLiteral("missing_scope"));
        QCOMPARE(m_e2e.get("/api/v1/webhooks").status, 401);
    }
};

QTEST_GUILESS_MAIN(TestWebhooks)
#include "tst_webhooks.moc"
