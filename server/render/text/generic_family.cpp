#include "server/render/text/generic_family.h"

#include <QHash>

#include <fontconfig/fontconfig.h>
#include <unicode/locid.h>

#include <array>
#include <memory>
#include <mutex>
#include <string_view>

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

/// Whether fontconfig knows an installed face of `family`.
bool isInstalled(const char *family)
{
    const PatternPtr query(FcPatternCreate(), &FcPatternDestroy);
    const std::unique_ptr<FcObjectSet, decltype(&FcObjectSetDestroy)> objects(FcObjectSetBuild(FC_FAMILY, nullptr),
                                                                              &FcObjectSetDestroy);
    if (!query || !objects)
        return false;
    FcPatternAddString(query.get(), FC_FAMILY, reinterpret_cast<const FcChar8 *>(family));
    const std::unique_ptr<FcFontSet, decltype(&FcFontSetDestroy)> set(FcFontList(nullptr, query.get(), objects.get()),
                                                                      &FcFontSetDestroy);
    return set && set->nfont > 0;
}

/// The scripts Chromium's default font preferences name families for.
enum class PreferenceScript { None, Japanese, Korean, SimplifiedHan, TraditionalHan, HongKongHan, Devanagari };

/// The script Blink chooses fonts for text in `lang` with (LayoutLocale::GetScript():
/// the language's likely script, ICU's addLikelySubtags(); Han by script or region).
/// Traditional Han in Hong Kong or Macao is its own: Blink draws it with the Traditional
/// Chinese family shaped for the language, whose `locl` forms are the Hong Kong face's
/// defaults; Qt shapes without a language, so those languages take the Hong Kong face.
PreferenceScript preferenceScript(const QString &lang)
{
    UErrorCode status = U_ZERO_ERROR;
    icu::Locale locale = icu::Locale::forLanguageTag(lang.trimmed().toStdString(), status);
    if (U_FAILURE(status))
        return PreferenceScript::None;
    locale.addLikelySubtags(status);
    if (U_FAILURE(status))
        return PreferenceScript::None;
    const std::string_view script = locale.getScript();
    if (script == "Jpan")
        return PreferenceScript::Japanese;
    if (script == "Kore" || script == "Hang")
        return PreferenceScript::Korean;
    if (script == "Hans")
        return PreferenceScript::SimplifiedHan;
    if (script == "Hant") {
        const std::string_view region = locale.getCountry();
        return region == "HK" || region == "MO" ? PreferenceScript::HongKongHan : PreferenceScript::TraditionalHan;
    }
    if (script == "Deva")
        return PreferenceScript::Devanagari;
    return PreferenceScript::None;
}

/// Chromium's default font preferences for `script` (its locale settings,
/// IDS_{STANDARD,SANS_SERIF,SERIF,FIXED}_FONT_FAMILY_<script>, as the Linux build ships
/// them): for each of standard, sans-serif, serif and monospace, the candidates in order,
/// of which Blink takes the first installed one (GenericFontFamilySettings: a list starting
/// with "," is FontCache::FirstAvailableOrFirst()). An empty list: no preference.
struct ScriptPreferences {
    std::array<const char *, 2> standard, sansSerif, serif, monospace;
};

/// Which of a script's preferences (ScriptPreferences) a family is asked for.
enum class PreferenceSlot { Standard, SansSerif, Serif, Monospace };

const ScriptPreferences *preferencesFor(PreferenceScript script)
{
    static constexpr ScriptPreferences japanese{{"Noto Sans JP", "Noto Sans CJK JP"},
                                                {"Noto Sans JP", "Noto Sans CJK JP"},
                                                {"Noto Serif JP", "Noto Serif CJK JP"},
                                                {"Noto Sans Mono CJK JP", nullptr}};
    static constexpr ScriptPreferences korean{{"Noto Sans KR", "Noto Sans CJK KR"},
                                              {"Noto Sans KR", "Noto Sans CJK KR"},
                                              {"Noto Serif KR", "Noto Serif CJK KR"},
                                              {nullptr, nullptr}};
    static constexpr ScriptPreferences simplified{{"Noto Sans SC", "Noto Sans CJK SC"},
                                                  {"Noto Sans SC", "Noto Sans CJK SC"},
                                                  {"Noto Serif SC", "Noto Serif CJK SC"},
                                                  {nullptr, nullptr}};
    static constexpr ScriptPreferences traditional{{"Noto Sans TC", "Noto Sans CJK TC"},
                                                   {"Noto Sans TC", "Noto Sans CJK TC"},
                                                   {"Noto Serif TC", "Noto Serif CJK TC"},
                                                   {nullptr, nullptr}};
    static constexpr ScriptPreferences hongKong{{"Noto Sans HK", "Noto Sans CJK HK"},
                                                {"Noto Sans HK", "Noto Sans CJK HK"},
                                                {"Noto Serif HK", "Noto Serif CJK HK"},
                                                {nullptr, nullptr}};
    static constexpr ScriptPreferences devanagari{{"Noto Sans Devanagari", nullptr},
                                                  {"Noto Sans Devanagari", nullptr},
                                                  {"Noto Serif Devanagari", nullptr},
                                                  {nullptr, nullptr}};
    switch (script) {
    case PreferenceScript::Japanese: return &japanese;
    case PreferenceScript::Korean: return &korean;
    case PreferenceScript::SimplifiedHan: return &simplified;
    case PreferenceScript::TraditionalHan: return &traditional;
    case PreferenceScript::HongKongHan: return &hongKong;
    case PreferenceScript::Devanagari: return &devanagari;
    case PreferenceScript::None: break;
    }
    return nullptr;
}

/// What the preference `slot` of `lang`'s script resolves to: its first installed
/// candidate, else empty. Cached per slot and language (at most 1024 entries: `lang` comes
/// from templates).
QString preferredFamily(const QString &lang, PreferenceSlot slot)
{
    if (lang.trimmed().isEmpty())
        return {};
    static std::mutex mutex;
    static QHash<QString, QString> families; // "2|zh-TW" → family
    const QString key = QString::number(int(slot)) + u'|' + lang;
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = families.constFind(key); it != families.constEnd())
        return *it;
    QString family;
    if (const ScriptPreferences *prefs = preferencesFor(preferenceScript(lang))) {
        const std::array<const char *, 2> &candidates = slot == PreferenceSlot::Standard    ? prefs->standard
                                                        : slot == PreferenceSlot::SansSerif ? prefs->sansSerif
                                                        : slot == PreferenceSlot::Serif     ? prefs->serif
                                                                                            : prefs->monospace;
        for (const char *candidate : candidates) {
            if (candidate && isInstalled(candidate)) {
                family = QString::fromUtf8(candidate);
                break;
            }
        }
    }
    if (families.size() >= 1024)
        families.clear();
    families.insert(key, family);
    return family;
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
    const PreferenceSlot slot = generic == GenericFamily::SansSerif ? PreferenceSlot::SansSerif
                                : generic == GenericFamily::Serif   ? PreferenceSlot::Serif
                                                                    : PreferenceSlot::Monospace;
    const QString preferred = preferredFamily(lang, slot);
    return preferred.isEmpty() ? genericFamily(generic) : preferred;
}

QString standardFamily(const QString &lang)
{
    const QString preferred = preferredFamily(lang, PreferenceSlot::Standard);
    return preferred.isEmpty() ? genericFamily(GenericFamily::SansSerif) : preferred;
}

} // namespace imprint::render
