// The remote image fetch policy (server/net, docs/remote-images.md): which addresses are
// public, row by row with the IPv6 forms that embed an IPv4 address; and the fetcher
// against a test origin on loopback — refused unless allowlisted, schemes, redirects
// checked hop by hop, the byte, pixel and time limits, the cache (fresh, revalidated,
// no-store, on disk across instances) and one request for concurrent callers.
#include "../support/test_origin.h"
#include "server/net/address_policy.h"
#include "server/net/remote_image_fetcher.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

using namespace imprint::net;

namespace {

using Kind = FetchError::Kind;

} // namespace

class TestRemoteImageFetcher : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestOrigin> m_origin;

    QUrl url(const QString &path) const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_origin->port()).arg(path));
    }
    static RemoteImagePolicy loopbackAllowed()
    {
        RemoteImagePolicy p;
        p.hostAllowlist = {QStringLiteral("127.0.0.1")};
        p.timeoutMs = 2000;
        return p;
    }

private slots:
    void initTestCase()
    {
        m_origin = std::make_unique<TestOrigin>(QHostAddress::LocalHost);
        QVERIFY(m_origin->port() != 0);
        m_origin->set("/red.png", TestOrigin::cacheablePng(20, 10, Qt::red));
        m_origin->set("/slow.png", TestOrigin::cacheablePng(8, 8, Qt::blue, 300));
        m_origin->set("/nostore.png",
                      TestOrigin::Answer{200, TestOrigin::png(4, 4, Qt::red), {{"Cache-Control", "no-store"}}});
        m_origin->set("/etag.png", TestOrigin::revalidated("\"a\"", "max-age=0", TestOrigin::png(6, 6, Qt::green)));
        m_origin->set("/r1", TestOrigin::Answer{302, {}, {{"Location", "/r2"}}});
        m_origin->set("/r2", TestOrigin::Answer{301, {}, {{"Location", "/r3"}}});
        m_origin->set("/r3", TestOrigin::Answer{307, {}, {{"Location", "/red.png"}}});
        m_origin->set("/r0", TestOrigin::Answer{302, {}, {{"Location", "/r1"}}});
        m_origin->set("/to-private", TestOrigin::Answer{302, {}, {{"Location", "http://10.0.0.1/a.png"}}});
        m_origin->set("/bomb.png", TestOrigin::Answer{200, imprint::test::pngBomb(60000, 60000), {}});
        m_origin->set("/big.png", TestOrigin::Answer{200, TestOrigin::png(20, 10, Qt::red) + QByteArray(5000, 0), {}});
        m_origin->set("/text", TestOrigin::Answer{200, "hello", {{"Content-Type", "image/png"}}});
    }

    void addressClasses_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<int>("expected");
        const auto row = [](const char *a, AddressClass c) { QTest::newRow(a) << QString::fromLatin1(a) << int(c); };
        using C = AddressClass;
        row("8.8.8.8", C::Public);
        row("93.184.216.34", C::Public);
        row("172.32.0.1", C::Public);
        row("100.128.0.1", C::Public);
        row("127.0.0.1", C::Loopback);
        row("127.0.0.2", C::Loopback);
        row("127.255.255.254", C::Loopback);
        row("10.1.2.3", C::Private);
        row("172.16.0.1", C::Private);
        row("172.31.255.255", C::Private);
        row("192.168.1.1", C::Private);
        row("169.254.169.254", C::LinkLocal);
        row("169.254.0.1", C::LinkLocal);
        row("0.0.0.0", C::Unspecified);
        row("0.1.2.3", C::Unspecified);
        row("224.0.0.1", C::Multicast);
        row("239.255.255.250", C::Multicast);
        row("100.64.0.1", C::Reserved); // CGNAT
        row("198.18.0.1", C::Reserved); // benchmarking
        row("192.0.2.1", C::Reserved); // documentation
        row("198.51.100.7", C::Reserved);
        row("203.0.113.9", C::Reserved);
        row("192.0.0.8", C::Reserved);
        row("240.0.0.1", C::Reserved);
        row("255.255.255.255", C::Reserved);
        row("2606:4700:4700::1111", C::Public);
        row("2001:4860:4860::8888", C::Public);
        row("::1", C::Loopback);
        row("::", C::Unspecified);
        row("fe80::1", C::LinkLocal);
        row("febf::1", C::LinkLocal);
        row("fc00::1", C::Private);
        row("fd12:3456::1", C::Private);
        row("fec0::1", C::Private);
        row("ff02::1", C::Multicast);
        row("2001:db8::1", C::Reserved);
        row("3fff::1", C::Reserved);
        row("2001::1", C::Reserved); // Teredo
        row("100::1", C::Reserved); // discard
        row("::127.0.0.1", C::Reserved); // deprecated IPv4-compatible
        row("::ffff:127.0.0.1", C::Loopback);
        row("::ffff:169.254.169.254", C::LinkLocal);
        row("::ffff:10.0.0.1", C::Private);
        row("::ffff:8.8.8.8", C::Public);
        row("64:ff9b::a00:1", C::Private); // NAT64 of 10.0.0.1
        row("64:ff9b::808:808", C::Public); // NAT64 of 8.8.8.8
        row("64:ff9b:1::1", C::Private); // NAT64 local use
        row("2002:c0a8:101::1", C::Private); // 6to4 of 192.168.1.1
        row("2002:a9fe:a9fe::1", C::LinkLocal); // 6to4 of 169.254.169.254
        row("2002:808:808::1", C::Public);
    }

    void addressClasses()
    {
        QFETCH(QString, address);
        QFETCH(int, expected);
        const QHostAddress a(address);
        QVERIFY2(!a.isNull(), qPrintable(address));
        QCOMPARE(addressClassName(classifyAddress(a)), addressClassName(AddressClass(expected)));
    }

    void loopbackRefusedUnlessAllowlisted()
    {
        RemoteImageFetcher fetcher{RemoteImagePolicy{}};
        const auto r = fetcher.fetch(url("/red.png"));
        QVERIFY(!r);
        QCOMPARE(int(r.error().kind), int(Kind::Refused));
        QVERIFY2(r.error().message.contains("loopback"), qPrintable(r.error().message));
        QCOMPARE(m_origin->hits("/red.png"), 0);

        // A name is resolved and its addresses checked: localhost is loopback whatever it is called.
        RemoteImageFetcher ipOnly{loopbackAllowed()};
        const auto byName = ipOnly.fetch(QUrl(QStringLiteral("http://localhost:%1/red.png").arg(m_origin->port())));
        QVERIFY(!byName);
        QCOMPARE(int(byName.error().kind), int(Kind::Refused));
        QCOMPARE(m_origin->hits("/red.png"), 0);
    }

    // An allowlisted name is resolved once and the connection goes to the checked
    // address, with the name in Host (what a virtual host or a CDN routes on).
    void allowlistedNameIsSentInHost()
    {
        m_origin->set("/named.png", TestOrigin::Answer{200, TestOrigin::png(3, 3, Qt::red), {}});
        RemoteImagePolicy policy = loopbackAllowed();
        policy.hostAllowlist = {QStringLiteral("LocalHost")};
        RemoteImageFetcher fetcher{policy};
        const auto r = fetcher.fetch(QUrl(QStringLiteral("http://localhost:%1/named.png").arg(m_origin->port())));
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QCOMPARE(m_origin->lastHost("/named.png"), QStringLiteral("localhost:%1").arg(m_origin->port()).toLatin1());
    }

    void schemesOtherThanHttpAreRefused()
    {
        RemoteImageFetcher fetcher{loopbackAllowed()};
        for (const char *u : {"file:///etc/passwd", "ftp://127.0.0.1/a.png", "gopher://127.0.0.1/"}) {
            const auto r = fetcher.fetch(QUrl(QString::fromLatin1(u)));
            QVERIFY(!r);
            QCOMPARE(int(r.error().kind), int(Kind::Refused));
        }
        QVERIFY(isRemoteImageUrl("file:///etc/passwd"));
        QVERIFY(isRemoteImageUrl("HTTPS://example.com/a.png"));
        QVERIFY(!isRemoteImageUrl("data:image/png;base64,AAAA"));
        QVERIFY(!isRemoteImageUrl("avatar.png"));
    }

    void allowlistedFetchIsCachedInMemoryAndOnDisk()
    {
        QTemporaryDir dir;
        RemoteImageCacheOptions cache;
        cache.directory = dir.filePath("cache");
        {
            RemoteImageFetcher fetcher{loopbackAllowed(), cache};
            const auto first = fetcher.fetch(url("/red.png"));
            QVERIFY2(first, first ? "" : qPrintable(first.error().message));
            QCOMPARE(first->size, QSize(20, 10));
            QVERIFY(!first->fromCache);
            const auto second = fetcher.fetch(url("/red.png"));
            QVERIFY(second && second->fromCache);
            QCOMPARE(second->bytes, first->bytes);
            QCOMPARE(fetcher.stats().memoryHits, quint64(1));
        }
        QCOMPARE(m_origin->hits("/red.png"), 1);
        // A restarted server keeps what it fetched.
        RemoteImageFetcher restarted{loopbackAllowed(), cache};
        const auto third = restarted.fetch(url("/red.png"));
        QVERIFY(third && third->fromCache);
        QCOMPARE(restarted.stats().diskHits, quint64(1));
        QCOMPARE(m_origin->hits("/red.png"), 1);
    }

    void staleEntriesAreRevalidatedAndNoStoreIsNotKept()
    {
        RemoteImageFetcher fetcher{loopbackAllowed()};
        QVERIFY(fetcher.fetch(url("/etag.png")));
        const auto again = fetcher.fetch(url("/etag.png"));
        QVERIFY(again && again->fromCache);
        QCOMPARE(m_origin->hits("/etag.png"), 2);
        QCOMPARE(fetcher.stats().notModified, quint64(1));

        QVERIFY(fetcher.fetch(url("/nostore.png")));
        QVERIFY(fetcher.fetch(url("/nostore.png")));
        QCOMPARE(m_origin->hits("/nostore.png"), 2);
    }

    void concurrentFetchesShareOneRequest()
    {
        RemoteImageFetcher fetcher{loopbackAllowed()};
        const auto a = fetcher.start(url("/slow.png"));
        const auto b = fetcher.start(url("/slow.png"));
        QVERIFY(a.wait());
        QVERIFY(b.wait());
        QCOMPARE(m_origin->hits("/slow.png"), 1);
    }

    void redirectsAreFollowedAndCheckedEachTime()
    {
        RemoteImageFetcher fetcher{loopbackAllowed()};
        const auto three = fetcher.fetch(url("/r1"));
        QVERIFY2(three, three ? "" : qPrintable(three.error().message));
        QCOMPARE(three->size, QSize(20, 10));
        const auto four = fetcher.fetch(url("/r0"));
        QVERIFY(!four);
        QCOMPARE(int(four.error().kind), int(Kind::Unavailable));
        QVERIFY2(four.error().message.contains("redirects"), qPrintable(four.error().message));
        const auto toPrivate = fetcher.fetch(url("/to-private"));
        QVERIFY(!toPrivate);
        QCOMPARE(int(toPrivate.error().kind), int(Kind::Refused));
        QVERIFY2(toPrivate.error().message.contains("10.0.0.1"), qPrintable(toPrivate.error().message));
    }

    void limits()
    {
        RemoteImagePolicy policy = loopbackAllowed();
        policy.maxBytes = 1000;
        policy.timeoutMs = 300;
        RemoteImageFetcher fetcher{policy};
        const auto big = fetcher.fetch(url("/big.png"));
        QVERIFY(!big);
        QCOMPARE(int(big.error().kind), int(Kind::TooLarge));
        const auto bomb = fetcher.fetch(url("/bomb.png"));
        QVERIFY(!bomb);
        QCOMPARE(int(bomb.error().kind), int(Kind::TooLarge));
        QVERIFY2(bomb.error().message.contains("60000"), qPrintable(bomb.error().message));
        const auto text = fetcher.fetch(url("/text"));
        QVERIFY(!text);
        QCOMPARE(int(text.error().kind), int(Kind::Unavailable));
        const auto missing = fetcher.fetch(url("/missing"));
        QVERIFY(!missing);
        QCOMPARE(int(missing.error().kind), int(Kind::Unavailable));

        QElapsedTimer clock;
        clock.start();
        const auto silent
            = fetcher.fetch(QUrl(QStringLiteral("http://127.0.0.1:%1/a.png").arg(m_origin->silentPort())));
        QVERIFY(!silent);
        QCOMPARE(int(silent.error().kind), int(Kind::Unavailable));
        QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
        // A caller's own deadline, shorter than the policy's, wins.
        clock.restart();
        RemoteImageFetcher patient{loopbackAllowed()};
        QVERIFY(!patient.fetch(QUrl(QStringLiteral("http://127.0.0.1:%1/b.png").arg(m_origin->silentPort())),
                               QDeadlineTimer(200)));
        QVERIFY2(clock.elapsed() < 900, qPrintable(QString::number(clock.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestRemoteImageFetcher)
#include "tst_remote_image_fetcher.moc"
