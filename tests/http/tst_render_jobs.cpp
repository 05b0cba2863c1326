// Render jobs (docs/api.md, "Jobs", issue 31) against the real `imprint serve`: a batch of
// renders queued with POST /renders, worked in the background, polled with GET
// /renders/{id} until every item has its stored file or its problem; the items checked
// before anything is queued (a 400 naming items[N].field, 413 over the limit);
// `Prefer: respond-async` on the synchronous route; a job invisible to another space;
// each item's row finished exactly once; the CLI's `job create` and `job show`.
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"
#include "../support/test_database.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QSqlQuery>
#include <QTemporaryFile>
#include <QTest>
#include <QThread>
#include <QUrl>

namespace {

/// A 160×80 card: background `bg` (a colour variable), a title; takumi, so it renders
/// without Chromium.
QJsonObject cardTemplate()
{
    return QJsonDocument::fromJson(
               "{\"name\": \"Job card\", \"width\": 160, \"height\": 80, \"rendererType\": \"takumi\","
               " \"alt\": \"A card in {{bg}}\","
               " \"variables\": [{\"name\": \"bg\", \"type\": \"color\", \"default\": \"#336699\"}],"
               " \"root\": {\"type\": \"div\", \"props\": {\"style\": {\"display\": \"flex\","
               " \"width\": \"100%\", \"height\": \"100%\", \"backgroundColor\": \"{{bg}}\"}}}}")
        .object();
}

// A small limit so that the 413 needs no thousand items; a short poll so that the suite
// does not wait for idle workers.
const QByteArray kConfig = "{\"jobs\": {\"maxItems\": 40, \"pollMs\": 50}}";

} // namespace

class TestRenderJobs : public QObject
{
    Q_OBJECT

private:
    E2eFixture m_e2e;

    HttpReply post(const QJsonObject &body, const Headers &extra = {}) const
    {
        return m_e2e.request("POST", "/api/v1/renders", json(body), E2eFixture::bearer(m_e2e.key()) + extra);
    }
    /// GET `location` until the job has finished (or 20 s passed); its last answer.
    HttpReply waitFor(const QByteArray &location, const QByteArray &token = {}) const
    {
        QElapsedTimer t;
        t.start();
        HttpReply r;
        do {
            r = m_e2e.get(location, E2eFixture::bearer(token.isEmpty() ? m_e2e.key() : token));
            if (r.status != 200 || !r.data().value("finishedAt").isNull())
                return r;
            QThread::msleep(50);
        } while (t.elapsed() < 20000);
        return r;
    }
    QJsonObject pageItem(const QString &bg, const QString &format = QStringLiteral("png")) const
    {
        return {{"pageId", QString::fromLatin1(m_e2e.pageId())}, {"tweaks", QJsonObject{{"bg", bg}}}, {"format", format}};
    }
    /// The bytes an item's file URL serves (empty unless 200).
    QByteArray fetched(const QJsonObject &item) const
    {
        const QUrl url(item.value("file").toObject().value("url").toString());
        const HttpReply r = m_e2e.get(url.path().toLatin1(), E2eFixture::bearer(m_e2e.key()));
        return r.status == 200 ? r.body : QByteArray();
    }

private slots:
    void initTestCase()
    {
        E2eOptions options;
        options.pageTemplate = QJsonDocument(cardTemplate()).toJson();
        options.config = kConfig;
        QVERIFY2(m_e2e.setUp(options), m_e2e.failure());
    }

    void batchRendersEveryItemOnceAndReportsTheFailure()
    {
        // 20 renders: 18 colours of the page (PNG and WebP), an inline template, and one the
        // plan refuses (item 7: wider than the plan's export size) once it is rendered.
        QJsonArray items;
        for (int i = 0; i < 20; ++i) {
            const QString bg = QStringLiteral("#%1%2%3").arg(i * 12, 2, 16, QChar('0')).arg("40").arg("80");
            items.append(pageItem(bg, i % 3 == 0 ? QStringLiteral("webp") : QStringLiteral("png")));
        }
        items[7] = QJsonObject{{"pageId", QString::fromLatin1(m_e2e.pageId())}, {"width", 90000}};
        items[19] = QJsonObject{{"template", cardTemplate()}, {"tweaks", QJsonObject{{"bg", "#00ff00"}}}};
        const HttpReply created = post({{"items", items}});
        QCOMPARE(created.status, 202);
        const QByteArray location = created.header("Location");
        QVERIFY(location.startsWith("/api/v1/renders/job_"));
        QCOMPARE(created.data().value("id").toString().toLatin1(), location.mid(16));
        QCOMPARE(created.data().value("counts").toObject().value("total").toInt(), 20);

        const HttpReply r = waitFor(location);
        QCOMPARE(r.status, 200);
        const QJsonObject job = r.data();
        QCOMPARE(job.value("state").toString(), QStringLiteral("partial"));
        QCOMPARE(job.value("counts").toObject().value("done").toInt(), 19);
        QCOMPARE(job.value("counts").toObject().value("failed").toInt(), 1);
        const QJsonArray results = job.value("items").toArray();
        QCOMPARE(results.size(), 20);
        for (int i = 0; i < 20; ++i) {
            const QJsonObject item = results.at(i).toObject();
            QCOMPARE(item.value("index").toInt(), i);
            QCOMPARE(item.value("attempts").toInt(), 1);
            if (i == 7) {
                QCOMPARE(item.value("state").toString(), QStringLiteral("failed"));
                const QJsonObject error = item.value("error").toObject();
                QCOMPARE(error.value("code").toString(), QStringLiteral("export_size_exceeded"));
                QCOMPARE(error.value("status").toInt(), 402);
                QCOMPARE(error.value("field").toString(), QStringLiteral("width"));
                continue;
            }
            QCOMPARE(item.value("state").toString(), QStringLiteral("done"));
            // The alt text with the item's own values, as a JSON render answers it.
            const QString bg = i == 19 ? QStringLiteral("#00ff00") : items.at(i)["tweaks"]["bg"].toString();
            QCOMPARE(item.value("alt").toString(), QStringLiteral("A card in ") + bg);
            QCOMPARE(item.value("width").toInt(), 160);
            QCOMPARE(item.value("height").toInt(), 80);
            const QByteArray bytes = fetched(item);
            const bool webp = i % 3 == 0 && i != 19;
            QCOMPARE(item.value("file").toObject().value("contentType").toString(),
                     webp ? QStringLiteral("image/webp") : QStringLiteral("image/png"));
            QCOMPARE(item.value("file").toObject().value("size").toInt(), bytes.size());
            if (webp) { // Debian's Qt reads no WebP: its size through libwebp
                QCOMPARE(webpSize(bytes), QSize(160, 80));
                continue;
            }
            const QImage image = decode(bytes, "png");
            QCOMPARE(image.size(), QSize(160, 80));
            const QString expected = i == 19 ? QStringLiteral("#00ff00") : items.at(i)["tweaks"]["bg"].toString();
            QCOMPARE(image.pixelColor(80, 40).name(), expected);
        }

        // The rows: one finished row per item, no lease left, the job's counts equal to them.
        {
            QSqlQuery q(openTestDatabase(m_e2e.dataDir(), QStringLiteral("jobs")));
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*), SUM(attempts), COUNT(lease_owner) FROM job_items"
                                          " WHERE job_id = '%1' AND state IN ('done', 'failed')")
                               .arg(job.value("id").toString())));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 20);
            QCOMPARE(q.value(1).toInt(), 20);
            QCOMPARE(q.value(2).toInt(), 0);
        }
        closeTestDatabase(QStringLiteral("jobs"));
    }

    void itemsAreCheckedBeforeAnythingIsQueued()
    {
        QJsonArray items;
        for (int i = 0; i < 5; ++i)
            items.append(pageItem(QStringLiteral("#ffffff")));
        QJsonObject bad = pageItem(QStringLiteral("#ffffff"), QStringLiteral("gif"));
        items[3] = bad;
        HttpReply r = post({{"items", items}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("items[3].format"));
        QVERIFY(r.json().value("detail").toString().startsWith("items[3]: "));

        items[3] = QJsonObject{{"pattern", "waves-sunset"}};
        r = post({{"items", items}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("items[3].pattern"));
        items[3] = QJsonObject{{"pageId", "pg_x"}, {"color", "red"}};
        r = post({{"items", items}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("items[3].color"));
        items[3] = 42;
        r = post({{"items", items}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("items[3]"));

        VERIFY_PROBLEM(post({{"items", QJsonArray()}}), 400);
        r = post({{"items", items}, {"callback", "x"}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("callback"));

        QJsonArray many;
        for (int i = 0; i < 41; ++i)
            many.append(pageItem(QStringLiteral("#ffffff")));
        r = post({{"items", many}});
        VERIFY_PROBLEM(r, 413);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("batch_too_large"));
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("items"));
        QCOMPARE(r.json().value("limit").toInt(), 40);

        // A single render (no `items`) is checked as POST /render checks it.
        r = post({{"pageId", QString::fromLatin1(m_e2e.pageId())}, {"format", "gif"}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("format"));

        // An inline template is checked as POST /render checks it (the template check), not
        // queued to fail later (a schemathesis sweep: a height below 0 was answered 202),
        // in a batch, alone, and as a render that prefers respond-async.
        const QJsonObject badTemplate{{"width", 100}, {"height", -5}, {"markup", "<div>x</div>"}};
        items[3] = QJsonObject{{"template", badTemplate}};
        r = post({{"items", items}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("invalid_template"));
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("items[3].template.height"));
        r = post({{"template", badTemplate}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("template.height"));
        r = m_e2e.request("POST", "/api/v1/render", json({{"template", badTemplate}}),
                          E2eFixture::bearer(m_e2e.key()) + Headers{{"Prefer", "respond-async"}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("template.height"));

        // Nothing was queued by any of them.
        {
            QSqlQuery q(openTestDatabase(m_e2e.dataDir(), QStringLiteral("jobs")));
            QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM jobs")));
            QVERIFY(q.next());
            QVERIFY2(q.value(0).toInt() <= 1, "only the batch of the first test");
        }
        closeTestDatabase(QStringLiteral("jobs"));
    }

    void preferRespondAsyncQueuesOneItem()
    {
        const QJsonObject body{{"pageId", QString::fromLatin1(m_e2e.pageId())},
                               {"tweaks", QJsonObject{{"bg", "#ff0000"}}}};
        const Headers headers = E2eFixture::bearer(m_e2e.key()) + Headers{{"Prefer", "respond-async, wait=5"}};
        HttpReply r = m_e2e.request("POST", "/api/v1/render", json(body), headers);
        QCOMPARE(r.status, 202);
        QCOMPARE(r.header("Preference-Applied"), QByteArray("respond-async"));
        const QByteArray location = r.header("Location");
        QVERIFY(location.startsWith("/api/v1/renders/job_"));
        r = waitFor(location);
        QCOMPARE(r.data().value("state").toString(), QStringLiteral("completed"));
        const QJsonObject item = r.data().value("items").toArray().at(0).toObject();
        QCOMPARE(decode(fetched(item), "png").pixelColor(10, 10), QColor(Qt::red));

        // GET with the preference too; without it the image comes at once, as before.
        r = m_e2e.get("/api/v1/render?pageId=" + m_e2e.pageId() + "&output=binary", headers);
        QCOMPARE(r.status, 202);
        QCOMPARE(waitFor(r.header("Location")).data().value("state").toString(), QStringLiteral("completed"));
        r = m_e2e.get("/api/v1/render?pageId=" + m_e2e.pageId() + "&output=binary", E2eFixture::bearer(m_e2e.key()));
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("Preference-Applied").isEmpty());
        // A bad render that prefers respond-async is still refused at once.
        r = m_e2e.get("/api/v1/render?pageId=" + m_e2e.pageId() + "&format=gif", headers);
        VERIFY_PROBLEM(r, 400);
    }

    void anotherSpaceCannotSeeTheJob()
    {
        const HttpReply created = post({{"pageId", QString::fromLatin1(m_e2e.pageId())}});
        QCOMPARE(created.status, 202);
        const QByteArray location = created.header("Location");
        QVERIFY(m_e2e.createSpace(QStringLiteral("beta"), QStringLiteral("pro")));
        const QByteArray other = m_e2e.createKey(QStringLiteral("beta"));
        QVERIFY(!other.isEmpty());
        HttpReply r = m_e2e.get(location, E2eFixture::bearer(other));
        VERIFY_PROBLEM(r, 404);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("job_not_found"));
        VERIFY_PROBLEM(m_e2e.get("/api/v1/renders/job_nope", E2eFixture::bearer(m_e2e.key())), 404);
        // Its own space's session sees it; a key without the render scope does not.
        QCOMPARE(m_e2e.get(location, E2eFixture::bearer(m_e2e.session())).status, 200);
        const QByteArray content = m_e2e.createKey(QStringLiteral("alpha"), QStringLiteral("c"), {"content"});
        VERIFY_PROBLEM(m_e2e.get(location, E2eFixture::bearer(content)), 403);
        VERIFY_PROBLEM(m_e2e.get(location), 401);
    }

    void idempotencyKeyQueuesOnce()
    {
        const Headers key{{"Idempotency-Key", "batch-2026-11-28"}};
        const QJsonObject body{{"items", QJsonArray{pageItem(QStringLiteral("#123456"))}}};
        const HttpReply first = post(body, key);
        QCOMPARE(first.status, 202);
        const HttpReply again = post(body, key);
        QCOMPARE(again.status, 202);
        QCOMPARE(again.header("Idempotent-Replayed"), QByteArray("true"));
        QCOMPARE(again.header("Location"), first.header("Location"));
        QCOMPARE(again.data().value("id"), first.data().value("id"));
    }

    void metricsShowTheQueue()
    {
        QCOMPARE(post({{"pageId", QString::fromLatin1(m_e2e.pageId())}}).status, 202);
        const HttpReply r = m_e2e.get("/api/v1/metrics?format=prometheus");
        QCOMPARE(r.status, 200);
        for (const char *line : {"imprint_job_items{state=\"queued\"}", "imprint_job_items{state=\"running\"}",
                                 "imprint_job_oldest_queued_age_seconds", "imprint_job_items_finished_total{outcome=\"done\"}",
                                 "imprint_job_items_finished_total{outcome=\"failed\"} 1",
                                 "imprint_job_item_duration_seconds_count{outcome=\"done\"}"})
            QVERIFY2(r.body.contains(line), line);
        const QJsonObject jobs = m_e2e.get("/api/v1/metrics").json().value("jobs").toObject();
        QVERIFY(jobs.value("done").toInt() >= 19);
        QCOMPARE(jobs.value("failed").toInt(), 1);
    }

    void cliCreatesAndShowsAJob()
    {
        QTemporaryFile file;
        QVERIFY(file.open());
        file.write(json({{"items", QJsonArray{pageItem(QStringLiteral("#0000ff")), pageItem(QStringLiteral("#00ff00"))}}}));
        file.close();
        QByteArray out;
        QCOMPARE(runCli({"job", "create", "--space", "alpha", "--file", file.fileName(), "--json", "--data",
                         m_e2e.dataDir()},
                        {}, &out),
                 0);
        const QString id = QJsonDocument::fromJson(out).object().value("id").toString();
        QVERIFY2(id.startsWith("job_"), out.constData());
        // The server's workers pick up a job the CLI queued in the same database.
        const HttpReply r = waitFor("/api/v1/renders/" + id.toLatin1());
        QCOMPARE(r.data().value("state").toString(), QStringLiteral("completed"));
        QCOMPARE(runCli({"job", "show", id, "--space", "alpha", "--json", "--data", m_e2e.dataDir()}, {}, &out), 0);
        QCOMPARE(QJsonDocument::fromJson(out).object().value("counts").toObject().value("done").toInt(), 2);
        // Flags instead of a file; a bad item names it, as the route does.
        QCOMPARE(runCli({"job", "create", "--space", "alpha", "--page", QString::fromLatin1(m_e2e.pageId()),
                         "--format", "webp", "--data", m_e2e.dataDir()},
                        {}, &out),
                 0);
        QVERIFY2(out.contains("job_"), out.constData());
        QCOMPARE(runCli({"job", "create", "--space", "alpha", "--page", QString::fromLatin1(m_e2e.pageId()),
                         "--format", "gif", "--data", m_e2e.dataDir()},
                        {}, &out),
                 1);
        QCOMPARE(runCli({"job", "show", "job_nope", "--space", "alpha", "--data", m_e2e.dataDir()}, {}, &out), 1);
    }

    // Last: the suite's earlier tests count the jobs queued before them.
    // Issue 31: one page in all seven size presets in one job (`sizes` is one item per
    // name), each image the preset's size and drawn (the 100 % card fills it); a bad
    // `sizes` is refused before anything is queued.
    void oneItemInEverySizePreset()
    {
        const QJsonArray presets{"og", "twitter", "linkedin", "square", "portrait", "story", "pinterest"};
        const QList<QSize> expected{{1200, 630},  {1200, 675},  {1200, 627}, {1080, 1080},
                                    {1080, 1350}, {1080, 1920}, {1000, 1500}};
        QJsonObject item = pageItem(QStringLiteral("#aa5500"));
        // "all": the page's template declares no sizes, so every built-in preset.
        item.insert("sizes", "all");
        const HttpReply created = post({{"items", QJsonArray{item}}});
        QCOMPARE(created.status, 202);
        QCOMPARE(created.data().value("counts").toObject().value("total").toInt(), 7);
        const HttpReply r = waitFor(created.header("Location"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("state").toString(), QStringLiteral("completed"));
        const QJsonArray results = r.data().value("items").toArray();
        QCOMPARE(results.size(), 7);
        for (int i = 0; i < 7; ++i) {
            const QJsonObject one = results.at(i).toObject();
            QCOMPARE(QSize(one.value("width").toInt(), one.value("height").toInt()), expected.at(i));
            const QImage image = decode(fetched(one), "png");
            QCOMPARE(image.size(), expected.at(i));
            QCOMPARE(image.pixelColor(image.width() - 1, image.height() - 1).name(), QStringLiteral("#aa5500"));
        }
        // "all" of a template that declares its sizes is those; a list names its own.
        QJsonObject declared = cardTemplate();
        declared.insert("sizes", QJsonArray{"square", "story"});
        const QJsonArray mixed{QJsonObject{{"template", declared}, {"sizes", "all"}},
                               QJsonObject{{"template", declared}, {"sizes", QJsonArray{"og"}}}};
        const HttpReply both = post({{"items", mixed}});
        QCOMPARE(both.status, 202);
        const QJsonArray three = waitFor(both.header("Location")).data().value("items").toArray();
        QCOMPARE(three.size(), 3);
        const QList<QSize> threeSizes{{1080, 1080}, {1080, 1920}, {1200, 630}};
        for (int i = 0; i < 3; ++i)
            QCOMPARE(QSize(three.at(i)["width"].toInt(), three.at(i)["height"].toInt()), threeSizes.at(i));
        // "all" of a page that does not exist is that render's own 404, nothing queued.
        HttpReply bad = post({{"items", QJsonArray{QJsonObject{{"pageId", "pg_missing"}, {"sizes", "all"}}}}});
        QCOMPARE(bad.status, 404);

        item.insert("sizes", QJsonArray{});
        bad = post({{"items", QJsonArray{pageItem(QStringLiteral("#ffffff")), item}}});
        QCOMPARE(bad.status, 400);
        QCOMPARE(bad.json().value("field").toString(), QStringLiteral("items[1].sizes"));
        item.insert("sizes", presets);
        item.insert("size", "og");
        bad = post({{"items", QJsonArray{item}}});
        QCOMPARE(bad.status, 400);
        QCOMPARE(bad.json().value("field").toString(), QStringLiteral("items[0].sizes"));
    }
};

QTEST_GUILESS_MAIN(TestRenderJobs)
#include "tst_render_jobs.moc"
