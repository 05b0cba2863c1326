#include "server/render/text/feature_faces.h"

#include "server/render/resources/font_file.h"
#include "server/render/style/computed_style.h"
#include "server/render/text/font_fallback.h"
#include "server/render/text/font_set.h"
#include "server/render/text/text_internal.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFontDatabase>
#include <QHash>
#include <QMutex>
#include <QRawFont>
#include <QSet>

#include <fontconfig/fontconfig.h>
#include <hb.h>

#include <algorithm>
#include <memory>

namespace imprint::render {

namespace {

QMutex g_mutex;
/// What one request (family, weight, style, features) resolved to.
struct Resolved {
    QString family; ///< the family to use (maybe the original)
    std::vector<quint32> missing; ///< features to turn on the face lacks or could not get
};
QHash<QByteArray, Resolved> g_families; // request key → what to use
QSet<QString> g_registered; // the frozen families in QFontDatabase
qint64 g_frozenBytes = 0; // the frozen faces' sfnt bytes, which Qt's font database keeps
// Remembered answers, bounded because the keys come from templates; past it, new
// requests get their family unfrozen, so a template cannot make a process freeze
// faces without end.
constexpr qsizetype kMaxRequests = 4096;

/// The file and face index of the installed face of `family` whose `head` table is
/// `head` (the face Qt loaded: Qt 6.4 does not say which file that is, and the head
/// table, with its checksum and dates, tells faces apart); empty path when none is.
std::pair<QByteArray, unsigned> installedFace(const QString &family, const QByteArray &head)
{
    const QByteArray name = family.toUtf8();
    const std::unique_ptr<FcPattern, decltype(&FcPatternDestroy)> pattern(
        FcPatternBuild(nullptr, FC_FAMILY, FcTypeString, name.constData(), nullptr), &FcPatternDestroy);
    const std::unique_ptr<FcObjectSet, decltype(&FcObjectSetDestroy)> objects(
        FcObjectSetBuild(FC_FILE, FC_INDEX, nullptr), &FcObjectSetDestroy);
    const std::unique_ptr<FcFontSet, decltype(&FcFontSetDestroy)> fonts(
        FcFontList(nullptr, pattern.get(), objects.get()), &FcFontSetDestroy);
    for (int i = 0; fonts && i < fonts->nfont; ++i) {
        FcChar8 *file = nullptr;
        int index = 0;
        if (FcPatternGetString(fonts->fonts[i], FC_FILE, 0, &file) != FcResultMatch || !file)
            continue;
        FcPatternGetInteger(fonts->fonts[i], FC_INDEX, 0, &index);
        const QByteArray path(reinterpret_cast<const char *>(file));
        if (fontFileTable(path, unsigned(index & 0xffff), HB_TAG('h', 'e', 'a', 'd')) == head)
            return {path, unsigned(index & 0xffff)};
    }
    return {};
}

/// Builds and registers the derived face; the family to use (`family` when nothing
/// changed) and the features it lacks.
Resolved derive(const QString &family, int weight, bool italic, const std::vector<std::pair<quint32, quint32>> &features)
{
    const QRawFont raw = selectedFace(family, weight, italic);
    if (!raw.isValid() || raw.familyName().compare(family, Qt::CaseInsensitive) != 0)
        return {family, {}}; // not installed: Qt substitutes another family, as it will when drawing
    const QByteArray head = raw.fontTable("head");
    QByteArray bytes;
    unsigned index = 0;
    if (isInternalFamily(family)) {
        bytes = registeredFontFaceData(family);
    } else if (const auto [path, faceIndex] = installedFace(family, head); !path.isEmpty()) {
        QFile file(QString::fromUtf8(path));
        if (file.size() <= kMaxFrozenFaceBytes && file.open(QIODevice::ReadOnly))
            bytes = file.readAll();
        index = faceIndex;
    }
    if (bytes.isEmpty() || head.isEmpty())
        return {family, {}};
    // Unguessable when the face is a space's upload (its internal family is), so another
    // space cannot name it (applyFontSet() drops internal families a template writes).
    QByteArray seed = family.toLower().toUtf8() + '\0' + head;
    for (const auto &[tag, value] : features)
        seed += featureTagName(tag).toLatin1() + QByteArray::number(value) + ',';
    const QString name
        = internalFamilyFor(QString::fromLatin1(QCryptographicHash::hash(seed, QCryptographicHash::Sha256).toHex()));
    if (bytes.size() > kMaxFrozenFaceBytes || g_frozenBytes + bytes.size() > kMaxFrozenBytes)
        return {family, {}};
    const auto derived = deriveFeatureFace(bytes, index, features, name);
    if (!derived)
        return {family, {}};
    Resolved result{family, derived->missing};
    result.missing.insert(result.missing.end(), derived->dropped.begin(), derived->dropped.end());
    if (g_registered.contains(name)) { // another weight request that lands on the same face
        result.family = name;
        return result;
    }
    if (derived->sfnt.isEmpty())
        return result;
    const int id = QFontDatabase::addApplicationFontFromData(derived->sfnt);
    if (id < 0 || !QFontDatabase::applicationFontFamilies(id).contains(name, Qt::CaseInsensitive)) {
        if (id >= 0)
            QFontDatabase::removeApplicationFont(id);
        return result;
    }
    g_registered.insert(name);
    g_frozenBytes += derived->sfnt.size();
    result.family = name;
    return result;
}

/// The resolution of one request, from the cache or derived now.
Resolved resolve(const QString &family, int weight, bool italic, const std::vector<FontFeature> &features)
{
    std::vector<std::pair<quint32, quint32>> derived;
    for (const FontFeature &f : features) // styleFeatures() left only those to apply; kern is Qt's
        if (featureSupport(f) != FeatureSupport::Kerning && f.tag != featureTag("kern"))
            derived.emplace_back(f.tag, f.value);
    if (derived.empty())
        return {family, {}};
    QByteArray key = family.toLower().toUtf8();
    key += '\0' + QByteArray::number(weight) + (italic ? 'i' : 'n');
    for (const auto &[tag, value] : derived)
        key += featureTagName(tag).toLatin1() + QByteArray::number(value) + ',';
    // One lock over the whole build: two threads never register the same face twice,
    // and the first render with a new feature set waits a few ms once.
    QMutexLocker lock(&g_mutex);
    if (const auto it = g_families.constFind(key); it != g_families.constEnd())
        return *it;
    if (g_families.size() >= kMaxRequests || g_registered.size() >= kMaxFrozenFaces)
        return {family, {}};
    Resolved result = derive(family, weight, italic, derived);
    g_families.insert(key, result);
    return result;
}

/// Which of the first `named` of `families` draw a character of `text` (each character
/// goes to the first of them whose face for `style` has it): a family later in a stack
/// than the one drawing everything, such as Tailwind's "Noto Color Emoji", draws nothing
/// and has nothing to warn about; nor does a family that is not installed.
std::vector<bool> drawingFamilies(const QString &text, const QStringList &families, qsizetype named,
                                  const ComputedStyle &style)
{
    std::vector<QRawFont> faces; // invalid for a family that is not installed
    for (qsizetype i = 0; i < named; ++i) {
        const std::vector<QRawFont> own = text_detail::primaryFaces({families[i]}, style);
        faces.push_back(own.empty() ? QRawFont() : own.front());
    }
    std::vector<bool> draws(size_t(named), false);
    for (qsizetype i = 0; i < text.size();) {
        qsizetype units = 1;
        const char32_t c = text_detail::codePointAt(text, i, &units);
        i += units;
        if (QChar::isSpace(c))
            continue;
        for (size_t f = 0; f < faces.size(); ++f) {
            if (faces[f].isValid() && faces[f].supportsCharacter(c)) {
                draws[f] = true;
                break;
            }
        }
    }
    return draws;
}

void collectMissing(const Node &node, const FontSet &fonts, QSet<QString> &warned, QStringList *warnings)
{
    if (node.isText()) {
        const std::vector<FontFeature> features = styleFeatures(node.style);
        qsizetype named = 0;
        const QStringList families = features.empty() ? QStringList() : text_detail::familyList(node.style.fontFamily, node.style.lang, &named);
        const bool italic = node.style.fontStyle == FontStyle::Italic;
        const std::vector<bool> draws
            = named > 1 ? drawingFamilies(node.text, families, named, node.style)
                        : std::vector<bool>(size_t(named), true);
        for (qsizetype i = 0; i < named; ++i) {
            if (!draws[size_t(i)])
                continue;
            QString shown = families[i];
            for (const FontFace &face : fonts.faces)
                if (face.internalFamily == families[i])
                    shown = face.family;
            const bool synthesized = synthesizesSmallCaps(node.style);
            for (quint32 tag : missingFeatures(families[i], node.style.fontWeight, italic, features)) {
                if (synthesized
                    && (tag == featureTag("smcp") || tag == featureTag("c2sc") || tag == featureTag("pcap")
                        || tag == featureTag("c2pc")))
                    continue; // drawn as Chromium synthesizes them
                const QString line = QStringLiteral("font '%1' has no OpenType feature \"%2\"; rendered without it")
                                         .arg(shown, featureTagName(tag));
                if (!warned.contains(line)) {
                    warned.insert(line);
                    warnings->append(line);
                }
            }
        }
    }
    for (const auto &child : node.children)
        collectMissing(*child, fonts, warned, warnings);
}

} // namespace

std::vector<FontFeature> styleFeatures(const ComputedStyle &s)
{
    if (s.fontVariantNumeric == 0 && s.fontFeatureSettings.empty() && s.fontVariantCaps == FontVariantCaps::Normal
        && s.fontKerning != FontKerning::None && s.fontVariantLigatures == 0
        && s.fontVariantPosition == FontVariantPosition::Normal && s.letterSpacing == 0)
        return {}; // the common case pays one comparison per field
    // Letter-spacing turns the optional ligatures and contextual alternates off (CSS Text
    // 3 §8.2), over font-variant-ligatures and under font-feature-settings, as Blink's
    // FontFeatures does (Chromium 156: `"liga"` still ligates a letter-spaced run,
    // `discretionary-ligatures` does not). Qt turns liga, clig, dlig and hlig off itself
    // there, so those stay off without a derived face, and calt is turned off here.
    static constexpr quint32 kSpacedOff[] = {featureTag("calt"), featureTag("clig"), featureTag("dlig"),
                                             featureTag("hlig"), featureTag("liga")};
    const bool spaced = s.letterSpacing != 0;
    std::vector<FontFeature> features = resolvedFontFeatures(s.fontVariantNumeric, {}, s.fontVariantCaps, s.fontKerning,
                                                             s.fontVariantLigatures, s.fontVariantPosition);
    if (spaced) {
        std::erase_if(features, [](const FontFeature &f) {
            return std::find(std::begin(kSpacedOff), std::end(kSpacedOff), f.tag) != std::end(kSpacedOff);
        });
        features.push_back({featureTag("calt"), 0});
    }
    for (const FontFeature &f : s.fontFeatureSettings) {
        std::erase_if(features, [&](const FontFeature &g) { return g.tag == f.tag; });
        features.push_back(f);
    }
    std::sort(features.begin(), features.end(), [](const FontFeature &a, const FontFeature &b) { return a.tag < b.tag; });
    std::erase_if(features, [spaced](const FontFeature &f) {
        if (spaced && f.tag != featureTag("calt")
            && std::find(std::begin(kSpacedOff), std::end(kSpacedOff), f.tag) != std::end(kSpacedOff))
            return f.value == 0; // Qt's own; on, the feature is renamed to one HarfBuzz applies
        return featureSupport(f) == FeatureSupport::Default;
    });
    return features;
}

QString frozenFamily(const QString &family, int weight, bool italic, const std::vector<FontFeature> &features)
{
    return resolve(family, weight, italic, features).family;
}

std::vector<quint32> missingFeatures(const QString &family, int weight, bool italic,
                                     const std::vector<FontFeature> &features)
{
    return resolve(family, weight, italic, features).missing;
}

bool synthesizesSmallCaps(const ComputedStyle &s)
{
    const FontVariantCaps caps = s.fontVariantCaps;
    const bool all = caps == FontVariantCaps::AllSmallCaps || caps == FontVariantCaps::AllPetiteCaps;
    if (!all && caps != FontVariantCaps::SmallCaps && caps != FontVariantCaps::PetiteCaps)
        return false;
    qsizetype named = 0;
    const QStringList families = text_detail::familyList(s.fontFamily, s.lang, &named);
    for (qsizetype i = 0; i < named; ++i) {
        if (text_detail::primaryFaces({families[i]}, s).empty())
            continue; // not installed: the next family is the first available font
        const bool italic = s.fontStyle == FontStyle::Italic;
        const auto lacks = [&](quint32 tag) {
            return !missingFeatures(families[i], s.fontWeight, italic, {FontFeature{tag, 1}}).empty();
        };
        // Blink's OpenTypeCapsSupport: petite capitals a face lacks are its small ones.
        if ((caps == FontVariantCaps::PetiteCaps && !lacks(featureTag("pcap")))
            || (caps == FontVariantCaps::AllPetiteCaps && !lacks(featureTag("pcap")) && !lacks(featureTag("c2pc"))))
            return false;
        return lacks(featureTag("smcp")) || (all && lacks(featureTag("c2sc")));
    }
    return false;
}

void warnMissingFeatures(const Node &root, const FontSet &fonts, QStringList *warnings)
{
    if (!warnings)
        return;
    QSet<QString> warned;
    collectMissing(root, fonts, warned, warnings);
}

int frozenFaceCount()
{
    QMutexLocker lock(&g_mutex);
    return int(g_registered.size());
}

} // namespace imprint::render
