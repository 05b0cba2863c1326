#include "server/render/text/generic_family.h"

#include <fontconfig/fontconfig.h>

#include <memory>

namespace imprint::render {

namespace {

/// fontconfig's best match for the family name `pattern` after its configured
/// substitutions (what `fc-match sans-serif` prints); empty when there is none.
QString fontconfigMatch(const char *pattern)
{
    const std::unique_ptr<FcPattern, decltype(&FcPatternDestroy)> query(
        FcNameParse(reinterpret_cast<const FcChar8 *>(pattern)), &FcPatternDestroy);
    if (!query)
        return {};
    FcConfigSubstitute(nullptr, query.get(), FcMatchPattern);
    FcDefaultSubstitute(query.get());
    FcResult result = FcResultNoMatch;
    const std::unique_ptr<FcPattern, decltype(&FcPatternDestroy)> match(FcFontMatch(nullptr, query.get(), &result),
                                                                        &FcPatternDestroy);
    FcChar8 *family = nullptr;
    if (!match || FcPatternGetString(match.get(), FC_FAMILY, 0, &family) != FcResultMatch || !family)
        return {};
    return QString::fromUtf8(reinterpret_cast<const char *>(family));
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

} // namespace imprint::render
