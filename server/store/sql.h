#pragma once
// Helpers shared by the repositories: one prepared statement with positional binds, the
// optional `bool *ok` out-parameter, and a transaction that rolls back unless committed.
// Internal to server/store.

#include "server/store/database.h"

#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace imprint::store {

Q_DECLARE_LOGGING_CATEGORY(lcDb)

namespace sql {

/// Prepares `sql` on `q`, binds `args` positionally (`?`) and runs it. False on failure,
/// with the driver's message logged (never the bound values, which may be secrets).
template<typename... Args>
bool run(QSqlQuery &q, const QString &sql, Args &&...args)
{
    if (!q.prepare(sql)) {
        qCWarning(lcDb) << "prepare failed:" << q.lastError().text();
        return false;
    }
    (q.addBindValue(QVariant(std::forward<Args>(args))), ...);
    if (!q.exec()) {
        qCWarning(lcDb) << "query failed:" << q.lastError().text();
        return false;
    }
    return true;
}

/// Stores `value` in the optional out-parameter `ok`.
inline void setOk(bool *ok, bool value)
{
    if (ok)
        *ok = value;
}

} // namespace sql

/// A transaction on this thread's connection: commits on commit(), rolls back when the
/// scope is left otherwise (early return, error).
///
/// On SQLite it is BEGIN IMMEDIATE: the write lock is taken at BEGIN, where the busy
/// timeout applies. A deferred transaction that reads first (publish reads the page and
/// its template, then writes the snapshot) cannot upgrade to a writer once another
/// connection has committed since its read, and SQLite answers SQLITE_BUSY at once,
/// without waiting: that was "database is locked" for ~1 % of concurrent publishes.
class Transaction
{
public:
    explicit Transaction(const Database &db)
        : m_db(db.connection())
        , m_sqlite(db.isSqlite())
    {
        m_open = m_sqlite ? QSqlQuery(m_db).exec(QStringLiteral("BEGIN IMMEDIATE")) : m_db.transaction();
    }
    ~Transaction()
    {
        if (!m_open)
            return;
        if (m_sqlite)
            QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
        else
            m_db.rollback();
    }
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    /// False when BEGIN failed.
    bool isOpen() const { return m_open; }
    /// Commits; false when not open or COMMIT failed.
    bool commit()
    {
        if (!m_open)
            return false;
        m_open = false;
        if (m_sqlite)
            return QSqlQuery(m_db).exec(QStringLiteral("COMMIT"));
        return m_db.commit();
    }

private:
    QSqlDatabase m_db;
    bool m_sqlite = false;
    bool m_open = false;
};

} // namespace imprint::store
