// orList(): the list wording of the "must be satori, takumi or html" style messages;
// firstUnsafeNameChar(): what a key name may not contain; editDistance() and closestName():
// the "did you mean" hint of an unknown field.

#include "server/common/text.h"

#include <QTest>

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

    // A request-derived field cannot start a log line of its own (CWE-117), nor hide
    // what follows it; the escaping is reversible (the backslash itself is escaped).
    void logEscaped_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("logged");
        QTest::newRow("plain") << QStringLiteral("GET /api/v1/health") << QStringLiteral("GET /api/v1/health");
        QTest::newRow("unicode kept") << QStringLiteral("/files/é🚀") << QStringLiteral("/files/é🚀");
        QTest::newRow("LF") << QStringLiteral("/x\n2026 GET /admin 200") << QStringLiteral("/x\\n2026 GET /admin 200");
        QTest::newRow("CRLF") << QStringLiteral("a\r\nb") << QStringLiteral("a\\r\\nb");
        QTest::newRow("backslash") << QStringLiteral("a\\nb") << QStringLiteral("a\\\\nb");
        QTest::newRow("tab") << QStringLiteral("a\tb") << QStringLiteral("a\\tb");
        QTest::newRow("nul") << QString::fromUtf16(u"a\u0000b", 3) << QStringLiteral("a\\u0000b");
        QTest::newRow("escape sequence") << QStringLiteral("\x1b[2J") << QStringLiteral("\\u001b[2J");
        QTest::newRow("C1 NEL") << QStringLiteral("a\u0085b") << QStringLiteral("a\\u0085b");
        QTest::newRow("bidi override") << QStringLiteral("a\u202eb") << QStringLiteral("a\\u202eb");
        QTest::newRow("lone surrogate") << QString::fromUtf16(u"a\xd800", 2) << QStringLiteral("a\\ud800");
    }
    void logEscaped()
    {
        QFETCH(QString, text);
        QFETCH(QString, logged);
        const QString escaped = imprint::common::logEscaped(text);
        QCOMPARE(escaped, logged);
        for (const QChar c : escaped)
            QVERIFY2(c.category() != QChar::Other_Control, qPrintable(escaped));
    }

    void unsafeNameCharacters_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("at");
        QTest::newRow("plain") << QStringLiteral("deploy key") << -1;
        QTest::newRow("hebrew and emoji") << QStringLiteral("מפתח 🚀 ci") << -1;
        QTest::newRow("rlm is allowed") << QStringLiteral("a\u200fb") << -1;
        QTest::newRow("nul") << QString::fromUtf16(u"ab\u0000c", 4) << 2;
        QTest::newRow("tab") << QStringLiteral("a\tb") << 1;
        QTest::newRow("del") << QStringLiteral("a\u007f") << 1;
        QTest::newRow("c1") << QStringLiteral("\u0085x") << 0;
        QTest::newRow("rlo") << QStringLiteral("key\u202egnp.exe") << 3;
        QTest::newRow("lri") << QStringLiteral("x\u2066y") << 1;
        QTest::newRow("bom") << QStringLiteral("\ufeffkey") << 0;
        QTest::newRow("lone surrogate") << QString(QChar(0xd800)) << 0;
        QTest::newRow("noncharacter") << QStringLiteral("a\ufdd0") << 1;
    }
    void unsafeNameCharacters()
    {
        QFETCH(QString, name);
        QFETCH(int, at);
        QCOMPARE(int(imprint::common::firstUnsafeNameChar(name)), at);
    }

    void editDistance()
    {
        using imprint::common::editDistance;
        QCOMPARE(editDistance(QString(), QString()), 0);
        QCOMPARE(editDistance(QStringLiteral("format"), QStringLiteral("format")), 0);
        QCOMPARE(editDistance(QStringLiteral("fromat"), QStringLiteral("format")), 1); // a swap
        QCOMPARE(editDistance(QStringLiteral("Width"), QStringLiteral("width")), 0);
        QCOMPARE(editDistance(QStringLiteral("widht"), QStringLiteral("width")), 1);
        QCOMPARE(editDistance(QStringLiteral("qualty"), QStringLiteral("quality")), 1);
        QCOMPARE(editDistance(QStringLiteral("kitten"), QStringLiteral("sitting")), 3);
        QCOMPARE(editDistance(QString(), QStringLiteral("abc")), 3);
    }

    void closestName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("closest");
        QTest::newRow("swap") << QStringLiteral("fromat") << QStringLiteral("format");
        QTest::newRow("case") << QStringLiteral("pageid") << QStringLiteral("pageId");
        QTest::newRow("two edits") << QStringLiteral("heigth") << QStringLiteral("height");
        QTest::newRow("far") << QStringLiteral("colour") << QString();
        QTest::newRow("short, unrelated") << QStringLiteral("ab") << QString();
    }
    void closestName()
    {
        QFETCH(QString, name);
        QFETCH(QString, closest);
        const QStringList known = {"format", "width", "height", "quality", "pageId", "kid"};
        QCOMPARE(imprint::common::closestName(name, known), closest);
    }
};

QTEST_GUILESS_MAIN(TestText)
#include "tst_message_text.moc"
