#include "server/render/text/font_set.h"

#include "server/render/resources/font_instance.h"

#include <QFontDatabase>
#include <QHash>
#include <QMutex>
#include <QRawFont>
#include <QSet>

#include <algorithm>
#include <limits>

namespace imprint::render {

namespace {

const QString kInternalPrefix = QStringLiteral("imprint-f-");

QMutex g_registryMutex;
QSet<QString> g_registered; // sha256 of the faces in QFontDatabase
QHash<QString, QByteArray> g_sfntByFamily; // internal family (lower case) → its sfnt, for fontFaceRules()

QString unquoted(const QString &family)
{
    QString f = family.trimmed();
    if (f.size() >= 2 && (f.front() == u'"' || f.front() == u'\'') && f.back() == f.front())
        f = f.mid(1, f.size() - 2).trimmed();
    return f;
}

/// CSS Fonts 4 §5.2 step 4, font-weight: how far down the preference order `candidate`
/// is for `desired` (lower is better).
qint64 weightRank(int desired, int candidate)
{
    constexpr qint64 kBand = 10000;
    if (desired >= 400 && desired <= 500) {
        if (candidate >= desired && candidate <= 500)
            return candidate - desired; // ascending up to 500
        if (candidate < desired)
            return kBand + (desired - candidate); // then descending below
        return 2 * kBand + (candidate - 500); // then ascending above 500
    }
    if (desired < 400) {
        if (candidate <= desired)
            return desired - candidate;
        return kBand + (candidate - desired);
    }
    if (candidate >= desired)
        return candidate - desired;
    return kBand + (desired - candidate);
}

/// The font-weight descriptor of an uploaded face: its wght axis range for a variable
/// face (CSS Fonts 4 §4.5: Chromium then applies any weight in it to the axis, where a
/// single weight would pin the axis there), with its wdth range as font-stretch; else
/// `weight`.
QString variableFaceDescriptors(const QByteArray &sfnt, int weight)
{
    QString out = QString::number(weight);
    for (const FontAxis &axis : fontVariations(sfnt).axes) {
        if (axisTagName(axis.tag) == QLatin1String("wght"))
            out = QStringLiteral("%1 %2").arg(axis.min).arg(axis.max);
        else if (axisTagName(axis.tag) == QLatin1String("wdth"))
            out += QStringLiteral(";font-stretch:%1% %2%").arg(axis.min).arg(axis.max);
    }
    return out;
}

/// Applies the set to one node's family list; the faces used go to `used`.
void mapFamilies(ComputedStyle &style, const FontSet &fonts, QList<const FontFace *> *used)
{
    QStringList out;
    bool changed = false;
    for (const QString &raw : style.fontFamily) {
        const QString family = unquoted(raw);
        if (isInternalFamily(family)) { // another space's face, or a guess: never honoured
            changed = true;
            continue;
        }
        if (const FontFace *face = fonts.match(family, style.fontWeight, style.fontStyle != FontStyle::Normal)) {
            out << face->internalFamily;
            if (used)
                used->append(face);
            changed = true;
            continue;
        }
        out << raw;
    }
    if (changed)
        style.fontFamily = out;
}

struct GlyphCoverage {
    QHash<QString, QRawFont> fonts; // internal family → its face, on this render's thread
    bool supports(const FontFace &face, char32_t c)
    {
        auto it = fonts.find(face.internalFamily);
        if (it == fonts.end()) {
            QFont font(face.internalFamily);
            font.setPixelSize(16);
            it = fonts.insert(face.internalFamily, QRawFont::fromFont(font));
        }
        return !it->isValid() || it->supportsCharacter(c);
    }
};

void walk(Node &node, const FontSet &fonts, GlyphCoverage &coverage, QSet<QString> &warned, QStringList *warnings)
{
    QList<const FontFace *> used;
    mapFamilies(node.style, fonts, &used);
    if (node.isText() && !used.isEmpty() && warnings) {
        for (qsizetype i = 0; i < node.text.size(); ++i) {
            char32_t c = node.text.at(i).unicode();
            if (QChar::isHighSurrogate(c) && i + 1 < node.text.size() && node.text.at(i + 1).isLowSurrogate()) {
                // Not `at(i), at(++i)`: the order arguments are evaluated in is unspecified,
                // and GCC read the low surrogate twice, naming a code point nobody wrote.
                c = QChar::surrogateToUcs4(node.text.at(i), node.text.at(i + 1));
                ++i;
            }
            if (QChar::isSpace(c) || QChar::category(c) == QChar::Other_Control
                || QChar::category(c) == QChar::Other_Format || QChar::isNonCharacter(c))
                continue;
            const bool covered
                = std::any_of(used.begin(), used.end(), [&](const FontFace *f) { return coverage.supports(*f, c); });
            if (covered || warned.contains(used.front()->family))
                continue;
            warned.insert(used.front()->family);
            warnings->append(
                QStringLiteral("fontFamily '%1' has no glyph for U+%2; a system font drew it")
                    .arg(used.front()->family, QString::number(quint32(c), 16).toUpper().rightJustified(4, u'0')));
        }
    }
    for (auto &child : node.children)
        walk(*child, fonts, coverage, warned, warnings);
}

} // namespace

const FontFace *FontSet::match(const QString &family, int weight, bool italic) const
{
    const QString wanted = unquoted(family);
    const FontFace *best = nullptr;
    qint64 bestRank = std::numeric_limits<qint64>::max();
    for (const FontFace &face : faces) {
        if (face.family.compare(wanted, Qt::CaseInsensitive) != 0)
            continue;
        // Style decides first: a face of the wrong style ranks below every right one.
        const qint64 rank = (face.italic == italic ? 0 : 1000000) + weightRank(weight, face.weight);
        if (rank < bestRank) {
            bestRank = rank;
            best = &face;
        }
    }
    return best;
}

QString FontSet::fingerprint() const
{
    QStringList parts;
    for (const FontFace &f : faces)
        parts << f.internalFamily + u':' + f.family.toLower() + u':' + QString::number(f.weight)
                     + (f.italic ? u'i' : u'n');
    parts.sort();
    return parts.join(u',');
}

QString internalFamilyFor(const QString &sha256)
{
    return kInternalPrefix + sha256.left(24).toLower();
}

bool isInternalFamily(const QString &family)
{
    return family.startsWith(kInternalPrefix, Qt::CaseInsensitive);
}

common::Expected<common::Done, QString> registerFontFace(const QString &sha256, const QByteArray &sfnt)
{
    QMutexLocker lock(&g_registryMutex);
    if (g_registered.contains(sha256))
        return common::Done{};
    const int id = QFontDatabase::addApplicationFontFromData(sfnt);
    if (id < 0)
        return QStringLiteral("Qt's font database refused the font");
    const QString expected = internalFamilyFor(sha256);
    if (!QFontDatabase::applicationFontFamilies(id).contains(expected, Qt::CaseInsensitive)) {
        QFontDatabase::removeApplicationFont(id);
        return QStringLiteral("the font's family could not be renamed");
    }
    g_registered.insert(sha256);
    g_sfntByFamily.insert(expected.toLower(), sfnt);
    return common::Done{};
}

QByteArray registeredFontFaceData(const QString &internalFamily)
{
    QMutexLocker lock(&g_registryMutex);
    return g_sfntByFamily.value(internalFamily.toLower());
}

QString fontFaceRules(const FontSet &fonts, const QString &page, qsizetype maxBytes, QStringList *warnings)
{
    QString css;
    for (const FontFace &face : fonts.faces) {
        if (!page.contains(face.family, Qt::CaseInsensitive))
            continue;
        const QByteArray sfnt = registeredFontFaceData(face.internalFamily);
        if (sfnt.isEmpty())
            continue;
        if (css.size() + (sfnt.size() + 2) / 3 * 4 > maxBytes) {
            if (warnings)
                warnings->append(QStringLiteral("font '%1' (weight %2%3) was left out: the html engine's page carries "
                                                "at most %4 KiB of fonts")
                                     .arg(face.family, QString::number(face.weight),
                                          face.italic ? QStringLiteral(", italic") : QString(),
                                          QString::number(maxBytes / 1024)));
            continue;
        }
        // A CSS string (CSS Syntax 3 §4.3.5): `"` and `\` escaped, control characters as
        // hex escapes, so a family name cannot end the rule or the <style> element.
        QString family;
        for (const QChar c : face.family) {
            if (c == u'"' || c == u'\\' || c == u'<' || c == u'>' || c.unicode() < 0x20 || c.unicode() == 0x7f)
                family += QStringLiteral("\\%1 ").arg(c.unicode(), 0, 16);
            else
                family += c;
        }
        const bool cff = sfnt.startsWith("OTTO");
        css += QStringLiteral("@font-face{font-family:\"%1\";font-weight:%2;font-style:%3;src:url(data:%4;base64,")
                   .arg(family, variableFaceDescriptors(sfnt, face.weight),
                        face.italic ? QStringLiteral("italic") : QStringLiteral("normal"),
                        cff ? QStringLiteral("font/otf") : QStringLiteral("font/ttf"));
        css += QString::fromLatin1(sfnt.toBase64());
        css += cff ? QStringLiteral(") format(\"opentype\")}") : QStringLiteral(") format(\"truetype\")}");
    }
    return css;
}

QList<SvgRasterFont> svgRasterFonts(const FontSet &fonts, const QByteArray &svg)
{
    QList<SvgRasterFont> out;
    if (fonts.isEmpty() || !svg.contains("<text"))
        return out;
    const QString source = QString::fromUtf8(svg);
    for (const FontFace &face : fonts.faces) {
        if (!source.contains(face.family, Qt::CaseInsensitive))
            continue;
        QByteArray sfnt = registeredFontFaceData(face.internalFamily);
        if (sfnt.isEmpty())
            continue;
        const auto axes = fontVariations(sfnt).axes;
        const bool weightAxis = std::any_of(axes.begin(), axes.end(), [](const FontAxis &axis) {
            return axisTagName(axis.tag) == QLatin1String("wght");
        });
        out.append(SvgRasterFont{face.family, weightAxis ? 0 : face.weight, face.italic, face.internalFamily,
                                 std::move(sfnt)});
    }
    return out;
}

bool isFontFaceRegistered(const QString &sha256)
{
    QMutexLocker lock(&g_registryMutex);
    return g_registered.contains(sha256);
}

void applyFontSet(Node &root, const FontSet &fonts, QStringList *warnings)
{
    GlyphCoverage coverage;
    QSet<QString> warned;
    walk(root, fonts, coverage, warned, warnings);
}

} // namespace imprint::render
