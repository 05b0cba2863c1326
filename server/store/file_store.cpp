#include "server/store/file_store.h"

#include "server/store/config.h"
#include "server/store/database.h"
#include "server/store/sql.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryFile>

#include <cstdio>

#include <fcntl.h>
#include <unistd.h>

namespace imprint::store {

namespace {

/// fsync(2) of a directory, so a rename inside it survives a crash (POSIX leaves the
/// directory entry in the cache until then). Best effort: a failure only weakens
/// durability, it does not make the file wrong.
void syncDirectory(const QString &dir)
{
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    ::fsync(fd);
    ::close(fd);
}

/// mkpath, then owner-only (0700) on every directory it had to create under the store.
/// The parent of a new directory is synced too: otherwise a crash could lose the new
/// directory's entry, and with it every file stored inside.
bool makePrivateDirectory(const QString &dir)
{
    if (QFileInfo::exists(dir))
        return true;
    if (!QDir().mkpath(dir))
        return false;
    syncDirectory(QFileInfo(dir).absolutePath());
    return QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

/// An extension a stored file may have and the Content-Type it is served with.
struct StoredType {
    const char *ext;
    const char *contentType;
};

/// Every extension the store keeps: renders, uploaded images and font files.
constexpr StoredType kStoredTypes[] = {
    {"png", "image/png"},   {"webp", "image/webp"}, {"svg", "image/svg+xml"},   {"jpeg", "image/jpeg"},
    {"avif", "image/avif"}, {"gif", "image/gif"},   {"pdf", "application/pdf"}, {"ttf", "font/ttf"},
    {"otf", "font/otf"},    {"woff", "font/woff"},  {"woff2", "font/woff2"},
};

/// The row of kStoredTypes for `ext` (lower case, no dot), null when the store keeps none.
const StoredType *storedType(const QString &ext)
{
    for (const StoredType &t : kStoredTypes)
        if (ext == QLatin1String(t.ext))
            return &t;
    return nullptr;
}

} // namespace

bool FileStore::knownExtension(const QString &ext)
{
    return storedType(ext) != nullptr;
}

QByteArray FileStore::contentTypeOf(const QString &ext)
{
    const StoredType *t = storedType(ext);
    return t ? QByteArray(t->contentType) : QByteArrayLiteral("application/octet-stream");
}

FileStore FileStore::forDataDir(const Database &db, const Config &config, const QString &dataDir)
{
    const QString dir = config.filesDir();
    if (!dir.isEmpty())
        return FileStore(QDir(dataDir).absoluteFilePath(dir));
    if (!db.isSqlite())
        return FileStore(db);
    return FileStore(dataDir + QStringLiteral("/files"));
}

bool FileStore::validName(const QString &sha256, const QString &ext)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    return knownExtension(ext) && hex.match(sha256).hasMatch();
}

std::optional<QByteArray> FileStore::read(const QString &sha256, const QString &ext) const
{
    if (!validName(sha256, ext))
        return std::nullopt;
    if (m_db) {
        QSqlQuery q(m_db->connection());
        if (!sql::run(q, QStringLiteral("SELECT content FROM blobs WHERE sha256 = ? AND ext = ?"), sha256, ext)
            || !q.next())
            return std::nullopt;
        return q.value(0).toByteArray();
    }
    QFile f(pathOf(sha256, ext));
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    return f.readAll();
}

bool FileStore::contains(const QString &sha256, const QString &ext) const
{
    if (!validName(sha256, ext))
        return false;
    if (m_db) {
        QSqlQuery q(m_db->connection());
        return sql::run(q, QStringLiteral("SELECT 1 FROM blobs WHERE sha256 = ? AND ext = ?"), sha256, ext) && q.next();
    }
    return QFileInfo::exists(pathOf(sha256, ext));
}

QString FileStore::pathOf(const QString &sha256, const QString &ext) const
{
    if (m_db || !validName(sha256, ext))
        return {};
    return m_root + QLatin1Char('/') + sha256.left(2) + QLatin1Char('/') + sha256 + QLatin1Char('.') + ext;
}

common::Expected<StoredFile, QString> FileStore::put(const QByteArray &bytes, const QString &ext) const
{
    StoredFile f;
    f.sha256 = QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    f.extension = ext;
    f.size = bytes.size();
    if (m_db) {
        if (!knownExtension(ext))
            return QStringLiteral("unknown file extension '%1'").arg(ext);
        // Same name = same bytes: a row that is already there is the result (the first of
        // two concurrent writers wins, the second finds nothing to insert).
        QSqlQuery q(m_db->connection());
        if (!sql::run(q,
                      QStringLiteral("INSERT INTO blobs (sha256, ext, size, content, created_at)"
                                     " VALUES (?, ?, ?, ?, ?) ON CONFLICT (sha256, ext) DO NOTHING"),
                      f.sha256, ext, f.size, bytes, nowMs()))
            return QStringLiteral("cannot store %1.%2 in the database").arg(f.sha256, ext);
        f.existed = q.numRowsAffected() == 0;
        return f;
    }
    f.path = pathOf(f.sha256, ext);
    if (f.path.isEmpty())
        return QStringLiteral("unknown file extension '%1'").arg(ext);
    // Same name = same bytes: an existing file of the right size is the result already.
    const QFileInfo info(f.path);
    if (info.exists() && info.size() == f.size) {
        f.existed = true;
        return f;
    }
    const QString dir = info.absolutePath();
    if (!makePrivateDirectory(dir))
        return QStringLiteral("cannot create %1").arg(dir);
    QTemporaryFile tmp(dir + QStringLiteral("/.tmp-XXXXXX"));
    tmp.setAutoRemove(true);
    // Durable before it is visible: the bytes reach the disk before the rename, and the
    // rename reaches it before we report the file stored (a crash cannot leave a name
    // pointing at a torn file, nor lose a file a database row already names).
    if (!tmp.open() || tmp.write(bytes) != bytes.size() || !tmp.flush() || ::fsync(tmp.handle()) != 0)
        return QStringLiteral("cannot write %1: %2").arg(dir, tmp.errorString());
    tmp.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    // rename(2) replaces atomically; QFile::rename refuses to overwrite, and a concurrent
    // writer of the same content may have won the race, which is fine.
    if (::rename(QFile::encodeName(tmp.fileName()).constData(), QFile::encodeName(f.path).constData()) != 0) {
        if (QFileInfo::exists(f.path)) {
            f.existed = true;
            return f;
        }
        return QStringLiteral("cannot rename into %1").arg(f.path);
    }
    tmp.setAutoRemove(false);
    syncDirectory(dir);
    return f;
}

} // namespace imprint::store
