#include "server/store/crypto.h"

#include <QCryptographicHash>

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

QString sha256Hex(const QString &text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
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
