// text-transform applied to a run's characters (see text_transform.h).

#include "server/render/style/text_transform.h"

#include "server/render/style/keywords.h"
#include "server/render/style/style_builder.h"

#include <QLocale>
#include <QTextBoundaryFinder>

#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <optional>

namespace imprint::render {

namespace {

/// `text` upper- or lowercased by ICU for a language whose case mapping is its own (CSS
/// Text 3 §2.1: "language-sensitive"), as Blink maps it with the element's locale:
/// Turkish and Azeri dotted and dotless i ("istanbul" → "İSTANBUL"), Greek capitals
/// without their accents ("άλφα" → "ΑΛΦΑ"), Lithuanian dots. Nullopt for other languages.
std::optional<QString> languageCaseMapped(const QString &text, const QString &lang, bool upper)
{
    const QString tag = lang.trimmed().toLower();
    const QString primary = tag.section(u'-', 0, 0);
    if (primary != QLatin1String("tr") && primary != QLatin1String("az") && primary != QLatin1String("el")
        && primary != QLatin1String("lt"))
        return std::nullopt;
    UErrorCode status = U_ZERO_ERROR;
    const icu::Locale locale = icu::Locale::forLanguageTag(tag.toStdString(), status);
    if (U_FAILURE(status))
        return std::nullopt;
    icu::UnicodeString s(reinterpret_cast<const UChar *>(text.utf16()), int32_t(text.size()));
    if (upper)
        s.toUpper(locale);
    else
        s.toLower(locale);
    return QString(reinterpret_cast<const QChar *>(s.getBuffer()), s.length());
}

} // namespace

QString applyTransform(const QString &text, TextTransform transform, const QString &lang)
{
    switch (transform) {
    case TextTransform::Uppercase:
        if (auto mapped = languageCaseMapped(text, lang, true))
            return *mapped;
        return text.toUpper();
    // ICU's full case mapping (QLocale, not QString's per-character one): a Greek capital
    // sigma at the end of a word lowers to final ς, as in Chromium ("ΟΔΟΣ" → "οδος").
    case TextTransform::Lowercase:
        if (auto mapped = languageCaseMapped(text, lang, false))
            return *mapped;
        return QLocale::c().toLower(text);
    case TextTransform::Capitalize: {
        // Blink's Capitalize(): the first character of every UAX #29 word segment is
        // titlecased, so words after punctuation and hyphens count too ("(in" → "(In",
        // "x-ray" → "X-Ray") while "don't" stays one word.
        QString out = text;
        QTextBoundaryFinder words(QTextBoundaryFinder::Word, text);
        for (qsizetype start = 0; start >= 0 && start < out.size(); start = words.toNextBoundary()) {
            words.setPosition(start);
            const qsizetype units = start + 1 < out.size() && out.at(start).isHighSurrogate()
                                            && out.at(start + 1).isLowSurrogate()
                                        ? 2
                                        : 1;
            const char32_t c = units == 2 ? QChar::surrogateToUcs4(out.at(start), out.at(start + 1)) : out.at(start).unicode();
            const char32_t title = QChar::toTitleCase(c);
            if (title == c)
                continue;
            if (units == 2 && QChar::requiresSurrogates(title)) {
                out[start] = QChar::highSurrogate(title);
                out[start + 1] = QChar::lowSurrogate(title);
            } else if (units == 1 && !QChar::requiresSurrogates(title)) {
                out[start] = QChar(title);
            }
        }
        return out;
    }
    case TextTransform::None: break;
    }
    return text;
}

std::optional<TextTransform> textTransformKeyword(const QString &keyword)
{
    return style_detail::keyword<TextTransform>(keyword, style_detail::TextTransformKeywords::list);
}

QString textTransformName(TextTransform transform)
{
    for (const auto &entry : style_detail::TextTransformKeywords::list)
        if (entry.value == transform)
            return QLatin1String(entry.name);
    return {};
}

} // namespace imprint::render
