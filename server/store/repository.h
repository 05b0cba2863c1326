#pragma once
// The base of the repositories (repositories.h): the only code that runs SQL
// (docs/architecture.md).

#include "server/store/database.h"

namespace imprint::store {

/// The base of a repository: it holds the Database whose calling thread's connection each
/// of its methods runs on (a fresh statement per call, sql.h).
class Repository
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    explicit Repository(const Database &db)
        : m_db(db)
    { }

protected:
    const Database &m_db;
};

} // namespace imprint::store
