// Inline renders (docs/api.md, "Inline renders", issue 30) against the real `imprint
// serve`: POST /render with a template document in `template` instead of a stored page.
// What a route handler relies on: PNG bytes of the document with its tweaks, nothing
// stored unless output=json, a bad document a 400 naming `template.<path>`, a
// render-scoped key enough (a content-only key refused), the space's plan applied, and
// an identical request served from the render memo.
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QTest>

namespace {

/// A 120×60 card whose background is the colour variable `bg` (default #336699).
QJsonObject cardTemplate()
{
    const QJsonObject style{{"display", "flex"},
                            {"width", "100%"},
                            {"height", "100%"},
                            {"backgroundColor", "{{bg}}"}};
    return QJsonObject{
        {"name", "Inline card"},
        {"width", 120},
        {"height", 60},
        {"rendererType", "takumi"},
        {"variables", QJsonArray{QJsonObject{{"name", "bg"}, {"type", "color"}, {"default", "#336699"}}}},
        {"root", QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", style}}}}},
    };
}

/// Files under `dir` (the data directory: the file store and the database).
int storedFiles(const QString &dir)
{
    int n = 0;
    QDirIterator it(dir + QStringLiteral("/files"), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        ++n;
    }
    return n;
}

} // namespace

class TestInlineRender : public QObject
{
    Q_OBJECT

private:
    E2eFixture m_e2e;

    HttpReply render(const QJsonObject &body, const QByteArray &token = {}) const
    {
        return m_e2e.request("POST", "/api/v1/render", json(body),
                             E2eFixture::bearer(token.isEmpty() ? m_e2e.key() : token));
    }
    double rendersShared() const
    {
        const HttpReply r = m_e2e.get("/api/v1/metrics");
        // The metrics JSON is not enveloped (docs/api.md, Metrics).
        return r.json().value("renders").toObject().value("shared").toDouble(-1);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_e2e.setUp(), m_e2e.failure()); // key "t" has the default scope, render
        QVERIFY(!m_e2e.key().isEmpty());
    }

    void binaryPngOfTheDocumentWithItsTweaks()
    {
        const int filesBefore = storedFiles(m_e2e.dataDir());
        const HttpReply r = render({{"template", cardTemplate()},
                                    {"tweaks", QJsonObject{{"bg", "#ff0000"}}},
                                    {"output", "binary"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/png"));
        QVERIFY(r.body.startsWith("\x89PNG"));
        const QImage img = decode(r.body, "PNG");
        QCOMPARE(img.size(), QSize(120, 60));
        QCOMPARE(img.pixelColor(60, 30).name(), QStringLiteral("#ff0000"));
        QVERIFY(r.header("Server-Timing").contains("total;dur="));
        // Nothing stored: no file, and no template in the space.
        QCOMPARE(storedFiles(m_e2e.dataDir()), filesBefore);
        const HttpReply list = m_e2e.get("/api/v1/templates", E2eFixture::bearer(m_e2e.session()));
        QCOMPARE(list.status, 200);
        QCOMPARE(list.data().value("list").toArray().size(), 0);
    }

    void sizeOptionsAndTheDocumentsDefault()
    {
        const HttpReply r = render(
            {{"template", cardTemplate()}, {"width", 40}, {"height", 20}, {"format", "webp"}, {"binary", true}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/webp"));
        QCOMPARE(webpSize(r.body), QSize(40, 20));
        // `{"document": …}`, as POST /templates also takes it.
        const HttpReply wrapped
            = render({{"template", QJsonObject{{"document", cardTemplate()}}}, {"output", "binary"}});
        QCOMPARE(wrapped.status, 200);
        QCOMPARE(decode(wrapped.body, "PNG").pixelColor(10, 10).name(), QStringLiteral("#336699"));
    }

    void outputJsonStoresTheImageOnly()
    {
        const HttpReply r = render({{"template", cardTemplate()}, {"tweaks", QJsonObject{{"bg", "#00ff00"}}}});
        QCOMPARE(r.status, 200);
        const QJsonObject data = r.data();
        QVERIFY(!data.contains("pageId"));
        QVERIFY(!data.contains("templateId"));
        QCOMPARE(data.value("renderType").toString(), QStringLiteral("takumi"));
        QCOMPARE(data.value("width").toInt(), 120);
        const QString url = data.value("file").toObject().value("url").toString();
        QVERIFY2(url.contains("/api/v1/files/"), qPrintable(QString::fromUtf8(r.body)));
        const HttpReply file = m_e2e.get(QUrl(url).path().toLatin1());
        QCOMPARE(file.status, 200);
        QCOMPARE(decode(file.body, "PNG").pixelColor(60, 30).name(), QStringLiteral("#00ff00"));
    }

    void badTemplateNamesTheField()
    {
        QJsonObject bad = cardTemplate();
        bad.insert("root", QJsonObject{{"type", 42}});
        HttpReply r = render({{"template", bad}, {"output", "binary"}});
        VERIFY_PROBLEM(r, 400);
        QVERIFY2(r.json().value("field").toString().startsWith("template.root"), r.body.constData());
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("invalid_template"));

        r = render({{"template", "not a document"}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("template"));
        // One kind of render per request; page fields are refused on an inline one.
        r = render({{"template", cardTemplate()}, {"pageId", "pg_x"}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("ambiguous_render"));
        r = render({{"template", cardTemplate()}, {"draft", true}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("draft"));
        r = render({{"template", cardTemplate()}, {"tweaks", QJsonObject{{"bg", "not a colour"}}}});
        QVERIFY2(r.status == 400 || r.status == 422, r.body.constData());
        QVERIFY2(r.json().value("field").toString().contains("bg"), r.body.constData());
    }

    // issue 32: an invalid_template problem names the line and column of the place in the
    // template's JSON source, which the console's studio underlines.
    void problemsNameTheirLineAndColumn()
    {
        // A syntax error in the editor's text (a string `template`): QJsonParseError's place.
        const QString broken = QStringLiteral("{\n  \"width\": 120,\n  \"height\" 60\n}\n");
        HttpReply r = render({{"template", broken}, {"output", "dataurl"}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("invalid_template"));
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("template"));
        QCOMPARE(r.json().value("line").toInt(), 3);
        QVERIFY2(r.json().value("detail").toString().contains("line 3"), r.body.constData());

        // A member the validation refuses, in an indented text: that member's line.
        QJsonObject bad = cardTemplate();
        bad.insert("rendererType", "takumo");
        const QString text = QString::fromUtf8(QJsonDocument(bad).toJson(QJsonDocument::Indented));
        const QStringList lines = text.split(u'\n');
        int expectedLine = 0;
        for (int i = 0; i < lines.size() && !expectedLine; ++i)
            if (lines[i].contains(QLatin1String("\"rendererType\"")))
                expectedLine = i + 1;
        r = render({{"template", text}, {"output", "dataurl"}});
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("template.rendererType"));
        QCOMPARE(r.json().value("line").toInt(), expectedLine);
        QCOMPARE(r.json().value("column").toInt(), int(lines[expectedLine - 1].indexOf(u'"')) + 1);

        // A template object in the JSON body: the place in the body (one line, compact).
        const QByteArray body = json({{"template", bad}, {"output", "dataurl"}});
        r = m_e2e.request("POST", "/api/v1/render", body, E2eFixture::bearer(m_e2e.key()));
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("line").toInt(), 1);
        QVERIFY2(body.mid(r.json().value("column").toInt() - 1).startsWith("\"rendererType\""), body.constData());

        // POST /templates: the line of the body the client sent.
        r = m_e2e.request("POST", "/api/v1/templates", text.toUtf8(), E2eFixture::bearer(m_e2e.session()));
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("document.rendererType"));
        QCOMPARE(r.json().value("line").toInt(), expectedLine);
        // Problems of other codes carry no position.
        r = render({{"template", cardTemplate()}, {"draft", true}});
        QVERIFY(!r.json().contains("line"));
    }

    // A misspelt style property renders, with a warning naming the property meant.
    void misspeltPropertyWarnsWithSuggestion()
    {
        QJsonObject card = cardTemplate();
        QJsonObject root = card.value("root").toObject();
        QJsonObject props = root.value("props").toObject();
        QJsonObject style = props.value("style").toObject();
        style.insert("fontSzie", 40);
        props.insert("style", style);
        root.insert("props", props);
        card.insert("root", root);
        const HttpReply r = render({{"template", card}, {"output", "dataurl"}});
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().value("dataUrl").toString().startsWith("data:image/png;base64,"));
        const QJsonArray warnings = r.data().value("warnings").toArray();
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.first().toString().endsWith("fontSzie: unsupported property; did you mean 'fontSize'?"),
                 r.body.constData());
    }

    void scopesAndPlanApply()
    {
        // A key with only the content scope may not render.
        const HttpReply made
            = m_e2e.request("POST", "/api/v1/tokens/api-keys",
                            json({{"name", "content-only"}, {"scopes", QJsonArray{"content"}}}),
                            E2eFixture::bearer(m_e2e.session()));
        QCOMPARE(made.status, 201);
        HttpReply r = render({{"template", cardTemplate()}, {"output", "binary"}},
                             made.data().value("token").toString().toLatin1());
        VERIFY_PROBLEM(r, 403);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("missing_scope"));
        // No key at all.
        r = m_e2e.request("POST", "/api/v1/render", json({{"template", cardTemplate()}}));
        VERIFY_PROBLEM(r, 401);
        // The space's plan bounds the export size.
        r = render({{"template", cardTemplate()}, {"width", 100000}, {"output", "binary"}});
        VERIFY_PROBLEM(r, 402);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("width"));
    }

    void identicalRequestHitsTheMemo()
    {
        const QJsonObject body{{"template", cardTemplate()},
                               {"tweaks", QJsonObject{{"bg", "#123456"}}},
                               {"output", "dataurl"}};
        const HttpReply first = render(body);
        QCOMPARE(first.status, 200);
        QCOMPARE(first.data().value("reused").toBool(), false);
        const double sharedBefore = rendersShared();
        QVERIFY(sharedBefore >= 0);
        const HttpReply second = render(body);
        QCOMPARE(second.status, 200);
        QCOMPARE(second.data().value("reused").toBool(), true);
        QCOMPARE(second.data().value("dataUrl"), first.data().value("dataUrl"));
        QCOMPARE(rendersShared(), sharedBefore + 1);
        // The reused answer did no layout of its own (Server-Timing).
        QVERIFY2(second.header("Server-Timing").contains("layout;dur=0.00"), second.header("Server-Timing"));
        // A different tweak is a different image.
        QJsonObject other = body;
        other.insert("tweaks", QJsonObject{{"bg", "#654321"}});
        QCOMPARE(render(other).data().value("reused").toBool(), false);
    }
};

QTEST_GUILESS_MAIN(TestInlineRender)
#include "tst_inline_render.moc"
