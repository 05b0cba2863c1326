// `imprint db copy --from DATA_DIR --to postgres://… [--files-to DIR]`: moves a SQLite
// installation to PostgreSQL (docs/deployment.md, "Moving a SQLite installation to PostgreSQL").
#include "server/app/commands/cli.h"
#include "server/store/crypto.h"
#include "server/store/database_copy.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>

namespace imprint::app {

int runDbCommand(const QStringList &arguments)
{
    CommandLine line(QStringLiteral("db"),
                     QStringLiteral("imprint db copy --from DATA_DIR --to postgres://USER@HOST:PORT/DB"
                                    " [--files-to DIR] [--json]"));
    line.addValueOption({QStringLiteral("from")},
                        QStringLiteral("Data directory of the SQLite installation (its imprint.db and files/)."),
                        QStringLiteral("DATA_DIR"));
    line.addValueOption({QStringLiteral("to")}, QStringLiteral("URL of the empty PostgreSQL database to fill."),
                        QStringLiteral("URL"));
    line.addValueOption({QStringLiteral("files-to")},
                        QStringLiteral("Also copy DATA_DIR/files (renders, fonts, assets) into DIR: the files"
                                       " directory of the new instances' data directory."),
                        QStringLiteral("DIR"));
    line.addFlag({QStringLiteral("json")}, QStringLiteral("Print one JSON object on stdout."));
    if (int rc = line.parse(arguments); rc >= 0)
        return rc;
    const QStringList pos = line.positionals();
    if (pos != QStringList{QStringLiteral("copy")})
        return line.usageError(pos.isEmpty() ? QStringLiteral("missing verb (copy)")
                                             : QStringLiteral("unknown verb '%1'").arg(pos.join(u' ')));
    const QString fromDir = line.value(QStringLiteral("from"));
    const QString toUrl = line.value(QStringLiteral("to"));
    if (fromDir.isEmpty() || toUrl.isEmpty())
        return line.usageError(QStringLiteral("--from and --to are required"));

    CommonOptions o = defaultCommonOptions();
    o.json = line.isSet(QStringLiteral("json"));
    const QString sqlitePath = QDir(fromDir).absoluteFilePath(QStringLiteral("imprint.db"));
    if (!QFileInfo::exists(sqlitePath))
        return fail(o, QStringLiteral("no_source"), QStringLiteral("%1 does not exist").arg(sqlitePath));
    auto from = store::DatabaseSettings::fromUrl(QString(), QDir(fromDir).absolutePath());
    auto to = store::DatabaseSettings::fromUrl(toUrl, QString());
    if (!to)
        return fail(o, QStringLiteral("invalid_target"), to.error());
    if (to->driver != QLatin1String("QPSQL"))
        return fail(o, QStringLiteral("invalid_target"), QStringLiteral("--to must be a postgres:// URL"));
    if (!store::initCrypto())
        return fail(o, QStringLiteral("startup_failed"), QStringLiteral("libsodium failed to initialise"));

    const store::Database source(*from);
    const store::Database target(*to);
    const auto rows = store::copyDatabase(source, target);
    if (!rows)
        return fail(o, QStringLiteral("copy_failed"), rows.error());
    common::Expected<store::FileCopyReport, QString> files;
    // Without --files-to the files go where instances on that database read them by default
    // (store::FileStore::forDataDir): the database's blobs table.
    if (line.isSet(QStringLiteral("files-to")))
        files = store::copyFiles(QDir(fromDir).filePath(QStringLiteral("files")),
                                 QDir(line.value(QStringLiteral("files-to"))).absolutePath());
    else
        files = store::copyFilesToStore(QDir(fromDir).filePath(QStringLiteral("files")), store::FileStore(target));
    if (!files)
        return fail(o, QStringLiteral("file_copy_failed"),
                    QStringLiteral("rows copied, files not: %1").arg(files.error()));

    // Signing-key secrets are sealed with DATA_DIR/signing.key, which is no row.
    const bool serverKey = QFileInfo::exists(QDir(fromDir).filePath(QStringLiteral("signing.key")));
    if (o.json) {
        QJsonObject tables;
        for (const auto &[table, count] : rows->tables)
            tables.insert(table, count);
        QJsonObject out{{QStringLiteral("to"), target.settings().describe()},
                        {QStringLiteral("tables"), tables},
                        {QStringLiteral("rows"), rows->rows}};
        out.insert(QStringLiteral("files"), QJsonObject{{QStringLiteral("files"), files->files},
                                                        {QStringLiteral("copied"), files->copied},
                                                        {QStringLiteral("bytes"), files->bytes}});
        printJson(out);
    } else {
        for (const auto &[table, count] : rows->tables)
            printLine(QStringLiteral("%1 %2 rows").arg(table.leftJustified(18)).arg(count));
        printLine(
            QStringLiteral("copied %1 rows to %2 (counts verified)").arg(rows->rows).arg(target.settings().describe()));
        printLine(QStringLiteral("files: %1 (%2 bytes), %3 copied to %4, all verified")
                      .arg(files->files)
                      .arg(files->bytes)
                      .arg(files->copied)
                      .arg(line.isSet(QStringLiteral("files-to")) ? line.value(QStringLiteral("files-to"))
                                                                  : QStringLiteral("the database")));
        if (serverKey)
            printLine(QStringLiteral("copy %1 into the data directory of every instance: signing-key secrets are"
                                     " sealed with it")
                          .arg(QDir(fromDir).filePath(QStringLiteral("signing.key"))));
    }
    return 0;
}

} // namespace imprint::app
