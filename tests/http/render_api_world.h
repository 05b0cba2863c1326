#pragma once
// The world both render API suites (tst_render_api, tst_render_api_server) run against:
// the real `imprint serve` (tests/support/e2e_fixture.h) with space "alpha" (free, owner
// owner@alpha.test, a published and a never published page of kTemplate) and space "beta"
// (pro, owner owner@beta.test), a key of each, one-file emoji sets in DATA/emoji, and
// optionally a second, tight server (one worker, one queued job, a small rate limit).
// Templates use rendererType takumi so they do not depend on the satori engine.

#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QDir>
#include <QFile>
#include <QTest>

const QByteArray kTemplate
    = "{\n"
      "  \"name\": \"Test card\", \"width\": 400, \"height\": 300, \"rendererType\": \"takumi\",\n"
      "  \"variables\": [{\"name\": \"title\", \"type\": \"text\", \"default\": \"Hello\"},\n"
      "                {\"name\": \"bg\", \"type\": \"color\", \"default\": \"#336699\"}],\n"
      "  \"root\": {\"type\": \"div\", \"props\": {\"style\": {\"display\": \"flex\", \"width\": \"100%\", \"height\": "
      "\"100%\",\n"
      "           \"backgroundColor\": \"{{bg}}\", \"color\": \"#ffffff\", \"fontSize\": 40, \"fontFamily\": \"DejaVu "
      "Sans\",\n"
      "           \"alignItems\": \"center\", \"justifyContent\": \"center\"}, \"children\": [\"{{title}}\"]}}\n"
      "}";

/// The members and helpers of a render API suite; the suite's initTestCase() calls
/// setUpWorld() and stops when it failed (QTest::currentTestFailed()).
class RenderApiWorld
{
protected:
    E2eFixture m_e2e;
    E2eFixture m_tightE2e; // 1 worker, queue 1, tight rate limit
    QString m_session; // owner of space "alpha" (free plan)
    QString m_freeToken; // key of alpha (free)
    QString m_proToken; // key of space "beta" (pro)
    QString m_otherSession; // owner of beta
    QString m_templateId;
    QString m_pageId; // published page of alpha
    QString m_draftPageId; // never published

    quint16 port() const { return m_e2e.port(); }
    static Headers bearer(const QString &token) { return {{"Authorization", "Bearer " + token.toLatin1()}}; }

    HttpReply render(const QJsonObject &body, const QString &token, quint16 onPort = 0)
    {
        return httpRequest(onPort ? onPort : port(), "POST", "/api/v1/render", json(body),
                           token.isEmpty() ? Headers{} : bearer(token));
    }
    HttpReply get(const QByteArray &path, const Headers &headers = {})
    {
        return httpRequest(port(), "GET", path, {}, headers);
    }
    quint64 executed(quint16 onPort)
    {
        const HttpReply r = httpRequest(onPort, "GET", "/api/v1/metrics");
        return quint64(r.json().value("renders").toObject().value("executed").toDouble());
    }
    static QRgb pixel(const QByteArray &png, int x, int y) { return decode(png).pixel(x, y); }

    /// Makes the world, with the tight server when `tight`.
    void setUpWorld(bool tight)
    {
        E2eOptions alpha;
        alpha.plan = "free";
        alpha.ownerEmail = "owner@alpha.test";
        alpha.keyName = "test";
        alpha.config = "{\"http\": {\"workerThreads\": 2}, \"render\": {\"rateLimit\": {\"perSecond\": 10000, "
                       "\"burst\": 10000}}}";
        alpha.start = false;
        QVERIFY2(m_e2e.setUp(alpha), m_e2e.failure());
        QVERIFY2(m_e2e.addOwner("owner@beta.test", "beta", "free"), m_e2e.failure());
        QCOMPARE(runCli({"space", "set-plan", "beta", "pro", "--data", m_e2e.dataDir()}), 0);
        m_freeToken = QString::fromLatin1(m_e2e.key());
        m_proToken = QString::fromLatin1(m_e2e.createKey("beta", "test"));
        QVERIFY(!m_freeToken.isEmpty() && !m_proToken.isEmpty());
        // CLI content commands: import a template and create + publish a page offline.
        QFile tf(m_e2e.dataDir() + "/template.json");
        QVERIFY(tf.open(QIODevice::WriteOnly));
        tf.write(kTemplate);
        tf.close();
        QByteArray out;
        QCOMPARE(
            runCli({"template", "import", tf.fileName(), "--space", "alpha", "--json", "--data", m_e2e.dataDir()}, {},
                   &out),
            0);
        m_templateId = QJsonDocument::fromJson(out).object().value("id").toString();
        QVERIFY2(m_templateId.startsWith("tpl_"), out.constData());
        QCOMPARE(runCli({"page", "create", "--space", "alpha", "--template", m_templateId, "--var", "title=Published",
                         "--var", "bg=#336699", "--publish", "--json", "--data", m_e2e.dataDir()},
                        {}, &out),
                 0);
        m_pageId = QJsonDocument::fromJson(out).object().value("id").toString();
        QVERIFY2(m_pageId.startsWith("pg_"), out.constData());
        QCOMPARE(QJsonDocument::fromJson(out).object().value("published").toBool(), true);
        // A bad variable is refused by the CLI with a message naming it.
        QVERIFY(runCli({"page", "create", "--space", "alpha", "--template", m_templateId, "--var", "nope=1", "--data",
                        m_e2e.dataDir()})
                != 0);

        // One-file emoji "sets" in DATA/emoji (emojiSetsFromDataDirectory): 😀 as a solid
        // square, green for twemoji and magenta for openmoji, so a render shows which file
        // (if any) was used. The environment variable would win over the data directory.
        qunsetenv("IMPRINT_EMOJI_DIR");
        const auto writeEmoji = [this](const QString &set, const QString &name, const QByteArray &colour) {
            QVERIFY(QDir().mkpath(m_e2e.dataDir() + "/emoji/" + set));
            QFile f(m_e2e.dataDir() + "/emoji/" + set + "/" + name);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 36 36\">"
                    "<rect x=\"0\" y=\"0\" width=\"36\" height=\"36\" fill=\""
                    + colour + "\"/></svg>");
        };
        writeEmoji("twemoji", "1f600.svg", "#00c800");
        writeEmoji("openmoji", "1F600.svg", "#c800c8");

        QVERIFY2(m_e2e.startServer(), m_e2e.failure());
        m_session = QString::fromLatin1(m_e2e.login("owner@alpha.test"));
        m_otherSession = QString::fromLatin1(m_e2e.login("owner@beta.test"));
        QVERIFY(!m_session.isEmpty() && !m_otherSession.isEmpty());
        if (!tight)
            return;

        // The tight server: one worker, one queued job, 5-render burst.
        E2eOptions tightWorld;
        tightWorld.space = "tight";
        tightWorld.plan = "free";
        tightWorld.ownerEmail = "owner@tight.test";
        tightWorld.keyName.clear();
        tightWorld.config = "{\"http\": {\"workerThreads\": 1, \"workerQueueLimit\": 1},\n"
                            "                       \"render\": {\"rateLimit\": {\"perSecond\": 0.5, \"burst\": 12}}}";
        tightWorld.login = false;
        QVERIFY2(m_tightE2e.setUp(tightWorld), m_tightE2e.failure());
    }

    /// No token, key or session handed out appears in the server's log.
    void verifySecretsNeverLogged()
    {
        const QByteArray log = m_e2e.server().log();
        for (const QString &s : {m_freeToken, m_proToken, m_session})
            QVERIFY(!log.contains(s.toLatin1()));
    }
};
