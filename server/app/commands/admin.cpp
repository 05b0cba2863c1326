// Admin CLI on a data directory: `imprint space|user|key|signing-key|url ...`.
// Same services as the HTTP routes; actor "cli" in the audit log.
#include "server/app/commands/cli.h"
#include "server/service/account_service.h"
#include "server/service/api_key_service.h"
#include "server/service/json.h"
#include "server/service/signing_key_service.h"

#include <QDateTime>
#include <QUrl>
#include <QUrlQuery>

#include <QJsonArray>
#include <QTextStream>

namespace imprint::app {

namespace {

const QString kCli = QStringLiteral("cli");

int usage(const QString &text)
{
    QTextStream(stderr) << "usage: " << text << '\n';
    return 2;
}

int serviceFailure(const CommonOptions &o, const store::ServiceError &e)
{
    return fail(o, e.code, e.message);
}

QJsonObject spaceJson(const store::Space &s)
{
    return {{QStringLiteral("id"), s.id},
            {QStringLiteral("name"), s.name},
            {QStringLiteral("plan"), s.plan},
            {QStringLiteral("createdAt"), store::isoFromMs(s.createdAt)}};
}

QJsonObject membershipJson(const store::Membership &m)
{
    return {{QStringLiteral("userId"), m.user.id},
            {QStringLiteral("email"), m.user.email},
            {QStringLiteral("space"), m.space.name},
            {QStringLiteral("role"), store::roleName(m.role)}};
}

// Parses the command line; on success fills *args/*options/*env and returns -1,
// otherwise the exit code to return.
int prepare(const QStringList &arguments, const QStringList &valueOptions, const QStringList &flags,
            std::optional<Args> *args, CommonOptions *options, std::optional<Environment> *env,
            const QString &usageText)
{
    QString error;
    args->emplace(arguments, commonValueOptions() + valueOptions, commonFlags() + flags, &error);
    *options = commonOptions(**args);
    if (!error.isEmpty()) {
        QTextStream(stderr) << "imprint: " << error << '\n';
        return usage(usageText);
    }
    *env = openEnvironment(*options, &error);
    if (!*env)
        return fail(*options, QStringLiteral("startup_failed"), error);
    return -1;
}

const QString kCommon = QStringLiteral("[--data DIR] [--database URL] [--json]");

} // namespace

int runSpaceCommand(const QStringList &arguments)
{
    const QString usageText = QStringLiteral("imprint space create NAME [--plan free|pro|business] | list |"
                                             " set-plan NAME PLAN   ")
                              + kCommon;
    std::optional<Args> args;
    CommonOptions o;
    std::optional<Environment> env;
    if (int rc = prepare(arguments, {QStringLiteral("plan")}, {}, &args, &o, &env, usageText); rc >= 0)
        return rc;
    const QStringList pos = args->positionals();
    service::AccountService accounts(*env->db, env->config);
    const QString verb = pos.value(0);
    if (verb == QLatin1String("create") && pos.size() == 2) {
        auto s = accounts.createSpace(pos[1], args->value(QStringLiteral("plan"), env->config.defaultPlan()), kCli);
        if (!s)
            return serviceFailure(o, s.error());
        o.json ? printJson(spaceJson(*s))
               : printLine(QStringLiteral("created space %1 (%2, plan %3)").arg(s->name, s->id, s->plan));
        return 0;
    }
    if (verb == QLatin1String("list") && pos.size() == 1) {
        auto list = accounts.listSpaces();
        if (!list)
            return serviceFailure(o, list.error());
        QJsonArray a;
        for (const store::Space &s : list.value()) {
            a.append(spaceJson(s));
            if (!o.json)
                printLine(QStringLiteral("%1  %2  %3").arg(s.name.leftJustified(20), s.plan.leftJustified(9), s.id));
        }
        if (o.json)
            printJson({{QStringLiteral("spaces"), a}});
        return 0;
    }
    if (verb == QLatin1String("set-plan") && pos.size() == 3) {
        auto s = accounts.setPlan(pos[1], pos[2], kCli);
        if (!s)
            return serviceFailure(o, s.error());
        o.json ? printJson(spaceJson(*s))
               : printLine(QStringLiteral("space %1 is now on plan %2").arg(s->name, s->plan));
        return 0;
    }
    return usage(usageText);
}

int runUserCommand(const QStringList &arguments)
{
    const QString usageText = QStringLiteral("imprint user add --email E --space NAME --role owner|admin|member |"
                                             " passwd --email E | list [--space NAME]   ")
                              + kCommon
                              + QStringLiteral("\n(the password is read from stdin: one line, or the same line twice)");
    std::optional<Args> args;
    CommonOptions o;
    std::optional<Environment> env;
    if (int rc = prepare(arguments, {QStringLiteral("email"), QStringLiteral("space"), QStringLiteral("role")}, {},
                         &args, &o, &env, usageText);
        rc >= 0)
        return rc;
    const QStringList pos = args->positionals();
    service::AccountService accounts(*env->db, env->config);
    const QString verb = pos.value(0);
    const QString email = args->value(QStringLiteral("email"));
    QString error;
    if (verb == QLatin1String("add") && pos.size() == 1) {
        const QString space = args->value(QStringLiteral("space"));
        store::Role role = store::Role::Member;
        if (email.isEmpty() || space.isEmpty()
            || !store::parseRole(args->value(QStringLiteral("role"), QStringLiteral("member")), &role))
            return usage(usageText);
        const auto password = readPassword(QStringLiteral("Password for %1").arg(email), &error);
        if (!password)
            return fail(o, QStringLiteral("invalid_password"), error);
        bool created = false;
        auto m = accounts.addUser(email, *password, space, role, kCli, &created);
        if (!m)
            return serviceFailure(o, m.error());
        QJsonObject j = membershipJson(*m);
        j.insert(QStringLiteral("created"), created);
        if (o.json)
            printJson(j);
        else
            printLine(
                QStringLiteral("%1 user %2 is %3 of space %4%5")
                    .arg(created ? QStringLiteral("new") : QStringLiteral("existing"), m->user.email,
                         store::roleName(m->role), m->space.name,
                         created ? QString() : QStringLiteral(" (password unchanged; use `imprint user passwd`)")));
        return 0;
    }
    if (verb == QLatin1String("passwd") && pos.size() == 1) {
        if (email.isEmpty())
            return usage(usageText);
        const auto password = readPassword(QStringLiteral("New password for %1").arg(email), &error);
        if (!password)
            return fail(o, QStringLiteral("invalid_password"), error);
        auto done = accounts.setPassword(email, *password, kCli);
        if (!done)
            return serviceFailure(o, done.error());
        // setPassword() accepted it, so it normalises; print the address as stored.
        const QString stored = service::AccountService::normaliseEmail(email).value_or(email);
        o.json ? printJson({{QStringLiteral("email"), stored}, {QStringLiteral("updated"), true}})
               : printLine(QStringLiteral("password of %1 changed").arg(email));
        return 0;
    }
    if (verb == QLatin1String("list") && pos.size() == 1) {
        auto list = accounts.listUsers(args->value(QStringLiteral("space")));
        if (!list)
            return serviceFailure(o, list.error());
        QJsonArray a;
        for (const store::Membership &m : list.value()) {
            a.append(membershipJson(m));
            if (!o.json)
                printLine(
                    QStringLiteral("%1  %2  %3")
                        .arg(m.user.email.leftJustified(32), m.space.name.leftJustified(20), store::roleName(m.role)));
        }
        if (o.json)
            printJson({{QStringLiteral("users"), a}});
        return 0;
    }
    return usage(usageText);
}

int runKeyCommand(const QStringList &arguments)
{
    const QString usageText = QStringLiteral("imprint key create --space NAME --name N [--expires-days D] |"
                                             " list --space NAME | revoke ID   ")
                              + kCommon;
    std::optional<Args> args;
    CommonOptions o;
    std::optional<Environment> env;
    if (int rc = prepare(arguments, {QStringLiteral("space"), QStringLiteral("name"), QStringLiteral("expires-days")},
                         {}, &args, &o, &env, usageText);
        rc >= 0)
        return rc;
    const QStringList pos = args->positionals();
    service::AccountService accounts(*env->db, env->config);
    service::ApiKeyService keys(*env->db);
    const QString verb = pos.value(0);
    if (verb == QLatin1String("create") && pos.size() == 1) {
        const QString spaceName = args->value(QStringLiteral("space"));
        if (spaceName.isEmpty() || !args->has(QStringLiteral("name")))
            return usage(usageText);
        qint64 expiresAt = 0;
        if (args->has(QStringLiteral("expires-days"))) {
            bool ok = false;
            const int days = args->value(QStringLiteral("expires-days")).toInt(&ok);
            if (!ok || days < 1)
                return fail(o, QStringLiteral("invalid_expires_days"),
                            QStringLiteral("--expires-days wants a positive integer"));
            expiresAt = store::nowMs() + qint64(days) * 86400 * 1000;
        }
        auto space = accounts.spaceByName(spaceName);
        if (!space)
            return serviceFailure(o, space.error());
        auto created = keys.create(space->id, args->value(QStringLiteral("name")), expiresAt, {});
        if (!created)
            return serviceFailure(o, created.error());
        if (o.json) {
            QJsonObject j = service::keyJson(created->key);
            j.insert(QStringLiteral("token"), created->token);
            printJson(j);
        } else {
            printLine(QStringLiteral("created key %1 in space %2\ntoken (shown once): %3")
                          .arg(created->key.id, space->name, created->token));
        }
        return 0;
    }
    if (verb == QLatin1String("list") && pos.size() == 1) {
        const QString spaceName = args->value(QStringLiteral("space"));
        if (spaceName.isEmpty())
            return usage(usageText);
        auto space = accounts.spaceByName(spaceName);
        if (!space)
            return serviceFailure(o, space.error());
        auto list = keys.listAll(space->id);
        if (!list)
            return serviceFailure(o, list.error());
        QJsonArray a;
        for (const store::ApiKey &k : list.value()) {
            QJsonObject j = service::keyJson(k);
            j.insert(QStringLiteral("revokedAt"),
                     k.revokedAt ? QJsonValue(store::isoFromMs(k.revokedAt)) : QJsonValue());
            a.append(j);
            if (!o.json)
                printLine(QStringLiteral("%1  %2  %3  %4")
                              .arg(k.id, k.prefix, k.name.leftJustified(24),
                                   k.revokedAt ? QStringLiteral("revoked") : QStringLiteral("active")));
        }
        if (o.json)
            printJson({{QStringLiteral("keys"), a}});
        return 0;
    }
    if (verb == QLatin1String("revoke") && pos.size() == 2) {
        auto done = keys.revoke({}, pos[1], kCli);
        if (!done)
            return serviceFailure(o, done.error());
        o.json ? printJson({{QStringLiteral("id"), pos[1]}, {QStringLiteral("revoked"), true}})
               : printLine(QStringLiteral("revoked key %1").arg(pos[1]));
        return 0;
    }
    return usage(usageText);
}

int runSigningKeyCommand(const QStringList &arguments)
{
    const QString usageText
        = QStringLiteral("imprint signing-key create --space NAME --name N | list --space NAME | revoke ID   ")
          + kCommon;
    std::optional<Args> args;
    CommonOptions o;
    std::optional<Environment> env;
    if (int rc = prepare(arguments, {QStringLiteral("space"), QStringLiteral("name")}, {}, &args, &o, &env, usageText);
        rc >= 0)
        return rc;
    const QStringList pos = args->positionals();
    service::AccountService accounts(*env->db, env->config);
    service::SigningKeyService keys(*env->db, env->dataDir);
    const QString verb = pos.value(0);
    if ((verb == QLatin1String("create") || verb == QLatin1String("list")) && pos.size() == 1) {
        const QString spaceName = args->value(QStringLiteral("space"));
        if (spaceName.isEmpty() || (verb == QLatin1String("create") && !args->has(QStringLiteral("name"))))
            return usage(usageText);
        auto space = accounts.spaceByName(spaceName);
        if (!space)
            return serviceFailure(o, space.error());
        if (verb == QLatin1String("create")) {
            auto created = keys.create(space->id, args->value(QStringLiteral("name")), {});
            if (!created)
                return serviceFailure(o, created.error());
            if (o.json) {
                QJsonObject j = service::signingKeyJson(created->key);
                j.insert(QStringLiteral("secret"), created->secret);
                printJson(j);
            } else {
                printLine(QStringLiteral("created signing key %1 in space %2\nsecret (shown once): %3")
                              .arg(created->key.id, space->name, created->secret));
            }
            return 0;
        }
        auto list = keys.listAll(space->id);
        if (!list)
            return serviceFailure(o, list.error());
        QJsonArray a;
        for (const store::SigningKey &k : list.value()) {
            QJsonObject j = service::signingKeyJson(k);
            j.insert(QStringLiteral("revokedAt"), service::isoOrNull(k.revokedAt));
            a.append(j);
            if (!o.json)
                printLine(QStringLiteral("%1  %2  %3")
                              .arg(k.id, k.name.leftJustified(24),
                                   k.revokedAt ? QStringLiteral("revoked") : QStringLiteral("active")));
        }
        if (o.json)
            printJson({{QStringLiteral("signingKeys"), a}});
        return 0;
    }
    if (verb == QLatin1String("revoke") && pos.size() == 2) {
        auto done = keys.revoke({}, pos[1], kCli);
        if (!done)
            return serviceFailure(o, done.error());
        o.json ? printJson({{QStringLiteral("id"), pos[1]}, {QStringLiteral("revoked"), true}})
               : printLine(QStringLiteral("revoked signing key %1").arg(pos[1]));
        return 0;
    }
    return usage(usageText);
}

int runUrlCommand(const QStringList &arguments)
{
    const QString usageText
        = QStringLiteral("imprint url sign --space NAME --signing-key ID [--expires SECONDS] URL   ") + kCommon;
    std::optional<Args> args;
    CommonOptions o;
    std::optional<Environment> env;
    if (int rc = prepare(arguments, {QStringLiteral("space"), QStringLiteral("signing-key"), QStringLiteral("expires")},
                         {}, &args, &o, &env, usageText);
        rc >= 0)
        return rc;
    const QStringList pos = args->positionals();
    const QString spaceName = args->value(QStringLiteral("space"));
    const QString keyId = args->value(QStringLiteral("signing-key"));
    if (pos.size() != 2 || pos[0] != QLatin1String("sign") || spaceName.isEmpty() || keyId.isEmpty())
        return usage(usageText);
    const QString renderPath = QStringLiteral("/api/v1/render");
    const QUrl url(pos[1], QUrl::StrictMode);
    if (!url.isValid() || !url.path().endsWith(renderPath))
        return fail(
            o, QStringLiteral("invalid_url"),
            QStringLiteral("the URL must be a render URL, e.g. https://img.example.com%1?pageId=pg_…").arg(renderPath));
    service::QueryItems items;
    // A URL signed before is signed afresh: its old kid, exp and sig are replaced.
    for (const auto &item : QUrlQuery(url).queryItems(QUrl::FullyDecoded))
        if (item.first != QLatin1String("kid") && item.first != QLatin1String("exp")
            && item.first != QLatin1String("sig"))
            items.append(item);
    items.append({QStringLiteral("kid"), keyId});
    if (args->has(QStringLiteral("expires"))) {
        bool ok = false;
        const qint64 seconds = args->value(QStringLiteral("expires")).toLongLong(&ok);
        if (!ok || seconds < 1)
            return fail(o, QStringLiteral("invalid_expires"),
                        QStringLiteral("--expires wants a positive number of seconds"));
        items.append({QStringLiteral("exp"), QString::number(QDateTime::currentSecsSinceEpoch() + seconds)});
    }
    service::AccountService accounts(*env->db, env->config);
    auto space = accounts.spaceByName(spaceName);
    if (!space)
        return serviceFailure(o, space.error());
    service::SigningKeyService keys(*env->db, env->dataDir);
    const auto secret = keys.secretOf(space->id, keyId);
    if (!secret)
        return serviceFailure(o, secret.error());
    const QString signedUrl = QString::fromLatin1(url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment).toEncoded())
                              + QLatin1Char('?') + service::SigningKeyService::signedQuery(*secret, renderPath, items);
    o.json ? printJson({{QStringLiteral("url"), signedUrl}}) : printLine(signedUrl);
    return 0;
}

} // namespace imprint::app
