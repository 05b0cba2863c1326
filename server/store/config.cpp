#include "server/store/config.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace imprint::store {

namespace {

QJsonObject deepMerge(QJsonObject base, const QJsonObject &over)
{
    for (auto it = over.begin(); it != over.end(); ++it) {
        if (it.value().isObject() && base.value(it.key()).isObject())
            base.insert(it.key(), deepMerge(base.value(it.key()).toObject(), it.value().toObject()));
        else
            base.insert(it.key(), it.value());
    }
    return base;
}

/// The JSON object in the file at `path`, or why not.
common::Expected<QJsonObject, QString> readJsonObject(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject())
        return QStringLiteral("%1 is not a JSON object: %2").arg(path, parseError.errorString());
    return doc.object();
}

const QString kDefaultsPath = QStringLiteral(":/resources/config/default.json");

/// The member of `json` at `path`, one key per level of nested objects ({"http",
/// "maxBodyBytes"}); undefined when a level is missing or not an object, so the
/// caller's toInt()/toDouble()/toString() fallback applies.
QJsonValue at(const QJsonObject &json, std::initializer_list<const char *> path)
{
    QJsonValue v = json;
    for (const char *key : path)
        v = v.toObject().value(QLatin1String(key));
    return v;
}

} // namespace

common::Expected<Config, QString> Config::load(const QString &dataDir)
{
    auto defaults = readJsonObject(kDefaultsPath);
    if (!defaults)
        return defaults.error();
    const QString overridePath = QDir(dataDir).filePath(QStringLiteral("config.json"));
    if (!dataDir.isEmpty() && QFile::exists(overridePath)) {
        auto overrides = readJsonObject(overridePath);
        if (!overrides)
            return overrides.error();
        return Config(deepMerge(*defaults, *overrides));
    }
    return Config(*defaults);
}

Config Config::defaults()
{
    return Config(readJsonObject(kDefaultsPath).value_or(QJsonObject()));
}

Config::Config(QJsonObject json)
    : m_json(std::move(json))
{
    const QJsonObject plans = m_json.value(QStringLiteral("plans")).toObject();
    for (auto it = plans.begin(); it != plans.end(); ++it) {
        if (!it->isObject())
            continue;
        const QJsonObject o = it->toObject();
        m_plans.insert(it.key(),
                       PlanLimits{o.value(QStringLiteral("maxWidth")).toInt(), o.value(QStringLiteral("maxHeight")).toInt(),
                                  qint64(o.value(QStringLiteral("assetBytes")).toDouble(0))});
    }
}

std::optional<PlanLimits> Config::plan(const QString &plan) const
{
    const auto it = m_plans.constFind(plan);
    if (it == m_plans.constEnd())
        return std::nullopt;
    return *it;
}

QStringList Config::planNames() const
{
    QStringList names = m_json.value(QStringLiteral("plans")).toObject().keys();
    std::sort(names.begin(), names.end());
    return names;
}

int Config::httpInt(const char *key, int fallback) const
{
    return at(m_json, {"http", key}).toInt(fallback);
}

int Config::maxConnections() const
{
    return httpInt("maxConnections", 1024);
}
int Config::maxConnectionsPerAddress() const
{
    return httpInt("maxConnectionsPerAddress", 256);
}
QStringList Config::corsOrigins() const
{
    QStringList origins;
    const QJsonValue v = at(m_json, {"http", "cors", "origins"});
    for (const QJsonValue &o : v.toArray())
        if (o.isString())
            origins.append(o.toString());
    // A single origin written as a string instead of a list means the same.
    if (v.isString())
        origins.append(v.toString());
    return origins;
}
QStringList Config::trustedProxies() const
{
    const QJsonValue v = at(m_json, {"http", "trustedProxies"});
    QStringList entries;
    for (const QJsonValue &e : v.toArray())
        entries.append(e.toString());
    if (v.isString())
        entries.append(v.toString());
    return entries;
}
int Config::corsMaxAgeSeconds() const
{
    return at(m_json, {"http", "cors", "maxAgeSeconds"}).toInt(600);
}
QString Config::metricsToken() const
{
    return at(m_json, {"http", "metricsToken"}).toString();
}
int Config::shutdownGraceMs() const
{
    return httpInt("shutdownGraceMs", 5000);
}

int Config::renderDeadlineMs(const QString &plan) const
{
    const QJsonObject plans = m_json.value(QStringLiteral("plans")).toObject();
    const int perPlan = plans.value(plan).toObject().value(QStringLiteral("renderDeadlineMs")).toInt(0);
    if (perPlan > 0)
        return perPlan;
    return at(m_json, {"render", "deadlineMs"}).toInt(10000);
}

int Config::idleTimeoutMs() const
{
    return httpInt("idleTimeoutMs", 30000);
}
int Config::requestTimeoutMs() const
{
    return httpInt("requestTimeoutMs", 10000);
}
int Config::databaseMaxConnections() const
{
    return std::max(0, at(m_json, {"database", "maxConnections"}).toInt(64));
}
int Config::workerQueueLimit() const
{
    return httpInt("workerQueueLimit", 64);
}

qint64 Config::maxBodyBytes() const
{
    return qint64(at(m_json, {"http", "maxBodyBytes"}).toDouble(1048576));
}

qint64 Config::maxUploadBytes() const
{
    return qint64(at(m_json, {"http", "maxUploadBytes"}).toDouble(32.0 * 1024 * 1024));
}

QString Config::defaultPlan() const
{
    return at(m_json, {"spaces", "defaultPlan"}).toString(QStringLiteral("pro"));
}

int Config::sessionLifetimeHours() const
{
    return at(m_json, {"auth", "sessionLifetimeHours"}).toInt(336);
}

int Config::loginFailureLimit() const
{
    return at(m_json, {"auth", "loginFailureLimit"}).toInt(10);
}

int Config::loginFailureWindowSeconds() const
{
    return at(m_json, {"auth", "loginFailureWindowSeconds"}).toInt(900);
}

qint64 Config::patternCacheBytes() const
{
    return qint64(at(m_json, {"render", "patternCacheBytes"}).toDouble(64.0 * 1024 * 1024));
}

QString Config::filesDir() const
{
    return at(m_json, {"files", "dir"}).toString();
}

QStringList Config::imageHostAllowlist() const
{
    QStringList hosts;
    const QJsonArray a = at(m_json, {"render", "imageHostAllowlist"}).toArray();
    for (const QJsonValue &v : a)
        hosts << v.toString().toLower();
    return hosts;
}

namespace {

double remoteImageSetting(const QJsonObject &json, const char *key, double fallback)
{
    return at(json, {"render", "remoteImages", key}).toDouble(fallback);
}

} // namespace

qint64 Config::remoteImageMaxBytes() const
{
    return qint64(remoteImageSetting(m_json, "maxBytes", 10.0 * 1024 * 1024));
}

int Config::remoteImageTimeoutMs() const
{
    return int(remoteImageSetting(m_json, "timeoutMs", 5000));
}

qint64 Config::remoteImageMaxPixels() const
{
    return qint64(remoteImageSetting(m_json, "maxPixels", 40e6));
}

int Config::remoteImageDefaultMaxAgeSeconds() const
{
    return int(remoteImageSetting(m_json, "defaultMaxAgeSeconds", 300));
}

qint64 Config::remoteImageMemoryCacheBytes() const
{
    return qint64(remoteImageSetting(m_json, "memoryCacheBytes", 64.0 * 1024 * 1024));
}

qint64 Config::remoteImageDiskCacheBytes() const
{
    return qint64(remoteImageSetting(m_json, "diskCacheBytes", 256.0 * 1024 * 1024));
}

void Config::setMaxConnections(int value)
{
    QJsonObject http = m_json.value(QStringLiteral("http")).toObject();
    http.insert(QStringLiteral("maxConnections"), value);
    m_json.insert(QStringLiteral("http"), http);
}

} // namespace imprint::store
