// RequestFraming (server/http/request_framing.h), the size checks the Listener runs on a
// request's bytes as they arrive, without a socket: what it refuses, with which status,
// and that how the bytes are cut into reads does not change the verdict.
#include "server/http/request_framing.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace imprint::http;

namespace {

constexpr qint64 kHeader = 1024;
constexpr qint64 kBody = 100;
constexpr qint64 kUpload = 1000;

struct Verdict {
    int status = 0; ///< 0: not refused
    QString field;
};

/// `stream` fed `chunk` bytes per read, as the Listener feeds what each readyRead brings.
Verdict feed(const QByteArray &stream, qsizetype chunk)
{
    RequestFraming framing(kHeader, kBody, kUpload);
    for (qsizetype at = 0; at < stream.size(); at += chunk) {
        const QByteArray piece = stream.mid(at, chunk);
        if (auto refusal = framing.feed(
                piece.size(), QByteArrayView(piece).first(std::min<qint64>(framing.headRoom(), piece.size())))) {
            const QJsonObject p = QJsonDocument::fromJson(refusal->body).object();
            return {refusal->status, p.value("field").toString()};
        }
    }
    return {0, {}};
}

} // namespace

class TestRequestFraming : public QObject
{
    Q_OBJECT

private slots:
    void verdicts()
    {
        QFETCH(QByteArray, stream);
        QFETCH(int, status);
        QFETCH(QString, field);
        for (qsizetype chunk : {stream.size(), qsizetype(1), qsizetype(7)}) {
            const Verdict v = feed(stream, chunk);
            QCOMPARE(v.status, status);
            QCOMPARE(v.field, field);
        }
    }

    void verdicts_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("field");
        QTest::newRow("ordinary") << QByteArray("POST /api/v1/pages HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello") << 0
                                  << QString();
        // Qt 6.4 reads "-5" as 0 and would parse the body as the next request.
        QTest::newRow("negative length") << QByteArray("POST /x HTTP/1.1\r\nContent-Length: -5\r\n\r\nGET / HTTP/1.1")
                                         << 400 << QStringLiteral("Content-Length");
        QTest::newRow("plus sign") << QByteArray("POST /x HTTP/1.1\r\ncontent-length: +5\r\n\r\n") << 400
                                   << QStringLiteral("Content-Length");
        QTest::newRow("overflowing digits")
            << QByteArray("POST /x HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n") << 400
            << QStringLiteral("Content-Length");
        QTest::newRow("announced too large")
            << QByteArray("POST /x HTTP/1.1\r\nContent-Length: 101\r\n\r\n") << 413 << QString();
        QTest::newRow("upload route's own limit")
            << QByteArray("POST /api/v1/fonts?family=A HTTP/1.1\r\nContent-Length: 1000\r\n\r\n") << 0 << QString();
        QTest::newRow("upload over its limit")
            << QByteArray("POST /api/v1/assets HTTP/1.1\r\nContent-Length: 1001\r\n\r\n") << 413 << QString();
        QTest::newRow("GET of an upload path has the ordinary limit")
            << QByteArray("GET /api/v1/fonts HTTP/1.1\r\nContent-Length: 101\r\n\r\n") << 413 << QString();
        QTest::newRow("body longer than announced")
            << (QByteArray("POST /x HTTP/1.1\r\nContent-Length: 1\r\n\r\n") + QByteArray(101, 'a')) << 413 << QString();
        QTest::newRow("chunked body past the limit")
            << (QByteArray("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") + QByteArray(120, 'a')) << 413
            << QString();
        QTest::newRow("header block too large")
            << (QByteArray("GET /x HTTP/1.1\r\nX: ") + QByteArray(kHeader, 'a')) << 431 << QString();
        QTest::newRow("header block just fits")
            << (QByteArray("GET /x HTTP/1.1\r\nX: ") + QByteArray(kHeader - 25, 'a') + "\r\n\r\n") << 0 << QString();

        // Request smuggling (RFC 9112 §6.3, §5.1, §5.2, §2.2): each would be framed one
        // way by Qt 6.4's lenient parser and maybe another by a proxy in front of it; the
        // body below is then a second request that must never be answered.
        const QByteArray smuggled = "GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n";
        QTest::newRow("differing Content-Length values")
            << ("POST /x HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: " + QByteArray::number(smuggled.size())
                + "\r\n\r\n" + smuggled)
            << 400 << QStringLiteral("Content-Length");
        QTest::newRow("equal Content-Length values")
            << QByteArray("POST /x HTTP/1.1\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\nhello") << 0 << QString();
        QTest::newRow("Content-Length with Transfer-Encoding")
            << ("POST /x HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled)
            << 400 << QStringLiteral("Transfer-Encoding");
        QTest::newRow("Transfer-Encoding before Content-Length")
            << ("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n" + smuggled)
            << 400 << QStringLiteral("Transfer-Encoding");
        QTest::newRow("space before the colon")
            << ("POST /x HTTP/1.1\r\nContent-Length : " + QByteArray::number(smuggled.size()) + "\r\n\r\n" + smuggled)
            << 400 << QStringLiteral("Content-Length");
        QTest::newRow("tab before the colon")
            << QByteArray("POST /x HTTP/1.1\r\nTransfer-Encoding\t: chunked\r\n\r\n0\r\n\r\n") << 400
            << QStringLiteral("Transfer-Encoding");
        QTest::newRow("line without a colon")
            << QByteArray("GET /x HTTP/1.1\r\nHost x\r\n\r\n") << 400 << QStringLiteral("Host x");
        QTest::newRow("obs-fold") << QByteArray("GET /x HTTP/1.1\r\nX-A: 1\r\n Content-Length: 5\r\n\r\n") << 400
                                  << QStringLiteral("X-A");
        QTest::newRow("bare LF line ends")
            << ("POST /x HTTP/1.1\nContent-Length: 0\nContent-Length: 41\n\n" + smuggled) << 400
            << QStringLiteral("headers");
        QTest::newRow("bare LF ending the block") << QByteArray("GET /x HTTP/1.1\r\nHost: x\r\n\n") << 400
                                                  << QStringLiteral("headers");
        // RFC 9110 §5.5: NUL in a field value must be refused (or replaced); so are the other
        // controls but HTAB, which no client sends and a log or a proxy may act on.
        QTest::newRow("NUL in a value")
            << (QByteArray("GET /x HTTP/1.1\r\nHost: x") + '\0' + QByteArray("y\r\n\r\n")) << 400
            << QStringLiteral("Host");
        QTest::newRow("ESC in a value") << QByteArray("GET /x HTTP/1.1\r\nUser-Agent: a\x1b[31m\r\n\r\n") << 400
                                        << QStringLiteral("User-Agent");
        QTest::newRow("tab in a value") << QByteArray("GET /x HTTP/1.1\r\nUser-Agent: a\tb\r\n\r\n") << 0
                                        << QString();
        QTest::newRow("bare CR") << QByteArray("GET /x HTTP/1.1\r\nX: a\rContent-Length: 5\r\n\r\n") << 400
                                 << QStringLiteral("headers");
        // Qt skips leading empty lines; the header block after them is still checked.
        QTest::newRow("empty lines before the request line")
            << ("\r\n\r\nPOST /x HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n" + smuggled) << 400
            << QStringLiteral("Content-Length");
        // They count towards the header block's limit, whichever way the bytes are cut.
        QTest::newRow("empty lines before a head that fits")
            << (QByteArray(kHeader / 2, '\n') + "GET /x HTTP/1.1\r\nX: " + QByteArray(kHeader / 2 - 30, 'a') + "\r\n\r\n")
            << 0 << QString();
        QTest::newRow("empty lines before a head that does not fit")
            << (QByteArray(kHeader / 2, '\n') + "GET /x HTTP/1.1\r\nX: " + QByteArray(kHeader / 2 + 10, 'a') + "\r\n\r\n")
            << 431 << QString();
        QTest::newRow("empty lines past the limit")
            << (QByteArray(kHeader + 10, '\n') + "GET /x HTTP/1.1\nContent-Length: 1\n\n") << 431 << QString();
        QTest::newRow("chunked") << QByteArray("POST /x HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
                                 << 0 << QString();
        QTest::newRow("chunked not last") << QByteArray("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n")
                                          << 400 << QStringLiteral("Transfer-Encoding");
        QTest::newRow("chunked twice")
            << QByteArray("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n") << 400
            << QStringLiteral("Transfer-Encoding");
        QTest::newRow("not chunked") << QByteArray("POST /x HTTP/1.1\r\nTransfer-Encoding: xchunked\r\n\r\n") << 400
                                     << QStringLiteral("Transfer-Encoding");
        QTest::newRow("another coding before chunked")
            << QByteArray("POST /x HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n") << 400
            << QStringLiteral("Transfer-Encoding");
        QTest::newRow("chunked in HTTP/1.0") << QByteArray("POST /x HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n")
                                             << 400 << QStringLiteral("Transfer-Encoding");
    }

    // After reset() (the request reached the router) the next request starts from zero.
    void resetStartsOver()
    {
        RequestFraming framing(kHeader, kBody, kUpload);
        const QByteArray first = "POST /x HTTP/1.1\r\nContent-Length: 100\r\n\r\n" + QByteArray(100, 'a');
        QVERIFY(!framing.feed(first.size(),
                              QByteArrayView(first).first(std::min<qint64>(framing.headRoom(), first.size()))));
        // Without the reset the next request's bytes would count as body.
        framing.reset();
        QVERIFY(!framing.started());
        QCOMPARE(framing.headerBytes(), -1);
        QVERIFY(!framing.feed(first.size(),
                              QByteArrayView(first).first(std::min<qint64>(framing.headRoom(), first.size()))));
    }

    void rawResponseIsAClosingHttpMessage()
    {
        HttpResponse r = problem(431, QStringLiteral("headers_too_large"), QStringLiteral("too large"));
        const QByteArray raw = rawResponse(r);
        QVERIFY(raw.startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        QVERIFY(raw.contains("\r\nConnection: close\r\n"));
        QVERIFY(raw.contains("\r\nContent-Length: " + QByteArray::number(r.body.size()) + "\r\n"));
        QVERIFY(raw.endsWith("\r\n\r\n" + r.body));
    }
};

QTEST_GUILESS_MAIN(TestRequestFraming)
#include "tst_request_framing.moc"
