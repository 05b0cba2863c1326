#pragma once
// The HTTP/1.1 request parser of one connection (RFC 9112): Node's http-parser 2.9
// (Debian libhttp-parser, https://github.com/nodejs/http-parser) turns the bytes a client
// sends into requests — method, request-target, header fields, the body with
// Content-Length or chunked framing decoded (RFC 9112 §6, §7.1), and whether the
// connection stays open (§9.3). It reads whatever a socket read returned in one pass; Qt
// HTTP Server 6.4's parser, which it replaced, read a request's head one byte per
// QIODevice::read (docs/performance.md). The framing checks of request_framing.h (sizes,
// smuggling) run on the same bytes before the Listener answers a request it yields.
// Pure: no socket, so the Listener and the HTTP fuzz harness (tests/fuzz/fuzz_http.cpp)
// run the same code.

#include "server/http/message.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <http_parser.h>

#include <optional>

namespace imprint::http {

/// One request as the client sent it, before it is made into an HttpRequest.
struct ParsedRequest {
    QByteArray method; ///< http-parser's name of it: "GET", "POST", "PROPFIND", ...
    QByteArray target; ///< the request-target as sent (origin-form, absolute-form or "*")
    /// Field names as sent, values without the whitespace around them, in arrival order.
    /// Trailer fields of a chunked body are not among them (RFC 9110 §6.5.1).
    HeaderList headers;
    QByteArray body; ///< the content, chunked coding removed
    /// Whether the connection may carry another request after this one's answer
    /// (http_should_keep_alive(): HTTP/1.1 without `Connection: close`, or HTTP/1.0 with
    /// `Connection: keep-alive`; RFC 9112 §9.3).
    bool keepAlive = true;
};

/// A request-target (RFC 9112 §3.2) read as QUrl::fromEncoded() reads it, the parts the
/// server routes and handlers read.
struct RequestTarget {
    bool valid = false; ///< a URI reference QUrl accepts; otherwise the server answers 400
    QString path; ///< percent-decoded (QUrl::FullyDecoded), as sent otherwise
    QString encodedPath; ///< percent-encoded as QUrl::FullyEncoded writes it
    QString encodedQuery; ///< the query without "?", as QUrl::FullyEncoded writes it; empty: none
};

/// `target` split by http-parser's URL parser (http_parser_parse_url()) when it is an
/// origin-form path and query that QUrl would keep byte for byte (printable ASCII it
/// need not escape, "%XX" in upper case for a byte other than an unreserved character);
/// any other target (absolute form, "//", a fragment, non-ASCII, an escape QUrl rewrites)
/// is read by QUrl, so that every target reads exactly as QUrl reads it.
RequestTarget readTarget(const QByteArray &target);

/// Parses the requests of one connection, one at a time. Not copyable or movable (the C
/// parser points back at it); a connection holds it by unique_ptr.
class RequestParser
{
public:
    RequestParser();
    RequestParser(const RequestParser &) = delete;
    RequestParser &operator=(const RequestParser &) = delete;

    /// What parse() did with its bytes.
    struct Step {
        qsizetype consumed = 0; ///< bytes of the input read, up to the end of one request
        bool complete = false; ///< a request ended with the last byte consumed: take() it
        /// The request is malformed or refused (400 naming the part, 431, 505): the
        /// connection answers this and closes; parse() must not be called again.
        std::optional<HttpResponse> refusal;
    };

    /// Reads `bytes`, the next ones of the connection, up to and including the last byte
    /// of the first request that ends among them (then Step::complete; call parse() again
    /// with the rest), or all of them. A request whose version is not HTTP/1.x (505), that
    /// asks to switch to another protocol than h2c (`Upgrade` with `Connection: upgrade`;
    /// RFC 9110 §7.8 lets a server ignore h2c's, which its clients fall back from) or to
    /// tunnel (CONNECT) is refused once its head is read.
    Step parse(QByteArrayView bytes);

    /// The request parse() reported complete; the parser then waits for the next one.
    ParsedRequest take();

    /// Whether bytes of a request that has not ended yet have been read.
    bool inRequest() const { return m_inMessage; }

    /// Whether the request in progress asks for `Expect: 100-continue` (RFC 9110 §10.1.1)
    /// and waits for it: an HTTP/1.1 request whose head is read and whose body has not
    /// begun, nor been answered so. Cleared by continueSent().
    bool awaitsContinue() const;
    /// The interim `100 Continue` was written for the request in progress (or it will not
    /// be: the client sends the body after a while anyway).
    void continueSent() { m_expectContinue = false; }

private:
    /// The callbacks, shared by every parser (http-parser reads them, never writes).
    static const http_parser_settings &settings();
    static int onMessageBegin(http_parser *parser);
    static int onUrl(http_parser *parser, const char *at, size_t length);
    static int onHeaderField(http_parser *parser, const char *at, size_t length);
    static int onHeaderValue(http_parser *parser, const char *at, size_t length);
    static int onHeadersComplete(http_parser *parser);
    static int onBody(http_parser *parser, const char *at, size_t length);
    static int onMessageComplete(http_parser *parser);
    static RequestParser &of(http_parser *parser) { return *static_cast<RequestParser *>(parser->data); }
    /// The refusal of the head just read (version, upgrade, CONNECT), if any.
    std::optional<HttpResponse> refuseHead() const;
    /// The answer to http-parser's error `error`.
    static HttpResponse refusalFor(http_errno error);

    http_parser m_parser{};
    ParsedRequest m_request;
    bool m_inMessage = false;
    bool m_headComplete = false; ///< header callbacks now bring trailer fields (dropped)
    bool m_inValue = false; ///< the last header callback was for a value
    bool m_expectContinue = false;
    bool m_bodyStarted = false;
    bool m_complete = false;
    std::optional<HttpResponse> m_refusal; ///< set by onHeadersComplete()
};

} // namespace imprint::http
