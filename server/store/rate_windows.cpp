#include "server/store/rate_windows.h"

#include "server/store/sql.h"

namespace imprint::store {

std::optional<int> RateWindows::hit(const QString &key, qint64 windowStartMs) const
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q,
                  QStringLiteral("INSERT INTO rate_windows (rate_key, window_start, hits) VALUES (?, ?, 1)"
                                 " ON CONFLICT (rate_key, window_start) DO UPDATE SET hits = rate_windows.hits + 1"
                                 " RETURNING hits"),
                  key, windowStartMs)
        || !q.next())
        return std::nullopt;
    return q.value(0).toInt();
}

bool RateWindows::prune(qint64 beforeMs) const
{
    QSqlQuery q(m_db.connection());
    return sql::run(q, QStringLiteral("DELETE FROM rate_windows WHERE window_start < ?"), beforeMs);
}

} // namespace imprint::store
