#pragma once
// Database access (docs/architecture.md): QtSql, SQLite file in the data directory by default
// (WAL, foreign keys on, busy timeout) or PostgreSQL through QPSQL. One QSqlDatabase
// connection per thread, opened lazily, at most DatabaseSettings::maxConnections, closed
// when the thread ends; versioned migrations applied in transactions (on PostgreSQL under
// an advisory lock, so instances starting together apply each version once).

#include "server/common/expected.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

// SQLite's statement handle (sqlite3.h), for Database::cachedSqliteStatement().
struct sqlite3_stmt;

namespace imprint::store {

/// Where the data lives: a SQLite file or a PostgreSQL server.
struct DatabaseSettings {
    QString driver; ///< "QSQLITE" or "QPSQL"
    QString sqlitePath; ///< QSQLITE: the database file
    QString host; ///< QPSQL
    int port = 5432; ///< QPSQL
    QString name; ///< QPSQL database name
    QString user; ///< QPSQL
    QString password; ///< QPSQL; never printed
    /// `database.maxConnections` (docs/deployment.md): connections this handle keeps open
    /// at once, one per thread that queries; 0 = no bound. A thread over the bound waits
    /// up to `connectionWaitMs` for a thread to end and free its slot, else it gets no
    /// connection (the request answers 503 `database_unavailable`).
    int maxConnections = 0;
    int connectionWaitMs = 5000;

    /// Settings from the `--database` flag: empty → SQLite `dataDir/imprint.db`;
    /// `sqlite:///abs/path.db` or a plain path → that SQLite file;
    /// `postgres://user:pass@host:port/db` (or `postgresql://`) → QPSQL. The error says
    /// why for any other scheme or a URL without a database name.
    static common::Expected<DatabaseSettings, QString> fromUrl(const QString &url, const QString &dataDir);
    /// A description safe to print (no password).
    QString describe() const;
    /// Points `db` (a QPSQL connection not yet open) at this server: host, port, database,
    /// user, password, and libpq's connect_timeout in seconds, so an unreachable server
    /// fails a connection attempt in that time rather than after TCP's minutes.
    void applyTo(QSqlDatabase &db, int connectTimeoutSeconds) const;
};

/// Shared handle to one database. Thread-safe: each thread that calls connection()
/// gets its own QSqlDatabase connection, named after this handle and the thread.
class Database
{
    Q_DISABLE_COPY(Database)
public:
    explicit Database(DatabaseSettings settings);
    ~Database();

    /// The calling thread's open connection (opened on first use; SQLite pragmas applied;
    /// closed when the thread ends). If opening fails, or the maxConnections bound is
    /// reached, the returned connection is not open and databaseUnavailable() is true.
    /// A PostgreSQL session that ended is opened again, except under an open transaction:
    /// then the connection stays closed, and databaseUnavailable() true, until it ends.
    QSqlDatabase connection() const;

    /// Applies pending migrations up to `targetVersion` (-1 = latest), each in its own
    /// transaction together with its schema_migrations row. The error says which failed
    /// and why (that one is rolled back; earlier ones stay applied).
    common::Expected<common::Done, QString> migrate(int targetVersion = -1) const;

    /// Highest applied migration version (0 for an empty database, -1 on error).
    int schemaVersion() const;

    /// Version of the newest migration this build knows.
    static int latestSchemaVersion();

    /// The tables the migrations create, in the order they create them (a table after
    /// those it references), schema_migrations excluded: the order `imprint db copy` fills.
    static QStringList tableNames();

    /// True when a Transaction (server/store/sql.h) is open on this thread's connection.
    /// Unlike connection(), it never opens, reopens or marks anything.
    bool inTransaction() const;

    /// This thread's statement for `sql` (positional `?` binds), prepared on connection()
    /// the first time and kept with it, so a statement a hot path runs per request
    /// (authenticating a bearer token, a space's font list) is parsed and planned once per
    /// connection instead of per call. nullptr when the connection is not open or `sql`
    /// does not prepare (the driver's message logged). The pointer is valid on this thread
    /// until the next cachedStatement() call or the connection closes; a reconnect after a
    /// PostgreSQL restart prepares it again. Run it through sql::cachedRows() or
    /// sql::cachedFirstRow() (server/store/sql.h), which reset it after reading: a SQLite
    /// SELECT left open would pin its read snapshot.
    QSqlQuery *cachedStatement(const QString &sql) const;

    /// On SQLite, this thread's statement for `sql` prepared with SQLite's own API on
    /// connection()'s handle, the first time, and kept until the connection closes (it is
    /// finalized first): for the few statements a request runs every time, where QtSql's
    /// result machinery costs more than the statement (sql::sqliteInteger()). nullptr on
    /// PostgreSQL, when the connection is not open, or when `sql` does not prepare
    /// (SQLite's message logged). Valid on this thread until its next
    /// cachedSqliteStatement() call (a full cache is emptied) or the connection closes.
    /// Reset it after use: a SELECT left open pins its snapshot.
    sqlite3_stmt *cachedSqliteStatement(const QString &sql) const;

    /// True when a trivial query succeeds on this thread's connection (GET /health).
    bool ping() const;

    /// True for SQLite (some statements, e.g. backups, differ per driver).
    bool isSqlite() const { return m_settings.driver == QLatin1String("QSQLITE"); }

    const DatabaseSettings &settings() const { return m_settings; }

    struct Shared;

private:
    DatabaseSettings m_settings;
    std::shared_ptr<Shared> m_shared; // outlives the handle: per-thread slots release into it
};

/// After `q` failed: when its PostgreSQL connection is broken (the server restarted) and
/// no transaction is open on it, re-opens the connection and points `q` at it, so the
/// caller can prepare and run the statement once more; true then. False otherwise (a
/// statement error, SQLite, inside a transaction, or the server still down — which also
/// sets databaseUnavailable()). Used by sql::run() and Transaction (server/store/sql.h).
bool reopenBrokenConnection(QSqlQuery &q);

/// After `q` failed inside a transaction or at its COMMIT: when the failure is PostgreSQL's
/// connection going away (no SQLSTATE, class 08, or 57P: shut down, restarting), marks this
/// thread's database as unavailable, so the request answers 503 with Retry-After instead
/// of 500. A statement error (a constraint, SQL) and SQLite change nothing.
void noteFailureInTransaction(const QSqlQuery &q);

/// Marks this thread's database calls as reaching the database again (a query ran).
void noteDatabaseReached();

/// The transactions open on this thread (sql.h's Transaction), per connection: a statement
/// inside one is never retried on a fresh connection, which would run it outside the
/// transaction, and a Transaction opened inside another on the same connection is a
/// savepoint of it. enterTransaction() returns the new depth (1 for the outermost);
/// leaveTransaction() says whether that level committed (a savepoint released counts).
int transactionDepth(const QString &connectionName);
int enterTransaction(const QString &connectionName);
void leaveTransaction(const QString &connectionName, bool committed);
/// A DeferredTransaction (sql.h) waiting on this thread's connection `connectionName` for
/// the first Transaction to begin it: set by deferTransaction(), cleared by
/// dropDeferredTransaction() (it began, or was left without beginning).
bool transactionDeferred(const QString &connectionName);
void deferTransaction(const QString &connectionName);
void dropDeferredTransaction(const QString &connectionName);

/// Runs `hook` once what this thread has written on `db` is committed: at once when no
/// transaction is open on this thread's connection, else when the outermost one commits,
/// never when the level it was queued in rolls back. For what others read after a write
/// (an in-process cache to drop, worker threads to wake): run before the COMMIT they
/// would still see the old rows. Hooks run in the order queued, on this thread.
void afterCommit(const Database &db, std::function<void()> hook);

/// Current time as milliseconds since the Unix epoch (UTC): the one timestamp form the
/// schema uses (BIGINT columns, `*_at`).
qint64 nowMs();

/// Epoch milliseconds → ISO-8601 UTC text with milliseconds ("2024-05-01T12:00:00.000Z"),
/// the form the JSON API uses. 0 or negative → empty string.
QString isoFromMs(qint64 ms);

} // namespace imprint::store
