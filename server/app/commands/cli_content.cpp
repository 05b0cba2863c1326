// `imprint template ...` and `imprint page ...`: offline content
// administration on a data directory, through the same ContentService (and template
// validation) as the HTTP routes.
#include "server/app/commands/cli.h"
#include "server/service/account_service.h"
#include "server/service/content_validation.h"
#include "server/service/json.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace imprint::app {

namespace {

const QString kTemplateUsage = QStringLiteral("imprint template import FILE --space NAME | list --space NAME"
                                              " | versions ID | rollback ID N   [--data DIR] [--database URL] [--json]");
const QString kPageUsage
    = QStringLiteral("imprint page create --space NAME --template ID [--name N] [--var name=value]... [--publish]\n"
                     "       imprint page publish ID | list --space NAME\n"
                     "       (each also [--data DIR] [--database URL] [--json])");

service::ContentService contentService(const Environment &env)
{
    return service::contentService(*env.db);
}

} // namespace

int runTemplateVersionCommand(CommandLine &line, const QStringList &pos); // cli_template_versions.cpp

/// `imprint template import FILE --space NAME [--json]`: validates and stores a template
/// document; prints its id. `imprint template list --space NAME`.
int runTemplateCommand(const QStringList &arguments)
{
    CommandLine line(QStringLiteral("template"), kTemplateUsage);
    line.addSpaceOptions();
    if (int rc = line.parse(arguments); rc >= 0)
        return rc;
    const QStringList pos = line.positionals();
    if (pos.value(0) == QLatin1String("versions") || pos.value(0) == QLatin1String("rollback"))
        return runTemplateVersionCommand(line, pos);
    const bool import = pos.value(0) == QLatin1String("import") && pos.size() == 2;
    if (!import && !(pos.value(0) == QLatin1String("list") && pos.size() == 1))
        return line.usageError(pos.isEmpty() ? QStringLiteral("missing subcommand")
                                             : QStringLiteral("unknown subcommand or wrong number of arguments"));
    const QString spaceName = line.value(QStringLiteral("space"));
    if (spaceName.isEmpty())
        return line.usageError(QStringLiteral("--space is required"));
    CommonOptions o;
    auto env = openData(line, &o);
    if (!env)
        return env.error();
    service::AccountService accounts(*env->db, env->config);
    auto space = accounts.spaceByName(spaceName);
    if (!space)
        return fail(o, space.error());
    auto content = contentService(*env);
    if (import) {
        QFile f(pos.at(1));
        if (!f.open(QIODevice::ReadOnly))
            return fail(o, QStringLiteral("file_unreadable"),
                        QStringLiteral("cannot read %1: %2").arg(pos.at(1), f.errorString()));
        QJsonParseError perr;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &perr);
        if (!doc.isObject())
            return fail(o, QStringLiteral("invalid_json"),
                        QStringLiteral("%1 is not a JSON object: %2").arg(pos.at(1), perr.errorString()));
        auto t = content.createTemplate(space->id, doc.object(), QStringLiteral("cli"));
        if (!t)
            return fail(o, t.error());
        if (o.json)
            printJson(QJsonObject{{QStringLiteral("id"), t->id},
                                  {QStringLiteral("name"), t->name},
                                  {QStringLiteral("space"), space->name}});
        else
            printLine(QStringLiteral("imported template %1 (%2) into space %3").arg(t->id, t->name, space->name));
        return 0;
    }
    auto list = content.listTemplates(space->id);
    if (!list)
        return fail(o, list.error());
    return printCountedList(
        o, *list,
        [](const store::TemplateRecord &t) {
            return QJsonObject{{QStringLiteral("id"), t.id}, {QStringLiteral("name"), t.name}};
        },
        [](const store::TemplateRecord &t) { return QStringLiteral("%1  %2").arg(t.id, t.name); });
}

/// `imprint page create|publish|list` (see kPageUsage).
int runPageCommand(const QStringList &arguments)
{
    CommandLine line(QStringLiteral("page"), kPageUsage);
    line.addSpaceOptions();
    line.addValueOption({QStringLiteral("template")}, QStringLiteral("create: the template's id."),
                        QStringLiteral("ID"));
    line.addValueOption({QStringLiteral("name")}, QStringLiteral("create: the page's name."), QStringLiteral("N"));
    line.addValueOption({QStringLiteral("var")}, QStringLiteral("create: a variable's value (repeatable)."),
                        QStringLiteral("name=value"));
    line.addFlag({QStringLiteral("publish")}, QStringLiteral("create: publish the new page at once."));
    if (int rc = line.parse(arguments); rc >= 0)
        return rc;
    QJsonObject variables;
    for (const QString &assignment : line.values(QStringLiteral("var"))) {
        const qsizetype eq = assignment.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return line.usageError(QStringLiteral("--var wants name=value, got '%1'").arg(assignment));
        variables.insert(assignment.left(eq), assignment.mid(eq + 1));
    }
    const QStringList pos = line.positionals();
    const QString verb = pos.value(0);
    const QString spaceName = line.value(QStringLiteral("space"));
    const QString templateId = line.value(QStringLiteral("template"));
    if (verb == QLatin1String("create") && pos.size() == 1) {
        if (spaceName.isEmpty() || templateId.isEmpty())
            return line.usageError(QStringLiteral("create needs --space and --template"));
    } else if (verb == QLatin1String("list") && pos.size() == 1) {
        if (spaceName.isEmpty())
            return line.usageError(QStringLiteral("list needs --space"));
    } else if (!(verb == QLatin1String("publish") && pos.size() == 2)) {
        return line.usageError(pos.isEmpty() ? QStringLiteral("missing subcommand")
                                             : QStringLiteral("unknown subcommand or wrong number of arguments"));
    }
    CommonOptions o;
    auto env = openData(line, &o);
    if (!env)
        return env.error();
    auto content = contentService(*env);
    service::AccountService accounts(*env->db, env->config);
    if (verb == QLatin1String("create")) {
        auto space = accounts.spaceByName(spaceName);
        if (!space)
            return fail(o, space.error());
        const auto page = content.createPage(space->id, templateId, line.value(QStringLiteral("name")), variables,
                                             QStringLiteral("cli"), line.isSet(QStringLiteral("publish")));
        if (!page)
            return fail(o, page.error());
        const store::PageRecord &out = *page;
        if (o.json)
            printJson(service::pageJson(out));
        else
            printLine(QStringLiteral("created page %1 (%2)%3")
                          .arg(out.id, out.name, out.publishedAt ? QStringLiteral(", published") : QString()));
        return 0;
    }
    if (verb == QLatin1String("publish")) {
        auto snap = content.publish({}, pos.at(1), QStringLiteral("cli"));
        if (!snap)
            return fail(o, snap.error());
        if (o.json)
            printJson(service::pageJson(snap->page));
        else
            printLine(QStringLiteral("published page %1 (%2)").arg(snap->pageId, snap->page.name));
        return 0;
    }
    auto space = accounts.spaceByName(spaceName);
    if (!space)
        return fail(o, space.error());
    auto list = content.listPages(space->id);
    if (!list)
        return fail(o, list.error());
    return printCountedList(o, *list, service::pageJson, [](const store::PageRecord &p) {
        return QStringLiteral("%1  %2  %3  %4")
            .arg(p.id, p.templateId, p.name.leftJustified(28),
                 p.publishedAt ? QStringLiteral("published") : QStringLiteral("draft"));
    });
}

} // namespace imprint::app
