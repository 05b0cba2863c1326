// Idempotency-Key on the routes that create, end to end: a retried create answers the first
// result again and creates nothing more, a reused key with another body or a bad key is
// refused naming the header, a failed first attempt frees its key, keys are per space, a
// key whose first request died is free at once, a write commits only with its stored answer,
// a publish with a key is what renders next, and of concurrent identical requests only one
// creates.
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

namespace {

QByteArray templateBody(const QString &name)
{
    return json({{"name", name},
                 {"width", 200},
                 {"height", 100},
                 {"root", QJsonObject{{"type", "div"}, {"props", QJsonObject{{"children", "Hi"}}}}}});
}

} // namespace

class TestIdempotency : public QObject
{
    Q_OBJECT

    E2eFixture m_e2e;
    QString m_alpha, m_beta; // sessions of two spaces

    quint16 port() const { return m_e2e.port(); }

    static Headers with(const QString &session, const QByteArray &key)
    {
        Headers h{{"Authorization", "Bearer " + session.toLatin1()}};
        if (!key.isNull())
            h.append({"Idempotency-Key", key});
        return h;
    }

    int templatesNamed(const QString &session, const QString &name)
    {
        const HttpReply r = httpRequest(port(), "GET", "/api/v1/templates", {}, with(session, {}));
        int n = 0;
        for (const QJsonValue &t : r.data().value("list").toArray())
            n += t.toObject().value("name").toString() == name;
        return n;
    }

    /// POST /templates with `body` and `key`, twice: the first runs (201, not a replay), the
    /// second answers the first's template again, and alpha has one template named `name`.
    void runsOnceThenReplays(const QByteArray &body, const QByteArray &key, const QString &name)
    {
        HttpReply r = httpRequest(port(), "POST", "/api/v1/templates", body, with(m_alpha, key));
        QVERIFY2(r.status == 201, r.body.constData());
        QVERIFY(r.header("Idempotent-Replayed").isEmpty());
        const QJsonValue id = r.data().value("id");
        r = httpRequest(port(), "POST", "/api/v1/templates", body, with(m_alpha, key));
        QCOMPARE(r.status, 201);
        QCOMPARE(r.header("Idempotent-Replayed"), QByteArray("true"));
        QCOMPARE(r.data().value("id"), id);
        QCOMPARE(templatesNamed(m_alpha, name), 1);
    }

private slots:
    void initTestCase()
    {
        E2eOptions world = E2eOptions::withOwner("alpha", "owner@alpha.test");
        world.start = false;
        QVERIFY2(m_e2e.setUp(world), m_e2e.failure());
        QVERIFY2(m_e2e.addOwner("owner@beta.test", "beta"), m_e2e.failure());
        QVERIFY2(m_e2e.startServer(), m_e2e.failure());
        for (auto [email, out] : {std::pair{"owner@alpha.test", &m_alpha}, std::pair{"owner@beta.test", &m_beta}}) {
            *out = QString::fromLatin1(m_e2e.login(email));
            QVERIFY(!out->isEmpty());
        }
    }

    void retryReplaysTheFirstAnswer()
    {
        HttpReply first = httpRequest(port(), "POST", "/api/v1/templates", templateBody("Once"), with(m_alpha, "k-1"));
        QCOMPARE(first.status, 201);
        QVERIFY(first.header("Idempotent-Replayed").isEmpty());
        const QString id = first.data().value("id").toString();
        HttpReply again = httpRequest(port(), "POST", "/api/v1/templates", templateBody("Once"), with(m_alpha, "k-1"));
        QCOMPARE(again.status, 201);
        QCOMPARE(again.header("Idempotent-Replayed"), QByteArray("true"));
        QCOMPARE(again.data().value("id").toString(), id);
        QCOMPARE(templatesNamed(m_alpha, "Once"), 1);
        // Without the header every POST creates.
        QCOMPARE(httpRequest(port(), "POST", "/api/v1/templates", templateBody("Twice"), with(m_alpha, {})).status,
                 201);
        QCOMPARE(httpRequest(port(), "POST", "/api/v1/templates", templateBody("Twice"), with(m_alpha, {})).status,
                 201);
        QCOMPARE(templatesNamed(m_alpha, "Twice"), 2);
    }

    void reusedOrBadKeysAreRefused()
    {
        QCOMPARE(httpRequest(port(), "POST", "/api/v1/templates", templateBody("A"), with(m_alpha, "k-2")).status, 201);
        HttpReply r = httpRequest(port(), "POST", "/api/v1/templates", templateBody("B"), with(m_alpha, "k-2"));
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("idempotency_key_reused"));
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("Idempotency-Key"));
        QCOMPARE(templatesNamed(m_alpha, "B"), 0);
        for (const QByteArray &bad : {QByteArray(300, 'x'), QByteArray("caf\xc3\xa9")}) {
            r = httpRequest(port(), "POST", "/api/v1/templates", templateBody("C"), with(m_alpha, bad));
            VERIFY_PROBLEM(r, 400);
            QCOMPARE(r.json().value("code").toString(), QStringLiteral("invalid_idempotency_key"));
        }
    }

    void failedFirstAttemptFreesTheKey()
    {
        const QByteArray broken = R"({"name": "Fixed", "width": -1, "root": {"type": "div"}})";
        HttpReply r = httpRequest(port(), "POST", "/api/v1/templates", broken, with(m_alpha, "k-3"));
        QCOMPARE(r.status, 400);
        r = httpRequest(port(), "POST", "/api/v1/templates", templateBody("Fixed"), with(m_alpha, "k-3"));
        QCOMPARE(r.status, 201);
        QVERIFY(r.header("Idempotent-Replayed").isEmpty());
    }

    void keysArePerSpace()
    {
        HttpReply a = httpRequest(port(), "POST", "/api/v1/templates", templateBody("Shared"), with(m_alpha, "k-4"));
        HttpReply b = httpRequest(port(), "POST", "/api/v1/templates", templateBody("Shared"), with(m_beta, "k-4"));
        QCOMPARE(a.status, 201);
        QCOMPARE(b.status, 201);
        QVERIFY(b.header("Idempotent-Replayed").isEmpty());
        QVERIFY(a.data().value("id") != b.data().value("id"));
        QCOMPARE(templatesNamed(m_beta, "Shared"), 1);
    }

    /// The first request with a key died before it answered (its instance was killed, or
    /// PostgreSQL restarted under it and the key could not be freed): its entry is left
    /// unanswered. A retry runs at once, since no live request holds the key, and does
    /// not wait out a timeout answering 409 (it waited a minute before: the cluster load
    /// test's writer gave up).
    void keyOfADeadRequestIsFreeAtOnce()
    {
        const QByteArray body = templateBody("Orphaned");
        {
            QSqlDatabase db = openTestDatabase(m_e2e.dataDir(), "orphan");
            QVERIFY2(db.isOpen(), qPrintable(db.lastError().text()));
            QSqlQuery q(db);
            QVERIFY(
                q.prepare("INSERT INTO idempotency_keys (space_id, idem_key, route, request_hash, status,"
                          " content_type, body, created_at)"
                          " SELECT id, 'k-dead', 'POST /templates', ?, 0, '', '', ? FROM spaces WHERE name = 'alpha'"));
            q.addBindValue(QString::fromLatin1(
                QCryptographicHash::hash("POST /api/v1/templates\n" + body, QCryptographicHash::Sha256).toHex()));
            q.addBindValue(QDateTime::currentMSecsSinceEpoch());
            QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
            QCOMPARE(q.numRowsAffected(), 1);
        }
        closeTestDatabase("orphan");
        runsOnceThenReplays(body, "k-dead", "Orphaned");
    }

    /// The answer is stored in the transaction of the request's writes: when storing it
    /// fails (here a trigger refuses it; in production a crash or a lost connection between
    /// the two), nothing of the request is written, and the client's retry creates once.
    /// Before, the template was committed first, and the retry of the unanswered key made
    /// a second one.
    void writesCommitOnlyWithTheirAnswer()
    {
        const auto sql = [&](const QStringList &statements) {
            bool ok = true;
            {
                QSqlDatabase db = openTestDatabase(m_e2e.dataDir(), "refuse");
                QSqlQuery q(db);
                for (const QString &s : statements) {
                    ok = ok && q.exec(s);
                    if (!ok)
                        qWarning() << s << q.lastError().text();
                }
            }
            closeTestDatabase("refuse");
            return ok;
        };
        const bool pg = testUsesPostgres();
        QVERIFY(sql(pg ? QStringList{"CREATE FUNCTION refuse_answers() RETURNS trigger LANGUAGE plpgsql AS"
                                     " $$ BEGIN RAISE EXCEPTION 'answers refused'; END $$",
                                     "CREATE TRIGGER refuse_answers BEFORE UPDATE ON idempotency_keys"
                                     " FOR EACH ROW EXECUTE FUNCTION refuse_answers()"}
                       : QStringList{"CREATE TRIGGER refuse_answers BEFORE UPDATE ON idempotency_keys"
                                     " BEGIN SELECT RAISE(ABORT, 'answers refused'); END"}));
        const QByteArray body = templateBody("Unanswered");
        HttpReply r = httpRequest(port(), "POST", "/api/v1/templates", body, with(m_alpha, "k-unanswered"));
        QVERIFY2(r.status == 500 && r.header("Content-Type") == "application/problem+json", r.body.constData());
        QCOMPARE(templatesNamed(m_alpha, "Unanswered"), 0);

        QVERIFY(sql(pg ? QStringList{"DROP TRIGGER refuse_answers ON idempotency_keys",
                                     "DROP FUNCTION refuse_answers()"}
                       : QStringList{"DROP TRIGGER refuse_answers"}));
        runsOnceThenReplays(body, "k-unanswered", "Unanswered");
    }

    /// A publish sent with a key commits with its answer, and what waits for the commit
    /// still happens: the server drops its cached snapshot once the new one is committed,
    /// so the next render is the new one (the publish cache's TTL is minutes).
    void publishWithAKeyIsWhatRendersNext()
    {
        const auto flat = [](const char *colour) {
            const QJsonObject style{
                {"display", "flex"}, {"width", "100%"}, {"height", "100%"}, {"backgroundColor", colour}};
            return json({{"name", "Flat"},
                         {"width", 40},
                         {"height", 20},
                         {"root", QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", style}}}}}});
        };
        HttpReply r = httpRequest(port(), "POST", "/api/v1/templates", flat("#ff0000"), with(m_alpha, {}));
        QCOMPARE(r.status, 201);
        const QString templateId = r.data().value("id").toString();
        r = httpRequest(port(), "POST", "/api/v1/pages", json({{"templateId", templateId}}), with(m_alpha, "k-page"));
        QCOMPARE(r.status, 201);
        const QByteArray pageId = r.data().value("id").toString().toLatin1();
        const QByteArray renderKey = m_e2e.createKey("alpha", "render", {"render"});
        QVERIFY(!renderKey.isEmpty());
        const auto centre = [&] {
            const HttpReply png = httpRequest(port(), "GET", "/api/v1/render?pageId=" + pageId + "&output=binary", {},
                                              {{"Authorization", "Bearer " + renderKey}});
            if (png.status != 200)
                qWarning() << png.status << png.body;
            return png.status == 200 ? decode(png.body).pixelColor(20, 10) : QColor();
        };
        const QByteArray publish = "/api/v1/pages/" + pageId + "/publish";
        r = httpRequest(port(), "POST", publish, {}, with(m_alpha, "k-publish-1"));
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(centre(), QColor(255, 0, 0));
        const QByteArray templatePath = "/api/v1/templates/" + templateId.toLatin1();
        QCOMPARE(httpRequest(port(), "PUT", templatePath, flat("#0000ff"), with(m_alpha, {})).status, 200);
        r = httpRequest(port(), "POST", publish, {}, with(m_alpha, "k-publish-2"));
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(centre(), QColor(0, 0, 255));
        QCOMPARE(httpRequest(port(), "POST", publish, {}, with(m_alpha, "k-publish-2")).header("Idempotent-Replayed"),
                 QByteArray("true"));
    }

    void concurrentRetriesCreateOnce()
    {
        const QByteArray body = templateBody("Raced");
        std::vector<std::unique_ptr<QTcpSocket>> sockets;
        for (int i = 0; i < 6; ++i) {
            auto s = std::make_unique<QTcpSocket>();
            s->connectToHost(QHostAddress::LocalHost, port());
            QVERIFY(s->waitForConnected(2000));
            s->write("POST /api/v1/templates HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     "Idempotency-Key: k-5\r\nAuthorization: Bearer "
                     + m_alpha.toLatin1() + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n"
                     + body);
            sockets.push_back(std::move(s));
        }
        int created = 0;
        for (auto &s : sockets) {
            const HttpReply r = readReply(*s);
            QVERIFY2(r.status == 201 || r.status == 409, r.body.constData());
            if (r.status == 409)
                QCOMPARE(r.json().value("code").toString(), QStringLiteral("idempotency_key_in_use"));
            created += r.status == 201;
        }
        QVERIFY(created >= 1);
        QCOMPARE(templatesNamed(m_alpha, "Raced"), 1);
    }
};

QTEST_MAIN(TestIdempotency)
#include "tst_idempotency.moc"
