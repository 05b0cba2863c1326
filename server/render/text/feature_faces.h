#pragma once
// OpenType features through frozen faces (docs/templates.md "Font features").
//
// Qt 6.4 has no API to turn a font feature on (QFont::setFeature is Qt 6.7), and
// QTextLayout shapes every run with HarfBuzz's default features. A feature that swaps
// single glyphs (tnum, onum, zero, smcp, ss01, …) is applied instead by "freezing" it,
// as fontTools' pyftfeatfreeze does: a copy of the face whose cmap maps each character to
// its substituted glyph (resources/font_file.h freezeFontFeatures()) is registered once
// per process under an internal family, and the run's font names that family instead.
// Measuring, line breaking and both painters then see the substituted glyphs and their
// advances without knowing about features.

#include "server/render/css/font_features.h"

#include <QString>

#include <vector>

namespace imprint::render {

/// The most frozen faces one process registers; a face and feature set past it is drawn
/// without its features (Qt cannot unregister a face a cached engine may still use).
inline constexpr int kMaxFrozenFaces = 128;
/// The most bytes of frozen faces one process registers (Qt keeps each copy in memory).
inline constexpr qint64 kMaxFrozenBytes = 256LL * 1024 * 1024;
/// The largest font file a face is frozen from: a CJK collection (20 MiB and more) is
/// drawn without its features rather than copied.
inline constexpr qint64 kMaxFrozenFaceBytes = 16LL * 1024 * 1024;

/// The family to draw `family` with at CSS `weight` and `italic` when the run's
/// `features` are on: the internal family of the face Qt picks for them with the
/// FeatureSupport::Frozen features frozen in, registered on first use, or `family`
/// itself when there is nothing to freeze (no such feature, the face lacks them, the
/// face's file cannot be found or is larger than kMaxFrozenFaceBytes, or a process
/// bound is reached). Thread-safe; the first
/// call for a face and feature set reads the font file and registers the copy (a few ms),
/// later ones are a hash lookup.
QString frozenFamily(const QString &family, int weight, bool italic, const std::vector<FontFeature> &features);

/// How many frozen faces this process has registered (metrics, tests).
int frozenFaceCount();

} // namespace imprint::render
