// A space's render usage (usage_service.h).

#include "server/service/usage_service.h"

#include <algorithm>

#include <QDateTime>
#include <QRegularExpression>
#include <QTimeZone>

namespace imprint::service {

namespace {

using store::ServiceError;

constexpr qint64 kHourMs = 3600000;
constexpr qint64 kDayMs = 86400000;

/// `text` as epoch ms: an RFC 3339 date-time (`Z`, an offset or none, which means UTC) or a
/// full date (its UTC midnight), year 1970 or later; nullopt when it is neither. The grammar
/// is the `pattern` the OpenAPI document gives `from` and `to` (issue 30), so what the
/// document calls valid and what this accepts are the same strings; QDate and QTime then
/// refuse the days a month does not have.
std::optional<qint64> instantOf(const QString &text)
{
    static const QRegularExpression grammar(QStringLiteral(
        "^(\\d{4})-(\\d{2})-(\\d{2})(?:T(\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?(Z|([+-])(\\d{2}):(\\d{2}))?)?$"));
    const QRegularExpressionMatch m = grammar.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const auto number = [&m](int group) { return m.capturedView(group).toInt(); };
    const QDate day(number(1), number(2), number(3));
    if (!day.isValid() || day.year() < 1970)
        return std::nullopt;
    if (!m.hasCaptured(4))
        return QDateTime(day, QTime(0, 0), Qt::UTC).toMSecsSinceEpoch();
    const int ms = m.hasCaptured(7) ? m.captured(7).left(3).leftJustified(3, QLatin1Char('0')).toInt() : 0;
    const QTime time(number(4), number(5), number(6), ms);
    if (!time.isValid())
        return std::nullopt;
    qint64 offsetMs = 0;
    if (m.hasCaptured(9)) {
        if (number(10) > 23 || number(11) > 59)
            return std::nullopt;
        offsetMs = (number(10) * 60LL + number(11)) * 60000 * (m.capturedView(9) == QLatin1String("-") ? -1 : 1);
    }
    return std::max<qint64>(0, QDateTime(day, time, Qt::UTC).toMSecsSinceEpoch() - offsetMs);
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
    const QString example = QStringLiteral(
        " must be an RFC 3339 date-time or date from 1970 on, e.g. 2026-11-28T00:00:00Z or 2026-11-28.");
    q.toMs = nowMs;
    if (!to.isNull()) {
        const auto at = instantOf(to);
        if (!at)
            return invalid(QStringLiteral("to"), QStringLiteral("The parameter 'to'") + example);
        q.toMs = *at;
    }
    q.fromMs = std::max<qint64>(0, q.toMs - 7 * kDayMs);
    if (!from.isNull()) {
        const auto at = instantOf(from);
        if (!at)
            return invalid(QStringLiteral("from"), QStringLiteral("The parameter 'from'") + example);
        q.fromMs = *at;
    }
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
