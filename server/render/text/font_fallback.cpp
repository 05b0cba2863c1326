#include "server/render/text/font_fallback.h"

#include "server/render/text/hermetic_fonts.h"
#include "server/render/text/large_glyphs.h"

#include <QCache>
#include <QFont>
#include <QGlyphRun>
#include <QHash>
#include <QImage>
#include <QPainter>
#include <QTransform>

#include <fontconfig/fontconfig.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

namespace imprint::render {

namespace {

// Qt's FreeType engine emboldens a regular face asked for bold by itself, below 64 px
// only and by 1/24 em, wider than Skia, and slants an upright face asked for italic
// by 12° and widens its advances. Synthetic styles are ours alone (syntheticBoldWidth(),
// syntheticItalic()), so Qt's are turned off before any font engine exists (Qt reads the
// variables per engine).
[[maybe_unused]] const bool kQtSyntheticStylesOff = [] {
    qputenv("QT_NO_SYNTHESIZED_BOLD", "1");
    qputenv("QT_NO_SYNTHESIZED_ITALIC", "1");
    return true;
}();

// Imprint's own fontconfig configuration (hermetic_fonts.h), likewise set before Qt's font
// database or fontconfig exist. A static initialiser rather than a call in main(): the
// test suites run QTest's main(), and every process that draws text (server, CLI,
// console, test suites) links this file.
[[maybe_unused]] const QString kHermeticFontsFile = useHermeticFonts();

constexpr qreal kFakeItalicSkew = 0.25; // Skia's SkFont::setSkewX(-1/4) for synthetic italic

/// The OS/2 usWeightClass and italic bits of a face (fsSelection ITALIC or OBLIQUE, or
/// head.macStyle italic, as FreeType's FT_STYLE_FLAG_ITALIC).
struct FaceStyle {
    int weight = 400;
    bool italic = false;
};

FaceStyle faceStyle(const QRawFont &font)
{
    thread_local QHash<QString, FaceStyle> styles;
    const QString key = font.familyName() + u'|' + font.styleName();
    auto it = styles.constFind(key);
    if (it != styles.constEnd())
        return *it;
    FaceStyle style;
    const QByteArray os2 = font.fontTable("OS/2");
    const auto u16
        = [](const QByteArray &table, int at) { return (int(quint8(table[at])) << 8) | int(quint8(table[at + 1])); };
    if (os2.size() >= 6)
        style.weight = std::clamp(u16(os2, 4), 1, 1000);
    if (os2.size() >= 64)
        style.italic = (u16(os2, 62) & 0x201) != 0;
    const QByteArray head = font.fontTable("head");
    if (head.size() >= 46)
        style.italic = style.italic || (u16(head, 44) & 0x2) != 0;
    if (styles.size() > 4096)
        styles.clear();
    return *styles.insert(key, style);
}

struct FallbackEntry {
    FallbackFace face;
    FcCharSet *charset = nullptr; // owned by the process-wide list, never freed
};

/// fontconfig's fallback order for `locale` (a fontconfig language tag such as "en-us",
/// "ja", "zh-cn"), as Chromium's gfx::GetFallbackFontForChar() builds it: FcFontSort of a
/// pattern with only the language and `scalable`, after the configured substitutions.
std::vector<FallbackEntry> sortedFallbacks(const QByteArray &locale)
{
    std::vector<FallbackEntry> out;
    const std::unique_ptr<FcPattern, decltype(&FcPatternDestroy)> pattern(FcPatternCreate(), &FcPatternDestroy);
    if (!pattern)
        return out;
    FcPatternAddString(pattern.get(), FC_LANG, reinterpret_cast<const FcChar8 *>(locale.constData()));
    FcPatternAddBool(pattern.get(), FC_SCALABLE, FcTrue);
    FcConfigSubstitute(nullptr, pattern.get(), FcMatchPattern);
    FcDefaultSubstitute(pattern.get());
    FcResult result = FcResultNoMatch;
    const std::unique_ptr<FcFontSet, decltype(&FcFontSetDestroy)> set(
        FcFontSort(nullptr, pattern.get(), FcFalse, nullptr, &result), &FcFontSetDestroy);
    if (!set)
        return out;
    for (int i = 0; i < set->nfont; ++i) {
        FcPattern *font = set->fonts[i];
        FcChar8 *file = nullptr, *family = nullptr, *style = nullptr;
        FcCharSet *charset = nullptr;
        // Installed files only: Qt registers a space's uploaded fonts with fontconfig under
        // a ":qmemoryfonts/" name, and Chromium never falls back to a page's web fonts.
        if (FcPatternGetString(font, FC_FILE, 0, &file) != FcResultMatch || !file || file[0] != '/')
            continue;
        if (FcPatternGetString(font, FC_FAMILY, 0, &family) != FcResultMatch || !family
            || FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) != FcResultMatch || !charset)
            continue;
        FallbackEntry e;
        e.face.family = QString::fromUtf8(reinterpret_cast<const char *>(family));
        if (FcPatternGetString(font, FC_STYLE, 0, &style) == FcResultMatch && style)
            e.face.style = QString::fromUtf8(reinterpret_cast<const char *>(style));
        double weight = FC_WEIGHT_REGULAR;
        if (FcPatternGetDouble(font, FC_WEIGHT, 0, &weight) != FcResultMatch) {
            int w = FC_WEIGHT_REGULAR;
            if (FcPatternGetInteger(font, FC_WEIGHT, 0, &w) == FcResultMatch)
                weight = w;
        }
        e.face.weight = std::clamp(int(std::lround(FcWeightToOpenTypeDouble(weight))), 1, 1000);
        int slant = FC_SLANT_ROMAN;
        FcPatternGetInteger(font, FC_SLANT, 0, &slant);
        e.face.italic = slant != FC_SLANT_ROMAN;
        e.charset = FcCharSetCopy(charset);
        out.push_back(std::move(e));
    }
    return out;
}

/// Skia's fake-bold stroke width per px of text size (SkScalerContext.cpp
/// kStdFakeBoldInterpKeys/Values): 1/24 at 9 px and below, 1/32 at 36 px and above.
qreal fakeBoldScale(qreal size)
{
    constexpr qreal kSmall = 9, kLarge = 36;
    if (size <= kSmall)
        return 1.0 / 24;
    if (size >= kLarge)
        return 1.0 / 32;
    const qreal t = (size - kSmall) / (kLarge - kSmall);
    return 1.0 / 24 + t * (1.0 / 32 - 1.0 / 24);
}

qreal cross(QPointF a, QPointF b)
{
    return a.x() * b.y() - a.y() * b.x();
}

/// `path` with every contour moved outwards by `outset` px (FreeType's
/// FT_Outline_EmboldenXY, centred): each point, control points included, shifts along the
/// bisector of its two edges so that the edges move by `outset`, mitred; at a concave
/// corner between short edges the shift is limited so the contour does not fold over.
QPainterPath offsetOutline(const QPainterPath &path, qreal outset)
{
    const int count = path.elementCount();
    // The outline's orientation: outer contours dominate the signed area (y down).
    qreal area = 0;
    for (int s = 0; s < count;) {
        int e = s + 1;
        while (e < count && !path.elementAt(e).isMoveTo())
            ++e;
        for (int k = s; k < e; ++k) {
            const QPointF a = path.elementAt(k), b = path.elementAt(k + 1 < e ? k + 1 : s);
            area += cross(a, b);
        }
        s = e;
    }
    const qreal sign = area >= 0 ? 1 : -1;
    QPainterPath out = path;
    std::vector<QPointF> ring;
    for (int s = 0; s < count;) {
        int e = s + 1;
        while (e < count && !path.elementAt(e).isMoveTo())
            ++e;
        ring.clear();
        for (int k = s; k < e; ++k)
            ring.emplace_back(path.elementAt(k));
        const bool closedTwice = ring.size() > 1 && ring.back() == ring.front();
        const int m = int(ring.size()) - (closedTwice ? 1 : 0);
        if (m >= 3) {
            for (int k = 0; k < m; ++k) {
                const QPointF cur = ring[size_t(k)];
                int p = (k + m - 1) % m, n = (k + 1) % m;
                for (int guard = 0; guard < m && ring[size_t(p)] == cur; ++guard)
                    p = (p + m - 1) % m;
                for (int guard = 0; guard < m && ring[size_t(n)] == cur; ++guard)
                    n = (n + 1) % m;
                QPointF in = cur - ring[size_t(p)], outv = ring[size_t(n)] - cur;
                const qreal lin = std::hypot(in.x(), in.y()), lout = std::hypot(outv.x(), outv.y());
                if (lin <= 0 || lout <= 0)
                    continue;
                in /= lin;
                outv /= lout;
                const qreal cosine = in.x() * outv.x() + in.y() * outv.y();
                if (cosine <= -0.9375) // a turn of more than ~160°: leave the point
                    continue;
                const qreal d = 1 + cosine;
                const QPointF normals = sign * QPointF(in.y() + outv.y(), -(in.x() + outv.x()));
                qreal factor = outset / d;
                const qreal q = -sign * cross(in, outv); // > 0 at a concave corner
                const qreal l = std::min(lin, lout);
                if (q > 0 && outset * q > l * d)
                    factor = l / q;
                out.setElementPositionAt(s + k, cur.x() + normals.x() * factor, cur.y() + normals.y() * factor);
            }
            if (closedTwice)
                out.setElementPositionAt(e - 1, out.elementAt(s).x, out.elementAt(s).y);
        }
        s = e;
    }
    return out;
}

} // namespace

QByteArray fallbackLocale(const QString &lang)
{
    const QString tag = lang.trimmed().toLower().replace(u'_', u'-');
    if (tag.isEmpty())
        return QByteArrayLiteral("en-us");
    // Chinese by script or region, as Blink's LayoutLocale reads it for Han: Simplified
    // (zh, zh-hans, zh-cn, zh-sg) or Traditional (zh-hant, zh-tw; zh-hk and zh-mo keep
    // their region, which fontconfig's Noto CJK configuration knows).
    if (tag == QLatin1String("zh") || tag.startsWith(QLatin1String("zh-"))) {
        const QStringList parts = tag.split(u'-');
        if (parts.contains(QLatin1String("hk")) || parts.contains(QLatin1String("mo")))
            return QByteArrayLiteral("zh-hk");
        if (parts.contains(QLatin1String("hant")) || parts.contains(QLatin1String("tw")))
            return QByteArrayLiteral("zh-tw");
        return QByteArrayLiteral("zh-cn");
    }
    return tag.toLatin1();
}

const FallbackFace *systemFallbackFace(char32_t ucs4, const QString &lang)
{
    // One fontconfig sort per locale, kept for the process (the default locale's first);
    // past kMaxLocales languages the rest get the default order rather than an unbounded
    // list of sorts. Entries are never removed, so their indices and addresses stay valid.
    constexpr size_t kMaxLocales = 32;
    struct Sorted {
        QByteArray locale;
        std::vector<FallbackEntry> fallbacks;
    };
    static std::mutex mutex;
    static std::vector<std::unique_ptr<Sorted>> sorts;
    // This thread's answers, looked up per character without the lock: the sort index of
    // each `lang` as written (normalised once, by fallbackLocale()), and the face index of
    // each (sort, character), -1 for none.
    struct Known {
        quint64 index; // into `sorts`
        const Sorted *sorted; // sorts[index], stable: each sort is its own allocation
    };
    thread_local QHash<QString, Known> sortOf;
    thread_local QHash<quint64, int> chosen;
    auto known = sortOf.constFind(lang);
    if (known == sortOf.constEnd()) {
        const QByteArray locale = fallbackLocale(lang);
        std::lock_guard lock(mutex);
        if (sorts.empty())
            sorts.push_back(std::make_unique<Sorted>(Sorted{"en-us", sortedFallbacks("en-us")}));
        size_t index = 0; // the default order, unless the locale has or gets its own
        while (index < sorts.size() && sorts[index]->locale != locale)
            ++index;
        if (index == sorts.size()) {
            if (sorts.size() < kMaxLocales)
                sorts.push_back(std::make_unique<Sorted>(Sorted{locale, sortedFallbacks(locale)}));
            else
                index = 0;
        }
        if (sortOf.size() > 1024)
            sortOf.clear();
        known = sortOf.insert(lang, Known{index, sorts[index].get()});
    }
    const Sorted *sorted = known->sorted;
    const quint64 key = known->index << 21 | quint64(ucs4); // code points have 21 bits
    auto it = chosen.constFind(key);
    if (it == chosen.constEnd()) {
        int index = -1;
        for (size_t i = 0; i < sorted->fallbacks.size(); ++i) {
            if (FcCharSetHasChar(sorted->fallbacks[i].charset, FcChar32(ucs4))) {
                index = int(i);
                break;
            }
        }
        if (chosen.size() > 65536)
            chosen.clear();
        it = chosen.insert(key, index);
    }
    return *it >= 0 ? &sorted->fallbacks[size_t(*it)].face : nullptr;
}

QFont fallbackFont(const QFont &base, const FallbackFace &face, int requestedWeight, bool italic)
{
    QFont font = base;
    font.setFamilies({face.family});
    font.setStyleName(face.style);
    // Blink's FontCache::PlatformFallbackFontForCharacter: bold asked of a face that is
    // not bold is synthetic bold; the weight then says so to syntheticBoldWidth().
    const bool syntheticBold = requestedWeight >= 600 && face.weight < 600;
    const int weight = syntheticBold ? std::max(requestedWeight, face.weight + 201) : requestedWeight;
    font.setWeight(QFont::Weight(std::clamp(weight, 1, 1000)));
    font.setStyle(italic && !face.italic ? QFont::StyleItalic : QFont::StyleNormal);
    return font;
}

QRawFont selectedFace(const QString &family, int weight, bool italic)
{
    QFont font;
    font.setFamilies({family});
    font.setPixelSize(16);
    font.setWeight(QFont::Weight(std::clamp(weight, 1, 1000)));
    font.setStyle(italic ? QFont::StyleItalic : QFont::StyleNormal);
    return QRawFont::fromFont(font);
}

int faceWeight(const QRawFont &font)
{
    return faceStyle(font).weight;
}

bool syntheticItalic(const QRawFont &font)
{
    return font.isValid() && font.style() != QFont::StyleNormal && !faceStyle(font).italic;
}

qreal syntheticBoldWidth(const QRawFont &font)
{
    if (!font.isValid() || font.weight() <= faceWeight(font) + 200)
        return 0;
    const qreal size = font.pixelSize();
    return size * fakeBoldScale(size);
}

namespace {

// Qt's FreeType engine keeps a glyph cache of its own, which would answer
// resetOutlineOrigin()'s load without reaching FreeType. Switched off for every engine this
// process makes (the variable is read as each is made, so during static initialisation is
// early enough); QPainter's own glyph cache holds the same bitmaps, so the fixtures render
// byte-identical and as fast.
const bool g_noFreetypeEngineCache = [] {
    qputenv("QT_NO_FT_CACHE", "1");
    return true;
}();

} // namespace

bool hasOutlines(const QRawFont &font)
{
    if (!font.isValid())
        return false;
    thread_local QHash<QString, bool> known;
    const QString face = font.familyName() + u'|' + font.styleName();
    auto it = known.constFind(face);
    if (it == known.constEnd()) {
        // fontTable() copies the table: once per face and thread. A TrueType face's `loca`
        // says it has `glyf` outlines without copying them.
        const bool outlines = !font.fontTable("loca").isEmpty() || !font.fontTable("CFF ").isEmpty()
                              || !font.fontTable("CFF2").isEmpty();
        if (known.size() > 1024)
            known.clear();
        it = known.insert(face, outlines);
    }
    return *it;
}

void resetOutlineOrigin(const QRawFont &font)
{
    if (!hasOutlines(font))
        return;
    // Qt 6.4's QFontEngineFT::loadGlyph() sets the FreeType face's transform to the glyph's
    // subpixel offset (FT_Set_Transform's delta) and leaves it there; the face is shared by
    // every size of the font, and addGlyphsToPath() — QRawFont::pathForGlyph() and
    // QPainter's filling of glyphs over 256 px — loads with that delta: an outline moved by
    // up to 3/4 of a font unit whenever a smaller size of the same face had rasterised a
    // glyph not seen before (an 80 px title drew 2 000+ pixels differently after a 28 px
    // caption). Loading a glyph at subpixel offset 0 sets the delta back to 0.
    Q_UNUSED(g_noFreetypeEngineCache);
    font.alphaMapForGlyph(0, QRawFont::PixelAntialiasing); // .notdef: every face has one
}

namespace {

/// glyphOutline(), resetting the face's origin before reading an outline unless `*reset`
/// says it was done already for this font (then sets it): nothing rasterises between the
/// glyphs of one run, so one reset serves all of them.
QPainterPath outlineOf(const QRawFont &font, quint32 glyph, bool *reset)
{
    const auto resetOnce = [&] {
        if (!*reset)
            resetOutlineOrigin(font);
        *reset = true;
    };
    const qreal width = syntheticBoldWidth(font);
    const bool slanted = syntheticItalic(font);
    if (width <= 0 && !slanted) {
        resetOnce();
        return font.pathForGlyph(glyph);
    }
    // Kept per thread, bounded by the bytes of the outlines: every size of a title is new
    // glyphs, and a grown CJK outline is thousands of elements.
    constexpr qsizetype kBudgetBytes = 4 << 20;
    thread_local QCache<QString, QPainterPath> cache(kBudgetBytes);
    const QString key = font.familyName() + u'|' + font.styleName() + u'|' + QString::number(font.pixelSize()) + u'|'
                        + QString::number(width) + (slanted ? u'i' : u'n') + QString::number(glyph);
    if (const QPainterPath *cached = cache.object(key))
        return *cached;
    resetOnce();
    QPainterPath path = font.pathForGlyph(glyph);
    if (slanted) // x' = x - y/4 about the baseline (y down): the top leans forward
        path = QTransform(1, 0, -kFakeItalicSkew, 1, 0, 0).map(path);
    if (width > 0)
        path = offsetOutline(path, width / 2);
    path.setFillRule(Qt::WindingFill);
    const qsizetype cost = path.elementCount() * qsizetype(sizeof(QPainterPath::Element))
                           + key.size() * qsizetype(sizeof(QChar)) + 64;
    if (cost <= cache.maxCost())
        cache.insert(key, std::make_unique<QPainterPath>(path).release(), cost); // QCache owns it
    return path;
}

} // namespace

QPainterPath glyphOutline(const QRawFont &font, quint32 glyph)
{
    if (!hasOutlines(font))
        return {};
    bool reset = false;
    return outlineOf(font, glyph, &reset);
}

QPainterPath glyphRunOutline(const QGlyphRun &run, QPointF at)
{
    QPainterPath path;
    const QRawFont font = run.rawFont();
    const QList<quint32> glyphs = run.glyphIndexes();
    const QList<QPointF> positions = run.positions();
    if (!hasOutlines(font))
        return path;
    bool reset = false;
    for (qsizetype i = 0; i < glyphs.size() && i < positions.size(); ++i)
        path.addPath(outlineOf(font, glyphs[i], &reset).translated(at + positions[i]));
    return path;
}

std::vector<std::pair<qreal, qreal>> glyphRunIntercepts(const QGlyphRun &run, QPointF at, qreal top, qreal bottom)
{
    std::vector<std::pair<qreal, qreal>> intercepts;
    const QRawFont font = run.rawFont();
    if (bottom <= top || !hasOutlines(font))
        return intercepts;
    const QList<quint32> glyphs = run.glyphIndexes();
    const QList<QPointF> positions = run.positions();
    // The outline may reach past the face's box when synthetic bold grows it (the slant of
    // synthetic italic moves it sideways only).
    const qreal grow = std::max<qreal>(0, syntheticBoldWidth(font)) + 1;
    bool reset = false;
    for (qsizetype i = 0; i < glyphs.size() && i < positions.size(); ++i) {
        const QPointF origin = at + positions[i];
        const QRectF box = font.boundingRect(glyphs[i]).translated(origin);
        if (box.isEmpty() || box.bottom() + grow < top || box.top() - grow > bottom)
            continue;
        // As Skia's SkGlyph::ensureIntercepts: where each segment of the outline crosses
        // the band's edges, and every point of it inside the band, control points included
        // (a TrueType quadratic's one control point, recovered from Qt's cubic).
        qreal from = std::numeric_limits<qreal>::max(), to = std::numeric_limits<qreal>::lowest();
        const auto take = [&](QPointF p) {
            if (p.y() >= top && p.y() <= bottom) {
                from = std::min(from, p.x());
                to = std::max(to, p.x());
            }
        };
        const auto segment = [&](QPointF a, QPointF b) {
            take(a);
            take(b);
            for (const qreal y : {top, bottom}) {
                if ((a.y() - y) * (b.y() - y) < 0)
                    take(QPointF(a.x() + (b.x() - a.x()) * (y - a.y()) / (b.y() - a.y()), y));
            }
        };
        const QPainterPath outline = outlineOf(font, glyphs[i], &reset).translated(origin);
        QPointF last;
        for (int k = 0; k < outline.elementCount(); ++k) {
            const QPainterPath::Element e = outline.elementAt(k);
            if (e.isMoveTo()) {
                last = e;
            } else if (e.isLineTo()) {
                segment(last, e);
                last = e;
            } else if (e.isCurveTo() && k + 2 < outline.elementCount()) {
                const QPointF c1 = e, c2 = outline.elementAt(k + 1), end = outline.elementAt(k + 2);
                const QPointF q1 = (3 * c1 - last) / 2, q2 = (3 * c2 - end) / 2;
                if ((q1 - q2).manhattanLength() < 1e-3) {
                    take(q1);
                } else {
                    take(c1);
                    take(c2);
                }
                if (std::max({last.y(), c1.y(), c2.y(), end.y()}) >= top
                    && std::min({last.y(), c1.y(), c2.y(), end.y()}) <= bottom) {
                    constexpr int kSteps = 16;
                    QPointF previous = last;
                    for (int j = 1; j <= kSteps; ++j) {
                        const qreal u = qreal(j) / kSteps, v = 1 - u;
                        const QPointF p = v * v * v * last + 3 * v * v * u * c1 + 3 * v * u * u * c2 + u * u * u * end;
                        segment(previous, p);
                        previous = p;
                    }
                }
                last = end;
                k += 2;
            }
        }
        if (from <= to)
            intercepts.emplace_back(from, to);
    }
    return intercepts;
}

namespace {

/// One synthetic glyph rasterised at a quarter-pixel phase, premultiplied, in one colour.
struct GlyphImage {
    QImage image;
    QPoint offset; ///< device px from the glyph origin's whole-pixel floor to the image
};

/// Draws a synthetic (emboldened or slanted) run from per-thread rasterised glyph images,
/// as a glyph cache does: filling the grown outlines of a CJK headline costs more than the
/// rest of its render. Only for solid colours under a translation; false otherwise.
bool drawCachedGlyphs(QPainter &painter, QPointF origin, const QRawFont &font, const QList<quint32> &glyphs,
                      const QList<QPointF> &positions)
{
    const QTransform device = painter.deviceTransform();
    const QBrush brush = painter.pen().brush();
    if (device.type() > QTransform::TxTranslate || brush.style() != Qt::SolidPattern
        || painter.compositionMode() != QPainter::CompositionMode_SourceOver)
        return false;
    // Quarter-pixel phases in x and y, as Skia's glyph cache keeps subpixel glyphs; the
    // cache holds at most kBudget bytes of images per render thread.
    constexpr qsizetype kBudget = 8 << 20;
    thread_local QHash<QString, GlyphImage> cache;
    thread_local qsizetype bytes = 0;
    const QString face = font.familyName() + u'|' + font.styleName() + u'|' + QString::number(font.pixelSize()) + u'|'
                         + QString::number(font.weight()) + u'|' + QString::number(int(font.style())) + u'|'
                         + QString::number(brush.color().rgba(), 16) + u'|';
    for (qsizetype i = 0; i < glyphs.size() && i < positions.size(); ++i) {
        // Rounded to the nearest quarter, as Skia rounds a glyph's subpixel position.
        const QPointF at = device.map(origin + positions[i]);
        const QPointF quarters(std::round(at.x() * 4), std::round(at.y() * 4));
        const QPointF floor(std::floor(quarters.x() / 4), std::floor(quarters.y() / 4));
        const int phaseX = int(quarters.x() - floor.x() * 4), phaseY = int(quarters.y() - floor.y() * 4);
        const QString key = face + QString::number(glyphs[i]) + u'.' + QString::number(phaseX * 4 + phaseY);
        auto it = cache.constFind(key);
        if (it == cache.constEnd()) {
            const QPainterPath outline = glyphOutline(font, glyphs[i]).translated(phaseX / 4.0, phaseY / 4.0);
            const QRect box = outline.boundingRect().toAlignedRect().adjusted(-1, -1, 1, 1);
            GlyphImage g{QImage(box.size().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied),
                         box.topLeft()};
            g.image.fill(Qt::transparent);
            if (!outline.isEmpty()) {
                QPainter gp(&g.image);
                gp.setRenderHint(QPainter::Antialiasing, true);
                gp.translate(-box.topLeft());
                gp.fillPath(outline, brush.color());
            }
            if (bytes + g.image.sizeInBytes() > kBudget) {
                cache.clear();
                bytes = 0;
            }
            bytes += g.image.sizeInBytes();
            it = cache.insert(key, g);
        }
        // The device transform is a translation: the image lands on whole device pixels.
        painter.drawImage(floor + QPointF(it->offset) - QPointF(device.dx(), device.dy()), it->image);
    }
    return true;
}

} // namespace

void paintGlyphRun(QPainter &painter, QPointF origin, const QGlyphRun &run)
{
    const QRawFont font = run.rawFont();
    if (syntheticBoldWidth(font) <= 0 && !syntheticItalic(font)) {
        if (drawLargeGlyphRun(painter, origin, run))
            return;
        // What drawLargeGlyphRun() left and is over kQtCachedGlyphPx may be drawn from
        // outlines (on a raster painter above kLargestMaskedGlyphPx; another paint engine
        // reads them at any size): those outlines need the face's origin reset.
        const qreal devicePx = font.pixelSize() * std::sqrt(std::abs(painter.deviceTransform().determinant()));
        if (devicePx > kQtCachedGlyphPx)
            resetOutlineOrigin(font);
        painter.drawGlyphRun(origin, run);
        return;
    }
    const QList<quint32> glyphs = run.glyphIndexes();
    const QList<QPointF> positions = run.positions();
    // Colour bitmap glyphs (emoji) have no outline to embolden or slant: drawn below as is.
    const bool outlined
        = std::any_of(glyphs.cbegin(), glyphs.cend(), [&](quint32 g) { return !glyphOutline(font, g).isEmpty(); });
    if (outlined && drawCachedGlyphs(painter, origin, font, glyphs, positions))
        return;
    QPainterPath path = glyphRunOutline(run, origin);
    path.setFillRule(Qt::WindingFill);
    if (path.isEmpty()) { // colour bitmap glyphs have no outline to embolden or slant
        painter.drawGlyphRun(origin, run);
        return;
    }
    const bool antialiased = painter.testRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillPath(path, painter.pen().brush());
    painter.setRenderHint(QPainter::Antialiasing, antialiased);
}

} // namespace imprint::render
