// API key scopes (docs/api.md, "API key scopes") against the real `imprint serve`: a key
// carries "render" (the default) and/or "content"; with "content" it may create and
// publish templates and pages without a session; a key lacking a scope gets 403
// missing_scope. Keys made before scopes existed keep "render" (migration 5).
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QJsonArray>
#include <QTest>

namespace {

const QByteArray kTemplate = R"({"name": "Flat", "width": 80, "height": 40, "rendererType": "takumi",
  "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
           "backgroundColor": "#336699"}}}})";

Headers bearer(const QByteArray &token)
{
    return {{"Authorization", "Bearer " + token}};
}

} // namespace

class TestApiKeyScopes : public QObject
{
    Q_OBJECT

private:
    E2eFixture m_e2e;
    QByteArray m_session;

    quint16 port() const { return m_e2e.port(); }
    /// A new key with `scopes` (absent: the default), as POST /tokens/api-keys answers it.
    QJsonObject createKey(const QJsonValue &scopes)
    {
        QJsonObject body{{"name", "k"}};
        if (!scopes.isUndefined())
            body.insert("scopes", scopes);
        const HttpReply r = httpRequest(port(), "POST", "/api/v1/tokens/api-keys", json(body), bearer(m_session));
        return r.status == 201 ? r.data() : QJsonObject{{"status", r.status}, {"body", QString::fromUtf8(r.body)}};
    }

private slots:
    void initTestCase()
    {
        E2eOptions world;
        world.keyName.clear(); // the tests count the keys they make
        QVERIFY2(m_e2e.setUp(world), m_e2e.failure());
        m_session = m_e2e.session();
        QVERIFY(!m_session.isEmpty());
    }

    void defaultScopeIsRender()
    {
        const QJsonObject key = createKey(QJsonValue::Undefined);
        QCOMPARE(key.value("scopes").toArray(), QJsonArray{"render"});
        const QByteArray token = key.value("token").toString().toLatin1();
        // It renders, and may not touch content.
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&width=20&height=10", {}, bearer(token))
                     .status,
                 200);
        const HttpReply r = httpRequest(port(), "POST", "/api/v1/templates", kTemplate, bearer(token));
        VERIFY_PROBLEM(r, 403);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("missing_scope"));
        QVERIFY(r.json().value("detail").toString().contains("'content'"));
        // The listing shows scopes too.
        const HttpReply list = httpRequest(port(), "GET", "/api/v1/tokens/api-keys/index", {}, bearer(m_session));
        QCOMPARE(list.data().value("list").toArray().first().toObject().value("scopes").toArray(),
                 QJsonArray{"render"});
    }

    void contentScopeCreatesAndPublishesWithoutSession()
    {
        const QJsonObject key = createKey(QJsonArray{"content"});
        QCOMPARE(key.value("scopes").toArray(), QJsonArray{"content"});
        const QByteArray token = key.value("token").toString().toLatin1();
        HttpReply r = httpRequest(port(), "POST", "/api/v1/templates", kTemplate, bearer(token));
        QCOMPARE(r.status, 201);
        const QString templateId = r.data().value("id").toString();
        r = httpRequest(port(), "POST", "/api/v1/pages", json({{"templateId", templateId}}), bearer(token));
        QCOMPARE(r.status, 201);
        const QByteArray pageId = r.data().value("id").toString().toLatin1();
        r = httpRequest(port(), "POST", "/api/v1/pages/" + pageId + "/publish", {}, bearer(token));
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().value("published").toBool());
        // Without "render" it may not render the page it published.
        r = httpRequest(port(), "GET", "/api/v1/render?pageId=" + pageId, {}, bearer(token));
        VERIFY_PROBLEM(r, 403);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("missing_scope"));
        QVERIFY(r.json().value("detail").toString().contains("'render'"));
        // A key with both does both.
        const QByteArray both = createKey(QJsonArray{"render", "content"}).value("token").toString().toLatin1();
        QCOMPARE(
            httpRequest(port(), "GET", "/api/v1/render?pageId=" + pageId + "&output=binary", {}, bearer(both)).status,
            200);
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/pages", {}, bearer(both)).status, 200);
    }

    // Fonts and assets are content: a render-only key is refused them, a content key manages
    // them in its own space (docs/fonts-and-images.md).
    void fontAndAssetRoutesNeedTheContentScope()
    {
        const QByteArray renderOnly = createKey(QJsonArray{"render"}).value("token").toString().toLatin1();
        const QByteArray content = createKey(QJsonArray{"content"}).value("token").toString().toLatin1();
        for (const QByteArray &path : {QByteArray("/api/v1/fonts"), QByteArray("/api/v1/assets")}) {
            HttpReply r = httpRequest(port(), "GET", path, {}, bearer(renderOnly));
            VERIFY_PROBLEM(r, 403);
            QCOMPARE(r.json().value("code").toString(), QStringLiteral("missing_scope"));
            r = httpRequest(port(), "POST", path, "x", bearer(renderOnly));
            VERIFY_PROBLEM(r, 403);
            r = httpRequest(port(), "DELETE", path + "/none", {}, bearer(renderOnly));
            VERIFY_PROBLEM(r, 403);
            QCOMPARE(httpRequest(port(), "GET", path, {}, bearer(content)).status, 200);
            r = httpRequest(port(), "DELETE", path + "/none", {}, bearer(content));
            VERIFY_PROBLEM(r, 404);
        }
        // A content key uploads: a body that is no image is the upload's 400, not a 403.
        const HttpReply r = httpRequest(port(), "POST", "/api/v1/assets", "not an image", bearer(content));
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("invalid_image"));
    }

    void badScopes()
    {
        for (const QJsonValue &scopes : {QJsonValue(QJsonArray{"admin"}), QJsonValue(QJsonArray{}),
                                         QJsonValue(QStringLiteral("render")), QJsonValue(QJsonArray{1})}) {
            const QJsonObject answer = createKey(scopes);
            QCOMPARE(answer.value("status").toInt(), 400);
            QCOMPARE(
                QJsonDocument::fromJson(answer.value("body").toString().toUtf8()).object().value("field").toString(),
                QStringLiteral("scopes"));
        }
        // An invalid key is still 401, not 403.
        VERIFY_PROBLEM(httpRequest(port(), "GET", "/api/v1/pages", {}, bearer("imp_nope")), 401);
    }

    /// `imprint key create --scopes` goes through the same service as the HTTP route: a
    /// content key made by the CLI manages templates over HTTP and may not render.
    void cliCreatesScopedKeys()
    {
        QByteArray out;
        QCOMPARE(runCli({"key", "create", "--space", "alpha", "--name", "pipeline", "--scopes", "content", "--json",
                         "--data", m_e2e.dataDir()},
                        {}, &out),
                 0);
        const QJsonObject key = QJsonDocument::fromJson(out).object();
        QCOMPARE(key.value("scopes").toArray(), QJsonArray{"content"});
        const QByteArray token = key.value("token").toString().toLatin1();
        HttpReply r = httpRequest(port(), "POST", "/api/v1/templates", kTemplate, bearer(token));
        QCOMPARE(r.status, 201);
        r = httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&width=20&height=10", {}, bearer(token));
        VERIFY_PROBLEM(r, 403);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("missing_scope"));

        // Both scopes, spaces around the comma allowed; `key list` shows them.
        QCOMPARE(runCli({"key", "create", "--space", "alpha", "--name", "both", "--scopes", "render, content", "--data",
                         m_e2e.dataDir()}),
                 0);
        QCOMPARE(runCli({"key", "list", "--space", "alpha", "--json", "--data", m_e2e.dataDir()}, {}, &out), 0);
        QMap<QString, QJsonArray> scopesByName;
        for (const QJsonValue &k : QJsonDocument::fromJson(out).object().value("keys").toArray())
            scopesByName.insert(k["name"].toString(), k["scopes"].toArray());
        QCOMPARE(scopesByName.value("pipeline"), QJsonArray{"content"});
        QCOMPARE(scopesByName.value("both"), (QJsonArray{"render", "content"}));
        QCOMPARE(runCli({"key", "list", "--space", "alpha", "--data", m_e2e.dataDir()}, {}, &out), 0);
        QVERIFY2(out.contains("render,content"), out.constData());

        // Names the service does not know are refused, like over HTTP.
        QCOMPARE(runCli({"key", "create", "--space", "alpha", "--name", "bad", "--scopes", "admin", "--json", "--data",
                         m_e2e.dataDir()},
                        {}, &out),
                 1);
        QCOMPARE(QJsonDocument::fromJson(out).object().value("error").toObject().value("code").toString(),
                 QStringLiteral("invalid_scopes"));
    }
};

QTEST_GUILESS_MAIN(TestApiKeyScopes)
#include "tst_api_key_scopes.moc"
