#pragma once
// The server's part of answering a parsed request, before its handler runs: the request
// as handlers see it (HttpRequest), the encoded "/" check, CORS preflights, routing with
// 404 / 405 + Allow, and HEAD as GET without the body. Pure (no socket), so HttpServer
// and the HTTP fuzz harness (tests/fuzz/fuzz_http.cpp) run the same code.

#include "server/http/cors.h"
#include "server/http/message.h"
#include "server/http/request_parser.h"
#include "server/http/router.h"

#include <optional>

namespace imprint::http {

/// The request handlers get, from what the parser read (request_parser.h, readTarget()):
/// the path fully decoded without a trailing "/" ("/" when empty), the encoded query with
/// "+" read as a space (form encoding), header names lower-cased in arrival order (in
/// place: a moved-in list is not copied).
HttpRequest toHttpRequest(const QByteArray &method, const RequestTarget &target, HeaderList headers,
                          const QByteArray &body, const QHostAddress &remoteAddress);

/// What to do with one request.
struct Dispatch {
    std::optional<HttpResponse> answer; ///< send this and run no handler (404, 405, preflight)
    const Handler *handler = nullptr; ///< otherwise run this (never null without an answer)
    bool anyThread = false; ///< ... on the I/O thread that parsed the request (Router)
    QByteArray routeMethod; ///< the /metrics label: method ...
    QString routePattern; ///< ... and route pattern; empty: "unmatched"
    bool headOnly = false; ///< a HEAD request: the answer goes without its body
    HeaderList extraHeaders; ///< headers every answer gets (CORS)
};

/// Routes `request` (its method may turn from HEAD into GET, its pathParams are filled).
/// `encodedPath` is the request's path as sent (percent-encoded): a segment with an
/// encoded "/" is a 404, never split into two.
Dispatch dispatch(HttpRequest &request, const QString &encodedPath, const Router &router, const CorsPolicy &cors);

} // namespace imprint::http
