#include "server/render/text/generic_family.h"

#include "server/render/text/font_fallback.h"

#include <QHash>

#include <fontconfig/fontconfig.h>

#include <memory>
#include <mutex>

namespace imprint::render {

namespace {

using PatternPtr = std::unique_ptr<FcPattern, decltype(&FcPatternDestroy)>;

/// The family of fontconfig's best match for `query` after its configured substitutions;
/// empty when there is none, or when `mustHave` (not 0) is a character the match lacks.
QString matchedFamily(FcPattern *query, char32_t mustHave = 0)
{
    FcConfigSubstitute(nullptr, query, FcMatchPattern);
    FcDefaultSubstitute(query);
    FcResult result = FcResultNoMatch;
    const PatternPtr match(FcFontMatch(nullptr, query, &result), &FcPatternDestroy);
    FcChar8 *family = nullptr;
    if (!match || FcPatternGetString(match.get(), FC_FAMILY, 0, &family) != FcResultMatch || !family)
        return {};
    FcCharSet *charset = nullptr;
    if (mustHave != 0
        && (FcPatternGetCharSet(match.get(), FC_CHARSET, 0, &charset) != FcResultMatch
            || !FcCharSetHasChar(charset, FcChar32(mustHave))))
        return {};
    return QString::fromUtf8(reinterpret_cast<const char *>(family));
}

/// fontconfig's best match for the family name `pattern` (what `fc-match sans-serif`
/// prints); empty when there is none.
QString fontconfigMatch(const char *pattern)
{
    const PatternPtr query(FcNameParse(reinterpret_cast<const FcChar8 *>(pattern)), &FcPatternDestroy);
    return query ? matchedFamily(query.get()) : QString();
}

/// fontconfig's best match for `generic` ("sans-serif", "serif") in the fontconfig
/// language `locale` for a text with U+4E00 (Blink's exemplar of Han); empty when none.
QString hanFamilyMatch(const char *generic, const QByteArray &locale)
{
    const PatternPtr query(FcPatternCreate(), &FcPatternDestroy);
    const std::unique_ptr<FcCharSet, decltype(&FcCharSetDestroy)> han(FcCharSetCreate(), &FcCharSetDestroy);
    if (!query || !han)
        return {};
    FcPatternAddString(query.get(), FC_FAMILY, reinterpret_cast<const FcChar8 *>(generic));
    FcPatternAddString(query.get(), FC_LANG, reinterpret_cast<const FcChar8 *>(locale.constData()));
    FcCharSetAddChar(han.get(), 0x4E00);
    FcPatternAddCharSet(query.get(), FC_CHARSET, han.get());
    return matchedFamily(query.get(), 0x4E00);
}

/// Whether fontconfig language `locale` (fallbackLocale()) is written with Han: Japanese and
/// Chinese. Not Korean: Chromium keeps the sans-serif face for a `ko` title (its Latin is
/// Noto Sans, not Noto Sans CJK KR's).
bool isHanLocale(const QByteArray &locale)
{
    const QByteArray primary = locale.left(locale.indexOf('-') < 0 ? locale.size() : locale.indexOf('-'));
    return primary == "ja" || primary == "zh";
}

QString resolve(const char *pattern, const char *fallback)
{
    const QString family = fontconfigMatch(pattern);
    return family.isEmpty() ? QString::fromLatin1(fallback) : family;
}

} // namespace

QString genericFamily(GenericFamily generic)
{
    // Function-local statics: initialised once, thread-safely, on first use.
    switch (generic) {
    case GenericFamily::SansSerif: {
        static const QString family = resolve("sans-serif", "DejaVu Sans");
        return family;
    }
    case GenericFamily::Serif: {
        static const QString family = resolve("serif", "DejaVu Serif");
        return family;
    }
    case GenericFamily::Monospace: {
        static const QString family = resolve("monospace", "DejaVu Sans Mono");
        return family;
    }
    }
    return QStringLiteral("DejaVu Sans");
}

QString genericFamily(GenericFamily generic, const QString &lang)
{
    if (lang.isEmpty() || generic == GenericFamily::Monospace)
        return genericFamily(generic);
    const QByteArray locale = fallbackLocale(lang);
    if (!isHanLocale(locale))
        return genericFamily(generic);
    static std::mutex mutex;
    static QHash<QByteArray, QString> families; // "s|zh-tw" → family; a handful of languages
    const QByteArray key = (generic == GenericFamily::Serif ? "s|" : "a|") + locale;
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = families.constFind(key);
    if (it == families.constEnd()) {
        QString family = hanFamilyMatch(generic == GenericFamily::Serif ? "serif" : "sans-serif", locale);
        if (family.isEmpty())
            family = genericFamily(generic);
        it = families.insert(key, family);
    }
    return *it;
}

} // namespace imprint::render
