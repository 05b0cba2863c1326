#include "server/render/css/font_variations.h"

#include "server/render/css/parse.h"

#include <algorithm>

namespace imprint::render {

namespace {

/// The tag of `quoted` when it is a CSS string of exactly 4 characters U+20–U+7E
/// (CSS Fonts 4 <opentype-tag>); 0 otherwise.
quint32 quotedTag(QStringView quoted)
{
    if (quoted.size() != 6 || (quoted.front() != u'"' && quoted.front() != u'\'') || quoted.back() != quoted.front())
        return 0;
    quint32 tag = 0;
    for (QChar c : quoted.mid(1, 4)) {
        if (c.unicode() < 0x20 || c.unicode() > 0x7e)
            return 0;
        tag = (tag << 8) | c.unicode();
    }
    return tag;
}

} // namespace

common::Expected<std::vector<FontVariation>, QString> parseFontVariationSettings(QStringView text)
{
    const QStringView trimmed = text.trimmed();
    if (trimmed.compare(QLatin1String("normal"), Qt::CaseInsensitive) == 0)
        return std::vector<FontVariation>{};
    std::vector<FontVariation> out;
    for (const QString &entry : css::split(trimmed, u',')) {
        const QStringList parts = css::split(entry, u' ');
        const quint32 tag = parts.size() == 2 ? quotedTag(parts[0]) : 0;
        const std::optional<float> value = tag ? css::number(parts[1]) : std::nullopt;
        if (!value)
            return entry;
        const auto same = std::find_if(out.begin(), out.end(), [&](const FontVariation &v) { return v.tag == tag; });
        if (same != out.end())
            same->value = *value;
        else
            out.push_back(FontVariation{*value, tag});
    }
    return out;
}

QStringList unknownVariationAxes(const std::vector<FontVariation> &settings)
{
    static const QStringList registered = {QStringLiteral("wght"), QStringLiteral("wdth"), QStringLiteral("slnt"),
                                           QStringLiteral("ital"), QStringLiteral("opsz")};
    QStringList unknown;
    for (const FontVariation &v : settings) {
        QString name;
        for (int shift = 24; shift >= 0; shift -= 8)
            name += QChar::fromLatin1(char((v.tag >> shift) & 0xff));
        const bool custom = std::all_of(name.begin(), name.end(), [](QChar c) { return c.isUpper() || c.isDigit(); });
        if (!custom && !registered.contains(name))
            unknown << name;
    }
    return unknown;
}

std::optional<float> parseFontStretch(QStringView text)
{
    static const std::pair<const char *, float> keywords[] = {
        {"ultra-condensed", 50}, {"extra-condensed", 62.5f}, {"condensed", 75},      {"semi-condensed", 87.5f},
        {"normal", 100},         {"semi-expanded", 112.5f},  {"expanded", 125},      {"extra-expanded", 150},
        {"ultra-expanded", 200},
    };
    const QStringView t = text.trimmed();
    for (const auto &[name, percent] : keywords)
        if (t.compare(QLatin1String(name), Qt::CaseInsensitive) == 0)
            return percent;
    const std::optional<float> percent = css::percentage(t);
    if (!percent || *percent < 0)
        return std::nullopt;
    return percent;
}

} // namespace imprint::render
