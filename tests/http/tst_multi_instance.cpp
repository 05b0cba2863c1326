// Several `imprint serve` instances on one PostgreSQL database behave as one service
// (docs/deployment.md, "Several instances"): three servers with separate data
// directories share a database; a key or signing key revoked on one is refused by the
// others on the next request, a publish on one is what the others render at once (their
// publish caches hear of it through LISTEN/NOTIFY and check the version; the TTL is set
// far too long to explain it), a render stored by one is served by another's /files route, and the render rate
// limit counts across instances. Always needs PostgreSQL: registered with the `postgres`
// fixture only (tests/http/CMakeLists.txt).
#include "httpclient.h"
#include "render_api_helpers.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <array>
#include <thread>

using Headers = QList<QPair<QByteArray, QByteArray>>;

namespace {

Headers bearer(const QByteArray &token)
{
    return {{"Authorization", "Bearer " + token}};
}

QByteArray flatTemplate(const char *color)
{
    return QByteArray(R"({"name": "Flat", "width": 40, "height": 20, "rendererType": "takumi",
  "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
           "backgroundColor": ")")
           + color + R"("}}}})";
}

// Within 6 s, 6 renders per key: 13 renders in a few seconds span at most two windows,
// so at most 12 pass when the count is shared, while three per-instance buckets of 6
// would pass all 13.
const QByteArray kConfig = R"({"render": {"rateLimit": {"perSecond": 1, "burst": 6},
  "publishCache": {"ttlMs": 600000}}})";

} // namespace

class TestMultiInstance : public QObject
{
    Q_OBJECT

private:
    QString m_url; // this suite's own database
    std::array<QTemporaryDir, 3> m_dirs;
    std::array<ServerProcess, 3> m_servers;
    QByteArray m_session;
    QByteArray m_templateId;
    QByteArray m_pageId;

    quint16 port(int i) const { return m_servers[i].port(); }
    HttpReply get(int i, const QByteArray &path, const Headers &headers = {})
    {
        return httpRequest(port(i), "GET", path, {}, headers);
    }
    /// A new render key made on instance `i`: its token (and id in *id).
    QByteArray createKey(int i, QByteArray *id = nullptr)
    {
        const HttpReply r
            = httpRequest(port(i), "POST", "/api/v1/tokens/api-keys", json({{"name", "k"}}), bearer(m_session));
        if (id)
            *id = r.data().value("id").toString().toLatin1();
        return r.status == 201 ? r.data().value("token").toString().toLatin1() : QByteArray();
    }
    QColor pageColor(int i, const QByteArray &key)
    {
        const HttpReply r = get(i, "/api/v1/render?pageId=" + m_pageId + "&format=png&output=binary", bearer(key));
        if (r.status != 200)
            return {};
        return decode(r.body, "png").pixelColor(20, 10);
    }

private slots:
    void initTestCase()
    {
        const QString server = testDatabaseServer();
        QVERIFY2(!server.isEmpty(), "needs the postgres fixture (IMPRINT_TEST_DATABASE_FILE)");
        const QString name
            = QStringLiteral("t_multi_%1").arg(QRandomGenerator::global()->generate(), 8, 16, QChar('0'));
        QProcess psql;
        psql.start(QStringLiteral("psql"), {server, "-qAt", "-c", "CREATE DATABASE " + name});
        QVERIFY(psql.waitForFinished(30000));
        QCOMPARE(psql.exitCode(), 0);
        m_url = server.left(server.lastIndexOf('/') + 1) + name;

        // Every instance must hold the same server key to open the signing secrets that
        // any of them sealed (docs/deployment.md).
        QByteArray serverKey(32, Qt::Uninitialized);
        for (char &c : serverKey)
            c = char(QRandomGenerator::global()->bounded(256));
        for (const QTemporaryDir &dir : m_dirs) {
            QVERIFY(dir.isValid());
            QFile config(dir.filePath("config.json"));
            QVERIFY(config.open(QIODevice::WriteOnly) && config.write(kConfig) == kConfig.size());
            QFile key(dir.filePath("signing.key"));
            QVERIFY(key.open(QIODevice::WriteOnly) && key.write(serverKey) == 32);
            key.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        }
        QCOMPARE(runCli({"user", "add", "--email", "o@a.test", "--space", "alpha", "--create-space", "--role", "owner",
                         "--data", m_dirs[0].path(), "--database", m_url},
                        "password123\npassword123\n"),
                 0);
        for (int i = 0; i < 3; ++i)
            QVERIFY2(m_servers[i].start(m_dirs[i].path(), {"--database", m_url}), m_servers[i].log().constData());

        // A session made on one instance is good on all: sessions are rows.
        m_session = httpRequest(port(0), "POST", "/api/v1/auth/login",
                                json({{"email", "o@a.test"}, {"password", "password123"}}))
                        .data()
                        .value("token")
                        .toString()
                        .toLatin1();
        QVERIFY(!m_session.isEmpty());
        HttpReply r = httpRequest(port(0), "POST", "/api/v1/templates", flatTemplate("#ff0000"), bearer(m_session));
        QCOMPARE(r.status, 201);
        m_templateId = r.data().value("id").toString().toLatin1();
        r = httpRequest(port(0), "POST", "/api/v1/pages", json({{"templateId", QString::fromLatin1(m_templateId)}}),
                        bearer(m_session));
        QCOMPARE(r.status, 201);
        m_pageId = r.data().value("id").toString().toLatin1();
        QCOMPARE(httpRequest(port(0), "POST", "/api/v1/pages/" + m_pageId + "/publish", {}, bearer(m_session)).status,
                 200);
    }

    void cleanupTestCase()
    {
        for (ServerProcess &s : m_servers)
            s.stop();
        if (!m_url.isEmpty()) {
            const QString server = testDatabaseServer();
            QProcess psql;
            psql.start(QStringLiteral("psql"),
                       {server, "-qAt", "-c", "DROP DATABASE IF EXISTS " + m_url.mid(m_url.lastIndexOf('/') + 1)});
            psql.waitForFinished(30000);
        }
    }

    void revokedApiKeyIsRefusedEverywhere()
    {
        QByteArray keyId;
        const QByteArray token = createKey(0, &keyId);
        QVERIFY(!token.isEmpty() && !keyId.isEmpty());
        // Every instance has read the key (and remembers it) before the revocation.
        for (int instance = 0; instance < 3; ++instance)
            QVERIFY(pageColor(instance, token).isValid());
        QCOMPARE(httpRequest(port(1), "DELETE", "/api/v1/tokens/api-keys/" + keyId, {}, bearer(m_session)).status, 200);
        const HttpReply r = get(2, "/api/v1/render?pageId=" + m_pageId + "&output=binary", bearer(token));
        VERIFY_PROBLEM(r, 401);
        VERIFY_PROBLEM(get(0, "/api/v1/render?pageId=" + m_pageId + "&output=binary", bearer(token)), 401);
    }

    void revokedSigningKeyIsRefusedEverywhere()
    {
        HttpReply r = httpRequest(port(0), "POST", "/api/v1/signing-keys", json({{"name", "blog"}}), bearer(m_session));
        QCOMPARE(r.status, 201);
        const QByteArray keyId = r.data().value("id").toString().toLatin1();
        const QString base = QStringLiteral("http://127.0.0.1:%1/api/v1/render?pageId=%2&format=png")
                                 .arg(port(0))
                                 .arg(QString::fromLatin1(m_pageId));
        r = httpRequest(port(0), "POST", "/api/v1/signing-keys/" + keyId + "/sign", json({{"url", base}}),
                        bearer(m_session));
        QCOMPARE(r.status, 200);
        const QUrl signedUrl(r.data().value("url").toString());
        const QByteArray path
            = signedUrl.path(QUrl::FullyEncoded).toLatin1() + '?' + signedUrl.query(QUrl::FullyEncoded).toLatin1();
        QCOMPARE(get(2, path).status, 200); // sealed by instance 1, opened by instance 3
        QCOMPARE(httpRequest(port(1), "DELETE", "/api/v1/signing-keys/" + keyId, {}, bearer(m_session)).status, 200);
        VERIFY_PROBLEM(get(2, path), 403);
        VERIFY_PROBLEM(get(0, path), 403);
    }

    void publishIsServedByEveryInstanceAtOnce()
    {
        const QByteArray token = createKey(0);
        // Instances 2 and 3 cache the red snapshot (for ten minutes, by the config).
        QCOMPARE(pageColor(1, token), QColor(Qt::red));
        QCOMPARE(pageColor(2, token), QColor(Qt::red));
        QCOMPARE(
            httpRequest(port(0), "PUT", "/api/v1/templates/" + m_templateId, flatTemplate("#0000ff"), bearer(m_session))
                .status,
            200);
        QCOMPARE(httpRequest(port(0), "POST", "/api/v1/pages/" + m_pageId + "/publish", {}, bearer(m_session)).status,
                 200);
        // Both other instances, asked at the same moment right after the publish
        // answered, render the new version: no retry, no wait.
        std::array<QColor, 2> seen;
        std::array<std::thread, 2> readers;
        for (int i = 0; i < 2; ++i)
            readers[i] = std::thread([&, i] { seen[i] = pageColor(i + 1, token); });
        for (std::thread &r : readers)
            r.join();
        QCOMPARE(seen[0], QColor(Qt::blue));
        QCOMPARE(seen[1], QColor(Qt::blue));
        QCOMPARE(pageColor(0, token), QColor(Qt::blue));
    }

    void storedRenderIsServedByAnyInstance()
    {
        const QByteArray token = createKey(0);
        const HttpReply r = get(0, "/api/v1/render?pageId=" + m_pageId + "&format=png", bearer(token));
        QCOMPARE(r.status, 200);
        const QString url = r.json().value("file").toObject().value("url").toString();
        const QByteArray path = QUrl(url).path().toLatin1();
        QVERIFY2(path.startsWith("/api/v1/files/"), r.body.constData());
        const HttpReply mine = get(0, path);
        const HttpReply theirs = get(2, path);
        QCOMPARE(theirs.status, 200);
        QCOMPARE(theirs.body, mine.body);
        QCOMPARE(theirs.header("Content-Type"), QByteArray("image/png"));
        QCOMPARE(decode(theirs.body, "png").size(), QSize(40, 20));
        const QByteArray etag = theirs.header("ETag");
        QCOMPARE(etag, '"' + r.json().value("file").toObject().value("sha256").toString().toLatin1() + '"');
        QCOMPARE(theirs.header("Cache-Control"), QByteArray("public, max-age=31536000, immutable"));
        const HttpReply revalidated = get(1, path, {{"If-None-Match", etag}});
        QCOMPARE(revalidated.status, 304);
        QCOMPARE(revalidated.header("ETag"), etag);
        // A name nobody stored is 404 everywhere.
        VERIFY_PROBLEM(get(1, "/api/v1/files/" + QByteArray(64, 'a') + ".png"), 404);
    }

    void rateLimitHoldsAcrossInstances()
    {
        const QByteArray token = createKey(0);
        int passed = 0;
        int limited = 0;
        for (int n = 0; n < 13; ++n) {
            const HttpReply r
                = get(n % 3, "/api/v1/render?pattern=waves-sunset&width=20&height=10&output=binary", bearer(token));
            if (r.status == 200) {
                ++passed;
            } else {
                VERIFY_PROBLEM(r, 429);
                QVERIFY(r.header("Retry-After").toInt() >= 1);
                ++limited;
            }
        }
        QVERIFY2(passed <= 12 && limited >= 1,
                 qPrintable(QStringLiteral("%1 passed, %2 limited").arg(passed).arg(limited)));
    }
};

QTEST_MAIN(TestMultiInstance)
#include "tst_multi_instance.moc"
