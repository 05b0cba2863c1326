#pragma once
// Secrets and identifiers (docs/api.md, §5 "IDs"): every random byte comes from
// libsodium's CSPRNG, every secret comparison is constant time.

#include "server/common/expected.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace imprint::store {

/// Initialises libsodium once per process. Safe to call from any thread, any number of
/// times. Returns false only if the library cannot initialise (then nothing here is safe).
bool initCrypto();

/// `count` characters of [0-9A-Za-z] drawn uniformly (rejection sampling, no modulo bias).
QString randomBase62(int count);

/// A prefixed random identifier such as `key_` + 20 base62 chars (≈119 bits), docs/architecture.md.
QString randomId(const QString &prefix);

/// A new plaintext API token: `imp_` + 40 base62 characters (≈238 bits), docs/api.md.
QString newApiToken();

/// A new plaintext session token: `ses_` + 40 base62 characters.
QString newSessionToken();

/// A new URL-signing secret: `sks_` + 40 base62 characters (≈238 bits). Its UTF-8 bytes
/// are the HMAC key, so shell, Node and Python sign with the text as printed.
QString newSigningSecret();

/// A new webhook signing secret as the Standard Webhooks specification writes it:
/// `whsec_` + base64 (RFC 4648 §4, padded) of 32 random bytes, which are the HMAC key.
QString newWebhookSecret();

/// HMAC-SHA-256 (RFC 2104, libsodium crypto_auth_hmacsha256) of `message` under `key` of
/// any length: the 32-byte tag.
QByteArray hmacSha256(const QByteArray &key, const QByteArray &message);

/// Secrets the server must read back (URL-signing secrets), encrypted at rest with
/// libsodium's secretbox (XSalsa20-Poly1305) under one 32-byte server key kept in a file
/// of the data directory. A database dump alone then reveals no signing secret.
class SecretBox
{
public:
    /// The box of the key file `path`, which is created (32 random bytes, mode 0600,
    /// written to a temporary file, fsynced and linked into place, so concurrent first uses
    /// agree and the key outlives a crash)
    /// when missing. The error says why when the file cannot be created or read, or does
    /// not hold exactly 32 bytes.
    static common::Expected<SecretBox, QString> openOrCreate(const QString &path);

    /// nonce (24 random bytes) followed by the authenticated ciphertext of `plain`.
    QByteArray seal(const QByteArray &plain) const;
    /// The plaintext of a seal() result; std::nullopt when it is too short or was not
    /// sealed under this key (tampered, or another server key).
    std::optional<QByteArray> open(const QByteArray &sealed) const;

private:
    explicit SecretBox(QByteArray key)
        : m_key(std::move(key))
    { }
    QByteArray m_key;
};

/// Lower-case hex SHA-256 of the UTF-8 text: the only form in which tokens are stored.
QString sha256Hex(const QString &text);

/// Constant-time equality (sodium_memcmp) for secrets of equal length; different lengths
/// compare unequal without looking at the content.
bool constantTimeEquals(const QByteArray &a, const QByteArray &b);

/// Argon2id hash (crypto_pwhash_str) of a password, in libsodium's self-describing string
/// form. Slow on purpose (~0.1 s, 64 MiB with the interactive limits): never call it on
/// the HTTP thread. The environment variable IMPRINT_ARGON2_LIMITS=min selects libsodium's
/// minimum limits so test suites stay fast. Returns an empty string if memory runs out.
QString hashPassword(const QString &password);

/// Verifies a password against a hashPassword() string (crypto_pwhash_str_verify); false
/// on mismatch or a malformed hash. Same cost and threading rule as hashPassword().
bool verifyPassword(const QString &password, const QString &hash);

/// A valid Argon2id hash of a random password, used to spend the same time on unknown
/// e-mail addresses as on known ones, so login timing does not reveal which exist.
const QString &dummyPasswordHash();

} // namespace imprint::store
