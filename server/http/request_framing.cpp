#include "server/http/request_framing.h"

#include "server/http/problem.h"

#include <algorithm>

namespace imprint::http {

qint64 bodyLimitForRequestLine(const QByteArray &line, qint64 other, qint64 upload)
{
    const QList<QByteArray> parts = line.trimmed().split(' ');
    if (parts.size() < 2 || parts.at(0) != "POST")
        return other;
    const QByteArray &target = parts.at(1);
    const qsizetype query = target.indexOf('?');
    const QByteArray path = query < 0 ? target : target.left(query);
    return path == "/api/v1/fonts" || path == "/api/v1/assets" ? upload : other;
}

QByteArray rawResponse(const HttpResponse &r)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(r.status) + ' ' + reasonPhrase(r.status) + "\r\n";
    for (const auto &h : r.headers)
        out += h.first + ": " + h.second + "\r\n";
    out += "Content-Length: " + QByteArray::number(r.body.size()) + "\r\nConnection: close\r\n\r\n";
    out += r.body;
    return out;
}

RequestFraming::RequestFraming(qint64 maxHeaderBytes, qint64 maxBodyBytes, qint64 maxUploadBytes)
    : m_maxHeaderBytes(maxHeaderBytes)
    , m_maxBodyBytes(maxBodyBytes)
    , m_maxUploadBytes(maxUploadBytes)
{ }

qint64 RequestFraming::headRoom() const
{
    return m_headerBytes < 0 ? std::max<qint64>(0, m_maxHeaderBytes + 4 - m_head.size()) : 0;
}

std::optional<HttpResponse> RequestFraming::feed(qint64 available, QByteArrayView start)
{
    if (available <= 0)
        return std::nullopt;
    m_requestBytes += available;
    if (m_headerBytes < 0) {
        const qint64 room = headRoom();
        if (room > 0)
            m_head += start.first(std::min({qint64(start.size()), available, room}));
        const qsizetype end = m_head.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_head.size() > m_maxHeaderBytes)
                return problem(431, QStringLiteral("headers_too_large"),
                               QStringLiteral("The request headers exceed %1 bytes.").arg(m_maxHeaderBytes));
            return std::nullopt;
        }
        m_headerBytes = end + 4;
        const QList<QByteArray> lines = m_head.left(end).split('\n');
        m_head = QByteArray();
        // RFC 9112 §9.3: an HTTP/1.0 connection closes after one response unless the
        // client asked for keep-alive.
        m_closeAfterRequest = !lines.isEmpty() && lines.first().trimmed().endsWith(" HTTP/1.0");
        m_bodyLimit = lines.isEmpty() ? m_maxBodyBytes
                                      : bodyLimitForRequestLine(lines.first(), m_maxBodyBytes, m_maxUploadBytes);
        for (const QByteArray &line : lines) {
            const QByteArray lower = line.toLower();
            if (m_closeAfterRequest && lower.startsWith("connection:") && lower.contains("keep-alive"))
                m_closeAfterRequest = false;
            if (!lower.startsWith("content-length:"))
                continue;
            // RFC 9110 §8.6: Content-Length is 1*DIGIT. Qt 6.4 reads "-5" as 0 and would
            // then parse the body as the next request.
            const QByteArray value = line.mid(15).trimmed();
            bool ok = !value.isEmpty()
                      && std::all_of(value.begin(), value.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
            const qint64 length = ok ? value.toLongLong(&ok) : -1;
            if (!ok)
                return fieldProblem(400, QStringLiteral("bad_request"), QStringLiteral("Content-Length"),
                                    QStringLiteral("The Content-Length header is not a number of bytes."));
            if (length > m_bodyLimit)
                return problem(413, QStringLiteral("body_too_large"),
                               QStringLiteral("The request body is %1 bytes; the limit is %2 bytes.")
                                   .arg(length)
                                   .arg(m_bodyLimit));
        }
    }
    // Also catches chunked bodies and lying Content-Length values.
    if (m_headerBytes >= 0 && m_requestBytes - m_headerBytes > m_bodyLimit)
        return problem(413, QStringLiteral("body_too_large"),
                       QStringLiteral("The request body exceeds the limit of %1 bytes.").arg(m_bodyLimit));
    return std::nullopt;
}

void RequestFraming::reset()
{
    m_requestBytes = 0;
    m_headerBytes = -1;
    m_bodyLimit = 0;
    m_head = QByteArray();
    m_closeAfterRequest = false;
}

} // namespace imprint::http
