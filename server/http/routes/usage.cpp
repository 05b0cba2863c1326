// GET /api/v1/usage (usage.h): reads the query into a UsageService query and writes its
// report as JSON.
#include "server/http/routes/usage.h"

#include "server/http/problem.h"
#include "server/store/database.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QTimeZone>
#include <QUrlQuery>

namespace imprint::http {

namespace {

QString isoOf(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

// A duration in µs as ms with 3 decimals; null when there was none to measure.
QJsonValue msOf(qint64 us)
{
    return us < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(double(us) / 1000.0);
}

QJsonObject figures(const store::UsageRow &row)
{
    return QJsonObject{
        {QStringLiteral("renders"), row.renders}, {QStringLiteral("errors"), row.errors},
        {QStringLiteral("cacheHits"), row.cacheHits}, {QStringLiteral("bytes"), row.bytes},
        {QStringLiteral("p50Ms"), msOf(row.p50Us)}, {QStringLiteral("p95Ms"), msOf(row.p95Us)},
    };
}

QJsonObject errorsOf(const QList<store::UsageErrorRow> &rows, qint64 bucket)
{
    QJsonObject codes;
    for (const store::UsageErrorRow &e : rows)
        if (e.bucket == bucket)
            codes.insert(e.code, e.count);
    return codes;
}

QJsonObject groupEntry(const store::UsageRow &row)
{
    QJsonObject o = figures(row);
    o.insert(QStringLiteral("group"), row.group);
    return o;
}

QJsonObject reportJson(const service::UsageReport &r)
{
    QJsonObject totals = figures(r.totals);
    totals.insert(QStringLiteral("errorsByCode"), errorsOf(r.totalErrors, 0));
    QJsonArray groups;
    for (const store::UsageRow &g : r.groups)
        groups.append(groupEntry(g));
    QJsonArray buckets;
    for (const store::UsageRow &b : r.buckets) {
        QJsonObject o = figures(b);
        o.insert(QStringLiteral("start"), isoOf(b.bucket));
        o.insert(QStringLiteral("errorsByCode"), errorsOf(r.bucketErrors, b.bucket));
        if (r.query.group) {
            QJsonArray perGroup;
            for (const store::UsageRow &g : r.bucketGroups)
                if (g.bucket == b.bucket)
                    perGroup.append(groupEntry(g));
            o.insert(QStringLiteral("groups"), perGroup);
        }
        buckets.append(o);
    }
    QJsonObject data{
        {QStringLiteral("from"), isoOf(r.query.fromMs)},
        {QStringLiteral("to"), isoOf(r.query.toMs)},
        {QStringLiteral("granularity"), r.query.granularity},
        {QStringLiteral("group"), r.query.group ? QJsonValue(r.query.groupName) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("totals"), totals},
        {QStringLiteral("buckets"), buckets},
    };
    if (r.query.group)
        data.insert(QStringLiteral("groups"), groups);
    return data;
}

} // namespace

void UsageRoutes::registerRoutes(Router &router)
{
    // On the workers: five aggregate queries over the range.
    addRoutes(router, {
        onWorkers("GET", QStringLiteral("/usage"), m_viewer(this, &UsageRoutes::usage)),
    });
}

HttpResponse UsageRoutes::usage(const SessionContext &session, const HttpRequest &request)
{
    static const QStringList known{QStringLiteral("from"), QStringLiteral("to"), QStringLiteral("granularity"),
                                   QStringLiteral("group")};
    for (const auto &[name, value] : request.query().queryItems())
        if (!known.contains(name))
            return fieldProblem(400, QStringLiteral("invalid_parameter"), name,
                                QStringLiteral("Unknown parameter '%1' (from, to, granularity, group).").arg(name));
    const auto param = [&](const QString &name) { return request.queryValue(name).value_or(QString()); };
    const auto query = service::UsageService::parseQuery(param(QStringLiteral("from")), param(QStringLiteral("to")),
                                                         param(QStringLiteral("granularity")),
                                                         param(QStringLiteral("group")), store::nowMs());
    if (!query)
        return problemFor(query.error());
    const auto report = m_usage.report(session.spaceId, *query);
    if (!report)
        return problemFor(report.error());
    return HttpResponse::success(reportJson(*report));
}

} // namespace imprint::http
