#include "server/store/crypto.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

namespace imprint::store {

namespace {

struct Argon2Limits {
    unsigned long long ops;
    size_t mem;
};

Argon2Limits argon2Limits()
{
    // Tests hash dozens of passwords; the minimum limits keep that in milliseconds.
    if (qEnvironmentVariable("IMPRINT_ARGON2_LIMITS") == QLatin1String("min"))
        return {crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN};
    return {crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE};
}

} // namespace

bool initCrypto()
{
    static const bool ok = sodium_init() >= 0;
    return ok;
}

QString randomBase62(int count)
{
    static constexpr char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    initCrypto();
    QString out;
    out.reserve(count);
    while (out.size() < count) {
        unsigned char buf[64];
        randombytes_buf(buf, sizeof buf);
        for (unsigned char b : buf) {
            // 248 = 4 * 62: values above would make the first characters likelier.
            if (b >= 248)
                continue;
            out.append(QLatin1Char(alphabet[b % 62]));
            if (out.size() == count)
                break;
        }
    }
    return out;
}

QString randomId(const QString &prefix)
{
    return prefix + randomBase62(20);
}

QString newApiToken()
{
    return QStringLiteral("imp_") + randomBase62(40);
}

QString newSessionToken()
{
    return QStringLiteral("ses_") + randomBase62(40);
}

QString newSigningSecret()
{
    return QStringLiteral("sks_") + randomBase62(40);
}

QString newWebhookSecret()
{
    initCrypto();
    QByteArray key(32, Qt::Uninitialized);
    randombytes_buf(key.data(), size_t(key.size()));
    return QStringLiteral("whsec_") + QString::fromLatin1(key.toBase64());
}

QByteArray hmacSha256(const QByteArray &key, const QByteArray &message)
{
    initCrypto();
    crypto_auth_hmacsha256_state state;
    QByteArray tag(crypto_auth_hmacsha256_BYTES, Qt::Uninitialized);
    crypto_auth_hmacsha256_init(&state, reinterpret_cast<const unsigned char *>(key.constData()), size_t(key.size()));
    crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char *>(message.constData()),
                                  quint64(message.size()));
    crypto_auth_hmacsha256_final(&state, reinterpret_cast<unsigned char *>(tag.data()));
    sodium_memzero(&state, sizeof state);
    return tag;
}

common::Expected<SecretBox, QString> SecretBox::openOrCreate(const QString &path)
{
    initCrypto();
    const QByteArray target = QFile::encodeName(path);
    if (!QFileInfo::exists(path)) {
        // Written under a private name with mode 0600 from the start (no chmod window),
        // then hard-linked into place: link() fails if another process won the race, and
        // then both use the winner's key.
        const QByteArray temp
            = target + ".tmp." + QByteArray::number(qint64(getpid())) + '.' + randomBase62(8).toLatin1();
        const int fd = ::open(temp.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0)
            return QStringLiteral("cannot create the server key file %1").arg(path);
        unsigned char key[crypto_secretbox_KEYBYTES];
        crypto_secretbox_keygen(key);
        const bool written = ::write(fd, key, sizeof key) == ssize_t(sizeof key) && ::fsync(fd) == 0;
        sodium_memzero(key, sizeof key);
        ::close(fd);
        const bool linked = written && (::link(temp.constData(), target.constData()) == 0 || errno == EEXIST);
        ::unlink(temp.constData());
        // The new name must survive a crash too: secrets sealed under this key are about to
        // be committed to the database, and without the file they could never be opened.
        if (linked) {
            const int dir = ::open(QFile::encodeName(QFileInfo(path).absolutePath()).constData(),
                                   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (dir >= 0) {
                ::fsync(dir);
                ::close(dir);
            }
        }
        if (!linked)
            return QStringLiteral("cannot write the server key file %1").arg(path);
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read the server key file %1").arg(path);
    QByteArray key = f.read(crypto_secretbox_KEYBYTES + 1);
    if (key.size() != crypto_secretbox_KEYBYTES)
        return QStringLiteral("the server key file %1 does not hold %2 bytes").arg(path).arg(crypto_secretbox_KEYBYTES);
    return SecretBox(std::move(key));
}

QByteArray SecretBox::seal(const QByteArray &plain) const
{
    QByteArray out(crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + plain.size(), Qt::Uninitialized);
    auto *nonce = reinterpret_cast<unsigned char *>(out.data());
    randombytes_buf(nonce, crypto_secretbox_NONCEBYTES);
    crypto_secretbox_easy(nonce + crypto_secretbox_NONCEBYTES,
                          reinterpret_cast<const unsigned char *>(plain.constData()), quint64(plain.size()), nonce,
                          reinterpret_cast<const unsigned char *>(m_key.constData()));
    return out;
}

std::optional<QByteArray> SecretBox::open(const QByteArray &sealed) const
{
    constexpr int overhead = crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES;
    if (sealed.size() < overhead)
        return std::nullopt;
    const auto *nonce = reinterpret_cast<const unsigned char *>(sealed.constData());
    QByteArray plain(sealed.size() - overhead, Qt::Uninitialized);
    if (crypto_secretbox_open_easy(reinterpret_cast<unsigned char *>(plain.data()), nonce + crypto_secretbox_NONCEBYTES,
                                   quint64(sealed.size() - crypto_secretbox_NONCEBYTES), nonce,
                                   reinterpret_cast<const unsigned char *>(m_key.constData()))
        != 0)
        return std::nullopt;
    return plain;
}

QString sha256Hex(const QString &text)
{
    // libsodium's SHA-256, not QCryptographicHash: every API-token request hashes its
    // token, and Qt 6.4's portable SHA-2 costs about three times as much (issue 35).
    initCrypto();
    const QByteArray utf8 = text.toUtf8();
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char *>(utf8.constData()),
                       static_cast<unsigned long long>(utf8.size()));
    char hex[2 * crypto_hash_sha256_BYTES + 1];
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    return QString::fromLatin1(hex, 2 * crypto_hash_sha256_BYTES);
}

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    initCrypto();
    return sodium_memcmp(a.constData(), b.constData(), size_t(a.size())) == 0;
}

QString hashPassword(const QString &password)
{
    initCrypto();
    const QByteArray pw = password.toUtf8();
    const Argon2Limits limits = argon2Limits();
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(out, pw.constData(), quint64(pw.size()), limits.ops, limits.mem) != 0)
        return {};
    return QString::fromLatin1(out);
}

bool verifyPassword(const QString &password, const QString &hash)
{
    initCrypto();
    const QByteArray pw = password.toUtf8();
    const QByteArray h = hash.toLatin1();
    if (h.isEmpty() || h.size() >= crypto_pwhash_STRBYTES)
        return false;
    return crypto_pwhash_str_verify(h.constData(), pw.constData(), quint64(pw.size())) == 0;
}

const QString &dummyPasswordHash()
{
    static const QString hash = hashPassword(randomBase62(24));
    return hash;
}

} // namespace imprint::store
