// Line breaks in the scripts written without spaces between words (Thai, Lao, Khmer,
// Myanmar: UAX #14 class SA) as Chromium finds them: ICU's line BreakIterator with its
// dictionaries, made explicit for Qt's line breaker with invisible break controls.

#include "server/render/text/text_internal.h"

#include <QHash>
#include <QTextBoundaryFinder>

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <memory>
#include <vector>

namespace imprint::render::text_detail {

namespace {

/// Whether `c` (a UTF-16 code unit: all four scripts are in the BMP) is in the Thai, Lao,
/// Myanmar or Khmer blocks, whose words ICU finds with a dictionary.
bool isDictionaryScriptUnit(char16_t c)
{
    return (c >= 0x0E00 && c <= 0x0EFF)    // Thai, Lao
           || (c >= 0x1000 && c <= 0x109F) // Myanmar
           || (c >= 0x1780 && c <= 0x17FF) // Khmer
           || (c >= 0x19E0 && c <= 0x19FF) // Khmer Symbols
           || (c >= 0xA9E0 && c <= 0xA9FF) // Myanmar Extended-B
           || (c >= 0xAA60 && c <= 0xAA7F); // Myanmar Extended-A
}

/// A line BreakIterator for `lang` (BCP 47; the root locale when empty), from a
/// per-thread prototype per language: creating one loads its rules (about 0.1 ms),
/// cloning does not.
std::unique_ptr<icu::BreakIterator> lineIteratorFor(const QString &lang)
{
    thread_local QHash<QString, std::shared_ptr<icu::BreakIterator>> prototypes;
    auto it = prototypes.constFind(lang);
    if (it == prototypes.constEnd()) {
        UErrorCode status = U_ZERO_ERROR;
        const icu::Locale locale
            = lang.isEmpty() ? icu::Locale::getRoot() : icu::Locale::forLanguageTag(lang.toStdString(), status);
        if (U_FAILURE(status))
            status = U_ZERO_ERROR;
        std::shared_ptr<icu::BreakIterator> iterator(
            icu::BreakIterator::createLineInstance(U_SUCCESS(status) ? locale : icu::Locale::getRoot(), status));
        if (U_FAILURE(status))
            iterator.reset();
        if (prototypes.size() > 64)
            prototypes.clear();
        it = prototypes.insert(lang, iterator);
    }
    return *it ? std::unique_ptr<icu::BreakIterator>((*it)->clone()) : nullptr;
}

constexpr QChar kZeroWidthSpace(0x200B);
constexpr QChar kGlue(0x180E); // MONGOLIAN VOWEL SEPARATOR, see withDictionaryBreaks()

} // namespace

bool hasDictionaryScript(QStringView text)
{
    for (const QChar c : text) {
        if (isDictionaryScriptUnit(c.unicode()))
            return true;
    }
    return false;
}

QString withDictionaryBreaks(const QString &text, const QString &lang)
{
    if (!hasDictionaryScript(text))
        return text;
    const qsizetype n = text.size();
    std::unique_ptr<icu::BreakIterator> icuBreaks = lineIteratorFor(lang);
    if (!icuBreaks)
        return text;
    // Chromium's opportunities: ICU's, its dictionary splitting the runs of these scripts.
    std::vector<bool> icuBreak(size_t(n) + 1, false);
    const icu::UnicodeString utext(false, reinterpret_cast<const UChar *>(text.utf16()), int32_t(n));
    icuBreaks->setText(utext);
    for (int32_t p = icuBreaks->first(); p != icu::BreakIterator::DONE; p = icuBreaks->next())
        icuBreak[size_t(p)] = true;
    // The positions this decides: between two grapheme clusters with a character of these
    // scripts on either side, and never inside a syllable, so shaping is unchanged: not
    // before a vowel sign, tone mark or medial (a Thai vowel stays on its consonant), nor
    // after a stacker (a Myanmar or Khmer subscript consonant stays under its own). A
    // control there splits the syllable for HarfBuzz, which draws dotted circles (Qt 6.4
    // ends a grapheme between a Myanmar consonant and its medial ra, "မ|ြ", and Unicode
    // one before the vowel sign aa, "မျ|ာ").
    const auto insideSyllable = [&](qsizetype p) {
        const char16_t before = text.at(p - 1).unicode();
        switch (text.at(p).category()) {
        case QChar::Mark_NonSpacing:
        case QChar::Mark_SpacingCombining:
        case QChar::Mark_Enclosing: return true;
        default: break;
        }
        return before == 0x1039 || before == 0x17D2; // Myanmar virama, Khmer coeng
    };
    std::vector<qsizetype> scope;
    {
        QTextBoundaryFinder graphemes(QTextBoundaryFinder::Grapheme, text);
        for (qsizetype p = graphemes.toNextBoundary(); p > 0 && p < n; p = graphemes.toNextBoundary()) {
            if ((isDictionaryScriptUnit(text.at(p - 1).unicode()) || isDictionaryScriptUnit(text.at(p).unicode()))
                && !insideSyllable(p))
                scope.push_back(p);
        }
    }
    if (scope.empty())
        return text;
    // What goes before text[scope[k]]: nothing, a zero-width space (a break), the glue
    // (none, or a break after a space), or both (a break at the start of a Thai run).
    enum class Control { None, Break, Glue, BreakAtRunStart };
    std::vector<Control> controls(scope.size(), Control::None);
    const auto build = [&](std::vector<qsizetype> *gapStart) {
        QString out;
        out.reserve(n + qsizetype(scope.size()));
        qsizetype from = 0;
        for (size_t k = 0; k < scope.size(); ++k) {
            out += QStringView(text).mid(from, scope[k] - from);
            from = scope[k];
            if (gapStart)
                (*gapStart)[k] = out.size();
            switch (controls[k]) {
            case Control::None: break;
            case Control::Break: out += kZeroWidthSpace; break;
            case Control::Glue: out += kGlue; break;
            case Control::BreakAtRunStart:
                out += kZeroWidthSpace;
                out += kGlue;
                break;
            }
        }
        out += QStringView(text).mid(from);
        return out;
    };
    // Qt's breaker is asked where it breaks the text with the controls so far, and each
    // position where it disagrees with ICU gets a control, until they agree: a control
    // splits the runs Qt hands to libthai, which then may break them elsewhere. Three
    // rounds settle every text tried; a fourth is a safety margin.
    std::vector<qsizetype> gapStart(scope.size());
    for (int round = 0; round < 4; ++round) {
        const QString current = build(&gapStart);
        QTextBoundaryFinder qtBreaks(QTextBoundaryFinder::Line, current);
        bool changed = false;
        for (size_t k = 0; k < scope.size(); ++k) {
            // The controls have no advance: a break anywhere between the two clusters is one
            // between them.
            const qsizetype controlLength = controls[k] == Control::None              ? 0
                                            : controls[k] == Control::BreakAtRunStart ? 2
                                                                                      : 1;
            bool qtBreak = false;
            for (qsizetype p = gapStart[k]; p <= gapStart[k] + controlLength && !qtBreak; ++p) {
                qtBreaks.setPosition(p);
                qtBreak = qtBreaks.isAtBoundary();
            }
            const bool wanted = icuBreak[size_t(scope[k])];
            if (qtBreak == wanted)
                continue;
            // After a space the glue alone is a break (UAX #14 LB18), and the space stays the
            // line's trailing one; a U+200B after it would keep it on the line.
            if (wanted && controls[k] == Control::None)
                controls[k] = text.at(scope[k] - 1).isSpace() ? Control::Glue : Control::Break;
            else if (wanted && controls[k] == Control::Break)
                controls[k] = Control::BreakAtRunStart;
            else if (!wanted && controls[k] == Control::None)
                controls[k] = Control::Glue;
            else
                continue; // nothing more to try here
            changed = true;
        }
        if (!changed)
            break;
    }
    return build(nullptr);
}

} // namespace imprint::render::text_detail
