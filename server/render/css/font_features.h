#pragma once
// OpenType font features as CSS sets them (CSS Fonts 4 §6): `font-kerning` (§6.4),
// `font-variant-ligatures` (§6.4), `-position` (§6.5), `-caps` (§6.6), `-numeric` (§6.7)
// and `font-feature-settings` (§6.12), parsed into feature tags and values, and the
// resolved list a text run is shaped with (§7.2 feature precedence). How a face gets
// them: text/feature_faces.h.

#include <QString>
#include <QStringView>

#include <optional>
#include <vector>

namespace imprint::render {

/// One OpenType feature setting: `tag` is the 4 ASCII letters packed big-endian
/// ('tnum' = 0x746E756D), `value` 0 (off), 1 (on) or n > 1 (the nth alternate).
struct FontFeature {
    quint32 tag = 0;
    quint32 value = 1;
    friend bool operator==(const FontFeature &, const FontFeature &) = default;
};

/// The values of `font-variant-numeric` (CSS Fonts 4 §6.7) as bits; 0 is `normal`.
enum FontVariantNumeric : quint8 {
    LiningNums = 1 << 0, ///< lnum
    OldstyleNums = 1 << 1, ///< onum
    ProportionalNums = 1 << 2, ///< pnum
    TabularNums = 1 << 3, ///< tnum
    DiagonalFractions = 1 << 4, ///< frac
    StackedFractions = 1 << 5, ///< afrc
    Ordinal = 1 << 6, ///< ordn
    SlashedZero = 1 << 7, ///< zero
};

/// `font-variant-caps` (CSS Fonts 4 §6.6).
enum class FontVariantCaps : quint8 {
    Normal,
    SmallCaps,
    AllSmallCaps,
    PetiteCaps,
    AllPetiteCaps,
    Unicase,
    TitlingCaps
};

/// The values of `font-variant-ligatures` (CSS Fonts 4 §6.4) as bits; 0 is `normal`.
enum FontVariantLigatures : quint8 {
    CommonLigatures = 1 << 0, ///< liga, clig on
    NoCommonLigatures = 1 << 1, ///< liga, clig off
    DiscretionaryLigatures = 1 << 2, ///< dlig on
    NoDiscretionaryLigatures = 1 << 3, ///< dlig off
    HistoricalLigatures = 1 << 4, ///< hlig on
    NoHistoricalLigatures = 1 << 5, ///< hlig off
    Contextual = 1 << 6, ///< calt on
    NoContextual = 1 << 7, ///< calt off
};
/// `font-variant-ligatures: none`: every ligature and contextual alternate off.
inline constexpr quint8 kNoLigatures
    = NoCommonLigatures | NoDiscretionaryLigatures | NoHistoricalLigatures | NoContextual;

/// `font-variant-position` (CSS Fonts 4 §6.5): sub enables subs, super sups.
enum class FontVariantPosition : quint8 { Normal, Sub, Super };

/// `font-kerning` (CSS Fonts 4 §6.4): auto and normal kern, none does not.
enum class FontKerning : quint8 { Auto, Normal, None };

/// The tag of 4 ASCII characters `name` ("tnum" → 0x746E756D).
constexpr quint32 featureTag(const char (&name)[5])
{
    return quint32(quint8(name[0])) << 24 | quint32(quint8(name[1])) << 16 | quint32(quint8(name[2])) << 8
           | quint32(quint8(name[3]));
}

/// The 4 characters of `tag` ("tnum").
QString featureTagName(quint32 tag);

/// `font-feature-settings` (CSS Fonts 4 §6.12): `normal` (an empty list) or a comma
/// separated list of `<string> [<integer [0,∞]> | on | off]?`, the string exactly 4
/// printable ASCII characters; `on` and a missing value are 1, `off` is 0. Settings of
/// one tag keep the last. nullopt when the value does not match the grammar.
std::optional<std::vector<FontFeature>> parseFontFeatureSettings(QStringView text);

/// `font-variant-numeric` (CSS Fonts 4 §6.7): `normal` (0) or `[lining-nums |
/// oldstyle-nums] || [proportional-nums | tabular-nums] || [diagonal-fractions |
/// stacked-fractions] || ordinal || slashed-zero` as FontVariantNumeric bits. nullopt
/// when a keyword is unknown, repeated or conflicts with another of its group.
std::optional<quint8> parseFontVariantNumeric(QStringView text);

/// `font-variant-caps` (CSS Fonts 4 §6.6): normal, small-caps, all-small-caps,
/// petite-caps, all-petite-caps, unicase or titling-caps; nullopt otherwise.
std::optional<FontVariantCaps> parseFontVariantCaps(QStringView text);

/// `font-variant-ligatures` (CSS Fonts 4 §6.4): `normal` (0), `none` (kNoLigatures) or
/// `[ common-ligatures | no-common-ligatures ] || [ discretionary-ligatures |
/// no-discretionary-ligatures ] || [ historical-ligatures | no-historical-ligatures ] ||
/// [ contextual | no-contextual ]` as FontVariantLigatures bits; nullopt when a keyword is
/// unknown, repeated or conflicts with another of its group.
std::optional<quint8> parseFontVariantLigatures(QStringView text);

/// `font-variant-position` (CSS Fonts 4 §6.5): normal, sub or super; nullopt otherwise.
std::optional<FontVariantPosition> parseFontVariantPosition(QStringView text);

/// `font-kerning` (CSS Fonts 4 §6.4): auto, normal or none; nullopt otherwise.
std::optional<FontKerning> parseFontKerning(QStringView text);

/// The features a run is shaped with, sorted by tag (CSS Fonts 4 §7.2 steps 3, 5 and 8):
/// `font-kerning: none` turns `kern` off, `ligatures` sets liga/clig, dlig, hlig and calt,
/// `position` enables subs or sups, `caps` and `numeric` enable theirs (smcp, c2sc, pcap,
/// c2pc, unic, titl; lnum … zero), then `settings` override them tag by tag.
std::vector<FontFeature> resolvedFontFeatures(quint8 numeric, const std::vector<FontFeature> &settings,
                                              FontVariantCaps caps = FontVariantCaps::Normal,
                                              FontKerning kerning = FontKerning::Auto, quint8 ligatures = 0,
                                              FontVariantPosition position = FontVariantPosition::Normal);

/// How Imprint honours a feature setting: Derived — drawn from a copy of the face made for
/// the feature set (text/feature_faces.h: single-glyph substitutions frozen into its cmap,
/// others renamed in its GSUB/GPOS so HarfBuzz's default shaping applies them or skips
/// them); Kerning — `kern` off, which turns kerning off; Default — already what shaping
/// does (an on-by-default feature on, or an off-by-default one off), nothing to do.
enum class FeatureSupport : quint8 { Derived, Kerning, Default };

/// What Imprint does with `feature` (see FeatureSupport).
FeatureSupport featureSupport(const FontFeature &feature);

} // namespace imprint::render
