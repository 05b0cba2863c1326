// Small capitals a face lacks, synthesized as Chromium does (see syntheticSmallCapsRanges()
// in text_internal.h).

#include "server/render/text/feature_faces.h"
#include "server/render/text/text_internal.h"

#include <algorithm>
#include <cmath>

Q_GUI_EXPORT int qt_defaultDpiY(); // Qt's layout DPI, as TextEngine::fontFor() sizes fractional fonts

namespace imprint::render::text_detail {

// Rounded as Chromium sizes that font: 36 px text has 25 px capitals (25.2 measured wider).
QList<QTextLayout::FormatRange> syntheticSmallCapsRanges(const QString &text, const QFont &font, const ComputedStyle &s,
                                                         qreal pxPerUnit)
{
    QList<QTextLayout::FormatRange> ranges;
    if (s.fontVariantCaps == FontVariantCaps::Normal || text.isEmpty() || !synthesizesSmallCaps(s))
        return ranges;
    const bool all = s.fontVariantCaps == FontVariantCaps::AllSmallCaps
                     || s.fontVariantCaps == FontVariantCaps::AllPetiteCaps;
    const qreal size = font.pixelSize() > 0 ? qreal(font.pixelSize()) : font.pointSizeF() * qt_defaultDpiY() / 72.0;
    const qreal perUnit = pxPerUnit > 0 ? pxPerUnit : 1;
    QFont small = font;
    small.setCapitalization(QFont::AllUppercase);
    small.setPointSizeF(std::max<qreal>(std::round(size * perUnit * 0.7) / perUnit, 0.01) * 72.0 / qt_defaultDpiY());
    QTextCharFormat format;
    format.setFont(small);
    // Under the all- variants the characters that change case and those that do not are
    // separate runs, as in Blink, so nothing kerns across them ("DejaVu": the A and V);
    // the property only keeps Qt from merging two runs of the same format into one item.
    QTextCharFormat sameCase = format;
    sameCase.setProperty(QTextFormat::UserProperty, true);
    qsizetype runStart = 0;
    bool runLower = false;
    for (qsizetype i = 0, units = 1; i <= text.size(); i += units) {
        units = 1;
        const bool end = i == text.size();
        bool lower = false;
        if (!end) {
            const char32_t c = codePointAt(text, i, &units);
            lower = QChar::toUpper(c) != c;
        }
        if (i > 0 && (end || lower != runLower) && (all || runLower))
            ranges.append({int(runStart), int(i - runStart), runLower ? format : sameCase});
        if (i == 0 || end || lower != runLower) {
            runStart = i;
            runLower = lower;
        }
    }
    return ranges;
}

QString simpleUppercase(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0, units = 1; i < text.size(); i += units) {
        const char32_t c = codePointAt(text, i, &units);
        const char32_t upper = QChar::toUpper(c);
        if (QChar::requiresSurrogates(upper) == (units == 2))
            out += QString::fromUcs4(&upper, 1);
        else
            out += text.mid(i, units);
    }
    return out;
}

} // namespace imprint::render::text_detail
