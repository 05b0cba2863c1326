// The demo content of `imprint serve --demo`: the templates and pages of
// resources/demo/, imported and published once, and the curl lines that render them.
#include "server/app/commands/demo.h"

#include "server/service/account_service.h"
#include "server/service/content_validation.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace imprint::app {

namespace {

const QString kDemoDir = QStringLiteral(":/resources/demo");

/// The JSON document in the file at `path`, or why not.
common::Expected<QJsonDocument, QString> readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read %1").arg(path);
    QJsonParseError perr;
    QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &perr);
    if (doc.isNull())
        return QStringLiteral("%1: %2").arg(path, perr.errorString());
    return doc;
}

QString slug(const QString &name)
{
    static const QRegularExpression nonWord(QStringLiteral("[^a-z0-9]+"));
    QString s = name.toLower().replace(nonWord, QStringLiteral("-"));
    while (s.startsWith(QLatin1Char('-')))
        s.remove(0, 1);
    while (s.endsWith(QLatin1Char('-')))
        s.chop(1);
    return s.isEmpty() ? QStringLiteral("page") : s;
}

} // namespace

common::Expected<common::Done, QString> importDemoContent(Environment &env, const store::Space &space)
{
    service::ContentService content = service::contentService(*env.db);
    QHash<QString, QString> templateIds; // file key ("blog-post") → tpl_ id
    const QStringList files
        = QDir(kDemoDir + QStringLiteral("/templates")).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    if (files.isEmpty())
        return QStringLiteral("no demo templates in %1/templates").arg(kDemoDir);
    for (const QString &file : files) {
        const auto doc = readJson(kDemoDir + QStringLiteral("/templates/") + file);
        if (!doc)
            return doc.error();
        if (!doc->isObject())
            return QStringLiteral("demo template %1 is not a JSON object").arg(file);
        auto t = content.createTemplate(space.id, doc->object(), QStringLiteral("demo"));
        if (!t)
            return QStringLiteral("demo template %1: %2").arg(file, t.error().message);
        templateIds.insert(file.chopped(5), t->id);
    }
    const auto pages = readJson(kDemoDir + QStringLiteral("/pages.json"));
    if (!pages)
        return pages.error();
    if (!pages->isArray())
        return QStringLiteral("%1/pages.json is not a JSON array").arg(kDemoDir);
    for (const QJsonValue &v : pages->array()) {
        const QJsonObject p = v.toObject();
        const QString key = p.value(QStringLiteral("template")).toString();
        if (!templateIds.contains(key))
            return QStringLiteral("demo page '%1' names unknown template '%2'")
                     .arg(p.value(QStringLiteral("name")).toString(), key);
        const auto page
            = content.createPage(space.id, templateIds.value(key), p.value(QStringLiteral("name")).toString(),
                                 p.value(QStringLiteral("variables")).toObject(), QStringLiteral("demo"), true);
        if (!page)
            return QStringLiteral("demo page %1: %2")
                     .arg(p.value(QStringLiteral("name")).toString(), page.error().message);
    }
    return common::Done{};
}

QString demoRenderBanner(Environment &env, const DemoCredentials &demo, const QString &baseUrl)
{
    const QString api = baseUrl + QStringLiteral("/api/v1");
    service::AccountService accounts(*env.db, env.config);
    service::ContentService content = service::contentService(*env.db);
    auto space = accounts.spaceByName(QStringLiteral("demo"));
    if (!space)
        return {};
    auto pages = content.listPages(space->id);
    if (!pages)
        return {};
    const QString auth = QStringLiteral("-H 'Authorization: Bearer %1'").arg(demo.apiToken);
    QString s;
    s += QStringLiteral("\n# patterns (no token needed): catalog, then one render\n");
    s += QStringLiteral("curl -s %1/patterns\n").arg(api);
    s += QStringLiteral("curl -s -o waves-sunset.png '%1/render?pattern=waves-sunset'\n").arg(api);
    s += QStringLiteral("# with the demo key (plan pro: up to 2400 px), as JSON with a stored file\n");
    s += QStringLiteral("curl -s %1 -H 'Accept: application/json' -H 'Content-Type: application/json' \\\n"
                        "  -d '{\"pattern\":\"hexagons-midnight\",\"width\":1200,\"height\":630}' %2/render\n")
             .arg(auth, api);
    s += QStringLiteral("# the OpenAPI description of every route\ncurl -s %1/openapi.json\n").arg(api);
    s += QStringLiteral("\n# demo pages: JSON (stored file.url), then PNG, WebP and SVG bytes\n");
    for (const store::PageRecord &p : pages.value()) {
        if (!p.publishedAt)
            continue;
        const QString file = slug(p.name);
        s += QStringLiteral("# %1 (%2)\n").arg(p.name, p.id);
        s += QStringLiteral("curl -s %1 -H 'Content-Type: application/json' -d '{\"pageId\":\"%2\"}' %3/render\n")
                 .arg(auth, p.id, api);
        for (const char *format : {"png", "webp", "svg"})
            s += QStringLiteral("curl -s %1 -o %2.%3 '%4/render?pageId=%5&format=%3&output=binary'\n")
                     .arg(auth, file, QLatin1String(format), api, p.id);
    }
    return s;
}

} // namespace imprint::app
