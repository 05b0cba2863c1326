#pragma once
// The space's uploaded faces a job carries (svg_raster.h, SvgRasterFont), made visible to
// librsvg's text, which finds fonts through fontconfig only.

#include "server/render/resources/svg_raster.h"

namespace imprint::render {

/// Adds `fonts` to fontconfig's current configuration as application fonts, before
/// anything draws text (pango reads the configuration when it first lays out text):
/// each face's bytes in a memory file, renamed at scan time to one alias family per
/// template family (so a template family that is also a server font's name still finds
/// the upload first), with the face's weight and slant unless it is variable, and a
/// pattern rule that puts the alias first wherever a document names the template family
/// (fontconfig's <match target="scan"> and <match target="pattern">, fonts-conf(5)).
/// Returns the faces fontconfig could not read; those fall back as unknown families do.
int addJobFonts(const QList<SvgRasterFont> &fonts);

} // namespace imprint::render
