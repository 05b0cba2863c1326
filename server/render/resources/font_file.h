#pragma once
// Uploaded font files (docs/fonts-and-images.md): the format sniffed from the bytes,
// WOFF 1.0 and WOFF 2.0 unwrapped into the plain sfnt (TrueType/OpenType) they carry,
// the face's own names read through FreeType (QRawFont), and the sfnt's family renamed so
// that a face can be registered process-wide under a name no template can guess.
// Nothing here draws or registers a font.

#include "server/common/expected.h"

#include <QByteArray>
#include <QString>

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace imprint::render {

/// Font container formats, as sniffed from the first four bytes.
enum class FontFormat : quint8 { Unknown, Ttf, Otf, Woff, Woff2, Collection };

/// The format of `bytes` from its signature: 0x00010000 or "true" → Ttf, "OTTO" → Otf,
/// "wOFF" → Woff, "wOF2" → Woff2, "ttcf" → Collection; Unknown otherwise.
FontFormat sniffFontFormat(const QByteArray &bytes);

/// "ttf", "otf", "woff", "woff2" (the stored file's extension); empty for the others.
QString fontFormatName(FontFormat format);

/// The largest sfnt a WOFF or WOFF2 may expand to, bytes (a compression bomb is refused
/// before it is inflated).
inline constexpr qint64 kMaxDecodedFontBytes = 30LL * 1024 * 1024;

/// The plain sfnt of `bytes`: TTF and OTF as they are; WOFF 1.0 (W3C WOFF §4–5: each
/// table zlib-inflated when its compLength is below origLength, qUncompress) and WOFF 2.0
/// (Google's woff2 library) rebuilt into an sfnt. The reason (one sentence) for an
/// unknown format, a font collection, a truncated or inconsistent file, or one that
/// expands past kMaxDecodedFontBytes.
common::Expected<QByteArray, QString> decodeFontToSfnt(const QByteArray &bytes);

/// What a face says about itself.
struct FontFaceInfo {
    QString family; ///< the typographic family (name ID 16, else 1)
    int weight = 400; ///< CSS weight 1–1000 (OS/2 usWeightClass)
    bool italic = false; ///< italic or oblique
};

/// The names of `sfnt` as FreeType reads them; the reason when FreeType cannot load it as
/// a font (so neither could the renderer).
common::Expected<FontFaceInfo, QString> inspectFont(const QByteArray &sfnt);

/// `sfnt` with its `name` table rewritten so the face's family is `family` (name IDs 1,
/// 3, 4 and 6 replaced, the typographic and WWS names 16, 17, 21 and 22 dropped, every
/// other record kept as it was) and the table directory and checksums rebuilt (OpenType
/// §"Organization of an OpenType Font"). Glyph data is copied untouched. `family` must
/// be ASCII without spaces (it is also the PostScript name). The reason when the table
/// directory or name table is malformed.
common::Expected<QByteArray, QString> renameSfntFamily(const QByteArray &sfnt, const QString &family);

/// The bytes of table `tag` (OpenType tag, big-endian packed) of face `faceIndex` of the
/// font file at `path` (an sfnt or a collection); empty when the file cannot be read as
/// a font or the face has no such table.
QByteArray fontFileTable(const QByteArray &path, unsigned faceIndex, quint32 tag);

/// The face `faceIndex` of `font` (an sfnt or a TrueType/OpenType collection) with the
/// single-glyph substitutions of `features` (OpenType tag, value: 1 on, n the nth
/// alternate) frozen into its cmap, the way fontTools' pyftfeatfreeze does: every
/// character maps to the glyph the feature's GSUB lookups (single and alternate
/// substitutions, applied in lookup order; OpenType GSUB types 1 and 3) make of its
/// default glyph, so any shaper draws and measures the substituted glyphs with their own
/// advances. The copy's cmap is one (3,10) format 12 subtable, a (3,1) format 4 one for
/// the BMP when it fits, and the face's (0,5) format 14 variation sequences; its family
/// is `family` (renameSfntFamily()); DSIG is dropped; every other table is copied as it
/// is. An empty array when no character changes glyph (the face lacks the features, or
/// they substitute by context or several glyphs at once); the reason when the face
/// cannot be read.
common::Expected<QByteArray, QString> freezeFontFeatures(const QByteArray &font, unsigned faceIndex,
                                                         const std::vector<std::pair<quint32, quint32>> &features,
                                                         const QString &family);

/// The feature tags of the FeatureList of `table` (a GSUB or GPOS table, OpenType
/// "Common Table Formats" §FeatureList), in record order; an empty list for an empty
/// table; nullopt when the header or the FeatureList lies outside the table.
std::optional<std::vector<quint32>> layoutFeatureTags(const QByteArray &table);

/// `table` (a GSUB or GPOS table) with each FeatureRecord whose tag is a key of `renames`
/// given the mapped tag instead. Lookups, LangSys feature indices and offsets stay as
/// they are, so the table keeps its size. HarfBuzz finds a LangSys's feature by a linear
/// search over the LangSys's feature indices (hb_ot_layout_language_find_feature), so the
/// records need not stay sorted by tag. nullopt when layoutFeatureTags() rejects it.
std::optional<QByteArray> renameLayoutFeatures(const QByteArray &table, const std::map<quint32, quint32> &renames);

/// The tags HarfBuzz (2.6 and later, hb-ot-shape.cc) enables for every run whatever the
/// script: a feature renamed to one of them is applied by any HarfBuzz shaping the face
/// with its default features, as Qt 6.4 does. In the order deriveFeatureFace() uses them
/// (back first): 'Buzz', 'BUZZ' (after the script's own features), 'Harf', 'HARF'.
inline constexpr quint32 kEnabledFeatureSlots[] = {0x48415246 /*HARF*/, 0x48617266 /*Harf*/, 0x42555A5A /*BUZZ*/,
                                                   0x42757A7A /*Buzz*/};
/// The tag a feature turned off is renamed to: no shaper asks for it.
inline constexpr quint32 kDisabledFeatureTag = 0x586F6666; // 'Xoff'

/// A face derived by deriveFeatureFace().
struct DerivedFace {
    QByteArray sfnt; ///< the derived face; empty when nothing had to change
    std::vector<quint32> missing; ///< features to turn on that the face does not have
    std::vector<quint32> dropped; ///< features to turn on past the four kEnabledFeatureSlots
};

/// The face `faceIndex` of `font` changed so that HarfBuzz's default shaping applies
/// `features` (tag, value: 0 off, 1 on, n the nth alternate), named `family`:
/// - a feature to turn on whose GSUB lookups all substitute single glyphs (and which has
///   no GPOS part) is frozen into the cmap (freezeFontFeatures(); shaping then runs no
///   lookup for it);
/// - any other feature to turn on (ligatures, contextual, fractions, ordinals,
///   positioning) has its FeatureRecords renamed to one of kEnabledFeatureSlots, so its
///   lookups run in their lookup order among the default ones, for every script and
///   language system that lists it (its value is taken as 1);
/// - a feature to turn off has its FeatureRecords renamed to kDisabledFeatureTag.
/// The reason when the face cannot be read; a malformed GSUB or GPOS is left as it is.
common::Expected<DerivedFace, QString> deriveFeatureFace(const QByteArray &font, unsigned faceIndex,
                                                         const std::vector<std::pair<quint32, quint32>> &features,
                                                         const QString &family);

} // namespace imprint::render
