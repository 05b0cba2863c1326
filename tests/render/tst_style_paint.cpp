// Style parsing of the paint and effect properties: transforms, gradients, backgrounds,
// shadows, filters, clip-path, conic gradients and background-clip: text.
// Every value form a template can write reaches ComputedStyle as the browser would
// compute it, and bad values become warnings, never crashes (split of tst_style by
// property group; helpers in style_test_support.h).

#include "tests/render/style_test_support.h"

namespace {

/// Checks that `ops` opens with translate(`x`, `y`) and then rotate(`degrees`).
void checkTranslateThenRotate(const std::vector<TransformOp> &ops, const Length &x, const Length &y, float degrees)
{
    QCOMPARE(ops[0].kind, TransformOp::Kind::Translate);
    QCOMPARE(ops[0].x, x);
    QCOMPARE(ops[0].y, y);
    QCOMPARE(ops[1].kind, TransformOp::Kind::Rotate);
    QCOMPARE(ops[1].a, degrees);
}

} // namespace

class TstStylePaint : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void individualTransformsComeBeforeTheTransformList()
    {
        const ComputedStyle s = style(R"j({"transform": "skewX(10deg)", "scale": "150% 2", "rotate": "z 0.25turn",
                                          "translate": "10px 20%"})j");
        QCOMPARE(s.transform.size(), size_t(4));
        checkTranslateThenRotate(s.transform, Length::px(10), Length::percent(20), 90.f);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(s.transform[2].kind, TransformOp::Kind::Scale);
        QCOMPARE(s.transform[2].a, 1.5f);
        QCOMPARE(s.transform[2].b, 2.f);
        QCOMPARE(s.transform[3].kind, TransformOp::Kind::Skew);
        QVERIFY(style(R"({"scale": "none", "rotate": "none"})").transform.empty());
        for (const char *bad :
             {R"({"rotate": "1 0 45deg"})", R"({"scale": "big"})", R"({"translate": "1px 2px 3px 4px"})"}) {
            QStringList warnings;
            QVERIFY2(style(bad, nullptr, &warnings).transform.empty(), bad);
            QCOMPARE(warnings.size(), 1);
        }
    }

    void borderImageShorthandAndLonghands()
    {
        // CSS Backgrounds 3 §6: the gradient-border idiom, and every part of the shorthand.
        using U = BorderImageLength::Unit;
        QStringList warnings;
        ComputedStyle s = style(R"j({"border": "10px solid transparent",
                                   "borderImage": "linear-gradient(45deg, red, blue) 1"})j",
                                nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QVERIFY(s.borderImage.source.gradient);
        QCOMPARE(s.borderImage.slice[Top], (BorderImageLength{U::Number, 1}));
        QCOMPARE(s.borderImage.width[Left], (BorderImageLength{U::Number, 1})); // initial: 1 × border width
        QCOMPARE(s.borderImage.repeatX, BorderImageRepeat::Stretch);

        s = style(R"j({"borderImage": "round space url(data:image/png;base64,AAAA) fill 30 10% / 2 auto 4px 5% / 1 3px",
                       "fontSize": 10})j",
                  nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        const BorderImage &b = s.borderImage;
        QCOMPARE(b.source.imageUrl, QString("data:image/png;base64,AAAA"));
        QVERIFY(b.fill);
        QCOMPARE(b.slice[Top], (BorderImageLength{U::Number, 30}));
        QCOMPARE(b.slice[Right], (BorderImageLength{U::Percent, 10}));
        QCOMPARE(b.slice[Bottom], (BorderImageLength{U::Number, 30}));
        QCOMPARE(b.width[Top], (BorderImageLength{U::Number, 2}));
        QCOMPARE(b.width[Right], (BorderImageLength{U::Auto, 0}));
        QCOMPARE(b.width[Bottom], (BorderImageLength{U::Px, 4}));
        QCOMPARE(b.width[Left], (BorderImageLength{U::Percent, 5}));
        QCOMPARE(b.outset[Top], (BorderImageLength{U::Number, 1}));
        QCOMPARE(b.outset[Right], (BorderImageLength{U::Px, 3}));
        QCOMPARE(b.repeatX, BorderImageRepeat::Round);
        QCOMPARE(b.repeatY, BorderImageRepeat::Space);

        // Longhands; the shorthand resets what it leaves out; `1/2px` without spaces.
        s = style(R"j({"borderImageSource": "radial-gradient(red, blue)", "borderImageSlice": 20,
                      "borderImageWidth": "1em", "borderImageOutset": "2", "borderImageRepeat": "repeat",
                      "fontSize": 8})j",
                  nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QCOMPARE(s.borderImage.slice[Left], (BorderImageLength{U::Number, 20}));
        QCOMPARE(s.borderImage.width[Top], (BorderImageLength{U::Px, 8}));
        QCOMPARE(s.borderImage.outset[Bottom], (BorderImageLength{U::Number, 2}));
        QCOMPARE(s.borderImage.repeatY, BorderImageRepeat::Repeat);
        s = style(R"j({"borderImage": "linear-gradient(red, blue) 1/2px"})j", nullptr, &warnings);
        QCOMPARE(s.borderImage.width[Top], (BorderImageLength{U::Px, 2}));
        QCOMPARE(s.borderImage.repeatX, BorderImageRepeat::Stretch);
        QVERIFY(!style(R"j({"borderImage": "none"})j").borderImage.hasSource());

        // Bad values warn and leave the border image unset.
        for (const char *bad : {R"j({"borderImage": "linear-gradient(red, blue) -1"})j",
                                R"j({"borderImage": "linear-gradient(red, blue) 1 / / / 2"})j",
                                R"j({"borderImageSlice": "10px"})j", R"j({"borderImageSlice": "1 fill 2"})j",
                                R"j({"borderImageOutset": "10%"})j", R"j({"borderImageRepeat": "stretch round space"})j",
                                R"j({"borderImageSource": "image-set(a.png 1x)"})j"}) {
            QStringList w;
            QVERIFY2(style(bad, nullptr, &w).borderImage == BorderImage{}, bad);
            QCOMPARE(w.size(), 1);
        }
    }

    void willChangeHints()
    {
        // CSS Will Change 1: the properties that would make a stacking context or a
        // containing block make one; others (scroll-position, contents, top) change nothing.
        ComputedStyle s = style(R"({"willChange": "scroll-position, transform"})");
        QVERIFY(s.willChangeStackingContext && s.willChangeContainingBlock && s.containsAbsolutes());
        s = style(R"({"willChange": "opacity"})");
        QVERIFY(s.willChangeStackingContext && !s.willChangeContainingBlock && !s.containsAbsolutes());
        s = style(R"({"willChange": "contents, top"})");
        QVERIFY(!s.willChangeStackingContext && !s.willChangeContainingBlock);
        QVERIFY(!style(R"({"willChange": "auto"})").willChangeStackingContext);
        for (const char *bad : {R"({"willChange": "transform, auto"})", R"({"willChange": "10px"})"}) {
            QStringList warnings;
            QVERIFY2(!style(bad, nullptr, &warnings).willChangeStackingContext, bad);
            QCOMPARE(warnings.size(), 1);
        }
    }

    void threeDimensionalTransforms()
    {
        // CSS Transforms 2 §13: the 3D functions, and the properties around them.
        QStringList warnings;
        const ComputedStyle s = style(
            R"j({"transform": "perspective(800px) rotateX(30deg) rotateY(-0.25turn) rotate3d(1, 1, 0, 45deg) translate3d(10px, 50%, -2em) translateZ(5px) scale3d(1, 2, 3) scaleZ(0.5) matrix3d(1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1)",
                 "perspective": "600px", "perspectiveOrigin": "left 25%", "transformStyle": "preserve-3d",
                 "backfaceVisibility": "hidden", "transformOrigin": "center top 12px", "fontSize": 10})j",
            nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QCOMPARE(s.transform.size(), size_t(9));
        using K = TransformOp::Kind;
        QCOMPARE(s.transform[0].kind, K::Perspective);
        QCOMPARE(s.transform[0].a, 800.f);
        QCOMPARE(s.transform[1].kind, K::Rotate3d);
        QCOMPARE(s.transform[1].axis, (std::array<float, 3>{1, 0, 0}));
        QCOMPARE(s.transform[1].a, 30.f);
        QCOMPARE(s.transform[2].axis, (std::array<float, 3>{0, 1, 0}));
        QCOMPARE(s.transform[2].a, -90.f);
        QCOMPARE(s.transform[3].axis, (std::array<float, 3>{1, 1, 0}));
        QCOMPARE(s.transform[4].kind, K::Translate);
        QCOMPARE(s.transform[4].y, Length::percent(50));
        QCOMPARE(s.transform[4].z, -20.f);
        QCOMPARE(s.transform[5].z, 5.f);
        QCOMPARE(s.transform[6].kind, K::Scale);
        QCOMPARE(s.transform[6].z, 3.f);
        QCOMPARE(s.transform[7].a, 1.f);
        QCOMPARE(s.transform[7].z, 0.5f);
        QCOMPARE(s.transform[8].kind, K::Matrix3d);
        QCOMPARE(s.transform[8].m[15], 1.f);
        QCOMPARE(s.perspective, 600.f);
        QCOMPARE(s.perspectiveOriginX, Length::percent(0));
        QCOMPARE(s.perspectiveOriginY, Length::percent(25));
        QCOMPARE(s.transformStyle, TransformStyle::Preserve3d);
        QCOMPARE(s.backfaceVisibility, BackfaceVisibility::Hidden);
        QCOMPARE(s.transformOriginZ, 12.f);
        // A depth under 1px is drawn as 1px; `none` is no perspective.
        QCOMPARE(style(R"j({"perspective": "0"})j").perspective, 1.f);
        QCOMPARE(style(R"j({"transform": "perspective(none)"})j").transform[0].a, 0.f);
        // The individual properties take an axis (before or after the angle) and a z.
        const ComputedStyle individual = style(R"j({"rotate": "45deg y", "translate": "1px 2px 3px", "scale": "1 2 4"})j");
        QCOMPARE(individual.transform.size(), size_t(3));
        QCOMPARE(individual.transform[0].z, 3.f);
        QCOMPARE(individual.transform[1].kind, K::Rotate3d);
        QCOMPARE(individual.transform[1].axis, (std::array<float, 3>{0, 1, 0}));
        QCOMPARE(individual.transform[1].a, 45.f);
        QCOMPARE(individual.transform[2].z, 4.f);
        for (const char *axisAndAngle : {R"j({"rotate": "0 0 2 90deg"})j", R"j({"rotate": "90deg 0 0 2"})j"}) {
            const ComputedStyle r = style(axisAndAngle);
            QCOMPARE(r.transform.size(), size_t(1));
            QCOMPARE(r.transform[0].axis, (std::array<float, 3>{0, 0, 2}));
            QCOMPARE(r.transform[0].a, 90.f);
        }
        for (const char *bad : {R"j({"transform": "translateZ(10%)"})j", R"j({"transform": "perspective(-1px)"})j",
                                R"j({"transform": "rotate3d(1, 0, 45deg)"})j", R"j({"transform": "matrix3d(1, 0, 0)"})j",
                                R"j({"transform": "scale3d(1, 2)"})j", R"j({"perspective": "50%"})j",
                                R"j({"perspective": "-5px"})j", R"j({"transformStyle": "3d"})j",
                                R"j({"backfaceVisibility": "none"})j"}) {
            QStringList reported;
            const ComputedStyle b = style(bad, nullptr, &reported);
            QVERIFY2(b.transform.empty() && b.perspective == 0 && b.transformStyle == TransformStyle::Flat
                         && b.backfaceVisibility == BackfaceVisibility::Visible,
                     bad);
            QCOMPARE(reported.size(), 1);
        }
    }

    void linearGradients()
    {
        ComputedStyle s
            = style("{\"backgroundImage\": \"linear-gradient(135deg, #6d28d9 0%, rgba(0,0,0,0.5) 50%, red)\"}");
        QCOMPARE(s.backgroundLayers.size(), size_t(1));
        const Gradient &g = *s.backgroundLayers[0].gradient;
        QCOMPARE(g.kind, Gradient::Kind::Linear);
        QCOMPARE(g.angleDeg, 135.f);
        QCOMPARE(g.stops.size(), size_t(3));
        QCOMPARE(*g.stops[0].position, 0.f);
        QCOMPARE(*g.stops[1].position, 0.5f);
        QVERIFY(!g.stops[2].position);
        QCOMPARE(g.stops[1].color.alpha(), 128);

        Gradient right
            = *style("{\"backgroundImage\": \"linear-gradient(to right, red, blue)\"}").backgroundLayers[0].gradient;
        QCOMPARE(right.angleDeg, 90.f);
        QCOMPARE(right.angleFor(1200, 630), 90.f);
        Gradient turn
            = *style("{\"backgroundImage\": \"linear-gradient(0.25turn, red, blue)\"}").backgroundLayers[0].gradient;
        QCOMPARE(turn.angleDeg, 90.f);
        // A corner direction depends on the box (CSS Images 3 §3.1.1): for a square it is
        // 45°, for a wide box the line is steeper.
        Gradient corner = *style("{\"backgroundImage\": \"linear-gradient(to top right, red, blue)\"}")
                               .backgroundLayers[0]
                               .gradient;
        QCOMPARE(corner.toCorner, Gradient::Corner::TopRight);
        QCOMPARE(corner.angleFor(100, 100), 45.f);
        QVERIFY(qAbs(corner.angleFor(1200, 600) - 26.565f) < 0.01f);
        Gradient tl
            = *style("{\"backgroundImage\": \"linear-gradient(to left top, red, blue)\"}").backgroundLayers[0].gradient;
        QVERIFY(qAbs(tl.angleFor(100, 100) - 315.f) < 0.01f);
        // px stop positions wait for the painted box; double positions make two stops.
        Gradient px
            = *style("{\"backgroundImage\": \"repeating-linear-gradient(45deg, red 0px, red 10px, blue 10px 20px)\"}")
                   .backgroundLayers[0]
                   .gradient;
        QVERIFY(px.repeating);
        QCOMPARE(px.stops.size(), size_t(4));
        QCOMPARE(*px.stops[1].positionPx, 10.f);
        QCOMPARE(*px.stops[3].positionPx, 20.f);
        QVERIFY(!px.stops[3].position);
    }

    void radialGradients()
    {
        Gradient g = *style("{\"backgroundImage\": \"radial-gradient(circle at 25% 0%, #fff 0%, transparent 60%)\"}")
                          .backgroundLayers[0]
                          .gradient;
        QCOMPARE(g.kind, Gradient::Kind::Radial);
        QVERIFY(g.circle);
        QCOMPARE(g.centerX, Length::percent(25));
        QCOMPARE(g.centerY, Length::percent(0));
        QCOMPARE(g.extent, Gradient::Extent::FarthestCorner);
        QCOMPARE(*g.stops[1].position, 0.6f);
        Gradient e = *style("{\"backgroundImage\": \"radial-gradient(ellipse closest-side at top right, red, blue)\"}")
                          .backgroundLayers[0]
                          .gradient;
        QVERIFY(!e.circle);
        QCOMPARE(e.extent, Gradient::Extent::ClosestSide);
        QCOMPARE(e.centerX, Length::percent(100));
        QCOMPARE(e.centerY, Length::percent(0));
        Gradient sized = *style("{\"backgroundImage\": \"radial-gradient(200px 100px at 10px 20px, red, blue)\"}")
                              .backgroundLayers[0]
                              .gradient;
        QCOMPARE(*sized.radiusX, Length::px(200));
        QCOMPARE(*sized.radiusY, Length::px(100));
        QCOMPARE(sized.centerX, Length::px(10));
        Gradient plain = *style("{\"backgroundImage\": \"radial-gradient(red, blue)\"}").backgroundLayers[0].gradient;
        QCOMPARE(plain.stops.size(), size_t(2));
        QCOMPARE(plain.centerX, Length::percent(50));
        // A negative size is invalid (CSS Images 3 §3.2.2): the declaration is dropped, as
        // Chromium drops it, instead of a gradient drawn with a negative radius.
        QVERIFY(style("{\"backgroundImage\": \"radial-gradient(-20% 20% at top left, yellow, blue)\"}")
                    .backgroundLayers.empty());
        QVERIFY(style("{\"backgroundImage\": \"radial-gradient(circle -5px, yellow, blue)\"}").backgroundLayers.empty());
    }

    void backgroundShorthand()
    {
        ComputedStyle s = style("{\"background\": \"linear-gradient(to bottom, red, blue), "
                                "url('data:image/png;base64,AA==') center / cover no-repeat, #112233\"}");
        QCOMPARE(s.backgroundColor, QColor(0x11, 0x22, 0x33));
        QCOMPARE(s.backgroundLayers.size(), size_t(2));
        QVERIFY(s.backgroundLayers[0].gradient);
        QCOMPARE(s.backgroundLayers[1].imageUrl, QStringLiteral("data:image/png;base64,AA=="));
        QCOMPARE(s.backgroundLayers[1].size, BackgroundLayer::Size::Cover);
        QVERIFY(!s.backgroundLayers[1].repeatX && !s.backgroundLayers[1].repeatY);
        QCOMPARE(s.backgroundLayers[1].positionX, Length::percent(50));
        // A colour alone, and longhands that refine the shorthand's layers.
        QCOMPARE(style("{\"background\": \"white\"}").backgroundColor, QColor(Qt::white));
        ComputedStyle l = style("{\"background\": \"radial-gradient(red, blue)\", \"backgroundSize\": \"20px 20px\",\n"
                                "                                    \"backgroundRepeat\": \"no-repeat\", "
                                "\"backgroundPosition\": \"right bottom\"}");
        QCOMPARE(l.backgroundLayers[0].size, BackgroundLayer::Size::Explicit);
        QCOMPARE(l.backgroundLayers[0].sizeX, Length::px(20));
        QVERIFY(!l.backgroundLayers[0].repeatX && !l.backgroundLayers[0].repeatY);
        QCOMPARE(l.backgroundLayers[0].positionY, Length::percent(100));
    }

    // CSS Values 4 §8.3: three or four values, an edge keyword with an offset from that
    // edge; right and bottom count from the far edge (calc(100% - offset)).
    void backgroundPositionEdgeOffsets_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<Length>("x");
        QTest::addColumn<Length>("y");
        const auto calc = [](float percent, float px) { return Length{Length::Type::Percent, percent, px}; };
        QTest::newRow("right 20px center") << "right 20px center" << calc(100, -20) << Length::percent(50);
        QTest::newRow("right 20px bottom 10px") << "right 20px bottom 10px" << calc(100, -20) << calc(100, -10);
        QTest::newRow("center right 20px") << "center right 20px" << calc(100, -20) << Length::percent(50);
        QTest::newRow("left 30% top 10px") << "left 30% top 10px" << Length::percent(30) << Length::px(10);
        QTest::newRow("bottom 10px right 10%") << "bottom 10px right 10%" << Length::percent(90) << calc(100, -10);
        QTest::newRow("right 20px top") << "right 20px top" << calc(100, -20) << Length::percent(0);
    }
    void backgroundPositionEdgeOffsets()
    {
        QFETCH(QString, value);
        QFETCH(Length, x);
        QFETCH(Length, y);
        const ComputedStyle s = style(QStringLiteral("{\"backgroundImage\": \"linear-gradient(red, blue)\", "
                                                     "\"backgroundPosition\": \"%1\"}")
                                          .arg(value)
                                          .toUtf8());
        QCOMPARE(s.backgroundLayers.size(), size_t(1));
        QCOMPARE(s.backgroundLayers[0].positionX, x);
        QCOMPARE(s.backgroundLayers[0].positionY, y);
        // An offset after center, or two offsets for one axis, is not a position.
        for (const char *bad : {"center 20px right", "left 10px right 20px", "10px right 20px"})
            QVERIFY2(warningsOf(QByteArray("{\"backgroundImage\": \"linear-gradient(red, blue)\", \"backgroundPosition\": \"")
                                + bad + "\"}")
                             .size() == 1,
                     bad);
    }

    void boxShadows()
    {
        ComputedStyle s = style(
            "{\"color\": \"#010203\", \"boxShadow\": \"0 4px 12px rgba(0,0,0,0.25), inset 0 0 0 2px red, 2px 2px\"}");
        QCOMPARE(s.boxShadow.size(), size_t(3));
        QCOMPARE(s.boxShadow[0].offsetY, 4.f);
        QCOMPARE(s.boxShadow[0].blur, 12.f);
        QCOMPARE(s.boxShadow[0].color.alpha(), 64);
        QVERIFY(!s.boxShadow[0].inset);
        QVERIFY(s.boxShadow[1].inset);
        QCOMPARE(s.boxShadow[1].spread, 2.f);
        QCOMPARE(s.boxShadow[1].color, QColor(Qt::red));
        QCOMPARE(s.boxShadow[2].color, QColor(1, 2, 3)); // currentColor by default
        ComputedStyle colorFirst = style("{\"boxShadow\": \"red 1px 2px 3px\"}");
        QCOMPARE(colorFirst.boxShadow[0].color, QColor(Qt::red));
        QCOMPARE(colorFirst.boxShadow[0].blur, 3.f);
        ComputedStyle text = style("{\"textShadow\": \"0 2px 4px #000, 1px 1px blue\"}");
        QCOMPARE(text.textShadow.size(), size_t(2));
        QCOMPARE(warningsOf("{\"textShadow\": \"inset 1px 1px red\"}").size(), 1);
    }

    void transforms()
    {
        ComputedStyle s = style(
            "{\"transform\": \"translate(10px, 50%) rotate(0.5turn) scale(2) skewX(10deg) matrix(1,0,0,1,5,6)\",\n"
            "                                    \"transformOrigin\": \"top left\"}");
        QCOMPARE(s.transform.size(), size_t(5));
        checkTranslateThenRotate(s.transform, Length::px(10), Length::percent(50), 180.f);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(s.transform[2].a, 2.f);
        QCOMPARE(s.transform[2].b, 2.f);
        QCOMPARE(s.transform[3].kind, TransformOp::Kind::Skew);
        QCOMPARE(s.transform[3].a, 10.f);
        QCOMPARE(s.transform[3].b, 0.f);
        QCOMPARE(s.transform[4].m[4], 5.f);
        QCOMPARE(s.transformOriginX, Length::percent(0));
        QCOMPARE(s.transformOriginY, Length::percent(0));
        ComputedStyle y = style("{\"transform\": \"translateY(-4px) scaleX(0.5) rotate(1.5708rad)\", "
                                "\"transformOrigin\": \"20px bottom\"}");
        QCOMPARE(y.transform[0].x, Length::px(0));
        QCOMPARE(y.transform[0].y, Length::px(-4));
        QCOMPARE(y.transform[1].a, 0.5f);
        QCOMPARE(y.transform[1].b, 1.f);
        QVERIFY(qAbs(y.transform[2].a - 90.f) < 0.01f);
        QCOMPARE(y.transformOriginX, Length::px(20));
        QCOMPARE(y.transformOriginY, Length::percent(100));
        QCOMPARE(style("{\"transform\": \"rotate(100grad)\"}").transform[0].a, 90.f);
    }

    void filterLists()
    {
        QStringList warnings;
        const ComputedStyle s
            = style("{\"filter\": \"blur(4px) brightness(120%) grayscale(2) hue-rotate(0.5turn)\n"
                    " drop-shadow(2px 3px 4px red)\", \"backdropFilter\": \"blur(10px) saturate(1.5)\"}",
                    nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        const auto &f = s.effects.filter;
        QCOMPARE(f.size(), size_t(5));
        QCOMPARE(f[0].kind, FilterOp::Kind::Blur);
        QCOMPARE(f[0].amount, 4.f);
        QCOMPARE(f[1].amount, 1.2f);
        QCOMPARE(f[2].amount, 1.f); // grayscale clamps at 100%
        QCOMPARE(f[3].amount, 180.f);
        QCOMPARE(f[4].shadow.color, QColor(Qt::red));
        QCOMPARE(f[4].shadow.blur, 4.f);
        QCOMPARE(s.effects.backdropFilter.size(), size_t(2));
        style("{\"filter\": \"blur(-1px)\", \"mixBlendMode\": \"sideways\", \"filter2\": 1}", nullptr, &warnings);
        QCOMPARE(warnings.size(), 3);
        QVERIFY2(warnings.join(u'\n').contains(QLatin1String("filter2: unsupported property")),
                 qPrintable(warnings.join(u'\n')));
    }

    void clipPathShapes()
    {
        const ComputedStyle circle = style("{\"clipPath\": \"circle(40% at right 10px)\"}");
        QVERIFY(circle.effects.clipPath);
        QCOMPARE(circle.effects.clipPath->kind, ClipShape::Kind::Circle);
        QCOMPARE(circle.effects.clipPath->radiusX, Length::percent(40));
        QCOMPARE(circle.effects.clipPath->centerX, Length::percent(100));
        const ComputedStyle inset = style("{\"clipPath\": \"inset(10px 20% round 8px)\"}");
        QCOMPARE(inset.effects.clipPath->inset[Right], Length::percent(20));
        QCOMPARE(inset.effects.clipPath->radii[2].x, Length::px(8));
        const ComputedStyle poly = style("{\"clipPath\": \"polygon(evenodd, 0 0, 100% 0, 50% 100%)\"}");
        QCOMPARE(poly.effects.clipPath->points.size(), size_t(3));
        QVERIFY(poly.effects.clipPath->evenOdd);
        const ComputedStyle path = style("{\"clipPath\": \"path('M0 0 L10 0 L5 10 Z')\"}");
        QCOMPARE(path.effects.clipPath->path, QStringLiteral("M0 0 L10 0 L5 10 Z"));
        // Markup cannot ride in path data.
        QCOMPARE(warningsOf("{\"clipPath\": \"path('M0 0\\\"/><script>')\"}").size(), 1);
    }

    void conicGradientsAndBackgroundClipText()
    {
        QStringList warnings;
        const ComputedStyle s
            = style("{\"backgroundImage\": \"conic-gradient(from 90deg at 25% 75%, red 0 25%, blue 90deg)\",\n"
                    " \"WebkitBackgroundClip\": \"text\", \"maskImage\": \"linear-gradient(black, transparent)\"}",
                    nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        const Gradient &g = *s.backgroundLayers.at(0).gradient;
        QCOMPARE(g.kind, Gradient::Kind::Conic);
        QCOMPARE(g.angleDeg, 90.f);
        QCOMPARE(g.centerX, Length::percent(25));
        QCOMPARE(g.stops.size(), size_t(3));
        QCOMPARE(*g.stops[2].position, 0.25f); // 90deg is a quarter turn
        QVERIFY(s.effects.backgroundClipText);
        QCOMPARE(s.effects.maskImage.size(), size_t(1));
        QVERIFY(style("{\"background\": \"linear-gradient(red, blue) text\"}").effects.backgroundClipText);
        QVERIFY(style("{\"backgroundImage\": \"repeating-conic-gradient(red 0 10deg, blue 10deg 20deg)\"}")
                    .backgroundLayers.at(0)
                    .gradient->repeating);
    }
};

QTEST_GUILESS_MAIN(TstStylePaint)
#include "tst_style_paint.moc"
