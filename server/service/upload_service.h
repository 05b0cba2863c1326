#pragma once
// A space's uploaded fonts and images (docs/fonts-and-images.md): upload (validated,
// deduplicated by content, stored in the file store), list, delete, and what a render of
// the space reads from them — its FontSet and an ImageLoader that resolves `asset:ID` and
// the assets' URLs. Every call is scoped to one space; another space's rows are never
// found. The HTTP routes and the CLI call these, never SQL. Thread-safe as far as the
// Database is.

#include "server/render/document/template.h"
#include "server/render/text/font_set.h"
#include "server/service/paging.h"
#include "server/store/config.h"
#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/file_store.h"
#include "server/store/models.h"

#include <QByteArray>
#include <QJsonObject>

#include <memory>
#include <optional>

namespace imprint::service {

using store::Done;
using store::Result;
using store::ServiceError;

/// A font file as uploaded, with the optional overrides of the names inside it.
struct FontUpload {
    QByteArray bytes;
    QString contentType; ///< the request's media type (font/ttf, font/otf, font/woff, font/woff2)
    QString family; ///< empty: the file's family
    std::optional<int> weight; ///< CSS 1–1000; nullopt: the file's (OS/2 usWeightClass)
    QString style; ///< "normal", "italic" or "oblique" (stored as italic); empty: the file's
};

/// A stored upload and whether this call made it (false: the same bytes were there).
template<typename Record>
struct Uploaded {
    Record record;
    bool created = false;
};

/// Fonts of a space.
class FontService : public StandardPaging
{
public:
    /// Works on `db` (must outlive it); the files go to `files`.
    FontService(const store::Database &db, store::FileStore files);

    /// Validates, stores and registers `upload` in `spaceId`. Invalid (400) with field
    /// "Content-Type" for another media type, "body" and code "invalid_font" naming the
    /// reason for a file that does not load (not a font, truncated, a collection, damaged
    /// WOFF/WOFF2), "family"/"weight"/"style" ("invalid_parameter") for bad overrides.
    Result<Uploaded<store::FontRecord>> upload(const QString &spaceId, const FontUpload &upload);
    /// Page `page` of `perPage` faces, newest first (paging.h).
    Result<ListPage<store::FontRecord>> listPage(const QString &spaceId, int page, int perPage);
    /// Every face of the space, oldest first (CLI).
    Result<QList<store::FontRecord>> listAll(const QString &spaceId);
    /// Deletes face `id` of `spaceId`; NotFound "font_not_found" when the space has none.
    Result<Done> remove(const QString &spaceId, const QString &id);

    /// The faces a render in `spaceId` may use, each registered with Qt's font database
    /// (from its stored file, the first time this process needs it). A face whose file is
    /// missing or no longer loads is left out and named in `warnings`. Null when none.
    std::shared_ptr<const render::FontSet> fontSetFor(const QString &spaceId, QStringList *warnings = nullptr);

    /// The JSON form: id, family, weight, style, format, bytes, sha256, createdAt.
    static QJsonObject json(const store::FontRecord &font);
    /// json() plus what a variable face declares (OpenType fvar): `axes`, one
    /// {tag, min, default, max} per axis, and `instances`, one {name, axes: {tag: value}}
    /// per named instance; both empty for a static face or one whose file is missing.
    QJsonObject describe(const store::FontRecord &font) const;

private:
    const store::Database &m_db;
    store::FileStore m_files;
};

/// Images of a space.
class AssetService : public StandardPaging
{
public:
    /// Works on `db` (must outlive it); plan quotas from `config`; files to `files`.
    AssetService(const store::Database &db, store::Config config, store::FileStore files);

    /// Validates and stores the image `bytes` in `spaceId` on `plan`: the format sniffed
    /// from the bytes (PNG, JPEG, GIF, WebP, SVG; an SVG is sanitised first and stored as
    /// sanitised), decoded once to learn its size. Invalid "invalid_image" (field body)
    /// naming why it does not load; QuotaExceeded "asset_quota_exceeded" (402, field body)
    /// when the space's assets would pass the plan's `assetBytes`, checked in the
    /// transaction that adds the asset (AssetRepository::insertWithinQuota()), so
    /// concurrent uploads cannot pass it together.
    Result<Uploaded<store::AssetRecord>> upload(const QString &spaceId, const QString &plan, const QByteArray &bytes);
    Result<ListPage<store::AssetRecord>> listPage(const QString &spaceId, int page, int perPage);
    /// Deletes asset `id` of `spaceId`; NotFound "asset_not_found" when the space has none.
    Result<Done> remove(const QString &spaceId, const QString &id);

    /// An ImageLoader for renders in `spaceId`: `asset:ID`, and any URL whose path ends
    /// in /api/v1/files/<sha256>.<ext> of one of the space's assets, load that asset;
    /// every other URL goes to `fallback`. Another space's asset is "not found".
    render::ImageLoader loaderFor(const QString &spaceId, render::ImageLoader fallback) const;

    /// Whether loaderFor() resolves `url` itself (`asset:ID`, or a URL whose path is
    /// /api/v1/files/<sha256>.<ext>), so the remote image fetcher must leave it alone:
    /// an asset's absolute URL names this server, which the fetch policy would refuse.
    static bool isAssetUrl(const QString &url);
    /// Whether `v` (a template document, page variables or tweaks) holds a string that may
    /// name an asset (`asset:`, or a path with /api/v1/files/): a cheap walk, so that only
    /// renders that may draw an asset ask for changeStamp().
    static bool mayNameAsset(const QJsonValue &v);
    /// AssetRepository::changeStamp() of `spaceId`: changes when an asset is added or
    /// deleted. The database error when it cannot be read.
    Result<QString> changeStamp(const QString &spaceId) const;

    /// The JSON form: id, url (`baseUrl` + /api/v1/files/<sha256>.<ext>), width, height,
    /// contentType, bytes, createdAt.
    static QJsonObject json(const store::AssetRecord &asset, const QString &baseUrl);

private:
    const store::Database &m_db;
    store::Config m_config;
    store::FileStore m_files;
};

} // namespace imprint::service
