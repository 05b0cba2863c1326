// The server key of sealed secrets (server_key.h).
#include "server/service/server_key.h"

#include <QDir>
#include <QLoggingCategory>

namespace imprint::service {

Q_LOGGING_CATEGORY(lcServerKey, "imprint.signing")

namespace {

store::ServiceError keyStoreError()
{
    return {store::ProblemCode::SigningKeyStore, {}, QStringLiteral("The server's signing-key store is unavailable.")};
}

} // namespace

ServerKey::ServerKey(QString dataDir)
    : m_path(QDir(dataDir).filePath(QStringLiteral("signing.key")))
{ }

store::Result<const store::SecretBox *> ServerKey::box()
{
    QMutexLocker lock(&m_mutex);
    if (!m_box) {
        auto opened = store::SecretBox::openOrCreate(m_path);
        if (!opened) {
            qCWarning(lcServerKey).noquote() << opened.error();
            return keyStoreError();
        }
        m_box = std::move(*opened);
    }
    return &*m_box;
}

store::Result<QByteArray> ServerKey::unseal(const QByteArray &sealed)
{
    const auto sealer = box();
    if (!sealer)
        return sealer.error();
    const auto plain = (*sealer)->open(sealed);
    if (!plain)
        return keyStoreError();
    return *plain;
}

} // namespace imprint::service
