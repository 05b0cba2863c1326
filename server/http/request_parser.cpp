#include "server/http/request_parser.h"

#include "server/http/problem.h"

#include <QUrl>

#include <array>
#include <limits>
#include <string_view>

namespace imprint::http {

namespace {

/// Whether the request's `Upgrade` asks only for h2c, which a client offers and falls
/// back from (RFC 9113 §3.1 deprecates it; curl --http2 still sends it on http://).
bool onlyH2c(const HeaderList &headers)
{
    bool any = false;
    for (const auto &[name, value] : headers) {
        if (name.compare("upgrade", Qt::CaseInsensitive) != 0)
            continue;
        for (const QByteArray &token : value.split(',')) {
            if (token.trimmed().compare("h2c", Qt::CaseInsensitive) != 0)
                return false;
            any = true;
        }
    }
    return any;
}

HttpResponse badRequest(const QString &field, const QString &detail)
{
    return fieldProblem(common::ProblemCode::BadRequest, field, detail);
}

/// The bytes QUrl::FullyEncoded writes as they are, "%" aside: printable ASCII but those
/// RFC 3986 leaves out of a URL ('"', '<', '>', '\\', '^', '`', '{', '|', '}'), which QUrl
/// escapes, and "#" (a fragment). A table: it is read for every byte of every target.
constexpr std::array<bool, 256> kKeptBytes = [] {
    std::array<bool, 256> kept{};
    for (int c = '!'; c < 0x7f; ++c)
        kept[c] = std::string_view("\"<>\\^`{|}#").find(char(c)) == std::string_view::npos;
    return kept;
}();

/// Whether QUrl::FullyEncoded writes `text`, a part of a URL, as it is: bytes of
/// kKeptBytes, and escapes that QUrl leaves alone (it writes hex digits in upper case and
/// an escaped unreserved character as that character).
bool keptByQUrl(QByteArrayView text)
{
    const auto hexValue = [](char c) {
        return c >= '0' && c <= '9' ? c - '0' : (c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1);
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (!kKeptBytes[static_cast<unsigned char>(c)])
            return false;
        if (c != '%')
            continue;
        const int high = i + 2 < text.size() ? hexValue(text[i + 1]) : -1;
        const int low = high >= 0 ? hexValue(text[i + 2]) : -1;
        if (low < 0 || isUriUnreserved(char32_t(high * 16 + low)))
            return false;
        i += 2;
    }
    return true;
}

} // namespace

RequestTarget readTarget(const QByteArray &target)
{
    RequestTarget t;
    http_parser_url url;
    http_parser_url_init(&url);
    constexpr uint16_t kPathAndQuery = (1 << UF_PATH) | (1 << UF_QUERY);
    if (http_parser_parse_url(target.constData(), size_t(target.size()), 0, &url) == 0
        && (url.field_set & (1 << UF_PATH)) && (url.field_set & ~kPathAndQuery) == 0 && keptByQUrl(target)) {
        const QByteArrayView path(target.constData() + url.field_data[UF_PATH].off, url.field_data[UF_PATH].len);
        // QUrl reads what follows "//" as an authority, even without a scheme.
        if (path.startsWith('/') && !path.startsWith("//")) {
            t.valid = true;
            t.encodedPath = QString::fromLatin1(path);
            t.path = path.contains('%') ? QString::fromUtf8(QByteArray::fromPercentEncoding(path.toByteArray()))
                                        : t.encodedPath;
            if (url.field_set & (1 << UF_QUERY))
                t.encodedQuery = QString::fromLatin1(target.constData() + url.field_data[UF_QUERY].off,
                                                     url.field_data[UF_QUERY].len);
            return t;
        }
    }
    const QUrl parsed = QUrl::fromEncoded(target);
    t.valid = parsed.isValid();
    t.path = parsed.path(QUrl::FullyDecoded);
    t.encodedPath = parsed.path(QUrl::FullyEncoded);
    if (parsed.hasQuery())
        t.encodedQuery = parsed.query(QUrl::FullyEncoded);
    return t;
}

RequestParser::RequestParser()
{
    http_parser_init(&m_parser, HTTP_REQUEST);
    m_parser.data = this;
}

RequestParser::Step RequestParser::parse(QByteArrayView bytes)
{
    Step step;
    // A length of 0 would tell http-parser the stream ended.
    if (bytes.isEmpty())
        return step;
    // Paused by onMessageComplete() after the previous request.
    if (HTTP_PARSER_ERRNO(&m_parser) == HPE_PAUSED)
        http_parser_pause(&m_parser, 0);
    step.consumed = qsizetype(http_parser_execute(&m_parser, &settings(), bytes.data(), size_t(bytes.size())));
    if (m_complete) {
        step.complete = true;
        return step;
    }
    const auto error = HTTP_PARSER_ERRNO(&m_parser);
    if (error != HPE_OK && error != HPE_PAUSED)
        step.refusal = m_refusal ? *m_refusal : refusalFor(error);
    return step;
}

ParsedRequest RequestParser::take()
{
    ParsedRequest request = std::move(m_request);
    m_request = ParsedRequest();
    m_complete = false;
    m_inMessage = false;
    return request;
}

bool RequestParser::awaitsContinue() const
{
    return m_expectContinue && m_headComplete && !m_bodyStarted && !m_complete;
}

int RequestParser::onMessageBegin(http_parser *parser)
{
    RequestParser &self = of(parser);
    self.m_request = ParsedRequest();
    self.m_inMessage = true;
    self.m_headComplete = false;
    self.m_inValue = false;
    self.m_expectContinue = false;
    self.m_bodyStarted = false;
    return 0;
}

int RequestParser::onUrl(http_parser *parser, const char *at, size_t length)
{
    of(parser).m_request.target.append(at, qsizetype(length));
    return 0;
}

int RequestParser::onHeaderField(http_parser *parser, const char *at, size_t length)
{
    RequestParser &self = of(parser);
    if (self.m_headComplete)
        return 0; // a trailer field: never merged into the head (RFC 9110 §6.5.1)
    HeaderList &headers = self.m_request.headers;
    // A name may come in several pieces (split across reads); a value, even an empty one,
    // always comes between two names.
    if (headers.isEmpty() || self.m_inValue)
        headers.append({QByteArray(at, qsizetype(length)), QByteArray()});
    else
        headers.last().first.append(at, qsizetype(length));
    self.m_inValue = false;
    return 0;
}

int RequestParser::onHeaderValue(http_parser *parser, const char *at, size_t length)
{
    RequestParser &self = of(parser);
    if (self.m_headComplete || self.m_request.headers.isEmpty())
        return 0;
    self.m_request.headers.last().second.append(at, qsizetype(length));
    self.m_inValue = true;
    return 0;
}

int RequestParser::onHeadersComplete(http_parser *parser)
{
    RequestParser &self = of(parser);
    self.m_headComplete = true;
    ParsedRequest &request = self.m_request;
    // A static string: no copy.
    const char *method = http_method_str(http_method(parser->method));
    request.method = QByteArray::fromRawData(method, qstrlen(method));
    for (auto &header : request.headers) {
        // RFC 9110 §5.5: the whitespace around a value is not part of it (http-parser
        // drops the leading part only).
        header.second = header.second.trimmed();
        if (header.first.compare("expect", Qt::CaseInsensitive) == 0
            && header.second.compare("100-continue", Qt::CaseInsensitive) == 0)
            self.m_expectContinue = true;
    }
    // RFC 9110 §10.1.1: no 100 Continue to an HTTP/1.0 client, nor for a request without
    // a body to wait for.
    const bool body = (parser->flags & F_CHUNKED)
                      || (parser->content_length > 0 && parser->content_length != std::numeric_limits<uint64_t>::max());
    self.m_expectContinue = self.m_expectContinue && body && parser->http_major == 1 && parser->http_minor >= 1;
    self.m_refusal = self.refuseHead();
    return self.m_refusal ? -1 : 0;
}

std::optional<HttpResponse> RequestParser::refuseHead() const
{
    if (m_parser.http_major != 1) {
        // http-parser reads a request line without a version as HTTP/0.9.
        if (m_parser.http_major == 0)
            return badRequest(QStringLiteral("version"),
                              QStringLiteral("The request line has no HTTP version (RFC 9112 §3)."));
        return problem(common::ProblemCode::HttpVersionNotSupported,
                       QStringLiteral("HTTP/%1.%2 is not supported: this server speaks HTTP/1.1.")
                           .arg(m_parser.http_major)
                           .arg(m_parser.http_minor));
    }
    if (m_parser.method == HTTP_CONNECT)
        return badRequest(QStringLiteral("method"),
                          QStringLiteral("CONNECT is not supported: this server is not a proxy (RFC 9110 §9.3.6)."));
    if (m_parser.upgrade && !onlyH2c(m_request.headers)) {
        const QByteArray protocols = [this] {
            for (const auto &[name, value] : m_request.headers)
                if (name.compare("upgrade", Qt::CaseInsensitive) == 0)
                    return value;
            return QByteArray();
        }();
        return badRequest(QStringLiteral("Upgrade"),
                          QStringLiteral("Switching to %1 is not supported: this server speaks HTTP/1.1 only "
                                         "(RFC 9110 §7.8).")
                              .arg(QString::fromLatin1(protocols.left(64))));
    }
    return std::nullopt;
}

int RequestParser::onBody(http_parser *parser, const char *at, size_t length)
{
    RequestParser &self = of(parser);
    self.m_bodyStarted = true;
    self.m_request.body.append(at, qsizetype(length));
    return 0;
}

int RequestParser::onMessageComplete(http_parser *parser)
{
    RequestParser &self = of(parser);
    self.m_request.keepAlive = http_should_keep_alive(parser) != 0;
    self.m_complete = true;
    // One request at a time: the caller answers it (and checks the next one's framing)
    // before the parser reads on.
    http_parser_pause(parser, 1);
    return 0;
}

HttpResponse RequestParser::refusalFor(http_errno error)
{
    switch (error) {
    case HPE_HEADER_OVERFLOW:
        return problem(common::ProblemCode::HeadersTooLarge, QStringLiteral("The request headers are too large."));
    case HPE_INVALID_METHOD:
        return badRequest(QStringLiteral("method"),
                          QStringLiteral("The request method is not an HTTP method (RFC 9110 §9; methods are "
                                         "case-sensitive)."));
    case HPE_INVALID_URL:
    case HPE_INVALID_HOST:
    case HPE_INVALID_PORT:
    case HPE_INVALID_PATH:
    case HPE_INVALID_QUERY_STRING:
    case HPE_INVALID_FRAGMENT:
        return badRequest(QStringLiteral("target"),
                          QStringLiteral("The request target is not a valid URI reference (RFC 9112 §3.2)."));
    case HPE_INVALID_VERSION:
    case HPE_INVALID_CONSTANT:
        return badRequest(QStringLiteral("version"),
                          QStringLiteral("The request line does not end in an HTTP version such as HTTP/1.1 "
                                         "(RFC 9112 §3)."));
    case HPE_INVALID_CONTENT_LENGTH:
    case HPE_UNEXPECTED_CONTENT_LENGTH:
        return badRequest(QStringLiteral("Content-Length"),
                          QStringLiteral("The Content-Length header is not a number of bytes."));
    case HPE_INVALID_CHUNK_SIZE:
        return badRequest(QStringLiteral("Transfer-Encoding"),
                          QStringLiteral("A chunk of the body does not start with its size in hexadecimal "
                                         "(RFC 9112 §7.1)."));
    case HPE_INVALID_TRANSFER_ENCODING:
        return badRequest(QStringLiteral("Transfer-Encoding"),
                          QStringLiteral("Transfer-Encoding must be chunked and nothing else (RFC 9112 §6.3)."));
    case HPE_INVALID_HEADER_TOKEN:
    case HPE_LF_EXPECTED:
    case HPE_STRICT:
        return badRequest(QStringLiteral("headers"),
                          QStringLiteral("A line of the request head is malformed (RFC 9112 §2.2, §5)."));
    default:
        return badRequest(QString(), QStringLiteral("The request is not valid HTTP/1.1 (%1).")
                                         .arg(QString::fromLatin1(http_errno_description(error))));
    }
}

const http_parser_settings &RequestParser::settings()
{
    static const http_parser_settings callbacks = [] {
        http_parser_settings s;
        http_parser_settings_init(&s);
        s.on_message_begin = &RequestParser::onMessageBegin;
        s.on_url = &RequestParser::onUrl;
        s.on_header_field = &RequestParser::onHeaderField;
        s.on_header_value = &RequestParser::onHeaderValue;
        s.on_headers_complete = &RequestParser::onHeadersComplete;
        s.on_body = &RequestParser::onBody;
        s.on_message_complete = &RequestParser::onMessageComplete;
        return s;
    }();
    return callbacks;
}

} // namespace imprint::http
