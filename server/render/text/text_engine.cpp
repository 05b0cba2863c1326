#include "server/render/text/text_engine.h"

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
    appendRaw(key, s.fontVariantNumeric);
    appendRaw(key, quint8(s.fontVariantCaps));
    appendRaw(key, quint8(s.fontKerning));
    for (const FontFeature &f : s.fontFeatureSettings) {
        appendRaw(key, f.tag);
        appendRaw(key, f.value);
    }
    appendRaw(key, quint8(s.lineHeight.type));
    appendRaw(key, s.lineHeight.value);
    appendRaw(key, s.letterSpacing);
    appendRaw(key, s.wordSpacing);
    appendRaw(key, quint8(s.textAlign));
    appendRaw(key, quint8(s.textTransform));
    appendRaw(key, quint8(s.whiteSpace));
    appendRaw(key, quint8(s.textWrapStyle));
    appendRaw(key, quint8(s.wordBreak));
    appendRaw(key, quint8(s.overflowWrap));
    appendRaw(key, quint8(s.direction));
    appendRaw(key, quint8(s.textOverflow));
    appendRaw(key, s.lineClamp);
    appendRaw(key, quint8(s.textIndent.type));
    appendRaw(key, s.textIndent.value);
    appendRaw(key, s.textIndent.offset);
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

/// Whether Qt's font database has `family` (an installed face, or a space's uploaded one
/// under its internal name); answers cached, as the lookup walks the whole database.
bool hasFamily(const QString &family)
{
    if (isInternalFamily(family))
        return true; // applyFontSet() left only registered ones
    static QMutex mutex;
    static QHash<QString, bool> known;
    QMutexLocker lock(&mutex);
    const auto it = known.constFind(family);
    if (it != known.constEnd())
        return *it;
    const bool has = QFontDatabase::hasFamily(family);
    known.insert(family, has);
    return has;
}

/// The families of a font-family list as Qt's database names them (generic families
/// resolved), with the sans-serif face when none is installed: the fonts Chromium tries
/// before it falls back per character (font_fallback.h).
QStringList primaryFamilies(const QStringList &requested)
{
    // Generic families are what fontconfig makes of them, as in Chromium on Linux (Noto
    // Sans for sans-serif with Debian's fonts-noto-core). When nothing the list names is
    // installed ("Arial, Helvetica", "Hiragino Sans"), Chromium draws with its default
    // face, the sans-serif one, not with our first fallback.
    QStringList families;
    bool usable = false;
    for (const QString &raw : requested) {
        const QString f = raw.trimmed();
        const QString lower = f.toLower();
        if (lower == QLatin1String("sans-serif") || lower == QLatin1String("system-ui")
            || lower == QLatin1String("ui-sans-serif")) {
            families << genericFamily(GenericFamily::SansSerif);
            usable = true;
        } else if (lower == QLatin1String("serif") || lower == QLatin1String("ui-serif")) {
            families << genericFamily(GenericFamily::Serif);
            usable = true;
        } else if (lower == QLatin1String("monospace") || lower == QLatin1String("ui-monospace")) {
            families << genericFamily(GenericFamily::Monospace);
            usable = true;
        } else if (!f.isEmpty()) {
            families << f;
            usable = usable || hasFamily(f);
        }
    }
    if (!usable)
        families << genericFamily(GenericFamily::SansSerif);
    return families;
}

/// The families of a run's font: those `requested` names (generics resolved), then the
/// installed fallbacks; `*named` (when given) is how many came from `requested`.
QStringList familyList(const QStringList &requested, qsizetype *named = nullptr)
{
    QStringList families = primaryFamilies(requested);
    if (named)
        *named = families.size();
    // Characters no family of the list has get their fallback face from format ranges of
    // their own (fallbackFormatRanges(), as Chromium picks it); these families are only
    // Qt's last resort under them, in fontconfig's order for the common scripts. The
    // emoji clusters are put in the emoji font by their own format ranges (emoji.h).
    static const QStringList fallbacks = {
        QStringLiteral("DejaVu Sans"),      QStringLiteral("Noto Sans"),        QStringLiteral("Noto Sans CJK JP"),
        QStringLiteral("Noto Sans Arabic"), QStringLiteral("Noto Sans Hebrew"), QStringLiteral("Noto Sans Symbols2"),
        QStringLiteral("Noto Color Emoji"),
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

/// The code point at index `i` of UTF-16 `text`, and in `*units` the code units it takes:
/// 2 for a surrogate pair, else 1 (a lone surrogate stands for itself).
char32_t codePointAt(QStringView text, qsizetype i, qsizetype *units)
{
    if (QChar::isHighSurrogate(text.at(i).unicode()) && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
        *units = 2;
        return QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
    }
    *units = 1;
    return text.at(i).unicode();
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
        qsizetype units = 1;
        const char32_t c = codePointAt(text, i, &units);
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
/// breaks and Chromium does not ("/", closing brackets, "|", "%", "!", "+", "$", "\\"). Both are
/// invisible and have no advance, but they stop kerning across them, so nothing is
/// inserted after a letter or digit: UAX #14 never breaks there between ASCII characters.
QString withChromiumAsciiBreaks(const QString &text)
{
    const auto printable = [](QChar c) { return c.unicode() >= 0x21 && c.unicode() <= 0x7e; };
    const auto alnum = [](QChar c) { return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || c.isDigit(); };
    // "+", "$" and "\\" are UAX #14 prefixes (PR), which may break before another prefix
    // or a postfix: "C++" broke between its two "+" at the end of a line.
    const QLatin1StringView uaxBreaksAfter("/)]}|%!+$\\");
    // UAX #14 keeps a prefix before a digit itself (LB25 PR × NU), and a joiner there would
    // split the shaping run where the face lacks U+2060 ("C++20" 0.8 px wider at 24 px).
    const QLatin1StringView prefixes("+$\\");
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
        else if (uaxBreaksAfter.contains(ch) && !(prefixes.contains(ch) && next.isDigit()))
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

/// Characters that belong to the face of the character before them: combining marks,
/// joiners, variation selectors and the invisible break controls the engine inserts.
bool followsPreviousFace(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_SpacingCombining:
    case QChar::Mark_Enclosing: return true;
    default: break;
    }
    return c == 0x200B || c == 0x200C || c == 0x200D || c == 0x2060 || c == 0x00AD || c == QChar::LineSeparator
           || (c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xE0100 && c <= 0xE01EF);
}

/// The faces of `families` that `s`'s weight and style select, one per installed family,
/// at a nominal size (only their character sets are asked); cached per thread.
std::vector<QRawFont> primaryFaces(const QStringList &families, const ComputedStyle &s)
{
    thread_local QHash<QString, QRawFont> faces;
    std::vector<QRawFont> out;
    const bool italic = s.fontStyle == FontStyle::Italic;
    for (const QString &family : families) {
        const QString key = family + u'|' + QString::number(s.fontWeight) + (italic ? u'i' : u'n');
        auto it = faces.constFind(key);
        if (it == faces.constEnd()) {
            const QRawFont raw = hasFamily(family) ? selectedFace(family, s.fontWeight, italic) : QRawFont();
            if (faces.size() > 1024)
                faces.clear();
            it = faces.insert(key, raw);
        }
        if (it->isValid())
            out.push_back(*it);
    }
    return out;
}

/// Font fallback as Chromium does it (font_fallback.h): each stretch of characters that
/// no family of `s`'s font-family list has, as a format range in the face fontconfig
/// falls back to for it, synthetic bold and italic as Blink asks Skia for them. The
/// `emoji` ranges keep their own font.
QList<QTextLayout::FormatRange> fallbackFormatRanges(const QString &text, const QFont &font, const ComputedStyle &s,
                                                     const QList<QTextLayout::FormatRange> &emoji)
{
    QList<QTextLayout::FormatRange> ranges;
    std::vector<bool> inEmoji;
    if (!emoji.isEmpty()) {
        inEmoji.assign(size_t(text.size()), false);
        for (const QTextLayout::FormatRange &r : emoji)
            for (int k = std::max(0, r.start); k < r.start + r.length && k < text.size(); ++k)
                inEmoji[size_t(k)] = true;
    }
    std::vector<QRawFont> faces;
    bool facesLoaded = false;
    const FallbackFace *runFace = nullptr;
    qsizetype runStart = 0;
    const auto close = [&](qsizetype end) {
        if (!runFace || end <= runStart)
            return;
        QTextCharFormat format;
        format.setFont(fallbackFont(font, *runFace, s.fontWeight, s.fontStyle == FontStyle::Italic));
        ranges.append({int(runStart), int(end - runStart), format});
    };
    for (qsizetype i = 0; i < text.size();) {
        qsizetype units = 1;
        const char32_t c = codePointAt(text, i, &units);
        const FallbackFace *face = runFace;
        if (!inEmoji.empty() && inEmoji[size_t(i)]) {
            face = nullptr;
        } else if (!followsPreviousFace(c) && c >= 0x20) {
            if (!facesLoaded) {
                faces = primaryFaces(primaryFamilies(s.fontFamily), s);
                facesLoaded = true;
            }
            const bool covered
                = std::any_of(faces.begin(), faces.end(), [c](const QRawFont &f) { return f.supportsCharacter(c); });
            face = covered ? nullptr : systemFallbackFace(c);
        }
        if (face != runFace) {
            close(i);
            runFace = face;
            runStart = i;
        }
        i += units;
    }
    close(text.size());
    return ranges;
}

/// The format ranges of a text run: characters the font-family list lacks in their
/// fallback face, emoji clusters in the colour emoji font (emoji.h), and, when the style
/// sets letter-spacing, the letters of cursive scripts (with their combining marks)
/// without it.
QList<QTextLayout::FormatRange> formatRangesFor(const QString &text, const QFont &font, const ComputedStyle &s)
{
    const QList<QTextLayout::FormatRange> emoji = emojiFormatRanges(text, font);
    QList<QTextLayout::FormatRange> ranges = fallbackFormatRanges(text, font, s, emoji);
    ranges += emoji;
    if (s.letterSpacing == 0)
        return ranges;
    QTextCharFormat unspaced;
    unspaced.setFontLetterSpacingType(QFont::AbsoluteSpacing);
    unspaced.setFontLetterSpacing(0);
    // Digits and punctuation (script Common) belong to the script run around them, as in
    // Chromium's script itemization: "مرات،" and "مع 2026 دعم" keep no spacing on the comma
    // and digits. Spaces keep theirs, as Chromium does.
    std::vector<bool> inCursiveRun(size_t(text.size()), false);
    {
        bool cursiveRun = false, seenScript = false;
        for (qsizetype i = 0; i < text.size(); ++i) {
            const QChar::Script script = text.at(i).script();
            if (script > QChar::Script_Common) {
                if (!seenScript && isCursiveScript(script)) // the text's leading Common characters join it
                    std::fill(inCursiveRun.begin(), inCursiveRun.begin() + i, true);
                cursiveRun = isCursiveScript(script);
                seenScript = true;
            }
            inCursiveRun[size_t(i)] = cursiveRun;
        }
    }
    qsizetype start = -1;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        const QChar::Script script = i < text.size() ? text.at(i).script() : QChar::Script_Unknown;
        const bool cursive = isCursiveScript(script) || (start >= 0 && script == QChar::Script_Inherited)
                             || (i < text.size() && inCursiveRun[size_t(i)] && !text.at(i).isSpace()
                                 && script <= QChar::Script_Common);
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
    // A cut after a space drops it, as Chromium does: the ellipsis follows the word.
    QString kept = base.left(cuts[lo]);
    while (!kept.isEmpty() && kept.back().isSpace())
        kept.chop(1);
    return shapeSingleLine(kept + kEllipsis, font, s);
}

/// The number of lines `layout` (text and formats set) breaks into at `width` px.
int countLines(QTextLayout &layout, qreal width)
{
    int lines = 0;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        ++lines;
    }
    layout.endLayout();
    return lines;
}

/// Whether the last line at `width` px holds a single word (an orphan, CSS Text 4 §6.2).
bool lastLineIsOneWord(QTextLayout &layout, qreal width)
{
    QTextLine last;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        last = line;
    }
    layout.endLayout();
    if (!last.isValid())
        return false;
    return !layout.text().mid(last.textStart(), last.textLength()).trimmed().contains(u' ');
}

constexpr int kMaxBalancedLines = 4; // Blink balances paragraphs of up to 4 lines

/// The width lines are broken at under text-wrap-style (CSS Text 4 §6.2), for a paragraph
/// whose box is `lineWidth` px wide: `balance` bisects for the narrowest width that keeps
/// the line count (as Blink's paragraph balancer does); `pretty` narrows the lines just
/// enough that the last one holds two words (Blink scores whole paragraphs; this keeps
/// its visible effect, no orphan); otherwise `lineWidth`.
qreal wrapWidthFor(QTextLayout &layout, TextWrapStyle style, qreal lineWidth)
{
    if (style != TextWrapStyle::Balance && style != TextWrapStyle::Pretty)
        return lineWidth;
    const int lines = countLines(layout, lineWidth);
    if (lines < 2 || (style == TextWrapStyle::Balance && lines > kMaxBalancedLines))
        return lineWidth;
    if (style == TextWrapStyle::Pretty && !lastLineIsOneWord(layout, lineWidth))
        return lineWidth;
    qreal lo = lineWidth / lines, hi = lineWidth; // lines at `hi` keep the count
    while (hi - lo > 0.5) {
        const qreal mid = (lo + hi) / 2;
        const bool fits = countLines(layout, mid) <= lines;
        if (style == TextWrapStyle::Balance ? fits : (fits && lastLineIsOneWord(layout, mid)))
            hi = mid;
        else
            lo = mid;
    }
    if (style == TextWrapStyle::Pretty) // `lo` is the widest width without the orphan
        return countLines(layout, lo) <= lines ? lo : lineWidth;
    return hi;
}

/// text-indent in px for a block `width` px wide (CSS Text 3 §8.1); a percentage of an
/// indefinite width (intrinsic sizing) counts as 0, as in Chromium.
qreal textIndentFor(const ComputedStyle &s, qreal width)
{
    const Length &l = s.textIndent;
    if (l.type == Length::Type::Px)
        return l.value;
    if (l.type == Length::Type::Percent)
        return std::isfinite(width) ? l.value * width / 100 + l.offset : l.offset;
    return 0;
}

/// The rounded font metrics and line-height contribution of one inline box's style (CSS
/// Inline 3 §4.2): `above`/`below` the baseline include the half-leading.
struct FontBox {
    qreal ascent = 0, descent = 0, above = 0, below = 0;
};

FontBox fontBoxFor(const ComputedStyle &s)
{
    QFont font = TextEngine::fontFor(s);
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0);
    const QFontMetricsF fm(font);
    FontBox box;
    box.ascent = std::round(fm.ascent());
    box.descent = std::round(fm.descent());
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

/// `box` grown by the fonts `runs` actually use, for a box whose `line-height` is
/// `normal`: as in Chromium, a fallback font (CJK, Arabic, emoji) contributes its own
/// rounded ascent and descent plus half its line gap to the line box (CSS Inline 3 §4.2,
/// "normal" lets the UA use the metrics of all fonts in the box). Other line heights keep
/// `box` unchanged.
FontBox withUsedFonts(const ComputedStyle &s, FontBox box, const QList<QGlyphRun> &runs)
{
    if (s.lineHeight.type != LineHeight::Type::Normal)
        return box;
    for (const QGlyphRun &run : runs) {
        const QRawFont font = run.rawFont();
        if (!font.isValid())
            continue;
        // A run without ink (the word joiner the engine puts after "+" in "C++20", which
        // Qt takes from the first face that maps it) is no font of the line's text: the
        // list's own spaces and letters never fall back alone.
        const QList<quint32> glyphs = run.glyphIndexes();
        if (std::all_of(glyphs.begin(), glyphs.end(), [&font](quint32 g) { return font.boundingRect(g).isEmpty(); }))
            continue;
        const qreal ascent = std::round(font.ascent()), descent = std::round(font.descent());
        const qreal gap = std::round(font.leading());
        const qreal halfGap = std::floor(gap / 2 * 64) / 64;
        box.above = std::max(box.above, ascent + halfGap);
        box.below = std::max(box.below, descent + gap - halfGap);
    }
    return box;
}

/// Whether bidi reordering (UAX #9 §3.4 L2) can put `text` (a paragraph, or a line of
/// it) in another visual order than its logical one in a paragraph of `direction`: an
/// RTL paragraph with left-to-right letters or digits, an LTR one with right-to-left
/// letters, Arabic digits or explicit embeddings. Only such lines need visualCells().
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

/// Lines longer than this (characters) keep the logical-range measure: each cluster's
/// measure walks the line, so the visual map costs the square of the line's length.
constexpr int kMaxVisualCells = 2048;

/// One grapheme cluster of a line where bidi reordering put it: its first character in
/// the paragraph string and its left and right edge in px (the line's coordinates).
struct VisualCell {
    int pos = 0;
    qreal left = 0, right = 0;
};

/// Whether `c` is a strong right-to-left character (UAX #9 bidi class R or AL).
bool isStrongRtl(QChar c)
{
    const QChar::Direction d = c.direction();
    return d == QChar::DirR || d == QChar::DirAL;
}

/// The grapheme clusters of `line` from `from` to `to`, left to right (UAX #9 §3.4 L2).
/// Each cluster is measured alone, by its leading and trailing edge: QTextLine::cursorToX()
/// at a range of characters' ends answers for whichever run meets the other there. At the
/// first cluster of a directional run Qt 6.4 puts both edges on the run boundary, and at
/// the last cluster of a right-to-left run before a left-to-right one it answers with the
/// next run's edges ("…السلامة." put the "ة" on the "."); such clusters are measured by
/// their glyphs' positions and advances instead.
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
    for (QGlyphRun &run : out.runs) {
        QList<QPointF> positions = run.positions();
        for (QPointF &p : positions)
            p.rx() -= origin;
        run.setPositions(positions);
    }
    for (QGlyphRun &run : ellipsis.runs) {
        QList<QPointF> positions = run.positions();
        for (QPointF &p : positions)
            p += QPointF(ellipsisX - origin, out.baselineInRuns - ellipsis.baselineInRuns);
        run.setPositions(positions);
        out.runs.append(run);
    }
    out.width = rtl ? keptHi - ellipsisX : keptHi + ellipsis.width - lo;
    out.textStart = ls;
    out.textLength = le - ls;
    return out;
}

std::shared_ptr<const TextBlock> shapeUncached(const ComputedStyle &s, const QString &raw, qreal width)
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
    const QString text = wraps && s.wordBreak != WordBreak::BreakAll ? withChromiumAsciiBreaks(processed) : processed;
    const bool justify = s.textAlign == TextAlign::Justify && finiteWidth;
    const qreal lineWidth = wraps ? std::max<qreal>(width, 0) + kWidthEpsilon : kNoWrapWidth;
    const int maxLines = s.lineClamp > 0 ? s.lineClamp + 1 : std::numeric_limits<int>::max();

    QTextLayout layout(text, font);
    layout.setFormats(formatRangesFor(text, font, s));
    layout.setTextOption(textOptionFor(s, wraps ? wrap : QTextOption::NoWrap, justify && wraps));
    layout.setCacheEnabled(true);
    const qreal wrapWidth = wraps ? wrapWidthFor(layout, s.textWrapStyle, lineWidth) : lineWidth;
    const qreal indent = textIndentFor(s, width);
    std::vector<ShapedLine> lines;
    std::vector<QTextLine> qlines;
    layout.beginLayout();
    for (int i = 0; i < maxLines; ++i) {
        QTextLine line = layout.createLine();
        if (!line.isValid())
            break;
        // Step: text-indent narrows the first line (CSS Text 3 §8.1)
        line.setLineWidth(i == 0 ? std::max<qreal>(0, wrapWidth - indent) : wrapWidth);
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
                      : ellipsize(text.mid(last.textStart, last.textLength), avail, font, s);
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
                                           : ellipsize(text.mid(line.textStart, line.textLength), width, font, s);
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
        const bool justified = justify && wraps && i + 1 < lines.size() && !block->ellipsized;
        const qreal alignWidth = sl.alignWidth >= 0 ? sl.alignWidth : sl.width;
        // The first line aligns in the box narrowed by text-indent, on the start side.
        const qreal lineIndent = i == 0 ? indent : 0;
        const qreal avail = width - lineIndent;
        out.left = (finiteWidth && !justified) ? std::max<qreal>(0, avail - alignWidth) * factor : 0;
        if (finiteWidth && !justified && avail < alignWidth && factor > 0)
            out.left = (avail - alignWidth) * factor; // overflowing centred/right text spills both ways
        if (s.direction != Direction::Rtl)
            out.left += lineIndent;
        const QPointF shift(out.left, out.baseline - sl.baselineInRuns);
        for (QGlyphRun &run : sl.runs) {
            QList<QPointF> positions = run.positions();
            for (QPointF &p : positions)
                p += shift;
            run.setPositions(positions);
        }
        out.glyphRuns = std::move(sl.runs);
        widest = std::max(widest, sl.width + lineIndent);
        top += out.height;
        block->lines.push_back(std::move(out));
    }
    block->size = QSizeF(widest, top);
    block->firstBaseline = block->lines.empty() ? 0 : block->lines.front().baseline;
    block->lastBaseline = block->lines.empty() ? 0 : block->lines.back().baseline;
    block->underlineOffset = fm.underlinePos();
    block->overlineOffset = -fm.overlinePos();
    block->strikeOffset = -fm.strikeOutPos();
    block->decorationThickness = std::max<qreal>(1, fm.lineWidth());
    return block;
}

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
        for (qsizetype i = 0; i < raw.size(); ++i) {
            const QChar c = raw.at(i);
            if (c == u'\r' && i + 1 < raw.size() && raw.at(i + 1) == u'\n')
                continue;
            out += (c == u'\n' || c == u'\r') ? QChar::LineSeparator : c;
            previousSpace = false;
        }
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
    std::vector<int> close; // Open item -> index of its Close item
};

InlineText buildInlineText(const ComputedStyle &block, const std::vector<InlineItem> &items, bool wraps)
{
    InlineText t;
    t.start.resize(items.size());
    t.end.resize(items.size());
    t.close.assign(items.size(), -1);
    std::vector<int> open;
    bool previousSpace = true; // a paragraph's leading spaces collapse away
    const QFont blockFont = TextEngine::fontFor(block);
    for (size_t i = 0; i < items.size(); ++i) {
        const InlineItem &item = items[i];
        t.start[i] = int(t.text.size());
        const ComputedStyle &s = item.node ? item.node->style : block;
        switch (item.kind) {
        case InlineItem::Kind::Text: {
            QString piece = collapseInto(s, item.node->text, previousSpace);
            piece = normalizeEmojiForShaping(applyTransform(piece, s.textTransform));
            if (s.wordBreak == WordBreak::KeepAll)
                piece = joinCjkWords(piece);
            if (wraps && s.wordBreak != WordBreak::BreakAll)
                piece = withChromiumAsciiBreaks(piece);
            const QFont font = TextEngine::fontFor(s);
            QTextCharFormat format;
            format.setFont(font);
            if (!piece.isEmpty())
                t.formats.append({t.start[i], int(piece.size()), format});
            for (QTextLayout::FormatRange range : formatRangesFor(piece, font, s)) {
                range.start += t.start[i];
                t.formats.append(range);
            }
            t.text += piece;
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

/// CSS Inline 3 §5: lays `items` out in lines of `width` px (see TextMeasurer::layoutInline).
InlineLayout layoutInlineUncached(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal width)
{
    InlineLayout out;
    out.fragments.resize(items.size());
    out.text.resize(items.size());
    QTextOption::WrapMode wrap = wrapModeFor(block);
    if (width == 0 && block.overflowWrap == OverflowWrap::BreakWord && block.wordBreak == WordBreak::Normal)
        wrap = QTextOption::WordWrap;
    const bool finiteWidth = std::isfinite(width);
    const bool wraps = finiteWidth && wrap != QTextOption::NoWrap;
    const InlineText t = buildInlineText(block, items, wraps);
    if (t.text.isEmpty())
        return out;
    const bool justify = block.textAlign == TextAlign::Justify && finiteWidth && wraps;
    const qreal lineWidth = wraps ? std::max<qreal>(width, 0) + kWidthEpsilon : kNoWrapWidth;

    QTextLayout layout(t.text, TextEngine::fontFor(block));
    layout.setFormats(t.formats);
    layout.setTextOption(textOptionFor(block, wraps ? wrap : QTextOption::NoWrap, justify));
    const qreal wrapWidth = wraps ? wrapWidthFor(layout, block.textWrapStyle, lineWidth) : lineWidth;
    const qreal indent = textIndentFor(block, width);
    std::vector<QTextLine> lines;
    layout.beginLayout();
    for (;;) {
        QTextLine line = layout.createLine();
        if (!line.isValid())
            break;
        // Step: text-indent narrows the paragraph's first line (CSS Text 3 §8.1)
        line.setLineWidth(lines.empty() ? std::max<qreal>(0, wrapWidth - indent) : wrapWidth);
        line.setPosition(QPointF(0, 0));
        lines.push_back(line);
    }
    layout.endLayout();
    // line-clamp hides the lines after the clamp but, as in Chromium, they are still laid
    // out: the boxes on them keep their places below the clamped block.
    const bool clamped = block.lineClamp > 0 && int(lines.size()) > block.lineClamp;
    const size_t visibleLines = clamped ? size_t(block.lineClamp) : lines.size();
    qreal visibleHeight = 0;

    const bool reorders = mayReorder(t.text, block.direction);
    const FontBox strut = fontBoxFor(block);
    std::vector<FontBox> boxes(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].kind == InlineItem::Kind::Atomic)
            boxes[i] = {0, 0, items[i].baseline, items[i].size.height() - items[i].baseline};
        else if (items[i].node && items[i].kind != InlineItem::Kind::Close)
            boxes[i] = fontBoxFor(items[i].node->style);
        else
            boxes[i] = strut;
    }
    // The inline box tree the line boxes align (CSS 2 §10.8): each item's enclosing
    // inline box (an Open item, or -1 for the root inline box), and the fonts the boxes
    // inside an inline box align to.
    std::vector<int> parentOf(items.size(), -1);
    {
        std::vector<int> open;
        for (size_t i = 0; i < items.size(); ++i) {
            parentOf[i] = open.empty() ? -1 : open.back();
            if (items[i].kind == InlineItem::Kind::Open)
                open.push_back(int(i));
            else if (items[i].kind == InlineItem::Kind::Close && !open.empty())
                open.pop_back();
        }
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
            QFont font = TextEngine::fontFor(s);
            font.setLetterSpacing(QFont::AbsoluteSpacing, 0);
            e.xHeight = QFontMetricsF(font).xHeight();
        }
        return e;
    };
    std::vector<LineBoxEntry> entryTemplate(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        const InlineItem &item = items[i];
        if (item.kind == InlineItem::Kind::Open)
            entryTemplate[i] = alignEntry(item.node->style, boxes[i], true);
        else if (item.kind == InlineItem::Kind::Atomic) {
            entryTemplate[i] = alignEntry(item.node->style, boxes[i], false);
            // A percentage refers to the atomic inline's own line-height (CSS 2 §10.8.1).
            if (item.node->style.verticalAlign.keyword == VerticalAlign::Keyword::Length)
                entryTemplate[i].lineHeight = TextEngine::lineHeightFor(item.node->style);
        }
    }
    const LineBoxEntry rootEntry = alignEntry(block, strut, true);
    std::vector<qreal> offsetOf(items.size(), 0); // per line: px from the line's baseline to the item's
    const qreal factor = alignFactor(block.textAlign, block.direction);
    std::vector<std::shared_ptr<TextBlock>> blocks(items.size());
    qreal top = 0, widest = 0;
    for (size_t li = 0; li < lines.size(); ++li) {
        const QTextLine &line = lines[li];
        const int ls = line.textStart();
        int le = ls + line.textLength();
        const qreal natural = line.naturalTextWidth();
        // Step: the line box's height from the strut and every inline box on it, each
        // vertically aligned (CSS Inline 3 §4.2, CSS 2 §10.8)
        std::vector<LineBoxEntry> entries{rootEntry};
        std::vector<int> entryOf(items.size(), 0);
        for (size_t i = 0; i < items.size(); ++i) {
            const bool present = items[i].kind == InlineItem::Kind::Open && t.close[i] >= 0
                                     ? t.start[i] < le && t.end[size_t(t.close[i])] > ls
                                     : t.start[i] < le && t.end[i] > ls;
            const int parentEntry = parentOf[i] >= 0 ? entryOf[size_t(parentOf[i])] : 0;
            entryOf[i] = parentEntry; // a br (or an absent item) sits on its parent's baseline
            if (!present || items[i].kind == InlineItem::Kind::Close || items[i].kind == InlineItem::Kind::Break)
                continue;
            LineBoxEntry entry = entryTemplate[i];
            if (items[i].kind == InlineItem::Kind::Text) {
                FontBox fb = boxes[i];
                const int a = std::max(t.start[i], ls), b = std::min(t.end[i], le);
                if (b > a)
                    fb = withUsedFonts(items[i].node->style, fb, line.glyphRuns(a, b - a));
                entry.above = fb.above;
                entry.below = fb.below;
            }
            entry.parent = parentEntry;
            entryOf[i] = int(entries.size());
            entries.push_back(entry);
        }
        const LineBoxAlignment aligned = alignLineBox(entries);
        for (size_t i = 0; i < items.size(); ++i)
            offsetOf[i] = aligned.offsets[size_t(entryOf[i])];
        InlineLine box;
        box.top = top;
        box.height = aligned.above + aligned.below;
        box.baseline = top + aligned.above;
        top += box.height;

        // Step: text-align (CSS Text 3 §7.1); a clamped line keeps its place, then ends in "…"
        const bool lastLine = li + 1 == visibleLines;
        const bool hidden = li >= visibleLines;
        if (li < visibleLines)
            visibleHeight = top;
        const bool justified = justify && !lastLine && !clamped;
        const qreal lineIndent = li == 0 ? indent : 0;
        const qreal lineWidthLeft = width - lineIndent;
        qreal shift = 0;
        if (finiteWidth && !justified) {
            const qreal alignWidth = clamped && lastLine ? std::min(natural, lineWidthLeft) : natural;
            shift = lineWidthLeft >= alignWidth || factor == 0 ? std::max<qreal>(0, lineWidthLeft - alignWidth) * factor
                                                               : (lineWidthLeft - alignWidth) * factor;
        }
        if (block.direction != Direction::Rtl)
            shift += lineIndent;
        // Step: line-clamp and text-overflow ellipsis (CSS Overflow 4 §line-clamp)
        const bool ellipsize = (clamped && lastLine)
                               || (block.textOverflow == TextOverflow::Ellipsis && finiteWidth && width > 0
                                   && natural > width + kWidthEpsilon);
        qreal ellipsisX = 0;
        int ellipsisItem = -1;
        if (ellipsize) {
            const qreal avail = finiteWidth ? width : natural;
            const qreal x0 = line.cursorToX(ls);
            int lastText = -1;
            for (size_t i = 0; i < items.size(); ++i)
                if (items[i].kind == InlineItem::Kind::Text && t.start[i] < le && t.end[i] > ls)
                    lastText = int(i);
            const ComputedStyle &es = lastText >= 0 ? items[size_t(lastText)].node->style : block;
            const qreal ew = singleLineWidth(QString(kEllipsis), TextEngine::fontFor(es), es);
            QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, t.text);
            finder.setPosition(le);
            int cut = ls;
            for (int p = le; p > ls; p = int(finder.toPreviousBoundary())) {
                int q = p;
                while (q > ls && (t.text.at(q - 1).isSpace() || t.text.at(q - 1) == QChar::LineSeparator))
                    --q;
                if (line.cursorToX(q) - x0 + ew <= avail + kWidthEpsilon) {
                    cut = q;
                    break;
                }
                if (finder.position() <= ls)
                    break;
            }
            le = cut;
            ellipsisX = line.cursorToX(cut);
            for (size_t i = 0; i < items.size(); ++i)
                if (items[i].kind == InlineItem::Kind::Text && t.start[i] < std::max(le, ls + 1) && t.end[i] > ls)
                    ellipsisItem = int(i);
        }
        const qreal dy = box.baseline - line.ascent();
        // Step: the line's clusters in visual order, where bidi reordering may have split
        // a range of characters (UAX #9 §3.4 L2, CSS Writing Modes 3 §2.4)
        // (without the spaces a line ends in where white space collapses: CSS Text 3 §4.1.2)
        std::vector<VisualCell> cells;
        if (reorders && line.textLength() <= kMaxVisualCells
            && mayReorder(QStringView(t.text).mid(ls, line.textLength()), block.direction)) {
            int cellsEnd = ls + line.textLength();
            const bool collapses = block.whiteSpace == WhiteSpace::Normal || block.whiteSpace == WhiteSpace::NoWrap
                                   || block.whiteSpace == WhiteSpace::PreLine;
            while (collapses && cellsEnd > ls && t.text.at(cellsEnd - 1) == u' ')
                --cellsEnd;
            cells = visualCells(layout, line, ls, cellsEnd);
        }
        const std::vector<EdgeMove> moves
            = cells.empty() ? std::vector<EdgeMove>{} : moveEdgesToPieceEnds(cells, items, t, ls, le);
        const auto pieces = [&](int a, int b) {
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
        };
        const auto xRange = [&](int a, int b) {
            const auto p = pieces(a, b);
            return std::make_pair(p.front().first, p.back().second);
        };
        // Which piece of `found` holds the edge spacer at `pos`, and whether on its left
        // (-1 when not on the line); without reordering it is where the paragraph starts
        // (`start`) or ends.
        const auto spacerSide = [&](const std::vector<std::pair<qreal, qreal>> &found, int pos, bool start) {
            const bool paragraphLeft = (block.direction == Direction::Rtl) != start;
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
        };
        // Step: every item's fragment on the line (CSS Inline 3 §2.2 inline boxes)
        for (size_t i = 0; i < items.size(); ++i) {
            const InlineItem &item = items[i];
            const FontBox &fb = boxes[i];
            const qreal baseline = box.baseline + offsetOf[i]; // the item's own, after vertical-align
            if (item.kind == InlineItem::Kind::Text) {
                const int a = std::max(t.start[i], ls), b = std::min(t.end[i], le);
                if (a >= b && int(i) != ellipsisItem)
                    continue;
                auto &tb = blocks[i];
                if (!tb) {
                    tb = std::make_shared<TextBlock>();
                    QFont font = TextEngine::fontFor(item.node->style);
                    const QFontMetricsF fm(font);
                    tb->underlineOffset = fm.underlinePos();
                    tb->overlineOffset = -fm.overlinePos();
                    tb->strikeOffset = -fm.strikeOutPos();
                    tb->decorationThickness = std::max<qreal>(1, fm.lineWidth());
                    tb->firstBaseline = baseline;
                }
                TextLine tl;
                if (a < b && !hidden)
                    tl.glyphRuns = line.glyphRuns(a, b - a);
                for (QGlyphRun &run : tl.glyphRuns) {
                    QList<QPointF> positions = run.positions();
                    for (QPointF &p : positions)
                        p = QPointF(movedX(moves, p.x()) + shift, p.y() + dy + offsetOf[i]);
                    run.setPositions(positions);
                }
                auto [x0, x1] = a < b ? xRange(a, b) : std::make_pair(ellipsisX + shift, ellipsisX + shift);
                if (int(i) == ellipsisItem) {
                    ShapedLine e
                        = shapeSingleLine(QString(kEllipsis), TextEngine::fontFor(item.node->style), item.node->style);
                    for (QGlyphRun &run : e.runs) {
                        QList<QPointF> positions = run.positions();
                        for (QPointF &p : positions)
                            p += QPointF(ellipsisX + shift, baseline - e.baselineInRuns);
                        run.setPositions(positions);
                        tl.glyphRuns.append(run);
                    }
                    x1 = std::max(x1, ellipsisX + shift + e.width);
                }
                tl.left = x0;
                tl.width = x1 - x0;
                tl.top = box.top;
                tl.height = box.height;
                tl.baseline = baseline;
                if (!hidden)
                    tb->lines.push_back(std::move(tl));
                tb->ellipsized = tb->ellipsized || int(i) == ellipsisItem;
                out.fragments[i].push_back(
                    {int(li), QRectF(x0, baseline - fb.ascent, x1 - x0, fb.ascent + fb.descent), baseline});
            } else if (item.kind == InlineItem::Kind::Open) {
                const int closeIndex = t.close[i];
                const int a = std::max(t.start[i], ls);
                const int b = std::min(closeIndex >= 0 ? t.end[size_t(closeIndex)] : t.end[i], le);
                if (a >= b)
                    continue;
                // The box's pieces on this line, each with the margin, border and padding of
                // the edge spacers that landed at its ends (one piece unless bidi split it).
                const auto found = pieces(a, b);
                const bool starts = t.start[i] >= ls && item.edge != 0;
                const bool ends
                    = closeIndex >= 0 && t.end[size_t(closeIndex)] <= le && items[size_t(closeIndex)].edge != 0;
                const auto [startPiece, startLeft]
                    = starts ? spacerSide(found, t.start[i], true) : std::make_pair(-1, false);
                const auto [endPiece, endLeft]
                    = ends ? spacerSide(found, t.start[size_t(closeIndex)], false) : std::make_pair(-1, false);
                for (size_t k = 0; k < found.size(); ++k) {
                    auto [x0, x1] = found[k];
                    InlineFragment f{int(li), {}, baseline, false, false};
                    if (startPiece == int(k)) {
                        (startLeft ? x0 : x1) += startLeft ? item.margin : -item.margin;
                        (startLeft ? f.leftEdge : f.rightEdge) = true;
                    }
                    if (endPiece == int(k)) {
                        const qreal margin = items[size_t(closeIndex)].margin;
                        (endLeft ? x0 : x1) += endLeft ? margin : -margin;
                        (endLeft ? f.leftEdge : f.rightEdge) = true;
                    }
                    f.rect = QRectF(x0, baseline - fb.ascent, std::max<qreal>(0, x1 - x0), fb.ascent + fb.descent);
                    out.fragments[i].push_back(f);
                }
            } else if (item.kind == InlineItem::Kind::Break) {
                // A br is an empty box where the line ends (its content area, no width).
                const int p = t.start[i];
                if (p < ls || p >= ls + line.textLength())
                    continue;
                const qreal x = line.cursorToX(p) + shift;
                out.fragments[i].push_back(
                    {int(li), QRectF(x, baseline - fb.ascent, 0, fb.ascent + fb.descent), baseline});
            } else if (item.kind == InlineItem::Kind::Atomic) {
                const int p = t.start[i] + 1;
                if (p < ls || p >= le)
                    continue;
                const auto [x0, x1] = xRange(p, p + 1);
                Q_UNUSED(x1);
                out.fragments[i].push_back(
                    {int(li), QRectF(QPointF(x0, baseline - item.baseline), item.size), baseline});
            }
        }
        if (!hidden)
            widest = std::max(widest,
                              (ellipsize ? std::min(natural, finiteWidth ? width : natural) : natural) + lineIndent);
        out.lines.push_back(box);
    }
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].kind == InlineItem::Kind::Text && !blocks[i])
            blocks[i] = std::make_shared<TextBlock>(); // clamped away: it draws nothing
        if (!blocks[i])
            continue;
        QRectF bounds;
        for (const TextLine &line : blocks[i]->lines)
            bounds |= QRectF(line.left, line.top, line.width, line.height);
        blocks[i]->size = bounds.size();
        out.text[i] = std::move(blocks[i]);
    }
    out.size = QSizeF(widest, visibleHeight);
    out.firstBaseline = out.lines.empty() ? 0 : out.lines.front().baseline;
    if (!out.lines.empty())
        out.lastBaseline = out.lines[visibleLines - 1].baseline;
    return out;
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
    QStringList families = familyList(s.fontFamily, &named);
    bool kerning = true;
    if (s.fontVariantNumeric != 0 || !s.fontFeatureSettings.empty() || s.fontVariantCaps != FontVariantCaps::Normal
        || s.fontKerning == FontKerning::None) {
        // CSS Fonts 4 §7.2: the features go to the faces the style names; the installed
        // fallbacks that draw what those lack keep their defaults.
        const std::vector<FontFeature> features
            = resolvedFontFeatures(s.fontVariantNumeric, s.fontFeatureSettings, s.fontVariantCaps, s.fontKerning);
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
    m.lastBaseline = block->lastBaseline;
    return m;
}

InlineLayout TextEngine::layoutInline(const ComputedStyle &block, const std::vector<InlineItem> &items, qreal maxWidth)
{
    return layoutInlineUncached(block, items, maxWidth);
}

void TextEngine::clearThreadCache()
{
    threadCache().clear();
}

} // namespace imprint::render
