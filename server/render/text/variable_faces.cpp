#include "server/render/text/variable_faces.h"

#include "server/render/resources/font_instance.h"
#include "server/render/text/font_set.h"

#include <QCryptographicHash>
#include <QFile>
#include <QHash>
#include <QMutex>
#include <QSet>

#include <fontconfig/fontconfig.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace imprint::render {

namespace {

constexpr quint32 kWght = 0x77676874, kWdth = 0x77647468, kSlnt = 0x736c6e74, kItal = 0x6974616c,
                  kOpsz = 0x6f70737a;

/// A variable face and what its fvar says.
struct VariableSource {
    QByteArray font; ///< the sfnt (or collection) bytes
    unsigned index = 0;
    FontVariations variations;
    bool web = false; ///< an uploaded face: CSS axes apply continuously
    QByteArray seed; ///< identifies the face in instance names
};

QMutex g_mutex;
// family (lower case) + style → its variable face, or null when it is not one. Bounded
// because the keys come from templates.
QHash<QString, std::shared_ptr<const VariableSource>> g_sources;
QHash<QByteArray, QString> g_families; // request → the family to draw with
QHash<QString, QString> g_instances; // instance key → its registered family
qint64 g_bytes = 0;
constexpr qsizetype kMaxRequests = 4096;

/// The installed variable font file of `family` for `italic` (fontconfig's FC_VARIABLE
/// pattern: the font itself, not one of its named instances); the upright one when the
/// family has no italic variable file. Null when the family has no variable file.
std::shared_ptr<const VariableSource> installedSource(const QString &family, bool italic)
{
    const QByteArray name = family.toUtf8();
    const std::unique_ptr<FcPattern, decltype(&FcPatternDestroy)> pattern(
        FcPatternBuild(nullptr, FC_FAMILY, FcTypeString, name.constData(), FC_VARIABLE, FcTypeBool, FcTrue, nullptr),
        &FcPatternDestroy);
    const std::unique_ptr<FcObjectSet, decltype(&FcObjectSetDestroy)> objects(
        FcObjectSetBuild(FC_FILE, FC_INDEX, FC_SLANT, nullptr), &FcObjectSetDestroy);
    const std::unique_ptr<FcFontSet, decltype(&FcFontSetDestroy)> fonts(
        FcFontList(nullptr, pattern.get(), objects.get()), &FcFontSetDestroy);
    QByteArray best;
    int bestIndex = 0;
    for (int i = 0; fonts && i < fonts->nfont; ++i) {
        FcChar8 *file = nullptr;
        int index = 0, slant = FC_SLANT_ROMAN;
        if (FcPatternGetString(fonts->fonts[i], FC_FILE, 0, &file) != FcResultMatch || !file)
            continue;
        FcPatternGetInteger(fonts->fonts[i], FC_INDEX, 0, &index);
        FcPatternGetInteger(fonts->fonts[i], FC_SLANT, 0, &slant);
        if (best.isEmpty() || (slant != FC_SLANT_ROMAN) == italic) {
            best = QByteArray(reinterpret_cast<const char *>(file));
            bestIndex = index & 0xffff;
        }
    }
    if (best.isEmpty())
        return {};
    QFile file(QString::fromUtf8(best));
    if (file.size() > kMaxInstancedFontBytes || !file.open(QIODevice::ReadOnly))
        return {};
    auto source = std::make_shared<VariableSource>();
    source->font = file.readAll();
    source->index = unsigned(bestIndex);
    source->variations = fontVariations(source->font, source->index);
    source->seed = best + '\0' + QByteArray::number(bestIndex) + '\0' + QByteArray::number(file.size());
    return source->variations.isVariable() ? source : nullptr;
}

/// The variable face `family` names for `italic`, or null; cached.
std::shared_ptr<const VariableSource> sourceFor(const QString &family, bool italic)
{
    const QString key = family.toLower() + (italic ? u'i' : u'n');
    if (const auto it = g_sources.constFind(key); it != g_sources.constEnd())
        return *it;
    std::shared_ptr<const VariableSource> source;
    if (isInternalFamily(family)) { // an uploaded face (or an instance, which has no fvar)
        auto web = std::make_shared<VariableSource>();
        web->font = registeredFontFaceData(family);
        web->variations = fontVariations(web->font);
        web->web = true;
        web->seed = family.toLower().toUtf8();
        if (web->variations.isVariable())
            source = std::move(web);
    } else {
        source = installedSource(family, italic);
    }
    if (g_sources.size() < kMaxRequests)
        g_sources.insert(key, source);
    return source;
}

const FontAxis *axisOf(const FontVariations &variations, quint32 tag)
{
    const auto it = std::find_if(variations.axes.begin(), variations.axes.end(),
                                 [&](const FontAxis &a) { return a.tag == tag; });
    return it == variations.axes.end() ? nullptr : &*it;
}

float coordOf(const std::vector<AxisValue> &coords, quint32 tag, float fallback)
{
    for (const auto &[t, v] : coords)
        if (t == tag)
            return v;
    return fallback;
}

/// The named instance fontconfig (and so Chromium on Linux) matches for `style` on an
/// installed face: nearest width first, then nearest weight on fontconfig's weight scale
/// (FcWeightFromOpenTypeDouble), the lighter one on a tie. Empty when there is none.
std::vector<AxisValue> namedInstanceFor(const FontVariations &variations, const InheritedStyle &style)
{
    const FontAxis *wght = axisOf(variations, kWght);
    const FontAxis *wdth = axisOf(variations, kWdth);
    const double wanted = FcWeightFromOpenTypeDouble(std::clamp(style.fontWeight, 1, 1000));
    const FontNamedInstance *best = nullptr;
    std::tuple<double, double, double> bestRank{};
    for (const FontNamedInstance &instance : variations.instances) {
        const double weight = wght ? coordOf(instance.coords, kWght, wght->defaultValue) : 400;
        const double width = wdth ? coordOf(instance.coords, kWdth, wdth->defaultValue) : 100;
        const std::tuple<double, double, double> rank{
            std::abs(width - style.fontStretch), std::abs(FcWeightFromOpenTypeDouble(weight) - wanted), weight};
        if (!best || rank < bestRank) {
            best = &instance;
            bestRank = rank;
        }
    }
    return best ? best->coords : std::vector<AxisValue>{};
}

/// The axis values CSS asks of `source` for `style` (see the header), before clamping.
std::vector<AxisValue> requestedCoords(const VariableSource &source, const InheritedStyle &style)
{
    std::vector<AxisValue> coords;
    if (source.web) {
        coords.emplace_back(kWght, float(style.fontWeight));
        coords.emplace_back(kWdth, style.fontStretch);
        if (style.fontObliqueAngle != 0)
            coords.emplace_back(kSlnt, -style.fontObliqueAngle); // slnt leans left when positive
        coords.emplace_back(kItal, style.fontStyle == FontStyle::Italic && style.fontObliqueAngle == 0 ? 1.f : 0.f);
        coords.emplace_back(kOpsz, style.fontSize);
        for (const FontVariation &v : style.fontVariationSettings)
            coords.emplace_back(v.tag, v.value);
    } else {
        // Chromium on Linux draws an installed face at the named instance fontconfig
        // matched and ignores font-variation-settings on it (checked with Chromium 156).
        coords = namedInstanceFor(source.variations, style);
    }
    return coords;
}

/// The OS/2 weight class of the instance: the weight CSS asked for as far as the wght
/// axis reaches (so asking 900 of a 200–800 face is not emboldened, as in Chromium,
/// whatever font-variation-settings does), or the named instance's weight.
int weightClassFor(const VariableSource &source, const InheritedStyle &style, const std::vector<AxisValue> &coords)
{
    const FontAxis *wght = axisOf(source.variations, kWght);
    if (!wght)
        return 0;
    if (source.web)
        return int(std::lround(std::clamp(float(style.fontWeight), wght->min, wght->max)));
    return int(std::lround(coordOf(namedInstanceFor(source.variations, style), kWght, coordOf(coords, kWght, 400))));
}

/// Makes and registers the instance; the family to draw with (`family` on failure).
QString instantiate(const QString &family, const VariableSource &source, const InheritedStyle &style)
{
    const std::vector<AxisValue> coords = resolveAxisValues(source.variations, requestedCoords(source, style));
    const int weightClass = weightClassFor(source, style, coords);
    QByteArray seed = source.seed + '\0' + QByteArray::number(weightClass);
    for (const auto &[tag, value] : coords)
        seed += axisTagName(tag).toLatin1() + '=' + QByteArray::number(value, 'g', 6) + ',';
    const QString sha = QString::fromLatin1(QCryptographicHash::hash(seed, QCryptographicHash::Sha256).toHex());
    if (const auto it = g_instances.constFind(sha); it != g_instances.constEnd())
        return *it;
    if (g_instances.size() >= kMaxVariableInstances || g_bytes + source.font.size() > kMaxVariableInstanceBytes)
        return family;
    const QString name = internalFamilyFor(sha);
    const auto instance = instanceFont(source.font, source.index, coords, name, weightClass);
    if (!instance || !registerFontFace(sha, *instance))
        return family;
    g_instances.insert(sha, name);
    g_bytes += instance->size();
    return name;
}

} // namespace

QString variableFamily(const QString &family, const InheritedStyle &style)
{
    const bool italic = style.fontStyle == FontStyle::Italic;
    // Most families are static: each thread remembers them, so text in them takes no
    // lock and builds no key (the per-process answer cannot change: fonts are added
    // under new internal names, never to an existing family).
    thread_local QSet<QString> staticFamilies[2];
    QSet<QString> &statics = staticFamilies[italic];
    if (statics.contains(family))
        return family;
    // One lock over the whole build: two threads never instance the same face twice, and
    // the first render of a new instance waits a few ms once.
    QMutexLocker lock(&g_mutex);
    const std::shared_ptr<const VariableSource> source = sourceFor(family, italic);
    if (!source) {
        if (statics.size() >= kMaxRequests)
            statics.clear();
        statics.insert(family);
        return family;
    }
    QByteArray key = family.toLower().toUtf8() + '\0' + QByteArray::number(style.fontWeight) + (italic ? 'i' : 'n')
                     + QByteArray::number(style.fontStretch) + ',' + QByteArray::number(style.fontObliqueAngle);
    if (axisOf(source->variations, kOpsz))
        key += ',' + QByteArray::number(style.fontSize);
    for (const FontVariation &v : style.fontVariationSettings)
        key += ',' + QByteArray::number(v.tag) + '=' + QByteArray::number(v.value);
    auto known = g_families.constFind(key);
    if (known == g_families.constEnd()) {
        QString drawn = instantiate(family, *source, style);
        if (g_families.size() >= kMaxRequests)
            return drawn; // not remembered: the instance itself stays registered
        known = g_families.insert(key, std::move(drawn));
    }
    return *known;
}

int variableInstanceCount()
{
    const QMutexLocker lock(&g_mutex);
    const qsizetype count = g_instances.size();
    return int(count);
}

} // namespace imprint::render
