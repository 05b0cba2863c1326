#include "server/http/request_framing.h"

#include "server/http/problem.h"

#include <algorithm>

namespace imprint::http {

qint64 bodyLimitForRequestLine(QByteArrayView line, qint64 other, qint64 upload)
{
    line = line.trimmed();
    const qsizetype methodEnd = line.indexOf(' ');
    if (methodEnd < 0 || line.first(methodEnd) != "POST")
        return other;
    QByteArrayView target = line.sliced(methodEnd + 1);
    if (const qsizetype end = target.indexOf(' '); end >= 0)
        target.truncate(end);
    if (const qsizetype query = target.indexOf('?'); query >= 0)
        target.truncate(query);
    return target == "/api/v1/fonts" || target == "/api/v1/assets" ? upload : other;
}

QByteArray rawResponse(const HttpResponse &r)
{
    return serializedResponse(r, {}, false, true);
}

RequestFraming::RequestFraming(qint64 maxHeaderBytes, qint64 maxBodyBytes, qint64 maxUploadBytes)
    : m_maxHeaderBytes(maxHeaderBytes)
    , m_maxBodyBytes(maxBodyBytes)
    , m_maxUploadBytes(maxUploadBytes)
{ }

qint64 RequestFraming::headRoom() const
{
    // The skipped whitespace counts: the limit is on the bytes since the request began,
    // however they are cut into reads.
    return m_headerBytes < 0 ? std::max<qint64>(0, m_maxHeaderBytes + 4 - m_skipped - m_head.size()) : 0;
}

namespace {

/// RFC 9110 §5.6.2: the characters of a token (a field name).
bool isTchar(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
           || QByteArrayView("!#$%&'*+-.^_`|~").contains(ch);
}

/// What Qt 6.4's parser skipped before a request line (left over from the previous
/// request; RFC 9112 §2.2 lets a server ignore empty lines there).
bool skippedBeforeRequestLine(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v';
}

HttpResponse badFraming(const QString &field, const QString &detail)
{
    return fieldProblem(400, QStringLiteral("bad_request"), field, detail);
}

} // namespace

std::optional<HttpResponse> RequestFraming::feed(qint64 available, QByteArrayView start)
{
    if (available <= 0)
        return std::nullopt;
    m_requestBytes += available;
    if (m_headerBytes < 0) {
        const qint64 room = headRoom();
        const QByteArrayView fresh = start.first(std::min({qint64(start.size()), available, room}));
        // Byte by byte, so that the verdict is the same however the bytes are cut into
        // reads: the first rule a byte breaks is the one answered. The bytes kept are
        // appended to m_head once per read (one allocation, not one per byte); `tail` holds
        // the head's last four bytes, so the end of the block is seen without a search.
        qsizetype headSize = m_head.size();
        quint32 tail = 0;
        for (qsizetype i = std::max<qsizetype>(0, headSize - 4); i < headSize; ++i)
            tail = (tail << 8) | quint8(m_head.at(i));
        qsizetype keptFrom = -1; // the first byte of `fresh` kept in the head
        qsizetype next = 0;
        bool ended = false;
        const auto keep = [&] {
            if (keptFrom >= 0)
                m_head.append(fresh.sliced(keptFrom, next - keptFrom));
        };
        for (; next < fresh.size() && !ended; ++next) {
            const char ch = fresh[next];
            // A run of bytes that are neither CR nor LF, after a byte that is not CR, breaks
            // no rule until it meets the size limit: taken in one step (the verdict is the
            // byte loop's; only the run's bytes in the limit are taken, the rest go byte
            // by byte below).
            if (headSize > 0 && ch != '\r' && ch != '\n' && char(tail & 0xff) != '\r') {
                const qsizetype limit = std::min<qsizetype>(fresh.size(), next + (m_maxHeaderBytes - m_skipped - headSize));
                qsizetype end = next;
                while (end < limit && fresh[end] != '\r' && fresh[end] != '\n')
                    ++end;
                if (end > next) {
                    if (keptFrom < 0)
                        keptFrom = next;
                    for (qsizetype i = std::max(next, end - 4); i < end; ++i)
                        tail = (tail << 8) | quint8(fresh[i]);
                    headSize += end - next;
                    next = end - 1;
                    continue;
                }
            }
            if (headSize == 0 && skippedBeforeRequestLine(ch)) {
                // Skipped as the parser skips empty lines: were they kept, a leading "\r\n\r\n"
                // would end an empty header block here and the real one would go unchecked.
                ++m_skipped;
            } else {
                const char previous = headSize == 0 ? '\0' : char(tail & 0xff);
                if (keptFrom < 0)
                    keptFrom = next;
                tail = (tail << 8) | quint8(ch);
                ++headSize;
                // RFC 9112 §2.2: every line ends in CRLF. A lenient parser also ends lines
                // (and the header block) at a bare LF, where the checks below would not see them
                // end: a "\n\n" header block would reach the router unchecked. A bare CR
                // is refused too (§2.2 allows that), since Qt 6.4's parser kept it inside a value.
                if ((ch == '\n' && previous != '\r') || (previous == '\r' && ch != '\n')) {
                    ++next;
                    keep();
                    return badFraming(QStringLiteral("headers"),
                                      QStringLiteral("A line of the request head does not end in CRLF "
                                                     "(RFC 9112 §2.2)."));
                }
                if (headSize >= 4 && tail == 0x0d0a0d0a) {
                    ended = true;
                    continue;
                }
            }
            if (m_skipped + headSize > m_maxHeaderBytes) {
                ++next;
                keep();
                return problem(431, QStringLiteral("headers_too_large"),
                               QStringLiteral("The request headers exceed %1 bytes.").arg(m_maxHeaderBytes));
            }
        }
        keep();
        if (!ended)
            return std::nullopt;
        m_headerBytes = m_skipped + m_head.size();
        std::optional<HttpResponse> refusal = checkHeaderBlock(QByteArrayView(m_head).chopped(4));
        m_head.truncate(0); // kept allocated for the connection's next request (and in reset())
        if (refusal)
            return refusal;
    }
    // Also catches chunked bodies and lying Content-Length values.
    if (m_headerBytes >= 0 && m_requestBytes - m_headerBytes > m_bodyLimit)
        return problem(413, QStringLiteral("body_too_large"),
                       QStringLiteral("The request body exceeds the limit of %1 bytes.").arg(m_bodyLimit));
    return std::nullopt;
}

std::optional<HttpResponse> RequestFraming::checkHeaderBlock(QByteArrayView block)
{
    // Views into the block, no copies: this runs once for every request.
    const qsizetype firstEnd = block.indexOf('\n');
    const QByteArrayView requestLine = (firstEnd < 0 ? block : block.first(firstEnd)).trimmed();
    const bool http10 = requestLine.endsWith(" HTTP/1.0");
    m_bodyLimit = bodyLimitForRequestLine(requestLine, m_maxBodyBytes, m_maxUploadBytes);
    std::optional<qint64> contentLength;
    QList<QByteArrayView> codings; ///< Transfer-Encoding's codings, over every such field, in order
    bool sawTransferEncoding = false;
    QByteArrayView previousName = "headers";
    const auto fieldName = [](QByteArrayView name) { return QString::fromLatin1(name); };
    for (qsizetype start = firstEnd < 0 ? block.size() : firstEnd + 1; start < block.size();) {
        qsizetype end = block.indexOf('\n', start);
        if (end < 0)
            end = block.size();
        QByteArrayView line = block.sliced(start, end - start);
        start = end + 1;
        if (line.endsWith('\r'))
            line.chop(1); // feed() made sure every LF follows a CR
        // RFC 9112 §5.2: a server must refuse obs-fold or unfold it; Qt 6.4 unfolds into
        // the previous field's value, which a proxy may not have done.
        if (line.startsWith(' ') || line.startsWith('\t'))
            return badFraming(fieldName(previousName),
                              QStringLiteral("The header field %1 is folded over several lines (RFC 9112 §5.2).")
                                  .arg(fieldName(previousName)));
        const qsizetype colon = line.indexOf(':');
        const QByteArrayView name = colon < 0 ? line : line.first(colon);
        // RFC 9112 §5.1: whitespace between a field name and its colon must be a 400:
        // Qt trims it and reads "Content-Length : 5" as Content-Length, a proxy may not.
        if (colon <= 0 || !std::all_of(name.begin(), name.end(), isTchar)) {
            const QByteArrayView shown = name.trimmed();
            const QString field = QString::fromLatin1(shown.first(std::min<qsizetype>(64, shown.size())));
            return badFraming(field.isEmpty() ? QStringLiteral("headers") : field,
                              QStringLiteral("A header line has no field name followed directly by a colon "
                                             "(RFC 9112 §5.1)."));
        }
        previousName = name;
        const QByteArrayView value = line.sliced(colon + 1).trimmed();
        // RFC 9110 §5.5: a field value with NUL must be refused (or the NUL replaced); the
        // other controls but HTAB are not field content either, and a log, a terminal or a
        // proxy may act on them.
        if (std::any_of(value.begin(), value.end(), [](char ch) {
                const auto c = static_cast<unsigned char>(ch);
                return (c < 0x20 && c != '\t') || c == 0x7f;
            }))
            return badFraming(fieldName(previousName), QStringLiteral("The header field %1 holds a control character "
                                                                      "(RFC 9110 §5.5).")
                                                           .arg(fieldName(previousName)));
        if (name.compare("transfer-encoding", Qt::CaseInsensitive) == 0) {
            sawTransferEncoding = true;
            for (qsizetype from = 0; from <= value.size();) {
                qsizetype comma = value.indexOf(',', from);
                if (comma < 0)
                    comma = value.size();
                codings.append(value.sliced(from, comma - from).trimmed());
                from = comma + 1;
            }
            continue;
        }
        if (name.compare("content-length", Qt::CaseInsensitive) != 0)
            continue;
        // RFC 9110 §8.6: Content-Length is 1*DIGIT. Qt 6.4 reads "-5" as 0 and would
        // then parse the body as the next request.
        bool ok = !value.isEmpty()
                  && std::all_of(value.begin(), value.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        const qint64 length = ok ? value.toLongLong(&ok) : -1;
        if (!ok)
            return badFraming(QStringLiteral("Content-Length"),
                              QStringLiteral("The Content-Length header is not a number of bytes."));
        // RFC 9112 §6.3 (5): differing lengths are a framing error. Qt reads the first,
        // a proxy in front may have read the last, and the rest of the body would be
        // a request of its own. Equal repeats are harmless (RFC 9110 §8.6).
        if (contentLength && *contentLength != length)
            return badFraming(QStringLiteral("Content-Length"),
                              QStringLiteral("The request has several Content-Length headers with different values "
                                             "(RFC 9112 §6.3)."));
        contentLength = length;
    }
    if (sawTransferEncoding) {
        // RFC 9112 §6.3 (3): both headers may be a smuggling attempt (Qt lets chunked
        // win, a proxy may have used the length); the server may refuse, and does.
        if (contentLength)
            return badFraming(QStringLiteral("Transfer-Encoding"),
                              QStringLiteral("The request has both Transfer-Encoding and Content-Length "
                                             "(RFC 9112 §6.3)."));
        // RFC 9112 §6.1: HTTP/1.0 has no Transfer-Encoding; its framing is faulty.
        if (http10)
            return badFraming(QStringLiteral("Transfer-Encoding"),
                              QStringLiteral("An HTTP/1.0 request cannot have Transfer-Encoding (RFC 9112 §6.1)."));
        // RFC 9112 §6.3 (4), §7: chunked once, and last. Qt looks only for "chunked"
        // anywhere in the value, so anything else would be framed differently here. A
        // coding before it (gzip, chunked) Qt would not decode: §6.1 suggests 501 for
        // that, but the API answers no 5xx for what the client sent, so it is this 400 too.
        if (codings.size() != 1 || codings.first().compare("chunked", Qt::CaseInsensitive) != 0)
            return badFraming(QStringLiteral("Transfer-Encoding"),
                              QStringLiteral("Transfer-Encoding must be chunked and nothing else (RFC 9112 §6.3)."));
    }
    if (contentLength && *contentLength > m_bodyLimit)
        return problem(413, QStringLiteral("body_too_large"),
                       QStringLiteral("The request body is %1 bytes; the limit is %2 bytes.")
                           .arg(*contentLength)
                           .arg(m_bodyLimit));
    return std::nullopt;
}

void RequestFraming::reset()
{
    m_requestBytes = 0;
    m_headerBytes = -1;
    m_bodyLimit = 0;
    m_head.truncate(0);
    m_skipped = 0;
}

} // namespace imprint::http
