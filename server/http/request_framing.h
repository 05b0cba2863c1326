#pragma once
// The limits the server enforces on a request's bytes as they arrive, before any request
// among them is answered (server.h): the header block's size (431), a Content-Length that
// is not 1*DIGIT (400) or over the route's body limit (413), and a body that outgrows the
// limit whatever it announced (chunked, or a lying Content-Length: 413). And the framing a
// lenient parser would read differently from a proxy in front of it (request smuggling;
// written for Qt 6.4's, kept in front of http-parser, which refuses some of it only),
// each a 400 after which the connection closes: lines not ended by CRLF (RFC 9112 §2.2),
// whitespace before a field's colon (§5.1), obs-fold (§5.2), differing Content-Length
// values or Content-Length with Transfer-Encoding (§6.3), a Transfer-Encoding other than
// chunked alone (§6.3, §6.1). Pure: no socket, so the Listener and the HTTP fuzz harness
// (tests/fuzz/fuzz_http.cpp) run the same code.

#include "server/http/message.h"

#include <QByteArray>
#include <QByteArrayView>

#include <optional>

namespace imprint::http {

/// The body limit of a request line ("POST /api/v1/fonts?family=X HTTP/1.1"): `upload`
/// for a file upload (POST /api/v1/fonts and /api/v1/assets), `other` for the rest.
qint64 bodyLimitForRequestLine(QByteArrayView line, qint64 other, qint64 upload);

/// Serialises a response by hand for the paths where Qt's responder cannot be used (the
/// request never reached the router: 400, 413, 431, 408), with `Connection: close`.
QByteArray rawResponse(const HttpResponse &response);

/// The framing checks of one request at a time on one connection.
class RequestFraming
{
public:
    /// `maxHeaderBytes`: the header block's limit; `maxBodyBytes` / `maxUploadBytes`: the
    /// body limits of ordinary requests and of uploads (ServerLimits).
    RequestFraming(qint64 maxHeaderBytes, qint64 maxBodyBytes, qint64 maxUploadBytes);
    RequestFraming() = default; ///< all limits 0: refuses any header block

    /// How many of the next bytes feed() wants to see: while the header block is
    /// incomplete, up to its limit; 0 once it is complete (only the count matters then).
    qint64 headRoom() const;

    /// `available` more bytes of the request arrived; `start` is their first
    /// min(available, headRoom()) bytes. Returns the error response when the request
    /// breaks a limit (the connection then answers it and closes), else nothing.
    std::optional<HttpResponse> feed(qint64 available, QByteArrayView start);

    /// The request ended (it reached the router): start over for the next one.
    void reset();

    /// Whether any byte of the request in progress has arrived.
    bool started() const { return m_requestBytes > 0; }
    /// The body limit of the request in progress (known once its header block is).
    qint64 bodyLimit() const { return m_bodyLimit; }
    /// The size of its header block, -1 until complete.
    qint64 headerBytes() const { return m_headerBytes; }

private:
    /// The checks of a complete header block (without its final CRLFCRLF; lines end in
    /// CRLF): RFC 9112 §5.1, §5.2, §6.1, §6.3 and the body limit. Sets the request's body
    /// limit; returns the refusal, if any.
    std::optional<HttpResponse> checkHeaderBlock(QByteArrayView block);

    qint64 m_maxHeaderBytes = 0;
    qint64 m_maxBodyBytes = 0;
    qint64 m_maxUploadBytes = 0;
    qint64 m_requestBytes = 0; ///< bytes received for the request in progress
    qint64 m_headerBytes = -1; ///< size of its header block once complete
    qint64 m_bodyLimit = 0;
    QByteArray m_head; ///< the header block, as far as it has arrived
    qint64 m_skipped = 0; ///< whitespace before the request line (empty lines: RFC 9112 §2.2)
};

} // namespace imprint::http
