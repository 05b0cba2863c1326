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
    SpaceCommand c;
    if (int rc = openSpaceCommand(line, arguments, &c, false); rc >= 0)
        return rc;
    const CommonOptions &o = c.options;
    const Environment &env = *c.env;
    const service::WebhookSettings settings = service::WebhookSettings::fromConfig(env.config);
    service::WebhookService webhooks(*env.db, env.dataDir, settings);
    if (c.verb == QLatin1String("add")) {
        const auto created = webhooks.create(c.space.id, c.argument,
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
                          .arg(created->endpoint.id, c.space.name, created->secret));
        }
        return 0;
    }
    if (c.verb == QLatin1String("remove")) {
        if (const auto done = webhooks.remove(c.space.id, c.argument, QStringLiteral("cli")); !done)
            return fail(o, done.error());
        o.json ? printJson({{QStringLiteral("id"), c.argument}, {QStringLiteral("removed"), true}})
               : printLine(QStringLiteral("removed webhook %1").arg(c.argument));
        return 0;
    }
    const auto list = webhooks.listAll(c.space.id);
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
