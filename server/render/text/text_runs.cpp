// A text run's characters prepared for Qt's shaper: text-transform, the font-family
// list and Chromium's per-character font fallback as format ranges (CSS Fonts 4 §5),
// word-break: keep-all and Chromium's ASCII break table as invisible break controls
// (CSS Text 3 §5), letter-spacing off in cursive scripts (CSS Text 3 §8.2).

#include "server/render/text/text_internal.h"
#include "server/render/text/spacing_trim.h"

#include "server/render/resources/emoji.h"
#include "server/render/resources/hyphenation.h"
#include "server/render/text/font_fallback.h"
#include "server/render/text/font_set.h"
#include "server/render/text/generic_family.h"
#include "server/render/text/language_spaces.h"
#include "server/render/text/vertical_align.h"

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QHash>
#include <QLocale>
#include <QMutex>
#include <QTextBoundaryFinder>
#include <QTextLayout>


#include <algorithm>

#include <cmath>
#include <cstring>
#include <list>
#include <optional>

namespace imprint::render::text_detail {

QString applyHyphens(const QString &text, const ComputedStyle &style, bool endsParagraph)
{
    switch (style.hyphens) {
    case Hyphens::Manual: return text;
    case Hyphens::Auto: return insertSoftHyphens(text, style.lang, endsParagraph);
    case Hyphens::None: {
        QString out = text;
        return out.remove(QChar(0x00AD));
    }
    }
    return text;
}

namespace {

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
/// resolved for `lang`), with the sans-serif face when none is installed: the fonts Chromium tries
/// before it falls back per character (font_fallback.h).
QStringList primaryFamilies(const QStringList &requested, const QString &lang)
{
    // Generic families are what fontconfig makes of them, as in Chromium on Linux (Noto
    // Sans for sans-serif with Debian's fonts-noto-core). When nothing the list names is
    // installed ("Arial, Helvetica", "Hiragino Sans"), Chromium draws with its default
    // face, the sans-serif one, not with our first fallback. CSS Fonts 4's ui-serif,
    // ui-sans-serif and ui-monospace map to a face only on macOS: Chromium on Linux skips
    // them as families it does not have ("ui-monospace, serif" draws the serif face).
    QStringList families;
    bool usable = false;
    for (const QString &raw : requested) {
        const QString f = raw.trimmed();
        const QString lower = f.toLower();
        if (lower == QLatin1String("ui-sans-serif") || lower == QLatin1String("ui-serif")
            || lower == QLatin1String("ui-monospace") || lower == QLatin1String("ui-rounded")) {
            continue;
        } else if (lower == QLatin1String("sans-serif")) {
            families << genericFamily(GenericFamily::SansSerif, lang);
            usable = true;
        } else if (lower == QLatin1String("system-ui")) {
            // The system's UI face (FontCache::SystemFontFamily()), whatever the language.
            families << genericFamily(GenericFamily::SansSerif);
            usable = true;
        } else if (lower == QLatin1String("serif")) {
            families << genericFamily(GenericFamily::Serif, lang);
            usable = true;
        } else if (lower == QLatin1String("monospace")) {
            families << genericFamily(GenericFamily::Monospace, lang);
            usable = true;
        } else if (!f.isEmpty()) {
            families << f;
            usable = usable || hasFamily(f);
        }
    }
    if (!usable)
        families << standardFamily(lang);
    return families;
}

} // namespace

QStringList familyList(const QStringList &requested, const QString &lang, qsizetype *named)
{
    QStringList families = primaryFamilies(requested, lang);
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

namespace {

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

} // namespace

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

namespace {

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

/// UAX #14 class CJ in the BMP: small hiragana and katakana, the prolonged sound mark,
/// the katakana phonetic extensions and the halfwidth small katakana (LineBreak.txt).
bool isSmallKana(QChar c)
{
    switch (c.unicode()) {
    case 0x3041: case 0x3043: case 0x3045: case 0x3047: case 0x3049: case 0x3063: case 0x3083:
    case 0x3085: case 0x3087: case 0x308E: case 0x3095: case 0x3096: case 0x30A1: case 0x30A3:
    case 0x30A5: case 0x30A7: case 0x30A9: case 0x30C3: case 0x30E3: case 0x30E5: case 0x30E7:
    case 0x30EE: case 0x30F5: case 0x30F6: case 0x30FC: return true;
    default: return (c.unicode() >= 0x31F0 && c.unicode() <= 0x31FF) || (c.unicode() >= 0xFF67 && c.unicode() <= 0xFF70);
    }
}

} // namespace

QString withChromiumBreaks(const QString &text)
{
    const auto isHangulSyllable = [](QChar c) { return c.unicode() >= 0xAC00 && c.unicode() <= 0xD7A3; };
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
        const QChar next = i + 1 < text.size() ? text.at(i + 1) : QChar();
        out += ch;
        if (i + 1 >= text.size())
            break;
        // Two Hangul syllables (UAX #14 H2/H3) may break between them (LB31), as ICU and
        // so Chromium break Korean; Qt 6.4 keeps a run of syllables whole, so a Korean line
        // without spaces overflowed its box. word-break: keep-all has joined them already.
        if (isHangulSyllable(ch) && isHangulSyllable(next)) {
            out += QChar(0x200B);
            changed = true;
            continue;
        }
        // UAX #14 class CJ (small kana, the prolonged sound mark) after kana or an
        // ideograph: Chromium (`line-break: auto`, ICU's normal rules) breaks before it as
        // before any ideograph ("キ|ャッシュ"); Qt 6.4 treats it as NS and never does.
        if (isSmallKana(next) && (isCjkScript(ch.unicode()) || isSmallKana(ch))) {
            out += QChar(0x200B);
            changed = true;
            continue;
        }
        if (!printable(ch) || !printable(next) || alnum(ch))
            continue;
        if (chromiumBreaksBetween(i > 0 ? text.at(i - 1) : QChar(), ch, next))
            out += QChar(0x200B);
        // Nor "/" between digits (LB25 NU SY × NU): split there, "1/2" lost the context
        // of its fraction ("frac") and kerning.
        else if (uaxBreaksAfter.contains(ch) && !(prefixes.contains(ch) && next.isDigit())
                 && !(ch == u'/' && next.isDigit() && i > 0 && text.at(i - 1).isDigit()))
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

qreal alignedLineLeft(qreal avail, qreal alignWidth, qreal factor)
{
    if (avail < alignWidth && factor > 0)
        return (avail - alignWidth) * factor;
    return std::max<qreal>(0, avail - alignWidth) * factor;
}

void translateGlyphRuns(QList<QGlyphRun> &runs, QPointF by)
{
    for (QGlyphRun &run : runs) {
        QList<QPointF> positions = run.positions();
        for (QPointF &p : positions)
            p += by;
        run.setPositions(positions);
    }
}

namespace {

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
    return c == 0x200B || c == 0x200C || c == 0x200D || c == 0x2060 || c == 0x180E || c == 0x00AD
           || c == QChar::LineSeparator
           || (c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xE0100 && c <= 0xE01EF);
}

} // namespace

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

namespace {

/// The faces that draw a run's characters before per-character fallback: its font-family
/// list's (primaryFaces()), then the standard font (standardFamily(): the sans-serif face, or the
/// family Chromium's preferences name for the language's script), at
/// the run's weight and style when the list does not name it (Blink's
/// FontFallbackList::GetFontData): the Latin of a bold 'Noto Sans Hebrew' title is Noto
/// Sans Bold, not a regular face emboldened.
struct ListedFaces {
    std::vector<QRawFont> listed;
    std::vector<qsizetype> familyIndex; ///< of each listed face, in primaryFamilies()
    std::optional<QRawFont> standard;

    explicit ListedFaces(const ComputedStyle &s)
    {
        const QStringList families = primaryFamilies(s.fontFamily, s.lang);
        for (qsizetype i = 0; i < families.size(); ++i) {
            const std::vector<QRawFont> own = primaryFaces({families.at(i)}, s);
            if (!own.empty()) {
                listed.push_back(own.front());
                familyIndex.push_back(i);
            }
        }
        const QString standardName = standardFamily(s.lang);
        if (!families.contains(standardName)) {
            const std::vector<QRawFont> own = primaryFaces({standardName}, s);
            if (!own.empty())
                standard = own.front();
        }
    }
    /// The first of the listed faces that has `c`, else the standard face if it has it,
    /// else nullptr (per-character fallback draws it).
    const QRawFont *faceFor(char32_t c) const
    {
        for (const QRawFont &f : listed)
            if (f.supportsCharacter(c))
                return &f;
        return standard && standard->supportsCharacter(c) ? &*standard : nullptr;
    }
    /// The face that draws `c` as Blink shapes it: faceFor(c), except that a face before it
    /// (the standard one last) that lacks `c` but has every character of its canonical
    /// decomposition (NFD) draws it decomposed (`*decomposed` set), as HarfBuzz does: "≠" in
    /// Noto Sans is its "=" with U+0338 over it, "ế" in DejaVu Sans Mono its "e" with two
    /// marks. Nullptr when no face has it either way.
    const QRawFont *drawingFace(char32_t c, bool *decomposed) const
    {
        *decomposed = false;
        const QRawFont *direct = faceFor(c);
        if ((direct && direct == listed.data()) || QChar::decompositionTag(c) != QChar::Canonical)
            return direct;
        const QString parts = QString::fromUcs4(&c, 1).normalized(QString::NormalizationForm_D);
        const auto hasParts = [&](const QRawFont &f) {
            for (qsizetype i = 0, units = 1; i < parts.size(); i += units)
                if (!f.supportsCharacter(codePointAt(parts, i, &units)))
                    return false;
            return true;
        };
        for (const QRawFont &f : listed) {
            if (&f == direct)
                return direct;
            if (hasParts(f)) {
                *decomposed = true;
                return &f;
            }
        }
        if (standard && &*standard != direct && hasParts(*standard)) {
            *decomposed = true;
            return &*standard;
        }
        return direct;
    }
};

/// ListedFaces of one run's style, made when a pass first asks: the passes of
/// formatRangesFor() share one, and a run that needs none (no fallback, no trimming)
/// makes none.
class LazyListedFaces
{
public:
    explicit LazyListedFaces(const ComputedStyle &s) : m_style(s) { }
    const ListedFaces &operator*()
    {
        if (!m_faces)
            m_faces.emplace(m_style);
        return *m_faces;
    }
    const ListedFaces *operator->() { return &**this; }

private:
    const ComputedStyle &m_style;
    std::optional<ListedFaces> m_faces;
};

/// The range of `ranges` that covers the character at `i`, or null.
const QTextLayout::FormatRange *rangeCovering(const QList<QTextLayout::FormatRange> &ranges, qsizetype i)
{
    for (const QTextLayout::FormatRange &r : ranges)
        if (i >= r.start && i < r.start + r.length)
            return &r;
    return nullptr;
}

/// The size (px) a run in `font` under `s` is shaped at, and the letter-spacing (px) its
/// characters already have: what the letter-spacing ranges of formatRangesFor() build on.
struct RunSpacing {
    qreal pixelSize = 0;
    qreal letterSpacing = 0;

    RunSpacing(const QFont &font, const ComputedStyle &s)
        : pixelSize(font.pixelSize() > 0 ? qreal(font.pixelSize()) : qreal(s.fontSize)),
          letterSpacing(font.letterSpacingType() == QFont::AbsoluteSpacing ? font.letterSpacing() : 0)
    {
    }
};

/// Font fallback as Chromium does it (font_fallback.h): each stretch of characters that
/// no family of `s`'s font-family list has, as a format range in the face fontconfig
/// falls back to for it, synthetic bold and italic as Blink asks Skia for them. The
/// `emoji` ranges keep their own font.
QList<QTextLayout::FormatRange> fallbackFormatRanges(const QString &text, const QFont &font, const ComputedStyle &s,
                                                     const QList<QTextLayout::FormatRange> &emoji, LazyListedFaces &faces)
{
    QList<QTextLayout::FormatRange> ranges;
    std::vector<bool> inEmoji;
    if (!emoji.isEmpty()) {
        inEmoji.assign(size_t(text.size()), false);
        for (const QTextLayout::FormatRange &r : emoji)
            for (int k = std::max(0, r.start); k < r.start + r.length && k < text.size(); ++k)
                inEmoji[size_t(k)] = true;
    }
    // The standard face (ListedFaces) as a fallback range. No style name: Qt picks the
    // family's face for the weight.
    const FallbackFace standard{standardFamily(s.lang), QString(), std::clamp(s.fontWeight, 1, 1000),
                                false};
    // A later family of the list as a range of its own (weight 0: the run's weight and
    // style, no synthesis): Qt 6.4 caches a font's merged engine by its first family only,
    // so "Inter, Noto Serif CJK KR" after "Inter, Noto Sans CJK KR" drew the second's
    // characters with the sans face. The range names the family as the run's font does
    // (a variable instance or a face with features frozen in).
    // A face drawing a character decomposed (ListedFaces::decomposingFace()) as a range
    // of its own too (weight -1), which Qt may not merge: Qt picks a face per code point
    // and would take one that has the composed character.
    std::vector<FallbackFace> laterFamilies, decomposing;
    const FallbackFace standardDecomposing{standard.family, QString(), -1, false};
    const auto listedRange = [&](const QRawFont *drawing, bool decomposed) -> const FallbackFace * {
        const ListedFaces &listed = *faces;
        if (decomposed && listed.standard && drawing == &*listed.standard)
            return &standardDecomposing;
        const auto at = size_t(drawing - listed.listed.data());
        if ((at == 0 && !decomposed) || at >= listed.listed.size() || listed.familyIndex[at] >= font.families().size())
            return nullptr;
        std::vector<FallbackFace> &faceOf = decomposed ? decomposing : laterFamilies;
        if (faceOf.empty())
            faceOf.resize(listed.listed.size());
        FallbackFace &face = faceOf[at];
        if (face.family.isEmpty()) {
            face.family = font.families().at(listed.familyIndex[at]);
            face.weight = decomposed ? -1 : 0;
        }
        return &face;
    };
    const FallbackFace *runFace = nullptr;
    qsizetype runStart = 0;
    const auto close = [&](qsizetype end) {
        if (!runFace || end <= runStart)
            return;
        QTextCharFormat format;
        if (runFace->weight <= 0) {
            QFont later = font;
            later.setFamilies({runFace->family});
            if (runFace->weight < 0)
                later.setStyleStrategy(QFont::StyleStrategy(later.styleStrategy() | QFont::NoFontMerging));
            format.setFont(later);
        } else {
            format.setFont(fallbackFont(font, *runFace, s.fontWeight, s.fontStyle == FontStyle::Italic));
        }
        // A character the list (`"Noto Color Emoji"` in Tailwind's font-sans) or fallback
        // sends to the colour emoji font without being an emoji cluster (☀, ♥, ✔ without
        // VS16) is drawn from it as Chromium does, and advances by its hmtx width as an
        // emoji cluster does: Qt's own advance was 0.85 of it, so "☀ x" drew the x 6 px
        // into the sun's space at 36 px.
        if (runFace->family == emojiFontFamily()) {
            const QFont used = format.font();
            setEmojiAdvance(format, used, used.pixelSize() > 0 ? qreal(used.pixelSize()) : qreal(s.fontSize));
        }
        ranges.append({int(runStart), int(end - runStart), format});
    };
    for (qsizetype i = 0; i < text.size();) {
        qsizetype units = 1;
        const char32_t c = codePointAt(text, i, &units);
        const FallbackFace *face = runFace;
        if (!inEmoji.empty() && inEmoji[size_t(i)]) {
            face = nullptr;
        } else if (!followsPreviousFace(c) && c >= 0x20) {
            bool decomposed = false;
            const QRawFont *drawing = faces->drawingFace(c, &decomposed);
            if (decomposed)
                face = listedRange(drawing, true);
            else if (!drawing)
                face = systemFallbackFace(c, s.lang);
            else if (faces->standard && drawing == &*faces->standard)
                face = &standard;
            else
                face = listedRange(drawing, false);
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

} // namespace

namespace {

/// The face a fallback format range draws with (its family and style name, or weight and
/// style), at a nominal size, for its tables and glyph bounds; cached per thread.
QRawFont fallbackRangeFace(const QFont &font)
{
    thread_local QHash<QString, QRawFont> faces;
    const QString key = font.families().join(u',') + u'|' + font.styleName() + u'|' + QString::number(font.weight())
                        + (font.style() == QFont::StyleNormal ? u'n' : u'i');
    auto it = faces.constFind(key);
    if (it == faces.constEnd()) {
        QFont nominal;
        nominal.setFamilies(font.families());
        nominal.setStyleName(font.styleName()); // a fallback face: it selects the face
        nominal.setWeight(font.weight()); // a later family of the list: the run's weight and style do
        nominal.setStyle(font.style());
        nominal.setPixelSize(16);
        if (faces.size() > 256)
            faces.clear();
        it = faces.insert(key, QRawFont::fromFont(nominal));
    }
    return *it;
}

/// spacingTrimRanges() of `text` drawn in `font` with `s`, after its fallback `ranges`:
/// a character is drawn by the fallback range that covers it, else by the face of
/// ListedFaces that has it.
QList<QTextLayout::FormatRange> trimRangesFor(const QString &text, const QFont &font, const ComputedStyle &s,
                                              const QList<QTextLayout::FormatRange> &fallback, LazyListedFaces &listed)
{
    const auto faceAt = [&](qsizetype i) {
        if (const QTextLayout::FormatRange *r = rangeCovering(fallback, i))
            return fallbackRangeFace(r->format.font());
        qsizetype units = 1;
        const QRawFont *face = listed->faceFor(codePointAt(text, i, &units));
        return face ? *face : QRawFont();
    };
    const RunSpacing run(font, s);
    return spacingTrimRanges(text, faceAt, run.pixelSize, run.letterSpacing);
}

} // namespace

qreal characterAdvance(const QRawFont &face, char32_t c, qreal pixelSize, QRawFont::LayoutFlags flags)
{
    const QList<quint32> glyph = face.glyphIndexesForString(QString::fromUcs4(&c, 1));
    if (!face.isValid() || glyph.size() != 1 || glyph.front() == 0 || face.pixelSize() <= 0)
        return 0;
    return face.advancesForGlyphIndexes(glyph, flags).front().x() / face.pixelSize() * pixelSize;
}

namespace {

/// The scripts Qt 6.4 shapes only with a face that has OpenType tables for them: an item of
/// such a script (the Common characters after its letters included, UAX #24) is drawn whole
/// with the script's face when the list's first face lacks them.
bool shapedWholeByTheScriptFace(QChar::Script script)
{
    switch (script) {
    case QChar::Script_Devanagari:
    case QChar::Script_Bengali:
    case QChar::Script_Gurmukhi:
    case QChar::Script_Gujarati:
    case QChar::Script_Oriya:
    case QChar::Script_Tamil:
    case QChar::Script_Telugu:
    case QChar::Script_Kannada:
    case QChar::Script_Malayalam:
    case QChar::Script_Sinhala: return true;
    default: return false;
    }
}

/// Spaces and digits Chromium draws wider or narrower than Qt does, each given the
/// difference as letter-spacing, so lines break and align as Chromium's:
/// - Spaces between the words of a run of a script shapedWholeByTheScriptFace() drawn by a
///   face other than the list's first with a space: a fallback face ("हिंदी में" in Inter)
///   or a later family of the list ("Inter, Noto Sans Devanagari"). Blink shapes a script
///   run with the list's faces first and moves on only where a face has no glyph, so its
///   spaces are the first listed face's (Inter Bold's 11.11 px at 48 px); Qt draws them
///   with the script's face (Noto Sans Devanagari's, 12.48 px), which made a 7-word
///   Bengali title 12 px wider than Chromium's. Digits and punctuation in such a run keep
///   the script face's glyphs.
/// - Spaces and digits of a listed face in a language whose `locl` changes them
///   (languageAdvanceDelta(): a Korean title's spaces in Noto Sans CJK KR are 0.28 em,
///   Qt's 0.224).
QList<QTextLayout::FormatRange> spaceRanges(const QString &text, const QFont &font, const ComputedStyle &s,
                                            const QList<QTextLayout::FormatRange> &fallback, LazyListedFaces &listed)
{
    QList<QTextLayout::FormatRange> out;
    const bool hasLang = !s.lang.trimmed().isEmpty();
    // Without a language only a run drawn by another face than the list's first can need a
    // space of its own, and such a run has a range in `fallback`.
    if (!hasLang && fallback.isEmpty())
        return out;
    const RunSpacing run(font, s);
    const QTextLayout::FormatRange *itemRange = nullptr; // the fallback range of the item's last letter
    QChar::Script itemScript = QChar::Script_Common;
    char32_t itemLetter = 0; // the item's last letter
    const auto space = [&](qsizetype i, qreal delta) {
        if (std::abs(delta) < 1.0 / 64)
            return;
        QTextCharFormat spaced;
        spaced.setFontLetterSpacingType(QFont::AbsoluteSpacing);
        spaced.setFontLetterSpacing(run.letterSpacing + delta);
        out.append({int(i), 1, spaced});
    };
    for (qsizetype i = 0, units = 1; i < text.size(); i += units) {
        const char32_t c = codePointAt(text, i, &units);
        const QChar::Script script = QChar::script(c);
        if (script > QChar::Script_Common) {
            itemScript = script;
            itemRange = rangeCovering(fallback, i);
            itemLetter = c;
            continue;
        }
        const bool isSpace = c == u' ' || c == 0xA0;
        const bool wholeItem = itemLetter != 0 && shapedWholeByTheScriptFace(itemScript);
        if (!hasLang && !(isSpace && wholeItem))
            continue;
        if ((!isSpace && (c < u'0' || c > u'9')) || rangeCovering(fallback, i))
            continue;
        const QRawFont *primary = listed->faceFor(c);
        if (!primary)
            continue;
        if (!isSpace) { // a digit of a listed face, in a language
            if (!wholeItem)
                space(i, languageAdvanceDelta(*primary, s.lang, c, run.pixelSize));
            continue;
        }
        // By design metrics: the faces are at a nominal size, where hinted advances are whole.
        const qreal wanted = characterAdvance(*primary, u' ', run.pixelSize, QRawFont::UseDesignMetrics)
                             + languageAdvanceDelta(*primary, s.lang, u' ', run.pixelSize);
        QRawFont drawing = *primary; // the face Qt draws the space with
        if (wholeItem && itemRange) {
            drawing = fallbackRangeFace(itemRange->format.font());
        } else if (wholeItem) {
            if (const QRawFont *face = listed->faceFor(itemLetter))
                drawing = *face;
        }
        space(i, wanted - characterAdvance(drawing, u' ', run.pixelSize, QRawFont::UseDesignMetrics));
    }
    return out;
}

} // namespace

QList<QTextLayout::FormatRange> formatRangesFor(const QString &text, const QFont &font, const ComputedStyle &s,
                                                qreal pxPerUnit)
{
    const QList<QTextLayout::FormatRange> emoji = emojiFormatRanges(text, font);
    LazyListedFaces listed(s);
    // First, so that fallback and emoji ranges keep their own faces and sizes.
    QList<QTextLayout::FormatRange> ranges = syntheticSmallCapsRanges(text, font, s, pxPerUnit);
    ranges += fallbackFormatRanges(text, font, s, emoji, listed);
    const QList<QTextLayout::FormatRange> spaces = spaceRanges(text, font, s, ranges, listed);
    // CSS Text 4 §4.2 text-spacing-trim: normal; last, so its letter-spacing wins
    const QList<QTextLayout::FormatRange> trimmed
        = mayTrimSpacing(text) ? trimRangesFor(text, font, s, ranges, listed) : QList<QTextLayout::FormatRange>();
    ranges += spaces;
    ranges += emoji;
    if (s.letterSpacing == 0)
        return ranges + trimmed;
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
            // U+180E (withDictionaryBreaks()) is of the Mongolian script but no letter.
            const QChar::Script script = isBreakControl(text.at(i)) ? QChar::Script_Common : text.at(i).script();
            if (script > QChar::Script_Common) {
                if (!seenScript && isCursiveScript(script)) // the text's leading Common characters join it
                    std::fill(inCursiveRun.begin(), inCursiveRun.begin() + i, true);
                cursiveRun = isCursiveScript(script);
                seenScript = true;
            }
            inCursiveRun[size_t(i)] = cursiveRun;
        }
    }
    // The invisible break controls (withChromiumBreaks(), joinCjkWords(),
    // withDictionaryBreaks()) take no spacing either: Chromium adds none after a zero-width
    // space or word joiner, where "LETTER-SPACED" came out one letter-spacing wider than
    // Chromium's.
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (isBreakControl(text.at(i)))
            ranges.append({int(i), 1, unspaced});
    }
    qsizetype start = -1;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        const QChar::Script script = i >= text.size()              ? QChar::Script_Unknown
                                     : isBreakControl(text.at(i)) ? QChar::Script_Common
                                                                  : text.at(i).script();
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
    return ranges + trimmed;
}

QTextOption textOptionFor(const ComputedStyle &s, QTextOption::WrapMode wrap, bool justify)
{
    QTextOption option;
    option.setWrapMode(wrap);
    option.setTextDirection(s.direction == Direction::Rtl ? Qt::RightToLeft : Qt::LeftToRight);
    option.setAlignment(justify ? Qt::AlignJustify : Qt::Alignment(Qt::AlignLeft | Qt::AlignAbsolute));
    option.setUseDesignMetrics(true);
    // Tabs survive white-space processing only where spaces are preserved; their stops are
    // tab-size space advances apart, letter- and word-spacing included (CSS Text 3 §4.2),
    // where Qt's default is a fixed 80 px.
    if (s.whiteSpace == WhiteSpace::Pre || s.whiteSpace == WhiteSpace::PreWrap) {
        qreal distance = s.tabSize;
        if (!s.tabSizeIsLength) {
            const qreal space = QFontMetricsF(TextEngine::fontFor(s)).horizontalAdvance(QLatin1Char(' '));
            distance *= space;
        }
        if (distance > 0)
            option.setTabStopDistance(distance);
    }
    return option;
}

} // namespace imprint::render::text_detail
