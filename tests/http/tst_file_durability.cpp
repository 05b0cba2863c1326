// Stored files are durable before they are visible and before the request that stored
// them is answered (issue 19, "fsync of file and directory on store"; docs/deployment.md,
// "Backups"): observed on the real syscalls of `imprint serve`, which runs here under an
// LD_PRELOAD interposer (syscall_log.cpp) that logs every fsync, fdatasync and rename
// with the paths involved, in the order they completed.
#include "httpclient.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

class TestFileDurability : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcess m_server;
    quint16 m_port = 0;
    QByteArray m_key; // the demo API key
    QByteArray m_page; // the demo page "Launch post"

    QString logPath() const { return m_dir.filePath("syscalls.log"); }
    QStringList logLines() const
    {
        QFile f(logPath());
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts)
                                           : QStringList();
    }
    static int indexOf(const QStringList &lines, const QString &line, int from = 0)
    {
        for (int i = from; i < lines.size(); ++i)
            if (lines[i] == line)
                return i;
        return -1;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString data = QDir(m_dir.path()).canonicalPath() + "/data";
        QVERIFY(QDir().mkpath(data));
        QProcessEnvironment env = imprintEnvironment();
        env.insert("LD_PRELOAD", QStringLiteral(SYSCALL_LOG_LIBRARY));
        env.insert("IMPRINT_SYSCALL_LOG", logPath());
        m_server.setProcessEnvironment(env);
        m_server.setProcessChannelMode(QProcess::MergedChannels);
        m_server.setStandardOutputFile(m_dir.filePath("server.log"));
        // SQLite, so stored files go to DATA/files (with PostgreSQL they are rows).
        m_server.start(QStringLiteral(IMPRINT_BINARY), {"serve", "--demo", "--listen", "127.0.0.1:0", "--data", data});
        QVERIFY(m_server.waitForStarted(10000));
        static const QRegularExpression listening(QStringLiteral("listening on http://127\\.0\\.0\\.1:(\\d+)"));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QFile log(m_dir.filePath("server.log"));
                if (!log.open(QIODevice::ReadOnly))
                    return false;
                // The demo banner follows the "listening" line; its last line ends it.
                const QString text = QString::fromUtf8(log.readAll());
                m_port = quint16(listening.match(text).captured(1).toUInt());
                return (m_port != 0 && text.contains("# revoke a key (the spare"))
                       || m_server.state() == QProcess::NotRunning;
            }(),
            20000);
        QVERIFY(m_port != 0);
        QFile banner(m_dir.filePath("server.log"));
        QVERIFY(banner.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(banner.readAll());
        m_key = QRegularExpression(QStringLiteral("API key:\\s+(imp_\\w+)")).match(text).captured(1).toLatin1();
        m_page = QRegularExpression(QStringLiteral("# Launch post \\((pg_\\w+)\\)")).match(text).captured(1).toLatin1();
        QVERIFY2(!m_key.isEmpty() && !m_page.isEmpty(), qPrintable(text));
        // The interposer is in place: SQLite synced its files while migrating.
        QVERIFY2(!logLines().isEmpty(), "the LD_PRELOAD interposer logged nothing");
    }

    void cleanupTestCase()
    {
        m_server.terminate();
        if (!m_server.waitForFinished(5000))
            m_server.kill();
    }

    /// A page render stored by the server (output=json): its bytes were fsynced under a
    /// temporary name in the same directory, then renamed to the content address, then
    /// the directory was fsynced, and all of it before the answer named the file.
    void storedRenderIsSyncedBeforeItIsVisibleAndAnswered()
    {
        const HttpReply r = httpRequest(m_port, "GET", "/api/v1/render?pageId=" + m_page + "&format=png&output=json",
                                        {}, {{"Authorization", "Bearer " + m_key}});
        QCOMPARE(r.status, 200);
        const QStringList lines = logLines(); // read after the answer arrived
        const QString name = QUrl(r.json().value("file").toObject().value("url").toString()).fileName();
        QVERIFY2(name.endsWith(".png"), r.body.constData());

        // Lines: "fsync RESULT INODE PATH", "rename RESULT INODE OLD NEW" (syscall_log.cpp).
        int rename = -1;
        QString from, to, inode;
        for (int i = 0; i < lines.size(); ++i) {
            const QStringList f = lines[i].split(u' ');
            if (f.size() == 5 && f[0] == "rename" && f[1] == "0" && f[4].endsWith('/' + name)) {
                rename = i;
                inode = f[2];
                from = f[3];
                to = f[4];
            }
        }
        QVERIFY2(rename >= 0, qPrintable("no rename into " + name + " in:\n" + lines.join(u'\n')));
        QVERIFY2(QFileInfo::exists(to), qPrintable(to));
        const QString dir = QFileInfo(to).absolutePath();
        QCOMPARE(QFileInfo(from).absolutePath(), dir); // same directory: rename(2) is atomic
        // The bytes (the same inode, written under a temporary name or none), before the
        // rename made them visible.
        int fileSync = -1;
        for (int i = 0; i < rename; ++i)
            if (lines[i].startsWith("fsync 0 " + inode + ' ') || lines[i].startsWith("fdatasync 0 " + inode + ' '))
                fileSync = i;
        QVERIFY2(fileSync >= 0,
                 qPrintable("no fsync of inode " + inode + " before its rename to " + to + ":\n" + lines.join(u'\n')));
        // The directory entry, after the rename and before the answer.
        int dirSync = -1;
        for (int i = rename + 1; i < lines.size() && dirSync < 0; ++i)
            if (lines[i].startsWith("fsync 0 ") && lines[i].section(u' ', 3) == dir)
                dirSync = i;
        QVERIFY2(dirSync > rename, qPrintable("no fsync of " + dir + " after the rename:\n" + lines.join(u'\n')));
        // The new directory's own entry in its parent (files/ab was created for it).
        const QString parent = QFileInfo(dir).absolutePath();
        bool parentSynced = false;
        for (const QString &line : lines)
            parentSynced = parentSynced || (line.startsWith("fsync 0 ") && line.section(u' ', 3) == parent);
        QVERIFY2(parentSynced,
                 qPrintable("no fsync of " + parent + ", where " + dir + " was created:\n" + lines.join(u'\n')));
    }
};

QTEST_GUILESS_MAIN(TestFileDurability)
#include "tst_file_durability.moc"
