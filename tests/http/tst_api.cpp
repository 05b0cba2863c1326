// End-to-end tests of accounts, sessions and API keys over HTTP, against the
// real `imprint serve` on an ephemeral port with a temporary data directory.
#include "../support/e2e_fixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

class TestApi : public QObject
{
    Q_OBJECT

private:
    E2eFixture m_e2e;
    QStringList m_secrets; // every token and password handed out: must never be logged

    quint16 port() const { return m_e2e.port(); }

    QString login(const QString &email, const QString &password = QStringLiteral("password123"))
    {
        const HttpReply r = httpRequest(port(), "POST", "/api/v1/auth/login",
                                        QJsonDocument(QJsonObject{{"email", email}, {"password", password}}).toJson());
        const QString token = r.data().value("token").toString();
        if (!token.isEmpty())
            m_secrets << token;
        return r.status == 200 ? token : QString();
    }
    static Headers bearer(const QString &token) { return {{"Authorization", "Bearer " + token.toLatin1()}}; }

    QJsonObject createKey(const QString &session, const QString &name)
    {
        const HttpReply r = httpRequest(port(), "POST", "/api/v1/tokens/api-keys",
                                        QJsonDocument(QJsonObject{{"name", name}}).toJson(), bearer(session));
        if (r.status != 201)
            return {};
        m_secrets << r.data().value("token").toString();
        return r.data();
    }

    int addUser(const QString &email, const QString &space, const QString &role)
    {
        // `user add` no longer makes a space it does not know; these tests want free ones.
        runCli({"space", "create", space, "--plan", "free", "--data", m_e2e.dataDir()});
        return runCli({"user", "add", "--email", email, "--space", space, "--role", role, "--data", m_e2e.dataDir()},
                      "password123\npassword123\n");
    }

private slots:
    void initTestCase()
    {
        E2eOptions world; // the users below, no key, the server started after them
        world.ownerEmail.clear();
        world.keyName.clear();
        world.start = false;
        QVERIFY2(m_e2e.setUp(world), m_e2e.failure());
        m_secrets << QStringLiteral("password123");
        QCOMPARE(addUser("owner@alpha.test", "alpha", "owner"), 0);
        QCOMPARE(addUser("admin@alpha.test", "alpha", "admin"), 0);
        QCOMPARE(addUser("member@alpha.test", "alpha", "member"), 0);
        QCOMPARE(addUser("owner@beta.test", "beta", "owner"), 0);
        QCOMPARE(addUser("owner@gamma.test", "gamma", "owner"), 0);
        QVERIFY2(m_e2e.startServer(), m_e2e.failure());
    }

    void health()
    {
        const HttpReply r = httpRequest(port(), "GET", "/api/v1/health");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(r.json().value("status").toString(), QString("ok"));
        QCOMPARE(r.json().value("database").toString(), QString("ok"));
        QVERIFY(!r.json().value("version").toString().isEmpty());
    }

    void unknownRouteAndWrongMethod()
    {
        HttpReply r = httpRequest(port(), "GET", "/api/v1/no-such-thing");
        QCOMPARE(r.status, 404);
        QCOMPARE(r.header("Content-Type"), QByteArray("application/problem+json"));
        const QJsonObject p = r.json();
        for (const char *field : {"type", "title", "detail", "code"})
            QVERIFY2(p.value(field).isString(), field);
        QCOMPARE(p.value("status").toInt(), 404);
        QCOMPARE(p.value("success").toBool(true), false);

        r = httpRequest(port(), "PUT", "/api/v1/health", "{}");
        QCOMPARE(r.status, 405);
        QCOMPARE(r.header("Allow"), QByteArray("GET, HEAD")); // HEAD comes with every GET route
        QCOMPARE(r.header("Content-Type"), QByteArray("application/problem+json"));

        // The path names the index, not a key called "index": only the index's methods
        // (DELETE is for /tokens/api-keys/{id}), and DELETE on it is 405 too.
        r = httpRequest(port(), "POST", "/api/v1/tokens/api-keys/index", "{}");
        QCOMPARE(r.status, 405);
        QCOMPARE(r.header("Allow"), QByteArray("GET, HEAD"));
        r = httpRequest(port(), "DELETE", "/api/v1/tokens/api-keys/index");
        QCOMPARE(r.status, 405);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("method_not_allowed"));
    }

    void headOnEveryGetRoute()
    {
        // RFC 9110 §9.3.2: the GET answer's status and headers, Content-Length included,
        // and no body; errors too.
        const HttpReply get = httpRequest(port(), "GET", "/api/v1/health");
        HttpReply head = headRequest(port(), "/api/v1/health");
        QCOMPARE(head.status, 200);
        QCOMPARE(head.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(qsizetype(head.header("Content-Length").toLongLong()), get.body.size());
        QVERIFY(head.body.isEmpty());
        head = headRequest(port(), "/api/v1/no-such-thing");
        QCOMPARE(head.status, 404);
        QVERIFY(head.body.isEmpty());
        head = headRequest(port(), "/api/v1/auth/me");
        QCOMPARE(head.status, 401);
        QVERIFY(head.body.isEmpty());
        // A POST-only route does not grow a HEAD.
        QCOMPARE(headRequest(port(), "/api/v1/auth/logout").status, 405);
    }

    void loginRightAndWrongPassword()
    {
        HttpReply r = httpRequest(port(), "POST", "/api/v1/auth/login",
                                  R"({"email":"Owner@Alpha.test","password":"password123"})");
        QCOMPARE(r.status, 200);
        const QString token = r.data().value("token").toString();
        m_secrets << token;
        QVERIFY(token.startsWith("ses_"));
        QCOMPARE(r.data().value("role").toString(), QString("owner"));
        QCOMPARE(r.data().value("space").toObject().value("name").toString(), QString("alpha"));
        const QByteArray cookie = r.header("Set-Cookie");
        QVERIFY(cookie.startsWith("imprint_session=" + token.toLatin1()));
        QVERIFY(cookie.contains("HttpOnly"));
        QVERIFY(cookie.contains("SameSite=Strict"));

        r = httpRequest(port(), "POST", "/api/v1/auth/login",
                        R"({"email":"owner@alpha.test","password":"wrong-password"})");
        QCOMPARE(r.status, 401);
        QCOMPARE(r.json().value("code").toString(), QString("invalid_credentials"));
        QVERIFY(r.header("Set-Cookie").isEmpty());

        r = httpRequest(port(), "POST", "/api/v1/auth/login",
                        R"({"email":"nobody@alpha.test","password":"password123"})");
        QCOMPARE(r.status, 401);

        r = httpRequest(port(), "POST", "/api/v1/auth/login", R"({"email":"owner@alpha.test","password":)");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json().value("code").toString(), QString("malformed_json"));

        r = httpRequest(port(), "POST", "/api/v1/auth/login", R"({"email":"owner@alpha.test"})");
        QCOMPARE(r.status, 400);
        QVERIFY(r.json().value("detail").toString().contains("password"));

        r = httpRequest(port(), "POST", "/api/v1/auth/login", R"(["not","an","object"])");
        QCOMPARE(r.status, 400);
    }

    void cookieAndBearerSessions()
    {
        const QString token = login("admin@alpha.test");
        QVERIFY(!token.isEmpty());
        HttpReply r
            = httpRequest(port(), "GET", "/api/v1/auth/me", {}, {{"Cookie", "imprint_session=" + token.toLatin1()}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("user").toObject().value("email").toString(), QString("admin@alpha.test"));
        QCOMPARE(r.data().value("role").toString(), QString("admin"));
        r = httpRequest(port(), "GET", "/api/v1/auth/me", {}, bearer(token));
        QCOMPARE(r.status, 200);
        r = httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index", {},
                        {{"Cookie", "other=1; imprint_session=" + token.toLatin1()}});
        QCOMPARE(r.status, 200);

        r = httpRequest(port(), "GET", "/api/v1/auth/me");
        QCOMPARE(r.status, 401);
        r = httpRequest(port(), "GET", "/api/v1/auth/me", {}, bearer("ses_forged0000000000000000000000000000000000"));
        QCOMPARE(r.status, 401);

        r = httpRequest(port(), "POST", "/api/v1/auth/logout", {}, bearer(token));
        QCOMPARE(r.status, 200);
        r = httpRequest(port(), "GET", "/api/v1/auth/me", {}, bearer(token));
        QCOMPARE(r.status, 401);
    }

    void keyEndpointsNeedSessionAndRole()
    {
        const QList<QPair<QByteArray, QByteArray>> calls = {
            {"GET", "/api/v1/tokens/api-keys/index"},
            {"POST", "/api/v1/tokens/api-keys"},
            {"DELETE", "/api/v1/tokens/api-keys/key_doesnotmatter"},
        };
        const QString member = login("member@alpha.test");
        QVERIFY(!member.isEmpty());
        for (const auto &c : calls) {
            const QByteArray body = c.first == "POST" ? QByteArray(R"({"name":"x"})") : QByteArray();
            HttpReply r = httpRequest(port(), c.first, c.second, body);
            QCOMPARE(r.status, 401);
            QCOMPARE(r.header("Content-Type"), QByteArray("application/problem+json"));
            r = httpRequest(port(), c.first, c.second, body, bearer(member));
            QCOMPARE(r.status, 403);
            QCOMPARE(r.json().value("code").toString(), QString("forbidden"));
        }
        // An API token is not a session.
        const QString owner = login("owner@alpha.test");
        const QJsonObject key = createKey(owner, "not a session");
        QVERIFY(!key.isEmpty());
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index", {}, bearer(key.value("token").toString()))
                     .status,
                 401);
    }

    void createKeyValidation()
    {
        const QString owner = login("owner@alpha.test");
        HttpReply r = httpRequest(port(), "POST", "/api/v1/tokens/api-keys", R"({"name":""})", bearer(owner));
        QCOMPARE(r.status, 400);
        QVERIFY(r.json().value("detail").toString().contains("name"));
        r = httpRequest(port(), "POST", "/api/v1/tokens/api-keys", R"({})", bearer(owner));
        QCOMPARE(r.status, 400);
        r = httpRequest(port(), "POST", "/api/v1/tokens/api-keys", R"({"name":"x","expiresAt":"tomorrow"})",
                        bearer(owner));
        QCOMPARE(r.status, 400);
        QVERIFY(r.json().value("detail").toString().contains("expiresAt"));
        r = httpRequest(port(), "POST", "/api/v1/tokens/api-keys", R"({"name":"x","expiresAt":"2001-01-01T00:00:00Z"})",
                        bearer(owner));
        QCOMPARE(r.status, 400);
        r = httpRequest(port(), "POST", "/api/v1/tokens/api-keys", R"({"name":"x")", bearer(owner));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json().value("code").toString(), QString("malformed_json"));
        // Names are shown in lists and logs: no NUL, no control or bidi-override characters.
        for (const QByteArray &name : {QByteArray(R"(a\u0000b)"), QByteArray(R"(x\u202egnp.exe)"),
                                       QByteArray(R"(line\nbreak)")}) {
            r = httpRequest(port(), "POST", "/api/v1/tokens/api-keys", R"({"name":")" + name + R"("})", bearer(owner));
            QVERIFY2(r.status == 400, name.constData());
            QCOMPARE(r.json().value("code").toString(), QStringLiteral("invalid_name"));
            QCOMPARE(r.json().value("field").toString(), QStringLiteral("name"));
        }

        r = httpRequest(port(), "POST", "/api/v1/tokens/api-keys",
                        R"({"name":"expiring","expiresAt":"2099-01-01T00:00:00Z"})", bearer(owner));
        QCOMPARE(r.status, 201);
        m_secrets << r.data().value("token").toString();
        const QString token = r.data().value("token").toString();
        QVERIFY(QRegularExpression("^imp_[0-9A-Za-z]{40}$").match(token).hasMatch());
        QCOMPARE(r.data().value("prefix").toString(), token.left(10));
        QCOMPARE(r.data().value("expiresAt").toString(), QString("2099-01-01T00:00:00.000Z"));
        QCOMPARE(r.data().value("createdBy").toString(), QString("owner@alpha.test"));
    }

    void pagination()
    {
        const QString owner = login("owner@gamma.test");
        QVERIFY(!owner.isEmpty());
        for (int i = 0; i < 25; ++i)
            QVERIFY(!createKey(owner, QStringLiteral("key %1").arg(i)).isEmpty());

        HttpReply r = httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index?page=3&perPage=10", {}, bearer(owner));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value("success").toBool(), true);
        QJsonObject d = r.data();
        QCOMPARE(d.value("count").toInt(), 25);
        QCOMPARE(d.value("pagesCount").toInt(), 3);
        QCOMPARE(d.value("page").toInt(), 3);
        QCOMPARE(d.value("perPage").toInt(), 10);
        QCOMPARE(d.value("list").toArray().size(), 5);
        const QJsonObject item = d.value("list").toArray().first().toObject();
        QStringList keys = item.keys();
        keys.sort();
        QCOMPARE(keys,
                 QStringList({"createdAt", "createdBy", "expiresAt", "id", "lastUsedAt", "name", "prefix", "scopes"}));

        r = httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index", {}, bearer(owner));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("page").toInt(), 1);
        QCOMPARE(r.data().value("perPage").toInt(), 20);
        QCOMPARE(r.data().value("list").toArray().size(), 20);
        QCOMPARE(r.data().value("pagesCount").toInt(), 2);

        r = httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index?page=99", {}, bearer(owner));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("list").toArray().size(), 0);
        QCOMPARE(r.data().value("count").toInt(), 25);

        r = httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index?perPage=100", {}, bearer(owner));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("perPage").toInt(), 100);
        QCOMPARE(r.data().value("list").toArray().size(), 25);

        // Out of range is said, not clamped in silence.
        r = httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index?perPage=1000", {}, bearer(owner));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("perPage"));
        QVERIFY(r.json().value("detail").toString().contains("1 to 100"));

        for (const char *bad : {"perPage=abc", "perPage=0", "perPage=-5", "perPage=101", "page=0", "page=1.5", "page=x",
                                "page=1000001"}) {
            r = httpRequest(port(), "GET", QByteArray("/api/v1/tokens/api-keys/index?") + bad, {}, bearer(owner));
            QVERIFY2(r.status == 400, bad);
            QCOMPARE(r.header("Content-Type"), QByteArray("application/problem+json"));
            QVERIFY(r.json().value("detail").toString().contains(QString::fromLatin1(bad).section('=', 0, 0)));
        }
    }

    void revokeAndTokenAuthentication()
    {
        const QString alpha = login("owner@alpha.test");
        const QString beta = login("owner@beta.test");
        const QJsonObject mine = createKey(alpha, "to revoke");
        const QJsonObject theirs = createKey(beta, "beta's key");
        const QString mineToken = mine.value("token").toString();
        const QString theirsToken = theirs.value("token").toString();

        // Both tokens authenticate, as Bearer and as ?api_token=.
        HttpReply r = httpRequest(port(), "GET", "/api/v1/tokens/verify", {}, bearer(mineToken));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("keyId").toString(), mine.value("id").toString());
        QCOMPARE(r.data().value("space").toObject().value("name").toString(), QString("alpha"));
        QCOMPARE(r.data().value("space").toObject().value("plan").toString(), QString("free"));
        r = httpRequest(port(), "GET", "/api/v1/tokens/verify?api_token=" + theirsToken.toLatin1());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("space").toObject().value("name").toString(), QString("beta"));

        // lastUsedAt is recorded.
        r = httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index?perPage=100", {}, bearer(alpha));
        bool seen = false;
        for (const QJsonValue &v : r.data().value("list").toArray()) {
            if (v.toObject().value("id") == mine.value("id")) {
                seen = true;
                QVERIFY(!v.toObject().value("lastUsedAt").toString().isEmpty());
            }
        }
        QVERIFY(seen);

        // Another space's key: 404, and it keeps working.
        r = httpRequest(port(), "DELETE", "/api/v1/tokens/api-keys/" + theirs.value("id").toString().toLatin1(), "{}",
                        bearer(alpha));
        QCOMPARE(r.status, 404);
        QCOMPARE(r.header("Content-Type"), QByteArray("application/problem+json"));
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/tokens/verify", {}, bearer(theirsToken)).status, 200);

        // Revoke: 200, then 404; the token fails from the next request on.
        r = httpRequest(port(), "DELETE", "/api/v1/tokens/api-keys/" + mine.value("id").toString().toLatin1(), "{}",
                        bearer(alpha));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("message").toString(), QString("API key revoked"));
        r = httpRequest(port(), "DELETE", "/api/v1/tokens/api-keys/" + mine.value("id").toString().toLatin1(), {},
                        bearer(alpha));
        QCOMPARE(r.status, 404);
        r = httpRequest(port(), "GET", "/api/v1/tokens/verify", {}, bearer(mineToken));
        QCOMPARE(r.status, 401);
        QCOMPARE(r.header("Content-Type"), QByteArray("application/problem+json"));
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/tokens/verify?api_token=" + mineToken.toLatin1()).status, 401);
        r = httpRequest(port(), "DELETE", "/api/v1/tokens/api-keys/key_unknown000000000000", {}, bearer(alpha));
        QCOMPARE(r.status, 404);

        // The revoked key is gone from the list but kept in the table with revoked_at.
        r = httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index?perPage=100", {}, bearer(alpha));
        for (const QJsonValue &v : r.data().value("list").toArray())
            QVERIFY(v.toObject().value("id") != mine.value("id"));

        QSqlDatabase db = openTestDatabase(m_e2e.dataDir(), "inspect");
        QVERIFY2(db.isOpen(), qPrintable(db.lastError().text()));
        {
            QSqlQuery q(db);
            QVERIFY(q.exec("SELECT revoked_at FROM api_keys WHERE id = '" + mine.value("id").toString() + "'"));
            QVERIFY(q.next());
            QVERIFY(q.value(0).toLongLong() > 0);
            QVERIFY(q.exec("SELECT COUNT(*) FROM audit_log WHERE action = 'api_key.revoke' AND target = '"
                           + mine.value("id").toString() + "'"));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 1);
            QVERIFY(q.exec("SELECT COUNT(*) FROM audit_log WHERE action = 'api_key.create' AND target = '"
                           + mine.value("id").toString() + "'"));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 1);
            // An expired key is refused too.
            QVERIFY(q.exec("UPDATE api_keys SET expires_at = 1000 WHERE id = '" + theirs.value("id").toString() + "'"));
        }
        db = QSqlDatabase();
        closeTestDatabase("inspect");
        r = httpRequest(port(), "GET", "/api/v1/tokens/verify", {}, bearer(theirsToken));
        QCOMPARE(r.status, 401);
        QCOMPARE(r.json().value("code").toString(), QString("token_expired"));
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/tokens/verify").json().value("code").toString(),
                 QString("missing_token"));
    }

    void cliPasswdEndsSessions()
    {
        // A new password set with the CLI ends the sessions opened with the old one.
        QCOMPARE(runCli({"space", "create", "delta", "--data", m_e2e.dataDir()}), 0);
        QCOMPARE(runCli({"user", "add", "--email", "owner@delta.test", "--space", "delta", "--role", "owner", "--data",
                         m_e2e.dataDir()},
                        "password123\n"),
                 0);
        const QString first = login("owner@delta.test");
        const QString second = login("owner@delta.test");
        QVERIFY(!first.isEmpty() && !second.isEmpty());
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/auth/me", {}, bearer(first)).status, 200);
        QCOMPARE(runCli({"user", "passwd", "--email", "owner@delta.test", "--data", m_e2e.dataDir()}, "password456\n"), 0);
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/auth/me", {}, bearer(first)).status, 401);
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/auth/me", {}, bearer(second)).status, 401);
        QVERIFY(login("owner@delta.test").isEmpty()); // the old password is refused
        QVERIFY(!login("owner@delta.test", "password456").isEmpty());
    }

    void cliKeysWorkOverHttp()
    {
        QByteArray out;
        QCOMPARE(runCli({"key", "create", "--space", "beta", "--name", "from cli", "--json", "--data", m_e2e.dataDir()},
                        {}, &out),
                 0);
        const QJsonObject created = QJsonDocument::fromJson(out).object();
        const QString token = created.value("token").toString();
        m_secrets << token;
        QVERIFY(token.startsWith("imp_"));
        QVERIFY(created.value("id").toString().startsWith("key_"));
        // Twice: the second answer comes from the key the server remembers.
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/tokens/verify", {}, bearer(token)).status, 200);
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/tokens/verify", {}, bearer(token)).status, 200);
        QCOMPARE(runCli({"key", "revoke", created.value("id").toString(), "--data", m_e2e.dataDir()}), 0);
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/tokens/verify", {}, bearer(token)).status, 401);
        QVERIFY(runCli({"key", "revoke", created.value("id").toString(), "--data", m_e2e.dataDir()}) != 0);
    }

    // A key is answered from memory while nothing that changes it was written
    // (ApiKeyService::authenticate): a plan changed by the CLI, another process, must still
    // reach the key's very next request, both ways.
    void planChangeReachesAKnownKeyAtOnce()
    {
        QByteArray out;
        QCOMPARE(runCli({"key", "create", "--space", "gamma", "--name", "plan probe", "--json", "--data",
                         m_e2e.dataDir()},
                        {}, &out),
                 0);
        const QByteArray token = QJsonDocument::fromJson(out).object().value("token").toString().toLatin1();
        m_secrets << QString::fromLatin1(token);
        const QByteArray wide = "/api/v1/render?pattern=dots-sunset&width=1001&height=100&output=binary";
        // Twice each way, so that the second request of each pair is answered from memory.
        for (int i = 0; i < 2; ++i)
            QCOMPARE(httpRequest(port(), "GET", wide, {}, bearer(token)).status, 402);
        QCOMPARE(runCli({"space", "set-plan", "gamma", "pro", "--data", m_e2e.dataDir()}), 0);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(httpRequest(port(), "GET", wide, {}, bearer(token)).status, 200);
        QCOMPARE(runCli({"space", "set-plan", "gamma", "free", "--data", m_e2e.dataDir()}), 0);
        QCOMPARE(httpRequest(port(), "GET", wide, {}, bearer(token)).status, 402);
    }

    void commandLineDispatch()
    {
        const auto run = [](const QStringList &args, const QProcessEnvironment &env, QByteArray *out, QByteArray *err) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(IMPRINT_BINARY), args);
            if (!p.waitForFinished(30000))
                return -1;
            *out = p.readAllStandardOutput();
            *err = p.readAllStandardError();
            return p.exitCode();
        };
        QByteArray out, err;
        // `imprint` followed by console options is local desktop mode, not an unknown command
        // (the bad --lang stops it before any window or data directory).
        QCOMPARE(run({"--lang", "xx"}, imprintEnvironment(), &out, &err), 2);
        QVERIFY2(err.contains("--lang must be en, de or fr") && !err.contains("unknown command"), err.constData());
        // --help only prints: it needs no display.
        QProcessEnvironment headless = imprintEnvironment();
        headless.remove("QT_QPA_PLATFORM");
        headless.remove("DISPLAY");
        headless.remove("WAYLAND_DISPLAY");
        QCOMPARE(run({"console", "--help"}, headless, &out, &err), 0);
        QVERIFY2(out.startsWith("Usage: imprint console [options]"), out.constData());
        QVERIFY(out.contains("--screenshot"));
        QCOMPARE(run({"--help"}, headless, &out, &err), 0);
        QVERIFY2(out.contains("imprint [console options]"), out.constData());
        // Local desktop mode runs its server on the data directory it is given (a fresh
        // one: the window shows the no-account notice), and --data is not a remote
        // console's option.
        QTemporaryDir localData;
        const QString shot = localData.filePath("window.png");
        QCOMPARE(run({"--data", localData.filePath("data"), "--screenshot", shot, "--size", "800x600"},
                     imprintEnvironment(), &out, &err),
                 0);
        QVERIFY2(out.contains("local server on http://127.0.0.1:"), out.constData());
        QVERIFY2(out.contains(QDir::toNativeSeparators(localData.filePath("data")).toUtf8()), out.constData());
        QVERIFY(QFileInfo::exists(localData.filePath("data/imprint.db")));
        QFile png(shot);
        QVERIFY(png.open(QIODevice::ReadOnly));
        const QByteArray head = png.read(24); // signature, then IHDR: width and height, big-endian
        QVERIFY(head.startsWith("\x89PNG\r\n\x1a\n"));
        QCOMPARE(qFromBigEndian<quint32>(head.constData() + 16), 800u);
        QCOMPARE(qFromBigEndian<quint32>(head.constData() + 20), 600u);
        QCOMPARE(run({"console", "--data", localData.path()}, imprintEnvironment(), &out, &err), 2);
        QVERIFY2(err.contains("data"), err.constData());
        // An unknown --tab is a usage error naming the tabs there are, not a silent Keys tab.
        QCOMPARE(run({"console", "--tab", "font"}, headless, &out, &err), 2);
        QVERIFY2(err.contains("--tab must be keys, signing-keys, preview, fonts, studio or usage"), err.constData());
    }

    // A scripted console run (--screenshot) whose sign-in the server refuses says so and
    // exits 1; the same run with the right password and --tab fonts exits 0.
    void scriptedSignIn()
    {
        const QString server = QStringLiteral("http://127.0.0.1:%1").arg(port());
        QTemporaryDir dir;
        for (const auto &[password, code] : {std::pair{"wrong-password", 1}, std::pair{"password123", 0}}) {
            QProcess p;
            QProcessEnvironment env = imprintEnvironment();
            env.insert("IMPRINT_CONSOLE_PASSWORD", QString::fromLatin1(password));
            env.insert("HOME", dir.path()); // the console's settings stay in the temporary directory
            p.setProcessEnvironment(env);
            const QString shot = dir.filePath(QStringLiteral("shot%1.png").arg(code));
            p.start(QStringLiteral(IMPRINT_BINARY), {"console", "--server", server, "--email", "owner@gamma.test",
                                                    "--tab", "fonts", "--screenshot", shot});
            QVERIFY(p.waitForFinished(30000));
            const QByteArray err = p.readAllStandardError();
            QCOMPARE(p.exitCode(), code);
            QCOMPARE(err.contains("sign-in failed"), code != 0);
            QVERIFY(QFileInfo::exists(shot));
        }
    }

    void secretsNeverListedNorLogged()
    {
        const QString owner = login("owner@gamma.test");
        const HttpReply r = httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index?perPage=100", {}, bearer(owner));
        QCOMPARE(r.status, 200);
        QVERIFY(m_secrets.size() > 30);
        const QByteArray log = m_e2e.server().log();
        QVERIFY(log.contains("/api/v1/tokens/api-keys/index")); // the log is really captured
        for (const QString &secret : std::as_const(m_secrets)) {
            QVERIFY(!secret.isEmpty());
            QVERIFY2(!r.body.contains(secret.toLatin1()), qPrintable(secret.left(8)));
            QVERIFY2(!log.contains(secret.toLatin1()), qPrintable(secret.left(8)));
        }
        QVERIFY(!r.body.contains("hash"));
    }
};

QTEST_GUILESS_MAIN(TestApi)
#include "tst_api.moc"
