// Every console string in German and French (README "Console", issue 32). The check counts
// the strings in the sources, not the entries in the files: lupdate, run on the sources the
// build translates (CMakeLists.txt, qt_add_translations) into a copy of each committed .ts,
// adds every string nobody extracted yet as "unfinished"; the suite fails naming them. A
// .ts that is not up to date with the sources therefore fails too, even when every entry
// it already holds is translated.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

/// The messages of the .ts at `path` whose translation is missing or unfinished, as
/// "context: source" lines; `total` gets the number of messages.
QStringList untranslated(const QString &path, int *total)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {QStringLiteral("cannot read ") + path};
    QXmlStreamReader xml(&file);
    QStringList missing;
    QString context, source;
    *total = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
            ++*total;
        } else if (xml.name() == QLatin1String("translation")) {
            const bool unfinished = xml.attributes().value(QLatin1String("type")) == QLatin1String("unfinished");
            // Plural forms hold <numerusform> children; readElementText() joins them.
            const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            if (unfinished || text.trimmed().isEmpty())
                missing.append(context + QStringLiteral(": ") + source);
        }
    }
    if (xml.hasError())
        missing.append(path + QStringLiteral(": ") + xml.errorString());
    return missing;
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT

private slots:
    void everySourceStringIsTranslated()
    {
        QFETCH(QString, language);
        const QDir source(QStringLiteral(IMPRINT_SOURCE_DIR));
        const QString committed = source.filePath(QStringLiteral("translations/imprint_%1.ts").arg(language));
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("imprint_%1.ts").arg(language));
        QVERIFY(QFile::copy(committed, copy));
        int committedCount = 0;
        QVERIFY2(untranslated(committed, &committedCount).isEmpty(), "the committed file has unfinished entries");

        QProcess lupdate;
        lupdate.setWorkingDirectory(source.path());
        lupdate.start(QStringLiteral(LUPDATE_BINARY),
                      {QStringLiteral("gui"), QStringLiteral("shared"), QStringLiteral("server/app/console/cli_console.cpp"),
                       QStringLiteral("-I"), QStringLiteral("."), QStringLiteral("-no-obsolete"),
                       QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-ts"), copy});
        QVERIFY(lupdate.waitForFinished(60000));
        QVERIFY2(lupdate.exitCode() == 0, lupdate.readAllStandardError().constData());

        int extracted = 0;
        const QStringList missing = untranslated(copy, &extracted);
        QVERIFY2(extracted > 150, qPrintable(QStringLiteral("only %1 strings found in the sources").arg(extracted)));
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("%1 of %2 strings have no %3 translation "
                                                              "(cmake --build build --target update_translations, "
                                                              "then translate):\n  %4")
                                                   .arg(missing.size())
                                                   .arg(extracted)
                                                   .arg(language, missing.join(QStringLiteral("\n  ")))));
        // Obsolete entries are dropped (-no-obsolete): the file holds what the sources say.
        QCOMPARE(committedCount, extracted);
    }

    void everySourceStringIsTranslated_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("de") << QStringLiteral("de");
        QTest::newRow("fr") << QStringLiteral("fr");
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
