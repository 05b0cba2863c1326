#pragma once
// Helpers shared by the tst_paint* suites: hand-made box trees, pixel checks, and cards
// rendered through the whole pipeline.


#include "server/render/backends/raster.h"
#include "server/render/paint/geometry.h"
#include "server/render/paint/recorder.h"
#include "server/render/pipeline.h"
#include "tests/support/render_requests.h"
#include "server/render/text/text_engine.h"
#include "tests/support/list_checks.h"
#include "tests/support/render_context.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <array>
#include <initializer_list>
#include <thread>

using namespace imprint::render;

namespace imprint::render::test {

/// Owns the nodes of a hand-made tree.
struct Tree {
    std::vector<std::unique_ptr<Node>> nodes;

    Node *element(ComputedStyle style = {}, const QString &tag = QStringLiteral("div"))
    {
        nodes.push_back(std::make_unique<Node>());
        Node *n = nodes.back().get();
        n->tag = tag;
        n->style = std::move(style);
        return n;
    }
    Node *text(const QString &characters, ComputedStyle style)
    {
        Node *n = element(std::move(style), QString());
        n->kind = Node::Kind::Text;
        n->text = characters;
        return n;
    }
};

inline LayoutBox box(const Node *node, QRectF rect, std::vector<LayoutBox> children = {}, qreal border = 0)
{
    LayoutBox b;
    b.node = node;
    b.borderBox = rect;
    b.border = QMarginsF(border, border, border, border);
    b.children = std::move(children);
    return b;
}

inline ComputedStyle filled(QColor color)
{
    ComputedStyle s;
    s.backgroundColor = color;
    return s;
}

inline void setRadius(ComputedStyle &s, float r)
{
    for (auto &c : s.borderRadius)
        c = {Length::px(r), Length::px(r)};
}

/// Gives `s` a border of `style`, `width` px, on every edge, in `colours` (top, right,
/// bottom, left).
inline void setBorders(ComputedStyle &s, BorderStyle style, float width, const std::array<QColor, 4> &colours)
{
    for (int edge = 0; edge < 4; ++edge) {
        s.borderStyle[edge] = style;
        s.borderWidth[edge] = width;
        s.borderColor[edge] = colours[edge];
    }
}

inline bool near(QRgb a, QColor b, int tolerance = 3)
{
    return qAbs(qRed(a) - b.red()) <= tolerance && qAbs(qGreen(a) - b.green()) <= tolerance
           && qAbs(qBlue(a) - b.blue()) <= tolerance && qAbs(qAlpha(a) - b.alpha()) <= tolerance;
}

inline QString describe(QRgb c)
{
    return QStringLiteral("rgba(%1,%2,%3,%4)").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c)).arg(qAlpha(c));
}

#define COMPARE_PIXEL(image, x, y, color) \
    QVERIFY2(near((image).pixel(x, y), color), \
             qPrintable(QStringLiteral("pixel (%1,%2) is %3, expected %4") \
                            .arg(x) \
                            .arg(y) \
                            .arg(describe((image).pixel(x, y)), describe(QColor(color).rgba()))))

/// One pixel's expected colour, for COMPARE_PIXELS.
struct ExpectedPixel {
    int x, y;
    QColor colour;
};

/// Compares each pixel of `expected` with `image` as COMPARE_PIXEL does (near(), 3 per
/// channel); at the first that differs, fails the test at `file`:`line` with
/// COMPARE_PIXEL's message and returns false.
inline bool comparePixels(const QImage &image, std::initializer_list<ExpectedPixel> expected, const char *file,
                          int line)
{
    for (const ExpectedPixel &e : expected) {
        const QRgb actual = image.pixel(e.x, e.y);
        if (!near(actual, e.colour)) {
            QTest::qFail(qPrintable(QStringLiteral("pixel (%1,%2) is %3, expected %4")
                                        .arg(e.x)
                                        .arg(e.y)
                                        .arg(describe(actual), describe(e.colour.rgba()))),
                         file, line);
            return false;
        }
    }
    return true;
}

/// COMPARE_PIXEL for a list: COMPARE_PIXELS(image, {{x, y, colour}, ...}) checks each
/// pixel in order and returns from the test at the first miss.
#define COMPARE_PIXELS(image, ...) IMPRINT_CHECK_LIST(comparePixels, (image), __VA_ARGS__)

inline QImage paint(const LayoutBox &root, QSize size = QSize(200, 200))
{
    return paintToImage(root, size, imprint::test::renderContext().paintResources())
        .convertToFormat(QImage::Format_ARGB32);
}

/// One box of `rect` filled with `color`, every corner radius `radius` px, painted.
inline QImage paintRoundedBox(QColor color, float radius, QRectF rect)
{
    Tree t;
    ComputedStyle s = filled(color);
    setRadius(s, radius);
    return paint(box(t.element(s), rect));
}

/// A 200×200 template whose root div has `rootStyle` and one child div `childStyle`.
inline QJsonObject oneChildCard(const QJsonObject &rootStyle, const QJsonObject &childStyle)
{
    const QJsonObject child{{"type", "div"}, {"props", QJsonObject{{"style", childStyle}}}};
    return QJsonObject{
        {"width", 200},
        {"height", 200},
        {"root",
         QJsonObject{{"type", "div"},
                     {"props", QJsonObject{{"style", rootStyle}, {"children", QJsonArray{child}}}}}}};
}

/// A `width`×`height` template whose root div (display flex, white, then `rootStyle`) has
/// `children`.
inline QJsonObject cardWithChildren(int width, int height, const QJsonArray &children, const QJsonObject &rootStyle = {})
{
    QJsonObject style{{"display", "flex"}, {"width", width}, {"height", height}, {"backgroundColor", "#ffffff"}};
    for (auto it = rootStyle.begin(); it != rootStyle.end(); ++it)
        style.insert(it.key(), it.value());
    return QJsonObject{{"width", width},
                       {"height", height},
                       {"root", QJsonObject{{"type", "div"},
                                            {"props", QJsonObject{{"style", style}, {"children", children}}}}}};
}

/// The PNG bytes of cardWithChildren() rendered through the whole pipeline with `engine`;
/// empty on failure.
inline QByteArray renderChildrenPng(const QString &engine, int width, int height, const QJsonArray &children,
                                    const QJsonObject &rootStyle = {})
{
    RenderRequest request;
    request.options.engine = imprint::test::engineOption(engine);
    request.document = cardWithChildren(width, height, children, rootStyle);
    const auto result = render(request, imprint::test::renderContext());
    return result ? result->bytes : QByteArray();
}

/// The same as an RGB32 image (null on failure).
inline QImage renderChildren(const QString &engine, int width, int height, const QJsonArray &children,
                             const QJsonObject &rootStyle = {})
{
    return QImage::fromData(renderChildrenPng(engine, width, height, children, rootStyle))
        .convertToFormat(QImage::Format_RGB32);
}

/// Renders a 200×200 card with a white background whose one child (absolutely placed at
/// 50,50, 100×100) has `style`, through the whole pipeline with `engine`, as an image.
inline QImage renderCard(const QJsonObject &childStyle, const QString &engine = QStringLiteral("takumi"),
                  const QJsonObject &rootStyle = {}, QStringList *warnings = nullptr)
{
    QJsonObject child = childStyle;
    for (auto [k, v] :
         {std::pair{"position", QJsonValue("absolute")}, {"left", 50}, {"top", 50}, {"width", 100}, {"height", 100}})
        if (!child.contains(QLatin1String(k)))
            child.insert(QLatin1String(k), v);
    QJsonObject root{{"width", 200}, {"height", 200}, {"backgroundColor", "#ffffff"}};
    for (auto it = rootStyle.begin(); it != rootStyle.end(); ++it)
        root.insert(it.key(), it.value());
    RenderRequest request;
    request.options.engine = imprint::test::engineOption(engine);
    request.document = oneChildCard(root, child);
    const auto result = render(request, imprint::test::renderContext());
    if (!result)
        qWarning("render failed: %s", qPrintable(imprint::test::failureOf(result).message));
    if (result && warnings)
        *warnings = result->warnings;
    return result ? QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32) : QImage();
}

/// Renders `text` ("MMMMM" unless given) in white on white (so only its decoration shows)
/// at 40px DejaVu Sans from x = 10 in a 240×80 card with `decoration` added to the text's
/// style and the Tailwind classes `tw`, through `engine`.
inline QImage renderDecoratedText(const QJsonObject &decoration, const QString &engine,
                                  const QString &text = QStringLiteral("MMMMM"), const QString &tw = QString())
{
    QJsonObject style{{"width", 240},
                      {"height", 80},
                      {"backgroundColor", "#ffffff"},
                      {"color", "#ffffff"},
                      {"fontFamily", "DejaVu Sans"},
                      {"fontSize", 40},
                      {"paddingLeft", 10},
                      {"paddingTop", 10}};
    for (auto it = decoration.begin(); it != decoration.end(); ++it)
        style.insert(it.key(), it.value());
    RenderRequest request;
    request.options.engine = imprint::test::engineOption(engine);
    request.document = QJsonObject{
        {"width", 240},
        {"height", 80},
        {"root", QJsonObject{{"type", "div"}, {"props", QJsonObject{{"style", style}, {"children", text}}}}}};
    if (!tw.isEmpty()) {
        QJsonObject root = request.document.value(QLatin1String("root")).toObject();
        QJsonObject props = root.value(QLatin1String("props")).toObject();
        props.insert(QStringLiteral("tw"), tw);
        root.insert(QStringLiteral("props"), props);
        request.document.insert(QStringLiteral("root"), root);
    }
    const auto result = render(request, imprint::test::renderContext());
    if (!result)
        qWarning("render failed: %s", qPrintable(imprint::test::failureOf(result).message));
    return result ? QImage::fromData(result->bytes).convertToFormat(QImage::Format_ARGB32) : QImage();
}

inline bool isRed(QRgb p)
{
    return qRed(p) > 160 && qGreen(p) < 120 && qBlue(p) < 120;
}

/// Rows (y) with any red pixel, and for a column x, the red runs down it.
struct RedScan {
    int top = -1, bottom = -1; ///< first and last row holding red
    int bestRow = -1, bestCount = 0; ///< the row with the most red pixels
};

inline RedScan scanRed(const QImage &img)
{
    RedScan r;
    for (int y = 0; y < img.height(); ++y) {
        int n = 0;
        for (int x = 0; x < img.width(); ++x)
            n += isRed(img.pixel(x, y));
        if (n > 0) {
            if (r.top < 0)
                r.top = y;
            r.bottom = y;
        }
        if (n > r.bestCount) {
            r.bestCount = n;
            r.bestRow = y;
        }
    }
    return r;
}

/// Number of separate red runs along the line of pixels from `from`, one `step` at a
/// time, to the image's edge.
inline int redRunsAlong(const QImage &img, QPoint from, QPoint step)
{
    int runs = 0;
    bool in = false;
    for (QPoint p = from; img.valid(p); p += step) {
        const bool red = isRed(img.pixel(p));
        runs += red && !in;
        in = red;
    }
    return runs;
}

/// Number of separate red runs along row y (x from 10 to the text's end).
inline int redRunsInRow(const QImage &img, int y)
{
    return redRunsAlong(img, QPoint(0, y), QPoint(1, 0));
}

/// Number of separate red runs down column x.
inline int redRunsInColumn(const QImage &img, int x)
{
    return redRunsAlong(img, QPoint(x, 0), QPoint(0, 1));
}

} // namespace imprint::render::test

using namespace imprint::render::test;
