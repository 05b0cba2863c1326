#include "server/app/commands/demo.h"

#include "server/service/account_service.h"
#include "server/service/api_key_service.h"
#include "server/store/crypto.h"

namespace imprint::app {

namespace {

const QString kDemoSpace = QStringLiteral("demo");
const QString kDemoEmail = QStringLiteral("owner@demo.local");
const QString kDemoKeyName = QStringLiteral("demo");
// The key the printed revoke line revokes: not the demo key, which the render lines and
// docs/api.md's walk-through go on using.
const QString kSpareKeyName = QStringLiteral("demo (to revoke)");

} // namespace

common::Expected<DemoCredentials, QString> seedDemo(Environment &env)
{
    service::AccountService accounts(*env.db, env.config);
    service::ApiKeyService keys(*env.db);
    DemoCredentials out;
    out.email = kDemoEmail;
    out.password = store::randomBase62(16);

    auto space = accounts.spaceByName(kDemoSpace);
    if (!space && space.error().kind() != store::ServiceError::Kind::NotFound)
        return space.error().message;
    if (!space) {
        out.firstRun = true;
        space = accounts.createSpace(kDemoSpace, QStringLiteral("pro"), QStringLiteral("demo"));
        if (!space)
            return space.error().message;
    }
    bool createdUser = false;
    auto member = accounts.addUser(kDemoEmail, out.password, kDemoSpace, store::Role::Owner, QStringLiteral("demo"),
                                   &createdUser);
    if (!member)
        return member.error().message;
    if (!createdUser) {
        if (auto done = accounts.setPassword(kDemoEmail, out.password, QStringLiteral("demo")); !done)
            return done.error().message;
    }
    auto existing = keys.listAll(space->id);
    if (!existing)
        return existing.error().message;
    for (const store::ApiKey &k : existing.value()) {
        if ((k.name == kDemoKeyName || k.name == kSpareKeyName) && k.revokedAt == 0)
            keys.revoke(space->id, k.id, QStringLiteral("demo"));
    }
    auto key = keys.create(space->id, kDemoKeyName, 0, member->user.id);
    if (!key)
        return key.error().message;
    out.apiKeyId = key->key.id;
    out.apiToken = key->token;
    auto spare = keys.create(space->id, kSpareKeyName, 0, member->user.id);
    if (!spare)
        return spare.error().message;
    out.spareKeyId = spare->key.id;
    if (out.firstRun) {
        if (const auto imported = importDemoContent(env, space.value()); !imported)
            return imported.error();
    }
    return out;
}

QString demoBanner(const DemoCredentials &d, const QString &base)
{
    const QString api = base + QStringLiteral("/api/v1");
    QString s;
    s += QStringLiteral("\n== Imprint demo %1==\n").arg(d.firstRun ? QStringLiteral("(seeded now) ") : QString());
    s += QStringLiteral("space:    demo (plan pro)\n");
    s += QStringLiteral("owner:    %1\n").arg(d.email);
    s += QStringLiteral("password: %1\n").arg(d.password);
    s += QStringLiteral("API key:  %1  (id %2)\n").arg(d.apiToken, d.apiKeyId);
    s += QStringLiteral("(new password and key on every --demo start; the previous ones stop working)\n\n");
    s += QStringLiteral("# health\ncurl -s %1/health\n").arg(api);
    s += QStringLiteral("# log in (stores the session cookie in /tmp/imprint-demo.cookies)\n"
                        "curl -s -c /tmp/imprint-demo.cookies -H 'Content-Type: application/json' \\\n"
                        "  -d '{\"email\":\"%2\",\"password\":\"%3\"}' %1/auth/login\n")
             .arg(api, d.email, d.password);
    s += QStringLiteral("# create a key (the token is shown once)\n"
                        "curl -s -b /tmp/imprint-demo.cookies -H 'Content-Type: application/json' \\\n"
                        "  -d '{\"name\":\"my key\"}' %1/tokens/api-keys\n")
             .arg(api);
    s += QStringLiteral(
             "# list keys\ncurl -s -b /tmp/imprint-demo.cookies '%1/tokens/api-keys/index?page=1&perPage=20'\n")
             .arg(api);
    return s;
}

QString demoClosingBanner(const DemoCredentials &d, const QString &base)
{
    // It revokes a key made for the purpose: the demo key stays alive for the render lines
    // above and for docs/api.md's walk-through, which the reader may follow next.
    return QStringLiteral("\n# revoke a key (the spare \"%3\" key; the demo key above keeps working)\n"
                          "curl -s -b /tmp/imprint-demo.cookies -X DELETE %1/api/v1/tokens/api-keys/%2\n")
        .arg(base, d.spareKeyId, kSpareKeyName);
}

} // namespace imprint::app
