// Pattern catalog and tiling renderer (docs/templates.md, docs/api.md).
#include "server/patterns/patterns.h"

#include <QDir>
#include <QElapsedTimer>
#include <QPainter>
#include <QSet>
#include <QtConcurrent>
#include <QTest>

using namespace imprint::render;

namespace {

QString patternsDir()
{
    QString root = qEnvironmentVariable("IMPRINT_SOURCE_DIR");
    if (root.isEmpty())
        root = QStringLiteral(IMPRINT_SOURCE_DIR);
    return root + QStringLiteral("/resources/patterns");
}

bool near(QRgb a, QRgb b, int tolerance)
{
    return qAbs(qRed(a) - qRed(b)) <= tolerance && qAbs(qGreen(a) - qGreen(b)) <= tolerance
           && qAbs(qBlue(a) - qBlue(b)) <= tolerance;
}

// Mean absolute channel difference between column xa and column xb of img.
double columnDiff(const QImage &img, int xa, int xb)
{
    double sum = 0;
    for (int y = 0; y < img.height(); ++y) {
        const QRgb a = img.pixel(xa, y), b = img.pixel(xb, y);
        sum += qAbs(qRed(a) - qRed(b)) + qAbs(qGreen(a) - qGreen(b)) + qAbs(qBlue(a) - qBlue(b));
    }
    return sum / img.height();
}

} // namespace

class TestPatterns : public QObject
{
    Q_OBJECT

private:
    PatternCatalog m_catalog;

private Q_SLOTS:
    void initTestCase()
    {
        auto catalog = PatternCatalog::load(patternsDir());
        QVERIFY2(catalog, qPrintable(catalog.error_or(QString())));
        m_catalog = *catalog;
    }

    void catalogIsLargeEnough()
    {
        const auto patterns = m_catalog.patterns();
        QVERIFY2(patterns.size() >= 12, qPrintable(QString::number(patterns.size())));
        QSet<QString> keys;
        for (const PatternInfo &p : patterns) {
            keys.insert(p.key);
            QVERIFY2(p.variants.size() >= 4, qPrintable(p.key));
            QCOMPARE(p.defaultSize, QSize(1000, 525));
            QVERIFY(!p.name.isEmpty());
            QVERIFY(p.tileSize.isValid());
            QVERIFY2(parsePatternPath(p.key + QLatin1Char('-') + p.variants.first().key), qPrintable(p.key));
        }
        for (const char *wanted : {"dots", "grid", "diagonal", "waves", "zigzag", "checkerboard", "triangles",
                                   "hexagons", "circles", "topography", "plus", "crosshatch"})
            QVERIFY2(keys.contains(QLatin1String(wanted)), wanted);
    }

    void everyVariantRendersItsColours_data()
    {
        QTest::addColumn<QString>("patternKey");
        QTest::addColumn<QString>("variantKey");
        for (const PatternInfo &p : m_catalog.patterns())
            for (const PatternVariant &v : p.variants)
                QTest::newRow(qPrintable(p.key + QLatin1Char('-') + v.key)) << p.key << v.key;
    }

    void everyVariantRendersItsColours()
    {
        QFETCH(QString, patternKey);
        QFETCH(QString, variantKey);
        const PatternPath path{patternKey, variantKey};
        const QImage img = renderPattern(m_catalog, path, QSize(1000, 525));
        QCOMPARE(img.size(), QSize(1000, 525));

        QSet<QRgb> distinct;
        for (int y = 0; y < img.height(); y += 3)
            for (int x = 0; x < img.width(); x += 3)
                distinct.insert(img.pixel(x, y) | 0xff000000u);
        QVERIFY2(distinct.size() >= 2, "flat single colour");

        // Each colour the tile names (and the background) shows up, so a variant's palette
        // really reaches the pixels.
        const PatternVariant variant = *m_catalog.find(patternKey, variantKey);
        QStringList names = m_catalog.pattern(patternKey)->placeholders;
        if (!names.contains(QStringLiteral("bg")))
            names << QStringLiteral("bg");
        for (const QString &name : std::as_const(names)) {
            const QRgb want = variant.colors.value(name).rgb();
            bool found = false;
            for (QRgb c : std::as_const(distinct))
                if (near(c, want, 3)) {
                    found = true;
                    break;
                }
            QVERIFY2(
                found,
                qPrintable(
                    QStringLiteral("colour %1 (%2) not in the render").arg(name, variant.colors.value(name).name())));
        }

        if (const QString dump = qEnvironmentVariable("IMPRINT_PATTERN_DUMP"); !dump.isEmpty()) {
            QDir().mkpath(dump);
            renderPattern(m_catalog, path, QSize(600, 315))
                .save(dump + QLatin1Char('/') + patternKey + QLatin1Char('-') + variantKey + QStringLiteral(".png"));
        }
    }

    // Looking at the patterns is part of reviewing them: with IMPRINT_PATTERN_DUMP=DIR set,
    // writes one contact sheet per variant (every pattern at 600x315, two columns).
    void dumpContactSheets()
    {
        const QString dump = qEnvironmentVariable("IMPRINT_PATTERN_DUMP");
        if (dump.isEmpty())
            QSKIP("IMPRINT_PATTERN_DUMP not set");
        QDir().mkpath(dump);
        const auto patterns = m_catalog.patterns();
        const QSize cell(600, 315);
        const int gap = 8;
        for (const PatternVariant &v : patterns.first().variants) {
            const int rows = int((patterns.size() + 1) / 2);
            QImage sheet(2 * cell.width() + gap, rows * (cell.height() + gap), QImage::Format_RGB32);
            sheet.fill(Qt::white);
            QPainter painter(&sheet);
            for (int i = 0; i < patterns.size(); ++i)
                painter.drawImage(QPoint((i % 2) * (cell.width() + gap), (i / 2) * (cell.height() + gap)),
                                  renderPattern(m_catalog, {patterns.at(i).key, v.key}, cell));
            painter.end();
            QVERIFY(sheet.save(dump + QStringLiteral("/sheet-") + v.key + QStringLiteral(".png")));
        }
    }

    void parsePatternPathRules()
    {
        const auto ok = parsePatternPath(QStringLiteral("waves-sunset"));
        QVERIFY(ok);
        QCOMPARE(ok->patternKey, QStringLiteral("waves"));
        QCOMPARE(ok->variantKey, QStringLiteral("sunset"));
        QVERIFY(parsePatternPath(QStringLiteral("a1-2b")));
        for (const char *bad : {"waves", "Waves-sunset", "waves-sun-set", "waves_sunset", "", "-x", "x-",
                                "waves-sunset ", " waves-sunset", "wäves-sunset"}) {
            const auto refused = parsePatternPath(QString::fromUtf8(bad));
            QVERIFY2(!refused, bad);
            QVERIFY2(!refused.error().isEmpty(), bad);
        }
    }

    void unknownKeysAreReportedDistinctly()
    {
        QCOMPARE(m_catalog.lookup({QStringLiteral("waves"), QStringLiteral("sunset")}), PatternLookup::Found);
        QCOMPARE(m_catalog.lookup({QStringLiteral("nosuch"), QStringLiteral("sunset")}), PatternLookup::UnknownPattern);
        QCOMPARE(m_catalog.lookup({QStringLiteral("waves"), QStringLiteral("nosuch")}), PatternLookup::UnknownVariant);
        QVERIFY(!m_catalog.find(QStringLiteral("waves"), QStringLiteral("nosuch")));
        QVERIFY(renderPattern(m_catalog, {QStringLiteral("nosuch"), QStringLiteral("sunset")}).isNull());
        QVERIFY(renderPattern(m_catalog, {QStringLiteral("waves"), QStringLiteral("nosuch")}).isNull());
        QVERIFY(renderPattern(m_catalog, {QStringLiteral("waves"), QStringLiteral("sunset")}, QSize(0, 10)).isNull());
    }

    void largeRenderHasTheRightSizeAndIsCheap()
    {
        const PatternPath path{QStringLiteral("topography"), QStringLiteral("ocean")};
        QElapsedTimer timer;
        timer.start();
        const QImage small = renderPattern(m_catalog, path, QSize(1000, 525));
        const qint64 smallMs = timer.elapsed();
        timer.restart();
        const QImage big = renderPattern(m_catalog, path, QSize(4000, 4000));
        const qint64 bigMs = timer.elapsed();
        QCOMPARE(small.size(), QSize(1000, 525));
        QCOMPARE(big.size(), QSize(4000, 4000));
        // The top-left corner of every render is the same tile.
        const QSize ts = m_catalog.pattern(path.patternKey)->tileSize;
        QCOMPARE(big.copy(QRect(QPoint(0, 0), ts)), small.copy(QRect(QPoint(0, 0), ts)));
        qInfo("render 1000x525: %lld ms, 4000x4000: %lld ms", smallMs, bigMs);
        // Tiling, not per-pixel work: generous bound for a loaded 2-core machine.
        QVERIFY2(bigMs < 2000, qPrintable(QString::number(bigMs)));
    }

    // Renders run on a thread pool (docs/architecture.md): cold tiles rasterised from several threads
    // at once give the same pixels as one thread does.
    void concurrentRendersAgree()
    {
        const auto fresh = PatternCatalog::load(patternsDir());
        QVERIFY2(fresh, qPrintable(fresh.error_or(QString())));
        QList<PatternPath> paths;
        for (const PatternInfo &p : fresh->patterns())
            for (const PatternVariant &v : p.variants)
                paths << PatternPath{p.key, v.key} << PatternPath{p.key, v.key};
        const QList<QImage> images = QtConcurrent::blockingMapped(
            paths, [&](const PatternPath &p) { return renderPattern(*fresh, p, QSize(333, 222)); });
        QCOMPARE(images.size(), paths.size());
        for (qsizetype i = 0; i < paths.size(); ++i)
            QCOMPARE(images.at(i), renderPattern(m_catalog, paths.at(i), QSize(333, 222)));
    }

    void tilesAreSeamless_data()
    {
        QTest::addColumn<QString>("patternKey");
        for (const PatternInfo &p : m_catalog.patterns())
            QTest::newRow(qPrintable(p.key)) << p.key;
    }

    void tilesAreSeamless()
    {
        QFETCH(QString, patternKey);
        const PatternInfo *info = m_catalog.pattern(patternKey);
        const PatternPath path{patternKey, info->variants.first().key};
        const QSize ts = info->tileSize;
        const QImage img = renderPattern(m_catalog, path, ts * 2 + QSize(3, 3));
        const QImage tile = m_catalog.tileImage(path);
        QCOMPARE(tile.size(), ts);

        // The output repeats with the tile's period: the column/row after a tile boundary
        // is the first column/row again.
        for (int y = 0; y < img.height(); ++y)
            QVERIFY(img.pixel(ts.width(), y) == img.pixel(0, y));
        for (int x = 0; x < img.width(); ++x)
            QVERIFY(img.pixel(x, ts.height()) == img.pixel(x, 0));

        // No seam: the step across a tile edge is no bigger than the steepest step inside
        // the tile (a shape cut at the edge would make the edge step stand out).
        const QImage rotated = tile.transformed(QTransform().rotate(90));
        for (const QImage &t : {tile, rotated}) {
            double interior = 0;
            for (int x = 0; x + 1 < t.width(); ++x)
                interior = qMax(interior, columnDiff(t, x, x + 1));
            const double edge = columnDiff(t, t.width() - 1, 0);
            QVERIFY2(edge <= interior * 1.05 + 2,
                     qPrintable(QStringLiteral("edge step %1 > interior max %2").arg(edge).arg(interior)));
        }
    }

    void catalogErrorsAreReported()
    {
        const auto malformed = PatternCatalog::fromJson("{", QString());
        QVERIFY(!malformed);
        QVERIFY(!malformed.error().isEmpty());
        const auto badKey = PatternCatalog::fromJson(R"({"patterns":[{"key":"Bad","width":4,"height":4,
            "svg":"<svg xmlns='http://www.w3.org/2000/svg'/>","variants":[{"key":"a","bg":"#fff"}]}]})",
                                                     QString());
        QVERIFY(!badKey);
        QVERIFY(badKey.error().contains(QLatin1String("Bad")));
        // A tile colour the variant does not define.
        const auto undefinedColour = PatternCatalog::fromJson(R"({"patterns":[{"key":"x","width":4,"height":4,
            "svg":"<svg xmlns='http://www.w3.org/2000/svg'><rect width='2' height='2' fill='{{fg}}'/></svg>",
            "variants":[{"key":"a","bg":"#fff"}]}]})",
                                                              QString());
        QVERIFY(!undefinedColour);
        QVERIFY(undefinedColour.error().contains(QLatin1String("fg")));
        // Inline tiles work without a directory.
        const auto inlineCatalog = PatternCatalog::fromJson(R"({"patterns":[{"key":"x","width":4,"height":4,
            "svg":"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 4 4'><rect width='2' height='2' fill='{{fg}}'/></svg>",
            "variants":[{"key":"a","bg":"#ffffff","fg":"#ff0000"}]}]})",
                                                            QString());
        QVERIFY2(inlineCatalog, qPrintable(inlineCatalog.error_or(QString())));
        const QImage img = renderPattern(*inlineCatalog, {QStringLiteral("x"), QStringLiteral("a")}, QSize(8, 8));
        QCOMPARE(img.pixel(0, 0), qRgb(255, 0, 0));
        QCOMPARE(img.pixel(3, 3), qRgb(255, 255, 255));
        QCOMPARE(img.pixel(4, 4), qRgb(255, 0, 0));
    }
};

QTEST_MAIN(TestPatterns)
#include "tst_patterns.moc"
