#pragma once
// Drawing one sanitised SVG document with librsvg (issue 28), in the sandboxed helper
// only (svg_raster_main.cpp). QtSvg 6.4, which drawSvgJob() uses, ignores `clipPath`,
// `mask` and `filter`, `<use>` of a `<symbol viewBox>`, `paint-order` and
// `vector-effect`: every icon Figma exports wraps its paths in `<g clip-path="url(#…)">`,
// and drop shadows are `<filter>`s. librsvg (Debian's 2.54, cairo) draws them as browsers
// do. It is never loaded into the server: untrusted SVG reaches it only here, under the
// helper's limits. Text is laid out by pango on fontconfig, which reads the hermetic
// configuration the server points FONTCONFIG_FILE at (hermetic_fonts.h; the variable is
// passed through the helper's environment, svg_sandbox.cpp).

#include "server/common/expected.h"
#include "server/render/resources/svg_raster.h"

#include <QByteArray>
#include <QString>

namespace imprint::render {

/// Draws `job` as drawSvgJob() does — the same sizes (the natural size: the root's absolute
/// width and height, else its viewBox's size, else 300×150 px), the same placement (a
/// stretched viewBox for Natural and Stretch, the root's preserveAspectRatio for the
/// viewport modes), premultiplied ARGB32 on a transparent background — but with librsvg,
/// and returns the helper's answer of it (encodeSvgRasterPixels()). Errors (one sentence):
/// librsvg cannot read or draw the document, the size is over the job's bounds (checked
/// before any pixel is allocated), or out of memory.
common::Expected<QByteArray, QString> drawSvgJobWithRsvg(const SvgRasterJob &job);

} // namespace imprint::render
