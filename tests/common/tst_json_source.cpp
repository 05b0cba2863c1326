// sourcePosition() and locateJsonPath(): the `line` and `column` an invalid_template
// problem carries (docs/api.md), which the console's studio underlines. A wrong line
// sends the author to the wrong place, so each case names the line a person would count.

#include "server/common/json_source.h"

#include <QJsonDocument>
#include <QTest>

using imprint::common::locateJsonPath;
using imprint::common::sourcePosition;

class TestJsonSource : public QObject
{
    Q_OBJECT

    static const QByteArray &card()
    {
        static const QByteArray text = "{\n"
                                       "  \"width\": 1200,\n"
                                       "  \"variables\": [{\"name\": \"a\"}, {\"name\": \"b\\u00e9\"}],\n"
                                       "  \"root\": {\n"
                                       "    \"type\": \"div\",\n"
                                       "    \"props\": {\n"
                                       "      \"style\": {\"color\": \"é{}[]\\\"\", \"fontSzie\": 40},\n"
                                       "      \"children\": [\"x\", {\"type\": \"span\"}, 3]\n"
                                       "    }\n"
                                       "  }\n"
                                       "}\n";
        return text;
    }

    static QPair<int, int> at(const QString &path)
    {
        const auto offset = locateJsonPath(card(), path);
        if (!offset)
            return {0, 0};
        const auto p = sourcePosition(card(), *offset);
        return {p.line, p.column};
    }

private slots:
    void positionOfOffset()
    {
        const QByteArray text = "ab\nçd\n";
        QCOMPARE(sourcePosition(text, 0).line, 1);
        QCOMPARE(sourcePosition(text, 0).column, 1);
        QCOMPARE(sourcePosition(text, 3).line, 2);
        QCOMPARE(sourcePosition(text, 3).column, 1);
        // ç is two UTF-8 bytes but one character: 'd' is column 2.
        QCOMPARE(sourcePosition(text, 5).column, 2);
        QCOMPARE(sourcePosition(text, 999).line, 3); // clamped to the end
    }

    void syntaxErrorLine()
    {
        const QByteArray text = "{\n  \"width\": 1200,\n  \"height\": 630,\n}\n";
        QJsonParseError error;
        QJsonDocument::fromJson(text, &error);
        QVERIFY(error.error != QJsonParseError::NoError);
        QCOMPARE(sourcePosition(text, error.offset).line, 4); // the '}' after the trailing comma
    }

    void members()
    {
        QCOMPARE(at(QStringLiteral("width")), qMakePair(2, 3));
        QCOMPARE(at(QStringLiteral("root.type")), qMakePair(5, 5));
        // The strings before it hold braces, brackets and an escaped quote.
        QCOMPARE(at(QStringLiteral("root.props.style.fontSzie")), qMakePair(7, 37));
        QCOMPARE(at(QStringLiteral("variables[1].name")), qMakePair(3, 33));
        QCOMPARE(at(QStringLiteral("root.props.children[1].type")), qMakePair(8, 26));
        QCOMPARE(at(QStringLiteral("root.props.children[2]")), qMakePair(8, 43));
        QCOMPARE(at(QString()), qMakePair(1, 1));
    }

    void missing()
    {
        QCOMPARE(at(QStringLiteral("root.nothing")), qMakePair(0, 0));
        QCOMPARE(at(QStringLiteral("variables[5]")), qMakePair(0, 0));
        QCOMPARE(at(QStringLiteral("width.deeper")), qMakePair(0, 0));
        QCOMPARE(at(QStringLiteral("a..b")), qMakePair(0, 0));
        QVERIFY(!locateJsonPath("{\"a\": ", QStringLiteral("a"))); // not JSON: nothing to walk
    }

    void duplicateKeyIsTheLast()
    {
        // QJsonDocument keeps the last of two equal names; that is the one a problem is about.
        const QByteArray text = "{\"a\": 1,\n \"a\": {\"b\": 2}}";
        const auto offset = locateJsonPath(text, QStringLiteral("a.b"));
        QVERIFY(offset);
        QCOMPARE(sourcePosition(text, *offset).line, 2);
    }
};

QTEST_APPLESS_MAIN(TestJsonSource)
#include "tst_json_source.moc"
