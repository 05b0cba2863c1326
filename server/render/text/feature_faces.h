#pragma once
// OpenType features through derived faces (docs/templates.md "OpenType features").
//
// Qt 6.4 has no API to turn a font feature on or off (QFont::setFeature is Qt 6.6), and
// QTextLayout shapes every run with HarfBuzz's default features. So a run's features go
// into a copy of its face, registered once per process under an internal family, and the
// run's font names that family instead (resources/font_file.h deriveFeatureFace()):
// - a feature that swaps single glyphs (tnum, onum, zero, smcp, ss01, sups, …) is
//   "frozen" into the copy's cmap, as fontTools' pyftfeatfreeze does (no lookup runs);
// - any other feature to turn on (dlig, hlig, frac, ordn; liga in a letter-spaced run,
//   where Qt turns it off) has its GSUB/GPOS FeatureRecords renamed to a tag HarfBuzz always applies ('Buzz',
//   'BUZZ', 'Harf', 'HARF'), so Qt's own HarfBuzz applies its lookups in lookup order;
// - a feature to turn off (liga, clig, calt, …) is renamed to a tag nobody applies.
// Measuring, line breaking, bidi and both painters then see the shaped glyphs and their
// advances from the same QTextLayout, without knowing about features. (Shaping such runs
// with hb_shape directly would need our own line breaking and bidi for them.)

#include "server/render/css/font_features.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace imprint::render {

struct ComputedStyle;
struct Node;
struct FontSet;

/// The most derived faces one process registers; a face and feature set past it is drawn
/// without its features (Qt cannot unregister a face a cached engine may still use).
inline constexpr int kMaxFrozenFaces = 128;
/// The most bytes of derived faces one process registers (Qt keeps each copy in memory).
inline constexpr qint64 kMaxFrozenBytes = 256LL * 1024 * 1024;
/// The largest font file a face is derived from: a CJK collection (20 MiB and more) is
/// drawn without its features rather than copied.
inline constexpr qint64 kMaxFrozenFaceBytes = 16LL * 1024 * 1024;

/// The features `style` asks for that change shaping (featureSupport() Derived or
/// Kerning, and with letter-spacing ligatures set on and calt off, as Blink), sorted by
/// tag; empty — and nothing computed — for a style that sets none of
/// font-feature-settings, font-variant-numeric/-caps/-ligatures/-position, font-kerning,
/// letter-spacing.
std::vector<FontFeature> styleFeatures(const ComputedStyle &style);

/// The family to draw `family` with at CSS `weight` and `italic` when the run's
/// `features` (styleFeatures()) are on: the internal family of a copy of the face Qt
/// picks for them with the features other than `kern` applied (see the top of this file), registered on
/// first use, or `family` itself when there is nothing to change (no such feature, the
/// face lacks them, the face's file cannot be found or is larger than
/// kMaxFrozenFaceBytes, or a process bound is reached). Thread-safe; the first call for a
/// face and feature set reads the font file and registers the copy (a few ms), later
/// ones are a hash lookup.
QString frozenFamily(const QString &family, int weight, bool italic, const std::vector<FontFeature> &features);

/// The features of `features` to turn on that the face of `family` Qt picks for `weight`
/// and `italic` does not have, or could not get (past the four tags of
/// kEnabledFeatureSlots); empty for a family that is not installed.
std::vector<quint32> missingFeatures(const QString &family, int weight, bool italic,
                                     const std::vector<FontFeature> &features);

/// Whether `s` asks for small or petite capitals (font-variant-caps: small-caps,
/// all-small-caps, petite-caps, all-petite-caps) that its first installed family's face
/// lacks, which Chromium then synthesizes (Blink's SmallCapsIterator): lowercase letters
/// drawn as capitals at 0.7 of the size (all- variants: every letter). Petite capitals
/// fall back to the face's small capitals first, as in Blink.
bool synthesizesSmallCaps(const ComputedStyle &s);

/// Appends to `warnings`, once per family and feature, the features the text of `root`
/// asks for that the face drawing it lacks ("font 'DejaVu Sans' has no OpenType feature
/// \"dlig\"; rendered without it"). Runs after applyFontSet(): an uploaded face is named
/// by its family in `fonts`.
void warnMissingFeatures(const Node &root, const FontSet &fonts, QStringList *warnings);

/// How many derived faces this process has registered (metrics, tests).
int frozenFaceCount();

} // namespace imprint::render
