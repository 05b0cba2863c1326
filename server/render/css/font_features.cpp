#include "server/render/css/font_features.h"

#include <QList>

#include <algorithm>
#include <map>

namespace imprint::render {

namespace {

/// Features HarfBuzz applies by default for horizontal text (hb-ot-shape.cc
/// horizontal_features and common_features, plus the script shapers' forms):
/// setting them on changes nothing.
bool onByDefault(quint32 tag)
{
    static constexpr quint32 tags[] = {
        featureTag("abvm"), featureTag("blwm"), featureTag("calt"), featureTag("ccmp"), featureTag("clig"),
        featureTag("curs"), featureTag("dist"), featureTag("fina"), featureTag("init"), featureTag("isol"),
        featureTag("kern"), featureTag("liga"), featureTag("locl"), featureTag("mark"), featureTag("medi"),
        featureTag("mkmk"), featureTag("rclt"), featureTag("rlig"), featureTag("rvrn"), featureTag("med2"),
        featureTag("fin2"), featureTag("fin3"),
    };
    return std::find(std::begin(tags), std::end(tags), tag) != std::end(tags);
}

/// The value `table` pairs with keyword `text` (ASCII case-insensitive); nullopt for none.
template<typename T, size_t N>
std::optional<T> keywordValue(QStringView text, const std::pair<const char *, T> (&table)[N])
{
    const QStringView t = text.trimmed();
    for (const auto &[word, value] : table)
        if (t.compare(QLatin1String(word), Qt::CaseInsensitive) == 0)
            return value;
    return std::nullopt;
}

/// The keywords of font-variant-caps, font-variant-position and font-kerning (CSS Fonts 4
/// §6.5, §6.6, §6.3) for keywordValue(); a struct each so `using enum` names the values bare.
struct CapsKeywords {
    using enum FontVariantCaps;
    static constexpr std::pair<const char *, FontVariantCaps> list[] = {
        {"normal", Normal},
        {"small-caps", SmallCaps},
        {"all-small-caps", AllSmallCaps},
        {"petite-caps", PetiteCaps},
        {"all-petite-caps", AllPetiteCaps},
        {"unicase", Unicase},
        {"titling-caps", TitlingCaps},
    };
};
struct PositionKeywords {
    using enum FontVariantPosition;
    static constexpr std::pair<const char *, FontVariantPosition> list[] = {
        {"normal", Normal},
        {"sub", Sub},
        {"super", Super},
    };
};
struct KerningKeywords {
    using enum FontKerning;
    static constexpr std::pair<const char *, FontKerning> list[] = {
        {"auto", Auto},
        {"normal", Normal},
        {"none", None},
    };
};

/// One keyword of a font-variant-* value that is a set of keywords: its bit, and the bits
/// of its group (itself and the keywords it excludes, e.g. lining-nums with oldstyle-nums).
struct KeywordBit {
    const char *name;
    quint8 bit, group;
};

/// `text` as space-separated keywords of `words`, ASCII case-insensitive, each at most one
/// of its group: their bits ORed; nullopt for an empty value, an unknown keyword, or two
/// of one group (CSS Fonts 4 §6.4, §6.7: e.g. `lining-nums oldstyle-nums` is invalid).
template<size_t N>
std::optional<quint8> keywordBits(QStringView text, const KeywordBit (&words)[N])
{
    quint8 bits = 0;
    const auto tokens = text.split(u' ', Qt::SkipEmptyParts);
    if (tokens.isEmpty())
        return std::nullopt;
    for (QStringView token : tokens) {
        const KeywordBit *found = nullptr;
        for (const KeywordBit &w : words)
            if (token.compare(QLatin1String(w.name), Qt::CaseInsensitive) == 0)
                found = &w;
        if (!found || (bits & found->group))
            return std::nullopt;
        bits |= found->bit;
    }
    return bits;
}

bool isSpace(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\n' || c == u'\r' || c == u'\f';
}

} // namespace

QString featureTagName(quint32 tag)
{
    QString name;
    for (int shift = 24; shift >= 0; shift -= 8)
        name += QChar(char16_t((tag >> shift) & 0xff));
    return name;
}

std::optional<std::vector<FontFeature>> parseFontFeatureSettings(QStringView text)
{
    const QStringView t = text.trimmed();
    if (t.compare(QLatin1String("normal"), Qt::CaseInsensitive) == 0)
        return std::vector<FontFeature>{};
    std::map<quint32, quint32> byTag;
    qsizetype i = 0;
    const auto skipSpace = [&] {
        while (i < t.size() && isSpace(t.at(i)))
            ++i;
    };
    while (true) {
        // <opentype-tag>: a <string> of exactly 4 characters U+20–U+7E.
        skipSpace();
        if (i >= t.size() || (t.at(i) != u'"' && t.at(i) != u'\''))
            return std::nullopt;
        const QChar quote = t.at(i++);
        const qsizetype close = t.indexOf(quote, i);
        if (close < 0 || close - i != 4)
            return std::nullopt;
        quint32 tag = 0;
        for (qsizetype k = i; k < close; ++k) {
            const char16_t c = t.at(k).unicode();
            if (c < 0x20 || c > 0x7e)
                return std::nullopt;
            tag = tag << 8 | c;
        }
        i = close + 1;
        // [ <integer [0,∞]> | on | off ]?
        skipSpace();
        const qsizetype start = i;
        while (i < t.size() && t.at(i) != u',' && !isSpace(t.at(i)))
            ++i;
        const QStringView word = t.mid(start, i - start);
        quint32 value = 1;
        if (word.isEmpty() || word.compare(QLatin1String("on"), Qt::CaseInsensitive) == 0) {
            value = 1;
        } else if (word.compare(QLatin1String("off"), Qt::CaseInsensitive) == 0) {
            value = 0;
        } else {
            bool ok = false;
            const qlonglong n = word.toLongLong(&ok);
            if (!ok || n < 0 || word.startsWith(u'+') || word.startsWith(u'-'))
                return std::nullopt;
            value = quint32(std::min<qlonglong>(n, 0xffff));
        }
        byTag[tag] = value;
        skipSpace();
        if (i >= t.size())
            break;
        if (t.at(i) != u',')
            return std::nullopt;
        ++i;
    }
    std::vector<FontFeature> out;
    for (const auto &[tag, value] : byTag)
        out.push_back({tag, value});
    return out;
}

std::optional<quint8> parseFontVariantNumeric(QStringView text)
{
    const QStringView t = text.trimmed();
    if (t.compare(QLatin1String("normal"), Qt::CaseInsensitive) == 0)
        return quint8(0);
    static constexpr KeywordBit words[] = {
        {"lining-nums", LiningNums, LiningNums | OldstyleNums},
        {"oldstyle-nums", OldstyleNums, LiningNums | OldstyleNums},
        {"proportional-nums", ProportionalNums, ProportionalNums | TabularNums},
        {"tabular-nums", TabularNums, ProportionalNums | TabularNums},
        {"diagonal-fractions", DiagonalFractions, DiagonalFractions | StackedFractions},
        {"stacked-fractions", StackedFractions, DiagonalFractions | StackedFractions},
        {"ordinal", Ordinal, Ordinal},
        {"slashed-zero", SlashedZero, SlashedZero},
    };
    return keywordBits(t, words);
}

std::optional<quint8> parseFontVariantLigatures(QStringView text)
{
    const QStringView t = text.trimmed();
    if (t.compare(QLatin1String("normal"), Qt::CaseInsensitive) == 0)
        return quint8(0);
    if (t.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return kNoLigatures;
    // Each pair (on, off) is one group.
    constexpr quint8 common = CommonLigatures | NoCommonLigatures;
    constexpr quint8 discretionary = DiscretionaryLigatures | NoDiscretionaryLigatures;
    constexpr quint8 historical = HistoricalLigatures | NoHistoricalLigatures;
    constexpr quint8 contextual = Contextual | NoContextual;
    static constexpr KeywordBit words[] = {
        {"common-ligatures", CommonLigatures, common},
        {"no-common-ligatures", NoCommonLigatures, common},
        {"discretionary-ligatures", DiscretionaryLigatures, discretionary},
        {"no-discretionary-ligatures", NoDiscretionaryLigatures, discretionary},
        {"historical-ligatures", HistoricalLigatures, historical},
        {"no-historical-ligatures", NoHistoricalLigatures, historical},
        {"contextual", Contextual, contextual},
        {"no-contextual", NoContextual, contextual},
    };
    return keywordBits(t, words);
}

std::optional<FontVariantCaps> parseFontVariantCaps(QStringView text)
{
    return keywordValue(text, CapsKeywords::list);
}

std::optional<FontVariantPosition> parseFontVariantPosition(QStringView text)
{
    return keywordValue(text, PositionKeywords::list);
}

std::optional<FontKerning> parseFontKerning(QStringView text)
{
    return keywordValue(text, KerningKeywords::list);
}

std::vector<FontFeature> resolvedFontFeatures(quint8 numeric, const std::vector<FontFeature> &settings,
                                              FontVariantCaps caps, FontKerning kerning, quint8 ligatures,
                                              FontVariantPosition position)
{
    std::map<quint32, quint32> byTag;
    if (kerning == FontKerning::None)
        byTag[featureTag("kern")] = 0;
    static constexpr std::pair<quint8, std::pair<quint32, quint32>> ligatureTags[] = {
        {CommonLigatures, {featureTag("liga"), 1}},
        {CommonLigatures, {featureTag("clig"), 1}},
        {NoCommonLigatures, {featureTag("liga"), 0}},
        {NoCommonLigatures, {featureTag("clig"), 0}},
        {DiscretionaryLigatures, {featureTag("dlig"), 1}},
        {NoDiscretionaryLigatures, {featureTag("dlig"), 0}},
        {HistoricalLigatures, {featureTag("hlig"), 1}},
        {NoHistoricalLigatures, {featureTag("hlig"), 0}},
        {Contextual, {featureTag("calt"), 1}},
        {NoContextual, {featureTag("calt"), 0}},
    };
    for (const auto &[bit, feature] : ligatureTags)
        if (ligatures & bit)
            byTag[feature.first] = feature.second;
    if (position != FontVariantPosition::Normal)
        byTag[position == FontVariantPosition::Sub ? featureTag("subs") : featureTag("sups")] = 1;
    switch (caps) {
    case FontVariantCaps::Normal: break;
    case FontVariantCaps::AllSmallCaps: byTag[featureTag("c2sc")] = 1; [[fallthrough]];
    case FontVariantCaps::SmallCaps: byTag[featureTag("smcp")] = 1; break;
    case FontVariantCaps::AllPetiteCaps: byTag[featureTag("c2pc")] = 1; [[fallthrough]];
    case FontVariantCaps::PetiteCaps: byTag[featureTag("pcap")] = 1; break;
    case FontVariantCaps::Unicase: byTag[featureTag("unic")] = 1; break;
    case FontVariantCaps::TitlingCaps: byTag[featureTag("titl")] = 1; break;
    }
    static constexpr std::pair<quint8, quint32> numericTags[] = {
        {LiningNums, featureTag("lnum")},        {OldstyleNums, featureTag("onum")},
        {ProportionalNums, featureTag("pnum")},  {TabularNums, featureTag("tnum")},
        {DiagonalFractions, featureTag("frac")}, {StackedFractions, featureTag("afrc")},
        {Ordinal, featureTag("ordn")},           {SlashedZero, featureTag("zero")},
    };
    for (const auto &[bit, tag] : numericTags)
        if (numeric & bit)
            byTag[tag] = 1;
    for (const FontFeature &f : settings)
        byTag[f.tag] = f.value;
    std::vector<FontFeature> out;
    for (const auto &[tag, value] : byTag)
        out.push_back({tag, value});
    return out;
}

FeatureSupport featureSupport(const FontFeature &feature)
{
    if (feature.tag == featureTag("kern"))
        return feature.value == 0 ? FeatureSupport::Kerning : FeatureSupport::Default;
    if (onByDefault(feature.tag))
        return feature.value == 0 ? FeatureSupport::Derived : FeatureSupport::Default;
    return feature.value == 0 ? FeatureSupport::Default : FeatureSupport::Derived;
}

} // namespace imprint::render
