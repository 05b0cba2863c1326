#pragma once
// Input helpers for handlers: JSON bodies and query parameters, failing with a 400
// problem that names the field (bad input is always 4xx, never 500).

#include "server/http/message.h"
#include "server/http/problem.h"

#include <QJsonObject>

namespace imprint::http {

/// The body as a JSON object. An empty body gives {} when allowEmpty (e.g. DELETE with
/// no body, GET); otherwise, and for malformed JSON or a non-object, a 400 problem with
/// code "malformed_json" / "invalid_body".
Outcome<QJsonObject> jsonObjectBody(const HttpRequest &request, bool allowEmpty = false);

/// Required non-empty string member `field` of `object`; 400 "missing_field" /
/// "invalid_field" naming it otherwise.
Outcome<QString> requiredString(const QJsonObject &object, const QString &field);

/// Integer query parameter `name`: absent or empty → defaultValue; not an integer or
/// outside min..max → 400 "invalid_parameter" naming it in `field` (never clamped in
/// silence: `perPage=1000` is a mistake the caller should hear about).
Outcome<int> queryInt(const HttpRequest &request, const QString &name, int defaultValue, int min, int max);

} // namespace imprint::http
