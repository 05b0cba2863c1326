#pragma once
// The Usage tab (issue 32): the space's renders per day by API key and by engine, p50/p95
// render time, errors by problem code, cache hits and bytes served over the last 7 or 30
// days, drawn with Qt Charts from GET /api/v1/usage (docs/api.md, "Usage"). Owners and
// admins only, as the route.

#include "gui/spacetab.h"

#include <QHash>
#include <QJsonObject>
#include <QMap>

class QBarCategoryAxis;
class QChart;
class QChartView;
class QComboBox;
class QLabel;

namespace imprint {
namespace gui {

/// Owners and admins see the charts (as the route allows); members see the role page.
class UsageTab : public SpaceTab
{
    Q_OBJECT
public:
    /// The figures of the whole range on show.
    struct Totals {
        qint64 renders = 0;
        qint64 errors = 0;
        qint64 cacheHits = 0;
        qint64 bytes = 0;
        double p50Ms = -1; ///< -1: no successful render in the range
        double p95Ms = -1;
        QMap<QString, qint64> errorsByCode;
    };

    explicit UsageTab(client::ApiClient *client, QWidget *parent = nullptr);

    /// Loads the figures again from the server.
    void reload() override;
    /// Shows the last `days` days (7 or 30; the range picker's choices), today included.
    void setDays(int days);
    int days() const { return m_days; }

    const Totals &totals() const { return m_totals; }
    /// The chart called `name`: "byKey", "byEngine", "duration", "errors", "cacheHits",
    /// "bytes"; null for another name.
    QChart *chart(const QString &name) const;
    /// The day labels of the charts' category axes, oldest first.
    const QStringList &dayLabels() const { return m_dayLabels; }

private:
    void clearData() override;
    void showReport(const QJsonObject &byEngine, const QJsonObject &byKey);
    void showTotals();
    void fillStacked(const QString &chartName, const QJsonArray &buckets, const QHash<QString, QString> &names);
    void fillErrors(const QJsonArray &buckets);
    void fillDurations(const QJsonArray &buckets);
    void fillSingle(const QString &chartName, const QJsonArray &buckets, const QString &member, double divisor,
                    const QString &unit);
    QChartView *addChart(const QString &name, const QString &title);
    /// A category axis of m_dayLabels at the bottom of `chart`.
    QBarCategoryAxis *addDayAxis(QChart *chart) const;

    QComboBox *m_range;
    QLabel *m_summary;
    QHash<QString, QChartView *> m_charts;
    QHash<QString, QString> m_keyNames; // key id → name
    QStringList m_dayLabels;
    QString m_rangeText; // "22/11/2026 – 28/11/2026" in the locale's short format
    Totals m_totals;
    int m_days = 7;
};

} // namespace gui
} // namespace imprint
