#pragma once
// The use cases every revocable secret of a space shares — API keys and URL-signing keys
// (docs/api.md): a checked name, the row written with its audit entry, a page of the
// active ones, all of them, and revocation with its audit entry. ApiKeyService and
// SigningKeyService keep only what differs: scopes, a hashed token and authentication;
// a sealed secret and signature verification.

#include "server/common/text.h"
#include "server/service/paging.h"
#include "server/store/database.h"
#include "server/store/errors.h"
#include "server/store/repositories.h"
#include "server/store/sql.h"

namespace imprint::service {

/// What one kind of revocable secret says about itself to a caller.
struct SecretKind {
    const char *auditPrefix; ///< audit actions are PREFIX.create and PREFIX.revoke
    const char *noun; ///< "key", "signing key": in the name rule's message
    bool refuseUnsafeNameChars; ///< refuse control and bidi-override characters in a name
    store::ProblemCode notFound; ///< the code when no active key has the id
    const char *notFoundField; ///< the field it names ("" for none)
    const char *notFoundMessage; ///< with %1 for the id
};

/// The trimmed `nameIn` when it is 1–100 characters (and, where the kind refuses them,
/// free of control and bidi-override characters); else Invalid "invalid_name", field "name".
inline store::Result<QString> checkSecretName(const SecretKind &kind, const QString &nameIn)
{
    const QString name = nameIn.trimmed();
    if (name.isEmpty() || name.size() > 100)
        return store::ServiceError::invalid(store::ProblemCode::InvalidName, QStringLiteral("name"),
                                            QStringLiteral("A %1 name is 1 to 100 characters.")
                                                .arg(QLatin1String(kind.noun)));
    if (const qsizetype at = kind.refuseUnsafeNameChars ? common::firstUnsafeNameChar(name) : -1; at >= 0)
        return store::ServiceError::invalid(
            store::ProblemCode::InvalidName, QStringLiteral("name"),
            QStringLiteral("A %1 name may not contain control or bidi-override characters (U+%2 at position %3).")
                .arg(QLatin1String(kind.noun))
                .arg(uint(name.at(at).unicode()), 4, 16, QLatin1Char('0'))
                .arg(at + 1));
    return name;
}

/// Runs `insert()` (the kind's row, a Result<Done>) and the audit row PREFIX.create of
/// `row` (by `actorUserId`, empty = "cli") in one transaction; Database on a failure.
template<typename Row, typename Insert>
store::Result<store::Done> insertSecret(const store::Database &db, const SecretKind &kind, const Row &row,
                                 const QString &actorUserId, Insert insert)
{
    store::Transaction tx(db);
    if (!tx.isOpen() || !insert()
        || !store::AuditRepository(db).append(row.spaceId, actorUserId.isEmpty() ? QStringLiteral("cli") : actorUserId,
                                              QLatin1String(kind.auditPrefix) + QStringLiteral(".create"), row.id,
                                              row.name)
        || !tx.commit())
        return store::ServiceError::database();
    return store::Done{};
}

/// Page `page` of `perPage` active keys of `spaceId`, newest first (paging.h: pageOf()),
/// each passed through `adjust(Row &)` before it is returned.
template<typename Row, typename Adjust>
store::Result<ListPage<Row>> secretPage(store::RevocableSecretRepository<Row> &keys, const QString &spaceId, int page,
                                        int perPage, int maxPage, int maxPerPage, Adjust adjust)
{
    return pageOf<Row>(
        page, perPage, maxPage, maxPerPage, [&] { return keys.countActive(spaceId); },
        [&](int offset, int limit) {
            auto list = keys.listActive(spaceId, offset, limit);
            if (list)
                for (Row &k : *list)
                    adjust(k);
            return list;
        });
}

/// Revokes key `keyId` of `spaceIdIn` (empty: of whatever space owns it — CLI only) by
/// `actor`, with the audit row PREFIX.revoke in the same transaction. NotFound (the kind's
/// code) when no active key matches.
template<typename Row>
store::Result<store::Done> revokeSecret(const store::Database &db, store::RevocableSecretRepository<Row> &keys,
                                 const SecretKind &kind, const QString &spaceIdIn, const QString &keyId,
                                 const QString &actor)
{
    const store::ServiceError notFound
        = store::ServiceError::notFound(kind.notFound, QString::fromUtf8(kind.notFoundMessage).arg(keyId),
                                        QString::fromLatin1(kind.notFoundField));
    QString spaceId = spaceIdIn;
    if (spaceId.isEmpty()) {
        const auto key = keys.activeById({}, keyId);
        if (!key)
            return key.error();
        if (!*key)
            return notFound;
        spaceId = (*key)->spaceId;
    }
    store::Transaction tx(db);
    if (!tx.isOpen())
        return store::ServiceError::database();
    const auto revoked = keys.revoke(spaceId, keyId, actor, store::nowMs());
    if (!revoked)
        return revoked.error();
    if (!*revoked)
        return notFound;
    if (!store::AuditRepository(db).append(spaceId, actor, QLatin1String(kind.auditPrefix) + QStringLiteral(".revoke"),
                                           keyId)
        || !tx.commit())
        return store::ServiceError::database();
    return store::Done{};
}

} // namespace imprint::service
