// The limits of Imprint's HTTP server (server/http/server.h): body size
// (413 as bytes arrive), idle connections, connection cap, idle / slow-request timeouts,
// login throttling, and answering after the client has gone.
#include "httpclient.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>

#include <memory>
#include <vector>

class TestLimits : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ServerProcess m_server;

    /// A connection that sends nothing, from `from` (any 127.0.0.0/8 address stands for a
    /// different client; the server listens on 127.0.0.1).
    static std::unique_ptr<QTcpSocket> connectIdle(quint16 port, const QHostAddress &from = {})
    {
        auto s = std::make_unique<QTcpSocket>();
        if (!from.isNull() && !s->bind(from))
            return nullptr;
        s->connectToHost(QHostAddress::LocalHost, port);
        return s->waitForConnected(5000) ? std::move(s) : nullptr;
    }

    /// One raw request on a new socket; the reply and whether the server then closed.
    static HttpReply rawExchange(quint16 port, const QByteArray &request, bool *closed = nullptr)
    {
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, port);
        if (!s.waitForConnected(5000))
            return {};
        s.write(request);
        s.waitForBytesWritten(2000);
        HttpReply r = readReply(s, 5000);
        if (closed)
            *closed = closedByServer(s, 1000);
        return r;
    }

    // True when the server closes `socket` within timeoutMs.
    static bool closedByServer(QTcpSocket &socket, int timeoutMs)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            if (socket.state() == QAbstractSocket::UnconnectedState)
                return true;
            socket.waitForReadyRead(20);
            socket.readAll();
        }
        return socket.state() == QAbstractSocket::UnconnectedState;
    }

    static bool writeConfig(const QString &dir, const QByteArray &json)
    {
        QFile f(dir + "/config.json");
        return f.open(QIODevice::WriteOnly) && f.write(json) == json.size();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // 900 client sockets live in this process too; Debian's default soft limit is 1024.
        rlimit lim{};
        if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
            lim.rlim_cur = lim.rlim_max;
            setrlimit(RLIMIT_NOFILE, &lim);
        }
        QVERIFY2(m_server.start(m_dir.path()), m_server.log().constData());
    }

    void bodyOver1MiBIsRefusedAsItArrives()
    {
        const QByteArray chunk(64 * 1024, 'a');
        // Declared too large: refused after the headers, before the body.
        {
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, m_server.port());
            QVERIFY(s.waitForConnected(5000));
            s.write("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    "Content-Length: 2097152\r\n\r\n");
            for (int i = 0; i < 32 && s.state() == QAbstractSocket::ConnectedState; ++i) {
                s.write(chunk);
                s.waitForBytesWritten(1000);
            }
            const HttpReply r = readReply(s);
            QCOMPARE(r.status, 413);
            QCOMPARE(r.header("Content-Type"), QByteArray("application/problem+json"));
            QCOMPARE(r.json().value("status").toInt(), 413);
            QCOMPARE(r.json().value("code").toString(), QString("body_too_large"));
        }
        // Chunked (no Content-Length): refused once the count passes 1 MiB.
        {
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, m_server.port());
            QVERIFY(s.waitForConnected(5000));
            s.write("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
            for (int i = 0; i < 32 && s.state() == QAbstractSocket::ConnectedState; ++i) {
                s.write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
                s.waitForBytesWritten(1000);
            }
            const HttpReply r = readReply(s);
            QCOMPARE(r.status, 413);
        }
        // The server keeps serving, on a new connection.
        const HttpReply r = httpRequest(m_server.port(), "GET", "/api/v1/health");
        QCOMPARE(r.status, 200);
        // A body just under the limit still reaches the route (and is answered as JSON).
        const QByteArray nearly = "{\"email\":\"" + QByteArray(1000 * 1000, 'x') + "\",\"password\":\"p\"}";
        QCOMPARE(httpRequest(m_server.port(), "POST", "/api/v1/auth/login", nearly).status, 401);
    }

    void uploadsHaveTheirOwnBodyLimit()
    {
        // A 2 MiB font reaches the upload route (401 here: no credentials), where the same
        // body anywhere else is 413; past http.maxUploadBytes (32 MiB) uploads are 413 too.
        const QByteArray twoMiB(2 << 20, 'f');
        QCOMPARE(
            httpRequest(m_server.port(), "POST", "/api/v1/fonts?family=Brand", twoMiB, {{"Content-Type", "font/ttf"}})
                .status,
            401);
        const HttpReply asset
            = httpRequest(m_server.port(), "POST", "/api/v1/assets", twoMiB, {{"Content-Type", "image/png"}});
        QVERIFY2(asset.status == 401, asset.body.constData());
        QCOMPARE(
            httpRequest(m_server.port(), "POST", "/api/v1/templates", twoMiB, {{"Content-Type", "application/json"}})
                .status,
            413);
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_server.port());
        QVERIFY(s.waitForConnected(5000));
        s.write("POST /api/v1/fonts HTTP/1.1\r\nHost: x\r\nContent-Type: font/ttf\r\n"
                "Content-Length: 41943040\r\n\r\n");
        const HttpReply r = readReply(s);
        QCOMPARE(r.status, 413);
        QCOMPARE(r.json().value("code").toString(), QString("body_too_large"));
    }

    void manyIdleConnectionsDoNotBlockHealth()
    {
        // 900 idle connections from four client addresses (each under the per-address cap).
        std::vector<std::unique_ptr<QTcpSocket>> idle;
        for (int i = 0; i < 900; ++i) {
            auto s = connectIdle(m_server.port(), QHostAddress(quint32(0x7f000002 + i % 4)));
            QVERIFY2(s, qPrintable(QString::number(i)));
            idle.push_back(std::move(s));
        }
        QElapsedTimer t;
        t.start();
        const HttpReply r = httpRequest(m_server.port(), "GET", "/api/v1/health");
        QCOMPARE(r.status, 200);
        QVERIFY(t.elapsed() < 2000);
        for (auto &s : idle)
            QCOMPARE(s->state(), QAbstractSocket::ConnectedState);
    }

    void keepAliveServesSeveralRequests()
    {
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_server.port());
        QVERIFY(s.waitForConnected(5000));
        for (int i = 0; i < 5; ++i) {
            s.write("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n");
            QCOMPARE(readReply(s).status, 200);
        }
    }

    void connectionCap()
    {
        QTemporaryDir dir;
        ServerProcess capped;
        QVERIFY2(capped.start(dir.path(), {"--max-connections", "50"}), capped.log().constData());
        std::vector<std::unique_ptr<QTcpSocket>> held;
        for (int i = 0; i < 50; ++i) {
            auto s = connectIdle(capped.port());
            QVERIFY(s);
            held.push_back(std::move(s));
        }
        QTest::qWait(200); // let the server accept all 50
        for (auto &s : held)
            QCOMPARE(s->state(), QAbstractSocket::ConnectedState);
        // Beyond the cap: closed at once.
        for (int i = 0; i < 5; ++i) {
            auto extra = connectIdle(capped.port());
            QVERIFY(extra);
            QVERIFY2(closedByServer(*extra, 2000), "connection beyond the cap stayed open");
        }
        // Free one slot; /health on it answers.
        held.front()->disconnectFromHost();
        held.erase(held.begin());
        QTest::qWait(200);
        const HttpReply r = httpRequest(capped.port(), "GET", "/api/v1/health");
        QCOMPARE(r.status, 200);
        QVERIFY(capped.running());
    }

    // One address cannot take every connection slot: beyond its own cap its new
    // connections are closed, while another client is still served.
    void perAddressConnectionCap()
    {
        QTemporaryDir dir;
        QVERIFY(writeConfig(dir.path(), R"({"http":{"maxConnectionsPerAddress":20}})"));
        ServerProcess server;
        QVERIFY2(server.start(dir.path()), server.log().constData());
        const QHostAddress greedy(QStringLiteral("127.0.0.3"));
        std::vector<std::unique_ptr<QTcpSocket>> held;
        for (int i = 0; i < 20; ++i) {
            auto s = connectIdle(server.port(), greedy);
            QVERIFY(s);
            held.push_back(std::move(s));
        }
        QTest::qWait(200);
        for (auto &s : held)
            QCOMPARE(s->state(), QAbstractSocket::ConnectedState);
        auto extra = connectIdle(server.port(), greedy);
        QVERIFY(extra);
        QVERIFY2(closedByServer(*extra, 2000), "a connection beyond the per-address cap stayed open");
        // Another address is served.
        QCOMPARE(httpRequest(server.port(), "GET", "/api/v1/health").status, 200);
        // A slot freed by the greedy client is its own again.
        held.front()->disconnectFromHost();
        held.erase(held.begin());
        QTest::qWait(200);
        auto again = connectIdle(server.port(), greedy);
        QVERIFY(again);
        again->write("GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n");
        QCOMPARE(readReply(*again).status, 200);
    }

    // http.trustedProxies (docs/deployment.md, "Behind a proxy"): through a trusted
    // proxy the per-address render limit counts each forwarded client on its own, and
    // hops a client prepended do not change who it is; from any other peer the header is
    // ignored, so a forged one cannot buy a fresh allowance.
    void forwardedForFromTrustedProxiesOnly()
    {
        QTemporaryDir dir;
        QVERIFY(writeConfig(dir.path(), R"({"http":{"trustedProxies":["127.0.0.2","10.9.0.0/16"]},
                                            "render":{"rateLimit":{"perSecond":0.01,"burst":1}}})"));
        ServerProcess server;
        QVERIFY2(server.start(dir.path()), server.log().constData());
        // An anonymous pattern render from `from`, with X-Forwarded-For `forwarded` if any.
        const auto render = [&](const char *from, const QByteArray &forwarded) {
            QTcpSocket s;
            if (!s.bind(QHostAddress(QString::fromLatin1(from))))
                return -1;
            s.connectToHost(QHostAddress::LocalHost, server.port());
            if (!s.waitForConnected(5000))
                return -1;
            QByteArray req = "GET /api/v1/render?pattern=waves-sunset&width=40&height=20&format=png&output=binary "
                             "HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
            if (!forwarded.isNull())
                req += "X-Forwarded-For: " + forwarded + "\r\n";
            s.write(req + "\r\n");
            s.waitForBytesWritten(2000);
            return readReply(s).status;
        };
        // Through the trusted proxy: two clients, one allowance each.
        QCOMPARE(render("127.0.0.2", "203.0.113.1"), 200);
        QCOMPARE(render("127.0.0.2", "203.0.113.1"), 429);
        QCOMPARE(render("127.0.0.2", "203.0.113.2"), 200);
        // The first client prepends a made-up hop: the rightmost untrusted hop is still it.
        QCOMPARE(render("127.0.0.2", "198.51.100.7, 203.0.113.1"), 429);
        // A chain of trusted proxies (10.9.0.0/16) in front of the last one is skipped.
        QCOMPARE(render("127.0.0.2", "203.0.113.3, 10.9.1.1"), 200);
        QCOMPARE(render("127.0.0.2", "203.0.113.3, 10.9.2.2"), 429);
        // The proxy's own requests without the header count as the proxy.
        QCOMPARE(render("127.0.0.2", QByteArray()), 200);
        QCOMPARE(render("127.0.0.2", QByteArray()), 429);
        // An untrusted peer's header is ignored: its allowance is its own address's.
        QCOMPARE(render("127.0.0.4", "203.0.113.50"), 200);
        QCOMPARE(render("127.0.0.4", "203.0.113.51"), 429);
        QCOMPARE(render("127.0.0.4", QByteArray()), 429);
    }

    // An entry that is neither an address nor a subnet stops the server, naming it.
    void invalidTrustedProxyIsAStartupError()
    {
        QTemporaryDir dir;
        QVERIFY(writeConfig(dir.path(), R"({"http":{"trustedProxies":["127.0.0.1","nginx.local"]}})"));
        ServerProcess server;
        QVERIFY(!server.start(dir.path()));
        QVERIFY2(server.log().contains("http.trustedProxies") && server.log().contains("nginx.local"),
                 server.log().constData());
    }

    // RFC 9110 §8.6: a Content-Length that is not digits is refused, not read as 0 (which
    // made the body parse as a second request).
    void invalidContentLengthIsRefused()
    {
        const QByteArray body = "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
        for (const QByteArray &length : {QByteArray("-5"), QByteArray("12abc"), QByteArray("")}) {
            const HttpReply r
                = rawExchange(m_server.port(), "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: "
                                                   + length + "\r\n\r\n" + body);
            QVERIFY2(r.status == 400, length.constData());
            QCOMPARE(r.json().value("field").toString(), QStringLiteral("Content-Length"));
        }
        QVERIFY(m_server.running());
    }

    // RFC 9112 §9.3: HTTP/1.0 closes after one response unless the client asks for keep-alive.
    void http10ConnectionsClose()
    {
        bool closed = false;
        HttpReply r = rawExchange(m_server.port(), "GET /api/v1/health HTTP/1.0\r\n\r\n", &closed);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Connection").toLower(), QByteArray("close"));
        QVERIFY2(closed, "an HTTP/1.0 connection stayed open");
        r = rawExchange(m_server.port(), "GET /api/v1/health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", &closed);
        QCOMPARE(r.status, 200);
        QVERIFY2(!closed, "keep-alive was asked for");
        r = rawExchange(m_server.port(), "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n", &closed);
        QCOMPARE(r.status, 200);
        QVERIFY(!closed);
    }

    // An encoded "/" does not split a path segment: `/api/v1%2Fhealth` is not `/api/v1/health`.
    void encodedSlashIsNotASeparator()
    {
        QCOMPARE(httpRequest(m_server.port(), "GET", "/api/v1%2Fhealth").status, 404);
        QCOMPARE(httpRequest(m_server.port(), "GET", "/api/v1/health%2f").status, 404);
        QCOMPARE(httpRequest(m_server.port(), "GET", "/api/v1/health").status, 200);
    }

    void idleAndSlowRequestTimeouts()
    {
        QTemporaryDir dir;
        QVERIFY(writeConfig(dir.path(), R"({"http":{"idleTimeoutMs":600,"requestTimeoutMs":400}})"));
        ServerProcess quick;
        QVERIFY2(quick.start(dir.path()), quick.log().constData());

        auto idle = connectIdle(quick.port());
        QVERIFY(idle);
        QElapsedTimer t;
        t.start();
        QVERIFY(closedByServer(*idle, 3000));
        QVERIFY2(t.elapsed() >= 500, qPrintable(QString::number(t.elapsed())));

        // Headers trickling in: answered 408 and closed after the request timeout.
        QTcpSocket slow;
        slow.connectToHost(QHostAddress::LocalHost, quick.port());
        QVERIFY(slow.waitForConnected(5000));
        slow.write("GET /api/v1/health HTTP/1.1\r\n");
        slow.waitForBytesWritten(1000);
        QByteArray got;
        t.restart();
        while (t.elapsed() < 3000 && slow.state() == QAbstractSocket::ConnectedState) {
            slow.write("X-Slow: 1\r\n"); // a byte now and then keeps it from being idle
            slow.waitForReadyRead(100);
            got += slow.readAll();
        }
        got += slow.readAll();
        QVERIFY2(got.startsWith("HTTP/1.1 408"), got.constData());
        QVERIFY(t.elapsed() < 3000);

        // A connection with a request in flight is not idle: keep-alive request/response works.
        QCOMPARE(httpRequest(quick.port(), "GET", "/api/v1/health").status, 200);
    }

    void failedLoginsAreThrottled()
    {
        QTemporaryDir dir;
        QCOMPARE(runCli({"user", "add", "--email", "t@x.test", "--space", "t", "--create-space", "--role", "owner",
                         "--data", dir.path()},
                        "password123\n"),
                 0);
        ServerProcess server;
        QVERIFY2(server.start(dir.path()), server.log().constData());
        const QByteArray wrong = R"({"email":"t@x.test","password":"nope-nope"})";
        for (int i = 0; i < 10; ++i)
            QCOMPARE(httpRequest(server.port(), "POST", "/api/v1/auth/login", wrong).status, 401);
        HttpReply r = httpRequest(server.port(), "POST", "/api/v1/auth/login", wrong);
        QCOMPARE(r.status, 429);
        QVERIFY(r.header("Retry-After").toInt() > 0);
        QCOMPARE(r.header("Content-Type"), QByteArray("application/problem+json"));
        // Even the right password waits: the limit is per e-mail and per address.
        r = httpRequest(server.port(), "POST", "/api/v1/auth/login",
                        R"({"email":"t@x.test","password":"password123"})");
        QCOMPARE(r.status, 429);
    }

    // Logins run on their own pool behind a per-address rate: a burst of logins from one
    // address is cut off with 429 before any password is hashed, while another address and
    // the render workers are not held up.
    void loginsHaveTheirOwnPoolAndRate()
    {
        QTemporaryDir dir;
        // One render worker with a queue of one: were logins on it, three queued logins
        // would leave the render a 503 queue_full.
        QVERIFY(writeConfig(dir.path(), R"({"auth":{"loginRateLimit":{"perSecond":0.01,"burst":3}},)"
                                        R"("http":{"workerThreads":1,"workerQueueLimit":1}})"));
        QCOMPARE(runCli({"user", "add", "--email", "r@x.test", "--space", "r", "--create-space", "--role", "owner",
                         "--data", dir.path()},
                        "password123\n"),
                 0);
        ServerProcess server;
        QVERIFY2(server.start(dir.path(), {}, /*slowHashes=*/true), server.log().constData());
        const QByteArray right = R"({"email":"r@x.test","password":"password123"})";
        for (int i = 0; i < 3; ++i)
            QCOMPARE(httpRequest(server.port(), "POST", "/api/v1/auth/login", right).status, 200);
        HttpReply r = httpRequest(server.port(), "POST", "/api/v1/auth/login", right);
        QCOMPARE(r.status, 429);
        QCOMPARE(r.json().value("code").toString(), QStringLiteral("too_many_login_attempts"));
        QVERIFY(r.header("Retry-After").toInt() > 0);

        // Another address still logs in; and with logins queued on the login pool, a
        // pattern render (worker pool) is answered at once.
        QTcpSocket other;
        QVERIFY(other.bind(QHostAddress(QStringLiteral("127.0.0.9"))));
        other.connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(other.waitForConnected(5000));
        std::vector<std::unique_ptr<QTcpSocket>> queued;
        for (int i = 0; i < 3; ++i) {
            auto s = connectIdle(server.port(), QHostAddress(quint32(0x7f00000a + i)));
            QVERIFY(s);
            s->write("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: "
                     + QByteArray::number(right.size()) + "\r\n\r\n" + right);
            s->waitForBytesWritten(1000);
            queued.push_back(std::move(s));
        }
        QElapsedTimer t;
        t.start();
        r = httpRequest(server.port(), "GET", "/api/v1/render?pattern=dots-sunset&width=64&height=64");
        QCOMPARE(r.status, 200);
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        other.write("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: " + QByteArray::number(right.size())
                    + "\r\n\r\n" + right);
        QCOMPARE(readReply(other).status, 200);
        for (auto &s : queued)
            QCOMPARE(readReply(*s).status, 200);
    }

    void answersAfterClientLeftAreDropped()
    {
        // Real Argon2 limits: an unknown e-mail costs one interactive-limit verification
        // (~50-100 ms) on the worker pool; the clients leave before it ends.
        QTemporaryDir dir;
        ServerProcess server;
        QVERIFY2(server.start(dir.path(), {}, /*slowHashes=*/true), server.log().constData());
        const QByteArray body = R"({"email":"ghost@x.test","password":"whatever1"})";
        const int clients = 4;
        for (int i = 0; i < clients; ++i) {
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, server.port());
            QVERIFY(s.waitForConnected(5000));
            s.write("POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: " + QByteArray::number(body.size())
                    + "\r\n\r\n" + body);
            s.waitForBytesWritten(1000);
            QTest::qWait(20); // the server has read the request and started the job
            s.abort();
        }
        // Meanwhile the server thread is free.
        QCOMPARE(httpRequest(server.port(), "GET", "/api/v1/health").status, 200);
        // Every job finishes and is dropped, not written to a dead socket (Argon2 at
        // interactive limits takes 0.1-1 s per job on a busy 2-core machine).
        QTRY_COMPARE_WITH_TIMEOUT(server.log().count("(client gone)"), clients, 30000);
        QVERIFY(server.running());
        QCOMPARE(httpRequest(server.port(), "GET", "/api/v1/health").status, 200);
    }
};

QTEST_GUILESS_MAIN(TestLimits)
#include "tst_limits.moc"
