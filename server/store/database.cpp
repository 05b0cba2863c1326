#include "server/store/database.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QThreadStorage>
#include <QUrl>
#include <QVariant>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <sqlite3.h>

namespace imprint::store {

Q_LOGGING_CATEGORY(lcDb, "imprint.store")

namespace {

struct Migration {
    int version;
    const char *name;
    std::vector<const char *> statements;
};

// Portable SQL only (SQLite and PostgreSQL): TEXT ids, BIGINT epoch-ms timestamps,
// no AUTOINCREMENT/SERIAL, no booleans. Never edit a released migration; add one.
/// Migrations 1–8: accounts, content, renders, signing and idempotency keys, fonts and
/// assets, shared files and rate windows.
std::vector<Migration> serviceMigrations()
{
    return {
        {1,
         "accounts",
         {
             "CREATE TABLE spaces (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
             " plan TEXT NOT NULL, created_at BIGINT NOT NULL)",
             "CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE,"
             " password_hash TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)",
             "CREATE TABLE memberships (space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, role TEXT NOT NULL,"
             " created_at BIGINT NOT NULL, PRIMARY KEY (space_id, user_id))",
             "CREATE TABLE sessions (id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE,"
             " user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL)",
             "CREATE TABLE api_keys (id TEXT PRIMARY KEY,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " name TEXT NOT NULL, prefix TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,"
             " created_by TEXT, created_at BIGINT NOT NULL, expires_at BIGINT,"
             " last_used_at BIGINT, revoked_at BIGINT, revoked_by TEXT)",
             "CREATE INDEX api_keys_space_active ON api_keys (space_id, revoked_at, created_at)",
             "CREATE TABLE audit_log (id TEXT PRIMARY KEY, space_id TEXT, actor TEXT NOT NULL,"
             " action TEXT NOT NULL, target TEXT, detail TEXT, created_at BIGINT NOT NULL)",
         }},
        {2,
         "content",
         {
             "CREATE TABLE templates (id TEXT PRIMARY KEY,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " name TEXT NOT NULL, document TEXT NOT NULL,"
             " created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)",
             "CREATE INDEX templates_space ON templates (space_id)",
             "CREATE TABLE pages (id TEXT PRIMARY KEY,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " template_id TEXT NOT NULL REFERENCES templates(id) ON DELETE CASCADE,"
             " name TEXT NOT NULL, variables TEXT NOT NULL,"
             " created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)",
             "CREATE INDEX pages_space ON pages (space_id)",
             "CREATE TABLE published_pages (page_id TEXT PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " snapshot TEXT NOT NULL, published_at BIGINT NOT NULL)",
             "CREATE TABLE renders (id TEXT PRIMARY KEY,"
             " space_id TEXT REFERENCES spaces(id) ON DELETE CASCADE, page_id TEXT,"
             " sha256 TEXT NOT NULL, format TEXT NOT NULL, bytes BIGINT NOT NULL,"
             " created_at BIGINT NOT NULL)",
             "CREATE INDEX renders_sha256 ON renders (sha256)",
         }},
        {3,
         "lookup indexes",
         {
             "CREATE INDEX sessions_user ON sessions (user_id)",
             "CREATE INDEX memberships_user ON memberships (user_id)",
             "CREATE INDEX audit_log_space_time ON audit_log (space_id, created_at)",
         }},
        {4,
         "signing keys",
         {
             // secret_box: base64 of SecretBox::seal(secret); the server key is a file in
             // the data directory, never in the database.
             "CREATE TABLE signing_keys (id TEXT PRIMARY KEY,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " name TEXT NOT NULL, secret_box TEXT NOT NULL, created_by TEXT,"
             " created_at BIGINT NOT NULL, revoked_at BIGINT, revoked_by TEXT)",
             "CREATE INDEX signing_keys_space_active ON signing_keys (space_id, revoked_at, created_at)",
         }},
        {5,
         "api key scopes",
         {
             // Space-separated scope names (ApiKey::scopes); keys made before scopes
             // existed could only render, so they keep exactly that.
             "ALTER TABLE api_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT 'render'",
         }},
        {6,
         "idempotency keys",
         {
             // One row per Idempotency-Key a space used on a route: status 0 while the
             // first request runs, then its answer, replayed to retries for a day.
             "CREATE TABLE idempotency_keys (space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " idem_key TEXT NOT NULL, route TEXT NOT NULL, request_hash TEXT NOT NULL,"
             " status INTEGER NOT NULL, content_type TEXT NOT NULL, body TEXT NOT NULL,"
             " created_at BIGINT NOT NULL, PRIMARY KEY (space_id, idem_key, route))",
             "CREATE INDEX idempotency_keys_time ON idempotency_keys (created_at)",
         }},
        {7,
         "fonts and assets",
         {
             // A space's uploaded font faces and images. The bytes live in the file store
             // under their SHA-256 (files/ab/<sha256>.<format>); one row per content per
             // space, so an upload of the same bytes again finds the row it made before.
             "CREATE TABLE fonts (id TEXT PRIMARY KEY,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " family TEXT NOT NULL, weight INTEGER NOT NULL, style TEXT NOT NULL, format TEXT NOT NULL,"
             " sha256 TEXT NOT NULL, bytes BIGINT NOT NULL, created_at BIGINT NOT NULL,"
             " UNIQUE (space_id, sha256))",
             "CREATE INDEX fonts_space ON fonts (space_id, created_at)",
             "CREATE TABLE assets (id TEXT PRIMARY KEY,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " content_type TEXT NOT NULL, format TEXT NOT NULL, sha256 TEXT NOT NULL,"
             " width INTEGER NOT NULL, height INTEGER NOT NULL, bytes BIGINT NOT NULL, created_at BIGINT NOT NULL,"
             " UNIQUE (space_id, sha256))",
             "CREATE INDEX assets_space ON assets (space_id, created_at)",
         }},
        {8,
         "shared files and rate windows",
         {
             // The file store of instances sharing a PostgreSQL database (file_store.h):
             // the same content addresses as DATA/files. BYTEA has no meaning in SQLite,
             // where the table stays empty (the disk store is used).
             "CREATE TABLE blobs (sha256 TEXT NOT NULL, ext TEXT NOT NULL, size BIGINT NOT NULL,"
             " content BYTEA NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (sha256, ext))",
             // Render rate limit counted across instances (docs/api.md): one row per key per
             // fixed window, start in epoch ms; old windows are deleted as new ones open.
             "CREATE TABLE rate_windows (rate_key TEXT NOT NULL, window_start BIGINT NOT NULL,"
             " hits INTEGER NOT NULL, PRIMARY KEY (rate_key, window_start))",
         }},
    };
}

/// Migrations 9 on: the workflow of issue 31 (render jobs, webhooks, template versions),
/// the auth generation, job items' alt text and the render log of issue 32.
std::vector<Migration> workflowMigrations()
{
    return {
        {9,
         "render jobs",
         {
             // A batch of renders (docs/api.md, "Jobs"): its counts kept on the row, so that
             // the worker recording the last item's result (under this row's lock) is the one
             // that finishes the job; base_url is the creating request's, for the file URLs
             // of events sent later.
             "CREATE TABLE jobs (id TEXT PRIMARY KEY,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " created_by TEXT, base_url TEXT NOT NULL, item_count INTEGER NOT NULL,"
             " done_count INTEGER NOT NULL, failed_count INTEGER NOT NULL,"
             " created_at BIGINT NOT NULL, finished_at BIGINT)",
             "CREATE INDEX jobs_space ON jobs (space_id, created_at)",
             // One row per render of a job: state queued/running/done/failed; a running
             // item is leased to lease_owner until lease_expires_at (epoch ms), after which
             // any instance may take it again; the result is a stored file (sha256 + ext) or
             // a problem (its code, and the problem+json object as text).
             "CREATE TABLE job_items (job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,"
             " idx INTEGER NOT NULL, space_id TEXT NOT NULL, request TEXT NOT NULL, state TEXT NOT NULL,"
             " attempts INTEGER NOT NULL, lease_owner TEXT, lease_expires_at BIGINT,"
             " queued_at BIGINT NOT NULL, started_at BIGINT, finished_at BIGINT,"
             " file_sha256 TEXT, file_ext TEXT, content_type TEXT, width INTEGER, height INTEGER, bytes BIGINT,"
             " problem_code TEXT, problem TEXT, PRIMARY KEY (job_id, idx))",
             "CREATE INDEX job_items_claim ON job_items (state, queued_at)",
         }},
        {10,
         "webhooks",
         {
             // A space's webhook endpoints (docs/api.md, "Webhooks"). secret_box: base64 of
             // SecretBox::seal() of the whsec_ secret, as signing_keys keeps its secrets;
             // event_types: space-separated names, empty = every event. Deleting an
             // endpoint sets disabled_at, so its delivery log stays readable in the database.
             "CREATE TABLE webhook_endpoints (id TEXT PRIMARY KEY,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " url TEXT NOT NULL, description TEXT NOT NULL, event_types TEXT NOT NULL,"
             " secret_box TEXT NOT NULL, created_by TEXT, created_at BIGINT NOT NULL, disabled_at BIGINT)",
             "CREATE INDEX webhook_endpoints_space ON webhook_endpoints (space_id, disabled_at, created_at)",
             // The outbox: one row per (event, endpoint); id is the webhook-id header. state
             // is pending, delivered or failed; a worker that claims a row leases it
             // (lease_owner, lease_until) so no two instances send it at once. attempts counts
             // every attempt; round_started_at and round_attempts restart on a replay.
             "CREATE TABLE webhook_deliveries (id TEXT PRIMARY KEY,"
             " endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " event_type TEXT NOT NULL, payload TEXT NOT NULL, state TEXT NOT NULL,"
             " attempts INTEGER NOT NULL, round_attempts INTEGER NOT NULL, round_started_at BIGINT NOT NULL,"
             " next_attempt_at BIGINT NOT NULL, lease_owner TEXT, lease_until BIGINT,"
             " last_status INTEGER, last_error TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)",
             "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at)",
             "CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at)",
             // Every attempt of a delivery: when, the answer's status (NULL: none) or why
             // there was none, and how long it took.
             "CREATE TABLE webhook_attempts (delivery_id TEXT NOT NULL"
             " REFERENCES webhook_deliveries(id) ON DELETE CASCADE,"
             " attempt INTEGER NOT NULL, attempted_at BIGINT NOT NULL, status INTEGER, error TEXT,"
             " duration_ms BIGINT NOT NULL, PRIMARY KEY (delivery_id, attempt))",
         }},
        {11,
         "template versions",
         {
             // Every saved document of a template, numbered per template (docs/api.md,
             // "Template versions"); templates.version is the latest number, pages may pin
             // one, and a publish snapshot records the one it used.
             "CREATE TABLE template_versions (template_id TEXT NOT NULL REFERENCES templates(id) ON DELETE CASCADE,"
             " space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,"
             " version INTEGER NOT NULL, name TEXT NOT NULL, document TEXT NOT NULL, actor TEXT NOT NULL,"
             " created_at BIGINT NOT NULL, PRIMARY KEY (template_id, version))",
             "ALTER TABLE templates ADD COLUMN version INTEGER NOT NULL DEFAULT 1",
             // Existing templates: their current document is version 1.
             "INSERT INTO template_versions (template_id, space_id, version, name, document, actor, created_at)"
             " SELECT id, space_id, 1, name, document, 'migration', updated_at FROM templates",
             "ALTER TABLE pages ADD COLUMN template_version INTEGER",
             "ALTER TABLE published_pages ADD COLUMN template_version INTEGER",
         }},
        {12,
         "auth generation",
         {
             // One counter that every write changing what an API token authenticates as
             // (a key revoked, a space's plan) raises in its transaction: an instance may
             // answer a token from memory while the counter is what it was when the key
             // was read (ApiKeyService::authenticate), and reads the key again otherwise.
             // No row until the first such write (generation 0): a new database is empty,
             // as `imprint db copy` wants its target.
             "CREATE TABLE auth_generation (id INTEGER PRIMARY KEY, value BIGINT NOT NULL)",
         }},
        {13,
         "job item alt text",
         {
             // The alt text of a done item's render (the template's `alt` with the item's
             // values), answered with its file as a synchronous JSON render answers it.
             "ALTER TABLE job_items ADD COLUMN alt TEXT",
         }},
        {14,
         "render log",
         {
             // One row per render request answered (docs/api.md, "Usage"): success, error or
             // cache hit, written in batches behind the request path (WriteBehind) and pruned
             // after usage.retentionDays. key_id is the API key or a signed URL's signing
             // key; problem_code the error's code; duration_us from arrival to answer;
             // cache_hit 0/1. No foreign key: a batch must not fail because a space was
             // deleted while its rows waited (the retention removes them).
             "CREATE TABLE render_log (space_id TEXT NOT NULL, key_id TEXT, engine TEXT NOT NULL,"
             " format TEXT NOT NULL, status INTEGER NOT NULL, problem_code TEXT, duration_us BIGINT NOT NULL,"
             " cache_hit INTEGER NOT NULL, bytes BIGINT NOT NULL, created_at BIGINT NOT NULL)",
             "CREATE INDEX render_log_space ON render_log (space_id, created_at)",
             "CREATE INDEX render_log_created ON render_log (created_at)",
         }},
    };
}

const std::vector<Migration> &migrations()
{
    static const std::vector<Migration> list = [] {
        std::vector<Migration> all = serviceMigrations();
        for (Migration &m : workflowMigrations())
            all.push_back(std::move(m));
        return all;
    }();
    return list;
}

std::atomic<int> g_handleSerial{0};

// Per-thread state of the connection handling (docs/deployment.md, "PostgreSQL").
thread_local bool t_unavailable = false; // the last call could not reach the database

/// The transactions open on one connection of this thread, and what waits for their commit.
struct OpenTransactions {
    int depth = 0;
    bool deferred = false; // a DeferredTransaction waits for the first Transaction to begin it
    std::vector<std::pair<int, std::function<void()>>> afterCommit; // (level queued in, hook)
};
thread_local QHash<QString, OpenTransactions> t_open; // by connection name

// PostgreSQL advisory lock key held around migrate(): "impr" in ASCII, any constant would
// do as long as every instance uses the same.
constexpr qint64 kMigrationLockKey = 0x696d7072;

/// Runs `sql` on `db`: done, or the driver's message.
common::Expected<common::Done, QString> exec(QSqlDatabase &db, const QString &sql)
{
    QSqlQuery q(db);
    if (q.exec(sql))
        return common::Done{};
    return q.lastError().text();
}

} // namespace

/// What a Database handle shares with the per-thread connections it opened: they may
/// outlive it (a pool thread ends after the handle is gone) and release their slot here.
struct Database::Shared {
    DatabaseSettings settings;
    QString prefix;
    std::mutex mutex;
    std::condition_variable freed;
    int open = 0;

    bool acquire()
    {
        std::unique_lock lock(mutex);
        if (settings.maxConnections <= 0) {
            ++open;
            return true;
        }
        if (!freed.wait_for(lock, std::chrono::milliseconds(settings.connectionWaitMs),
                            [this] { return open < settings.maxConnections; }))
            return false;
        ++open;
        return true;
    }
    void release()
    {
        {
            std::lock_guard lock(mutex);
            --open;
        }
        freed.notify_one();
    }
};

namespace {

/// One thread's connection of one Database handle; closed (in its own thread, as QtSql
/// requires) when the thread ends or the handle goes away.
struct ConnectionSlot {
    /// A statement prepared on this connection (Database::cachedStatement()), with the
    /// connection generation it was prepared on: a reconnect makes every older one stale.
    struct Statement {
        std::unique_ptr<QSqlQuery> query;
        quint64 generation = 0;
    };
    std::shared_ptr<Database::Shared> shared;
    QString name;
    quint64 generation = 0; // bumped by every reconnect
    std::unordered_map<QString, Statement> statements;
    /// Statements on SQLite's own API (Database::cachedSqliteStatement()); SQLite does not
    /// reconnect, so they live as long as the connection.
    std::unordered_map<QString, sqlite3_stmt *> sqliteStatements;
    ConnectionSlot(std::shared_ptr<Database::Shared> s, QString n)
        : shared(std::move(s))
        , name(std::move(n))
    { }
    void finalizeSqliteStatements()
    {
        for (const auto &[sql, statement] : sqliteStatements)
            sqlite3_finalize(statement);
        sqliteStatements.clear();
    }
    ~ConnectionSlot()
    {
        statements.clear(); // before the connection they were prepared on goes
        finalizeSqliteStatements();
        {
            QSqlDatabase db = QSqlDatabase::database(name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
        shared->release();
    }
    ConnectionSlot(const ConnectionSlot &) = delete;
    ConnectionSlot &operator=(const ConnectionSlot &) = delete;

    /// Opens `db` (this slot's connection) again after PostgreSQL ended its session; false
    /// when it does not open. The statements prepared on the old session are freed first,
    /// while no session is open: QPSQL frees one with a DEALLOCATE on its driver's current
    /// session, which on the new one names a statement it never had, fails, and inside a
    /// transaction aborts it (every later statement of it: 25P02). Each cached query stays
    /// an object (a caller may hold one), unprepared, and is prepared again when next used.
    bool reopen(QSqlDatabase &db)
    {
        for (auto &entry : statements)
            if (entry.second.query)
                entry.second.query->clear();
        db.close();
        if (!db.open())
            return false;
        ++generation;
        return true;
    }
};

// QThreadStorage, not thread_local: Qt deletes it as the thread finishes, before
// QThread::wait() returns, so a freed slot is visible to the next thread at once.
struct ThreadSlots {
    std::vector<std::unique_ptr<ConnectionSlot>> list;
};

std::vector<std::unique_ptr<ConnectionSlot>> &threadSlots()
{
    static QThreadStorage<ThreadSlots *> storage;
    if (!storage.hasLocalData())
        storage.setLocalData(new ThreadSlots);
    return storage.localData()->list;
}

ConnectionSlot *slotOf(const Database::Shared *shared)
{
    for (const auto &slot : threadSlots())
        if (slot->shared.get() == shared)
            return slot.get();
    return nullptr;
}

} // namespace

bool databaseUnavailable()
{
    return t_unavailable;
}

void noteDatabaseReached()
{
    t_unavailable = false;
}

int transactionDepth(const QString &connectionName)
{
    const auto it = t_open.constFind(connectionName);
    return it == t_open.cend() ? 0 : it->depth;
}

int enterTransaction(const QString &connectionName)
{
    return ++t_open[connectionName].depth;
}

void leaveTransaction(const QString &connectionName, bool committed)
{
    const auto it = t_open.find(connectionName);
    if (it == t_open.end())
        return;
    const int level = it->depth--;
    auto &hooks = it->afterCommit;
    for (auto h = hooks.begin(); h != hooks.end();) {
        if (h->first < level) {
            ++h;
        } else if (committed) {
            h->first = level - 1; // a released savepoint's writes are its parent's now
            ++h;
        } else {
            h = hooks.erase(h);
        }
    }
    if (it->depth > 0)
        return;
    const auto run = std::move(hooks);
    hooks.clear();
    if (!it->deferred)
        t_open.erase(it);
    if (committed)
        for (const auto &h : run)
            h.second();
}

bool transactionDeferred(const QString &connectionName)
{
    const auto it = t_open.constFind(connectionName);
    return it != t_open.cend() && it->deferred;
}

void deferTransaction(const QString &connectionName)
{
    t_open[connectionName].deferred = true;
}

void dropDeferredTransaction(const QString &connectionName)
{
    const auto it = t_open.find(connectionName);
    if (it == t_open.end())
        return;
    it->deferred = false;
    if (it->depth == 0)
        t_open.erase(it);
}

void afterCommit(const Database &db, std::function<void()> hook)
{
    const auto it = t_open.find(db.connection().connectionName());
    if (it == t_open.end() || it->depth == 0) {
        hook();
        return;
    }
    it->afterCommit.emplace_back(it->depth, std::move(hook));
}

void noteFailureInTransaction(const QSqlQuery &q)
{
    if (!q.driver() || q.driver()->dbmsType() != QSqlDriver::PostgreSQL)
        return;
    // A statement error has an SQLSTATE; a lost connection none, or one of class 08
    // (connection exception) or 57P (the server shut down or restarted).
    const QString state = q.lastError().nativeErrorCode();
    if (state.isEmpty() || state.startsWith(QLatin1String("08")) || state.startsWith(QLatin1String("57P")))
        t_unavailable = true;
}

bool reopenBrokenConnection(QSqlQuery &q)
{
    ConnectionSlot *slot = nullptr;
    for (const auto &s : threadSlots())
        if (QSqlDatabase::database(s->name, false).driver() == q.driver())
            slot = s.get();
    if (!slot || slot->shared->settings.driver != QLatin1String("QPSQL"))
        return false;
    if (transactionDepth(slot->name) > 0) {
        // Inside a transaction the statements before this one died with the old
        // connection: running this one alone would be wrong, so the transaction fails
        // instead (its BEGIN reconnects next time).
        noteFailureInTransaction(q);
        return false;
    }
    QSqlDatabase db = QSqlDatabase::database(slot->name, false);
    {
        // A statement error leaves the connection usable; a restarted server does not.
        QSqlQuery probe(db);
        if (probe.exec(QStringLiteral("SELECT 1")))
            return false;
    }
    qCWarning(lcDb) << "connection to" << slot->shared->settings.describe() << "lost; reconnecting";
    q.clear(); // prepared on the old session: freed before the new one opens (ConnectionSlot::reopen)
    if (!slot->reopen(db)) {
        t_unavailable = true;
        qCWarning(lcDb) << "cannot reconnect:" << db.lastError().text();
        return false;
    }
    q = QSqlQuery(db);
    return true;
}

common::Expected<DatabaseSettings, QString> DatabaseSettings::fromUrl(const QString &url, const QString &dataDir)
{
    DatabaseSettings s;
    if (url.isEmpty()) {
        s.driver = QStringLiteral("QSQLITE");
        s.sqlitePath = QDir(dataDir).filePath(QStringLiteral("imprint.db"));
        return s;
    }
    if (!url.contains(QLatin1String("://"))) {
        s.driver = QStringLiteral("QSQLITE");
        s.sqlitePath = QDir(dataDir).absoluteFilePath(url);
        return s;
    }
    const QUrl u(url);
    const QString scheme = u.scheme().toLower();
    if (scheme == QLatin1String("sqlite")) {
        s.driver = QStringLiteral("QSQLITE");
        s.sqlitePath = u.path();
        return s;
    }
    if (scheme == QLatin1String("postgres") || scheme == QLatin1String("postgresql")) {
        s.driver = QStringLiteral("QPSQL");
        s.host = u.host().isEmpty() ? QStringLiteral("localhost") : u.host();
        s.port = u.port(5432);
        s.user = u.userName();
        s.password = u.password();
        s.name = u.path().mid(1);
        if (s.name.isEmpty())
            return QStringLiteral("--database: the PostgreSQL URL names no database");
        return s;
    }
    return QStringLiteral("--database: unsupported scheme '%1' (use sqlite or postgres)").arg(scheme);
}

void DatabaseSettings::applyTo(QSqlDatabase &db, int connectTimeoutSeconds) const
{
    db.setHostName(host);
    db.setPort(port);
    db.setDatabaseName(name);
    db.setUserName(user);
    db.setPassword(password);
    db.setConnectOptions(QStringLiteral("connect_timeout=%1").arg(connectTimeoutSeconds));
}

QString DatabaseSettings::describe() const
{
    if (driver == QLatin1String("QSQLITE"))
        return QStringLiteral("sqlite:%1").arg(sqlitePath);
    return QStringLiteral("postgres://%1@%2:%3/%4").arg(user, host).arg(port).arg(name);
}

Database::Database(DatabaseSettings settings)
    : m_settings(std::move(settings))
    , m_shared(std::make_shared<Shared>())
{
    m_shared->settings = m_settings;
    m_shared->prefix = QStringLiteral("imprint-%1-").arg(g_handleSerial.fetch_add(1));
}

Database::~Database()
{
    // This thread's connection closes now; other threads close theirs when they end
    // (QtSql forbids closing a connection from a thread other than its own).
    std::erase_if(threadSlots(), [this](const auto &slot) { return slot->shared == m_shared; });
}

QSqlDatabase Database::connection() const
{
    if (ConnectionSlot *slot = slotOf(m_shared.get())) {
        QSqlDatabase db = QSqlDatabase::database(slot->name, false);
        if (db.isOpen()) {
            t_unavailable = false;
            return db;
        }
        // PostgreSQL ended the session (QPSQL's isOpen() follows libpq's status), or a
        // reconnect failed. Under an open transaction the statements before died with the
        // session, and one run on a new session would run outside it, committed alone: every
        // statement fails (503) until the transaction ends, and the next one reconnects.
        if (transactionDepth(slot->name) > 0) {
            t_unavailable = true;
            return db;
        }
        t_unavailable = !slot->reopen(db) && !isSqlite();
        return db;
    }
    if (!m_shared->acquire()) {
        qCWarning(lcDb) << "database.maxConnections" << m_settings.maxConnections << "reached; no connection for"
                        << QThread::currentThread();
        t_unavailable = true;
        return QSqlDatabase();
    }
    const QString name = m_shared->prefix + QString::number(quintptr(QThread::currentThreadId()));
    threadSlots().push_back(std::make_unique<ConnectionSlot>(m_shared, name));
    QSqlDatabase db = QSqlDatabase::addDatabase(m_settings.driver, name);
    if (m_settings.driver == QLatin1String("QSQLITE")) {
        // Created owner-only before SQLite opens it: SQLite gives the -wal and -shm
        // files the database file's permissions, and the file holds password and key
        // hashes.
        if (!m_settings.sqlitePath.isEmpty() && !m_settings.sqlitePath.startsWith(u':')
            && !QFileInfo::exists(m_settings.sqlitePath)) {
            QDir().mkpath(QFileInfo(m_settings.sqlitePath).absolutePath());
            QFile file(m_settings.sqlitePath);
            if (file.open(QIODevice::WriteOnly))
                file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        }
        db.setDatabaseName(m_settings.sqlitePath);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    } else {
        // An unreachable host fails the request in seconds (503).
        m_settings.applyTo(db, 5);
    }
    if (!db.open()) {
        qCWarning(lcDb) << "cannot open" << m_settings.describe() << db.lastError().text();
        t_unavailable = !isSqlite();
        return db;
    }
    t_unavailable = false;
    if (isSqlite()) {
        // WAL lets readers (HTTP threads, CLI) run beside one writer; foreign keys are
        // off by default per connection in SQLite.
        for (const char *pragma : {"PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON", "PRAGMA synchronous=NORMAL",
                                   "PRAGMA busy_timeout=5000"}) {
            if (const auto ran = exec(db, QString::fromLatin1(pragma)); !ran)
                qCWarning(lcDb) << pragma << "failed:" << ran.error();
        }
    }
    return db;
}

int Database::latestSchemaVersion()
{
    return migrations().back().version;
}

QStringList Database::tableNames()
{
    QStringList names;
    static const QRegularExpression create(QStringLiteral("^CREATE TABLE (\\w+)"));
    for (const Migration &m : migrations())
        for (const char *sql : m.statements)
            if (const auto match = create.match(QString::fromLatin1(sql)); match.hasMatch())
                names.append(match.captured(1));
    return names;
}

int Database::schemaVersion() const
{
    QSqlDatabase db = connection();
    if (!db.isOpen())
        return -1;
    if (!db.tables().contains(QStringLiteral("schema_migrations")))
        return 0;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT MAX(version) FROM schema_migrations")))
        return -1;
    return q.next() ? q.value(0).toInt() : 0;
}

common::Expected<common::Done, QString> Database::migrate(int targetVersion) const
{
    QSqlDatabase db = connection();
    if (!db.isOpen())
        return QStringLiteral("cannot open %1: %2").arg(m_settings.describe(), db.lastError().text());
    if (isSqlite() && !m_settings.sqlitePath.isEmpty())
        QDir().mkpath(QFileInfo(m_settings.sqlitePath).absolutePath());
    // Several instances starting at once on one PostgreSQL database: one migrates, the
    // others wait here and then find every version applied. (SQLite serialises the
    // writers itself, and a loser notices the version applied below.)
    struct MigrationLock {
        QSqlDatabase db;
        bool held = false;
        ~MigrationLock()
        {
            if (held)
                QSqlQuery(db).exec(QStringLiteral("SELECT pg_advisory_unlock(%1)").arg(kMigrationLockKey));
        }
    } lock{db};
    if (!isSqlite()) {
        if (const auto locked = exec(db, QStringLiteral("SELECT pg_advisory_lock(%1)").arg(kMigrationLockKey));
            !locked)
            return QStringLiteral("cannot take the migration lock: %1").arg(locked.error());
        lock.held = true;
    }
    if (!db.tables().contains(QStringLiteral("schema_migrations"))) {
        const auto created = exec(db, QStringLiteral("CREATE TABLE IF NOT EXISTS schema_migrations"
                                                     " (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                                                     " applied_at BIGINT NOT NULL)"));
        if (!created)
            return QStringLiteral("schema_migrations: %1").arg(created.error());
    }
    if (targetVersion < 0)
        targetVersion = latestSchemaVersion();
    for (const Migration &m : migrations()) {
        if (m.version > targetVersion)
            break;
        if (schemaVersion() >= m.version)
            continue;
        if (!db.transaction())
            return db.lastError().text();
        QString err;
        bool ok = true;
        for (const char *sql : m.statements) {
            if (const auto ran = exec(db, QString::fromLatin1(sql)); !ran) {
                err = ran.error();
                ok = false;
                break;
            }
        }
        if (ok) {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"));
            q.addBindValue(m.version);
            q.addBindValue(QString::fromLatin1(m.name));
            q.addBindValue(nowMs());
            ok = q.exec();
            if (!ok)
                err = q.lastError().text();
        }
        if (!ok || !db.commit()) {
            db.rollback();
            // Another process (a CLI run beside the server) may have applied it first.
            if (schemaVersion() >= m.version)
                continue;
            return QStringLiteral("migration %1 (%2) failed: %3").arg(m.version).arg(QString::fromLatin1(m.name), err);
        }
        qCInfo(lcDb) << "applied migration" << m.version << m.name;
    }
    return common::Done{};
}

bool Database::inTransaction() const
{
    const ConnectionSlot *slot = slotOf(m_shared.get());
    return slot && transactionDepth(slot->name) > 0;
}

QSqlQuery *Database::cachedStatement(const QString &sql) const
{
    // A hot path runs a handful of fixed statements; a bound keeps a caller that builds
    // its SQL per request from growing the cache without end.
    constexpr size_t kMaxStatements = 64;
    const QSqlDatabase db = connection();
    ConnectionSlot *slot = slotOf(m_shared.get());
    if (!slot || !db.isOpen())
        return nullptr;
    auto it = slot->statements.find(sql);
    if (it != slot->statements.end() && it->second.generation == slot->generation)
        return it->second.query.get();
    if (it == slot->statements.end()) {
        if (slot->statements.size() >= kMaxStatements)
            slot->statements.clear();
        it = slot->statements.emplace(sql, ConnectionSlot::Statement{}).first;
    }
    auto query = std::make_unique<QSqlQuery>(db);
    query->setForwardOnly(true);
    if (!query->prepare(sql)) {
        qCWarning(lcDb) << "prepare failed:" << query->lastError().text();
        if (transactionDepth(slot->name) > 0)
            noteFailureInTransaction(*query);
        slot->statements.erase(it);
        return nullptr;
    }
    it->second.query = std::move(query);
    it->second.generation = slot->generation;
    return it->second.query.get();
}

sqlite3_stmt *Database::cachedSqliteStatement(const QString &sql) const
{
    constexpr size_t kMaxStatements = 16;
    if (!isSqlite())
        return nullptr;
    ConnectionSlot *slot = slotOf(m_shared.get());
    if (slot) {
        if (const auto it = slot->sqliteStatements.find(sql); it != slot->sqliteStatements.end())
            return it->second;
    }
    const QSqlDatabase db = connection();
    slot = slotOf(m_shared.get());
    if (!slot || !db.isOpen())
        return nullptr;
    // The handle is Qt's: Debian's QSQLITE plugin links the system libsqlite3, the library
    // this binary links (scripts/deps). A Qt built with its bundled SQLite would hand a
    // handle of another library: the type name is checked, not that.
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    sqlite3 *sqlite = *static_cast<sqlite3 *const *>(handle.constData());
    const QByteArray text = sql.toUtf8();
    sqlite3_stmt *statement = nullptr;
    if (!sqlite
        || sqlite3_prepare_v3(sqlite, text.constData(), int(text.size()), SQLITE_PREPARE_PERSISTENT, &statement,
                              nullptr)
               != SQLITE_OK) {
        qCWarning(lcDb) << "prepare failed:" << (sqlite ? sqlite3_errmsg(sqlite) : "no handle");
        sqlite3_finalize(statement);
        return nullptr;
    }
    if (slot->sqliteStatements.size() >= kMaxStatements)
        slot->finalizeSqliteStatements();
    slot->sqliteStatements.emplace(sql, statement);
    return statement;
}

bool Database::ping() const
{
    QSqlDatabase db = connection();
    if (!db.isOpen())
        return false;
    QSqlQuery q(db);
    if (q.exec(QStringLiteral("SELECT 1")) && q.next())
        return true;
    // After a PostgreSQL restart this thread's connection is broken, not the database.
    return reopenBrokenConnection(q) && q.exec(QStringLiteral("SELECT 1")) && q.next();
}

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString isoFromMs(qint64 ms)
{
    if (ms <= 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

} // namespace imprint::store
