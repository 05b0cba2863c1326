// The bytes on one connection, end to end against the real server over raw sockets:
//  - framing that a proxy and Qt's lenient parser could read differently (RFC 9112 §6.3,
//    §5.1, §5.2, §2.2) is one 400 problem, then the connection closes, and the request
//    smuggled in its body is never answered;
//  - pipelined requests are answered in request order (RFC 9112 §9.3.2) though a render
//    runs on a worker and health is answered at once, also when the last one asks for
//    `Connection: close`, and nothing after that one is answered (§9.6);
//  - a request cannot write a line of its own into the access log (CWE-117);
//  - with several I/O threads (http.ioThreads), requests answered on the connection's
//    thread (pattern renders) and those handed to the server's thread (health, a page
//    render on a worker) still come back in request order on every connection;
//  - what the request parser (http-parser, server/http/request_parser.h) reads: a head
//    written a byte at a time, chunked bodies, Expect: 100-continue, HEAD, absolute-form
//    targets; and what it refuses, each a problem then the connection closed: a
//    malformed request line or chunk size (400), another HTTP version (505), an Upgrade
//    (400, never a hang), a head over the limit (431).
#include "render_api_helpers.h"

#include "../support/e2e_fixture.h"

#include <QRegularExpression>
#include <QTest>

namespace {

const QByteArray kTemplate = R"({"engine": "takumi", "width": 600, "height": 600,
  "variables": [{"name": "art", "type": "image", "default": ""}],
  "root": {"type": "div", "props": {"style": {"display": "flex", "width": 600, "height": 600,
    "backgroundColor": "#ffffff"}, "children": [{"type": "img", "props": {"src": "{{art}}",
    "style": {"width": 600, "height": 600}}}]}}})";


/// Every byte the server sends on `socket` until it closes the connection, or until
/// `timeoutMs` passed (then *closed is false).
QByteArray readUntilClosed(QTcpSocket &socket, int timeoutMs, bool *closed = nullptr)
{
    QByteArray all;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs && socket.state() == QAbstractSocket::ConnectedState) {
        socket.waitForReadyRead(50);
        all += socket.readAll();
    }
    all += socket.readAll();
    if (closed)
        *closed = socket.state() != QAbstractSocket::ConnectedState;
    return all;
}

/// The responses one after the other in `stream` (each framed by its Content-Length).
QList<HttpReply> responsesIn(QByteArray stream)
{
    QList<HttpReply> replies;
    while (!stream.isEmpty()) {
        const qsizetype end = stream.indexOf("\r\n\r\n");
        if (end < 0)
            break;
        HttpReply reply;
        parseHead(stream.left(end), reply);
        const qint64 length = reply.header("Content-Length").toLongLong();
        reply.body = stream.mid(end + 4, length);
        replies.append(reply);
        stream = stream.mid(end + 4 + length);
    }
    return replies;
}

const QByteArray kHealth = "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
const QByteArray kLogin = R"({"email":"nobody@example.com","password":"not-the-password"})";

/// `body` in chunks of `size` bytes (RFC 9112 §7.1), with the last chunk.
QByteArray chunked(const QByteArray &body, qsizetype size)
{
    QByteArray out;
    for (qsizetype at = 0; at < body.size(); at += size) {
        const QByteArray part = body.mid(at, size);
        out += QByteArray::number(part.size(), 16) + "\r\n" + part + "\r\n";
    }
    return out + "0\r\n\r\n";
}

} // namespace

class TestHttpWire : public QObject
{
    Q_OBJECT

private:
    E2eFixture m_e2e;
    QString m_token;
    QString m_pageId;
    int m_renders = 0;

    quint16 port() const { return m_e2e.port(); }

    /// A connection to the server with `bytes` written in one piece.
    std::unique_ptr<QTcpSocket> sendRaw(const QByteArray &bytes)
    {
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QHostAddress::LocalHost, port());
        if (!socket->waitForConnected(5000))
            return nullptr;
        socket->write(bytes);
        socket->waitForBytesWritten(5000);
        return socket;
    }

    /// The raw bytes of a render of the page that takes a while, each call a new image.
    QByteArray slowRender()
    {
        const QByteArray payload
            = json({{"pageId", m_pageId},
                    {"output", "binary"},
                    {"tweaks", QJsonObject{{"art", slowSvgUrl(4, QStringLiteral("#%1").arg(++m_renders * 40, 6, 16,
                                                                                              QLatin1Char('0')))}}}});
        return "POST /api/v1/render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               "Authorization: Bearer "
               + m_token.toLatin1() + "\r\nContent-Length: " + QByteArray::number(payload.size()) + "\r\n\r\n"
               + payload;
    }

private slots:
    void initTestCase()
    {
        E2eOptions world = E2eOptions::ownerless("wire", "pro", "ci", kTemplate);
        // Two workers: the render runs on one while the server answers health at once.
        // Three I/O threads: connections land on different ones (ioThreadsKeepOrder), whose
        // pattern renders the render rate limit must not refuse.
        world.config = R"({"http":{"workerThreads":2,"ioThreads":3},"render":{"rateLimit":{"perSecond":0}}})";
        QVERIFY2(m_e2e.setUp(world), m_e2e.failure());
        m_pageId = QString::fromLatin1(m_e2e.pageId());
        QVERIFY(m_pageId.startsWith("pg_"));
        m_token = QString::fromLatin1(m_e2e.key());
        QVERIFY(!m_token.isEmpty());
    }

    // RFC 9112 §6.3, §5.1, §5.2, §2.2: each request below is framed one way by Qt 6.4's
    // parser and possibly another by a proxy in front of it. The server answers one 400
    // naming the header and closes; the request hidden in the body is never answered.
    void smuggledRequestsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QString>("field");
        QTest::newRow("differing Content-Length values")
            << QByteArray("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 47\r\n\r\n")
            << QStringLiteral("Content-Length");
        QTest::newRow("Content-Length and chunked")
            << QByteArray("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
            << QStringLiteral("Transfer-Encoding");
        QTest::newRow("space before the colon")
            << QByteArray("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length : 47\r\n\r\n")
            << QStringLiteral("Content-Length");
        QTest::newRow("bare LF line ends")
            << QByteArray("POST /api/v1/auth/login HTTP/1.1\nHost: x\nContent-Length: 0\nContent-Length: 47\n\n")
            << QStringLiteral("headers");
        QTest::newRow("obs-fold") << QByteArray("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nX-Pad: a\r\n"
                                                " Content-Length: 47\r\n\r\n")
                                  << QStringLiteral("X-Pad");
    }
    void smuggledRequestsAreRefused()
    {
        QFETCH(QByteArray, head);
        QFETCH(QString, field);
        const QByteArray smuggled = "GET /api/v1/smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
        auto socket = sendRaw(head + smuggled);
        QVERIFY(socket);
        bool closed = false;
        const QList<HttpReply> replies = responsesIn(readUntilClosed(*socket, 5000, &closed));
        QVERIFY2(closed, "the connection stayed open after a framing error");
        QCOMPARE(replies.size(), 1);
        const HttpReply &r = replies.first();
        QVERIFY2(isProblem(r, 400), r.body.constData());
        QCOMPARE(r.json().value("field").toString(), field);
        QCOMPARE(r.header("Connection").toLower(), QByteArray("close"));
        QVERIFY2(!m_e2e.server().log().contains("/api/v1/smuggled"), m_e2e.server().log().right(2000).constData());
        QVERIFY(m_e2e.server().running());
    }

    // RFC 9112 §9.3.2: answers go out in request order. The render is answered on a worker
    // long after health, which the server answers on the spot; health still comes second,
    // and with `Connection: close` on it the connection closes only after both.
    void pipelinedAnswersKeepRequestOrder_data()
    {
        QTest::addColumn<bool>("closeLast");
        QTest::newRow("keep-alive") << false;
        QTest::newRow("Connection: close on the last") << true;
    }
    void pipelinedAnswersKeepRequestOrder()
    {
        QFETCH(bool, closeLast);
        QByteArray stream = slowRender() + "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n"
                            + (closeLast ? "Connection: close\r\n" : "") + "\r\n";
        // After a request that closes the connection nothing is parsed (RFC 9112 §9.6).
        if (closeLast)
            stream += "GET /api/v1/after-close HTTP/1.1\r\nHost: x\r\n\r\n";
        auto socket = sendRaw(stream);
        QVERIFY(socket);
        QByteArray received;
        QList<HttpReply> replies;
        QElapsedTimer t;
        t.start();
        bool closed = false;
        if (closeLast) {
            received = readUntilClosed(*socket, 20000, &closed);
            replies = responsesIn(received);
        } else {
            while (t.elapsed() < 20000 && (replies = responsesIn(received)).size() < 2) {
                socket->waitForReadyRead(50);
                received += socket->readAll();
            }
        }
        QCOMPARE(replies.size(), 2);
        QCOMPARE(replies.at(0).status, 200);
        QCOMPARE(replies.at(0).header("Content-Type"), QByteArray("image/png"));
        QVERIFY(decode(replies.at(0).body, "PNG").width() == 600);
        QCOMPARE(replies.at(1).status, 200);
        QCOMPARE(replies.at(1).json().value("status").toString(), QStringLiteral("ok"));
        if (closeLast) {
            QVERIFY2(closed, "the connection stayed open after Connection: close");
            QCOMPARE(replies.at(1).header("Connection").toLower(), QByteArray("close"));
            QVERIFY(!m_e2e.server().log().contains("/api/v1/after-close"));
        } else {
            // Still open and usable.
            socket->write("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n");
            QCOMPARE(readReply(*socket, 5000).status, 200);
        }
    }

    // A request refused for its framing, pipelined behind a render, is answered after the
    // render: the refusal closes the connection, and must not cut the render's answer off.
    void refusalWaitsForEarlierAnswers()
    {
        auto socket = sendRaw(slowRender()
                              + "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
                                "Content-Length: 2\r\n\r\nab");
        QVERIFY(socket);
        bool closed = false;
        const QList<HttpReply> replies = responsesIn(readUntilClosed(*socket, 20000, &closed));
        QVERIFY(closed);
        QCOMPARE(replies.size(), 2);
        QCOMPARE(replies.at(0).status, 200);
        QCOMPARE(replies.at(0).header("Content-Type"), QByteArray("image/png"));
        QVERIFY2(isProblem(replies.at(1), 400), replies.at(1).body.constData());
        QCOMPARE(replies.at(1).json().value("field").toString(), QStringLiteral("Content-Length"));
    }

    // Connections handed to the I/O threads are taken through Qt's
    // QTcpServer::nextPendingConnection(), which warned "called while not listening" for
    // each one: a line per connection in the server's log that reported nothing wrong.
    void connectionsLeaveNoQtWarning()
    {
        for (int i = 0; i < 6; ++i)
            QCOMPARE(httpRequest(port(), "GET", "/api/v1/health").status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(m_e2e.server().log().count("GET /api/v1/health") >= 6, 5000);
        QVERIFY2(!m_e2e.server().log().contains("while not listening"),
                 m_e2e.server().log().right(1000).constData());
    }

    // CWE-117: "%0A" decodes to a line feed in the path, and the access log wrote the
    // path as it was: the rest became a log line of the client's making. Now the log shows
    // it escaped, on the request's own line.
    void requestsCannotForgeLogLines()
    {
        const QByteArray forged = "FORGED imprint.http.access: GET /api/v1/admin 200 0.10 ms";
        const QByteArray path = "/api/v1/files/x%0A" + forged.toPercentEncoding("/:") + "%0D%1B%5B2J";
        const HttpReply r = httpRequest(port(), "GET", path);
        QVERIFY(r.status >= 400);
        QTRY_VERIFY_WITH_TIMEOUT(m_e2e.server().log().contains("FORGED"), 5000);
        const QList<QByteArray> lines = m_e2e.server().log().split('\n');
        for (const QByteArray &line : lines) {
            QVERIFY2(!line.startsWith("FORGED"), line.constData());
            QVERIFY2(!line.contains('\r') && !line.contains('\x1b'), line.constData());
        }
        const QByteArray escaped = "/api/v1/files/x\\n" + forged + "\\r\\u001b[2J";
        QVERIFY2(m_e2e.server().log().contains(escaped), m_e2e.server().log().right(1000).constData());
    }

    // The access line of an answer: method, path, status, milliseconds with two decimals,
    // "ms", separated by one space (what log readers and dashboards split on).
    void accessLineShape()
    {
        // A path of its own: no other test's line can match, nor a health count change.
        const HttpReply r = httpRequest(port(), "GET", "/api/v1/access-line-shape?x=1");
        QCOMPARE(r.status, 404);
        const QRegularExpression line(
            QStringLiteral("imprint\\.http\\.access: GET /api/v1/access-line-shape 404 \\d+\\.\\d\\d ms$"),
            QRegularExpression::MultilineOption);
        QTRY_VERIFY_WITH_TIMEOUT(line.match(QString::fromUtf8(m_e2e.server().log())).hasMatch(), 5000);
    }

    // With three I/O threads, six connections at once each pipeline pattern renders
    // (answered on the connection's own thread), health (handed to the server's thread)
    // and one slow page render (server thread, then a worker): every connection gets its
    // answers in its request order, and the access log has a line for every request.
    void ioThreadsKeepOrder()
    {
        const QByteArray pattern = "GET /api/v1/render?pattern=waves-sunset&width=120&height=60 HTTP/1.1\r\nHost: x\r\n\r\n";
        const QByteArray health = "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
        // Rendered once first: 72 misses at once would queue 72 jobs, past the workers'
        // queue (503 queue_full), where a cached pattern is answered on the I/O thread.
        QCOMPARE(httpRequest(port(), "GET", "/api/v1/render?pattern=waves-sunset&width=120&height=60").status, 200);
        const int logLinesBefore = int(m_e2e.server().log().count("GET /api/v1/health"));
        std::vector<std::unique_ptr<QTcpSocket>> sockets;
        QByteArrayList expected; // content types in request order, the same on every connection
        QByteArray stream;
        for (int i = 0; i < 12; ++i) {
            stream += pattern + health;
            expected << "image/png" << "application/json";
            if (i == 3) {
                stream += slowRender();
                expected << "image/png";
            }
        }
        for (int c = 0; c < 6; ++c) {
            sockets.push_back(sendRaw(stream));
            QVERIFY(sockets.back());
        }
        for (auto &socket : sockets) {
            QByteArray received;
            QList<HttpReply> replies;
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < 30000 && (replies = responsesIn(received)).size() < expected.size()) {
                socket->waitForReadyRead(50);
                received += socket->readAll();
            }
            QCOMPARE(replies.size(), expected.size());
            for (int i = 0; i < replies.size(); ++i) {
                QVERIFY2(replies.at(i).status == 200, replies.at(i).body.left(300).constData());
                QCOMPARE(replies.at(i).header("Content-Type").split(';').first(), expected.at(i));
            }
            QCOMPARE(decode(replies.at(8).body, "PNG").width(), 600); // the page render, after the 4th health
            QCOMPARE(decode(replies.at(0).body, "PNG").width(), 120);
        }
        QTRY_COMPARE_WITH_TIMEOUT(int(m_e2e.server().log().count("GET /api/v1/health")), logLinesBefore + 6 * 12, 5000);
    }

    // A head that arrives a byte per segment (TCP_NODELAY on both ends) is answered like
    // one that arrives whole, and the connection then serves the next request.
    void headWrittenByteByByte()
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port());
        QVERIFY(socket.waitForConnected(5000));
        socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
        for (char ch : kHealth) {
            socket.write(&ch, 1);
            QVERIFY(socket.waitForBytesWritten(1000));
        }
        const HttpReply r = readReply(socket, 5000);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value("status").toString(), QStringLiteral("ok"));
        socket.write(kHealth);
        QCOMPARE(readReply(socket, 5000).status, 200);
    }

    // RFC 9112 §7.1: a chunked body reaches the route decoded (a login with the wrong
    // password is 401, not 400 invalid_body), trailer and all; a chunk size that is not
    // hexadecimal is a 400 naming Transfer-Encoding, and the request after it is never read.
    void chunkedBodies()
    {
        const QByteArray head = "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                "Transfer-Encoding: chunked\r\n\r\n";
        auto socket = sendRaw(head + chunked(kLogin, 7));
        QVERIFY(socket);
        HttpReply r = readReply(*socket, 10000);
        QVERIFY2(isProblem(r, 401), r.body.constData());
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("invalid_credentials"));
        QByteArray withTrailer = chunked(kLogin, 16);
        withTrailer.insert(withTrailer.size() - 2, "X-Checksum: 1\r\n");
        socket->write(head + withTrailer);
        r = readReply(*socket, 10000);
        QVERIFY2(isProblem(r, 401), r.body.constData());

        socket = sendRaw(head + "zz\r\nabc\r\n0\r\n\r\n" + kHealth);
        QVERIFY(socket);
        bool closed = false;
        const QList<HttpReply> replies = responsesIn(readUntilClosed(*socket, 5000, &closed));
        QVERIFY2(closed, "the connection stayed open after a malformed chunk");
        QCOMPARE(replies.size(), 1);
        QVERIFY2(isProblem(replies.first(), 400), replies.first().body.constData());
        QCOMPARE(replies.first().json().value("field").toString(), QStringLiteral("Transfer-Encoding"));
    }

    // RFC 9110 §10.1.1: a client that sends `Expect: 100-continue` and waits gets
    // `100 Continue` once its head passes the checks, then the answer to its body; a head
    // refused (413 for a body over the limit) gets that answer instead, and no 100.
    void expectContinue()
    {
        auto socket = sendRaw("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                              "Expect: 100-continue\r\nContent-Length: "
                              + QByteArray::number(kLogin.size()) + "\r\n\r\n");
        QVERIFY(socket);
        QByteArray interim;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 5000 && !interim.contains("\r\n\r\n")) {
            socket->waitForReadyRead(50);
            interim += socket->readAll();
        }
        QCOMPARE(interim, QByteArray("HTTP/1.1 100 Continue\r\n\r\n"));
        socket->write(kLogin);
        const HttpReply r = readReply(*socket, 10000);
        QVERIFY2(isProblem(r, 401), r.body.constData());

        socket = sendRaw("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                         "Content-Length: 99999999\r\n\r\n");
        QVERIFY(socket);
        bool closed = false;
        const QByteArray refused = readUntilClosed(*socket, 5000, &closed);
        QVERIFY2(refused.startsWith("HTTP/1.1 413 "), refused.constData());
        QVERIFY(!refused.contains("100 Continue"));
        QVERIFY(closed);
    }

    // What the parser refuses: one problem naming the part, then the connection closes
    // (never a silent close, never a hang).
    void malformedRequestsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field");
        QTest::newRow("not HTTP") << QByteArray("GARBAGE\r\n\r\n") << 400 << QStringLiteral("method");
        QTest::newRow("no version") << QByteArray("GET /api/v1/health\r\n\r\n") << 400 << QStringLiteral("version");
        QTest::newRow("junk after the version")
            << QByteArray("GET /api/v1/health HTTP/1.1 x\r\nHost: x\r\n\r\n") << 400 << QStringLiteral("version");
        QTest::newRow("control character in the target")
            << QByteArray("GET /api/v1/he\x01lth HTTP/1.1\r\nHost: x\r\n\r\n") << 400 << QStringLiteral("target");
        QTest::newRow("header line without a colon")
            << QByteArray("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nFoo\r\n\r\n") << 400 << QStringLiteral("Foo");
        QTest::newRow("HTTP/2.0") << QByteArray("GET /api/v1/health HTTP/2.0\r\nHost: x\r\n\r\n") << 505 << QString();
        QTest::newRow("websocket upgrade")
            << QByteArray("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                          "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
            << 400 << QStringLiteral("Upgrade");
        QTest::newRow("CONNECT") << QByteArray("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
                                 << 400 << QStringLiteral("method");
        QTest::newRow("head over 64 KiB")
            << QByteArray("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + QByteArray(70000, 'a') + "\r\n\r\n")
            << 431 << QString();
    }
    void malformedRequestsAreRefused()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(QString, field);
        auto socket = sendRaw(request + kHealth);
        QVERIFY(socket);
        bool closed = false;
        const QList<HttpReply> replies = responsesIn(readUntilClosed(*socket, 5000, &closed));
        QVERIFY2(closed, "the connection stayed open");
        QCOMPARE(replies.size(), 1);
        QVERIFY2(isProblem(replies.first(), status), replies.first().body.constData());
        QCOMPARE(replies.first().json().value("field").toString(), field);
        QCOMPARE(replies.first().header("Connection").toLower(), QByteArray("close"));
        QVERIFY(m_e2e.server().running());
    }

    // The framing checks run on every request of a pipelined write, not only the first:
    // the parser stops after each request, and the next one's bytes are checked as its
    // own. The first is answered, the second refused, and nothing after it.
    void everyPipelinedRequestIsFramed_data()
    {
        QTest::addColumn<QByteArray>("second");
        QTest::addColumn<int>("status");
        QTest::newRow("head over 64 KiB")
            << QByteArray("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + QByteArray(70000, 'a') + "\r\n\r\n")
            << 431;
        QTest::newRow("Content-Length and chunked")
            << QByteArray("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
            << 400;
    }
    void everyPipelinedRequestIsFramed()
    {
        QFETCH(QByteArray, second);
        QFETCH(int, status);
        auto socket = sendRaw(kHealth + second + kHealth);
        QVERIFY(socket);
        bool closed = false;
        const QList<HttpReply> replies = responsesIn(readUntilClosed(*socket, 5000, &closed));
        QVERIFY2(closed, "the connection stayed open");
        QCOMPARE(replies.size(), 2);
        QCOMPARE(replies.at(0).status, 200);
        QVERIFY2(isProblem(replies.at(1), status), replies.at(1).body.constData());
    }

    // RFC 9110 §7.8: an Upgrade to h2c only (curl --http2 on http://) is ignored, and the
    // request answered over HTTP/1.1 on a connection that stays open.
    void h2cUpgradeIsIgnored()
    {
        auto socket = sendRaw("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                              "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n");
        QVERIFY(socket);
        QCOMPARE(readReply(*socket, 5000).status, 200);
        socket->write(kHealth);
        QCOMPARE(readReply(*socket, 5000).status, 200);
    }

    // RFC 9110 §9.3.2: HEAD gets GET's head, Content-Length included, and no body: the
    // answer to the request pipelined after it follows the head directly.
    void headHasNoBody()
    {
        auto socket = sendRaw("HEAD /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n" + kHealth);
        QVERIFY(socket);
        QByteArray received;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 5000 && responsesIn(received.mid(received.indexOf("\r\n\r\n") + 4)).size() < 1) {
            socket->waitForReadyRead(50);
            received += socket->readAll();
        }
        const qsizetype headEnd = received.indexOf("\r\n\r\n");
        QVERIFY2(headEnd > 0, received.constData());
        HttpReply head;
        parseHead(received.left(headEnd), head);
        QCOMPARE(head.status, 200);
        QVERIFY(head.header("Content-Length").toInt() > 0);
        const QList<HttpReply> after = responsesIn(received.mid(headEnd + 4));
        QCOMPARE(after.size(), 1);
        QCOMPARE(after.first().json().value("status").toString(), QStringLiteral("ok"));
    }

    // RFC 9112 §3.2.2: a server must accept the absolute form of a target.
    void absoluteFormTarget()
    {
        auto socket = sendRaw("GET http://127.0.0.1/api/v1/health?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        QVERIFY(socket);
        const HttpReply r = readReply(*socket, 5000);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value("status").toString(), QStringLiteral("ok"));
    }

    void cleanupTestCase() { m_e2e.server().stop(); }
};

QTEST_GUILESS_MAIN(TestHttpWire)
#include "tst_http_wire.moc"
