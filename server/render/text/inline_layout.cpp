// An inline formatting context as one QTextLayout paragraph (CSS Inline 3): the items'
// text and box edges as one string with a format range per run, broken into lines, each
// line box aligned (CSS 2 §10.8), text-aligned, ellipsized and cut into the fragments of
// every inline box (§2.2), one function per step.

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

// --- inline formatting context (CSS Inline 3) -------------------------------------------

const QChar kWordJoiner(0x2060); // UAX #14 WJ: carries an inline box edge, no break beside it

const QChar kZeroWidthSpace(0x200B); // UAX #14 ZW: a break opportunity around an atomic inline

/// Appends `raw` to the paragraph after CSS Text 3 §4.1.1 white-space processing under
/// `s`, collapsing spaces across item boundaries (`previousSpace` carries the state).
QString collapseInto(const ComputedStyle &s, const QString &raw, bool &previousSpace)
{
    QString out;
    out.reserve(raw.size());
    switch (s.whiteSpace) {
    case WhiteSpace::Normal:
    case WhiteSpace::NoWrap:
    case WhiteSpace::PreLine:
        for (QChar c : raw) {
            if (c == u'\n' && s.whiteSpace == WhiteSpace::PreLine) {
                if (out.endsWith(u' '))
                    out.chop(1);
                out += QChar::LineSeparator;
                previousSpace = true;
            } else if (isCollapsibleSpace(c)) {
                if (!previousSpace)
                    out += u' ';
                previousSpace = true;
            } else {
                out += c;
                previousSpace = false;
            }
        }
        break;
    case WhiteSpace::Pre:
    case WhiteSpace::PreWrap:
        appendPreserved(out, raw);
        if (!raw.isEmpty())
            previousSpace = false;
        break;
    }
    return out;
}

QTextCharFormat spacerFormat(const QFont &font, qreal width)
{
    QTextCharFormat format;
    format.setFont(font);
    format.setFontLetterSpacingType(QFont::AbsoluteSpacing);
    format.setFontLetterSpacing(width);
    return format;
}

/// One laid-out inline paragraph: the items' character ranges in the QTextLayout string.
struct InlineText {
    QString text;
    QList<QTextLayout::FormatRange> formats;
    std::vector<int> start, end; // by item
    const std::vector<int> *shapingSizes = nullptr; // by item: px a Text item is shaped at (layoutInlineShaped())
    std::vector<int> close; // Open item -> index of its Close item
};

/// The font Text item `i` of `t` (style `s`) is shaped with: its own, at the px size
/// t.shapingSizes gives it when there are some.
QFont shapingFont(const InlineText &t, size_t i, const ComputedStyle &s)
{
    QFont font = TextEngine::fontFor(s);
    if (t.shapingSizes)
        font.setPixelSize((*t.shapingSizes)[i]);
    return font;
}

/// The factor from Text item `i`'s shaping font (of `size` px) to its exact size.
qreal exactScale(const InlineText &t, size_t i, float size)
{
    return size / (t.shapingSizes ? qreal((*t.shapingSizes)[i]) : metricsPixelSize(size));
}

InlineText buildInlineText(const ComputedStyle &block, const std::vector<InlineItem> &items, bool wraps,
                           bool autoHyphens, const std::vector<int> *shapingSizes, qreal pxPerUnit)
{
    InlineText t;
    t.shapingSizes = shapingSizes;
    t.start.resize(items.size());
    t.end.resize(items.size());
    t.close.assign(items.size(), -1);
    std::vector<int> open;
    bool previousSpace = true; // a paragraph's leading spaces collapse away
    const QFont blockFont = TextEngine::fontFor(block);
    // The paragraph's last word is not hyphenated (Blink): it is in the last text item.
    size_t lastText = items.size();
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].kind == InlineItem::Kind::Text && items[i].node && !items[i].node->text.trimmed().isEmpty())
            lastText = i;
    }
    for (size_t i = 0; i < items.size(); ++i) {
        const InlineItem &item = items[i];
        t.start[i] = int(t.text.size());
        const ComputedStyle &s = item.node ? item.node->style : block;
        switch (item.kind) {
        case InlineItem::Kind::Text: {
            QString piece = collapseInto(s, item.node->text, previousSpace);
            piece = applyTransform(piece, s.textTransform, s.lang);
            if (s.hyphens != Hyphens::Auto || autoHyphens)
                piece = applyHyphens(piece, s, i == lastText);
            piece = normalizeEmojiForShaping(piece);
            if (s.wordBreak == WordBreak::KeepAll)
                piece = joinCjkWords(piece);
            if (wraps && s.wordBreak != WordBreak::BreakAll)
                piece = withChromiumBreaks(withDictionaryBreaks(piece, s.lang));
            const QFont font = shapingFont(t, i, s);
            QTextCharFormat format;
            format.setFont(font);
            if (!piece.isEmpty())
                t.formats.append({t.start[i], int(piece.size()), format});
            for (QTextLayout::FormatRange range : formatRangesFor(piece, font, s, pxPerUnit)) {
                range.start += t.start[i];
                t.formats.append(range);
            }
            // Synthesized small capitals are capitals (their ranges above are smaller):
            // Qt applies a font's capitalization from the layout's font only.
            t.text += font.capitalization() == QFont::AllUppercase ? simpleUppercase(piece) : piece;
            break;
        }
        case InlineItem::Kind::Open:
        case InlineItem::Kind::Close:
            if (item.kind == InlineItem::Kind::Open)
                open.push_back(int(i));
            else if (!open.empty()) {
                t.close[size_t(open.back())] = int(i);
                open.pop_back();
            }
            if (item.edge != 0) {
                t.formats.append({t.start[i], 1, spacerFormat(TextEngine::fontFor(s), item.edge)});
                t.text += kWordJoiner;
            }
            break;
        case InlineItem::Kind::Atomic:
            t.text += kZeroWidthSpace;
            t.formats.append({int(t.text.size()), 1, spacerFormat(blockFont, item.size.width())});
            t.text += kWordJoiner;
            t.text += kZeroWidthSpace;
            previousSpace = false;
            break;
        case InlineItem::Kind::Break:
            t.text += QChar::LineSeparator;
            previousSpace = true;
            break;
        }
        t.end[i] = int(t.text.size());
    }
    return t;
}

/// The visually contiguous pieces, left to right, of the characters `a` to `b` of a
/// line laid out in `cells` (CSS Inline 3 §2.2: an inline box split by bidi reordering
/// is one fragment per piece). Clusters without width neither join nor split pieces.
std::vector<std::pair<qreal, qreal>> visualPieces(const std::vector<VisualCell> &cells, int a, int b)
{
    std::vector<std::pair<qreal, qreal>> pieces;
    bool open = false;
    for (const VisualCell &cell : cells) {
        if (cell.right - cell.left <= 1e-6)
            continue;
        if (cell.pos < a || cell.pos >= b) {
            open = false;
        } else if (open) {
            pieces.back().second = std::max(pieces.back().second, cell.right);
        } else {
            pieces.emplace_back(cell.left, cell.right);
            open = true;
        }
    }
    return pieces;
}

/// A stretch of a line that moved sideways when an edge spacer moved: x in [from, to) by `by` px.
struct EdgeMove {
    qreal from = 0, to = 0, by = 0;
};

/// `x` after `moves`, in order.
qreal movedX(const std::vector<EdgeMove> &moves, qreal x)
{
    for (const EdgeMove &m : moves) {
        if (x >= m.from - kWidthEpsilon && x < m.to - kWidthEpsilon)
            x += m.by;
    }
    return x;
}

/// Puts each inline box's left edge (margin, border and padding) at the left end of its
/// leftmost piece on the line and its right edge at the right end of its rightmost piece,
/// as Blink places them after bidi reordering (CSS Inline 3 §2.2). The edges travel as
/// spacer characters in the paragraph string, so a box edge inside a directional run
/// lands where the run's direction puts it, possibly on the other side of the box's
/// text; it is moved there, and what lay between shifts by its width. Returns the moves
/// (for the glyphs) and updates `cells`.
std::vector<EdgeMove> moveEdgesToPieceEnds(std::vector<VisualCell> &cells, const std::vector<InlineItem> &items,
                                           const InlineText &t, int ls, int le)
{
    std::vector<EdgeMove> moves;
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].kind != InlineItem::Kind::Open)
            continue;
        const int close = t.close[i];
        const int a = std::max(t.start[i], ls), b = std::min(close >= 0 ? t.end[size_t(close)] : t.end[i], le);
        if (a >= b)
            continue;
        const bool rtlBox = items[i].node->style.direction == Direction::Rtl;
        for (const int edge : {int(i), close}) {
            if (edge < 0 || items[size_t(edge)].edge == 0 || t.start[size_t(edge)] < ls || t.start[size_t(edge)] >= le)
                continue;
            const auto spacer = std::find_if(cells.begin(), cells.end(),
                                             [&](const VisualCell &c) { return c.pos == t.start[size_t(edge)]; });
            const auto found = visualPieces(cells, a, b);
            if (spacer == cells.end() || found.empty())
                continue;
            const bool left = (edge == int(i)) != rtlBox; // the start edge is the left one of an ltr box
            const qreal w = spacer->right - spacer->left;
            EdgeMove move;
            if (left && spacer->left > found.front().first + kWidthEpsilon)
                move = {found.front().first, spacer->left, w};
            else if (!left && spacer->right < found.back().second - kWidthEpsilon)
                move = {spacer->right, found.back().second, -w};
            else
                continue;
            for (VisualCell &c : cells) {
                if (c.left >= move.from - kWidthEpsilon && c.right <= move.to + kWidthEpsilon) {
                    c.left += move.by;
                    c.right += move.by;
                }
            }
            spacer->left = left ? move.from : move.to - w;
            spacer->right = spacer->left + w;
            std::stable_sort(cells.begin(), cells.end(),
                             [](const VisualCell &x, const VisualCell &y) { return x.left < y.left; });
            moves.push_back(move);
        }
    }
    return moves;
}

/// The paragraph's lines at `wrapWidth` px, the first narrowed by `indent` (CSS Inline 3
/// §5, CSS Text 3 §8.1 text-indent), or, with `lineLengths` (text-fit, or the lines
/// scoredLineLengths() chose), of those many characters each. A line fits by its advances (setLineWidthByAdvance(), with `overhang`
/// px of ink allowed; `justify` keeps Qt's fit). Lines are positioned later, by the line boxes.
std::vector<QTextLine> breakIntoLines(QTextLayout &layout, qreal wrapWidth, qreal indent, qreal overhang,
                                      bool justify, const std::vector<int> *lineLengths)
{
    std::vector<QTextLine> lines;
    layout.beginLayout();
    for (;;) {
        QTextLine line = layout.createLine();
        if (!line.isValid())
            break;
        // Step: text-indent narrows the paragraph's first line (CSS Text 3 §8.1)
        const qreal width = lines.empty() ? std::max<qreal>(0, wrapWidth - indent) : wrapWidth;
        if (lineLengths && lines.size() < lineLengths->size()) // text-fit's or the scorer's breaks
            line.setNumColumns((*lineLengths)[lines.size()]);
        else
            setLineWidthByAdvance(line, width, overhang, justify);
        line.setPosition(QPointF(0, 0));
        lines.push_back(line);
    }
    layout.endLayout();
    // A br that ends the paragraph starts no line of its own: the empty line after it has
    // no content and is zero-height (CSS 2 §9.4.2), which Chromium does not lay out at all.
    if (lines.size() > 1 && lines.back().textLength() == 0)
        lines.pop_back();
    return lines;
}

/// The inline box tree the line boxes align (CSS 2 §10.8): each item's font box, its
/// enclosing inline box (an Open item, or -1 for the root inline box), and the line box
/// entry it contributes on every line it is on.
struct InlineBoxTree {
    FontBox strut;
    std::vector<FontBox> boxes; // by item
    std::vector<int> parentOf; // by item
    std::vector<LineBoxEntry> entryTemplate; // by item (Open and Atomic items)
    LineBoxEntry rootEntry;
};

/// Step: the inline box tree of `items` in `block` and the vertical-align inputs of each
/// box (CSS Inline 3 §4.2, CSS 2 §10.8.1).
InlineBoxTree buildInlineBoxTree(const ComputedStyle &block, const std::vector<InlineItem> &items)
{
    InlineBoxTree tree;
    tree.strut = fontBoxFor(block);
    tree.boxes.resize(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].kind == InlineItem::Kind::Atomic)
            tree.boxes[i] = {0, 0, items[i].baseline, items[i].size.height() - items[i].baseline};
        else if (items[i].node && items[i].kind != InlineItem::Kind::Close)
            tree.boxes[i] = fontBoxFor(items[i].node->style);
        else
            tree.boxes[i] = tree.strut;
    }
    tree.parentOf.assign(items.size(), -1);
    std::vector<int> open;
    for (size_t i = 0; i < items.size(); ++i) {
        tree.parentOf[i] = open.empty() ? -1 : open.back();
        if (items[i].kind == InlineItem::Kind::Open)
            open.push_back(int(i));
        else if (items[i].kind == InlineItem::Kind::Close && !open.empty())
            open.pop_back();
    }
    // The fonts' x-heights and sizes matter only to boxes off the baseline.
    const bool anyAligned = std::any_of(items.begin(), items.end(), [](const InlineItem &item) {
        return item.node && item.kind != InlineItem::Kind::Text
               && item.node->style.verticalAlign.keyword != VerticalAlign::Keyword::Baseline;
    });
    const auto alignEntry = [&](const ComputedStyle &s, const FontBox &fb, bool ownFont) {
        LineBoxEntry e;
        e.align = &s == &block ? VerticalAlign{} : s.verticalAlign;
        e.above = fb.above;
        e.below = fb.below;
        if (ownFont && anyAligned) {
            e.fontSize = s.fontSize;
            e.fontAscent = fb.ascent;
            e.fontDescent = fb.descent;
            e.lineHeight = TextEngine::lineHeightFor(s);
            qreal scale = 1;
            e.xHeight = QFontMetricsF(metricsFontFor(s, &scale)).xHeight() * scale;
        }
        return e;
    };
    tree.entryTemplate.resize(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        const InlineItem &item = items[i];
        if (item.kind == InlineItem::Kind::Open)
            tree.entryTemplate[i] = alignEntry(item.node->style, tree.boxes[i], true);
        else if (item.kind == InlineItem::Kind::Atomic) {
            tree.entryTemplate[i] = alignEntry(item.node->style, tree.boxes[i], false);
            // A percentage refers to the atomic inline's own line-height (CSS 2 §10.8.1).
            if (item.node->style.verticalAlign.keyword == VerticalAlign::Keyword::Length)
                tree.entryTemplate[i].lineHeight = TextEngine::lineHeightFor(item.node->style);
        }
    }
    tree.rootEntry = alignEntry(block, tree.strut, true);
    return tree;
}

/// Step: the line box's height from the strut and every inline box on the line
/// `ls`..`le`, each vertically aligned (CSS Inline 3 §4.2, CSS 2 §10.8). Fills
/// `offsetOf` (by item: px from the line's baseline down to the item's).
LineBoxAlignment alignLine(const InlineBoxTree &tree, const std::vector<InlineItem> &items, const InlineText &t,
                           const QTextLine &line, int ls, int le, std::vector<qreal> &offsetOf)
{
    std::vector<LineBoxEntry> entries{tree.rootEntry};
    std::vector<int> entryOf(items.size(), 0);
    for (size_t i = 0; i < items.size(); ++i) {
        // An atomic inline is on the line that holds its spacer: the zero-width spaces around
        // it may end the line before or start the line after.
        const bool present = items[i].kind == InlineItem::Kind::Open && t.close[i] >= 0
                                 ? t.start[i] < le && t.end[size_t(t.close[i])] > ls
                             : items[i].kind == InlineItem::Kind::Atomic ? t.start[i] + 1 >= ls && t.start[i] + 1 < le
                                                                         : t.start[i] < le && t.end[i] > ls;
        const int parentEntry = tree.parentOf[i] >= 0 ? entryOf[size_t(tree.parentOf[i])] : 0;
        entryOf[i] = parentEntry; // a br (or an absent item) sits on its parent's baseline
        if (!present || items[i].kind == InlineItem::Kind::Close || items[i].kind == InlineItem::Kind::Break)
            continue;
        LineBoxEntry entry = tree.entryTemplate[i];
        if (items[i].kind == InlineItem::Kind::Text) {
            FontBox fb = tree.boxes[i];
            const int a = std::max(t.start[i], ls), b = std::min(t.end[i], le);
            // Line boxes take the exact size's metrics (shapingPixelSize()).
            if (b > a)
                fb = withUsedFonts(items[i].node->style, fb, line.glyphRuns(a, b - a),
                                   exactScale(t, i, items[i].node->style.fontSize));
            entry.above = fb.above;
            entry.below = fb.below;
        }
        entry.parent = parentEntry;
        entryOf[i] = int(entries.size());
        entries.push_back(entry);
    }
    LineBoxAlignment aligned = alignLineBox(entries);
    for (size_t i = 0; i < items.size(); ++i)
        offsetOf[i] = aligned.offsets[size_t(entryOf[i])];
    return aligned;
}

/// What every line of one paragraph shares.
struct Paragraph {
    const ComputedStyle &block;
    const std::vector<InlineItem> &items;
    const InlineText &t;
    const InlineBoxTree &tree;
    qreal width = 0; // the available width (may be infinite)
    bool finiteWidth = false;
    bool justify = false;
    bool clamped = false; // line-clamp hides lines after visibleLines
    size_t visibleLines = 0;
    qreal indent = 0; // text-indent of the first line
    bool reorders = false; // bidi may reorder some line
};

/// Step: text-align (CSS Text 3 §7.1): the px line `li` (content `natural` px wide) moves
/// right; a clamped last line aligns as if no wider than the box, then ends in "…".
qreal textAlignShift(const Paragraph &p, size_t li, qreal natural)
{
    const bool lastLine = li + 1 == p.visibleLines;
    const bool justified = p.justify && !lastLine && !p.clamped;
    const qreal lineIndent = li == 0 ? p.indent : 0;
    const qreal lineWidthLeft = p.width - lineIndent;
    const qreal factor = alignFactor(p.block.textAlign, p.block.direction);
    qreal shift = 0;
    if (p.finiteWidth && !justified) {
        const qreal alignWidth = p.clamped && lastLine ? std::min(natural, lineWidthLeft) : natural;
        shift = lineWidthLeft >= alignWidth || factor == 0 ? std::max<qreal>(0, lineWidthLeft - alignWidth) * factor
                                                           : (lineWidthLeft - alignWidth) * factor;
    }
    if (p.block.direction != Direction::Rtl)
        shift += lineIndent;
    return shift;
}

/// Where a line's ellipsis goes: the character its text ends at, the x of "…" and the
/// Text item that draws it (-1: none).
struct EllipsisCut {
    int end = 0;
    qreal x = 0;
    int item = -1;
};

/// Step: line-clamp and text-overflow ellipsis (CSS Overflow 4 §line-clamp, CSS Overflow
/// 3 §text-overflow): the line `ls`..`le` cut at the last grapheme boundary where the
/// text and "…" in the last Text item's font fit the available width. A clamped line's
/// ellipsis follows its last word; text-overflow keeps a space the cut falls after
/// ("anchor …"), as Blink's NGLineTruncator does (`clamped`).
EllipsisCut cutForEllipsis(const Paragraph &p, const QTextLine &line, int ls, int le, qreal natural, bool clamped)
{
    const qreal avail = p.finiteWidth ? p.width : natural;
    const qreal x0 = line.cursorToX(ls);
    int lastText = -1;
    for (size_t i = 0; i < p.items.size(); ++i)
        if (p.items[i].kind == InlineItem::Kind::Text && p.t.start[i] < le && p.t.end[i] > ls)
            lastText = int(i);
    const ComputedStyle &es = lastText >= 0 ? p.items[size_t(lastText)].node->style : p.block;
    const qreal ew = singleLineWidth(
        QString(kEllipsis), lastText >= 0 ? shapingFont(p.t, size_t(lastText), es) : TextEngine::fontFor(es), es);
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, p.t.text);
    finder.setPosition(le);
    int cut = ls;
    for (int pos = le; pos > ls; pos = int(finder.toPreviousBoundary())) {
        int q = pos;
        while ((clamped || pos == le) && q > ls
               && (p.t.text.at(q - 1).isSpace() || p.t.text.at(q - 1) == QChar::LineSeparator))
            --q;
        if (line.cursorToX(q) - x0 + ew <= avail + kWidthEpsilon) {
            cut = q;
            break;
        }
        if (finder.position() <= ls)
            break;
    }
    EllipsisCut e;
    e.end = cut;
    e.x = line.cursorToX(cut);
    for (size_t i = 0; i < p.items.size(); ++i)
        if (p.items[i].kind == InlineItem::Kind::Text && p.t.start[i] < std::max(cut, ls + 1) && p.t.end[i] > ls)
            e.item = int(i);
    return e;
}

/// One line being cut into fragments: its character range after the ellipsis, its box,
/// its text-align shift, and (when bidi reordered it) its clusters in visual order.
struct PlacedLine {
    PlacedLine(const QTextLine &l, int i)
        : line(l)
        , index(i)
    { }

    const QTextLine &line;
    int index = 0;
    int ls = 0, le = 0;
    InlineLine box;
    qreal shift = 0;
    bool hidden = false; // clamped away by line-clamp
    EllipsisCut ellipsis;
    std::vector<VisualCell> cells;
    std::vector<EdgeMove> moves;

    /// The visually contiguous pieces of characters `a` to `b`, shifted into place.
    std::vector<std::pair<qreal, qreal>> pieces(int a, int b) const
    {
        std::vector<std::pair<qreal, qreal>> out;
        if (!cells.empty())
            out = visualPieces(cells, a, b);
        if (out.empty()) {
            const qreal xa = line.cursorToX(a), xb = line.cursorToX(b);
            out.emplace_back(std::min(xa, xb), std::max(xa, xb));
        }
        for (auto &[x0, x1] : out) {
            x0 += shift;
            x1 += shift;
        }
        return out;
    }
    /// The left and right end of characters `a` to `b`.
    std::pair<qreal, qreal> xRange(int a, int b) const
    {
        const auto p = pieces(a, b);
        return std::make_pair(p.front().first, p.back().second);
    }
    /// Which piece of `found` holds the edge spacer at `pos`, and whether on its left (-1
    /// when not on the line); without reordering it is where the paragraph starts
    /// (`start`) or ends.
    std::pair<int, bool> spacerSide(const std::vector<std::pair<qreal, qreal>> &found, int pos, bool start,
                                    Direction direction) const
    {
        const bool paragraphLeft = (direction == Direction::Rtl) != start;
        if (cells.empty())
            return std::make_pair(0, paragraphLeft);
        for (const VisualCell &cell : cells) {
            if (cell.pos != pos)
                continue;
            const qreal l = cell.left + shift, r = cell.right + shift;
            for (size_t k = 0; k < found.size(); ++k) {
                if (l >= found[k].first - kWidthEpsilon && r <= found[k].second + kWidthEpsilon)
                    return std::make_pair(int(k), l - found[k].first < found[k].second - r);
            }
        }
        return std::make_pair(found.size() == 1 ? 0 : -1, paragraphLeft);
    }
};

/// Step: the line's clusters in visual order, where bidi reordering may have split a
/// range of characters (UAX #9 §3.4 L2, CSS Writing Modes 3 §2.4), without the spaces a
/// line ends in where white space collapses (CSS Text 3 §4.1.2); empty when the line
/// keeps its logical order.
std::vector<VisualCell> lineCells(const Paragraph &p, const QTextLayout &layout, const QTextLine &line, int ls)
{
    const QString &text = p.t.text;
    if (!p.reorders || line.textLength() > kMaxVisualCells
        || !mayReorder(QStringView(text).mid(ls, line.textLength()), p.block.direction))
        return {};
    int cellsEnd = ls + line.textLength();
    const WhiteSpace ws = p.block.whiteSpace;
    const bool collapses = ws == WhiteSpace::Normal || ws == WhiteSpace::NoWrap || ws == WhiteSpace::PreLine;
    while (collapses && cellsEnd > ls && text.at(cellsEnd - 1) == u' ')
        --cellsEnd;
    return visualCells(layout, line, ls, cellsEnd);
}

/// The decoration metrics of a Text item's shaping font (of `fontSize` px), for the
/// TextBlock its lines go in.
std::shared_ptr<TextBlock> newTextBlock(const QFont &font, qreal fontSize, qreal firstBaseline)
{
    auto tb = std::make_shared<TextBlock>();
    const QFontMetricsF fm(font);
    tb->decoration = decorationMetrics(fm, fontSize);
    tb->firstBaseline = firstBaseline;
    return tb;
}

/// Step: a Text item's glyphs and content area on the line (CSS Inline 3 §2.2), the
/// ellipsis after them when this item carries it.
void placeTextFragment(const Paragraph &p, const PlacedLine &pl, size_t i, qreal baseline, qreal offset,
                       std::shared_ptr<TextBlock> &tb, InlineLayout &out)
{
    const InlineItem &item = p.items[i];
    const int a = std::max(p.t.start[i], pl.ls), b = std::min(p.t.end[i], pl.le);
    const bool carriesEllipsis = int(i) == pl.ellipsis.item;
    if (a >= b && !carriesEllipsis)
        return;
    if (!tb)
        tb = newTextBlock(shapingFont(p.t, i, item.node->style),
                          p.t.shapingSizes ? (*p.t.shapingSizes)[i] : item.node->style.fontSize, baseline);
    const qreal dy = pl.box.baseline - pl.line.ascent();
    TextLine tl;
    if (a < b && !pl.hidden)
        tl.glyphRuns = pl.line.glyphRuns(a, b - a);
    for (QGlyphRun &run : tl.glyphRuns) {
        QList<QPointF> positions = run.positions();
        for (QPointF &pt : positions)
            pt = QPointF(movedX(pl.moves, pt.x()) + pl.shift, pt.y() + dy + offset);
        run.setPositions(positions);
    }
    const qreal ellipsisX = pl.ellipsis.x + pl.shift;
    auto [x0, x1] = a < b ? pl.xRange(a, b) : std::make_pair(ellipsisX, ellipsisX);
    if (carriesEllipsis) {
        ShapedLine e = shapeSingleLine(QString(kEllipsis), shapingFont(p.t, i, item.node->style), item.node->style);
        translateGlyphRuns(e.runs, QPointF(ellipsisX, baseline - e.baselineInRuns));
        tl.glyphRuns += e.runs;
        x1 = std::max(x1, ellipsisX + e.width);
    }
    tl.left = x0;
    tl.width = x1 - x0;
    tl.top = pl.box.top;
    tl.height = pl.box.height;
    tl.baseline = baseline;
    if (!pl.hidden)
        tb->lines.push_back(std::move(tl));
    tb->ellipsized = tb->ellipsized || carriesEllipsis;
    const FontBox &fb = p.tree.boxes[i];
    out.fragments[i].push_back({pl.index, QRectF(x0, baseline - fb.ascent, x1 - x0, fb.ascent + fb.descent), baseline});
}

/// Step: an inline box's border box fragments on the line, one per visual piece, with
/// the margin, border and padding of the edge spacers that landed at their ends (CSS
/// Inline 3 §2.2; one piece unless bidi split it).
void placeBoxFragments(const Paragraph &p, const PlacedLine &pl, size_t i, qreal baseline, InlineLayout &out)
{
    const InlineItem &item = p.items[i];
    const InlineText &t = p.t;
    const int closeIndex = t.close[i];
    const int a = std::max(t.start[i], pl.ls);
    const int b = std::min(closeIndex >= 0 ? t.end[size_t(closeIndex)] : t.end[i], pl.le);
    if (a >= b)
        return;
    const auto found = pl.pieces(a, b);
    const bool starts = t.start[i] >= pl.ls && item.edge != 0;
    const bool ends = closeIndex >= 0 && t.end[size_t(closeIndex)] <= pl.le && p.items[size_t(closeIndex)].edge != 0;
    const Direction direction = p.block.direction;
    const auto [startPiece, startLeft]
        = starts ? pl.spacerSide(found, t.start[i], true, direction) : std::make_pair(-1, false);
    const auto [endPiece, endLeft]
        = ends ? pl.spacerSide(found, t.start[size_t(closeIndex)], false, direction) : std::make_pair(-1, false);
    const FontBox &fb = p.tree.boxes[i];
    for (size_t k = 0; k < found.size(); ++k) {
        auto [x0, x1] = found[k];
        InlineFragment f{pl.index, {}, baseline, false, false};
        if (startPiece == int(k)) {
            (startLeft ? x0 : x1) += startLeft ? item.margin : -item.margin;
            (startLeft ? f.leftEdge : f.rightEdge) = true;
        }
        if (endPiece == int(k)) {
            const qreal margin = p.items[size_t(closeIndex)].margin;
            (endLeft ? x0 : x1) += endLeft ? margin : -margin;
            (endLeft ? f.leftEdge : f.rightEdge) = true;
        }
        f.rect = QRectF(x0, baseline - fb.ascent, std::max<qreal>(0, x1 - x0), fb.ascent + fb.descent);
        out.fragments[i].push_back(f);
    }
}

/// Step: a br is an empty box where the line ends (its content area, no width); an atomic
/// inline its margin box at its spacer (CSS Inline 3 §2.2).
void placeBreakOrAtomicFragment(const Paragraph &p, const PlacedLine &pl, size_t i, qreal baseline,
                                InlineLayout &out)
{
    const InlineItem &item = p.items[i];
    if (item.kind == InlineItem::Kind::Break) {
        const int pos = p.t.start[i];
        if (pos < pl.ls || pos >= pl.ls + pl.line.textLength())
            return;
        const qreal x = pl.line.cursorToX(pos) + pl.shift;
        const FontBox &fb = p.tree.boxes[i];
        out.fragments[i].push_back({pl.index, QRectF(x, baseline - fb.ascent, 0, fb.ascent + fb.descent), baseline});
        return;
    }
    const int pos = p.t.start[i] + 1;
    if (pos < pl.ls || pos >= pl.le)
        return;
    const qreal x0 = pl.xRange(pos, pos + 1).first;
    out.fragments[i].push_back({pl.index, QRectF(QPointF(x0, baseline - item.baseline), item.size), baseline});
}

/// The px of the line `ls`..`le` that text-fit does not scale (Blink's LineFitter: what
/// is not text, and px letter- and word-spacing, HasFixedSpacing()): the inline box edges
/// and atomic inlines whose spacers are on it, and the spacing its text items add.
qreal fixedWidthOf(const std::vector<InlineItem> &items, const InlineText &t, int ls, int le)
{
    // The spaces a line ends in hang (CSS Text 3 §4.1.2): they add no spacing to its advance.
    int end = le;
    while (end > ls && (t.text.at(end - 1).isSpace() || t.text.at(end - 1) == QChar::LineSeparator))
        --end;
    qreal fixed = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        const InlineItem &item = items[i];
        const bool edge = (item.kind == InlineItem::Kind::Open || item.kind == InlineItem::Kind::Close) && item.edge != 0;
        const int pos = item.kind == InlineItem::Kind::Atomic ? t.start[i] + 1 : t.start[i];
        if ((edge || item.kind == InlineItem::Kind::Atomic) && pos >= ls && pos < le)
            fixed += edge ? item.edge : item.size.width();
        if (item.kind != InlineItem::Kind::Text || !item.node)
            continue;
        const ComputedStyle &s = item.node->style;
        if (s.letterSpacing == 0 && s.wordSpacing == 0)
            continue;
        for (int c = std::max(t.start[i], ls); c < std::min(t.end[i], end); ++c) {
            const QChar ch = t.text.at(c);
            // The break controls take no spacing (formatRangesFor()); nor does a low surrogate.
            if (isBreakControl(ch) || ch == QChar(0xAD) || ch.isLowSurrogate())
                continue;
            fixed += s.letterSpacing + (ch == u' ' || ch == QChar(0xA0) ? s.wordSpacing : 0);
        }
    }
    return fixed;
}

/// Step: the TextBlock of every Text item (sized by its lines' bounds) into `out`.
void finishTextBlocks(const std::vector<InlineItem> &items, std::vector<std::shared_ptr<TextBlock>> &blocks,
                      InlineLayout &out)
{
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].kind == InlineItem::Kind::Text && !blocks[i])
            blocks[i] = std::make_shared<TextBlock>(); // clamped away: it draws nothing
        if (!blocks[i])
            continue;
        blocks[i]->size = linesBounds(*blocks[i]).size();
        out.text[i] = std::move(blocks[i]);
    }
}

} // namespace

QRectF linesBounds(const TextBlock &block)
{
    QRectF bounds;
    for (const TextLine &line : block.lines)
        bounds |= QRectF(line.left, line.top, line.width, line.height);
    return bounds;
}

InlineLayout layoutInlineUncached(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width,
                                  const std::vector<int> *lineLengths)
{
    if (const int m = inlineShapingScale(items); m > 1)
        return layoutInlineAtMixedSizes(block, items, width, m, lineLengths);
    return layoutInlineShaped(block, items, width, nullptr, lineLengths);
}

InlineLayout layoutInlineShaped(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width,
                                const std::vector<int> *shapingSizes, const std::vector<int> *lineLengths,
                                qreal pxPerUnit)
{
    InlineLayout out;
    out.fragments.resize(items.size());
    out.text.resize(items.size());
    QTextOption::WrapMode wrap = wrapModeFor(block);
    if (width == 0 && block.overflowWrap == OverflowWrap::BreakWord && block.wordBreak == WordBreak::Normal)
        wrap = QTextOption::WordWrap;
    const bool finiteWidth = std::isfinite(width);
    const bool wraps = finiteWidth && wrap != QTextOption::NoWrap;
    // Step: the items as one string with a format range per run (CSS Text 3 §4.1.1)
    // The break controls go in at max-content too (see text_lines.cpp: they take letter-spacing).
    // Automatic hyphenation only breaks lines: a min-content size leaves it out, as Blink
    // does (its line breaker hyphenates in the layout mode only), so a flex item's
    // automatic minimum is its longest whole word.
    const InlineText t
        = buildInlineText(block, items, wrap != QTextOption::NoWrap, width != 0, shapingSizes, pxPerUnit);
    if (t.text.isEmpty())
        return out;
    // A fitted line (text-fit's `lineLengths`) is scaled to the width, not justified.
    const bool justify = block.textAlign == TextAlign::Justify && finiteWidth && wraps && !lineLengths;
    const qreal lineWidth = wraps ? std::max<qreal>(width, 0) + kWidthEpsilon : kNoWrapWidth;

    // Synthesized small capitals are uppercased item by item (buildInlineText()): the
    // layout font's capitalization would apply to every item, a normal span too.
    QFont layoutFont = TextEngine::fontFor(block);
    layoutFont.setCapitalization(QFont::MixedCase);
    QTextLayout layout(t.text, layoutFont);
    layout.setFormats(t.formats);
    layout.setTextOption(textOptionFor(block, wraps ? wrap : QTextOption::NoWrap, justify));
    // Step: text-wrap-style balance/pretty picks the width lines break at (CSS Text 4 §6.2)
    // Ink past the last advance (setLineWidthByAdvance()) is at most half the largest em.
    const qreal overhang = std::max(block.fontSize, largestTextSize(items)) / 2;
    const qreal indent = textIndentFor(block, width);
    const std::optional<std::vector<int>> scored
        = wraps && !lineLengths && !justify && block.lineClamp <= 0
              ? scoredLineLengths(layout, block.textWrapStyle, lineWidth, indent, overhang, block.fontSize, pxPerUnit)
              : std::nullopt;
    const qreal wrapWidth = wraps && !lineLengths && !scored
                                ? wrapWidthFor(layout, block.textWrapStyle, lineWidth, overhang)
                                : lineWidth;
    const std::vector<int> *breaks = lineLengths ? lineLengths : scored && !scored->empty() ? &*scored : nullptr;
    const std::vector<QTextLine> lines = breakIntoLines(layout, wrapWidth, indent, overhang, justify, breaks);
    // line-clamp hides the lines after the clamp but, as in Chromium, they are still laid
    // out: the boxes on them keep their places below the clamped block.
    const bool clamped = block.lineClamp > 0 && int(lines.size()) > block.lineClamp;
    const size_t visibleLines = clamped ? size_t(block.lineClamp) : lines.size();
    const InlineBoxTree tree = buildInlineBoxTree(block, items);
    const Paragraph p{block, items, t, tree, width, finiteWidth, justify, clamped, visibleLines, indent,
                      mayReorder(t.text, block.direction)};

    std::vector<qreal> offsetOf(items.size(), 0); // per line: px from the line's baseline to the item's
    std::vector<std::shared_ptr<TextBlock>> blocks(items.size());
    qreal top = 0, widest = 0, visibleHeight = 0;
    for (size_t li = 0; li < lines.size(); ++li) {
        const QTextLine &line = lines[li];
        PlacedLine pl{line, int(li)};
        pl.ls = line.textStart();
        pl.le = pl.ls + line.textLength();
        // Aligned and ellipsized by its advance, as Blink: the last glyph's ink past it overhangs.
        const qreal natural = line.horizontalAdvance();
        const LineBoxAlignment aligned = alignLine(tree, items, t, line, pl.ls, pl.le, offsetOf);
        pl.box.top = top;
        pl.box.height = aligned.above + aligned.below;
        pl.box.baseline = top + aligned.above;
        pl.box.advance = line.horizontalAdvance() + (li == 0 ? indent : 0);
        pl.box.fixedWidth = fixedWidthOf(items, t, pl.ls, pl.le) + (li == 0 ? indent : 0);
        pl.box.length = line.textLength();
        pl.box.forcedBreak = pl.le > pl.ls && t.text.at(pl.le - 1) == QChar::LineSeparator;
        top += pl.box.height;
        const bool lastLine = li + 1 == visibleLines;
        pl.hidden = li >= visibleLines;
        if (li < visibleLines)
            visibleHeight = top;
        pl.shift = textAlignShift(p, li, natural);
        const bool clampedHere = clamped && lastLine;
        const bool ellipsized = clampedHere
                                || (block.textOverflow == TextOverflow::Ellipsis && finiteWidth && width > 0
                                    && natural > width + kWidthEpsilon);
        if (ellipsized) {
            pl.ellipsis = cutForEllipsis(p, line, pl.ls, pl.le, natural, clampedHere);
            pl.le = pl.ellipsis.end;
        }
        pl.cells = lineCells(p, layout, line, pl.ls);
        if (!pl.cells.empty())
            pl.moves = moveEdgesToPieceEnds(pl.cells, items, t, pl.ls, pl.le);
        // Step: every item's fragment on the line (CSS Inline 3 §2.2 inline boxes)
        for (size_t i = 0; i < items.size(); ++i) {
            const qreal baseline = pl.box.baseline + offsetOf[i]; // the item's own, after vertical-align
            switch (items[i].kind) {
            case InlineItem::Kind::Text:
                placeTextFragment(p, pl, i, baseline, offsetOf[i], blocks[i], out);
                break;
            case InlineItem::Kind::Open:
                placeBoxFragments(p, pl, i, baseline, out);
                break;
            case InlineItem::Kind::Break:
            case InlineItem::Kind::Atomic:
                placeBreakOrAtomicFragment(p, pl, i, baseline, out);
                break;
            case InlineItem::Kind::Close:
                break;
            }
        }
        if (!pl.hidden) {
            const qreal lineIndent = li == 0 ? indent : 0;
            widest = std::max(widest, (ellipsized ? std::min(natural, finiteWidth ? width : natural) : natural)
                                          + lineIndent);
        }
        out.lines.push_back(pl.box);
    }
    finishTextBlocks(items, blocks, out);
    out.size = QSizeF(widest, visibleHeight);
    out.firstBaseline = out.lines.empty() ? 0 : out.lines.front().baseline;
    if (!out.lines.empty())
        out.lastBaseline = out.lines[visibleLines - 1].baseline;
    return out;
}

} // namespace imprint::render::text_detail
