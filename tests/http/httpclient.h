#pragma once
// Test helpers: run the `imprint` binary (server or CLI) and speak HTTP/1.1 to it with
// blocking sockets, so every byte on the wire is under the test's control.

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTest>

#include "../support/test_database.h"

struct HttpReply {
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    QByteArray header(const QByteArray &name) const
    {
        for (const auto &h : headers)
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return h.second;
        return {};
    }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QJsonObject data() const { return json().value(QStringLiteral("data")).toObject(); }
};

/// The status and headers of the response head `head` (the bytes before its blank line)
/// into `reply`.
inline void parseHead(const QByteArray &head, HttpReply &reply)
{
    const QList<QByteArray> lines = head.split('\n');
    reply.status = lines.value(0).split(' ').value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            reply.headers.append({lines[i].left(colon).trimmed(), lines[i].mid(colon + 1).trimmed()});
    }
}

/// Reads one response from `socket` (Content-Length framed). status 0 on timeout/EOF.
inline HttpReply readReply(QTcpSocket &socket, int timeoutMs = 10000)
{
    HttpReply reply;
    QByteArray buf;
    QElapsedTimer t;
    t.start();
    int headerEnd = -1;
    qint64 length = -1;
    while (t.elapsed() < timeoutMs) {
        if (socket.bytesAvailable() == 0 && !socket.waitForReadyRead(50)) {
            if (socket.state() != QAbstractSocket::ConnectedState && socket.bytesAvailable() == 0)
                break;
        }
        buf += socket.readAll();
        if (headerEnd < 0 && (headerEnd = buf.indexOf("\r\n\r\n")) >= 0) {
            parseHead(buf.left(headerEnd), reply);
            length = reply.header("Content-Length").toLongLong();
        }
        if (headerEnd >= 0 && buf.size() >= headerEnd + 4 + length) {
            reply.body = buf.mid(headerEnd + 4, length);
            return reply;
        }
    }
    if (headerEnd < 0)
        reply.status = 0;
    return reply;
}

/// One request on a new connection (Connection: close).
inline HttpReply httpRequest(quint16 port, const QByteArray &method, const QByteArray &path,
                             const QByteArray &body = {}, const QList<QPair<QByteArray, QByteArray>> &headers = {})
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    QByteArray req = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    for (const auto &h : headers)
        req += h.first + ": " + h.second + "\r\n";
    if (!body.isEmpty() || method == "POST" || method == "PUT")
        req += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    req += "\r\n" + body;
    socket.write(req);
    socket.waitForBytesWritten(5000);
    return readReply(socket);
}

/// HEAD answers carry Content-Length but no body: read the head and whatever follows
/// until the server closes (the request says Connection: close).
inline HttpReply headRequest(quint16 port, const QByteArray &path)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write("HEAD " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    QByteArray all;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 10000 && socket.state() == QAbstractSocket::ConnectedState) {
        socket.waitForReadyRead(100);
        all += socket.readAll();
    }
    all += socket.readAll();
    HttpReply reply;
    const int end = all.indexOf("\r\n\r\n");
    if (end < 0)
        return reply;
    parseHead(all.left(end), reply);
    reply.body = all.mid(end + 4);
    return reply;
}

/// Environment for the binary: fast Argon2 unless `slowHashes`.
inline QProcessEnvironment imprintEnvironment(bool slowHashes = false)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!slowHashes)
        env.insert(QStringLiteral("IMPRINT_ARGON2_LIMITS"), QStringLiteral("min"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return env;
}

/// `--database URL` for a data directory when the suite runs against PostgreSQL (one
/// database per data directory, tests/support/test_database.h); empty against SQLite.
inline QStringList testDatabaseArgs(const QString &dataDir)
{
    const QString url = testDatabaseUrl(dataDir);
    if (url.isEmpty())
        return {};
    return {QStringLiteral("--database"), url};
}

/// Adds testDatabaseArgs() for the `--data DIR` among `args`, unless they name a database.
inline QStringList withTestDatabase(const QStringList &args)
{
    if (args.contains(QStringLiteral("--database")))
        return args;
    const qsizetype i = args.indexOf(QStringLiteral("--data"));
    return i >= 0 && i + 1 < args.size() ? args + testDatabaseArgs(args.at(i + 1)) : args;
}

/// Runs `imprint <args>` to completion; returns exit code, stdout in *out.
inline int runCli(const QStringList &args, const QByteArray &stdinData = {}, QByteArray *out = nullptr)
{
    QProcess p;
    p.setProcessEnvironment(imprintEnvironment());
    p.start(QStringLiteral(IMPRINT_BINARY), withTestDatabase(args));
    if (!p.waitForStarted(10000))
        return -1;
    p.write(stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(30000))
        return -2;
    if (out)
        *out = p.readAllStandardOutput();
    return p.exitCode();
}

/// Imports `templateJson` into `space` of the data directory `dataDir` and creates a
/// published page of it, through the CLI as an operator would. Returns the page id
/// ("pg_…"), or empty when a step failed.
inline QByteArray publishedPage(const QString &dataDir, const QString &space, const QByteArray &templateJson)
{
    QFile file(dataDir + QStringLiteral("/template-%1.json").arg(qHash(templateJson), 0, 16));
    if (!file.open(QIODevice::WriteOnly) || file.write(templateJson) != templateJson.size())
        return {};
    file.close();
    QByteArray out;
    if (runCli({"template", "import", file.fileName(), "--space", space, "--json", "--data", dataDir}, {}, &out) != 0)
        return {};
    const QString templateId = QJsonDocument::fromJson(out).object().value("id").toString();
    if (runCli({"page", "create", "--space", space, "--template", templateId, "--publish", "--json", "--data", dataDir},
               {}, &out)
        != 0)
        return {};
    return QJsonDocument::fromJson(out).object().value("id").toString().toLatin1();
}

/// `imprint serve` as a child process on an ephemeral port; log = merged stdout/stderr.
class ServerProcess
{
public:
    bool start(const QString &dataDir, const QStringList &extra = {}, bool slowHashes = false)
    {
        // Output goes to a file, not a pipe: a pipe nobody drains would block the server.
        m_logPath = dataDir + QStringLiteral("/server.log");
        // A restart on the same data appends: only this run's lines name its port.
        const qint64 logStart = QFileInfo(m_logPath).size();
        m_process.setProcessEnvironment(imprintEnvironment(slowHashes));
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.setStandardOutputFile(m_logPath, QIODevice::Append);
        m_process.start(
            QStringLiteral(IMPRINT_BINARY),
            QStringList{QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                        QStringLiteral("--data"), dataDir}
                + extra + (extra.contains(QStringLiteral("--database")) ? QStringList() : testDatabaseArgs(dataDir)));
        if (!m_process.waitForStarted(10000))
            return false;
        static const QRegularExpression re(QStringLiteral("listening on http://127\\.0\\.0\\.1:(\\d+)"));
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 20000) {
            QTest::qWait(50);
            const auto m = re.match(QString::fromUtf8(log().mid(logStart)));
            if (m.hasMatch()) {
                m_port = quint16(m.captured(1).toUInt());
                return true;
            }
            if (m_process.state() == QProcess::NotRunning)
                return false;
        }
        return false;
    }
    ~ServerProcess() { stop(); }
    void stop()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(5000))
                m_process.kill();
            m_process.waitForFinished(2000);
        }
    }
    /// Everything the server printed so far.
    QByteArray log() const
    {
        QFile f(m_logPath);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    bool running() const { return m_process.state() == QProcess::Running; }
    /// The server's process id (0 when not running).
    qint64 pid() const { return m_process.processId(); }
    /// Sends SIGTERM and returns at once (stop() waits).
    void signalTerminate() { m_process.terminate(); }
    /// Waits up to `ms` for the server to exit; its exit code, or -1 when it is still
    /// running or did not exit normally.
    int waitForExit(int ms)
    {
        if (m_process.state() != QProcess::NotRunning && !m_process.waitForFinished(ms))
            return -1;
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    }
    quint16 port() const { return m_port; }

private:
    QProcess m_process;
    QString m_logPath;
    quint16 m_port = 0;
};
