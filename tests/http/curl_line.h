#pragma once
// Reading the curl lines that `imprint serve --demo` prints, so tst_render_api_server can replay
// them against the server and prove every line of the banner works.

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

/// One curl command line of the demo banner, as far as the banner uses curl: -s, -o FILE,
/// -H 'H: v', -d 'BODY', -X METHOD, -c/-b FILE (a cookie jar), the URL.
struct CurlLine {
    QByteArray method = "GET";
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    QString output;
    bool saveCookie = false;
    bool sendCookie = false;
};

/// Splits a shell line on spaces outside single quotes (the banner quotes nothing else).
inline QStringList shellWords(const QString &line)
{
    QStringList words;
    QString cur;
    bool quoted = false, any = false;
    for (const QChar c : line) {
        if (c == u'\'') {
            quoted = !quoted;
            any = true;
        } else if (c == u' ' && !quoted) {
            if (any)
                words << cur;
            cur.clear();
            any = false;
        } else {
            cur += c;
            any = true;
        }
    }
    if (any)
        words << cur;
    return words;
}

/// The curl command of `line`, std::nullopt when it is none or uses an option the replay
/// does not know.
inline std::optional<CurlLine> parseCurl(const QString &line)
{
    const QStringList w = shellWords(line);
    if (w.value(0) != "curl")
        return std::nullopt;
    CurlLine c;
    bool explicitMethod = false;
    for (int i = 1; i < w.size(); ++i) {
        const QString &a = w[i];
        if (a == "-s")
            continue;
        if (a == "-o")
            c.output = w.value(++i);
        else if (a == "-H") {
            const QString h = w.value(++i);
            c.headers.append({h.section(':', 0, 0).trimmed().toLatin1(), h.section(':', 1).trimmed().toUtf8()});
        } else if (a == "-d") {
            c.body = w.value(++i).toUtf8();
            if (!explicitMethod)
                c.method = "POST";
        } else if (a == "-X") {
            c.method = w.value(++i).toLatin1();
            explicitMethod = true;
        } else if (a == "-c") {
            c.saveCookie = true;
            ++i;
        } else if (a == "-b") {
            c.sendCookie = true;
            ++i;
        } else if (a.startsWith("http"))
            c.url = QUrl(a);
        else
            return std::nullopt; // an option this replay does not know: fail loudly
    }
    return c;
}
