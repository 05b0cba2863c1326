// `imprint template versions ID` and `imprint template rollback ID N` (docs/api.md,
// "Template versions"): the same ContentService use cases as the HTTP routes, on a data
// directory. Reached through `imprint template` (cli_content.cpp).
#include "server/app/commands/cli.h"
#include "server/service/content_validation.h"
#include "server/service/json.h"

#include <QJsonArray>

namespace imprint::app {

/// `imprint template versions ID [--page P]` or `imprint template rollback ID N`, on
/// `line` as `imprint template` parsed it (`pos` its positionals). A template of any
/// space (ids are unique). Exit 0, 1 on a use-case error, 2 on bad usage.
int runTemplateVersionCommand(CommandLine &line, const QStringList &pos)
{
    const bool rollback = pos.value(0) == QLatin1String("rollback");
    if (pos.size() != (rollback ? 3 : 2))
        return line.usageError(rollback ? QStringLiteral("rollback takes the template's id and a version number")
                                        : QStringLiteral("versions takes the template's id"));
    bool numberOk = true;
    const int version = rollback ? pos.at(2).toInt(&numberOk) : 0;
    if (!numberOk || (rollback && version < 1))
        return line.usageError(QStringLiteral("the version is a number from 1, not '%1'").arg(pos.value(2)));
    CommonOptions o;
    auto env = openData(line, &o);
    if (!env)
        return env.error();
    auto content = service::contentService(*env->db);
    const QString id = pos.at(1);
    if (rollback) {
        const auto tmpl = content.rollback({}, id, version, QStringLiteral("cli"));
        if (!tmpl)
            return fail(o, tmpl.error());
        if (o.json)
            printJson(service::templateJson(*tmpl, false));
        else
            printLine(QStringLiteral("template %1 is now version %2, a copy of version %3")
                          .arg(tmpl->id)
                          .arg(tmpl->version)
                          .arg(version));
        return 0;
    }
    const auto versions = content.listVersions({}, id, 1, service::ContentService::kMaxPerPage);
    if (!versions)
        return fail(o, versions.error());
    QJsonArray list;
    for (const store::TemplateVersionRecord &v : versions->items) {
        list.append(service::templateVersionJson(v, false));
        if (!o.json)
            printLine(QStringLiteral("%1  %2  %3  %4")
                          .arg(QString::number(v.version).rightJustified(4), store::isoFromMs(v.createdAt),
                               v.actor.leftJustified(12), v.name));
    }
    if (o.json)
        printJson(QJsonObject{{QStringLiteral("list"), list}, {QStringLiteral("count"), versions->count}});
    else if (versions->count > list.size())
        printLine(QStringLiteral("(the newest %1 of %2 versions)").arg(list.size()).arg(versions->count));
    return 0;
}

} // namespace imprint::app
