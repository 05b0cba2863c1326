#include "shared/apitypes.h"

#include "server/common/render_enums.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

#include <initializer_list>

namespace imprint::client {

namespace {

// The contract spells fields in camelCase; snake_case is accepted as well so a
// differently-spelled server field never leaves the console blank.
QJsonValue field(const QJsonObject &o, std::initializer_list<const char *> names)
{
    for (const char *n : names) {
        const auto it = o.constFind(QLatin1String(n));
        if (it != o.constEnd() && !it->isNull() && !it->isUndefined())
            return *it;
    }
    return {};
}

QString str(const QJsonObject &o, std::initializer_list<const char *> names)
{
    return jsonText(field(o, names));
}

int num(const QJsonObject &o, std::initializer_list<const char *> names, int fallback = 0)
{
    const QJsonValue v = field(o, names);
    if (v.isDouble())
        return v.toInt(fallback);
    if (v.isString()) {
        bool ok = false;
        const int n = v.toString().toInt(&ok);
        return ok ? n : fallback;
    }
    return fallback;
}

QString valueText(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String: return v.toString();
    case QJsonValue::Double: return QString::number(v.toDouble(), 'g', 15);
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Array: return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object: return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    default: return {};
    }
}

} // namespace

QDateTime parseTimestamp(const QJsonValue &v)
{
    if (v.isDouble()) {
        const double d = v.toDouble();
        // Seconds or milliseconds since the epoch.
        return d < 1e11 ? QDateTime::fromSecsSinceEpoch(qint64(d), Qt::UTC)
                        : QDateTime::fromMSecsSinceEpoch(qint64(d), Qt::UTC);
    }
    if (!v.isString() || v.toString().isEmpty())
        return {};
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(v.toString(), Qt::ISODate);
    if (!t.isValid()) // "2026-01-02 03:04:05" as SQLite writes it, UTC
        t = QDateTime::fromString(v.toString(), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    if (t.isValid() && t.timeSpec() == Qt::LocalTime && !v.toString().contains(QLatin1Char('+')))
        t.setTimeSpec(Qt::UTC);
    return t;
}

User User::fromJson(const QJsonObject &o)
{
    return {str(o, {"id"}), str(o, {"email"}), str(o, {"name", "displayName", "display_name"})};
}

Space Space::fromJson(const QJsonObject &o)
{
    return {str(o, {"id"}), str(o, {"name"}), str(o, {"plan"})};
}

Me Me::fromJson(const QJsonObject &data)
{
    Me me;
    me.user = User::fromJson(data.value(QLatin1String("user")).toObject());
    const QJsonValue space = data.value(QLatin1String("space"));
    if (space.isObject())
        me.space = Space::fromJson(space.toObject());
    else
        me.space.id = str(data, {"spaceId", "space_id"});
    me.role = str(data, {"role"});
    if (me.role.isEmpty()) {
        me.role = str(data.value(QLatin1String("user")).toObject(), {"role"});
        if (me.role.isEmpty())
            me.role = str(space.toObject(), {"role"});
    }
    me.role = me.role.toLower();
    return me;
}

ApiKey ApiKey::fromJson(const QJsonObject &o)
{
    ApiKey k;
    k.id = str(o, {"id"});
    k.name = str(o, {"name"});
    k.prefix = str(o, {"prefix", "tokenPrefix", "token_prefix"});
    k.createdAt = parseTimestamp(field(o, {"createdAt", "created_at"}));
    k.expiresAt = parseTimestamp(field(o, {"expiresAt", "expires_at"}));
    k.lastUsedAt = parseTimestamp(field(o, {"lastUsedAt", "last_used_at"}));
    const QJsonValue by = field(o, {"createdBy", "created_by"});
    if (by.isObject())
        k.createdBy = User::fromJson(by.toObject()).displayName();
    else
        k.createdBy = valueText(by);
    for (const QJsonValue &scope : o.value(QLatin1String("scopes")).toArray())
        k.scopes.append(scope.toString());
    return k;
}

KeyPage KeyPage::fromJson(const QJsonObject &data)
{
    KeyPage p;
    for (const QJsonValue &v : data.value(QLatin1String("list")).toArray())
        p.list.append(ApiKey::fromJson(v.toObject()));
    p.count = num(data, {"count", "total"}, int(p.list.size()));
    p.perPage = qMax(1, num(data, {"perPage", "per_page"}, 20));
    p.pagesCount = num(data, {"pagesCount", "pages_count"}, (p.count + p.perPage - 1) / p.perPage);
    p.pagesCount = qMax(1, p.pagesCount);
    p.page = qMax(1, num(data, {"page"}, 1));
    return p;
}

CreatedKey CreatedKey::fromJson(const QJsonObject &data)
{
    CreatedKey c;
    // Either the key fields beside the token, or nested under "key"/"apiKey".
    const QJsonValue nested = field(data, {"key", "apiKey", "api_key"});
    c.key = ApiKey::fromJson(nested.isObject() ? nested.toObject() : data);
    c.token = str(data, {"token", "plaintext", "secret", "apiToken"});
    if (c.token.isEmpty() && nested.isObject())
        c.token = str(nested.toObject(), {"token", "plaintext", "secret"});
    if (c.key.prefix.isEmpty() && c.token.size() > 12)
        c.key.prefix = c.token.left(12);
    return c;
}

SigningKey SigningKey::fromJson(const QJsonObject &o)
{
    SigningKey k;
    k.id = str(o, {"id"});
    k.name = str(o, {"name"});
    k.createdAt = parseTimestamp(field(o, {"createdAt"}));
    const QJsonValue by = field(o, {"createdBy"});
    k.createdBy = by.isObject() ? User::fromJson(by.toObject()).displayName() : valueText(by);
    return k;
}

template<typename T>
ListPage<T> ListPage<T>::fromJson(const QJsonObject &data)
{
    ListPage<T> p;
    for (const QJsonValue &v : data.value(QLatin1String("list")).toArray())
        p.list.append(T::fromJson(v.toObject()));
    p.count = num(data, {"count"}, int(p.list.size()));
    return p;
}

template struct ListPage<SigningKey>;

FontFace FontFace::fromJson(const QJsonObject &o)
{
    FontFace f;
    f.id = str(o, {"id"});
    f.family = str(o, {"family"});
    f.weight = num(o, {"weight"}, 400);
    f.style = str(o, {"style"});
    f.format = str(o, {"format"});
    f.sha256 = str(o, {"sha256"});
    f.bytes = qint64(field(o, {"bytes"}).toDouble());
    f.createdAt = parseTimestamp(field(o, {"createdAt"}));
    return f;
}

template struct ListPage<FontFace>;

CreatedSigningKey CreatedSigningKey::fromJson(const QJsonObject &data)
{
    CreatedSigningKey c;
    c.key = SigningKey::fromJson(data);
    c.secret = str(data, {"secret"});
    return c;
}

PageSummary PageSummary::fromJson(const QJsonObject &o)
{
    PageSummary p;
    p.id = str(o, {"id"});
    p.templateId = str(o, {"templateId", "template_id"});
    p.name = str(o, {"name", "title"});
    p.variables = field(o, {"variables", "values"}).toObject();
    const QJsonValue pub = field(o, {"published", "isPublished", "publishedAt", "published_at"});
    p.published = pub.isBool() ? pub.toBool() : !pub.isUndefined() && !pub.isNull();
    p.templateVersion = o.value(QLatin1String("templateVersion")).toInt();
    p.publishedTemplateVersion = o.value(QLatin1String("publishedTemplateVersion")).toInt();
    return p;
}

TemplateSummary TemplateSummary::fromJson(const QJsonObject &data)
{
    // The template document may come bare or wrapped (`{id, name, content: {...}}`).
    QJsonObject doc = data;
    for (const char *wrap : {"content", "template", "document", "definition"}) {
        const QJsonValue w = data.value(QLatin1String(wrap));
        if (w.isObject() && w.toObject().contains(QLatin1String("variables"))) {
            doc = w.toObject();
            break;
        }
    }
    TemplateSummary t;
    t.id = str(data, {"id"});
    t.name = str(data, {"name"});
    if (t.name.isEmpty())
        t.name = str(doc, {"name"});
    t.width = num(doc, {"width"}, num(data, {"width"}));
    t.height = num(doc, {"height"}, num(data, {"height"}));
    t.rendererType = str(doc, {"rendererType", "renderer_type"});
    t.version = data.value(QLatin1String("version")).toInt();
    t.sizes = templateSizeNames(doc);
    const QJsonValue vars = doc.value(QLatin1String("variables"));
    if (vars.isArray()) {
        for (const QJsonValue &v : vars.toArray()) {
            const QJsonObject o = v.toObject();
            t.variables.append({str(o, {"name"}), str(o, {"type"}), valueText(field(o, {"default", "defaultValue"}))});
        }
    } else if (vars.isObject()) { // {name: default} or {name: {type, default}}
        const QJsonObject o = vars.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it->isObject())
                t.variables.append({it.key(), str(it->toObject(), {"type"}),
                                    valueText(field(it->toObject(), {"default", "defaultValue"}))});
            else
                t.variables.append({it.key(), QString(), valueText(*it)});
        }
    }
    return t;
}

QStringList builtinSizeNames()
{
    return {QStringLiteral("og"),       QStringLiteral("twitter"), QStringLiteral("linkedin"),
            QStringLiteral("square"),   QStringLiteral("portrait"), QStringLiteral("story"),
            QStringLiteral("pinterest")};
}

QStringList templateSizeNames(const QJsonObject &document)
{
    const QJsonValue sizes = document.value(QLatin1String("sizes"));
    QStringList names = sizes.isObject() ? sizes.toObject().keys() : QStringList();
    for (const QJsonValue &v : sizes.toArray())
        names << v.toString();
    for (const QString &b : builtinSizeNames())
        if (!names.contains(b, Qt::CaseInsensitive))
            names << b;
    return names;
}

QJsonObject RenderRequest::toJson() const
{
    QJsonObject o{
        {QStringLiteral("pageId"), pageId}, {QStringLiteral("draft"), draft}, {QStringLiteral("format"), format}};
    if (!templateId.isEmpty())
        o.insert(QStringLiteral("templateId"), templateId);
    if (!renderType.isEmpty())
        o.insert(QStringLiteral("renderType"), renderType);
    if (scale != 1)
        o.insert(QStringLiteral("scale"), scale);
    if (!size.isEmpty())
        o.insert(QStringLiteral("size"), size);
    if (!tweaks.isEmpty())
        o.insert(QStringLiteral("tweaks"), tweaks);
    return o;
}

QUrl RenderRequest::toGetUrl(const QUrl &apiBase) const
{
    QUrl url = apiBase;
    url.setPath(url.path() + QStringLiteral("/render"));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("pageId"), pageId);
    if (!templateId.isEmpty())
        q.addQueryItem(QStringLiteral("templateId"), templateId);
    if (draft)
        q.addQueryItem(QStringLiteral("draft"), QStringLiteral("true"));
    q.addQueryItem(QStringLiteral("format"), format);
    if (!renderType.isEmpty())
        q.addQueryItem(QStringLiteral("renderType"), renderType);
    if (scale != 1)
        q.addQueryItem(QStringLiteral("scale"), QString::number(scale));
    if (!size.isEmpty())
        q.addQueryItem(QStringLiteral("size"), size);
    for (auto it = tweaks.begin(); it != tweaks.end(); ++it)
        q.addQueryItem(QStringLiteral("tweaks.") + it.key(), QString(QUrl::toPercentEncoding(valueText(*it))));
    url.setQuery(q);
    return url;
}

double RenderResult::totalMs() const
{
    for (const auto &t : timings)
        if (t.first == QLatin1String("total"))
            return t.second;
    double sum = 0;
    for (const auto &t : timings)
        sum += t.second;
    return sum;
}

RenderResult RenderResult::fromJson(const QJsonObject &o, const QUrl &serverBase)
{
    RenderResult r;
    r.pageId = str(o, {"pageId", "page_id"});
    r.templateId = str(o, {"templateId", "template_id"});
    r.renderType = str(o, {"renderType", "render_type"});
    r.format = str(o, {"format"});
    r.width = num(o, {"width"});
    r.height = num(o, {"height"});
    r.reused = o.value(QLatin1String("reused")).toBool();
    const QJsonObject timings = o.value(QLatin1String("timings")).toObject();
    static const char *const order[] = {"load", "layout", "paint", "encode", "store", "total"};
    for (const char *k : order)
        if (timings.contains(QLatin1String(k)))
            r.timings.append({QString::fromLatin1(k), timings.value(QLatin1String(k)).toDouble()});
    for (auto it = timings.begin(); it != timings.end(); ++it) {
        bool known = false;
        for (const char *k : order)
            known = known || it.key() == QLatin1String(k);
        if (!known && it->isDouble())
            r.timings.insert(qMax(0, int(r.timings.size()) - 1), {it.key(), it->toDouble()});
    }
    const QJsonObject file = o.value(QLatin1String("file")).toObject();
    const QString url = str(file, {"url"});
    if (!url.isEmpty())
        r.fileUrl = serverBase.resolved(QUrl(url));
    r.contentType = str(file, {"contentType", "content_type"});
    r.size = qint64(field(file, {"size", "bytes"}).toDouble());
    r.sha256 = str(file, {"sha256"});
    for (const QJsonValue &w : o.value(QLatin1String("warnings")).toArray())
        r.warnings.append(w.isString() ? w.toString() : valueText(w));
    return r;
}

QStringList renderEngineNames()
{
    return render::kEngineNames.names();
}

QString jsonText(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 15);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return {};
}

} // namespace imprint::client
