// Storage layer: versioned migrations (an older database upgrades cleanly and keeps its
// rows), and the API key rules at service level.
#include "server/service/account_service.h"
#include "server/service/api_key_service.h"
#include "server/service/signing_key_service.h"
#include "server/store/crypto.h"
#include "server/store/database.h"
#include "server/store/file_store.h"
#include "server/store/rate_windows.h"
#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "../support/test_database.h"

#include <sys/stat.h>

/// Passes when `expr` (a common::Expected<_, QString>) holds a value; fails with its error.
#define QVERIFY_OK(expr)                                                                                               \
    do {                                                                                                               \
        const auto result_ = (expr);                                                                                   \
        QVERIFY2(result_.has_value(), qPrintable(result_.error_or(QString())));                                       \
    } while (false)

using namespace imprint::store;
using imprint::service::AccountService;
using imprint::service::ApiKeyService;
using imprint::service::SigningKeyService;

class TestStore : public QObject
{
    Q_OBJECT

private:
    static DatabaseSettings sqliteAt(const QString &path)
    {
        DatabaseSettings s;
        s.driver = QStringLiteral("QSQLITE");
        s.sqlitePath = path;
        return s;
    }

    /// A migrated SQLite database in a directory of its own with a table t (x INTEGER), for
    /// the transaction cases; insert() and rows() use this thread's connection.
    struct ScratchTable {
        QTemporaryDir dir;
        Database db{sqliteAt(dir.filePath(QStringLiteral("scratch.db")))};

        /// Migrates and creates t; the error when either fails.
        imprint::common::Expected<imprint::common::Done, QString> setUp() const
        {
            auto migrated = db.migrate();
            if (!migrated)
                return migrated;
            if (!QSqlQuery(db.connection()).exec(QStringLiteral("CREATE TABLE t (x INTEGER)")))
                return QStringLiteral("CREATE TABLE t failed");
            return imprint::common::Done{};
        }
        /// INSERTs `x` into t: whether it ran.
        bool insert(int x) const
        {
            return QSqlQuery(db.connection()).exec(QStringLiteral("INSERT INTO t VALUES (%1)").arg(x));
        }
        /// t's rows as this thread's connection sees them, in order.
        QList<int> rows() const
        {
            QList<int> xs;
            QSqlQuery q(db.connection());
            q.exec("SELECT x FROM t ORDER BY x");
            while (q.next())
                xs.append(q.value(0).toInt());
            return xs;
        }
    };

    /// The database of a case that holds on either backend: the SQLite file `path`, or the
    /// PostgreSQL database of that path when the suite runs as tst_store_postgres.
    static DatabaseSettings databaseAt(const QString &path)
    {
        const QString url = testDatabaseUrl(path);
        if (url.isEmpty())
            return sqliteAt(path);
        return *DatabaseSettings::fromUrl(url, QString());
    }

    static QStringList tables(const Database &db) { return db.connection().tables(); }

private slots:
    void initTestCase()
    {
        qputenv("IMPRINT_ARGON2_LIMITS", "min");
        QVERIFY(initCrypto());
    }

    void freshDatabaseGetsEveryMigration()
    {
        QTemporaryDir dir;
        Database db(databaseAt(dir.filePath("fresh.db")));
        QCOMPARE(db.schemaVersion(), 0);
        QVERIFY_OK(db.migrate());
        QCOMPARE(db.schemaVersion(), Database::latestSchemaVersion());
        for (const char *t : {"spaces", "users", "memberships", "sessions", "api_keys", "templates", "pages",
                              "published_pages", "renders", "audit_log", "signing_keys", "webhook_endpoints",
                              "webhook_deliveries", "webhook_attempts", "render_log", "schema_migrations"})
            QVERIFY2(tables(db).contains(QString::fromLatin1(t)), t);
        // Running again is a no-op.
        QVERIFY_OK(db.migrate());
        QSqlQuery q(db.connection());
        // Every version once (1 to the latest, none missing), the newest the latest.
        QVERIFY(q.exec("SELECT COUNT(*), COUNT(DISTINCT version), MAX(version) FROM schema_migrations"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), q.value(1).toInt());
        QCOMPARE(q.value(0).toInt(), Database::latestSchemaVersion());
        QCOMPARE(q.value(2).toInt(), Database::latestSchemaVersion());
        if (testUsesPostgres())
            return;
        // SQLite settings of docs/architecture.md.
        QVERIFY(q.exec("PRAGMA journal_mode"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), QString("wal"));
        QVERIFY(q.exec("PRAGMA foreign_keys"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 1);
    }

    void filesAreOwnerOnly()
    {
        // The database holds password and key hashes; stored renders are customers'
        // images: neither is readable by other users of the machine, whatever the umask.
        QTemporaryDir dir;
        const mode_t previous = ::umask(0022);
        Database db(sqliteAt(dir.filePath("private.db")));
        QVERIFY_OK(db.migrate());
        const auto ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
        const auto groupOrOther
            = QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther | QFileDevice::WriteOther;
        QVERIFY(QFileInfo(dir.filePath("private.db")).permissions() & ownerOnly);
        QVERIFY(!(QFileInfo(dir.filePath("private.db")).permissions() & groupOrOther));
        QVERIFY(QFileInfo::exists(dir.filePath("private.db-wal")));
        QVERIFY(!(QFileInfo(dir.filePath("private.db-wal")).permissions() & groupOrOther));

        FileStore files(dir.filePath("files"));
        const auto stored = files.put("not really a png", QStringLiteral("png"));
        QVERIFY2(stored, qPrintable(stored.error_or(QString())));
        QVERIFY(!(QFileInfo(stored->path).permissions() & groupOrOther));
        QVERIFY(!(QFileInfo(QFileInfo(stored->path).absolutePath()).permissions()
                  & (groupOrOther | QFileDevice::ExeGroup | QFileDevice::ExeOther)));
        QFile read(stored->path);
        QVERIFY(read.open(QIODevice::ReadOnly));
        QCOMPARE(read.readAll(), QByteArray("not really a png"));
        ::umask(previous);
    }

    void writeTransactionsWaitInsteadOfFailing()
    {
        // A transaction that reads before it writes (publish: read page and template,
        // write the snapshot) while another connection commits a write in between. As a
        // deferred BEGIN, SQLite refused its write at once with "database is locked" (the
        // 500s of concurrent publishes); as BEGIN IMMEDIATE the other writer waits.
        QTemporaryDir dir;
        Database db(sqliteAt(dir.filePath("busy.db")));
        QVERIFY_OK(db.migrate());
        QVERIFY(QSqlQuery(db.connection()).exec("CREATE TABLE t (x INTEGER)"));

        Transaction reader(db);
        QVERIFY(reader.isOpen());
        QSqlQuery read(db.connection());
        QVERIFY(read.exec("SELECT COUNT(*) FROM t") && read.next());
        read.finish();

        bool otherCommitted = false;
        std::unique_ptr<QThread> other(QThread::create([&] {
            Transaction tx(db);
            otherCommitted = tx.isOpen() && QSqlQuery(db.connection()).exec("INSERT INTO t VALUES (2)") && tx.commit();
        }));
        other->start();
        QThread::msleep(300); // the other writer commits now (deferred) or waits for us (immediate)
        QVERIFY2(QSqlQuery(db.connection()).exec("INSERT INTO t VALUES (1)"),
                 "the reading transaction could not write");
        QVERIFY(reader.commit());
        QVERIFY(other->wait(10000));
        QVERIFY(otherCommitted);
        QSqlQuery count(db.connection());
        QVERIFY(count.exec("SELECT COUNT(*) FROM t") && count.next());
        QCOMPARE(count.value(0).toInt(), 2);
    }

    /// A Transaction opened inside another on the same connection is a savepoint: its
    /// rollback undoes only its own rows, its commit only releases them into the enclosing
    /// transaction, and afterCommit() hooks run once the outermost transaction commits,
    /// in order, never for a level that rolled back (the Idempotency-Key's request and
    /// its answer commit together through this).
    void nestedTransactionsAreSavepoints()
    {
        ScratchTable table;
        QVERIFY_OK(table.setUp());
        const Database &db = table.db;
        QStringList ran;
        afterCommit(db, [&] { ran << "now"; }); // no transaction: at once
        QCOMPARE(ran, QStringList{"now"});
        ran.clear();
        {
            Transaction outer(db);
            QVERIFY(outer.isOpen());
            QVERIFY(table.insert(1));
            afterCommit(db, [&] { ran << "outer"; });
            {
                Transaction undone(db);
                QVERIFY(undone.isOpen());
                QVERIFY(table.insert(2));
                afterCommit(db, [&] { ran << "undone"; });
            }
            {
                Transaction kept(db);
                QVERIFY(kept.isOpen());
                QVERIFY(table.insert(3));
                afterCommit(db, [&] { ran << "kept"; });
                QVERIFY(kept.commit());
            }
            QCOMPARE(table.rows(), (QList<int>{1, 3}));
            QVERIFY(ran.isEmpty()); // nothing is committed yet
            QVERIFY(outer.commit());
        }
        QCOMPARE(ran, (QStringList{"outer", "kept"}));
        QCOMPARE(table.rows(), (QList<int>{1, 3}));

        ran.clear();
        {
            Transaction outer(db);
            QVERIFY(table.insert(4));
            Transaction inner(db);
            QVERIFY(table.insert(5));
            afterCommit(db, [&] { ran << "inner"; });
            QVERIFY(inner.commit());
        } // the outer one rolls back, with what its savepoint released into it
        QVERIFY(ran.isEmpty());
        QCOMPARE(table.rows(), (QList<int>{1, 3}));
        // The connection is usable and outside any transaction again.
        {
            Transaction again(db);
            QVERIFY(again.isOpen());
            QVERIFY(table.insert(6));
            QVERIFY(again.commit());
        }
        QCOMPARE(table.rows(), (QList<int>{1, 3, 6}));
    }

    /// A DeferredTransaction begins with the first Transaction opened after it, holds every
    /// statement from then on until commit() (or rolls them back), and holds nothing
    /// before: on SQLite another connection still writes while the caller is busy before
    /// its first write (an upload being decoded), where a BEGIN IMMEDIATE would lock it out.
    void deferredTransactionBeginsAtTheFirstWrite()
    {
        ScratchTable table;
        QVERIFY_OK(table.setUp());
        const Database &db = table.db;
        for (const bool commit : {false, true}) {
            QVERIFY(QSqlQuery(db.connection()).exec("DELETE FROM t"));
            bool ran = false;
            {
                DeferredTransaction writes(db);
                QVERIFY(!writes.hasBegun());
                QVERIFY(table.insert(1)); // before the first write: not held
                bool otherWrote = false;
                std::unique_ptr<QThread> other(QThread::create([&] {
                    Transaction tx(db);
                    otherWrote = tx.isOpen() && QSqlQuery(db.connection()).exec("INSERT INTO t VALUES (9)")
                                 && tx.commit();
                }));
                other->start();
                QVERIFY(other->wait(3000)); // not locked out
                QVERIFY(otherWrote);
                {
                    Transaction first(db);
                    QVERIFY(first.isOpen());
                    QVERIFY(table.insert(2));
                    QVERIFY(first.commit());
                }
                QVERIFY(writes.hasBegun());
                QVERIFY(table.insert(3)); // after it: held
                afterCommit(db, [&] { ran = true; });
                QVERIFY(!ran);
                if (commit)
                    QVERIFY(writes.commit());
            }
            QCOMPARE(table.rows(), commit ? QList<int>({1, 2, 3, 9}) : QList<int>({1, 9}));
            QCOMPARE(ran, commit);
        }
        // Nothing written through a Transaction: commit() has nothing to do.
        DeferredTransaction idle(db);
        QVERIFY(idle.commit());
        QVERIFY(!idle.hasBegun());
        Transaction after(db);
        QVERIFY(after.isOpen());
        QVERIFY(after.commit());
    }

    /// `database.maxConnections`: one connection per querying thread, never more than the
    /// bound; a thread over it gets none (and a 503-kind error), a thread that ends frees
    /// its slot for the next.
    void connectionsAreBounded()
    {
        QTemporaryDir dir;
        DatabaseSettings settings = databaseAt(dir.filePath("bound.db"));
        settings.maxConnections = 1;
        settings.connectionWaitMs = 300;
        Database db(settings);
        const auto onThread = [&db](bool *open, bool *unavailable) {
            std::unique_ptr<QThread> t(QThread::create([&] {
                *open = db.connection().isOpen() && QSqlQuery(db.connection()).exec("SELECT 1");
                *unavailable = ServiceError::database().kind() == ServiceError::Kind::Unavailable;
            }));
            t->start();
            t->wait();
        };
        bool open = false, unavailable = true;
        onThread(&open, &unavailable);
        QVERIFY(open);
        QVERIFY(!unavailable);
        onThread(&open, &unavailable); // the first thread ended: its slot is free again
        QVERIFY(open);
        QVERIFY(db.connection().isOpen()); // this thread holds the one slot now
        onThread(&open, &unavailable);
        QVERIFY(!open);
        QVERIFY(unavailable);
        QCOMPARE(ServiceError::database().codeName(), QString("database_error")); // this thread is fine
    }

    void olderSchemaUpgradesCleanly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("old.db");
        QString spaceId, keyId;
        {
            // A database as an older build left it: only migration 1, with data in it.
            Database old(databaseAt(path));
            QVERIFY_OK(old.migrate(1));
            QCOMPARE(old.schemaVersion(), 1);
            QVERIFY(!tables(old).contains("templates"));
            AccountService accounts(old, Config::defaults());
            auto space = accounts.createSpace("legacy", "free", "test");
            QVERIFY(space.has_value());
            spaceId = space->id;
            // Written as migration 1's columns, as a build from then did (today's
            // ApiKeyService writes columns that schema does not have yet).
            keyId = "key_old";
            QSqlQuery insert(old.connection());
            insert.prepare("INSERT INTO api_keys (id, space_id, name, prefix, token_hash, created_at)"
                           " VALUES (?, ?, ?, ?, ?, ?)");
            for (const QVariant &v : {QVariant(keyId), QVariant(spaceId), QVariant("old key"), QVariant("imp_abcdef"),
                                      QVariant("hash-of-old-key"), QVariant(nowMs())})
                insert.addBindValue(v);
            QVERIFY2(insert.exec(), qPrintable(insert.lastError().text()));
        }
        Database db(databaseAt(path));
        QCOMPARE(db.schemaVersion(), 1);
        QVERIFY_OK(db.migrate());
        QCOMPARE(db.schemaVersion(), Database::latestSchemaVersion());
        QVERIFY(tables(db).contains("templates"));
        QVERIFY(tables(db).contains("renders"));
        // Old rows survive, and new tables accept rows referencing them.
        auto space = SpaceRepository(db).byId(spaceId);
        QVERIFY(space && *space);
        QCOMPARE((*space)->name, QString("legacy"));
        const auto key = ApiKeyRepository(db).activeById(spaceId, keyId);
        QVERIFY(key && *key);
        // Keys from before scopes could only render, and still can (migration 5).
        QCOMPARE((*key)->scopes, QStringList{"render"});
        QSqlQuery q(db.connection());
        q.prepare(
            "INSERT INTO templates (id, space_id, name, document, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)");
        q.addBindValue("tpl_1");
        q.addBindValue(spaceId);
        q.addBindValue("t");
        q.addBindValue("{}");
        q.addBindValue(nowMs());
        q.addBindValue(nowMs());
        QVERIFY(q.exec());
        // Foreign keys are enforced.
        q.prepare(
            "INSERT INTO templates (id, space_id, name, document, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)");
        q.addBindValue("tpl_2");
        q.addBindValue("spc_missing");
        q.addBindValue("t");
        q.addBindValue("{}");
        q.addBindValue(nowMs());
        q.addBindValue(nowMs());
        QVERIFY(!q.exec());
    }

    // Migration 11 (issue 31): a template saved before versions existed becomes version 1
    // of itself, with its document; the next save is version 2. (On PostgreSQL too:
    // tst_store_postgres.)
    void templateVersionsMigration()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("v8.db");
        QString spaceId;
        const QString document = QStringLiteral("{\"name\":\"Old\",\"width\":10,\"height\":10,"
                                                "\"root\":{\"type\":\"div\"}}");
        {
            Database old(databaseAt(path));
            QVERIFY_OK(old.migrate(8));
            spaceId = AccountService(old, Config::defaults()).createSpace("versions", "free", "test")->id;
            QSqlQuery q(old.connection());
            QVERIFY(q.prepare("INSERT INTO templates (id, space_id, name, document, created_at, updated_at)"
                              " VALUES ('tpl_old', ?, 'Old', ?, 1000, 2000)"));
            q.addBindValue(spaceId);
            q.addBindValue(document);
            QVERIFY(q.exec());
            QVERIFY(q.exec("INSERT INTO pages (id, space_id, template_id, name, variables, created_at, updated_at)"
                           " VALUES ('pg_old', '" + spaceId + "', 'tpl_old', 'Old', '{}', 1000, 2000)"));
        }
        Database db(databaseAt(path));
        QVERIFY_OK(db.migrate());
        const auto tmpl = TemplateRepository(db).byId(spaceId, "tpl_old");
        QVERIFY(tmpl && *tmpl);
        QCOMPARE((*tmpl)->version, 1);
        TemplateVersionRepository versions(db);
        QCOMPARE(*versions.count("tpl_old"), 1);
        const auto v1 = versions.byNumber("tpl_old", 1);
        QVERIFY(v1 && *v1);
        QCOMPARE((*v1)->document.value("name").toString(), QString("Old"));
        QCOMPARE((*v1)->actor, QString("migration"));
        QCOMPARE((*v1)->createdAt, qint64(2000)); // the time of the save it records
        const auto page = PageRepository(db).byId(spaceId, "pg_old");
        QVERIFY(page && *page);
        QVERIFY(!(*page)->templateVersion); // follows the latest
        // The next save counts on from it.
        TemplateRecord next = **tmpl;
        next.updatedAt = 3000;
        QVERIFY(*TemplateRepository(db).update(next));
        QCOMPARE((*TemplateRepository(db).byId(spaceId, "tpl_old"))->version, 2);
    }

    // Migration 7: fonts and assets of a space, unique per content within a space, gone
    // with their space; a database at version 6 gains both tables and keeps its rows.
    void fontsAndAssetsMigration()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("v6.db");
        QString spaceId, otherId;
        {
            Database old(databaseAt(path));
            QVERIFY_OK(old.migrate(6));
            QVERIFY(!tables(old).contains("fonts") && !tables(old).contains("assets"));
            AccountService accounts(old, Config::defaults());
            spaceId = accounts.createSpace("brand", "free", "test")->id;
            otherId = accounts.createSpace("other", "free", "test")->id;
        }
        Database db(databaseAt(path));
        QVERIFY_OK(db.migrate(7));
        QCOMPARE(db.schemaVersion(), 7);
        QVERIFY(tables(db).contains("fonts") && tables(db).contains("assets"));

        FontRepository fonts(db);
        FontRecord font{"fnt_1", spaceId, "Brand", 700, "italic", "woff2", QString(64, u'a'), 1234, nowMs()};
        QVERIFY(fonts.insert(font));
        font.id = "fnt_2"; // the same bytes again in the same space: refused by the schema
        QVERIFY(!fonts.insert(font));
        font.spaceId = otherId; // in another space: a row of its own
        QVERIFY(fonts.insert(font));
        const auto found = fonts.findBySha(spaceId, QString(64, u'a'));
        QVERIFY(found && *found);
        QCOMPARE((*found)->id, QString("fnt_1"));
        QCOMPARE((*found)->weight, 700);
        QCOMPARE((*found)->style, QString("italic"));
        QCOMPARE(*fonts.count(spaceId), 1);
        QCOMPARE(*fonts.countSha(QString(64, u'a')), 2);
        QCOMPARE(*fonts.remove(otherId, "fnt_1"), false); // another space's id
        QCOMPARE(*fonts.remove(spaceId, "fnt_1"), true);

        AssetRepository assets(db);
        QVERIFY(assets.insert({"ast_1", spaceId, "image/png", "png", QString(64, u'b'), 40, 20, 1000, nowMs()}));
        QVERIFY(assets.insert({"ast_2", spaceId, "image/gif", "gif", QString(64, u'c'), 1, 1, 500, nowMs()}));
        QCOMPARE(*assets.totalBytes(spaceId), qint64(1500));
        QCOMPARE(*assets.totalBytes(otherId), qint64(0));
        QVERIFY(!*assets.find(otherId, "ast_1"));
        const auto asset = assets.find(spaceId, "ast_1");
        QVERIFY(asset && *asset);
        QCOMPARE((*asset)->width, 40);
        QCOMPARE(assets.list(spaceId, 0, 1)->size(), 1);

        // Deleting the space takes its fonts and assets with it.
        QSqlQuery q(db.connection());
        QVERIFY(q.exec(QStringLiteral("DELETE FROM spaces WHERE id = '%1'").arg(otherId)));
        QCOMPARE(*fonts.countSha(QString(64, u'a')), 0);
    }

    void apiKeyLifecycle()
    {
        QTemporaryDir dir;
        Database db(databaseAt(dir.filePath("keys.db")));
        QVERIFY(db.migrate());
        AccountService accounts(db, Config::defaults());
        ApiKeyService keys(db);
        const QString a = accounts.createSpace("a", "pro", "test")->id;
        const QString b = accounts.createSpace("b", "free", "test")->id;
        QCOMPARE(accounts.createSpace("a", "free", "test").error().kind(), ServiceError::Kind::Conflict);
        QCOMPARE(accounts.createSpace("c", "platinum", "test").error().field, QString("plan"));

        auto created = keys.create(a, "k", 0, {});
        QVERIFY(created.has_value());
        QVERIFY(created->token.startsWith("imp_"));
        QCOMPARE(created->token.size(), 44);
        auto who = keys.authenticate(created->token);
        QVERIFY(who.has_value());
        QCOMPARE(who->space.plan, QString("pro"));
        QCOMPARE(keys.revoke(b, created->key.id, "test").error().kind(), ServiceError::Kind::NotFound);
        QVERIFY(keys.authenticate(created->token).has_value());
        QVERIFY(keys.revoke(a, created->key.id, "test").has_value());
        QCOMPARE(keys.authenticate(created->token).error().codeName(), QString("invalid_token"));
        QCOMPARE(keys.authenticate("imp_" + QString(40, 'x')).error().kind(), ServiceError::Kind::Unauthorized);
        // The token is stored only as its hash.
        QSqlQuery q(db.connection());
        QVERIFY(q.exec("SELECT token_hash FROM api_keys"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toString(), sha256Hex(created->token));
        q.finish(); // no read left open: the checkpoint below must find none

        // Pagination arithmetic.
        for (int i = 0; i < 7; ++i)
            QVERIFY(keys.create(b, QString("k%1").arg(i), 0, {}).has_value());
        auto page = keys.listPage(b, 2, 5);
        QVERIFY(page.has_value());
        QCOMPARE(page->count, 7);
        QCOMPARE(page->pagesCount, 2);
        QCOMPARE(page->items.size(), 2);
        QCOMPARE(keys.listPage(b, 9, 5)->items.size(), 0);

        // An expired key authorises nothing, so it is neither listed nor counted.
        const auto shortLived = keys.create(b, "short-lived", nowMs() + 50, {});
        QVERIFY(shortLived.has_value());
        QCOMPARE(keys.listPage(b, 1, 100)->count, 8);
        QTest::qWait(120);
        page = keys.listPage(b, 1, 100);
        QCOMPARE(page->count, 7);
        QCOMPARE(page->items.size(), 7);
        for (const auto &k : page->items)
            QVERIFY(k.id != shortLived->key.id);
        QCOMPARE(keys.authenticate(shortLived->token).error().codeName(), QString("token_expired"));

        // Bearer-token lookups run on a statement prepared once per connection
        // (Database::cachedStatement()): a key revoked by another connection stops working
        // on the next request, and the cached statement leaves no read open behind it (on
        // SQLite an unfinished SELECT pins its snapshot, so the revocation would go unseen
        // and a checkpoint could not complete).
        const QString cachedSpace = accounts.createSpace("cached", "pro", "test")->id;
        const auto cachedKey = keys.create(cachedSpace, "k", 0, {});
        QVERIFY(cachedKey.has_value());
        for (int i = 0; i < 3; ++i)
            QVERIFY(keys.authenticate(cachedKey->token).has_value());
        QVERIFY(db.cachedStatement(QStringLiteral("SELECT 1")) != nullptr);
        QVERIFY(db.cachedStatement(QStringLiteral("SELECT 1")) == db.cachedStatement(QStringLiteral("SELECT 1")));
        QVERIFY(db.cachedStatement(QStringLiteral("SELECT nonsense FROM")) == nullptr);

        // Another connection revokes the key right after a lookup that found it, and
        // (SQLite) checkpoints the WAL: no reader may still hold the old snapshot.
        QVERIFY(keys.authenticate(cachedKey->token).has_value());
        bool revoked = false;
        int checkpointBusy = -1;
        std::unique_ptr<QThread> other(QThread::create([&] {
            revoked = keys.revoke(cachedSpace, cachedKey->key.id, "test").has_value();
            if (!db.isSqlite())
                return;
            QSqlQuery checkpoint(db.connection());
            if (checkpoint.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")) && checkpoint.next())
                checkpointBusy = checkpoint.value(0).toInt();
        }));
        other->start();
        QVERIFY(other->wait(10000));
        QVERIFY(revoked);
        if (db.isSqlite())
            QCOMPARE(checkpointBusy, 0);
        QCOMPARE(keys.authenticate(cachedKey->token).error().codeName(), QString("invalid_token"));

        // A key is answered from memory only while the auth generation stands: another
        // instance (its own service, its own memory) revoking a key this one remembers, or
        // changing its space's plan, reaches this one's next lookup.
        const auto remembered = keys.create(cachedSpace, "remembered", 0, {});
        QVERIFY(remembered.has_value());
        for (int i = 0; i < 2; ++i)
            QVERIFY(keys.authenticate(remembered->token).has_value());
        ApiKeyService otherInstance(db);
        QVERIFY(otherInstance.revoke(cachedSpace, remembered->key.id, "test").has_value());
        QCOMPARE(keys.authenticate(remembered->token).error().codeName(), QString("invalid_token"));
        const auto planKey = keys.create(b, "plan", 0, {});
        QVERIFY(planKey.has_value());
        for (int i = 0; i < 2; ++i)
            QCOMPARE(keys.authenticate(planKey->token)->space.plan, QString("free"));
        QVERIFY(AccountService(db, Config::defaults()).setPlan("b", "pro", "test").has_value());
        QCOMPARE(keys.authenticate(planKey->token)->space.plan, QString("pro"));
    }

    void keyPagingLimitsAreTheServices()
    {
        // The bounds of a key page hold for every caller, not only for the HTTP query
        // parser: outside 1..maximum is refused, naming the parameter.
        QTemporaryDir dir;
        Database db(databaseAt(dir.filePath("paging.db")));
        QVERIFY(db.migrate());
        ApiKeyService keys(db);
        const QString space = AccountService(db, Config::defaults()).createSpace("p", "free", "test")->id;
        QCOMPARE(keys.listPage(space, 1, ApiKeyService::kMaxPerPage)->perPage, ApiKeyService::kMaxPerPage);
        QCOMPARE(keys.listPage(space, 1, 1000).error().field, QString("perPage"));
        QCOMPARE(keys.listPage(space, ApiKeyService::kMaxPage + 1, 5).error().field, QString("page"));
        QCOMPARE(keys.listPage(space, 1, 0).error().field, QString("perPage"));
        QCOMPARE(keys.listPage(space, 0, 5).error().codeName(), QString("invalid_parameter"));
        QCOMPARE(ApiKeyService::managerRoles(), (std::vector<Role>{Role::Owner, Role::Admin}));
    }

    void passwordsAndLogin()
    {
        QTemporaryDir dir;
        Database db(databaseAt(dir.filePath("users.db")));
        QVERIFY(db.migrate());
        AccountService accounts(db, Config::defaults());
        bool created = false;
        auto m = accounts.addUser("Someone@Example.test", "longenough", "newspace", Role::Admin, "test", &created);
        QVERIFY(m.has_value());
        QVERIFY(created);
        QCOMPARE(m->user.email, QString("someone@example.test"));
        QCOMPARE(m->space.plan, QString("pro")); // spaces.defaultPlan's default
        QVERIFY(m->user.passwordHash.startsWith("$argon2id$"));
        QCOMPARE(accounts.addUser("x@y.test", "short", "newspace", Role::Member, "test").error().field,
                 QString("password"));
        const auto before = accounts.login("someone@example.test", "longenough", {});
        QVERIFY(before.has_value());
        const auto kept = accounts.login("someone@example.test", "longenough", {});
        QVERIFY(kept.has_value());
        QCOMPARE(accounts.login("someone@example.test", "wrongwrong", {}).error().codeName(),
                 QString("invalid_credentials"));
        // A new password ends the user's other sessions; the caller's own may stay.
        QVERIFY(accounts.setPassword("someone@example.test", "password-2", "test", kept->token).has_value());
        QVERIFY(!accounts.session(before->token).has_value());
        QVERIFY(accounts.session(kept->token).has_value());
        // From the CLI (no session of its own) every session ends.
        QVERIFY(accounts.setPassword("someone@example.test", "anotherone", "test").has_value());
        QVERIFY(!accounts.session(kept->token).has_value());
        QVERIFY(!accounts.login("someone@example.test", "longenough", {}).has_value());
        auto login = accounts.login("someone@example.test", "anotherone", {});
        QVERIFY(login.has_value());
        QCOMPARE(accounts.session(login->token)->membership.role, Role::Admin);
        QVERIFY(accounts.logout(login->token).has_value());
        QVERIFY(!accounts.session(login->token).has_value());
    }

    void failedLoginsAreThrottled()
    {
        // The limit is the login use case's, whichever transport asks: after the
        // configured failures for one e-mail even the right password waits, with a
        // Retry-After, and another address is refused too (the e-mail's count).
        QTemporaryDir dir;
        Database db(databaseAt(dir.filePath("throttle.db")));
        QVERIFY(db.migrate());
        const Config config = Config::defaults();
        AccountService accounts(db, config);
        QVERIFY(accounts.addUser("t@x.test", "password123", "t", Role::Owner, "test").has_value());
        for (int i = 0; i < config.loginFailureLimit(); ++i)
            QCOMPARE(accounts.login(" T@x.test", "wrong-wrong", {}, "10.0.0.1").error().codeName(),
                     QString("invalid_credentials"));
        const auto refused = accounts.login("t@x.test", "password123", {}, "10.0.0.2");
        QCOMPARE(refused.error().kind(), ServiceError::Kind::TooManyAttempts);
        QCOMPARE(refused.error().codeName(), QString("too_many_login_attempts"));
        QVERIFY(refused.error().retryAfterSeconds > 0);
        QCOMPARE(accounts.checkLoginAllowed("t@x.test", "10.0.0.3").error().kind(),
                 ServiceError::Kind::TooManyAttempts);
        QVERIFY(accounts.checkLoginAllowed("other@x.test", "10.0.0.3").has_value());
    }

    void hmacIsRfc4231()
    {
        // RFC 4231 §4.3, test case 2.
        QCOMPARE(hmacSha256("Jefe", "what do ya want for nothing?").toHex(),
                 QByteArray("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"));
    }

    void sha256HexIsFips180()
    {
        // FIPS 180-2 appendix B.1 and B.2, and a token's shape: stored token hashes must not
        // change when the implementation does.
        QCOMPARE(sha256Hex(QStringLiteral("abc")),
                 QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(sha256Hex(QStringLiteral("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
                 QStringLiteral("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
        QCOMPARE(sha256Hex(QStringLiteral("imp_ü")),
                 QString::fromLatin1(QCryptographicHash::hash(QStringLiteral("imp_ü").toUtf8(),
                                                              QCryptographicHash::Sha256)
                                         .toHex()));
    }

    void secretBoxSealsAndRefusesTampering()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("signing.key");
        auto box = SecretBox::openOrCreate(path);
        QVERIFY2(box, qPrintable(box.error_or(QString())));
        QCOMPARE(QFileInfo(path).size(), qint64(32));
        struct stat st = {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0600));
        const QByteArray sealed = box->seal("sks_secret");
        QVERIFY(!sealed.contains("sks_secret"));
        QVERIFY(box->seal("sks_secret") != sealed); // a fresh nonce each time
        QCOMPARE(box->open(sealed).value_or(QByteArray()), QByteArray("sks_secret"));
        QByteArray tampered = sealed;
        tampered[tampered.size() - 1] = char(tampered.at(tampered.size() - 1) ^ 1);
        QVERIFY(!box->open(tampered));
        QVERIFY(!box->open(sealed.left(10)));
        // The same file opens the same box (CLI and server share it); another key does not.
        QCOMPARE(SecretBox::openOrCreate(path)->open(sealed).value_or(QByteArray()), QByteArray("sks_secret"));
        QVERIFY(!SecretBox::openOrCreate(dir.filePath("other.key"))->open(sealed));
        QFile bad(dir.filePath("short.key"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("short");
        bad.close();
        QVERIFY(!SecretBox::openOrCreate(bad.fileName()));
    }

    void canonicalStringIsRfc3986Sorted()
    {
        const QString c = SigningKeyService::canonicalString(
            "/api/v1/render",
            {{"tweaks.title", "Hi & bye/ü~"}, {"kid", "sgk_1"}, {"a", "2"}, {"a", "10"}, {"sig", "x"}, {"Z", "*+ "}});
        QCOMPARE(c, QString("/api/v1/render\nZ=%2A%2B%20&a=10&a=2&kid=sgk_1&tweaks.title=Hi%20%26%20bye%2F%C3%BC~"));
    }

    void signingKeysVerifyUrls()
    {
        QTemporaryDir dir;
        Database db(databaseAt(dir.filePath("sign.db")));
        QVERIFY(db.migrate());
        AccountService accounts(db, Config::defaults());
        const auto space = accounts.createSpace("s", "pro", "test");
        QVERIFY(space.has_value());
        SigningKeyService keys(db, dir.path());
        QCOMPARE(keys.create(space->id, "  ", {}).error().codeName(), QString("invalid_name"));
        const auto created = keys.create(space->id, "blog", {});
        QVERIFY(created.has_value());
        QVERIFY(created->key.id.startsWith("sgk_"));
        QCOMPARE(keys.secretOf(space->id, created->key.id).value_or(QString()), created->secret);
        QCOMPARE(AuditRepository(db).count("signing_key.create").value_or(0), 1);

        const QList<QPair<QString, QString>> items = {{"pageId", "pg_1"}, {"kid", created->key.id}, {"exp", "2000"}};
        const QString sig = SigningKeyService::signature(created->secret,
                                                         SigningKeyService::canonicalString("/api/v1/render", items));
        auto withSig = items;
        withSig.append({"sig", sig});
        const auto grant = keys.verify("/api/v1/render", withSig, 1000);
        QVERIFY(grant.has_value());
        QCOMPARE(grant->space.id, space->id);
        QCOMPARE(grant->expiresAt, qint64(2000));
        QCOMPARE(keys.verify("/api/v1/render", withSig, 2001).error().codeName(), QString("signature_expired"));
        QCOMPARE(keys.verify("/api/v1/other", withSig, 1000).error().codeName(), QString("signature_invalid"));
        auto changed = withSig;
        changed[0].second = "pg_2";
        QCOMPARE(keys.verify("/api/v1/render", changed, 1000).error().kind(), ServiceError::Kind::Forbidden);
        QCOMPARE(keys.invalidCount(), quint64(2));
        QCOMPARE(keys.expiredCount(), quint64(1));

        QVERIFY(keys.revoke({}, created->key.id, "cli").has_value());
        QCOMPARE(keys.verify("/api/v1/render", withSig, 1000).error().codeName(), QString("signature_invalid"));
        QCOMPARE(keys.revoke(space->id, created->key.id, "cli").error().codeName(), QString("signing_key_not_found"));
        QCOMPARE(AuditRepository(db).count("signing_key.revoke").value_or(0), 1);
    }

    // Migration 8: the database file store (what instances sharing PostgreSQL use, run
    // here on SQLite, whose SQL is the same): content-addressed rows, written once, read
    // back byte for byte; malformed or unknown names are never stored nor found.
    void databaseFileStore()
    {
        QTemporaryDir dir;
        Database db(sqliteAt(dir.filePath("blobs.db")));
        QVERIFY_OK(db.migrate());
        const FileStore files(db);
        QVERIFY(files.inDatabase());
        QByteArray bytes("\x89PNG\r\n\x1a\n", 8);
        bytes.append(QByteArray(1000, '\0'));
        const auto first = files.put(bytes, "png");
        QVERIFY2(first.has_value(), qPrintable(first.error_or(QString())));
        QVERIFY(!first->existed);
        QVERIFY(first->path.isEmpty());
        QCOMPARE(first->size, qint64(bytes.size()));
        const auto again = files.put(bytes, "png");
        QVERIFY(again.has_value() && again->existed);
        QCOMPARE(files.read(first->sha256, "png").value_or(QByteArray()), bytes);
        QVERIFY(files.contains(first->sha256, "png"));
        QVERIFY(!files.contains(first->sha256, "webp"));
        QVERIFY(!files.read(first->sha256, "webp").has_value());
        QVERIFY(!files.read("../" + first->sha256.mid(3), "png").has_value());
        QVERIFY(!files.put(bytes, "exe").has_value());
        QSqlQuery q(db.connection());
        QVERIFY(q.exec("SELECT COUNT(*) FROM blobs") && q.next());
        QCOMPARE(q.value(0).toInt(), 1);
        QVERIFY(!QFileInfo::exists(dir.filePath("files")));

        // forDataDir(): SQLite keeps the disk store; files.dir wins over either.
        QVERIFY(!FileStore::forDataDir(db, Config::defaults(), dir.path()).inDatabase());
        QCOMPARE(FileStore::forDataDir(db, Config::defaults(), dir.path()).root(), dir.path() + "/files");
        QFile config(dir.filePath("config.json"));
        QVERIFY(config.open(QIODevice::WriteOnly) && config.write(R"({"files": {"dir": "shared"}})") > 0);
        config.close();
        const auto loaded = Config::load(dir.path());
        QVERIFY2(loaded.has_value(), qPrintable(loaded.error_or(QString())));
        const FileStore shared = FileStore::forDataDir(db, *loaded, dir.path());
        QVERIFY(!shared.inDatabase());
        QCOMPARE(shared.root(), dir.filePath("shared"));
    }

    // Migration 8: the shared rate-limit windows count hits per key and window atomically.
    void rateWindowsCount()
    {
        QTemporaryDir dir;
        Database db(sqliteAt(dir.filePath("rate.db")));
        QVERIFY_OK(db.migrate());
        const RateWindows windows(db);
        QCOMPARE(windows.hit("key:a", 1000).value_or(-1), 1);
        QCOMPARE(windows.hit("key:a", 1000).value_or(-1), 2);
        QCOMPARE(windows.hit("key:b", 1000).value_or(-1), 1);
        QCOMPARE(windows.hit("key:a", 2000).value_or(-1), 1);
        QVERIFY(windows.prune(2000));
        QCOMPARE(windows.hit("key:a", 1000).value_or(-1), 1); // that window was deleted
        QCOMPARE(windows.hit("key:a", 2000).value_or(-1), 2);
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
