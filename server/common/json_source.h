#pragma once
// Places in JSON source text: turns QJsonParseError's byte offset into the line and
// column an editor shows, and finds where a field path (`root.props.style.width`,
// `variables[0].name`) sits in the text, so a problem can point at its line
// (docs/api.md, "Responses and errors": `line` and `column`).

#include <QByteArray>
#include <QString>

#include <optional>

namespace imprint::common {

/// A 1-based line and column in source text; the column counts characters (UTF-16 code
/// units, as QTextCursor does), so an editor can put its cursor there.
struct SourcePosition {
    int line = 0;
    int column = 0;
};

/// The line and column of UTF-8 byte `offset` in `utf8` (clamped to the text's ends):
/// for QJsonParseError::offset and locateJsonPath(). Lines end at '\n'.
SourcePosition sourcePosition(const QByteArray &utf8, qsizetype offset);

/// The byte offset in `utf8` of the member or element that `path` names: the opening
/// quote of the member's key (`style.width` points at `"width"`), the first character of
/// an array element (`children[2]`), 0 for an empty path. Path segments are member names
/// separated by '.', and `[N]` for array indices, as RenderError::field writes them.
///
/// Qt's JSON parser keeps no positions, so this walks the text itself: only after
/// QJsonDocument has accepted it (std::nullopt otherwise), tracking nothing but string
/// boundaries and nesting, and decoding each member name with QJsonDocument so escapes
/// compare as the parser read them. std::nullopt when the path is not in the text.
std::optional<qsizetype> locateJsonPath(const QByteArray &utf8, const QString &path);

} // namespace imprint::common
