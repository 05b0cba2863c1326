// End-to-end tests of the render API (docs/api.md, docs/templates.md) against the real
// `imprint serve` on an ephemeral port with a temporary data directory
// (render_api_world.h): pattern renders, template and page CRUD, page renders. The server
// under load and the service's contracts are tst_render_api_server.cpp.
#include "render_api_world.h"

#include "../support/card_templates.h"

#include <QBuffer>
#include <QColor>
#include <QDir>
#include <QImage>
#include <QImageReader>
#include <QJsonArray>
#include <QTest>
#include <QUrl>
#include <QXmlStreamReader>

#include <memory>
#include <optional>

class TestRenderApi : public QObject, protected RenderApiWorld
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        setUpWorld(false);
        // The html engine's browser starts with the server; its renders below expect it.
        QVERIFY(m_e2e.waitForHtmlEngine());
    }

    // ------------------------------------------------------------ patterns

    void patternListing()
    {
        const HttpReply r = get("/api/v1/patterns");
        QCOMPARE(r.status, 200);
        const QJsonArray list = r.data().value("list").toArray();
        QVERIFY(list.size() >= 12);
        for (const QJsonValue &p : list) {
            QVERIFY(p.toObject().value("variants").toArray().size() >= 4);
            QCOMPARE(p.toObject().value("defaultSize").toObject().value("width").toInt(), 1000);
        }
    }

    void patternPngAndCache()
    {
        HttpReply r = get("/api/v1/render?pattern=waves-sunset&width=640&height=360");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/png"));
        QCOMPARE(r.header("X-Cache"), QByteArray("MISS"));
        QVERIFY(!r.header("Server-Timing").isEmpty());
        QCOMPARE(decode(r.body, "png").size(), QSize(640, 360));
        const QByteArray first = r.body;

        r = get("/api/v1/render?pattern=waves-sunset&width=640&height=360");
        QCOMPARE(r.header("X-Cache"), QByteArray("HIT"));
        QCOMPARE(r.body, first);
        // POST with the same fields hits the same entry.
        r = render({{"pattern", "waves-sunset"}, {"width", 640}, {"height", 360}, {"mode", "render-only"}}, {});
        QCOMPARE(r.header("X-Cache"), QByteArray("HIT"));
        // cache=false / "false" / 0 skip the lookup.
        r = get("/api/v1/render?pattern=waves-sunset&width=640&height=360&cache=false");
        QCOMPARE(r.header("X-Cache"), QByteArray("BYPASS"));
        QCOMPARE(r.body, first);
        r = render({{"pattern", "waves-sunset"}, {"width", 640}, {"height", 360}, {"cache", "false"}}, {});
        QCOMPARE(r.header("X-Cache"), QByteArray("BYPASS"));
        r = render({{"pattern", "waves-sunset"}, {"width", 640}, {"height", 360}, {"cache", 0}}, {});
        QCOMPARE(r.header("X-Cache"), QByteArray("BYPASS"));
        // Default size 1000×525.
        r = get("/api/v1/render?pattern=dots-ocean");
        QCOMPARE(r.status, 200);
        QCOMPARE(decode(r.body).size(), QSize(1000, 525));
    }

    void patternJsonForm()
    {
        HttpReply r = httpRequest(port(), "POST", "/api/v1/render",
                                  json({{"pattern", "grid-forest"}, {"width", 300}, {"height", 200}}),
                                  {{"Accept", "application/json"}});
        QCOMPARE(r.status, 200);
        const QString url = r.json().value("file").toObject().value("url").toString();
        QVERIFY2(url.contains("/api/v1/files/"), r.body.constData());
        const HttpReply f = get(QUrl(url).path().toLatin1());
        QCOMPARE(f.status, 200);
        QCOMPARE(decode(f.body).size(), QSize(300, 200));
        // render-only always gives bytes.
        r = httpRequest(port(), "POST", "/api/v1/render", json({{"pattern", "grid-forest"}, {"mode", "render-only"}}),
                        {{"Accept", "application/json"}});
        QCOMPARE(r.header("Content-Type"), QByteArray("image/png"));
    }

    void patternPlanLimits()
    {
        HttpReply r = get("/api/v1/render?pattern=dots-sunset&width=1001&height=100");
        VERIFY_PROBLEM(r, 402);
        QCOMPARE(r.json().value("code").toString(), QString("export_size_exceeded"));
        // The detail says how a self-hosted operator lifts the limit.
        QVERIFY2(r.json().value("detail").toString().contains("imprint space set-plan"), r.body.constData());
        r = render({{"pattern", "dots-sunset"}, {"width", 1001}, {"height", 100}}, m_freeToken);
        VERIFY_PROBLEM(r, 402);
        r = render({{"pattern", "dots-sunset"}, {"width", 100}, {"height", 1001}}, m_freeToken);
        VERIFY_PROBLEM(r, 402);
        r = render({{"pattern", "dots-sunset"}, {"width", 1001}, {"height", 100}}, m_proToken);
        QCOMPARE(r.status, 200);
        QCOMPARE(decode(r.body).size(), QSize(1001, 100));
        r = render({{"pattern", "dots-sunset"}, {"width", 2401}, {"height", 100}}, m_proToken);
        VERIFY_PROBLEM(r, 402);
        // However far over the plan a size is, it is the plan's 402, not a 400.
        r = get("/api/v1/render?pattern=dots-sunset&width=1099511627776&height=100");
        VERIFY_PROBLEM(r, 402);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("width"));
        r = render({{"pattern", "dots-sunset"}, {"width", 1099511627776.0}, {"height", 100}}, m_proToken);
        VERIFY_PROBLEM(r, 402);
    }

    // A quality outside 1–100 is refused, naming the field, not clamped in silence.
    void qualityOutOfRange()
    {
        for (const char *q : {"101", "0", "1000", "abc"}) {
            const HttpReply r = get(QByteArray("/api/v1/render?pattern=dots-sunset&format=webp&quality=") + q);
            VERIFY_PROBLEM(r, 400);
            QCOMPARE(r.json().value("field").toString(), QStringLiteral("quality"));
        }
        QCOMPARE(get("/api/v1/render?pattern=dots-sunset&format=webp&quality=100").status, 200);
    }

    void patternBadInput_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<int>("status");
        QTest::newRow("no hyphen") << "waves" << 400;
        QTest::newRow("upper case") << "Waves-sunset" << 400;
        QTest::newRow("underscore") << "waves_sunset" << 400;
        QTest::newRow("three parts") << "waves-sun-set" << 400;
        QTest::newRow("empty variant") << "waves-" << 400;
        QTest::newRow("empty") << "" << 400;
        QTest::newRow("unknown pattern") << "nosuch-sunset" << 404;
        QTest::newRow("unknown variant") << "waves-nosuch" << 404;
    }
    void patternBadInput()
    {
        QFETCH(QString, pattern);
        QFETCH(int, status);
        const HttpReply r = render({{"pattern", pattern}}, {});
        VERIFY_PROBLEM(r, status);
        QCOMPARE(r.json().value("field").toString(), QString("pattern"));
    }

    void renderBodyRules()
    {
        HttpReply r = render({{"pattern", "dots-sunset"}, {"pageId", m_pageId}}, m_freeToken);
        VERIFY_PROBLEM(r, 400);
        r = render({{"width", 10}}, m_freeToken);
        VERIFY_PROBLEM(r, 400);
        r = httpRequest(port(), "POST", "/api/v1/render", "{not json", bearer(m_freeToken));
        VERIFY_PROBLEM(r, 400);
        r = render({{"pattern", "dots-sunset"}, {"width", "abc"}}, {});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QString("width"));
        r = render({{"pattern", "dots-sunset"}, {"width", 0}}, {});
        VERIFY_PROBLEM(r, 400);
        r = render({{"pattern", "dots-sunset"}, {"cache", "maybe"}}, {});
        VERIFY_PROBLEM(r, 400);
        // A token on a pattern render is optional, but must be valid when present.
        r = render({{"pattern", "dots-sunset"}}, "imp_notarealtoken0000000000000000000000000000");
        VERIFY_PROBLEM(r, 401);
    }

    // ------------------------------------------------------------ content CRUD

    void templateAndPageCrud()
    {
        // Unauthenticated → 401.
        VERIFY_PROBLEM(get("/api/v1/templates"), 401);
        // A broken template is refused with the field named.
        HttpReply r = httpRequest(
            port(), "POST", "/api/v1/templates",
            "{\"name\":\"bad\",\"width\":100,\"height\":100,\"variables\":\"nope\",\"root\":{\"type\":\"div\"}}",
            bearer(m_session));
        VERIFY_PROBLEM(r, 400);
        QVERIFY(r.json().value("detail").toString().contains("variables"));
        // A template with only `html` is the html engine's (an existing page as it is): it
        // is stored when it says so and has a size, and drawn by Chromium, this server's
        // default html engine (Qt's rich text has no flexbox: it would draw nothing here).
        const QJsonObject htmlOnly{{"name", "page"},
                                   {"width", 300},
                                   {"height", 200},
                                   {"rendererType", "html"},
                                   {"html", "<body style=\"margin:0;display:flex;height:200px\">"
                                            "<div style=\"flex:1;background:#f00\"></div>"
                                            "<div style=\"flex:1;background:#00f\"></div></body>"}};
        r = httpRequest(port(), "POST", "/api/v1/templates", json(htmlOnly), bearer(m_session));
        QVERIFY2(r.status == 201, r.body.constData());
        r = httpRequest(port(), "POST", "/api/v1/pages", json({{"templateId", r.data().value("id").toString()}}),
                        bearer(m_session));
        QVERIFY2(r.status == 201, r.body.constData());
        r = render({{"pageId", r.data().value("id").toString()}, {"draft", true}, {"output", "binary"}}, m_freeToken);
        QVERIFY2(r.status == 200, r.body.constData());
        const QImage drawn = decode(r.body);
        QCOMPARE(drawn.size(), QSize(300, 200));
        QCOMPARE(drawn.pixelColor(75, 100), QColor(255, 0, 0));
        QCOMPARE(drawn.pixelColor(225, 100), QColor(0, 0, 255));
        // Without the engine or a size it is refused, naming the field.
        for (const auto &[drop, field] :
             {std::pair{"rendererType", "document.rendererType"}, {"height", "document.height"}}) {
            QJsonObject broken = htmlOnly;
            broken.remove(drop);
            r = httpRequest(port(), "POST", "/api/v1/templates", json(broken), bearer(m_session));
            VERIFY_PROBLEM(r, 400);
            QCOMPARE(r.json().value("field").toString(), QString(field));
        }
        r = httpRequest(port(), "POST", "/api/v1/templates", kTemplate, bearer(m_session));
        QCOMPARE(r.status, 201);
        const QString tid = r.data().value("id").toString();
        QVERIFY(tid.startsWith("tpl_"));
        r = get("/api/v1/templates", bearer(m_session));
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().value("count").toInt() >= 2);
        // Space-scoped: beta cannot see alpha's template.
        VERIFY_PROBLEM(get("/api/v1/templates/" + tid.toLatin1(), bearer(m_otherSession)), 404);
        // Page with an unknown variable → 400; a good one → 201, unpublished.
        r = httpRequest(port(), "POST", "/api/v1/pages",
                        json({{"templateId", tid}, {"variables", QJsonObject{{"nope", "x"}}}}), bearer(m_session));
        VERIFY_PROBLEM(r, 400);
        r = httpRequest(
            port(), "POST", "/api/v1/pages",
            json({{"templateId", tid}, {"name", "Draft only"}, {"variables", QJsonObject{{"title", "Draft"}}}}),
            bearer(m_session));
        QCOMPARE(r.status, 201);
        QCOMPARE(r.data().value("published").toBool(), false);
        m_draftPageId = r.data().value("id").toString();
        // A template in use cannot be deleted.
        VERIFY_PROBLEM(httpRequest(port(), "DELETE", "/api/v1/templates/" + tid.toLatin1(), {}, bearer(m_session)),
                       409);
        // Update the template (validated again).
        r = httpRequest(port(), "PUT", "/api/v1/templates/" + tid.toLatin1(), "{\"width\":-5}", bearer(m_session));
        VERIFY_PROBLEM(r, 400);
    }

    // ------------------------------------------------------------ page renders

    void pageRenderJson()
    {
        HttpReply r = render({{"pageId", m_pageId}}, m_freeToken);
        QCOMPARE(r.status, 200);
        QVERIFY(!r.header("Server-Timing").isEmpty());
        const QJsonObject o = r.json();
        QCOMPARE(o.value("success").toBool(), true);
        QCOMPARE(o.value("pageId").toString(), m_pageId);
        QCOMPARE(o.value("templateId").toString(), m_templateId);
        QCOMPARE(o.value("renderType").toString(), QString("takumi"));
        QCOMPARE(o.value("format").toString(), QString("png"));
        QCOMPARE(o.value("width").toInt(), 400);
        QCOMPARE(o.value("height").toInt(), 300);
        QVERIFY(o.value("warnings").isArray());
        const QJsonObject t = o.value("timings").toObject();
        for (const char *k : {"load", "layout", "paint", "encode", "store", "total"})
            QVERIFY2(t.value(k).isDouble(), k);
        const QJsonObject file = o.value("file").toObject();
        QCOMPARE(file.value("contentType").toString(), QString("image/png"));
        QCOMPARE(file.value("sha256").toString().size(), 64);
        const QString path = QUrl(file.value("url").toString()).path();
        QCOMPARE(path, "/api/v1/files/" + file.value("sha256").toString() + ".png");
        // The stored file: 200 with ETag and immutable caching, then 304.
        HttpReply f = get(path.toLatin1());
        QCOMPARE(f.status, 200);
        QCOMPARE(f.header("Content-Type"), QByteArray("image/png"));
        QCOMPARE(f.header("Cache-Control"), QByteArray("public, max-age=31536000, immutable"));
        QCOMPARE(qint64(f.body.size()), qint64(file.value("size").toDouble()));
        QCOMPARE(decode(f.body).size(), QSize(400, 300));
        const QByteArray etag = f.header("ETag");
        QVERIFY(!etag.isEmpty());
        f = get(path.toLatin1(), {{"If-None-Match", etag}});
        QCOMPARE(f.status, 304);
        QVERIFY(f.body.isEmpty());
        // SQLite: on disk under files/ab/<sha>.png; PostgreSQL: in the blobs table, so no
        // file is written (every instance serves it, docs/deployment.md).
        const QString sha = file.value("sha256").toString();
        QCOMPARE(QFile::exists(m_e2e.dataDir() + "/files/" + sha.left(2) + "/" + sha + ".png"),
                 testDatabaseServer().isEmpty());
        VERIFY_PROBLEM(get("/api/v1/files/" + QByteArray(64, 'a') + ".png"), 404);
        VERIFY_PROBLEM(get("/api/v1/files/..%2F..%2Fimprint.db"), 404);
        // GET with api_token in the query works the same.
        r = get("/api/v1/render?pageId=" + m_pageId.toLatin1() + "&api_token=" + m_freeToken.toLatin1());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value("pageId").toString(), m_pageId);
    }

    void timingsAreThisRequests()
    {
        // The second identical render reuses the first one's outcome: its phases must not
        // claim the first render's work, so they never add up to more than its total.
        const QJsonObject body{
            {"pageId", m_pageId},
            {"tweaks", QJsonObject{{"title", "Timings " + QString::number(QDateTime::currentMSecsSinceEpoch())}}}};
        for (int i = 0; i < 2; ++i) {
            const HttpReply r = render(body, m_freeToken);
            QCOMPARE(r.status, 200);
            const QJsonObject t = r.json().value("timings").toObject();
            double phases = 0;
            for (const char *k : {"load", "layout", "paint", "encode", "store"})
                phases += t.value(k).toDouble();
            QVERIFY2(phases <= t.value("total").toDouble() + 0.05,
                     QJsonDocument(t).toJson(QJsonDocument::Compact).constData());
            QCOMPARE(r.json().value("reused").toBool(), i == 1);
            if (i == 1)
                QCOMPARE(t.value("paint").toDouble(), 0.0);
        }
    }

    void metricsCountTheRenderCaches()
    {
        // A render with a fresh tweak shapes new text: the server's one render context
        // counts it, and /metrics reports that context's bounded caches.
        const auto caches = [this] { return get("/api/v1/metrics").json().value("renderCaches").toObject(); };
        const QJsonObject before = caches();
        for (const char *k : {"images", "emoji", "textShaping", "canvases"})
            QVERIFY2(before.contains(k), k);
        QCOMPARE(before.value("canvases").toObject().value("capacityBytes").toDouble(), 48.0 * 1024 * 1024);
        QCOMPARE(before.value("images").toObject().value("capacityBytes").toDouble(), 32.0 * 1024 * 1024);
        QVERIFY(before.value("emoji").toObject().value("capacity").toDouble() > 0);
        const QJsonObject body{
            {"pageId", m_pageId},
            {"tweaks", QJsonObject{{"title", "Metrics " + QString::number(QDateTime::currentMSecsSinceEpoch())}}}};
        QCOMPARE(render(body, m_freeToken).status, 200);
        const QJsonObject after = caches();
        const auto lookups = [](const QJsonObject &c) {
            const QJsonObject t = c.value("textShaping").toObject();
            return t.value("hits").toDouble() + t.value("misses").toDouble();
        };
        QVERIFY2(lookups(after) > lookups(before), QJsonDocument(after).toJson(QJsonDocument::Compact).constData());
        QVERIFY(after.value("textShaping").toObject().value("misses").toDouble()
                > before.value("textShaping").toObject().value("misses").toDouble());
        // The render painted a canvas: its buffer was either reused or allocated.
        const auto canvases = [](const QJsonObject &c) {
            const QJsonObject t = c.value("canvases").toObject();
            return t.value("hits").toDouble() + t.value("misses").toDouble();
        };
        QVERIFY(canvases(after) > canvases(before));
    }

    void pageRenderFormats()
    {
        HttpReply r = render({{"pageId", m_pageId}, {"format", "png"}, {"output", "binary"}}, m_freeToken);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/png"));
        QCOMPARE(decode(r.body, "png").size(), QSize(400, 300));
        r = render({{"pageId", m_pageId}, {"format", "webp"}, {"binary", true}}, m_freeToken);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/webp"));
        QCOMPARE(webpSize(r.body), QSize(400, 300));
        r = render({{"pageId", m_pageId}, {"format", "svg"}, {"output", "image"}}, m_freeToken);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/svg+xml"));
        QXmlStreamReader xml(r.body);
        QVERIFY(xml.readNextStartElement());
        QCOMPARE(xml.name().toString(), QString("svg"));
        const auto attrs = xml.attributes();
        QVERIFY2(attrs.value("width").toString().startsWith("400") || attrs.value("viewBox").toString().contains("400"),
                 r.body.left(400).constData());
        while (!xml.atEnd())
            xml.readNext();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        r = render({{"pageId", m_pageId}, {"output", "raw"}, {"width", 200}, {"height", 100}}, m_freeToken);
        QCOMPARE(decode(r.body).size(), QSize(200, 100));
        // dataurl: inline, nothing stored.
        r = render({{"pageId", m_pageId}, {"output", "dataurl"}, {"format", "webp"}}, m_freeToken);
        QCOMPARE(r.status, 200);
        QVERIFY(r.json().value("dataUrl").toString().startsWith("data:image/webp;base64,"));
        QVERIFY(!r.json().contains("file"));
        // Bad enums → 400 naming the field.
        for (const auto &[field, value] :
             {std::pair{"format", "gif"}, {"output", "pdf"}, {"renderType", "chrome"}, {"emojiType", "apple"}}) {
            r = render({{"pageId", m_pageId}, {field, value}}, m_freeToken);
            VERIFY_PROBLEM(r, 400);
            QCOMPARE(r.json().value("field").toString(), QString(field));
        }
        // emojiType from the allowed sets passes through.
        r = render({{"pageId", m_pageId}, {"emojiType", "openmoji"}, {"output", "binary"}}, m_freeToken);
        QCOMPARE(r.status, 200);
        // Plan: free space, 1001 px → 402.
        VERIFY_PROBLEM(render({{"pageId", m_pageId}, {"width", 1001}}, m_freeToken), 402);
    }

    void emojiSetsFromDataDirectory_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("set");
        QTest::addColumn<QColor>("colour");
        for (const char *engine : {"takumi", "satori", "html"}) {
            QTest::addRow("%s twemoji", engine) << QString(engine) << QString("twemoji") << QColor("#00c800");
            QTest::addRow("%s openmoji", engine) << QString(engine) << QString("openmoji") << QColor("#c800c8");
        }
    }

    void emojiSetsFromDataDirectory()
    {
        // The sets initTestCase put in DATA/emoji are found only when `imprint serve` hands
        // its data directory to the renderer; otherwise 😀 comes from the Noto font
        // (yellow) or a set elsewhere, with a warning, and no pixel has the file's colour.
        QFETCH(QString, engine);
        QFETCH(QString, set);
        QFETCH(QColor, colour);
        const HttpReply r = render({{"pageId", m_pageId},
                                    {"renderType", engine},
                                    {"emojiType", set},
                                    {"output", "dataurl"},
                                    {"tweaks", QJsonObject{{"title", QStringLiteral("\U0001F600")}}}},
                                   m_freeToken);
        if (engine == "satori" && r.status == 501)
            QSKIP("the satori engine is not in this build");
        QCOMPARE(r.status, 200);
        QVERIFY2(r.json().value("warnings").toArray().isEmpty(), r.body.left(600).constData());
        const QString dataUrl = r.json().value("dataUrl").toString();
        QVERIFY(dataUrl.startsWith("data:image/png;base64,"));
        const QImage image = decode(QByteArray::fromBase64(dataUrl.mid(dataUrl.indexOf(',') + 1).toLatin1()), "png");
        QCOMPARE(image.size(), QSize(400, 300));
        // The template's text is 40 px: the emoji is a 40 × 40 square of the set's colour.
        int matching = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor c = image.pixelColor(x, y);
                matching
                    += qAbs(c.red() - colour.red()) + qAbs(c.green() - colour.green()) + qAbs(c.blue() - colour.blue())
                               < 24
                           ? 1
                           : 0;
            }
        QVERIFY2(matching > 30 * 30 && matching < 48 * 48, qPrintable(QString::number(matching)));
    }

    void satoriUnavailableIsHonest()
    {
        const HttpReply r = render({{"pageId", m_pageId}, {"renderType", "satori"}, {"output", "binary"}}, m_freeToken);
        // 200 once the satori engine lands; until then 501 naming renderType.
        if (r.status != 200) {
            VERIFY_PROBLEM(r, 501);
            QCOMPARE(r.json().value("field").toString(), QString("renderType"));
        }
    }

    void draftVersusPublished()
    {
        const QByteArray before = render({{"pageId", m_pageId}, {"output", "binary"}}, m_freeToken).body;
        HttpReply r = httpRequest(port(), "PUT", "/api/v1/pages/" + m_pageId.toLatin1(),
                                  json({{"variables", QJsonObject{{"title", "Published"}, {"bg", "#cc3300"}}}}),
                                  bearer(m_session));
        QCOMPARE(r.status, 200);
        const QByteArray published = render({{"pageId", m_pageId}, {"output", "binary"}}, m_freeToken).body;
        const QByteArray draft
            = render({{"pageId", m_pageId}, {"draft", true}, {"output", "binary"}}, m_freeToken).body;
        QCOMPARE(pixel(published, 5, 5), pixel(before, 5, 5));
        QCOMPARE(QColor(pixel(published, 5, 5)), QColor("#336699"));
        QCOMPARE(QColor(pixel(draft, 5, 5)), QColor("#cc3300"));
        // Publishing makes the change visible to non-draft renders.
        r = httpRequest(port(), "POST", "/api/v1/pages/" + m_pageId.toLatin1() + "/publish", {}, bearer(m_session));
        QCOMPARE(r.status, 200);
        const QByteArray after = render({{"pageId", m_pageId}, {"output", "binary"}}, m_freeToken).body;
        QCOMPARE(QColor(pixel(after, 5, 5)), QColor("#cc3300"));
    }

    void notFoundCases()
    {
        HttpReply r = render({{"pageId", m_pageId}, {"templateId", "tpl_other"}}, m_freeToken);
        VERIFY_PROBLEM(r, 404);
        QCOMPARE(r.json().value("code").toString(), QString("template_mismatch"));
        r = render({{"pageId", m_pageId}, {"templateId", m_templateId}}, m_freeToken);
        QCOMPARE(r.status, 200);
        r = render({{"pageId", m_draftPageId}}, m_freeToken);
        VERIFY_PROBLEM(r, 404);
        QVERIFY2(r.json().value("detail").toString().contains("not been published"), r.body.constData());
        r = render({{"pageId", m_draftPageId}, {"draft", true}}, m_freeToken);
        QCOMPARE(r.status, 200);
        VERIFY_PROBLEM(render({{"pageId", "pg_nosuchpage"}}, m_freeToken), 404);
        // Another space's key cannot see the page.
        VERIFY_PROBLEM(render({{"pageId", m_pageId}}, m_proToken), 404);
        VERIFY_PROBLEM(render({{"pageId", m_pageId}, {"draft", true}}, m_proToken), 404);
    }

    void tokens()
    {
        VERIFY_PROBLEM(render({{"pageId", m_pageId}}, {}), 401);
        VERIFY_PROBLEM(render({{"pageId", m_pageId}}, "imp_invalid"), 401);
        VERIFY_PROBLEM(get("/api/v1/render?pageId=" + m_pageId.toLatin1() + "&api_token=imp_nope"), 401);
        // Revoked: create a key over HTTP, render, revoke, render again.
        HttpReply k = httpRequest(port(), "POST", "/api/v1/tokens/api-keys", json({{"name", "short-lived"}}),
                                  bearer(m_session));
        QCOMPARE(k.status, 201);
        const QString token = k.data().value("token").toString();
        QCOMPARE(render({{"pageId", m_pageId}}, token).status, 200);
        const QByteArray id = k.data().value("id").toString().toLatin1();
        QCOMPARE(httpRequest(port(), "DELETE", "/api/v1/tokens/api-keys/" + id, "{}", bearer(m_session)).status, 200);
        VERIFY_PROBLEM(render({{"pageId", m_pageId}}, token), 401);
        VERIFY_PROBLEM(render({{"pattern", "dots-sunset"}}, token), 401);
    }

    void tweaks()
    {
        HttpReply r = render({{"pageId", m_pageId}, {"output", "binary"}, {"tweaks", QJsonObject{{"bg", "#00ff00"}}}},
                             m_freeToken);
        QCOMPARE(r.status, 200);
        QCOMPARE(QColor(pixel(r.body, 5, 5)), QColor("#00ff00"));
        // Query forms: tweaks.NAME and tweaks as JSON text.
        r = get("/api/v1/render?pageId=" + m_pageId.toLatin1() + "&output=binary&tweaks.bg=%23ff00ff",
                bearer(m_freeToken));
        QCOMPARE(QColor(pixel(r.body, 5, 5)), QColor("#ff00ff"));
        r = get("/api/v1/render?pageId=" + m_pageId.toLatin1()
                    + "&output=binary&tweaks=" + QUrl::toPercentEncoding("{\"bg\":\"#0000ff\"}"),
                bearer(m_freeToken));
        QCOMPARE(QColor(pixel(r.body, 5, 5)), QColor("#0000ff"));
        r = render({{"pageId", m_pageId}, {"tweaks", QJsonObject{{"nope", "x"}}}}, m_freeToken);
        VERIFY_PROBLEM(r, 400);
        QVERIFY2(r.json().value("detail").toString().contains("nope"), r.body.constData());
        r = render({{"pageId", m_pageId}, {"tweaks", QJsonObject{{"bg", "not a colour"}}}}, m_freeToken);
        VERIFY_PROBLEM(r, 400);
        r = render({{"pageId", m_pageId}, {"tweaks", "bg=red"}}, m_freeToken);
        VERIFY_PROBLEM(r, 400);
    }

    void hostileInputThroughTheApi()
    {
        // An API key alone, through `tweaks`: an image variable given an SVG whose <image>
        // points at a file on the server's disk draws nothing of that file (it did).
        QTemporaryDir disk;
        QVERIFY(disk.isValid());
        QImage red(40, 40, QImage::Format_ARGB32);
        red.fill(Qt::red);
        QVERIFY(red.save(disk.filePath("secret.png")));
        const QByteArray svg
            = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"100\" "
              "height=\"100\"><image xlink:href=\""
              + disk.filePath("secret.png").toUtf8() + "\" width=\"100\" height=\"100\"/></svg>";
        const QString svgUrl = "data:image/svg+xml;base64," + QString::fromLatin1(svg.toBase64());
        const QByteArray avatarTemplate
            = "{\"name\": \"Avatar\", \"width\": 200, \"height\": 200, \"rendererType\": \"takumi\","
              " \"variables\": [{\"name\": \"avatar\", \"type\": \"image\", \"default\": \"\"}],"
              " \"root\": {\"type\": \"div\", \"props\": {\"style\": {\"display\": \"flex\", \"width\": 200, "
              "\"height\": 200,"
              " \"backgroundColor\": \"#ffffff\"}, \"children\": [{\"type\": \"img\", \"props\": {\"src\": "
              "\"{{avatar}}\","
              " \"style\": {\"width\": 100, \"height\": 100}}}]}}}";
        HttpReply r = httpRequest(port(), "POST", "/api/v1/templates", avatarTemplate, bearer(m_session));
        QCOMPARE(r.status, 201);
        const QString tid = r.data().value("id").toString();
        r = httpRequest(port(), "POST", "/api/v1/pages", json({{"templateId", tid}, {"name", "Avatar"}}),
                        bearer(m_session));
        QCOMPARE(r.status, 201);
        const QString pid = r.data().value("id").toString();
        r = render(
            {{"pageId", pid}, {"draft", true}, {"output", "binary"}, {"tweaks", QJsonObject{{"avatar", svgUrl}}}},
            m_freeToken);
        QCOMPARE(r.status, 200);
        const QImage image = decode(r.body).convertToFormat(QImage::Format_ARGB32);
        int reddish = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                reddish += QColor(image.pixel(x, y)).red() > 200 && QColor(image.pixel(x, y)).green() < 60 ? 1 : 0;
        QCOMPARE(reddish, 0);

        // Over the render budget: 999 boxes with 20 shadow layers each is a 422 naming
        // the limit, not a 5.8 GB process.
        QJsonArray kids;
        QStringList layers;
        for (int i = 0; i < 20; ++i)
            layers << QString("%1px %1px 20px rgba(0,0,0,.5)").arg(i);
        for (int i = 0; i < 999; ++i)
            kids.append(QJsonObject{{"type", "div"},
                                    {"props", QJsonObject{{"style", QJsonObject{{"textShadow", layers.join(", ")}}},
                                                          {"children", "Shadow"}}}});
        const QJsonObject flood
            = imprint::test::engineCard("Flood", "satori", 1000, 1000, {{"flexWrap", "wrap"}}, kids);
        r = httpRequest(port(), "POST", "/api/v1/templates", json(flood), bearer(m_session));
        QCOMPARE(r.status, 201);
        r = httpRequest(port(), "POST", "/api/v1/pages",
                        json({{"templateId", r.data().value("id").toString()}, {"name", "Flood"}}), bearer(m_session));
        QCOMPARE(r.status, 201);
        r = render({{"pageId", r.data().value("id").toString()}, {"draft", true}}, m_freeToken);
        VERIFY_PROBLEM(r, 422);
        QCOMPARE(r.json().value("code").toString(), QString("render_budget_exceeded"));
        QVERIFY2(r.json().value("detail").toString().contains("effects"), r.body.constData());
    }

    void secretsNeverLogged() { verifySecretsNeverLogged(); }
};

QTEST_GUILESS_MAIN(TestRenderApi)
#include "tst_render_api.moc"
