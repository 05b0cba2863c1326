#pragma once
// A record of every answer the server sends, for the response-validation test only
// (tests/openapi, issue 30): when the environment variable IMPRINT_TEST_RESPONSE_LOG names
// a directory, each answer appends one JSON line to PID.jsonl in it; otherwise nothing is
// done.

#include "server/http/message.h"

namespace imprint::http {

/// Appends `{method, route, status, contentType, head, bodySize, json?, magic?}` for one
/// answer to DIR/PID.jsonl, DIR being IMPRINT_TEST_RESPONSE_LOG (read once). `route` is the matched
/// route pattern ("unmatched" for none); `json` is the parsed body when the content type
/// is JSON, `magic` the first 16 body bytes in hex otherwise; `head` is true for HEAD
/// answers (whose body is not sent). Does nothing when the variable is unset. Not for
/// production: it writes synchronously.
void logResponseForTests(const QByteArray &method, const QString &route, bool headOnly, const HttpResponse &response);

} // namespace imprint::http
