#include "server/service/upload_service.h"

#include "server/render/resources/font_file.h"
#include "server/render/resources/font_instance.h"
#include "server/render/resources/image_decoder.h"
#include "server/render/resources/svg_sanitizer.h"
#include "server/service/json.h"
#include "server/service/lookup.h"
#include "server/store/crypto.h"
#include "server/store/repositories.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QFile>
#include <QRegularExpression>

namespace imprint::service {

namespace {

QString sha256Of(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

std::optional<QByteArray> readStored(const store::FileStore &files, const QString &sha256, const QString &ext)
{
    return files.read(sha256, ext);
}

/// Page `page` of `perPage` of a space's uploads of `Repo` (FontRepository,
/// AssetRepository: count() and list() of a space), newest first (paging.h: pageOf()).
template<typename Record, typename Repo>
Result<ListPage<Record>> uploadsPage(const store::Database &db, const QString &spaceId, int page, int perPage)
{
    Repo uploads(db);
    return pageOf<Record>(
        page, perPage, StandardPaging::kMaxPage, StandardPaging::kMaxPerPage, [&] { return uploads.count(spaceId); },
        [&](int offset, int limit) { return uploads.list(spaceId, offset, limit); });
}

/// Deletes upload `id` of `spaceId` from `Repo`; NotFound `code` naming the upload as a
/// `noun` ("font", "asset") when the space has none.
template<typename Repo>
Result<Done> removeUpload(const store::Database &db, const QString &spaceId, const QString &id, ProblemCode code,
                          const char *noun)
{
    return matched(Repo(db).remove(spaceId, id), [&] {
        return ServiceError::notFound(
            code, QStringLiteral("This space has no %1 '%2'.").arg(QLatin1String(noun), id.left(100)));
    });
}

/// The upload of the same bytes (SHA-256 `sha`) already in `spaceId`, reused instead of
/// stored again (created false): nullopt when there is none, or the lookup's error.
template<typename Record, typename Repo>
std::optional<Result<Uploaded<Record>>> reusedUpload(Repo &uploads, const QString &spaceId, const QString &sha)
{
    auto existing = uploads.findBySha(spaceId, sha);
    if (!existing)
        return Result<Uploaded<Record>>(existing.error());
    if (*existing)
        return Result<Uploaded<Record>>(Uploaded<Record>{**existing, false});
    return std::nullopt;
}

/// The sfnt of a font file renamed to its internal family and registered with Qt.
bool registerFace(const QString &sha256, const QByteArray &bytes, QString *why)
{
    if (render::isFontFaceRegistered(sha256))
        return true;
    const auto sfnt = render::decodeFontToSfnt(bytes);
    const auto renamed = sfnt ? render::renameSfntFamily(*sfnt, render::internalFamilyFor(sha256)) : sfnt;
    const auto registered = renamed ? render::registerFontFace(sha256, *renamed) : renamed.error();
    if (!registered && why)
        *why = registered.error();
    return registered.has_value();
}

const QStringList kGenericFamilies = {
    QStringLiteral("serif"),      QStringLiteral("sans-serif"),    QStringLiteral("monospace"),
    QStringLiteral("cursive"),    QStringLiteral("fantasy"),       QStringLiteral("system-ui"),
    QStringLiteral("ui-serif"),   QStringLiteral("ui-sans-serif"), QStringLiteral("ui-monospace"),
    QStringLiteral("ui-rounded"), QStringLiteral("emoji"),         QStringLiteral("math"),
};

} // namespace

// ------------------------------------------------------------------ FontService

FontService::FontService(const store::Database &db, store::FileStore files)
    : m_db(db)
    , m_files(std::move(files))
{ }

Result<Uploaded<store::FontRecord>> FontService::upload(const QString &spaceId, const FontUpload &upload)
{
    static const QStringList types
        = {QStringLiteral("font/ttf"), QStringLiteral("font/otf"), QStringLiteral("font/woff"),
           QStringLiteral("font/woff2"), QStringLiteral("application/octet-stream")};
    const QString type = upload.contentType.section(u';', 0, 0).trimmed().toLower();
    if (!types.contains(type))
        return ServiceError::invalid(ProblemCode::UnsupportedMediaType, QStringLiteral("Content-Type"),
                                     QStringLiteral("A font upload is sent as font/ttf, font/otf, font/woff or "
                                                    "font/woff2, not '%1'.")
                                         .arg(type.left(100)));
    if (upload.bytes.isEmpty())
        return ServiceError::invalid(ProblemCode::MissingBody, QStringLiteral("body"),
                                     QStringLiteral("The request body must be the font file."));
    const QString family = upload.family.trimmed();
    if (!upload.family.isNull()
        && (family.isEmpty() || family.size() > 100 || family.contains(u',') || family.contains(u'"')
            || family.contains(u'\'') || kGenericFamilies.contains(family.toLower())
            || render::isInternalFamily(family)))
        return ServiceError::invalid(ProblemCode::InvalidParameter, QStringLiteral("family"),
                                     QStringLiteral("'family' must be 1 to 100 characters without commas or quotes, "
                                                    "and not a generic family such as sans-serif."));
    if (upload.weight && (*upload.weight < 1 || *upload.weight > 1000))
        return ServiceError::invalid(ProblemCode::InvalidParameter, QStringLiteral("weight"),
                                     QStringLiteral("'weight' must be an integer from 1 to 1000."));
    const QString style = upload.style.trimmed().toLower();
    if (!upload.style.isNull() && style != QLatin1String("normal") && style != QLatin1String("italic")
        && style != QLatin1String("oblique"))
        return ServiceError::invalid(ProblemCode::InvalidParameter, QStringLiteral("style"),
                                     QStringLiteral("'style' must be normal, italic or oblique."));

    const QString sha = sha256Of(upload.bytes);
    store::FontRepository fonts(m_db);
    if (auto reused = reusedUpload<store::FontRecord>(fonts, spaceId, sha))
        return *reused;

    // Validate as the renderer will load it: unwrap, read the names, rename, register.
    QString why;
    const render::FontFormat format = render::sniffFontFormat(upload.bytes);
    const auto sfnt = render::decodeFontToSfnt(upload.bytes);
    const auto info = sfnt ? render::inspectFont(*sfnt) : sfnt.error();
    if (!info)
        why = info.error();
    if (!info || !registerFace(sha, upload.bytes, &why))
        return ServiceError::invalid(ProblemCode::InvalidFont, QStringLiteral("body"),
                                     QStringLiteral("The font does not load: %1.").arg(why));

    store::FontRecord record;
    record.id = store::randomId(QStringLiteral("fnt_"));
    record.spaceId = spaceId;
    record.family = upload.family.isNull() ? info->family : family;
    record.weight = upload.weight.value_or(info->weight);
    record.style = upload.style.isNull() ? (info->italic ? QStringLiteral("italic") : QStringLiteral("normal"))
                                         : (style == QLatin1String("normal") ? style : QStringLiteral("italic"));
    record.format = render::fontFormatName(format);
    record.sha256 = sha;
    record.bytes = upload.bytes.size();
    record.createdAt = store::nowMs();
    if (const auto put = m_files.put(upload.bytes, record.format); !put) {
        qWarning("font upload: %s", qPrintable(put.error()));
        return ServiceError::database();
    }
    if (auto inserted = fonts.insert(record); !inserted) {
        // The same bytes uploaded at the same moment: the other request's row stands.
        auto raced = fonts.findBySha(spaceId, sha);
        if (raced && *raced)
            return Uploaded<store::FontRecord>{**raced, false};
        return inserted.error();
    }
    return Uploaded<store::FontRecord>{record, true};
}

Result<ListPage<store::FontRecord>> FontService::listPage(const QString &spaceId, int page, int perPage)
{
    return uploadsPage<store::FontRecord, store::FontRepository>(m_db, spaceId, page, perPage);
}

Result<QList<store::FontRecord>> FontService::listAll(const QString &spaceId)
{
    return store::FontRepository(m_db).listAll(spaceId);
}

Result<Done> FontService::remove(const QString &spaceId, const QString &id)
{
    return removeUpload<store::FontRepository>(m_db, spaceId, id, ProblemCode::FontNotFound, "font");
}

std::shared_ptr<const render::FontSet> FontService::fontSetFor(const QString &spaceId, QStringList *warnings)
{
    auto rows = store::FontRepository(m_db).listAll(spaceId);
    if (!rows || rows->isEmpty())
        return nullptr;
    auto set = std::make_shared<render::FontSet>();
    for (const store::FontRecord &row : *rows) {
        QString why;
        bool ok = render::isFontFaceRegistered(row.sha256);
        if (!ok) {
            const auto bytes = readStored(m_files, row.sha256, row.format);
            why = QStringLiteral("its file is missing");
            ok = bytes && registerFace(row.sha256, *bytes, &why);
        }
        if (!ok) {
            if (warnings)
                warnings->append(QStringLiteral("font '%1' (%2) could not be loaded: %3").arg(row.family, row.id, why));
            continue;
        }
        set->faces.append(render::FontFace{row.family, row.weight, row.style == QLatin1String("italic"),
                                           render::internalFamilyFor(row.sha256)});
    }
    return set;
}

QJsonObject FontService::json(const store::FontRecord &font)
{
    return QJsonObject{
        {QStringLiteral("id"), font.id},         {QStringLiteral("family"), font.family},
        {QStringLiteral("weight"), font.weight}, {QStringLiteral("style"), font.style},
        {QStringLiteral("format"), font.format}, {QStringLiteral("bytes"), double(font.bytes)},
        {QStringLiteral("sha256"), font.sha256}, {QStringLiteral("createdAt"), isoOrNull(font.createdAt)},
    };
}

QJsonObject FontService::describe(const store::FontRecord &font) const
{
    QJsonObject out = json(font);
    // The registered sfnt when this process has used the face, else the stored file.
    QByteArray sfnt = render::registeredFontFaceData(render::internalFamilyFor(font.sha256));
    if (sfnt.isEmpty())
        if (const auto bytes = readStored(m_files, font.sha256, font.format))
            sfnt = render::decodeFontToSfnt(*bytes).value_or(QByteArray());
    const render::FontVariations variations = render::fontVariations(sfnt);
    QJsonArray axes, instances;
    for (const render::FontAxis &axis : variations.axes)
        axes.append(QJsonObject{{QStringLiteral("tag"), render::axisTagName(axis.tag)},
                                {QStringLiteral("min"), axis.min},
                                {QStringLiteral("default"), axis.defaultValue},
                                {QStringLiteral("max"), axis.max}});
    for (const render::FontNamedInstance &instance : variations.instances) {
        QJsonObject coords;
        for (const auto &[tag, value] : instance.coords)
            coords.insert(render::axisTagName(tag), value);
        instances.append(QJsonObject{{QStringLiteral("name"), instance.name}, {QStringLiteral("axes"), coords}});
    }
    out.insert(QStringLiteral("axes"), axes);
    out.insert(QStringLiteral("instances"), instances);
    return out;
}

// ------------------------------------------------------------------ AssetService

AssetService::AssetService(const store::Database &db, store::Config config, store::FileStore files)
    : m_db(db)
    , m_config(std::move(config))
    , m_files(std::move(files))
{ }

Result<Uploaded<store::AssetRecord>> AssetService::upload(const QString &spaceId, const QString &plan,
                                                          const QByteArray &bytes)
{
    auto invalid = [](const QString &why) {
        return ServiceError::invalid(ProblemCode::InvalidImage, QStringLiteral("body"),
                                     QStringLiteral("The image does not load: %1").arg(why));
    };
    if (bytes.isEmpty())
        return ServiceError::invalid(ProblemCode::MissingBody, QStringLiteral("body"),
                                     QStringLiteral("The request body must be the image file."));
    const render::ImageFormat format = render::sniffImageFormat(bytes);
    QByteArray stored = bytes;
    if (format == render::ImageFormat::Svg) {
        // Stored as sanitised, so the file served back and every render see the same inert SVG.
        auto clean = render::sanitizeSvg(bytes);
        if (!clean)
            return invalid(clean.error());
        stored = *clean;
    }
    static const QHash<render::ImageFormat, QString> exts = {
        {render::ImageFormat::Png, QStringLiteral("png")}, {render::ImageFormat::Jpeg, QStringLiteral("jpeg")},
        {render::ImageFormat::Gif, QStringLiteral("gif")}, {render::ImageFormat::Webp, QStringLiteral("webp")},
        {render::ImageFormat::Svg, QStringLiteral("svg")},
    };
    if (!exts.contains(format))
        return invalid(QStringLiteral("it is not a PNG, JPEG, GIF, WebP or SVG image."));
    const render::ImageResult image = render::decodeImage(stored);
    if (!image)
        return invalid(image.error());

    const QString sha = sha256Of(stored);
    store::AssetRepository assets(m_db);
    if (auto reused = reusedUpload<store::AssetRecord>(assets, spaceId, sha))
        return *reused;

    const auto limits = m_config.plan(plan) ? m_config.plan(plan) : m_config.plan(QStringLiteral("free"));
    const qint64 quota = limits ? limits->assetBytes : 0;
    auto overQuota = [&](qint64 used) {
        return ServiceError::quotaExceeded(
            ProblemCode::AssetQuotaExceeded, QStringLiteral("body"),
            QStringLiteral("This image (%1 bytes) would take the space's assets to %2 bytes, over the %3 plan's "
                           "%4 bytes. Delete assets, or ask the server's operator for a larger plan.")
                .arg(stored.size())
                .arg(used + stored.size())
                .arg(plan)
                .arg(quota));
    };
    // A first look without a lock, so an upload that is over the quota anyway does not
    // write its file; the check that counts is insertWithinQuota()'s, below.
    auto used = assets.totalBytes(spaceId);
    if (!used)
        return used.error();
    if (quota > 0 && *used + stored.size() > quota)
        return overQuota(*used);

    store::AssetRecord record;
    record.id = store::randomId(QStringLiteral("ast_"));
    record.spaceId = spaceId;
    record.format = exts.value(format);
    record.contentType = QString::fromLatin1(store::FileStore::contentTypeOf(record.format));
    record.sha256 = sha;
    record.width = image->width();
    record.height = image->height();
    record.bytes = stored.size();
    record.createdAt = store::nowMs();
    // The file before the row: a row never names a missing file. A file whose row is then
    // refused stays unreferenced, as the bytes of a deleted asset do.
    if (const auto put = m_files.put(stored, record.format); !put) {
        qWarning("asset upload: %s", qPrintable(put.error()));
        return ServiceError::database();
    }
    // The quota check and the charge (the row) in one transaction: twelve parallel uploads
    // that each passed the look above stored 12.4 MiB under a 10 MiB quota.
    auto outcome = assets.insertWithinQuota(record, quota);
    if (!outcome) {
        auto raced = assets.findBySha(spaceId, sha);
        if (raced && *raced)
            return Uploaded<store::AssetRecord>{**raced, false};
        return outcome.error();
    }
    if (outcome->existing)
        return Uploaded<store::AssetRecord>{*outcome->existing, false};
    if (!outcome->inserted)
        return overQuota(outcome->usedBytes);
    return Uploaded<store::AssetRecord>{record, true};
}

Result<ListPage<store::AssetRecord>> AssetService::listPage(const QString &spaceId, int page, int perPage)
{
    return uploadsPage<store::AssetRecord, store::AssetRepository>(m_db, spaceId, page, perPage);
}

Result<Done> AssetService::remove(const QString &spaceId, const QString &id)
{
    return removeUpload<store::AssetRepository>(m_db, spaceId, id, ProblemCode::AssetNotFound, "asset");
}

namespace {
const QRegularExpression &assetFileUrl()
{
    static const QRegularExpression fileUrl(
        QStringLiteral("^(?:https?://[^/?#]+)?/api/v1/files/([0-9a-f]{64})\\.(png|jpeg|gif|webp|svg)$"));
    return fileUrl;
}
} // namespace

bool AssetService::mayNameAsset(const QJsonValue &v)
{
    return anyString(v, [](const QString &s) {
        return s.contains(QLatin1String("asset:"), Qt::CaseInsensitive) || s.contains(QLatin1String("/api/v1/files/"));
    });
}

Result<QString> AssetService::changeStamp(const QString &spaceId) const
{
    return store::AssetRepository(m_db).changeStamp(spaceId);
}

bool AssetService::isAssetUrl(const QString &url)
{
    return url.startsWith(QLatin1String("asset:")) || assetFileUrl().match(url.trimmed()).hasMatch();
}

render::ImageLoader AssetService::loaderFor(const QString &spaceId, render::ImageLoader fallback) const
{
    const store::Database *db = &m_db;
    const store::FileStore files = m_files;
    return [db, files, spaceId, fallback](const QString &url) -> render::ImageResult {
        const QRegularExpression &fileUrl = assetFileUrl();
        store::AssetRepository assets(*db);
        std::optional<store::AssetRecord> asset;
        QString wanted;
        if (url.startsWith(QLatin1String("asset:"))) {
            wanted = url.mid(6).trimmed();
            auto found = assets.find(spaceId, wanted);
            if (found)
                asset = *found;
        } else if (const auto m = fileUrl.match(url.trimmed()); m.hasMatch()) {
            wanted = url;
            auto found = assets.findBySha(spaceId, m.captured(1));
            if (found)
                asset = *found;
        } else {
            return fallback ? fallback(url) : render::ImageResult(QString());
        }
        if (!asset)
            return QStringLiteral("this space has no asset %1").arg(wanted.left(120));
        const auto bytes = readStored(files, asset->sha256, asset->format);
        if (!bytes)
            return QStringLiteral("the file of asset %1 is missing").arg(asset->id);
        return render::decodeImage(*bytes);
    };
}

QJsonObject AssetService::json(const store::AssetRecord &asset, const QString &baseUrl)
{
    return QJsonObject{
        {QStringLiteral("id"), asset.id},
        {QStringLiteral("url"), baseUrl + QStringLiteral("/api/v1/files/%1.%2").arg(asset.sha256, asset.format)},
        {QStringLiteral("width"), asset.width},
        {QStringLiteral("height"), asset.height},
        {QStringLiteral("contentType"), asset.contentType},
        {QStringLiteral("bytes"), double(asset.bytes)},
        {QStringLiteral("createdAt"), isoOrNull(asset.createdAt)},
    };
}

} // namespace imprint::service
