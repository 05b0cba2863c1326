#include "server/render/resources/hyphenation.h"

#include <QFile>
#include <QHash>
#include <QMutex>
#include <QVarLengthArray>

#include <hyphen.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>

namespace imprint::render {

namespace {

constexpr char16_t kSoftHyphen = 0x00AD;
// Blink's defaults for `hyphenate-limit-chars: auto` (Hyphenation::Initialize).
constexpr qsizetype kMinWordLength = 5;
constexpr qsizetype kMinPrefixLength = 2;
constexpr qsizetype kMinSuffixLength = 2;

struct DictionaryDeleter {
    void operator()(HyphenDict *dict) const { hnj_hyphen_free(dict); }
};
using Dictionary = std::unique_ptr<HyphenDict, DictionaryDeleter>;

/// The loaded dictionary of `path`, or null when it cannot be loaded. Loaded once: a
/// HyphenDict is only read after loading, so the threads share it.
const HyphenDict *dictionary(const QString &path)
{
    static QMutex mutex;
    static std::map<QString, Dictionary> loaded; // a path that failed maps to null
    const QMutexLocker lock(&mutex);
    auto it = loaded.find(path);
    if (it == loaded.end()) {
        Dictionary dict(hnj_hyphen_load(QFile::encodeName(path).constData()));
        // The file's LEFTHYPHENMIN/RIGHTHYPHENMIN (2 and 3 for English) are libhyphen's
        // own limits; Blink's (2 and 2) are applied in hyphenateWord() instead, on the
        // patterns' raw opportunities as Chromium's dictionary holds them.
        if (dict)
            dict->lhmin = dict->rhmin = 0;
        it = loaded.emplace(path, std::move(dict)).first;
    }
    return it->second.get();
}

/// Spaces and forced breaks: what separates the words the line breaker sees.
bool isWordBoundary(QChar c)
{
    return c.isSpace() || c == QChar::LineSeparator || c == QChar::ParagraphSeparator || c == u'\u200B';
}

/// Characters after which a line may break inside a run of non-spaces (UAX #14 BA and HY
/// hyphens, the solidus): "well-known" is the words "well-" and "known" to the breaker.
bool isBreakAfter(QChar c)
{
    return c == u'-' || c == u'\u2010' || c == u'\u2013' || c == u'\u2014' || c == u'/';
}

/// Blink's ShouldSkipLeadingChar: spaces, opening punctuation and quotation marks.
bool skipsLeading(QChar c)
{
    const QChar::Category cat = c.category();
    return c.isSpace() || cat == QChar::Punctuation_Open || cat == QChar::Punctuation_InitialQuote
           || cat == QChar::Punctuation_FinalQuote || c == u'"' || c == u'\'';
}

/// Blink's ShouldSkipTrailingChar: space separators, any punctuation, control characters.
bool skipsTrailing(QChar c)
{
    switch (c.category()) {
    case QChar::Separator_Space:
    case QChar::Punctuation_Connector:
    case QChar::Punctuation_Dash:
    case QChar::Punctuation_Open:
    case QChar::Punctuation_Close:
    case QChar::Punctuation_InitialQuote:
    case QChar::Punctuation_FinalQuote:
    case QChar::Punctuation_Other:
    case QChar::Other_Control: return true;
    default: return false;
    }
}

/// Appends `word` to `out` with soft hyphens at its opportunities.
void hyphenateWord(const HyphenDict *dict, QStringView word, QString &out)
{
    const qsizetype letters = word.size();
    const bool lettersOnly = std::all_of(word.begin(), word.end(), [](QChar c) { return c.isLetter(); });
    if (letters < kMinWordLength || !lettersOnly || word.front().isUpper()) {
        out += word;
        return;
    }
    // libhyphen matches a UTF-8 dictionary's lower-case patterns against the word's
    // bytes and answers per byte: hyphens[b] odd = an opportunity after byte b. A word
    // whose lower case is not one byte per character (beyond ASCII) is left whole.
    const QByteArray utf8 = word.toString().toLower().toUtf8();
    if (utf8.size() != letters) {
        out += word;
        return;
    }
    QVarLengthArray<char, 64> hyphens(utf8.size() + 5);
    char **rep = nullptr;
    int *pos = nullptr;
    int *cut = nullptr;
    const int failed = hnj_hyphen_hyphenate2(const_cast<HyphenDict *>(dict), utf8.constData(), int(utf8.size()),
                                             hyphens.data(), nullptr, &rep, &pos, &cut);
    // Non-standard (replacing) patterns allocate these; the English ones never do.
    if (rep) {
        for (qsizetype b = 0; b < utf8.size(); ++b)
            std::free(rep[b]);
    }
    std::free(rep);
    std::free(pos);
    std::free(cut);
    if (failed) {
        out += word;
        return;
    }
    for (qsizetype i = 0; i < letters; ++i) {
        out += word[i];
        const qsizetype before = i + 1;
        if ((hyphens[i] & 1) && before >= kMinPrefixLength && letters - before >= kMinSuffixLength)
            out += QChar(kSoftHyphen);
    }
}

} // namespace

QString hyphenationDictionaryPath(const QString &lang)
{
    // Blink's locale mapping (HyphenationMinikin::MapLocale): the tag, then ever shorter
    // prefixes of it, looked up in CLDR's fallbacks; exactly "en" is American English,
    // any other English not listed there British. No `lang`, no hyphenation (Blink asks
    // the element's locale, and a page without one has none).
    static const QHash<QString, QString> fallback{
        {QStringLiteral("en-as"), QStringLiteral("en-us")}, {QStringLiteral("en-gu"), QStringLiteral("en-us")},
        {QStringLiteral("en-mh"), QStringLiteral("en-us")}, {QStringLiteral("en-mp"), QStringLiteral("en-us")},
        {QStringLiteral("en-pr"), QStringLiteral("en-us")}, {QStringLiteral("en-um"), QStringLiteral("en-us")},
        {QStringLiteral("en-vi"), QStringLiteral("en-us")}, {QStringLiteral("en-us"), QStringLiteral("en-us")},
        {QStringLiteral("en-gb"), QStringLiteral("en-gb")}, {QStringLiteral("en"), QStringLiteral("en-gb")},
    };
    const QString tag = lang.trimmed().toLower().replace(u'_', u'-');
    if (tag.isEmpty())
        return {};
    QString mapped;
    for (QString prefix = tag; mapped.isEmpty();) {
        if (const auto it = fallback.constFind(prefix); it != fallback.constEnd())
            mapped = prefix == QLatin1String("en") && tag == QLatin1String("en") ? QStringLiteral("en-us") : *it;
        const qsizetype dash = prefix.lastIndexOf(u'-');
        if (!mapped.isEmpty() || dash <= 0)
            break;
        prefix.truncate(dash);
    }
    // The patterns of the hyphen-* packages scripts/deps installs, and nothing the host
    // may have besides: a render must not change with the host's packages.
    return mapped == QLatin1String("en-us") ? QStringLiteral("/usr/share/hyphen/hyph_en_US.dic") : QString();
}

QString insertSoftHyphens(const QString &text, const QString &lang, bool endsParagraph)
{
    const QString path = hyphenationDictionaryPath(lang);
    if (path.isEmpty())
        return text;
    const HyphenDict *dict = dictionary(path);
    if (!dict)
        return text;
    QString out;
    out.reserve(text.size() + text.size() / 4);
    qsizetype i = 0;
    while (i < text.size()) {
        if (isWordBoundary(text[i])) {
            out += text[i++];
            continue;
        }
        // Blink hyphenates the text between two break opportunities, less its leading
        // spaces, opening punctuation and quotes and its trailing punctuation
        // (HyphenationMinikin::WordToHyphenate); what is left must be letters only, or
        // the patterns' alphabet refuses it whole.
        qsizetype end = i;
        while (end < text.size() && !isWordBoundary(text[end])) {
            if (isBreakAfter(text[end++]))
                break;
        }
        qsizetype first = i, last = end;
        while (first < last && skipsLeading(text[first]))
            ++first;
        while (last > first && skipsTrailing(text[last - 1]))
            --last;
        out += QStringView(text).mid(i, first - i);
        const bool lastWord = endsParagraph && std::all_of(text.begin() + end, text.end(), isWordBoundary);
        if (lastWord)
            out += QStringView(text).mid(first, last - first);
        else
            hyphenateWord(dict, QStringView(text).mid(first, last - first), out);
        out += QStringView(text).mid(last, end - last);
        i = end;
    }
    return out;
}

} // namespace imprint::render
