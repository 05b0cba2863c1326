#pragma once
// `@font-face` rules for the html engine's suites (tst_html_chromium_load,
// tst_html_chromium_spaces): a test font as a data: URL, so the page needs no request.

#include <QFile>
#include <QString>

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

} // namespace imprint::test
