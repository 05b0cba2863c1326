#include "server/render/resources/emoji.h"

#include <QCache>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGlyphRun>
#include <QMutex>
#include <QMutexLocker>
#include <QPainter>
#include <QRawFont>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTextBoundaryFinder>
#include <QTextCharFormat>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

#include <algorithm>

namespace imprint::render {

namespace {

constexpr uint kZwj = 0x200D, kVs15 = 0xFE0E, kVs16 = 0xFE0F, kKeycap = 0x20E3;
constexpr int kRasterSizesPerImage = 8;

bool isRegionalIndicator(uint c)
{
    return c >= 0x1F1E6 && c <= 0x1F1FF;
}
bool isSkinTone(uint c)
{
    return c >= 0x1F3FB && c <= 0x1F3FF;
}
bool isKeycapBase(uint c)
{
    return (c >= u'0' && c <= u'9') || c == u'#' || c == u'*';
}

/// Extended_Pictographic (UTS #51 / emoji-data.txt), coarsened to the blocks that hold it.
bool isExtendedPictographic(uint c)
{
    return c == 0xA9 || c == 0xAE || c == 0x203C || c == 0x2049 || c == 0x2122 || c == 0x2139
           || (c >= 0x2194 && c <= 0x21AA) || (c >= 0x231A && c <= 0x23FF) || c == 0x24C2
           || (c >= 0x25AA && c <= 0x27BF) || (c >= 0x2934 && c <= 0x2935) || (c >= 0x2B05 && c <= 0x2B55)
           || c == 0x3030 || c == 0x303D || c == 0x3297 || c == 0x3299 || (c >= 0x1F000 && c <= 0x1FAFF);
}

/// Emoji_Presentation=Yes: drawn as emoji without VS16 (emoji-data.txt). The BMP list is
/// exact; above it every pictograph block counts (a few text-default pictographs such as
/// U+1F54A come out as emoji, as in satori).
bool hasEmojiPresentation(uint c)
{
    if (c >= 0x1F000 && c <= 0x1FAFF)
        return !isRegionalIndicator(c) && !isSkinTone(c);
    static const uint bmp[][2]
        = {{0x231A, 0x231B}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0}, {0x23F3, 0x23F3}, {0x25FD, 0x25FE}, {0x2614, 0x2615},
           {0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693}, {0x26A1, 0x26A1}, {0x26AA, 0x26AB}, {0x26BD, 0x26BE},
           {0x26C4, 0x26C5}, {0x26CE, 0x26CE}, {0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5},
           {0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B}, {0x2728, 0x2728}, {0x274C, 0x274C},
           {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF},
           {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}};
    for (const auto &r : bmp) {
        if (c >= r[0] && c <= r[1])
            return true;
    }
    return false;
}

QString hexJoin(const QList<uint> &cps, bool upper, int pad)
{
    QStringList parts;
    for (uint c : cps) {
        QString h = QString::number(uint(c), 16).rightJustified(pad, u'0');
        parts << (upper ? h.toUpper() : h);
    }
    return parts.join(u'-');
}

/// Rewrites id references so several emoji can share one SVG document.
QString prefixRefs(QString value, const QString &prefix)
{
    value.replace(QLatin1String("url(#"), QLatin1String("url(#") + prefix);
    return value;
}

/// The emoji document as one <g> fragment (see EmojiImage::fragment). nullopt if it
/// does not parse.
std::optional<QString> toFragment(const QByteArray &source, const QString &prefix, QRectF *viewBox)
{
    QString out;
    QXmlStreamWriter w(&out);
    QXmlStreamReader r(source);
    int depth = 0, skipDepth = 0;
    const QString svgNs = QStringLiteral("http://www.w3.org/2000/svg");
    while (!r.atEnd()) {
        const auto token = r.readNext();
        if (token == QXmlStreamReader::StartElement) {
            ++depth;
            if (skipDepth)
                continue;
            const QString name = r.name().toString();
            const bool foreign = !r.namespaceUri().isEmpty() && r.namespaceUri() != svgNs;
            if (foreign || name == QLatin1String("title") || name == QLatin1String("desc")
                || name == QLatin1String("metadata") || name == QLatin1String("script")) {
                skipDepth = depth;
                continue;
            }
            const bool root = depth == 1;
            if (root) {
                if (name != QLatin1String("svg"))
                    return std::nullopt;
                const QStringList vb = r.attributes()
                                           .value(QLatin1String("viewBox"))
                                           .toString()
                                           .split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
                if (vb.size() == 4)
                    *viewBox = QRectF(vb[0].toDouble(), vb[1].toDouble(), vb[2].toDouble(), vb[3].toDouble());
                else
                    *viewBox = QRectF(0, 0, r.attributes().value(QLatin1String("width")).toDouble(),
                                      r.attributes().value(QLatin1String("height")).toDouble());
                w.writeStartElement(QStringLiteral("g"));
            } else {
                w.writeStartElement(name);
            }
            for (const QXmlStreamAttribute &a : r.attributes()) {
                const QString an = a.qualifiedName().toString();
                QString v = a.value().toString();
                if (root
                    && (an == QLatin1String("viewBox") || an == QLatin1String("width") || an == QLatin1String("height")
                        || an == QLatin1String("x") || an == QLatin1String("y") || an == QLatin1String("version")
                        || an == QLatin1String("id") || an.startsWith(QLatin1String("xml"))))
                    continue;
                if (a.namespaceUri() == QLatin1String("http://www.w3.org/1999/xlink")
                    && a.name() == QLatin1String("href")) {
                    w.writeAttribute(QStringLiteral("xlink:href"), v.startsWith(u'#') ? u'#' + prefix + v.mid(1) : v);
                    continue;
                }
                if (!a.namespaceUri().isEmpty() || an.contains(u':'))
                    continue; // editor metadata (inkscape:, sodipodi:, ...)
                if (an == QLatin1String("id"))
                    v = prefix + v;
                else if (an == QLatin1String("href") && v.startsWith(u'#'))
                    v = u'#' + prefix + v.mid(1);
                else
                    v = prefixRefs(v, prefix);
                w.writeAttribute(an, v);
            }
        } else if (token == QXmlStreamReader::EndElement) {
            if (skipDepth) {
                if (depth == skipDepth)
                    skipDepth = 0;
            } else {
                w.writeEndElement();
            }
            --depth;
        } else if (token == QXmlStreamReader::Characters && !skipDepth && depth > 0 && !r.isWhitespace()) {
            w.writeCharacters(r.text().toString()); // <style> contents and the like
        }
    }
    if (r.hasError() || viewBox->isEmpty())
        return std::nullopt;
    return out;
}

} // namespace

std::optional<EmojiSet> parseEmojiSet(const QString &name)
{
    return kEmojiSetNames.parseAnyCase(name);
}

QString emojiSetName(EmojiSet set)
{
    return kEmojiSetNames.name(set);
}

QStringList emojiSetNames()
{
    return kEmojiSetNames.names();
}

QString emojiFontFamily()
{
    return QStringLiteral("Noto Color Emoji");
}

bool isEmojiCluster(QStringView cluster)
{
    const QList<uint> cps = cluster.toUcs4();
    if (cps.isEmpty() || cps.contains(kVs15))
        return false;
    const uint first = cps.front();
    if (cps.size() == 1)
        return hasEmojiPresentation(first);
    if (isKeycapBase(first))
        return cps.contains(kKeycap);
    if (isRegionalIndicator(first))
        return cps.size() >= 2 && isRegionalIndicator(cps[1]);
    if (!isExtendedPictographic(first))
        return false;
    if (cps.contains(kVs16) || cps.contains(kZwj) || std::any_of(cps.begin(), cps.end(), isSkinTone))
        return true;
    return hasEmojiPresentation(first); // with a tag sequence or a stray combining mark
}

std::vector<EmojiCluster> findEmoji(QStringView text)
{
    std::vector<EmojiCluster> out;
    // Most text has no code point an emoji can start with: skip the boundary finder then.
    bool candidate = false;
    for (QChar c : text) {
        if (c.isSurrogate() || c.unicode() >= 0x2000 || c.unicode() == 0xA9 || c.unicode() == 0xAE) {
            candidate = true;
            break;
        }
    }
    if (!candidate)
        return out;
    const QString s = text.toString();
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, s);
    qsizetype start = 0;
    for (qsizetype next = finder.toNextBoundary(); next > 0; next = finder.toNextBoundary()) {
        if (isEmojiCluster(text.mid(start, next - start)))
            out.push_back({start, next - start});
        start = next;
    }
    return out;
}

QList<QTextLayout::FormatRange> emojiFormatRanges(QStringView text, const QFont &base)
{
    QList<QTextLayout::FormatRange> ranges;
    const auto clusters = findEmoji(text);
    if (clusters.empty())
        return ranges;
    QTextCharFormat format;
    format.setFontFamilies(QStringList{emojiFontFamily()});
    setEmojiAdvance(format, base, base.pixelSize() > 0 ? qreal(base.pixelSize()) : base.pointSizeF());
    // Qt shapes a pictograph and its trailing VS16 as two glyphs, each given the letter
    // spacing: the selector gets the emoji font without it (a ZWJ sequence or keycap is
    // one ligature glyph and keeps one range, or its shaping would split).
    QTextCharFormat selector;
    selector.setFontFamilies(QStringList{emojiFontFamily()});
    selector.setFontLetterSpacingType(QFont::AbsoluteSpacing);
    selector.setFontLetterSpacing(0);
    for (const EmojiCluster &c : clusters) {
        const QStringView cluster = text.mid(c.start, c.length);
        const bool trailingSelector = cluster.size() >= 2 && cluster.back() == QChar(kVs16)
                                      && !cluster.contains(QChar(kZwj)) && !cluster.contains(QChar(kKeycap));
        if (trailingSelector) {
            ranges.append({int(c.start), int(c.length - 1), format});
            ranges.append({int(c.start + c.length - 1), 1, selector});
        } else {
            ranges.append({int(c.start), int(c.length), format});
        }
    }
    return ranges;
}

void setEmojiAdvance(QTextCharFormat &format, const QFont &base, qreal pixelSize)
{
    const qreal correction = emojiAdvanceCorrection(pixelSize);
    if (correction == 0)
        return;
    const qreal spacing = base.letterSpacingType() == QFont::AbsoluteSpacing ? base.letterSpacing() : 0;
    format.setFontLetterSpacingType(QFont::AbsoluteSpacing);
    format.setFontLetterSpacing(spacing + correction);
}

qreal emojiAdvanceCorrection(qreal pixelSize)
{
    // Per thread: QRawFont and font engines are thread-affine. The ratio is the same at
    // every size, so it is measured once at 100 px.
    thread_local const qreal perEm = [] {
        QFont font(emojiFontFamily());
        font.setPixelSize(100);
        const QRawFont raw = QRawFont::fromFont(font);
        if (!raw.isValid() || raw.familyName() != emojiFontFamily())
            return qreal(0);
        const QList<quint32> glyphs = raw.glyphIndexesForString(QStringLiteral("\U0001F4AC"));
        const QByteArray head = raw.fontTable("head"), hhea = raw.fontTable("hhea"), hmtx = raw.fontTable("hmtx");
        if (glyphs.size() != 1 || glyphs.front() == 0 || head.size() < 20 || hhea.size() < 36)
            return qreal(0);
        const auto u16 = [](const QByteArray &t, qsizetype at) {
            return at + 2 <= t.size() ? uint(quint8(t[at])) << 8 | quint8(t[at + 1]) : 0u;
        };
        const uint unitsPerEm = u16(head, 18), metrics = u16(hhea, 34);
        if (unitsPerEm == 0 || metrics == 0)
            return qreal(0);
        const uint advance = u16(hmtx, 4 * qsizetype(std::min<uint>(glyphs.front(), metrics - 1)));
        const qreal qtAdvance = raw.advancesForGlyphIndexes(glyphs).front().x() / 100;
        return advance == 0 ? qreal(0) : qreal(advance) / unitsPerEm - qtAdvance;
    }();
    return std::abs(perEm) < 1e-3 ? 0 : perEm * pixelSize;
}

QString normalizeEmojiForShaping(const QString &text)
{
    if (!text.contains(QChar(0xFE0F)))
        return text;
    const auto clusters = findEmoji(text);
    QString out = text;
    for (auto it = clusters.rbegin(); it != clusters.rend(); ++it) {
        const QStringView cluster = QStringView(text).mid(it->start, it->length);
        if (!cluster.contains(QChar(0xFE0F)) || !(cluster.contains(QChar(0x20E3)) || cluster.contains(QChar(0x200D))))
            continue;
        QString stripped = cluster.toString();
        stripped.remove(QChar(0xFE0F));
        out.replace(it->start, it->length, stripped);
    }
    return out;
}

QString emojiCodepoints(QStringView cluster)
{
    return hexJoin(cluster.toUcs4(), false, 0);
}

QString emojiDirectoryFor(const QString &dataDir)
{
    const QString env = qEnvironmentVariable("IMPRINT_EMOJI_DIR");
    if (!env.isEmpty())
        return env;
    // scripts/run-demo and scripts/test fetch into the per-user default; a data directory
    // wins only when the sets were unpacked there.
    if (!dataDir.isEmpty() && QFileInfo::exists(QDir(dataDir).filePath(QStringLiteral("emoji"))))
        return QDir(dataDir).filePath(QStringLiteral("emoji"));
    return QDir::homePath() + QStringLiteral("/.local/share/imprint/emoji");
}

QStringList emojiFileCandidates(QStringView cluster, EmojiSet set)
{
    const QList<uint> full = cluster.toUcs4();
    QList<uint> noVs = full;
    noVs.removeAll(kVs16);
    // A keycap typed without VS16 is named with it by OpenMoji.
    QList<uint> withVs = full;
    if (full.size() == 2 && isKeycapBase(full[0]) && full[1] == kKeycap)
        withVs.insert(1, kVs16);
    QStringList names;
    auto add = [&](const QString &n) {
        if (!names.contains(n))
            names << n + QStringLiteral(".svg");
    };
    if (set == EmojiSet::Openmoji) {
        for (const auto &cps : {full, withVs, noVs})
            add(hexJoin(cps, true, 4));
    } else {
        const bool zwj = full.contains(kZwj);
        for (const auto &cps : zwj ? QList<QList<uint>>{full, noVs} : QList<QList<uint>>{noVs, full})
            add(hexJoin(cps, false, 0));
    }
    // A ZWJ sequence whose FE0F were dropped for shaping: the sets name the fully
    // qualified form, FE0F after some single-code-point components; try them all.
    if (full.contains(kZwj) && !full.contains(kVs16)) {
        QList<QList<uint>> parts{{}};
        for (uint c : full) {
            if (c == kZwj)
                parts.append(QList<uint>());
            else
                parts.last().append(c);
        }
        const int n = int(parts.size());
        if (n <= 5) {
            for (int mask = 1; mask < (1 << n); ++mask) {
                QList<uint> cps;
                for (int i = 0; i < n; ++i) {
                    if (i)
                        cps.append(kZwj);
                    cps += parts[i];
                    if ((mask >> i) & 1 && parts[i].size() == 1)
                        cps.append(kVs16);
                }
                add(set == EmojiSet::Openmoji ? hexJoin(cps, true, 4) : hexJoin(cps, false, 0));
            }
        }
    }
    names.removeDuplicates();
    return names;
}

QImage EmojiImage::raster(int px) const
{
    px = std::clamp(px, 1, 1024);
    {
        QMutexLocker lock(&m_rasterMutex);
        const auto it = m_rasters.constFind(px);
        if (it != m_rasters.constEnd())
            return *it;
    }
    QImage image(px, px, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QSvgRenderer renderer(source);
    if (renderer.isValid()) {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        renderer.render(&p, QRectF(0, 0, px, px));
    }
    QMutexLocker lock(&m_rasterMutex);
    if (m_rasters.size() >= kRasterSizesPerImage)
        m_rasters.clear();
    m_rasters.insert(px, image);
    return image;
}

EmojiLibrary::EmojiLibrary(QString directory, int capacity)
    : m_directory(std::move(directory))
    , m_cache(std::max(capacity, 1), false)
{ }

std::shared_ptr<const EmojiImage> EmojiLibrary::image(QStringView cluster, EmojiSet set)
{
    if (set == EmojiSet::Noto)
        return nullptr;
    const QString dir = m_directory + u'/' + emojiSetName(set);
    const QString key = emojiSetName(set) + u'|' + cluster.toString();
    if (auto hit = m_cache.find(key))
        return *hit;
    std::shared_ptr<EmojiImage> image;
    for (const QString &name : emojiFileCandidates(cluster, set)) {
        QFile file(dir + u'/' + name);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        auto img = std::make_shared<EmojiImage>();
        img->path = file.fileName();
        img->source = file.readAll();
        img->idPrefix
            = QStringLiteral("%1%2-").arg(set == EmojiSet::Twemoji ? u't' : u'o').arg(emojiCodepoints(cluster));
        if (auto fragment = toFragment(img->source, img->idPrefix, &img->viewBox)) {
            img->fragment = *fragment;
            image = std::move(img);
        }
        break;
    }
    m_cache.insert(key, image);
    return image;
}

EmojiGlyphMap::EmojiGlyphMap(QStringView text, const QFont &base)
{
    const auto clusters = findEmoji(text);
    if (clusters.empty())
        return;
    thread_local QHash<QString, quint32> glyphOf; // per thread: QFont engines are thread-local
    QFont font = base;
    font.setFamilies(QStringList{emojiFontFamily()});
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0);
    for (const EmojiCluster &c : clusters) {
        const QString cluster = text.mid(c.start, c.length).toString();
        auto it = glyphOf.constFind(cluster);
        if (it == glyphOf.constEnd()) {
            quint32 glyph = 0;
            QTextLayout layout(cluster, font);
            layout.beginLayout();
            QTextLine line = layout.createLine();
            layout.endLayout();
            if (line.isValid()) {
                // A lone VS16 may land in another font as a zero-width glyph: count only
                // the emoji font's glyphs.
                int count = 0;
                for (const QGlyphRun &run : line.glyphRuns()) {
                    if (isEmojiRun(run)) {
                        count += int(run.glyphIndexes().size());
                        if (!run.glyphIndexes().isEmpty())
                            glyph = run.glyphIndexes().front();
                    }
                }
                if (count != 1)
                    glyph = 0;
            }
            if (glyphOf.size() > 4096)
                glyphOf.clear();
            it = glyphOf.insert(cluster, glyph);
        }
        if (*it != 0)
            m_clusters.insert(*it, cluster);
    }
}

bool EmojiGlyphMap::isEmojiRun(const QGlyphRun &run)
{
    return run.rawFont().familyName() == emojiFontFamily();
}

QRectF emojiImageRect(QPointF pos, qreal advance, qreal fontSize)
{
    return QRectF(pos.x() + (advance - fontSize) / 2, pos.y() + 0.1 * fontSize - fontSize, fontSize, fontSize);
}

void drawEmojiRun(QPainter &painter, QPointF origin, const QGlyphRun &run, const EmojiGlyphMap &map,
                  EmojiLibrary &library, EmojiSet set, qreal fontSize, QStringList *warnings)
{
    const QList<quint32> glyphs = run.glyphIndexes();
    const QList<QPointF> positions = run.positions();
    const QList<QPointF> advances = run.rawFont().advancesForGlyphIndexes(glyphs);
    // Device pixels per px, so the raster is as sharp as the target.
    const qreal scale = std::max<qreal>(1, std::sqrt(std::abs(painter.transform().determinant())));
    for (qsizetype i = 0; i < glyphs.size(); ++i) {
        const QString cluster = map.clusterFor(glyphs[i]);
        std::shared_ptr<const EmojiImage> image;
        if (set != EmojiSet::Noto && !cluster.isEmpty()) {
            image = library.image(cluster, set);
            if (!image && warnings) {
                const QString w
                    = QStringLiteral("emojiType: no %1 image for %2 in %3; drawn with the Noto Color Emoji font")
                          .arg(emojiSetName(set), emojiCodepoints(cluster), library.directory());
                if (!warnings->contains(w))
                    warnings->append(w);
            }
        }
        if (image) {
            const QRectF rect
                = emojiImageRect(origin + positions[i], advances[i].x() + emojiAdvanceCorrection(fontSize), fontSize);
            painter.save();
            painter.setRenderHint(QPainter::SmoothPixmapTransform);
            painter.drawImage(rect, image->raster(int(std::ceil(rect.width() * scale))));
            painter.restore();
            continue;
        }
        QGlyphRun single = run;
        single.setGlyphIndexes({glyphs[i]});
        single.setPositions({QPointF(0, 0)});
        // The bitmap scaled to the advance the glyph is laid out with (emojiAdvanceCorrection()),
        // about its origin on the baseline, as Chromium scales the strike.
        const qreal k = emojiGlyphScale(advances[i].x(), fontSize);
        painter.save();
        painter.translate(origin + positions[i]);
        painter.scale(k, k);
        painter.drawGlyphRun(QPointF(0, 0), single);
        painter.restore();
    }
}

qreal emojiGlyphScale(qreal advance, qreal fontSize)
{
    return advance > 0 ? (advance + emojiAdvanceCorrection(fontSize)) / advance : 1.0;
}

} // namespace imprint::render
