#include "server/service/json.h"

#include "server/render/document/template.h"
#include "server/render/engine.h"
#include "server/store/database.h"

#include <QJsonArray>

namespace imprint::service {

QJsonValue isoOrNull(qint64 ms)
{
    return ms > 0 ? QJsonValue(store::isoFromMs(ms)) : QJsonValue(QJsonValue::Null);
}

namespace {

// Who made a key, as the key routes show it: the creator's e-mail, else their id, else
// "cli" for a key the CLI made.
QJsonValue creatorJson(const QString &email, const QString &userId)
{
    if (!email.isEmpty())
        return email;
    return userId.isEmpty() ? QStringLiteral("cli") : userId;
}

} // namespace

QJsonObject keyJson(const store::ApiKey &key)
{
    return QJsonObject{
        {QStringLiteral("id"), key.id},
        {QStringLiteral("name"), key.name},
        {QStringLiteral("prefix"), key.prefix},
        {QStringLiteral("createdAt"), isoOrNull(key.createdAt)},
        {QStringLiteral("expiresAt"), isoOrNull(key.expiresAt)},
        {QStringLiteral("lastUsedAt"), isoOrNull(key.lastUsedAt)},
        {QStringLiteral("createdBy"), creatorJson(key.createdByEmail, key.createdBy)},
        {QStringLiteral("scopes"), QJsonArray::fromStringList(key.scopes)},
    };
}

QJsonObject signingKeyJson(const store::SigningKey &key)
{
    return QJsonObject{
        {QStringLiteral("id"), key.id},
        {QStringLiteral("name"), key.name},
        {QStringLiteral("createdAt"), isoOrNull(key.createdAt)},
        {QStringLiteral("createdBy"), creatorJson(key.createdByEmail, key.createdBy)},
    };
}

QJsonObject pageJson(const store::PageRecord &p)
{
    return QJsonObject{
        {QStringLiteral("id"), p.id},
        {QStringLiteral("templateId"), p.templateId},
        {QStringLiteral("templateVersion"),
         p.templateVersion ? QJsonValue(*p.templateVersion) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("name"), p.name},
        {QStringLiteral("variables"), p.variables},
        {QStringLiteral("createdAt"), isoOrNull(p.createdAt)},
        {QStringLiteral("updatedAt"), isoOrNull(p.updatedAt)},
        {QStringLiteral("published"), p.publishedAt > 0},
        {QStringLiteral("publishedAt"), isoOrNull(p.publishedAt)},
        {QStringLiteral("publishedTemplateVersion"),
         p.publishedTemplateVersion > 0 ? QJsonValue(p.publishedTemplateVersion) : QJsonValue(QJsonValue::Null)},
    };
}

namespace {

QJsonValue pixelsOrNull(std::optional<int> px)
{
    return px ? QJsonValue(*px) : QJsonValue(QJsonValue::Null);
}

} // namespace

QJsonObject templateJson(const store::TemplateRecord &t, bool withDocument)
{
    QJsonObject o{
        {QStringLiteral("id"), t.id},
        {QStringLiteral("name"), t.name},
        // The image's size as the template is rendered, not the document's spelling of it
        // (a fractional or "1200px" width, or one in the root's style).
        {QStringLiteral("width"), pixelsOrNull(render::templateImageSide(t.document, QLatin1StringView("width")))},
        {QStringLiteral("height"), pixelsOrNull(render::templateImageSide(t.document, QLatin1StringView("height")))},
        {QStringLiteral("rendererType"),
         t.document.value(QStringLiteral("rendererType")).toString(render::engineName(render::kDefaultEngine))},
        {QStringLiteral("version"), t.version},
        {QStringLiteral("createdAt"), isoOrNull(t.createdAt)},
        {QStringLiteral("updatedAt"), isoOrNull(t.updatedAt)},
    };
    if (withDocument)
        o.insert(QStringLiteral("document"), t.document);
    return o;
}

QJsonObject templateVersionJson(const store::TemplateVersionRecord &v, bool withDocument)
{
    QJsonObject o{
        {QStringLiteral("templateId"), v.templateId},
        {QStringLiteral("version"), v.version},
        {QStringLiteral("name"), v.name},
        {QStringLiteral("createdAt"), isoOrNull(v.createdAt)},
        {QStringLiteral("createdBy"), v.actor},
    };
    if (withDocument)
        o.insert(QStringLiteral("document"), v.document);
    return o;
}

} // namespace imprint::service
