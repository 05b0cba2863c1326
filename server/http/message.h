#pragma once
// Plain request/response values of the HTTP layer. A handler gets an HttpRequest of its
// own (made from what request_parser.h read), so it may keep it, move it to a worker
// thread, and answer later.

#include "server/common/expected.h"

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrlQuery>

#include <algorithm>
#include <optional>

namespace imprint::http {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

/// One request, owned by value.
struct HttpRequest {
    QByteArray method; ///< upper case: "GET", "POST", ...
    QString path; ///< decoded path, no trailing slash (except "/")
    /// The query string, encoded (QUrl::FullyEncoded), "+" already written %20; empty
    /// when none. Its items are decoded when read (query(), queryValue()), not before: a
    /// cached render reads two or three of them. A memo key (RenderParamsMemo).
    QString encodedQuery;
    HeaderList headers; ///< names lower-cased, in arrival order
    QByteArray body;
    QHostAddress remoteAddress;
    QHash<QString, QString> pathParams; ///< `{name}` segments of the matched route

    /// First value of header `name` (case-insensitive); empty when absent. A view: a
    /// literal name costs no allocation.
    QByteArray header(QByteArrayView name) const;
    /// The query's items, decoded from encodedQuery at each call.
    QUrlQuery query() const { return QUrlQuery(encodedQuery); }
    /// Fully decoded value of query item `key` (the first of that name, as
    /// QUrlQuery::queryItemValue()); std::nullopt when absent.
    std::optional<QString> queryValue(const QString &key) const;
    /// Whether the query has an item named `key` (QUrlQuery::hasQueryItem()).
    bool hasQueryItem(const QString &key) const;
    /// The token of `Authorization: Bearer <token>`; empty when absent or another scheme.
    QString bearerToken() const;
    /// Value of cookie `name` from the Cookie header; empty when absent.
    QString cookie(const QString &name) const;
    /// Path parameter `name` of the matched route (empty when absent).
    QString pathParam(const QString &name) const { return pathParams.value(name); }
};

/// Whether `c` is an unreserved character of a URI (RFC 3986 §2.3: ALPHA, DIGIT, "-",
/// ".", "_", "~"), the characters percent-encoding never changes the meaning of.
constexpr bool isUriUnreserved(char32_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
           || c == '_' || c == '~';
}

/// Calls `visit(item)` with each "&"-separated item of the encoded query `query` in
/// order, empty ones included, until it returns false. std::find rather than
/// QStringView::indexOf()/tokenize(): each of those is a call into Qt's generic search,
/// and this runs a few times for every request of a cached render.
template<typename Visit>
void forEachQueryItem(QStringView query, Visit &&visit)
{
    const QChar *from = query.begin();
    for (;;) {
        const QChar *amp = std::find(from, query.end(), QLatin1Char('&'));
        if (!visit(QStringView(from, amp)) || amp == query.end())
            return;
        from = amp + 1;
    }
}

/// The name of a query item ("name=value" or "name") as written, before its "=".
inline QStringView queryItemName(QStringView item)
{
    return QStringView(item.begin(), std::find(item.begin(), item.end(), QLatin1Char('=')));
}

/// Whether `text`, part of an encoded query, holds a "%" escape (std::find, as
/// forEachQueryItem(), for the same reason).
inline bool hasPercentEscape(QStringView text)
{
    return std::find(text.begin(), text.end(), QLatin1Char('%')) != text.end();
}

/// One response. Build with the helpers below; the server adds Content-Length.
struct HttpResponse {
    int status = 200;
    HeaderList headers; ///< includes Content-Type when there is a body
    QByteArray body;

    /// Adds a header (no de-duplication: Set-Cookie may repeat).
    HttpResponse &withHeader(const QByteArray &name, const QByteArray &value);
    /// Value of the first header `name` (case-insensitive), empty when absent.
    QByteArray header(const QByteArray &name) const;

    /// `status` with a compact JSON body, Content-Type application/json.
    static HttpResponse json(int status, const QJsonObject &body);
    /// 200 `{"success": true, "data": data}` — the success envelope of every JSON route.
    static HttpResponse success(const QJsonObject &data, int status = 200);
    /// Raw bytes with a content type.
    static HttpResponse bytes(int status, const QByteArray &contentType, const QByteArray &body);
};

/// RFC 9457 problem details:
/// `{"type","title","status","detail","code","success":false}` with Content-Type
/// application/problem+json. `code` is machine-readable (snake_case), `detail` a sentence
/// for humans that names the offending field for bad input; title is the status phrase.
HttpResponse problem(int status, const QString &code, const QString &detail);

/// Reason phrase of a status code ("Not Found"); "Unknown" for codes without one.
QByteArray reasonPhrase(int status);

/// The head of `response` on the wire (RFC 9112 §4): the status line, its headers and
/// then `extraHeaders`, Content-Length (except for 204), `Connection: close` when
/// `closeAfter`, and the blank line that ends the head.
QByteArray responseHead(const HttpResponse &response, const HeaderList &extraHeaders, bool closeAfter);

/// responseHead() followed by the body unless `headOnly` (a HEAD answer): the whole
/// response in one buffer.
QByteArray serializedResponse(const HttpResponse &response, const HeaderList &extraHeaders = {},
                              bool headOnly = false, bool closeAfter = false);

/// A value or the HttpResponse (usually a problem) to send instead.
template<typename T>
using Outcome = common::Expected<T, HttpResponse>;

} // namespace imprint::http
