#pragma once
// What a use case makes of a repository's "no such row" (store/repositories.h: a lookup
// that finds none succeeds with std::nullopt, a write that matches none with false):
// whether that is an error, and which, is the use case's decision.

#include "server/store/errors.h"

#include <optional>
#include <utility>

namespace imprint::service {

/// The row a lookup found, or the error `missing()` returns when it found none (the use
/// case's own 404); a lookup that failed keeps its error.
template<typename T, typename Missing>
store::Result<T> found(store::Result<std::optional<T>> row, Missing missing)
{
    if (!row)
        return row.error();
    if (!*row)
        return missing();
    return std::move(**row);
}

/// Done when an UPDATE or DELETE matched a row, else the error `missing()` returns (the
/// use case's own 404); a write that failed keeps its error.
template<typename Missing>
store::Result<store::Done> matched(const store::Result<bool> &changed, Missing missing)
{
    if (!changed)
        return changed.error();
    if (!*changed)
        return missing();
    return store::Done{};
}

/// The use case's 404 for `id`, a row it did not find: `code` with `message`, whose %1
/// the id fills.
inline store::ServiceError missingRow(common::ProblemCode code, const QString &message, const QString &id)
{
    return store::ServiceError::notFound(code, message.arg(id));
}

} // namespace imprint::service
