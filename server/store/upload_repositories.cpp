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
    return sql::rowOf(q, 0, &FontRecord::id, &FontRecord::spaceId, &FontRecord::family, &FontRecord::weight,
                      &FontRecord::style, &FontRecord::format, &FontRecord::sha256, &FontRecord::bytes,
                      &FontRecord::createdAt);
}

AssetRecord assetFrom(const QSqlQuery &q)
{
    return sql::rowOf(q, 0, &AssetRecord::id, &AssetRecord::spaceId, &AssetRecord::contentType, &AssetRecord::format,
                      &AssetRecord::sha256, &AssetRecord::width, &AssetRecord::height, &AssetRecord::bytes,
                      &AssetRecord::createdAt);
}

// What sets one kind of upload apart in SQL: its table, its select list and how a
// selected row reads.
template<typename Record>
struct UploadTable {
    QLatin1String table;
    const QString &columns;
    Record (*rowFrom)(const QSqlQuery &q);
};

template<typename Record>
extern const UploadTable<Record> kUploads;
template<>
const UploadTable<FontRecord> kUploads<FontRecord>{QLatin1String("fonts"), kFontColumns, fontFrom};
template<>
const UploadTable<AssetRecord> kUploads<AssetRecord>{QLatin1String("assets"), kAssetColumns, assetFrom};

} // namespace

// ---- what both kinds share

template<typename Record>
Result<std::optional<Record>> UploadRepository<Record>::findBySha(const QString &spaceId, const QString &sha256)
{
    const UploadTable<Record> &t = kUploads<Record>;
    return sql::selectOne(m_db,
                          QStringLiteral("SELECT %1 FROM %2 WHERE space_id = ? AND sha256 = ?").arg(t.columns, t.table),
                          t.rowFrom, spaceId, sha256);
}

template<typename Record>
Result<int> UploadRepository<Record>::count(const QString &spaceId)
{
    const UploadTable<Record> &t = kUploads<Record>;
    return sql::selectCount(m_db, QStringLiteral("SELECT COUNT(*) FROM %1 WHERE space_id = ?").arg(t.table), spaceId);
}

template<typename Record>
Result<QList<Record>> UploadRepository<Record>::list(const QString &spaceId, int offset, int limit)
{
    const UploadTable<Record> &t = kUploads<Record>;
    return sql::selectAll(m_db,
                          QStringLiteral("SELECT %1 FROM %2 WHERE space_id = ?"
                                         " ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
                              .arg(t.columns, t.table),
                          t.rowFrom, spaceId, limit, offset);
}

template<typename Record>
Result<bool> UploadRepository<Record>::remove(const QString &spaceId, const QString &id)
{
    const UploadTable<Record> &t = kUploads<Record>;
    return sql::writeMatched(m_db, QStringLiteral("DELETE FROM %1 WHERE id = ? AND space_id = ?").arg(t.table), id,
                             spaceId);
}

template class UploadRepository<FontRecord>;
template class UploadRepository<AssetRecord>;

// ---- fonts: the file's names, and the rows every render of the space reads

Result<Done> FontRepository::insert(const FontRecord &f)
{
    // Its own (nested) transaction: a refused insert (the same bytes raced in) leaves the
    // caller's PostgreSQL transaction usable for the look-up that follows.
    Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    static const QString kSql
        = QStringLiteral("INSERT INTO fonts (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)").arg(kFontColumns);
    auto inserted = sql::write(m_db, kSql, f.id, f.spaceId, f.family, f.weight, f.style, f.format, f.sha256,
                               f.bytes, f.createdAt);
    if (inserted && !tx.commit())
        return ServiceError::database();
    return inserted;
}

Result<QList<FontRecord>> FontRepository::listAll(const QString &spaceId)
{
    // Every render of the space reads its font set: a cached statement.
    static const QString kSql
        = QStringLiteral("SELECT %1 FROM fonts WHERE space_id = ? ORDER BY created_at, id").arg(kFontColumns);
    return sql::cachedRows(m_db, kSql, fontFrom, spaceId);
}

Result<int> FontRepository::countSha(const QString &sha256)
{
    return sql::selectCount(m_db, QStringLiteral("SELECT COUNT(*) FROM fonts WHERE sha256 = ?"), sha256);
}

// ---- assets: lookup by id, and the quota

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

Result<std::optional<AssetRecord>> AssetRepository::find(const QString &spaceId, const QString &id)
{
    return sql::selectOne(m_db,
                          QStringLiteral("SELECT %1 FROM assets WHERE space_id = ? AND id = ?").arg(kAssetColumns),
                          assetFrom, spaceId, id);
}

Result<qint64> AssetRepository::totalBytes(const QString &spaceId)
{
    QSqlQuery q(m_db.connection());
    if (!sql::run(q, QStringLiteral("SELECT COALESCE(SUM(bytes), 0) FROM assets WHERE space_id = ?"), spaceId)
        || !q.next())
        return ServiceError::database();
    return q.value(0).toLongLong();
}

Result<QString> AssetRepository::changeStamp(const QString &spaceId)
{
    // Every render that names an asset asks: a cached statement.
    static const QString kSql
        = QStringLiteral("SELECT COUNT(*), COALESCE(MAX(created_at), 0) FROM assets WHERE space_id = ?");
    auto row = sql::cachedFirstRow(
        m_db, kSql,
        [](const QSqlQuery &q) { return q.value(0).toString() + u':' + q.value(1).toString(); }, spaceId);
    if (!row)
        return row.error();
    return row->value_or(QString());
}

} // namespace imprint::store
