#include "server/render/text/text_engine.h"

#include "server/render/resources/emoji.h"

#include <QFontMetricsF>
#include <QHash>
#include <QTextBoundaryFinder>
#include <QTextLayout>

#include <cmath>
#include <cstring>
#include <list>

Q_GUI_EXPORT int qt_defaultDpiY();

namespace imprint::render {

namespace {

constexpr qreal kNoWrapWidth = 1e6; // wide enough for any line, small enough for QFixed
constexpr qreal kWidthEpsilon = 0.01; // layout's float sums must not break a line early
const QChar kEllipsis(0x2026);

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
    appendRaw(key, quint8(s.lineHeight.type));
    appendRaw(key, s.lineHeight.value);
    appendRaw(key, s.letterSpacing);
    appendRaw(key, s.wordSpacing);
    appendRaw(key, quint8(s.textAlign));
    appendRaw(key, quint8(s.textTransform));
    appendRaw(key, quint8(s.whiteSpace));
    appendRaw(key, quint8(s.wordBreak));
    appendRaw(key, quint8(s.overflowWrap));
    appendRaw(key, quint8(s.direction));
    appendRaw(key, quint8(s.textOverflow));
    appendRaw(key, s.lineClamp);
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

bool isCollapsibleSpace(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\n' || c == u'\r' || c == u'\f';
}

QString applyTransform(const QString &text, TextTransform transform)
{
    switch (transform) {
    case TextTransform::Uppercase: return text.toUpper();
    case TextTransform::Lowercase: return text.toLower();
    case TextTransform::Capitalize: {
        QString out = text;
        bool atWordStart = true;
        for (qsizetype i = 0; i < out.size(); ++i) {
            const QChar c = out.at(i);
            if (c.isLetterOrNumber()) {
                if (atWordStart)
                    out[i] = c.toTitleCase();
                atWordStart = false;
            } else {
                atWordStart = c.isSpace() || c == QChar::LineSeparator;
            }
        }
        return out;
    }
    case TextTransform::None: break;
    }
    return text;
}

QStringList familyList(const QStringList &requested)
{
    QStringList families;
    for (const QString &raw : requested) {
        const QString f = raw.trimmed();
        const QString lower = f.toLower();
        if (lower == QLatin1String("sans-serif") || lower == QLatin1String("system-ui")
            || lower == QLatin1String("ui-sans-serif"))
            families << QStringLiteral("DejaVu Sans");
        else if (lower == QLatin1String("serif") || lower == QLatin1String("ui-serif"))
            families << QStringLiteral("DejaVu Serif");
        else if (lower == QLatin1String("monospace") || lower == QLatin1String("ui-monospace"))
            families << QStringLiteral("DejaVu Sans Mono");
        else if (!f.isEmpty())
            families << f;
    }
    static const QStringList fallbacks = {
        QStringLiteral("DejaVu Sans"),      QStringLiteral("Noto Sans"),        QStringLiteral("Noto Sans CJK SC"),
        QStringLiteral("Noto Sans Arabic"), QStringLiteral("Noto Sans Hebrew"), QStringLiteral("Noto Color Emoji"),
    };
    for (const QString &f : fallbacks) {
        if (!families.contains(f))
            families << f;
    }
    return families;
}

/// True for the scripts whose letters UAX #14 lets break between any two (classes ID,
/// H2, H3, JL/JV/JT): Han, Hiragana, Katakana, Hangul, Bopomofo.
bool isCjkScript(char32_t ucs4)
{
    switch (QChar::script(ucs4)) {
    case QChar::Script_Han:
    case QChar::Script_Hiragana:
    case QChar::Script_Katakana:
    case QChar::Script_Hangul:
    case QChar::Script_Bopomofo: return true;
    default: return false;
    }
}

/// `word-break: keep-all` (CSS Text 3 §5.2): no soft wrap opportunity between two
/// letters or numbers, so CJK words break only where spaces or punctuation allow, like
/// Latin ones. Qt's line breaker has no such mode; a WORD JOINER (U+2060, UAX #14 class
/// WJ, default-ignorable so it shapes to nothing) between such a pair removes the break.
QString joinCjkWords(const QString &text)
{
    QString out;
    out.reserve(text.size() + text.size() / 2);
    char32_t previous = 0;
    for (qsizetype i = 0; i < text.size();) {
        char32_t c = text.at(i).unicode();
        qsizetype units = 1;
        if (QChar::isHighSurrogate(c) && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            units = 2;
        }
        if (previous && QChar::isLetterOrNumber(previous) && QChar::isLetterOrNumber(c)
            && (isCjkScript(previous) || isCjkScript(c)))
            out += QChar(0x2060);
        out += QStringView(text).mid(i, units);
        previous = c;
        i += units;
    }
    return out;
}

/// Whether Chromium breaks a line between the printable ASCII characters `ch` and
/// `next` (`before` precedes `ch`). Between two ASCII characters Blink does not use
/// UAX #14 but a table of its own, for compatibility with other browsers
/// (third_party/blink/renderer/platform/text/text_break_iterator.cc): a URL or a path
/// stays whole except after "-" and "?", and an opening bracket may start a line after
/// closing punctuation or a symbol. A "-" before a digit is a minus sign unless a letter
/// or digit precedes it ("ABCD-1234" breaks, "x -5" does not).
bool chromiumBreaksBetween(QChar before, QChar ch, QChar next)
{
    const auto in = [](QChar c, QLatin1StringView set) { return set.contains(c); };
    if (ch == u'-' && next.isDigit())
        return before.unicode() < 0x80 && before.isLetterOrNumber();
    if (ch == u'-')
        return !in(next, QLatin1StringView("!$),./:;?]}"));
    if (ch == u'?')
        return !in(next, QLatin1StringView("!\"'),./:;?]}"));
    if (in(next, QLatin1StringView("(<[{")))
        return in(ch, QLatin1StringView("!\"#%&)*+,.:;=>\\]|}~"));
    return false;
}

/// `text` with Chromium's breaks between printable ASCII characters made explicit for
/// Qt's UAX #14 line breaker: U+200B ZERO WIDTH SPACE where Chromium breaks
/// (chromiumBreaksBetween()), U+2060 WORD JOINER after the characters where UAX #14
/// breaks and Chromium does not ("/", closing brackets, "|", "%", "!"). Both are
/// invisible and have no advance, but they stop kerning across them, so nothing is
/// inserted after a letter or digit: UAX #14 never breaks there between ASCII characters.
QString withChromiumAsciiBreaks(const QString &text)
{
    const auto printable = [](QChar c) { return c.unicode() >= 0x21 && c.unicode() <= 0x7e; };
    const auto alnum = [](QChar c) { return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || c.isDigit(); };
    const QLatin1StringView uaxBreaksAfter("/)]}|%!");
    QString out;
    out.reserve(text.size() + 16);
    bool changed = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar ch = text.at(i);
        out += ch;
        if (i + 1 >= text.size())
            break;
        const QChar next = text.at(i + 1);
        if (!printable(ch) || !printable(next) || alnum(ch))
            continue;
        if (chromiumBreaksBetween(i > 0 ? text.at(i - 1) : QChar(), ch, next))
            out += QChar(0x200B);
        else if (uaxBreaksAfter.contains(ch))
            out += QChar(0x2060);
        else
            continue;
        changed = true;
    }
    return changed ? out : text;
}

QTextOption::WrapMode wrapModeFor(const ComputedStyle &s)
{
    if (s.whiteSpace == WhiteSpace::NoWrap || s.whiteSpace == WhiteSpace::Pre)
        return QTextOption::NoWrap;
    if (s.wordBreak == WordBreak::BreakAll)
        return QTextOption::WrapAnywhere;
    if (s.wordBreak == WordBreak::BreakWord || s.overflowWrap != OverflowWrap::Normal)
        return QTextOption::WrapAtWordBoundaryOrAnywhere;
    return QTextOption::WordWrap;
}

/// Horizontal alignment factor (0 left, 0.5 centre, 1 right) of a non-justified line,
/// start/end resolved against `direction` (CSS Text 3 §7.1).
qreal alignFactor(TextAlign align, Direction direction)
{
    const bool rtl = direction == Direction::Rtl;
    switch (align) {
    case TextAlign::Left: return 0;
    case TextAlign::Right: return 1;
    case TextAlign::Center: return 0.5;
    case TextAlign::Start: return rtl ? 1 : 0;
    case TextAlign::End: return rtl ? 0 : 1;
    case TextAlign::Justify: return rtl ? 1 : 0; // the last line of a justified block
    }
    return 0;
}

/// True for the scripts whose letters join (CSS Text 3 §8.2: letter-spacing must not be
/// applied to cursive scripts, and Chromium does not).
bool isCursiveScript(QChar::Script script)
{
    switch (script) {
    case QChar::Script_Arabic:
    case QChar::Script_Syriac:
    case QChar::Script_Nko:
    case QChar::Script_Mongolian:
    case QChar::Script_Mandaic:
    case QChar::Script_Adlam:
    case QChar::Script_HanifiRohingya: return true;
    default: return false;
    }
}

/// The format ranges of a text run: emoji clusters in the colour emoji font (emoji.h),
/// and, when the style sets letter-spacing, the letters of cursive scripts (with their
/// combining marks) without it.
QList<QTextLayout::FormatRange> formatRangesFor(const QString &text, const QFont &font, const ComputedStyle &s)
{
    QList<QTextLayout::FormatRange> ranges = emojiFormatRanges(text, font);
    if (s.letterSpacing == 0)
        return ranges;
    QTextCharFormat unspaced;
    unspaced.setFontLetterSpacingType(QFont::AbsoluteSpacing);
    unspaced.setFontLetterSpacing(0);
    qsizetype start = -1;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        const QChar::Script script = i < text.size() ? text.at(i).script() : QChar::Script_Unknown;
        const bool cursive = isCursiveScript(script) || (start >= 0 && script == QChar::Script_Inherited);
        if (cursive && start < 0)
            start = i;
        else if (!cursive && start >= 0) {
            ranges.append({int(start), int(i - start), unspaced});
            start = -1;
        }
    }
    return ranges;
}

struct ShapedLine {
    QList<QGlyphRun> runs; // positions with the baseline at y = baselineInRuns
    qreal baselineInRuns = 0;
    qreal width = 0;
    qreal alignWidth = -1; // width text-align centres/ends by, when not `width`
    int textStart = 0, textLength = 0;
};

QTextOption textOptionFor(const ComputedStyle &s, QTextOption::WrapMode wrap, bool justify)
{
    QTextOption option;
    option.setWrapMode(wrap);
    option.setTextDirection(s.direction == Direction::Rtl ? Qt::RightToLeft : Qt::LeftToRight);
    option.setAlignment(justify ? Qt::AlignJustify : Qt::Alignment(Qt::AlignLeft | Qt::AlignAbsolute));
    option.setUseDesignMetrics(true);
    return option;
}

/// Shapes `text` as one unwrapped line (the ellipsized replacement of a line).
ShapedLine shapeSingleLine(const QString &text, const QFont &font, const ComputedStyle &s)
{
    QTextLayout layout(text, font);
    layout.setFormats(formatRangesFor(text, font, s));
    layout.setTextOption(textOptionFor(s, QTextOption::NoWrap, false));
    layout.beginLayout();
    QTextLine line = layout.createLine();
    ShapedLine out;
    if (line.isValid()) {
        line.setLineWidth(kNoWrapWidth);
        line.setPosition(QPointF(0, 0));
    }
    layout.endLayout();
    if (!line.isValid())
        return out;
    out.runs = line.glyphRuns();
    out.baselineInRuns = line.ascent();
    out.width = line.naturalTextWidth();
    out.textLength = int(text.size());
    return out;
}

qreal singleLineWidth(const QString &text, const QFont &font, const ComputedStyle &s)
{
    QTextLayout layout(text, font);
    layout.setFormats(formatRangesFor(text, font, s));
    layout.setTextOption(textOptionFor(s, QTextOption::NoWrap, false));
    layout.beginLayout();
    QTextLine line = layout.createLine();
    if (line.isValid())
        line.setLineWidth(kNoWrapWidth);
    layout.endLayout();
    return line.isValid() ? line.naturalTextWidth() : 0;
}

/// Replaces the end of `lineText` with "…" so that the whole fits `width` px, cutting at
/// a grapheme boundary inside the word as Chromium does (CSS Overflow 3 §text-overflow:
/// "implementations must hide characters and atomic inline-level elements at the end
/// edge of the line as necessary to fit the ellipsis").
ShapedLine ellipsize(const QString &lineText, qreal width, const QFont &font, const ComputedStyle &s)
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
    return shapeSingleLine(base.left(cuts[lo]) + kEllipsis, font, s);
}

std::shared_ptr<const TextBlock> shapeUncached(const ComputedStyle &s, const QString &raw, qreal width)
{
    auto block = std::make_shared<TextBlock>();
    const QString processed = TextEngine::processText(s, raw);
    if (processed.isEmpty())
        return block;

    const QFont font = TextEngine::fontFor(s);
    const QFontMetricsF fm(font);
    const qreal ascent = std::round(fm.ascent());
    const qreal descent = std::round(fm.descent());
    const qreal lineHeight = TextEngine::lineHeightFor(s);
    // Half-leading floored to layout units (1/64 px), the remainder below (CSS Inline 3 §4.2).
    const qreal halfLeading = std::floor((lineHeight - (ascent + descent)) / 2 * 64) / 64;

    QTextOption::WrapMode wrap = wrapModeFor(s);
    // overflow-wrap: break-word breaks inside a word only where the line would overflow,
    // so unlike `anywhere` it leaves the min-content size alone (CSS Text 3 §5.5).
    if (width == 0 && s.overflowWrap == OverflowWrap::BreakWord && s.wordBreak == WordBreak::Normal)
        wrap = QTextOption::WordWrap;
    const bool finiteWidth = std::isfinite(width);
    const bool wraps = finiteWidth && wrap != QTextOption::NoWrap;
    const QString text = wraps && s.wordBreak != WordBreak::BreakAll ? withChromiumAsciiBreaks(processed) : processed;
    const bool justify = s.textAlign == TextAlign::Justify && finiteWidth;
    const qreal lineWidth = wraps ? std::max<qreal>(width, 0) + kWidthEpsilon : kNoWrapWidth;
    const int maxLines = s.lineClamp > 0 ? s.lineClamp + 1 : std::numeric_limits<int>::max();

    QTextLayout layout(text, font);
    layout.setFormats(formatRangesFor(text, font, s));
    layout.setTextOption(textOptionFor(s, wraps ? wrap : QTextOption::NoWrap, justify && wraps));
    layout.setCacheEnabled(true);
    std::vector<ShapedLine> lines;
    std::vector<QTextLine> qlines;
    layout.beginLayout();
    for (int i = 0; i < maxLines; ++i) {
        QTextLine line = layout.createLine();
        if (!line.isValid())
            break;
        line.setLineWidth(lineWidth);
        line.setPosition(QPointF(0, 0));
        qlines.push_back(line);
    }
    layout.endLayout();
    for (const QTextLine &line : qlines) {
        ShapedLine sl;
        sl.runs = line.glyphRuns();
        sl.baselineInRuns = line.y() + line.ascent();
        sl.width = line.naturalTextWidth();
        sl.textStart = line.textStart();
        sl.textLength = line.textLength();
        lines.push_back(std::move(sl));
    }

    // line-clamp: keep N lines, the last ending in an ellipsis (CSS Overflow 4 §line-clamp).
    if (s.lineClamp > 0 && int(lines.size()) > s.lineClamp) {
        lines.resize(size_t(s.lineClamp));
        ShapedLine &last = lines.back();
        const qreal avail = finiteWidth ? width : last.width;
        const qreal unclamped = last.width;
        last = ellipsize(text.mid(last.textStart, last.textLength), avail, font, s);
        // Chromium aligns the clamped line as laid out, then appends the ellipsis.
        last.alignWidth = std::min(unclamped, avail);
        block->ellipsized = true;
    }
    // text-overflow: ellipsis on a line that overflows its box (CSS Overflow 3 §text-overflow).
    if (s.textOverflow == TextOverflow::Ellipsis && finiteWidth && width > 0) {
        for (ShapedLine &line : lines) {
            if (line.width > width + kWidthEpsilon) {
                line = ellipsize(text.mid(line.textStart, line.textLength), width, font, s);
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
        out.height = lineHeight;
        out.baseline = top + halfLeading + ascent;
        out.width = sl.width;
        const bool justified = justify && wraps && i + 1 < lines.size() && !block->ellipsized;
        const qreal alignWidth = sl.alignWidth >= 0 ? sl.alignWidth : sl.width;
        out.left = (finiteWidth && !justified) ? std::max<qreal>(0, width - alignWidth) * factor : 0;
        if (finiteWidth && !justified && width < alignWidth && factor > 0)
            out.left = (width - alignWidth) * factor; // overflowing centred/right text spills both ways
        const QPointF shift(out.left, out.baseline - sl.baselineInRuns);
        for (QGlyphRun &run : sl.runs) {
            QList<QPointF> positions = run.positions();
            for (QPointF &p : positions)
                p += shift;
            run.setPositions(positions);
        }
        out.glyphRuns = std::move(sl.runs);
        widest = std::max(widest, sl.width);
        top += lineHeight;
        block->lines.push_back(std::move(out));
    }
    block->size = QSizeF(widest, top);
    block->firstBaseline = block->lines.empty() ? 0 : block->lines.front().baseline;
    block->underlineOffset = fm.underlinePos();
    block->overlineOffset = -fm.overlinePos();
    block->strikeOffset = -fm.strikeOutPos();
    block->decorationThickness = std::max<qreal>(1, fm.lineWidth());
    return block;
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
    font.setFamilies(familyList(s.fontFamily));
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
    font.setKerning(true);
    return font;
}

qreal TextEngine::lineHeightFor(const ComputedStyle &s)
{
    switch (s.lineHeight.type) {
    case LineHeight::Type::Number: return qreal(s.lineHeight.value) * s.fontSize;
    case LineHeight::Type::Px: return s.lineHeight.value;
    case LineHeight::Type::Normal: break;
    }
    QFont font = fontFor(s);
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0);
    const QFontMetricsF fm(font);
    return std::round(fm.ascent()) + std::round(fm.descent()) + std::round(fm.leading());
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
        for (qsizetype i = 0; i < text.size(); ++i) {
            const QChar c = text.at(i);
            if (c == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n')
                continue;
            out += (c == u'\n' || c == u'\r') ? QChar::LineSeparator : c;
        }
        break;
    }
    out = normalizeEmojiForShaping(applyTransform(out, s.textTransform)); // emoji.h
    return s.wordBreak == WordBreak::KeepAll ? joinCjkWords(out) : out;
}

std::shared_ptr<const TextBlock> TextEngine::shape(const ComputedStyle &style, const QString &text, qreal width)
{
    const QByteArray key = cacheKey(style, text, width);
    ShapeCache &cache = threadCache();
    if (auto hit = cache.find(key)) {
        ++m_hits;
        return hit;
    }
    ++m_misses;
    auto block = shapeUncached(style, text, width);
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
    return m;
}

void TextEngine::clearThreadCache()
{
    threadCache().clear();
}

} // namespace imprint::render
