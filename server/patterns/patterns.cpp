#include "server/patterns/patterns.h"

#include <QBrush>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QMutexLocker>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgRenderer>

namespace imprint::render {

namespace {

// Upper bound of one side of a render: keeps a typo from asking for gigabytes; the plan
// limits of docs/api.md (at most 4096) are checked by the caller before this.
constexpr int kMaxSide = 16384;
// Tiles are small (a few KB to ~200 KB each); the bound only matters for huge catalogs.
constexpr qsizetype kTileCacheBytes = 32 * 1024 * 1024;
// A tile bigger than this is a catalog mistake, not a pattern.
constexpr int kMaxTileSide = 1024;

const QRegularExpression &keyPattern()
{
    static const QRegularExpression re(QStringLiteral("^[a-z0-9]+$"));
    return re;
}

const QRegularExpression &placeholderPattern()
{
    static const QRegularExpression re(QStringLiteral("\\{\\{([a-z]+)\\}\\}"));
    return re;
}

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

QString cacheKey(const PatternPath &path)
{
    return path.patternKey + QLatin1Char('-') + path.variantKey;
}

} // namespace

struct PatternCatalog::Data {
    QList<PatternInfo> patterns;
    QHash<QString, qsizetype> index; // pattern key -> position in patterns
    QHash<QString, QString> tileSource; // pattern key -> SVG text with placeholders
};

struct PatternCatalog::Cache {
    QMutex mutex;
    QHash<QString, QImage> tiles;
    qsizetype bytes = 0;
};

common::Expected<PatternPath, QString> parsePatternPath(const QString &s)
{
    static const QRegularExpression re(QStringLiteral("^([a-z0-9]+)-([a-z0-9]+)$"));
    const auto m = re.match(s);
    if (!m.hasMatch())
        return s.isEmpty() ? QStringLiteral("pattern is empty; expected {patternKey}-{variantKey}")
                           : QStringLiteral("pattern \"%1\" is not of the form {patternKey}-{variantKey} "
                                            "with keys made of a-z and 0-9")
                                 .arg(s.left(100));
    return PatternPath{m.captured(1), m.captured(2)};
}

namespace {

// Reads one variant: an object of colours (`bg` required), optionally based on a palette
// named by "palette" whose colours it overrides.
bool parseVariant(const QString &key, const QJsonObject &obj, const QHash<QString, PatternVariant> &palettes,
                  PatternVariant *out, QString *error)
{
    PatternVariant v;
    const QString base = obj.value(QStringLiteral("palette")).toString();
    if (!base.isEmpty()) {
        const auto it = palettes.constFind(base);
        if (it == palettes.cend())
            return fail(error, QStringLiteral("variant \"%1\" names unknown palette \"%2\"").arg(key, base));
        v = *it;
    }
    v.key = key;
    if (!keyPattern().match(key).hasMatch())
        return fail(error, QStringLiteral("variant key \"%1\" is not [a-z0-9]+").arg(key));
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (it.key() == QLatin1String("palette"))
            continue;
        if (it.key() == QLatin1String("name")) {
            v.name = it.value().toString();
            continue;
        }
        const QColor c = QColor::fromString(it.value().toString());
        if (!c.isValid() || c.alpha() != 255)
            return fail(error, QStringLiteral("variant \"%1\": colour %2 \"%3\" is not an "
                                              "opaque colour")
                                   .arg(key, it.key(), it.value().toString()));
        v.colors.insert(it.key(), c);
    }
    if (v.name.isEmpty())
        v.name = key.left(1).toUpper() + key.mid(1);
    if (!v.colors.contains(QStringLiteral("bg")))
        return fail(error, QStringLiteral("variant \"%1\" has no bg colour").arg(key));
    *out = v;
    return true;
}

QByteArray substitute(const QString &source, const PatternVariant &variant)
{
    QString svg = source;
    for (auto it = variant.colors.cbegin(); it != variant.colors.cend(); ++it)
        svg.replace(QStringLiteral("{{%1}}").arg(it.key()), it.value().name(QColor::HexRgb));
    return svg.toUtf8();
}

} // namespace

namespace {

/// The catalogue's shared palettes (`palettes`, listed in `paletteOrder` first): into
/// `palettes` by key and `order`; false with `*error` when one is invalid.
bool parsePalettes(const QJsonObject &root, QHash<QString, PatternVariant> &palettes, QList<PatternVariant> &order,
                   QString *error)
{
    const QJsonObject palettesObj = root.value(QStringLiteral("palettes")).toObject();
    const QJsonArray paletteKeys = root.value(QStringLiteral("paletteOrder")).toArray();
    QStringList keys;
    for (const auto &k : paletteKeys)
        keys << k.toString();
    for (const QString &k : palettesObj.keys())
        if (!keys.contains(k))
            keys << k;
    for (const QString &k : std::as_const(keys)) {
        PatternVariant v;
        if (!palettesObj.contains(k)) {
            fail(error, QStringLiteral("catalog.json: paletteOrder names unknown palette \"%1\"").arg(k));
            return false;
        }
        if (!parseVariant(k, palettesObj.value(k).toObject(), palettes, &v, error))
            return false;
        palettes.insert(k, v);
        order << v;
    }
    return true;
}

/// The variants of pattern `p` (`where` names it in errors) into `info`: its own list of
/// palette keys or colour objects, else every palette; each unique and with every colour
/// the tile names. False with `*error` otherwise.
bool parsePatternVariants(const QJsonObject &p, const QString &where, const QHash<QString, PatternVariant> &palettes,
                          const QList<PatternVariant> &paletteOrder, PatternInfo &info, QString *error)
{
    const QJsonValue variants = p.value(QStringLiteral("variants"));
    if (variants.isUndefined()) {
        info.variants = paletteOrder;
    } else if (variants.isArray()) {
        // Array items: a palette key, or an object {key, palette?, name?, colours...}.
        for (const auto &item : variants.toArray()) {
            PatternVariant v;
            if (item.isString()) {
                if (!palettes.contains(item.toString())) {
                    fail(error, where + QStringLiteral(": unknown palette \"%1\"").arg(item.toString()));
                    return false;
                }
                v = palettes.value(item.toString());
            } else {
                QJsonObject obj = item.toObject();
                const QString key = obj.take(QStringLiteral("key")).toString();
                if (!parseVariant(key, obj, palettes, &v, error))
                    return false;
            }
            info.variants << v;
        }
    } else {
        fail(error, where + QStringLiteral(": \"variants\" must be an array"));
        return false;
    }
    if (info.variants.isEmpty()) {
        fail(error, where + QStringLiteral(" has no variants"));
        return false;
    }
    QStringList seen;
    for (const PatternVariant &v : std::as_const(info.variants)) {
        if (seen.contains(v.key)) {
            fail(error, where + QStringLiteral(": variant \"%1\" twice").arg(v.key));
            return false;
        }
        seen << v.key;
        for (const QString &name : std::as_const(info.placeholders)) {
            if (!v.colors.contains(name)) {
                fail(error, where + QStringLiteral(": variant \"%1\" lacks colour \"%2\"").arg(v.key, name));
                return false;
            }
        }
    }
    return true;
}

} // namespace

common::Expected<PatternCatalog, QString> PatternCatalog::fromJson(const QByteArray &json, const QString &baseDir)
{
    QString why;
    QString *error = &why;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject()) {
        fail(error,
             QStringLiteral("catalog.json: %1 at offset %2").arg(parseError.errorString()).arg(parseError.offset));
        return why;
    }
    const QJsonObject root = doc.object();

    QSize defaultSize = kDefaultPatternSize;
    const QJsonObject sizeObj = root.value(QStringLiteral("defaultSize")).toObject();
    if (!sizeObj.isEmpty())
        defaultSize
            = QSize(sizeObj.value(QStringLiteral("width")).toInt(), sizeObj.value(QStringLiteral("height")).toInt());
    if (defaultSize.width() < 1 || defaultSize.height() < 1) {
        fail(error, QStringLiteral("catalog.json: defaultSize must be positive"));
        return why;
    }

    // Palettes are shared colour sets; a pattern that lists no variants gets them all.
    QHash<QString, PatternVariant> palettes;
    QList<PatternVariant> paletteOrder;
    if (!parsePalettes(root, palettes, paletteOrder, error))
        return why;

    auto data = std::make_shared<Data>();
    const QJsonArray patterns = root.value(QStringLiteral("patterns")).toArray();
    if (patterns.isEmpty()) {
        fail(error, QStringLiteral("catalog.json: no patterns"));
        return why;
    }
    for (const auto &value : patterns) {
        const QJsonObject p = value.toObject();
        PatternInfo info;
        info.key = p.value(QStringLiteral("key")).toString();
        const QString where = QStringLiteral("pattern \"%1\"").arg(info.key);
        if (!keyPattern().match(info.key).hasMatch()) {
            fail(error, QStringLiteral("pattern key \"%1\" is not [a-z0-9]+").arg(info.key));
            return why;
        }
        if (data->index.contains(info.key)) {
            fail(error, where + QStringLiteral(" is defined twice"));
            return why;
        }
        info.name = p.value(QStringLiteral("name")).toString(info.key);
        info.tileSize = QSize(p.value(QStringLiteral("width")).toInt(), p.value(QStringLiteral("height")).toInt());
        info.defaultSize = defaultSize;
        if (info.tileSize.width() < 1 || info.tileSize.height() < 1 || info.tileSize.width() > kMaxTileSide
            || info.tileSize.height() > kMaxTileSide) {
            fail(error, where + QStringLiteral(": width and height must be 1..%1 px").arg(kMaxTileSide));
            return why;
        }

        QString source = p.value(QStringLiteral("svg")).toString();
        if (source.isEmpty()) {
            const QString tile = p.value(QStringLiteral("tile")).toString();
            if (tile.isEmpty()) {
                fail(error, where + QStringLiteral(" has neither \"tile\" nor \"svg\""));
                return why;
            }
            QFile f(QDir(baseDir).filePath(tile));
            if (!f.open(QIODevice::ReadOnly)) {
                fail(error, where + QStringLiteral(": cannot read %1: %2").arg(f.fileName(), f.errorString()));
                return why;
            }
            source = QString::fromUtf8(f.readAll());
        }
        auto matches = placeholderPattern().globalMatch(source);
        while (matches.hasNext()) {
            const QString name = matches.next().captured(1);
            if (!info.placeholders.contains(name))
                info.placeholders << name;
        }

        if (!parsePatternVariants(p, where, palettes, paletteOrder, info, error))
            return why;
        // Validate the SVG once here so a broken tile fails at start, not on a request.
        QSvgRenderer check(substitute(source, info.variants.first()));
        if (!check.isValid()) {
            fail(error, where + QStringLiteral(": tile is not valid SVG"));
            return why;
        }

        data->index.insert(info.key, data->patterns.size());
        data->tileSource.insert(info.key, source);
        data->patterns << info;
    }

    PatternCatalog catalog;
    catalog.m_data = std::move(data);
    catalog.m_cache = std::make_shared<Cache>();
    return catalog;
}

common::Expected<PatternCatalog, QString> PatternCatalog::load(const QString &dir)
{
    QFile f(QDir(dir).filePath(QStringLiteral("catalog.json")));
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read %1: %2").arg(f.fileName(), f.errorString());
    return fromJson(f.readAll(), dir);
}

common::Expected<PatternCatalog, QString> PatternCatalog::loadDefault()
{
    return load(QStringLiteral(":/resources/patterns"));
}

QList<PatternInfo> PatternCatalog::patterns() const
{
    return m_data ? m_data->patterns : QList<PatternInfo>{};
}

qsizetype PatternCatalog::size() const
{
    return m_data ? m_data->patterns.size() : 0;
}

const PatternInfo *PatternCatalog::pattern(const QString &patternKey) const
{
    if (!m_data)
        return nullptr;
    const auto it = m_data->index.constFind(patternKey);
    return it == m_data->index.cend() ? nullptr : &m_data->patterns.at(*it);
}

std::optional<PatternVariant> PatternCatalog::find(const QString &patternKey, const QString &variantKey) const
{
    const PatternInfo *info = pattern(patternKey);
    if (!info)
        return std::nullopt;
    for (const PatternVariant &v : info->variants)
        if (v.key == variantKey)
            return v;
    return std::nullopt;
}

PatternLookup PatternCatalog::lookup(const PatternPath &path) const
{
    if (!pattern(path.patternKey))
        return PatternLookup::UnknownPattern;
    return find(path.patternKey, path.variantKey) ? PatternLookup::Found : PatternLookup::UnknownVariant;
}

QByteArray PatternCatalog::tileSvg(const PatternPath &path) const
{
    const auto variant = find(path.patternKey, path.variantKey);
    if (!variant)
        return {};
    return substitute(m_data->tileSource.value(path.patternKey), *variant);
}

QImage PatternCatalog::tileImage(const PatternPath &path) const
{
    const QString key = cacheKey(path);
    {
        QMutexLocker lock(&m_cache->mutex);
        const auto it = m_cache->tiles.constFind(key);
        if (it != m_cache->tiles.cend())
            return *it;
    }
    const QByteArray svg = tileSvg(path);
    if (svg.isEmpty())
        return {};
    const PatternInfo *info = pattern(path.patternKey);
    const QSize ts = info->tileSize;
    const auto variant = find(path.patternKey, path.variantKey);

    // Rasterised outside the lock: two threads may race on a cold tile, which only costs
    // a duplicate small render.
    QImage tile(ts, QImage::Format_RGB32);
    tile.fill(variant->colors.value(QStringLiteral("bg")));
    {
        QSvgRenderer renderer(svg);
        // The view box maps user units 1:1 to px whatever width/height the file declares.
        renderer.setViewBox(QRectF(QPointF(0, 0), QSizeF(ts)));
        renderer.setAspectRatioMode(Qt::IgnoreAspectRatio);
        QPainter painter(&tile);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        // Drawing the tile at its eight neighbours' offsets too brings what overflows one
        // edge back in at the opposite edge, so a shape drawn once across an edge tiles
        // without a seam (the tile is a torus).
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                renderer.render(&painter, QRectF(QPointF(dx * ts.width(), dy * ts.height()), QSizeF(ts)));
    }

    QMutexLocker lock(&m_cache->mutex);
    const qsizetype bytes = tile.sizeInBytes();
    if (m_cache->bytes + bytes > kTileCacheBytes) {
        // Only a catalog far larger than ours overflows; dropping all keeps the code simple
        // and the bound strict.
        m_cache->tiles.clear();
        m_cache->bytes = 0;
    }
    if (!m_cache->tiles.contains(key)) {
        m_cache->tiles.insert(key, tile);
        m_cache->bytes += bytes;
    }
    return tile;
}

QImage renderPattern(const PatternCatalog &catalog, const PatternPath &path, QSize size)
{
    if (size.width() < 1 || size.height() < 1 || size.width() > kMaxSide || size.height() > kMaxSide)
        return {};
    const QImage tile = catalog.tileImage(path);
    if (tile.isNull())
        return {};
    QImage out(size, QImage::Format_RGB32);
    if (out.isNull())
        return {};
    QPainter painter(&out);
    // The raster engine fills an untransformed texture brush with a tiled blit (no
    // per-pixel transform), which is what keeps a 4000×4000 render cheap.
    painter.setCompositionMode(QPainter::CompositionMode_Source);
    painter.fillRect(out.rect(), QBrush(tile));
    return out;
}

} // namespace imprint::render
