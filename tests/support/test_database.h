#pragma once
// Which database a test runs against (docs/deployment.md, "PostgreSQL"): SQLite by
// default, or the throw-away PostgreSQL cluster of the `*_postgres` CTest variants
// (tests/CMakeLists.txt, imprint_add_postgres_variant). Shared by the end-to-end suites
// (through tests/http/httpclient.h) and the in-process ones (tests/store).

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSqlDatabase>
#include <QStringList>
#include <QUrl>

/// The PostgreSQL server the suite runs against, or empty for SQLite (the default).
/// CTest's `*_postgres` variants set IMPRINT_TEST_DATABASE_FILE to the file where
/// scripts/pg-cluster wrote the URL of the throw-away cluster it started;
/// IMPRINT_TEST_DATABASE may name a URL directly.
inline QString testDatabaseServer()
{
    static const QString url = [] {
        QString u = qEnvironmentVariable("IMPRINT_TEST_DATABASE");
        const QString file = qEnvironmentVariable("IMPRINT_TEST_DATABASE_FILE");
        if (u.isEmpty() && !file.isEmpty()) {
            QFile f(file);
            if (f.open(QIODevice::ReadOnly))
                u = QString::fromUtf8(f.readAll()).trimmed();
        }
        return u;
    }();
    return url;
}

/// True when the suite runs against PostgreSQL.
inline bool testUsesPostgres()
{
    return !testDatabaseServer().isEmpty();
}

/// Runs one SQL statement on the cluster's maintenance database with psql; true on success.
inline bool testDatabaseAdmin(const QString &sql)
{
    QProcess psql;
    psql.start(QStringLiteral("psql"), {testDatabaseServer(), QStringLiteral("-qAt"), QStringLiteral("-c"), sql});
    return psql.waitForFinished(30000) && psql.exitCode() == 0;
}

/// The PostgreSQL URL of the database that belongs to `key` (a data directory or a SQLite
/// path): one database per key, named after its absolute path and created on first use,
/// so every test keeps the isolation a fresh SQLite file gives it and a restart on the
/// same data directory finds its rows again. Empty when the suite runs against SQLite.
inline QString testDatabaseUrl(const QString &key)
{
    const QString server = testDatabaseServer();
    if (server.isEmpty() || key.isEmpty())
        return {};
    const QString name = QStringLiteral("t_")
                         + QString::fromLatin1(QCryptographicHash::hash(QFileInfo(key).absoluteFilePath().toUtf8(),
                                                                        QCryptographicHash::Sha1)
                                                   .toHex()
                                                   .left(20));
    static QStringList created;
    if (!created.contains(name)) {
        testDatabaseAdmin(QStringLiteral("CREATE DATABASE %1").arg(name)); // "already exists" is fine
        created.append(name);
    }
    const int slash = server.lastIndexOf(QLatin1Char('/'));
    return server.left(slash + 1) + name;
}

/// Opens a QtSql connection named `connectionName` to the database the server uses for
/// the data directory `dataDir`: its imprint.db file, or its PostgreSQL database. For
/// tests that check rows the API does not show. Close it with closeTestDatabase().
inline QSqlDatabase openTestDatabase(const QString &dataDir, const QString &connectionName)
{
    const QString url = testDatabaseUrl(dataDir);
    if (url.isEmpty()) {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connectionName);
        db.setDatabaseName(QDir(dataDir).filePath(QStringLiteral("imprint.db")));
        db.open();
        return db;
    }
    const QUrl u(url);
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), connectionName);
    db.setHostName(u.host());
    db.setPort(u.port(5432));
    db.setUserName(u.userName());
    db.setPassword(u.password());
    db.setDatabaseName(u.path().mid(1));
    db.open();
    return db;
}

/// Closes and removes the connection openTestDatabase() made.
inline void closeTestDatabase(const QString &connectionName)
{
    {
        QSqlDatabase db = QSqlDatabase::database(connectionName, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(connectionName);
}

/// Every byte the database of `dataDir` holds at rest, for tests that check a secret
/// never reaches it: the SQLite file and its WAL, or a pg_dump of the PostgreSQL database.
inline QByteArray dumpTestDatabase(const QString &dataDir)
{
    const QString url = testDatabaseUrl(dataDir);
    if (url.isEmpty()) {
        QByteArray all;
        for (const char *name : {"imprint.db", "imprint.db-wal"}) {
            QFile f(QDir(dataDir).filePath(QString::fromLatin1(name)));
            if (f.open(QIODevice::ReadOnly))
                all += f.readAll();
        }
        return all;
    }
    QProcess dump;
    dump.start(QStringLiteral("pg_dump"), {QStringLiteral("--data-only"), url});
    if (!dump.waitForFinished(30000) || dump.exitCode() != 0)
        return {};
    return dump.readAllStandardOutput();
}
