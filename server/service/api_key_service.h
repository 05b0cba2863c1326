#pragma once
// The API key use cases of a space: create, list, revoke, and authenticating a render
// request's token. The HTTP routes, the CLI and the demo seeding call these, never SQL.
// Thread-safe as far as the Database is.

#include "server/common/key_scopes.h"
#include "server/service/paging.h"
#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/models.h"

#include <QHash>
#include <QList>

#include <array>
#include <mutex>
#include <optional>
#include <utility>

#include <vector>

namespace imprint::service {

class WriteBehind;

using store::Done;
using store::Result;
using store::ServiceError;

/// The key scopes and their one name table live with the console's copy of the list
/// (server/common/key_scopes.h).
using common::KeyScope;
using common::kKeyScopeNames;

/// The wire name of `scope`.
QString keyScopeName(KeyScope scope);
/// The scope called `name`, std::nullopt for a name no scope has.
std::optional<KeyScope> parseKeyScope(const QString &name);
/// Every wire name joined by `conjunction` ("render and content", "render and/or content").
QString keyScopeList(const QString &conjunction);

/// A new API key with its plaintext token (shown once, stored hashed).
struct CreatedKey {
    store::ApiKey key;
    QString token;
};

/// One page of the key list.
using KeyPage = ListPage<store::ApiKey>;

/// API keys of a space.
class ApiKeyService : public StandardPaging
{
public:
    /// Works on `db`, which must outlive it.
    explicit ApiKeyService(const store::Database &db)
        : m_db(db)
    { }

    /// The scopes a key may carry, by wire name (kKeyScopeNames): "render" (/render) and
    /// "content" (template and page routes without a session).
    static QStringList scopeNames();

    /// New key named `name` (1–100 characters) expiring at `expiresAt` (epoch ms, 0 = never;
    /// must be in the future) with `scopes` (one or more of scopeNames(); Invalid
    /// "invalid_scopes", field "scopes", otherwise). Writes an audit row "api_key.create".
    /// actorUserId empty = CLI.
    Result<CreatedKey> create(const QString &spaceId, const QString &name, qint64 expiresAt, const QString &actorUserId,
                              const QStringList &scopes = {QStringLiteral("render")});
    /// Page `page` (1..kMaxPage) of `perPage` (1..kMaxPerPage) active keys (neither revoked
    /// nor expired), newest first. Invalid "invalid_parameter" (field "page" or "perPage")
    /// outside those ranges.
    Result<KeyPage> listPage(const QString &spaceId, int page, int perPage);
    /// Every key of a space, revoked ones included (CLI).
    Result<QList<store::ApiKey>> listAll(const QString &spaceId);
    /// Revokes key `keyId` of `spaceId` (spaceId empty: of whatever space owns it — CLI only).
    /// NotFound "key_not_found" when no active key matches. Writes "api_key.revoke".
    Result<Done> revoke(const QString &spaceId, const QString &keyId, const QString &actor);
    /// The key and space of a plaintext token. Unauthorized with code "invalid_token"
    /// (unknown or revoked) or "token_expired". Updates last_used_at: through the usage
    /// recorder when one is set (written within a second, off the request path), else at
    /// most once a second here. A key once read is answered from memory while the auth
    /// generation (store::bumpAuthGeneration()) stays the same, so a key revoked through
    /// any instance or the CLI is refused from the next request on, at the cost of one
    /// one-column read per request instead of the key's join (docs/performance.md).
    Result<store::ApiKeyPrincipal> authenticate(const QString &token);

    /// The roles that may create, list and revoke a space's keys: owners and admins
    /// (docs/api.md). Transports check it against the caller's session; the CLI acts as
    /// the operator of the data directory and needs none.
    static std::vector<store::Role> managerRoles();

    /// Characters of the token kept as its display prefix ("imp_" + 6).
    static constexpr int kPrefixLength = 10;
    /// listPage(): the page size when the caller names none, the largest page size and the
    /// largest page number.

    /// Hands last_used_at updates to `writer` (may be null: written directly), which
    /// must outlive this; listings then show its pending times too.
    void setWriteBehind(WriteBehind *writer) { m_usage = writer; }

    /// Keys authenticate() remembers at most (then it forgets them all and reads again).
    static constexpr int kMaxKnownKeys = 4096;

private:
    /// What authenticate() remembers of an active key, and the auth generation it was
    /// read at.
    struct KnownKey {
        store::ApiKeyPrincipal principal;
        qint64 expiresAt = 0; ///< epoch ms, 0 = never
        qint64 lastUsedAt = 0; ///< epoch ms, as last read or written here
        qint64 generation = 0;
    };
    /// The remembered key of `tokenHash` when it was read at `generation`.
    std::optional<KnownKey> knownKey(const QString &tokenHash, qint64 generation) const;
    void rememberKey(const QString &tokenHash, const KnownKey &key);

    /// `key` with the recorder's newer, not yet written last-use time.
    void withPendingUse(store::ApiKey &key) const;

    const store::Database &m_db;
    WriteBehind *m_usage = nullptr;
    mutable std::mutex m_knownMutex;
    QHash<QString, KnownKey> m_known; ///< by token hash (the token itself is never kept)
};

} // namespace imprint::service
