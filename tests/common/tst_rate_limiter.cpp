// RateLimiter: a full burst is allowed at once, then tokens come back at the configured
// rate, Retry-After says how long to wait, and keys do not share buckets.

#include "server/common/rate_limiter.h"

#include <QTest>

using imprint::common::RateLimiter;

namespace {
constexpr qint64 kSecondNs = 1'000'000'000LL;
}

class TestRateLimiter : public QObject
{
    Q_OBJECT

private slots:
    void burstThenRefillRate()
    {
        qint64 now = 0;
        RateLimiter limiter(2.0, 4.0, [&] { return now; }); // 2 tokens/s, burst 4
        for (int i = 0; i < 4; ++i)
            QCOMPARE(limiter.acquire("k"), 0);
        QCOMPARE(limiter.acquire("k"), 1); // empty: one token needs 0.5 s → Retry-After 1
        now += kSecondNs / 2; // half a second refills exactly one token
        QCOMPARE(limiter.acquire("k"), 0);
        QVERIFY(limiter.acquire("k") > 0);
        now += 10 * kSecondNs; // refills to the burst, not beyond
        for (int i = 0; i < 4; ++i)
            QCOMPARE(limiter.acquire("k"), 0);
        QVERIFY(limiter.acquire("k") > 0);
    }

    void retryAfterRoundsUp()
    {
        qint64 now = 0;
        RateLimiter limiter(0.25, 1.0, [&] { return now; }); // one token per 4 s
        QCOMPARE(limiter.acquire("k"), 0);
        QCOMPARE(limiter.acquire("k"), 4);
        now += kSecondNs;
        QCOMPARE(limiter.acquire("k"), 3);
    }

    void keysAreIndependent()
    {
        qint64 now = 0;
        RateLimiter limiter(1.0, 1.0, [&] { return now; });
        QCOMPARE(limiter.acquire("a"), 0);
        QVERIFY(limiter.acquire("a") > 0);
        QCOMPARE(limiter.acquire("b"), 0);
    }

    void zeroRateDisables()
    {
        RateLimiter limiter(0, 1);
        for (int i = 0; i < 100; ++i)
            QCOMPARE(limiter.acquire("k"), 0);
    }
};

QTEST_GUILESS_MAIN(TestRateLimiter)
#include "tst_rate_limiter.moc"
