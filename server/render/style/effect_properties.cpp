// Effect properties of computeStyle(): filter and backdrop-filter (CSS Filter Effects 1
// §4, Filter Effects 2 §3), clip-path (CSS Masking 1 §3), mix-blend-mode (CSS Compositing 1 §5.3) and background-clip (CSS Backgrounds 4
// §4.2, `text`).

#include "server/render/style/style_builder.h"

#include "server/render/css/parse.h"

#include <QRegularExpression>
#include <QSet>

namespace imprint::render::style_detail {

bool StyleBuilder::filter(const CssProperty &p, const QString &v)
{
    auto list = css::filterList(v, m_s.color, m_s.fontSize, m_rootFontSize);
    if (failed(list))
        return false;
    if (p.part == 1) {
        // Filter Effects 2 §3: the backdrop takes the same functions; Imprint draws those
        // cards use (blur, brightness, saturate, ...) and drop-shadow makes no sense there.
        for (const FilterOp &op : *list)
            if (op.kind == FilterOp::Kind::DropShadow) {
                m_lastReason = QStringLiteral("drop-shadow() is not supported in backdropFilter");
                return false;
            }
        m_s.effects.backdropFilter = std::move(*list);
    } else {
        m_s.effects.filter = std::move(*list);
    }
    return true;
}

bool StyleBuilder::clipPath(const CssProperty &, const QString &v)
{
    return storeParsed(m_s.effects.clipPath, css::clipPath(v, m_s.fontSize, m_rootFontSize));
}

namespace {

/// Each comma-separated entry of `v` (one per layer) through `parse`; nullopt when one
/// fails or there are none.
template<typename Parse>
auto commaSeparated(const QString &v, Parse parse)
    -> std::optional<std::vector<typename std::invoke_result_t<Parse, const QString &>::value_type>>
{
    std::vector<typename std::invoke_result_t<Parse, const QString &>::value_type> out;
    for (const QString &entry : split(v, QLatin1Char(','))) {
        auto value = parse(entry.trimmed());
        if (!value)
            return std::nullopt;
        out.push_back(*value);
    }
    if (out.empty())
        return std::nullopt;
    return out;
}

/// Whether `mode` is one of the non-separable blend modes (CSS Compositing 1 §5.3.8),
/// which mix hue and luminosity and have no QPainter composition mode: drawn as normal.
bool isNonSeparable(BlendMode mode)
{
    return mode == BlendMode::Hue || mode == BlendMode::Saturation || mode == BlendMode::Color
           || mode == BlendMode::Luminosity;
}

} // namespace

bool StyleBuilder::mixBlendMode(const CssProperty &p, const QString &v)
{
    auto mode = css::blendMode(v);
    if (!mode)
        return false;
    if (isNonSeparable(*mode)) {
        warn(QString(p.name), QStringLiteral("\"%1\" is not supported, drawn as normal").arg(v));
        mode = BlendMode::Normal;
    }
    m_s.effects.mixBlendMode = *mode;
    return true;
}

bool StyleBuilder::willChange(const CssProperty &, const QString &v)
{
    // §3: the properties whose non-initial values make a stacking context, and those that
    // also make a containing block for absolutely (and fixed) placed descendants.
    static const QSet<QString> stacking = {
        QStringLiteral("opacity"),         QStringLiteral("transform"),      QStringLiteral("translate"),
        QStringLiteral("rotate"),          QStringLiteral("scale"),          QStringLiteral("perspective"),
        QStringLiteral("transform-style"), QStringLiteral("filter"),         QStringLiteral("backdrop-filter"),
        QStringLiteral("clip-path"),       QStringLiteral("mask"),           QStringLiteral("mask-image"),
        QStringLiteral("mix-blend-mode"),  QStringLiteral("isolation"),      QStringLiteral("-webkit-mask"),
        QStringLiteral("-webkit-mask-image")};
    static const QSet<QString> containing = {
        QStringLiteral("transform"),       QStringLiteral("translate"), QStringLiteral("rotate"),
        QStringLiteral("scale"),           QStringLiteral("perspective"), QStringLiteral("transform-style"),
        QStringLiteral("filter"),          QStringLiteral("backdrop-filter")};
    bool stackingContext = false, containingBlock = false;
    if (v.trimmed().compare(QLatin1String("auto"), Qt::CaseInsensitive) != 0) {
        static const QRegularExpression ident(QStringLiteral("^-?[A-Za-z_][A-Za-z0-9_-]*$"));
        for (const QString &entry : css::split(v, u',')) {
            const QString name = entry.trimmed().toLower();
            // `auto` and the CSS-wide keywords are not <custom-ident>s here (§2).
            if (!ident.match(name).hasMatch() || name == QLatin1String("auto") || name == QLatin1String("will-change")
                || name == QLatin1String("inherit") || name == QLatin1String("initial") || name == QLatin1String("unset"))
                return false;
            stackingContext = stackingContext || stacking.contains(name);
            containingBlock = containingBlock || containing.contains(name);
        }
    }
    m_s.willChangeStackingContext = stackingContext;
    m_s.willChangeContainingBlock = containingBlock;
    return true;
}

bool StyleBuilder::backgroundBlendMode(const CssProperty &p, const QString &v)
{
    // CSS Compositing 1 §6: one mode per layer, the non-separable ones as mix-blend-mode.
    auto modes = commaSeparated(v, [&](const QString &entry) {
        auto mode = css::blendMode(entry);
        if (mode && isNonSeparable(*mode)) {
            warn(QString(p.name), QStringLiteral("\"%1\" is not supported, drawn as normal").arg(entry));
            mode = BlendMode::Normal;
        }
        return mode;
    });
    if (!modes)
        return false;
    m_s.effects.backgroundBlendMode = std::move(*modes);
    return true;
}

bool StyleBuilder::maskComposite(const CssProperty &, const QString &v)
{
    // CSS Masking 1 §7.6, and the -webkit- names Chromium still reads (source-over,
    // source-out, source-in, xor).
    auto ops = commaSeparated(v, [](const QString &entry) {
        return keyword<MaskComposite>(entry.toLower(),
                                      {{"add", MaskComposite::Add},
                                       {"subtract", MaskComposite::Subtract},
                                       {"intersect", MaskComposite::Intersect},
                                       {"exclude", MaskComposite::Exclude},
                                       {"source-over", MaskComposite::Add},
                                       {"source-out", MaskComposite::Subtract},
                                       {"source-in", MaskComposite::Intersect},
                                       {"xor", MaskComposite::Exclude}});
    });
    if (!ops)
        return false;
    m_s.effects.maskComposite = std::move(*ops);
    return true;
}

bool StyleBuilder::backgroundClip(const CssProperty &, const QString &v)
{
    // One box per layer, repeated as needed (CSS Backgrounds 3 §3.8); the colour takes
    // the bottom layer's. `text` clips every layer to the glyphs (CSS Backgrounds 4 §4.2).
    bool text = false;
    std::vector<BackgroundBox> boxes;
    for (const QString &entry : split(v, QLatin1Char(','))) {
        if (entry.trimmed().compare(QLatin1String("text"), Qt::CaseInsensitive) == 0) {
            text = true;
            boxes.push_back(BackgroundBox::BorderBox);
        } else if (const auto box = backgroundBox(entry)) {
            boxes.push_back(*box);
        } else {
            return false;
        }
    }
    if (boxes.empty())
        return false;
    std::vector<BackgroundLayer> &layers = m_s.backgroundLayers;
    for (size_t i = 0; i < layers.size(); ++i)
        layers[i].clip = boxes[i % boxes.size()];
    m_s.backgroundColorClip = boxes[(std::max<size_t>(layers.size(), 1) - 1) % boxes.size()];
    m_s.effects.backgroundClipText = text;
    return true;
}

} // namespace imprint::render::style_detail
