// Layout against Chromium: every reference template — the fixtures, and our own
// conformance cases in tests/render/conformance (made with scripts/chromium-oracle) — is
// parsed, built and laid out with the real text module, and each element's border box is
// compared with Chromium's (chromium/NAME.layout.json, CSS px) within 1 px.

#include "server/render/document/template.h"
#include "server/render/layout/layout.h"
#include "server/render/paint/geometry.h"
#include "server/render/text/text_engine.h"
#include "tests/support/render_context.h"

#include "tests/support/fixtures.h"

#include <QGuiApplication>
#include <QTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

using namespace imprint::render;

namespace {

// Chromium's boxes are getBoundingClientRect()s: transformed (CSS Transforms 1 §6,
// around transform-origin), while layout boxes are not, so the comparison transforms ours
// with the painters' own matrix.
void collect(const LayoutBox &box, const LayoutBox *parentBox, const QTransform &parent, QHash<QString, QRectF> &out,
             QHash<QString, std::vector<QRectF>> &fragments)
{
    QTransform t = parent;
    if (box.node && !box.node->isText()) {
        t = cssTransform(box, parentBox) * parent;
        if (!out.contains(box.node->id)) {
            out.insert(box.node->id, t.mapRect(box.borderBox));
            fragments.insert(box.node->id, box.fragments);
        }
    }
    for (const LayoutBox &child : box.children)
        collect(child, &box, t, out, fragments);
}

qreal rectError(const QRectF &actual, const QRectF &expected)
{
    return std::max({std::abs(actual.x() - expected.x()), std::abs(actual.y() - expected.y()),
                     std::abs(actual.width() - expected.width()), std::abs(actual.height() - expected.height())});
}

QRectF rectOf(const QJsonObject &o)
{
    return QRectF(o.value(QStringLiteral("x")).toDouble(), o.value(QStringLiteral("y")).toDouble(),
                  o.value(QStringLiteral("w")).toDouble(), o.value(QStringLiteral("h")).toDouble());
}

// "ID: (x, y, w×h) vs Chromium (x, y, w×h)", for a box more than 1 px off.
QString boxMismatch(const QString &id, const QRectF &actual, const QRectF &expected)
{
    return QStringLiteral("%1: (%2, %3, %4×%5) vs Chromium (%6, %7, %8×%9)")
        .arg(id)
        .arg(actual.x())
        .arg(actual.y())
        .arg(actual.width())
        .arg(actual.height())
        .arg(expected.x())
        .arg(expected.y())
        .arg(expected.width())
        .arg(expected.height());
}

// The image size the pipeline gives a template: its own, or content-sized in Chromium's
// 1200 × 630 window, the containing block the oracle gives a content-sized root.
QSize viewportFor(const Template &tmpl, const Node &root)
{
    QSize viewport(tmpl.width, tmpl.height);
    if (viewport.width() == 0 || viewport.height() == 0)
        viewport = contentSizedViewport(root, QSizeF(1200, 630), tmpl.width, tmpl.height,
                                        imprint::test::renderContext().text());
    return viewport;
}

// A template laid out as the pipeline lays it out: parsed, variables resolved, document
// built, sized (its own size or content-sized) and laid out. The Template outlives the
// node tree built from it, so both live here.
struct LaidOutTemplate {
    std::optional<Template> tmpl;
    std::unique_ptr<Node> root;
    QSize viewport;
    bool contentHeight = false;
    LayoutBox box;
};

// Lays `document` out into `out`; false with `error` set when any stage refuses it.
bool layOutTemplate(const QJsonObject &document, LaidOutTemplate *out, QString *error)
{
    RenderError failure;
    auto parsed = parseTemplate(document);
    failure = parsed.error_or(failure);
    if (!parsed) {
        *error = failure.message;
        return false;
    }
    out->tmpl = std::move(*parsed);
    const auto values = resolveVariables(*out->tmpl, {}, {});
    failure = values.error_or(failure);
    if (!values) {
        *error = failure.message;
        return false;
    }
    auto root = buildDocument(*out->tmpl, *values, nullptr, {}, {}, QSizeF(out->tmpl->width, out->tmpl->height));
    failure = root.error_or(failure);
    if (!root) {
        *error = failure.message;
        return false;
    }
    out->root = std::move(*root);
    out->viewport = viewportFor(*out->tmpl, *out->root);
    out->contentHeight = out->tmpl->height == 0;
    out->box
        = layoutDocument(*out->root, QSizeF(out->viewport), imprint::test::renderContext().text(), out->contentHeight);
    return true;
}

// The cases of Yoga's gentest suite (tests/render/yoga/README.md) whose Chromium boxes we
// do not match yet, each with the reason; XFAIL while they differ, a failure once they
// match (then the entry goes).
const QHash<QString, QString> &yogaKnownDifferences()
{
    static const QHash<QString, QString> known = [] {
        QHash<QString, QString> h;
        const QJsonObject o
            = test::readJson(QStringLiteral(IMPRINT_SOURCE_DIR "/tests/render/yoga/known-differences.json")).object();
        for (auto it = o.begin(); it != o.end(); ++it)
            h.insert(it.key(), it.value().toString());
        return h;
    }();
    return known;
}

} // namespace

class TestLayoutFixtures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchesChromium_data();
    void matchesChromium();
    void yogaGentest_data();
    void yogaGentest();
};

void TestLayoutFixtures::yogaGentest_data()
{
    QTest::addColumn<QJsonObject>("testCase");
    const QJsonArray cases
        = test::readJson(QStringLiteral(IMPRINT_SOURCE_DIR "/tests/render/yoga/gentest-chromium.json")).array();
    QVERIFY(cases.size() > 500);
    for (const QJsonValue &c : cases)
        QTest::newRow(qPrintable(c[QLatin1String("name")].toString())) << c.toObject();
}

// Yoga's own flexbox suite, laid out by Chromium: every box within 1 px, as
// matchesChromium() checks our cases. display:none and display:contents elements have
// no box in either.
void TestLayoutFixtures::yogaGentest()
{
    QFETCH(QJsonObject, testCase);
    const QString name = testCase.value(QLatin1String("name")).toString();
    LaidOutTemplate laidOut;
    QString error;
    QVERIFY2(layOutTemplate(testCase.value(QLatin1String("template")).toObject(), &laidOut, &error), qPrintable(error));
    const LayoutBox &box = laidOut.box;
    QHash<QString, QRectF> ours;
    QHash<QString, std::vector<QRectF>> ourFragments;
    collect(box, nullptr, QTransform(), ours, ourFragments);
    QStringList mismatches;
    qreal worst = 0;
    for (const QJsonValue &value : testCase.value(QLatin1String("chromium")).toArray()) {
        const QJsonObject o = value.toObject();
        const QString id = o.value(QStringLiteral("id")).toString();
        if (!ours.contains(id)) {
            if (!o.value(QLatin1String("none")).toBool())
                mismatches << QStringLiteral("%1 missing").arg(id);
            continue;
        }
        const QRectF actual = ours.value(id);
        const QRectF expected = rectOf(o);
        worst = std::max(worst, rectError(actual, expected));
        if (rectError(actual, expected) > 1)
            mismatches << boxMismatch(id, actual, expected);
    }
    qInfo("%s: max box error %.3f px", qPrintable(name), worst);
    const QString known = yogaKnownDifferences().value(name);
    if (!known.isEmpty())
        QEXPECT_FAIL("", qPrintable(known), Continue);
    QVERIFY2(mismatches.isEmpty(), qPrintable(mismatches.join(QStringLiteral("\n  "))));
}

void TestLayoutFixtures::matchesChromium_data()
{
    QTest::addColumn<QString>("dir");
    QTest::addColumn<QString>("templates");
    QTest::addColumn<QString>("name");
    const QString conformance = QStringLiteral(IMPRINT_SOURCE_DIR "/tests/render/conformance");
    for (const auto &[dir, templates] : {std::pair{test::fixtureDir(), QStringLiteral("templates")},
                                         std::pair{conformance, QStringLiteral("cases")}}) {
        const QStringList names
            = QDir(dir + u'/' + templates).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY2(!names.isEmpty(), qPrintable(dir));
        for (const QString &file : names) {
            const QString name = file.chopped(5);
            QVERIFY2(QFile::exists(dir + QStringLiteral("/chromium/") + name + QStringLiteral(".layout.json")),
                     qPrintable(name + QStringLiteral(": no Chromium boxes (scripts/chromium-oracle)")));
            QTest::newRow(qPrintable(name)) << dir << templates << name;
        }
    }
}

void TestLayoutFixtures::matchesChromium()
{
    QFETCH(QString, dir);
    QFETCH(QString, templates);
    QFETCH(QString, name);
    const QJsonDocument doc = test::readJson(dir + u'/' + templates + u'/' + name + QStringLiteral(".json"));
    QVERIFY(doc.isObject());
    LaidOutTemplate laidOut;
    QString error;
    QVERIFY2(layOutTemplate(doc.object(), &laidOut, &error), qPrintable(error));
    const LayoutBox &box = laidOut.box;
    const Node &root = *laidOut.root;
    const QSize viewport = laidOut.viewport;
    const bool contentHeight = laidOut.contentHeight;
    QHash<QString, QRectF> ours;
    QHash<QString, std::vector<QRectF>> ourFragments;
    collect(box, nullptr, QTransform(), ours, ourFragments);

    const QJsonArray reference
        = test::readJson(dir + QStringLiteral("/chromium/") + name + QStringLiteral(".layout.json")).array();
    QVERIFY(!reference.isEmpty());
    qreal worst = 0;
    QStringList mismatches;
    for (const QJsonValue &value : reference) {
        const QJsonObject o = value.toObject();
        const QString id = o.value(QStringLiteral("id")).toString();
        const QRectF expected(o.value(QStringLiteral("x")).toDouble(), o.value(QStringLiteral("y")).toDouble(),
                              o.value(QStringLiteral("w")).toDouble(), o.value(QStringLiteral("h")).toDouble());
        if (!ours.contains(id)) {
            mismatches << QStringLiteral("%1 missing").arg(id);
            worst = std::max<qreal>(worst, 1e9);
            continue;
        }
        const QRectF actual = ours.value(id);
        const qreal error
            = std::max({std::abs(actual.x() - expected.x()), std::abs(actual.y() - expected.y()),
                        std::abs(actual.width() - expected.width()), std::abs(actual.height() - expected.height())});
        worst = std::max(worst, error);
        // An inline box over several lines: each line's fragment (getClientRects()).
        const QJsonArray fragments = o.value(QStringLiteral("fragments")).toArray();
        if (!fragments.isEmpty()) {
            const std::vector<QRectF> &mine = ourFragments.value(id);
            if (mine.size() != size_t(fragments.size())) {
                mismatches
                    << QStringLiteral("%1: %2 fragments vs Chromium %3").arg(id).arg(mine.size()).arg(fragments.size());
                worst = std::max<qreal>(worst, 1e9);
            } else {
                for (qsizetype i = 0; i < fragments.size(); ++i) {
                    const qreal e = rectError(mine[size_t(i)], rectOf(fragments[i].toObject()));
                    worst = std::max(worst, e);
                    if (e > 1)
                        mismatches << QStringLiteral("%1 fragment %2 off by %3 px").arg(id).arg(i).arg(e);
                }
            }
        }
        if (error > 1)
            mismatches << boxMismatch(id, actual, expected);
    }
    // Informational: the layout's share of a render (text shaping cache warm, as in a server).
    std::vector<qint64> times;
    for (int i = 0; i < 15; ++i) {
        QElapsedTimer timer;
        timer.start();
        const LayoutBox again
            = layoutDocument(root, QSizeF(viewport), imprint::test::renderContext().text(), contentHeight);
        times.push_back(timer.nsecsElapsed());
        QCOMPARE(again.borderBox, box.borderBox);
    }
    std::sort(times.begin(), times.end());
    qInfo("%s: max box error %.2f px over %d boxes; layout median %.3f ms", qPrintable(name), worst,
          int(reference.size()), times[times.size() / 2] / 1e6);
    QVERIFY2(mismatches.isEmpty(), qPrintable(mismatches.join(QStringLiteral("\n  "))));
}

QTEST_MAIN(TestLayoutFixtures)
#include "tst_layout_fixtures.moc"
