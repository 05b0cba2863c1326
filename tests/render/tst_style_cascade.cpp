// Style cascade: shorthands against longhands, the property table, inheritance, Satori's
// defaults, hostile values, invalid values as warnings, custom properties and var().
// Every value form a template can write reaches ComputedStyle as the browser would
// compute it, and bad values become warnings, never crashes (split of tst_style by
// property group; helpers in style_test_support.h).

#include "tests/render/style_test_support.h"

namespace {

/// One declaration per property whose value differs from the initial one (companions
/// where the property alone changes nothing), as JSON style objects by property name.
QHash<QString, QString> propertySamples()
{
    QHash<QString, QString> m;
    auto add = [&m](const char *names, const char *value) {
        for (const QString &n : QString::fromLatin1(names).split(QLatin1Char(' ')))
            m.insert(n, QStringLiteral("{\"%1\": %2}").arg(n, QLatin1String(value)));
    };
    add("top right bottom left inset width height minWidth minHeight maxWidth maxHeight margin marginTop "
        "marginRight marginBottom marginLeft padding paddingTop paddingRight paddingBottom paddingLeft gap "
        "rowGap columnGap gridGap flexBasis borderRadius borderTopLeftRadius borderTopRightRadius "
        "borderBottomRightRadius borderBottomLeftRadius fontSize letterSpacing wordSpacing inlineSize blockSize "
        "minInlineSize minBlockSize maxInlineSize maxBlockSize borderStartStartRadius borderStartEndRadius "
        "borderEndStartRadius borderEndEndRadius",
        "5");
    add("border borderTop borderRight borderBottom borderLeft", "\"1px solid\"");
    add("borderStyle borderTopStyle borderRightStyle borderBottomStyle borderLeftStyle", "\"solid\"");
    add("borderColor borderTopColor borderRightColor borderBottomColor borderLeftColor backgroundColor "
        "background color",
        "\"red\"");
    add("overflow overflowX overflowY", "\"hidden\"");
    add("justifyContent alignItems alignSelf alignContent textAlign", "\"center\"");
    add("lineClamp WebkitLineClamp flexGrow aspectRatio lineHeight", "2");
    add("boxShadow textShadow", "\"1px 1px red\"");
    add("transformOrigin objectPosition perspectiveOrigin", "\"left top\"");
    add("perspective", "\"400px\"");
    add("transformStyle", "\"preserve-3d\"");
    add("isolation", "\"isolate\"");
    add("visibility", "\"hidden\"");
    add("backfaceVisibility WebkitBackfaceVisibility", "\"hidden\"");
    add("textDecoration textDecorationLine", "\"underline\"");
    add("overflowWrap wordWrap", "\"anywhere\"");
    add("display", "\"block\"");
    add("gridTemplateColumns gridTemplateRows gridAutoColumns gridAutoRows", "\"10px\"");
    add("gridTemplateAreas", "\"'a'\"");
    add("gridColumnStart gridColumnEnd gridRowStart gridRowEnd gridColumn gridRow gridArea gridRowGap "
        "gridColumnGap",
        "2");
    add("justifyItems justifySelf placeItems placeSelf placeContent", "\"center\"");
    add("zIndex tabSize outlineOffset order", "3");
    add("boxSizing", "\"border-box\"");
    add("flexDirection flexFlow gridAutoFlow", "\"column\"");
    add("flexWrap", "\"wrap\"");
    add("flex", "\"1\"");
    add("flexShrink", "0");
    add("backgroundImage", "\"linear-gradient(red, blue)\"");
    add("opacity", "0.5");
    add("transform", "\"rotate(10deg)\"");
    add("objectFit", "\"cover\"");
    add("textOverflow", "\"ellipsis\"");
    add("textWrap textWrapStyle textWrapMode", "\"balance\"");
    add("textFit", "\"grow per-line 200%\"");
    add("fontFamily", "\"Serif\"");
    add("fontWeight", "700");
    add("fontStyle", "\"italic\"");
    add("textTransform", "\"uppercase\"");
    add("whiteSpace", "\"nowrap\"");
    add("whiteSpaceCollapse", "\"preserve\"");
    add("wordBreak", "\"break-all\"");
    add("position", "\"absolute\"");
    add("direction", "\"rtl\"");
    add("filter WebkitFilter backdropFilter WebkitBackdropFilter", "\"blur(2px)\"");
    add("clipPath WebkitClipPath", "\"circle(50%)\"");
    add("maskImage WebkitMaskImage mask WebkitMask", "\"linear-gradient(black, transparent)\"");
    add("mixBlendMode", "\"multiply\"");
    add("maskComposite WebkitMaskComposite", "\"intersect\"");
    add("backgroundBlendMode", "\"multiply\"");
    add("backgroundClip WebkitBackgroundClip", "\"text\"");
    // The layer longhands need an image to act on (the background's or the mask's).
    const std::pair<const char *, const char *> parts[] = {{"Size", "cover"}, {"Position", "center"}, {"Repeat", "no-repeat"}};
    for (const QString &p : {QStringLiteral("background"), QStringLiteral("mask"), QStringLiteral("WebkitMask")})
        for (const auto &[part, value] : parts)
            m.insert(p + QLatin1String(part),
                     QStringLiteral("{\"%1Image\": \"linear-gradient(red, blue)\", \"%1%2\": \"%3\"}")
                         .arg(p, QLatin1String(part), QLatin1String(value)));
    m.insert(QStringLiteral("backgroundOrigin"),
             QStringLiteral("{\"backgroundImage\": \"linear-gradient(red, blue)\", \"backgroundOrigin\": \"content-box\"}"));
    const QString solid = QStringLiteral("\"borderStyle\": \"solid\"");
    for (const char *w :
         {"borderWidth", "borderTopWidth", "borderRightWidth", "borderBottomWidth", "borderLeftWidth"})
        m.insert(QLatin1String(w), QStringLiteral("{%1, \"%2\": 2}").arg(solid, QLatin1String(w)));
    const QString line = QStringLiteral("\"textDecorationLine\": \"underline\"");
    m.insert(QStringLiteral("textDecorationColor"),
             QStringLiteral("{%1, \"textDecorationColor\": \"red\"}").arg(line));
    m.insert(QStringLiteral("textDecorationStyle"),
             QStringLiteral("{%1, \"textDecorationStyle\": \"dashed\"}").arg(line));
    m.insert(QStringLiteral("textDecorationThickness"),
             QStringLiteral("{%1, \"textDecorationThickness\": 3}").arg(line));
    add("textIndent", "12");
    add("textUnderlineOffset", "\"0.5em\"");
    add("textDecorationSkipInk", "\"none\"");
    // Flow-relative properties (CSS Logical Properties 1).
    for (const char *group : {"margin", "padding", "inset"})
        for (const char *side : {"InlineStart", "InlineEnd", "BlockStart", "BlockEnd", "Inline", "Block"})
            add(qPrintable(QLatin1String(group) + QLatin1String(side)), "7");
    for (const char *side : {"InlineStart", "InlineEnd", "BlockStart", "BlockEnd", "Inline", "Block"}) {
        const QString b = QLatin1String("border") + QLatin1String(side);
        m.insert(b + QLatin1String("Width"), QStringLiteral("{%1, \"%2Width\": 2}").arg(solid, b));
        add(qPrintable(b + QLatin1String("Style")), "\"dashed\"");
        add(qPrintable(b + QLatin1String("Color")), "\"red\"");
        add(qPrintable(b), "\"2px solid red\"");
    }
    add("verticalAlign", "\"middle\"");
    add("WebkitTextStroke WebkitTextStrokeWidth", "\"2px\"");
    add("outline", "\"2px solid red\"");
    add("borderImage", "\"linear-gradient(red, blue) 1\"");
    add("borderImageSource", "\"linear-gradient(red, blue)\"");
    add("borderImageSlice borderImageWidth borderImageOutset", "\"2\"");
    add("borderImageRepeat", "\"round\"");
    add("willChange", "\"transform\"");
    add("outlineWidth", "\"thick\"");
    add("outlineStyle", "\"dotted\"");
    add("outlineColor WebkitTextStrokeColor", "\"red\"");
    add("translate", "\"5px\"");
    add("rotate", "\"5deg\"");
    add("scale", "\"2\"");
    add("fontVariantNumeric", "\"tabular-nums\"");
    add("fontVariantLigatures", "\"no-common-ligatures\"");
    add("fontVariantPosition", "\"super\"");
    add("fontVariantCaps", "\"small-caps\"");
    add("fontKerning hyphens WebkitHyphens", "\"none\"");
    add("fontStretch", "\"condensed\"");
    add("fontVariationSettings", "\"\\\"wght\\\" 650\"");
    add("fontVariant", "\"all-small-caps slashed-zero\"");
    add("fontFeatureSettings", "\"\\\"smcp\\\"\"");
    return m;
}

} // namespace

class TstStyleCascade : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void longhandsWinOverShorthandsWhateverTheKeyOrder()
    {
        // QJsonObject sorts keys; "padding" < "paddingTop" and "marginTop" > "margin" alike.
        ComputedStyle s = style("{\"paddingTop\": 0, \"padding\": 8, \"margin\": \"auto\", \"marginLeft\": 3}");
        QCOMPARE(s.padding[Top], Length::px(0));
        QCOMPARE(s.padding[Bottom], Length::px(8));
        QCOMPARE(s.margin[Top], Length::autoLength());
        QCOMPARE(s.margin[Left], Length::px(3));
    }

    void hyphenatedKeysNameTheirProperties()
    {
        // React passes `background-color` to the DOM as written and Chromium reads it; satori
        // camelizes it: the same property as backgroundColor (satori's playground writes
        // '-webkit-background-clip': 'text'). Before, each was an unsupported property.
        QStringList warnings;
        const ComputedStyle s = computeStyle(
            QJsonObject{{"background-color", "#ff0000"}, {"-webkit-background-clip", "text"}, {"margin-top", 4},
                        {"border-top-left-radius", 6}, {"not-a-property", 1}},
            nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), &warnings);
        QCOMPARE(s.backgroundColor, QColor(255, 0, 0));
        QVERIFY(s.effects.backgroundClipText);
        QCOMPARE(s.margin[Top], Length::px(4));
        QCOMPARE(s.borderRadius[0].x, Length::px(6));
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.constFirst().contains(QLatin1String("not-a-property")), qPrintable(warnings.join(u'\n')));
    }

    void shorthandsSortedAfterTheirLonghandsStillLose()
    {
        // Keys where the shorthand sorts after its longhand: the property table's order
        // column, not the key order, decides.
        ComputedStyle s
            = style("{\"bottom\": 5, \"inset\": 1, \"columnGap\": 3, \"gap\": 1,\n"
                    "                                   \"flexDirection\": \"column\", \"flexFlow\": \"wrap\",\n"
                    "                                   \"borderTopWidth\": 7, \"borderWidth\": 1, \"borderStyle\": "
                    "\"solid\"}");
        QCOMPARE(s.inset[Bottom], Length::px(5));
        QCOMPARE(s.inset[Top], Length::px(1));
        QCOMPARE(s.columnGap, Length::px(3));
        QCOMPARE(s.rowGap, Length::px(1));
        QCOMPARE(s.flexDirection, FlexDirection::Column);
        QCOMPARE(s.flexWrap, FlexWrap::Wrap);
        QCOMPARE(s.borderWidth[Top], 7.f);
        QCOMPARE(s.borderWidth[Left], 1.f);
        // font-size before everything that takes em, color before currentColor.
        ComputedStyle e
            = style("{\"borderColor\": \"currentColor\", \"color\": \"red\", \"fontSize\": 20,\n"
                    "                                   \"borderStyle\": \"solid\", \"borderWidth\": \"1em\"}");
        QCOMPARE(e.borderWidth[Top], 20.f);
        QCOMPARE(e.borderColor[Top], QColor(Qt::red));
    }

    void propertyTableHasOneRowPerProperty()
    {
        std::set<QString> names;
        for (const CssProperty &p : cssProperties()) {
            const QString name(p.name);
            QVERIFY2(names.insert(name).second, qPrintable(name + QLatin1String(" has two rows")));
            QVERIFY2(p.handler, qPrintable(name));
            QCOMPARE(findCssProperty(name), &p);
            // Every row is reachable from a template: an invalid value warns in the row's
            // words, and never as an unsupported property.
            QStringList warnings;
            computeStyle(QJsonObject{{name, QStringLiteral("((")}}, nullptr, QStringLiteral("div"), 16,
                         QStringLiteral("s"), &warnings);
            for (const QString &w : warnings)
                QVERIFY2(!w.contains(QLatin1String("unsupported property")), qPrintable(w));
        }
        QCOMPARE(findCssProperty(QStringLiteral("grid")), nullptr);
        QCOMPARE(findCssProperty(QStringLiteral("FontSize")), nullptr); // camelCase, exact case
        QVERIFY(names.size() > 100);
    }

    void warningsNameTheValueKindOfTheRow()
    {
        QStringList warnings;
        style("{\"borderTopColor\": \"nope\", \"marginLeft\": \"x\", \"inset\": \"x\", \"maxWidth\": \"x\",\n"
              "  \"textDecorationColor\": \"nope\", \"letterSpacing\": \"x\", \"zIndex\": \"x\"}",
              nullptr, &warnings);
        QCOMPARE(warnings, (QStringList{QStringLiteral("root.props.style.inset: invalid value \"x\""),
                                        QStringLiteral("root.props.style.borderTopColor: invalid colour \"nope\""),
                                        QStringLiteral("root.props.style.letterSpacing: invalid length \"x\""),
                                        QStringLiteral("root.props.style.marginLeft: invalid length \"x\""),
                                        QStringLiteral("root.props.style.maxWidth: invalid length \"x\""),
                                        QStringLiteral("root.props.style.textDecorationColor: invalid colour \"nope\""),
                                        QStringLiteral("root.props.style.zIndex: invalid value \"x\"")}));
    }

    void satoriDefaults()
    {
        // Every element is a flex container unless it says otherwise, except the phrasing
        // elements, which are inline as in Chromium (docs/templates.md, Inline text).
        QCOMPARE(style("{}").display, imprint::render::Display::Flex);
        for (const char *tag : {"span", "b", "strong", "em", "i", "a", "code", "mark", "br", "img"})
            QCOMPARE(style("{}", nullptr, nullptr, QLatin1String(tag)).display, imprint::render::Display::Inline);
        QCOMPARE(style("{}", nullptr, nullptr, QStringLiteral("p")).display, imprint::render::Display::Flex);
        QCOMPARE(style("{\"display\": \"flex\"}", nullptr, nullptr, QStringLiteral("span")).display,
                 imprint::render::Display::Flex);
        QCOMPARE(style("{\"display\": \"inline\"}").display, imprint::render::Display::Inline);
        QCOMPARE(style("{\"display\": \"inline-block\"}").display, imprint::render::Display::InlineBlock);
        QCOMPARE(style("{\"textWrap\": \"balance\"}").textWrapStyle, TextWrapStyle::Balance);
        QCOMPARE(style("{\"textWrap\": \"pretty\"}").textWrapStyle, TextWrapStyle::Pretty);
        QCOMPARE(style("{\"textWrap\": \"nowrap\"}").whiteSpace, WhiteSpace::NoWrap);
        QCOMPARE(style("{}").boxSizing, BoxSizing::ContentBox);
        QCOMPARE(style("{}").flexShrink, 1.f);
        // Tag presets sit below the author's declarations, shorthands included.
        ComputedStyle h1 = style("{\"margin\": 0}", nullptr, nullptr, QStringLiteral("h1"));
        QCOMPARE(h1.fontSize, 32.f);
        QCOMPARE(h1.fontWeight, 700);
        QCOMPARE(h1.margin[Top], Length::px(0));
        QCOMPARE(style("{}", nullptr, nullptr, QStringLiteral("p")).margin[Top], Length::px(16));
        // The preset's em margins resolve against the element's own font size, the author's
        // when given (an h1 at fontSize 16 sits 10.72 px down in Chromium, not 21.44).
        QCOMPARE(style("{\"fontSize\": 16}", nullptr, nullptr, QStringLiteral("h1")).margin[Top].value, 16 * 0.67f);
        QCOMPARE(style("{\"fontSize\": \"40px\"}", nullptr, nullptr, QStringLiteral("p")).margin[Bottom].value,
                 40.f);
        QCOMPARE(style("{}", nullptr, nullptr, QStringLiteral("h1")).margin[Top].value, 32 * 0.67f);
    }

    void backgroundRepeatPerAxis()
    {
        // CSS Backgrounds 3 §3.4: repeat-x repeats along x only, repeat-y along y only.
        const QString image = QStringLiteral("\"backgroundImage\": \"linear-gradient(red, blue)\"");
        auto layer = [&](const char *repeat) {
            const QByteArray json
                = QStringLiteral("{%1, \"backgroundRepeat\": \"%2\"}").arg(image, QLatin1String(repeat)).toUtf8();
            return style(json.constData()).backgroundLayers.at(0);
        };
        QVERIFY(layer("repeat-x").repeatX && !layer("repeat-x").repeatY);
        QVERIFY(!layer("repeat-y").repeatX && layer("repeat-y").repeatY);
        QVERIFY(layer("repeat no-repeat").repeatX && !layer("repeat no-repeat").repeatY);
        QVERIFY(layer("space").repeatX && layer("space").repeatY);
        QCOMPARE(style("{\"background\": \"linear-gradient(red, blue) repeat-y\"}").backgroundLayers.at(0).repeatX,
                 false);
    }

    void inheritance()
    {
        ComputedStyle root = style(
            "{\"color\": \"#123456\", \"fontFamily\": \"DejaVu Sans\", \"fontSize\": 30,\n"
            "                                       \"fontWeight\": 700, \"lineHeight\": 1.2, \"letterSpacing\": 2,\n"
            "                                       \"textAlign\": \"right\", \"whiteSpace\": \"nowrap\",\n"
            "                                       \"padding\": 20, \"backgroundColor\": \"red\", \"width\": 100, "
            "\"opacity\": 0.5,\n"
            "                                       \"border\": \"2px solid\", \"textShadow\": \"1px 1px blue\"}");
        ComputedStyle child = style("{}", &root);
        QCOMPARE(child.color, QColor(0x12, 0x34, 0x56));
        QCOMPARE(child.fontFamily, QStringList{QStringLiteral("DejaVu Sans")});
        QCOMPARE(child.fontSize, 30.f);
        QCOMPARE(child.fontWeight, 700);
        QCOMPARE(child.lineHeight.value, 1.2f);
        QCOMPARE(child.letterSpacing, 2.f);
        QCOMPARE(child.textAlign, TextAlign::Right);
        QCOMPARE(child.whiteSpace, WhiteSpace::NoWrap);
        QCOMPARE(child.textShadow.size(), size_t(1));
        // Box and paint properties do not inherit.
        QCOMPARE(child.padding[Top], Length::px(0));
        QCOMPARE(child.backgroundColor.alpha(), 0);
        QCOMPARE(child.width, Length::autoLength());
        QCOMPARE(child.opacity, 1.f);
        QCOMPARE(child.borderWidth[Top], 0.f);
        // currentColor resolves against the element's own computed colour.
        ComputedStyle cc = style(
            "{\"color\": \"blue\", \"backgroundColor\": \"currentColor\", \"borderColor\": \"currentColor\"}", &root);
        QCOMPARE(cc.backgroundColor, QColor(Qt::blue));
        QCOMPARE(style("{\"backgroundColor\": \"currentcolor\"}", &root).backgroundColor, QColor(0x12, 0x34, 0x56));
        QCOMPARE(style("{\"color\": \"currentColor\"}", &root).color, QColor(0x12, 0x34, 0x56));
        // The root's own border colour follows its colour.
        QCOMPARE(root.borderColor[Top], QColor(0x12, 0x34, 0x56));

        // Text runs get the inherited properties plus what acts on their lines.
        ComputedStyle clamp = style("{\"display\": \"block\", \"lineClamp\": 2, \"textOverflow\": \"ellipsis\", \"padding\": 5,\n"
                                    "                                        \"textDecoration\": \"underline\"}",
                                    &root);
        ComputedStyle run = inheritedStyle(clamp);
        QCOMPARE(run.color, QColor(0x12, 0x34, 0x56));
        QCOMPARE(run.lineClamp, 2);
        QCOMPARE(run.textOverflow, TextOverflow::Ellipsis);
        // line-clamp acts on a block container's lines only: not through a flex container.
        QCOMPARE(inheritedStyle(style("{\"lineClamp\": 2}", &root)).lineClamp, 0);
        QCOMPARE(run.padding[Left], Length::px(0));
        QVERIFY(run.textDecoration.underline);
        // A decoration propagates to descendants in the colour of the element declaring it.
        ComputedStyle nested = style("{\"color\": \"green\"}", &clamp);
        QVERIFY(nested.textDecoration.underline);
        QCOMPARE(*nested.textDecoration.color, QColor(0x12, 0x34, 0x56));
    }

    void inheritedRowsAndInheritedStyleAgree()
    {
        // A new row without a sample (propertySamples()) fails.
        static const QHash<QString, QString> samples = propertySamples();
        auto inherited = [](const ComputedStyle &s) -> const InheritedStyle & { return s; };
        auto box = [](const ComputedStyle &s) -> const BoxStyle & { return s; };
        auto paint = [](const ComputedStyle &s) -> const PaintStyle & { return s; };
        for (const CssProperty &p : cssProperties()) {
            const QString name(p.name);
            if (isStillImageNoOp(p)) {
                // Accepted without a warning, and nothing of the style changes.
                QStringList warnings;
                const QJsonObject decl{{name, QStringLiteral("none")}};
                const ComputedStyle with
                    = computeStyle(decl, nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), &warnings);
                const ComputedStyle plain
                    = computeStyle({}, nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), &warnings);
                QVERIFY2(inherited(with) == inherited(plain) && box(with) == box(plain) && paint(with) == paint(plain),
                         qPrintable(name));
                QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
                continue;
            }
            QVERIFY2(samples.contains(name), qPrintable(name + QLatin1String(" has no sample")));
            const QJsonObject decl = QJsonDocument::fromJson(samples.value(name).toUtf8()).object();
            QJsonObject without = decl;
            without.remove(name);
            QStringList warnings;
            const ComputedStyle parent
                = computeStyle(decl, nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), &warnings);
            const ComputedStyle base
                = computeStyle(without, nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), &warnings);
            QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('\n'))));
            // The row's flag says where its field is.
            const bool inInherited = !(inherited(parent) == inherited(base));
            QVERIFY2(inInherited == p.inherited, qPrintable(name));
            if (!p.inherited)
                QVERIFY2(!(box(parent) == box(base)) || !(paint(parent) == paint(base)), qPrintable(name));

            // A child element and a text run take the whole inherited part, nothing else.
            const ComputedStyle child
                = computeStyle({}, &parent, QStringLiteral("div"), 16, QStringLiteral("s"), nullptr);
            QVERIFY2(inherited(child) == inherited(parent), qPrintable(name));
            ComputedStyle expected;
            expected.borderColor.fill(child.color); // currentColor, the inherited colour
            QVERIFY2(box(child) == box(expected), qPrintable(name));
            QVERIFY2(paint(child) == paint(expected), qPrintable(name));
            const ComputedStyle run = inheritedStyle(parent);
            QVERIFY2(inherited(run) == inherited(parent), qPrintable(name));
            ComputedStyle expectedRun;
            expectedRun.overflow = parent.overflow; // the documented exceptions
            // line-clamp only from a block container (CSS Overflow 4 §4.1)
            expectedRun.lineClamp = parent.display == imprint::render::Display::Block ? parent.lineClamp : 0;
            expectedRun.textOverflow = parent.textOverflow;
            QVERIFY2(box(run) == box(expectedRun), qPrintable(name));
            QVERIFY2(paint(run) == paint(expectedRun), qPrintable(name));
        }
    }

    void hostileValuesNeverCrash()
    {
        // Every property against malformed, unbalanced and out-of-range values: each is
        // either taken or warned about, and nothing non-finite reaches the style.
        const QStringList properties = {QStringLiteral("display"),
                                        QStringLiteral("position"),
                                        QStringLiteral("width"),
                                        QStringLiteral("maxHeight"),
                                        QStringLiteral("margin"),
                                        QStringLiteral("padding"),
                                        QStringLiteral("inset"),
                                        QStringLiteral("top"),
                                        QStringLiteral("border"),
                                        QStringLiteral("borderLeft"),
                                        QStringLiteral("borderWidth"),
                                        QStringLiteral("borderColor"),
                                        QStringLiteral("borderStyle"),
                                        QStringLiteral("flex"),
                                        QStringLiteral("flexFlow"),
                                        QStringLiteral("flexBasis"),
                                        QStringLiteral("flexGrow"),
                                        QStringLiteral("gap"),
                                        QStringLiteral("justifyContent"),
                                        QStringLiteral("alignItems"),
                                        QStringLiteral("overflow"),
                                        QStringLiteral("aspectRatio"),
                                        QStringLiteral("background"),
                                        QStringLiteral("backgroundImage"),
                                        QStringLiteral("backgroundSize"),
                                        QStringLiteral("backgroundPosition"),
                                        QStringLiteral("backgroundRepeat"),
                                        QStringLiteral("borderRadius"),
                                        QStringLiteral("borderTopLeftRadius"),
                                        QStringLiteral("boxShadow"),
                                        QStringLiteral("textShadow"),
                                        QStringLiteral("opacity"),
                                        QStringLiteral("transform"),
                                        QStringLiteral("transformOrigin"),
                                        QStringLiteral("objectFit"),
                                        QStringLiteral("objectPosition"),
                                        QStringLiteral("color"),
                                        QStringLiteral("fontFamily"),
                                        QStringLiteral("fontSize"),
                                        QStringLiteral("fontWeight"),
                                        QStringLiteral("lineHeight"),
                                        QStringLiteral("letterSpacing"),
                                        QStringLiteral("textAlign"),
                                        QStringLiteral("textDecoration"),
                                        QStringLiteral("lineClamp"),
                                        QStringLiteral("whiteSpace")};
        const QStringList values = {QString(),
                                    QStringLiteral(" "),
                                    QStringLiteral("("),
                                    QStringLiteral(")"),
                                    QStringLiteral("(((("),
                                    QStringLiteral("/"),
                                    QStringLiteral(","),
                                    QStringLiteral(",,"),
                                    QStringLiteral("1/"),
                                    QStringLiteral("-"),
                                    QStringLiteral("#"),
                                    QStringLiteral("url("),
                                    QStringLiteral("url()"),
                                    QStringLiteral("linear-gradient("),
                                    QStringLiteral("linear-gradient()"),
                                    QStringLiteral("linear-gradient(red)"),
                                    QStringLiteral("radial-gradient(at)"),
                                    QStringLiteral("radial-gradient(circle 10% at, red)"),
                                    QStringLiteral("rgb("),
                                    QStringLiteral("rgb()"),
                                    QStringLiteral("hsl(1,2,3,4,5)"),
                                    QStringLiteral("1e999px"),
                                    QStringLiteral("1e30px"),
                                    QStringLiteral("-1e30"),
                                    QStringLiteral("NaN"),
                                    QStringLiteral("inf"),
                                    QStringLiteral("1px 2px 3px 4px 5px 6px"),
                                    QStringLiteral("to top top"),
                                    QStringLiteral("calc(1px + 2px)"),
                                    QStringLiteral("var(--x)"),
                                    QStringLiteral("\"unterminated"),
                                    QStringLiteral("'"),
                                    QStringLiteral("{{x}}"),
                                    QStringLiteral("translate(,)"),
                                    QStringLiteral("matrix(1,2,3)"),
                                    QStringLiteral("0 0 0 0 0 red inset inset"),
                                    QStringLiteral("99999999999"),
                                    QString(5000, QLatin1Char('('))};
        ComputedStyle parent = style("{\"fontSize\": 10}");
        int warned = 0;
        for (const QString &p : properties) {
            for (const QString &v : values) {
                QStringList warnings;
                ComputedStyle s = computeStyle(QJsonObject{{p, v}}, &parent, QStringLiteral("div"), 16,
                                               QStringLiteral("s"), &warnings);
                warned += warnings.isEmpty() ? 0 : 1;
                for (float f : {s.width.value, s.maxHeight.value, s.margin[Top].value, s.padding[Left].value,
                                s.inset[Top].value, s.borderWidth[Left], s.flexGrow, s.flexBasis.value, s.rowGap.value,
                                s.aspectRatio, s.borderRadius[0].x.value, s.opacity, s.fontSize, s.letterSpacing,
                                s.lineHeight.value, s.transformOriginX.value})
                    QVERIFY2(std::isfinite(f), qPrintable(p + QLatin1String(": ") + v.left(40)));
                QVERIFY(s.fontSize <= 8192);
            }
        }
        QVERIFY(warned > properties.size() * values.size() * 9 / 10);
    }

    void invalidValuesWarnAndKeepDefaults()
    {
        QStringList warnings;
        ComputedStyle s = style(
            "{\"width\": \"abc\", \"color\": \"nope\", \"padding\": \"1px 2px 3px 4px 5px\",\n"
            "                                    \"flex\": \"a b c\", \"transform\": \"spin(3deg)\", \"boxShadow\": "
            "\"1px\",\n"
            "                                    \"backgroundImage\": \"linear-gradient(to nowhere, red, blue)\",\n"
            "                                    \"borderRadius\": \"-3px\", \"opacity\": \"x\", \"fontSize\": -3,\n"
            "                                    \"display\": \"table\", \"unknownProperty\": 1, \"margin\": true,\n"
            "                                    \"height\": \"12px\"}",
            nullptr, &warnings);
        QCOMPARE(s.width, Length::autoLength());
        QCOMPARE(s.color, QColor(Qt::black));
        QCOMPARE(s.padding[Top], Length::px(0));
        QCOMPARE(s.fontSize, 16.f);
        QCOMPARE(s.display, imprint::render::Display::Flex); // table falls back to flex, with a warning
        QCOMPARE(s.height, Length::px(12)); // valid neighbours still apply
        QCOMPARE(warnings.size(), 13);
        QVERIFY2(warnings.contains(QStringLiteral("root.props.style.width: invalid length \"abc\"")),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
        for (const QString &w : warnings)
            QVERIFY2(w.startsWith(QLatin1String("root.props.style.")), qPrintable(w));
    }

    // --- calc() (CSS Values 4 §10) ---------------------------------------------------

    void varSubstitutesBeforeParsing()
    {
        QStringList warnings;
        const ComputedStyle s
            = style("{\"--accent\": \"#6366f1\", \"--gap\": 12, \"--pad\": \"calc(var(--gap) * 2)\",\n"
                    " \"color\": \"var(--accent)\", \"padding\": \"var(--pad) var(--gap)\",\n"
                    " \"border\": \"2px solid var(--accent)\"}",
                    nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QCOMPARE(s.color, QColor("#6366f1"));
        QCOMPARE(s.padding[Top], Length::px(24));
        QCOMPARE(s.padding[Left], Length::px(12));
        QCOMPARE(s.borderColor[Top], QColor("#6366f1"));
        QCOMPARE(s.customProperties.value(QStringLiteral("--pad")), QStringLiteral("calc(12 * 2)"));
    }

    void customPropertiesInheritAndChildrenOverride()
    {
        const ComputedStyle root = style("{\"--brand\": \"red\", \"--size\": \"20px\"}");
        // A custom property that reads itself is a cycle (§2.3): --size and --double here
        // are both invalid, and the fallback applies.
        const ComputedStyle child = style("{\"--double\": \"calc(var(--size) * 2)\", \"--size\": \"var(--double)\",\n"
                                          " \"backgroundColor\": \"var(--brand)\", \"width\": \"var(--size, 7px)\"}",
                                          &root);
        QCOMPARE(child.backgroundColor, QColor(Qt::red));
        QCOMPARE(child.width, Length::px(7));
        const ComputedStyle sized
            = style("{\"--double\": \"calc(var(--size) * 2)\", \"width\": \"var(--double)\"}", &root);
        QCOMPARE(sized.width, Length::px(40)); // the inherited --size is the one var() reads
        const ComputedStyle grandchild = style("{\"height\": \"var(--double)\"}", &sized);
        QCOMPARE(grandchild.height, Length::px(40));
        QCOMPARE(style("{\"height\": \"var(--size)\"}", &root).height, Length::px(20));
    }

    void varFallbacksNest()
    {
        QStringList warnings;
        const ComputedStyle s = style("{\"--b\": \"blue\", \"color\": \"var(--a, var(--missing, var(--b)))\",\n"
                                      " \"backgroundColor\": \"var(--none, rgb(1, 2, 3))\"}",
                                      nullptr, &warnings);
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(u'\n')));
        QCOMPARE(s.color, QColor(Qt::blue));
        QCOMPARE(s.backgroundColor, QColor(1, 2, 3));
    }

    void undefinedVarKeepsTheInheritedOrInitialValue()
    {
        const ComputedStyle parent = style("{\"color\": \"green\"}");
        QStringList warnings;
        const ComputedStyle s = style("{\"color\": \"var(--nope)\", \"width\": \"var(--nope)\"}", &parent, &warnings);
        QCOMPARE(s.color, QColor(0, 128, 0)); // inherited property: the parent's value
        QVERIFY(s.width.isAuto()); // the initial value
        QCOMPARE(warnings.size(), 2);
        QVERIFY2(warnings.first().contains(QLatin1String("--nope is not defined")), qPrintable(warnings.first()));
    }

    void varCyclesAreInvalidAtComputedValueTime()
    {
        QStringList warnings;
        const ComputedStyle s = style("{\"--a\": \"var(--b)\", \"--b\": \"var(--a)\", \"--c\": \"var(--c)\",\n"
                                      " \"--d\": \"8px\", \"width\": \"var(--a, 10px)\", \"height\": \"var(--d)\"}",
                                      nullptr, &warnings);
        QVERIFY(!s.customProperties.contains(QStringLiteral("--a")));
        QVERIFY(!s.customProperties.contains(QStringLiteral("--b")));
        QVERIFY(!s.customProperties.contains(QStringLiteral("--c")));
        QCOMPARE(s.width, Length::px(10)); // the guaranteed-invalid value takes the fallback
        QCOMPARE(s.height, Length::px(8));
        QVERIFY2(warnings.join(u'\n').contains(QLatin1String("cycle")), qPrintable(warnings.join(u'\n')));
    }

    void varExpansionBombIsCapped()
    {
        // Each level doubles the value: 2^40 characters if nothing stopped it.
        QJsonObject decl{{QStringLiteral("--v0"), QStringLiteral("xxxxxxxxxxxxxxxx")}};
        for (int i = 1; i <= 40; ++i)
            decl.insert(QStringLiteral("--v%1").arg(i), QStringLiteral("var(--v%1) var(--v%1)").arg(i - 1));
        decl.insert(QStringLiteral("width"), QStringLiteral("var(--v40, 33px)"));
        QStringList warnings;
        QElapsedTimer timer;
        timer.start();
        const ComputedStyle s = computeStyle(decl, nullptr, QStringLiteral("div"), 16, QStringLiteral("s"), &warnings);
        QVERIFY(timer.elapsed() < 2000);
        QCOMPARE(s.width, Length::px(33));
        for (const QString &v : s.customProperties)
            QVERIFY(v.size() <= 16384);
        QVERIFY2(warnings.join(u'\n').contains(QLatin1String("longer than")), qPrintable(warnings.join(u'\n')));
    }

    // --- effect properties -------------------------------------------------------------
};

QTEST_GUILESS_MAIN(TstStyleCascade)
#include "tst_style_cascade.moc"
