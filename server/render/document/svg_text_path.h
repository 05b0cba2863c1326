#pragma once
// Text on a path (SVG 2 §11.8, https://www.w3.org/TR/SVG2/text.html#TextLayoutPath), laid
// out by the writer of an inline <svg> (inline_svg.cpp): librsvg 2.54, which draws the
// layout engines' svgs, does not draw <textPath> at all (curved text on a badge or a
// stamp came out blank, where Chromium and resvg draw it). Each grapheme cluster is
// written as a text of its own, its middle on the path and turned to the path's direction.

#include "server/render/document/svg_text_baseline.h"

#include <QList>
#include <QPainterPath>
#include <QPointF>
#include <QString>

namespace imprint::render {

/// One grapheme cluster placed on a path.
struct PathGlyph {
    QString text;
    QPointF middle; ///< where the middle of its advance sits on the path, user units
    double angle = 0; ///< the path's direction there, degrees clockwise (user space is y-down)
};

/// What a <textPath> lays out: its text, the font, and where along the path it starts.
struct TextOnPath {
    QString text; ///< the character data, white space collapsed as SVG's default does
    SvgTextFont font;
    double letterSpacing = 0; ///< user units, after every cluster
    double startOffset = 0; ///< user units along the path
    QString anchor; ///< text-anchor: start (or empty), middle or end
};

/// `run` laid along `path`: clusters advance (measured in the font by the text module,
/// font_units.h, clusterAdvances()) from the start offset, the run's middle or end placed
/// there for text-anchor middle or end; a cluster whose middle falls before the path's
/// start or past its end is not drawn (SVG 2 §11.8.3). Empty when the path has no length.
QList<PathGlyph> layOutOnPath(const QPainterPath &path, const TextOnPath &run);

/// `text`'s grapheme clusters (UAX #29), in order.
QStringList graphemeClusters(const QString &text);

/// Each of `clusters`' advance in user units as one run of svg text in `font` (measured by
/// the text module, font_units.h, clusterAdvances()), `letterSpacing` after each; an
/// emoji cluster takes the emoji font's own advance (emojiAdvanceCorrection()), as the
/// helper's shaping and Chromium give it.
QList<double> svgTextAdvances(const QStringList &clusters, const SvgTextFont &font, double letterSpacing);

/// A startOffset attribute against a path `length` user units long: a number or px
/// length, or a percentage of the length; 0 when it is neither.
double startOffsetAlong(const QString &offset, double length);

} // namespace imprint::render
