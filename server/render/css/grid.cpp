// CSS Grid Layout 1 value parsers (https://www.w3.org/TR/css-grid-1/#grid-definition):
// track lists (§7.2), implicit track sizes (§7.6), template areas (§7.3) and grid lines
// (§8.3). See css/grid.h.

#include "server/render/css/grid.h"

#include "server/render/css/parse.h"

#include <QHash>

#include <algorithm>

namespace imprint::render {

namespace {

/// Explicit tracks beyond this are refused: a template cannot make layout quadratic in
/// a number it writes (Chromium clamps at 1000 repetitions too).
constexpr int kMaxTracks = 1000;

/// Splits a track list into `[names]` groups, functions and words (CSS Syntax 3 §5.4.7;
/// brackets and parentheses group, whitespace separates).
QStringList trackTokens(QStringView text)
{
    QStringList out;
    qsizetype i = 0;
    while (i < text.size()) {
        if (text[i].isSpace()) {
            ++i;
            continue;
        }
        const qsizetype start = i;
        if (text[i] == QLatin1Char('[')) {
            while (i < text.size() && text[i] != QLatin1Char(']'))
                ++i;
            out << text.mid(start, std::min(i + 1, text.size()) - start).toString();
            ++i;
            continue;
        }
        int depth = 0;
        while (i < text.size()) {
            const QChar c = text[i];
            if (c == QLatin1Char('('))
                ++depth;
            else if (c == QLatin1Char(')'))
                depth = std::max(0, depth - 1);
            else if (depth == 0 && (c.isSpace() || c == QLatin1Char('[')))
                break;
            ++i;
        }
        out << text.mid(start, i - start).toString();
    }
    return out;
}

bool isIdent(QStringView t)
{
    if (t.isEmpty() || t.front().isDigit())
        return false;
    for (QChar c : t)
        if (!(c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_')))
            return false;
    return !(t.size() >= 2 && t[0] == QLatin1Char('-') && t[1].isDigit());
}

/// `[a b]` → {a, b}; nullopt when not a bracketed list of identifiers.
std::optional<QStringList> lineNames(const QString &token)
{
    if (!token.startsWith(QLatin1Char('[')) || !token.endsWith(QLatin1Char(']')))
        return std::nullopt;
    QStringList names;
    for (const QString &n : css::split(QStringView(token).mid(1, token.size() - 2), QLatin1Char(' '))) {
        if (!isIdent(n) || n.compare(QLatin1String("span"), Qt::CaseInsensitive) == 0
            || n.compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0)
            return std::nullopt;
        names << n;
    }
    return names;
}

std::optional<TrackBreadth> breadth(const QString &t, float fontSize, float rootFontSize, bool allowFlex)
{
    TrackBreadth b;
    const QString lower = t.trimmed().toLower();
    if (lower == QLatin1String("auto")) {
        b.type = TrackBreadth::Type::Auto;
        return b;
    }
    if (lower == QLatin1String("min-content")) {
        b.type = TrackBreadth::Type::MinContent;
        return b;
    }
    if (lower == QLatin1String("max-content")) {
        b.type = TrackBreadth::Type::MaxContent;
        return b;
    }
    if (auto fr = css::numberWithUnit(lower, QLatin1StringView("fr"))) {
        if (!allowFlex || *fr < 0)
            return std::nullopt;
        b.type = TrackBreadth::Type::Flex;
        b.flex = *fr;
        return b;
    }
    auto l = css::lengthPercentage(t, fontSize, rootFontSize);
    if (!l || l->value < 0)
        return std::nullopt;
    b.type = TrackBreadth::Type::Fixed;
    b.length = *l;
    return b;
}

std::optional<TrackSize> trackSize(const QString &t, float fontSize, float rootFontSize)
{
    if (const auto call = css::function(t)) {
        const QString &name = call->name, &args = call->args;
        const QStringList parts = css::split(args, QLatin1Char(','));
        if (name == QLatin1String("minmax") && parts.size() == 2) {
            auto min = breadth(parts[0], fontSize, rootFontSize, false);
            auto max = breadth(parts[1], fontSize, rootFontSize, true);
            if (!min || !max)
                return std::nullopt;
            return TrackSize{*min, *max};
        }
        if (name == QLatin1String("fit-content") && parts.size() == 1) {
            auto limit = css::lengthPercentage(parts[0], fontSize, rootFontSize);
            if (!limit || limit->value < 0)
                return std::nullopt;
            TrackBreadth max{TrackBreadth::Type::FitContent, *limit, 0};
            return TrackSize{TrackBreadth{}, max};
        }
        return std::nullopt;
    }
    auto b = breadth(t, fontSize, rootFontSize, true);
    if (!b)
        return std::nullopt;
    // A flexible breadth alone is minmax(auto, <flex>) (§7.2.4).
    return b->isFlex() ? TrackSize{TrackBreadth{}, *b} : TrackSize{*b, *b};
}

/// <fixed-size> (§7.2): a fixed min, or an inflexible min with a fixed max.
bool isFixedSize(const TrackSize &s)
{
    return s.min.isFixed() || s.max.isFixed();
}

/// Collects names and tracks of `tokens` (no repeat() inside) into `sizes`/`names`,
/// merging names that meet with `pending`.
bool appendTracks(const QStringList &tokens, float fontSize, float rootFontSize, std::vector<TrackSize> &sizes,
                  std::vector<QStringList> &names, QStringList &pending, QString *reason)
{
    for (const QString &token : tokens) {
        if (auto n = lineNames(token)) {
            pending << *n;
            continue;
        }
        auto size = trackSize(token, fontSize, rootFontSize);
        if (!size) {
            *reason = QStringLiteral("invalid track size \"%1\"").arg(token);
            return false;
        }
        names.push_back(pending);
        pending.clear();
        sizes.push_back(*size);
        if (int(sizes.size()) > kMaxTracks) {
            *reason = QStringLiteral("more than %1 tracks").arg(kMaxTracks);
            return false;
        }
    }
    return true;
}

} // namespace

ExpandedTracks expandTrackList(const GridTrackList &list, int repetitions)
{
    ExpandedTracks out;
    const auto namesAt = [&list](int line) { return line < int(list.names.size()) ? list.names[line] : QStringList(); };
    if (list.autoRepeat == GridTrackList::AutoRepeat::None || list.repeatSizes.empty()) {
        out.sizes = list.sizes;
        out.names = list.names;
        out.names.resize(out.sizes.size() + 1);
        return out;
    }
    repetitions = std::max(1, repetitions);
    const int r = int(list.repeatSizes.size());
    for (int i = 0; i < list.repeatAt; ++i) {
        out.names.push_back(namesAt(i));
        out.sizes.push_back(list.sizes[i]);
    }
    QStringList junction = namesAt(list.repeatAt);
    for (int rep = 0; rep < repetitions; ++rep) {
        for (int i = 0; i < r; ++i) {
            QStringList names = i == 0 ? junction + list.repeatNames[0] : list.repeatNames[i];
            out.names.push_back(names);
            out.sizes.push_back(list.repeatSizes[i]);
        }
        junction = list.repeatNames[r];
    }
    out.names.push_back(junction + list.afterRepeatNames);
    for (int i = list.repeatAt; i < int(list.sizes.size()); ++i) {
        out.sizes.push_back(list.sizes[i]);
        out.names.push_back(namesAt(i + 1));
    }
    return out;
}

namespace css {

static std::optional<GridTrackList> gridTrackListWithReason(const QString &text, float fontSize, float rootFontSize,
                                                            QString *reason)
{
    GridTrackList list;
    if (text.trimmed().compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return list;
    QStringList pending;
    bool afterRepeat = false; // the next line's names belong to afterRepeatNames
    // The line names of tracks just appended go to the list, the first after an
    // auto-repeat to afterRepeatNames.
    const auto takeNames = [&](std::vector<QStringList> &names) {
        for (QStringList &lineNames : names) {
            if (afterRepeat) {
                list.afterRepeatNames = lineNames;
                afterRepeat = false;
            } else {
                list.names.push_back(lineNames);
            }
        }
    };
    for (const QString &token : trackTokens(text)) {
        const auto call = css::function(token);
        if (call && call->name == QLatin1String("repeat")) {
            const QString &args = call->args;
            const qsizetype comma = args.indexOf(QLatin1Char(','));
            if (comma < 0) {
                *reason = QStringLiteral("invalid repeat() \"%1\"").arg(token);
                return std::nullopt;
            }
            const QString count = args.left(comma).trimmed().toLower();
            const QStringList inner = trackTokens(QStringView(args).mid(comma + 1));
            if (count == QLatin1String("auto-fill") || count == QLatin1String("auto-fit")) {
                if (list.autoRepeat != GridTrackList::AutoRepeat::None) {
                    *reason = QStringLiteral("only one repeat(auto-fill | auto-fit) is allowed");
                    return std::nullopt;
                }
                list.autoRepeat = count == QLatin1String("auto-fill") ? GridTrackList::AutoRepeat::Fill
                                                                      : GridTrackList::AutoRepeat::Fit;
                if (afterRepeat)
                    return std::nullopt;
                list.repeatAt = int(list.sizes.size());
                list.names.push_back(pending);
                pending.clear();
                QStringList innerPending;
                if (!appendTracks(inner, fontSize, rootFontSize, list.repeatSizes, list.repeatNames, innerPending,
                                  reason))
                    return std::nullopt;
                list.repeatNames.push_back(innerPending);
                if (list.repeatSizes.empty()) {
                    *reason = QStringLiteral("repeat() needs a track");
                    return std::nullopt;
                }
                afterRepeat = true;
                continue;
            }
            bool ok = false;
            const int n = count.toInt(&ok);
            if (!ok || n < 1) {
                *reason = QStringLiteral("invalid repeat() count \"%1\"").arg(count);
                return std::nullopt;
            }
            for (int i = 0; i < std::min(n, kMaxTracks); ++i) {
                const std::size_t before = list.sizes.size();
                std::vector<QStringList> names;
                if (!appendTracks(inner, fontSize, rootFontSize, list.sizes, names, pending, reason))
                    return std::nullopt;
                if (list.sizes.size() == before) {
                    *reason = QStringLiteral("repeat() needs a track");
                    return std::nullopt;
                }
                takeNames(names);
            }
            continue;
        }
        std::vector<QStringList> names;
        if (!appendTracks({token}, fontSize, rootFontSize, list.sizes, names, pending, reason))
            return std::nullopt;
        takeNames(names);
    }
    if (afterRepeat)
        list.afterRepeatNames = pending;
    else
        list.names.push_back(pending);
    if (list.isNone()) {
        *reason = QStringLiteral("no tracks in \"%1\"").arg(text);
        return std::nullopt;
    }
    // <auto-track-list> (§7.2): beside an auto-repeat every track has a fixed size.
    if (list.autoRepeat != GridTrackList::AutoRepeat::None) {
        const auto fixed = [](const std::vector<TrackSize> &v) { return std::all_of(v.begin(), v.end(), isFixedSize); };
        if (!fixed(list.sizes) || !fixed(list.repeatSizes)) {
            *reason = QStringLiteral("repeat(auto-fill | auto-fit) needs fixed track sizes");
            return std::nullopt;
        }
    }
    return list;
}

Parsed<GridTrackList> gridTrackList(const QString &text, float fontSize, float rootFontSize)
{
    QString reason;
    auto value = gridTrackListWithReason(text, fontSize, rootFontSize, &reason);
    return parsed(std::move(value), reason);
}

static std::optional<std::vector<TrackSize>> gridTrackSizesWithReason(const QString &text, float fontSize,
                                                                      float rootFontSize, QString *reason)
{
    std::vector<TrackSize> sizes;
    for (const QString &token : trackTokens(text)) {
        auto size = trackSize(token, fontSize, rootFontSize);
        if (!size) {
            *reason = QStringLiteral("invalid track size \"%1\"").arg(token);
            return std::nullopt;
        }
        sizes.push_back(*size);
    }
    if (sizes.empty() || int(sizes.size()) > kMaxTracks) {
        *reason = QStringLiteral("invalid track sizes \"%1\"").arg(text);
        return std::nullopt;
    }
    return sizes;
}

Parsed<std::vector<TrackSize>> gridTrackSizes(const QString &text, float fontSize, float rootFontSize)
{
    QString reason;
    auto value = gridTrackSizesWithReason(text, fontSize, rootFontSize, &reason);
    return parsed(std::move(value), reason);
}

static std::optional<GridTemplateAreas> gridTemplateAreasWithReason(const QString &text, QString *reason)
{
    GridTemplateAreas result;
    if (text.trimmed().compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return result;
    // The quoted rows (either quote character), as the property writes them.
    QStringList rows;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c.isSpace())
            continue;
        if (c != QLatin1Char('"') && c != QLatin1Char('\'')) {
            *reason = QStringLiteral("expected quoted rows in \"%1\"").arg(text);
            return std::nullopt;
        }
        const qsizetype end = text.indexOf(c, i + 1);
        if (end < 0) {
            *reason = QStringLiteral("unterminated string in \"%1\"").arg(text);
            return std::nullopt;
        }
        rows << text.mid(i + 1, end - i - 1);
        i = end;
    }
    if (rows.isEmpty() || rows.size() > kMaxTracks) {
        *reason = QStringLiteral("invalid template areas \"%1\"").arg(text);
        return std::nullopt;
    }
    QHash<QString, int> index; // name → position in result.areas
    std::vector<int> cellCount;
    for (int r = 0; r < rows.size(); ++r) {
        const QStringList cells = css::split(rows[r], QLatin1Char(' '));
        if (r == 0)
            result.columns = int(cells.size());
        if (cells.isEmpty() || int(cells.size()) != result.columns || result.columns > kMaxTracks) {
            *reason = QStringLiteral("every row of grid-template-areas needs the same number of cells");
            return std::nullopt;
        }
        for (int c = 0; c < cells.size(); ++c) {
            const QString &cell = cells[c];
            if (std::all_of(cell.begin(), cell.end(), [](QChar ch) { return ch == QLatin1Char('.'); }))
                continue; // a null cell token
            if (!isIdent(cell)) {
                *reason = QStringLiteral("invalid area name \"%1\"").arg(cell);
                return std::nullopt;
            }
            auto it = index.find(cell);
            if (it == index.end()) {
                it = index.insert(cell, int(result.areas.size()));
                result.areas.push_back({cell, c, c + 1, r, r + 1});
                cellCount.push_back(0);
            }
            GridNamedArea &a = result.areas[*it];
            a.columnStart = std::min(a.columnStart, c);
            a.columnEnd = std::max(a.columnEnd, c + 1);
            a.rowStart = std::min(a.rowStart, r);
            a.rowEnd = std::max(a.rowEnd, r + 1);
            ++cellCount[*it];
        }
    }
    result.rows = int(rows.size());
    for (std::size_t i = 0; i < result.areas.size(); ++i) {
        const GridNamedArea &a = result.areas[i];
        if ((a.columnEnd - a.columnStart) * (a.rowEnd - a.rowStart) != cellCount[i]) {
            *reason = QStringLiteral("area \"%1\" is not a rectangle").arg(a.name);
            return std::nullopt;
        }
    }
    return result;
}

Parsed<GridTemplateAreas> gridTemplateAreas(const QString &text)
{
    QString reason;
    auto value = gridTemplateAreasWithReason(text, &reason);
    return parsed(std::move(value), reason);
}

std::optional<GridLine> gridLine(const QString &text)
{
    GridLine line;
    const QStringList tokens = css::split(text, QLatin1Char(' '));
    if (tokens.isEmpty() || tokens.size() > 3)
        return std::nullopt;
    if (tokens.size() == 1 && tokens[0].compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0)
        return line;
    bool span = false, haveNumber = false;
    for (const QString &t : tokens) {
        bool ok = false;
        const int n = t.toInt(&ok);
        if (ok) {
            if (haveNumber)
                return std::nullopt;
            haveNumber = true;
            // Chromium clamps line numbers to ±10000; layout clamps further (kMaxGridLines).
            line.number = std::clamp(n, -10000, 10000);
        } else if (t.compare(QLatin1String("span"), Qt::CaseInsensitive) == 0) {
            if (span)
                return std::nullopt;
            span = true;
        } else if (isIdent(t) && t.compare(QLatin1String("auto"), Qt::CaseInsensitive) != 0 && line.name.isEmpty()) {
            line.name = t;
        } else {
            return std::nullopt;
        }
    }
    // `span` must come first or last, never between the integer and the name.
    if (span && tokens.size() == 3 && tokens[1].compare(QLatin1String("span"), Qt::CaseInsensitive) == 0)
        return std::nullopt;
    if (span) {
        if (haveNumber && line.number < 1)
            return std::nullopt;
        if (!haveNumber)
            line.number = 1;
        line.type = GridLine::Type::Span;
        return line;
    }
    if (haveNumber && line.number == 0)
        return std::nullopt;
    if (!haveNumber && line.name.isEmpty())
        return std::nullopt;
    line.type = GridLine::Type::Line;
    return line;
}

} // namespace css

} // namespace imprint::render
