// GET /api/v1/metrics in the Prometheus text format (docs/api.md, "Metrics") and its
// optional token, against the real `imprint serve`: requests per route and status class,
// latency histograms, render latency per engine; the JSON form stays as it was.
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

namespace {

const QByteArray kToken = "metrics-secret-1";

const QByteArray kTemplate = R"({"name": "Flat", "width": 80, "height": 40, "rendererType": "takumi",
  "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
           "backgroundColor": "#336699"}}}})";

/// The value of the sample line `series` (name and labels exactly), or -1 when absent.
double sample(const QByteArray &text, const QByteArray &series)
{
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith(series + ' '))
            return line.mid(series.size() + 1).toDouble();
    return -1;
}

} // namespace

class TestHttpMetrics : public QObject
{
    Q_OBJECT

private:
    E2eFixture m_e2e;
    QByteArray m_key;
    QByteArray m_pageId;

    quint16 port() const { return m_e2e.port(); }
    HttpReply metrics(const QByteArray &query = {}, Headers headers = {{"Authorization", "Bearer " + kToken}})
    {
        return httpRequest(port(), "GET", "/api/v1/metrics" + query, {}, headers);
    }

private slots:
    void initTestCase()
    {
        E2eOptions world;
        world.pageTemplate = kTemplate;
        world.config = "{\"http\": {\"metricsToken\": \"metrics-secret-1\"}}";
        world.login = false; // no request but the tests' own
        QVERIFY2(m_e2e.setUp(world), m_e2e.failure());
        m_key = m_e2e.key();
        m_pageId = m_e2e.pageId();
    }

    void tokenIsRequiredWhenConfigured()
    {
        HttpReply r = metrics({}, {});
        VERIFY_PROBLEM(r, 401);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("missing_token"));
        QCOMPARE(r.header("WWW-Authenticate"), QByteArray("Bearer"));
        r = metrics("?format=prometheus", {{"Authorization", "Bearer metrics-secret-2"}});
        VERIFY_PROBLEM(r, 401);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("invalid_token"));
        // An API key is not the metrics token.
        VERIFY_PROBLEM(metrics({}, {{"Authorization", "Bearer " + m_key}}), 401);
    }

    void jsonFormIsUnchanged()
    {
        const HttpReply r = metrics();
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("application/json"));
        QVERIFY(r.json().value("renders").isObject());
        QVERIFY(r.json().value("renderCaches").isObject());
        QCOMPARE(metrics("?format=json").header("Content-Type"), QByteArray("application/json"));
        VERIFY_PROBLEM(metrics("?format=xml"), 400);
    }

    void prometheusCountsRoutesStatusesAndEngines()
    {
        const Headers key = {{"Authorization", "Bearer " + m_key}};
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/render?pageId=" + m_pageId + "&output=binary", {}, key).status,
                 200);
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&width=50&height=20").status, 200);
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/pages/pg_nope").status, 401); // no session
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/nowhere").status, 404);

        const HttpReply r = metrics("?format=prometheus");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("text/plain; version=0.0.4; charset=utf-8"));
        const QByteArray &t = r.body;
        const QByteArray render2xx
            = "imprint_http_requests_total{method=\"GET\",route=\"/api/v1/render\",status=\"2xx\"}";
        const QByteArray renderInf = "imprint_http_request_duration_seconds_bucket{method=\"GET\",route=\"/api/v1/"
                                     "render\",status=\"2xx\",le=\"+Inf\"}";
        const QByteArray pages4xx
            = "imprint_http_requests_total{method=\"GET\",route=\"/api/v1/pages/{id}\",status=\"4xx\"}";
        const QByteArray unmatched = "imprint_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"4xx\"}";
        const QByteArray takumi = "imprint_render_duration_seconds_count{engine=\"takumi\"}";
        const QByteArray pattern = "imprint_render_duration_seconds_bucket{engine=\"pattern\",le=\"+Inf\"}";
        QVERIFY2(sample(t, render2xx) >= 2, t.constData());
        QVERIFY(sample(t, renderInf) >= 2);
        // Ids do not make a series each: the route's pattern is the label.
        QCOMPARE(sample(t, pages4xx), 1.0);
        QCOMPARE(sample(t, unmatched), 1.0);
        QCOMPARE(sample(t, takumi), 1.0);
        QCOMPARE(sample(t, pattern), 1.0);
        QVERIFY(sample(t, "imprint_renders_executed_total") >= 2);
        // The page render's own stages, one observation each; output=binary stores nothing.
        for (const char *stage : {"auth", "load", "parse", "layout", "paint", "encode"})
            QVERIFY2(sample(t, QByteArray("imprint_render_stage_duration_seconds_count{stage=\"") + stage + "\"}")
                         == 1.0,
                     stage);
        QCOMPARE(sample(t, "imprint_render_stage_duration_seconds_count{stage=\"store\"}"), -1.0);
        QVERIFY(sample(t, "imprint_render_stage_duration_seconds_bucket{stage=\"encode\",le=\"+Inf\"}") == 1.0);

        // Well formed: every line a comment or `name{labels} value`, buckets cumulative.
        const QString pattern_ = "^[a-z_]+(\\{([a-z_]+=\"[^\"]*\",?)*\\})? (\\+Inf|[0-9.e+-]+)$";
        const QRegularExpression line(pattern_);
        double previous = -1;
        QByteArray previousSeries;
        for (const QByteArray &l : t.split('\n')) {
            if (l.isEmpty() || l.startsWith("# HELP ") || l.startsWith("# TYPE "))
                continue;
            QVERIFY2(line.match(QString::fromUtf8(l)).hasMatch(), l.constData());
            if (l.contains("_bucket{")) {
                const QByteArray series = l.left(l.indexOf(",le=") < 0 ? l.indexOf("le=") : l.indexOf(",le="));
                const double v = l.mid(l.lastIndexOf(' ') + 1).toDouble();
                if (series == previousSeries)
                    QVERIFY2(v >= previous, l.constData());
                previousSeries = series;
                previous = v;
            }
        }
    }

    void acceptTextPlainAsksForPrometheus()
    {
        const HttpReply r = metrics({}, {{"Authorization", "Bearer " + kToken}, {"Accept", "text/plain"}});
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("Content-Type").startsWith("text/plain; version=0.0.4"));
        QVERIFY(r.body.contains("# TYPE imprint_http_request_duration_seconds histogram"));
    }
};

QTEST_GUILESS_MAIN(TestHttpMetrics)
#include "tst_http_metrics.moc"
