#pragma once
// Small text helpers for messages shown to users.

#include <QString>
#include <QStringList>

#include <algorithm>
#include <vector>

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
        if (u >= 0x20 && u < 0x7f) // printable ASCII, the whole of most names: no lookup
            continue;
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

/// `text` made safe to write into one log line: a backslash becomes "\\", CR, LF and tab
/// become "\r", "\n" and "\t", and every other character firstUnsafeNameChar() names
/// (control characters, bidi overrides and isolates, BOM, noncharacters, lone surrogates)
/// becomes "\uXXXX". So a request cannot start a forged line in the log (CWE-117, OWASP
/// Logging Cheat Sheet "neutralise CR/LF"), nor reorder what a reader sees, and the
/// original stays recoverable. Returns `text` itself when there is nothing to escape.
inline QString logEscaped(const QString &text)
{
    qsizetype first = text.indexOf(QLatin1Char('\\'));
    const qsizetype unsafe = firstUnsafeNameChar(text);
    if (first < 0 || (unsafe >= 0 && unsafe < first))
        first = unsafe;
    if (first < 0)
        return text;
    QString out = text.left(first);
    out.reserve(text.size() + 16);
    for (qsizetype i = first; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\\')) {
            out += QLatin1String("\\\\");
        } else if (c == QLatin1Char('\n')) {
            out += QLatin1String("\\n");
        } else if (c == QLatin1Char('\r')) {
            out += QLatin1String("\\r");
        } else if (c == QLatin1Char('\t')) {
            out += QLatin1String("\\t");
        } else if (c.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            const qsizetype bad = firstUnsafeNameChar(text.mid(i, 2));
            if (bad < 0) {
                out += text.mid(i, 2);
            } else {
                out += QStringLiteral("\\u%1\\u%2")
                           .arg(uint(c.unicode()), 4, 16, QLatin1Char('0'))
                           .arg(uint(text.at(i + 1).unicode()), 4, 16, QLatin1Char('0'));
            }
            ++i;
        } else if (firstUnsafeNameChar(QString(c)) == 0) {
            out += QStringLiteral("\\u%1").arg(uint(c.unicode()), 4, 16, QLatin1Char('0'));
        } else {
            out += c;
        }
    }
    return out;
}

/// The optimal-string-alignment edit distance of `a` and `b`, case-insensitive: the
/// fewest insertions, deletions, substitutions and swaps of two neighbouring characters
/// (Damerau's four typing errors) that turn one into the other, each substring edited
/// once. "fromat" → "format" is 1 (a swap), where Levenshtein counts 2.
inline int editDistance(const QString &a, const QString &b)
{
    const QString x = a.toCaseFolded(), y = b.toCaseFolded();
    const qsizetype n = x.size(), m = y.size();
    std::vector<std::vector<int>> d(size_t(n + 1), std::vector<int>(size_t(m + 1)));
    for (qsizetype i = 0; i <= n; ++i)
        d[i][0] = int(i);
    for (qsizetype j = 0; j <= m; ++j)
        d[0][j] = int(j);
    for (qsizetype i = 1; i <= n; ++i) {
        for (qsizetype j = 1; j <= m; ++j) {
            const int cost = x.at(i - 1) == y.at(j - 1) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && x.at(i - 1) == y.at(j - 2) && x.at(i - 2) == y.at(j - 1))
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[n][m];
}

/// The name of `candidates` closest to `name` by editDistance(), for a "did you mean"
/// hint, or an empty string when none is near: at most 2 edits, and fewer edits than half
/// the longer name's length, so that two short names that merely share a letter are not
/// "near" ("ab" suggests nothing for "id"). Ties go to the earlier candidate.
inline QString closestName(const QString &name, const QStringList &candidates)
{
    QString best;
    int bestDistance = 3;
    for (const QString &c : candidates) {
        const int d = editDistance(name, c);
        if (d < bestDistance && 2 * d < std::max(name.size(), c.size())) {
            best = c;
            bestDistance = d;
        }
    }
    return best;
}

} // namespace imprint::common
