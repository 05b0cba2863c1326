// End-to-end tests of signed render URLs and signing keys (docs/api.md, "Signed URLs")
// against the real `imprint serve` on an ephemeral port. The test signs URLs with its own
// HMAC (QMessageAuthenticationCode) over the canonical string as docs/api.md defines it,
// so a server that drifted from the documented scheme fails here, and it checks that the
// CLI's `imprint url sign` output verifies against the server.
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QMessageAuthenticationCode>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

namespace {

const QByteArray kTemplate = R"({"name": "Signed card", "width": 400, "height": 300, "rendererType": "takumi",
  "variables": [{"name": "title", "type": "text", "default": "Hello"}],
  "root": {"type": "div", "props": {"style": {"display": "flex", "width": "100%", "height": "100%",
           "backgroundColor": "#336699", "color": "#ffffff", "fontSize": 40, "fontFamily": "DejaVu Sans",
           "alignItems": "center", "justifyContent": "center"}, "children": ["{{title}}"]}}})";

/// The docs/api.md scheme, written out again here: RFC 3986 encoding of names and values,
/// sorted, joined; path + "\n" + that; HMAC-SHA-256; base64url without padding.
QByteArray signQuery(const QByteArray &secret, const QList<QPair<QByteArray, QByteArray>> &items)
{
    QList<QByteArray> pairs;
    for (const auto &[name, value] : items)
        pairs.append(QUrl::toPercentEncoding(QString::fromUtf8(name)) + '='
                     + QUrl::toPercentEncoding(QString::fromUtf8(value)));
    std::sort(pairs.begin(), pairs.end());
    const QByteArray query = pairs.join('&');
    const QByteArray mac
        = QMessageAuthenticationCode::hash("/api/v1/render\n" + query, secret, QCryptographicHash::Sha256);
    return query + "&sig=" + mac.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace

class TestSignedUrls : public QObject
{
    Q_OBJECT

private:
    E2eFixture m_e2e;
    QString m_session; // owner of "alpha"
    QString m_memberSession; // member of "alpha"
    QString m_pageId; // published
    QString m_draftPageId; // never published
    QByteArray m_keyId;
    QByteArray m_secret;

    quint16 port() const { return m_e2e.port(); }
    Headers session(const QString &token) const { return {{"Authorization", "Bearer " + token.toLatin1()}}; }
    HttpReply get(const QByteArray &path, const Headers &headers = {})
    {
        return httpRequest(port(), "GET", path, {}, headers);
    }
    QList<QPair<QByteArray, QByteArray>> baseItems() const
    {
        return {{"pageId", m_pageId.toLatin1()}, {"format", "png"}, {"tweaks.title", "Hi & bye/ü"}, {"kid", m_keyId}};
    }
    QByteArray signedPath(const QList<QPair<QByteArray, QByteArray>> &items, const QByteArray &secret = {}) const
    {
        return "/api/v1/render?" + signQuery(secret.isEmpty() ? m_secret : secret, items);
    }
    QJsonObject metrics() { return get("/api/v1/metrics").json().value("signedUrls").toObject(); }
    QString cli(const QStringList &args, int *rc = nullptr)
    {
        QByteArray out;
        const int code = runCli(args + QStringList{"--data", m_e2e.dataDir()}, {}, &out);
        if (rc)
            *rc = code;
        return QString::fromUtf8(out).trimmed();
    }

private slots:
    void initTestCase()
    {
        E2eOptions world = E2eOptions::withOwner("alpha", "owner@alpha.test", "free");
        world.pageTemplate = kTemplate;
        world.start = false;
        QVERIFY2(m_e2e.setUp(world), m_e2e.failure());
        QVERIFY2(m_e2e.addUser("member@alpha.test", "alpha", "member"), m_e2e.failure());
        const QString templateId = QString::fromLatin1(m_e2e.templateId());
        QVERIFY(templateId.startsWith("tpl_"));
        m_pageId = QString::fromLatin1(m_e2e.pageId());
        m_draftPageId = QJsonDocument::fromJson(
                            cli({"page", "create", "--space", "alpha", "--template", templateId, "--json"}).toUtf8())
                            .object()
                            .value("id")
                            .toString();
        QVERIFY(m_pageId.startsWith("pg_") && m_draftPageId.startsWith("pg_"));
        QVERIFY2(m_e2e.startServer(), m_e2e.failure());
        m_session = QString::fromLatin1(m_e2e.login("owner@alpha.test"));
        m_memberSession = QString::fromLatin1(m_e2e.login("member@alpha.test"));
        QVERIFY(!m_session.isEmpty() && !m_memberSession.isEmpty());
    }

    void createAndListSigningKeys()
    {
        HttpReply r = httpRequest(port(), "POST", "/api/v1/signing-keys", json({{"name", "blog"}}), session(m_session));
        QCOMPARE(r.status, 201);
        QCOMPARE(r.header("Cache-Control"), QByteArray("no-store"));
        const QJsonObject data = r.data();
        m_keyId = data.value("id").toString().toLatin1();
        m_secret = data.value("secret").toString().toLatin1();
        QVERIFY2(m_keyId.startsWith("sgk_") && m_keyId.size() == 24, m_keyId.constData());
        QVERIFY(m_secret.startsWith("sks_") && m_secret.size() == 44);
        QCOMPARE(data.value("name").toString(), QStringLiteral("blog"));
        QVERIFY(!data.value("createdAt").toString().isEmpty());

        r = get("/api/v1/signing-keys?page=1&perPage=20", session(m_session));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value("success").toBool(), true);
        QCOMPARE(r.data().value("count").toInt(), 1);
        QCOMPARE(r.data().value("pagesCount").toInt(), 1);
        QCOMPARE(r.data().value("perPage").toInt(), 20);
        const QJsonObject listed = r.data().value("list").toArray().at(0).toObject();
        QCOMPARE(listed.value("id").toString().toLatin1(), m_keyId);
        QVERIFY(!listed.contains("secret")); // shown once, at creation
        QVERIFY(!r.body.contains(m_secret));

        // Bad input names the field; members may not manage keys; no session, no keys.
        VERIFY_PROBLEM(httpRequest(port(), "POST", "/api/v1/signing-keys", "{}", session(m_session)), 400);
        QCOMPARE(httpRequest(port(), "POST", "/api/v1/signing-keys", "{}", session(m_session)).json().value("field"),
                 QJsonValue("name"));
        VERIFY_PROBLEM(httpRequest(port(), "POST", "/api/v1/signing-keys", json({{"name", ""}}), session(m_session)),
                       400);
        VERIFY_PROBLEM(get("/api/v1/signing-keys?perPage=0", session(m_session)), 400);
        VERIFY_PROBLEM(
            httpRequest(port(), "POST", "/api/v1/signing-keys", json({{"name", "x"}}), session(m_memberSession)), 403);
        VERIFY_PROBLEM(get("/api/v1/signing-keys"), 401);
        VERIFY_PROBLEM(httpRequest(port(), "DELETE", "/api/v1/signing-keys/sgk_nope", {}, session(m_session)), 404);
    }

    void secretIsSealedAtRest()
    {
        // The database holds the secret only encrypted; the server key is owner-only.
        const QByteArray all = dumpTestDatabase(m_e2e.dataDir());
        QVERIFY(all.contains("sgk_")); // the dump holds the signing key's row
        QVERIFY(!all.contains(m_secret));
        QVERIFY(!all.contains(m_secret.mid(4)));
        const QFileInfo key(m_e2e.dataDir() + "/signing.key");
        QCOMPARE(key.size(), qint64(32));
        QCOMPARE(int(key.permissions()) & 0x0077, 0); // no group or other permission bits
        QVERIFY(!m_e2e.server().log().contains(m_secret));
    }

    void signedUrlServesTheImage()
    {
        const QByteArray path = signedPath(baseItems());
        const HttpReply r = get(path); // no credentials at all
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/png"));
        QCOMPARE(decode(r.body, "png").size(), QSize(400, 300));
        QCOMPARE(r.header("Cache-Control"), QByteArray("public, max-age=86400, immutable"));
        const QByteArray etag = r.header("ETag");
        QVERIFY2(etag.size() > 2 && etag.startsWith('"') && etag.endsWith('"'), etag.constData()); // strong
        QCOMPARE(get(path).header("ETag"), etag); // stable

        // Revalidation: the same tag (also as a weak one, or among others) is 304, no body.
        for (const QByteArray &inm : {etag, "W/" + etag, "\"other\", " + etag, QByteArray("*")}) {
            const HttpReply again = get(path, {{"If-None-Match", inm}});
            QCOMPARE(again.status, 304);
            QVERIFY(again.body.isEmpty());
            QCOMPARE(again.header("ETag"), etag);
            QCOMPARE(again.header("Cache-Control"), QByteArray("public, max-age=86400, immutable"));
        }
        QCOMPARE(get(path, {{"If-None-Match", "\"other\""}}).status, 200);

        // What determines the pixels determines the tag: another tweak, format or size.
        auto items = baseItems();
        items[2].second = "Another title";
        const HttpReply other = get(signedPath(items));
        QCOMPARE(other.status, 200);
        QVERIFY(other.header("ETag") != etag);
        items = baseItems();
        items[1].second = "webp";
        const HttpReply webp = get(signedPath(items));
        QCOMPARE(webp.header("Content-Type"), QByteArray("image/webp"));
        QCOMPARE(webpSize(webp.body), QSize(400, 300));
        QVERIFY(webp.header("ETag") != etag);

        // HEAD: the same status and headers, no body.
        const HttpReply head = headRequest(port(), path);
        QCOMPARE(head.status, 200);
        QCOMPARE(head.header("Content-Type"), QByteArray("image/png"));
        QCOMPARE(head.header("ETag"), etag);
        QCOMPARE(qsizetype(head.header("Content-Length").toLongLong()), r.body.size());
        QVERIFY(head.body.isEmpty());
    }

    void expiryGivesMaxAgeAndThenExpires()
    {
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        auto items = baseItems();
        items.append({"exp", QByteArray::number(now + 600)});
        const HttpReply r = get(signedPath(items));
        QCOMPARE(r.status, 200);
        const QByteArray cc = r.header("Cache-Control");
        QVERIFY2(cc.startsWith("public, max-age=") && cc.endsWith(", immutable"), cc.constData());
        const int maxAge = cc.mid(16, cc.indexOf(',', 16) - 16).toInt();
        QVERIFY2(maxAge > 590 && maxAge <= 600, cc.constData());

        const double before = metrics().value("expired").toDouble();
        items.last().second = QByteArray::number(now - 5);
        const HttpReply expired = get(signedPath(items));
        VERIFY_PROBLEM(expired, 403);
        QCOMPARE(expired.json().value("code").toString(), QStringLiteral("signature_expired"));
        QCOMPARE(metrics().value("expired").toDouble(), before + 1);
    }

    void anyChangeBreaksTheSignature_data()
    {
        QTest::addColumn<QString>("name"); // the item to change, or to add when absent
        QTest::addColumn<QString>("value"); // empty: change the last character
        QTest::newRow("pageId") << QStringLiteral("pageId") << QString();
        QTest::newRow("format") << QStringLiteral("format") << QStringLiteral("svg");
        QTest::newRow("tweak") << QStringLiteral("tweaks.title") << QStringLiteral("Hi & bye/u");
        QTest::newRow("kid") << QStringLiteral("kid") << QString();
        QTest::newRow("added width") << QStringLiteral("width") << QStringLiteral("200");
    }

    void anyChangeBreaksTheSignature()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        const QByteArray good = signedPath(baseItems());
        QCOMPARE(get(good).status, 200);
        QUrlQuery query(QString::fromLatin1(good.mid(good.indexOf('?') + 1)));
        auto items = query.queryItems(QUrl::FullyDecoded);
        const auto it = std::find_if(items.begin(), items.end(), [&](const auto &item) { return item.first == name; });
        if (it == items.end()) {
            items.append({name, value});
        } else {
            QString &v = it->second;
            v = value.isEmpty()
                    ? v.left(v.size() - 1) + (v.endsWith(QLatin1Char('A')) ? QLatin1Char('B') : QLatin1Char('A'))
                    : value;
        }
        query.setQueryItems(items);
        const double before = metrics().value("invalid").toDouble();
        const HttpReply r = get("/api/v1/render?" + query.toString(QUrl::FullyEncoded).toLatin1());
        VERIFY_PROBLEM(r, 403);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("signature_invalid"));
        QCOMPARE(r.json().value("type").toString(), QStringLiteral("urn:imprint:problem:signature_invalid"));
        QCOMPARE(metrics().value("invalid").toDouble(), before + 1);
    }

    void signatureItselfAndBadInput()
    {
        QByteArray path = signedPath(baseItems());
        path[path.size() - 2] = path[path.size() - 2] == 'A' ? 'B' : 'A';
        QCOMPARE(get(path).json().value("code").toString(), QStringLiteral("signature_invalid"));
        // Signed with another secret.
        QCOMPARE(get(signedPath(baseItems(), "sks_not-the-secret")).json().value("code").toString(),
                 QStringLiteral("signature_invalid"));
        // No kid: 400 naming it. A draft, even correctly signed: 400 naming draft.
        const HttpReply noKid = get("/api/v1/render?pageId=" + m_pageId.toLatin1() + "&sig=abc");
        VERIFY_PROBLEM(noKid, 400);
        QCOMPARE(noKid.json().value("field").toString(), QStringLiteral("kid"));
        const HttpReply draft
            = get(signedPath({{"pageId", m_draftPageId.toLatin1()}, {"draft", "true"}, {"kid", m_keyId}}));
        VERIFY_PROBLEM(draft, 400);
        QCOMPARE(draft.json().value("field").toString(), QStringLiteral("draft"));
        // An unpublished page through a signed URL: 404, never its draft.
        const HttpReply unpublished = get(signedPath({{"pageId", m_draftPageId.toLatin1()}, {"kid", m_keyId}}));
        VERIFY_PROBLEM(unpublished, 404);
        QCOMPARE(unpublished.json().value("code").toString(), QStringLiteral("page_not_published"));
    }

    void republishingChangesTheETag()
    {
        // The tag names the published version: after a publish the old tag is no
        // longer current, so a cache that revalidates gets the new image.
        const QByteArray path = signedPath(baseItems());
        const QByteArray before = get(path).header("ETag");
        QTest::qWait(5); // publish times are in ms
        const HttpReply published
            = httpRequest(port(), "POST", "/api/v1/pages/" + m_pageId.toLatin1() + "/publish", {}, session(m_session));
        QCOMPARE(published.status, 200);
        const HttpReply after = get(path, {{"If-None-Match", before}});
        QCOMPARE(after.status, 200);
        QVERIFY(!after.header("ETag").isEmpty() && after.header("ETag") != before);
        QCOMPARE(get(path, {{"If-None-Match", after.header("ETag")}}).status, 304);
    }

    void onlyTheSignedQueryCounts()
    {
        // A JSON body on a signed GET is unsigned input: ignored, not merged.
        const HttpReply r = httpRequest(port(), "GET", signedPath(baseItems()), json({{"format", "webp"}}));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Content-Type"), QByteArray("image/png"));
        // The space's plan still applies (alpha is free: 1000 px at most).
        auto items = baseItems();
        items.append({QByteArray("width"), QByteArray("3000")});
        const HttpReply tooWide = get(signedPath(items));
        VERIFY_PROBLEM(tooWide, 402);
        QCOMPARE(tooWide.json().value("field").toString(), QStringLiteral("width"));
    }

    void cliSignsUrlsTheServerAccepts()
    {
        int rc = -1;
        const QString created = cli({"signing-key", "create", "--space", "alpha", "--name", "cli", "--json"}, &rc);
        QCOMPARE(rc, 0);
        const QByteArray cliKey = QJsonDocument::fromJson(created.toUtf8()).object().value("id").toString().toLatin1();
        QVERIFY2(cliKey.startsWith("sgk_"), qPrintable(created));
        QVERIFY(cli({"signing-key", "list", "--space", "alpha"}, &rc).contains(QString::fromLatin1(cliKey)));

        const QString base = QStringLiteral("http://127.0.0.1:%1/api/v1/render?pageId=%2&tweaks.title=From%20the%20CLI")
                                 .arg(port())
                                 .arg(m_pageId);
        const QString url = cli({"url", "sign", "--space", "alpha", "--signing-key", QString::fromLatin1(cliKey),
                                 "--expires", "3600", base},
                                &rc);
        QCOMPARE(rc, 0);
        const QUrl signedUrl(url);
        QVERIFY2(signedUrl.isValid() && QUrlQuery(signedUrl).hasQueryItem("sig")
                     && QUrlQuery(signedUrl).hasQueryItem("exp"),
                 qPrintable(url));
        const HttpReply r
            = get(signedUrl.path(QUrl::FullyEncoded).toLatin1() + '?' + signedUrl.query(QUrl::FullyEncoded).toLatin1());
        QCOMPARE(r.status, 200);
        QCOMPARE(decode(r.body, "png").size(), QSize(400, 300));
        // The key of another space, or an unknown one, signs nothing.
        cli({"url", "sign", "--space", "alpha", "--signing-key", "sgk_unknown", base}, &rc);
        QVERIFY(rc != 0);
        cli({"signing-key", "revoke", QString::fromLatin1(cliKey)}, &rc);
        QCOMPARE(rc, 0);
        QCOMPARE(
            get(signedUrl.path(QUrl::FullyEncoded).toLatin1() + '?' + signedUrl.query(QUrl::FullyEncoded).toLatin1())
                .json()
                .value("code")
                .toString(),
            QStringLiteral("signature_invalid"));
    }

    void serverSignsForTheConsole()
    {
        // POST /signing-keys/{id}/sign: the secret, shown once, is not needed to sign.
        const QString base = QStringLiteral("http://127.0.0.1:%1/api/v1/render?pageId=%2&format=png&kid=old&sig=old")
                                 .arg(port())
                                 .arg(m_pageId);
        const QByteArray route = "/api/v1/signing-keys/" + m_keyId + "/sign";
        HttpReply r
            = httpRequest(port(), "POST", route, json({{"url", base}, {"expiresInSeconds", 600}}), session(m_session));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Cache-Control"), QByteArray("no-store"));
        QVERIFY(!r.body.contains(m_secret));
        const QUrl signedUrl(r.data().value("url").toString());
        const QUrlQuery query(signedUrl);
        QCOMPARE(query.queryItemValue("kid").toLatin1(), m_keyId); // the old kid and sig are replaced
        QCOMPARE(query.allQueryItemValues("sig").size(), 1);
        const qint64 exp = query.queryItemValue("exp").toLongLong();
        QVERIFY(qAbs(exp - (QDateTime::currentSecsSinceEpoch() + 600)) < 30);
        r = get(signedUrl.path(QUrl::FullyEncoded).toLatin1() + '?' + signedUrl.query(QUrl::FullyEncoded).toLatin1());
        QCOMPARE(r.status, 200);
        QCOMPARE(decode(r.body, "png").size(), QSize(400, 300));

        // Not a render URL, a bad expiry, an unknown key, a member, no session.
        r = httpRequest(port(), "POST", route, json({{"url", "https://example.com/elsewhere"}}), session(m_session));
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("url"));
        r = httpRequest(port(), "POST", route, json({{"url", base}, {"expiresInSeconds", -5}}), session(m_session));
        VERIFY_PROBLEM(r, 400);
        QCOMPARE(r.json().value("field").toString(), QStringLiteral("expiresInSeconds"));
        // At most 10 years, as GET /pages/{id}/meta: a larger expiry made now + it overflow
        // into a negative exp, a URL signed already expired (a schemathesis sweep).
        for (const double tooLong : {315360001.0, 9223372036854774784.0}) {
            const QByteArray body = "{\"url\":\"" + base.toLatin1() + "\",\"expiresInSeconds\":"
                                    + QByteArray::number(tooLong, 'f', 0) + "}";
            r = httpRequest(port(), "POST", route, body, session(m_session));
            VERIFY_PROBLEM(r, 400);
            QCOMPARE(r.json().value("field").toString(), QStringLiteral("expiresInSeconds"));
        }
        r = httpRequest(port(), "POST", route, json({{"url", base}, {"expiresInSeconds", 315360000}}),
                        session(m_session));
        QCOMPARE(r.status, 200);
        const qint64 tenYears = QUrlQuery(QUrl(r.data().value("url").toString())).queryItemValue("exp").toLongLong();
        QVERIFY(qAbs(tenYears - (QDateTime::currentSecsSinceEpoch() + 315360000)) < 30);
        QJsonValue schema = get("/api/v1/openapi.json").json();
        for (const char *key : {"paths", "/api/v1/signing-keys/{id}/sign", "post", "requestBody", "content",
                                "application/json", "schema", "properties", "expiresInSeconds"})
            schema = schema.toObject().value(QLatin1String(key));
        QCOMPARE(schema.toObject().value("maximum").toInteger(), 315360000);
        VERIFY_PROBLEM(httpRequest(port(), "POST", route, "{}", session(m_session)), 400);
        VERIFY_PROBLEM(httpRequest(port(), "POST", "/api/v1/signing-keys/sgk_nope/sign", json({{"url", base}}),
                                   session(m_session)),
                       404);
        VERIFY_PROBLEM(httpRequest(port(), "POST", route, json({{"url", base}}), session(m_memberSession)), 403);
        VERIFY_PROBLEM(httpRequest(port(), "POST", route, json({{"url", base}})), 401);
    }

    void revokingAKeyStopsItsUrlsAndOnlyThose()
    {
        // Rotation: a second key works alongside the first, and outlives its revocation.
        const HttpReply second
            = httpRequest(port(), "POST", "/api/v1/signing-keys", json({{"name", "next"}}), session(m_session));
        QCOMPARE(second.status, 201);
        const QByteArray nextId = second.data().value("id").toString().toLatin1();
        const QByteArray nextSecret = second.data().value("secret").toString().toLatin1();
        const QByteArray oldPath = signedPath(baseItems());
        const QByteArray newPath = signedPath({{"pageId", m_pageId.toLatin1()}, {"kid", nextId}}, nextSecret);
        QCOMPARE(get(oldPath).status, 200);
        QCOMPARE(get(newPath).status, 200);

        QCOMPARE(httpRequest(port(), "DELETE", "/api/v1/signing-keys/" + m_keyId, {}, session(m_session)).status, 200);
        const HttpReply refused = get(oldPath);
        VERIFY_PROBLEM(refused, 403);
        QCOMPARE(refused.json().value("code").toString(), QStringLiteral("signature_invalid"));
        QCOMPARE(get(newPath).status, 200);
        // Gone from the index; a second revoke is 404.
        const QJsonArray list = get("/api/v1/signing-keys", session(m_session)).data().value("list").toArray();
        for (const QJsonValue &k : list)
            QVERIFY(k.toObject().value("id").toString().toLatin1() != m_keyId);
        VERIFY_PROBLEM(httpRequest(port(), "DELETE", "/api/v1/signing-keys/" + m_keyId, {}, session(m_session)), 404);
    }
};

QTEST_GUILESS_MAIN(TestSignedUrls)
#include "tst_signed_urls.moc"
