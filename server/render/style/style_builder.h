#pragma once
// Internal to the style module: the builder computeStyle() drives, one handler per CSS
// property (the rows of properties.cpp name them), split over cascade.cpp (box),
// paint_properties.cpp (backgrounds, borders' radii, shadows, transforms) and
// text_properties.cpp (colour, fonts, text). Not a render contract.

#include "server/common/text.h"
#include "server/render/css/parse.h"
#include "server/render/style/computed_style.h"
#include "server/render/style/font_units.h"
#include "server/render/style/keywords.h"
#include "server/render/style/properties.h"

#include <QJsonObject>
#include <QJsonValue>

#include <initializer_list>
#include <span>
#include <vector>

namespace imprint::render::style_detail {

using css::split;

/// The last failed keyword() lookup on this thread: the text and the names it was looked
/// up among (views of the tables' literals). StyleBuilder::apply() clears it before each
/// handler and asks keywordSuggestion() only when it warns: handlers try keywords before
/// other forms, so most misses warn nobody, and the nearest name costs an edit distance
/// to every name. Per thread: render workers compute styles at the same time.
struct KeywordMiss {
    QString text; ///< as given; empty: no miss since the last clear
    std::vector<QLatin1String> names;
};
KeywordMiss &lastKeywordMiss();

/// The name the last failed keyword() lookup came closest to (common::closestName() of
/// its trimmed, lower-cased text), for the warning's "did you mean"; empty when none.
QString keywordSuggestion();

/// The warning for a style key no row of the property table names: "unsupported
/// property", and the nearest supported name when one is near ("fontSzie" → fontSize).
QString unsupportedPropertyMessage(const QString &name);

/// The value of `text` (trimmed, any case) in `table`; nullopt when it names none, after
/// noting the nearest name in keywordSuggestion().
template<typename E>
std::optional<E> keyword(const QString &text, std::span<const Keyword<E>> table)
{
    const QStringView t = QStringView(text).trimmed();
    for (const auto &k : table)
        if (t.compare(QLatin1String(k.name), Qt::CaseInsensitive) == 0)
            return k.value;
    KeywordMiss &miss = lastKeywordMiss();
    miss.text = text; // shared, not copied
    miss.names.clear();
    for (const auto &k : table)
        miss.names.emplace_back(k.name); // string literals: they outlive the table
    return std::nullopt;
}

/// keyword() over a list written at the call.
template<typename E>
std::optional<E> keyword(const QString &text, std::initializer_list<Keyword<E>> table)
{
    return keyword(text, std::span<const Keyword<E>>(table.begin(), table.size()));
}

/// `border-box`, `padding-box` or `content-box` (CSS Backgrounds 3 §3.7–3.8); nullopt
/// for anything else.
std::optional<BackgroundBox> backgroundBox(const QString &text);

/// Sets `field` to `parsed` when it holds a value; whether it did (a keyword longhand).
template<typename T, typename U>
bool assignParsed(T &field, const std::optional<U> &parsed)
{
    if (parsed)
        field = *parsed;
    return parsed.has_value();
}

/// An -items or -self alignment value (CSS Box Alignment 3 §6) `t`, its overflow and
/// baseline-position prefixes already handled: the keyword of `Keywords::list` it names,
/// into `selfField` when `self`, else into `items`, where `auto` is invalid. Whether it was
/// valid.
template<typename Keywords, typename E>
bool itemsOrSelf(const QString &t, bool self, E &items, E &selfField)
{
    if (!self && t == QLatin1String("auto"))
        return false;
    return assignParsed(self ? selfField : items, keyword<E>(t, Keywords::list));
}

/// Expands a 1–4 value edge shorthand in CSS order (top, right, bottom, left).
template<typename T>
bool expandEdges(const std::vector<T> &v, Edges<T> *out)
{
    switch (v.size()) {
    case 1: *out = {v[0], v[0], v[0], v[0]}; return true;
    case 2: *out = {v[0], v[1], v[0], v[1]}; return true;
    case 3: *out = {v[0], v[1], v[2], v[1]}; return true;
    case 4: *out = {v[0], v[1], v[2], v[3]}; return true;
    default: return false;
    }
}

/// An edge property (CSS Box 4 §3–4 margin/padding, CSS Positioned Layout 3 §3.1
/// inset, CSS Backgrounds 3 §4 border-width/-style/-color): one edge (`edge` 0–3, in Edge
/// order) from the whole `value`, or for a shorthand (`edge` < 0) all four from 1–4
/// space-separated values in CSS order. `parse` turns one value into a T or nullopt.
/// Returns false, leaving `out` untouched, when a value is invalid or there are more
/// than four.
template<typename T, typename Parse>
bool edgeProperty(const QString &value, int edge, Parse parse, Edges<T> &out)
{
    if (edge >= 0) {
        const std::optional<T> one = parse(value);
        if (one)
            out[edge] = *one;
        return one.has_value();
    }
    std::vector<T> values;
    for (const QString &t : split(value, QLatin1Char(' '))) {
        std::optional<T> v = parse(t);
        if (!v)
            return false;
        values.push_back(std::move(*v));
    }
    return expandEdges(values, &out);
}

/// CssProperty::part of the gridRowStart/-End and gridColumnStart/-End rows.
enum GridLineField : qint8 { GridRowStart, GridColumnStart, GridRowEnd, GridColumnEnd };
/// The text of a declaration's JSON value: a number as CSS writes it, a string trimmed.
QString valueText(const QJsonValue &v);

/// The content height `textFit: shrink-to-box` fits element `e`'s text into (its px
/// height/maxHeight less px padding and border; -1 without either): text_properties.cpp.
float textFitBoxHeight(const ComputedStyle &e);

/// CssProperty::part of the width/height/min-/max- rows.
enum SizeField : qint8 { SizeWidth, SizeHeight, SizeMinWidth, SizeMinHeight, SizeMaxWidth, SizeMaxHeight };

/// What one side of border-image-slice, -width or -outset may be besides a number (CSS
/// Backgrounds 3 §6.2–6.4): a percentage (slice, width), a length (width, outset), auto
/// (width).
struct BorderImageGrammar {
    bool percent = false;
    bool length = false;
    bool autoKeyword = false;
};

/// The state of one computeStyle() call.
class StyleBuilder
{
public:
    StyleBuilder(ComputedStyle &style, const ComputedStyle *parent, float rootFontSize, const QString &fieldPath,
                 QStringList *warnings)
        : m_s(style)
        , m_parent(parent)
        , m_rootFontSize(rootFontSize)
        , m_fieldPath(fieldPath)
        , m_warnings(warnings)
    { }

    /// Applies `declarations` in ApplyOrder (properties.h), each through its table row.
    /// `first`..`last` limit it to the rows of those orders (custom properties are
    /// resolved only in the call that includes ApplyOrder::FontSize).
    void applyAll(const QJsonObject &declarations, ApplyOrder first = ApplyOrder::FontSize,
                  ApplyOrder last = ApplyOrder::LayerLonghand);
    void finish();

    /// The property table (properties.cpp); a member so the rows can name the handlers.
    static std::span<const CssProperty> table();
    /// Whether `row` accepts any value and changes nothing (isStillImageNoOp()).
    static bool ignores(const CssProperty &row) { return row.handler == &StyleBuilder::ignored; }

private:
    void warn(const QString &name, const QString &reason)
    {
        if (m_warnings)
            m_warnings->append(QStringLiteral("%1.%2: %3").arg(m_fieldPath, name, reason));
    }
    void invalid(const QString &name, const QString &value, const QString &what)
    {
        warn(name, QStringLiteral("invalid %1 \"%2\"").arg(what, value));
    }
    float parentFontSize() const { return m_parent ? m_parent->fontSize : 16.f; }
    /// 1ch and 1ex of this element's computed font (font_units.h), measured on first use:
    /// after ApplyOrder::FontSize, when the font longhands are all applied.
    FontUnitSizes ownFontUnits()
    {
        if (!m_fontUnits)
            m_fontUnits = fontUnitSizes(m_s);
        return *m_fontUnits;
    }
    std::optional<Length> length(const QString &v) const
    {
        return css::lengthPercentage(v, m_s.fontSize, m_rootFontSize);
    }
    std::optional<QColor> color(const QString &v) const { return parseColor(v, m_s.color); }

    void apply(const CssProperty *property, const QString &name, const QJsonValue &value);
    /// `value` as text with its var() references substituted (CSS Variables 1 §3);
    /// nullopt when a substitution failed (the caller drops the declaration).
    std::optional<QString> withVarsSubstituted(const QString &name, const QJsonValue &value);
    /// An SVG paint property (isSvgPaintProperty()) into ComputedStyle::svgPaint: not a
    /// property of the element's box, kept for an inline svg's content (paint_properties.cpp).
    void svgPaint(const QString &name, const QJsonValue &value);

    // Custom properties and var() (custom_properties.cpp).
    void resolveCustomProperties(const QJsonObject &declarations);
    std::optional<QString> substituteVars(const QString &name, const QString &value);

    /// The type of every handler: parses `v`, the value of the table row `p`'s property, into
    /// the ComputedStyle; false when the value is invalid (the caller warns with the name).
    using HandlerFunction = bool(const CssProperty &p, const QString &v);

    /// The handler of a property whose value is one keyword of `Keywords::list` (keywords.h),
    /// stored as it is in the ComputedStyle member `Field`.
    template<auto Field, typename Keywords>
    bool keywordField(const CssProperty &, const QString &v)
    {
        using E = std::remove_cvref_t<decltype(Keywords::list[0].value)>;
        return assignParsed(m_s.*Field, keyword<E>(v, Keywords::list));
    }

    // Box (cascade.cpp).
    HandlerFunction display, positionProp, zIndexProp, orderProp, boxSizing, inset, size, margin, padding, border, borderWidth,
        borderStyle, borderColor;
    /// A flow-relative margin, padding, inset or border property (CSS Logical Properties 1
    /// §4–5): `p.part` is group * 8 + side, group 0 margin, 1 padding, 2 inset, 3 border
    /// width, 4 border style, 5 border colour, 6 the border shorthand; side 0 inline-start,
    /// 1 inline-end, 2 block-start, 3 block-end, 4 both inline edges, 5 both block edges.
    /// In horizontal writing the inline start is the left edge (the right one in rtl).
    HandlerFunction logicalEdge;
    HandlerFunction flexFlow, flex, flexFactor, flexBasis, alignItems, gap, overflow, aspectRatio;
    // CSS Grid 1 (grid_properties.cpp).
    HandlerFunction gridTemplateTracks, gridTemplateAreas, gridAutoTracks, gridAutoFlow, gridLine, gridLineShorthand,
        gridArea, justifyItems, placeItems, placeContent;
    // Paint (paint_properties.cpp).
    HandlerFunction backgroundColor, background, backgroundImage, backgroundSize, backgroundPosition, backgroundRepeat,
        backgroundOrigin,
        borderRadius, cornerRadius, boxShadow, opacity, transform, transformOrigin, perspective, perspectiveOrigin;
    /// border-start-start-radius and the other flow-relative corners (part: block end × 2
    /// + inline end), mapped to the physical corner by `direction`.
    HandlerFunction logicalCorner;
    /// outline and its longhands (CSS UI 4 §5.1–5.4; part 0 width, 1 style, 2 colour,
    /// 3 offset, -1 the shorthand, which resets what it leaves out).
    HandlerFunction outline;
    /// border-image and its longhands (CSS Backgrounds 3 §6; part 0 source, 1 slice, 2
    /// width, 3 outset, 4 repeat, -1 the shorthand, which resets what it leaves out):
    /// border_image_properties.cpp.
    HandlerFunction borderImage;
    /// One side of a slice, width or outset (non-negative), or nullopt.
    std::optional<BorderImageLength> borderImageSide(const QString &t, const BorderImageGrammar &g) const;
    /// 1–4 sides in CSS order into `out`; false (out untouched) when one is invalid.
    bool borderImageSides(const QStringList &tokens, const BorderImageGrammar &g, Edges<BorderImageLength> &out) const;
    /// border-image-source (§6.1): `none` or an image (as a background layer's) into
    /// `out`; false with the reason noted when it is neither.
    bool borderImageSource(const QString &t, BackgroundLayer &out);
    /// border-image-slice (§6.2): 1–4 numbers or percentages, `fill` first or last.
    bool borderImageSlice(const QStringList &tokens, BorderImage &out) const;
    /// translate, rotate, scale (CSS Transforms 2 §4, property index 0/1/2): kept apart
    /// from `transform` and put before its functions in finish() (§6 "ordering").
    HandlerFunction individualTransform;
    HandlerFunction objectPosition;
    // Text (text_properties.cpp).
    HandlerFunction textOverflow, lineClamp, textFit, colorProp, fontFamily, fontSize, fontWeight, fontStyle,
        fontVariantNumeric, fontFeatureSettings, fontVariantCaps, fontKerning, fontStretch, fontVariationSettings,
        fontVariantLigatures, fontVariantPosition;
    /// `font-variant` (CSS Fonts 4 §6.11) over the caps and numeric longhands: `normal`, or
    /// their keywords in any order; the ligature, east-asian and position keywords warn.
    HandlerFunction fontVariant;
    HandlerFunction lineHeight, spacing, tabSize, whiteSpace, textWrap, direction, textShadow, textDecoration, textDecorationLine,
        textDecorationColor, textDecorationStyle, textDecorationThickness, textIndent, verticalAlign;
    /// text-underline-offset (CSS Text Decoration 4 §3.5): `auto` | <length> | <percentage>
    /// of 1em, negative allowed; kept as a percentage until the decorating box resolves it.
    HandlerFunction textUnderlineOffset;
    HandlerFunction textStroke; ///< part 0 shorthand, 1 width, 2 colour
    std::optional<float> decorationThicknessValue(const QString &v) const;
    bool ignored(const CssProperty &, const QString &) { return true; }
    // Effects (effect_properties.cpp).
    HandlerFunction filter, clipPath, mixBlendMode, backgroundClip, maskComposite, backgroundBlendMode;
    /// will-change (CSS Will Change 1 §2): `auto`, or a comma list of property names and
    /// `scroll-position` / `contents`; sets the stacking-context and containing-block hints.
    HandlerFunction willChange;

    bool parseBorderParts(const QString &v, std::optional<float> *width, std::optional<BorderStyle> *style,
                          std::optional<QColor> *colorOut);
    std::optional<float> borderWidthValue(const QString &v) const;
    /// A margin or inset value: a length, percentage or auto (not none).
    std::optional<Length> offsetValue(const QString &v) const
    {
        auto l = parseLength(v, m_s.fontSize, m_rootFontSize);
        return l && !l->isNone() ? l : std::nullopt;
    }
    /// A gradient function in this style's colour and font size; the reason when invalid.
    css::Parsed<Gradient> gradientValue(const QString &v) const
    {
        return css::gradient(v, m_s.color, m_s.fontSize, m_rootFontSize);
    }
    /// One background image token (url() or a gradient) into `layer`; the reason when it is
    /// an unsupported or invalid image (empty when `token` is no function at all).
    css::Parsed<common::Done> imageLayer(const QString &token, BackgroundLayer *layer) const;
    /// The layer list a background-layer handler acts on: the mask's (CSS Masking 1 §7)
    /// for `p.part` 1, else the background's.
    std::vector<BackgroundLayer> &layersOf(const CssProperty &p)
    {
        return p.part == 1 ? m_s.effects.maskImage : m_s.backgroundLayers;
    }
    /// Whether `parsed` failed; its reason then becomes the handler's warning detail.
    template<typename T>
    bool failed(const css::Parsed<T> &parsed)
    {
        if (parsed)
            return false;
        m_lastReason = parsed.error();
        return true;
    }
    /// Moves the value of `parsed` into `field`; false, its reason becoming the warning
    /// detail (failed()), when it holds none.
    template<typename T, typename U>
    bool storeParsed(T &field, css::Parsed<U> &&parsed)
    {
        if (failed(parsed))
            return false;
        field = std::move(*parsed);
        return true;
    }
    /// One background-size entry (CSS Backgrounds 3 §3.9) in the size fields of a layer.
    std::optional<BackgroundLayer> sizeEntry(const QString &entry) const;

    ComputedStyle &m_s;
    const ComputedStyle *m_parent;
    float m_rootFontSize;
    QString m_fieldPath;
    QStringList *m_warnings;
    std::array<bool, 4> m_borderColorSet{false, false, false, false};
    std::array<bool, 4> m_borderWidthSet{false, false, false, false}; // else `medium` once styled
    TextDecoration m_ownDecoration; // this element's own text-decoration, added to the propagated one
    bool m_ownDecorationColorSet = false;
    QString m_lastReason; // detail for the warning of the handler that just failed
    std::array<std::vector<TransformOp>, 3> m_individualTransforms; // translate, rotate, scale
    std::optional<FontUnitSizes> m_fontUnits; // this element's 1ch and 1ex, measured once when first needed
};

} // namespace imprint::render::style_detail
