#pragma once
// Helpers shared by the repositories: one prepared statement with positional binds, its
// outcome as the Result the repositories return, and a transaction that rolls back unless
// committed. Internal to server/store.

#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/models.h"

#include <QList>
#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <optional>
#include <utility>

namespace imprint::store {

Q_DECLARE_LOGGING_CATEGORY(lcDb)

namespace sql {

/// Prepares `sql` on `q`, binds `args` positionally (`?`) and runs it. False on failure,
/// with the driver's message logged (never the bound values, which may be secrets).
/// A statement that failed because PostgreSQL restarted under it runs once more on a
/// fresh connection (reopenBrokenConnection(), never inside a transaction).
template<typename... Args>
bool run(QSqlQuery &q, const QString &sql, const Args &...args)
{
    for (int attempt = 0;; ++attempt) {
        // QPSQL prepares on the server: a broken connection fails here already.
        const bool prepared = q.prepare(sql);
        if (prepared) {
            (q.addBindValue(QVariant(args)), ...);
            if (q.exec()) {
                noteDatabaseReached();
                return true;
            }
        }
        const QString message = q.lastError().text();
        if (attempt == 0 && reopenBrokenConnection(q))
            continue;
        qCWarning(lcDb) << (prepared ? "query failed:" : "prepare failed:") << message;
        return false;
    }
}

/// Runs `sql` with `args` bound positionally on this thread's cached prepared statement
/// (Database::cachedStatement()) and returns every row mapped through `from(q)`; the
/// statement is reset before returning, so no read stays open. A broken PostgreSQL
/// connection is reopened and the statement run once more, as run() does. The database
/// error when it did not run (the driver's message logged, never the bound values).
template<typename From, typename... Args>
auto cachedRows(const Database &db, const QString &sql, From from, const Args &...args)
    -> Result<QList<decltype(from(std::declval<const QSqlQuery &>()))>>
{
    QList<decltype(from(std::declval<const QSqlQuery &>()))> out;
    for (int attempt = 0;; ++attempt) {
        QSqlQuery *q = db.cachedStatement(sql);
        if (!q) {
            // QPSQL prepares on the server: a connection PostgreSQL dropped fails here, and
            // one that was closed may open again between the two calls (a restart ending).
            // Never inside a transaction, whose statements died with its session
            // (cachedStatement() noted the loss).
            if (attempt == 0 && !db.inTransaction()) {
                QSqlQuery probe(db.connection());
                if (reopenBrokenConnection(probe) || db.connection().isOpen())
                    continue;
            }
            return ServiceError::database();
        }
        int at = 0;
        (q->bindValue(at++, QVariant(args)), ...);
        if (q->exec()) {
            noteDatabaseReached();
            while (q->next())
                out.append(from(*q));
            q->finish();
            return out;
        }
        const QString message = q->lastError().text();
        q->finish();
        if (attempt == 0 && reopenBrokenConnection(*q))
            continue;
        qCWarning(lcDb) << "query failed:" << message;
        return ServiceError::database();
    }
}

/// As cachedRows(), for a statement that selects at most one row: that row, or
/// std::nullopt when there is none.
template<typename From, typename... Args>
auto cachedFirstRow(const Database &db, const QString &sql, From from, const Args &...args)
    -> Result<std::optional<decltype(from(std::declval<const QSqlQuery &>()))>>
{
    using Row = decltype(from(std::declval<const QSqlQuery &>()));
    auto rows = cachedRows(db, sql, from, args...);
    if (!rows)
        return rows.error();
    if (rows->isEmpty())
        return std::optional<Row>();
    return std::optional<Row>(std::move(rows->first()));
}

/// A write (INSERT, UPDATE) on this thread's cached prepared statement, as cachedRows()
/// runs it: for a statement run many times a second on one thread (the write-behind's
/// render_log rows), where preparing it each time cost more than running it. Done, or
/// the database error.
template<typename... Args>
Result<Done> cachedWrite(const Database &db, const QString &sql, const Args &...args)
{
    const auto ran = cachedRows(db, sql, [](const QSqlQuery &) { return 0; }, args...);
    if (!ran)
        return ran.error();
    return Done{};
}

// NULL for unset optional values so the columns stay meaningful (expires_at IS NULL).
inline QVariant orNull(qint64 ms)
{
    return ms > 0 ? QVariant(ms) : QVariant(QMetaType::fromType<qint64>());
}

/// NULL for an empty text (created_by of a key the CLI made).
inline QVariant orNull(const QString &text)
{
    return text.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(text);
}

/// The current row of `q` as a Row whose `members` (data member pointers, in select-list
/// order) are read from the columns from `first` on, each converted to its member's type
/// as QVariant converts (NULL reads as "" or 0, a text into a QByteArray as UTF-8); the
/// members not named keep their defaults.
template<typename Row, typename... Types>
Row rowOf(const QSqlQuery &q, int first, Types Row::*...members)
{
    Row row;
    int column = first;
    ((row.*members = q.value(column++).template value<Types>()), ...);
    return row;
}

/// The select list of a space (alias `s`) that spaceFrom() reads.
inline const QString kSpaceColumns = QStringLiteral("s.id, s.name, s.plan, s.created_at");

/// The space whose kSpaceColumns start at column `at` of the current row of `q`.
inline Space spaceFrom(const QSqlQuery &q, int at)
{
    return Space{q.value(at).toString(), q.value(at + 1).toString(), q.value(at + 2).toString(),
                 q.value(at + 3).toLongLong()};
}

// The Result forms the repositories return (repositories.h): a statement that did not run
// is ServiceError::database(), its cause already logged by run().

/// Runs a write (as run()): Done, or the database error.
template<typename... Args>
Result<Done> write(QSqlQuery &q, const QString &sql, const Args &...args)
{
    if (!run(q, sql, args...))
        return ServiceError::database();
    return Done{};
}

/// Runs an UPDATE or DELETE (as run()): whether it changed a row.
template<typename... Args>
Result<bool> writeMatched(QSqlQuery &q, const QString &sql, const Args &...args)
{
    if (!run(q, sql, args...))
        return ServiceError::database();
    return q.numRowsAffected() > 0;
}

/// The first row of `q` mapped through `from(q)`, std::nullopt when it has none; the
/// database error when the query did not run (`ran` false).
template<typename From>
auto firstRow(QSqlQuery &q, bool ran, From from) -> Result<std::optional<decltype(from(q))>>
{
    if (!ran)
        return ServiceError::database();
    if (!q.next())
        return std::optional<decltype(from(q))>();
    return std::optional<decltype(from(q))>(from(q));
}

/// Every row of `q` mapped through `from(q)`, in order; the database error when the query
/// did not run (`ran` false).
template<typename From>
auto allRows(QSqlQuery &q, bool ran, From from) -> Result<QList<decltype(from(q))>>
{
    if (!ran)
        return ServiceError::database();
    QList<decltype(from(q))> out;
    while (q.next())
        out.append(from(q));
    return out;
}

/// The integer of the first column of the first row (a COUNT(*)); the database error when
/// the query did not run or returned no row.
inline Result<int> countOf(QSqlQuery &q, bool ran)
{
    if (!ran || !q.next())
        return ServiceError::database();
    return q.value(0).toInt();
}

// The same forms on a fresh statement of this thread's connection of `db`: what nearly every
// repository method is, one statement run once. (A statement run on every request goes
// through cachedRows() instead.)

/// Runs a write on a fresh statement of `db` (as run()): Done, or the database error.
template<typename... Args>
Result<Done> write(const Database &db, const QString &sql, const Args &...args)
{
    QSqlQuery q(db.connection());
    return write(q, sql, args...);
}

/// Runs an UPDATE or DELETE on a fresh statement of `db` (as run()): whether it changed a row.
template<typename... Args>
Result<bool> writeMatched(const Database &db, const QString &sql, const Args &...args)
{
    QSqlQuery q(db.connection());
    return writeMatched(q, sql, args...);
}

/// Runs a SELECT on a fresh statement of `db` (as run()): its first row mapped through
/// `from(q)`, std::nullopt when it has none, or the database error.
template<typename From, typename... Args>
auto selectOne(const Database &db, const QString &sql, From from, const Args &...args)
    -> Result<std::optional<decltype(from(std::declval<QSqlQuery &>()))>>
{
    QSqlQuery q(db.connection());
    const bool ran = run(q, sql, args...);
    return firstRow(q, ran, from);
}

/// Runs a SELECT on a fresh statement of `db` (as run()): every row mapped through
/// `from(q)`, in order, or the database error.
template<typename From, typename... Args>
auto selectAll(const Database &db, const QString &sql, From from, const Args &...args)
    -> Result<QList<decltype(from(std::declval<QSqlQuery &>()))>>
{
    QSqlQuery q(db.connection());
    const bool ran = run(q, sql, args...);
    return allRows(q, ran, from);
}

/// Runs a SELECT COUNT(*) on a fresh statement of `db` (as run()): the count, or the
/// database error (also when it returned no row).
template<typename... Args>
Result<int> selectCount(const Database &db, const QString &sql, const Args &...args)
{
    QSqlQuery q(db.connection());
    const bool ran = run(q, sql, args...);
    return countOf(q, ran);
}

} // namespace sql

namespace detail {

/// Ends the level of the transaction open on this thread's connection `db` (named `name`)
/// that `savepoint` names, or the outermost when it is empty: commits it (releases the
/// savepoint) when `commit`, else rolls it back, and leaves the level (leaveTransaction()).
/// Whether it committed; a COMMIT that failed is rolled back, since SQLite leaves a
/// refused COMMIT's transaction open, and PostgreSQL going away at COMMIT is noted, so the
/// caller's ServiceError::database() is a 503 the client retries rather than a 500.
inline bool endTransaction(QSqlDatabase &db, const QString &name, const QString &savepoint, bool commit)
{
    bool done = false;
    if (commit) {
        QSqlQuery q(db);
        done = q.exec(savepoint.isEmpty() ? QStringLiteral("COMMIT")
                                          : QStringLiteral("RELEASE SAVEPOINT ") + savepoint);
        if (!done)
            noteFailureInTransaction(q);
    }
    if (!done) {
        if (savepoint.isEmpty()) {
            QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        } else {
            QSqlQuery(db).exec(QStringLiteral("ROLLBACK TO SAVEPOINT ") + savepoint);
            QSqlQuery(db).exec(QStringLiteral("RELEASE SAVEPOINT ") + savepoint);
        }
    }
    leaveTransaction(name, done);
    return done;
}

} // namespace detail

/// A transaction on this thread's connection: commits on commit(), rolls back when the
/// scope is left otherwise (early return, error).
///
/// Opened while another is open on the connection, it is a savepoint of that one (SQL
/// SAVEPOINT): commit() releases it into the enclosing transaction, which alone commits;
/// leaving it otherwise rolls back its own statements and leaves the enclosing ones. That
/// lets a caller run several services' writes as one (an Idempotency-Key's request and its
/// stored answer, service::IdempotencyService), and a statement that fails inside a
/// savepoint does not abort the enclosing PostgreSQL transaction. What must wait for the
/// real COMMIT goes through afterCommit() (database.h).
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
        , m_name(m_db.connectionName())
    {
        int enclosing = transactionDepth(m_name);
        if (enclosing == 0 && transactionDeferred(m_name)) {
            // A DeferredTransaction waits for this one: it begins now, around this one.
            if (!begin(m_db, db.isSqlite()))
                return;
            enterTransaction(m_name);
            dropDeferredTransaction(m_name);
            enclosing = 1;
        }
        if (enclosing > 0) {
            m_savepoint = QStringLiteral("imprint_%1").arg(enclosing + 1);
            m_open = QSqlQuery(m_db).exec(QStringLiteral("SAVEPOINT ") + m_savepoint);
        } else {
            m_open = begin(m_db, db.isSqlite());
        }
        if (m_open)
            enterTransaction(m_name);
    }
    ~Transaction()
    {
        if (m_open)
            detail::endTransaction(m_db, m_name, m_savepoint, false);
    }
    Transaction(const Transaction &) = delete;
    Transaction &operator=(const Transaction &) = delete;

    /// False when BEGIN (or SAVEPOINT) failed.
    bool isOpen() const { return m_open; }
    /// Commits (a savepoint: releases it into the enclosing transaction); false when not
    /// open or COMMIT failed, and then nothing of it is written.
    bool commit()
    {
        if (!m_open)
            return false;
        m_open = false;
        return detail::endTransaction(m_db, m_name, m_savepoint, true);
    }

private:
    /// Begins a transaction on `db` (BEGIN IMMEDIATE on SQLite): whether it did.
    static bool begin(QSqlDatabase &db, bool sqlite)
    {
        if (sqlite)
            return QSqlQuery(db).exec(QStringLiteral("BEGIN IMMEDIATE"));
        // BEGIN is the first statement of a request that writes: after a PostgreSQL
        // restart it meets the broken connection, and nothing is lost by reconnecting.
        QSqlQuery query(db);
        return query.exec(QStringLiteral("BEGIN"))
               || (reopenBrokenConnection(query) && query.exec(QStringLiteral("BEGIN")));
    }

    QSqlDatabase m_db;
    QString m_name; // the connection's, which the open transactions are counted by
    QString m_savepoint; // set when nested in another transaction on the connection
    bool m_open = false;
};

/// A transaction on this thread's connection that begins only when the first Transaction
/// is opened on it (as that one's enclosing transaction) and then holds every later
/// Transaction until commit(): a caller's several writes, and what it writes after them,
/// commit together, while the work before its first write (validation, decoding an
/// upload) holds no transaction — on SQLite, no write lock. Statements run outside any
/// Transaction are not held. Left without commit(), what began rolls back.
/// (service::IdempotencyService: a create and its stored answer.)
class DeferredTransaction
{
public:
    explicit DeferredTransaction(const Database &db)
        : m_db(db.connection())
        , m_name(m_db.connectionName())
        , m_nested(transactionDepth(m_name) > 0)
    {
        // Inside a transaction already: the writes join that one, nothing to defer.
        if (!m_nested)
            deferTransaction(m_name);
    }
    ~DeferredTransaction()
    {
        if (m_nested || m_ended)
            return;
        if (transactionDeferred(m_name))
            dropDeferredTransaction(m_name);
        else
            detail::endTransaction(m_db, m_name, QString(), false);
    }
    DeferredTransaction(const DeferredTransaction &) = delete;
    DeferredTransaction &operator=(const DeferredTransaction &) = delete;

    /// Whether a Transaction began it (its statements since are held).
    bool hasBegun() const { return !m_nested && !m_ended && !transactionDeferred(m_name); }
    /// Commits what began (true at once when nothing did); false when COMMIT failed, and
    /// then nothing of it is written.
    bool commit()
    {
        if (m_nested || m_ended)
            return !m_ended;
        m_ended = true;
        if (transactionDeferred(m_name)) {
            dropDeferredTransaction(m_name);
            return true;
        }
        return detail::endTransaction(m_db, m_name, QString(), true);
    }

private:
    QSqlDatabase m_db;
    QString m_name;
    bool m_nested = false;
    bool m_ended = false;
};

} // namespace imprint::store
