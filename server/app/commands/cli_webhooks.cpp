// `imprint webhook add|list|remove`: a space's webhook endpoints from the command line,
// through the same use case as POST/GET/DELETE /api/v1/webhooks (docs/api.md, "Webhooks").
// Deliveries are sent by a running server (its worker), not by the CLI.
#include "server/app/commands/cli.h"
#include "server/service/account_service.h"
#include "server/service/json.h"
#include "server/service/webhook_service.h"

#include <QJsonArray>

namespace imprint::app {

namespace {

const QString kWebhookUsage
    = QStringLiteral("imprint webhook add --space NAME URL [--events render.completed,render.failed,batch.completed]"
                     " [--description TEXT]\n"
                     "       imprint webhook list --space NAME | remove --space NAME ID\n"
                     "       (each also [--data DIR] [--database URL] [--json])");

} // namespace

/// `imprint webhook add|list|remove` (see kWebhookUsage).
int runWebhookCommand(const QStringList &arguments)
{
    CommandLine line(QStringLiteral("webhook"), kWebhookUsage);
    line.addSpaceOptions();
    line.addValueOption({QStringLiteral("events")},
                        QStringLiteral("add: comma-separated events to receive (default: every event)."),
                        QStringLiteral("LIST"));
    line.addValueOption({QStringLiteral("description")}, QStringLiteral("add: a note for people."),
                        QStringLiteral("TEXT"));
    if (int rc = line.parse(arguments); rc >= 0)
        return rc;
    const QStringList pos = line.positionals();
    const QString verb = pos.value(0);
    const bool withArgument = verb == QLatin1String("add") || verb == QLatin1String("remove");
    if (!(withArgument && pos.size() == 2) && !(verb == QLatin1String("list") && pos.size() == 1))
        return line.usageError(pos.isEmpty() ? QStringLiteral("missing subcommand")
                                             : QStringLiteral("unknown subcommand or wrong number of arguments"));
    if (line.value(QStringLiteral("space")).isEmpty())
        return line.usageError(QStringLiteral("--space is required"));
    CommonOptions o;
    auto env = openData(line, &o);
    if (!env)
        return env.error();
    const auto space = service::AccountService(*env->db, env->config).spaceByName(line.value(QStringLiteral("space")));
    if (!space)
        return fail(o, space.error());
    const service::WebhookSettings settings = service::WebhookSettings::fromConfig(env->config);
    service::WebhookService webhooks(*env->db, env->dataDir, settings);
    if (verb == QLatin1String("add")) {
        const auto created = webhooks.create(space->id, pos[1],
                                             line.value(QStringLiteral("events")).split(QLatin1Char(','), Qt::SkipEmptyParts),
                                             line.value(QStringLiteral("description")), {});
        if (!created)
            return fail(o, created.error());
        QJsonObject json = service::webhookJson(created->endpoint);
        if (o.json) {
            json.insert(QStringLiteral("secret"), created->secret);
            printJson(json);
        } else {
            printLine(QStringLiteral("created webhook %1 in space %2\nsecret (shown once): %3")
                          .arg(created->endpoint.id, space->name, created->secret));
        }
        return 0;
    }
    if (verb == QLatin1String("remove")) {
        if (const auto done = webhooks.remove(space->id, pos[1], QStringLiteral("cli")); !done)
            return fail(o, done.error());
        o.json ? printJson({{QStringLiteral("id"), pos[1]}, {QStringLiteral("removed"), true}})
               : printLine(QStringLiteral("removed webhook %1").arg(pos[1]));
        return 0;
    }
    const auto list = webhooks.listAll(space->id);
    if (!list)
        return fail(o, list.error());
    return printCountedList(
        o, *list,
        [](const store::WebhookEndpoint &e) {
            QJsonObject j = service::webhookJson(e);
            j.insert(QStringLiteral("deletedAt"), service::isoOrNull(e.disabledAt));
            return j;
        },
        [](const store::WebhookEndpoint &e) {
            return QStringLiteral("%1  %2  %3  %4")
                .arg(e.id, e.disabledAt ? QStringLiteral("deleted") : QStringLiteral("active "), e.url,
                     e.eventTypes.isEmpty() ? QStringLiteral("(all events)") : e.eventTypes.join(QLatin1Char(',')));
        });
}

} // namespace imprint::app
