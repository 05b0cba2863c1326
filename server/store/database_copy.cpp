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

std::optional<qint64> countRows(QSqlDatabase db, const QString &table, QString *error)
{
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM %1").arg(table)) || !q.next()) {
        *error = QStringLiteral("%1: %2").arg(table, q.lastError().text());
        return std::nullopt;
    }
    return q.value(0).toLongLong();
}

} // namespace

std::optional<CopyReport> copyDatabase(const Database &from, const Database &to, QString *error)
{
    if (!from.migrate(error) || !to.migrate(error))
        return std::nullopt;
    QSqlDatabase source = from.connection();
    QSqlDatabase target = to.connection();
    const QStringList tables = Database::tableNames();
    for (const QString &table : tables) {
        const auto rows = countRows(target, table, error);
        if (!rows)
            return std::nullopt;
        if (*rows > 0) {
            *error = QStringLiteral("the target database is not empty (table %1 has %2 rows); copy into a new one")
                         .arg(table)
                         .arg(*rows);
            return std::nullopt;
        }
    }
    if (!target.transaction()) {
        *error = target.lastError().text();
        return std::nullopt;
    }
    const auto abort = [&](const QString &message) {
        target.rollback();
        *error = message;
        return std::nullopt;
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
        const auto sourceRows = countRows(source, table, error);
        const auto targetRows = countRows(target, table, error);
        if (!sourceRows || !targetRows)
            return abort(*error);
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

std::optional<FileCopyReport> copyFiles(const QString &fromDir, const QString &toDir, QString *error)
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
        if (!QDir().mkpath(QFileInfo(destination).absolutePath())) {
            *error = QStringLiteral("cannot create %1").arg(QFileInfo(destination).absolutePath());
            return std::nullopt;
        }
        QFile::remove(destination);
        if (!QFile::copy(path, destination)) {
            *error = QStringLiteral("cannot copy %1 to %2").arg(path, destination);
            return std::nullopt;
        }
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
        if (QFileInfo(target.filePath(relative)).size() != QFileInfo(path).size()) {
            *error = QStringLiteral("%1 differs after the copy").arg(target.filePath(relative));
            return std::nullopt;
        }
        ++verified;
    }
    if (verified != report.files) {
        *error = QStringLiteral("%1 files in the source, %2 verified").arg(report.files).arg(verified);
        return std::nullopt;
    }
    return report;
}

std::optional<FileCopyReport> copyFilesToStore(const QString &fromDir, const FileStore &to, QString *error)
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
        if (!file.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read %1").arg(info.absoluteFilePath());
            return std::nullopt;
        }
        if (!to.put(file.readAll(), ext, error))
            return std::nullopt;
        ++report.copied;
    }
    for (const Name &n : names) {
        const auto bytes = to.read(n.sha256, n.extension);
        if (!bytes || bytes->size() != n.size) {
            *error = QStringLiteral("%1.%2 differs after the copy").arg(n.sha256, n.extension);
            return std::nullopt;
        }
    }
    return report;
}

} // namespace imprint::store
