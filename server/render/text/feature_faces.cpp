#include "server/render/text/feature_faces.h"

#include "server/render/resources/font_file.h"
#include "server/render/text/font_fallback.h"
#include "server/render/text/font_set.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFontDatabase>
#include <QHash>
#include <QMutex>
#include <QRawFont>
#include <QSet>

#include <fontconfig/fontconfig.h>
#include <hb.h>

#include <memory>

namespace imprint::render {

namespace {

QMutex g_mutex;
QHash<QByteArray, QString> g_families; // request key → the family to use (maybe the original)
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

/// Builds and registers the frozen face; the family to use (`family` when nothing was
/// frozen).
QString freeze(const QString &family, int weight, bool italic, const std::vector<std::pair<quint32, quint32>> &features)
{
    const QRawFont raw = selectedFace(family, weight, italic);
    if (!raw.isValid() || raw.familyName().compare(family, Qt::CaseInsensitive) != 0)
        return family; // not installed: Qt substitutes another family, as it will when drawing
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
        return family;
    // Unguessable when the face is a space's upload (its internal family is), so another
    // space cannot name it (applyFontSet() drops internal families a template writes).
    QByteArray seed = family.toLower().toUtf8() + '\0' + head;
    for (const auto &[tag, value] : features)
        seed += featureTagName(tag).toLatin1() + QByteArray::number(value) + ',';
    const QString name
        = internalFamilyFor(QString::fromLatin1(QCryptographicHash::hash(seed, QCryptographicHash::Sha256).toHex()));
    if (g_registered.contains(name)) // another weight request that lands on the same face
        return name;
    if (bytes.size() > kMaxFrozenFaceBytes || g_frozenBytes + bytes.size() > kMaxFrozenBytes)
        return family;
    const auto frozen = freezeFontFeatures(bytes, index, features, name);
    if (!frozen || frozen->isEmpty())
        return family;
    const int id = QFontDatabase::addApplicationFontFromData(*frozen);
    if (id < 0 || !QFontDatabase::applicationFontFamilies(id).contains(name, Qt::CaseInsensitive)) {
        if (id >= 0)
            QFontDatabase::removeApplicationFont(id);
        return family;
    }
    g_registered.insert(name);
    g_frozenBytes += frozen->size();
    return name;
}

} // namespace

QString frozenFamily(const QString &family, int weight, bool italic, const std::vector<FontFeature> &features)
{
    std::vector<std::pair<quint32, quint32>> frozen;
    for (const FontFeature &f : features)
        if (featureSupport(f) == FeatureSupport::Frozen)
            frozen.emplace_back(f.tag, f.value);
    if (frozen.empty())
        return family;
    QByteArray key = family.toLower().toUtf8();
    key += '\0' + QByteArray::number(weight) + (italic ? 'i' : 'n');
    for (const auto &[tag, value] : frozen)
        key += featureTagName(tag).toLatin1() + QByteArray::number(value) + ',';
    // One lock over the whole build: two threads never register the same face twice,
    // and the first render with a new feature set waits a few ms once.
    QMutexLocker lock(&g_mutex);
    if (const auto it = g_families.constFind(key); it != g_families.constEnd())
        return *it;
    if (g_families.size() >= kMaxRequests || g_registered.size() >= kMaxFrozenFaces)
        return family;
    const QString result = freeze(family, weight, italic, frozen);
    g_families.insert(key, result);
    return result;
}

int frozenFaceCount()
{
    QMutexLocker lock(&g_mutex);
    return int(g_registered.size());
}

} // namespace imprint::render
