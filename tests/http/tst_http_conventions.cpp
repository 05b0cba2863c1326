// End-to-end tests of conventions every route shares (docs/api.md, "Responses and
// errors"): unknown fields are refused naming the field, with a "did you mean" hint; CORS
// for the origins of `http.cors.origins`; JSON successes in the {"success", "data"} envelope. They run against the real `imprint serve` on
// an ephemeral port.
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QByteArray kOrigin = "https://app.example";

/// Writes `config` as DIR/config.json.
bool writeConfig(const QString &dir, const QByteArray &config)
{
    QFile f(dir + "/config.json");
    return f.open(QIODevice::WriteOnly) && f.write(config) == config.size();
}

/// Whether `r` carries any Access-Control-* header.
bool hasCorsHeaders(const HttpReply &r)
{
    for (const auto &h : r.headers)
        if (h.first.toLower().startsWith("access-control-"))
            return true;
    return false;
}

const QByteArray kTemplate = R"({"name": "Card", "width": 200, "height": 100, "rendererType": "takumi",
  "variables": [{"name": "title", "type": "text", "default": "Hello"}],
  "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
           "backgroundColor": "#336699", "color": "#ffffff", "fontSize": 20, "fontFamily": "DejaVu Sans"},
           "children": ["{{title}}"]}}})";

} // namespace

class TestHttpConventions : public QObject
{
    Q_OBJECT

private:
    E2eFixture m_e2e;
    QString m_session;
    QByteArray m_key;
    QString m_templateId;
    QString m_pageId;

    quint16 port() const { return m_e2e.port(); }
    static Headers bearer(const QString &token) { return {{"Authorization", "Bearer " + token.toLatin1()}}; }
    /// Checks `r` is 400 unknown_field naming `field`, and that its detail ends with the
    /// hint for `suggestion` (or has none when `suggestion` is empty).
    static void verifyUnknown(const HttpReply &r, const QString &field, const QString &suggestion)
    {
        VERIFY_PROBLEM(r, 400);
        const QJsonObject p = r.json();
        QCOMPARE(p.value("code").toString(), QStringLiteral("unknown_field"));
        QCOMPARE(p.value("field").toString(), field);
        const QString detail = p.value("detail").toString();
        QVERIFY2(detail.startsWith("'" + field + "' is not a field of "), qPrintable(detail));
        if (suggestion.isEmpty())
            QVERIFY2(!detail.contains("did you mean"), qPrintable(detail));
        else
            QVERIFY2(detail.endsWith("; did you mean '" + suggestion + "'?"), qPrintable(detail));
    }

private slots:
    void initTestCase()
    {
        E2eOptions world;
        world.ownerEmail = "owner@alpha.test";
        world.pageTemplate = kTemplate;
        // moc cannot read a raw string inside a macro's arguments.
        world.config = R"({"http": {"cors": {"origins": ["https://app.example/"], "maxAgeSeconds": 300}}})";
        QVERIFY2(m_e2e.setUp(world), m_e2e.failure());
        m_templateId = QString::fromLatin1(m_e2e.templateId());
        QVERIFY(m_templateId.startsWith("tpl_"));
        m_pageId = QString::fromLatin1(m_e2e.pageId());
        QVERIFY(m_pageId.startsWith("pg_"));
        m_key = m_e2e.key();
        QVERIFY(m_key.startsWith("imp_"));
        m_session = QString::fromLatin1(m_e2e.session());
        QVERIFY(!m_session.isEmpty());
    }

    // Issue 15: a misspelt `format` used to be ignored and the default PNG rendered.
    void misspeltRenderFieldIsRefused()
    {
        const HttpReply r
            = httpRequest(port(), "POST", "/api/v1/render",
                          json({{"pageId", m_pageId}, {"fromat", "webp"}, {"output", "binary"}}), bearer(m_key));
        verifyUnknown(r, "fromat", "format");
        QVERIFY(!r.body.startsWith("\x89PNG"));
        QCOMPARE(r.json().value("detail").toString(),
                 QStringLiteral("'fromat' is not a field of a render request; did you mean 'format'?"));
        // Spelt right, the same request renders WebP.
        const HttpReply ok
            = httpRequest(port(), "POST", "/api/v1/render",
                          json({{"pageId", m_pageId}, {"format", "webp"}, {"output", "binary"}}), bearer(m_key));
        QCOMPARE(ok.status, 200);
        QCOMPARE(ok.header("Content-Type"), QByteArray("image/webp"));
    }

    void unknownQueryParameterIsRefused()
    {
        verifyUnknown(httpRequest(port(), "GET", "/api/v1/render?pageId=" + m_pageId.toLatin1() + "&widht=100", {},
                                  bearer(m_key)),
                      "widht", "width");
        // Far from every name: no hint.
        verifyUnknown(httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&colour=red"), "colour", {});
    }

    // tweaks.NAME and api_token are query parameters a render knows.
    void knownQueryParametersStillRender()
    {
        const HttpReply r = httpRequest(port(), "GET",
                                        "/api/v1/render?pageId=" + m_pageId.toLatin1()
                                            + "&tweaks.title=Hi&output=binary&api_token=" + m_key);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/png"));
    }

    void unknownPageAndKeyFieldsAreRefused()
    {
        verifyUnknown(httpRequest(port(), "POST", "/api/v1/pages",
                                  json({{"templateId", m_templateId}, {"varibles", QJsonObject{}}}), bearer(m_session)),
                      "varibles", "variables");
        verifyUnknown(httpRequest(port(), "PUT", "/api/v1/pages/" + m_pageId.toLatin1(), json({{"publish", true}}),
                                  bearer(m_session)),
                      "publish", {});
        verifyUnknown(httpRequest(port(), "POST", "/api/v1/tokens/api-keys",
                                  json({{"name", "ci"}, {"expires", "2030-01-01T00:00:00Z"}}), bearer(m_session)),
                      "expires", "expiresAt");
        verifyUnknown(httpRequest(port(), "POST", "/api/v1/signing-keys", json({{"nmae", "blog"}}), bearer(m_session)),
                      "nmae", "name");
        verifyUnknown(httpRequest(port(), "POST", "/api/v1/templates",
                                  json({{"document", QJsonDocument::fromJson(kTemplate).object()}, {"publish", true}}),
                                  bearer(m_session)),
                      "publish", {});
    }

    // ---- the success envelope

    /// `body` is {"success": true, "data": {…}} and, for older clients, has every member
    /// of `data` at the top level too.
    static void verifyEnvelope(const QJsonObject &body, const char *member)
    {
        QCOMPARE(body.value("success").toBool(), true);
        const QJsonObject data = body.value("data").toObject();
        QVERIFY2(data.contains(member), QJsonDocument(body).toJson().constData());
        for (auto it = data.begin(); it != data.end(); ++it)
            QCOMPARE(body.value(it.key()), it.value());
    }

    void renderAnswersAreEnveloped()
    {
        HttpReply r = httpRequest(port(), "POST", "/api/v1/render", json({{"pageId", m_pageId}}), bearer(m_key));
        QCOMPARE(r.status, 200);
        verifyEnvelope(r.json(), "file");
        QCOMPARE(r.data().value("pageId").toString(), m_pageId);
        QVERIFY(r.data().value("timings").isObject());
        r = httpRequest(port(), "POST", "/api/v1/render", json({{"pageId", m_pageId}, {"output", "dataurl"}}),
                        bearer(m_key));
        QCOMPARE(r.status, 200);
        verifyEnvelope(r.json(), "dataUrl");
        r = httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&width=64&height=32", {},
                        {{"Accept", "application/json"}});
        QCOMPARE(r.status, 200);
        verifyEnvelope(r.json(), "pattern");
        QCOMPARE(r.data().value("width").toInt(), 64);
    }

    void healthIsEnveloped()
    {
        const HttpReply r = httpRequest(port(), "GET", "/api/v1/health");
        QCOMPARE(r.status, 200);
        verifyEnvelope(r.json(), "status");
        QCOMPARE(r.data().value("status").toString(), QStringLiteral("ok"));
        QCOMPARE(r.data().value("database").toString(), QStringLiteral("ok"));
    }

    // ---- CORS

    void preflightOfListedOrigin()
    {
        const HttpReply r = httpRequest(port(), "OPTIONS", "/api/v1/render", {},
                                        {{"Origin", kOrigin},
                                         {"Access-Control-Request-Method", "POST"},
                                         {"Access-Control-Request-Headers", "authorization, content-type"}});
        QCOMPARE(r.status, 204);
        QCOMPARE(r.header("Access-Control-Allow-Origin"), kOrigin);
        QCOMPARE(r.header("Access-Control-Allow-Methods"), QByteArray("POST, GET, HEAD"));
        QCOMPARE(r.header("Access-Control-Allow-Headers"), QByteArray("Authorization, Content-Type"));
        QCOMPARE(r.header("Access-Control-Max-Age"), QByteArray("300"));
        QCOMPARE(r.header("Vary"), QByteArray("Origin"));
        QVERIFY(r.header("Access-Control-Allow-Credentials").isEmpty());
        QVERIFY(r.body.isEmpty());
        // Any route, whatever its authentication: the preflight carries no credentials.
        const HttpReply keys = httpRequest(port(), "OPTIONS", "/api/v1/tokens/api-keys/key_x", {},
                                           {{"Origin", kOrigin}, {"Access-Control-Request-Method", "DELETE"}});
        QCOMPARE(keys.status, 204);
        QCOMPARE(keys.header("Access-Control-Allow-Methods"), QByteArray("DELETE"));
        // No route: 404 as for any method.
        VERIFY_PROBLEM(httpRequest(port(), "OPTIONS", "/api/v1/nope", {},
                                   {{"Origin", kOrigin}, {"Access-Control-Request-Method", "GET"}}),
                       404);
    }

    void preflightOfUnlistedOrigin()
    {
        const HttpReply r
            = httpRequest(port(), "OPTIONS", "/api/v1/render", {},
                          {{"Origin", "https://evil.example"}, {"Access-Control-Request-Method", "POST"}});
        QCOMPARE(r.status, 204);
        QVERIFY2(!hasCorsHeaders(r), r.body.constData());
    }

    void actualResponsesOfListedOrigin()
    {
        HttpReply r = httpRequest(port(), "GET", "/api/v1/health", {}, {{"Origin", kOrigin}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Access-Control-Allow-Origin"), kOrigin);
        QCOMPARE(r.header("Vary"), QByteArray("Origin"));
        QVERIFY(r.header("Access-Control-Allow-Credentials").isEmpty());
        // Errors too, so the page's script can read them.
        r = httpRequest(port(), "POST", "/api/v1/render", json({{"pageId", m_pageId}}), {{"Origin", kOrigin}});
        VERIFY_PROBLEM(r, 401);
        QCOMPARE(r.header("Access-Control-Allow-Origin"), kOrigin);
        // And renders answered later, from the worker pool.
        r = httpRequest(port(), "GET", "/api/v1/render?pageId=" + m_pageId.toLatin1() + "&output=binary", {},
                        {{"Origin", kOrigin}, {"Authorization", "Bearer " + m_key}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Access-Control-Allow-Origin"), kOrigin);
    }

    void actualResponsesOfOtherOrigins()
    {
        QVERIFY(
            !hasCorsHeaders(httpRequest(port(), "GET", "/api/v1/health", {}, {{"Origin", "https://evil.example"}})));
        // A prefix of a listed origin is another origin.
        QVERIFY(!hasCorsHeaders(
            httpRequest(port(), "GET", "/api/v1/health", {}, {{"Origin", "https://app.example.evil.example"}})));
        QVERIFY(!hasCorsHeaders(httpRequest(port(), "GET", "/api/v1/health")));
    }

    void wildcardAndDefault()
    {
        QTemporaryDir anyDir, noneDir;
        const QByteArray config = R"({"http": {"cors": {"origins": ["*"]}}})";
        QVERIFY(writeConfig(anyDir.path(), config));
        ServerProcess any, none;
        QVERIFY2(any.start(anyDir.path()), any.log().constData());
        QVERIFY2(none.start(noneDir.path()), none.log().constData());

        HttpReply r = httpRequest(any.port(), "GET", "/api/v1/health", {}, {{"Origin", "https://x.example"}});
        QCOMPARE(r.header("Access-Control-Allow-Origin"), QByteArray("*"));
        QVERIFY(r.header("Access-Control-Allow-Credentials").isEmpty());
        r = httpRequest(any.port(), "OPTIONS", "/api/v1/health", {},
                        {{"Origin", "https://x.example"}, {"Access-Control-Request-Method", "GET"}});
        QCOMPARE(r.status, 204);
        QCOMPARE(r.header("Access-Control-Allow-Origin"), QByteArray("*"));
        QVERIFY(r.header("Access-Control-Allow-Credentials").isEmpty());

        // Nothing configured: no CORS headers, and OPTIONS is a method no route has.
        r = httpRequest(none.port(), "GET", "/api/v1/health", {}, {{"Origin", kOrigin}});
        QCOMPARE(r.status, 200);
        QVERIFY(!hasCorsHeaders(r));
        r = httpRequest(none.port(), "OPTIONS", "/api/v1/health", {},
                        {{"Origin", kOrigin}, {"Access-Control-Request-Method", "GET"}});
        VERIFY_PROBLEM(r, 405);
        QVERIFY(!hasCorsHeaders(r));
    }
};

QTEST_GUILESS_MAIN(TestHttpConventions)
#include "tst_http_conventions.moc"
