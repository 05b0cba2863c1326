#include "server/http/message.h"

#include <QJsonDocument>

#include <algorithm>
#include <charconv>

namespace imprint::http {

QByteArray HttpRequest::header(QByteArrayView name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

namespace {

/// What an encoded query says of item `key` without decoding it.
struct ItemLookup {
    bool decided = false; ///< false: only QUrlQuery can tell (a name is percent-encoded)
    bool found = false;
    QStringView value; ///< as written, after "="
    bool hasValue = false; ///< an "=" follows the name
};

/// Looks for the first item named `key` among the items of `query` ("&"-separated, name
/// "=" value). A name without an escape is the name QUrlQuery decodes it to, and a key of
/// unreserved characters only (RFC 3986 §2.3) is the name QUrlQuery compares; a
/// percent-encoded name before the match may decode to `key`: undecided.
ItemLookup lookUpItem(QStringView query, const QString &key)
{
    ItemLookup out;
    if (key.isEmpty() || !std::all_of(key.begin(), key.end(), [](QChar c) { return isUriUnreserved(c.unicode()); }))
        return out;
    out.decided = true;
    forEachQueryItem(query, [&](QStringView item) {
        const QStringView name = queryItemName(item);
        if (hasPercentEscape(name)) {
            out.decided = false;
            return false;
        }
        if (name != key)
            return true;
        out.found = true;
        out.hasValue = name.size() < item.size();
        out.value = out.hasValue ? item.sliced(name.size() + 1) : QStringView();
        return false;
    });
    return out;
}

} // namespace

std::optional<QString> HttpRequest::queryValue(const QString &key) const
{
    // A value with an escape is decoded as QUrlQuery decodes it, by QUrlQuery.
    if (const ItemLookup item = lookUpItem(encodedQuery, key); item.decided && !hasPercentEscape(item.value)) {
        if (!item.found)
            return std::nullopt;
        return item.hasValue ? item.value.toString() : QString();
    }
    const QUrlQuery items = query();
    if (!items.hasQueryItem(key))
        return std::nullopt;
    return items.queryItemValue(key, QUrl::FullyDecoded);
}

bool HttpRequest::hasQueryItem(const QString &key) const
{
    if (const ItemLookup item = lookUpItem(encodedQuery, key); item.decided)
        return item.found;
    return query().hasQueryItem(key);
}

QString HttpRequest::bearerToken() const
{
    const QByteArray auth = header("authorization").trimmed();
    if (auth.size() > 7 && auth.left(7).compare("Bearer ", Qt::CaseInsensitive) == 0)
        return QString::fromLatin1(auth.mid(7).trimmed());
    return {};
}

QString HttpRequest::cookie(const QString &name) const
{
    for (const auto &h : headers) {
        if (h.first != "cookie")
            continue;
        for (const QByteArray &part : h.second.split(';')) {
            const int eq = part.indexOf('=');
            if (eq > 0 && QString::fromLatin1(part.left(eq).trimmed()) == name)
                return QString::fromLatin1(part.mid(eq + 1).trimmed());
        }
    }
    return {};
}

HttpResponse &HttpResponse::withHeader(const QByteArray &name, const QByteArray &value)
{
    headers.append({name, value});
    return *this;
}

QByteArray HttpResponse::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

HttpResponse HttpResponse::json(int status, const QJsonObject &body)
{
    return bytes(status, "application/json", QJsonDocument(body).toJson(QJsonDocument::Compact));
}

HttpResponse HttpResponse::success(const QJsonObject &data, int status)
{
    return json(status, QJsonObject{{QStringLiteral("success"), true}, {QStringLiteral("data"), data}});
}

HttpResponse HttpResponse::bytes(int status, const QByteArray &contentType, const QByteArray &body)
{
    HttpResponse r;
    r.status = status;
    r.body = body;
    r.headers.append({"Content-Type", contentType});
    return r;
}

namespace {

/// reasonPhrase() as a view of a string literal: the answer's head needs no copy of it.
QByteArrayView phraseOf(int status)
{
    // RFC 9110 §15: the phrases of the status codes it defines (and 429, RFC 6585 §4).
    switch (status) {
    case 100: return "Continue";
    case 101: return "Switching Protocols";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 203: return "Non-Authoritative Information";
    case 204: return "No Content";
    case 205: return "Reset Content";
    case 206: return "Partial Content";
    case 300: return "Multiple Choices";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 303: return "See Other";
    case 304: return "Not Modified";
    case 307: return "Temporary Redirect";
    case 308: return "Permanent Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 407: return "Proxy Authentication Required";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 411: return "Length Required";
    case 412: return "Precondition Failed";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 415: return "Unsupported Media Type";
    case 416: return "Range Not Satisfiable";
    case 417: return "Expectation Failed";
    case 421: return "Misdirected Request";
    case 422: return "Unprocessable Content";
    case 426: return "Upgrade Required";
    case 428: return "Precondition Required";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
    }
}

} // namespace

QByteArray reasonPhrase(int status)
{
    return phraseOf(status).toByteArray();
}

QByteArray responseHead(const HttpResponse &r, const HeaderList &extraHeaders, bool closeAfter)
{
    // Written on every answer: the numbers through std::to_chars, the literals as views.
    char statusDigits[16];
    const QByteArrayView status(statusDigits, std::to_chars(statusDigits, statusDigits + 16, r.status).ptr - statusDigits);
    const QByteArrayView reason = phraseOf(r.status);
    char lengthDigits[24];
    const QByteArrayView length(lengthDigits,
                                std::to_chars(lengthDigits, lengthDigits + 24, r.body.size()).ptr - lengthDigits);
    qsizetype size = 9 + status.size() + 1 + reason.size() + 2 + 16 + length.size() + 2 + 19 + 2;
    for (const HeaderList *list : {&r.headers, &extraHeaders})
        for (const auto &h : *list)
            size += h.first.size() + 2 + h.second.size() + 2;
    QByteArray out;
    out.reserve(size);
    out.append(QByteArrayView("HTTP/1.1 ")).append(status).append(' ').append(reason).append(QByteArrayView("\r\n"));
    for (const HeaderList *list : {&r.headers, &extraHeaders})
        for (const auto &h : *list)
            out.append(h.first).append(QByteArrayView(": ")).append(h.second).append(QByteArrayView("\r\n"));
    // RFC 9110 §8.6: a 204 carries no Content-Length (the CORS preflight's answer); for
    // HEAD it is the length the GET would have sent (§9.3.2).
    if (r.status != 204)
        out.append(QByteArrayView("Content-Length: ")).append(length).append(QByteArrayView("\r\n"));
    if (closeAfter)
        out.append(QByteArrayView("Connection: close\r\n"));
    out.append(QByteArrayView("\r\n"));
    return out;
}

QByteArray serializedResponse(const HttpResponse &r, const HeaderList &extraHeaders, bool headOnly, bool closeAfter)
{
    QByteArray out = responseHead(r, extraHeaders, closeAfter);
    if (!headOnly)
        out.append(r.body);
    return out;
}

HttpResponse problem(int status, const QString &code, const QString &detail)
{
    const QJsonObject body{
        // A URN, not a URL: it identifies the problem type without promising a page.
        {QStringLiteral("type"), QStringLiteral("urn:imprint:problem:") + code},
        {QStringLiteral("title"), QString::fromLatin1(reasonPhrase(status))},
        {QStringLiteral("status"), status},
        {QStringLiteral("detail"), detail},
        {QStringLiteral("code"), code},
        {QStringLiteral("success"), false},
    };
    return HttpResponse::bytes(status, "application/problem+json", QJsonDocument(body).toJson(QJsonDocument::Compact));
}

} // namespace imprint::http
