#pragma once
// A space's render usage over a time range (docs/api.md, "Usage"; issue 32): renders,
// errors by problem code, cache hits, bytes and p50/p95 durations per hour or day, in
// total and per API key, engine, format or problem code, summed in SQL from the render log
// (server/store/usage_repository.h).

#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/models.h"
#include "server/store/usage_repository.h"

#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace imprint::service {

using store::Result;

/// A checked usage query.
struct UsageQuery {
    qint64 fromMs = 0; ///< inclusive, epoch ms
    qint64 toMs = 0; ///< exclusive, epoch ms
    QString granularity = QStringLiteral("day"); ///< "hour" or "day"
    qint64 bucketMs = 86400000; ///< 3 600 000 or 86 400 000 (UTC hours or days)
    std::optional<store::UsageGroup> group; ///< none: no per-group figures
    QString groupName; ///< "key", "engine", "format", "code"; empty without a group
};

/// The figures of a query: the range's totals, one bucket per hour or day from the one
/// holding `from` to the one before `to` (empty ones included, renders 0), and per group.
struct UsageReport {
    UsageQuery query;
    store::UsageRow totals;
    QList<store::UsageErrorRow> totalErrors; ///< bucket 0, per code
    QList<store::UsageRow> groups; ///< per group over the range (bucket 0)
    QList<store::UsageRow> buckets; ///< every bucket, in order, group ""
    QList<store::UsageRow> bucketGroups; ///< per bucket and group, the non-empty ones
    QList<store::UsageErrorRow> bucketErrors; ///< per bucket and code, the non-empty ones
};

/// The usage use case.
class UsageService
{
public:
    /// The longest range of an hourly query (31 days) and of a daily one (400 days).
    static constexpr qint64 kMaxHourlyRangeMs = 31LL * 86400000;
    static constexpr qint64 kMaxDailyRangeMs = 400LL * 86400000;

    /// Reads `db`, which must outlive this.
    explicit UsageService(const store::Database &db)
        : m_db(db)
    { }

    /// Who may read a space's usage: owners and admins.
    static std::vector<store::Role> viewerRoles();

    /// Checks the query's parameters as given (null strings: absent) at time `nowMs`:
    /// `from` and `to` ISO 8601 date-times or dates (UTC midnight), `to` defaulting to now
    /// and `from` to 7 days before `to`; `granularity` hour|day (default day); `group`
    /// key|engine|format|code or absent. A 400 invalid_parameter naming the field when one
    /// is malformed or unknown, when from > to, or when the range is longer than 31 days
    /// hourly or 400 days daily.
    static Result<UsageQuery> parseQuery(const QString &from, const QString &to, const QString &granularity,
                                         const QString &group, qint64 nowMs);

    /// Space `spaceId`'s figures for `query`; the database error when a query failed.
    Result<UsageReport> report(const QString &spaceId, const UsageQuery &query);

private:
    const store::Database &m_db;
};

} // namespace imprint::service
