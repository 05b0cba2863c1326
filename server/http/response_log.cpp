#include "server/http/response_log.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>

namespace imprint::http {

void logResponseForTests(const QByteArray &method, const QString &route, bool headOnly, const HttpResponse &response)
{
    // One file per server process, so concurrent suites never interleave lines.
    static const QString dir = qEnvironmentVariable("IMPRINT_TEST_RESPONSE_LOG");
    if (dir.isEmpty())
        return;
    static const QString path = dir + QStringLiteral("/%1.jsonl").arg(QCoreApplication::applicationPid());
    const QByteArray contentType = response.header("Content-Type");
    QJsonObject record{{QStringLiteral("method"), QString::fromLatin1(method)},
                       {QStringLiteral("route"), route},
                       {QStringLiteral("status"), response.status},
                       {QStringLiteral("contentType"), QString::fromLatin1(contentType)},
                       {QStringLiteral("head"), headOnly},
                       {QStringLiteral("bodySize"), response.body.size()}};
    // "application/json", "application/problem+json": the body the client parses.
    const QByteArray mediaType = contentType.split(';').first().trimmed().toLower();
    if (mediaType == "application/json" || mediaType.endsWith("+json")) {
        const QJsonDocument body = QJsonDocument::fromJson(response.body);
        record.insert(QStringLiteral("json"), body.isObject() ? QJsonValue(body.object()) : QJsonValue(body.array()));
    } else if (!response.body.isEmpty()) {
        record.insert(QStringLiteral("magic"), QString::fromLatin1(response.body.left(16).toHex()));
    }
    static QMutex mutex;
    const QMutexLocker lock(&mutex);
    QDir().mkpath(dir);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Append))
        file.write(QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n');
}

} // namespace imprint::http
