#pragma once
// Small text helpers for messages shown to users.

#include <QString>
#include <QStringList>

namespace imprint::common {

/// The names as an English list for an error message: "a", "a or b", "a, b or c".
inline QString orList(const QStringList &names)
{
    if (names.size() < 2)
        return names.join(QString());
    return names.mid(0, names.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" or ") + names.last();
}

/// The first character of `text` that has no place in a name shown in lists and logs, or
/// -1 when there is none: control characters (C0, DEL, C1), bidi embeddings, overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069: they reorder the text around the name, as in
/// "Trojan Source"), the byte-order mark, unpaired surrogates and noncharacters.
inline qsizetype firstUnsafeNameChar(const QString &text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        const char16_t u = c.unicode();
        if (c.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            const char32_t code = QChar::surrogateToUcs4(c, text.at(i + 1));
            if ((code & 0xfffe) == 0xfffe)
                return i;
            ++i;
            continue;
        }
        if (c.isSurrogate() || c.category() == QChar::Other_Control || (u >= 0x202a && u <= 0x202e)
            || (u >= 0x2066 && u <= 0x2069) || u == 0xfeff || u == 0xfffe || u == 0xffff || (u >= 0xfdd0 && u <= 0xfdef))
            return i;
    }
    return -1;
}

} // namespace imprint::common
