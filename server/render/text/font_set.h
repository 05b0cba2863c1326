#pragma once
// A space's uploaded fonts as a render sees them (docs/fonts-and-images.md).
//
// Qt's font database is per process, so every uploaded face is registered once under an
// internal family name derived from its content hash ("imprint-f-<hash>"), which the
// upload rewrote into the face's own name table. A render gets its space's FontSet; before
// layout, applyFontSet() rewrites each `font-family` entry naming one of the space's
// families into the internal name of the face CSS Fonts 4 §5.2 selects, and drops any
// internal name a template wrote itself, so one space never reaches another's fonts.

#include "server/common/expected.h"
#include "server/render/document/node.h"
#include "server/render/resources/svg_raster.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace imprint::render {

/// One uploaded face.
struct FontFace {
    QString family; ///< the family name templates use (the file's, or the upload's override)
    int weight = 400; ///< CSS weight 1–1000
    bool italic = false;
    QString internalFamily; ///< the registered family (internalFamilyFor())
};

/// The faces of one space. Cheap to copy; immutable once handed to a render.
struct FontSet {
    QList<FontFace> faces;

    bool isEmpty() const { return faces.isEmpty(); }
    /// The face of `family` (case-insensitive) CSS Fonts 4 §5.2 step 4 picks for `weight`
    /// and `italic`: font-style first (italic → italic faces, else normal ones; then the
    /// other), then font-weight (400–500: up to 500, then down, then up; below 400: down,
    /// then up; above 500: up, then down). Null when the set has no such family.
    const FontFace *match(const QString &family, int weight, bool italic) const;
    /// A string that changes whenever a face is added or removed (render memo keys, etags).
    QString fingerprint() const;
};

/// "imprint-f-" + the first 24 hex digits of `sha256`: ASCII, no spaces, unguessable
/// without the file.
QString internalFamilyFor(const QString &sha256);

/// True for a family name of the internalFamilyFor() form.
bool isInternalFamily(const QString &family);

/// Registers `sfnt` (already renamed to internalFamilyFor(sha256)) with Qt's font
/// database unless a face of that hash is registered already. Thread-safe. The reason
/// when Qt does not accept it or does not list the expected family afterwards.
common::Expected<common::Done, QString> registerFontFace(const QString &sha256, const QByteArray &sfnt);

/// True when registerFontFace() has succeeded for `sha256` in this process.
bool isFontFaceRegistered(const QString &sha256);

/// The sfnt (TrueType/OpenType bytes, WOFF/WOFF2 already unwrapped) registered under
/// `internalFamily`; empty when no face of that family is registered.
QByteArray registeredFontFaceData(const QString &internalFamily);

/// One CSS `@font-face` rule per face of `fonts` whose family `page` names (a
/// case-insensitive substring test), for a browser that does not share Qt's font database
/// (CSS Fonts 4 §4): font-family the name the space uses, font-weight and font-style the
/// face's, src a data: URL of its sfnt. A face that would take the rules past `maxBytes`
/// is left out with a line in `warnings`. Empty when no face applies.
QString fontFaceRules(const FontSet &fonts, const QString &page, qsizetype maxBytes, QStringList *warnings);

/// The faces of `fonts` that the text of an inline svg document `svg` may name, for the
/// sandboxed SVG helper (svg_raster.h): every face whose family `svg` contains (a
/// case-insensitive substring test, as fontFaceRules()), with its registered sfnt; none
/// when the document has no `<text>`. A face with a weight axis keeps the file's weights
/// (weight 0).
QList<SvgRasterFont> svgRasterFonts(const FontSet &fonts, const QByteArray &svg);

/// Rewrites the font-family lists of `root` and its descendants for `fonts` (see the top
/// of this file) and appends to `warnings` one line per family and character that none of
/// the run's uploaded families has ("fontFamily 'Brand' has no glyph for U+4E2D; a system
/// font drew it"), at most one per family.
void applyFontSet(Node &root, const FontSet &fonts, QStringList *warnings);

} // namespace imprint::render
