// End-to-end tests of the render API's server side (docs/api.md) against the real
// `imprint serve` (render_api_world.h): identical renders run once, a client that goes
// away mid-render, the worker queue and the rate limit, the OpenAPI document against the
// route table, and the demo banner's curl lines replayed.
#include "curl_line.h"
#include "render_api_world.h"

#include "server/app/service.h"
#include "server/http/router.h"
#include "server/patterns/patterns.h"

#include <QDateTime>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QXmlStreamReader>

#include <memory>
#include <vector>

class TestRenderApiServer : public QObject, protected RenderApiWorld
{
    Q_OBJECT

private slots:
    void initTestCase() { setUpWorld(true); }

    void concurrentIdenticalRendersRunOnce()
    {
        const quint64 before = executed(port());
        const QByteArray body
            = json({{"pageId", m_pageId},
                    {"format", "webp"},
                    {"tweaks",
                     QJsonObject{{"title", "Single flight " + QString::number(QDateTime::currentMSecsSinceEpoch())}}}});
        std::vector<std::unique_ptr<QTcpSocket>> sockets;
        for (int i = 0; i < 10; ++i) {
            auto s = std::make_unique<QTcpSocket>();
            s->connectToHost(QHostAddress::LocalHost, port());
            QVERIFY(s->waitForConnected(5000));
            sockets.push_back(std::move(s));
        }
        for (auto &s : sockets) {
            s->write("POST /api/v1/render HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_freeToken.toLatin1()
                     + "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
                     + "\r\n\r\n" + body);
            s->flush();
        }
        QSet<QString> shas;
        for (auto &s : sockets) {
            const HttpReply r = readReply(*s, 20000);
            QCOMPARE(r.status, 200);
            shas.insert(r.json().value("file").toObject().value("sha256").toString());
        }
        QCOMPARE(shas.size(), 1);
        QCOMPARE(executed(port()) - before, quint64(1));
    }

    void clientDisconnectMidRender()
    {
        for (int i = 0; i < 5; ++i) {
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, port());
            QVERIFY(s.waitForConnected(5000));
            const QByteArray body = json({{"pattern", "hexagons-ocean"},
                                          {"width", 2400},
                                          {"height", 2400},
                                          {"cache", false},
                                          {"format", "webp"},
                                          {"lossless", true}});
            s.write("POST /api/v1/render HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + m_proToken.toLatin1()
                    + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            s.waitForBytesWritten(2000);
            QTest::qWait(5);
            s.abort();
        }
        QTest::qWait(300);
        QVERIFY(m_e2e.server().running());
        QCOMPARE(get("/api/v1/health").status, 200);
        QCOMPARE(render({{"pageId", m_pageId}}, m_freeToken).status, 200);
    }

    void queueFullAndRateLimit()
    {
        const QString token = QString::fromLatin1(m_tightE2e.createKey("tight", "test"));
        QVERIFY(!token.isEmpty());
        // 8 distinct heavy renders at once against 1 worker + 1 queue slot: some get 503.
        std::vector<std::unique_ptr<QTcpSocket>> sockets;
        for (int i = 0; i < 8; ++i) {
            auto s = std::make_unique<QTcpSocket>();
            s->connectToHost(QHostAddress::LocalHost, m_tightE2e.port());
            QVERIFY(s->waitForConnected(5000));
            const QByteArray body = json({{"pattern", "hexagons-ocean"},
                                          {"width", 1000},
                                          {"height", 1000 - i},
                                          {"cache", false},
                                          {"format", "webp"},
                                          {"lossless", true}});
            s->write("POST /api/v1/render HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token.toLatin1()
                     + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            s->flush();
            sockets.push_back(std::move(s));
        }
        int busy = 0, ok = 0;
        for (auto &s : sockets) {
            const HttpReply r = readReply(*s, 30000);
            if (r.status == 503) {
                VERIFY_PROBLEM(r, 503);
                QVERIFY(!r.header("Retry-After").isEmpty());
                ++busy;
            } else if (r.status == 200) {
                ++ok;
            }
        }
        QVERIFY2(busy > 0 && ok > 0, qPrintable(QStringLiteral("busy %1 ok %2").arg(busy).arg(ok)));
        // The burst (12) is spent by now: the next renders get 429 with Retry-After.
        HttpReply r;
        for (int i = 0; i < 10 && r.status != 429; ++i)
            r = render({{"pattern", "dots-sunset"}, {"width", 10}, {"height", 10}}, token, m_tightE2e.port());
        VERIFY_PROBLEM(r, 429);
        QVERIFY(r.header("Retry-After").toInt() >= 1);
    }

    // ------------------------------------------------------------ OpenAPI

    void openApiListsEveryRoute()
    {
        const HttpReply r = get("/api/v1/openapi.json");
        QCOMPARE(r.status, 200);
        const QJsonObject doc = r.json();
        QCOMPARE(doc.value("openapi").toString(), QString("3.1.0"));
        const QJsonObject paths = doc.value("paths").toObject();
        // The routes the server really registers, from the same code serve.cpp runs.
        QTemporaryDir dir;
        auto settings = imprint::store::DatabaseSettings::fromUrl({}, dir.path());
        QVERIFY(settings);
        imprint::store::Database db(*settings);
        const auto config = imprint::store::Config::defaults();
        auto catalog = imprint::render::PatternCatalog::load(QStringLiteral(IMPRINT_SOURCE_DIR "/resources/patterns"));
        QVERIFY2(catalog, qPrintable(catalog.error_or(QString())));
        imprint::http::Router router;
        imprint::render::RenderContext renderContext;
        imprint::app::Services services(db, config, dir.path(), *catalog, renderContext);
        services.registerRoutes(router);
        const auto routes = router.routes();
        QVERIFY(routes.size() >= 25);
        for (const auto &[method, pattern] : routes) {
            const QJsonObject item = paths.value(pattern).toObject();
            QVERIFY2(item.contains(QString::fromLatin1(method.toLower())),
                     qPrintable(
                         QStringLiteral("%1 %2 missing from openapi.json").arg(QString::fromLatin1(method), pattern)));
        }
        // And nothing documented that the server does not route.
        int documented = 0;
        for (auto it = paths.begin(); it != paths.end(); ++it)
            for (const char *m : {"get", "post", "put", "delete"})
                documented += it.value().toObject().contains(m) ? 1 : 0;
        QCOMPARE(documented, int(routes.size()));
    }

    /// What a property-based tester (schemathesis) found the document missing: the server
    /// refuses these empty strings with a 400, so the document says minLength 1; a logout
    /// without a session is a 200, so the document lists no authentication as an option.
    void openApiSaysWhatTheServerRefuses()
    {
        const QJsonObject paths = get("/api/v1/openapi.json").json().value("paths").toObject();
        auto operation = [&](const char *path, const char *method) {
            return paths.value(QLatin1String(path)).toObject().value(QLatin1String(method)).toObject();
        };
        const QJsonObject login = operation("/api/v1/auth/login", "post")
                                      .value("requestBody").toObject().value("content").toObject()
                                      .value("application/json").toObject().value("schema").toObject()
                                      .value("properties").toObject();
        for (const char *field : {"email", "password"})
            QVERIFY2(login.value(QLatin1String(field)).toObject().value("minLength").toInt() == 1, field);
        VERIFY_PROBLEM(httpRequest(port(), "POST", "/api/v1/auth/login", R"({"email":"","password":"x"})"), 400);
        auto queryMinLength = [&](const char *path, const char *name) {
            for (const QJsonValue &p : operation(path, "get").value("parameters").toArray())
                if (p.toObject().value("name").toString() == QLatin1String(name))
                    return p.toObject().value("schema").toObject().value("minLength").toInt();
            return -1;
        };
        QCOMPARE(queryMinLength("/api/v1/render", "kid"), 1);
        QCOMPARE(queryMinLength("/api/v1/render", "sig"), 1);
        QCOMPARE(queryMinLength("/api/v1/pages/{id}/meta", "signingKey"), 1);
        VERIFY_PROBLEM(get("/api/v1/render?pattern=dots-sunset&kid=&sig=abc"), 400);
        const QJsonArray security = operation("/api/v1/auth/logout", "post").value("security").toArray();
        QVERIFY(security.contains(QJsonObject()));
        QCOMPARE(httpRequest(port(), "POST", "/api/v1/auth/logout", {}).status, 200);
    }

    void demoBannerLinesWork()
    {
        // `imprint serve --demo` prints curl lines to paste in order: replay every one
        // against a fresh demo server and check each answer, and each saved image.
        QTemporaryDir dir;
        ServerProcess demo;
        QVERIFY2(demo.start(dir.path(), {"--demo"}), demo.log().constData());
        // The banner is one write: once its middle is there, all of it is.
        QTRY_VERIFY_WITH_TIMEOUT(demo.log().contains("# demo pages"), 30000);
        QTest::qWait(200);
        QString text = QString::fromUtf8(demo.log());
        text = text.mid(text.indexOf("== Imprint demo"));
        text.replace("\\\n", " "); // continuation lines
        QByteArray cookie;
        int images = 0, lines = 0;
        for (const QString &line : text.split('\n')) {
            if (!line.startsWith("curl "))
                continue;
            ++lines;
            const auto c = parseCurl(line);
            QVERIFY2(c, qPrintable(line));
            QCOMPARE(c->url.port(), int(demo.port()));
            Headers headers;
            for (const auto &h : c->headers)
                if (h.first.compare("Content-Type", Qt::CaseInsensitive) != 0) // httpRequest sends it
                    headers.append(h);
            if (c->sendCookie)
                headers.append({"Cookie", cookie});
            const QByteArray target
                = c->url.path(QUrl::FullyEncoded).toLatin1()
                  + (c->url.hasQuery() ? "?" + c->url.query(QUrl::FullyEncoded).toLatin1() : QByteArray());
            const HttpReply r = httpRequest(demo.port(), c->method, target, c->body, headers);
            QVERIFY2(r.status == 200 || r.status == 201,
                     qPrintable(QString::number(r.status) + ' ' + line + '\n' + QString::fromUtf8(r.body.left(300))));
            if (c->saveCookie) {
                cookie = r.header("Set-Cookie").split(';').value(0);
                QVERIFY(!cookie.isEmpty());
            }
            if (c->output.isEmpty())
                continue;
            ++images;
            if (c->output.endsWith(".png")) {
                QVERIFY2(!decode(r.body, "png").isNull(), qPrintable(c->output));
            } else if (c->output.endsWith(".webp")) {
                QVERIFY2(webpSize(r.body).isValid(), qPrintable(c->output));
            } else {
                QVERIFY2(c->output.endsWith(".svg"), qPrintable(c->output));
                QXmlStreamReader xml(r.body);
                QVERIFY(xml.readNextStartElement());
                QCOMPARE(xml.name().toString(), QString("svg"));
            }
        }
        QVERIFY2(lines >= 10 && images >= 4, qPrintable(QStringLiteral("%1 lines, %2 images").arg(lines).arg(images)));
        // The last line revoked a key of its own: the demo key the docs' walk-through uses
        // still renders, and the spare key is gone from the active keys.
        const QString token = text.section("API key:", 1).trimmed().section(' ', 0, 0);
        QVERIFY(token.startsWith("imp_"));
        QCOMPARE(httpRequest(demo.port(), "GET", "/api/v1/tokens/verify", {}, bearer(token)).status, 200);
        const QString spareId = text.section("/api/v1/tokens/api-keys/", -1).section('\n', 0, 0).trimmed();
        QVERIFY2(spareId.startsWith("key_") && !text.section("API key:", 1).section('\n', 0, 0).contains(spareId),
                 qPrintable(spareId));
        const HttpReply keys = httpRequest(demo.port(), "GET", "/api/v1/tokens/api-keys/index?perPage=100", {},
                                           {{"Cookie", cookie}});
        QCOMPARE(keys.status, 200);
        QStringList names, ids;
        for (const QJsonValue &k : keys.data().value("list").toArray()) {
            names.append(k.toObject().value("name").toString());
            ids.append(k.toObject().value("id").toString());
        }
        QVERIFY2(names.contains("demo") && !ids.contains(spareId), keys.body.constData());
    }

    void secretsNeverLogged() { verifySecretsNeverLogged(); }
};

QTEST_GUILESS_MAIN(TestRenderApiServer)
#include "tst_render_api_server.moc"
