#pragma once
// Typed reads of a render request's fields, which arrive as JSON values (a POST body) or as
// query-string text (a GET): each absent field leaves its output untouched, each bad one
// is a 400 problem naming it (docs/api.md, "Errors"). Used by the render routes and the
// job routes, which parse every item with the render route's parser.

#include "server/http/message.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace imprint::http {

/// 400 invalid_parameter naming `field`, with `detail`.
HttpResponse invalidParam(const QString &field, const QString &detail);

/// Whether `text` is a decimal integer: an optional sign, then ASCII digits only.
bool isIntegerText(QStringView text);

/// Integer field `name` of `o`: absent → `out` untouched; not an integer or below `min` →
/// 400 naming it. Above `max`: with `clampAboveMax` (output sizes, which the plan check
/// answers with 402 however large they are) `max`, else 400 naming the range.
std::optional<HttpResponse> readInt(const QJsonObject &o, const QString &name, int min, int max, int *out,
                                    bool clampAboveMax = false);

/// Boolean field `name` of `o`: true/false, 1/0, or the texts true/1/yes and false/0/no
/// (any case); anything else is 400 naming it.
std::optional<HttpResponse> readBool(const QJsonObject &o, const QString &name, bool *out);

/// Text field `name` of `o`, trimmed; anything but a string is 400 naming it.
std::optional<HttpResponse> readString(const QJsonObject &o, const QString &name, QString *out);

/// Whether field `name` of `o` is given (neither absent nor null).
bool present(const QJsonObject &o, const QString &name);

} // namespace imprint::http
