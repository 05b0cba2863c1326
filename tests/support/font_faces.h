#pragma once
// Test fonts as a space's uploads: `@font-face` rules for the html engine's suites
// (tst_html_chromium_load, tst_html_chromium_spaces; a data: URL, so the page needs no
// request), and faces registered as the server registers an upload (uploadedFace()).

#include "server/render/resources/font_file.h"
#include "server/render/text/font_set.h"

#include <QCryptographicHash>
#include <QFile>
#include <QString>

#include <optional>

namespace imprint::test {

/// An `@font-face` rule for family `family` from font file `path` as a data: URL, empty
/// when the file cannot be read.
inline QString fontFaceRule(const QString &family, const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QStringLiteral("@font-face{font-family:%1;src:url(data:font/ttf;base64,%2)}")
        .arg(family, QString::fromLatin1(f.readAll().toBase64()));
}

/// The font file `path` (TTF, OTF, WOFF or WOFF2) decoded, renamed to its internal family
/// and registered as the server does with an upload, as the face of `family` at `weight`
/// (normal style); nullopt when any step fails.
inline std::optional<render::FontFace> uploadedFace(const QString &path, const QString &family, int weight = 400)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = file.readAll();
    const QString sha256 = QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    const auto sfnt = render::decodeFontToSfnt(bytes);
    const auto renamed = sfnt ? render::renameSfntFamily(*sfnt, render::internalFamilyFor(sha256)) : sfnt;
    if (!renamed || !render::registerFontFace(sha256, *renamed))
        return std::nullopt;
    return render::FontFace{family, weight, false, render::internalFamilyFor(sha256)};
}

} // namespace imprint::test
