// LoginThrottle: `limit` failures within the window block further logins for that e-mail
// or address until the oldest failure leaves the window; a success clears only the e-mail.

#include "server/common/login_throttle.h"

#include <QtTest>

using imprint::common::LoginThrottle;

class TestLoginThrottle : public QObject
{
    Q_OBJECT

private slots:
    void blocksAfterLimitUntilWindowSlides()
    {
        qint64 now = 1'000'000;
        LoginThrottle throttle(3, 60, [&] { return now; });
        for (int i = 0; i < 2; ++i) {
            throttle.recordFailure("a@x", "10.0.0.1");
            now += 10'000;
        }
        QCOMPARE(throttle.retryAfterSeconds("a@x", "10.0.0.1"), 0);
        throttle.recordFailure("a@x", "10.0.0.1"); // third failure at +20 s
        // The first failure (at +0 s) leaves the 60 s window at +60 s: 40 s from now.
        QCOMPARE(throttle.retryAfterSeconds("a@x", "10.0.0.1"), 40);
        now += 39'500;
        QCOMPARE(throttle.retryAfterSeconds("a@x", "10.0.0.1"), 1); // 0.5 s rounds up
        now += 500;
        QCOMPARE(throttle.retryAfterSeconds("a@x", "10.0.0.1"), 0);
    }

    void eachKeyCountsOnItsOwn()
    {
        qint64 now = 0;
        LoginThrottle throttle(2, 60, [&] { return now; });
        throttle.recordFailure("a@x", "10.0.0.1");
        throttle.recordFailure("b@x", "10.0.0.1");
        // Two different e-mails, but the same address reached the limit.
        QVERIFY(throttle.retryAfterSeconds("c@x", "10.0.0.1") > 0);
        QCOMPARE(throttle.retryAfterSeconds("a@x", "10.0.0.2"), 0);
    }

    void successClearsTheEmailOnly()
    {
        qint64 now = 0;
        LoginThrottle throttle(2, 60, [&] { return now; });
        throttle.recordFailure("a@x", "10.0.0.1");
        throttle.recordFailure("a@x", "10.0.0.2");
        QVERIFY(throttle.retryAfterSeconds("a@x", "10.0.0.3") > 0);
        throttle.recordSuccess("a@x");
        QCOMPARE(throttle.retryAfterSeconds("a@x", "10.0.0.3"), 0);
        throttle.recordFailure("b@x", "10.0.0.9");
        throttle.recordFailure("c@x", "10.0.0.9");
        throttle.recordSuccess("b@x");
        QVERIFY(throttle.retryAfterSeconds("d@x", "10.0.0.9") > 0);
    }
};

QTEST_GUILESS_MAIN(TestLoginThrottle)
#include "tst_login_throttle.moc"
