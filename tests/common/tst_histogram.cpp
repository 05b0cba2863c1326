// LabeledHistograms: the Prometheus histogram lines GET /metrics serves — cumulative
// buckets ending in +Inf, _sum and _count per label set, label values escaped.

#include "server/common/histogram.h"

#include <QTest>

using imprint::common::LabeledHistograms;

class TestHistogram : public QObject
{
    Q_OBJECT

private slots:
    void cumulativeBuckets()
    {
        LabeledHistograms h({0.1, 1});
        h.observe({"a"}, 0.05);
        h.observe({"a"}, 0.1); // on a bound: counted in it (le = less than or equal)
        h.observe({"a"}, 0.5);
        h.observe({"a"}, 7);
        QCOMPARE(h.count({"a"}), quint64(4));
        QCOMPARE(h.count({"b"}), quint64(0));
        const QByteArray text = h.prometheusText("t_seconds", "Test.", {"k"});
        QCOMPARE(text, QByteArray("# HELP t_seconds Test.\n# TYPE t_seconds histogram\n"
                                  "t_seconds_bucket{k=\"a\",le=\"0.1\"} 2\n"
                                  "t_seconds_bucket{k=\"a\",le=\"1\"} 3\n"
                                  "t_seconds_bucket{k=\"a\",le=\"+Inf\"} 4\n"
                                  "t_seconds_sum{k=\"a\"} 7.65\n"
                                  "t_seconds_count{k=\"a\"} 4\n"));
    }

    void labelValuesAreEscaped()
    {
        QCOMPARE(imprint::common::prometheusLabelValue(QStringLiteral("a\"b\\c\nd")), QByteArray("a\\\"b\\\\c\\nd"));
        LabeledHistograms h({1});
        h.observe({"x\"y"}, 0.5);
        QVERIFY(h.prometheusText("n", "h", {"l"}).contains("n_count{l=\"x\\\"y\"} 1\n"));
    }

    void numbers()
    {
        using imprint::common::prometheusNumber;
        QCOMPARE(prometheusNumber(3), QByteArray("3"));
        QCOMPARE(prometheusNumber(0.25), QByteArray("0.25"));
        QCOMPARE(prometheusNumber(std::numeric_limits<double>::infinity()), QByteArray("+Inf"));
    }
};

QTEST_GUILESS_MAIN(TestHistogram)
#include "tst_histogram.moc"
