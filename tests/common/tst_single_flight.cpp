// SingleFlight: a burst of identical requests costs one computation and every caller gets
// its value; different keys do not wait for each other.

#include "server/common/single_flight.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using imprint::common::SingleFlight;

class TestSingleFlight : public QObject
{
    Q_OBJECT

private slots:
    void concurrentCallersShareOneComputation()
    {
        constexpr int kCallers = 8;
        SingleFlight<int> flight;
        std::atomic<int> computations{0};
        std::atomic<int> entered{0};
        std::atomic<int> sharedCount{0};
        std::vector<int> results(kCallers, 0);
        std::vector<std::thread> threads;
        for (int i = 0; i < kCallers; ++i) {
            threads.emplace_back([&, i] {
                ++entered;
                bool shared = false;
                results[i] = flight.run(
                    QStringLiteral("same"),
                    [&] {
                        ++computations;
                        // Hold the computation until every caller has started, plus slack for
                        // them to reach run(), so they all find it running.
                        while (entered.load() < kCallers)
                            std::this_thread::sleep_for(std::chrono::milliseconds(1));
                        std::this_thread::sleep_for(std::chrono::milliseconds(300));
                        return 42;
                    },
                    &shared);
                if (shared)
                    ++sharedCount;
            });
        }
        for (auto &t : threads)
            t.join();
        QCOMPARE(computations.load(), 1);
        QCOMPARE(sharedCount.load(), kCallers - 1);
        for (int r : results)
            QCOMPARE(r, 42);
    }

    void laterCallsComputeAgain()
    {
        SingleFlight<int> flight;
        int computations = 0;
        bool shared = true;
        QCOMPARE(flight.run(
                     QStringLiteral("k"), [&] { return ++computations; }, &shared),
                 1);
        QVERIFY(!shared);
        QCOMPARE(flight.run(
                     QStringLiteral("k"), [&] { return ++computations; }, &shared),
                 2);
        QVERIFY(!shared);
    }

    void differentKeysRunIndependently()
    {
        SingleFlight<int> flight;
        std::atomic<int> computations{0};
        std::thread a([&] {
            flight.run(QStringLiteral("a"), [&] {
                ++computations;
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                return 1;
            });
        });
        std::thread b([&] {
            flight.run(QStringLiteral("b"), [&] {
                ++computations;
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                return 2;
            });
        });
        a.join();
        b.join();
        QCOMPARE(computations.load(), 2);
    }
};

QTEST_GUILESS_MAIN(TestSingleFlight)
#include "tst_single_flight.moc"
