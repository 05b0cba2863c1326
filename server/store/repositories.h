#pragma once
// Repositories: the only code that runs SQL (docs/architecture.md). Each one works on the
// calling thread's connection of a Database. Every method returns a Result whose only
// error is ServiceError::database() (a 500 "database_error"), with the driver's message
// logged (never bound values, so no secrets reach the log). A lookup that finds no row
// succeeds with std::nullopt and an update that matches none succeeds with false: whether
// that is an error, and which, is the calling use case's decision. Accounts, sessions and
// audit rows are implemented in repositories.cpp, API and signing keys in
// secret_repositories.cpp, templates, pages, publish snapshots and renders in
// content_repositories.cpp.

#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/models.h"
#include "server/store/repository.h"

#include <QList>

#include <optional>
#include <utility>

namespace imprint::store {

/// Raises the auth generation (ApiKeyRepository::authGeneration()) on the calling thread's
/// connection of `db`: called inside the transaction of a write that changes what an API
/// token authenticates as (a key revoked, a space's plan), so that every instance reads
/// such a key again at its next request.
Result<Done> bumpAuthGeneration(const Database &db);

/// spaces
class SpaceRepository : public Repository
{
public:
    using Repository::Repository;
    /// Inserts `space` as a new row.
    Result<Done> insert(const Space &space);
    /// The space called `name`, std::nullopt when none.
    Result<std::optional<Space>> byName(const QString &name);
    /// The space with id `id`, std::nullopt when none.
    Result<std::optional<Space>> byId(const QString &id);
    /// Every space, by name.
    Result<QList<Space>> all();
    /// Sets the plan of space `spaceId`; true when a row matched. Raises the auth
    /// generation (the plan is part of a key's principal): call inside a transaction.
    Result<bool> setPlan(const QString &spaceId, const QString &plan);
};

/// users and memberships
class UserRepository : public Repository
{
public:
    using Repository::Repository;
    /// Inserts `user` as a new row.
    Result<Done> insert(const User &user);
    /// The user with this (already normalised) e-mail, std::nullopt when none.
    Result<std::optional<User>> byEmail(const QString &email);
    /// Replaces the password hash of user `userId`.
    Result<Done> setPasswordHash(const QString &userId, const QString &hash);
    /// Inserts or changes the role of (space, user).
    Result<Done> upsertMembership(const QString &spaceId, const QString &userId, Role role);
    /// Memberships of one user, oldest first.
    Result<QList<Membership>> membershipsOfUser(const QString &userId);
    /// Every membership, optionally of one space (CLI `user list`).
    Result<QList<Membership>> memberships(const QString &spaceId = {});
};

/// sessions
class SessionRepository : public Repository
{
public:
    using Repository::Repository;
    /// Inserts a session of `userId` in `spaceId` whose token hashes to `tokenHash`.
    Result<Done> insert(const QString &id, const QString &tokenHash, const QString &userId, const QString &spaceId,
                        qint64 expiresAt);
    /// The unexpired session whose token hashes to tokenHash, with membership joined;
    /// std::nullopt when none.
    Result<std::optional<SessionInfo>> byTokenHash(const QString &tokenHash, qint64 now);
    /// Deletes the session whose token hashes to `tokenHash` (none is not an error).
    Result<Done> removeByTokenHash(const QString &tokenHash);
    /// Deletes every session of `userId` but the one whose token hashes to `keepTokenHash`
    /// (empty: all of them).
    Result<Done> removeForUser(const QString &userId, const QString &keepTokenHash = {});
    /// Deletes every session expired at `now`.
    Result<Done> removeExpired(qint64 now);
};

/// What sets one kind of revocable secret apart in SQL (secret_repositories.cpp has the
/// two): its table, the select list over the table (alias `k`) and its creator (alias
/// `u`, users), whether rows expire, and how a selected row reads.
template<typename Row>
struct SecretTable {
    const char *table; ///< "api_keys", "signing_keys"
    const char *columns; ///< the select list, its first columns those of the Row
    bool expires; ///< rows have expires_at: an expired row counts as inactive
    /// Rows authenticate requests (API keys): revoking one raises the auth generation.
    bool authenticates;
    Row (*rowFrom)(const QSqlQuery &q); ///< reads the Row from a selected row
};

/// A named, revocable secret of a space (API keys, URL-signing keys): the rows, paged and
/// listed, and their revocation, written once. Each kind adds what only it has through
/// its own class below.
template<typename Row>
class RevocableSecretRepository : public Repository
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    RevocableSecretRepository(const Database &db, const SecretTable<Row> &table)
        : Repository(db)
        , m_table(table)
    { }
    /// Number of active keys of a space: not revoked (and, for a kind that expires, not
    /// past its expiry: an expired key authorises nothing, so listing it would mislead).
    Result<int> countActive(const QString &spaceId);
    /// One page of active keys of a space (as countActive() counts them), newest first.
    Result<QList<Row>> listActive(const QString &spaceId, int offset, int limit);
    /// Every key of a space, revoked ones too (CLI), newest first.
    Result<QList<Row>> listAll(const QString &spaceId);
    /// The active key with this id in this space (spaceId empty = any space), std::nullopt
    /// when none.
    Result<std::optional<Row>> activeById(const QString &spaceId, const QString &id);
    /// Marks the key revoked by `actor` at `now`; true when an active key matched.
    Result<bool> revoke(const QString &spaceId, const QString &id, const QString &actor, qint64 now);

protected:
    /// Runs "SELECT columns[, extra] FROM table k (creator joined)[ join] WHERE k.id = ? AND
    /// not revoked[ AND k.space_id = ?]" on `q` (spaceId empty: in any space).
    bool selectActiveById(QSqlQuery &q, const QString &spaceId, const QString &id, const QString &extraColumns = {},
                          const QString &join = {});

    const SecretTable<Row> &m_table;
};

/// api_keys: scopes, and only the hash of the token is stored (the token is the secret).
class ApiKeyRepository : public RevocableSecretRepository<ApiKey>
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    explicit ApiKeyRepository(const Database &db);
    /// Inserts `key`, storing only the hash of its token.
    Result<Done> insert(const ApiKey &key, const QString &tokenHash);
    /// The active key with this token hash and its space, std::nullopt when none. Only
    /// the fields authenticating reads are set: id, spaceId, expiresAt, lastUsedAt, scopes.
    Result<std::optional<std::pair<ApiKey, Space>>> byTokenHash(const QString &tokenHash);
    /// The auth generation (migration 12): a number every write that changes what a token
    /// authenticates as raises (bumpAuthGeneration()). One indexed one-column read.
    Result<qint64> authGeneration();
    /// Sets last_used_at of key `id` to `now`.
    Result<Done> touch(const QString &id, qint64 now);
};

/// signing_keys: the secret is stored sealed with the server key (SecretBox), never expires.
class SigningKeyRepository : public RevocableSecretRepository<SigningKey>
{
public:
    /// Works on the calling thread's connection of `db`, which must outlive it.
    explicit SigningKeyRepository(const Database &db);
    /// Inserts `key` with its sealed secret (SecretBox::seal()).
    Result<Done> insert(const SigningKey &key, const QByteArray &sealedSecret);
    /// The active key with this id (spaceId empty = in any space), its space and sealed
    /// secret; std::nullopt when none.
    Result<std::optional<SigningKeySecret>> activeSecret(const QString &spaceId, const QString &id);
};

/// A space's uploads of one kind (fonts, assets), named by id and by the SHA-256 of their
/// bytes: the queries both kinds share, written once over the kind's table
/// (upload_repositories.cpp). Each kind adds what only it has through its own class below.
template<typename Record>
class UploadRepository : public Repository
{
public:
    using Repository::Repository;
    /// The space's upload with these bytes, std::nullopt when none.
    Result<std::optional<Record>> findBySha(const QString &spaceId, const QString &sha256);
    Result<int> count(const QString &spaceId);
    /// One page of the space's uploads, newest first.
    Result<QList<Record>> list(const QString &spaceId, int offset, int limit);
    /// Deletes upload `id` of `spaceId`; true when one matched.
    Result<bool> remove(const QString &spaceId, const QString &id);
};

/// fonts: a space's uploaded font faces.
class FontRepository : public UploadRepository<FontRecord>
{
public:
    using UploadRepository::UploadRepository;
    Result<Done> insert(const FontRecord &font);
    /// Every face of the space (what a render of it may use), oldest first.
    Result<QList<FontRecord>> listAll(const QString &spaceId);
    /// How many rows of any space name these bytes (a file no row names may go).
    Result<int> countSha(const QString &sha256);
};

/// assets: a space's uploaded images.
class AssetRepository : public UploadRepository<AssetRecord>
{
public:
    using UploadRepository::UploadRepository;
    Result<Done> insert(const AssetRecord &asset);
    /// The space's asset `id`, std::nullopt when none (or another space's).
    Result<std::optional<AssetRecord>> find(const QString &spaceId, const QString &id);
    /// The sum of the space's asset sizes, bytes.
    Result<qint64> totalBytes(const QString &spaceId);
    /// A stamp of the space's set of assets that changes whenever one is added or deleted
    /// (their count and newest creation time, "N:MS"): what a render that names assets
    /// keys its memo and ETag with.
    Result<QString> changeStamp(const QString &spaceId);

    /// What insertWithinQuota() did.
    struct QuotaInsert {
        bool inserted = false; ///< the row is in; false: `existing` or over the quota
        std::optional<AssetRecord> existing; ///< the space already had these bytes (nothing inserted)
        qint64 usedBytes = 0; ///< the space's total before this asset
    };
    /// Inserts `asset` unless its space already has its bytes or the space's total would
    /// pass `quota` (bytes; 0 = none), the check and the insert in one transaction, so
    /// concurrent uploads to one space take turns and cannot together pass the quota:
    /// SQLite's BEGIN IMMEDIATE holds the write lock throughout, on PostgreSQL the space's
    /// row is locked FOR NO KEY UPDATE (READ COMMITTED would let two transactions each
    /// sum the rows committed before either inserted).
    Result<QuotaInsert> insertWithinQuota(const AssetRecord &asset, qint64 quota);
};

/// idempotency_keys: the answers to requests sent with an Idempotency-Key.
class IdempotencyRepository : public Repository
{
public:
    /// A stored answer; status 0 while its request is still running.
    struct Entry {
        QByteArray requestHash; ///< hex SHA-256 of what was asked (route and body)
        int status = 0;
        QByteArray contentType;
        QByteArray body;
        qint64 createdAt = 0; ///< epoch ms
    };

    using Repository::Repository;
    /// The entry of (space, key, route), std::nullopt when none.
    Result<std::optional<Entry>> find(const QString &spaceId, const QString &key, const QString &route);
    /// Inserts a running entry (status 0) for (space, key, route) made at `now`.
    Result<Done> insertRunning(const QString &spaceId, const QString &key, const QString &route,
                               const QByteArray &requestHash, qint64 now);
    /// Stores the answer of the running entry.
    Result<Done> complete(const QString &spaceId, const QString &key, const QString &route, int status,
                          const QByteArray &contentType, const QByteArray &body);
    /// Deletes the entry of (space, key, route).
    Result<Done> remove(const QString &spaceId, const QString &key, const QString &route);
    /// Deletes every entry made before `before` (epoch ms).
    Result<Done> removeOlderThan(qint64 before);

    /// Claims `name` (space, route and key) for the request running on this thread
    /// across every instance on the database: a session-level PostgreSQL advisory lock
    /// on this thread's connection, which PostgreSQL releases by itself when the
    /// connection ends (the instance was killed, the server restarted). True when taken,
    /// false while another connection holds it; the database error when it cannot ask.
    /// SQLite (one process): always true, the caller serialises its own threads.
    Result<bool> tryLock(const QByteArray &name);
    /// Releases a claim tryLock() took on this thread; a lost connection already did.
    void unlock(const QByteArray &name);
};

/// audit_log
class AuditRepository : public Repository
{
public:
    using Repository::Repository;
    /// One row: who (actor: user id, "cli" or "system") did what to which target.
    Result<Done> append(const QString &spaceId, const QString &actor, const QString &action, const QString &target,
                        const QString &detail = {});
    /// Number of rows with this action (tests, diagnostics).
    Result<int> count(const QString &action);
};

/// templates
class TemplateRepository : public Repository
{
public:
    using Repository::Repository;
    /// Inserts `t` as a new row.
    Result<Done> insert(const TemplateRecord &t);
    /// Writes name, document and updatedAt of `t` and counts its version up by one (in the
    /// statement, so concurrent updates on PostgreSQL queue on the row lock and never
    /// number two versions alike); true when a row with t.id in t.spaceId matched.
    Result<bool> update(const TemplateRecord &t);
    /// Deletes template `id` of `spaceId`; true when a row matched.
    Result<bool> remove(const QString &spaceId, const QString &id);
    /// Template `id` of `spaceId` (empty: of any space), std::nullopt when none.
    Result<std::optional<TemplateRecord>> byId(const QString &spaceId, const QString &id);
    /// The templates of `spaceId`, oldest first.
    Result<QList<TemplateRecord>> list(const QString &spaceId);
    /// Pages that use template `id`.
    Result<int> pageCount(const QString &id);
};

/// template_versions: every saved document of a template, numbered per template.
class TemplateVersionRepository : public Repository
{
public:
    using Repository::Repository;
    /// Inserts `v` (the primary key (templateId, version) refuses a number twice).
    Result<Done> insert(const TemplateVersionRecord &v);
    /// Version `version` of template `templateId`, std::nullopt when none.
    Result<std::optional<TemplateVersionRecord>> byNumber(const QString &templateId, int version);
    /// How many versions template `templateId` has.
    Result<int> count(const QString &templateId);
    /// `limit` versions of template `templateId` from `offset`, newest first.
    Result<QList<TemplateVersionRecord>> range(const QString &templateId, int offset, int limit);
};

/// pages (publishedAt joined from published_pages)
class PageRepository : public Repository
{
public:
    using Repository::Repository;
    /// Inserts `p` as a new row.
    Result<Done> insert(const PageRecord &p);
    /// Writes templateId, name, variables and updatedAt of `p`; true when a row with p.id in
    /// p.spaceId matched.
    Result<bool> update(const PageRecord &p);
    /// Deletes page `id` of `spaceId` (its snapshot goes with it); true when a row matched.
    Result<bool> remove(const QString &spaceId, const QString &id);
    /// Page `id` of `spaceId` (empty: of any space, for CLI `page publish ID`), std::nullopt
    /// when none.
    Result<std::optional<PageRecord>> byId(const QString &spaceId, const QString &id);
    /// The pages of `spaceId`, oldest first.
    Result<QList<PageRecord>> list(const QString &spaceId);
};

/// published_pages: one snapshot row per page (JSON {page, template}).
class PublishedPageRepository : public Repository
{
public:
    using Repository::Repository;
    /// Inserts or replaces the snapshot of page.id.
    Result<Done> upsert(const PublishedPage &snapshot);
    /// The snapshot of page `pageId` in any space, std::nullopt when it was never published.
    Result<std::optional<PublishedPage>> byPageId(const QString &pageId);
    /// Only the publish time (epoch ms) of page `pageId`'s snapshot, std::nullopt when there
    /// is none: the version check of a cached snapshot.
    Result<std::optional<qint64>> publishedAt(const QString &pageId);
};

/// renders
class RenderRepository : public Repository
{
public:
    using Repository::Repository;
    /// Appends `r`, stamped with r.createdAt, or the current time when that is 0.
    Result<Done> insert(const RenderRecord &r);
    /// Number of rows (tests, diagnostics).
    Result<int> count();
};

} // namespace imprint::store
