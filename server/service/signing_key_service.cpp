#include "server/service/signing_key_service.h"

#include "server/service/revocable_secrets.h"

#include "server/store/repositories.h"

#include <QLoggingCategory>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

namespace imprint::service {

using store::nowMs;
using store::SigningKey;
using store::SigningKeyRepository;

namespace {

const SecretKind kSigningKey{"signing_key",
                             "signing key",
                             false,
                             ProblemCode::SigningKeyNotFound,
                             "",
                             "No active signing key '%1' in this space."};

ServiceError notFound(const QString &keyId)
{
    return ServiceError::notFound(kSigningKey.notFound, QString::fromUtf8(kSigningKey.notFoundMessage).arg(keyId));
}

// "true", "1", "yes" as the render route reads booleans: a draft however it is spelt.
bool truthy(const QString &value)
{
    const QString v = value.trimmed().toLower();
    return v == QLatin1String("true") || v == QLatin1String("1") || v == QLatin1String("yes");
}

} // namespace

SigningKeyService::SigningKeyService(const store::Database &db, QString dataDir)
    : m_db(db)
    , m_serverKey(std::move(dataDir))
{ }

std::vector<store::Role> SigningKeyService::managerRoles()
{
    return {store::Role::Owner, store::Role::Admin};
}

Result<CreatedSigningKey> SigningKeyService::create(const QString &spaceId, const QString &nameIn,
                                                    const QString &actorUserId)
{
    const auto name = checkSecretName(kSigningKey, nameIn);
    if (!name)
        return name.error();
    const auto sealer = m_serverKey.box();
    if (!sealer)
        return sealer.error();
    CreatedSigningKey out{.key = {.id = store::randomId(QStringLiteral("sgk_")),
                                  .spaceId = spaceId,
                                  .name = *name,
                                  .createdBy = actorUserId,
                                  .createdByEmail = {}, // joined only when listed
                                  .createdAt = nowMs()},
                          .secret = store::newSigningSecret()};
    const auto inserted = insertSecret(m_db, kSigningKey, out.key, actorUserId, [&] {
        return SigningKeyRepository(m_db).insert(out.key, (*sealer)->seal(out.secret.toUtf8()));
    });
    if (!inserted)
        return inserted.error();
    return out;
}

Result<SigningKeyPage> SigningKeyService::listPage(const QString &spaceId, int page, int perPage)
{
    SigningKeyRepository keys(m_db);
    return secretPage(keys, spaceId, page, perPage, kMaxPage, kMaxPerPage, [](SigningKey &) { });
}

Result<QList<SigningKey>> SigningKeyService::listAll(const QString &spaceId)
{
    return SigningKeyRepository(m_db).listAll(spaceId);
}

Result<Done> SigningKeyService::revoke(const QString &spaceId, const QString &keyId, const QString &actor)
{
    SigningKeyRepository keys(m_db);
    return revokeSecret(m_db, keys, kSigningKey, spaceId, keyId, actor);
}

Result<QString> SigningKeyService::secretOf(const QString &spaceId, const QString &keyId)
{
    const auto row = SigningKeyRepository(m_db).activeSecret(spaceId, keyId);
    if (!row)
        return row.error();
    if (!*row)
        return notFound(keyId);
    const auto secret = m_serverKey.unseal((*row)->sealedSecret);
    if (!secret)
        return secret.error();
    return QString::fromUtf8(*secret);
}

Result<SignedUrlGrant> SigningKeyService::verify(const QString &path, const QueryItems &items, qint64 nowSeconds)
{
    QString kid, sig, exp;
    bool draft = false;
    for (const auto &item : items) {
        if (item.first == QLatin1String("kid"))
            kid = item.second;
        else if (item.first == QLatin1String("sig"))
            sig = item.second;
        else if (item.first == QLatin1String("exp"))
            exp = item.second;
        else if (item.first == QLatin1String("draft"))
            draft = draft || truthy(item.second);
    }
    if (kid.isEmpty())
        return ServiceError::invalid(ProblemCode::MissingField, QStringLiteral("kid"),
                                     QStringLiteral("A signed URL names its signing key in 'kid'."));
    const ServiceError invalid = ServiceError::forbidden(
        ProblemCode::SignatureInvalid,
        QStringLiteral(
            "The URL's signature does not match: a parameter was changed, or its key is unknown or revoked."));

    const auto row = SigningKeyRepository(m_db).activeSecret({}, kid);
    if (!row)
        return row.error();
    if (!*row) {
        ++m_invalid;
        return invalid;
    }
    const auto secret = m_serverKey.unseal((*row)->sealedSecret);
    if (!secret)
        return secret.error();
    const QByteArray given
        = QByteArray::fromBase64(sig.toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    const QByteArray expected = store::hmacSha256(*secret, canonicalString(path, items).toUtf8());
    if (!store::constantTimeEquals(given, expected)) {
        ++m_invalid;
        return invalid;
    }
    // Only an authentic URL gets this far, so exp and draft are the signer's own words.
    qint64 expiresAt = 0;
    if (!exp.isEmpty()) {
        bool ok = false;
        expiresAt = exp.toLongLong(&ok);
        if (!ok || expiresAt <= 0)
            return ServiceError::invalid(ProblemCode::InvalidParameter, QStringLiteral("exp"),
                                         QStringLiteral("'exp' must be a Unix time in seconds."));
        if (expiresAt < nowSeconds) {
            ++m_expired;
            return ServiceError::forbidden(
                ProblemCode::SignatureExpired,
                QStringLiteral("The signed URL expired at %1.").arg(store::isoFromMs(expiresAt * 1000)));
        }
    }
    if (draft)
        return ServiceError::invalid(ProblemCode::InvalidParameter, QStringLiteral("draft"),
                                     QStringLiteral("Signed URLs render published pages only."));
    return SignedUrlGrant{(*row)->key.id, (*row)->space, expiresAt};
}

QString SigningKeyService::canonicalString(const QString &path, const QueryItems &items)
{
    QList<QPair<QByteArray, QByteArray>> encoded;
    encoded.reserve(items.size());
    for (const auto &item : items) {
        if (item.first == QLatin1String("sig"))
            continue;
        // QUrl::toPercentEncoding keeps exactly RFC 3986's unreserved set by default.
        encoded.append({QUrl::toPercentEncoding(item.first), QUrl::toPercentEncoding(item.second)});
    }
    std::sort(encoded.begin(), encoded.end());
    QByteArray out = path.toUtf8() + '\n';
    for (qsizetype i = 0; i < encoded.size(); ++i) {
        if (i > 0)
            out += '&';
        out += encoded[i].first + '=' + encoded[i].second;
    }
    return QString::fromLatin1(out);
}

QString SigningKeyService::signature(const QString &secret, const QString &canonical)
{
    return QString::fromLatin1(store::hmacSha256(secret.toUtf8(), canonical.toUtf8())
                                   .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

Result<QString> SigningKeyService::signUrl(const QString &spaceId, const QString &keyId, const QString &urlText,
                                           qint64 expiresInSeconds, qint64 nowSeconds)
{
    const QString renderPath = QStringLiteral("/api/v1/render");
    const QUrl url(urlText, QUrl::StrictMode);
    if (!url.isValid() || !url.path().endsWith(renderPath))
        return ServiceError::invalid(
            ProblemCode::InvalidUrl, QStringLiteral("url"),
            QStringLiteral("The URL must be a render URL, e.g. https://img.example.com%1?pageId=pg_…").arg(renderPath));
    if (expiresInSeconds < 0 || expiresInSeconds > kMaxExpiresInSeconds)
        return ServiceError::invalid(ProblemCode::InvalidExpires, QStringLiteral("expires"),
                                     QStringLiteral("The expiry is a positive number of seconds, at most %1 (10 years).")
                                         .arg(kMaxExpiresInSeconds));
    QueryItems items;
    // A URL signed before is signed afresh: its old kid, exp and sig are replaced.
    for (const auto &item : QUrlQuery(url).queryItems(QUrl::FullyDecoded))
        if (item.first != QLatin1String("kid") && item.first != QLatin1String("exp")
            && item.first != QLatin1String("sig"))
            items.append(item);
    items.append({QStringLiteral("kid"), keyId});
    if (expiresInSeconds > 0)
        items.append({QStringLiteral("exp"), QString::number(nowSeconds + expiresInSeconds)});
    const auto secret = secretOf(spaceId, keyId);
    if (!secret)
        return secret.error();
    return QString::fromLatin1(url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment).toEncoded()) + QLatin1Char('?')
           + signedQuery(*secret, renderPath, items);
}

QString SigningKeyService::signedQuery(const QString &secret, const QString &path, const QueryItems &items)
{
    const QString canonical = canonicalString(path, items);
    const QString query = canonical.mid(canonical.indexOf(QLatin1Char('\n')) + 1);
    const QString sig = signature(secret, canonical);
    return query.isEmpty() ? QStringLiteral("sig=") + sig : query + QStringLiteral("&sig=") + sig;
}

} // namespace imprint::service
