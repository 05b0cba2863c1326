// LoginThrottle: `limit` failures within the window block further logins for that e-mail
// or address until the oldest failure leaves the window; a success clears only the e-mail.

#include "server/common/login_throttle.h"

#include <QTest>

#include <initializer_list>
#include <utility>

using imprint::common::LoginThrottle;

namespace {

/// A clock that stands still: the cases that use it do not need the window to slide.
qint64 stoppedClock()
{
    return 0;
}

/// Records each failure of `failures` (e-mail, address) on `throttle`.
void recordFailures(LoginThrottle &throttle, std::initializer_list<std::pair<const char *, const char *>> failures)
{
    for (const auto &[email, address] : failures)
        throttle.recordFailure(email, address);
}

} // namespace

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
        LoginThrottle throttle(2, 60, stoppedClock);
        recordFailures(throttle, {{"a@x", "10.0.0.1"}, {"b@x", "10.0.0.1"}});
        // Two different e-mails, but the same address reached the limit.
        QVERIFY(throttle.retryAfterSeconds("c@x", "10.0.0.1") > 0);
        QCOMPARE(throttle.retryAfterSeconds("a@x", "10.0.0.2"), 0);
    }

    void successClearsTheEmailOnly()
    {
        LoginThrottle throttle(2, 60, stoppedClock);
        recordFailures(throttle, {{"a@x", "10.0.0.1"}, {"a@x", "10.0.0.2"}});
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
