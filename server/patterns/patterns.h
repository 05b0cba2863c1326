#pragma once
// Background patterns (docs/templates.md, docs/api.md): a catalog of SVG tiles
// with colour variants, defined as data in resources/patterns/catalog.json, and a
// renderer that rasterises each tile once and fills any output size by tiling it.

#include "server/common/expected.h"

#include <QColor>
#include <QImage>
#include <QList>
#include <QMap>
#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace imprint::render {

/// Default output size of a pattern render in px when the request names none (docs/templates.md).
inline constexpr QSize kDefaultPatternSize{1000, 525};

/// One colour variant of a pattern: its key (`[a-z0-9]+`) and the colours that replace
/// the tile's placeholders, keyed by placeholder name without braces ("bg", "fg", "accent").
struct PatternVariant {
    QString key;
    QString name; ///< human-readable name, e.g. "Sunset"
    QMap<QString, QColor> colors; ///< opaque colours; "bg" is always present
};

/// One pattern of the catalog as listed by `GET /api/v1/patterns`.
struct PatternInfo {
    QString key; ///< `[a-z0-9]+`
    QString name; ///< human-readable name, e.g. "Diagonal lines"
    QSize tileSize; ///< size of one tile in px (the SVG's user units)
    QStringList placeholders; ///< colour placeholders the tile uses ("bg", "fg", ...)
    QList<PatternVariant> variants; ///< in catalog order
    QSize defaultSize = kDefaultPatternSize;
};

/// A parsed `pattern` request field: `{patternKey}-{variantKey}` (docs/api.md).
struct PatternPath {
    QString patternKey;
    QString variantKey;
};

/// Outcome of looking a PatternPath up in a catalog; HTTP maps the two misses to 404.
enum class PatternLookup { Found, UnknownPattern, UnknownVariant };

/// Parses a pattern path `{patternKey}-{variantKey}` where both keys match `[a-z0-9]+`
/// (docs/api.md, docs/templates.md). The error (a sentence) for anything else: empty
/// string, missing or extra hyphen, upper case, underscores (HTTP maps this to 400). Says
/// nothing about whether the keys exist.
common::Expected<PatternPath, QString> parsePatternPath(const QString &s);

/// The pattern catalog. Cheap to copy (shared, immutable data); every const function,
/// renderPattern() included, may be called from several threads at once.
class PatternCatalog
{
public:
    /// Loads `catalog.json` from directory `dir` (a file path or a Qt resource path such as
    /// `:/resources/patterns`); tiles named by `"tile": "NAME.svg"` are read from the same
    /// directory. The error (a message) when a file is missing, the JSON is malformed, a
    /// key is not `[a-z0-9]+`, a colour does not parse, a tile is not valid SVG or uses a
    /// placeholder the variant does not define.
    static common::Expected<PatternCatalog, QString> load(const QString &dir);

    /// Parses a catalog from the bytes of catalog.json; relative tile file names resolve
    /// against `baseDir` (tiles given inline as `"svg": "<svg ...>"` need none).
    /// Errors as load().
    static common::Expected<PatternCatalog, QString> fromJson(const QByteArray &json, const QString &baseDir);

    /// Loads the catalog compiled into the binary (`:/resources/patterns/catalog.json`,
    /// present when imprint_app's resources are linked); the error otherwise.
    static common::Expected<PatternCatalog, QString> loadDefault();

    /// Every pattern, in catalog order.
    QList<PatternInfo> patterns() const;

    /// The pattern with key `patternKey`, or nullptr. Valid while this catalog (or a copy)
    /// lives.
    const PatternInfo *pattern(const QString &patternKey) const;

    /// The variant `variantKey` of pattern `patternKey`, or std::nullopt when either is unknown.
    std::optional<PatternVariant> find(const QString &patternKey, const QString &variantKey) const;

    /// Whether `path` names an existing pattern and variant, and which part is unknown if not
    /// (UnknownPattern wins when both are).
    PatternLookup lookup(const PatternPath &path) const;

    /// The tile's SVG source with the variant's colours substituted for its `{{name}}`
    /// placeholders, or an empty array when the path is unknown. Shapes in a tile may
    /// overflow its view box: the renderer wraps the overflow to the opposite edge.
    QByteArray tileSvg(const PatternPath &path) const;

    /// The tile of `path` rasterised at its tile size (px), wrapped toroidally so it tiles
    /// without seams, in QImage::Format_RGB32; a null image when the path is unknown.
    /// Rasterised once per pattern-variant and kept in a bounded, thread-safe cache.
    QImage tileImage(const PatternPath &path) const;

    /// Number of patterns.
    qsizetype size() const;

private:
    struct Data;
    std::shared_ptr<const Data> m_data;
    struct Cache;
    std::shared_ptr<Cache> m_cache;
};

/// Renders pattern `path` filling `size` (px; each side 1..16384) by tiling its cached tile
/// from the top-left corner, so the cost is one fill of the output plus, on the first use of
/// the pattern-variant, one small SVG rasterisation (docs/templates.md, docs/api.md).
/// Returns a QImage::Format_RGB32 image, or a null QImage when the path is unknown in the
/// catalog or the size is out of range (callers check lookup() and limits first to answer
/// 404/400/402).
QImage renderPattern(const PatternCatalog &catalog, const PatternPath &path, QSize size = kDefaultPatternSize);

} // namespace imprint::render
