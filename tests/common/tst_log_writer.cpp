// LogWriter (server/common/log_writer.h): Qt's log lines written by a thread of their own.
// Every line arrives whole, in the order each thread logged it, formatted as Qt's default
// handler formats it; many lines share a write; a warning is not held back; the previous
// handler is back afterwards.
#include "server/common/log_writer.h"

#include <QFile>
#include <QLoggingCategory>
#include <QTemporaryFile>
#include <QTest>

#include <thread>
#include <vector>

Q_LOGGING_CATEGORY(lcLogTest, "imprint.test.log", QtInfoMsg)

using imprint::common::LogWriter;

namespace {

QByteArray contentsOf(QTemporaryFile &file)
{
    QFile again(file.fileName());
    return again.open(QIODevice::ReadOnly) ? again.readAll() : QByteArray();
}

} // namespace

class TestLogWriter : public QObject
{
    Q_OBJECT

private slots:
    void linesArriveWholeInOrderAndBatched()
    {
        QTemporaryFile file;
        QVERIFY(file.open());
        constexpr int kThreads = 4, kLines = 500;
        quint64 writes = 0;
        {
            LogWriter writer(file.handle());
            std::vector<std::thread> threads;
            for (int t = 0; t < kThreads; ++t)
                threads.emplace_back([t] {
                    for (int i = 0; i < kLines; ++i)
                        qCInfo(lcLogTest).noquote() << "thread" << t << "line" << i;
                });
            for (std::thread &t : threads)
                t.join();
            writer.flush();
            writes = writer.writes();
        }
        const QList<QByteArray> lines = contentsOf(file).split('\n');
        QCOMPARE(lines.size(), kThreads * kLines + 1); // the last line ends in '\n' too
        QVERIFY(lines.last().isEmpty());
        std::vector<int> next(kThreads, 0);
        for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
            // Qt's default pattern: "category: message".
            const QList<QByteArray> words = lines[i].split(' ');
            QCOMPARE(words.size(), 5);
            QCOMPARE(words[0], QByteArray("imprint.test.log:"));
            const int t = words[2].toInt();
            QVERIFY(t >= 0 && t < kThreads);
            QCOMPARE(words[4].toInt(), next[size_t(t)]++);
        }
        for (int n : next)
            QCOMPARE(n, kLines);
        // 2 000 lines logged as fast as four threads can: far fewer writes than lines.
        QVERIFY2(writes <= quint64(kThreads * kLines / 4), qPrintable(QString::number(writes)));
    }

    void aWarningIsNotHeldBack()
    {
        QTemporaryFile file;
        QVERIFY(file.open());
        LogWriter writer(file.handle());
        qCInfo(lcLogTest) << "before";
        qCWarning(lcLogTest) << "trouble";
        // Written well before the batch window would have ended, without a flush.
        QTRY_VERIFY_WITH_TIMEOUT(contentsOf(file).contains("trouble"), LogWriter::kBatchMs * 10);
        QVERIFY(contentsOf(file).indexOf("before") < contentsOf(file).indexOf("trouble"));
    }

    void thePreviousHandlerIsBackAfterwards()
    {
        QTemporaryFile file;
        QVERIFY(file.open());
        static QByteArray seen;
        const QtMessageHandler mine = qInstallMessageHandler(
            [](QtMsgType, const QMessageLogContext &, const QString &message) { seen += message.toUtf8(); });
        {
            LogWriter writer(file.handle());
            qCInfo(lcLogTest) << "into the writer";
        }
        qCInfo(lcLogTest) << "after";
        qInstallMessageHandler(mine);
        QVERIFY(contentsOf(file).contains("into the writer")); // written by the destructor at the latest
        QVERIFY(!contentsOf(file).contains("after"));
        QVERIFY(seen.contains("after"));
        QVERIFY(!seen.contains("into the writer"));
    }
};

QTEST_GUILESS_MAIN(TestLogWriter)
#include "tst_log_writer.moc"
