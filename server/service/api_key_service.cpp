#include "server/service/api_key_service.h"

#include "server/common/text.h"
#include "server/service/write_behind.h"

#include "server/store/crypto.h"
#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <algorithm>

namespace imprint::service {

using store::ApiKey;
using store::ApiKeyPrincipal;
using store::ApiKeyRepository;
using store::AuditRepository;
using store::newApiToken;
using store::nowMs;
using store::randomId;
using store::sha256Hex;
using store::Transaction;

Result<CreatedKey> ApiKeyService::create(const QString &spaceId, const QString &nameIn, qint64 expiresAt,
                                         const QString &actorUserId, const QStringList &scopesIn)
{
    QStringList scopes;
    for (const QString &s : scopeNames()) // canonical order, each once
        if (scopesIn.contains(s))
            scopes.append(s);
    for (const QString &s : scopesIn)
        if (!scopeNames().contains(s))
            return ServiceError::invalid(
                QStringLiteral("invalid_scopes"), QStringLiteral("scopes"),
                QStringLiteral("'%1' is not a key scope; scopes are render and content.").arg(s));
    if (scopes.isEmpty())
        return ServiceError::invalid(QStringLiteral("invalid_scopes"), QStringLiteral("scopes"),
                                     QStringLiteral("A key needs at least one scope: render and/or content."));
    const QString name = nameIn.trimmed();
    if (name.isEmpty() || name.size() > 100)
        return ServiceError::invalid(QStringLiteral("invalid_name"), QStringLiteral("name"),
                                     QStringLiteral("A key name is 1 to 100 characters."));
    if (const qsizetype at = common::firstUnsafeNameChar(name); at >= 0)
        return ServiceError::invalid(
            QStringLiteral("invalid_name"), QStringLiteral("name"),
            QStringLiteral("A key name may not contain control or bidi-override characters (U+%1 at position %2).")
                .arg(uint(name.at(at).unicode()), 4, 16, QLatin1Char('0'))
                .arg(at + 1));
    const qint64 now = nowMs();
    if (expiresAt != 0 && expiresAt <= now)
        return ServiceError::invalid(QStringLiteral("invalid_expires_at"), QStringLiteral("expiresAt"),
                                     QStringLiteral("expiresAt must be in the future."));
    CreatedKey out;
    out.token = newApiToken();
    out.key.id = randomId(QStringLiteral("key_"));
    out.key.spaceId = spaceId;
    out.key.name = name;
    out.key.prefix = out.token.left(kPrefixLength);
    out.key.createdBy = actorUserId;
    out.key.createdAt = now;
    out.key.expiresAt = expiresAt;
    out.key.scopes = scopes;
    Transaction tx(m_db);
    if (!tx.isOpen() || !ApiKeyRepository(m_db).insert(out.key, sha256Hex(out.token))
        || !AuditRepository(m_db).append(spaceId, actorUserId.isEmpty() ? QStringLiteral("cli") : actorUserId,
                                         QStringLiteral("api_key.create"), out.key.id, name)
        || !tx.commit())
        return ServiceError::database();
    return out;
}

std::vector<store::Role> ApiKeyService::managerRoles()
{
    return {store::Role::Owner, store::Role::Admin};
}

Result<KeyPage> ApiKeyService::listPage(const QString &spaceId, int page, int perPage)
{
    ApiKeyRepository keys(m_db);
    return pageOf<ApiKey>(
        page, perPage, kMaxPage, kMaxPerPage, [&] { return keys.countActive(spaceId); },
        [&](int offset, int limit) {
            auto list = keys.listActive(spaceId, offset, limit);
            if (list)
                for (ApiKey &k : *list)
                    withPendingUse(k);
            return list;
        });
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

Result<Done> ApiKeyService::revoke(const QString &spaceIdIn, const QString &keyId, const QString &actor)
{
    const ServiceError notFound{ServiceError::Kind::NotFound, QStringLiteral("key_not_found"), QStringLiteral("id"),
                                QStringLiteral("No API key '%1' in this space.").arg(keyId)};
    ApiKeyRepository keys(m_db);
    QString spaceId = spaceIdIn;
    if (spaceId.isEmpty()) {
        const auto key = keys.activeById({}, keyId);
        if (!key)
            return key.error();
        if (!*key)
            return notFound;
        spaceId = (*key)->spaceId;
    }
    Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    const auto revoked = keys.revoke(spaceId, keyId, actor, nowMs());
    if (!revoked)
        return revoked.error();
    if (!*revoked)
        return notFound;
    if (!AuditRepository(m_db).append(spaceId, actor, QStringLiteral("api_key.revoke"), keyId) || !tx.commit())
        return ServiceError::database();
    return Done{};
}

Result<ApiKeyPrincipal> ApiKeyService::authenticate(const QString &token)
{
    ServiceError invalidToken{ServiceError::Kind::Unauthorized,
                              QStringLiteral("invalid_token"),
                              {},
                              QStringLiteral("The API token is unknown or revoked.")};
    if (token.isEmpty()) {
        invalidToken.code = QStringLiteral("missing_token");
        invalidToken.message = QStringLiteral("An API token is required (Authorization: Bearer or api_token).");
        return invalidToken;
    }
    // Cheap shape check first: nothing that is not a token reaches the database.
    if (!token.startsWith(QLatin1String("imp_")) || token.size() != 44)
        return invalidToken;
    ApiKeyRepository keys(m_db);
    const auto row = keys.byTokenHash(sha256Hex(token));
    if (!row)
        return row.error();
    if (!*row)
        return invalidToken;
    const auto &found = *row;
    const qint64 now = nowMs();
    if (found->first.expiresAt != 0 && found->first.expiresAt <= now)
        return ServiceError{ServiceError::Kind::Unauthorized,
                            QStringLiteral("token_expired"),
                            {},
                            QStringLiteral("The API token has expired.")};
    // Renders must not queue behind last_used_at: the recorder writes it in batches on a
    // thread of its own; without one, one write per second per key at most.
    if (m_usage)
        m_usage->keyUsed(found->first.id, now);
    else if (now - found->first.lastUsedAt >= 1000)
        keys.touch(found->first.id, now);
    return ApiKeyPrincipal{found->first.id, found->second, found->first.scopes};
}

} // namespace imprint::service
