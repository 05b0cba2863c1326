#pragma once
// Input helpers for handlers: JSON bodies and query parameters, failing with a 400
// problem that names the field (bad input is always 4xx, never 500).

#include "server/http/message.h"
#include "server/http/problem.h"
#include "server/service/paging.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace imprint::http {

/// The body as a JSON object. An empty body gives {} when allowEmpty (e.g. DELETE with
/// no body, GET); otherwise, and for malformed JSON or a non-object, a 400 problem with
/// code "malformed_json" / "invalid_body".
Outcome<QJsonObject> jsonObjectBody(const HttpRequest &request, bool allowEmpty = false);

/// The body as a JSON object (jsonObjectBody(), not empty) whose members are all in
/// `known`; the 400 of rejectUnknownFields() otherwise, `what` naming the body ("a page").
Outcome<QJsonObject> jsonObjectBody(const HttpRequest &request, const QStringList &known, const QString &what);

/// Required non-empty string member `field` of `object`; 400 "missing_field" /
/// "invalid_field" naming it otherwise.
Outcome<QString> requiredString(const QJsonObject &object, const QString &field);
/// requiredString() of a body as jsonObjectBody() read it: the body's own 400 when it did
/// not read as an object.
Outcome<QString> requiredString(const Outcome<QJsonObject> &body, const QString &field);

/// Integer query parameter `name`: absent → defaultValue; empty, not an integer or
/// outside min..max → 400 "invalid_parameter" naming it in `field` (never clamped in
/// silence: `perPage=1000` is a mistake the caller should hear about).
Outcome<int> queryInt(const HttpRequest &request, const QString &name, int defaultValue, int min, int max);

/// A 400 `unknown_field` problem if `object` has a member that is not in `known`, else
/// nothing. `field` names the first such member (by name: QJsonObject keeps its keys
/// sorted) and the detail
/// suggests the closest known name when one is near (common::closestName()): "'fromat'
/// is not a field of a render request; did you mean 'format'?". `what` ends the first
/// clause ("a render request"). Why: a misspelt optional field would otherwise be
/// ignored and its default used without a word.
std::optional<HttpResponse> rejectUnknownFields(const QJsonObject &object, const QStringList &known,
                                                const QString &what);

/// 200 `{"success": true, "data": {list, count, pagesCount, page, perPage}}`: the answer of
/// the paged key indexes (docs/api.md), each item through `toJson`.
template<typename T, typename ToJson>
HttpResponse pagedList(const service::ListPage<T> &page, ToJson toJson)
{
    QJsonArray list;
    for (const T &item : page.items)
        list.append(toJson(item));
    return HttpResponse::success(QJsonObject{
        {QStringLiteral("list"), list},
        {QStringLiteral("count"), page.count},
        {QStringLiteral("pagesCount"), page.pagesCount},
        {QStringLiteral("page"), page.page},
        {QStringLiteral("perPage"), page.perPage},
    });
}

} // namespace imprint::http
