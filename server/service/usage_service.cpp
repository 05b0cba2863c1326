// A space's render usage (usage_service.h).

#include "server/service/usage_service.h"

#include <QDateTime>
#include <QTimeZone>

namespace imprint::service {

namespace {

using store::ServiceError;

constexpr qint64 kHourMs = 3600000;
constexpr qint64 kDayMs = 86400000;

/// `text` as epoch ms: an ISO 8601 date-time (an offset or Z; none means UTC) or a date
/// (its UTC midnight); nullopt when it is neither.
std::optional<qint64> instantOf(const QString &text)
{
    const QString t = text.trimmed();
    if (const QDate day = QDate::fromString(t, Qt::ISODate); day.isValid() && t.size() == 10)
        return QDateTime(day, QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
    QDateTime when = QDateTime::fromString(t, Qt::ISODateWithMs);
    if (!when.isValid())
        return std::nullopt;
    if (when.timeSpec() == Qt::LocalTime)
        when.setTimeSpec(Qt::UTC);
    return when.toMSecsSinceEpoch();
}

ServiceError invalid(const QString &field, const QString &message)
{
    return ServiceError::invalid(store::ProblemCode::InvalidParameter, field, message);
}

} // namespace

std::vector<store::Role> UsageService::viewerRoles()
{
    return {store::Role::Owner, store::Role::Admin};
}

Result<UsageQuery> UsageService::parseQuery(const QString &from, const QString &to, const QString &granularity,
                                            const QString &group, qint64 nowMs)
{
    UsageQuery q;
    if (!granularity.isNull()) {
        if (granularity != QLatin1String("hour") && granularity != QLatin1String("day"))
            return invalid(QStringLiteral("granularity"),
                           QStringLiteral("The parameter 'granularity' must be \"hour\" or \"day\"."));
        q.granularity = granularity;
    }
    q.bucketMs = q.granularity == QLatin1String("hour") ? kHourMs : kDayMs;
    if (!group.isNull()) {
        static const QList<QPair<QString, store::UsageGroup>> groups{
            {QStringLiteral("key"), store::UsageGroup::Key},
            {QStringLiteral("engine"), store::UsageGroup::Engine},
            {QStringLiteral("format"), store::UsageGroup::Format},
            {QStringLiteral("code"), store::UsageGroup::Code}};
        for (const auto &[name, value] : groups)
            if (group == name) {
                q.group = value;
                q.groupName = name;
            }
        if (!q.group)
            return invalid(QStringLiteral("group"),
                           QStringLiteral("The parameter 'group' must be \"key\", \"engine\", \"format\" or \"code\"."));
    }
    const QString example = QStringLiteral(" must be an ISO 8601 date-time or date, e.g. 2026-11-28T00:00:00Z.");
    q.toMs = nowMs;
    if (!to.isNull()) {
        const auto at = instantOf(to);
        if (!at)
            return invalid(QStringLiteral("to"), QStringLiteral("The parameter 'to'") + example);
        q.toMs = *at;
    }
    q.fromMs = q.toMs - 7 * kDayMs;
    if (!from.isNull()) {
        const auto at = instantOf(from);
        if (!at)
            return invalid(QStringLiteral("from"), QStringLiteral("The parameter 'from'") + example);
        q.fromMs = *at;
    }
    if (q.fromMs < 0)
        return invalid(QStringLiteral("from"), QStringLiteral("The parameter 'from' must not be before 1970."));
    if (q.fromMs > q.toMs)
        return invalid(QStringLiteral("from"), QStringLiteral("The parameter 'from' must not be after 'to'."));
    const qint64 longest = q.bucketMs == kHourMs ? kMaxHourlyRangeMs : kMaxDailyRangeMs;
    if (q.toMs - q.fromMs > longest)
        return invalid(QStringLiteral("to"),
                       QStringLiteral("The range from 'from' to 'to' is longer than %1 days, the most a query by %2 "
                                      "covers; ask for a shorter range or granularity=day.")
                           .arg(longest / kDayMs)
                           .arg(q.granularity));
    return q;
}

Result<UsageReport> UsageService::report(const QString &spaceId, const UsageQuery &query)
{
    store::UsageRepository log(m_db);
    UsageReport r;
    r.query = query;
    const auto totals = log.aggregate(spaceId, query.fromMs, query.toMs, 0, store::UsageGroup::None);
    if (!totals)
        return totals.error();
    if (!totals->isEmpty())
        r.totals = totals->first();
    const auto totalErrors = log.errorCodes(spaceId, query.fromMs, query.toMs, 0);
    const auto buckets = log.aggregate(spaceId, query.fromMs, query.toMs, query.bucketMs, store::UsageGroup::None);
    const auto bucketErrors = log.errorCodes(spaceId, query.fromMs, query.toMs, query.bucketMs);
    if (!totalErrors || !buckets || !bucketErrors)
        return ServiceError::database();
    r.totalErrors = *totalErrors;
    r.bucketErrors = *bucketErrors;
    if (query.group) {
        const auto groups = log.aggregate(spaceId, query.fromMs, query.toMs, 0, *query.group);
        const auto bucketGroups = log.aggregate(spaceId, query.fromMs, query.toMs, query.bucketMs, *query.group);
        if (!groups || !bucketGroups)
            return ServiceError::database();
        r.groups = *groups;
        r.bucketGroups = *bucketGroups;
    }
    // Every bucket of the range, the empty ones too: a chart's axis has no gaps.
    qsizetype next = 0;
    const qint64 last = query.toMs > query.fromMs ? query.toMs - 1 : query.fromMs;
    for (qint64 start = query.fromMs - query.fromMs % query.bucketMs; start <= last; start += query.bucketMs) {
        if (next < buckets->size() && buckets->at(next).bucket == start) {
            r.buckets.append(buckets->at(next++));
        } else {
            store::UsageRow empty;
            empty.bucket = start;
            r.buckets.append(empty);
        }
    }
    return r;
}

} // namespace imprint::service
