// The CSS Grid Layout 1 property handlers (https://www.w3.org/TR/css-grid-1/): the
// templates (§7.2–7.3), implicit tracks and auto-flow (§7.6–7.7), line-based placement
// and its shorthands (§8.3–8.4), and the grid's box-alignment keywords (CSS Box
// Alignment 3 §6: justify-items/-self, the place-* shorthands). Values parse in
// css/grid.cpp.

#include "server/render/style/style_builder.h"

namespace imprint::render::style_detail {

namespace {

/// A <grid-line> that is only a name (a <custom-ident>): what the shorthands copy into
/// their omitted end lines (§8.4).
bool isNameOnly(const GridLine &line)
{
    return line.type == GridLine::Type::Line && line.number == 0 && !line.name.isEmpty();
}

GridLine omittedFrom(const GridLine &given)
{
    return isNameOnly(given) ? given : GridLine{};
}

} // namespace

bool StyleBuilder::gridTemplateTracks(const CssProperty &p, const QString &v)
{
    return storeParsed(p.part == 0 ? m_s.grid.templateColumns : m_s.grid.templateRows,
                       css::gridTrackList(v, m_s.fontSize, m_rootFontSize));
}

bool StyleBuilder::gridTemplateAreas(const CssProperty &, const QString &v)
{
    return storeParsed(m_s.grid.templateAreas, css::gridTemplateAreas(v));
}

bool StyleBuilder::gridAutoTracks(const CssProperty &p, const QString &v)
{
    return storeParsed(p.part == 0 ? m_s.grid.autoColumns : m_s.grid.autoRows,
                       css::gridTrackSizes(v, m_s.fontSize, m_rootFontSize));
}

bool StyleBuilder::gridAutoFlow(const CssProperty &, const QString &v)
{
    // [row | column] || dense (§7.7).
    const QStringList tokens = split(v, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > 2)
        return false;
    bool column = false, dense = false, axisSeen = false;
    for (const QString &t : tokens) {
        if (!axisSeen
            && (t.compare(QLatin1String("row"), Qt::CaseInsensitive) == 0
                || t.compare(QLatin1String("column"), Qt::CaseInsensitive) == 0)) {
            axisSeen = true;
            column = t.compare(QLatin1String("column"), Qt::CaseInsensitive) == 0;
        } else if (!dense && t.compare(QLatin1String("dense"), Qt::CaseInsensitive) == 0) {
            dense = true;
        } else {
            return false;
        }
    }
    m_s.grid.autoFlowColumn = column;
    m_s.grid.autoFlowDense = dense;
    return true;
}

bool StyleBuilder::gridLine(const CssProperty &p, const QString &v)
{
    auto line = css::gridLine(v);
    if (!line)
        return false;
    switch (GridLineField(p.part)) {
    case GridRowStart: m_s.grid.rowStart = *line; break;
    case GridColumnStart: m_s.grid.columnStart = *line; break;
    case GridRowEnd: m_s.grid.rowEnd = *line; break;
    case GridColumnEnd: m_s.grid.columnEnd = *line; break;
    }
    return true;
}

bool StyleBuilder::gridLineShorthand(const CssProperty &p, const QString &v)
{
    // grid-row / grid-column: <grid-line> [ / <grid-line> ]? (§8.4).
    const QStringList parts = split(v, QLatin1Char('/'));
    if (parts.isEmpty() || parts.size() > 2)
        return false;
    auto start = css::gridLine(parts[0]);
    auto end = parts.size() > 1 ? css::gridLine(parts[1]) : (start ? std::optional(omittedFrom(*start)) : std::nullopt);
    if (!start || !end)
        return false;
    if (p.part == 0) {
        m_s.grid.columnStart = *start;
        m_s.grid.columnEnd = *end;
    } else {
        m_s.grid.rowStart = *start;
        m_s.grid.rowEnd = *end;
    }
    return true;
}

bool StyleBuilder::gridArea(const CssProperty &, const QString &v)
{
    // grid-area: row-start / column-start / row-end / column-end (§8.4); omitted ones
    // copy a name-only start line, else auto.
    const QStringList parts = split(v, QLatin1Char('/'));
    if (parts.isEmpty() || parts.size() > 4)
        return false;
    std::array<GridLine, 4> lines;
    for (int i = 0; i < int(parts.size()); ++i) {
        auto line = css::gridLine(parts[i]);
        if (!line)
            return false;
        lines[i] = *line;
    }
    if (parts.size() < 2)
        lines[GridColumnStart] = omittedFrom(lines[GridRowStart]);
    if (parts.size() < 3)
        lines[GridRowEnd] = omittedFrom(lines[GridRowStart]);
    if (parts.size() < 4)
        lines[GridColumnEnd] = omittedFrom(lines[GridColumnStart]);
    m_s.grid.rowStart = lines[GridRowStart];
    m_s.grid.columnStart = lines[GridColumnStart];
    m_s.grid.rowEnd = lines[GridRowEnd];
    m_s.grid.columnEnd = lines[GridColumnEnd];
    return true;
}

bool StyleBuilder::justifyItems(const CssProperty &p, const QString &v)
{
    // CSS Box Alignment 3 §6.1–6.2; `legacy` (justify-items' initial value) acts as
    // normal, `safe`/`unsafe` overflow keywords are accepted and ignored.
    QString t = v.trimmed().toLower();
    if (t.startsWith(QLatin1String("safe ")) || t.startsWith(QLatin1String("unsafe ")))
        t = t.mid(t.indexOf(QLatin1Char(' ')) + 1);
    if (t.startsWith(QLatin1String("legacy")) || t.endsWith(QLatin1String(" legacy")))
        t = QStringLiteral("normal");
    if (t.startsWith(QLatin1String("first ")) || t.startsWith(QLatin1String("last ")))
        t = QStringLiteral("baseline");
    return itemsOrSelf<JustifyItemsKeywords>(t, p.part == 1, m_s.grid.justifyItems, m_s.grid.justifySelf);
}

bool StyleBuilder::placeItems(const CssProperty &p, const QString &v)
{
    // place-items / place-self: <align> <justify>? (CSS Box Alignment 3 §6.3).
    const QStringList tokens = split(v, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > 2)
        return false;
    const ComputedStyle saved = m_s;
    const CssProperty align{p.name, p.handler, p.order, p.kind, false, qint8(p.part == 1 ? 1 : 0)};
    if (!alignItems(align, tokens[0]) || !justifyItems(align, tokens.size() > 1 ? tokens[1] : tokens[0])) {
        m_s = saved;
        return false;
    }
    return true;
}

bool StyleBuilder::placeContent(const CssProperty &p, const QString &v)
{
    // place-content: <align-content> <justify-content>? (CSS Box Alignment 3 §5.5).
    const QStringList tokens = split(v, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > 2)
        return false;
    const ComputedStyle saved = m_s;
    const QString &justify = tokens.size() > 1 ? tokens[1] : tokens[0];
    if (!keywordField<&ComputedStyle::alignContent, AlignContentKeywords>(p, tokens[0])
        || !keywordField<&ComputedStyle::justifyContent, JustifyContentKeywords>(p, justify)) {
        m_s = saved;
        return false;
    }
    return true;
}

} // namespace imprint::render::style_detail
