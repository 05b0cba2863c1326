// A text run broken into lines: text-wrap balance and pretty (CSS Text 4 §6.2),
// text-indent (CSS Text 3 §8.1), the strut and used fonts' line box contributions (CSS
// Inline 3 §4.2), bidi visual order (UAX #9 §3.4 L2) and the ellipsis of text-overflow
// and line-clamp (CSS Overflow 3/4), then shapeUncached(), a run's whole layout.

#include "server/render/text/text_internal.h"

#include "server/render/resources/emoji.h"
#include "server/render/text/feature_faces.h"
#include "server/render/text/font_fallback.h"
#include "server/render/text/font_set.h"
#include "server/render/text/generic_family.h"
#include "server/render/text/vertical_align.h"

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QHash>
#include <QMutex>
#include <QTextBoundaryFinder>
#include <QTextLayout>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <list>

namespace imprint::render::text_detail {

namespace {

/// Lays `layout` (of `text` in `font`) out as one unwrapped line at the origin under `s`;
/// the line, invalid for empty text.
QTextLine layOutSingleLine(QTextLayout &layout, const QString &text, const QFont &font, const ComputedStyle &s)
{
    layout.setFormats(formatRangesFor(text, font, s));
    layout.setTextOption(textOptionFor(s, QTextOption::NoWrap, false));
    layout.beginLayout();
    QTextLine line = layout.createLine();
    if (line.isValid()) {
        line.setLineWidth(kNoWrapWidth);
        line.setPosition(QPointF(0, 0));
    }
    layout.endLayout();
    return line;
}

} // namespace

void setLineWidthByAdvance(QTextLine &line, qreal width, qreal overhang, bool justify)
{
    if (justify) {
        line.setLineWidth(width);
        return;
    }
    line.setLineWidth(width + std::max<qreal>(overhang, 0));
    for (int length = line.textLength(); line.horizontalAdvance() > width + kWidthEpsilon;) {
        // Just inside its advance: Qt then drops at least the last break unit, whatever ink
        // it counts (the ink past a Bengali vowel sign's advance reached 28 px at 64 px).
        line.setLineWidth(std::max<qreal>(0, line.horizontalAdvance() - 1.0 / 64));
        if (line.textLength() >= length)
            break;
        length = line.textLength();
    }
}

ShapedLine shapeSingleLine(const QString &text, const QFont &font, const ComputedStyle &s)
{
    QTextLayout layout(text, font);
    const QTextLine line = layOutSingleLine(layout, text, font, s);
    ShapedLine out;
    if (!line.isValid())
        return out;
    out.runs = line.glyphRuns();
    out.baselineInRuns = line.ascent();
    out.width = line.horizontalAdvance();
    out.textLength = int(text.size());
    return out;
}

qreal singleLineWidth(const QString &text, const QFont &font, const ComputedStyle &s)
{
    QTextLayout layout(text, font);
    const QTextLine line = layOutSingleLine(layout, text, font, s);
    return line.isValid() ? line.horizontalAdvance() : 0;
}

namespace {

/// Replaces the end of `lineText` with "…" so that the whole fits `width` px, cutting at
/// a grapheme boundary inside the word as Chromium does (CSS Overflow 3 §text-overflow:
/// "implementations must hide characters and atomic inline-level elements at the end
/// edge of the line as necessary to fit the ellipsis"). A clamped line's ellipsis follows
/// its last word (`clamped`); text-overflow keeps a space the cut falls after ("anchor …"),
/// as Blink's NGLineTruncator does.
ShapedLine ellipsize(const QString &lineText, qreal width, const QFont &font, const ComputedStyle &s, bool clamped)
{
    QString base = lineText;
    while (!base.isEmpty() && (base.back().isSpace() || base.back() == QChar::LineSeparator))
        base.chop(1);
    if (singleLineWidth(base + kEllipsis, font, s) <= width + kWidthEpsilon)
        return shapeSingleLine(base + kEllipsis, font, s);

    QList<int> cuts; // grapheme boundaries, ascending
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, base);
    for (qsizetype p = 0; p >= 0 && p <= base.size(); p = finder.toNextBoundary())
        cuts << int(p);
    int lo = 0, hi = int(cuts.size()) - 1; // cuts[lo] always fits (the empty prefix)
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (singleLineWidth(base.left(cuts[mid]) + kEllipsis, font, s) <= width + kWidthEpsilon)
            lo = mid;
        else
            hi = mid - 1;
    }
    QString kept = base.left(cuts[lo]);
    while (clamped && !kept.isEmpty() && kept.back().isSpace())
        kept.chop(1);
    return shapeSingleLine(kept + kEllipsis, font, s);
}

/// The number of lines `layout` (text and formats set) breaks into at `width` px.
int countLines(QTextLayout &layout, qreal width, qreal overhang)
{
    int lines = 0;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        setLineWidthByAdvance(line, width, overhang, false);
        ++lines;
    }
    layout.endLayout();
    return lines;
}

/// Whether the last line at `width` px holds a single word (an orphan, CSS Text 4 §6.2).
bool lastLineIsOneWord(QTextLayout &layout, qreal width, qreal overhang)
{
    QTextLine last;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        setLineWidthByAdvance(line, width, overhang, false);
        last = line;
    }
    layout.endLayout();
    if (!last.isValid())
        return false;
    return !layout.text().mid(last.textStart(), last.textLength()).trimmed().contains(u' ');
}

constexpr int kMaxBalancedLines = 4; // Blink balances paragraphs of up to 4 lines

} // namespace

qreal wrapWidthFor(QTextLayout &layout, TextWrapStyle style, qreal lineWidth, qreal overhang)
{
    if (style != TextWrapStyle::Balance && style != TextWrapStyle::Pretty)
        return lineWidth;
    const int lines = countLines(layout, lineWidth, overhang);
    if (lines < 2 || (style == TextWrapStyle::Balance && lines > kMaxBalancedLines))
        return lineWidth;
    if (style == TextWrapStyle::Pretty && !lastLineIsOneWord(layout, lineWidth, overhang))
        return lineWidth;
    qreal lo = lineWidth / lines, hi = lineWidth; // lines at `hi` keep the count
    while (hi - lo > 0.5) {
        const qreal mid = (lo + hi) / 2;
        const bool fits = countLines(layout, mid, overhang) <= lines;
        if (style == TextWrapStyle::Balance ? fits : (fits && lastLineIsOneWord(layout, mid, overhang)))
            hi = mid;
        else
            lo = mid;
    }
    if (style == TextWrapStyle::Pretty) // `lo` is the widest width without the orphan
        return countLines(layout, lo, overhang) <= lines ? lo : lineWidth;
    return hi;
}

qreal textIndentFor(const ComputedStyle &s, qreal width)
{
    const Length &l = s.textIndent;
    if (l.type == Length::Type::Px)
        return l.value;
    if (l.type == Length::Type::Percent)
        return std::isfinite(width) ? l.value * width / 100 + l.offset : l.offset;
    return 0;
}

FontBox fontBoxFor(const ComputedStyle &s)
{
    qreal scale = 1;
    const QFontMetricsF fm(metricsFontFor(s, &scale));
    FontBox box;
    box.ascent = std::round(fm.ascent() * scale);
    box.descent = std::round(fm.descent() * scale);
    const qreal lineHeight = TextEngine::lineHeightFor(s);
    // Half-leading floored to whole pixels, the rest below, as Blink does (its
    // CalculateLeadingSpace()): with lineHeight 1.6 at 30 px the baseline is 6 px, not
    // 6.5 px, below the ascent (CSS Inline 3 §4.2 leaves the split to the UA).
    // The epsilon keeps 1.4 × 40 (55.99999…) at Blink's exact 56 px.
    const qreal halfLeading = std::floor((lineHeight - (box.ascent + box.descent)) / 2 + 1.0 / 128);
    box.above = box.ascent + halfLeading;
    box.below = lineHeight - box.above;
    return box;
}

namespace {

struct VerticalMetrics {
    qreal ascent = 0, descent = 0, lineGap = 0; ///< px at the raw font's size
};

/// The font's ascent, descent and line gap as Skia, and so Chromium, reads them: Qt's
/// for an outline font; for the colour bitmap emoji font, whose Qt metrics are its
/// bitmap strike's (0.79 / 0.21 em for Noto Color Emoji), the hhea table's (0.93 /
/// 0.24 em), which FreeType reports for the face and Skia uses.
VerticalMetrics verticalMetrics(const QRawFont &font)
{
    VerticalMetrics m{font.ascent(), font.descent(), font.leading()};
    if (font.familyName() != emojiFontFamily())
        return m;
    // OpenType: hhea's ascender, descender and lineGap at bytes 4, 6, 8; head's unitsPerEm
    // at 18 (QRawFont::unitsPerEm() gives a bitmap font's strike size instead).
    const QByteArray hhea = font.fontTable("hhea"), head = font.fontTable("head");
    if (hhea.size() < 10 || head.size() < 20)
        return m;
    const auto int16At = [](const QByteArray &table, int offset) {
        return qint16(quint16((quint8(table[offset]) << 8) | quint8(table[offset + 1])));
    };
    const qreal unitsPerEm = quint16(int16At(head, 18));
    if (unitsPerEm <= 0)
        return m;
    const qreal px = font.pixelSize() / unitsPerEm;
    return {int16At(hhea, 4) * px, -int16At(hhea, 6) * px, std::max<qint16>(0, int16At(hhea, 8)) * px};
}

} // namespace

FontBox withUsedFonts(const ComputedStyle &s, FontBox box, const QList<QGlyphRun> &runs, qreal scale)
{
    if (s.lineHeight.type != LineHeight::Type::Normal)
        return box;
    for (const QGlyphRun &run : runs) {
        const QRawFont font = run.rawFont();
        if (!font.isValid())
            continue;
        // A run without ink (the word joiner the engine puts after "+" in "C++20", which
        // Qt takes from the first face that maps it) is no font of the line's text: the
        // list's own spaces and letters never fall back alone. Emoji are colour bitmaps,
        // which have no outline box here but are ink all the same (Noto Color Emoji's
        // descent makes an 80 px "Hi 👋" line 98 px in Chromium).
        const QList<quint32> glyphs = run.glyphIndexes();
        if (!EmojiGlyphMap::isEmojiRun(run)
            && std::all_of(glyphs.begin(), glyphs.end(), [&font](quint32 g) { return font.boundingRect(g).isEmpty(); }))
            continue;
        const VerticalMetrics m = verticalMetrics(font);
        const qreal ascent = std::round(m.ascent * scale), descent = std::round(m.descent * scale);
        const qreal gap = std::round(m.lineGap * scale);
        const qreal halfGap = std::floor(gap / 2 * 64) / 64;
        box.above = std::max(box.above, ascent + halfGap);
        box.below = std::max(box.below, descent + gap - halfGap);
    }
    return box;
}

bool mayReorder(QStringView text, Direction direction)
{
    const bool rtl = direction == Direction::Rtl;
    for (qsizetype i = 0, units = 1; i < text.size(); i += units) {
        const char32_t c = codePointAt(text, i, &units);
        switch (QChar::direction(c)) {
        case QChar::DirL:
        case QChar::DirEN:
            if (rtl)
                return true;
            break;
        case QChar::DirR:
        case QChar::DirAL:
            if (!rtl)
                return true;
            break;
        case QChar::DirAN:
        case QChar::DirLRE:
        case QChar::DirLRO:
        case QChar::DirRLE:
        case QChar::DirRLO:
        case QChar::DirPDF:
        case QChar::DirLRI:
        case QChar::DirRLI:
        case QChar::DirFSI:
        case QChar::DirPDI: return true;
        default: break;
        }
    }
    return false;
}

namespace {

/// Whether `c` is a strong right-to-left character (UAX #9 bidi class R or AL).
bool isStrongRtl(QChar c)
{
    const QChar::Direction d = c.direction();
    return d == QChar::DirR || d == QChar::DirAL;
}

} // namespace

std::vector<VisualCell> visualCells(const QTextLayout &layout, const QTextLine &line, int from, int to)
{
    const QString &text = layout.text();
    std::vector<VisualCell> cells;
    cells.reserve(size_t(std::max(0, to - from)));
    for (int p = from; p < to;) {
        int next = layout.nextCursorPosition(p);
        next = next > p ? std::min(next, to) : p + 1;
        int lead = p, trail = p;
        const qreal a = line.cursorToX(&lead, QTextLine::Leading);
        const qreal b = line.cursorToX(&trail, QTextLine::Trailing);
        VisualCell cell{p, std::min(a, b), std::max(a, b)};
        const bool rtl = isStrongRtl(text.at(p));
        const bool runEdge
            = rtl && ((p > 0 && !isStrongRtl(text.at(p - 1))) || (next < text.size() && !isStrongRtl(text.at(next))));
        if (b == a || runEdge) {
            const QList<QGlyphRun> runs = line.glyphRuns(p, next - p);
            bool measured = false;
            for (const QGlyphRun &run : runs) {
                const QList<QPointF> positions = run.positions();
                const QList<QPointF> advances = run.rawFont().advancesForGlyphIndexes(run.glyphIndexes());
                for (qsizetype k = 0; k < positions.size() && k < advances.size(); ++k) {
                    const qreal l = positions[k].x(), r = l + advances[k].x();
                    cell.left = measured ? std::min(cell.left, l) : l;
                    cell.right = measured ? std::max(cell.right, r) : r;
                    measured = true;
                }
            }
        }
        cells.push_back(cell);
        p = next;
    }
    std::stable_sort(cells.begin(), cells.end(), [](const VisualCell &x, const VisualCell &y) {
        return x.left < y.left || (x.left == y.left && x.right < y.right);
    });
    return cells;
}

namespace {

/// text-overflow and line-clamp on a line that bidi reordering mixes (CSS Overflow 3
/// §text-overflow: characters are hidden "at the end edge of the line"): as Blink's
/// NGLineTruncator, the line is cut in visual order, keeping the grapheme clusters that
/// fit with the ellipsis from the line's start edge (the left one in an ltr paragraph)
/// wherever they are in the text, and "…" follows the last kept one on the end side. The
/// runs start at x = 0 as a shaped line's do.
ShapedLine ellipsizeVisually(const QTextLayout &layout, const QTextLine &line, qreal width, const QFont &font,
                             const ComputedStyle &s)
{
    const int ls = line.textStart();
    int le = ls + line.textLength();
    const QString &text = layout.text();
    while (le > ls && (text.at(le - 1).isSpace() || text.at(le - 1) == QChar::LineSeparator))
        --le;
    std::vector<VisualCell> cells = visualCells(layout, line, ls, le);
    ShapedLine ellipsis = shapeSingleLine(QString(kEllipsis), font, s);
    const bool rtl = s.direction == Direction::Rtl;
    qreal lo = std::numeric_limits<qreal>::max(), hi = std::numeric_limits<qreal>::lowest();
    for (const VisualCell &c : cells) {
        lo = std::min(lo, c.left);
        hi = std::max(hi, c.right);
    }
    const qreal room = width - ellipsis.width + kWidthEpsilon;
    std::vector<VisualCell> fit; // left to right
    for (const VisualCell &c : cells) {
        if (rtl ? c.left >= hi - room : c.right <= lo + room)
            fit.push_back(c);
    }
    // A space the cut leaves beside the ellipsis is dropped: "…" follows the word.
    const auto isSpace = [&](const VisualCell &c) { return text.at(c.pos).isSpace(); };
    while (!fit.empty() && isSpace(rtl ? fit.front() : fit.back()))
        fit.erase(rtl ? fit.begin() : fit.end() - 1);
    std::vector<int> kept; // first characters of the clusters that stay
    qreal keptLo = rtl ? hi : lo, keptHi = rtl ? hi : lo;
    for (const VisualCell &c : fit) {
        kept.push_back(c.pos);
        if (c.right > c.left) {
            keptLo = std::min(keptLo, c.left);
            keptHi = std::max(keptHi, c.right);
        }
    }
    std::sort(kept.begin(), kept.end());
    ShapedLine out;
    out.baselineInRuns = line.y() + line.ascent();
    for (size_t k = 0; k < kept.size();) {
        const int a = kept[k];
        int b = a;
        while (k < kept.size() && kept[k] == b) {
            const int next = layout.nextCursorPosition(b);
            b = next > b ? std::min(next, le) : b + 1;
            ++k;
        }
        out.runs += line.glyphRuns(a, b - a);
    }
    // Step: "…" beside the last kept cluster on the end side, the line moved to start at 0
    const qreal ellipsisX = rtl ? keptLo - ellipsis.width : keptHi;
    const qreal origin = rtl ? ellipsisX : lo;
    translateGlyphRuns(out.runs, QPointF(-origin, 0));
    translateGlyphRuns(ellipsis.runs, QPointF(ellipsisX - origin, out.baselineInRuns - ellipsis.baselineInRuns));
    out.runs += ellipsis.runs;
    out.width = rtl ? keptHi - ellipsisX : keptHi + ellipsis.width - lo;
    out.textStart = ls;
    out.textLength = le - ls;
    return out;
}

} // namespace

namespace {

/// Qt 6.4 justifies a right-to-left line to its width less its trailing white space and
/// leaves that much empty at the right end, where Chromium's justified line fills the box
/// from edge to edge (CSS Text 3 §7.3; the trailing space hangs). Widens the line's word
/// gaps (its space glyphs) evenly so that the runs end at `width` px.
void fillJustifiedRtlLine(QList<QGlyphRun> &runs, qreal width)
{
    qreal right = 0;
    std::vector<qreal> spaces; // x of each space glyph
    for (const QGlyphRun &run : runs) {
        const QRawFont font = run.rawFont();
        const quint32 space = font.glyphIndexesForString(QStringLiteral(" ")).value(0);
        const QList<quint32> glyphs = run.glyphIndexes();
        const QList<QPointF> positions = run.positions();
        const QList<QPointF> advances = font.advancesForGlyphIndexes(glyphs);
        for (qsizetype i = 0; i < glyphs.size() && i < positions.size(); ++i) {
            if (space != 0 && glyphs[i] == space)
                spaces.push_back(positions[i].x());
            else
                right = std::max(right, positions[i].x() + advances.value(i).x());
        }
    }
    const qreal extra = width - right;
    std::erase_if(spaces, [right](qreal x) { return x >= right; });
    if (extra <= 0.01 || extra > width / 4 || spaces.empty())
        return;
    std::sort(spaces.begin(), spaces.end());
    const qreal perGap = extra / qreal(spaces.size());
    for (QGlyphRun &run : runs) {
        QList<QPointF> positions = run.positions();
        for (QPointF &p : positions) {
            const auto before = std::lower_bound(spaces.begin(), spaces.end(), p.x() - 1e-6) - spaces.begin();
            p.rx() += perGap * qreal(before);
        }
        run.setPositions(positions);
    }
}

} // namespace

bool breaksAsAtMaxContentWhereItFits(const ComputedStyle &s, const QString &raw)
{
    // Everything that makes a line's breaks or its place depend on the box's width other
    // than its alignment: justification, clamping, ellipses, balanced or pretty wrapping,
    // text-fit, an indent, hyphenation (a break's hyphen counts), preserved spaces (they
    // hang differently when wrapping) and fractional sizes (laid out narrowed).
    return s.textAlign != TextAlign::Justify && s.lineClamp <= 0 && s.textOverflow != TextOverflow::Ellipsis
           && (s.textWrapStyle == TextWrapStyle::Auto || s.textWrapStyle == TextWrapStyle::Stable)
           && s.textFit.type == TextFit::Type::None && s.textIndent.type == Length::Type::Px
           && s.textIndent.value == 0 && s.hyphens != Hyphens::Auto && s.whiteSpace != WhiteSpace::PreWrap
           && metricsPixelSize(s.fontSize) == s.fontSize && !raw.contains(QChar::SoftHyphen);
}

std::shared_ptr<const TextBlock> maxContentPlacedAt(const TextBlock &maxContent, const ComputedStyle &s, qreal width)
{
    if (maxContent.lines.size() != 1 || maxContent.ellipsized || !std::isfinite(width)
        || maxContent.lines.front().width > width)
        return nullptr;
    auto block = std::make_shared<TextBlock>(maxContent);
    TextLine &line = block->lines.front();
    const qreal left = alignedLineLeft(width, line.width, alignFactor(s.textAlign, s.direction));
    if (const qreal dx = left - line.left; dx != 0)
        translateGlyphRuns(line.glyphRuns, QPointF(dx, 0));
    line.left = left;
    return block;
}

std::shared_ptr<const TextBlock> shapeUncached(const ComputedStyle &s, const QString &raw, qreal width,
                                               const std::vector<int> *lineLengths)
{
    if (shapingPixelSize(s.fontSize) != s.fontSize)
        return shapeAtShapingSize(s, raw, width, lineLengths);
    return shapeAtOwnSize(s, raw, width, lineLengths);
}

std::shared_ptr<const TextBlock> shapeAtOwnSize(const ComputedStyle &s, const QString &raw, qreal width,
                                                const std::vector<int> *lineLengths, qreal pxPerUnit)
{
    auto block = std::make_shared<TextBlock>();
    const QString processed = TextEngine::processText(s, raw);
    if (processed.isEmpty())
        return block;

    const QFont font = TextEngine::fontFor(s);
    const QFontMetricsF fm(font);
    // The strut: the block font's ascent, descent and half-leading (CSS Inline 3 §4.2).
    const FontBox strut = fontBoxFor(s);

    QTextOption::WrapMode wrap = wrapModeFor(s);
    // overflow-wrap: break-word breaks inside a word only where the line would overflow,
    // so unlike `anywhere` it leaves the min-content size alone (CSS Text 3 §5.5).
    if (width == 0 && s.overflowWrap == OverflowWrap::BreakWord && s.wordBreak == WordBreak::Normal)
        wrap = QTextOption::WordWrap;
    const bool finiteWidth = std::isfinite(width);
    const bool wraps = finiteWidth && wrap != QTextOption::NoWrap;
    // The break controls go in whenever the text may wrap, max-content included: they take
    // letter-spacing like any character (a format range of their own would split the
    // shaping run, which costs more), so a box sized at max-content must measure them too
    // ("A-B C" at letterSpacing 1 broke in a box of its own max-content width).
    // Thai, Lao, Khmer and Myanmar break between dictionary words (withDictionaryBreaks()).
    const QString text = wrap != QTextOption::NoWrap && s.wordBreak != WordBreak::BreakAll
                             ? withChromiumBreaks(withDictionaryBreaks(processed, s.lang))
                             : processed;
    // A fitted line (text-fit's `lineLengths`) is scaled to the width, not justified.
    const bool justify = s.textAlign == TextAlign::Justify && finiteWidth && !lineLengths;
    const qreal lineWidth = wraps ? std::max<qreal>(width, 0) + kWidthEpsilon : kNoWrapWidth;
    const int maxLines = s.lineClamp > 0 ? s.lineClamp + 1 : std::numeric_limits<int>::max();

    QTextLayout layout(text, font);
    layout.setFormats(formatRangesFor(text, font, s, pxPerUnit));
    layout.setTextOption(textOptionFor(s, wraps ? wrap : QTextOption::NoWrap, justify && wraps));
    layout.setCacheEnabled(true);
    // Ink past the last advance (setLineWidthByAdvance()) is at most half an em.
    const qreal overhang = s.fontSize / 2;
    const qreal indent = textIndentFor(s, width);
    const std::optional<std::vector<int>> scored
        = wraps && !lineLengths && !justify && s.lineClamp <= 0
              ? scoredLineLengths(layout, s.textWrapStyle, lineWidth, indent, overhang, s.fontSize, pxPerUnit)
              : std::nullopt;
    const qreal wrapWidth
        = wraps && !lineLengths && !scored ? wrapWidthFor(layout, s.textWrapStyle, lineWidth, overhang) : lineWidth;
    if (!lineLengths && scored && !scored->empty())
        lineLengths = &*scored;
    std::vector<ShapedLine> lines;
    std::vector<QTextLine> qlines;
    layout.beginLayout();
    for (int i = 0; i < maxLines; ++i) {
        QTextLine line = layout.createLine();
        if (!line.isValid())
            break;
        // Step: text-indent narrows the first line (CSS Text 3 §8.1)
        if (lineLengths && size_t(i) < lineLengths->size()) // text-fit: the unscaled lines' breaks
            line.setNumColumns((*lineLengths)[size_t(i)]);
        else
            setLineWidthByAdvance(line, i == 0 ? std::max<qreal>(0, wrapWidth - indent) : wrapWidth, overhang,
                                  justify && wraps);
        line.setPosition(QPointF(0, 0));
        qlines.push_back(line);
    }
    layout.endLayout();
    // A forced break that ends the text (a br, a preserved newline) starts no line: the
    // empty line after it is zero-height (CSS 2 §9.4.2) and Chromium lays out none.
    if (qlines.size() > 1 && qlines.back().textLength() == 0)
        qlines.pop_back();
    for (const QTextLine &line : qlines) {
        ShapedLine sl;
        sl.runs = line.glyphRuns();
        sl.baselineInRuns = line.y() + line.ascent();
        sl.width = line.horizontalAdvance();
        sl.textStart = line.textStart();
        sl.textLength = line.textLength();
        sl.qtOffset = line.naturalTextRect().x();
        lines.push_back(std::move(sl));
    }

    // A line bidi reordering mixes is ellipsized in visual order (ellipsizeVisually()).
    const auto reorders = [&](const QTextLine &line) {
        return line.textLength() <= kMaxVisualCells
               && mayReorder(QStringView(text).mid(line.textStart(), line.textLength()), s.direction);
    };
    // line-clamp: keep N lines, the last ending in an ellipsis (CSS Overflow 4 §line-clamp).
    if (s.lineClamp > 0 && int(lines.size()) > s.lineClamp) {
        lines.resize(size_t(s.lineClamp));
        ShapedLine &last = lines.back();
        const qreal avail = finiteWidth ? width : last.width;
        const qreal unclamped = last.width;
        const QTextLine &qline = qlines[size_t(s.lineClamp) - 1];
        const bool visual = reorders(qline);
        last = visual ? ellipsizeVisually(layout, qline, avail, font, s)
                      : ellipsize(text.mid(last.textStart, last.textLength), avail, font, s, true);
        // Chromium aligns the clamped line as laid out, then appends the ellipsis (a line
        // cut in visual order is aligned with it).
        if (!visual)
            last.alignWidth = std::min(unclamped, avail);
        block->ellipsized = true;
    }
    // text-overflow: ellipsis on a line that overflows its box (CSS Overflow 3 §text-overflow).
    if (s.textOverflow == TextOverflow::Ellipsis && finiteWidth && width > 0) {
        for (size_t i = 0; i < lines.size(); ++i) {
            ShapedLine &line = lines[i];
            if (line.width > width + kWidthEpsilon) {
                line = reorders(qlines[i]) ? ellipsizeVisually(layout, qlines[i], width, font, s)
                                           : ellipsize(text.mid(line.textStart, line.textLength), width, font, s, false);
                block->ellipsized = true;
            }
        }
    }

    qreal widest = 0;
    qreal top = 0;
    const qreal factor = alignFactor(s.textAlign, s.direction);
    for (size_t i = 0; i < lines.size(); ++i) {
        ShapedLine &sl = lines[i];
        TextLine out;
        out.top = top;
        // Step: the line box's height, fallback fonts included under `normal` (CSS Inline 3 §4.2)
        const FontBox used = withUsedFonts(s, strut, sl.runs);
        out.height = used.above + used.below;
        out.baseline = top + used.above;
        out.width = sl.width;
        out.textStart = sl.textStart;
        out.textLength = sl.textLength;
        out.forcedBreak = sl.textLength > 0 && sl.textStart + sl.textLength <= text.size()
                          && text.at(sl.textStart + sl.textLength - 1) == QChar::LineSeparator;
        const bool justified = justify && wraps && i + 1 < lines.size() && !block->ellipsized;
        const qreal alignWidth = sl.alignWidth >= 0 ? sl.alignWidth : sl.width;
        // The first line aligns in the box narrowed by text-indent, on the start side.
        const qreal lineIndent = i == 0 ? indent : 0;
        const qreal avail = width - lineIndent;
        out.left = finiteWidth && !justified ? alignedLineLeft(avail, alignWidth, factor) : 0;
        if (s.direction != Direction::Rtl)
            out.left += lineIndent;
        if (justified && s.direction == Direction::Rtl)
            fillJustifiedRtlLine(sl.runs, avail);
        // Runs Qt aligned itself (a justified paragraph's last line) start from 0 first.
        translateGlyphRuns(sl.runs, QPointF(out.left - sl.qtOffset, out.baseline - sl.baselineInRuns));
        out.glyphRuns = std::move(sl.runs);
        widest = std::max(widest, sl.width + lineIndent);
        top += out.height;
        block->lines.push_back(std::move(out));
    }
    block->size = QSizeF(widest, top);
    block->firstBaseline = block->lines.empty() ? 0 : block->lines.front().baseline;
    block->lastBaseline = block->lines.empty() ? 0 : block->lines.back().baseline;
    block->decoration = decorationMetrics(fm, s.fontSize);
    return block;
}

DecorationMetrics decorationMetrics(const QFontMetricsF &fm, qreal fontSize, qreal scale)
{
    const qreal ascent = fm.ascent() * scale;
    const qreal top = -std::round(ascent);
    return {top, top + 2 * ascent / 3, std::max<qreal>(1, fontSize / 10), std::max<qreal>(1, fm.lineWidth() * scale)};
}

} // namespace imprint::render::text_detail
