#pragma once
// One page of a space's records, as the key index routes answer it (docs/api.md: `{list,
// count, pagesCount, page, perPage}`), and the paging arithmetic every such list shares.

#include "server/store/errors.h"

#include <QList>
#include <QString>

namespace imprint::service {

/// The problem codes every use case answers with (server/common/problem_code.h).
using store::ProblemCode;

/// The paging bounds every paged list of a space's records shares (docs/api.md): 20
/// records a page unless asked, at most 100, pages 1 to 1 000 000. A use case with such a
/// list derives from it; the routes read the bounds through its type (http::pagedIndex()).
struct StandardPaging {
    static constexpr int kDefaultPerPage = 20;
    static constexpr int kMaxPerPage = 100;
    static constexpr int kMaxPage = 1000000;
};

/// Page `page` of `perPage` records out of `count`.
template<typename T>
struct ListPage {
    QList<T> items;
    int count = 0; ///< all records of the list (e.g. the space's active keys)
    int pagesCount = 0; ///< ceil(count / perPage), 0 when count is 0
    int page = 1;
    int perPage = 20;
};

/// Page `page` (1..maxPage) of `perPage` (1..maxPerPage) records: `countAll()` returns
/// Result<int>, `listRange(offset, limit)` Result<QList<T>>. Outside the ranges: Invalid
/// "invalid_parameter" naming `page` or `perPage` (never clamped in silence). A page past
/// the end is an empty list, not an error, and costs no list query.
template<typename T, typename CountAll, typename ListRange>
store::Result<ListPage<T>> pageOf(int page, int perPage, int maxPage, int maxPerPage, CountAll countAll,
                                  ListRange listRange)
{
    if (page < 1 || page > maxPage || perPage < 1 || perPage > maxPerPage) {
        const bool pageBad = page < 1 || page > maxPage;
        const QString field = pageBad ? QStringLiteral("page") : QStringLiteral("perPage");
        return store::ServiceError::invalid(
            ProblemCode::InvalidParameter, field,
            QStringLiteral("'%1' must be an integer from 1 to %2.").arg(field).arg(pageBad ? maxPage : maxPerPage));
    }
    const auto count = countAll();
    if (!count)
        return count.error();
    ListPage<T> out;
    out.page = page;
    out.perPage = perPage;
    out.count = *count;
    out.pagesCount = (out.count + perPage - 1) / perPage;
    if (qint64(page - 1) * perPage < out.count) {
        auto items = listRange((page - 1) * perPage, perPage);
        if (!items)
            return items.error();
        out.items = std::move(*items);
    }
    return out;
}

} // namespace imprint::service
