// 3D transforms (CSS Transforms 2): the 4×4 matrices, the parent's perspective, flattening
// onto the page, backface-visibility and preserve-3d, drawn by both engines. Pixels at
// known spots of cards rendered through the whole pipeline (paint_test_support.h).

#include "server/render/paint/transform_matrix.h"
#include "tests/render/paint_test_support.h"

namespace {

bool near(QPointF a, QPointF b, qreal tolerance = 1e-6)
{
    return std::abs(a.x() - b.x()) <= tolerance && std::abs(a.y() - b.y()) <= tolerance;
}

QJsonObject div(const QJsonObject &style, const QJsonArray &children = {})
{
    QJsonObject props{{"style", style}};
    if (!children.isEmpty())
        props.insert(QStringLiteral("children"), children);
    return QJsonObject{{"type", "div"}, {"props", props}};
}

/// The rows of `image`'s column `x` whose pixel is far from white (in green).
int inkedRows(const QImage &image, int x)
{
    int rows = 0;
    for (int y = 0; y < image.height(); ++y)
        rows += qGreen(image.pixel(x, y)) < 200 ? 1 : 0;
    return rows;
}

const QStringList kEngines{QStringLiteral("takumi"), QStringLiteral("satori")};

} // namespace

class TestPaint3d : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matricesFollowTheSpecification()
    {
        // §12: rotateY(90deg) turns +x into -z; rotateZ(90deg) turns +x into +y (clockwise
        // on the page, whose y points down).
        const TransformMatrix y90 = TransformMatrix::rotation(0, 1, 0, 90);
        QVERIFY(std::abs(y90.at(2, 0) + 1) < 1e-12 && std::abs(y90.at(0, 0)) < 1e-12);
        QVERIFY(near(TransformMatrix::rotation(0, 0, 1, 90).toQTransform().map(QPointF(1, 0)), QPointF(0, 1)));
        // perspective(100px) after translateZ(50px): half way to the viewer, twice the size.
        const QTransform nearer
            = (TransformMatrix::perspective(100) * TransformMatrix::translation(0, 0, 50)).toQTransform();
        QCOMPARE(nearer.type(), QTransform::TxScale);
        QVERIFY(near(nearer.map(QPointF(10, 4)), QPointF(20, 8)));
        // A tilt seen in perspective is projective: the edge turned away is shorter.
        const QTransform tilted = (TransformMatrix::perspective(400) * TransformMatrix::rotation(0, 1, 0, 45)).toQTransform();
        QCOMPARE(tilted.type(), QTransform::TxProject);
        const qreal nearEdge = QLineF(tilted.map(QPointF(-50, -50)), tilted.map(QPointF(-50, 50))).length();
        const qreal farEdge = QLineF(tilted.map(QPointF(50, -50)), tilted.map(QPointF(50, 50))).length();
        QVERIFY2(nearEdge > farEdge * 1.15, qPrintable(QStringLiteral("%1 vs %2").arg(nearEdge).arg(farEdge)));
        // matrix3d() is written column by column.
        std::array<float, 16> columns{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        columns[12] = 7; // the x translation
        QVERIFY(near(TransformMatrix::fromColumns(columns).toQTransform().map(QPointF(1, 1)), QPointF(8, 1)));
        // §9: turned half way round (about y, or through a perspective) is back-facing; a
        // mirror on the page is not.
        QVERIFY(TransformMatrix::rotation(0, 1, 0, 180).isBackFacing());
        QVERIFY(TransformMatrix::rotation(1, 0, 0, 100).isBackFacing());
        QVERIFY(!TransformMatrix::rotation(0, 1, 0, 80).isBackFacing());
        QVERIFY(!TransformMatrix::scaling(-1, 1, 1).isBackFacing());
        QVERIFY((TransformMatrix::perspective(300) * TransformMatrix::rotation(0, 1, 0, 120)).isBackFacing());
    }

    void theParentsPerspectiveMagnifiesNearerChildren()
    {
        // §7.1: translateZ(200px) under a parent's perspective of 600px, whose origin is the
        // parent's centre, is 600 / (600 - 200) = 1.5× larger around that centre.
        Tree t;
        ComputedStyle parentStyle;
        parentStyle.perspective = 600;
        ComputedStyle childStyle;
        childStyle.transform.push_back(TransformOp{.kind = TransformOp::Kind::Translate, .x = Length::px(0),
                                                   .y = Length::px(0), .z = 200});
        const LayoutBox parent = box(t.element(parentStyle), QRectF(0, 0, 400, 400));
        const LayoutBox child = box(t.element(childStyle), QRectF(100, 100, 100, 100));
        QVERIFY(near(cssTransform(child, &parent).map(QPointF(100, 100)), QPointF(50, 50), 1e-9));
        QVERIFY(near(cssTransform(child, nullptr).map(QPointF(100, 100)), QPointF(100, 100), 1e-9));
        // The perspective belongs to the children: the parent's own transform ignores it.
        parentStyle.transform.push_back(
            TransformOp{.kind = TransformOp::Kind::Rotate, .x = Length::px(0), .y = Length::px(0), .a = 90});
        const LayoutBox turned = box(t.element(parentStyle), QRectF(0, 0, 400, 400));
        QCOMPARE(cssTransform(turned, nullptr).type(), QTransform::TxRotate);
    }

    void bordersKeepTheirHoleInPerspective()
    {
        // QPainter 6.4 fills a ring through a projective matrix solid: the box is drawn
        // flat into a layer and the layer mapped (QPainterPlayer::projectiveScope).
        const QJsonObject tilted{{"width", 120},         {"height", 120},
                                 {"border", "12px solid #dc2626"}, {"transform", "rotateY(-25deg)"}};
        for (const QString &engine : kEngines) {
            const QImage image = renderChildren(engine, 300, 200, {div(tilted)},
                                                {{"perspective", "500px"}, {"alignItems", "center"},
                                                 {"justifyContent", "center"}});
            QVERIFY2(!image.isNull(), qPrintable(engine));
            QVERIFY2(near(image.pixel(150, 100), Qt::white), qPrintable(engine + describe(image.pixel(150, 100))));
            // rotateY(-25deg) brings the right edge nearer the viewer: it is the taller.
            int left = 0, right = 299;
            while (left < 300 && inkedRows(image, left) == 0)
                ++left;
            while (right >= 0 && inkedRows(image, right) == 0)
                --right;
            QVERIFY2(right - left > 90, qPrintable(engine));
            const int nearRows = inkedRows(image, right - 4), farRows = inkedRows(image, left + 4);
            QVERIFY2(nearRows > farRows + 8, qPrintable(QStringLiteral("%1: %2 vs %3").arg(engine).arg(nearRows).arg(farRows)));
            QVERIFY2(near(image.pixel(right - 5, 100), QColor(0xdc2626), 40),
                     qPrintable(engine + describe(image.pixel(right - 5, 100))));
        }
    }

    void backFacingBoxesHideWhenAsked()
    {
        // §9: rotateY(180deg) shows the mirrored back unless backface-visibility is hidden.
        const QJsonObject face{{"width", 80}, {"height", 80}, {"backgroundColor", "#2563eb"},
                               {"transform", "rotateY(180deg)"}};
        QJsonObject hidden = face;
        hidden.insert(QStringLiteral("backfaceVisibility"), QStringLiteral("hidden"));
        QJsonObject halfTurned = hidden;
        halfTurned.insert(QStringLiteral("transform"), QStringLiteral("perspective(300px) rotateY(80deg)"));
        for (const QString &engine : kEngines) {
            const QImage image = renderChildren(engine, 300, 100, {div(face), div(hidden), div(halfTurned)},
                                                {{"alignItems", "center"}, {"justifyContent", "space-around"}});
            QVERIFY2(near(image.pixel(50, 50), QColor(0x2563eb)), qPrintable(engine));
            QVERIFY2(near(image.pixel(150, 50), Qt::white), qPrintable(engine + describe(image.pixel(150, 50))));
            QVERIFY2(near(image.pixel(250, 50), QColor(0x2563eb), 8), qPrintable(engine + describe(image.pixel(250, 50))));
        }
    }

    void perspectiveAndPreserve3dHoldTheirAbsoluteChildren()
    {
        // §7.1, §8: an element with a perspective or preserve-3d is a stacking context and
        // the containing block of its absolute children (as in Chromium): a child at
        // z-index -1 is placed in it and drawn over its background; under a merely
        // positioned parent it goes behind that background.
        auto parent = [](const char *property, const char *value) {
            const QJsonObject child{{"position", "absolute"}, {"left", 20},   {"top", 20},
                                    {"width", 60},          {"height", 60}, {"backgroundColor", "#dc2626"},
                                    {"zIndex", -1}};
            return div(QJsonObject{{"width", 100}, {"height", 100}, {"backgroundColor", "#2563eb"}, {property, value}},
                       {div(child)});
        };
        for (const QString &engine : kEngines) {
            const QImage image = renderChildren(engine, 400, 150,
                                                {parent("perspective", "500px"), parent("transformStyle", "preserve-3d"),
                                                 parent("position", "relative")},
                                                {{"alignItems", "center"}, {"justifyContent", "space-around"}});
            for (const auto &[x, colour] : {std::pair{50, 0xdc2626}, {70, 0xdc2626}, {200, 0xdc2626}, {330, 0x2563eb}})
                QVERIFY2(near(image.pixel(x, 75), QColor(colour)),
                         qPrintable(QStringLiteral("%1 at %2: %3").arg(engine).arg(x).arg(describe(image.pixel(x, 75)))));
        }
    }

    void aFlipCardShowsItsBackFace()
    {
        // §8: the faces join the card's 3D rendering context (preserve-3d), so a card
        // turned half way shows the face turned with it, the front hidden behind.
        auto face = [](const char *colour, const char *transform) {
            return div(QJsonObject{{"position", "absolute"},
                                   {"inset", 0},
                                   {"backgroundColor", colour},
                                   {"backfaceVisibility", "hidden"},
                                   {"transform", transform}});
        };
        auto card = [&](const char *turn, const char *style) {
            return div(QJsonObject{{"position", "relative"},
                                   {"width", 100},
                                   {"height", 100},
                                   {"transformStyle", style},
                                   {"transform", turn}},
                       {face("#16a34a", "none"), face("#db2777", "rotateY(180deg)")});
        };
        for (const QString &engine : kEngines) {
            const QImage image = renderChildren(
                engine, 360, 120,
                {card("none", "preserve-3d"), card("rotateY(180deg)", "preserve-3d"), card("rotateY(180deg)", "flat")},
                {{"alignItems", "center"}, {"justifyContent", "space-around"}, {"perspective", "800px"}});
            QVERIFY2(near(image.pixel(60, 60), QColor(0x16a34a)), qPrintable(engine + describe(image.pixel(60, 60))));
            QVERIFY2(near(image.pixel(180, 60), QColor(0xdb2777)), qPrintable(engine + describe(image.pixel(180, 60))));
            // Flat, the faces are drawn onto the card before it turns: the back face is
            // hidden by its own turn, the front shows mirrored.
            QVERIFY2(near(image.pixel(300, 60), QColor(0x16a34a)), qPrintable(engine + describe(image.pixel(300, 60))));
        }
    }
};

QTEST_MAIN(TestPaint3d)
#include "tst_paint_3d.moc"
