// Expected<T, E>: a value or an error, never both; the wrong accessor fails loudly.

#include "server/common/expected.h"

#include <QString>
#include <QTest>

using imprint::common::Expected;
using imprint::common::Unexpected;

namespace {
struct Err {
    QString code;
};

Expected<int, Err> half(int n)
{
    if (n % 2)
        return Err{QStringLiteral("odd")};
    return n / 2;
}
} // namespace

class TestExpected : public QObject
{
    Q_OBJECT

private slots:
    void valueAndError()
    {
        const auto ok = half(8);
        QVERIFY(ok.has_value());
        QVERIFY(bool(ok));
        QCOMPARE(*ok, 4);
        QCOMPARE(ok.value_or(-1), 4);

        const auto bad = half(7);
        QVERIFY(!bad);
        QCOMPARE(bad.error().code, QStringLiteral("odd"));
        QCOMPARE(bad.value_or(-1), -1);
        QVERIFY_THROWS_EXCEPTION(std::bad_variant_access, bad.value());
        QVERIFY_THROWS_EXCEPTION(std::bad_variant_access, ok.error());
    }

    void sameTypeNeedsUnexpected()
    {
        // With T == E only Unexpected can make the error alternative.
        Expected<QString, QString> v(QStringLiteral("value"));
        Expected<QString, QString> e(Unexpected<QString>(QStringLiteral("error")));
        QVERIFY(v.has_value());
        QVERIFY(!e.has_value());
        QCOMPARE(e.error(), QStringLiteral("error"));
    }
};

QTEST_GUILESS_MAIN(TestExpected)
#include "tst_expected.moc"
