// End-to-end tests of issue 31's template workflow against the real `imprint serve` on an
// ephemeral port (docs/api.md "Template versions", "Size presets", "Meta tags"): every
// template save is a numbered version, a rollback is a new version, a page pinned to a
// version keeps rendering it after the template changes, a publish snapshot records the
// version; renders take `size=NAME` (seven built-ins and a template's own), answer the
// template's `alt` with the render's values, and GET /pages/{id}/meta hands out tags
// whose signed og:image a crawler without any key fetches.
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QJsonArray>
#include <QTest>
#include <QUrl>

namespace {

/// A card whose background colour says which version rendered it; `sizes` adds an own
/// size, `alt` names the title.
QJsonObject cardTemplate(const QString &background)
{
    const QJsonObject style{{"display", "flex"},           {"width", "100%"},
                            {"height", "100%"},            {"backgroundColor", background},
                            {"color", "#ffffff"},          {"fontSize", "8vmin"},
                            {"fontFamily", "DejaVu Sans"}, {"alignItems", "center"},
                            {"justifyContent", "center"}};
    return QJsonObject{
        {"name", "Versioned card"},
        {"width", 400},
        {"height", 200},
        {"rendererType", "takumi"},
        {"alt", "Card: {{title}}"},
        {"sizes", QJsonObject{{"banner", QJsonObject{{"width", 300}, {"height", 100}}}}},
        {"variables", QJsonArray{QJsonObject{{"name", "title"}, {"type", "text"}, {"default", "Hello"}}}},
        {"root", QJsonObject{{"type", "div"},
                             {"props", QJsonObject{{"style", style}, {"children", QJsonArray{"{{title}}"}}}}}},
    };
}

QColor corner(const QImage &image)
{
    return image.pixelColor(2, 2);
}

} // namespace

class TestTemplateVersions : public QObject
{
    Q_OBJECT

private:
    E2eFixture m_e2e;
    QString m_templateId;
    QString m_typoId;

    Headers owner() const { return E2eFixture::bearer(m_e2e.session()); }
    Headers key() const { return E2eFixture::bearer(m_e2e.key()); }
    HttpReply send(const QByteArray &method, const QString &path, const QJsonObject &body, const Headers &headers)
    {
        return m_e2e.request(method, path.toUtf8(), body.isEmpty() ? QByteArray() : json(body), headers);
    }
    /// A page render's bytes (binary output), with `extra` fields.
    HttpReply renderPage(const QString &pageId, QJsonObject extra = {})
    {
        extra.insert("pageId", pageId);
        extra.insert("output", "binary");
        return send("POST", QStringLiteral("/api/v1/render"), extra, key());
    }
    QString createPage(const QJsonObject &fields)
    {
        QJsonObject body = fields;
        body.insert("templateId", m_templateId);
        const HttpReply r = send("POST", QStringLiteral("/api/v1/pages"), body, owner());
        if (r.status != 201)
            qWarning() << r.status << r.body;
        return r.data().value("id").toString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_e2e.setUp(), m_e2e.failure());
        const HttpReply r = send("POST", QStringLiteral("/api/v1/templates"), cardTemplate("#ff0000"), owner());
        QCOMPARE(r.status, 201);
        m_templateId = r.data().value("id").toString();
        QCOMPARE(r.data().value("version").toInt(), 1);
        // A template with nothing to warn about answers an empty list.
        QCOMPARE(r.data().value("warnings").toArray(), QJsonArray());
    }

    // A typo in a property or a keyword is stored (renders skip it), but the write's
    // answer names it with the nearest known name; a GET does not repeat it.
    void writesAnswerTheirWarnings()
    {
        QJsonObject doc = cardTemplate("#ff0000");
        QJsonObject root = doc.value("root").toObject();
        QJsonObject props = root.value("props").toObject();
        QJsonObject style = props.value("style").toObject();
        style.insert("fontSzie", 40);
        style.insert("justifyContent", "space-betwen");
        style.insert("qqqq", 1);
        props.insert("style", style);
        root.insert("props", props);
        doc.insert("root", root);
        for (const QByteArray &method : {QByteArray("POST"), QByteArray("PUT")}) {
            const QString path = method == "POST" ? QStringLiteral("/api/v1/templates")
                                                  : QStringLiteral("/api/v1/templates/") + m_typoId;
            const HttpReply r = send(method, path, doc, owner());
            QCOMPARE(r.status, method == "POST" ? 201 : 200);
            if (method == "POST")
                m_typoId = r.data().value("id").toString();
            const QStringList warnings = r.data().value("warnings").toVariant().toStringList();
            const QString all = warnings.join(u'\n');
            QCOMPARE(warnings.size(), 3);
            QVERIFY2(all.contains(QLatin1String("fontSzie: unsupported property; did you mean 'fontSize'?")),
                     qPrintable(all));
            QVERIFY2(all.contains(QLatin1String("did you mean 'space-between'?")), qPrintable(all));
            QVERIFY2(all.contains(QLatin1String("qqqq: unsupported property")) && !all.contains("qqqq: unsupported property;"),
                     qPrintable(all));
        }
        const HttpReply r = m_e2e.get(("/api/v1/templates/" + m_typoId).toUtf8(), owner());
        QCOMPARE(r.status, 200);
        QVERIFY(!r.data().contains("warnings"));
        QVERIFY(send("DELETE", "/api/v1/templates/" + m_typoId, {}, owner()).status == 200);
    }

    // Create, then two updates: versions 1..3, newest first, each with its document.
    void versionsCountUp()
    {
        for (const char *colour : {"#00ff00", "#0000ff"}) {
            const HttpReply r = send("PUT", "/api/v1/templates/" + m_templateId, cardTemplate(colour), owner());
            QCOMPARE(r.status, 200);
        }
        HttpReply r = m_e2e.get(("/api/v1/templates/" + m_templateId).toUtf8(), owner());
        QCOMPARE(r.data().value("version").toInt(), 3);
        r = m_e2e.get(("/api/v1/templates/" + m_templateId + "/versions?perPage=2").toUtf8(), owner());
        QCOMPARE(r.status, 200);
        const QJsonObject page = r.data();
        QCOMPARE(page.value("count").toInt(), 3);
        QCOMPARE(page.value("pagesCount").toInt(), 2);
        const QJsonArray list = page.value("list").toArray();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list.at(0).toObject().value("version").toInt(), 3);
        QCOMPARE(list.at(1).toObject().value("version").toInt(), 2);
        QVERIFY(!list.at(0).toObject().contains("document")); // lists leave documents out
        QVERIFY(!list.at(0).toObject().value("createdBy").toString().isEmpty());

        r = m_e2e.get(("/api/v1/templates/" + m_templateId + "/versions/1").toUtf8(), owner());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("document").toObject(), cardTemplate("#ff0000"));
        r = m_e2e.get(("/api/v1/templates/" + m_templateId + "/versions/9").toUtf8(), owner());
        QVERIFY(isProblem(r, 404));
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("template_version_not_found"));
        r = m_e2e.get(("/api/v1/templates/" + m_templateId + "/versions/zero").toUtf8(), owner());
        QVERIFY(isProblem(r, 400));
    }

    // A page pinned to version 1 renders red while the template is blue; one following
    // the latest renders blue; the snapshot of each records its version.
    void pinnedPageKeepsItsVersion()
    {
        const QString pinned = createPage({{"templateVersion", 1}, {"publish", true}});
        const QString latest = createPage({{"publish", true}});
        QVERIFY(!pinned.isEmpty() && !latest.isEmpty());
        HttpReply r = m_e2e.get(("/api/v1/pages/" + pinned).toUtf8(), owner());
        QCOMPARE(r.data().value("templateVersion").toInt(), 1);
        QCOMPARE(r.data().value("publishedTemplateVersion").toInt(), 1);
        r = m_e2e.get(("/api/v1/pages/" + latest).toUtf8(), owner());
        QVERIFY(r.data().value("templateVersion").isNull());
        QCOMPARE(r.data().value("publishedTemplateVersion").toInt(), 3);

        for (const bool draft : {false, true}) {
            r = renderPage(pinned, {{"draft", draft}});
            QCOMPARE(r.status, 200);
            QCOMPARE(corner(decode(r.body)), QColor(255, 0, 0));
            r = renderPage(latest, {{"draft", draft}});
            QCOMPARE(corner(decode(r.body)), QColor(0, 0, 255));
        }
        // A fourth version: the pinned page's draft still renders version 1.
        QCOMPARE(send("PUT", "/api/v1/templates/" + m_templateId, cardTemplate("#ffff00"), owner()).status, 200);
        r = renderPage(pinned, {{"draft", true}});
        QCOMPARE(corner(decode(r.body)), QColor(255, 0, 0));
        r = renderPage(latest, {{"draft", true}});
        QCOMPARE(corner(decode(r.body)), QColor(255, 255, 0));
        // Unpinned (null) and republished: the latest, and the snapshot says which.
        r = send("PUT", "/api/v1/pages/" + pinned, {{"templateVersion", QJsonValue::Null}}, owner());
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().value("templateVersion").isNull());
        r = send("POST", "/api/v1/pages/" + pinned + "/publish", {}, owner());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("publishedTemplateVersion").toInt(), 4);
        r = renderPage(pinned);
        QCOMPARE(corner(decode(r.body)), QColor(255, 255, 0));
        // A version the template does not have.
        r = send("PUT", "/api/v1/pages/" + pinned, {{"templateVersion", 42}}, owner());
        QVERIFY(isProblem(r, 404));
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("templateVersion"));
    }

    // A rollback is a new version with the old content; history stays.
    void rollbackMakesANewVersion()
    {
        HttpReply r = send("POST", "/api/v1/templates/" + m_templateId + "/rollback", {{"version", 2}}, owner());
        QCOMPARE(r.status, 200);
        const int version = r.data().value("version").toInt();
        QVERIFY(version >= 5);
        QCOMPARE(r.data().value("document").toObject(), cardTemplate("#00ff00"));
        r = m_e2e.get(("/api/v1/templates/" + m_templateId + "/versions").toUtf8(), owner());
        QCOMPARE(r.data().value("count").toInt(), version);
        r = send("POST", "/api/v1/templates/" + m_templateId + "/rollback", {{"version", 99}}, owner());
        QVERIFY(isProblem(r, 404));
        r = send("POST", "/api/v1/templates/" + m_templateId + "/rollback", {}, owner());
        QVERIFY(isProblem(r, 400));
    }

    // `sizes` is checked when a template is saved, naming the member.
    void badSizesAreRefused()
    {
        QJsonObject doc = cardTemplate("#000000");
        doc.insert("sizes", QJsonObject{{"banner", QJsonObject{{"width", 0}, {"height", 100}}}});
        HttpReply r = send("POST", QStringLiteral("/api/v1/templates"), doc, owner());
        QVERIFY(isProblem(r, 400));
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("document.sizes.banner.width"));
        doc.insert("sizes", QJsonArray{"og", "billboard"});
        r = send("POST", QStringLiteral("/api/v1/templates"), doc, owner());
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("document.sizes.1"));
        doc.insert("sizes", QJsonArray{"og", "square"});
        doc.insert("alt", 12);
        r = send("POST", QStringLiteral("/api/v1/templates"), doc, owner());
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("document.alt"));
    }

    // All seven presets and an own size give images of their size; an unknown name and a
    // size with a width are 422 naming `size`.
    void sizePresets()
    {
        const QString page = createPage({{"publish", true}, {"variables", QJsonObject{{"title", "Sizes"}}}});
        const QList<QPair<QString, QSize>> presets{
            {"og", {1200, 630}},         {"twitter", {1200, 675}}, {"linkedin", {1200, 627}},
            {"square", {1080, 1080}},    {"portrait", {1080, 1350}}, {"story", {1080, 1920}},
            {"pinterest", {1000, 1500}}, {"banner", {300, 100}},    {"OG", {1200, 630}}};
        for (const auto &[name, size] : presets) {
            const HttpReply r = renderPage(page, {{"size", name}});
            QVERIFY2(r.status == 200, r.body.constData());
            QCOMPARE(decode(r.body).size(), size);
        }
        // The query string takes it too, and the JSON answer reports the size.
        HttpReply r = m_e2e.get(("/api/v1/render?pageId=" + page + "&size=story").toUtf8(), key());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("width").toInt(), 1080);
        QCOMPARE(r.data().value("height").toInt(), 1920);
        r = renderPage(page, {{"size", "billboard"}});
        QVERIFY(isProblem(r, 422));
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("unknown_size"));
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("size"));
        QVERIFY(r.json().value("detail").toString().contains("pinterest, banner"));
        r = renderPage(page, {{"size", "og"}, {"width", 500}});
        QVERIFY(isProblem(r, 422));
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("size_conflict"));
        // An inline render: the inline template's sizes.
        QJsonObject inlineBody{{"template", cardTemplate("#123456")}, {"size", "square"}, {"output", "binary"}};
        r = send("POST", QStringLiteral("/api/v1/render"), inlineBody, key());
        QCOMPARE(r.status, 200);
        QCOMPARE(decode(r.body).size(), QSize(1080, 1080));
        // A pattern has no template sizes.
        r = m_e2e.get("/api/v1/render?pattern=waves-sunset&size=og");
        QVERIFY(isProblem(r, 400));
    }

    // The template's alt with the render's values, in JSON answers.
    void altInJsonResults()
    {
        const QString page = createPage({{"publish", true}, {"variables", QJsonObject{{"title", "Launch day"}}}});
        HttpReply r = send("POST", QStringLiteral("/api/v1/render"), {{"pageId", page}}, key());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.data().value("alt").toString(), QStringLiteral("Card: Launch day"));
        r = send("POST", QStringLiteral("/api/v1/render"),
                 {{"pageId", page}, {"tweaks", QJsonObject{{"title", "Tweaked"}}}}, key());
        QCOMPARE(r.data().value("alt").toString(), QStringLiteral("Card: Tweaked"));
        QJsonObject noAlt = cardTemplate("#000000");
        noAlt.remove("alt");
        r = send("POST", QStringLiteral("/api/v1/render"), {{"template", noAlt}, {"output", "dataurl"}}, key());
        QCOMPARE(r.status, 200);
        QVERIFY(r.data().value("alt").isNull());
    }

    // GET /pages/{id}/meta: JSON and HTML tags; the signed og:image fetched with no key.
    void metaTags()
    {
        HttpReply r = send("POST", QStringLiteral("/api/v1/signing-keys"), {{"name", "og"}}, owner());
        QCOMPARE(r.status, 201);
        const QString signingKey = r.data().value("id").toString();
        const QString page
            = createPage({{"publish", true}, {"variables", QJsonObject{{"title", "Tom & \"Jerry\" <3"}}}});
        const QByteArray base = ("/api/v1/pages/" + page + "/meta?signingKey=" + signingKey).toUtf8();

        r = m_e2e.get(base, key());
        QVERIFY2(r.status == 200, r.body.constData());
        const QJsonObject tags = r.data().value("tags").toObject();
        QCOMPARE(tags.value("og:image:width").toString(), QStringLiteral("400"));
        QCOMPARE(tags.value("og:image:height").toString(), QStringLiteral("200"));
        QCOMPARE(tags.value("og:image:type").toString(), QStringLiteral("image/png"));
        QCOMPARE(tags.value("og:image:alt").toString(), QStringLiteral("Card: Tom & \"Jerry\" <3"));
        QCOMPARE(tags.value("twitter:card").toString(), QStringLiteral("summary_large_image"));
        QCOMPARE(tags.value("twitter:image").toString(), tags.value("og:image").toString());
        QCOMPARE(r.header("Cache-Control"), QByteArray("no-store"));

        // A crawler: no key, no session, only the URL.
        const QUrl image(tags.value("og:image").toString());
        // The test client's Host header names no port: the URL is the service's public base.
        QCOMPARE(image.toString(QUrl::RemoveQuery), QStringLiteral("http://127.0.0.1/api/v1/render"));
        HttpReply crawled = m_e2e.get(image.path(QUrl::FullyEncoded).toUtf8() + '?' + image.query(QUrl::FullyEncoded).toUtf8());
        QCOMPARE(crawled.status, 200);
        QCOMPARE(crawled.header("Content-Type"), QByteArray("image/png"));
        QCOMPARE(decode(crawled.body).size(), QSize(400, 200));

        // A size: the URL renders it and the tags say so.
        r = m_e2e.get(base + "&size=square", key());
        QCOMPARE(r.data().value("tags").toObject().value("og:image:width").toString(), QStringLiteral("1080"));
        const QUrl square(r.data().value("imageUrl").toString());
        crawled = m_e2e.get(square.path(QUrl::FullyEncoded).toUtf8() + '?' + square.query(QUrl::FullyEncoded).toUtf8());
        QCOMPARE(crawled.status, 200);
        QCOMPARE(decode(crawled.body).size(), QSize(1080, 1080));
        // Tampered: the size changed after signing is refused.
        const QByteArray tampered = square.query(QUrl::FullyEncoded).toUtf8().replace("size=square", "size=story");
        QCOMPARE(m_e2e.get("/api/v1/render?" + tampered).status, 403);

        // HTML: one <meta> per tag, values escaped.
        for (const auto &[path, headers] : QList<QPair<QByteArray, Headers>>{
                 {base + "&format=html", key()}, {base, key() + Headers{{"Accept", "text/html"}}}}) {
            r = m_e2e.get(path, headers);
            QCOMPARE(r.status, 200);
            QVERIFY(r.header("Content-Type").startsWith("text/html"));
            const QString html = QString::fromUtf8(r.body);
            QVERIFY2(html.contains("<meta property=\"og:image:alt\" content=\"Card: Tom &amp; &quot;Jerry&quot; &lt;3\">"),
                     r.body.constData());
            QVERIFY(html.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"));
            QVERIFY(html.contains("<meta property=\"og:image\" content=\"http://"));
            QVERIFY(!html.contains("Jerry\""));
        }

        // Refusals.
        r = m_e2e.get(("/api/v1/pages/" + page + "/meta").toUtf8(), key());
        QVERIFY(isProblem(r, 400));
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("signingKey"));
        r = m_e2e.get(base + "&size=billboard", key());
        QVERIFY(isProblem(r, 422));
        r = m_e2e.get(("/api/v1/pages/" + page + "/meta?signingKey=sgk_nope").toUtf8(), key());
        QVERIFY(isProblem(r, 404));
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("signing_key_not_found"));
        const QString draft = createPage({});
        r = m_e2e.get(("/api/v1/pages/" + draft + "/meta?signingKey=" + signingKey).toUtf8(), key());
        QVERIFY(isProblem(r, 404));
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("page_not_published"));
        r = m_e2e.get(base);
        QVERIFY(isProblem(r, 401));
    }

    // The CLI: versions and rollback on the data directory.
    void cli()
    {
        QByteArray out;
        int rc = runCli({"template", "versions", m_templateId, "--json", "--data", m_e2e.dataDir()}, {}, &out);
        QCOMPARE(rc, 0);
        const QJsonObject listed = QJsonDocument::fromJson(out).object();
        const int count = listed.value("count").toInt();
        QVERIFY(count >= 5);
        rc = runCli({"template", "rollback", m_templateId, "1", "--json", "--data", m_e2e.dataDir()}, {}, &out);
        QCOMPARE(rc, 0);
        QCOMPARE(QJsonDocument::fromJson(out).object().value("version").toInt(), count + 1);
        const HttpReply r = m_e2e.get(("/api/v1/templates/" + m_templateId).toUtf8(), owner());
        QCOMPARE(r.data().value("document").toObject(), cardTemplate("#ff0000"));
        rc = runCli({"template", "rollback", m_templateId, "0", "--data", m_e2e.dataDir()}, {}, &out);
        QCOMPARE(rc, 2);
        rc = runCli({"template", "rollback", m_templateId, "999", "--data", m_e2e.dataDir()}, {}, &out);
        QCOMPARE(rc, 1);
    }
};

QTEST_GUILESS_MAIN(TestTemplateVersions)
#include "tst_template_versions.moc"
