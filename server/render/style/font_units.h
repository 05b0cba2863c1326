#pragma once
// The font-relative lengths that depend on the font's own glyphs, `ch` and `ex` (CSS
// Values 4 §6.1.1). Style resolves them to px while it computes an element's style, but
// measuring a glyph is the text module's business and text sits above style: the text
// module installs its measure here once per process (text/text_engine.cpp), and style
// asks through fontUnitSizes().

#include <QList>
#include <QStringList>
#include <QStringView>

namespace imprint::render {

struct ComputedStyle;

/// The px sizes of 1ch and 1ex for one computed font, and the first available font's
/// ascent and descent (what SVG text's baseline keywords are measured from,
/// svg_text_baseline.h).
struct FontUnitSizes {
    qreal ch = 0; ///< the advance of "0" (U+0030) in the first available font
    qreal ex = 0; ///< the first available font's x-height
    qreal ascent = 0; ///< above the alphabetic baseline, unrounded
    qreal descent = 0; ///< below it, positive, unrounded
};

/// Measures FontUnitSizes for a style's font-family list, font-size, weight and style.
using FontUnitMeasure = FontUnitSizes (*)(const ComputedStyle &style);

/// Installs the process-wide measure (the text module's; null: none). Thread-safe.
void setFontUnitMeasure(FontUnitMeasure measure);

/// 1ch and 1ex for `style`: the installed measure's answer, or with none installed (a
/// build of style alone) 0.5em each, the value CSS Values 4 §6.1.1 assumes when the
/// font cannot be measured, and an ascent of 0.8em over a descent of 0.2em.
FontUnitSizes fontUnitSizes(const ComputedStyle &style);

/// The advances of `clusters` (grapheme clusters, in order) shaped as one run in a style's
/// font: each cluster's share of the run's width, px, kerning between clusters included,
/// letter-spacing not. What the writer of an inline svg lays text along a <textPath>
/// with (svg_text_path.h), which librsvg does not draw.
using ClusterAdvanceMeasure = QList<qreal> (*)(const ComputedStyle &style, const QStringList &clusters);

/// Installs the process-wide cluster measure (the text module's; null: none). Thread-safe.
void setClusterAdvanceMeasure(ClusterAdvanceMeasure measure);

/// The installed measure's advances of `clusters` in `style`'s font, or with none
/// installed 0.5em each.
QList<qreal> clusterAdvances(const ComputedStyle &style, const QStringList &clusters);

/// True when a declaration's `text` may hold a ch or ex length: a digit or '.' right
/// before "ch"/"ex" (any case), so `display: flex` or a family "Chalet" measure nothing.
bool mayHoldFontUnit(QStringView text);

} // namespace imprint::render
