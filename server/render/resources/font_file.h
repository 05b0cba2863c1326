#pragma once
// Uploaded font files (docs/fonts-and-images.md): the format sniffed from the bytes,
// WOFF 1.0 and WOFF 2.0 unwrapped into the plain sfnt (TrueType/OpenType) they carry,
// the face's own names read through FreeType (QRawFont), and the sfnt's family renamed so
// that a face can be registered process-wide under a name no template can guess.
// Nothing here draws or registers a font.

#include "server/common/expected.h"

#include <QByteArray>
#include <QString>

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

} // namespace imprint::render
