#pragma once
// Hermetic fonts: every Imprint process renders with the fonts of its own Debian packages
// and nothing else the host has installed (docs/deployment.md#fonts). Left to the host's
// /etc/fonts/fonts.conf, installing ImageMagick (Ghostscript's fonts-urw-base35) made
// `Arial` Nimbus Sans instead of Noto Sans, so two instances of one cluster answered the
// same signed URL with different bytes and ETags. Instead fontconfig reads
// resources/fontconfig/fonts.conf (written by scripts/gen-fonts-conf, compiled in): the
// font files of exactly those packages, and the rules Debian 12 enables for them, without
// the user's or the host's own fonts and rules.

#include <QByteArray>
#include <QString>

namespace imprint::render {

/// The fontconfig configuration Imprint renders with (resources/fontconfig/fonts.conf as
/// compiled into the binary).
QByteArray hermeticFontConfig();

/// Writes hermeticFontConfig() to a file and points FONTCONFIG_FILE at it, so that
/// fontconfig in this process (Qt's font database, the text engine's own queries) and in
/// its children (the html engine's Chromium inherits the environment) reads only it.
/// Takes effect only before fontconfig first initialises, so it runs during static
/// initialisation of every process that links the text engine; later calls return the
/// same answer. The file is DIR/imprint/fontconfig/fonts-HASH.conf in the user's cache
/// ($XDG_CACHE_HOME or ~/.cache), written once per content, else (a read-only home, as
/// under the systemd unit, or root, whose Chromium runs as imprint-browser and cannot enter
/// root's home) in $TMPDIR/imprint-fonts-UID, kept and shared by the user's processes
/// (a private temporary directory removed at exit when another user holds that name).
/// Returns the
/// file's path; empty when IMPRINT_SYSTEM_FONTS=1 asked for the host's configuration
/// instead (comparisons only: renders then depend on the host again), or when no file
/// could be written (a warning on standard error says so).
QString useHermeticFonts();

} // namespace imprint::render
