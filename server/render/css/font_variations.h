#pragma once
// Font variations as CSS sets them: CSS Fonts 4 §7.4 `font-variation-settings` parsed
// into axis tags and values, §2.4 `font-stretch` into a percentage (`font-style: oblique
// <angle>` is parsed with the other font-style values, style/text_properties.cpp). The
// text module turns them into an instance of a variable face (text/variable_faces.h).

#include "server/common/expected.h"

#include <QStringList>
#include <QStringView>
#include <QtGlobal>
#include <optional>
#include <vector>

namespace imprint::render {

/// One `font-variation-settings` entry: an axis value in the axis's design units for
/// the 4 ASCII characters of `tag` packed big-endian ('wght' = 0x77676874).
struct FontVariation {
    float value = 0; ///< clamped to the face's axis when applied, not here
    quint32 tag = 0;

    friend bool operator==(const FontVariation &, const FontVariation &) = default;
};

/// `font-variation-settings` (CSS Fonts 4 §7.4): `normal` (an empty list) or a comma
/// separated list of `<string> <number>`, the string exactly 4 characters U+20–U+7E.
/// A tag given twice keeps its last value (the list holds it once, where it first
/// appeared). When the value is not of that form, the error is the entry that is not (for
/// the warning).
common::Expected<std::vector<FontVariation>, QString> parseFontVariationSettings(QStringView text);

/// The tags of `settings` that are neither a registered axis of CSS Fonts 4 §7.1 / the
/// OpenType axis registry (wght, wdth, slnt, ital, opsz) nor of the custom form (custom
/// axes are tagged in capitals, OpenType "Font Variations Overview"): most likely typos.
QStringList unknownVariationAxes(const std::vector<FontVariation> &settings);

/// `font-stretch` (CSS Fonts 4 §2.4): a keyword (`ultra-condensed` 50 % … `ultra-expanded`
/// 200 %) or a non-negative percentage, as a percentage; nullopt otherwise.
std::optional<float> parseFontStretch(QStringView text);

} // namespace imprint::render
