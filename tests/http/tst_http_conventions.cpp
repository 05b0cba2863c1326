// End-to-end tests of conventions every route shares (docs/api.md, "Responses and
// errors"): unknown fields are refused naming the field, with a "did you mean" hint.
// They run against the real `imprint serve` on an ephemeral port.
#include "httpclient.h"
#include "render_api_helpers.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using Headers = QList<QPair<QByteArray, QByteArray>>;

namespace {

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
    QTemporaryDir m_dir;
    ServerProcess m_server;
    QString m_session;
    QByteArray m_key;
    QString m_templateId;
    QString m_pageId;

    quint16 port() const { return m_server.port(); }
    static Headers bearer(const QString &token) { return {{"Authorization", "Bearer " + token.toLatin1()}}; }
    QString cli(const QStringList &args)
    {
        QByteArray out;
        runCli(args + QStringList{"--data", m_dir.path()}, {}, &out);
        return QString::fromUtf8(out).trimmed();
    }
    static QString idOf(const QString &jsonText)
    {
        return QJsonDocument::fromJson(jsonText.toUtf8()).object().value("id").toString();
    }
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
        QVERIFY(m_dir.isValid());
        QCOMPARE(runCli({"user", "add", "--email", "owner@alpha.test", "--space", "alpha", "--role", "owner",
                         "--data", m_dir.path()},
                        "password123\npassword123\n"),
                 0);
        QFile tf(m_dir.path() + "/template.json");
        QVERIFY(tf.open(QIODevice::WriteOnly));
        tf.write(kTemplate);
        tf.close();
        m_templateId = idOf(cli({"template", "import", tf.fileName(), "--space", "alpha", "--json"}));
        QVERIFY(m_templateId.startsWith("tpl_"));
        m_pageId = idOf(cli({"page", "create", "--space", "alpha", "--template", m_templateId, "--publish", "--json"}));
        QVERIFY(m_pageId.startsWith("pg_"));
        m_key = QJsonDocument::fromJson(cli({"key", "create", "--space", "alpha", "--name", "t", "--json"}).toUtf8())
                    .object()
                    .value("token")
                    .toString()
                    .toLatin1();
        QVERIFY(m_key.startsWith("imp_"));
        QVERIFY2(m_server.start(m_dir.path()), m_server.log().constData());
        m_session = httpRequest(port(), "POST", "/api/v1/auth/login",
                                json({{"email", "owner@alpha.test"}, {"password", "password123"}}))
                        .data()
                        .value("token")
                        .toString();
        QVERIFY(!m_session.isEmpty());
    }

    // Issue 15: a misspelt `format` used to be ignored and the default PNG rendered.
    void misspeltRenderFieldIsRefused()
    {
        const HttpReply r = httpRequest(
            port(), "POST", "/api/v1/render",
            json({{"pageId", m_pageId}, {"fromat", "webp"}, {"output", "binary"}}), bearer(m_key));
        verifyUnknown(r, "fromat", "format");
        QVERIFY(!r.body.startsWith("\x89PNG"));
        QCOMPARE(r.json().value("detail").toString(),
                 QStringLiteral("'fromat' is not a field of a render request; did you mean 'format'?"));
        // Spelt right, the same request renders WebP.
        const HttpReply ok = httpRequest(port(), "POST", "/api/v1/render",
                                         json({{"pageId", m_pageId}, {"format", "webp"}, {"output", "binary"}}),
                                         bearer(m_key));
        QCOMPARE(ok.status, 200);
        QCOMPARE(ok.header("Content-Type"), QByteArray("image/webp"));
    }

    void unknownQueryParameterIsRefused()
    {
        verifyUnknown(httpRequest(port(), "GET", "/api/v1/render?pageId=" + m_pageId.toLatin1() + "&widht=100",
                                  {}, bearer(m_key)),
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
        verifyUnknown(httpRequest(port(), "PUT", "/api/v1/pages/" + m_pageId.toLatin1(),
                                  json({{"publish", true}}), bearer(m_session)),
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
};

QTEST_GUILESS_MAIN(TestHttpConventions)
#include "tst_http_conventions.moc"
