#pragma once
// URL-signing keys of a space and the signed-URL use case (docs/api.md, "Signed URLs"):
// create, list and revoke keys (several may be active, so a secret can be rotated), and
// authorise a render request by its signature alone. The HTTP routes and the CLI call
// these, never SQL. Thread-safe as far as the Database is.

#include "server/service/paging.h"
#include "server/service/server_key.h"
#include "server/store/crypto.h"
#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/models.h"

#include <QList>
#include <QMutex>
#include <QPair>

#include <atomic>
#include <optional>
#include <vector>

namespace imprint::service {

using store::Done;
using store::Result;
using store::ServiceError;

/// Query items of a URL, fully decoded, in their order (QUrlQuery::queryItems()).
using QueryItems = QList<QPair<QString, QString>>;

/// A new signing key with its secret (shown once; stored sealed).
struct CreatedSigningKey {
    store::SigningKey key;
    QString secret;
};

/// One page of a space's active signing keys.
using SigningKeyPage = ListPage<store::SigningKey>;

/// What a valid signature grants: renders of the published pages of `space`.
struct SignedUrlGrant {
    QString keyId;
    store::Space space;
    qint64 expiresAt = 0; ///< `exp`, Unix seconds; 0 when the URL does not expire
};

/// Signing keys and signed-URL verification.
class SigningKeyService : public StandardPaging
{
public:
    /// Works on `db`, which must outlive it. Secrets are sealed under the server key file
    /// `dataDir/signing.key`, created on first use.
    SigningKeyService(const store::Database &db, QString dataDir);

    /// New key named `name` (1–100 characters) in `spaceId`, with a new secret. Writes the
    /// row and the audit row "signing_key.create" in one transaction. actorUserId empty = CLI.
    /// Invalid "invalid_name"; Database "signing_key_store" when the server key is unusable.
    Result<CreatedSigningKey> create(const QString &spaceId, const QString &name, const QString &actorUserId);
    /// Page `page` (1..kMaxPage) of `perPage` (1..kMaxPerPage) active keys, newest first,
    /// without secrets (paging.h: pageOf(); outside the ranges Invalid "invalid_parameter").
    Result<SigningKeyPage> listPage(const QString &spaceId, int page, int perPage);
    /// Every key of a space, revoked ones included (CLI).
    Result<QList<store::SigningKey>> listAll(const QString &spaceId);
    /// Revokes key `keyId` of `spaceId` (empty: of whatever space owns it — CLI only); URLs
    /// it signed are refused from the next request on. NotFound "signing_key_not_found"
    /// when no active key matches. Writes "signing_key.revoke" in the same transaction.
    Result<Done> revoke(const QString &spaceId, const QString &keyId, const QString &actor);
    /// The secret of active key `keyId` in `spaceId` (CLI `url sign`). NotFound
    /// "signing_key_not_found"; Database "signing_key_store" when it cannot be unsealed.
    Result<QString> secretOf(const QString &spaceId, const QString &keyId);

    /// The longest a signed URL may be valid, s (10 years): the bound of every
    /// `expiresInSeconds`, which also keeps now + it far inside qint64.
    static constexpr qint64 kMaxExpiresInSeconds = 10LL * 365 * 86400;

    /// The `url sign` use case: `url` (its path ending in /api/v1/render) signed
    /// with active key `keyId` of `spaceId`. A `kid`, `exp` or `sig` already in the URL
    /// is replaced; `expiresInSeconds` > 0 adds `exp` = nowSeconds + it. Invalid
    /// "invalid_url" (field url) for another URL, "invalid_expires" (field expires) below
    /// 0 or above kMaxExpiresInSeconds; the errors of secretOf(). Shared by the CLI and
    /// POST /signing-keys/{id}/sign.
    Result<QString> signUrl(const QString &spaceId, const QString &keyId, const QString &url, qint64 expiresInSeconds,
                            qint64 nowSeconds);

    /// Authorises a request for `path` with query `items` by its signature alone: `kid`
    /// names an active key, `sig` is the HMAC of canonicalString(path, items without sig)
    /// under its secret (compared in constant time), then `exp` (Unix seconds), if present,
    /// must not be before `nowSeconds`. Forbidden "signature_invalid" (unknown or revoked
    /// key, wrong signature: the three are not told apart) or "signature_expired", both
    /// counted; Invalid "missing_field" (field kid) when there is no `kid`, and "invalid_parameter"
    /// (field draft) for a draft: signed URLs serve published pages only.
    Result<SignedUrlGrant> verify(const QString &path, const QueryItems &items, qint64 nowSeconds);

    /// The string a signature covers: `path`, "\n", then every item (a `sig` item left
    /// out) as `name=value`, both percent-encoded per RFC 3986 §2 (unreserved characters
    /// kept, every other byte of the UTF-8 as %XX in upper case), sorted by encoded name
    /// then encoded value, joined with '&'.
    static QString canonicalString(const QString &path, const QueryItems &items);
    /// `sig`: base64url without padding (RFC 4648 §5) of HMAC-SHA-256 (RFC 2104) of the
    /// UTF-8 `canonical` under the UTF-8 `secret`.
    static QString signature(const QString &secret, const QString &canonical);
    /// `items` plus `sig` as a query string in canonical order (what `imprint url sign`
    /// appends to the path).
    static QString signedQuery(const QString &secret, const QString &path, const QueryItems &items);

    /// Refusals since start: wrong or unknown-key signatures, and expired ones.
    quint64 invalidCount() const { return m_invalid.load(); }
    quint64 expiredCount() const { return m_expired.load(); }

    /// The roles that may manage a space's signing keys: owners and admins (as API keys).
    static std::vector<store::Role> managerRoles();

private:
    const store::Database &m_db;
    ServerKey m_serverKey;
    std::atomic<quint64> m_invalid{0};
    std::atomic<quint64> m_expired{0};
};

} // namespace imprint::service
