#include "server/service/api_key_service.h"

#include "server/service/revocable_secrets.h"
#include "server/service/write_behind.h"

#include "server/store/crypto.h"
#include "server/store/repositories.h"

#include <algorithm>

namespace imprint::service {

using store::ApiKey;
using store::ApiKeyPrincipal;
using store::ApiKeyRepository;
using store::newApiToken;
using store::nowMs;
using store::randomId;
using store::sha256Hex;

namespace {

const SecretKind kApiKey{"api_key",
                         "key",
                         true,
                         ProblemCode::KeyNotFound,
                         "id",
                         "No API key '%1' in this space."};

} // namespace

QString keyScopeName(KeyScope scope)
{
    return kKeyScopeNames.name(scope);
}

std::optional<KeyScope> parseKeyScope(const QString &name)
{
    return kKeyScopeNames.parse(name);
}

QString keyScopeList(const QString &conjunction)
{
    QStringList names = ApiKeyService::scopeNames();
    const QString last = names.takeLast();
    return names.isEmpty() ? last : names.join(QStringLiteral(", ")) + u' ' + conjunction + u' ' + last;
}

QStringList ApiKeyService::scopeNames()
{
    return kKeyScopeNames.names();
}

Result<CreatedKey> ApiKeyService::create(const QString &spaceId, const QString &nameIn, qint64 expiresAt,
                                         const QString &actorUserId, const QStringList &scopesIn)
{
    QStringList scopes;
    for (const QString &s : scopeNames()) // canonical order, each once
        if (scopesIn.contains(s))
            scopes.append(s);
    for (const QString &s : scopesIn)
        if (!parseKeyScope(s))
            return ServiceError::invalid(
                ProblemCode::InvalidScopes, QStringLiteral("scopes"),
                QStringLiteral("'%1' is not a key scope; scopes are %2.").arg(s, keyScopeList(QStringLiteral("and"))));
    if (scopes.isEmpty())
        return ServiceError::invalid(ProblemCode::InvalidScopes, QStringLiteral("scopes"),
                                     QStringLiteral("A key needs at least one scope: %1.")
                                         .arg(keyScopeList(QStringLiteral("and/or"))));
    const auto name = checkSecretName(kApiKey, nameIn);
    if (!name)
        return name.error();
    const qint64 now = nowMs();
    if (expiresAt != 0 && expiresAt <= now)
        return ServiceError::invalid(ProblemCode::InvalidExpiresAt, QStringLiteral("expiresAt"),
                                     QStringLiteral("expiresAt must be in the future."));
    CreatedKey out;
    out.token = newApiToken();
    out.key.id = randomId(QStringLiteral("key_"));
    out.key.spaceId = spaceId;
    out.key.name = *name;
    out.key.prefix = out.token.left(kPrefixLength);
    out.key.createdBy = actorUserId;
    out.key.createdAt = now;
    out.key.expiresAt = expiresAt;
    out.key.scopes = scopes;
    const auto inserted = insertSecret(m_db, kApiKey, out.key, actorUserId, [&] {
        return ApiKeyRepository(m_db).insert(out.key, sha256Hex(out.token));
    });
    if (!inserted)
        return inserted.error();
    return out;
}

std::vector<store::Role> ApiKeyService::managerRoles()
{
    return {store::Role::Owner, store::Role::Admin};
}

Result<KeyPage> ApiKeyService::listPage(const QString &spaceId, int page, int perPage)
{
    ApiKeyRepository keys(m_db);
    return secretPage(keys, spaceId, page, perPage, kMaxPage, kMaxPerPage, [this](ApiKey &k) { withPendingUse(k); });
}

Result<QList<ApiKey>> ApiKeyService::listAll(const QString &spaceId)
{
    auto list = ApiKeyRepository(m_db).listAll(spaceId);
    if (list)
        for (ApiKey &k : *list)
            withPendingUse(k);
    return list;
}

void ApiKeyService::withPendingUse(ApiKey &key) const
{
    if (m_usage)
        key.lastUsedAt = std::max(key.lastUsedAt, m_usage->pendingKeyUse(key.id));
}

Result<Done> ApiKeyService::revoke(const QString &spaceId, const QString &keyId, const QString &actor)
{
    ApiKeyRepository keys(m_db);
    return revokeSecret(m_db, keys, kApiKey, spaceId, keyId, actor);
}

Result<ApiKeyPrincipal> ApiKeyService::authenticate(const QString &token)
{
    ServiceError invalidToken{ProblemCode::InvalidToken,
                              {},
                              QStringLiteral("The API token is unknown or revoked.")};
    if (token.isEmpty()) {
        invalidToken.code = ProblemCode::MissingToken;
        invalidToken.message = QStringLiteral("An API token is required (Authorization: Bearer or api_token).");
        return invalidToken;
    }
    // Cheap shape check first: nothing that is not a token reaches the database.
    if (!token.startsWith(QLatin1String("imp_")) || token.size() != 44)
        return invalidToken;
    ApiKeyRepository keys(m_db);
    const QString tokenHash = sha256Hex(token);
    // The generation is read before the key: a revocation that commits between the two
    // reads has raised it, so the entry remembered below is read again next time.
    const auto generation = keys.authGeneration();
    if (!generation)
        return generation.error();
    std::optional<KnownKey> known = knownKey(tokenHash, *generation);
    if (!known) {
        const auto row = keys.byTokenHash(tokenHash);
        if (!row)
            return row.error();
        if (!*row)
            return invalidToken; // not remembered: an unknown token costs a read each time
        const auto &[key, space] = **row;
        known = KnownKey{ApiKeyPrincipal{key.id, space, key.scopes}, key.expiresAt, key.lastUsedAt, *generation};
        rememberKey(tokenHash, *known);
    }
    const qint64 now = nowMs();
    if (known->expiresAt != 0 && known->expiresAt <= now)
        return ServiceError{ProblemCode::TokenExpired,
                            {},
                            QStringLiteral("The API token has expired.")};
    // Renders must not queue behind last_used_at: the recorder writes it in batches on a
    // thread of its own; without one, one write per second per key at most.
    if (m_usage) {
        m_usage->keyUsed(known->principal.keyId, now);
    } else if (now - known->lastUsedAt >= 1000) {
        keys.touch(known->principal.keyId, now);
        known->lastUsedAt = now;
        rememberKey(tokenHash, *known);
    }
    return std::move(known->principal);
}

std::optional<ApiKeyService::KnownKey> ApiKeyService::knownKey(const QString &tokenHash, qint64 generation) const
{
    std::lock_guard lock(m_knownMutex);
    const auto it = m_known.constFind(tokenHash);
    if (it == m_known.constEnd() || it->generation != generation)
        return std::nullopt;
    return *it;
}

void ApiKeyService::rememberKey(const QString &tokenHash, const KnownKey &key)
{
    std::lock_guard lock(m_knownMutex);
    // Emptied rather than evicted one by one: refilling costs one read per active key,
    // and more distinct keys than this in use at once is not the common case.
    if (m_known.size() >= kMaxKnownKeys && !m_known.contains(tokenHash))
        m_known.clear();
    m_known.insert(tokenHash, key);
}

} // namespace imprint::service
