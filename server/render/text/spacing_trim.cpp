#include "server/render/text/spacing_trim.h"
#include "server/render/text/text_internal.h"

#include "server/render/resources/font_file.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <optional>

namespace imprint::render::text_detail {

namespace {

constexpr quint32 kHaltTag = (quint32('h') << 24) | (quint32('a') << 16) | (quint32('l') << 8) | quint32('t');

/// What Blink reads from a face once (HanKerning::FontData): whether it has `halt`, and
/// the classes its dots, colon, semicolon and quotes take from their glyph bounds.
struct TrimFace {
    bool halt = false;
    TrimClass dot = TrimClass::Other;
    TrimClass colon = TrimClass::Other;
    TrimClass semicolon = TrimClass::Other;
    bool quoteFullwidth = false;
};

/// A glyph's class from where its ink lies in its advance (Blink's CharTypeFromBounds):
/// all in the first half is Close, all in the second Open, a narrow ink about the middle
/// Middle.
TrimClass classFromBounds(qreal halfAdvance, const QRectF &ink)
{
    if (ink.right() <= halfAdvance)
        return TrimClass::Close;
    if (ink.left() >= halfAdvance)
        return TrimClass::Open;
    if (ink.width() <= halfAdvance && ink.left() >= halfAdvance / 2)
        return TrimClass::Middle;
    return TrimClass::Other;
}

/// The class a group of glyphs shares: Other unless every glyph the face has takes the
/// first one's advance and class.
TrimClass groupClass(const QRawFont &face, const QList<quint32> &glyphs, const QList<QPointF> &advances,
                     qsizetype from, qsizetype count)
{
    std::optional<qreal> advance0;
    TrimClass class0 = TrimClass::Other;
    for (qsizetype i = from; i < from + count; ++i) {
        if (glyphs.at(i) == 0)
            continue;
        const qreal advance = advances.at(i).x();
        const TrimClass c = classFromBounds((advance0 ? *advance0 : advance) / 2, face.boundingRect(glyphs.at(i)));
        if (!advance0) {
            advance0 = advance;
            class0 = c;
        } else if (advance != *advance0 || c != class0) {
            return TrimClass::Other;
        }
    }
    return class0;
}

TrimFace readFace(const QRawFont &face)
{
    TrimFace out;
    const std::optional<std::vector<quint32>> tags = layoutFeatureTags(face.fontTable("GPOS"));
    out.halt = tags && std::find(tags->begin(), tags->end(), kHaltTag) != tags->end();
    if (!out.halt)
        return out;
    // The dots (comma, full stop), colon, semicolon and the quotes, in Blink's order.
    static const QString probes = QString::fromUtf16(u"\u3001\u3002\uFF0C\uFF0E\uFF1A\uFF1B\u201C\u2018\u201D\u2019");
    const QList<quint32> glyphs = face.glyphIndexesForString(probes);
    if (glyphs.size() != probes.size())
        return out;
    const QList<QPointF> advances = face.advancesForGlyphIndexes(glyphs);
    out.dot = groupClass(face, glyphs, advances, 0, 4);
    out.colon = groupClass(face, glyphs, advances, 4, 1);
    out.semicolon = groupClass(face, glyphs, advances, 5, 1);
    out.quoteFullwidth = groupClass(face, glyphs, advances, 6, 2) == TrimClass::Open
                         && groupClass(face, glyphs, advances, 8, 2) == TrimClass::Close;
    return out;
}

/// readFace() of `face`, once per face and thread.
const TrimFace &trimFace(const QRawFont &face)
{
    thread_local QHash<QString, TrimFace> faces;
    static const TrimFace none;
    if (!face.isValid())
        return none;
    const QString key = face.familyName() + u'|' + face.styleName();
    auto it = faces.constFind(key);
    if (it == faces.constEnd()) {
        if (faces.size() > 256)
            faces.clear();
        it = faces.insert(key, readFace(face));
    }
    return *it;
}

/// The class of a character drawn by a face of `data`.
TrimClass resolved(TrimClass c, const TrimFace &data)
{
    switch (c) {
    case TrimClass::Dot: return data.dot;
    case TrimClass::Colon: return data.colon;
    case TrimClass::Semicolon: return data.semicolon;
    case TrimClass::OpenQuote: return data.quoteFullwidth ? TrimClass::Open : TrimClass::OpenNarrow;
    case TrimClass::CloseQuote: return data.quoteFullwidth ? TrimClass::Close : TrimClass::CloseNarrow;
    default: return c;
    }
}

/// An opening mark after an opening, closing or middle one loses its blank first half
/// (Blink's HanKerning::ShouldKern).
bool trimsStart(TrimClass current, TrimClass last)
{
    return current == TrimClass::Open
           && (last == TrimClass::Open || last == TrimClass::Middle || last == TrimClass::Close
               || last == TrimClass::OpenNarrow);
}

/// A closing mark before a closing or middle one loses its blank second half
/// (Blink's HanKerning::ShouldKernLast).
bool trimsEnd(TrimClass current, TrimClass last)
{
    return last == TrimClass::Close
           && (current == TrimClass::Close || current == TrimClass::Middle || current == TrimClass::CloseNarrow);
}

/// The invisible break controls and joiners the engine or the author put between two
/// characters: they do not separate a pair.
bool isInvisibleControl(char32_t c)
{
    return (c < 0x10000 && isBreakControl(QChar(char16_t(c)))) || c == 0x200C || c == 0x200D || c == 0x00AD;
}

/// Half the advance, in px at `pixelSize`, of `c` in `face`.
qreal halfAdvance(const QRawFont &face, char32_t c, qreal pixelSize)
{
    return characterAdvance(face, c, pixelSize, QRawFont::SeparateAdvances) / 2;
}

} // namespace

TrimClass trimClass(char32_t c)
{
    switch (c) {
    case 0x2018:
    case 0x201C: return TrimClass::OpenQuote;
    case 0x2019:
    case 0x201D: return TrimClass::CloseQuote;
    case 0x3000:
    case 0x00B7:
    case 0x2027:
    case 0x30FB: return TrimClass::Middle;
    case 0x3001:
    case 0x3002:
    case 0xFF0C:
    case 0xFF0E: return TrimClass::Dot;
    case 0xFF1A: return TrimClass::Colon;
    case 0xFF1B: return TrimClass::Semicolon;
    default: break;
    }
    const QChar::Category category = QChar::category(c);
    if (category != QChar::Punctuation_Open && category != QChar::Punctuation_Close)
        return TrimClass::Other;
    // The CJK Symbols and Punctuation block, or East Asian Width F (the fullwidth forms).
    const bool fullwidth = (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF01 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6);
    if (category == QChar::Punctuation_Open)
        return fullwidth ? TrimClass::Open : TrimClass::OpenNarrow;
    return fullwidth ? TrimClass::Close : TrimClass::CloseNarrow;
}

bool mayTrimSpacing(QStringView text)
{
    return std::any_of(text.begin(), text.end(), [](QChar ch) {
        const char16_t c = ch.unicode();
        return (c >= 0x2018 && c <= 0x301F) || (c >= 0xFF08 && c <= 0xFF65);
    });
}

QList<QTextLayout::FormatRange> spacingTrimRanges(QStringView text, const std::function<QRawFont(qsizetype)> &faceAt,
                                                  qreal pixelSize, qreal baseSpacing)
{
    QList<QTextLayout::FormatRange> ranges;
    struct Mark {
        qsizetype index = -1;
        qsizetype units = 1;
        char32_t c = 0;
        TrimClass cls = TrimClass::Other;
        QRawFont face;
        const TrimFace *data = nullptr;
    };
    Mark last;
    const auto trim = [&](const Mark &at, qreal by) {
        if (by <= 0)
            return;
        QTextCharFormat format;
        format.setFontLetterSpacingType(QFont::AbsoluteSpacing);
        format.setFontLetterSpacing(baseSpacing - by);
        ranges.append({int(at.index), int(at.units), format});
    };
    for (qsizetype i = 0; i < text.size();) {
        Mark mark;
        mark.index = i;
        mark.c = text.at(i).unicode();
        if (QChar::isHighSurrogate(mark.c) && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            mark.c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            mark.units = 2;
        }
        i += mark.units;
        if (isInvisibleControl(mark.c))
            continue;
        mark.cls = trimClass(mark.c);
        if (mark.cls == TrimClass::Other) {
            last = Mark();
            continue;
        }
        mark.face = faceAt(mark.index);
        mark.data = &trimFace(mark.face);
        mark.cls = resolved(mark.cls, *mark.data);
        if (last.data) {
            if (trimsEnd(mark.cls, last.cls) && last.data->halt)
                trim(last, halfAdvance(last.face, last.c, pixelSize));
            else if (trimsStart(mark.cls, last.cls) && mark.data->halt)
                // The opening mark's blank half goes: the character before it gives up
                // that much advance, so the mark's ink lands where `halt` puts it.
                trim(last, halfAdvance(mark.face, mark.c, pixelSize));
        }
        last = mark;
    }
    return ranges;
}

} // namespace imprint::render::text_detail
