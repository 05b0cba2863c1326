// `imprint font add|list|remove` and `imprint asset add|list|remove`: a space's uploaded
// fonts and images from the command line, through the same use cases as
// POST/GET/DELETE /api/v1/fonts and /api/v1/assets (docs/fonts-and-images.md).
#include "server/app/commands/cli.h"
#include "server/service/account_service.h"
#include "server/service/upload_service.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace imprint::app {

namespace {

const QString kFontUsage
    = QStringLiteral("imprint font add --space NAME FILE [--family NAME] [--weight W] [--style normal|italic]\n"
                     "       imprint font list --space NAME | remove --space NAME ID\n"
                     "       (each also [--data DIR] [--database URL] [--json])");
const QString kAssetUsage
    = QStringLiteral("imprint asset add --space NAME FILE | list --space NAME | remove --space NAME ID\n"
                     "       (each also [--data DIR] [--database URL] [--json])");

store::FileStore filesOf(const Environment &env)
{
    return store::FileStore::forDataDir(*env.db, env.config, env.dataDir);
}

/// The media type a font file's extension implies (the service also sniffs the bytes).
QString fontTypeOf(const QString &path)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("otf") || ext == QLatin1String("woff") || ext == QLatin1String("woff2"))
        return QStringLiteral("font/") + ext;
    return QStringLiteral("font/ttf");
}

// The outcome of removing upload `t.argument`, a `noun` ("font", "asset"): printed, and
// the exit code.
int printRemoved(const SpaceCommand &t, const store::Result<store::Done> &done, const QString &noun)
{
    if (!done)
        return fail(t.options, done.error());
    if (t.options.json)
        printJson(QJsonObject{{QStringLiteral("removed"), t.argument}});
    else
        printLine(QStringLiteral("removed %1 %2").arg(noun, t.argument));
    return 0;
}

} // namespace

/// `imprint font add|list|remove` (see kFontUsage).
int runFontCommand(const QStringList &arguments)
{
    CommandLine line(QStringLiteral("font"), kFontUsage);
    line.addSpaceOptions();
    line.addValueOption({QStringLiteral("family")},
                        QStringLiteral("add: the family templates name (default: the file's)."),
                        QStringLiteral("NAME"));
    line.addValueOption({QStringLiteral("weight")}, QStringLiteral("add: CSS weight 1-1000 (default: the file's)."),
                        QStringLiteral("W"));
    line.addValueOption({QStringLiteral("style")}, QStringLiteral("add: normal or italic (default: the file's)."),
                        QStringLiteral("STYLE"));
    SpaceCommand t;
    if (int rc = openSpaceCommand(line, arguments, &t, true); rc >= 0)
        return rc;
    service::FontService fonts(*t.env->db, filesOf(*t.env));
    const CommonOptions &o = t.options;
    if (t.verb == QLatin1String("add")) {
        service::FontUpload upload;
        upload.bytes = t.input;
        upload.contentType = fontTypeOf(t.argument);
        if (line.isSet(QStringLiteral("family")))
            upload.family = line.value(QStringLiteral("family"));
        if (line.isSet(QStringLiteral("style")))
            upload.style = line.value(QStringLiteral("style"));
        if (line.isSet(QStringLiteral("weight"))) {
            bool ok = false;
            upload.weight = line.value(QStringLiteral("weight")).toInt(&ok);
            if (!ok)
                return line.usageError(QStringLiteral("--weight wants an integer from 1 to 1000"));
        }
        auto added = fonts.upload(t.space.id, upload);
        if (!added)
            return fail(o, added.error());
        if (o.json)
            printJson(service::FontService::json(added->record));
        else
            printLine(QStringLiteral("%1 font %2: %3 %4 %5 in space %6")
                          .arg(added->created ? QStringLiteral("added") : QStringLiteral("already had"),
                               added->record.id, added->record.family, QString::number(added->record.weight),
                               added->record.style, t.space.name));
        return 0;
    }
    if (t.verb == QLatin1String("remove"))
        return printRemoved(t, fonts.remove(t.space.id, t.argument), QStringLiteral("font"));
    auto list = fonts.listAll(t.space.id);
    if (!list)
        return fail(o, list.error());
    return printCountedList(o, *list, service::FontService::json, [](const store::FontRecord &f) {
        return QStringLiteral("%1  %2  %3 %4  %5").arg(f.id, f.family, QString::number(f.weight), f.style, f.format);
    });
}

/// `imprint asset add|list|remove` (see kAssetUsage).
int runAssetCommand(const QStringList &arguments)
{
    CommandLine line(QStringLiteral("asset"), kAssetUsage);
    line.addSpaceOptions();
    SpaceCommand t;
    if (int rc = openSpaceCommand(line, arguments, &t, true); rc >= 0)
        return rc;
    service::AssetService assets(*t.env->db, t.env->config, filesOf(*t.env));
    const CommonOptions &o = t.options;
    if (t.verb == QLatin1String("add")) {
        auto added = assets.upload(t.space.id, t.space.plan, t.input);
        if (!added)
            return fail(o, added.error());
        const QJsonObject json = service::AssetService::json(added->record, {});
        if (o.json)
            printJson(json);
        else
            printLine(QStringLiteral("%1 asset %2: %3 %4×%5 in space %6 (use it as asset:%2)")
                          .arg(added->created ? QStringLiteral("added") : QStringLiteral("already had"),
                               added->record.id, added->record.contentType, QString::number(added->record.width),
                               QString::number(added->record.height), t.space.name));
        return 0;
    }
    if (t.verb == QLatin1String("remove"))
        return printRemoved(t, assets.remove(t.space.id, t.argument), QStringLiteral("asset"));
    auto page = assets.listPage(t.space.id, 1, service::AssetService::kMaxPerPage);
    if (!page)
        return fail(o, page.error());
    return printCountedList(
        o, page->items, [](const store::AssetRecord &r) { return service::AssetService::json(r, {}); },
        [](const store::AssetRecord &r) {
            return QStringLiteral("%1  %2  %3×%4  %5 bytes")
                .arg(r.id, r.contentType, QString::number(r.width), QString::number(r.height),
                     QString::number(r.bytes));
        },
        page->count);
}

} // namespace imprint::app
