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

const QString kTemplateUsage
    = QStringLiteral("usage: imprint template import FILE --space NAME [--json] | list --space NAME [--json]\n"
                     "       (also --data DIR, --database URL)\n");
const QString kPageUsage = QStringLiteral(
    "usage: imprint page create --space NAME --template ID [--name N] [--var name=value]... [--publish] [--json]\n"
    "       imprint page publish ID [--json] | list --space NAME [--json]\n"
    "       (also --data DIR, --database URL)\n");

int usage(const QString &text)
{
    QTextStream(stderr) << text;
    return 2;
}

int serviceFailure(const CommonOptions &o, const store::ServiceError &e)
{
    return fail(o, e.code, e.message);
}

/// Opens the environment after parsing; returns an exit code ≥ 0 when the command must stop.
int prepare(const QStringList &arguments, const QStringList &valueOptions, const QStringList &flags,
            std::optional<Args> *args, CommonOptions *o, std::optional<Environment> *env, const QString &usageText)
{
    QString error;
    args->emplace(arguments, commonValueOptions() + valueOptions, commonFlags() + flags, &error);
    if (!error.isEmpty()) {
        QTextStream(stderr) << error << '\n';
        return usage(usageText);
    }
    *o = commonOptions(**args);
    *env = openEnvironment(*o, &error);
    if (!*env)
        return fail(*o, QStringLiteral("startup_failed"), error);
    return -1;
}

service::ContentService contentService(const Environment &env)
{
    return service::contentService(*env.db);
}

} // namespace

/// `imprint template import FILE --space NAME [--json]`: validates and stores a template
/// document; prints its id. `imprint template list --space NAME`.
int runTemplateCommand(const QStringList &arguments)
{
    std::optional<Args> args;
    CommonOptions o;
    std::optional<Environment> env;
    if (int rc = prepare(arguments, {QStringLiteral("space")}, {}, &args, &o, &env, kTemplateUsage); rc >= 0)
        return rc;
    const QStringList pos = args->positionals();
    const QString spaceName = args->value(QStringLiteral("space"));
    if (spaceName.isEmpty())
        return usage(kTemplateUsage);
    service::AccountService accounts(*env->db, env->config);
    auto space = accounts.spaceByName(spaceName);
    if (!space)
        return serviceFailure(o, space.error());
    auto content = contentService(*env);
    if (pos.value(0) == QLatin1String("import") && pos.size() == 2) {
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
            return serviceFailure(o, t.error());
        if (o.json)
            printJson(QJsonObject{{QStringLiteral("id"), t->id},
                                  {QStringLiteral("name"), t->name},
                                  {QStringLiteral("space"), space->name}});
        else
            printLine(QStringLiteral("imported template %1 (%2) into space %3").arg(t->id, t->name, space->name));
        return 0;
    }
    if (pos.value(0) == QLatin1String("list") && pos.size() == 1) {
        auto list = content.listTemplates(space->id);
        if (!list)
            return serviceFailure(o, list.error());
        QJsonArray a;
        for (const auto &t : list.value()) {
            a.append(QJsonObject{{QStringLiteral("id"), t.id}, {QStringLiteral("name"), t.name}});
            if (!o.json)
                printLine(QStringLiteral("%1  %2").arg(t.id, t.name));
        }
        if (o.json)
            printJson(QJsonObject{{QStringLiteral("list"), a}, {QStringLiteral("count"), a.size()}});
        return 0;
    }
    return usage(kTemplateUsage);
}

/// `imprint page create|publish|list` (see kPageUsage).
int runPageCommand(const QStringList &arguments)
{
    // --var repeats, which Args (one value per option) cannot hold: take them out first.
    QStringList rest;
    QJsonObject variables;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        QString assignment;
        if (arguments.at(i) == QLatin1String("--var") && i + 1 < arguments.size())
            assignment = arguments.at(++i);
        else if (arguments.at(i).startsWith(QLatin1String("--var=")))
            assignment = arguments.at(i).mid(6);
        else {
            rest << arguments.at(i);
            continue;
        }
        const qsizetype eq = assignment.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            QTextStream(stderr) << "imprint page: --var wants name=value, got '" << assignment << "'\n";
            return 2;
        }
        variables.insert(assignment.left(eq), assignment.mid(eq + 1));
    }
    std::optional<Args> args;
    CommonOptions o;
    std::optional<Environment> env;
    if (int rc = prepare(rest, {QStringLiteral("space"), QStringLiteral("template"), QStringLiteral("name")},
                         {QStringLiteral("publish")}, &args, &o, &env, kPageUsage);
        rc >= 0)
        return rc;
    const QStringList pos = args->positionals();
    auto content = contentService(*env);
    service::AccountService accounts(*env->db, env->config);
    const QString verb = pos.value(0);
    if (verb == QLatin1String("create") && pos.size() == 1) {
        const QString spaceName = args->value(QStringLiteral("space"));
        const QString templateId = args->value(QStringLiteral("template"));
        if (spaceName.isEmpty() || templateId.isEmpty())
            return usage(kPageUsage);
        auto space = accounts.spaceByName(spaceName);
        if (!space)
            return serviceFailure(o, space.error());
        const auto page = content.createPage(space->id, templateId, args->value(QStringLiteral("name")), variables,
                                             QStringLiteral("cli"), args->has(QStringLiteral("publish")));
        if (!page)
            return serviceFailure(o, page.error());
        const store::PageRecord &out = *page;
        if (o.json)
            printJson(service::pageJson(out));
        else
            printLine(QStringLiteral("created page %1 (%2)%3")
                          .arg(out.id, out.name, out.publishedAt ? QStringLiteral(", published") : QString()));
        return 0;
    }
    if (verb == QLatin1String("publish") && pos.size() == 2) {
        auto snap = content.publish({}, pos.at(1), QStringLiteral("cli"));
        if (!snap)
            return serviceFailure(o, snap.error());
        if (o.json)
            printJson(service::pageJson(snap->page));
        else
            printLine(QStringLiteral("published page %1 (%2)").arg(snap->pageId, snap->page.name));
        return 0;
    }
    if (verb == QLatin1String("list") && pos.size() == 1) {
        const QString spaceName = args->value(QStringLiteral("space"));
        if (spaceName.isEmpty())
            return usage(kPageUsage);
        auto space = accounts.spaceByName(spaceName);
        if (!space)
            return serviceFailure(o, space.error());
        auto list = content.listPages(space->id);
        if (!list)
            return serviceFailure(o, list.error());
        QJsonArray a;
        for (const auto &p : list.value()) {
            a.append(service::pageJson(p));
            if (!o.json)
                printLine(QStringLiteral("%1  %2  %3  %4")
                              .arg(p.id, p.templateId, p.name.leftJustified(28),
                                   p.publishedAt ? QStringLiteral("published") : QStringLiteral("draft")));
        }
        if (o.json)
            printJson(QJsonObject{{QStringLiteral("list"), a}, {QStringLiteral("count"), a.size()}});
        return 0;
    }
    return usage(kPageUsage);
}

} // namespace imprint::app
