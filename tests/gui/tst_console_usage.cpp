// The Usage tab (issue 32) against the real server in this process: renders sent through
// the render API in a space of its own, then the tab's totals and chart series must be
// exactly those renders; a member sees why there is nothing.
#include "tst_console.h"

#include "gui/usagetab.h"
#include "server/service/content_validation.h"

#include <QBarSet>
#include <QChart>
#include <QLineSeries>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QStackedBarSeries>
#include <QStackedWidget>

namespace {

// The sum of bar set `name` (its objectName: the group value) in `chart`'s bar series; -1
// when there is no such set.
qreal barSum(QChart *chart, const QString &name)
{
    for (QAbstractSeries *series : chart->series())
        if (auto *bars = qobject_cast<QAbstractBarSeries *>(series))
            for (QBarSet *set : bars->barSets())
                if (set->objectName() == name) {
                    qreal sum = 0;
                    for (int i = 0; i < set->count(); ++i)
                        sum += set->at(i);
                    return sum;
                }
    return -1;
}

} // namespace

void TestConsole::usageTabShowsTheRenders()
{
    // A space of its own, so the preview tests' renders do not count here.
    const auto space = api().accounts().createSpace(QStringLiteral("usage"), QStringLiteral("pro"), QStringLiteral("test"));
    QVERIFY(space.has_value());
    const QString owner = QStringLiteral("usage-owner@acme.test");
    QVERIFY(api().accounts().addUser(owner, kPassword, QStringLiteral("usage"), store::Role::Owner, QStringLiteral("test"))
                .has_value());
    QVERIFY(api().accounts()
                .addUser(QStringLiteral("usage-member@acme.test"), kPassword, QStringLiteral("usage"),
                         store::Role::Member, QStringLiteral("test"))
                .has_value());
    const auto key = api().keys().create(space->id, QStringLiteral("usage key"), 0, {});
    QVERIFY(key.has_value());
    service::ContentService content = service::contentService(*m_env->db);
    const auto tpl
        = content.createTemplate(space->id, QJsonDocument::fromJson(kPreviewTemplate).object(), QStringLiteral("test"));
    QVERIFY(tpl.has_value());
    const auto page = content.createPage(space->id, tpl->id, QStringLiteral("Halves"), {}, QStringLiteral("test"));
    QVERIFY(page.has_value());
    QVERIFY(content.publish(space->id, page->id, QStringLiteral("test")).has_value());

    // 3 renders of different widths, 1 repeat (reused: a cache hit), 1 of a missing page.
    QNetworkAccessManager nam;
    qint64 bytes = 0;
    const auto render = [&](const QString &pageId, int width) {
        QNetworkRequest request(QUrl(serverUrl() + QStringLiteral("/api/v1/render")));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        request.setRawHeader("Authorization", "Bearer " + key->token.toUtf8());
        const QJsonObject body{{"pageId", pageId}, {"width", width}, {"output", "binary"}};
        QNetworkReply *reply = nam.post(request, QJsonDocument(body).toJson());
        QSignalSpy finished(reply, &QNetworkReply::finished);
        if (!finished.wait(20000))
            return 0;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 200)
            bytes += reply->readAll().size();
        reply->deleteLater();
        return status;
    };
    for (int width : {200, 240, 280, 200})
        QCOMPARE(render(page->id, width), 200);
    QCOMPARE(render(QStringLiteral("pg_missing"), 200), 404);

    auto w = newWindow();
    QVERIFY(signInAs(*w, owner));
    gui::UsageTab *usage = w->usageTab();
    clickTab(*w, usage);
    QCOMPARE(w->tabs()->currentWidget(), usage);
    // The rows are written behind the renders (within a second): refresh until they show.
    QSignalSpy loaded(usage, &gui::UsageTab::loaded);
    QVERIFY(QTest::qWaitFor(
        [&] {
            if (usage->isLoading())
                return false;
            if (usage->totals().renders >= 5)
                return true;
            QTest::mouseClick(child<QPushButton>(usage, "usageRefresh"), Qt::LeftButton);
            return false;
        },
        10000));
    const gui::UsageTab::Totals &t = usage->totals();
    QCOMPARE(t.renders, 5);
    QCOMPARE(t.errors, 1);
    QCOMPARE(t.cacheHits, 1);
    QCOMPARE(t.bytes, bytes);
    QCOMPARE(t.errorsByCode, (QMap<QString, qint64>{{QStringLiteral("page_not_found"), 1}}));
    QVERIFY(t.p50Ms > 0 && t.p95Ms >= t.p50Ms);
    QVERIFY(child<QLabel>(usage, "usageSummary")->text().contains(QStringLiteral("renders 5 · errors 1 · cache hits 1")));
    // The charts hold the same figures: per engine, per key (by name), per code, per day.
    QCOMPARE(usage->dayLabels().size(), 7);
    QCOMPARE(barSum(usage->chart("byEngine"), "takumi"), 4.0);
    QCOMPARE(barSum(usage->chart("byEngine"), "unknown"), 1.0);
    QCOMPARE(barSum(usage->chart("byKey"), key->key.id), 5.0);
    bool named = false;
    for (QBarSet *set : qobject_cast<QAbstractBarSeries *>(usage->chart("byKey")->series().first())->barSets())
        named = named || set->label() == QLatin1String("usage key");
    QVERIFY(named);
    QCOMPARE(barSum(usage->chart("errors"), "page_not_found"), 1.0);
    QCOMPARE(barSum(usage->chart("cacheHits"), "cacheHits"), 1.0);
    QVERIFY(barSum(usage->chart("bytes"), "bytes") > 0);
    auto *p95 = usage->chart("duration")->findChild<QLineSeries *>(QStringLiteral("p95"));
    QVERIFY(p95 && p95->count() == 1 && p95->at(0).x() == 6); // today, the last day
    // 30 days from the range picker: the same renders, 30 days on the axis.
    loaded.clear();
    auto *range = child<QComboBox>(usage, "usageRange");
    range->setCurrentIndex(range->findData(30));
    QVERIFY(QTest::qWaitFor([&] { return loaded.count() > 0 && !usage->isLoading(); }, 10000));
    QCOMPARE(usage->days(), 30);
    QCOMPARE(usage->dayLabels().size(), 30);
    QCOMPARE(usage->totals().renders, 5);
    QCOMPARE(barSum(usage->chart("byEngine"), "takumi"), 4.0);

    // A member sees why there are no figures, and asks nothing of the server.
    w->signOut();
    QVERIFY(signInAs(*w, QStringLiteral("usage-member@acme.test")));
    w->tabs()->setCurrentWidget(usage);
    QVERIFY(child<QLabel>(usage, "usageRoleMessage")->isVisible());
    QCOMPARE(usage->totals().renders, 0);
}
