#include "server/store/database_copy.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

namespace imprint::store {

namespace {

/// The rows of `table` in `db`, or "TABLE: the driver's message".
common::Expected<qint64, QString> countRows(QSqlDatabase db, const QString &table)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM %1").arg(table)) || !q.next())
        return QStringLiteral("%1: %2").arg(table, q.lastError().text());
    return q.value(0).toLongLong();
}

} // namespace

common::Expected<CopyReport, QString> copyDatabase(const Database &from, const Database &to)
{
    if (const auto migrated = from.migrate(); !migrated)
        return migrated.error();
    if (const auto migrated = to.migrate(); !migrated)
        return migrated.error();
    QSqlDatabase source = from.connection();
    QSqlDatabase target = to.connection();
    const QStringList tables = Database::tableNames();
    for (const QString &table : tables) {
        const auto rows = countRows(target, table);
        if (!rows)
            return rows.error();
        if (*rows > 0)
            return QStringLiteral("the target database is not empty (table %1 has %2 rows); copy into a new one")
                .arg(table)
                .arg(*rows);
    }
    if (!target.transaction())
        return target.lastError().text();
    const auto abort = [&](const QString &message) {
        target.rollback();
        return common::Unexpected<QString>(message);
    };
    CopyReport report;
    for (const QString &table : tables) {
        QSqlQuery read(source);
        read.setForwardOnly(true);
        if (!read.exec(QStringLiteral("SELECT * FROM %1").arg(table)))
            return abort(QStringLiteral("%1: %2").arg(table, read.lastError().text()));
        const QSqlRecord columns = read.record();
        QStringList names, marks;
        for (int i = 0; i < columns.count(); ++i) {
            names.append(columns.fieldName(i));
            marks.append(QStringLiteral("?"));
        }
        QSqlQuery write(target);
        if (!write.prepare(QStringLiteral("INSERT INTO %1 (%2) VALUES (%3)")
                               .arg(table, names.join(QStringLiteral(", ")), marks.join(QStringLiteral(", ")))))
            return abort(QStringLiteral("%1: %2").arg(table, write.lastError().text()));
        qint64 copied = 0;
        while (read.next()) {
            for (int i = 0; i < names.size(); ++i)
                write.bindValue(i, read.value(i));
            if (!write.exec())
                return abort(QStringLiteral("%1, row %2: %3").arg(table).arg(copied + 1).arg(write.lastError().text()));
            ++copied;
        }
        // Verified inside the transaction: a mismatch leaves the target as empty as it was.
        const auto sourceRows = countRows(source, table);
        const auto targetRows = countRows(target, table);
        if (!sourceRows || !targetRows)
            return abort(!sourceRows ? sourceRows.error() : targetRows.error());
        if (*sourceRows != copied || *targetRows != copied)
            return abort(QStringLiteral("%1: %2 rows in the source, %3 copied, %4 in the target")
                             .arg(table)
                             .arg(*sourceRows)
                             .arg(copied)
                             .arg(*targetRows));
        report.tables.append({table, copied});
        report.rows += copied;
    }
    if (!target.commit())
        return abort(target.lastError().text());
    return report;
}

common::Expected<FileCopyReport, QString> copyFiles(const QString &fromDir, const QString &toDir)
{
    FileCopyReport report;
    const QDir source(fromDir);
    const QDir target(toDir);
    QDirIterator it(fromDir, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info(path);
        const QString relative = source.relativeFilePath(path);
        if (relative.contains(QLatin1String(".tmp")) || info.fileName().startsWith(u'.'))
            continue; // a write in progress (FileStore::put renames into place)
        const QString destination = target.filePath(relative);
        ++report.files;
        report.bytes += info.size();
        if (QFileInfo(destination).size() == info.size())
            continue;
        if (!QDir().mkpath(QFileInfo(destination).absolutePath()))
            return QStringLiteral("cannot create %1").arg(QFileInfo(destination).absolutePath());
        QFile::remove(destination);
        if (!QFile::copy(path, destination))
            return QStringLiteral("cannot copy %1 to %2").arg(path, destination);
        ++report.copied;
    }
    // Every source file is in the target with its size.
    QDirIterator check(fromDir, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    qint64 verified = 0;
    while (check.hasNext()) {
        const QString path = check.next();
        const QString relative = source.relativeFilePath(path);
        if (relative.contains(QLatin1String(".tmp")) || QFileInfo(path).fileName().startsWith(u'.'))
            continue;
        if (QFileInfo(target.filePath(relative)).size() != QFileInfo(path).size())
            return QStringLiteral("%1 differs after the copy").arg(target.filePath(relative));
        ++verified;
    }
    if (verified != report.files)
        return QStringLiteral("%1 files in the source, %2 verified").arg(report.files).arg(verified);
    return report;
}

common::Expected<FileCopyReport, QString> copyFilesToStore(const QString &fromDir, const FileStore &to)
{
    FileCopyReport report;
    struct Name {
        QString sha256, extension;
        qint64 size = 0;
    };
    QList<Name> names;
    QDirIterator it(fromDir, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info(it.next());
        const QString sha = info.completeBaseName();
        const QString ext = info.suffix();
        if (!FileStore::validName(sha, ext))
            continue; // a write in progress (FileStore::put renames into place) or no store file
        ++report.files;
        report.bytes += info.size();
        names.append({sha, ext, info.size()});
        if (to.contains(sha, ext))
            continue;
        QFile file(info.absoluteFilePath());
        if (!file.open(QIODevice::ReadOnly))
            return QStringLiteral("cannot read %1").arg(info.absoluteFilePath());
        if (const auto stored = to.put(file.readAll(), ext); !stored)
            return stored.error();
        ++report.copied;
    }
    for (const Name &n : names) {
        const auto bytes = to.read(n.sha256, n.extension);
        if (!bytes || bytes->size() != n.size)
            return QStringLiteral("%1.%2 differs after the copy").arg(n.sha256, n.extension);
    }
    return report;
}

} // namespace imprint::store
