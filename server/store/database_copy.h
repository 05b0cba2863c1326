#pragma once
// `imprint db copy` (docs/deployment.md, "Moving a SQLite installation to PostgreSQL"):
// every row of one database into another, empty one, and the stored files along.

#include "server/store/database.h"
#include "server/store/file_store.h"

#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace imprint::store {

/// What copyDatabase() and copyFiles() moved.
struct CopyReport {
    QList<QPair<QString, qint64>> tables; ///< table name → rows, in Database::tableNames() order
    qint64 rows = 0; ///< all of them
};

/// Copies every row of `from` into `to`, table by table in migration order, inside one
/// transaction on `to`; both are migrated to the latest schema first. Refuses (nothing
/// written) when `to` already holds a row in any table. After the inserts, each table's
/// row count on `to` must equal the one on `from`, else everything is rolled back.
/// The error says what failed.
common::Expected<CopyReport, QString> copyDatabase(const Database &from, const Database &to);

/// What copyFiles() found and copied.
struct FileCopyReport {
    qint64 files = 0; ///< regular files under the source directory
    qint64 copied = 0; ///< of them, written to the target (the rest were there, same size)
    qint64 bytes = 0; ///< bytes of all `files`
};

/// Copies the file store tree `fromDir` (DATA/files: ab/<sha256>.<ext>) into `toDir`,
/// keeping relative paths; a file already there with the same size is left (the names are
/// content hashes). Then verifies every source file exists in `toDir` with its size.
/// A missing `fromDir` is an empty store. The error names a failed write or check.
common::Expected<FileCopyReport, QString> copyFiles(const QString &fromDir, const QString &toDir);

/// Copies the file store tree `fromDir` (DATA/files: ab/<sha256>.<ext>) into `to`, e.g.
/// the PostgreSQL `blobs` table that instances on that database serve from; a file `to`
/// already holds is left. Then verifies every source file reads back with its size.
/// Names that are not `<sha256>.<known ext>` are skipped (not store files).
/// The error names a failed write or read-back.
common::Expected<FileCopyReport, QString> copyFilesToStore(const QString &fromDir, const FileStore &to);

} // namespace imprint::store
