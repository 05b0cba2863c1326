#pragma once
// Content-addressed store of rendered files (docs/architecture.md):
// DATA/files/ab/<sha256>.<ext>, where "ab" is the first two hex digits. A file is written
// to a temporary file in the same directory and renamed into place, so readers never see
// a partial file and concurrent writers of the same bytes cannot corrupt each other.
// With PostgreSQL and no `files.dir`, the same names live in the `blobs` table instead, so
// every instance sharing the database serves every file (docs/deployment.md).

#include "server/common/expected.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace imprint::store {

class Config;
class Database;

/// Where put() left a file.
struct StoredFile {
    QString sha256; ///< lower-case hex of the bytes
    QString extension; ///< "png", "webp", "svg", "jpeg", "avif"
    QString path; ///< absolute path on disk; empty in the database store
    qint64 size = 0; ///< bytes
    bool existed = false; ///< the same content was already stored
};

/// Thread-safe (no shared mutable state; the file system or the database arbitrates).
class FileStore
{
public:
    /// Files live under `root` (normally DATA/files); created on first put().
    explicit FileStore(QString root)
        : m_root(std::move(root))
    { }
    /// Files live in `db`'s `blobs` table (migration 8); `db` must outlive this.
    explicit FileStore(const Database &db)
        : m_db(&db)
    { }

    /// The store a server or CLI command on `dataDir` uses: `files.dir` when configured (a
    /// directory every instance mounts; relative to `dataDir`), else with PostgreSQL the
    /// database, else `dataDir/files`.
    static FileStore forDataDir(const Database &db, const Config &config, const QString &dataDir);

    /// Stores `bytes` under their SHA-256 with extension `ext` (a knownExtension()).
    /// The error says why the directory, file or row could not be written.
    common::Expected<StoredFile, QString> put(const QByteArray &bytes, const QString &ext) const;

    /// The bytes of `sha256`.`ext`; std::nullopt when the name is malformed, nothing is
    /// stored under it or it cannot be read.
    std::optional<QByteArray> read(const QString &sha256, const QString &ext) const;
    /// True when `sha256`.`ext` is stored (a malformed name never is).
    bool contains(const QString &sha256, const QString &ext) const;
    /// True when files live in the database.
    bool inDatabase() const { return m_db != nullptr; }

    /// Path of `sha256`.`ext` when it is a well-formed name (64 lower-case hex digits and
    /// a known extension) — whether or not the file exists; empty otherwise.
    QString pathOf(const QString &sha256, const QString &ext) const;

    /// True for the render formats "png", "webp", "svg", "jpeg", "avif", the asset format
    /// "gif" and the font formats "ttf", "otf", "woff", "woff2".
    static bool knownExtension(const QString &ext);
    /// Content type of a known extension ("image/png", ...).
    static QByteArray contentTypeOf(const QString &ext);

    const QString &root() const { return m_root; }

    /// True for 64 lower-case hex digits and a knownExtension().
    static bool validName(const QString &sha256, const QString &ext);

private:
    QString m_root;
    const Database *m_db = nullptr;
};

} // namespace imprint::store
