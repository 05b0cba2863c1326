#include "server/render/text/text_engine.h"
#include "server/render/text/glyph_rendering.h"
#include "server/render/text/text_internal.h"

#include "server/render/resources/emoji.h"
#include "server/render/text/feature_faces.h"
#include "server/render/text/font_fallback.h"
#include "server/render/text/font_set.h"
#include "server/render/text/generic_family.h"
#include "server/render/text/variable_faces.h"
#include "server/render/text/vertical_align.h"

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QRawFont>
#include <QHash>
#include <QMutex>
#include <QTextBoundaryFinder>
#include <QTextLayout>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <list>

Q_GUI_EXPORT int qt_defaultDpiY();

namespace imprint::render {

using namespace text_detail;

namespace {

/// A bounded least-recently-used map of immutable shaping results.
class ShapeCache
{
public:
    std::shared_ptr<const TextBlock> find(const QByteArray &key)
    {
        auto it = m_index.find(key);
        if (it == m_index.end())
            return {};
        m_order.splice(m_order.begin(), m_order, it.value());
        return it.value()->second;
    }
    void insert(const QByteArray &key, std::shared_ptr<const TextBlock> block)
    {
        if (m_index.contains(key))
            return;
        m_order.emplace_front(key, std::move(block));
        m_index.insert(key, m_order.begin());
        while (m_order.size() > size_t(TextEngine::kCacheEntriesPerThread)) {
            m_index.remove(m_order.back().first);
            m_order.pop_back();
        }
    }
    void clear()
    {
        m_index.clear();
        m_order.clear();
    }

private:
    using Entry = std::pair<QByteArray, std::shared_ptr<const TextBlock>>;
    std::list<Entry> m_order;
    QHash<QByteArray, std::list<Entry>::iterator> m_index;
};

ShapeCache &threadCache()
{
    thread_local ShapeCache cache;
    return cache;
}

template<typename T>
void appendRaw(QByteArray &key, T value)
{
    key.append(reinterpret_cast<const char *>(&value), sizeof value);
}

/// Everything in a style and text that changes the shaped lines, as one hash key.
QByteArray cacheKey(const ComputedStyle &s, const QString &text, qreal width)
{
    QByteArray key;
    key.reserve(96 + text.size() * 2);
    appendRaw(key, s.fontSize);
    appendRaw(key, s.fontWeight);
    appendRaw(key, quint8(s.fontStyle));
    appendRaw(key, s.fontVariantNumeric);
    appendRaw(key, quint8(s.fontVariantCaps));
    appendRaw(key, quint8(s.fontKerning));
    appendRaw(key, s.fontStretch);
    appendRaw(key, s.fontObliqueAngle);
    for (const FontVariation &v : s.fontVariationSettings) {
        appendRaw(key, v.tag);
        appendRaw(key, v.value);
    }
    appendRaw(key, s.fontVariantLigatures);
    appendRaw(key, quint8(s.fontVariantPosition));
    for (const FontFeature &f : s.fontFeatureSettings) {
        appendRaw(key, f.tag);
        appendRaw(key, f.value);
    }
    appendRaw(key, quint8(s.lineHeight.type));
    appendRaw(key, s.lineHeight.value);
    appendRaw(key, s.letterSpacing);
    appendRaw(key, s.wordSpacing);
    appendRaw(key, s.tabSize);
    appendRaw(key, s.tabSizeIsLength);
    appendRaw(key, quint8(s.textAlign));
    appendRaw(key, quint8(s.textTransform));
    appendRaw(key, quint8(s.whiteSpace));
    appendRaw(key, quint8(s.textWrapStyle));
    appendRaw(key, quint8(s.wordBreak));
    appendRaw(key, quint8(s.overflowWrap));
    appendRaw(key, quint8(s.hyphens));
    appendRaw(key, quint8(s.direction));
    key.append(s.lang.toLatin1()).append('\0'); // picks the fallback faces
    appendRaw(key, quint8(s.textOverflow));
    appendRaw(key, s.lineClamp);
    appendRaw(key, quint8(s.textIndent.type));
    appendRaw(key, s.textIndent.value);
    appendRaw(key, s.textIndent.offset);
    appendRaw(key, quint8(s.textFit.type));
    if (s.textFit.type != TextFit::Type::None) {
        appendRaw(key, quint8(s.textFit.target));
        appendRaw(key, s.textFit.limit);
        appendRaw(key, s.textFit.floorPx);
        appendRaw(key, s.textFitBoxHeight);
    }
    // Widths within 1/256 px shape identically; infinity keeps its own bucket.
    appendRaw(key, std::isfinite(width) ? qint64(std::llround(width * 256)) : qint64(-1));
    for (const QString &f : s.fontFamily) {
        key.append(f.toUtf8());
        key.append('\0');
    }
    key.append('\1');
    key.append(reinterpret_cast<const char *>(text.utf16()), text.size() * 2);
    return key;
}

} // namespace

CacheStats TextEngine::stats() const
{
    CacheStats s;
    s.hits = m_hits;
    s.misses = m_misses;
    s.capacity = kCacheEntriesPerThread;
    return s;
}

QFont TextEngine::fontFor(const ComputedStyle &s)
{
    QFont font;
    qsizetype named = 0;
    QStringList families = familyList(s.fontFamily, s.lang, &named);
    // CSS Fonts 4 §7.1: a variable face is drawn at the instance the style selects
    // (variable_faces.h); a static face keeps its name (a hash lookup).
    for (qsizetype i = 0; i < named; ++i)
        families[i] = variableFamily(families[i], s);
    bool kerning = true;
    if (const std::vector<FontFeature> features = styleFeatures(s); !features.empty()) {
        // CSS Fonts 4 §7.2: the features go to the faces the style names; the installed
        // fallbacks that draw what those lack keep their defaults (feature_faces.h).
        for (qsizetype i = 0; i < named; ++i)
            families[i] = frozenFamily(families[i], s.fontWeight, s.fontStyle == FontStyle::Italic, features);
        kerning = std::none_of(features.begin(), features.end(),
                               [](const FontFeature &f) { return featureSupport(f) == FeatureSupport::Kerning; });
    }
    font.setFamilies(families);
    const float px = std::max(s.fontSize, 0.f);
    if (px == std::floor(px) && px >= 1)
        font.setPixelSize(int(px));
    else // QFont has no fractional pixel size; a point size at the layout DPI is exact
        font.setPointSizeF(std::max<qreal>(px, 0.01) * 72.0 / qt_defaultDpiY());
    font.setWeight(QFont::Weight(std::clamp(s.fontWeight, 1, 1000)));
    font.setStyle(s.fontStyle == FontStyle::Italic ? QFont::StyleItalic : QFont::StyleNormal);
    font.setHintingPreference(QFont::PreferVerticalHinting);
    font.setStyleStrategy(QFont::StyleStrategy(QFont::PreferAntialias | QFont::PreferQuality));
    if (s.letterSpacing != 0)
        font.setLetterSpacing(QFont::AbsoluteSpacing, s.letterSpacing);
    if (s.wordSpacing != 0)
        font.setWordSpacing(s.wordSpacing);
    font.setKerning(kerning);
    // Small capitals the face lacks are drawn as capitals (formatRangesFor() makes the
    // letters Blink synthesizes smaller): Qt applies capitalization from the layout's font.
    if (synthesizesSmallCaps(s))
        font.setCapitalization(QFont::AllUppercase);
    return font;
}

qreal TextEngine::lineHeightFor(const ComputedStyle &s)
{
    switch (s.lineHeight.type) {
    case LineHeight::Type::Number: return qreal(s.lineHeight.value) * s.fontSize;
    case LineHeight::Type::Px: return s.lineHeight.value;
    case LineHeight::Type::Normal: break;
    }
    qreal scale = 1;
    const QFontMetricsF fm(metricsFontFor(s, &scale));
    return std::round(fm.ascent() * scale) + std::round(fm.descent() * scale) + std::round(fm.leading() * scale);
}

QString TextEngine::processText(const ComputedStyle &s, const QString &text)
{
    QString out;
    out.reserve(text.size());
    switch (s.whiteSpace) {
    case WhiteSpace::Normal:
    case WhiteSpace::NoWrap: {
        bool pendingSpace = false;
        for (QChar c : text) {
            if (isCollapsibleSpace(c)) {
                pendingSpace = !out.isEmpty();
                continue;
            }
            if (pendingSpace)
                out += u' ';
            pendingSpace = false;
            out += c;
        }
        break;
    }
    case WhiteSpace::PreLine: {
        // Spaces and tabs collapse, and vanish around a forced break; newlines stay.
        bool pendingSpace = false;
        for (QChar c : text) {
            if (c == u'\n') {
                out += QChar::LineSeparator;
                pendingSpace = false;
            } else if (isCollapsibleSpace(c)) {
                pendingSpace = !out.isEmpty() && out.back() != QChar::LineSeparator;
            } else {
                if (pendingSpace)
                    out += u' ';
                pendingSpace = false;
                out += c;
            }
        }
        break;
    }
    case WhiteSpace::Pre:
    case WhiteSpace::PreWrap:
        appendPreserved(out, text);
        break;
    }
    out = normalizeEmojiForShaping(applyHyphens(applyTransform(out, s.textTransform, s.lang), s)); // emoji.h
    return s.wordBreak == WordBreak::KeepAll ? joinCjkWords(out) : out;
}

std::shared_ptr<const TextBlock> TextEngine::shape(const ComputedStyle &style, const QString &text, qreal width)
{
    if (width == 0 && style.hyphens == Hyphens::Auto) {
        // A min-content size leaves automatic hyphenation out, as Blink does (its line
        // breaker hyphenates in the layout mode only): a flex item's automatic minimum
        // is its longest whole word. Soft hyphens the author wrote still break.
        ComputedStyle manual = style;
        manual.hyphens = Hyphens::Manual;
        return shape(manual, text, width);
    }
    const QByteArray key = cacheKey(style, text, width);
    ShapeCache &cache = threadCache();
    if (auto hit = cache.find(key)) {
        ++m_hits;
        return hit;
    }
    // A run laid out at its max-content width, or wider (a row's flex item, a shrink-to-fit
    // box), has the lines it was measured with at max-content: placed, not shaped again.
    if (std::isfinite(width) && width > 0 && breaksAsAtMaxContentWhereItFits(style, text)) {
        if (auto maxContent = cache.find(cacheKey(style, text, kMaxContent))) {
            if (auto placed = maxContentPlacedAt(*maxContent, style, width)) {
                ++m_hits;
                cache.insert(key, placed);
                return placed;
            }
        }
    }
    ++m_misses;
    // Before the shaping below makes font engines (a cached block made none).
    useChromiumGlyphMasks();
    // text-fit costs nothing unless the run has it (fitsText() is two comparisons).
    auto block = fitsText(style, width) ? fitTextUncached(style, text, width) : shapeUncached(style, text, width);
    cache.insert(key, block);
    return block;
}

std::shared_ptr<const TextBlock> TextEngine::shape(const Node &textRun, qreal width)
{
    return shape(textRun.style, textRun.text, width);
}

TextMetrics TextEngine::measure(const Node &textRun, qreal maxWidth)
{
    const auto block = shape(textRun.style, textRun.text, maxWidth);
    TextMetrics m;
    m.size = block->size;
    m.firstBaseline = block->firstBaseline;
    m.lastBaseline = block->lastBaseline;
    return m;
}

InlineLayout TextEngine::layoutInline(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal maxWidth)
{
    // text-fit costs nothing unless the block has it (fitsText() is two comparisons).
    if (fitsText(block, maxWidth))
        return fitInlineUncached(block, items, maxWidth);
    return layoutInlineUncached(block, items, maxWidth);
}

void TextEngine::clearThreadCache()
{
    threadCache().clear();
}

QList<qreal> TextEngine::clusterAdvances(const ComputedStyle &style, const QStringList &clusters)
{
    // Each cluster's share is the growth of the run's advance as it is added: the run is
    // shaped whole, so pairs kerned across a cluster boundary keep their kerning. That is
    // quadratic in the run's length: past kMaxKernedClusters each cluster is measured alone.
    constexpr qsizetype kMaxKernedClusters = 256;
    qreal k = 1;
    QFont font = metricsFontFor(style, &k);
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0);
    font.setWordSpacing(0);
    const QFontMetricsF metrics(font);
    QList<qreal> advances;
    advances.reserve(clusters.size());
    QString run;
    qreal before = 0;
    for (const QString &cluster : clusters) {
        if (clusters.size() > kMaxKernedClusters) {
            advances.append(metrics.horizontalAdvance(cluster) * k);
            continue;
        }
        run += cluster;
        const qreal width = metrics.horizontalAdvance(run) * k;
        advances.append(width - before);
        before = width;
    }
    return advances;
}

FontUnitSizes TextEngine::fontUnitSizes(const ComputedStyle &style)
{
    // The units measure the font, not the spacing a style adds between letters, at the
    // whole pixel size Qt makes the face at (a fractional size: `k` takes it back).
    qreal k = 1;
    QFont font = metricsFontFor(style, &k);
    font.setWordSpacing(0);
    // The first available font itself, not the family list: QFontMetricsF would ask the
    // multi-font engine, whose x-height is the "x" glyph's box, not the OS/2 sxHeight
    // Chromium (Skia) reads.
    const QRawFont primary = QRawFont::fromFont(font);
    const qreal em = std::max(style.fontSize, 0.f);
    if (!primary.isValid())
        return {em * 0.5, em * 0.5, em * 0.8, em * 0.2};
    // CSS Values 4 §6.1.1: without a "0" glyph, 1ch is 0.5em.
    const QList<quint32> zero = primary.glyphIndexesForString(QStringLiteral("0"));
    const QList<QPointF> advance = zero.size() == 1 && zero.front() != 0
                                       ? primary.advancesForGlyphIndexes(zero, QRawFont::UseDesignMetrics)
                                       : QList<QPointF>{};
    const qreal ch = advance.size() == 1 ? advance.front().x() * k : em * 0.5;
    const qreal ex = primary.xHeight() > 0 ? primary.xHeight() * k : em * 0.5;
    // The line box's metrics (fontBoxFor()), before Blink rounds them for a line.
    const QFontMetricsF fm(font);
    return {ch, ex, fm.ascent() * k, fm.descent() * k};
}

namespace {
// Style resolves ch and ex while it computes a style, and text is above style
// (style/font_units.h): installed before main(), in every program that links the text
// module, so no render can run before it.
[[maybe_unused]] const bool g_fontUnitsInstalled = (setFontUnitMeasure(&TextEngine::fontUnitSizes), true);
[[maybe_unused]] const bool g_clusterAdvancesInstalled = (setClusterAdvanceMeasure(&TextEngine::clusterAdvances), true);
} // namespace

} // namespace imprint::render
