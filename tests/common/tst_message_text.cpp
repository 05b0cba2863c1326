// orList(): the list wording of the "must be satori, takumi or html" style messages.

#include "server/common/text.h"

#include <QtTest>

class TestText : public QObject
{
    Q_OBJECT

private slots:
    void orList()
    {
        using imprint::common::orList;
        QCOMPARE(orList({}), QString());
        QCOMPARE(orList({"satori"}), QStringLiteral("satori"));
        QCOMPARE(orList({"png", "webp"}), QStringLiteral("png or webp"));
        QCOMPARE(orList({"satori", "takumi", "html"}), QStringLiteral("satori, takumi or html"));
    }
};

QTEST_GUILESS_MAIN(TestText)
#include "tst_message_text.moc"
