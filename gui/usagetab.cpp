#include "gui/usagetab.h"

#include "gui/messagebanner.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBarSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPushButton>
#include <QStackedBarSeries>
#include <QStackedWidget>
#include <QUrlQuery>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>

namespace imprint {
namespace gui {

namespace {

// Chart text a step smaller than the window's, so six charts stay readable side by side
// at the default window size (1040 × 680).
QFont chartFont(const QWidget *widget, int delta, bool bold = false)
{
    QFont f = widget->font();
    f.setPointSizeF(std::max(6.0, f.pointSizeF() + delta));
    f.setBold(bold);
    return f;
}

void clearChart(QChart *chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

// A y axis from 0 to at least `max` with whole-number ticks when `integers`.
QValueAxis *valueAxis(double max, bool integers, const QFont &font)
{
    auto *axis = new QValueAxis;
    axis->setRange(0, std::max(integers ? 4.0 : 1.0, max));
    axis->applyNiceNumbers();
    axis->setLabelFormat(integers || max >= 10 ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
    axis->setLabelsFont(font);
    return axis;
}

} // namespace

UsageTab::UsageTab(client::ApiClient *client, QWidget *parent)
    : SpaceTab(client, Audience::KeyManagers, QString(), QStringLiteral("usageMessage"), parent)
{
    auto *layout = new QVBoxLayout(this);
    auto *page = new QWidget(this);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    m_range = new QComboBox(page);
    m_range->setObjectName(QStringLiteral("usageRange"));
    m_range->addItem(tr("Last 7 days"), 7);
    m_range->addItem(tr("Last 30 days"), 30);
    QPushButton *refresh = makeRefreshButton(QStringLiteral("usageRefresh"));
    m_summary = new QLabel(page);
    m_summary->setObjectName(QStringLiteral("usageSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar->addWidget(m_range);
    bar->addWidget(refresh);
    bar->addWidget(m_summary, 1);
    pageLayout->addLayout(bar);
    auto *grid = new QGridLayout;
    grid->setSpacing(4);
    grid->addWidget(addChart(QStringLiteral("byKey"), tr("Renders per day by API key")), 0, 0);
    grid->addWidget(addChart(QStringLiteral("byEngine"), tr("Renders per day by engine")), 0, 1);
    grid->addWidget(addChart(QStringLiteral("duration"), tr("Render time (ms)")), 0, 2);
    grid->addWidget(addChart(QStringLiteral("errors"), tr("Errors per day by problem code")), 1, 0);
    grid->addWidget(addChart(QStringLiteral("cacheHits"), tr("Cache hits per day")), 1, 1);
    grid->addWidget(addChart(QStringLiteral("bytes"), tr("Bytes served per day")), 1, 2);
    pageLayout->addLayout(grid, 1);

    layout->addWidget(m_message);
    layout->addWidget(withRolePage(page,
                                   tr("You need the owner or admin role to see this space's usage.\n"
                                      "Ask an owner of this space to change your role, then sign in again."),
                                   QStringLiteral("usageRoleMessage")),
                      1);

    connect(m_range, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_days = m_range->itemData(index).toInt();
        reload();
    });
}

QChartView *UsageTab::addChart(const QString &name, const QString &title)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    chart->setTitleFont(chartFont(this, -1, true));
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setFont(chartFont(this, -2));
    chart->legend()->setMarkerShape(QLegend::MarkerShapeRectangle);
    auto *view = new QChartView(chart, this); // the view owns the chart
    view->setObjectName(QStringLiteral("usageChart_") + name);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(220, 180);
    m_charts.insert(name, view);
    return view;
}

QChart *UsageTab::chart(const QString &name) const
{
    QChartView *view = m_charts.value(name);
    return view ? view->chart() : nullptr;
}

void UsageTab::clearData()
{
    m_totals = {};
    m_keyNames.clear();
    for (QChartView *view : std::as_const(m_charts))
        clearChart(view->chart());
    m_summary->clear();
}

void UsageTab::setDays(int days)
{
    const int index = m_range->findData(days);
    if (index >= 0 && index != m_range->currentIndex())
        m_range->setCurrentIndex(index); // reloads
}

void UsageTab::reload()
{
    const auto started = beginLoad();
    if (!started)
        return;
    const quint64 generation = *started;
    // Whole UTC days, today included: the server's day buckets.
    const QDate today = QDateTime::currentDateTimeUtc().date();
    QUrlQuery range;
    range.addQueryItem(QStringLiteral("from"), today.addDays(1 - m_days).toString(Qt::ISODate));
    range.addQueryItem(QStringLiteral("to"), today.addDays(1).toString(Qt::ISODate));
    range.addQueryItem(QStringLiteral("granularity"), QStringLiteral("day"));
    QUrlQuery byEngine = range;
    byEngine.addQueryItem(QStringLiteral("group"), QStringLiteral("engine"));
    QUrlQuery byKey = range;
    byKey.addQueryItem(QStringLiteral("group"), QStringLiteral("key"));
    const auto failed = [this](const client::ApiError &error) {
        endLoad();
        m_message->showMessage(error.humanMessage(), MessageBanner::Kind::Error);
        Q_EMIT loaded();
    };
    // Key names first (the usage names keys by id), then the two groupings.
    m_client->listKeys(1, 100, this, [=, this](const client::ApiResult<client::KeyPage> &keys) {
        if (!isCurrent(generation))
            return;
        if (keys.has_value())
            for (const client::ApiKey &k : keys.value().list)
                m_keyNames.insert(k.id, k.name);
        m_client->usage(byEngine, this, [=, this](const client::ApiResult<QJsonObject> &engines) {
            if (!isCurrent(generation))
                return;
            if (!engines.has_value())
                return failed(engines.error());
            m_client->usage(byKey, this, [=, this](const client::ApiResult<QJsonObject> &perKey) {
                if (!isCurrent(generation))
                    return;
                if (!perKey.has_value())
                    return failed(perKey.error());
                endLoad();
                showReport(engines.value(), perKey.value());
                Q_EMIT loaded();
            });
        });
    });
}

void UsageTab::showReport(const QJsonObject &byEngine, const QJsonObject &byKey)
{
    const QJsonObject t = byEngine.value(QStringLiteral("totals")).toObject();
    m_totals = {};
    m_totals.renders = t.value(QStringLiteral("renders")).toInteger();
    m_totals.errors = t.value(QStringLiteral("errors")).toInteger();
    m_totals.cacheHits = t.value(QStringLiteral("cacheHits")).toInteger();
    m_totals.bytes = t.value(QStringLiteral("bytes")).toInteger();
    m_totals.p50Ms = t.value(QStringLiteral("p50Ms")).toDouble(-1);
    m_totals.p95Ms = t.value(QStringLiteral("p95Ms")).toDouble(-1);
    const QJsonObject codes = t.value(QStringLiteral("errorsByCode")).toObject();
    for (auto it = codes.begin(); it != codes.end(); ++it)
        m_totals.errorsByCode.insert(it.key(), it.value().toInteger());
    const QJsonArray buckets = byEngine.value(QStringLiteral("buckets")).toArray();
    m_dayLabels.clear();
    // The day of the month: Qt Charts elides a category label wider than its bar, and
    // anything longer is at the default window size. The summary line names the range.
    const QString format = QStringLiteral("d");
    QList<QDate> days;
    for (const QJsonValue &b : buckets) {
        days.append(QDateTime::fromString(b[QStringLiteral("start")].toString(), Qt::ISODate).toUTC().date());
        m_dayLabels.append(QLocale().toString(days.constLast(), format));
    }
    m_rangeText = days.isEmpty() ? QString()
                                 : QLocale().toString(days.constFirst(), QLocale::ShortFormat) + QStringLiteral(" – ")
                                       + QLocale().toString(days.constLast(), QLocale::ShortFormat);
    QHash<QString, QString> keyNames = m_keyNames;
    keyNames.insert(QString(), tr("(no key)"));
    fillStacked(QStringLiteral("byKey"), byKey.value(QStringLiteral("buckets")).toArray(), keyNames);
    fillStacked(QStringLiteral("byEngine"), buckets, {});
    fillDurations(buckets);
    fillErrors(buckets);
    fillSingle(QStringLiteral("cacheHits"), buckets, QStringLiteral("cacheHits"), 1, QString());
    const bool mebibytes = m_totals.bytes >= 10 * 1024 * 1024;
    fillSingle(QStringLiteral("bytes"), buckets, QStringLiteral("bytes"), mebibytes ? 1024.0 * 1024 : 1024.0,
               mebibytes ? tr("MiB") : tr("KiB"));
    showTotals();
}

void UsageTab::showTotals()
{
    const QLocale locale;
    const auto ms = [&](double v) {
        return v < 0 ? tr("–") : tr("%1 ms").arg(locale.toString(v, 'f', v < 10 ? 2 : 1));
    };
    m_summary->setText(tr("%1: renders %2 · errors %3 · cache hits %4 · bytes served %5 · p50 %6 · p95 %7")
                           .arg(m_rangeText, locale.toString(m_totals.renders), locale.toString(m_totals.errors),
                                locale.toString(m_totals.cacheHits), locale.formattedDataSize(m_totals.bytes),
                                ms(m_totals.p50Ms), ms(m_totals.p95Ms)));
    if (m_totals.renders == 0)
        m_message->showMessage(tr("No renders in this range yet: the charts fill in as the space's API keys and "
                                  "signed URLs render."),
                               MessageBanner::Kind::Info);
    else
        m_message->clearMessage();
}

void UsageTab::fillStacked(const QString &chartName, const QJsonArray &buckets, const QHash<QString, QString> &names)
{
    QChart *c = chart(chartName);
    clearChart(c);
    // One bar set per group value, in the order of the range's biggest first.
    QMap<QString, QList<qreal>> perGroup;
    QMap<QString, qint64> sums;
    for (qsizetype day = 0; day < buckets.size(); ++day) {
        for (const QJsonValue &g : buckets.at(day)[QStringLiteral("groups")].toArray()) {
            const QString group = g[QStringLiteral("group")].toString();
            QList<qreal> &values = perGroup[group];
            values.resize(buckets.size(), 0);
            values[day] = g[QStringLiteral("renders")].toDouble();
            sums[group] += g[QStringLiteral("renders")].toInteger();
        }
    }
    QStringList order = perGroup.keys();
    std::stable_sort(order.begin(), order.end(), [&](const QString &a, const QString &b) { return sums[a] > sums[b]; });
    auto *series = new QStackedBarSeries;
    for (const QString &group : order) {
        auto *set = new QBarSet(names.value(group, group));
        set->setObjectName(group);
        set->append(perGroup[group]);
        series->append(set);
    }
    c->addSeries(series);
    qreal highest = 0;
    for (qsizetype day = 0; day < buckets.size(); ++day)
        highest = std::max<qreal>(highest, buckets.at(day)[QStringLiteral("renders")].toDouble());
    QBarCategoryAxis *x = addDayAxis(c);
    c->addAxis(valueAxis(highest, true, chartFont(this, -2)), Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(c->axes(Qt::Vertical).constFirst());
    c->legend()->setVisible(!order.isEmpty());
}

QBarCategoryAxis *UsageTab::addDayAxis(QChart *chart) const
{
    auto *x = new QBarCategoryAxis;
    x->append(m_dayLabels);
    x->setLabelsFont(chartFont(this, -2));
    chart->addAxis(x, Qt::AlignBottom);
    return x;
}

void UsageTab::fillErrors(const QJsonArray &buckets)
{
    // The same shape as fillStacked(), from each day's errorsByCode.
    QJsonArray asGroups;
    for (const QJsonValue &b : buckets) {
        QJsonObject day = b.toObject();
        QJsonArray groups;
        const QJsonObject codes = day.value(QStringLiteral("errorsByCode")).toObject();
        for (auto it = codes.begin(); it != codes.end(); ++it)
            groups.append(QJsonObject{{QStringLiteral("group"), it.key()}, {QStringLiteral("renders"), it.value()}});
        day.insert(QStringLiteral("groups"), groups);
        day.insert(QStringLiteral("renders"), day.value(QStringLiteral("errors")));
        asGroups.append(day);
    }
    fillStacked(QStringLiteral("errors"), asGroups, {});
}

void UsageTab::fillDurations(const QJsonArray &buckets)
{
    QChart *c = chart(QStringLiteral("duration"));
    clearChart(c);
    auto *p50 = new QLineSeries;
    p50->setName(tr("p50"));
    p50->setObjectName(QStringLiteral("p50"));
    auto *p95 = new QLineSeries;
    p95->setName(tr("p95"));
    p95->setObjectName(QStringLiteral("p95"));
    qreal highest = 0;
    for (qsizetype day = 0; day < buckets.size(); ++day) {
        const QJsonValue b = buckets.at(day);
        // A day without a successful render has no point (no line through zero).
        if (b[QStringLiteral("p50Ms")].isDouble())
            p50->append(qreal(day), b[QStringLiteral("p50Ms")].toDouble());
        if (b[QStringLiteral("p95Ms")].isDouble()) {
            p95->append(qreal(day), b[QStringLiteral("p95Ms")].toDouble());
            highest = std::max(highest, b[QStringLiteral("p95Ms")].toDouble());
        }
    }
    for (QLineSeries *s : {p50, p95}) {
        s->setPointsVisible(true);
        c->addSeries(s);
    }
    QBarCategoryAxis *x = addDayAxis(c);
    QValueAxis *y = valueAxis(highest, false, chartFont(this, -2));
    c->addAxis(y, Qt::AlignLeft);
    for (QLineSeries *s : {p50, p95}) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
}

void UsageTab::fillSingle(const QString &chartName, const QJsonArray &buckets, const QString &member, double divisor,
                          const QString &unit)
{
    QChart *c = chart(chartName);
    clearChart(c);
    auto *set = new QBarSet(unit.isEmpty() ? c->title() : unit);
    set->setObjectName(member);
    qreal highest = 0;
    for (const QJsonValue &b : buckets) {
        const qreal v = b[member].toDouble() / divisor;
        set->append(v);
        highest = std::max(highest, v);
    }
    auto *series = new QBarSeries;
    series->append(set);
    c->addSeries(series);
    QBarCategoryAxis *x = addDayAxis(c);
    QValueAxis *y = valueAxis(highest, divisor == 1, chartFont(this, -2));
    if (!unit.isEmpty())
        y->setTitleText(unit);
    y->setTitleFont(chartFont(this, -2));
    c->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    c->legend()->setVisible(false);
}

} // namespace gui
} // namespace imprint
