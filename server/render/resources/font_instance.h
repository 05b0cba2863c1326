#pragma once
// Variable fonts (OpenType 1.8 font variations; docs/templates.md "Variable fonts"): the
// axes and named instances a face's `fvar` table declares, and a static instance of the
// face at chosen axis values, made with HarfBuzz's instancer (hb-subset with every axis
// pinned: glyf outlines moved by gvar, advances by HVAR/gvar phantom points, every glyph,
// character and layout table kept). Qt 6.4 cannot set a variation on a QFont
// (QFont::setVariableAxis is Qt 6.7), so the text module registers such an instance as a
// face of its own (text/variable_faces.h). Nothing here draws or registers a font.

#include "server/common/expected.h"

#include <QByteArray>
#include <QString>

#include <utility>
#include <vector>

namespace imprint::render {

/// One axis of a variable face (OpenType `fvar` VariationAxisRecord), in design units
/// (wght in CSS weight units, wdth in percent, slnt in degrees, counter-clockwise
/// positive, ital 0–1, opsz in points).
struct FontAxis {
    quint32 tag = 0; ///< OpenType tag, big-endian packed ('wght' = 0x77676874)
    float min = 0;
    float defaultValue = 0;
    float max = 0;
};

/// An axis tag and a value for it, in the axis's design units.
using AxisValue = std::pair<quint32, float>;

/// One named instance of a variable face (`fvar` InstanceRecord).
struct FontNamedInstance {
    QString name; ///< its subfamily name ("Bold", "Condensed Light"), English when there is one
    std::vector<AxisValue> coords; ///< one value per axis, in fvar's axis order
};

/// What `fvar` declares.
struct FontVariations {
    std::vector<FontAxis> axes; ///< empty for a static face
    std::vector<FontNamedInstance> instances;
    bool isVariable() const { return !axes.empty(); }
};

/// The largest font an instance is made of: larger faces (CJK variable fonts of 20 MiB
/// and more) are drawn at their default instance rather than copied per instance.
inline constexpr qint64 kMaxInstancedFontBytes = 16LL * 1024 * 1024;

/// The four-letter form of an axis tag ("wght"); non-printable bytes as '?'.
QString axisTagName(quint32 tag);

/// The tag of a four-character axis name ("wght" → 0x77676874); 0 when `name` is not four
/// printable ASCII characters (OpenType "Tag" data type).
quint32 axisTagFromName(const QString &name);

/// The axes and named instances of face `faceIndex` of `font` (an sfnt or collection);
/// empty when it has no `fvar` table or cannot be read.
FontVariations fontVariations(const QByteArray &font, unsigned faceIndex = 0);

/// `coords` completed for `variations`: one value per axis of the face in fvar order,
/// the value given for it (the last one when a tag repeats), else the axis default,
/// clamped to the axis range (CSS Fonts 4 §7.1: values outside are clamped). Tags the
/// face has no axis for are left out.
std::vector<AxisValue> resolveAxisValues(const FontVariations &variations, const std::vector<AxisValue> &coords);

/// A static instance of face `faceIndex` of the variable `font` with each axis of
/// `coords` (resolveAxisValues()'s output) pinned: outlines, advances and side bearings
/// of the instance, every glyph id, character mapping and OpenType layout table kept
/// (GSUB, GPOS, kern), hinting dropped; `fvar`, `gvar`, `HVAR`, `avar` and the other
/// variation tables are gone. Its family is `family` (renameSfntFamily(): ASCII without
/// spaces); its OS/2 usWeightClass is `weightClass` (1–1000; 0: the instance's wght) and
/// usWidthClass the class nearest its wdth, so a font matcher that synthesises bold from
/// them (Qt, our painters) treats it as the weight CSS asked for. The reason when the font cannot
/// be read, is larger than kMaxInstancedFontBytes or HarfBuzz cannot instance it.
common::Expected<QByteArray, QString> instanceFont(const QByteArray &font, unsigned faceIndex,
                                                    const std::vector<AxisValue> &coords, const QString &family,
                                                    int weightClass = 0);

} // namespace imprint::render
