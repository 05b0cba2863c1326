// RequestParser (server/http/request_parser.h), the http-parser adaptor the Listener runs
// on a connection's bytes, without a socket: the requests it yields (method, target,
// headers, decoded body, keep-alive), that it stops after each one, that how the bytes
// are cut into reads changes nothing, and what it refuses, with which status and field;
// and how a target becomes the path and query handlers read (toHttpRequest()), odd ones
// included: absolute form, an encoded "/", "+" in a query, fragments, non-ASCII.
#include "server/http/dispatch.h"
#include "server/http/request_parser.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>
#include <QUrlQuery>

using namespace imprint::http;

namespace {

/// What a stream parses into: the requests, then the refusal that ended it (status 0:
/// none), and whether the last request was left incomplete.
struct Parsed {
    QList<ParsedRequest> requests;
    int status = 0;
    QString field;
    bool incomplete = false;
};

/// `stream` fed `chunk` bytes per read, each read parsed to its end as the Listener does.
Parsed parse(const QByteArray &stream, qsizetype chunk)
{
    RequestParser parser;
    Parsed out;
    for (qsizetype at = 0; at < stream.size(); at += chunk) {
        QByteArrayView rest = QByteArrayView(stream).sliced(at, std::min(chunk, stream.size() - at));
        while (!rest.isEmpty()) {
            const RequestParser::Step step = parser.parse(rest);
            if (step.refusal) {
                out.status = step.refusal->status;
                out.field = QJsonDocument::fromJson(step.refusal->body).object().value("field").toString();
                return out;
            }
            if (step.complete)
                out.requests.append(parser.take());
            else if (step.consumed != rest.size())
                qFatal("parse() stopped inside a request without a refusal");
            rest = rest.sliced(step.consumed);
        }
    }
    out.incomplete = parser.inRequest();
    return out;
}

QByteArray header(const ParsedRequest &r, const QByteArray &name)
{
    for (const auto &[n, v] : r.headers)
        if (n.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return "<absent>";
}

/// What the server makes of request-target `target`: whether it answers it (a valid URI
/// reference), the request its handler gets, and the path as sent (dispatch()'s check of
/// an encoded "/", and its 404 message).
struct Target {
    bool valid = false;
    HttpRequest request;
    QString encodedPath;
};

Target targetOf(const QByteArray &target)
{
    const RequestTarget read = readTarget(target);
    return {read.valid, toHttpRequest("GET", read, {}, {}, QHostAddress::LocalHost), read.encodedPath};
}

} // namespace

class TestRequestParser : public QObject
{
    Q_OBJECT

private slots:
    // One request: every part as sent, values without the whitespace around them, and
    // the same whether it arrives whole or a byte at a time.
    void parsesARequestHoweverItIsCut()
    {
        const QByteArray stream = "POST /api/v1/render?pattern=a+b&x=%2F HTTP/1.1\r\nHost: example\r\n"
                                  "X-Empty:\r\nX-Spaced:   a b  \r\nContent-Length: 5\r\n\r\nhello";
        for (qsizetype chunk : {stream.size(), qsizetype(1), qsizetype(7)}) {
            const Parsed o = parse(stream, chunk);
            QCOMPARE(o.status, 0);
            QCOMPARE(o.requests.size(), 1);
            const ParsedRequest &r = o.requests.first();
            QCOMPARE(r.method, QByteArray("POST"));
            QCOMPARE(r.target, QByteArray("/api/v1/render?pattern=a+b&x=%2F"));
            QCOMPARE(r.headers.size(), 4);
            // An empty value does not glue its name to the next one.
            QCOMPARE(header(r, "x-empty"), QByteArray());
            QCOMPARE(header(r, "x-spaced"), QByteArray("a b"));
            QCOMPARE(header(r, "host"), QByteArray("example"));
            QCOMPARE(r.body, QByteArray("hello"));
            QVERIFY(r.keepAlive);
            QVERIFY(!o.incomplete);
        }
    }

    // Pipelined requests: parse() stops at the end of each, so the framing checks and the
    // answer of one come before the next is read.
    void stopsAfterEachRequest()
    {
        const QByteArray first = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n";
        const QByteArray second = "GET /b HTTP/1.1\r\nHost: x\r\n\r\n";
        RequestParser parser;
        const QByteArray stream = first + second + "GET /c";
        RequestParser::Step step = parser.parse(stream);
        QVERIFY(step.complete);
        QCOMPARE(step.consumed, first.size());
        QCOMPARE(parser.take().target, QByteArray("/a"));
        step = parser.parse(QByteArrayView(stream).sliced(first.size()));
        QVERIFY(step.complete);
        QCOMPARE(step.consumed, second.size());
        QCOMPARE(parser.take().target, QByteArray("/b"));
        QVERIFY(!parser.inRequest());
        step = parser.parse(QByteArrayView(stream).sliced(first.size() + second.size()));
        QVERIFY(!step.complete && !step.refusal);
        QVERIFY(parser.inRequest());
    }

    // RFC 9112 §7.1: a chunked body arrives decoded; trailer fields are not headers.
    void decodesChunkedBodies()
    {
        const QByteArray stream = "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                                  "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: evil\r\n\r\n";
        for (qsizetype chunk : {stream.size(), qsizetype(1)}) {
            const Parsed o = parse(stream, chunk);
            QCOMPARE(o.status, 0);
            QCOMPARE(o.requests.size(), 1);
            QCOMPARE(o.requests.first().body, QByteArray("hello, world"));
            QCOMPARE(header(o.requests.first(), "x-trailer"), QByteArray("<absent>"));
        }
    }

    // RFC 9112 §9.3: which connections stay open after the answer.
    void keepAlive_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<bool>("keepAlive");
        QTest::newRow("HTTP/1.1") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\n\r\n") << true;
        QTest::newRow("HTTP/1.1 close") << QByteArray("GET / HTTP/1.1\r\nConnection: close\r\n\r\n") << false;
        QTest::newRow("HTTP/1.1 keep-alive, close")
            << QByteArray("GET / HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\n") << false;
        QTest::newRow("HTTP/1.0") << QByteArray("GET / HTTP/1.0\r\n\r\n") << false;
        QTest::newRow("HTTP/1.0 keep-alive") << QByteArray("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")
                                             << true;
    }
    void keepAlive()
    {
        QFETCH(QByteArray, head);
        QFETCH(bool, keepAlive);
        const Parsed o = parse(head, head.size());
        QCOMPARE(o.requests.size(), 1);
        QCOMPARE(o.requests.first().keepAlive, keepAlive);
    }

    // RFC 9110 §10.1.1: waits for 100 Continue once the head is read, until the body
    // begins; never for HTTP/1.0 or a request without a body.
    void expectContinue()
    {
        RequestParser parser;
        QVERIFY(!parser.parse("POST /x HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n").refusal);
        QVERIFY(!parser.awaitsContinue()); // the head is not complete yet
        QVERIFY(!parser.parse("\r\n").refusal);
        QVERIFY(parser.awaitsContinue());
        parser.continueSent();
        QVERIFY(!parser.awaitsContinue());
        QVERIFY(parser.parse("abc").complete);
        QCOMPARE(parser.take().body, QByteArray("abc"));

        RequestParser early;
        early.parse("POST /x HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\na");
        QVERIFY(!early.awaitsContinue()); // the body has begun
        RequestParser http10;
        http10.parse("POST /x HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n");
        QVERIFY(!http10.awaitsContinue());
        RequestParser noBody;
        QVERIFY(noBody.parse("GET /x HTTP/1.1\r\nExpect: 100-continue\r\n\r\n").complete);
        QVERIFY(!noBody.awaitsContinue());
    }

    // The targets a server must read (RFC 9112 §3.2), kept as sent.
    void keepsTheTargetAsSent_data()
    {
        QTest::addColumn<QByteArray>("target");
        QTest::newRow("origin-form") << QByteArray("/api/v1/health?x=1");
        QTest::newRow("absolute-form") << QByteArray("http://example.com:8080/api/v1/health?x=1");
        QTest::newRow("asterisk-form") << QByteArray("*");
        QTest::newRow("UTF-8") << QByteArray("/h\xc3\xa9");
    }
    void keepsTheTargetAsSent()
    {
        QFETCH(QByteArray, target);
        const Parsed o = parse("OPTIONS " + target + " HTTP/1.1\r\nHost: x\r\n\r\n", 3);
        QCOMPARE(o.status, 0);
        QCOMPARE(o.requests.size(), 1);
        QCOMPARE(o.requests.first().target, target);
    }

    // What is refused, whole or byte by byte alike: a status and the part it names.
    void refuses_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field");
        QTest::newRow("not HTTP") << QByteArray("GARBAGE\r\n\r\n") << 400 << QStringLiteral("method");
        QTest::newRow("lower-case method") << QByteArray("get / HTTP/1.1\r\n\r\n") << 400 << QStringLiteral("method");
        QTest::newRow("no version") << QByteArray("GET /\r\n\r\n") << 400 << QStringLiteral("version");
        QTest::newRow("junk after the version")
            << QByteArray("GET / HTTP/1.1 x\r\n\r\n") << 400 << QStringLiteral("version");
        QTest::newRow("HTTP/2.0") << QByteArray("GET / HTTP/2.0\r\n\r\n") << 505 << QString();
        QTest::newRow("control character in the target")
            << QByteArray("GET /a\x01 HTTP/1.1\r\n\r\n") << 400 << QStringLiteral("target");
        QTest::newRow("header without a colon")
            << QByteArray("GET / HTTP/1.1\r\nFoo\r\n\r\n") << 400 << QStringLiteral("headers");
        QTest::newRow("malformed chunk size")
            << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n") << 400
            << QStringLiteral("Transfer-Encoding");
        QTest::newRow("websocket") << QByteArray("GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n")
                                   << 400 << QStringLiteral("Upgrade");
        QTest::newRow("CONNECT") << QByteArray("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
                                 << 400 << QStringLiteral("method");
    }
    void refuses()
    {
        QFETCH(QByteArray, stream);
        QFETCH(int, status);
        QFETCH(QString, field);
        for (qsizetype chunk : {stream.size(), qsizetype(1)}) {
            const Parsed o = parse(stream, chunk);
            QVERIFY2(o.requests.isEmpty(), "a refused request was yielded");
            QCOMPARE(o.status, status);
            QCOMPARE(o.field, field);
        }
    }

    // An Upgrade to h2c only is ignored (RFC 9110 §7.8): its clients fall back to HTTP/1.1.
    void ignoresH2cUpgrades()
    {
        const Parsed o = parse("GET /x HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                                "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\nGET /y HTTP/1.1\r\nHost: x\r\n\r\n",
                                1000);
        QCOMPARE(o.status, 0);
        QCOMPARE(o.requests.size(), 2);
        QCOMPARE(o.requests.at(1).target, QByteArray("/y"));
    }

    // How a target reads (RFC 9112 §3.2, RFC 3986, form encoding for the query): what
    // routes match (the decoded path), what the memo keys on (the encoded query) and
    // what a handler reads (a query value, fully decoded; "+" is a space).
    void targetsReadAsHandlersSeeThem_data()
    {
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("encodedPath");
        QTest::addColumn<QString>("encodedQuery");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value"); // "<absent>": no such item
        const QString absent = QStringLiteral("<absent>");
        QTest::newRow("pattern render") << QByteArray("/api/v1/render?pattern=waves-sunset&width=600&api_token=imp_x")
                                        << true << "/api/v1/render" << "/api/v1/render"
                                        << "pattern=waves-sunset&width=600&api_token=imp_x" << "api_token" << "imp_x";
        QTest::newRow("absolute form") << QByteArray("http://127.0.0.1:8080/api/v1/health?x=1") << true
                                       << "/api/v1/health" << "/api/v1/health" << "x=1" << "x" << "1";
        QTest::newRow("absolute form, no path") << QByteArray("http://host?x=1") << true << "/" << "" << "x=1" << "x"
                                                << "1";
        QTest::newRow("two slashes: an authority") << QByteArray("//api/v1/health?x=1") << true << "/v1/health"
                                                   << "/v1/health" << "x=1" << "x" << "1";
        QTest::newRow("asterisk") << QByteArray("*") << true << "*" << "*" << "" << "x" << absent;
        QTest::newRow("trailing slash") << QByteArray("/api/v1/health/") << true << "/api/v1/health"
                                        << "/api/v1/health/" << "" << "x" << absent;
        QTest::newRow("root") << QByteArray("/") << true << "/" << "/" << "" << "x" << absent;
        QTest::newRow("encoded slash") << QByteArray("/pages/a%2Fb") << true << "/pages/a/b" << "/pages/a%2Fb" << ""
                                       << "x" << absent;
        QTest::newRow("encoded slash, lower case") << QByteArray("/pages/a%2fb") << true << "/pages/a/b"
                                                   << "/pages/a%2Fb" << "" << "x" << absent;
        QTest::newRow("encoded letter") << QByteArray("/p%41ges?%61=%62") << true << "/pAges" << "/pAges" << "a=b"
                                        << "a" << "b";
        QTest::newRow("bad escape") << QByteArray("/a%zz?b=%zz&c=%") << true << "/a%zz" << "/a%25zz"
                                    << "b=%25zz&c=%25" << "b" << "%zz";
        QTest::newRow("plus is a space") << QByteArray("/r?text=a+b&x=1") << true << "/r" << "/r" << "text=a%20b&x=1"
                                         << "text" << "a b";
        QTest::newRow("encoded plus") << QByteArray("/r?text=a%2Bb") << true << "/r" << "/r" << "text=a%2Bb"
                                      << "text" << "a+b";
        QTest::newRow("plus in a name") << QByteArray("/r?a+b=1") << true << "/r" << "/r" << "a%20b=1" << "a b"
                                        << "1";
        QTest::newRow("encoded name") << QByteArray("/r?api%5Ftoken=imp_y") << true << "/r" << "/r"
                                      << "api_token=imp_y" << "api_token" << "imp_y";
        QTest::newRow("encoded reserved name") << QByteArray("/r?a%26b=1&a=2") << true << "/r" << "/r"
                                               << "a%26b=1&a=2" << "a&b" << "1";
        QTest::newRow("first of two") << QByteArray("/r?a=1&a=2") << true << "/r" << "/r" << "a=1&a=2" << "a"
                                      << "1";
        QTest::newRow("empty query") << QByteArray("/r?") << true << "/r" << "/r" << "" << "x" << absent;
        QTest::newRow("only a question mark") << QByteArray("/?") << true << "/" << "/" << "" << "x" << absent;
        QTest::newRow("second question mark") << QByteArray("/r??a=1") << true << "/r" << "/r" << "?a=1" << "?a"
                                              << "1";
        QTest::newRow("empty items") << QByteArray("/r?&&a=1&") << true << "/r" << "/r" << "&&a=1&" << "a" << "1";
        QTest::newRow("name without value") << QByteArray("/r?flag&x=") << true << "/r" << "/r" << "flag&x="
                                            << "flag" << "";
        QTest::newRow("fragment") << QByteArray("/r?a=1#frag") << true << "/r" << "/r" << "a=1" << "a" << "1";
        QTest::newRow("fragment before a question mark") << QByteArray("/r#f?a=1") << true << "/r" << "/r" << ""
                                                         << "a" << absent;
        QTest::newRow("non-ASCII") << QByteArray("/p\xC3\xA9?n=\xC3\xA9") << true << QString::fromUtf8("/p\u00e9")
                                   << "/p%C3%A9" << "n=%C3%A9" << "n" << QString::fromUtf8("\u00e9");
        QTest::newRow("non-ASCII encoded") << QByteArray("/p%C3%A9?n=%C3%A9") << true << QString::fromUtf8("/p\u00e9")
                                           << "/p%C3%A9" << "n=%C3%A9" << "n" << QString::fromUtf8("\u00e9");
        QTest::newRow("invalid UTF-8") << QByteArray("/p%FF?n=%FF") << true << QString::fromUtf8("/p\ufffd")
                                       << "/p%FF" << "n=%FF" << "n" << QString::fromUtf8("\ufffd");
        QTest::newRow("quote and braces") << QByteArray("/r?q=\"{x}\"") << true << "/r" << "/r"
                                          << "q=%22%7Bx%7D%22" << "q" << "\"{x}\"";
        QTest::newRow("reserved characters") << QByteArray("/a:b@c!$'()*,;=/?q=[x]:@/?") << true
                                             << "/a:b@c!$'()*,;=" << "/a:b@c!$'()*,;=/" << "q=[x]:@/?" << "q"
                                             << "[x]:@/?";
        QTest::newRow("invalid") << QByteArray("http://[::1/x") << false << "" << "" << "" << "x" << absent;
    }
    void targetsReadAsHandlersSeeThem()
    {
        QFETCH(QByteArray, target);
        QFETCH(bool, valid);
        QFETCH(QString, path);
        QFETCH(QString, encodedPath);
        QFETCH(QString, encodedQuery);
        QFETCH(QString, key);
        QFETCH(QString, value);
        Target t = targetOf(target);
        QCOMPARE(t.valid, valid);
        if (!valid)
            return;
        QCOMPARE(t.request.path, path);
        QCOMPARE(t.encodedPath, encodedPath);
        QCOMPARE(t.request.encodedQuery, encodedQuery);
        QCOMPARE(t.request.queryValue(key).value_or(QStringLiteral("<absent>")), value);
        // dispatch() answers a path with an encoded "/" 404 before routing, naming it as sent.
        const Dispatch d = dispatch(t.request, t.encodedPath, Router(), CorsPolicy());
        QVERIFY(d.answer);
        QCOMPARE(d.answer->status, 404);
        QCOMPARE(QJsonDocument::fromJson(d.answer->body).object().value("detail").toString().contains(u"encoded"),
                 encodedPath.contains(QLatin1String("%2F")));
    }

    // readTarget() reads with http-parser what QUrl would keep byte for byte and leaves
    // the rest to QUrl: on any target it gives what QUrl gives, and a query value or
    // item read without decoding the whole query is QUrlQuery's.
    void targetsReadAsQUrlReadsThem()
    {
        const QList<QByteArray> pieces = {"/", "/", "a", "Z", "0", "-", "_", "~", ".", "?", "?", "#", "=", "=", "&",
                                          "&", "+", "%", "%2F", "%2f", "%41", "%7e", "%C3%A9", "%FF", "%20", "%3D",
                                          "%26", "%5F", "%zz", ":", "@", "*", "!", "$", "'", "(", ",", ";", "[", "]",
                                          "\"", "<", "{", "|", "\\", "^", "`", " ", "\x01", "\xC3\xA9", "\xFF",
                                          "api_token", "pattern", "sig", "//", "http://h", "http://h:1"};
        const QStringList keys = {"a", "Z", "api_token", "pattern", "sig", "a b", "=", "&", "", "%", "+"};
        QRandomGenerator random(51);
        int fast = 0;
        for (int n = 0; n < 20000; ++n) {
            QByteArray target = random.bounded(4) ? "/" : "";
            for (int i = random.bounded(1, 12); i > 0; --i)
                target += pieces.at(random.bounded(pieces.size()));
            const QUrl url = QUrl::fromEncoded(target);
            const RequestTarget read = readTarget(target);
            QVERIFY2(read.valid == url.isValid(), target.constData());
            QVERIFY2(read.path == url.path(QUrl::FullyDecoded), target.constData());
            QVERIFY2(read.encodedPath == url.path(QUrl::FullyEncoded), target.constData());
            QVERIFY2(read.encodedQuery == (url.hasQuery() ? url.query(QUrl::FullyEncoded) : QString()),
                     target.constData());
            fast += read.valid && read.encodedPath + (read.encodedQuery.isEmpty() ? "" : "?" + read.encodedQuery)
                                      == QString::fromLatin1(target);
            const HttpRequest request = toHttpRequest("GET", read, {}, {}, QHostAddress::LocalHost);
            const QUrlQuery items(request.encodedQuery);
            for (const QString &key : keys) {
                const auto value = request.queryValue(key);
                QVERIFY2(request.hasQueryItem(key) == items.hasQueryItem(key), qPrintable(target + " " + key));
                QVERIFY2(value.has_value() == items.hasQueryItem(key), qPrintable(target + " " + key));
                if (value) {
                    const QString expected = items.queryItemValue(key, QUrl::FullyDecoded);
                    QVERIFY2(*value == expected && value->isNull() == expected.isNull(), qPrintable(target + " " + key));
                }
            }
        }
        QVERIFY(fast > 1000); // the targets read without QUrl are among them
    }
};

QTEST_GUILESS_MAIN(TestRequestParser)
#include "tst_request_parser.moc"
