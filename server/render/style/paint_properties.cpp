// Paint properties of computeStyle(): backgrounds (CSS Backgrounds 3 §3), corner radii
// (§5), box-shadow (§7), opacity, transforms (CSS Transforms 1) and object-fit/-position.

#include "server/render/style/style_builder.h"

#include <cmath>
#include <tuple>
#include <type_traits>
#include <utility>

namespace imprint::render::style_detail {

bool StyleBuilder::backgroundColor(const CssProperty &, const QString &v)
{
    auto c = color(v);
    if (c)
        m_s.backgroundColor = *c;
    return c.has_value();
}

css::Parsed<common::Done> StyleBuilder::imageLayer(const QString &token, BackgroundLayer *layer) const
{
    const auto call = css::function(token);
    if (!call)
        return QString();
    const QString &name = call->name, &args = call->args;
    if (name == QLatin1String("url")) {
        QString url = args;
        if (url.size() >= 2 && (url.startsWith(QLatin1Char('"')) || url.startsWith(QLatin1Char('\'')))
            && url.endsWith(url.front()))
            url = url.mid(1, url.size() - 2);
        layer->imageUrl = url.trimmed();
        return common::Done{};
    }
    if (name.endsWith(QLatin1String("gradient"))) {
        auto gradient = gradientValue(token);
        if (!gradient) {
            layer->gradient.reset();
            return gradient.error();
        }
        layer->gradient = std::move(*gradient);
        return common::Done{};
    }
    return QStringLiteral("unsupported image %1()").arg(name);
}

/// CSS Backgrounds 3 §3.4 <repeat-style>: whether the image repeats along x and along y.
/// space and round are drawn as repeat.
static std::optional<std::pair<bool, bool>> repeatValue(const QString &v)
{
    const QStringList tokens = split(v, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > 2)
        return std::nullopt;
    if (tokens.size() == 1) {
        if (tokens[0].compare(QLatin1String("repeat-x"), Qt::CaseInsensitive) == 0)
            return std::pair{true, false};
        if (tokens[0].compare(QLatin1String("repeat-y"), Qt::CaseInsensitive) == 0)
            return std::pair{false, true};
    }
    bool axes[2] = {false, false};
    for (qsizetype i = 0; i < 2; ++i) {
        // One keyword stands for both axes.
        auto r = keyword<bool>(tokens[std::min<qsizetype>(i, tokens.size() - 1)],
                               {{"repeat", true}, {"no-repeat", false}, {"space", true}, {"round", true}});
        if (!r)
            return std::nullopt;
        axes[i] = *r;
    }
    return std::pair{axes[0], axes[1]};
}

std::optional<BackgroundBox> backgroundBox(const QString &text)
{
    return keyword<BackgroundBox>(text.trimmed().toLower(), {{"border-box", BackgroundBox::BorderBox},
                                                                {"padding-box", BackgroundBox::PaddingBox},
                                                                {"content-box", BackgroundBox::ContentBox}});
}

bool StyleBuilder::background(const CssProperty &p, const QString &v)
{
    // CSS Backgrounds 3 §3.10: layers separated by commas, the colour only in the last.
    // The mask shorthand (CSS Masking 1 §7.9, part 1) has the same layers and no colour.
    const bool mask = p.part == 1;
    if (v.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0) {
        layersOf(p).clear();
        if (!mask)
            m_s.backgroundColor = Qt::transparent;
        return true;
    }
    const QStringList layers = split(v, QLatin1Char(','));
    if (layers.isEmpty())
        return false;
    std::vector<BackgroundLayer> out;
    QColor bg = Qt::transparent;
    bool clipText = false;
    BackgroundBox colorClip = BackgroundBox::BorderBox;
    for (qsizetype i = 0; i < layers.size(); ++i) {
        BackgroundLayer layer;
        bool hasImage = false, hasColor = false, hasRepeat = false;
        QStringList positionTokens;
        std::vector<BackgroundBox> boxes; // CSS Backgrounds 3 §3.10: origin, then clip
        // Make a top-level "/" its own token so "center/cover" and "center / cover" agree.
        QString text;
        int depth = 0;
        for (QChar c : layers[i]) {
            depth += c == QLatin1Char('(') ? 1 : c == QLatin1Char(')') ? -1 : 0;
            if (c == QLatin1Char('/') && depth == 0)
                text += QStringLiteral(" / ");
            else
                text += c;
        }
        const QStringList tokens = split(text, QLatin1Char(' '));
        for (qsizetype k = 0; k < tokens.size(); ++k) {
            const QString &t = tokens[k];
            QString reason;
            if (t == QLatin1String("/")) {
                // background-size follows the position: one or two values.
                QStringList sizeTokens;
                while (k + 1 < tokens.size() && sizeTokens.size() < 2) {
                    const QString &s = tokens[k + 1];
                    const QString sl = s.toLower();
                    if (sl == QLatin1String("cover") || sl == QLatin1String("contain") || sl == QLatin1String("auto")
                        || length(s)) {
                        sizeTokens << s;
                        ++k;
                        if (sl == QLatin1String("cover") || sl == QLatin1String("contain"))
                            break;
                    } else {
                        break;
                    }
                }
                if (sizeTokens.isEmpty() || positionTokens.isEmpty())
                    return false;
                auto size = sizeEntry(sizeTokens.join(QLatin1Char(' ')));
                if (!size)
                    return false;
                layer.size = size->size;
                layer.sizeX = size->sizeX;
                layer.sizeY = size->sizeY;
                continue;
            }
            if (!hasImage && t.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0) {
                hasImage = true;
                continue;
            }
            if (!hasImage && t.contains(QLatin1Char('('))) {
                const auto image = imageLayer(t, &layer);
                if (image) {
                    hasImage = true;
                    continue;
                }
                if (!image.error().isEmpty())
                    reason = image.error();
                if (!reason.isEmpty() && !parseColor(t, m_s.color)) {
                    m_lastReason = reason;
                    return false;
                }
            }
            if (!hasRepeat)
                if (auto r = repeatValue(t)) {
                    std::tie(layer.repeatX, layer.repeatY) = *r;
                    hasRepeat = true;
                    continue;
                }
            if (!hasColor && !mask && i == layers.size() - 1)
                if (auto c = color(t)) {
                    bg = *c;
                    hasColor = true;
                    continue;
                }
            const QString tl = t.toLower();
            if (tl == QLatin1String("left") || tl == QLatin1String("right") || tl == QLatin1String("top")
                || tl == QLatin1String("bottom") || tl == QLatin1String("center") || length(t)) {
                positionTokens << t;
                continue;
            }
            // `text` is background-clip: text (CSS Backgrounds 4 §4.2).
            if (tl == QLatin1String("text")) {
                clipText = true;
                continue;
            }
            if (const auto box = backgroundBox(tl); box && boxes.size() < 2) {
                boxes.push_back(*box);
                continue;
            }
            return false;
        }
        // One box sets both origin and clip; two set origin, then clip.
        if (!boxes.empty()) {
            layer.origin = boxes.front();
            layer.clip = boxes.back();
        }
        if (i == layers.size() - 1)
            colorClip = layer.clip;
        if (!positionTokens.isEmpty()
            && !css::position(positionTokens, m_s.fontSize, m_rootFontSize, &layer.positionX, &layer.positionY))
            return false;
        if (hasImage && (layer.gradient || !layer.imageUrl.isEmpty()))
            out.push_back(layer);
    }
    layersOf(p) = std::move(out);
    if (mask)
        return true;
    m_s.backgroundColor = bg;
    m_s.backgroundColorClip = colorClip;
    m_s.effects.backgroundClipText = clipText;
    return true;
}

bool StyleBuilder::backgroundImage(const CssProperty &p, const QString &v)
{
    std::vector<BackgroundLayer> &layers = layersOf(p);
    if (v.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0) {
        layers.clear();
        return true;
    }
    const QStringList images = split(v, QLatin1Char(','));
    if (images.isEmpty())
        return false;
    std::vector<BackgroundLayer> out;
    for (qsizetype i = 0; i < images.size(); ++i) {
        // Keep the size/position/repeat a shorthand gave this layer.
        BackgroundLayer layer = size_t(i) < layers.size() ? layers[i] : BackgroundLayer{};
        layer.gradient.reset();
        layer.imageUrl.clear();
        if (images[i].compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
            continue;
        const auto image = imageLayer(images[i], &layer);
        if (!image) {
            const QString &reason = image.error();
            m_lastReason = reason.isEmpty() ? QStringLiteral("invalid image \"%1\"").arg(images[i]) : reason;
            return false;
        }
        out.push_back(layer);
    }
    layers = std::move(out);
    return true;
}

std::optional<BackgroundLayer> StyleBuilder::sizeEntry(const QString &e) const
{
    BackgroundLayer l;
    const QStringList tokens = split(e, QLatin1Char(' '));
    const QString first = tokens.value(0).toLower();
    if (tokens.size() == 1 && (first == QLatin1String("cover") || first == QLatin1String("contain"))) {
        l.size = first == QLatin1String("cover") ? BackgroundLayer::Size::Cover : BackgroundLayer::Size::Contain;
        return l;
    }
    if (tokens.size() != 1 && tokens.size() != 2)
        return std::nullopt;
    std::array<Length, 2> xy{Length::autoLength(), Length::autoLength()};
    for (qsizetype k = 0; k < tokens.size(); ++k) {
        auto len = parseLength(tokens[k], m_s.fontSize, m_rootFontSize);
        if (!len || len->isNone() || (!len->isAuto() && len->value < 0))
            return std::nullopt;
        xy[k] = *len;
    }
    l.size = xy[0].isAuto() && xy[1].isAuto() ? BackgroundLayer::Size::Auto : BackgroundLayer::Size::Explicit;
    l.sizeX = xy[0];
    l.sizeY = xy[1];
    return l;
}

/// A background-layer longhand (CSS Backgrounds 3 §2.2): the comma-separated entries of `v`
/// each through `parse` (nullopt when invalid), then entry i % count given to layer i by
/// `apply`, so a list shorter than the image list repeats. False, changing nothing, when
/// the list is empty or an entry invalid.
template<typename Parse, typename Apply>
static bool layerLonghand(std::vector<BackgroundLayer> &layers, const QString &v, Parse parse, Apply apply)
{
    const QStringList entries = split(v, QLatin1Char(','));
    if (entries.isEmpty())
        return false;
    std::vector<typename std::invoke_result_t<Parse, const QString &>::value_type> values;
    for (const QString &e : entries) {
        auto value = parse(e);
        if (!value)
            return false;
        values.push_back(std::move(*value));
    }
    for (size_t i = 0; i < layers.size(); ++i)
        apply(layers[i], values[i % values.size()]);
    return true;
}

bool StyleBuilder::backgroundSize(const CssProperty &p, const QString &v)
{
    return layerLonghand(
        layersOf(p), v, [this](const QString &e) { return sizeEntry(e); },
        [](BackgroundLayer &layer, const BackgroundLayer &src) {
            layer.size = src.size;
            layer.sizeX = src.sizeX;
            layer.sizeY = src.sizeY;
        });
}

bool StyleBuilder::backgroundPosition(const CssProperty &p, const QString &v)
{
    const auto parse = [this](const QString &e) -> std::optional<std::pair<Length, Length>> {
        Length x, y;
        if (!css::position(split(e, QLatin1Char(' ')), m_s.fontSize, m_rootFontSize, &x, &y))
            return std::nullopt;
        return std::pair{x, y};
    };
    return layerLonghand(layersOf(p), v, parse, [](BackgroundLayer &layer, const std::pair<Length, Length> &xy) {
        layer.positionX = xy.first;
        layer.positionY = xy.second;
    });
}

bool StyleBuilder::backgroundOrigin(const CssProperty &p, const QString &v)
{
    return layerLonghand(layersOf(p), v, backgroundBox,
                         [](BackgroundLayer &layer, BackgroundBox box) { layer.origin = box; });
}

bool StyleBuilder::backgroundRepeat(const CssProperty &p, const QString &v)
{
    return layerLonghand(layersOf(p), v, repeatValue, [](BackgroundLayer &layer, const std::pair<bool, bool> &r) {
        std::tie(layer.repeatX, layer.repeatY) = r;
    });
}

bool StyleBuilder::borderRadius(const CssProperty &, const QString &v)
{
    // CSS Backgrounds 3 §5.1: 1–4 horizontal radii [ / 1–4 vertical radii ], corners in
    // the order top-left, top-right, bottom-right, bottom-left.
    const auto radii = css::cornerRadii(v, m_s.fontSize, m_rootFontSize);
    if (!radii)
        return false;
    m_s.borderRadius = *radii;
    return true;
}

bool StyleBuilder::logicalCorner(const CssProperty &p, const QString &v)
{
    // CSS Logical Properties 1 §4.6, border-{block}-{inline}-radius in horizontal writing:
    // the block start is the top edge, the inline start the left one (the right in rtl).
    const bool blockEnd = p.part / 2 == 1;
    const bool right = (p.part % 2 == 1) != (m_s.direction == Direction::Rtl);
    CssProperty corner = p;
    corner.part = qint8(blockEnd ? (right ? 2 : 3) : (right ? 1 : 0));
    return cornerRadius(corner, v);
}

bool StyleBuilder::cornerRadius(const CssProperty &p, const QString &v)
{
    const int corner = p.part;
    const QStringList tokens = split(v, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > 2)
        return false;
    auto x = length(tokens[0]);
    auto y = tokens.size() > 1 ? length(tokens[1]) : x;
    if (!x || !y || x->value < 0 || y->value < 0)
        return false;
    m_s.borderRadius[corner] = {*x, *y};
    return true;
}

bool StyleBuilder::boxShadow(const CssProperty &, const QString &v)
{
    return storeParsed(m_s.boxShadow, css::shadows(v, true, m_s.color, m_s.fontSize, m_rootFontSize));
}

bool StyleBuilder::opacity(const CssProperty &, const QString &v)
{
    auto o = css::percentage(v);
    if (o)
        *o /= 100.f;
    else
        o = css::number(v);
    if (!o)
        return false;
    m_s.opacity = std::clamp(*o, 0.f, 1.f);
    return true;
}

bool StyleBuilder::transform(const CssProperty &, const QString &v)
{
    return storeParsed(m_s.transform, css::transform(v, m_s.fontSize, m_rootFontSize));
}

bool StyleBuilder::individualTransform(const CssProperty &p, const QString &v)
{
    std::vector<TransformOp> &ops = m_individualTransforms[size_t(p.part)];
    const QString value = v.trimmed();
    if (value.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0) {
        ops.clear();
        return true;
    }
    QStringList args = split(value, QLatin1Char(' '));
    QString function;
    if (p.part == 0 && (args.size() == 1 || args.size() == 2 || args.size() == 3)) {
        // translate: <length-percentage> [<length-percentage> <length>?]? (§4.1).
        function = args.size() == 3 ? QStringLiteral("translate3d(%1)").arg(args.join(QLatin1Char(',')))
                                    : QStringLiteral("translate(%1)").arg(args.join(QLatin1Char(',')));
    } else if (p.part == 1 && args.size() >= 1 && args.size() <= 4) {
        // rotate: <angle> | [x | y | z | <number>{3}] && <angle> (§4.2): the axis before
        // or after the angle.
        // A bare 0 is an angle too: the last token is the angle unless only the first has a unit.
        const bool angleLast = args.size() == 1 || (css::angle(args.last()) && !css::number(args.last()))
                               || !css::angle(args.first());
        const QString angle = angleLast ? args.takeLast() : args.takeFirst();
        const QString axis = args.join(QLatin1Char(',')).toLower();
        if (axis.isEmpty() || axis == QLatin1String("z"))
            function = QStringLiteral("rotate(%1)").arg(angle);
        else if (axis == QLatin1String("x") || axis == QLatin1String("y"))
            function = QStringLiteral("rotate%1(%2)").arg(axis, angle);
        else
            function = QStringLiteral("rotate3d(%1,%2)").arg(axis, angle);
    } else if (p.part == 2 && (args.size() == 1 || args.size() == 2 || args.size() == 3)) {
        // scale: [<number> | <percentage>]{1,3} (§4.3): one value scales both axes.
        for (QString &a : args)
            if (const auto percent = css::percentage(a))
                a = QString::number(*percent / 100.0);
        function = args.size() == 3 ? QStringLiteral("scale3d(%1)").arg(args.join(QLatin1Char(',')))
                                    : QStringLiteral("scale(%1)").arg(args.join(QLatin1Char(',')));
    } else {
        m_lastReason = QStringLiteral("expected %1")
                           .arg(p.part == 0   ? QStringLiteral("one to three lengths")
                                : p.part == 1 ? QStringLiteral("an angle and an optional axis")
                                              : QStringLiteral("one to three numbers"));
        return false;
    }
    return storeParsed(ops, css::transform(function, m_s.fontSize, m_rootFontSize));
}

bool StyleBuilder::transformOrigin(const CssProperty &, const QString &v)
{
    // CSS Transforms 1 §7.1: a position, then an optional z offset (a length).
    QStringList tokens = split(v, QLatin1Char(' '));
    float z = 0;
    if (tokens.size() == 3) {
        const auto l = css::lengthPx(tokens.takeLast(), m_s.fontSize, m_rootFontSize);
        if (!l)
            return false;
        z = *l;
    }
    if (!css::position(tokens, m_s.fontSize, m_rootFontSize, &m_s.transformOriginX, &m_s.transformOriginY))
        return false;
    m_s.transformOriginZ = z;
    return true;
}

bool StyleBuilder::perspective(const CssProperty &, const QString &v)
{
    return assignParsed(m_s.perspective, css::perspectiveDistance(v, m_s.fontSize, m_rootFontSize));
}

bool StyleBuilder::perspectiveOrigin(const CssProperty &, const QString &v)
{
    return css::position(split(v, QLatin1Char(' ')), m_s.fontSize, m_rootFontSize, &m_s.perspectiveOriginX,
                         &m_s.perspectiveOriginY);
}

bool StyleBuilder::objectPosition(const CssProperty &, const QString &v)
{
    return css::position(split(v, QLatin1Char(' ')), m_s.fontSize, m_rootFontSize, &m_s.objectPositionX,
                         &m_s.objectPositionY);
}

void StyleBuilder::svgPaint(const QString &name, const QJsonValue &value)
{
    const std::optional<QString> substituted = withVarsSubstituted(name, value);
    if (!substituted)
        return;
    const QString &text = *substituted;
    const QString lower = text.toLower();
    // CSS-wide keywords (CSS Cascade 4 §7.3) on an inherited property: inherit and unset
    // keep the parent's value, initial and revert its initial one (none written).
    if (lower == QLatin1String("inherit") || lower == QLatin1String("unset"))
        return;
    if (lower == QLatin1String("initial") || lower == QLatin1String("revert") || text.isEmpty()) {
        m_s.svgPaint.remove(name);
        return;
    }
    // A colour as librsvg reads it (CSS Color 3): Tailwind v4's oklch() and color-mix()
    // resolved here; currentColor stays a keyword, which the svg resolves with its own
    // colour (CSS Color 4 §6.4: it inherits as the keyword).
    if ((name == QLatin1String("fill") || name == QLatin1String("stroke")) && !lower.contains(QLatin1String("currentcolor"))
        && !lower.startsWith(QLatin1String("url(")) && lower != QLatin1String("none"))
        if (const std::optional<QColor> c = color(text)) {
            // #rrggbb when opaque: QtSvg, which reads the satori engine's SVG output, has no rgba().
            m_s.svgPaint.insert(name, cssColorText(*c));
            return;
        }
    m_s.svgPaint.insert(name, value.isDouble() ? value : QJsonValue(text));
}

} // namespace imprint::render::style_detail
