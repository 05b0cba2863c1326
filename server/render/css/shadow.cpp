// Shadow lists (CSS Backgrounds 3 §7.1 box-shadow; CSS Text Decoration 3 §4
// text-shadow).

#include "server/render/css/parse.h"
#include "server/render/css/list_items.h"

namespace imprint::render::css {

namespace {

bool isLengthToken(const QString &t)
{
    return lengthPercentage(t, 16, 16).has_value();
}

} // namespace

static std::optional<std::vector<Shadow>> shadowsWithReason(const QString &text, bool allowInsetSpread,
                                                            const QColor &currentColor, float fontSize,
                                                            float rootFontSize, QString *reason)
{
    const std::optional<QStringList> entries = listItems(text, QLatin1Char(','), "shadow", reason);
    if (!entries)
        return std::nullopt;
    std::vector<Shadow> out;
    for (const QString &entry : *entries) {
        Shadow s;
        s.color = currentColor;
        bool colorSeen = false;
        std::vector<float> lengths;
        for (const QString &t : split(entry, QLatin1Char(' '))) {
            if (allowInsetSpread && t.compare(QLatin1String("inset"), Qt::CaseInsensitive) == 0 && !s.inset) {
                s.inset = true;
                continue;
            }
            if (isLengthToken(t)) {
                auto l = lengthPercentage(t, fontSize, rootFontSize);
                if (l->isPercent() || lengths.size() >= (allowInsetSpread ? 4u : 3u)) {
                    *reason = QStringLiteral("invalid shadow \"%1\"").arg(entry);
                    return std::nullopt;
                }
                lengths.push_back(l->value);
                continue;
            }
            if (!colorSeen)
                if (auto c = parseColor(t, currentColor)) {
                    s.color = *c;
                    colorSeen = true;
                    continue;
                }
            *reason = QStringLiteral("invalid shadow \"%1\"").arg(entry);
            return std::nullopt;
        }
        if (lengths.size() < 2) {
            *reason = QStringLiteral("a shadow needs two offsets \"%1\"").arg(entry);
            return std::nullopt;
        }
        s.offsetX = lengths[0];
        s.offsetY = lengths[1];
        s.blur = lengths.size() > 2 ? lengths[2] : 0;
        s.spread = lengths.size() > 3 ? lengths[3] : 0;
        if (s.blur < 0) {
            *reason = QStringLiteral("negative shadow blur \"%1\"").arg(entry);
            return std::nullopt;
        }
        out.push_back(s);
    }
    return out;
}

Parsed<std::vector<Shadow>> shadows(const QString &text, bool allowInsetSpread, const QColor &currentColor,
                                    float fontSize, float rootFontSize)
{
    QString reason;
    auto value = shadowsWithReason(text, allowInsetSpread, currentColor, fontSize, rootFontSize, &reason);
    return parsed(std::move(value), reason);
}

} // namespace imprint::render::css
