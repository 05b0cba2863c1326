#pragma once
// The server key that seals the secrets the server must read back — URL-signing secrets
// (signing_key_service.h) and webhook secrets (webhook_service.h): the file
// DATA/signing.key, opened or created on first use (store::SecretBox). A copy of the
// database alone then reveals no secret. Thread-safe.

#include "server/store/crypto.h"
#include "server/store/errors.h"

#include <QMutex>

#include <optional>

namespace imprint::service {

/// The sealing key of one data directory.
class ServerKey
{
public:
    /// The key file `dataDir/signing.key`.
    explicit ServerKey(QString dataDir);

    /// The box, loaded (or created) on first use; Database "signing_key_store" when the key
    /// file cannot be created or read.
    store::Result<const store::SecretBox *> box();
    /// The plain secret of a sealed one; "signing_key_store" when the key is unusable or
    /// does not open it (tampered, or another server's key).
    store::Result<QByteArray> unseal(const QByteArray &sealed);

private:
    QString m_path;
    QMutex m_mutex;
    std::optional<store::SecretBox> m_box;
};

} // namespace imprint::service
