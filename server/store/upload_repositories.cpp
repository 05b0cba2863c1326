// FontRepository and AssetRepository (repositories.h): the SQL of the fonts and assets
// tables (migration 7).
#include "server/store/repositories.h"

#include "server/store/sql.h"

#include <QSqlQuery>
#include <QVariant>

namespace imprint::store {

namespace {

const QString kFontColumns = QStringLiteral("id, space_id, family, weight, style, format, sha256, bytes, created_at");
const QString kAssetColumns
    = QStringLiteral("id, space_id, content_type, format, sha256, width, height, bytes, created_at");

FontRecord fontFrom(const QSqlQuery &q)
{
    FontRecord f;
    f.id = q.value(0).toString();
    f.spaceId = q.value(1).toString();
    f.family = q.value(2).toString();
    f.weight = q.value(3).toInt();
    f.style = q.value(4).toString();
    f.format = q.value(5).toString();
    f.sha256 = q.value(6).toString();
    f.bytes = q.value(7).toLongLong();
    f.createdAt = q.value(8).toLongLong();
    return f;
}

AssetRecord assetFrom(const QSqlQuery &q)
{
    AssetRecord a;
    a.id = q.value(0).toString();
    a.spaceId = q.value(1).toString();
    a.contentType = q.value(2).toString();
    a.format = q.value(3).toString();
    a.sha256 = q.value(4).toString();
    a.width = q.value(5).toInt();
    a.height = q.value(6).toInt();
    a.bytes = q.value(7).toLongLong();
    a.createdAt = q.value(8).toLongLong();
    return a;
}

} // namespace

Result<Done> FontRepository::insert(const FontRecord &f)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO fonts (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)").arg(kFontColumns),
                      f.id, f.spaceId, f.family, f.weight, f.style, f.format, f.sha256, f.bytes, f.createdAt);
}

Result<std::optional<FontRecord>> FontRepository::findBySha(const QString &spaceId, const QString &sha256)
{
    return sql::selectOne(m_db,
                          QStringLiteral("SELECT %1 FROM fonts WHERE space_id = ? AND sha256 = ?").arg(kFontColumns),
                          fontFrom, spaceId, sha256);
}

Result<int> FontRepository::count(const QString &spaceId)
{
    return sql::selectCount(m_db, QStringLiteral("SELECT COUNT(*) FROM fonts WHERE space_id = ?"), spaceId);
}

Result<QList<FontRecord>> FontRepository::list(const QString &spaceId, int offset, int limit)
{
    return sql::selectAll(m_db,
                          QStringLiteral("SELECT %1 FROM fonts WHERE space_id = ?"
                                         " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
                              .arg(kFontColumns),
                          fontFrom, spaceId, limit, offset);
}

Result<QList<FontRecord>> FontRepository::listAll(const QString &spaceId)
{
    // Every render of the space reads its font set: a cached statement.
    static const QString kSql
        = QStringLiteral("SELECT %1 FROM fonts WHERE space_id = ? ORDER BY created_at, id").arg(kFontColumns);
    return sql::cachedRows(m_db, kSql, fontFrom, spaceId);
}

Result<bool> FontRepository::remove(const QString &spaceId, const QString &id)
{
    return sql::writeMatched(m_db, QStringLiteral("DELETE FROM fonts WHERE id = ? AND space_id = ?"), id, spaceId);
}

Result<int> FontRepository::countSha(const QString &sha256)
{
    return sql::selectCount(m_db, QStringLiteral("SELECT COUNT(*) FROM fonts WHERE sha256 = ?"), sha256);
}

Result<Done> AssetRepository::insert(const AssetRecord &a)
{
    return sql::write(m_db,
                      QStringLiteral("INSERT INTO assets (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)").arg(kAssetColumns),
                      a.id, a.spaceId, a.contentType, a.format, a.sha256, a.width, a.height, a.bytes, a.createdAt);
}

Result<AssetRepository::QuotaInsert> AssetRepository::insertWithinQuota(const AssetRecord &a, qint64 quota)
{
    Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    if (!m_db.isSqlite()) {
        // NO KEY UPDATE: it makes this space's uploads wait for each other, but not the
        // inserts elsewhere whose foreign key to the space takes a KEY SHARE lock.
        QSqlQuery lock(m_db.connection());
        if (!sql::run(lock, QStringLiteral("SELECT id FROM spaces WHERE id = ? FOR NO KEY UPDATE"), a.spaceId))
            return ServiceError::database();
    }
    QuotaInsert outcome;
    auto existing = findBySha(a.spaceId, a.sha256);
    if (!existing)
        return existing.error();
    if (*existing) {
        outcome.existing = **existing;
        return outcome;
    }
    auto used = totalBytes(a.spaceId);
    if (!used)
        return used.error();
    outcome.usedBytes = *used;
    if (quota > 0 && *used + a.bytes > quota)
        return outcome;
    if (auto inserted = insert(a); !inserted)
        return inserted.error();
    if (!tx.commit())
        return ServiceError::database();
    outcome.inserted = true;
    return outcome;
}

Result<std::optional<AssetRecord>> AssetRepository::findBySha(const QString &spaceId, const QString &sha256)
{
    return sql::selectOne(m_db,
                          QStringLiteral("SELECT %1 FROM assets WHERE space_id = ? AND sha256 = ?").arg(kAssetColumns),
                          assetFrom, spaceId, sha256);
}

Result<std::optional<AssetRecord>> AssetRepository::find(const QString &spaceId, const QString &id)
{
    return sql::selectOne(m_db,
                          QStringLiteral("SELECT %1 FROM assets WHERE space_id = ? AND id = ?").arg(kAssetColumns),
                          assetFrom, spaceId, id);
}

Result<int> AssetRepository::count(const QString &spaceId)
{
    return sql::selectCount(m_db, QStringLiteral("SELECT COUNT(*) FROM assets WHERE space_id = ?"), spaceId);
}

Result<qint64> AssetRepository::totalBytes(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q, QStringLiteral("SELECT COALESCE(SUM(bytes), 0) FROM assets WHERE space_id = ?"), spaceId)
        || !q.next())
        return ServiceError::database();
    return q.value(0).toLongLong();
}

Result<QList<AssetRecord>> AssetRepository::list(const QString &spaceId, int offset, int limit)
{
    return sql::selectAll(m_db,
                          QStringLiteral("SELECT %1 FROM assets WHERE space_id = ?"
                                         " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
                              .arg(kAssetColumns),
                          assetFrom, spaceId, limit, offset);
}

Result<bool> AssetRepository::remove(const QString &spaceId, const QString &id)
{
    return sql::writeMatched(m_db, QStringLiteral("DELETE FROM assets WHERE id = ? AND space_id = ?"), id, spaceId);
}

} // namespace imprint::store
