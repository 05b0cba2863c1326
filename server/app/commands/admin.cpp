// Admin CLI on a data directory: `imprint space|user|key|signing-key|url ...`.
// Same services as the HTTP routes; actor "cli" in the audit log.
#include "server/app/commands/cli.h"
#include "server/service/account_service.h"
#include "server/service/api_key_service.h"
#include "server/service/json.h"
#include "server/service/signing_key_service.h"

#include <QDateTime>
#include <QUrl>

#include <QJsonArray>
#include <QTextStream>

namespace imprint::app {

namespace {

const QString kCli = QStringLiteral("cli");

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

// The verb and positional count a command line must have; a usage error otherwise.
bool isVerb(const QStringList &pos, const char *verb, qsizetype count)
{
    return pos.value(0) == QLatin1String(verb) && pos.size() == count;
}

QString missingVerb(const QStringList &pos)
{
    return pos.isEmpty() ? QStringLiteral("missing subcommand")
                         : QStringLiteral("unknown subcommand or wrong number of arguments: %1").arg(pos.join(u' '));
}

const QString kCommon = QStringLiteral("[--data DIR] [--database URL] [--json]");

// The options every revocable secret's command (`key`, `signing-key`) takes first.
void addSecretOptions(CommandLine &line)
{
    line.addSpaceOptions();
    line.addValueOption({QStringLiteral("name")}, QStringLiteral("create: the key's name."), QStringLiteral("N"));
}

// A revocable secret's command line (`key`, `signing-key`), parsed, with the data
// directory open.
struct SecretCommand {
    CommonOptions options;
    std::optional<Environment> env;
    QString verb; ///< create, list or revoke
    QString argument; ///< revoke: the key's id
    QString spaceName; ///< create, list: --space
};

// Parses a revocable secret's command line, whose verbs are create --space --name, list
// --space and revoke ID, into *c and opens the data directory. -1 to go on, else the exit
// code (--help, a usage error, a data directory that does not open).
int openSecretCommand(CommandLine &line, const QStringList &arguments, SecretCommand *c)
{
    if (int rc = line.parse(arguments); rc >= 0)
        return rc;
    const QStringList pos = line.positionals();
    const QString verb = pos.value(0);
    if (isVerb(pos, "create", 1) || isVerb(pos, "list", 1)) {
        if (line.value(QStringLiteral("space")).isEmpty()
            || (verb == QLatin1String("create") && !line.isSet(QStringLiteral("name"))))
            return line.usageError(
                QStringLiteral("%1 needs --space%2")
                    .arg(verb, verb == QLatin1String("create") ? QStringLiteral(" and --name") : QString()));
    } else if (!isVerb(pos, "revoke", 2)) {
        return line.usageError(missingVerb(pos));
    }
    c->verb = verb;
    c->argument = pos.value(1);
    c->spaceName = line.value(QStringLiteral("space"));
    auto env = openData(line, &c->options);
    if (!env)
        return env.error();
    c->env = std::move(*env);
    return -1;
}

// A new secret of space `spaceName` (`created`: a CreatedKey or CreatedSigningKey), shown
// this once: its JSON, `json(created->key)`, with the secret `created->*secretMember`
// under `field` ("token", "secret"), or the sentence naming its `noun` ("key", "signing
// key") and the field; the service's error when it was not created. The exit code.
template<typename Created, typename Row>
int printCreated(const CommonOptions &o, const store::Result<Created> &created, QJsonObject (*toJson)(const Row &),
                 const QString &field, QString Created::*secretMember, const QString &noun, const QString &spaceName)
{
    if (!created)
        return fail(o, created.error());
    QJsonObject json = toJson(created->key);
    const QString &secret = (*created).*secretMember;
    const QString id = json.value(QStringLiteral("id")).toString();
    if (o.json) {
        json.insert(field, secret);
        printJson(json);
    } else {
        printLine(QStringLiteral("created %1 %2 in space %3\n%4 (shown once): %5")
                      .arg(noun, id, spaceName, field, secret));
    }
    return 0;
}

// The outcome of revoking secret `id`, a `noun` ("key", "signing key"): printed, and the
// exit code.
int printRevoked(const CommonOptions &o, const store::Result<store::Done> &done, const QString &id,
                 const QString &noun)
{
    if (!done)
        return fail(o, done.error());
    o.json ? printJson({{QStringLiteral("id"), id}, {QStringLiteral("revoked"), true}})
           : printLine(QStringLiteral("revoked %1 %2").arg(noun, id));
    return 0;
}

// A revocable secret's state as `key list` and `signing-key list` print it.
template<typename Row>
QString stateOf(const Row &key)
{
    return key.revokedAt ? QStringLiteral("revoked") : QStringLiteral("active");
}

// A secret's JSON as the CLI lists it: `json(row)` with revokedAt (null while active),
// which the API's lists leave out since they list only active keys.
template<typename Row>
auto withRevokedAt(QJsonObject (*json)(const Row &))
{
    return [json](const Row &key) {
        QJsonObject j = json(key);
        j.insert(QStringLiteral("revokedAt"), service::isoOrNull(key.revokedAt));
        return j;
    };
}

// The verbs every revocable secret's command shares, `list` and `revoke ID`: every key of
// the space, revoked ones too (--json: {"<arrayName>": [json(key) with revokedAt]}, as
// text one lineOf(key) line each), or the key revoked by the CLI, its `noun` ("key",
// "signing key") in the message. The exit code.
template<typename Service, typename Row, typename LineOf>
int listOrRevoke(const SecretCommand &c, Service &keys, const QString &arrayName, QJsonObject (*json)(const Row &),
                 LineOf lineOf, const QString &noun)
{
    const CommonOptions &o = c.options;
    if (c.verb == QLatin1String("revoke"))
        return printRevoked(o, keys.revoke({}, c.argument, kCli), c.argument, noun);
    auto space = service::AccountService(*c.env->db, c.env->config).spaceByName(c.spaceName);
    if (!space)
        return fail(o, space.error());
    auto list = keys.listAll(space->id);
    if (!list)
        return fail(o, list.error());
    return printList(o, arrayName, *list, withRevokedAt(json), lineOf);
}

} // namespace

int runSpaceCommand(const QStringList &arguments)
{
    const QString usageText = QStringLiteral("imprint space create NAME [--plan free|pro|business] | list |"
                                             " set-plan NAME PLAN   ")
                              + kCommon;
    CommandLine line(QStringLiteral("space"), usageText);
    line.addCommonOptions();
    line.addValueOption({QStringLiteral("plan")},
                        QStringLiteral("Plan of the new space (default: spaces.defaultPlan of the config, pro)."),
                        QStringLiteral("PLAN"));
    if (int rc = line.parse(arguments); rc >= 0)
        return rc;
    const QStringList pos = line.positionals();
    if (!isVerb(pos, "create", 2) && !isVerb(pos, "list", 1) && !isVerb(pos, "set-plan", 3))
        return line.usageError(missingVerb(pos));
    CommonOptions o;
    auto env = openData(line, &o);
    if (!env)
        return env.error();
    const QString verb = pos.value(0);
    service::AccountService accounts(*env->db, env->config);
    if (verb == QLatin1String("create")) {
        auto s = accounts.createSpace(pos[1], line.value(QStringLiteral("plan"), env->config.defaultPlan()), kCli);
        if (!s)
            return fail(o, s.error());
        o.json ? printJson(spaceJson(*s))
               : printLine(QStringLiteral("created space %1 (%2, plan %3)").arg(s->name, s->id, s->plan));
        return 0;
    }
    if (verb == QLatin1String("list")) {
        auto list = accounts.listSpaces();
        if (!list)
            return fail(o, list.error());
        return printList(o, QStringLiteral("spaces"), *list, spaceJson, [](const store::Space &s) {
            return QStringLiteral("%1  %2  %3").arg(s.name.leftJustified(20), s.plan.leftJustified(9), s.id);
        });
    }
    auto s = accounts.setPlan(pos[1], pos[2], kCli);
    if (!s)
        return fail(o, s.error());
    o.json ? printJson(spaceJson(*s)) : printLine(QStringLiteral("space %1 is now on plan %2").arg(s->name, s->plan));
    return 0;
}

int runUserCommand(const QStringList &arguments)
{
    const QString usageText = QStringLiteral("imprint user add --email E --space NAME --role owner|admin|member |"
                                             " passwd --email E | list [--space NAME]   ")
                              + kCommon
                              + QStringLiteral("\n(the password is read from stdin: one line, or the same line twice)");
    CommandLine line(QStringLiteral("user"), usageText);
    line.addCommonOptions();
    line.addValueOption({QStringLiteral("email")}, QStringLiteral("The user's e-mail address."),
                        QStringLiteral("EMAIL"));
    line.addValueOption({QStringLiteral("space")}, QStringLiteral("The space's name."), QStringLiteral("NAME"));
    line.addValueOption({QStringLiteral("role")}, QStringLiteral("owner, admin or member (default: member)."),
                        QStringLiteral("ROLE"));
    line.addFlag({QStringLiteral("create-space")},
                 QStringLiteral("add: create the space on spaces.defaultPlan when it does not exist."));
    if (int rc = line.parse(arguments); rc >= 0)
        return rc;
    const QStringList pos = line.positionals();
    const QString verb = pos.value(0);
    const QString email = line.value(QStringLiteral("email"));
    const QString space = line.value(QStringLiteral("space"));
    store::Role role = store::Role::Member;
    if (isVerb(pos, "add", 1)) {
        if (email.isEmpty() || space.isEmpty())
            return line.usageError(QStringLiteral("add needs --email and --space"));
        if (!store::parseRole(line.value(QStringLiteral("role"), QStringLiteral("member")), &role))
            return line.usageError(QStringLiteral("--role must be owner, admin or member"));
    } else if (isVerb(pos, "passwd", 1)) {
        if (email.isEmpty())
            return line.usageError(QStringLiteral("passwd needs --email"));
    } else if (!isVerb(pos, "list", 1)) {
        return line.usageError(missingVerb(pos));
    }
    CommonOptions o;
    auto env = openData(line, &o);
    if (!env)
        return env.error();
    service::AccountService accounts(*env->db, env->config);
    if (verb == QLatin1String("add")) {
        // A typo in --space must not quietly make a new space on some plan: a space is
        // created on purpose, with `imprint space create` or --create-space.
        if (!line.isSet(QStringLiteral("create-space"))) {
            auto existing = accounts.spaceByName(space);
            if (!existing && existing.error().code == store::ProblemCode::SpaceNotFound)
                return fail(o, common::problemCodeName(store::ProblemCode::SpaceNotFound),
                            QStringLiteral("there is no space '%1': create it first with `imprint space create %1 "
                                           "--plan %2` (or pass --create-space)")
                                .arg(space, env->config.planNames().join(u'|')));
            if (!existing)
                return fail(o, existing.error());
        }
        const auto password = readPassword(QStringLiteral("Password for %1").arg(email));
        if (!password)
            return fail(o, common::problemCodeName(store::ProblemCode::InvalidPassword), password.error());
        bool created = false;
        auto m = accounts.addUser(email, *password, space, role, kCli, &created);
        if (!m)
            return fail(o, m.error());
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
    if (verb == QLatin1String("passwd")) {
        const auto password = readPassword(QStringLiteral("New password for %1").arg(email));
        if (!password)
            return fail(o, common::problemCodeName(store::ProblemCode::InvalidPassword), password.error());
        auto done = accounts.setPassword(email, *password, kCli);
        if (!done)
            return fail(o, done.error());
        // setPassword() accepted it, so it normalises; print the address as stored.
        const QString stored = service::AccountService::normaliseEmail(email).value_or(email);
        o.json ? printJson({{QStringLiteral("email"), stored}, {QStringLiteral("updated"), true}})
               : printLine(QStringLiteral("password of %1 changed").arg(email));
        return 0;
    }
    {
        auto list = accounts.listUsers(space);
        if (!list)
            return fail(o, list.error());
        return printList(o, QStringLiteral("users"), *list, membershipJson, [](const store::Membership &m) {
            return QStringLiteral("%1  %2  %3")
                .arg(m.user.email.leftJustified(32), m.space.name.leftJustified(20), store::roleName(m.role));
        });
    }
}

int runKeyCommand(const QStringList &arguments)
{
    const QString usageText = QStringLiteral("imprint key create --space NAME --name N [--expires-days D]"
                                             " [--scopes render,content] | list --space NAME | revoke ID   ")
                              + kCommon;
    CommandLine line(QStringLiteral("key"), usageText);
    addSecretOptions(line);
    line.addValueOption({QStringLiteral("expires-days")}, QStringLiteral("create: days until the key expires."),
                        QStringLiteral("D"));
    line.addValueOption({QStringLiteral("scopes")},
                        QStringLiteral("create: comma-separated scopes, %1 (default %2).")
                            .arg(service::keyScopeList(QStringLiteral("and/or")),
                                 service::keyScopeName(service::KeyScope::Render)),
                        QStringLiteral("LIST"));
    SecretCommand c;
    if (int rc = openSecretCommand(line, arguments, &c); rc >= 0)
        return rc;
    service::ApiKeyService keys(*c.env->db);
    if (c.verb != QLatin1String("create"))
        return listOrRevoke(
            c, keys, QStringLiteral("keys"), service::keyJson,
            [](const store::ApiKey &k) {
                return QStringLiteral("%1  %2  %3  %4  %5")
                    .arg(k.id, k.prefix, k.name.leftJustified(24), stateOf(k), k.scopes.join(QLatin1Char(',')));
            },
            QStringLiteral("key"));
    const CommonOptions &o = c.options;
    qint64 expiresAt = 0;
    if (line.isSet(QStringLiteral("expires-days"))) {
        bool ok = false;
        const int days = line.value(QStringLiteral("expires-days")).toInt(&ok);
        if (!ok || days < 1)
            return fail(o, QStringLiteral("invalid_expires_days"),
                        QStringLiteral("--expires-days wants a positive integer"));
        expiresAt = store::nowMs() + qint64(days) * 86400 * 1000;
    }
    auto space = service::AccountService(*c.env->db, c.env->config).spaceByName(c.spaceName);
    if (!space)
        return fail(o, space.error());
    // The names are checked by the service (invalid_scopes), as for POST /tokens/api-keys,
    // so the CLI and the HTTP route accept exactly the same scopes.
    QStringList scopes{service::keyScopeName(service::KeyScope::Render)};
    if (line.isSet(QStringLiteral("scopes"))) {
        scopes.clear();
        for (const QString &s : line.value(QStringLiteral("scopes")).split(QLatin1Char(',')))
            scopes.append(s.trimmed());
        if (scopes == QStringList{QString()})
            scopes.clear(); // "--scopes ''" is an empty list, refused like []
    }
    return printCreated(o, keys.create(space->id, line.value(QStringLiteral("name")), expiresAt, {}, scopes),
                        service::keyJson, QStringLiteral("token"), &service::CreatedKey::token, QStringLiteral("key"),
                        space->name);
}

int runSigningKeyCommand(const QStringList &arguments)
{
    const QString usageText
        = QStringLiteral("imprint signing-key create --space NAME --name N | list --space NAME | revoke ID   ")
          + kCommon;
    CommandLine line(QStringLiteral("signing-key"), usageText);
    addSecretOptions(line);
    SecretCommand c;
    if (int rc = openSecretCommand(line, arguments, &c); rc >= 0)
        return rc;
    service::SigningKeyService keys(*c.env->db, c.env->dataDir);
    if (c.verb != QLatin1String("create"))
        return listOrRevoke(
            c, keys, QStringLiteral("signingKeys"), service::signingKeyJson,
            [](const store::SigningKey &k) {
                return QStringLiteral("%1  %2  %3").arg(k.id, k.name.leftJustified(24), stateOf(k));
            },
            QStringLiteral("signing key"));
    const CommonOptions &o = c.options;
    auto space = service::AccountService(*c.env->db, c.env->config).spaceByName(c.spaceName);
    if (!space)
        return fail(o, space.error());
    return printCreated(o, keys.create(space->id, line.value(QStringLiteral("name")), {}), service::signingKeyJson,
                        QStringLiteral("secret"), &service::CreatedSigningKey::secret, QStringLiteral("signing key"),
                        space->name);
}

int runUrlCommand(const QStringList &arguments)
{
    const QString usageText
        = QStringLiteral("imprint url sign --space NAME --signing-key ID [--expires SECONDS] URL   ") + kCommon;
    CommandLine line(QStringLiteral("url"), usageText);
    line.addSpaceOptions();
    line.addValueOption({QStringLiteral("signing-key")}, QStringLiteral("Id of the signing key (sgk_…)."),
                        QStringLiteral("ID"));
    line.addValueOption({QStringLiteral("expires")}, QStringLiteral("Seconds until the signed URL expires."),
                        QStringLiteral("SECONDS"));
    if (int rc = line.parse(arguments); rc >= 0)
        return rc;
    const QStringList pos = line.positionals();
    const QString spaceName = line.value(QStringLiteral("space"));
    const QString keyId = line.value(QStringLiteral("signing-key"));
    if (!isVerb(pos, "sign", 2))
        return line.usageError(missingVerb(pos));
    if (spaceName.isEmpty() || keyId.isEmpty())
        return line.usageError(QStringLiteral("sign needs --space and --signing-key"));
    CommonOptions o;
    auto env = openData(line, &o);
    if (!env)
        return env.error();
    qint64 seconds = 0;
    if (line.isSet(QStringLiteral("expires"))) {
        bool ok = false;
        seconds = line.value(QStringLiteral("expires")).toLongLong(&ok);
        if (!ok || seconds < 1)
            return fail(o, QStringLiteral("invalid_expires"),
                        QStringLiteral("--expires wants a positive number of seconds"));
    }
    service::AccountService accounts(*env->db, env->config);
    auto space = accounts.spaceByName(spaceName);
    if (!space)
        return fail(o, space.error());
    service::SigningKeyService keys(*env->db, env->dataDir);
    const auto signedUrl = keys.signUrl(space->id, keyId, pos[1], seconds, QDateTime::currentSecsSinceEpoch());
    if (!signedUrl)
        return fail(o, signedUrl.error());
    o.json ? printJson({{QStringLiteral("url"), *signedUrl}}) : printLine(*signedUrl);
    return 0;
}

} // namespace imprint::app
