// `imprint job create|show` (docs/api.md, "Jobs"): queue a render job in the data
// directory's database, which every server on it works, and read one back. It lives in
// server/app beside serve.cpp rather than in commands/ because an item is checked by the
// very parser of the HTTP route (http::RenderRoutes::pageRequestOf()), which the
// commands below the transport may not include (tests/arch/tst_layering.cpp).
#include "server/app/commands/cli.h"
#include "server/http/route_helpers.h"
#include "server/http/routes/render.h"
#include "server/service/account_service.h"
#include "server/service/job_service.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <array>

namespace imprint::app {

namespace {

const QString kJobUsage = QStringLiteral(
    "imprint job create --space S (--file JOB.json | --page ID [--format F] [--width W] [--height H]\n"
    "                    [--engine E] [--tweak k=v]...) [--json]\n"
    "       imprint job show ID --space S [--json]\n"
    "JOB.json is a body of POST /api/v1/renders: {\"items\": [render, …]} or one render.");

/// The renders of a job from --file (a POST /renders body) or from the flags (one page
/// render); the error says why not.
common::Expected<QJsonArray, QString> jobItems(const CommandLine &line)
{
    if (line.isSet(QStringLiteral("file"))) {
        QFile file(line.value(QStringLiteral("file")));
        if (!file.open(QIODevice::ReadOnly))
            return QStringLiteral("cannot read %1: %2").arg(file.fileName(), file.errorString());
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
        if (!doc.isObject())
            return QStringLiteral("%1 is not a JSON object: %2").arg(file.fileName(), error.errorString());
        const QJsonObject body = doc.object();
        if (!body.contains(QStringLiteral("items")))
            return QJsonArray{body};
        if (!body.value(QStringLiteral("items")).isArray() || body.size() != 1)
            return QStringLiteral("%1: 'items' must be the only member, an array of renders").arg(file.fileName());
        return body.value(QStringLiteral("items")).toArray();
    }
    QJsonObject item{{QStringLiteral("pageId"), line.value(QStringLiteral("page"))}};
    for (const QString &name : {QStringLiteral("format"), QStringLiteral("width"), QStringLiteral("height")}) {
        if (line.isSet(name))
            item.insert(name, line.value(name));
    }
    if (line.isSet(QStringLiteral("engine")))
        item.insert(QStringLiteral("renderType"), line.value(QStringLiteral("engine")));
    QJsonObject tweaks;
    for (const QString &assignment : line.values(QStringLiteral("tweak"))) {
        const qsizetype eq = assignment.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return QStringLiteral("--tweak wants name=value, got '%1'").arg(assignment);
        tweaks.insert(assignment.left(eq), assignment.mid(eq + 1));
    }
    if (!tweaks.isEmpty())
        item.insert(QStringLiteral("tweaks"), tweaks);
    return QJsonArray{item};
}

int createJob(const CommandLine &line, const CommonOptions &o, const Environment &env, const QString &spaceId)
{
    const auto items = jobItems(line);
    if (!items)
        return fail(o, QStringLiteral("invalid_job"), items.error());
    service::JobService jobs(*env.db, service::JobSettings::fromJson(
                                          env.config.json().value(QStringLiteral("jobs")).toObject()));
    if (items->isEmpty() || items->size() > jobs.settings().maxItems)
        return fail(o, QStringLiteral("batch_too_large"),
                    QStringLiteral("A job takes 1 to %1 items; this one has %2.")
                        .arg(jobs.settings().maxItems)
                        .arg(items->size()));
    QList<QJsonObject> renders;
    for (int i = 0; i < items->size(); ++i) {
        // The route's own check, so that the CLI queues nothing the route would refuse.
        const auto checked = http::RenderRoutes::pageRequestOf(items->at(i).toObject());
        if (!items->at(i).isObject() || !checked) {
            const QJsonObject problem = checked ? QJsonObject() : QJsonDocument::fromJson(checked.error().body).object();
            return fail(o, problem.value(QStringLiteral("code")).toString(QStringLiteral("invalid_field")),
                        QStringLiteral("items[%1]: %2")
                            .arg(i)
                            .arg(problem.value(QStringLiteral("detail")).toString(QStringLiteral("not an object"))));
        }
        renders.append(items->at(i).toObject());
    }
    // File URLs of the job's events and answers: render.publicBaseUrl, or relative.
    const QString baseUrl = http::RouteSettings::fromConfig(env.config).publicBaseUrl;
    const auto job = jobs.create(spaceId, QStringLiteral("cli"), baseUrl, renders);
    if (!job)
        return fail(o, job.error());
    if (o.json)
        printJson(service::jobJson(*job, baseUrl, false));
    else
        printLine(QStringLiteral("queued job %1 (%2 items)").arg(job->job.id).arg(job->job.itemCount));
    return 0;
}

int showJob(const CommonOptions &o, const Environment &env, const QString &spaceId, const QString &id)
{
    service::JobService jobs(*env.db, service::JobSettings());
    const auto job = jobs.get(spaceId, id);
    if (!job)
        return fail(o, job.error());
    const QString baseUrl = job->job.baseUrl;
    const QJsonObject json = service::jobJson(*job, baseUrl, true);
    if (o.json) {
        printJson(json);
        return 0;
    }
    const QJsonObject counts = json.value(QStringLiteral("counts")).toObject();
    printLine(QStringLiteral("%1  %2  %3 done, %4 failed of %5")
                  .arg(id, json.value(QStringLiteral("state")).toString())
                  .arg(counts.value(QStringLiteral("done")).toInt())
                  .arg(counts.value(QStringLiteral("failed")).toInt())
                  .arg(counts.value(QStringLiteral("total")).toInt()));
    for (const store::JobItemRecord &item : job->items) {
        const QJsonObject o = service::jobItemJson(item, baseUrl);
        const QString result = item.state == QLatin1String("done")
                                   ? o.value(QStringLiteral("file")).toObject().value(QStringLiteral("url")).toString()
                                   : o.value(QStringLiteral("error")).toObject().value(QStringLiteral("detail")).toString();
        printLine(QStringLiteral("  %1  %2  %3").arg(item.index, 4).arg(item.state.leftJustified(8), result));
    }
    return 0;
}

} // namespace

/// `imprint job create|show`; exit 0, 1 (a failure, printed) or 2 (usage).
int runJobCommand(const QStringList &arguments)
{
    CommandLine line(QStringLiteral("job"), kJobUsage);
    line.addCommonOptions();
    // name, help, value: the options of both verbs, "create:" naming those of create only.
    static const std::array<std::array<const char *, 3>, 9> kOptions{{
        {"space", "The space's name.", "NAME"},
        {"file", "create: the job as POST /renders takes it.", "JOB.json"},
        {"page", "create: render this page.", "ID"},
        {"format", "create: the page render's format.", "F"},
        {"width", "create: its width, px.", "W"},
        {"height", "create: its height, px.", "H"},
        {"engine", "create: its engine (renderType).", "E"},
        {"tweak", "create: a variable's value (repeatable).", "name=value"},
    }};
    for (const auto &[name, help, value] : kOptions) {
        if (name)
            line.addValueOption({QString::fromLatin1(name)}, QString::fromUtf8(help), QString::fromLatin1(value));
    }
    if (int rc = line.parse(arguments); rc >= 0)
        return rc;
    const QStringList pos = line.positionals();
    const QString verb = pos.value(0);
    const QString spaceName = line.value(QStringLiteral("space"));
    const bool create = verb == QLatin1String("create") && pos.size() == 1;
    QString wrong; // why the command line is not a job command
    if (!create && !(verb == QLatin1String("show") && pos.size() == 2))
        wrong = pos.isEmpty() ? QStringLiteral("missing subcommand")
                              : QStringLiteral("unknown subcommand or wrong number of arguments");
    else if (spaceName.isEmpty())
        wrong = QStringLiteral("--space is required");
    else if (create && line.isSet(QStringLiteral("file")) == line.isSet(QStringLiteral("page")))
        wrong = QStringLiteral("create needs --file or --page (one of them)");
    if (!wrong.isEmpty())
        return line.usageError(wrong);
    CommonOptions o;
    auto env = openData(line, &o);
    if (!env)
        return env.error();
    service::AccountService accounts(*env->db, env->config);
    const auto space = accounts.spaceByName(spaceName);
    if (!space)
        return fail(o, space.error());
    return create ? createJob(line, o, *env, space->id) : showJob(o, *env, space->id, pos.at(1));
}

} // namespace imprint::app
