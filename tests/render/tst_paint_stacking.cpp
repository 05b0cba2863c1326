// Stacking and visibility in both engines: visibility: hidden (Tailwind's `invisible`),
// isolation: isolate around -z-10 decorations (Tailwind UI's `relative isolate`), and a
// blend mode inside a stacking context blending with that group only. Pixels at known
// spots of cards rendered through the whole pipeline (paint_test_support.h); the expected
// colours are Chromium's.

#include "tests/render/paint_test_support.h"

namespace {

QJsonObject element(const QJsonObject &props, const QJsonArray &children = {}, const QString &text = {})
{
    QJsonObject p = props;
    if (!children.isEmpty())
        p.insert(QStringLiteral("children"), children);
    else if (!text.isEmpty())
        p.insert(QStringLiteral("children"), text);
    return QJsonObject{{"type", "div"}, {"props", p}};
}

QJsonObject styled(const QJsonObject &style, const QJsonArray &children = {}, const QString &text = {})
{
    return element(QJsonObject{{"style", style}}, children, text);
}

const QStringList kEngines{QStringLiteral("takumi"), QStringLiteral("satori")};

QString at(const QString &engine, const QImage &image, int x, int y)
{
    return QStringLiteral("%1 at (%2, %3): %4").arg(engine).arg(x).arg(y).arg(describe(image.pixel(x, y)));
}

} // namespace

class TestPaintStacking : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hiddenElementsPaintNothingOfTheirOwn()
    {
        // CSS Display 3 §4: a hidden box keeps its place (the next box stays where it
        // was) but draws no background, border or text; a child that is visible again
        // draws, and a child that inherits hidden does not.
        const QJsonObject hidden{{"visibility", "hidden"}, {"width", 100}, {"height", 100},
                                 {"backgroundColor", "#dc2626"}, {"border", "4px solid #111827"},
                                 {"color", "#111827"}, {"fontSize", 40}};
        const QJsonArray children{
            styled(hidden, {styled(QJsonObject{{"visibility", "visible"}, {"width", 20}, {"height", 20},
                                               {"backgroundColor", "#2563eb"}}),
                            styled(QJsonObject{{"width", 20}, {"height", 20}, {"backgroundColor", "#16a34a"}})}),
            element(QJsonObject{{"tw", "invisible w-[100px] h-[100px] bg-red-600"}}, {}, QStringLiteral("MMM")),
            styled(QJsonObject{{"width", 100}, {"height", 100}, {"backgroundColor", "#16a34a"}})};
        for (const QString &engine : kEngines) {
            const QImage image = renderChildren(engine, 300, 100, children);
            QVERIFY2(near(image.pixel(60, 60), Qt::white), qPrintable(at(engine, image, 60, 60)));
            QVERIFY2(near(image.pixel(2, 50), Qt::white), qPrintable(at(engine, image, 2, 50))); // no border
            QVERIFY2(near(image.pixel(10, 10), QColor(0x2563eb)), qPrintable(at(engine, image, 10, 10)));
            QVERIFY2(near(image.pixel(34, 10), Qt::white), qPrintable(at(engine, image, 34, 10)));
            for (int x = 100; x < 200; x += 3) // neither the tw box nor its text
                QVERIFY2(near(image.pixel(x, 20), Qt::white), qPrintable(at(engine, image, x, 20)));
            QVERIFY2(near(image.pixel(250, 50), QColor(0x16a34a)), qPrintable(at(engine, image, 250, 50)));
        }
    }

    void isolateHoldsNegativeZIndexDecorations()
    {
        // CSS Compositing 1 §3.3: `isolate` makes a stacking context, so its -z-10 child
        // paints over its background instead of behind it (where the background hid it).
        auto hero = [](const char *isolation) {
            return element(QJsonObject{{"tw", QStringLiteral("relative %1 flex size-[100px] bg-gray-900")
                                                  .arg(QLatin1String(isolation))}},
                           {element(QJsonObject{{"tw", "absolute inset-4 -z-10 bg-pink-500"}})});
        };
        for (const QString &engine : kEngines) {
            const QImage image = renderChildren(engine, 200, 100, {hero("isolate"), hero("")});
            QVERIFY2(near(image.pixel(50, 50), QColor(0xf6339a), 12), qPrintable(at(engine, image, 50, 50)));
            QVERIFY2(near(image.pixel(150, 50), QColor(0x101828), 12), qPrintable(at(engine, image, 150, 50)));
        }
    }

    void willChangeMakesAStackingContextAndAContainingBlock()
    {
        // CSS Will Change 1 §3, as Chromium draws it: `will-change-transform` makes its static
        // element the containing block of an absolute child (the red square sits in its
        // corner; without it the blue one goes to the root's), and `will-change: opacity` a
        // stacking context that holds a -z-10 child over its background. Before, the red
        // square went to the root's corner and the pink one behind the dark background.
        auto box = [](const char *tw, const char *childTw) {
            return element(QJsonObject{{"tw", QLatin1String(tw)}}, {element(QJsonObject{{"tw", QLatin1String(childTw)}})});
        };
        const QJsonArray boxes{box("flex size-[100px] bg-slate-300 will-change-transform", "absolute top-2 left-2 size-6 bg-red-500"),
                               box("flex size-[100px] bg-slate-300", "absolute top-2 right-2 size-6 bg-blue-500"),
                               box("relative flex size-[100px] bg-gray-900 will-change-[opacity]", "absolute inset-4 -z-10 bg-pink-500"),
                               box("relative flex size-[100px] bg-gray-900", "absolute inset-4 -z-10 bg-pink-500")};
        for (const QString &engine : kEngines) {
            const QImage image = renderChildren(engine, 800, 300, boxes,
                                                {{"position", "relative"}, {"gap", 40}, {"padding", 40}});
            const std::tuple<int, int, QColor> spots[] = {{60, 60, QColor(251, 44, 54)},
                                                          {780, 20, QColor(43, 127, 255)},
                                                          {370, 90, QColor(246, 51, 154)},
                                                          {510, 90, QColor(16, 24, 40)},
                                                          {200, 60, QColor(202, 213, 226)}};
            for (const auto &[x, y, colour] : spots)
                QVERIFY2(near(image.pixel(x, y), colour, 8), qPrintable(at(engine, image, x, y)));
        }
    }

    void positionedBoxesInStaticContentPaintWithTheirStackingContext()
    {
        // CSS 2 Appendix E step 8: positioned descendants paint in document order after all
        // in-flow content of their stacking context, whether their parent is positioned or
        // not. A translucent overlay (absolute, first) fades the in-flow blue box, but not
        // the green badge positioned inside the static row after it (openstatus' uptime
        // bars over its dotted background), nor the relative red box, which the static
        // overflow: hidden parent still clips to 60 px; the purple absolute box, whose
        // containing block is the root, escapes that clip. Before, all three were painted
        // with their static parent: under the overlay, the purple one clipped away.
        auto box = [](const QJsonObject &style, const QJsonArray &children = {}) { return styled(style, children); };
        const QJsonArray children{
            box({{"position", "absolute"}, {"top", 0}, {"left", 0}, {"right", 0}, {"bottom", 0},
                 {"backgroundColor", "rgba(255,255,255,0.7)"}}),
            box({{"width", 80}, {"height", 80}},
                {box({{"position", "absolute"}, {"left", 20}, {"top", 20}, {"width", 20}, {"height", 20},
                      {"backgroundColor", "#16a34a"}}),
                 box({{"width", 30}, {"height", 30}, {"marginTop", 50}, {"backgroundColor", "#2563eb"}})}),
            box({{"width", 60}, {"height", 60}, {"overflow", "hidden"}},
                {box({{"position", "relative"}, {"flexShrink", 0}, {"width", 100}, {"height", 100},
                      {"backgroundColor", "#dc2626"}}),
                 box({{"position", "absolute"}, {"left", 240}, {"top", 10}, {"width", 40}, {"height", 40},
                      {"backgroundColor", "#9333ea"}})})};
        for (const QString &engine : kEngines) {
            const QImage image = renderChildren(engine, 300, 300, children,
                                                {{"position", "relative"}, {"gap", 20}, {"padding", 10}});
            // Chromium's pixels (scripts/chromium-oracle).
            const std::tuple<int, int, QColor> spots[] = {{30, 30, QColor(22, 163, 74)},   {25, 75, QColor(190, 208, 249)},
                                                          {130, 30, QColor(220, 38, 38)},  {180, 30, Qt::white},
                                                          {130, 90, Qt::white},            {260, 30, QColor(147, 51, 234)}};
            for (const auto &[x, y, colour] : spots)
                QVERIFY2(near(image.pixel(x, y), colour, 4), qPrintable(at(engine, image, x, y)));
        }
    }

    void blendModesBlendWithinTheirStackingContext()
    {
        // §3.2: a multiply blob under an isolated (stacking context) parent blends with
        // that group, empty here, so it shows its own colour; without one it multiplies the
        // amber page. (0x00a6f4 sky-500, multiplied with amber-300: 0x00892e.)
        auto blob = [](const char *parentTw) {
            return element(QJsonObject{{"tw", QStringLiteral("flex size-[100px] items-center justify-center %1")
                                                  .arg(QLatin1String(parentTw))}},
                           {element(QJsonObject{{"tw", "size-20 bg-sky-500 mix-blend-multiply"}})});
        };
        for (const QString &engine : kEngines) {
            const QImage image = renderChildren(engine, 300, 100, {blob("isolate"), blob(""), blob("relative z-10")},
                                                {{"backgroundColor", "#ffd230"}});
            QVERIFY2(near(image.pixel(50, 50), QColor(0x00a6f4), 6), qPrintable(at(engine, image, 50, 50)));
            QVERIFY2(near(image.pixel(150, 50), QColor(0x00892e), 6), qPrintable(at(engine, image, 150, 50)));
            QVERIFY2(near(image.pixel(250, 50), QColor(0x00a6f4), 6), qPrintable(at(engine, image, 250, 50)));
        }
    }
};

QTEST_MAIN(TestPaintStacking)
#include "tst_paint_stacking.moc"
